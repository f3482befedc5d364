"""A saturation level stated over the points it describes: where points on the plateau have kept runs that split into
groups more than :data:`~nvmemodel.fitting.point_runs.SPLIT_RATIO` apart (no single level), the level is read and
said over the points whose runs do not split, and each split point is named with its run groups and whether any of
them lies at that level — no level is read there.

Set after round 25's fixes were reviewed (the verification pass had learned to drop a level stated over such a point,
and with it a right onset and a right level over the other points:
r12_here-sched_loop-kyber_libaio_randwrite_iodepth_repeats, 87.66–99.26 K at QD4–8 said "over iodepth = 4–32" beside
QD16's 23–34 K and 122 K and QD32's 42–43 K and 114 K; r15_here-ext4_ext4-on-loop_libaio_randread_iodepth_repeats,
77.65–90.23 K at QD4 and 16 beside QD8's 40.8 K and 99–110 K and QD32's 38–55 K and 111 K).
"""

from __future__ import annotations

import numpy as np

from .fact_base import PAYS, ROUNDING, _gain

__all__ = ["MIN_WHOLE", "run_groups", "split_level"]

#: points on the level (the onset counted) whose kept runs do not split, at least this many for the level to be
#: stated with the split points set apart and the verification pass told so; with one the level is that one point's,
#: said as such, and the pass keeps its check over the split points (set after round 25's fixes were reviewed)
MIN_WHOLE = 2


def run_groups(runs) -> list[np.ndarray]:
    """A point's kept runs, sorted, cut wherever two neighbours lie more than
    :data:`~nvmemodel.fitting.point_runs.SPLIT_RATIO` apart (one group where the point has a single level)."""
    from .point_runs import SPLIT_RATIO

    v = np.sort(np.asarray(runs, float))
    if v.size < 2 or v.min() <= 0:
        return [v]
    return np.split(v, np.flatnonzero(v[1:] / v[:-1] > SPLIT_RATIO) + 1)


def _at(g: np.ndarray, lo: float, hi: float) -> bool:
    """Some run of the group within [lo, hi] past the printing's rounding (fact_base.ROUNDING): the group is at the
    level."""

    return not (g.min() > hi * (1 + ROUNDING) or g.max() < lo * (1 - ROUNDING))


def _supported(x, ym, runs, split, k: int, whole: list[int], by_runs: bool) -> bool:
    """The onset ``k`` read on the points whose runs do not split alone: no later such point's kept mean gains
    :data:`PAYS` per doubling over the onset's with every one of its kept runs above the onset's (or, one run a point,
    by the mean alone); and, where the runs decided the onset (``by_runs``), the onset's runs all above an earlier
    such point's."""
    for j in (j for j in whole if j > k):
        a, b = runs[k], runs[j]
        apart = a.size < 2 or b.size < 2 or b.min() > a.max()
        if _gain(ym[k], ym[j], x[k], x[j]) >= PAYS and apart:
            return False
    if by_runs and k > 0:
        below = [i for i in range(k) if not split[i] and runs[i].size and runs[k].size and runs[k].min() > runs[i].max()]
        return bool(below)
    return True


def split_level(x, ym, runs, split, k: int, level, lo: float, hi: float, by_runs: bool) -> dict | None:
    """The level's points set apart where some of them split (None where none does, or the onset itself splits: then
    the level is left as before and the verification pass decides). ``level``: the indices of the level's points from
    the onset ``k``; ``lo``–``hi``: the level's range, read from the points that do not split. Returns ``whole_x`` (the
    points the level is read at), ``points`` (each split point: ``x``, ``groups`` as (lo, hi), ``at`` whether each
    group lies at the level) and ``apart``: True where at least :data:`MIN_WHOLE` points do not split and they support
    the onset — the words name the split points apart and the verification pass reads the level at the others only."""
    level = [int(i) for i in level]
    sp = [i for i in level if split[i]]
    if not sp or split[k]:
        return None
    whole = [i for i in level if not split[i]]
    points = []
    for i in sp:
        gs = run_groups(runs[i])
        points.append({"x": float(x[i]), "groups": [(float(g.min()), float(g.max())) for g in gs],
                       "at": [_at(g, lo, hi) for g in gs]})
    apart = len(whole) >= MIN_WHOLE and _supported(x, ym, runs, split, k, whole, by_runs)
    if len(whole) >= MIN_WHOLE and not apart:
        return None  # the onset not borne out by the points that do not split: as before (the pass decides)
    return {"whole_x": [float(x[i]) for i in whole], "whole_index": whole, "points": points, "apart": bool(apart)}
