"""Where a job below one CPU spent the rest of its time, as far as fio's own figures show it.

fio's usr+sys per job is the share of the job's time its thread ran on a CPU; its context switches (getrusage: the
voluntary and involuntary switches of its threads, :mod:`nvmemodel.ingest.context_switches`) count how often it left
its CPU. Off its CPU a thread either sleeps (waits for an event: its I/O, a lock) or is runnable, waiting for a CPU the
scheduler gave to other work. So:

- **about one switch per I/O or more** (:data:`SLEPT_PER_IO`), at more than :data:`~nvmemodel.fitting.in_thread.CTX_PER_S` a second (not
  the scheduler's ticks), in every run: the job slept about once per I/O — the rest of its time was a wait for its I/O,
  or, once woken, for a CPU (fio counts both as switches and cannot tell them apart);
- **almost none** (at most :data:`~nvmemodel.fitting.in_thread.CTX_PER_IO` an I/O in every run) under a synchronous
  engine, whose every wait for an I/O is a sleep: the job never slept per I/O, so off its CPU it was runnable, waiting
  for a CPU (no device waited) — except for buffered writes onto a device, which the kernel may hold in a few long
  sleeps (dirty-page throttling), and synced writes;
- about one an I/O, but in some run no more a second than the scheduler's ticks give (≤ ``CTX_PER_S``): no reading;
- almost none where that proves no such thing (an asynchronous engine, which may sleep once for many I/Os; buffered
  writes onto a device; flushes), or anything between: the counts are said, no reading.

And where a synchronous job's (not mmap's: its I/O is a memory copy, no call) CPU per I/O at the lightest load (the smallest size along block size) is a large share of
the I/O's own mean latency — fio's latency of a synchronous call covers the call's kernel work — much of each I/O was
CPU work inside its call: the CPU inside the call is at least the CPU per I/O less the time per I/O spent outside the
call (1 ÷ the job's rate − its mean latency).

Set after round 26 was read (FB: r26_here-openfiles1, -squashfs and -refill told "what held the rate its CPU figures
do not show" where the figures show a job that never slept, 300–440 µs of system CPU per 4 KiB read with one switch
per read, and a job on a CPU 38–59 % of its time between its writes).
"""

from __future__ import annotations

import numpy as np

from ..ingest.context_switches import run_switches
from .claim import _pcts, _xv, runs_rows
from .wording import counted
from .fact_base import pd_num
from .in_thread import CTX_PER_IO, CTX_PER_S, _engine
from .reap_sleep import reap_sleep
from .wording import fmt_y, span

__all__ = ["SLEPT_PER_IO", "IN_CALL", "off_cpu", "off_cpu_words"]

#: context switches per I/O at or above which a job slept about once per I/O: a wait for each I/O is at least one
#: switch, and a fifth less leaves room for I/Os that completed before the job slept (set after round 26 was read:
#: r26_here-squashfs 0.92–1.03 a read, r26_here-refill 1.00–1.04 a write; a loop device's batching gives 0.15–0.31,
#: r23_here-cpusplit, no reading)
SLEPT_PER_IO = 0.8
#: the share of an I/O's own mean latency that the job's CPU inside the call must reach (in the median run of the
#: lightest point) to say that much of each I/O was CPU work inside its call; "mostly" where every run is above a half
#: (set after round 26 was read: r26_here-squashfs, 300 µs of CPU in a 382–736 µs read at 1 job)
IN_CALL = 1 / 3


def _sync(rows) -> str:
    """The curve's one engine where it is synchronous, else "" (:func:`in_thread._engine` gives the one engine)."""
    from ..jobs.fiooptions import SYNC_ENGINES

    e = _engine(rows)
    return e if e in SYNC_ENGINES else ""


#: engines that reap many I/Os a wake-up (their switches per I/O count no wait per I/O)
ASYNC_ENGINES = ("libaio", "io_uring", "io_uring_cmd", "posixaio", "windowsaio", "solarisaio")


def _async(rows) -> bool:
    return _engine(rows) in ASYNC_ENGINES


def _writes_onto_device(rows, flags) -> bool:
    """Buffered writes with a device fio names beneath: the kernel may throttle the writer in long sleeps."""
    from .devices import listed_devices

    if not flags.get("buffered") or "direction" not in rows:
        return False
    return bool((rows["direction"].astype(str) != "read").any()) and bool(listed_devices(rows))


def _point_runs(rows, sources: str, jobs: float):
    """(each run's usr+sys per job, CPU per I/O, mean latency, rate per job) of a point's runs, or None."""
    from .cpu_facts import point_run_cpus

    srcs = [s for s in str(sources).split(";") if s]
    c, io, _ = point_run_cpus(rows, srcs)
    if not c.size or not (np.isfinite(c).all() and np.isfinite(io).all() and (io > 0).all() and (c > 0).all()):
        return None
    r = rows[rows["source_path"].astype(str).isin(srcs)]
    lat = r.groupby(r["source_path"].astype(str))["lat_mean_s"].apply(lambda s: pd_num(s).mean()) \
        if "lat_mean_s" in r else None
    order = sorted(set(r["source_path"].astype(str)))  # point_run_cpus' order (groupby, sorted)
    lat_a = lat.reindex(order).to_numpy(float) if lat is not None else np.full(c.size, np.nan)
    return c / jobs, c / io, lat_a, io / jobs


def off_cpu(result, cf, flags, k: int, *, synced: bool = False) -> dict | None:
    """The figures of the module docstring for a curve said at point ``k`` (the maximum), or None where the files
    give no context switches or no CPU per run. ``synced``: the writes were flushed (fsync/fdatasync, or the jobs held
    in their sync calls): no "never slept" reading."""
    p = cf.points
    rows = runs_rows(result, p)
    if rows is None or not len(rows) or not {"ctx", "ios", "cpu_usr", "cpu_sys", "iops", "source_path"} <= set(
            rows.columns) or "sources" not in p or "jobs" not in p:
        return None
    jobs = p["jobs"].to_numpy(float)
    if not (np.isfinite(jobs[k]) and jobs[k] > 0):
        return None
    srcs = [[x for x in str(v).split(";") if x] for v in p["sources"]]
    flat = [x for v in srcs for x in v]
    if len(flat) != len(set(flat)):
        return None  # a file holds runs of several points (one result file, many jobs): no count per run
    at = _point_runs(rows, p["sources"].iloc[k], jobs[k])
    if at is None or not np.all(at[0] <= 1.05):
        return None  # (a job is one thread: more than one CPU is an accounting mismatch, not a share)
    sw = run_switches(rows)
    per_io = sw["per_io"].to_numpy(float)
    per_s = sw["per_job_s"].to_numpy(float)
    if not (per_io.size and np.isfinite(per_io).all()):
        return None
    engine = _sync(rows)
    few = ""  # why almost no switches prove no sleep per I/O here
    if np.all(per_io >= SLEPT_PER_IO) and np.isfinite(per_s).all() and np.all(per_s > CTX_PER_S):
        kind = "slept"
    elif np.all(per_io >= SLEPT_PER_IO):
        kind = "ticks"  # about one an I/O, but some run no more a second than the scheduler's ticks give
    elif (reap := reap_sleep(rows, sw) if _async(rows) else None) is not None:
        kind = "reaped"  # one sleep per reap of the queue (round 28, MH)
    elif np.all(per_io <= CTX_PER_IO):
        few = ("an asynchronous engine may sleep once for many I/Os" if not engine else
               "its flushes may sleep long" if synced else
               "the kernel may hold buffered writes onto a device in a few long sleeps (dirty-page throttling)"
               if _writes_onto_device(rows, flags) else "")
        kind = "few" if few else "awake"
    else:
        kind = "unread"
    out = {"kind": kind, "share": (float(at[0].min()), float(at[0].max())), "n": int(at[0].size),
           "ctx": (float(per_io.min()), float(per_io.max())),
           "per_s": (float(np.nanmin(per_s)), float(np.nanmax(per_s))) if np.isfinite(per_s).any() else (np.nan, np.nan),
           "multi": bool((sw["jobs"] > 1).any()), "in_call": None, "few": few,
           "async": _async(rows), "reap": reap if kind == "reaped" else None,
           "cost": (float(at[1].min()), float(at[1].max())), "rate": (float(at[3].min()), float(at[3].max()))}
    # a synchronous job's time neither in its calls nor on its CPU (round 28, MC: sync_budget.py)
    from .sync_budget import sync_budget

    srcs_k = [x for x in str(p["sources"].iloc[k]).split(";") if x]
    # (not for buffered writes onto a device: the kernel may hold them in long sleeps, round 26 FB's counter)
    out["budget"] = sync_budget(rows[rows["source_path"].astype(str).isin(srcs_k)]) \
        if engine and not _writes_onto_device(rows, flags) else None
    # the lightest load (the smallest size along block size): how much of each synchronous I/O was CPU in its call
    if engine and engine != "mmap" and result.x in ("iodepth", "numjobs", "jobs", "threads", "outstanding", "block_size_bytes"):
        first = _point_runs(rows, p["sources"].iloc[0], jobs[0]) if np.isfinite(jobs[0]) and jobs[0] > 0 else None
        if first is not None and np.isfinite(first[2]).all() and (first[2] > 0).all():
            share, cost, lat, rate = first
            inside = np.clip(cost - np.clip(1 / rate - lat, 0, None), 0, None) / lat  # a lower bound, per run
            if float(np.median(inside)) >= IN_CALL:
                out["in_call"] = {"x": float(p["x"].iloc[0]), "engine": engine, "lo": float(inside.min()),
                                  "hi": float(inside.max()), "cost": (float(cost.min()), float(cost.max())),
                                  "lat": (float(lat.min()), float(lat.max())), "mostly": bool(inside.min() > 0.5)}
    return out


def off_cpu_words(result, cf, h: dict, *, jobs: float, k: int) -> str:
    """The clause of :func:`off_cpu`: the job's share of its time on a CPU, what its switches say of the rest, and
    the CPU inside its call at the lightest load."""
    who = "the job" if jobs <= 1 else "each job"
    lo, hi = h["share"]
    runs = f"its {h['n']} runs' usr+sys per job" if h["n"] > 1 else "usr+sys per job"
    text = f"{who} was on a CPU {_pcts(lo, hi)} of its time there ({runs})"
    c_lo, c_hi = h["ctx"]
    ctx = span(*(f"{v:.2f}" if v >= 0.1 else f"{v:.2g}" for v in (c_lo, c_hi)))
    a_job = " a job" if h["multi"] else ""
    s_lo, s_hi = h["per_s"]
    if h["kind"] == "slept":
        text += (f" and slept for its I/Os ({ctx} context switches an I/O in every run, "
                 f"{span(f'{s_lo:,.0f}', f'{s_hi:,.0f}')} a second{a_job}): the rest of its time was a wait for its "
                 f"I/O, or, once woken, for a CPU (fio counts both and cannot tell them apart)")
    elif h["kind"] == "awake":
        text += (f" and never slept per I/O (at most {c_hi:.2g} context switches an I/O in every run, under a "
                 f"synchronous engine whose every wait for an I/O is a sleep): the rest of its time it was runnable, "
                 f"waiting for a CPU")
    elif h.get("budget") is not None and h["kind"] in ("few", "ticks", "unread"):
        from .sync_budget import sync_budget_words

        text += (f"; its context switches, {ctx} an I/O over the runs, do not say what it waited for; its time does: "
                 + sync_budget_words(h["budget"], jobs))
    elif h["kind"] == "few":
        text += (f"; it switched at most {c_hi:.2g} times an I/O in every run, but {h['few']}: what held the rate its "
                 f"CPU figures do not show (fio counts the job's thread only)")
    elif h["kind"] == "ticks":
        low = "" if not np.isfinite(s_lo) else f", but {s_lo:,.0f} a second{a_job} in its slowest run"
        text += (f"; it switched {ctx} times an I/O in every run{low} — no more than the scheduler's ticks may give "
                 f"a job, so no sleep per I/O is shown: what held the rate its CPU figures do not show (fio counts "
                 f"the job's thread only)")
    elif h["kind"] == "reaped":
        rp = h["reap"]
        c_lo, c_hi = h["cost"]
        n_over, top = rp["over"]
        runs = "every run" if not n_over else f"{rp['in_band']} of its {rp['n']} runs"
        other = "" if not n_over else (
            f"; {counted(n_over, 'run')} switched up to ×{top:.2g} that: it also slept or was preempted outside its "
            f"reaps (in submission, or waiting for a CPU)")
        band = span(*(f"{v:.2f}" for v in rp["band"]))
        text += (f"; its context switches ({ctx} an I/O over the runs) were one per iodepth I/Os in {runs} "
                 f"(switches an I/O × iodepth {band}): {'it' if jobs <= 1 else 'each job'} slept once "
                 f"per reap of its queue — it waited on its I/O{other}; its CPU per I/O there "
                 f"({span(fmt_y(c_lo, 's'), fmt_y(c_hi, 's'))}) lets one CPU carry "
                 f"{span(fmt_y(1 / c_hi, '1/s'), fmt_y(1 / c_lo, '1/s'))}"
                 + (f", ×{1 / h['share'][1]:.2g} or more the job's rate in every run there: its own CPU work did "
                    f"not hold the rate" if 1 / h["share"][1] >= 1.5 else ""))
    elif h.get("async"):  # an asynchronous engine reaps many I/Os a wake-up: its switches count no wait per I/O
        text += (f"; an asynchronous engine sleeps once for many I/Os ({ctx} context switches an I/O over the runs), "
                 f"so its switches do not say what it waited for: what held the rate its CPU figures do not show "
                 f"(fio counts the job's thread only)")
    else:
        text += (f"; its context switches, {ctx} an I/O over the runs, are neither about one an I/O in every run nor "
                 f"almost none: what held the rate its CPU figures do not show (fio counts the job's thread only)")
    ic = h.get("in_call")
    if ic:
        how = "most of each I/O was" if ic["mostly"] else "at least that share of each I/O was"
        share = span(f"{ic['lo']:.2g}", f"{ic['hi']:.2g}")
        text += (f"; at {result.x} = {_xv(result, ic['x'])} its CPU per I/O "
                 f"({span(fmt_y(ic['cost'][0], 's'), fmt_y(ic['cost'][1], 's'))}) less its time outside the call was "
                 f"{share} of the I/O's own mean latency ({span(fmt_y(ic['lat'][0], 's'), fmt_y(ic['lat'][1], 's'))}; "
                 f"fio's latency of a synchronous {ic['engine']} call covers its kernel work): {how} CPU work inside "
                 f"its call")
    return text
