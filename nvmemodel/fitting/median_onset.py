"""An onset read on the medians of the kept runs where one run keeps rising: the first doubling of load whose medians
gain under 10 % while fio's mean latency grows nearly with the load (Little's law holding), no later doubling's medians
gaining 10 % — saturated there, the level the medians from it, even where the means still gain (one run above the
others pulls them) and the runs of the last points overlap.

Set after round 28 was read (``_blind_rounds/round28_hand_read_part4.md`` MA: r28_here-vdawrite … iodepth_repeats,
"near saturation at the largest iodepth … the runs of the last two points overlap, so the level is not read", where
the medians gained +9 % (8 → 16) and +7 % (16 → 32) per doubling for ×1.83 and ×1.87 the latency, Little 1.00; one run
rose to 103.65 K at 32, the others stayed at 60–74 K). Never where the medians' last doubling still gains 10 %
(r28 vdanumjobs +17 %, vdafsync +40 %), nor on one run a point (the steps speak).

Pure numbers: the words are ``saturation_claims``'.
"""
from __future__ import annotations

import numpy as np

from .fact_base import PAYS
from .latency_growth import LITTLE_TOL

#: fio's mean latency grows at least this much per doubling of load over every step from the onset: the added load
#: queued (set after round 28 was read: MA, ×1.83 and ×1.87; Little's law at a held rate gives ×2)
LAT_PER_DOUBLING = 1.7
#: the fewest steps from the onset to the last point: a level told by two steps at least (set after round 28 was read)
MIN_STEPS = 2


def median_onset(p) -> dict | None:
    """``{"k", "x", "med", "med_gains", "lat_steps", "lat0", "lat1", "little_lo", "little_hi", "lo", "hi", "value",
    "runs_lo", "runs_hi", "mean0", "mean1", "mean_gain", "top_run", "other_runs", "x_to", "points"}`` of the first
    point ``k`` from which every step's median gain per doubling (and each later point's over ``k``) is under
    :data:`PAYS` while fio's mean latency (the kept runs' median) grew ≥ :data:`LAT_PER_DOUBLING` per doubling at every
    step and Little's law held within ``LITTLE_TOL`` — or None (fewer than two runs at a point, no latency, …)."""
    need = ("x", "y", "level", "lat_kept", "little", "n_runs", "runs_kept")
    if not all(c in p for c in need):
        return None
    x, ym, yl, lat, lit, reps = (p[c].to_numpy(float) for c in ("x", "y", "level", "lat_kept", "little", "n_runs"))
    n = x.size
    if n < MIN_STEPS + 2 or not (np.isfinite(reps).all() and (reps >= 2).all()) \
            or not (np.isfinite(yl).all() and (yl > 0).all() and (x > 0).all()):
        return None

    def per(a, b, v):
        return (v[b] / v[a]) ** (1 / np.log2(x[b] / x[a])) - 1

    for k in range(1, n - MIN_STEPS):
        if per(k - 1, k, yl) < PAYS:  # the step into k must still pay: else the onset lies earlier
            continue
        if any(per(k, j, yl) >= PAYS for j in range(k + 1, n)) or any(per(i, i + 1, yl) >= PAYS for i in range(k, n - 1)):
            continue
        seg = slice(k, n)
        if not (np.isfinite(lat[seg]).all() and (lat[seg] > 0).all() and np.isfinite(lit[seg]).all()
                and np.all(np.abs(lit[seg] - 1) <= LITTLE_TOL)):
            return None
        ls = [float(per(i, i + 1, lat) + 1) for i in range(k, n - 1)]
        if min(ls) < LAT_PER_DOUBLING:
            return None
        last = np.sort(np.asarray(p["runs_kept"].iloc[-1], float))
        runs = np.concatenate([np.asarray(r, float) for r in p["runs_kept"].iloc[k:]])
        return {"k": k, "x": float(x[k]), "med": [float(v) for v in yl[k:]],
                "med_gains": [float(per(i, i + 1, yl)) for i in range(k, n - 1)], "lat_steps": ls,
                "lat0": float(lat[k]), "lat1": float(lat[-1]), "little_lo": float(lit[seg].min()),
                "little_hi": float(lit[seg].max()), "lo": float(yl[seg].min()), "hi": float(yl[seg].max()),
                "value": float(yl[seg].mean()), "runs_lo": float(runs.min()), "runs_hi": float(runs.max()),
                "mean0": float(ym[k]), "mean1": float(ym[-1]), "mean_gain": float(per(k, n - 1, ym)),
                "top_run": float(last[-1]) if last.size else None,
                "other_runs": [float(v) for v in last[:-1]], "x_to": float(x[-1]), "points": int(n - k),
                "xs": [float(v) for v in x[k:]]}
    return None
