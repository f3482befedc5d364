"""What a read/write mix shares where no device served its I/O: the one job's CPU time.

"Little interference beyond sharing the device's time" carries a device premise. Where the I/O never reached a
device that works on its own — no block device under the files (tmpfs, fio's disk statistics empty) or a memory
device whose work the submitting call does (zram, brd, pmem, null_blk: :data:`~nvmemodel.fitting.in_thread.
MEMORY_DEVICE`) — and the job never slept per I/O (context switches per I/O ≤ :data:`~nvmemodel.fitting.in_thread.
CTX_PER_IO`, or ≤ :data:`~nvmemodel.fitting.in_thread.CTX_PER_S` a second), every I/O was CPU work in the job's own
thread: the mix shares that thread's CPU time, and each direction's cost is its CPU per I/O (set after round 24 was
read: r24_here-splicerw_tmpfs_splice_randrw64k_qd1_readshare_repeats, "sharing the device's time" of one splice job on
tmpfs 88–98 % busy, CE; round 23's zram randrw said the same, AE).

Not for a device that works in another thread (a loop device's worker, a drive, a network block device): the job
sleeps per I/O there and keeps "the device's time"; not for engines whose I/O work runs in threads fio does not count
(posixaio's glibc helpers, librbd's threads): only a synchronous engine does the work in the job's call.
"""

from __future__ import annotations

import numpy as np

from ..ingest.context_switches import run_switches
from .claim import runs_rows
from .devices import listed_devices
from .fact_base import pd_num
from .in_thread import CTX_PER_IO, CTX_PER_S, MEMORY_DEVICE, NO_DEVICE_SHARE

__all__ = ["NO_DEVICE_SHARE", "mix_cpu_time", "mix_cpu_words"]



def mix_cpu_time(result, cf) -> dict | None:
    """``{"where", "read", "write", "busy", "ctx"}`` — the pure runs' median CPU per I/O each direction (s), the
    jobs' busy share range and the largest context switches per I/O — where the mix's I/O was the job's own CPU work
    (module docstring), else None."""
    from ..jobs.fiooptions import SYNC_ENGINES

    if result.x.lower() not in ("read_fraction", "rwmixread"):
        return None
    rows = runs_rows(result, cf.points)
    need = {"ios", "runtime_s", "cpu_usr", "cpu_sys", "ctx", "numjobs", "read_fraction"}
    if rows is None or not len(rows) or not need <= set(rows.columns):
        return None
    eng = set(rows["ioengine"].dropna().astype(str)) if "ioengine" in rows else set()
    if len(eng) != 1 or eng.pop() not in SYNC_ENGINES:
        return None
    devs = set(listed_devices(rows)) if "devices" in rows else set()
    ios = pd_num(rows["ios"])
    req = sum(pd_num(rows[c]).fillna(0) for c in ("disk_read_ios", "disk_write_ios") if c in rows) \
        if {"disk_read_ios", "disk_write_ios"} & set(rows.columns) else ios * 0
    if devs and all(MEMORY_DEVICE.match(d) for d in devs):
        where = f"{', '.join(sorted(devs))} (a memory device: its work is done in the job's call)"
    elif not devs:
        runs = rows.groupby(rows["source_path"].astype(str))
        share = runs.apply(lambda g: float(req.loc[g.index].max()) / float(ios.loc[g.index].sum()))
        if not (share <= NO_DEVICE_SHARE).all():
            return None
        where = "no block device served the I/O (fio's disk statistics name none)"
    else:
        return None
    per_run = []
    sw = run_switches(rows)  # each run's switches per I/O (ingest.context_switches: a mixed job's ctx once)
    for src, g in rows.groupby(rows["source_path"].astype(str)):
        io = float(ios.loc[g.index].sum())
        cpu = float((pd_num(g["cpu_usr"]) + pd_num(g["cpu_sys"])).iloc[0])
        rt, nj = float(pd_num(g["runtime_s"]).iloc[0]), float(pd_num(g["numjobs"]).iloc[0])
        per_io, per_s = (float(sw.at[src, "per_io"]), float(sw.at[src, "per_job_s"])) if src in sw.index \
            else (np.nan, np.nan)
        if not (io > 0 and np.isfinite([cpu, rt, nj, per_io]).all() and rt > 0 and nj > 0 and cpu > 0):
            return None
        if not (per_io <= CTX_PER_IO or per_s <= CTX_PER_S):
            return None  # the job slept per I/O: something else did the work
        per_run.append((float(pd_num(g["read_fraction"]).iloc[0]), cpu * rt * nj / io, cpu, per_io))
    a = np.array(per_run)
    rd, wr = a[np.isclose(a[:, 0], 1), 1], a[np.isclose(a[:, 0], 0), 1]
    if not (rd.size and wr.size):
        return None
    return {"where": where, "read": float(np.median(rd)), "write": float(np.median(wr)),
            "busy": (float(a[:, 2].min()), float(a[:, 2].max())), "ctx": float(a[:, 3].max())}


def mix_cpu_words(m: dict) -> str:
    """The clause after "little interference beyond sharing …"."""
    from .wording import fmt_y, span

    busy = span(f"{m['busy'][0]:.0%}", f"{m['busy'][1]:.0%}")
    return (f"the job's CPU time, not a device's: {m['where']}, and the job never slept per I/O (at most "
            f"{m['ctx']:.2g} context switches an I/O) at {busy} of a CPU — each I/O was CPU work in its own thread, a "
            f"read {fmt_y(m['read'], 's')} of CPU and a write {fmt_y(m['write'], 's')} (the pure runs' medians)")
