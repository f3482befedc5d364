"""Where a level held from the first point waited: above the device, when the device sat idle part of every run while
the I/O asked for was all in flight.

Set after round 30 was read (RG: r30_here-posixaio_vda-ext4-512mfile_posixaio-direct_randread4k_iodepth_repeats,
"The files do not show what holds it: a rate cap or one serial server whose service time is that latency would both
look like this", where Little's law held at 0.99–1.00 with 1–32 I/Os asked for while fio's disk_util showed vda idle
32–66 % of every run, and fio set no rate). An I/O in flight by Little's law is somewhere between fio and the device's
completion; a device with no request in flight for a quarter or more of every run was not where it waited. So the
level is held above the device — a serial server there (for posixaio on one file, glibc's AIO serves one descriptor's
requests one at a time), or a throttle there (a cgroup limit, which the files would not show) — and neither the device
nor a cap beneath it. Counter-cases (it must not fire): a device busy 88–97 % (r30 here-uringsqpoll: the device may
hold it); no disk statistics; fio's own rate options set (then fio's pace is a candidate, said elsewhere); Little's
check off its band (the I/O asked for was not in flight).
"""

from __future__ import annotations

import numpy as np

__all__ = ["IDLE_ABOVE", "waited_above", "waited_above_words"]

#: the device idle at least this share of every run (fio's disk_util ≤ 1 − this) for the wait to be placed above it
IDLE_ABOVE = 0.25
#: Little's check (IOPS × mean latency ÷ outstanding) within this band at every run: the I/O asked for was in flight
LITTLE_BAND = (0.9, 1.1)


def waited_above(result, cf) -> dict | None:
    """``{"devices", "lo", "hi", "little": (lo, hi), "serial": str}`` where the level's I/O waited above the device
    (see the module), else None."""
    import pandas as pd

    from .claim import runs_rows
    from .devices import device_busy, listed_devices
    from .latency_growth import little_runs

    p = cf.points
    rows = runs_rows(result, p)
    if rows is None or not len(rows) or "little" not in p:
        return None
    for c in ("rate_iops", "rate_bytes_per_s"):  # fio paced the runs: its pace is a candidate (said elsewhere)
        if c in rows and (pd.to_numeric(rows[c], errors="coerce") > 0).any():
            return None
    names = listed_devices(rows) if "devices" in rows else []  # (no disk statistics: nothing placed)
    busy = device_busy(rows, names, result.x, float(p["x"].iloc[-1])) if names else None
    if busy is None or busy["hi"] > 1 - IDLE_ABOVE:
        return None
    lo, hi = little_runs(p, np.arange(len(p)))
    if not (np.isfinite(lo) and np.isfinite(hi) and LITTLE_BAND[0] <= lo and hi <= LITTLE_BAND[1]):
        return None
    engine = set(rows["ioengine"].astype(str)) if "ioengine" in rows else set()
    jobs = pd.to_numeric(rows["numjobs"], errors="coerce") if "numjobs" in rows else pd.Series([np.nan])
    serial = ("for posixaio on one file and one job, glibc's AIO, which serves one descriptor's requests one at a "
              "time, is such a server" if engine == {"posixaio"} and bool((jobs == 1).all()) else "")
    return {"devices": names, "lo": float(busy["lo"]), "hi": float(busy["hi"]), "little": (lo, hi), "serial": serial}


def waited_above_words(result, cf) -> str:
    """" The I/O waited above vda: …" or "" (:func:`waited_above`)."""
    w = waited_above(result, cf)
    if w is None:
        return ""
    dev = ", ".join(w["devices"])
    lit = f"{w['little'][0]:.2f}" if f"{w['little'][0]:.2f}" == f"{w['little'][1]:.2f}" else \
        f"{w['little'][0]:.2f}–{w['little'][1]:.2f}"
    who = (f"by a serial server there ({w['serial']})" if w["serial"] else
           "by a serial server or a throttle there (a cgroup limit, which these files would not show)")
    return (f" The I/O waited above {dev}: fio kept the I/O asked for outstanding at every point (Little's law {lit}) while "
            f"fio's disk_util shows {dev} busy {w['lo']:.0%}–{w['hi']:.0%} of each run, idle the rest, and fio set no "
            f"rate — the level is held above the device, {who}, not by the device or a cap beneath it.")
