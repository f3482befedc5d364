"""The time of one request where exactly one I/O was outstanding and the files give no latency.

With one I/O in flight (iodepth × numjobs = 1, both stated) Little's law has N = 1: the time of a request is
1 ÷ IOPS exactly, so a flat IOPS stretch along block size is one request's time that did not follow the size, read
by the same test as a measured latency (cap_facts ``by_outstanding``). Set after round 32 was read (WA:
r32_ssdinternal_multipass-mac-vda-ext4_sync-direct-randread_bs, "an IOPS cap of 2.17 K IOPS or a little above,
measured" for sync reads one at a time, 0.46–0.49 ms each from 4 to 16 KiB).
"""

from __future__ import annotations

import numpy as np


def one_request_times(p, means_i, ni: int):
    """(lat, out) of the first ``ni`` points with each latency 1 ÷ IOPS where every one of them had exactly one I/O
    outstanding and none has a latency; None otherwise (a depth unknown — numjobs missing — or > 1, or a latency
    given: the measured test speaks)."""
    if ni < 1 or "out" not in p:
        return None
    out = p["out"].to_numpy(float)[:ni]
    lat = p["lat"].to_numpy(float)[:ni] if "lat" in p else np.full(ni, np.nan)
    rate = np.asarray(means_i, float)[:ni]
    if np.isfinite(lat).any() or not np.isfinite(out).all() or not np.all(out == 1):
        return None
    if not (np.isfinite(rate).all() and np.all(rate > 0)):
        return None
    return 1.0 / rate, out
