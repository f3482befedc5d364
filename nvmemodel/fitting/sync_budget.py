"""A synchronous job's time budget: in its I/O call, in its sync calls, on its CPU, and the rest.

A job of a synchronous engine (psync, sync, pvsync …) has one I/O at a time and, without thinktime or a rate limit,
nothing else to do between its calls but fio's own work. Its run splits into: time inside the I/O call (its I/Os × fio's
mean latency, which for a synchronous call covers the whole call), time inside its sync calls (fio's sync block), and
time on its CPU outside the call — at most its usr+sys share (some of that CPU is inside the call: subtracting all of
it leaves a lower bound on the rest). What is left — neither in a call nor on a CPU — is time the job was runnable and
waited for a CPU the host gave to other work, or, where the run ends in a flush fio counts in its runtime (``end_fsync``),
that flush. Where at least :data:`LEFT_SHARE` of every run's time is left, the I/O's latency did not set the rate: the
jobs were inside their calls only part of their time, and the asked jobs were not as many I/Os outstanding.

Not read for asynchronous engines (in flight is not in the call), mmap (no call), paced or thinktime jobs, or a latency
that may leave out submission (only fio's own output formats, whose ``lat`` is the whole call).

Set after round 28 was read (MC: r28_here-btrfszstd, psync buffered writes into btrfs with zstd compression, each job in
a write 12–33 % of its time and on its CPU 6–38 %, told "a few I/Os held for long … of the 4 outstanding" and "what
held the rate its CPU figures do not show").
"""

from __future__ import annotations

import numpy as np

__all__ = ["LEFT_SHARE", "sync_budget", "sync_budget_words"]

#: the share of every run's time, at the point said, that must be left outside the calls and off the CPU (a lower
#: bound) to read it: a quarter, beyond what fio's own bookkeeping and a run's start and end take (set after round 28
#: was read: r28_here-btrfszstd 0.38–0.60 left at 1–2 jobs; r28_here-vdafsync 0.01–0.02, -vdanumjobs ≤ 0.01,
#: -overlaycopyup ≤ 0 as counter-cases)
LEFT_SHARE = 0.25

def _num(rows, c):
    import pandas as pd

    return pd.to_numeric(rows[c], errors="coerce") if c in rows else pd.Series(np.nan, index=rows.index)


def sync_budget(rows) -> dict | None:
    """``{"call", "sync", "cpu", "left"}``: (lowest, highest) share over the runs of ``rows`` (one point's runs), with
    ``n`` runs and ``engine``; None where the module's conditions fail or any run leaves less than LEFT_SHARE."""
    from ..jobs.fiooptions import SYNC_ENGINES
    from .in_thread import _engine
    from .little_candidates import fio_own
    from .sync_time import job_seconds

    if rows is None or not len(rows) or not {"ios", "lat_mean_s", "runtime_s", "cpu_usr", "cpu_sys"} <= set(rows):
        return None
    engine = _engine(rows)
    if engine not in SYNC_ENGINES or engine == "mmap":
        return None
    if not fio_own(rows):
        return None
    for col in ("rate_iops", "rate_bytes_per_s", "thinktime_s"):
        if (_num(rows, col).fillna(0) > 0).any():
            return None
    runs = job_seconds(rows)
    if not runs:
        return None
    call, sync, cpu = [], [], []
    for r, jobs in runs:
        ios, lat, run = _num(r, "ios"), _num(r, "lat_mean_s"), float(_num(r, "runtime_s").max())
        u, s = _num(r, "cpu_usr"), _num(r, "cpu_sys")
        if not (ios.notna().all() and lat.notna().all() and u.notna().all() and s.notna().all() and run > 0):
            return None
        n, sl = _num(r, "sync_ios").fillna(0), _num(r, "sync_lat_mean_s").fillna(0)
        call.append(float((ios * lat).sum()) / jobs / run)
        sync.append(float((n * sl).sum()) / jobs / run)
        cpu.append(float((u + s).mean()))  # fio's usr+sys of a row is its jobs' mean share
    c, y, p = np.array(call), np.array(sync), np.array(cpu)
    left = 1 - c - y - p
    if not (np.isfinite(left).all() and (left >= LEFT_SHARE).all()):
        return None
    rng = lambda a: (float(a.min()), float(a.max()))  # noqa: E731
    return {"call": rng(c), "sync": rng(y), "cpu": rng(p), "left": rng(left), "n": int(left.size),
            "engine": engine, "synced": bool((y > 0).any())}


def sync_budget_words(b: dict, jobs: float) -> str:
    """The clause of :func:`sync_budget` for the CPU sentence."""
    from .wording import span

    def pct(v):
        lo, hi = (round(100 * x) for x in v)
        return f"{lo} %" if lo == hi else span(f"{lo} %", f"{hi} %")

    who = "the job" if jobs <= 1 else "each job"
    syncs = f", {pct(b['sync'])} in its sync calls" if b["synced"] else ""
    return (f"{who} ({b['engine']}: one I/O at a time, no thinktime or rate limit) was inside its I/O call "
            f"{pct(b['call'])} of its time (its I/Os × fio's mean latency ÷ the run){syncs} and on its CPU at most "
            f"{pct(b['cpu'])}: at least {pct(b['left'])} of its time was neither — runnable and waiting for a CPU the "
            f"host gave to other work, or in a final flush fio counts in its runtime (end_fsync, where set) — so the "
            f"I/Os' latency did not set the rate, and the jobs did not keep one I/O each outstanding")
