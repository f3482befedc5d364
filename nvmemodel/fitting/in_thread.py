"""I/O done in the job's own thread, on a CPU the job shared: the rate is the CPU share it got ÷ its CPU per I/O.

On a memory block device (zram, a ram disk, pmem, null_blk) the kernel does each I/O's work — a copy, a compression —
in the submitting call: under a synchronous engine inside the call, under libaio/io_uring inside io_submit (fio's slat
then holds the I/O and its clat the reap). The job has nothing to wait on, so it does not sleep per I/O (fio's context
switches stay a few hundred a run however many I/Os it made), and each I/O costs the job's thread one CPU time. A job
below :data:`~nvmemodel.fitting.fact_base.CPU_BOUND` of one CPU there was not idle for want of work: it was runnable
and the scheduler gave the CPU to other work on the host. Its rate is then its CPU share ÷ its cost per I/O, and its
runs that got more CPU ran faster at the same cost (set after round 23 was read: r23_here-zramlz4 iodepth, readshare
and bs on a loaded 2-core host, 0.48–0.66 of a CPU at 4.26–4.52 µs a read in all 18 runs, told "what held the rate
its CPU figures do not show" and "a rate cap or one serial server", AB).

Not for a device that works in another thread (a loop device's worker, a network block device, a drive): the job
sleeps per I/O there (r23_here-cpusplit loop, 0.15–0.31 context switches a read); not for a paced or polling job.
"""

from __future__ import annotations

import re

import numpy as np

from ..ingest.context_switches import run_switches
from .claim import _xv, runs_rows
from .devices import listed_devices
from .fact_base import CPU_BOUND, pd_num
from .wording import fmt_y

__all__ = ["MEMORY_DEVICE", "CTX_PER_IO", "CTX_PER_S", "RUN_COST_TOL", "NO_DEVICE_SHARE", "in_thread",
           "in_thread_words", "never_slept", "memory_devices"]

#: block devices whose I/O is a memory operation done by the submitting thread: zram (drivers/block/zram, compression in
#: the bio's submit path), the ram disk brd (``ram0``…), pmem (drivers/nvdimm/pmem.c, a memcpy in submit_bio) and
#: null_blk in its default bio mode (``nullb0``…; a completion in the submit path)
MEMORY_DEVICE = re.compile(r"^(zram\d+|ram\d+|pmem\d+(\.\d+)?s?|nullb\d+)$")
#: context switches per I/O at or below which the job did not sleep per I/O: a job that waits for each I/O switches
#: at least once per wait (≈ 1 a I/O, r23 loop 0.15–0.31 with batching); a twentieth leaves room for timer ticks and
#: preemption by other work (zram: ≈ 0.0015). Set after round 23 was read.
CTX_PER_IO = 0.05
#: or at most this many context switches a second of the run, whatever its I/O count: the scheduler's preemptions of a
#: runnable job (its tick is 100–1000 Hz), not a wait per I/O — large I/Os on a memory device (r23 zram 1 MiB writes:
#: ≈ 170 a second, 0.43 an I/O at 396 I/Os a second). Set after round 23 was read.
CTX_PER_S = 300.0
#: each run's CPU per I/O within this of its point's median (and along a load axis every point's median within it of
#: the curve's): one cost per I/O, so a run's rate moved with the CPU it got. fio's per-run usr+sys over 1–2 s runs
#: reads to a few %; ±10 % is the band the hand read checked (4.26–4.52 µs = ±3 %). Set after round 23 was read.
RUN_COST_TOL = 0.10
#: device requests per fio I/O below which no device served the I/O (a page-cache hit or a tmpfs page moves no
#: request; a served I/O makes at least one: the ramp and metadata make a few stray requests, never a tenth an I/O).
#: With no device beneath, a synchronous job that never slept per I/O (≤ CTX_PER_IO, the per-second escape not
#: allowed: nothing else proves it) did every I/O as CPU work in its own call: tmpfs or cached pages copied by
#: read/splice. Set after round 24 was read (r24_here-splicenj tmpfs splice 64 KiB, 0.0005–0.0031 switches a read,
#: 1.74 CPUs over 8 jobs told "what held the rate its CPU figures do not show", CA).
NO_DEVICE_SHARE = 0.1
#: engines whose submission call does the I/O's kernel work for a memory device (io_uring may punt to a worker:
#: then slat < clat and test (a) fails on its own)
ASYNC = ("libaio", "io_uring")


def never_slept(rows) -> bool:
    """Every run's context switches per I/O at most :data:`CTX_PER_IO` under a synchronous engine: no job slept per
    I/O, so each was on a CPU or waiting for one (round 24 CA)."""
    from ..jobs.fiooptions import SYNC_ENGINES

    if rows is None or not len(rows) or not {"ctx", "ios"} <= set(rows.columns) or _engine(rows) not in SYNC_ENGINES:
        return False
    ctx = run_switches(rows)["per_io"].to_numpy(float)  # each run's: a mixed job's ctx once over both directions
    return bool(ctx.size and np.isfinite(ctx).all() and np.all(ctx <= CTX_PER_IO))


def memory_devices(rows) -> list[str]:
    """The block devices fio's disk statistics name where every one is a memory device (:data:`MEMORY_DEVICE`), else
    []: there the kernel does each I/O's work in the submitting call, so an async engine does the same work in
    io_submit, in the same thread, and only more jobs (on free CPUs) add work in parallel (set after round 23 was
    read: r23_here-zramlz4 … randwrite bs, "more jobs or an async engine … would tell" on zram, AE)."""
    devs = sorted(set(listed_devices(rows))) if rows is not None and len(rows) and "devices" in rows else []
    return devs if devs and all(MEMORY_DEVICE.match(d) for d in devs) else []


def _engine(rows) -> str:
    e = set(rows["ioengine"].dropna().astype(str)) if "ioengine" in rows else set()
    return e.pop() if len(e) == 1 else ""


def in_thread(result, cf, flags) -> dict | None:
    """The runs' proof that each job did its I/O in its own thread on a shared CPU (module docstring), or None.

    Returns the device, the engine, how (a) was shown, the largest context switches per I/O, the cost range over
    every run (per I/O, or per byte along block size), the share range, and the fastest and slowest runs."""
    from ..jobs.fiooptions import SYNC_ENGINES
    from .facts import point_run_cpus

    p = cf.points
    rows = runs_rows(result, p)
    if rows is None or not len(rows) or flags.get("paced") or flags.get("part_paced") or flags.get("polling") \
            or not {"devices", "ctx", "ios", "cpu_usr", "cpu_sys", "iops", "source_path"} <= set(rows.columns):
        return None
    devs = set(listed_devices(rows))
    ios_all = pd_num(rows["ios"]).to_numpy(float)
    req = sum((pd_num(rows[c]).fillna(0).to_numpy(float) for c in ("disk_read_ios", "disk_write_ios") if c in rows),
              np.zeros(len(rows)))
    no_device = not devs and bool(np.all(req <= NO_DEVICE_SHARE * ios_all))  # round 24 CA: tmpfs, cached pages
    if no_device:
        dev = "no block device (fio's disk statistics name none: the pages were in memory)"
    elif len(devs) != 1 or not MEMORY_DEVICE.match(dev := devs.pop()):
        return None
    engine = _engine(rows)
    how = ""
    if engine in SYNC_ENGINES and engine != "mmap":  # (a splice copies in its call too: round 24 CA)
        how = f"{engine} does each I/O inside its call"
    elif engine in ASYNC and {"slat_mean_s", "clat_mean_s", "iodepth"} <= set(rows.columns):
        d = pd_num(rows["iodepth"])
        low = rows[d == d.min()]
        sl, cl = pd_num(low["slat_mean_s"]).median(), pd_num(low["clat_mean_s"]).median()
        if np.isfinite(sl) and np.isfinite(cl) and sl >= cl:
            how = (f"at {result.x if result.x == 'iodepth' else 'iodepth'} = {float(d.min()):g} fio's submission "
                   f"took {fmt_y(sl, 's')} of {fmt_y(sl + cl, 's')} an I/O: "
                   f"the work was done in io_submit")
    if not how:
        return None
    sw = run_switches(rows)  # each run's switches per I/O and per job-second (ingest.context_switches)
    ctx = sw["per_io"].to_numpy(float)
    per_s = sw["per_job_s"].fillna(np.inf).to_numpy(float)
    if not (np.isfinite(ctx).all() and ctx.size and np.all((ctx <= CTX_PER_IO) | (per_s <= CTX_PER_S))):
        return None
    never_slept = bool(np.all(ctx <= CTX_PER_IO))
    if no_device and not never_slept:
        return None
    # nothing beneath to wait on and no sleep per I/O: each job's time was CPU or a wait for one whatever its cost per
    # I/O did, so neither a cost that varies from run to run nor a faster run at no more CPU refutes the reading; the
    # cost is said as a range (set after round 26 was read: r26_here-openfiles1, runs at 2.5–2.6 or 3.2–3.4 µs a read
    # and its fastest 8-job run at the slowest one's CPU, told "what held the rate its CPU figures do not show", FC)
    any_cost = never_slept and (no_device or bool(MEMORY_DEVICE.match(dev)))
    along_size = result.x == "block_size_bytes"
    load_axis = result.x in ("iodepth", "numjobs", "jobs", "threads")
    size = p["bytes_per_io"].to_numpy(float) if "bytes_per_io" in p else np.ones(len(p))
    jobs = p["jobs"].to_numpy(float) if "jobs" in p else np.ones(len(p))
    costs, shares, rates, meds = [], [], [], []
    for k in range(len(p)):
        srcs = [s for s in str(p["sources"].iloc[k]).split(";") if s]
        c, io, _ = point_run_cpus(rows, srcs)
        if not c.size or not (np.isfinite(c).all() and np.isfinite(io).all() and (io > 0).all() and (c > 0).all()):
            return None
        if not (np.isfinite(jobs[k]) and jobs[k] > 0):
            return None
        cost = c / io / (size[k] if along_size else 1.0)
        med = float(np.median(cost))
        if not any_cost and np.any(np.abs(cost / med - 1) > RUN_COST_TOL):
            return None
        costs.append(cost)
        meds.append(med)
        shares.append(c / jobs[k])
        rates.append(io)
    meds_a = np.array(meds)
    # along a load axis one cost at every point, unless no job ever slept per I/O: then each point's rate is the CPU
    # its jobs got ÷ its own cost, whatever the cost did (more threads made cheaper copies: r24 splicenj, CA)
    if load_axis and not never_slept and np.any(np.abs(meds_a / np.median(meds_a) - 1) > RUN_COST_TOL):
        return None
    share = np.concatenate(shares)
    from .level_stat import top_index  # the point this clause is said of (the maximum, by medians: round 23 AD)

    top = top_index(p)
    if not (shares[top].max() < CPU_BOUND) or (not never_slept and not (share.max() < CPU_BOUND)):
        return None  # a job ≥ 90 % busy has its own CPU-bound sentence (r16 zram)
    # the fastest and the slowest run of the point whose runs differ most: more CPU, more I/O at one cost
    k = int(np.argmax([r.max() / r.min() for r in rates]))
    hi, lo = int(np.argmax(rates[k])), int(np.argmin(rates[k]))
    # the faster run did not have more CPU: the share is not what moved the rate — read only where the runs differ by
    # more than their cost's own tolerance (round 24 CA: zramzero's 8-job runs 774–796 K, 2.8 % apart at one cost)
    if not any_cost and len(rates[k]) >= 2 and rates[k][hi] > rates[k][lo] * (1 + RUN_COST_TOL) \
            and not shares[k][hi] > shares[k][lo]:
        return None
    ctx_words = (f"at most {ctx.max():.2g} context switches an I/O" if ctx.max() <= CTX_PER_IO else
                 f"at most {ctx.max():.2g} context switches an I/O and {np.nanmax(per_s):.3g} a second"
                 + (" a job" if (sw["jobs"] > 1).any() else ""))
    return {"device": dev, "no_device": no_device, "engine": engine, "how": how, "ctx_max": float(ctx.max()), "ctx_words": ctx_words,
            "along_size": along_size, "cost_varies": bool(any(np.any(np.abs(c / m - 1) > RUN_COST_TOL)
                                                              for c, m in zip(costs, meds))),
            "cost_lo": float(min(c.min() for c in costs)), "cost_hi": float(max(c.max() for c in costs)),
            "share_lo": float(share.min()), "share_hi": float(share.max()), "k": k,
            "fast": (float(rates[k][hi]), float(shares[k][hi]), float(costs[k][hi])),
            "slow": (float(rates[k][lo]), float(shares[k][lo]), float(costs[k][lo])),
            "n_runs": int(share.size)}


def _cost(v: float, per_byte: bool) -> str:
    return f"{v * 1e9:.3g} ns" if per_byte else fmt_y(v, "s")


def in_thread_words(result, cf, h, *, jobs: float) -> str:
    """The CPU-bound-on-a-shared-CPU clause of :func:`in_thread`."""
    who, whose = ("the job was", "the job's") if jobs <= 1 else ("each job was", "each job's")
    per = "byte" if h["along_size"] else "I/O"
    cost = (f"{h['cost_lo'] * 1e9:.3g}–{h['cost_hi'] * 1e9:.3g} ns" if h["along_size"] else
            f"{fmt_y(h['cost_lo'], 's')}–{fmt_y(h['cost_hi'], 's')}")
    runs = f"in all {h['n_runs']} runs" if h["n_runs"] > 1 else "in its run"
    xk = _xv(result, cf.points["x"].iloc[h["k"]])
    fast, slow = h["fast"], h["slow"]
    # what made the faster run faster: the larger of its two factors, rate = share ÷ cost (round 26 FC: 602 K against
    # 477 K at the same 0.198 of a CPU is the cheaper reads, not "more CPU")
    more_cpu, cheaper = fast[1] / slow[1], slow[2] / fast[2]
    an = "a byte" if h["along_size"] else "an I/O"
    if not fast[0] > slow[0]:
        faster = ""
    elif more_cpu > 1 and more_cpu >= cheaper:
        faster = (f"; at {result.x} = {xk} its runs with more CPU ran faster ({fmt_y(fast[0], '1/s')} at "
                  f"{fast[1]:.3g} of a CPU, {fmt_y(slow[0], '1/s')} at {slow[1]:.3g})")
    elif cheaper > 1 and fast[0] > slow[0] * (1 + RUN_COST_TOL):  # (runs within the cost's tolerance: nothing to tell)
        faster = (f"; at {result.x} = {xk} its faster run had the cheaper {per}s, not more CPU "
                  f"({fmt_y(fast[0], '1/s')} at {_cost(fast[2], h['along_size'])} {an} and {fast[1]:.3g} of a CPU, "
                  f"{fmt_y(slow[0], '1/s')} at {_cost(slow[2], h['along_size'])} and {slow[1]:.3g})")
    else:
        faster = ""
    where = (f"with {h['device']}" if h.get("no_device") else
             f"on {h['device']} (a memory device: no device to wait on)")
    took = "the other jobs or other work on the host took it" if jobs > 1 else "other work on the host took it"
    # a cost that varies from run to run (round 26 FC): each run's rate is its own share ÷ its own cost
    rate = "each run's rate is its share ÷ its cost" if h.get("cost_varies") else "the rate is that share ÷ that cost"
    return (f"{who} below {CPU_BOUND:.0%} of one CPU, yet {where} "
            f"{h['how']} and the job never slept per I/O ({h['ctx_words']} in every run): CPU-bound on a shared CPU — "
            f"each {per} cost {cost} of {whose} CPU (usr+sys, {runs}) and it got "
            f"{h['share_lo']:.2g}–{h['share_hi']:.2g} of a CPU (runnable the rest: {took}), so {rate}{faster}")
