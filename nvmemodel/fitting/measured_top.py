"""The most a curve measured, as a model's ceiling or limit is checked against it: each point read by its mean *and* by
its kept runs' median, the larger of the two.

A ceiling is an upper bound of what was measured. The model fits the points' means (the fit is over means, with their
standard errors: :mod:`~nvmemodel.fitting.models`), but a mean can hang on one run: three runs at 6.02 / 58.29 /
76.30 K IOPS have a mean (46.87 K) below two of them, and a fitted "IOPS ceiling of 52.90 K" cleared that mean while
lying below the point's median — the level every other sentence reads the point at
(:func:`~nvmemodel.fitting.level_stat.levels`). So a fitted ceiling is checked against the larger of each point's mean
and median, and where the median is the larger, the words name it as the median of the point's runs — never a mean
that one run dragged down presented as "measured" (set after round 26 was read, FA:
r26_here-refill_loop-tmpfs_psync_seqwrite_refill-buffers_bs_repeats, "an IOPS ceiling of 52.90 K IOPS … (between the
46.87 K IOPS measured and 60.29 K IOPS …)" over 4 KiB runs of 6.02 / 58.29 / 76.30 K IOPS).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["MeasuredTop", "point_medians", "measured_top", "top_note"]


@dataclass(frozen=True)
class MeasuredTop:
    """The largest measurement: ``value`` at point ``index`` (of the evidence's x), ``by_median`` where it is that
    point's kept runs' median above its mean, ``runs`` (its kept runs: ``lo``–``hi``, 0 where unknown), ``mean`` that
    point's mean."""

    value: float
    index: int
    by_median: bool
    runs: int = 0
    lo: float = float("nan")
    hi: float = float("nan")
    mean: float = float("nan")


def _points_of(result, ev, cf=None):
    """The point table (``cf.points``, else the facts of the curve ``ev`` holds) aligned with ``ev.x``, or None."""
    if cf is None and getattr(result, "chosen", None) is not None:  # (a stand-in result has no curves to look up)
        from .caution_claims import _facts_of

        cf = _facts_of(result, ev)
    p = getattr(cf, "points", None)
    if p is None or "level" not in p or "runs_kept" not in p:
        return None
    x = np.asarray(ev.x, float)
    px = p["x"].to_numpy(float)
    if px.size != x.size or not np.allclose(np.sort(x), px):
        return None
    return p


def point_medians(result, ev, cf=None) -> tuple[np.ndarray, np.ndarray]:
    """Each point's kept runs' median (in the curve's y unit) and its number of kept runs, aligned with ``ev.x``;
    NaN and 0 where a point's runs cannot be told apart (one run, a transcribed table) or no point table matches."""
    x = np.asarray(ev.x, float)
    med, runs = np.full(x.size, np.nan), np.zeros(x.size, int)
    p = _points_of(result, ev, cf)
    if p is None:
        return med, runs
    px = p["x"].to_numpy(float)
    n = p["kept_runs"].to_numpy(float) if "kept_runs" in p else np.zeros(len(p))
    lv = p["level"].to_numpy(float)
    for i, xv in enumerate(x):
        j = int(np.argmin(np.abs(px - xv)))
        if n[j] >= 2 and np.isfinite(lv[j]):
            med[i], runs[i] = lv[j], int(n[j])
    return med, runs


def measured_top(result, ev, cf=None, scale=None) -> MeasuredTop:
    """The largest of the points' means (``ev.y``) and their kept runs' medians, each × ``scale`` where given (along
    block size: IOPS ÷ or × the size, to check a ceiling in the other unit); a median only where it lies above its own
    point's mean."""
    x = np.asarray(ev.x, float)
    s = np.ones(x.size) if scale is None else np.asarray(scale, float)
    mean = np.asarray(ev.y, float) * s
    med, runs = point_medians(result, ev, cf)
    med = med * s
    best = np.where(np.isfinite(med) & (med > mean), med, mean)
    i = int(np.nanargmax(best))
    by_median = bool(np.isfinite(med[i]) and med[i] > mean[i])
    lo = hi = float("nan")
    if by_median:
        p = _points_of(result, ev, cf)
        j = int(np.argmin(np.abs(p["x"].to_numpy(float) - x[i])))
        k = np.asarray(p["runs_kept"].iloc[j], float) * s[i]
        lo, hi = float(np.min(k)), float(np.max(k))
    return MeasuredTop(float(best[i]), i, by_median, int(runs[i]) if by_median else 0, lo, hi, float(mean[i]))


def top_note(top: MeasuredTop, unit: str, spread: bool = True) -> str:
    """", the median of its 3 runs, which span 6.02 K IOPS to 76.30 K IOPS: their mean, 46.87 K IOPS, hangs on one run"
    where the top is a median (the span and the mean only where the runs differ by more than
    :data:`~.wide_runs.WIDE_RUNS`, and with ``spread``), "" where it is a mean."""
    from .wide_runs import WIDE_RUNS
    from .wording import fmt_y, span

    if not top.by_median:
        return ""
    head = f", the median of its {top.runs} runs"
    if not spread or not top.hi > WIDE_RUNS * top.lo:
        return head
    return (f"{head}, which span {span(fmt_y(top.lo, unit), fmt_y(top.hi, unit), ' to ')}: their mean, "
            f"{fmt_y(top.mean, unit)}, hangs on one run")
