"""One statistic for a point's level in every sentence: the kept runs' median picks "the maximum", and a run far
outside a stated level range is counted, not left unsaid.

The plateau and cap sentences give each point's level as the median of its kept runs
(:func:`~nvmemodel.fitting.point_runs.point_levels`); a CPU sentence that took "the maximum" by the points' means named
another point than the medians put on top, and a range of medians left a run far above it in no number (set after
round 23 was read, AD: r23_here-zramlz4 zram QD, "at the maximum (iodepth = 1)" by its mean 126.83 K where the
medians put QD 16 (114.79 K) on top, and the plateau "111.68 K IOPS to 114.79 K IOPS" with a 152.35 K run at QD 1 in
no printed number; r23 zram bs, "at the maximum (256 KiB)" by one 495 MB/s run where the medians put 1 MiB on top).
"""
from __future__ import annotations

import numpy as np

from .wording import fmt_y

#: a kept run more than this share outside a stated level range is counted beside it (the hand read's rule, set after
#: round 23 was read, AD: 152.35 K beside a plateau of 111.68–114.79 K)
OUTSIDE = 0.10
#: at most this many points' far runs are listed one by one; more are counted with their span (a sentence, not a table)
MAX_LISTED = 2


def levels(p) -> np.ndarray:
    """Each point's level: the median of its kept runs (``level``), the point's value where there is none."""
    y = p["y"].to_numpy(float)
    if "level" not in p:
        return y
    lv = p["level"].to_numpy(float)
    return np.where(np.isfinite(lv), lv, y)


def top_index(p, allowed=None) -> int:
    """The index of "the maximum": the point with the highest level (:func:`levels`); ``allowed``: a mask of the
    points that may be it."""
    lv = levels(p)
    if allowed is not None:
        lv = np.where(np.asarray(allowed, bool), lv, np.nan)
    return int(np.nanargmax(lv))


def outside_words(result, p, i0: int, i1: int, lo: float, hi: float, only=None) -> str:
    """" 1 run of 3 at iodepth = 1 lay at 152.35 K IOPS, more than 10% outside that range." — the kept runs of points
    ``i0``..``i1`` (of those in ``only`` where given: split points set apart are said on their own) more than
    :data:`OUTSIDE` outside ``lo``–``hi``; "" where none is."""
    from .fact_words import _xv

    if "runs_kept" not in p or not (np.isfinite(lo) and np.isfinite(hi)):
        return ""
    u, parts, every, at = result.y_unit, [], [], []
    total = 0
    for i in range(i0, i1 + 1):
        if only is not None and i not in only:
            continue
        k = np.asarray(p["runs_kept"].iloc[i], float)
        total += k.size
        far = k[(k > hi * (1 + OUTSIDE)) | (k < lo * (1 - OUTSIDE))]
        if far.size and k.size >= 2:
            every += list(far)
            at.append(float(p["x"].iloc[i]))
            parts.append(f"{far.size} run{'s' * (far.size > 1)} of {k.size} at {result.x} = "
                         f"{_xv(result, at[-1])} lay at {', '.join(fmt_y(v, u) for v in far)}")
    if not parts:
        return ""
    if len(parts) > MAX_LISTED:  # many: counted with their span, not listed one by one
        return (f" {len(every)} of the {total} runs at {len(at)} of these points lay more than {OUTSIDE:.0%} outside "
                f"that range ({fmt_y(min(every), u)} to {fmt_y(max(every), u)}).")
    return f" {'; '.join(parts)}, more than {OUTSIDE:.0%} outside that range."
