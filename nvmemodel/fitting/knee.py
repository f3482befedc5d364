"""Where the knee of a saturating curve lies, read from the points on either side of it.

Two facts :func:`~nvmemodel.fitting.facts._saturation` adds to a level it has found along a load axis:

- :func:`unqueued_onset` — the onset point (the first no later point gains ``PAYS`` per doubling over) whose mean
  latency had not yet risen over the lighter loads': nothing queued there, its rate was still the load ÷ the unloaded
  latency (Little's law), so the knee lies between it and the next point, and the level is shown as a limit only by
  the points past the knee (set after round 19 was read: TB, r19_lsvdrbd … rbd-3ssd randwrite qd, 19.4 ms at QD128
  against 18.0–18.2 ms at QD16–64, "Plateau … over iodepth = 128–256, 2 points" where only QD256 queued;
  r19_silentzns … seqread numjobs, 6 jobs at 91 µs = 1 job's 89 µs).
- :func:`held_peak` — a maximum the next points repeat (within 1 %): the level held from the peak to the last of them,
  and the fall told from there (set after round 19 was read: UG, r19_lkml-yukuai … numjobs, 67.7 MiB/s at 1, 2, 4 and 8 jobs said
  as "peaks at … numjobs = 1 and falls 53 %").

Both read the same point table the level does (each point's kept runs) and say nothing where the files cannot tell.
"""

from __future__ import annotations

import numpy as np

__all__ = ["held_peak", "unqueued_onset"]

#: a mean latency within this share of the lighter loads' has not risen beyond what one run a point tells apart (the
#: share a doubling must pay to count, facts.PAYS, read on the latency: Little's law ties the two at a full queue)
LAT_RISE = 0.10
#: a point repeats the peak where its level is within this share of it: below what a table's 3–4 significant digits
#: tell apart (facts.NO_GAIN). Never the runs' noise: runs that scatter widely hide a step of −26 % within twice their
#: standard error (r17_here-cpuquota … psync numjobs, 134.6 K → 99.4 K from 2 to 3 jobs), and "holds" would hide it
HELD = 0.01
#: (set after round 22 was read: XG, r22_p41plusengine_p41plus-qlc_4k-randwrite_libaio_qd — 29.5 µs at QD1, 21.8 µs
#: at QD4 after a ×6.83 first step) the onset's latency below the point before it by more than
#: LAT_RISE is no "had not risen": a per-I/O cost inflated the lighter load's latency (the superlinear step into the
#: onset), so it gives no unloaded baseline, and no knee is placed past the onset (one slow first point further back
#: stays what the median absorbs, as in round 19). The same LAT_RISE, read downwards (one run a point tells no
#: smaller change apart).


def unqueued_onset(x: np.ndarray, lat: np.ndarray, little: np.ndarray, k: int, level_to: int,
                   little_tol: float) -> dict | None:
    """The onset ``k`` still on the linear part: its mean latency within :data:`LAT_RISE` of both the point before it
    and the median of every lighter load's (the unloaded latency, robust to one slow first point), while the next
    point's latency rose beyond it (the queue shows there), and Little's law held at ``k`` (IOPS × mean latency ÷
    outstanding I/O, ``little``, within ``little_tol`` of 1: the I/O asked for was in flight, so the rate there was the
    load ÷ that latency — where fewer I/Os were in flight, a flat latency says nothing of a queue: r19 ext4 mmap
    numjobs, 0.26–0.96). ``level_to`` is the last point of the level. None where ``k`` is the first or the last point,
    a latency or the check is missing, or the onset had queued already — and None where the onset's latency lies below
    the point before it by more than :data:`LAT_RISE` (the latency fell into the onset: a per-I/O cost inflated the
    lighter load's, no unloaded baseline; round 22 XG).

    Returns the onset's and the next point's x and latency, the reference latencies, and ``past``: how many points of
    the level lie past the knee (``level_to − k``)."""
    x, lat = np.asarray(x, float), np.asarray(lat, float)
    if k < 1 or k >= x.size - 1 or not (np.isfinite(lat[: k + 2]).all() and (lat[: k + 2] > 0).all()):
        return None
    little = np.asarray(little, float)
    if not (np.isfinite(little[k]) and abs(little[k] - 1) <= little_tol):
        return None
    ref = float(np.median(lat[:k]))
    if lat[k] * (1 + LAT_RISE) < lat[k - 1]:
        return None  # the latency fell into the onset (a superlinear step): the lighter loads are no baseline
    if lat[k] > (1 + LAT_RISE) * lat[k - 1] or lat[k] > (1 + LAT_RISE) * ref:
        return None  # the onset's own latency had risen: some of its load queued, the knee is at it (or before)
    if lat[k + 1] <= (1 + LAT_RISE) * lat[k]:
        return None  # no queue shows at the next point either: not a knee these latencies place
    return {"x": float(x[k]), "x_next": float(x[k + 1]), "x_prev": float(x[k - 1]), "lat": float(lat[k]),
            "lat_prev": float(lat[k - 1]), "lat_ref": float(ref), "lat_next": float(lat[k + 1]),
            "lat_lo": float(lat[:k].min()), "lat_hi": float(lat[:k].max()), "x_first": float(x[0]),
            "lat_first": float(lat[0]), "n_lighter": int(k),
            "past": int(level_to - k), "x_to": float(x[level_to]), "little": float(little[k])}


def held_peak(y: np.ndarray, i_max: int) -> int:
    """The last point from ``i_max`` on whose level (``y``: each point's kept-run mean) repeats the peak's, each within
    :data:`HELD` of it. Consecutive points only; ``i_max`` itself where the next one is lower by more."""
    y = np.asarray(y, float)
    j = i_max
    while j + 1 < y.size and np.isfinite(y[j + 1]) and y[i_max] - y[j + 1] <= HELD * y[i_max]:
        j += 1
    return j
