"""fio's own serialising options: what holds the jobs' summed CPU and rate where fio lets one job at a time do I/O.

With ``lockfile=exclusive`` (fio HOWTO "lockfile") a job holds the file's lock from taking an I/O unit to completing
it, so however many jobs share the file one at a time does I/O; ``lockfile=readwrite`` does the same for writers. The
jobs then together use about one CPU's worth for their I/O whatever their number or the host's, and the CPU each job
gets is what the others leave it while they hold the lock — not "other load on its cores, or more jobs than cores".
ingest keeps the options as ``serial_options`` (:func:`nvmemodel.ingest.fio_options.serial_options`).

Said only where every run sets the same serialising option and, at every point with more than one job, the jobs'
summed CPU (the median of the point's runs) stays within :data:`ONE_CPU_TOL` of one CPU or below it — the lock's
signature. Not for ``lockfile=none`` (fio's default), not for ``readwrite`` where the jobs only read (readers share
the lock), not where the total grows with the jobs (a lock that did not bind). Set after round 27 was read:
r27_here-lockfile … numjobs, lockfile=exclusive in every file, the jobs together 0.92–1.04 CPUs at 2–8 jobs (medians)
on a 2-CPU host, told "CPU-bound at the share the host gave it (other load on its cores, or more jobs than cores …)"
(IC).
"""

from __future__ import annotations

import numpy as np

__all__ = ["ONE_CPU_TOL", "serialised", "serialised_words"]

#: the jobs' summed CPU at every multi-job point at most this above one CPU: one job's worth (fio's own work outside
#: the lock — its accounting, its next offset — runs beside the lock holder; the hand read's kept runs reached 1.04)
ONE_CPU_TOL = 0.15


def serialised(result, p) -> dict | None:
    """``{"option", "lo", "hi", "x_from", "x_to"}`` of the module's reading (the summed CPU range of the multi-job
    points, medians of their runs), or None."""
    from .claim import runs_rows
    from .facts import point_run_cpus

    rows = runs_rows(result, p)
    if rows is None or not len(rows) or "serial_options" not in rows or "sources" not in p or "jobs" not in p:
        return None
    opts = rows["serial_options"]
    if opts.isna().any() or opts.astype(str).nunique() != 1:
        return None
    parts = str(opts.iloc[0]).split(";")
    writes = "direction" in rows and rows["direction"].astype(str).isin(("write", "trim", "mixed")).any()
    option = next((o for o in parts if o == "lockfile=exclusive" or (o == "lockfile=readwrite" and writes)), None)
    if option is None:
        return None
    jobs = p["jobs"].to_numpy(float)
    multi = np.flatnonzero(np.isfinite(jobs) & (jobs >= 2))
    if not multi.size:
        return None
    cpus = []
    for k in multi:
        c, _, _ = point_run_cpus(rows, [s for s in str(p["sources"].iloc[k]).split(";") if s])
        if not c.size or not np.isfinite(c).all():
            return None
        cpus.append(float(np.median(c)))
    if max(cpus) > 1 + ONE_CPU_TOL:
        return None
    xs = p["x"].to_numpy(float)
    return {"option": option, "lo": min(cpus), "hi": max(cpus), "x_from": float(xs[multi[0]]),
            "x_to": float(xs[multi[-1]])}


def serialised_words(result, s: dict, *, cost: float | None = None) -> str:
    """The clause that names the lock as what held the jobs' summed CPU and their rate; with ``cost`` (CPU-seconds per
    I/O) the rate one CPU gives at it."""
    from .claim import _xv
    from .wording import cpus_words, fmt_y, span

    x = result.x
    what = ("lets one job at a time do I/O on the file" if s["option"] == "lockfile=exclusive" else
            "lets one writer at a time do I/O on the file")
    lo, hi = f"{s['lo']:.3g}", f"{s['hi']:.3g}"
    return (f"the runs set {s['option']}, which {what}: from {x} = {_xv(result, s['x_from'])} to "
            f"{_xv(result, s['x_to'])} the jobs together used {cpus_words(span(lo, hi))} (medians of the runs), about "
            f"one CPU — one job's worth — however many were added, so fio's lock, not the host, held the jobs' summed "
            f"CPU and their rate" + (f" (one CPU ÷ {fmt_y(cost, 's')} per I/O = {fmt_y(1 / cost, '1/s')})"
                                     if cost is not None and cost > 0 else ""))
