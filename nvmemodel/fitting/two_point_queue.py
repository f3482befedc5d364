"""Two load points, one run each, where the second gained nothing and fio's latency grew with the load as Little's law
gives at a fixed rate: the added I/O only queued — the level is reached from the first point, whatever the noise
(set after round 24 was read, class BB: r24_colibri … 1m-randread-unbuffered qd, HDD pool, ×4 the iodepth gave ×0.95
the throughput while the median latency grew ×3.05, said "they cannot tell a plateau from noise").

A rise the noise hides would need the latency to stay near the first point's (Little: latency = outstanding ÷ rate);
latency that grew ×(load ÷ rate ratio) says the rate stayed and the I/O waited. Without a latency column the two
points stay undecided (the "cannot tell" sentence), and a second point that gained anything stays undecided too
(counter-case: the same case's NVMe curve C, ×1.68 for ×4 the iodepth).
"""

from __future__ import annotations

import numpy as np

from .fact_base import _gain

__all__ = ["LITTLE_SHARE", "two_point_queue", "two_point_words"]

#: latency growth at least this share of the way from ×1 to Little's law at the measured rates (outstanding ratio ÷
#: rate ratio): the added load queued — half, the yardstick the saturation facts use for a level within noise
#: (saturation_facts._level_in_noise; set after round 24 was read)
LITTLE_SHARE = 0.5


def two_point_queue(result, cf) -> dict | None:
    """The figures where exactly two load points measured a rate (IOPS or bytes/s), the second no higher per doubling
    (gain ≤ 0), and the mean latency (else the median, fio's p50) grew at least :data:`LITTLE_SHARE` of the way to
    Little's law at those rates; None otherwise."""
    from .axes import axis_kind

    if cf is None or result.y_unit not in ("1/s", "B/s") or axis_kind(result.x) != "concurrency":
        return None
    p = cf.points
    if p is None or len(p) != 2:
        return None
    x, y = p["x"].to_numpy(float), p["y"].to_numpy(float)
    if not (np.all(x > 0) and np.all(y > 0) and x[1] > x[0]) or _gain(y[0], y[1], x[0], x[1]) > 0:
        return None
    out = p["out"].to_numpy(float) if "out" in p else x
    load = out[1] / out[0] if np.isfinite(out).all() and np.all(out > 0) else x[1] / x[0]
    for col, name in (("lat", "mean"), ("p50", "median")):
        lat = p[col].to_numpy(float) if col in p else np.full(2, np.nan)
        if np.isfinite(lat).all() and np.all(lat > 0):
            break
    else:
        return None
    little = load / (y[1] / y[0])
    if load <= 1.5 or lat[1] / lat[0] < 1 + LITTLE_SHARE * (little - 1):
        return None
    return {"axis": result.x, "unit": result.y_unit, "state": "from_first", "onset_x": float(x[0]), "onset_index": 0,
            "plateau": float(y.mean()), "plateau_lo": float(y.min()), "plateau_hi": float(y.max()), "plateau_points": 2, "plateau_x_to": float(x[1]),
            "load": float(load), "ratio": float(y[1] / y[0]), "lat_name": name, "lat0": float(lat[0]),
            "lat1": float(lat[1]), "little": float(little), "x0": float(x[0]), "x1": float(x[1]),
            "y0": float(y[0]), "y1": float(y[1]), "two_points": True}


def two_point_words(result, cf, s: dict) -> str:
    from .claim import _xv
    from .fact_words import _what
    from .wording import fmt_y

    u, x = s["unit"], result.x
    return (f"Measured {_what(result)} is saturated from the first point (2 points of one run each): ×{s['load']:.3g} "
            f"the {x} gave ×{s['ratio']:.3g} the {_what(result)} ({fmt_y(s['y0'], u)} at {x} = {_xv(result, s['x0'])} "
            f"→ {fmt_y(s['y1'], u)} at {_xv(result, s['x1'])}) while the {s['lat_name']} latency grew "
            f"×{s['lat1'] / s['lat0']:.3g} ({fmt_y(s['lat0'], 's')} → {fmt_y(s['lat1'], 's')}), near Little's law at "
            f"that rate (×{s['little']:.3g}): the added I/O queued. Level {fmt_y(s['y1'], u)} to {fmt_y(s['y0'], u)} "
            f"(mean {fmt_y(s['plateau'], u)}); a rise hidden in the noise would have kept the latency near the first "
            f"point's.")
