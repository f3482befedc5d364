"""Two checks an onset read from the point levels must pass before it is said (set after round 24 was read, class CC).

An onset at ``x_k`` says the level is reached there and held after it. Two readings broke that on repeated runs:

- a later step the runs themselves read as a rise: every run at ``x_{a+1}`` above every run at ``x_a`` (a ≥ k), the
  step gaining :data:`~nvmemodel.fitting.fact_base.PAYS` or more per doubling by the means and by the medians, while
  the last point's median still gains PAYS per doubling over the onset's — the onset's mean stood on one far run
  (r24_here-hipri … pvsync2-hipri randread numjobs: 2-job runs 46.2 / 50.4 / 96.0 K, every 8-job run above every
  4-job run, +27 % by the means, said "saturated from numjobs = 2 … the points scatter (-13 % … +27 %)"). Such a
  series still rises (:func:`later_rise`).
- an onset whose earlier points already lie on the level: each earlier point's median inside the level's own range
  (the medians from the onset to the highest point after it) — the onset point is a bump in that scatter, not where
  the level begins (r24_here-zramuring … iouring randread iodepth: QD1 and QD2 medians 89.0 and 91.9 K inside the
  plateau's 87.5–149.5 K, "saturates from iodepth = 4"). The level is then read from the first point
  (:func:`bump_before`).

Counter-cases (unchanged): tight repeats whose later steps overlap (r24 zramlzo ±2–7 %, zramzero ±3 %); an onset
below a tight level (r23 iouringlog randread, onset 4, level ±3 %); r23 cpusplit (4 → 8 apart by 0.7 %, but the
8-job median gains under PAYS per doubling over the onset's: "a level or a slow rise, these runs cannot tell").
"""

from __future__ import annotations

import numpy as np

from .fact_base import PAYS, _gain

__all__ = ["bump_before", "later_rise"]

#: the fewest runs at a point for its runs to be told apart from a neighbour's: two (one run has no spread)
MIN_RUNS = 2


def later_rise(x, ym, yl, runs, split, k: int) -> dict | None:
    """The first step ``a → a+1`` after onset index ``k`` whose runs lie apart (every kept run of ``a+1`` above every
    kept run of ``a``, neither split) and which gains :data:`PAYS` per doubling by the kept means ``ym`` and by the
    medians ``yl``, where also the last point's median gains PAYS per doubling over the onset's: the series still
    rises past the onset. None otherwise (or with fewer than :data:`MIN_RUNS` runs at a point of the step)."""
    n = len(x)
    if k is None or k >= n - 1 or not _gain(yl[k], yl[-1], x[k], x[-1]) >= PAYS:
        return None
    for a in range(k, n - 1):
        b = a + 1
        ra, rb = runs[a], runs[b]
        if ra.size < MIN_RUNS or rb.size < MIN_RUNS or split[a] or split[b]:
            continue
        if rb.min() > ra.max() and _gain(ym[a], ym[b], x[a], x[b]) >= PAYS and _gain(yl[a], yl[b], x[a], x[b]) >= PAYS:
            return {"x0": float(x[a]), "x1": float(x[b]), "gain_mean": float(ym[b] / ym[a] - 1),
                    "gain_median": float(yl[b] / yl[a] - 1), "per_doubling": float(_gain(ym[a], ym[b], x[a], x[b])),
                    "lo1": float(rb.min()), "hi0": float(ra.max()), "onset_x": float(x[k]),
                    "onset_median": float(yl[k]), "last_median": float(yl[-1]),
                    "median_gain": float(_gain(yl[k], yl[-1], x[k], x[-1]))}
    return None


def bump_before(x, ym, yl, split, k: int) -> dict | None:
    """Onset index ``k`` > 0 whose every earlier point's median lies within the level's range — the medians of the
    unsplit points from ``k`` to the highest mean after it (a fall after the maximum is no part of the level) — with at
    least two such points: the level is reached from the first point and ``x_k`` is a bump. None otherwise."""
    if k is None or k < 1:
        return None
    n = len(x)
    i_max = k + int(np.argmax(ym[k:]))
    lvl = [i for i in range(k, i_max + 1) if not split[i]]
    if len(lvl) < 2:
        return None
    lo, hi = float(min(yl[i] for i in lvl)), float(max(yl[i] for i in lvl))
    if not all(lo <= yl[i] <= hi for i in range(k)):
        return None
    return {"x_bump": float(x[k]), "bump": float(yl[k]), "xs_before": [float(v) for v in x[:k]],
            "meds_before": [float(v) for v in yl[:k]], "lo": lo, "hi": hi, "x_to": float(x[i_max]),
            "above_later": [float(x[j]) for j in range(k + 1, n) if yl[j] < yl[k]]}
