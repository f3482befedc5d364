"""The time of one request where exactly one I/O was outstanding and the files give no latency.

With one I/O in flight (iodepth × numjobs = 1, both stated) Little's law has N = 1: the time of a request is
1 ÷ IOPS exactly, so a flat IOPS stretch along block size is one request's time that did not follow the size, read
by the same test as a measured latency (cap_facts ``by_outstanding``). Set after round 32 was read (WA:
r32_ssdinternal_multipass-mac-vda-ext4_sync-direct-randread_bs, "an IOPS cap of 2.17 K IOPS or a little above,
measured" for sync reads one at a time, 0.46–0.49 ms each from 4 to 16 KiB).
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def _numjobs_stated(result, p) -> bool:
    """Every row behind the points states numjobs (the points' job count fills a missing one with 1)."""
    from .claim import runs_rows, stated

    tbl = getattr(result, "table", None)
    if tbl is None:
        return False
    rows = runs_rows(result, p) if "sources" in p else None
    rows = tbl if rows is None or not len(rows) else rows
    if "numjobs" not in rows:
        return False
    nj = np.asarray(pd.to_numeric(stated(rows, "numjobs"), errors="coerce"), float)
    return bool(nj.size and np.isfinite(nj).all())


def one_request_times(result, p, means_i, ni: int):
    """(lat, out) of the first ``ni`` points with each latency 1 ÷ IOPS where every one of them had exactly one I/O
    outstanding and none has a latency; None otherwise (a depth unknown — numjobs missing — or > 1, or a latency
    given: the measured test speaks)."""
    if ni < 1 or "out" not in p or "jobs" not in p:
        return None
    out = p["out"].to_numpy(float)[:ni]
    jobs = p["jobs"].to_numpy(float)[:ni]  # numjobs as stated (the outstanding count fills a missing one with 1)
    if not (np.isfinite(jobs).all() and np.all(jobs == 1)) or not _numjobs_stated(result, p):
        return None
    lat = p["lat"].to_numpy(float)[:ni] if "lat" in p else np.full(ni, np.nan)
    rate = np.asarray(means_i, float)[:ni]
    if np.isfinite(lat).any() or not np.isfinite(out).all() or not np.all(out == 1):
        return None
    if not (np.isfinite(rate).all() and np.all(rate > 0)):
        return None
    return 1.0 / rate, out
