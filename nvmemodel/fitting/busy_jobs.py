"""Jobs added past the point where every job was busy: the CPUs they shared are the plateau's limit.

Along a job-count axis, at the first point with more than one job where fio's jobs were each
≥ :data:`~nvmemodel.fitting.fact_base.CPU_BOUND` of one CPU busy, the jobs together used N CPUs. Where every later
point's summed CPU stays within :data:`TOTAL_TOL` of N while the rate stays level at one cost per I/O, the runnable
jobs could get no more CPU than N — the host's CPUs for fio — and the plateau is N ÷ the cost per I/O: CPU-bound,
which needs no core count (the jobs were busy when there were fewer of them than the CPUs they then shared). A rate
held elsewhere at a fixed cost keeps the summed CPU level too, but leaves its jobs idle part of the time: below
CPU_BOUND (set after round 23 was read: r23_iouringlog 4k randread numjobs, each of 4 jobs 97.8 % busy and 3.89–3.99
CPUs at 4–256 jobs, left "give the host to decide", ZD).

Along the same axis, a rise from a CPU-bound point whose summed CPU grew with the rate at about one cost per I/O did
not lift a CPU limit: more jobs spread the work over more CPUs (:func:`spread`; r23_iouringlog 4k seqwrite, 0.999 →
3.98 CPUs at 16.4 → 14.4 µs a write, told "more jobs lifted that limit", ZD). Not where the jobs at the later point
were far below a CPU's worth of work while the total grew less than the rate (r23_iouringlog 128k seqwrite: 0.53 →
1.75 CPUs, 23 % → 5.5 % a job, the device sets it).
"""

from __future__ import annotations

import numpy as np

from .fact_base import CPU_BOUND

__all__ = ["TOTAL_TOL", "RATE_LEVEL", "ONE_COST", "SPREAD_GROWTH", "SPREAD_GROWTH_AWAKE", "busy_level",
           "busy_jobs_words", "spread"]

#: every later point's summed CPU within this of the jobs' total at the first busy multi-job point: more runnable
#: jobs got no more CPU. fio's usr+sys per run reads to ~1 %; a host's other work moves it a few %. Set after round 23
#: was read (the hand read's ±5 %; the case's 3.89–3.99 against 3.91 is within ±2.1 %).
TOTAL_TOL = 0.05
#: the rate at every point of the stretch within this of its median: a level, as the plateau is read elsewhere (±10 %)
RATE_LEVEL = 0.10
#: CPU per I/O at every point of the stretch within this of its median: one cost (``cpu_time.COST_TOL``'s ±15 %,
#: which fio's per-run cost noise and cache effects of more threads stay inside)
ONE_COST = 0.15
#: fewest points after the first busy multi-job point: one more point is no trend
MIN_LATER = 2


def busy_level(xs, cpus, per_io, share, jobs, iops) -> dict | None:
    """The stretch of :func:`module <nvmemodel.fitting.busy_jobs>` (arrays of one curve along a job-count axis), or
    None: ``k`` the first multi-job point, ``level`` N, the CPU range, the cost range and median, the rate range."""
    cpus, per_io, share, jobs, iops = (np.asarray(a, float) for a in (cpus, per_io, share, jobs, iops))
    multi = np.flatnonzero(np.isfinite(jobs) & (jobs >= 2))
    if not multi.size:
        return None
    k = int(multi[0])
    s = slice(k, len(jobs))
    if len(jobs) - k - 1 < MIN_LATER or not (np.isfinite(share[k]) and share[k] >= CPU_BOUND):
        return None
    if not (np.isfinite(cpus[s]).all() and np.isfinite(per_io[s]).all() and (per_io[s] > 0).all()
            and np.isfinite(iops[s]).all() and (iops[s] > 0).all() and np.all(np.diff(jobs[s]) > 0)):
        return None
    n = float(cpus[k])
    if np.any(np.abs(cpus[s] / n - 1) > TOTAL_TOL):
        return None
    if np.any(np.abs(iops[s] / np.median(iops[s]) - 1) > RATE_LEVEL):
        return None
    cost = float(np.median(per_io[s]))
    if np.any(np.abs(per_io[s] / cost - 1) > ONE_COST):
        return None
    return {"k": k, "x": float(xs[k]), "x_to": float(xs[-1]), "jobs": float(jobs[k]), "share": float(share[k]),
            "level": n, "lo": float(cpus[s].min()), "hi": float(cpus[s].max()), "cost": cost,
            "cost_lo": float(per_io[s].min()), "cost_hi": float(per_io[s].max()), "rate": float(np.median(cpus[s]) / cost),
            "iops_lo": float(iops[s].min()), "iops_hi": float(iops[s].max())}


#: the summed CPU grew at least this factor from the CPU-bound point: the jobs took more CPUs, not a little noise
SPREAD_GROWTH = 1.5
#: … or this factor where no job slept per I/O in any run (``in_thread.never_slept``): a job then was on a CPU or
#: waiting for one, so any growth beyond the one-cost tolerance is CPU the jobs got (set after round 24 was read:
#: r24_here-zramlzo psync zram, 0.95 → 1.33 CPUs at 3.24 → 3.35 µs a read and r24_here-splicenj, 0.92 → 1.30 CPUs,
#: both told "more jobs lifted that limit", CA). Jobs that sleep per I/O keep 1.5: below a CPU's worth they may have
#: waited on a device (r2 budisc optane, 0.998 → 1.5 CPUs at 2 jobs 75 % busy: "lifted" stays)
SPREAD_GROWTH_AWAKE = 1 + ONE_COST


def spread(cpus_i: float, cpus_j: float, cost_i: float, cost_j: float, iops_i: float, iops_j: float, *,
           awake: bool = False) -> bool:
    """True where from a CPU-bound point i to a later point j with more jobs the jobs' summed CPU grew by at least
    :data:`SPREAD_GROWTH` at one cost per I/O (within :data:`ONE_COST`): IOPS grew with the CPUs the jobs got, so
    more jobs spread the work over more CPUs rather than lift a CPU limit. ``awake``: no job slept per I/O — the
    growth needed is then :data:`SPREAD_GROWTH_AWAKE`."""
    v = np.array([cpus_i, cpus_j, cost_i, cost_j, iops_i, iops_j], float)
    if not (np.isfinite(v).all() and (v > 0).all()):
        return False
    growth = SPREAD_GROWTH_AWAKE if awake else SPREAD_GROWTH
    return bool(cpus_j >= growth * cpus_i and abs(cost_j / cost_i - 1) <= ONE_COST and iops_j > iops_i)


def busy_jobs_words(result, b: dict) -> str:
    """The sentence of :func:`busy_level`, with its numbers."""
    from .claim import _xv
    from .wording import cpus_words, fmt_y, span

    x = result.x
    cost = span(fmt_y(b["cost_lo"], "s"), fmt_y(b["cost_hi"], "s"))
    whole = round(b["level"])
    lo, hi = f"{b['lo']:.3g}", f"{b['hi']:.3g}"
    return (f"fio's CPU accounting: at {x} = {_xv(result, b['x'])} each of the {b['jobs']:g} jobs used "
            f"{100 * b['share']:.3g} % of a CPU ({cpus_words(b['level'], '.3g')} together, usr+sys), and from there to "
            f"{x} = {_xv(result, b['x_to'])} the jobs together used {span(lo, hi)} "
            f"CPUs however many were added (within {TOTAL_TOL:.0%} of it): every job was busy at "
            f"{_xv(result, b['x'])} and more jobs only shared those CPUs, so the plateau is CPU-bound — {cost} of CPU "
            f"per I/O at every point, {cpus_words(b['level'], '.3g')} ÷ {fmt_y(b['cost'], 's')} = "
            f"{fmt_y(b['level'] / b['cost'], '1/s')} ({span(fmt_y(b['iops_lo'], '1/s'), fmt_y(b['iops_hi'], '1/s'))} "
            f"measured there): the CPUs the host gave fio" + (f" (about {whole})" if whole >= 1 else "") + " held it.")
