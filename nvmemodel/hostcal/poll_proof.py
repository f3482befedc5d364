"""Whether runs that asked for polled completions (fio ``hipri=1``, io_uring or pvsync2) polled, from what fio counted.

``hipri`` is a request: the block layer polls only a queue that can (an NVMe device with poll queues); elsewhere
(a loop device, ``queue/io_poll`` 0) it drops the flag and the I/O sleeps on its interrupt as without it. A polling job
spins on its completions: it does not sleep for them (fio's ``ctx`` ≪ 1 per I/O) and its thread is busy (≈ 100 % of a
CPU). A job that switched context about once per I/O while using a small share of a CPU slept for each I/O: it did not
poll, and its CPU figures read as any synchronous or async job's (set after round 24 was read, class CD:
r24_here-hipri … loop pvsync2 hipri randread numjobs, 1.00 switches per read in all 12 runs at 6–24 % of a CPU a job,
loop0's io_poll 0, said "the jobs polled for their completions (hipri): busy whatever held the rate").
"""

from __future__ import annotations

__all__ = ["SLEPT_CTX", "BUSY", "hipri_slept"]

#: context switches per I/O at or above which each I/O slept: a polled I/O completes while its thread spins and causes
#: no switch, so a polling job switches ≪ 1 per I/O; half — most I/Os slept — already excludes polling (set after
#: round 24 was read)
SLEPT_CTX = 0.5
#: a polling job's thread is busy whatever the rate: below this share of one CPU (usr+sys, fio's per-job figure) it was
#: not spinning (``fitting.facts.CPU_BOUND``, the share a busy job is read at; set after round 24 was read)
BUSY = 0.9


def hipri_slept(rows) -> dict | None:
    """Where every run set ``hipri`` and fio's counts show no polling — each run's context switches per I/O (``ctx`` ÷
    ``ios``, :func:`~nvmemodel.ingest.context_switches.run_switches`) ≥ :data:`SLEPT_CTX` and every row's usr+sys below :data:`BUSY` of one CPU — the
    figures (``per_lo``/``per_hi`` switches per I/O, ``cpu_lo``/``cpu_hi`` share of one CPU a job); None otherwise or
    where ``ctx``, ``ios`` or the CPU columns are missing."""
    import numpy as np
    import pandas as pd

    from ..ingest.context_switches import run_switches

    need = {"hipri", "ctx", "ios", "cpu_usr", "cpu_sys", "source_path"}
    if rows is None or not len(rows) or not need <= set(rows.columns):
        return None
    num = {c: pd.to_numeric(rows[c], errors="coerce") for c in ("hipri", "ctx", "ios", "cpu_usr", "cpu_sys")}
    if not (num["hipri"] > 0).all() or any(num[c].isna().any() for c in ("ctx", "ios", "cpu_usr", "cpu_sys")):
        return None
    per = run_switches(rows)["per_io"].to_numpy(float)  # each job's ctx once over the run's I/Os
    if not per.size or not np.isfinite(per).all():
        return None
    cpu = (num["cpu_usr"] + num["cpu_sys"]).to_numpy(float)
    if per.min() < SLEPT_CTX or cpu.max() >= BUSY:
        return None
    return {"per_lo": float(per.min()), "per_hi": float(per.max()), "cpu_lo": float(cpu.min()),
            "cpu_hi": float(cpu.max()), "runs": int(per.size)}
