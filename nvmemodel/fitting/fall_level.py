"""A fall from the maximum spread over several steps, then a level held to the last point: where the level starts and
what it is, read with the same onset rule as a rise (no later point off the level by a tenth per doubling of the
load, latency growing with the load as Little's law gives at a held rate).

Set after round 27 was read (HC: r27_zfs6207_zvol-zfs0658_4k-randwrite_orion_outstanding, "peaks at 7.42 K IOPS at
iodepth = 1 and falls 56% to 3.24 K IOPS at iodepth = 160", where the series falls over 1 → 8 outstanding and then
holds 3.16–3.34 K from 8 to 160 while the mean latency grows ×20.6 for ×20 the load: the level and its onset unsaid).
Counter-cases: a series still falling at every step (r27_zfs5019: no tail of a doubling or more within the band), a
one- or two-point tail, a tail within the peak's band (no fall).
"""
from __future__ import annotations

import numpy as np

__all__ = ["LEVEL_BAND", "MIN_SPAN", "slide_level"]

#: every point of the level within ±this of its mean, and no point at ≥ twice another's load off it by more
#: (facts.FLAT, the band a plateau is read within). Set after round 27 was read (HC).
LEVEL_BAND = 0.10
#: the level spans at least this ratio of the load (one doubling: "no later doubling" needs one to test). Set after
#: round 27 was read (HC; zfs5019's last points, 532–461 over 48–88, ×1.8, are no level).
MIN_SPAN = 2.0
#: the level's points, at least
MIN_POINTS = 3
#: latency, where recorded, must grow at least this share of the load's growth over the level (Little's law at a
#: held rate gives 1): the load was queued, not dropped. Set after round 27 was read (HC: ×20.6 for ×20).
LAT_SHARE = 0.5


def slide_level(x, y, lat, i_max: int) -> dict | None:
    """After the maximum at ``i_max``: the earliest point ``j`` from which every point to the last (≥ MIN_POINTS,
    over ≥ MIN_SPAN of the load) lies within LEVEL_BAND of their mean, with no drift one way beyond the band
    (``fall_shape.trend_after``), every such point below the maximum by more than the band, and — where ``lat`` is
    recorded at both ends — latency grown at least LAT_SHARE of the load's ratio. ``{"x_from", "x_to", "value"
    (median), "lo", "hi", "points", "lat_from", "lat_to"}`` or None."""
    from .fall_shape import trend_after

    x, y = np.asarray(x, float), np.asarray(y, float)
    lat = np.asarray(lat, float) if lat is not None else np.full_like(y, np.nan)
    n = y.size
    if not (np.isfinite(x).all() and np.isfinite(y).all() and (x > 0).all() and (y > 0).all()):
        return None
    for j in range(i_max + 1, n - MIN_POINTS + 1):
        idx = np.arange(j, n)
        v = y[idx]
        if x[-1] / x[j] < MIN_SPAN:
            return None
        mean = float(v.mean())
        if not np.all(np.abs(v / mean - 1) <= LEVEL_BAND) or trend_after(x, y, idx) is not None:
            continue
        if not y[i_max] > (1 + LEVEL_BAND) * float(v.max()):
            return None  # the tail within the peak's band: no fall to a level
        lf, lt = lat[j], lat[-1]
        if np.isfinite(lf) and np.isfinite(lt) and lf > 0 and lt / lf < LAT_SHARE * x[-1] / x[j]:
            return None
        return {"x_from": float(x[j]), "x_to": float(x[-1]), "value": float(np.median(v)), "lo": float(v.min()),
                "hi": float(v.max()), "points": int(idx.size),
                "lat_from": float(lf) if np.isfinite(lf) else None, "lat_to": float(lt) if np.isfinite(lt) else None}
    return None
