"""fio's CPU accounting per run and per point, and the CPU fact of a curve: CPU-seconds per I/O, the rate one CPU
sustains at that cost, the CPUs a job was pinned to or was seen on.
"""

from __future__ import annotations

import numpy as np

from .fact_base import CPU_BOUND, Fact, pd_num


def run_cpus(r):
    """Each source file's (run's) CPUs of fio's usr+sys, counted as the points count them (``curves._cpus``: each job
    once, a group-reported row times its ``numjobs``), indexed by source path. Summing a run's rows instead counted a
    group-reported row once for all its jobs and a mixed job once per direction, so the median of the runs never
    matched the point and the mean stood in (set after round 11 was read: r11_here-pin_loop_libaio_1cpu_…, 0.371
    printed for a median of 0.353, KG)."""
    from .curves import _cpus

    g = r.assign(_cpu=r["cpu_usr"].astype(float) + r["cpu_sys"].astype(float),
                 _nj=pd_num(r["numjobs"]) if "numjobs" in r else np.nan)
    return g.groupby(g["source_path"].astype(str)).apply(_cpus, include_groups=False)


def point_run_cpus(rows, srcs) -> tuple[np.ndarray, np.ndarray, int]:
    """(summed CPUs, IOPS, rows found) of each run (source file) among ``srcs`` in ``rows``, the runs in one order:
    the pairs a point's CPU per I/O (:func:`_run_costs`) and a fixed CPU total (``cpu_total``) are read from."""
    r = rows[rows["source_path"].astype(str).isin(srcs)]
    if r.empty:
        return np.array([]), np.array([]), 0
    io_s = r.groupby(r["source_path"].astype(str))["iops"].sum()
    return run_cpus(r).reindex(io_s.index).to_numpy(float), io_s.to_numpy(float), len(r)


def point_cpu_runs(result, p, i: int) -> dict | None:
    """Point ``i``'s kept runs (≥ 2 source files, the stalled ones of :func:`stalled_runs` left out) as fio gives them:
    ``share`` — each run's usr+sys per job, in CPUs — and ``iops``, sorted by share; None where the runs cannot be told
    apart or do not average to the point's CPU within 1 %. A point's CPU verdict rests on its runs, not on one median
    figure against a cliff (set after round 18 was read: r18_here-rwmixdio, runs at 0.85–0.91 of one CPU told "below
    90 %" by their median's 0.879, ZC)."""
    tbl = result.table
    if tbl is None or not {"source_path", "cpu_usr", "cpu_sys", "iops"} <= set(tbl.columns) or "cpus" not in p:
        return None
    from ..ingest.summary import usable_rows

    srcs = [s for s in str(p["sources"].iloc[i]).split(";") if s]
    jobs = float(p["jobs"].iloc[i]) if "jobs" in p else np.nan
    if len(srcs) < 2 or not (np.isfinite(jobs) and jobs > 0):
        return None
    c, io, found = point_run_cpus(usable_rows(tbl), srcs)
    want = float(p["cpus"].iloc[i])
    if not found or len(io) != len(srcs) or not np.isfinite(c).all() or abs(c.mean() - want) > 0.01 * max(want, 1e-9):
        return None
    stalled = np.asarray(p["stalled"].iloc[i] if "stalled" in p else [], float)
    size = float(p["bytes_per_io"].iloc[i]) if result.y_unit == "B/s" and "bytes_per_io" in p else 1.0
    kept = ~np.array([bool(stalled.size) and bool(np.any(np.isclose(v * size, stalled, rtol=1e-3))) for v in io])
    if kept.sum() < 2:
        return None
    order = np.argsort(c[kept])
    return {"share": (c[kept] / jobs)[order], "iops": io[kept][order]}


def _run_costs(result, p) -> np.ndarray:
    """Each point's CPU per I/O as the median of its runs' (usr+sys ÷ IOPS of each source file, its jobs summed), NaN
    where the runs cannot be told apart or do not average to the point's CPU within 1 % — one disturbed run (r9
    here-think: 493 µs beside 19 and 23 µs) must not set the cost of the point (round 9, GC)."""
    out = np.full(len(p), np.nan)
    tbl = result.table
    if tbl is None or not {"source_path", "cpu_usr", "cpu_sys", "iops"} <= set(tbl.columns) or "cpus" not in p:
        return out
    from ..ingest.summary import usable_rows

    rows = usable_rows(tbl)
    for i in range(len(p)):
        srcs = [s for s in str(p["sources"].iloc[i]).split(";") if s]
        if len(srcs) < 3:
            continue
        c, io, found = point_run_cpus(rows, srcs)
        if found and len(io) == len(srcs) and (io > 0).all() and np.isfinite(c).all() \
                and abs(c.mean() - p["cpus"].iloc[i]) <= 0.01 * max(p["cpus"].iloc[i], 1e-9):
            out[i] = float(np.median(c / io))
    return out


#: CPU per I/O that grew at least this much from the fastest point to a point at half its rate or less is said
COST_RISE = 2.0


def cost_rise(result, p, per_io) -> str:
    """"; from numjobs = 1 to 8 fio's CPU per I/O grew ×25 (24 µs → 613 µs) while the rate fell ×17 …": the jobs spent
    more CPU for fewer I/Os along the axis ("" where not, by :data:`COST_RISE`; set after round 9 was read: r9
    here-uring sqpoll numjobs, 24 → 613 µs as the rate fell ×17, FD)."""
    from .claim import _xv
    from .wording import fmt_y

    iops, c = p["iops"].to_numpy(float), np.asarray(per_io, float)
    if result.x == "block_size_bytes" or iops.size < 3 or not (np.isfinite(iops).all() and np.isfinite(c).all() and (c > 0).all()):
        return ""
    i = int(np.argmax(iops))
    later = [j for j in range(i + 1, iops.size) if iops[j] <= iops[i] / 2 and c[j] >= COST_RISE * c[i]]
    if not later:
        return ""
    j = max(later, key=lambda k: c[k])
    xs = p["x"].to_numpy(float)
    from .write_cache import mix_ends

    if (ends := mix_ends(result)) is not None:  # two layers at the ends: their costs differ (round 23 ZB)
        return (f"; from {result.x} = {_xv(result, xs[i])} to {_xv(result, xs[j])} fio's CPU per I/O grew "
                f"×{c[j] / c[i]:.3g} ({fmt_y(c[i], 's')} → {fmt_y(c[j], 's')}, usr+sys ÷ I/Os) while the rate fell "
                f"×{iops[i] / iops[j]:.3g}: the two ends are different layers — a write copied into the page cache "
                f"against a read that went to {ends['devs']} (a read that misses costs the job the kernel's block-layer "
                f"submission and completion) — so the CPU per I/O is the layers' cost, not another thread's")
    return (f"; from {result.x} = {_xv(result, xs[i])} to {_xv(result, xs[j])} fio's CPU per I/O grew ×{c[j] / c[i]:.3g}"
            f" ({fmt_y(c[i], 's')} → {fmt_y(c[j], 's')}, usr+sys ÷ I/Os) while the rate fell ×{iops[i] / iops[j]:.3g}:"
            f" the jobs spent more CPU for fewer I/Os, which a slower device alone does not do (the host's core count "
            f"and the threads fio does not count would tell what took the CPU)")


def _cpu_fact(result, p, sat: Fact | None, cap: Fact | None, engine: str = "", cores: int | None = None,
              seen: tuple | None = None, polls: str | list = "", pin: str = "", unseen: bool = False) -> Fact | None:
    cpus, jobs, iops = p["cpus"].to_numpy(float), p["jobs"].to_numpy(float), p["iops"].to_numpy(float)
    if result.y_unit == "s" or not np.isfinite(cpus).any():
        return None
    with np.errstate(all="ignore"):
        share = np.where(jobs > 0, cpus / jobs, np.nan)
        per_io = np.where(iops > 0, cpus / iops, np.nan)  # CPU-seconds per I/O: CPUs busy ÷ I/O per second
    med = _run_costs(result, p)  # a point's cost is the median of its runs' (set after round 9 was read: GC)
    per_io = np.where(np.isfinite(med), med, per_io)
    share = np.where(share > 1.05, np.nan, share)  # one job is one thread: more is an accounting mismatch
    busy = share >= CPU_BOUND
    # a job at ≥ 90 % that made no more I/O per job than a job below 90 % waited by spinning: not bound by it
    spin = np.zeros(busy.size, bool)
    per_job = iops / jobs
    for i in np.flatnonzero(busy):
        calm = np.flatnonzero((share < CPU_BOUND) & np.isfinite(per_job))
        if calm.size and np.nanmax(per_job[calm]) >= 0.95 * per_job[i]:
            spin[i] = True
    from ..hostcal.costs import CANNOT_POLL, cost_growth, not_one_cost

    size = p["bytes_per_io"].to_numpy(float) if "bytes_per_io" in p else np.ones(len(p))
    size = size if np.isfinite(size).all() else np.ones(len(p))
    # round 7 (CB): busy jobs whose CPU per I/O grew with the load bought no I/O with it (they spin or poll), nor do
    # jobs the runs say poll (hipri, sqthread_poll, SPDK): their busy share is no CPU limit anywhere on the curve
    # (an engine that cannot poll — psync, libaio … — spends added CPU on its scheduling, not spinning: not read here)
    can_poll = engine not in CANNOT_POLL
    grew = cost_growth(per_io, iops, size, [int(i) for i in np.flatnonzero(busy)]) if can_poll else None
    # round 8 (EA): each point's own runs say whether it polled; the series "polls" only where every point does
    polled = np.array([bool(w) for w in polls]) if isinstance(polls, list) else np.full(len(p), bool(polls))
    polls = next((w for w in polls if w), "") if isinstance(polls, list) else polls
    # where every point's runs poll, the option is the reading: no growth of a cost per I/O beside it (set after round
    # 18 was read: r18_msf2fsbench, "CPU per I/O grew ×7.16 …" printed before "the jobs polled (hipri)", QB)
    spins = {"why": polls, "pair": None if polled.all() and polls else grew, "unseen": unseen} \
        if (polled.all() or grew) and engine not in ("null", "cpuio") else None
    odd = not_one_cost(per_io, size, np.flatnonzero(busy & ~polled)) if can_poll and not spins else None
    if odd is not None and engine not in ("null", "cpuio"):  # round 8: the proof of a CPU limit is one cost
        from .claim import _xv
        from .wording import fmt_y

        (i, j), x = sorted(odd), result.x
        who = "the job was" if np.nanmax(jobs) <= 1 else "each job was"
        spins = {"why": f"from {x} = {_xv(result, p['x'].iloc[i])} to {_xv(result, p['x'].iloc[j])} {who} "
                        f"≥ {CPU_BOUND:.0%} busy while its CPU per I/O changed ×{per_io[j] / per_io[i]:.3g} "
                        f"({fmt_y(per_io[i], 's')} → {fmt_y(per_io[j], 's')}, usr+sys ÷ I/Os): not one cost"
                        + (f"; at {x} = {', '.join(_xv(result, v) for v in p['x'][polled])} {polls}" if polls else ""),
                 "pair": None}
    spin |= busy & (polled | bool(spins))
    bound_at = None
    how = ""
    at = None
    spare = None
    if sat is not None and sat.facts.get("onset_index") is not None:
        at = sat.facts["onset_index"]
    elif cap is not None and cap.facts.get("iops_cap"):
        at = 0
    if at is None and sat is not None and sat.facts["state"] == "rising":
        at = len(p) - 1  # still rising: is the last point held by its submitting job's CPU?
    if at is None and engine in ("null", "cpuio"):
        at = int(np.nanargmax(p["y"].to_numpy(float)))
    jobs_axis = result.x in ("numjobs", "jobs", "threads")
    if at is not None and busy[at] and not spin[at] and (not jobs_axis or bool(np.all(busy[at:]))):
        # along numjobs a busy job at the onset decides only if the jobs stay busy: jobs with spare CPU that add
        # nothing leave it to the host's core count (below) or to a device limit
        bound_at, how = at, "job"
    level = None
    host = _host_level(p, cpus, per_io, share, jobs, cores, seen) \
        if at is not None and jobs_axis and not spins and not polled.any() and engine not in ("null", "cpuio") else None
    # round 23 (ZD): every job busy at the first multi-job point and the summed CPU level after it, the rate level at
    # one cost: the CPUs the runnable jobs could get held it (busy_jobs.py); a topology's count decides it below
    from .busy_jobs import busy_level

    busy_jobs = busy_level(p["x"].to_numpy(float), cpus, per_io, share, jobs, iops) \
        if jobs_axis and not spins and not polled.any() and engine not in ("null", "cpuio") and not cores \
        and (seen is None or cpus[-1] >= 0.9 * seen[0]) else None
    if at is not None and engine in ("null", "cpuio"):
        bound_at, how = at, "engine"  # no device: the rate of an engine that does no I/O is its CPU's
    elif host is not None:
        bound_at, how = host["k"], "host"
    elif busy_jobs is not None:
        bound_at, how = busy_jobs["k"], "busy_jobs"
    elif at is not None and jobs.size and jobs[-1] >= 2 * jobs[at] and np.isfinite(cpus[at:]).all() and jobs_axis:
        # more jobs, the same total CPU. A flat rate at a fixed CPU cost per I/O also keeps the total level, so it
        # is the CPUs' limit only when they are all busy: decided with the host's core count, else left open
        tail = cpus[at:]
        # ... and a level that could be a whole host's: within 10 % of a whole number of CPUs (1.46 CPUs is no
        # machine's count: the jobs had spare CPU)
        whole = round(float(tail.mean()))
        flat = tail.size >= 2 and whole >= 1 and abs(tail.mean() - whole) <= 0.1 * whole \
            and bool(np.all(np.abs(tail / tail.mean() - 1) <= 0.15))
        # ... reached at one cost: CPU per I/O that grew into the level bought no I/O (round 7, CB: nvmetcp-poll)
        grew = cost_growth(per_io, iops, size, list(range(max(at - 1, 0), len(p)))) if flat and can_poll else None
        spins = spins or ({"why": polls, "pair": grew} if grew and engine not in ("null", "cpuio") else None)
        if flat and not spins:
            level = float(tail.mean())
            if cores and level >= 0.9 * cores:
                bound_at, how = at, "machine"
                if pin:  # the CPU set the jobs were pinned to: the proof is the files' own (round 11, KD)
                    pin = {"spec": pin, "lo": float(tail.min()), "hi": float(tail.max()),
                           "cost_lo": float(np.nanmin(per_io[at:])), "cost_hi": float(np.nanmax(per_io[at:])),
                           "cost": float(np.nanmedian(per_io[at:])), "iops_lo": float(np.nanmin(iops[at:])),
                           "iops_hi": float(np.nanmax(iops[at:]))}
            elif not cores and seen is not None and level < 0.9 * seen[0]:
                # the same host's jobs used more CPUs at another point of this result: this level is not all of them
                spare = {"level_cpus": level, "seen_cpus": seen[0], "seen_at": seen[1], "from_x": float(p["x"].iloc[at])}
                level = None
    bound = True if bound_at is not None else (None if level is not None else False)
    one = [] if bound_at is None or how != "job" else \
        [k for k in range(bound_at, len(p)) if busy[k] and not spin[k] and abs(size[k] / size[bound_at] - 1) <= 0.01]
    facts = {"share": share.tolist(), "cpu_s_per_io": per_io.tolist(), "spinning": spin.tolist(),
             "cpu_bound": bound, "how": how, "level_cpus": level, "cores": cores, "engine": engine,
             "level_from_x": float(p["x"].iloc[at]) if level is not None else None,
             "at_x": float(p["x"].iloc[bound_at]) if bound_at is not None else None,
             "at_cpu_s_per_io": float(per_io[bound_at]) if bound_at is not None else None,
             "iops_per_cpu": float(1.0 / per_io[bound_at]) if bound_at is not None and per_io[bound_at] > 0 else None,
             "job_cpu_share": float(share[bound_at]) if bound_at is not None else None,
             "cpus": float(cpus[bound_at]) if bound_at is not None else None, "spare": spare, "spins": spins,
             "polled": {"x": p["x"].to_numpy(float)[polled].tolist(), "why": polls} if polled.any() and not spins
             else None,  # the busy points' CPU per I/O from the onset: the proof of a CPU limit (round 8)
             "one_cost": (float(np.min(per_io[one])), float(np.max(per_io[one])), float(p["x"].iloc[one[-1]]))
             if len(one) >= 2 else None, "host": host, "busy_jobs": busy_jobs if how == "busy_jobs" else None, "pin": pin if isinstance(pin, dict) else None}
    if not np.isfinite(per_io).any():
        return None
    return Fact("cpu", facts, "fio's usr+sys CPU per I/O")


#: the jobs' summed CPU within this of its median at every point of a stretch: it stopped growing (set after round 10
#: was read: r10_icpe24sched_8x980pro numjobs, 9.975–9.991 CPUs at 10–15 jobs, part 2 JA)
HOST_FLAT = 0.01
#: the summed CPU ÷ the cost per I/O within this of the measured rate at every point of that stretch
HOST_RATE_TOL = 0.05


def _host_level(p, cpus, per_io, share, jobs, cores, seen) -> dict | None:
    """Round 10's JA: jobs added while their summed CPU stops growing — flat within :data:`HOST_FLAT` over the last
    ≥ 3 points, after a point that used less — at one cost per I/O along the whole curve (every point within
    ``cpu_claims.COST_TOL``-like ±15 % of the median), each job below :data:`CPU_BOUND` at the last (more jobs than
    the CPUs they got), and that CPU ÷ that
    cost giving each point's rate within :data:`HOST_RATE_TOL`: the CPUs the host gave the jobs held the rate, which
    needs no core count (the level is the measured CPUs, a whole number of them within :data:`HOST_FLAT`: a rate held
    elsewhere at one cost keeps the summed CPU level too, at no whole count). None otherwise, or where a topology's cores or another
    curve of the result show more CPUs than the level (the host had CPUs to spare). Little's law says nothing here:
    it holds for any closed loop fio keeps full."""
    iops = p["iops"].to_numpy(float)
    n = len(p)
    ok = np.isfinite(cpus) & np.isfinite(per_io) & (per_io > 0) & np.isfinite(iops) & (iops > 0) & np.isfinite(jobs)
    if n < 4 or not ok.all():
        return None
    k = n - 1
    while k > 0 and np.all(np.abs(cpus[k - 1:] / np.median(cpus[k - 1:]) - 1) <= HOST_FLAT):
        k -= 1
    level = float(np.median(cpus[k:]))
    if n - k < 3 or k == 0 or cpus[k - 1] >= (1 - HOST_FLAT) * level or not np.all(np.diff(jobs[k - 1:]) > 0):
        return None
    if not share[-1] < CPU_BOUND or np.any(np.abs(per_io / np.median(per_io) - 1) > 0.15):
        return None
    cost = float(np.median(per_io[k:]))
    if np.any(np.abs(cpus[k:] / cost / iops[k:] - 1) > HOST_RATE_TOL):
        return None
    if (cores and level < 0.9 * cores) or (seen is not None and level < 0.9 * seen[0]):
        return None
    # a rate held elsewhere at one cost keeps the summed CPU level too, at whatever CPUs that rate costs: a host's
    # ceiling is a whole number of CPUs (9.99: 10; a device's 2.37 CPUs is none)
    whole = round(level)
    if whole < 1 or abs(level / whole - 1) > HOST_FLAT:
        return None
    return {"k": k, "whole": int(whole), "lo": float(cpus[k:].min()), "hi": float(cpus[k:].max()), "level": level, "cost": cost,
            "cost_lo": float(per_io.min()), "cost_hi": float(per_io.max()), "x_from": float(p["x"].iloc[k]),
            "x_to": float(p["x"].iloc[-1]), "rate": level / cost, "iops_lo": float(iops[k:].min()),
            "iops_hi": float(iops[k:].max()), "share_last": float(share[-1])}


def pinned_cpus(rows) -> tuple[int, str] | None:
    """(how many CPUs, fio's spec) where every run states one ``cpus_allowed`` (not one the reader filled in): the
    CPUs fio's jobs could run on. None otherwise."""
    if rows is None or not len(rows) or "cpus_allowed" not in rows:
        return None
    from ..ingest.fio_options import allowed_cpu_count
    from .claim import stated

    specs = stated(rows, "cpus_allowed")
    if not specs.notna().all() or specs.astype(str).str.strip().nunique() != 1:
        return None
    n = allowed_cpu_count(str(specs.iloc[0]).strip())
    return (n, str(specs.iloc[0]).strip()) if n is not None else None


def _cpu_of(result, key, p, sat, cap):
    from .claim import _machine_cpu, _pts, runs_rows

    if "cpus" not in p or _machine_cpu(_pts(result, key)):
        return None
    engine, cores = "", None
    rows = runs_rows(result, p)
    if rows is not None and "ioengine" in rows:
        names = set(rows["ioengine"].dropna().astype(str))
        engine = names.pop() if len(names) == 1 else ""
    topo = result.setup(key)[0]
    host = getattr(topo, "host", None)
    if host is not None:
        why = str(getattr(host, "provenance", {}).get("cores_per_socket", ""))
        if not why.startswith(("assumption", "estimate")):  # an assumed count decides nothing about this machine
            cores = int(host.sockets * host.cores_per_socket)
    # fio's cpus_allowed, stated alike in every run, is the set of CPUs the jobs could run on: its count bounds
    # their summed CPU whatever the host has (set after round 11 was read: r11_here-pin_tmpfs_psync_1cpu_…, KD)
    pin = ""
    allowed, spec = pinned_cpus(rows) or (None, "")
    if allowed is not None and (cores is None or allowed < cores):
        cores, pin = allowed, spec
    from ..hostcal.costs import polls_at

    xs = p["x"].to_numpy(float)
    from ..hostcal.costs import SQPOLL, unseen_work

    # every run's I/O submitted by a kernel thread fio does not count, its job spinning on the ring: no CPU per I/O,
    # kernel share or CPU verdict anywhere on the curve (set after round 18 was read: r18_msf2fsbench zn540 4klbaf
    # and 512lbaf qd1 zones-numjobs, a CPU per I/O ×7.16 and "0.0067 % of it in the kernel", QB)
    unseen = unseen_work(rows) == SQPOLL
    polls = [SQPOLL] * len(xs) if unseen else polls_at(rows, result.x, xs)
    return _cpu_fact(result, p, sat, cap, engine, cores, _most_cpus_seen(result), polls, pin, unseen)


def _most_cpus_seen(result) -> tuple | None:
    """(CPUs, where) — the most CPUs fio's jobs used at any point of this result, a floor on the host's count when
    every curve ran on one host (no two hostnames recorded, no curve per host); else None."""
    pts, tbl = result.points, result.table
    if "cpus" not in pts or not pts["cpus"].notna().any() or any("host" in str(b).lower() for b in result.by):
        return None
    if tbl is not None and "hostname" in tbl and tbl["hostname"].dropna().astype(str).nunique() > 1:
        return None
    i = pts["cpus"].astype(float).idxmax()
    where = ", ".join(f"{b} = {pts.loc[i, b]}" for b in result.by) + (", " if result.by else "") \
        + f"{result.x} = {pts.loc[i, result.x]:g}"
    return float(pts.loc[i, "cpus"]), where
