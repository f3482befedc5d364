"""A plateau reached after an approach point: the onset point (the first no later point gains 10 % per doubling over)
lies clearly below the points after it, which hold one level between them. Its level and spread are then those later
points', and the onset point is named beside it as near saturation, with its share of the level — never a mean and sd
over the approach point and the flat level together.

Set after round 28 was read (``_blind_rounds/round28_hand_read_part1.md`` JA, ``_part2.md`` KE):

- JA (r28_spdk517 … 4k-randwrite_qd32_numjobs): "flattens at 537.00 K IOPS (sd 16.11 K over 3 points … numjobs =
  4–64)" over 518.4, 546.0, 546.6 K — the stated level below both points that define it, the sd ×44 their spread.
- KE (r28_crimsonbench … 4k-randread-nj1_qd): "flattens at 66.42 K IOPS (sd 2.54 K over 3 points at 8–32)" over 63.5,
  67.6, 68.2 K.

Pure numbers: the words are ``saturation_claims``'.
"""
from __future__ import annotations

import numpy as np

#: the onset point lies below every later point of the level by more than this many times the spread (largest −
#: smallest) among those later points (set after round 28 was read: JA, KE — a mirror of round 27 GB's last point
#: below the level). r28 spdk517 seqwrite (544.3, 544.3, 546.3 K: the onset point at the later points' lowest) keeps
#: its mean.
APPROACH_SPREAD = 3.0
#: … and by more than this share of the later points' level: a smaller gap is a table's rounding, not an approach
#: (set after round 28 was read)
APPROACH_MIN = 0.02


def approach_point(x, yl, kr, k: int, level) -> dict | None:
    """The onset point ``k`` of a plateau over the point indices ``level`` (``level[0] == k``) set apart from the
    level: ≥ 2 later points, every one above it by more than :data:`APPROACH_SPREAD` × their own spread and
    :data:`APPROACH_MIN` of their level, and — where the points have repeats (``kr``: each point's kept runs) — every
    kept run at ``k`` below every kept run of the later points (repeats whose noise covers the gap: nothing set apart).
    Never at the first point (nothing approaches). ``{"x", "y", "value", "lo", "hi", "sd", "x_from", "x_to",
    "points", "share", "index_from"}`` or None."""
    x, yl = np.asarray(x, float), np.asarray(yl, float)
    level = np.asarray(level, int)
    if k <= 0 or level.size < 3 or int(level[0]) != k:
        return None
    later = level[1:]
    lv = yl[later]
    if not (np.isfinite(lv).all() and np.isfinite(yl[k]) and yl[k] > 0):
        return None
    spread, gap, value = float(lv.max() - lv.min()), float(lv.min() - yl[k]), float(lv.mean())
    if not gap > max(APPROACH_SPREAD * spread, APPROACH_MIN * value):
        return None
    runs = [np.asarray(kr[i], float) for i in (k, *later)]
    if any(r.size >= 2 for r in runs) and all(r.size for r in runs):
        if not runs[0].max() < min(r.min() for r in runs[1:]):
            return None
    return {"x": float(x[k]), "y": float(yl[k]), "value": value, "lo": float(lv.min()), "hi": float(lv.max()),
            "sd": float(lv.std(ddof=1)), "x_from": float(x[later[0]]), "x_to": float(x[later[-1]]),
            "points": int(later.size), "share": float(yl[k] / value), "index_from": int(later[0])}
