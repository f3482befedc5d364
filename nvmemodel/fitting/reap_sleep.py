"""An asynchronous job that slept once per reap of its queue: context switches of one per ``iodepth`` I/Os.

fio's libaio (and io_uring without polling) loop fills the queue to ``iodepth``, then waits in ``io_getevents`` (or
``io_uring_enter``) for a completion: the job sleeps there, and wakes to reap what completed. Where its context
switches per I/O × iodepth are about 1 in (nearly) every run, the job slept once per turn of its queue — it waited on
its I/O, not on a lock or for a CPU in between; its CPU per I/O then gives the rate one CPU carries at that cost.
Where a run switches many times more than that, the job also slept or was preempted outside its reaps (in
submission, or waiting for a CPU): that run is said apart.

Not read for batched reaping (``iodepth_batch_complete`` > 1: a reap waits for several), polled completions
(``hipri``) or a submission thread (``sqthread_poll``: the job need not sleep at all), synchronous engines (their
own rule in :mod:`~nvmemodel.fitting.off_cpu`), or one I/O outstanding at every point (the plain one-sleep-an-I/O
reading holds there).

Set after round 28 was read (MH: r28_here-vdawrite, libaio at iodepth 1–32 with 1.00, 0.50, 0.26, 0.13, 0.07, 0.034
switches a write, told "an asynchronous engine sleeps once for many I/Os … so its switches do not say what it waited
for"; round 27 IF the same).
"""

from __future__ import annotations

import numpy as np

__all__ = ["REAP_BAND", "REAP_SHARE", "reap_sleep"]

#: switches per I/O × iodepth inside this band: one sleep per reap of the queue (the lower end is off_cpu's
#: SLEPT_PER_IO, 0.8, for I/Os that completed before the job slept; the upper end leaves a quarter for the scheduler's
#: ticks and the job's start and end; set after round 28 was read: r28_here-vdawrite 1.00–1.15 in 17 of 18 runs)
REAP_BAND = (0.8, 1.25)
#: the share of the runs that must be inside the band (and none below it) to read the curve so (set after round 28 was
#: read: one run in three may differ — r28_here-vdawrite's run at qd32 with ×5.7, where the host's CPUs were busy)
REAP_SHARE = 2 / 3
#: engines whose wait for a completion is one blocking reap call
REAP_ENGINES = ("libaio", "io_uring")


def _col(g, c):
    import pandas as pd

    return pd.to_numeric(g[c], errors="coerce") if c in g else None


def reap_sleep(rows, sw) -> dict | None:
    """``{"n", "in_band", "over": (k, the largest ratio)}`` where the module docstring's reading holds for ``rows``
    (the curve's runs) and ``sw`` (:func:`~nvmemodel.ingest.context_switches.run_switches` of them); None otherwise."""
    from .in_thread import _engine

    if rows is None or not len(rows) or _engine(rows) not in REAP_ENGINES or "iodepth" not in rows:
        return None
    for c, ok in (("hipri", lambda v: v == 0), ("sqthread_poll", lambda v: v == 0),
                  ("iodepth_batch_complete", lambda v: v <= 1)):
        v = _col(rows, c)
        if v is not None and v.notna().any() and not ok(v.dropna()).all():
            return None
    depth = _col(rows, "iodepth").groupby(rows["source_path"].astype(str)).max()
    d = depth.reindex(sw.index).to_numpy(float)
    per_io = sw["per_io"].to_numpy(float)
    if not (d.size and np.isfinite(d).all() and np.isfinite(per_io).all()) or not (d > 1).any():
        return None
    ratio = per_io * d
    lo, hi = REAP_BAND
    inside = (ratio >= lo) & (ratio <= hi)
    if (ratio < lo).any() or inside.mean() < REAP_SHARE:
        return None
    over = ratio[~inside]
    return {"n": int(ratio.size), "in_band": int(inside.sum()),
            "band": (float(ratio[inside].min()), float(ratio[inside].max())),
            "over": (int(over.size), float(over.max()) if over.size else np.nan),
            "depths": (float(d.min()), float(d.max()))}
