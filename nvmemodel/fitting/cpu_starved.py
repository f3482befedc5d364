"""Jobs that never slept, on no device, below one CPU each: starved of CPU — the CPUs fio could get were saturated.

:mod:`~nvmemodel.fitting.in_thread_level` reads a summed-CPU level as CPU-bound where the lightest job was ≥ 90 %
busy. A host whose other load takes part of its CPUs gives the jobs less, and their CPUs need not level: each run's
rate is still its CPUs ÷ one cost per I/O, and a job off its CPU without sleeping was runnable, waiting for one. So
where

* the I/O is the job thread's own work with nothing beneath to wait on (:func:`~nvmemodel.fitting.in_thread.in_thread`
  with no block device or a memory device; unpaced, not polling, no serialising option such as a lock file);
* no job slept per I/O in any run (at most :data:`~nvmemodel.fitting.in_thread.CTX_PER_IO` context switches an I/O);
* every run of every point at one cost per I/O (within
  :data:`~nvmemodel.fitting.in_thread_level.ONE_COST_TOL` of the median: a cost that grows with the load is polling
  or contention, not starvation);
* from some load on, each job's CPU share (the median of its runs) is below
  :data:`~nvmemodel.fitting.fact_base.CPU_BOUND` at every later point (a suffix of the loads),

the jobs were CPU-bound at the CPU they could get from that load, whatever the host's core count: the rest of each
job's time went to other work on the host. The level is each run's CPUs ÷ that cost — the runs differ by the CPU
each got — and no sentence may say "no ceiling is reached" there.

Set after round 28 was read (MB: r28_here-overlaycopyup, four psync jobs with ≤ 0.0006 switches a write into an
overlayfs over tmpfs, each on a CPU 40–49 % of its time, every run's rate its CPUs ÷ 2.0–2.2 µs, told "near saturation …
the level is not read" and "no ceiling is reached within the data").
"""

from __future__ import annotations

import numpy as np

__all__ = ["cpu_starved", "cpu_starved_words", "starved_level_words", "starved_model_words"]


def cpu_starved(result, cf) -> dict | None:
    """The numbers of the module's reading, or None where any condition fails."""
    from .fact_base import CPU_BOUND
    from .in_thread_level import ONE_COST_TOL, in_thread_runs

    if cf is None or cf.cpu is None or result.x not in ("numjobs", "jobs", "threads"):  # jobs that can starve each other
        return None
    p = cf.points
    if len(p) < 2:
        return None
    got = in_thread_runs(result, cf)
    if got is None:
        return None
    rows, h, runs = got
    if "serial_options" in rows and rows["serial_options"].dropna().astype(str).str.strip().ne("").any():
        return None  # a lock file or the like serialises the jobs: its own rule
    if "thinktime_s" in rows and (np.nan_to_num(rows["thinktime_s"].astype(float)) > 0).any():
        return None
    if not all((c > 0).all() for c, _ in runs):
        return None
    jobs = p["jobs"].to_numpy(float)
    cost = np.concatenate([c / io for c, io in runs])
    # one cost: every run within the tolerance of the middle of the runs' range (the geometric mid-point: a spread of
    # ±5 % about it, not about a median that sits at one end)
    med = float(np.sqrt(cost.min() * cost.max())) if (cost > 0).all() else 0.0
    if not (med > 0 and np.all(np.abs(cost / med - 1) <= ONE_COST_TOL)):
        return None
    share = np.array([float(np.median(c)) for c, _ in runs]) / jobs
    starved = share < CPU_BOUND
    if not starved[-1]:
        return None
    k = len(p) - 1
    while k > 0 and starved[k - 1]:
        k -= 1
    xs = p["x"].to_numpy(float)
    c_from = np.concatenate([c for c, _ in runs[k:]])
    io_from = np.concatenate([io for _, io in runs[k:]])
    sh_from = np.concatenate([c / jobs[i] for i, (c, _) in enumerate(runs) if i >= k])
    return {"k": k, "x": float(xs[k]), "x_to": float(xs[-1]), "first_share": float(share[0]),
            "jobs_k": float(jobs[k]), "share_lo": float(sh_from.min()), "share_hi": float(sh_from.max()),
            "cpus_lo": float(c_from.min()), "cpus_hi": float(c_from.max()), "cost": med,
            "cost_lo": float(cost.min()), "cost_hi": float(cost.max()), "dev": float(np.max(np.abs(cost / med - 1))),
            "n_runs": int(cost.size), "iops_lo": float(io_from.min()), "iops_hi": float(io_from.max()),
            "ctx_words": h["ctx_words"], "device": h["device"], "no_device": bool(h.get("no_device")),
            "bytes": float(p["bytes_per_io"].iloc[-1]) if "bytes_per_io" in p else np.nan}


def cpu_starved_words(result, h) -> str:
    """The CPU clause of :func:`cpu_starved` (after "fio's CPU accounting at the maximum …")."""
    from .claim import _pcts, _xv
    from .wording import cpus_words, fmt_y, span

    x = result.x
    lo, hi = f"{h['cpus_lo']:.3g}", f"{h['cpus_hi']:.3g}"
    where = (f"there was {h['device']}" if h["no_device"] else
             f"the I/O was on {h['device']} (a memory device: no device to wait on)")
    return (f"{where} and no job slept per I/O ({h['ctx_words']} in every run), yet from {x} = {_xv(result, h['x'])} "
            f"each job was on a CPU only {_pcts(h['share_lo'], h['share_hi'])} of its time (its runs' usr+sys per "
            f"job): the rest of its time it was runnable, waiting for a CPU — the CPUs fio could get were all busy "
            f"there, other work on the host (the other jobs included) taking the rest, whatever the host's core count; every run's CPU per I/O "
            f"was {span(fmt_y(h['cost_lo'], 's'), fmt_y(h['cost_hi'], 's'))} (all {h['n_runs']} runs within "
            f"±{h['dev']:.0%} of {fmt_y(h['cost'], 's')}), so each run's rate is its CPUs ÷ that cost: CPU-bound at "
            f"the CPU the jobs got from {x} = {_xv(result, h['x'])}, "
            f"{cpus_words(span(lo, hi))} for "
            f"{_run_rates(h)} by run — the runs differ by the CPU "
            f"each got, and more jobs gain only the share they win from the other load")



def _run_rates(h) -> str:
    """The runs' IOPS range, with bytes/s beside it at blocks of 64 KiB or more (both sentences say it alike)."""
    from .wording import fmt_y, span

    out = span(fmt_y(h['iops_lo'], '1/s'), fmt_y(h['iops_hi'], '1/s'))
    if np.isfinite(h["bytes"]) and h["bytes"] >= 65536:
        out += f", {span(fmt_y(h['iops_lo'] * h['bytes'], 'B/s'), fmt_y(h['iops_hi'] * h['bytes'], 'B/s'))}"
    return out

def starved_model_words(result, h, top: str) -> str:
    """The model sentence's reason where the jobs were CPU-starved, in place of "the data still rise … no ceiling is
    reached" (``top``: the largest measurement, said)."""
    from .claim import _xv

    return (f"but from {result.x} = {_xv(result, h['x'])} the jobs were held by the CPUs they could get (see fio's "
            f"CPU accounting): the gains after it (to {top}) are the CPU share the jobs won, not a ceiling still "
            f"ahead, so none is estimated from the fit")


def starved_level_words(result, h) -> str:
    """The level of the saturation sentence where the jobs were CPU-starved: onset and the runs' range."""
    from .claim import _xv
    from .wording import cpus_words, fmt_y, span

    lo, hi = f"{h['cpus_lo']:.3g}", f"{h['cpus_hi']:.3g}"
    return (f"the jobs, which never slept, fell below {0.9:.0%} of a CPU each from {result.x} = "
            f"{_xv(result, h['x'])} — saturated there on the CPUs they could get, at a level of those CPUs ÷ one CPU "
            f"cost per I/O ({fmt_y(h['cost'], 's')}): {_run_rates(h)}"
            f" by run at {cpus_words(span(lo, hi))} (fio's CPU accounting, below)")

