"""A summed-CPU level whose runs prove it CPU-bound without the host's core count.

Along a job-count axis the CPU fact leaves a level of the jobs' summed CPU open ("if this host has about N CPUs for fio
… give the host to decide"): a rate held elsewhere at a fixed CPU cost per I/O keeps the summed CPU level too. fio's
own figures close it where the I/O is the job thread's own work and nothing else could have held it:

* no device beneath (fio's disk statistics name none and move no requests) or a memory device, and the engine does
  each I/O inside its call (:func:`~nvmemodel.fitting.in_thread.in_thread`, unpaced, not polling);
* no job slept per I/O in any run (at most :data:`~nvmemodel.fitting.in_thread.CTX_PER_IO` context switches an I/O):
  a job was on a CPU or waiting for one;
* the job(s) at the lightest load each used ≥ :data:`~nvmemodel.fitting.fact_base.CPU_BOUND` of one CPU (median of
  the runs);
* every run of every point at one cost per I/O, within :data:`ONE_COST_TOL` of the median: each run's rate is its
  CPUs ÷ that cost.

Then the rate is the CPUs the jobs could get ÷ the cost — CPU-bound — and the host's core count only names whose CPUs
they were. The level is the median of the points' run medians (the same runs the rate level is read from, a disturbed
run not pulling it down). Set after round 27 was read: r27_here-filestat … numjobs, one job 95–100 % of a CPU with no
device and ≤ 0.0006 switches a stat(), every run 1.85–1.92 µs a stat(), told "give the host — --host or a topology — to
decide" (IB).
"""

from __future__ import annotations

import numpy as np

from .fact_base import CPU_BOUND

__all__ = ["ONE_COST_TOL", "in_thread_level", "in_thread_level_words", "in_thread_runs"]

#: every run's CPU per I/O within this of the median over all runs of the curve: one cost (fio's usr+sys over a
#: few-second run reads to ~1–2 %; the hand read's ±5 %). Set after round 27 was read (IB: ±2 % on r27 filestat).
ONE_COST_TOL = 0.05


def in_thread_runs(result, cf):
    """``(rows, in_thread's numbers, [(CPUs, IOPS) of each point's runs])`` where the curve's jobs do each I/O in their
    own call and never sleep per I/O (:func:`~nvmemodel.fitting.in_thread.in_thread`: unpaced, not polling, at most
    :data:`~nvmemodel.fitting.in_thread.CTX_PER_IO` switches an I/O) and every point's runs give finite CPUs and
    positive IOPS; else None. The runs both one-cost readings start from (this module's and
    :mod:`~nvmemodel.fitting.cpu_starved`'s)."""
    from .claim import runs_rows
    from .facts import point_run_cpus
    from .in_thread import CTX_PER_IO, in_thread
    from .run_flags import _run_flags

    f, p = cf.cpu, cf.points
    if f is None or f.facts.get("spins") or f.facts.get("polled") or "sources" not in p or "jobs" not in p:
        return None
    rows = runs_rows(result, p)
    if rows is None or not len(rows):
        return None
    flags = _run_flags(rows)
    if flags["paced"] or flags["part_paced"] or flags["polling"] or flags["not_stack"]:
        return None
    h = in_thread(result, cf, flags)
    if h is None or h["along_size"] or not h["ctx_max"] <= CTX_PER_IO:
        return None
    runs = []
    for k in range(len(p)):
        c, io, _ = point_run_cpus(rows, [s for s in str(p["sources"].iloc[k]).split(";") if s])
        if not c.size or not (np.isfinite(c).all() and np.isfinite(io).all() and (io > 0).all()):
            return None
        runs.append((c, io))
    return rows, h, runs


def in_thread_level(result, cf) -> dict | None:
    """The numbers of the module's reading, or None where any of its conditions fails (or the CPU fact has no open
    level)."""
    f, p = cf.cpu, cf.points
    if f is None or f.facts.get("cpu_bound") is not None or f.facts.get("level_cpus") is None:
        return None
    got = in_thread_runs(result, cf)
    if got is None:
        return None
    _, h, runs = got
    jobs = p["jobs"].to_numpy(float)
    cost = np.concatenate([c / io for c, io in runs])
    med = float(np.median(cost))
    if not (med > 0 and np.all(np.abs(cost / med - 1) <= ONE_COST_TOL)):
        return None
    first = float(np.median(runs[0][0])) / jobs[0]
    if not (np.isfinite(first) and first >= CPU_BOUND):
        return None
    xs = p["x"].to_numpy(float)
    at = np.flatnonzero(np.isclose(xs, float(f.facts["level_from_x"])))
    if not at.size:
        return None
    k = int(at[0])
    cpus = np.array([float(np.median(c)) for c, _ in runs[k:]])
    iops = np.array([float(np.median(io)) for _, io in runs[k:]])
    level = float(np.median(cpus))
    return {"k": k, "x": float(xs[k]), "x_to": float(xs[-1]), "first": first, "x0": float(xs[0]), "jobs0": float(jobs[0]),
            "cpus_lo": float(cpus.min()), "cpus_hi": float(cpus.max()), "level": level, "cost": med,
            "dev": float(np.max(np.abs(cost / med - 1))), "cost_lo": float(cost.min()), "cost_hi": float(cost.max()), "n_runs": int(cost.size),
            "rate": level / med, "iops_lo": float(iops.min()), "iops_hi": float(iops.max()), "in_thread": h}


def in_thread_level_words(result, h) -> str:
    """The CPU sentence of :func:`in_thread_level`."""
    from .claim import _xv
    from .wording import cpus_words, fmt_y, span

    x, t = result.x, h["in_thread"]
    lo, hi = f"{h['cpus_lo']:.3g}", f"{h['cpus_hi']:.3g}"
    who = "the job" if h["jobs0"] <= 1 else f"each of the {h['jobs0']:g} jobs"
    where = (f"with {t['device']}" if t.get("no_device") else
             f"on {t['device']} (a memory device: no device to wait on)")
    return (f"fio's CPU accounting: at {x} = {_xv(result, h['x0'])} {who} used {100 * h['first']:.3g} % of a CPU "
            f"(usr+sys, the median of its runs), and from {x} = {_xv(result, h['x'])} to {_xv(result, h['x_to'])} the "
            f"jobs together used {cpus_words(span(lo, hi))} however many were "
            f"added (medians of the runs); {where} {t['how']} and no job slept per I/O ({t['ctx_words']} in every "
            f"run), and every run's CPU per I/O was "
            f"{span(fmt_y(h['cost_lo'], 's'), fmt_y(h['cost_hi'], 's'))} (all {h['n_runs']} runs within "
            f"±{h['dev']:.0%} of {fmt_y(h['cost'], 's')}): each run's rate is its CPUs ÷ that cost, so the plateau "
            f"is CPU-bound — the CPUs the jobs could get, {cpus_words(h['level'], '.3g')} ÷ {fmt_y(h['cost'], 's')} = "
            f"{fmt_y(h['rate'], '1/s')} ({span(fmt_y(h['iops_lo'], '1/s'), fmt_y(h['iops_hi'], '1/s'))} measured, "
            f"medians); the host's core count would only say whose CPUs those were.")
