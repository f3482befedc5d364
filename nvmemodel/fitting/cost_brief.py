"""fio's CPU per I/O said as a figure where the cost line is left out because every job was far from its CPU limit.

Round 19 (TE, :mod:`.cpu_band`) took the cost line — with "one CPU sustains N IOPS" — out of series whose jobs used
less than half a CPU: no limit the data come near. Issue 28's rule 4 still asks for the CPU per I/O on every axis, and
round 29's read missed it (OE: r29_here-vdadsync_vda-ext4-64mfile-per-job_psync-direct-odsync_randwrite4k
_numjobs_repeats, 17–77 µs a write unsaid; r29_here-vdammap_vda-ext4-512mfile-memcg32m_mmap_randread4k_numjobs
_repeats, 19–30 µs a fault+copy unsaid). So there the figure is said, short, with no rate one CPU sustains: the range of fio's
usr+sys ÷ I/Os per job over the points where a job used at least ``cpu_claims.IDLE_SHARE`` of a CPU (below it fio's
per-second floor is more than the cost), and which points those were. Said only where ``cpu_claims.unsaid_cost``
has a line (every other rule that withholds a cost — CPU-bound, spinning, a share not spent per I/O, cpuio — holds),
and not along block size (the cost per size is a list of its own there).
"""

from __future__ import annotations

import numpy as np

__all__ = ["brief_cost_words", "job_thread_only"]


def brief_cost_words(result, cf, idle_share: float, skip_x: float | None = None,
                     job_thread_only: bool = False) -> str:
    """" fio's CPU per I/O (usr+sys CPU-seconds ÷ I/Os, per job) was 19.1 µs–30.1 µs at numjobs = 1–8; each job
    used below half a CPU, so this cost is no limit these rates came near." or ""."""
    from .wording import fmt_y, span
    from .claim import _xv

    f = cf.cpu
    if f is None or result.x == "block_size_bytes":
        return ""
    p = cf.points
    per_io = np.asarray(f.facts.get("cpu_s_per_io", []), float)
    share = np.asarray(f.facts.get("share", []), float)
    if per_io.size != len(p) or share.size != len(p):
        return ""
    ok = np.isfinite(per_io) & (per_io > 0) & np.isfinite(share) & (share >= idle_share)
    xs = p["x"].to_numpy(float)
    if skip_x is not None:  # (the point the sentence calls nearly idle)
        ok &= ~np.isclose(xs, skip_x)
    if not ok.any():
        return ""
    lo, hi = float(per_io[ok].min()), float(per_io[ok].max())
    at = xs[ok]
    run = np.flatnonzero(ok)
    contiguous = bool(ok[run[0]:run[-1] + 1].all())
    where = (f"at {result.x} = {_xv(result, at[0])}" if at.size == 1 else
             f"at {result.x} = {_xv(result, at[0])}–{_xv(result, at[-1])}" if contiguous else
             f"at {result.x} = " + ", ".join(_xv(result, v) for v in at))
    one = "jobs" in p.columns and bool(np.nanmax(p["jobs"].to_numpy(float)) <= 1)
    who, a = ("the job", "the job") if one else ("each job", "a job")
    left = "" if ok.all() else (f"; at the other points {a} used below {idle_share:.0%} of a CPU, where fio's "
                                f"per-second accounting leaves no cost to read")
    per = "" if one else ", per job"
    if job_thread_only:
        # the I/O's work is in threads fio does not count: the figure is the job thread's submitting and reaping, a
        # lower bound of the I/O's CPU, and no limit verdict follows from it (set after round 30 was read: RD,
        # r30_here-posixaio_vda-ext4-512mfile_…_iodepth_repeats, "this cost is no limit these rates came near" after
        # "the share says nothing of a CPU limit either way"; the helper's CPU made it ×4–5 the job's 3.7–7.3 µs)
        return (f" The job thread's own CPU per I/O (usr+sys CPU-seconds ÷ I/Os{per}; the engine's other threads, "
                f"which do part or all of each I/O's work, are not counted) was {span(fmt_y(lo, 's'), fmt_y(hi, 's'))} "
                f"{where}{left}: a lower bound of an I/O's CPU, and no CPU limit is read from it.")
    return (f" fio's CPU per I/O (usr+sys CPU-seconds ÷ I/Os{per}) was {span(fmt_y(lo, 's'), fmt_y(hi, 's'))} "
            f"{where}{left}; {who} used below half a CPU, so this cost is no limit these rates came near.")


def job_thread_only(result, cf, engine: str) -> bool:
    """The engine's I/O is done by threads fio does not count (posixaio, rbd, rados, glusterfs_async, windowsaio's
    completion thread, io_uring's sqthread_poll): fio's CPU per I/O is then the job thread's submitting and reaping
    only, and no verdict on a CPU limit is read from it (round 30 RD)."""
    from ..hostcal.costs import HELPER_THREADS, WINDOWS

    if engine in HELPER_THREADS or engine in WINDOWS:
        return True
    from .claim import runs_rows

    rows = runs_rows(result, cf.points)
    if rows is not None and "sqthread_poll" in rows.columns:
        import pandas as pd

        return bool((pd.to_numeric(rows["sqthread_poll"], errors="coerce") > 0).any())
    return False
