"""The claims fio's CPU accounting supports: the jobs' usr+sys at the maximum, points where a job kept its CPU busy
(and whether that limited the rate — a job that waits by spinning counts as busy), against the host's cores where a
topology gives them. CPU is compared per I/O, never per byte (:mod:`~nvmemodel.fitting.facts`)."""

from __future__ import annotations

import numpy as np

from .claim import Claim, _machine_cpu, _pct, _pts, _what, _xv
from .evidence import Evidence
from .facts import CPU_BOUND
from .wording import fmt_y

__all__ = ["_machine_cpu", "_per_job_cpu"]

def _per_job_cpu(pts) -> np.ndarray:
    """fio's usr+sys of each point per job, in CPUs; NaN where the jobs are not known or one job would have
    used more than one CPU (one job is one thread: an accounting mismatch, not a load), and for a whole
    machine's CPU (DiskSpd, IOmeter): not the jobs' own."""
    if "cpus" not in pts or "jobs" not in pts or _machine_cpu(pts):
        return np.full(len(pts), np.nan)
    cpus, jobs = pts["cpus"].to_numpy(float), pts["jobs"].to_numpy(float)
    with np.errstate(all="ignore"):
        per = np.where(np.isfinite(jobs) & (jobs > 0), cpus / jobs, np.nan)
    return np.where(per > 1.05, np.nan, per)


def _cpu_bound_below(result, key, ev: Evidence):
    """The points below the level the curve reaches (the plateau's first x, else the maximum's) at which fio saw
    a job at ≥ :data:`CPU_BOUND` of one CPU: a rise from such a point is a CPU limit, not a queue filling."""
    pts = _pts(result, key).sort_values(result.x)
    if result.y_unit == "s" or not len(pts):
        return pts.iloc[:0]
    level_x = ev.plateau["x_from"] if ev.plateau else float(ev.x[int(np.argmax(ev.y))])
    per = _per_job_cpu(pts)
    keep = (pts[result.x].to_numpy(float) < level_x) & (per >= CPU_BOUND)
    keep &= ~np.isin(np.arange(len(pts)), list(_busy_not_binding(result, key, ev)))
    return pts[keep]


def _iops_or_y(result, key, pts) -> np.ndarray:
    """The points' I/O rates where known — CPU is spent per I/O, so a job's CPU is compared against the I/Os it
    made, never against bytes (along block size a busy job moves more bytes per I/O) — else y."""
    from .facts import curve_facts

    iops = curve_facts(result, key).points["iops"].to_numpy(float)
    return iops if len(iops) == len(pts) and np.isfinite(iops).all() else pts["y"].to_numpy(float)


def _busy_not_binding(result, key, ev: Evidence) -> dict:
    """{i: j}: points i where fio saw a job at ≥ :data:`CPU_BOUND` of one CPU although at point j each job used less
    than that and made as much per job (within noise) — the busy CPU did not limit the rate at i (a job that waits by
    spinning, as under ``--rate_iops``, reads as 100 % busy; QA s27 I3: 50 K IOPS per job at 99.9 % of a CPU with one
    job and at 39.7 % with four). Indices are of the curve's points sorted by x."""
    pts = _pts(result, key).sort_values(result.x)
    if result.y_unit == "s" or "jobs" not in pts or not len(pts):
        return {}
    per = _per_job_cpu(pts)
    jobs, ys, xs = pts["jobs"].to_numpy(float), _iops_or_y(result, key, pts), pts[result.x].to_numpy(float)
    out = {}
    for i in np.flatnonzero(per >= CPU_BOUND):
        for j in np.flatnonzero(per < CPU_BOUND):
            if not (jobs[i] > 0 and jobs[j] > 0):
                continue
            i_ev, j_ev = int(np.argmin(np.abs(ev.x - xs[i]))), int(np.argmin(np.abs(ev.x - xs[j])))
            if result.y_unit == "1/s":
                slack = ev.beyond_noise(i_ev, j_ev) / max(jobs[i], jobs[j])
            else:  # I/Os compared where y is bytes: the curve's noise is of bytes, so a fixed 5 % of the rate
                slack = 0.05 * ys[i] / jobs[i]
            if ys[j] / jobs[j] >= ys[i] / jobs[i] - slack:
                out[int(i)] = int(j)
                break
    return out


def _busy_not_binding_sentence(result, key, ev: Evidence) -> list[Claim]:
    pts = _pts(result, key).sort_values(result.x)
    pairs = _busy_not_binding(result, key, ev)
    if not pairs:
        return []
    x = result.x
    per = _per_job_cpu(pts)
    ys = _iops_or_y(result, key, pts)
    u = "1/s" if ys is not pts["y"].to_numpy(float) and result.y_unit != "1/s" and np.isfinite(ys).all() \
        and not np.array_equal(ys, pts["y"].to_numpy(float)) else result.y_unit
    jobs, xs = pts["jobs"].to_numpy(float), pts[x].to_numpy(float)
    parts = []
    for i, j in pairs.items():
        who = "the job" if jobs[i] == 1 else f"each of the {jobs[i]:g} jobs"
        parts.append(f"at {x} = {_xv(result, xs[i])} {who} used {100 * per[i]:.3g} % of a CPU for "
                     f"{fmt_y(ys[i] / jobs[i], u)} per job, yet at {x} = {_xv(result, xs[j])} each job made "
                     f"{fmt_y(ys[j] / jobs[j], u)} with {100 * per[j]:.3g} %")
    return [Claim("cpu", "fio's CPU accounting: " + "; ".join(parts) + " (usr+sys): the busy CPU did not limit the "
                         "rate there (a job that waits by spinning counts as busy), so no CPU-bound claim is made "
                         "from it.")]


def _cpu_bound_sentence(result, key, ev: Evidence, bound) -> str:
    """ "fio's CPU accounting at numjobs = 1: the job used 99.8 % of a CPU (usr+sys): CPU-bound there; …" """
    x, u = result.x, result.y_unit
    pts = _pts(result, key).sort_values(result.x)
    per_all = _per_job_cpu(pts)
    xs, ys = pts[x].to_numpy(float), pts["y"].to_numpy(float)
    parts = []
    for _, row in bound.iterrows():
        per = float(row["cpus"]) / float(row["jobs"])
        who = "the job" if float(row["jobs"]) == 1 else f"each of the {float(row['jobs']):g} jobs"
        parts.append(f"at {x} = {_xv(result, row[x])} {who} used {100 * per:.3g} % of a CPU")
    text = "fio's CPU accounting: " + "; ".join(parts) + " (usr+sys): CPU-bound there"
    last = float(bound[x].iloc[-1])
    j = int(np.searchsorted(xs, last, side="right"))
    i = j - 1
    if x == "numjobs" and j < len(xs) and np.isfinite(per_all[j]) and per_all[j] < CPU_BOUND:
        i_ev, j_ev = int(np.argmin(np.abs(ev.x - xs[i]))), int(np.argmin(np.abs(ev.x - xs[j])))
        from .facts import PAYS, _gain

        # "lifted" only by a rise beyond noise that also pays per doubling (issue 28: +3 % for twice the jobs is none)
        if ys[j] - ys[i] > ev.beyond_noise(i_ev, j_ev) and _gain(ys[i], ys[j], xs[i], xs[j]) >= PAYS:
            text += (f"; at {x} = {_xv(result, xs[j])} each job used {100 * per_all[j]:.3g} % of a CPU and "
                     f"{_what(result)} rose ×{ys[j] / ys[i]:.3g} (to {fmt_y(ys[j], u)}): more jobs lifted that limit")
    return text + "."


def _job_share_told(result, key) -> bool:
    """Whether "no job's own CPU held it" may be said: the CPU fact found no CPU limit (a CPU-bound, level or
    spare-CPU reading has its own sentence) and the engine does I/O (the null engine's rate is its CPU's)."""
    from .claim import runs_rows
    from .facts import curve_facts

    cf = curve_facts(result, key)
    f = cf.cpu
    if f is None or f.facts["cpu_bound"] is not False or f.facts.get("spare"):
        return False
    return _run_flags(runs_rows(result, cf.points))["engine"] not in ("null", "cpuio")


def _cpu(result, key, ev: Evidence) -> list[Claim]:
    pts = _pts(result, key).sort_values(result.x)
    if "cpus" not in pts or pts["cpus"].isna().all():
        return []
    bound_below = _cpu_bound_below(result, key, ev)
    below = [Claim("cpu", _cpu_bound_sentence(result, key, ev, bound_below))] if len(bound_below) else []
    below += _busy_not_binding_sentence(result, key, ev)
    not_binding = _busy_not_binding(result, key, ev)
    topo = result.setup(key)[0]
    cores, assumed = None, False
    if topo is not None and getattr(topo, "host", None) is not None:
        cores = int(topo.host.sockets * topo.host.cores_per_socket)
        why = str(getattr(topo.host, "provenance", {}).get("cores_per_socket", ""))
        assumed = why.startswith(("assumption", "estimate"))  # not this machine's count: no saturation claim
    if result.y_unit == "s":  # "at the maximum" of a latency is its slowest point: no load to read CPU against
        return below
    i = int(np.argmax(pts["y"].to_numpy()))
    row = pts.iloc[i]
    cpus = float(row["cpus"])
    if i in not_binding:  # said above: busy, but not what limited the rate
        return below
    if not np.isfinite(cpus):
        return below
    # the jobs of the runs at the maximum themselves (not a table-wide count: on an outstanding axis the
    # runs differ in numjobs)
    jobs = float(row["jobs"]) if "jobs" in row and np.isfinite(row["jobs"]) and row["jobs"] > 0 else np.nan
    per_job = cpus / jobs
    if per_job > 1.05:  # one job is one thread: more than one CPU per job is an accounting mismatch, not a load
        per_job = np.nan
    machine = _machine_cpu(pts)
    if machine:  # a whole machine's CPU, every process: no share per job
        per_job = np.nan
        text = (f"{machine}'s CPU accounting at the maximum ({result.x} = {_xv(result, row[result.x])}): the "
                f"machine used {cpus:.3g} CPUs (user+kernel, every process, not the jobs' alone)")
    else:
        text = (f"fio's CPU accounting at the maximum ({result.x} = {_xv(result, row[result.x])}): the jobs used "
                f"{cpus:.3g} CPUs (usr+sys)" + (f", {_pct(per_job)} of one CPU per job" if np.isfinite(per_job)
                                                 else ""))
    bound = []
    told = np.isfinite(per_job) and per_job < CPU_BOUND and _job_share_told(result, key)
    if np.isfinite(per_job) and per_job >= CPU_BOUND:
        bound.append("each job kept its CPU busy: the submitting threads are CPU-bound")
    elif told:
        # issue 28 rule 4: a job is one thread, so below 90 % of one CPU its own CPU did not hold it, whatever the
        # host; the CPUs together are a question of the core count (below)
        held = ("the job was below {b} of one CPU, so its own CPU did not hold it" if jobs == 1 else
                "each job was below {b} of one CPU, so no job's own CPU held it").format(b=f"{CPU_BOUND:.0%}")
        bound.append(f"{held} (a job is one thread: this needs no core count)")
    if cores and assumed:
        bound.append(f"{_pct(cpus / cores)} of the {cores} cores assumed for this host (its core count was not "
                     f"measured: no CPU-saturation claim)")
    elif cores and cpus >= 0.9 * cores:
        bound.append(f"{cpus / cores:.0%} of the host's {cores} cores: the CPUs are saturated")
    elif cores:
        bound.append(f"{_pct(cpus / cores)} of the host's {cores} cores")
    elif told:
        bound.append("whether the host's CPUs together were busy needs its core count (give a topology): no "
                     "CPU-saturation claim for the host")
    elif not (np.isfinite(per_job) and per_job >= CPU_BOUND):
        bound.append("the host's core count is not known here (give a topology): no CPU-saturation claim")
    cost = "" if machine else cost_words(result, key)
    return below + [Claim("cpu", text + ("; " + "; ".join(bound) if bound else "") + "." + cost)]


def _coarse_step(rows) -> float | None:
    """The step of fio's CPU figures where every usr and sys share of the runs is a whole multiple of 1/runtime
    (CPU time counted in whole seconds, as fio on Windows does: 1.67 % steps over 60 s runs), in CPUs; else None."""
    if rows is None or not {"cpu_usr", "cpu_sys", "runtime_s"} <= set(rows.columns):
        return None
    rt = rows["runtime_s"].to_numpy(float)
    vals = np.concatenate([rows["cpu_usr"].to_numpy(float) * rt, rows["cpu_sys"].to_numpy(float) * rt])
    vals = vals[np.isfinite(vals)]
    rt = rt[np.isfinite(rt) & (rt > 0)]
    if not rt.size or rt.min() < 5 or np.count_nonzero(vals > 0.5) < 2:
        return None  # short runs (< 5 s) make every share a near-multiple of 1/runtime: nothing told
    return float(1.0 / np.median(rt)) if np.all(np.abs(vals - np.round(vals)) < 0.02) else None


def _run_flags(rows) -> dict:
    """What the runs say about their CPU figures (the rules of ``nm.io_costs``, :mod:`nvmemodel.hostcal.costs`):
    the engine, whether fio paced them, whether they were buffered."""
    import pandas as pd

    from ..hostcal.costs import NOT_A_STACK, POLLING

    out = {"engine": "", "not_stack": "", "polling": False, "paced": [], "buffered": False, "step": None}
    if rows is None or not len(rows):
        return out
    if "ioengine" in rows:
        engines = set(rows["ioengine"].dropna().astype(str))
        out["engine"] = engines.pop() if len(engines) == 1 else ""
        out["not_stack"] = next((NOT_A_STACK[e] for e in sorted(set(rows["ioengine"].dropna().astype(str)))
                                 if e in NOT_A_STACK), "")
        out["polling"] = bool(rows["ioengine"].astype(str).isin(POLLING).any())
    for col, name in (("rate_iops", "rate_iops"), ("rate_bytes_per_s", "rate"), ("thinktime_s", "thinktime")):
        if col in rows and (pd.to_numeric(rows[col], errors="coerce") > 0).any():
            out["paced"].append(name)
    if "direct" in rows:
        d = rows["direct"].dropna()
        out["buffered"] = bool(len(d)) and not d.astype(bool).any()
    out["step"] = _coarse_step(rows)
    return out


def cost_words(result, key) -> str:
    """Issue 28 rule 4 on every axis: " fio's CPU per I/O at x = v: 8.2 µs (usr+sys CPU-seconds ÷ I/Os, per job) —
    17.9 K cycles at the host's 2.2 GHz —, at which cost one CPU sustains 122 K IOPS." at the saturation onset (else
    the maximum); along block size the cost at each size and how it changes (CPU is spent per I/O: never per byte
    across sizes). "" where the CPU-bound fact already states it, without a per-I/O figure, or for an engine whose
    CPU is no I/O cost (cpuio)."""
    from .claim import runs_rows
    from .facts import curve_facts

    if result.y_unit == "s":
        return ""
    cf = curve_facts(result, key)
    f = cf.cpu
    if f is None or f.facts["cpu_bound"] is True or f.facts.get("spare") or f.facts["cpu_bound"] is None:
        return ""  # said by the CPU fact's own sentence (fact_claims.cpu_claims), with its cost
    p = cf.points
    per_io = np.asarray(f.facts["cpu_s_per_io"], float)
    share = np.asarray(f.facts["share"], float)
    if per_io.size != len(p) or not np.isfinite(per_io).any():
        return ""
    flags = _run_flags(runs_rows(result, p))
    if flags["engine"] == "cpuio":
        return ""
    sat = cf.saturation
    i = sat.facts.get("onset_index") if sat is not None else None
    where = "at the saturation onset" if i is not None else "at the maximum"
    if i is None or not np.isfinite(per_io[i]):
        y = p["y"].to_numpy(float)
        i = int(np.nanargmax(np.where(np.isfinite(per_io), y, np.nan)))
        where = "at the maximum"
    topo = result.setup(key)[0]
    host = getattr(topo, "host", None)
    hz = float(getattr(host, "clock_hz", np.nan)) if host is not None else np.nan
    why = str(getattr(host, "provenance", {}).get("clock_hz", "")) if host is not None else ""
    whose = "the clock assumed for this host" if why.startswith(("assumption", "estimate")) else "the host's clock"
    x = result.x
    xs = p["x"].to_numpy(float)

    def cyc(c):
        return f"; {c * hz:,.0f} cycles at {whose}, {hz / 1e9:.3g} GHz" if np.isfinite(hz) and hz > 0 else ""

    if x == "block_size_bytes":
        ok = np.flatnonzero(np.isfinite(per_io))
        each = ", ".join(f"{_xv(result, xs[k])} {fmt_y(per_io[k], 's')}" for k in ok)
        lo, hi = per_io[ok[0]], per_io[ok[-1]]
        r = hi / lo if lo > 0 else np.nan
        trend = ("about the same at every size (within ±15 %): the cost is per I/O, not per byte" if
                 np.all(np.abs(per_io[ok] / np.median(per_io[ok]) - 1) <= 0.15) else
                 f"×{r:.3g} from {_xv(result, xs[ok[0]])} to {_xv(result, xs[ok[-1]])}: a larger I/O costs more CPU "
                 f"(per-byte work such as copies or checksums on top of the per-I/O cost)" if r > 1 else
                 f"×{r:.3g} from {_xv(result, xs[ok[0]])} to {_xv(result, xs[ok[-1]])}")
        text = (f" fio's CPU per I/O (usr+sys CPU-seconds ÷ I/Os, per job) at each size: {each} — {trend}; "
                f"compared per I/O, never per byte across sizes")
    else:
        text = (f" fio's CPU per I/O {where} ({x} = {_xv(result, xs[i])}): {fmt_y(per_io[i], 's')} (usr+sys "
                f"CPU-seconds ÷ I/Os, per job{cyc(per_io[i])})")
    notes = []
    sustain = not (flags["paced"] or flags["polling"] or flags["engine"] == "null")
    if sustain and per_io[i] > 0:
        text += (f"; at the {_xv(result, xs[i])} cost ({fmt_y(per_io[i], 's')}{cyc(per_io[i])}) one CPU sustains "
                 f"{fmt_y(1.0 / per_io[i], '1/s')}"
                 if x == "block_size_bytes" else f", at which cost one CPU sustains {fmt_y(1.0 / per_io[i], '1/s')}")
    if flags["paced"]:
        notes.append(f"the runs were paced ({', '.join(flags['paced'])}): a cost at a set rate, not at saturation, "
                     "so no rate one CPU sustains is read from it")
    if flags["polling"]:
        notes.append("the engine polls (busy whatever the rate): a cost per I/O at saturation only where a job is "
                     "CPU-bound")
    if flags["not_stack"]:
        notes.append(flags["not_stack"])
    if flags["buffered"]:
        notes.append("buffered (direct=0): the page cache's work per I/O is in it")
    step = flags["step"]
    if step and np.isfinite(share[i]) and share[i] > 0:
        notes.append(f"fio counted CPU here in whole seconds (every usr and sys figure a multiple of 1/runtime, "
                     f"{_pct(step)} of a CPU): this figure is known to about ±{min(step / share[i], 1):.0%}")
    return text + ("; " + "; ".join(notes) if notes else "") + "."
