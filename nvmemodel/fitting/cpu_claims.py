"""The claims fio's CPU accounting supports: the jobs' usr+sys at the maximum, points where a job kept its CPU busy
(and whether that limited the rate — a job that waits by spinning counts as busy), against the host's cores where a
topology gives them. CPU is compared per I/O, never per byte (:mod:`~nvmemodel.fitting.facts`)."""

from __future__ import annotations

import re

import numpy as np

from .cpu_band import cost_worth
from .cpu_time import COST_TOL, _cost_line, _sizes, follows_time, follows_time_words
from .busy_jobs import spread
from .in_thread import in_thread, in_thread_words, never_slept
from .cpu_starved import cpu_starved, cpu_starved_words
from .off_cpu import off_cpu, off_cpu_words
from .cpu_total import fixed_total, fixed_total_words
from .claim import Claim, _machine_cpu, _pct, _pcts, _pts, _what, _xv, runs_rows
from .evidence import Evidence
from .axes import axis_kind
from .facts import CPU_BOUND, LEVEL_STEP, PAYS, _gain, cost_rise, curve_facts
from .cpu_limits import busy_sustains, far_from_limit, far_words
from .cpu_bytes import follows_at
from .submit_serial import share_span, submit_serial
from .wording import cpus_words, fmt_y, span
from .run_flags import SLEPT_PER_REAP, _coarse_step, _run_flags, _slept_per_reap, run_flags  # noqa: F401 (re-exported)

__all__ = ["_machine_cpu", "_per_job_cpu", "unsaid_cost"]

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


#: a submitting job at this share of one CPU or more at a saturation onset (below :data:`CPU_BOUND`) is near its CPU
#: limit: fio's usr+sys of the job thread leaves out interrupt and softirq time charged elsewhere (round 5, AG)
NEAR_CPU = 0.7
#: a job making at least this share of the rate one CPU sustains at its own measured cost (1 ÷ CPU per I/O) is at or
#: near its CPU limit whatever fio's "in flight" reads: a busy thread reaps completions late, and they still count as
#: in flight (round 6, BC: a P3600 job at 237 K of the 270 K its 3.71 µs allow, beaten by 2 jobs × QD16)
NEAR_RATE = 0.85
#: fio's latency covering less than this share of a job's I/O cycle (IOPS × mean latency ÷ outstanding I/O): the job
#: spent its time outside its I/O (round 5, AA: verify=sha256 hashing between reads, 0.04-0.08)
IDLE_COVER = 0.25
#: a job's CPU per I/O at least this × its I/O's own mean latency at the lightest load: its own work filled most (≥ 2/3)
#: of its cycle (round 20, SC: 135 µs of md5 per 64 KiB read against a 29–35 µs read)
OWN_WORK = 2.0
#: CPU per I/O along a series whose highest is more than this × its lowest is no one cost: its range is said, not
#: one point's (round 17, YD)
COST_VARIES = 1.3
#: a job below this share of one CPU is nearly idle: fio's per-second floor (about 1 % of a CPU in
#: r7_here_blkio_wiops_seqwrite_bs, 0.75-2.3 % while the IOPS fell ×16) is then more than :data:`COST_TOL` of its
#: CPU per I/O, which is no cost to read or extrapolate (set after round 7 was read: that case's "×22.9 … one CPU
#: sustains 11.16 K IOPS", part 2 CC)
IDLE_SHARE = 0.05
#: layers whose work fio's job thread does not count: no rate one CPU sustains (round 7, CG; virtio/xen set after
#: round 9 was read: r9_stefanha's "one CPU sustains 404 K" in a guest whose host QEMU/vhost threads do the I/O, GD;
#: virtio worded "the hypervisor's threads" after round 29 was read: fio's files name no monitor, and r29_here-vdadsync
#: ran under Firecracker, not QEMU, OE)
NOT_WHOLE_PATH = {"loop": "the loop device's worker", "nbd": "the NBD server", "rbd": "the Ceph client and cluster",
                  "network_fs": "the network or FUSE file system", "network_block": "the network target",
                  "virtio": "the hypervisor's threads", "xen": "the host's (dom0's) backend",
                  "vm_disk": "the hypervisor's device model and the host's I/O threads"}
#: buffered I/O's share of the path fio's thread does not run: the copy is in it, read-ahead and write-back are not
#: (set after round 14 was read: r14_here-ra_loop-ra0's "one CPU sustains 93.98 K IOPS" with loop0 beneath the page
#: cache, SD — the loop worker was named only under direct=1 before)
BUFFERED_OFF = ("the kernel's read-ahead and write-back beneath the page cache (buffered, direct=0: only the copy is "
                "in it)")


def _no_device(rows, cf, engine: str) -> bool:
    """Whether the files name no device at all: none in fio's disk statistics, no ``/dev`` target, no layer fact that
    names the path (an engine that touches no storage or goes around the block layer), and not fio on Windows (which
    keeps no disk statistics whatever it ran on)."""
    from .devices import listed_devices

    if rows is None or engine in ("null", "cpuio", "windowsaio") or (cf.layer is not None and cf.layer.facts.get(
            "layer") in ("none", "bypass", "page_cache", "buffered_device", "memory")):
        return False
    targets = rows["target_names"].dropna().astype(str) if "target_names" in rows else None
    return not ("devices" in rows and listed_devices(rows)) and not (
        targets is not None and targets.str.contains(r"^/dev/(?!shm/)", regex=True).any())


def off_thread(cf, buffered: bool) -> str:
    """Whose work fio's CPU figures leave out of the I/O path, "" where the files name none: any layer of
    :data:`NOT_WHOLE_PATH` the layer fact names (its own or a device fio's disk statistics list), else buffered
    I/O's kernel work above a device fio names (:data:`BUFFERED_OFF`). One rule for every "one CPU sustains" (issue 28, round 14 SD/RE)."""
    from .devices import layer_of

    f = cf.layer.facts if cf.layer is not None else {}
    names = [str(f.get("layer"))] + [layer_of(d) or "" for d in f.get("all_devices") or f.get("devices") or []]
    if f.get("served") == "waited":  # each buffered read slept (fio's ctx ≈ 1 per read or more: round 17, XE)
        return "the party each read waited on (a device beneath or a user-space server such as FUSE's)"
    # buffered with no device fio names (tmpfs and the like): no read-ahead or write-back to a device, the copy is all
    return next((NOT_WHOLE_PATH[n] for n in names if n in NOT_WHOLE_PATH),
                BUFFERED_OFF if buffered and f.get("devices") else "")


def _beneath(cf) -> str:
    """What more jobs would tell a job's limit from: the device's, or for an engine that touches no storage (net …)
    the path its I/O goes through (round 10, HF: no drive words for a diskless engine)."""
    f = cf.layer
    return f"{f.facts['path']}'s" if f is not None and f.facts.get("layer") == "none" else "the device's"


def _share(v: float) -> str:
    """A job's CPU share; one decimal where whole percent would round it up to :data:`CPU_BOUND` (89.7 %, not the
    "90%" beside "below 90%" round 7 read on r7_bergstartup_nvmetcp-target1rss)."""
    return f"{100 * v:.1f} %" if v < CPU_BOUND <= round(v, 2) else _pct(v)


def _cover(p) -> np.ndarray:
    """The share of each point's I/O cycle fio's mean latency covers: IOPS × mean latency ÷ outstanding I/O."""
    if not {"iops", "lat", "out"} <= set(p.columns):
        return np.full(len(p), np.nan)
    with np.errstate(all="ignore"):
        return p["iops"].to_numpy(float) * p["lat"].to_numpy(float) / p["out"].to_numpy(float)


def _synced(rows) -> bool:
    """fsync/fdatasync set, or the jobs inside their sync calls ≥ sync_time.SYNC_HELD of their time (round 21 VA)."""
    import pandas as pd

    from .sync_time import sync_held
    return rows is not None and sync_held(rows) is not None or rows is not None and any(c in rows and (pd.to_numeric(rows[c], errors="coerce") > 0).any()
                                    for c in ("fsync_every", "fdatasync_every"))


def _not_per_io(cf, flags) -> str:
    """Why the job's CPU is not a cost per I/O here ("" where it is): an engine that polls or whose I/O other threads
    do (fio counts the job thread only), or a CPU share that stays level (within ×1.5) while the rate changes ×3 or
    more — a job that spins or polls (io_uring sqthread_poll or hipri, pvsync2 hipri) spends its CPU per second, not
    per I/O (round 5, AD: 15-20 % of a CPU from 52 to 734 IOPS). Since round 6 (BG) the rate is each job's (the
    total ÷ jobs: the share is per job), along block size its bytes per job must change as much (a cost per byte
    keeps a share level while the IOPS fall), and an engine that cannot poll (psync: it sleeps for each I/O) never
    gets this reading."""
    from ..hostcal.costs import CANNOT_POLL, HELPER_THREADS

    if flags["engine"] in HELPER_THREADS:
        return HELPER_THREADS[flags["engine"]]
    if flags["polling"]:
        return f"{flags['polling']}: not a cost per I/O"
    f = cf.cpu
    if f is None or flags["engine"] in CANNOT_POLL or flags.get("slept"):  # a job that slept per reap: no spinner
        return ""
    p = cf.points
    share = np.asarray(f.facts["share"], float)
    jobs = p["jobs"].to_numpy(float) if "jobs" in p else np.ones(len(p))
    with np.errstate(all="ignore"):
        iops = p["iops"].to_numpy(float) / np.where(np.isfinite(jobs) & (jobs > 0), jobs, np.nan)
    size = _sizes(p)
    ok = np.isfinite(share) & (share > 0) & np.isfinite(iops) & (iops > 0)
    if ok.sum() < 3 or np.any(share[ok] >= CPU_BOUND):
        return ""
    s, r, b = share[ok], iops[ok], iops[ok] * size[ok]
    line = _cost_line(np.asarray(f.facts["cpu_s_per_io"], float), size)  # a cost per byte explains a level share
    if line is None and s.max() / s.min() <= 1.5 and r.max() / r.min() >= 3 and b.max() / b.min() >= 3:
        from .job_count import one_job

        whose = "the job's" if one_job(p) else "each job's"  # (round 26 remnant 2: one count, one word)
        return (f"{whose} CPU share stayed {_pcts(s.min(), s.max())} of a CPU while its rate changed "
                f"×{r.max() / r.min():.3g}: CPU spent per second, not per I/O (a job that spins or polls for "
                f"completions, as io_uring's sqthread_poll or hipri do)")
    return ""


def _share_held(result, key, cf, flags) -> dict | None:
    """Round 5's class AA: a job below :data:`CPU_BOUND` of one CPU whose rate is the CPU it got ÷ one constant cost
    (a + b·size within :data:`COST_TOL` at every point), with nothing else to wait for — no device under the files, or
    fio's latency covering less than :data:`IDLE_COVER` of its cycle — unpaced, unsynced, its CPU a cost per I/O. Its
    share is what the host gave it (other load, more jobs than cores): the rate follows it. None otherwise."""
    from ..hostcal.costs import NOT_A_STACK

    f = cf.cpu
    if f is None or f.facts["cpu_bound"] is not False or f.facts.get("spare"):
        return None
    if flags["paced"] or flags["engine"] in NOT_A_STACK or _not_per_io(cf, flags) \
            or _synced(runs_rows(result, cf.points)):
        return None
    p = cf.points
    share, per_io = np.asarray(f.facts["share"], float), np.asarray(f.facts["cpu_s_per_io"], float)
    if not (np.isfinite(share).all() and np.isfinite(per_io).all()) or np.any(share >= CPU_BOUND):
        return None
    size = _sizes(p)
    line = _cost_line(per_io, size)
    if line is None:
        return None
    served = cf.layer is not None and cf.layer.facts.get("served") == "no_device"
    cover = _cover(p)
    idle = bool(np.isfinite(cover).all() and cover.max() < IDLE_COVER)
    # at the lightest load the job spent more CPU per I/O than its I/O took (fio's mean latency): its own work filled
    # its cycle there; more load on shared cores then adds CPU queueing to the latency, so the covered share rises
    # while the rate still follows the CPU the jobs got (set after round 20 was read: r20_here-verify psync md5
    # numjobs, 135 µs of CPU per I/O against a 29–35 µs read at 1 job, "what held the rate its CPU figures do not
    # show" at 0.39–0.76 covered, part 1 SC)
    lat = p["lat"].to_numpy(float) if "lat" in p else np.full(len(p), np.nan)
    own = bool(np.isfinite(lat[0]) and lat[0] > 0 and per_io[0] >= OWN_WORK * lat[0])
    if not (served or idle or own):
        return None
    from .level_stat import top_index  # (the maximum by the kept runs' medians, round 23 AD)

    i = top_index(p)
    return {"a": line[0], "b": line[1], "i": i, "served": served, "cover": (float(np.nanmin(cover)),
            float(np.nanmax(cover))) if idle else None, "per_io": per_io, "share": share,
            "own": (float(per_io[0]), float(lat[0])) if own and not (served or idle) else None}


def _held_words(result, cf, h) -> str:
    """The sentence of :func:`_share_held`: the one cost, and the rate the CPU the jobs got gives at it."""
    p, x = cf.points, result.x
    i, per_io, share = h["i"], h["per_io"], h["share"]
    cpus, iops = p["cpus"].to_numpy(float), p["iops"].to_numpy(float)
    size = _sizes(p)
    cost = h["a"] + h["b"] * size  # the one cost behind every point
    miss = float(np.max(np.abs(cpus / cost / iops - 1)))
    xs = p["x"].to_numpy(float)
    if h["b"] > 0:
        line = (f"{fmt_y(h['a'], 's')} + {h['b'] * 1e9:.3g} ns per byte of CPU per I/O (usr+sys ÷ I/Os, "
                f"{fmt_y(per_io.min(), 's')} to {fmt_y(per_io.max(), 's')} measured)")
        at = f"{fmt_y(cost[i], 's')}, that cost at {_xv(result, xs[i])}"
    else:
        line = (f"{fmt_y(cost[i], 's')} of CPU per I/O (usr+sys ÷ I/Os, "
                f"{span(fmt_y(per_io.min(), 's'), fmt_y(per_io.max(), 's'))} measured)")
        at = fmt_y(cost[i], "s")
    why = ("fio's disk statistics name no device under these buffered files" if h["served"] else
           f"fio's latency covers only {_pcts(*h['cover'])} of the job's I/O cycle (IOPS × "
           f"mean latency ÷ outstanding): the job spent the rest on its own work" if h["cover"] else
           f"at {x} = {_xv(result, xs[0])} the job's CPU per I/O ({fmt_y(h['own'][0], 's')}) was "
           f"{h['own'][0] / h['own'][1]:.2g}× its I/O's own mean latency ({fmt_y(h['own'][1], 's')}): its own work, "
           f"not the wait for its I/O, filled most of its cycle")
    who = "the job" if np.nanmax(p["jobs"].to_numpy(float)) <= 1 else "each job"
    from .serialised import serialised, serialised_words

    lock = serialised(result, p)  # fio's lockfile held the share, not the host (round 27 IC)
    held = (f"CPU-bound at the share fio's lock left each job, not held by the I/O beneath it: "
            f"{serialised_words(result, lock, cost=float(np.median(h['a'] + h['b'] * size)))}" if lock is not None else
            f"CPU-bound at the share the host gave it (other load on its cores, or more jobs than cores; fio counts "
            f"only the job's thread), not held by the I/O beneath it")
    return (f"fio's CPU accounting: {who} used {_pcts(np.nanmin(share), np.nanmax(share))} of one CPU, and its "
            f"rate follows the CPU it got at one cost, {line}: the CPUs the jobs got ÷ that cost give the measured "
            f"rate within ±{miss:.0%} at every point ({x} = {_xv(result, xs[i])}: {cpus_words(cpus[i], '.3g')} ÷ {at} = "
            f"{fmt_y(cpus[i] / cost[i], '1/s')}, {fmt_y(iops[i], '1/s')} measured); {why}. {held}.")


def _near_limit(result, cf, off: str = "") -> str:
    """Round 5's AG: a submitting job at :data:`NEAR_CPU`–:data:`CPU_BOUND` of one CPU at the saturation onset (along
    numjobs: every job from there on) — near its CPU limit, with the rate one CPU sustains at its cost; "" otherwise."""
    f, sat = cf.cpu, cf.saturation
    if f is None or f.facts["cpu_bound"] is not False or sat is None or sat.facts.get("onset_index") is None:
        return ""
    share, per_io = np.asarray(f.facts["share"], float), np.asarray(f.facts["cpu_s_per_io"], float)
    o = int(sat.facts["onset_index"])
    tail = share[o:] if result.x in ("numjobs", "jobs", "threads") else share[o:o + 1]
    if not (np.isfinite(tail).all() and np.all(tail >= NEAR_CPU) and share[o] < CPU_BOUND) or not per_io[o] > 0:
        return ""
    return _near_words(result, cf, o, "at the saturation onset", off)


def _near_words(result, cf, o: int, where: str, off: str = "") -> str:
    """ "near its CPU limit" at point ``o`` (the onset, or the maximum: one wording for one share, round 10 JF), with
    the point's kept runs where the files give them (their share of one CPU and their rates: round 18 ZC). ``off``:
    whose work fio's thread leaves out (:func:`off_thread`): the rate is then the job thread's own, not the path's."""
    from .facts import point_cpu_runs

    share, per_io = np.asarray(cf.cpu.facts["share"], float), np.asarray(cf.cpu.facts["cpu_s_per_io"], float)
    p = cf.points
    jobs = float(p["jobs"].iloc[o])
    who = "the job" if jobs <= 1 else f"each of the {jobs:g} jobs"
    one = 1.0 / per_io[o]
    per_job = float(p["iops"].iloc[o]) / jobs
    lead = f"{where} ({result.x} = {_xv(result, p['x'].iloc[o])}) {who} used {_pct(share[o])} of one CPU, " if where \
        else ""  # (at the maximum its share is said just before)
    runs = point_cpu_runs(result, p, o)
    seen = (f" (its {runs['share'].size} runs: {_pcts(runs['share'][0], runs['share'][-1])} of one CPU per job, "
            f"{span(fmt_y(runs['iops'].min() / jobs, '1/s'), fmt_y(runs['iops'].max() / jobs, '1/s'))} per job)"
            if runs is not None else "")
    rate = (f"1 CPU ÷ {fmt_y(per_io[o], 's')} of the job thread's CPU per I/O = {fmt_y(one, '1/s')} for that "
            f"thread (the work of {off} is not in it)" if off else
            f"{fmt_y(per_io[o], 's')} of CPU per I/O: at that cost one CPU sustains {fmt_y(one, '1/s')}")
    return (f"{lead}{rate}, and {fmt_y(per_job, '1/s')} per job is {per_job / one:.0%} of it{seen} — near its CPU "
            f"limit, which may co-limit the rate (fio's usr+sys of the job thread leaves out interrupt time charged "
            f"elsewhere); more jobs would tell the job's limit from {_beneath(cf)}")


def _run_reaches(result, cf, k: int) -> bool:
    """Whether a kept run of point ``k`` used ≥ :data:`CPU_BOUND` of one CPU per job (:func:`facts.point_cpu_runs`)."""
    from .facts import point_cpu_runs

    runs = point_cpu_runs(result, cf.points, k)
    return runs is not None and bool(runs["share"][-1] >= CPU_BOUND) and bool(runs["share"][-1] <= 1.05)


def _cpu_bound_below(result, key, ev: Evidence, band: bool = False):
    """The points below the level the curve reaches (the plateau's first x, else the maximum's) at which fio saw
    a job at ≥ :data:`CPU_BOUND` of one CPU: a rise from such a point is a CPU limit, not a queue filling.

    ``band``: where no plateau and no CPU-bound level of the CPU fact covers the points after the maximum (a read
    share, a block size, a fall), the whole band of such points on both sides of the maximum, the maximum with them
    where they stand on both sides — every point of the band is listed (set after round 19 was read:
    r19_here-mmapw_tmpfs_mmap_randrw_readshare_repeats, "from read_fraction = 0 to 0.5 … 99.9 %" and "at the
    maximum (0.75)" while 0.9 and 1.0 were 99.3–99.9 % busy too, unsaid, UE)."""
    pts = _pts(result, key).sort_values(result.x)
    cf = curve_facts(result, key)
    if result.y_unit == "s" or not len(pts) or _spins(cf):
        return pts.iloc[:0]
    level_x = ev.plateau["x_from"] if ev.plateau else float(ev.x[int(np.argmax(ev.y))])
    per = _per_job_cpu(pts)
    xs = pts[result.x].to_numpy(float)
    keep = (xs < level_x) & (per >= CPU_BOUND)
    if band and not ev.plateau and not (cf.cpu is not None and cf.cpu.facts["cpu_bound"] is True):
        after = (xs > level_x) & (per >= CPU_BOUND)
        if after.any():
            keep |= after | ((xs == level_x) & (per >= CPU_BOUND) & keep.any())
    keep &= ~np.isin(np.arange(len(pts)), list(_busy_not_binding(result, key, ev)))
    return pts[keep]


def _iops_or_y(result, key, pts) -> np.ndarray:
    """The points' I/O rates where known — CPU is spent per I/O, so a job's CPU is compared against the I/Os it
    made, never against bytes (along block size a busy job moves more bytes per I/O) — else y."""
    iops = curve_facts(result, key).points["iops"].to_numpy(float)
    return iops if len(iops) == len(pts) and np.isfinite(iops).all() else pts["y"].to_numpy(float)


def _busy_not_binding(result, key, ev: Evidence) -> dict:
    """{i: j}: points i where fio saw a job at ≥ :data:`CPU_BOUND` of one CPU although at point j each job used less
    than that and made as much per job (within noise), more than its CPU share buys at i's CPU per I/O — the busy CPU
    did not limit the rate at i (a job that waits by spinning, as under ``--rate_iops``, reads as 100 % busy; QA s27
    I3: 50 K IOPS per job at 99.9 % of a CPU with one job and at 39.7 % with four). Indices are of the curve's points
    sorted by x."""
    pts = _pts(result, key).sort_values(result.x)
    if result.y_unit == "s" or "jobs" not in pts or not len(pts):
        return {}
    per = _per_job_cpu(pts)
    jobs, ys, xs = pts["jobs"].to_numpy(float), _iops_or_y(result, key, pts), pts[result.x].to_numpy(float)
    cf = curve_facts(result, key)
    size = _sizes(cf.points) if len(cf.points) == len(pts) else np.ones(len(pts))
    out = {}
    for i in np.flatnonzero(per >= CPU_BOUND):
        for j in np.flatnonzero(per < CPU_BOUND):
            # only at the same bytes per I/O: a larger I/O costs more CPU, so a smaller one's rate at less CPU shows
            # nothing of it (set after round 10 was read: r10_dgfiobench kvm, 4 KiB against 128 KiB, part 1 HC)
            if not (jobs[i] > 0 and jobs[j] > 0) or abs(size[i] / size[j] - 1) > 0.01:
                continue
            i_ev, j_ev = int(np.argmin(np.abs(ev.x - xs[i]))), int(np.argmin(np.abs(ev.x - xs[j])))
            if result.y_unit == "1/s":
                slack = ev.beyond_noise(i_ev, j_ev) / max(jobs[i], jobs[j])
            else:  # I/Os compared where y is bytes: the curve's noise is of bytes, so a fixed 5 % of the rate
                slack = 0.05 * ys[i] / jobs[i]
            # and more than its CPU share buys at the busy point's cost per I/O: a job that got less CPU at one
            # cost per I/O made proportionally less, as a CPU-bound job does (set after round 27 was read:
            # r27_here-filestat … numjobs, 98.4 % for 523.89 K a job at 1 job and 88.3 % for 467.30 K at 2 — 1.88
            # and 1.89 µs per stat() — told "the busy CPU did not limit the rate there")
            bought = per[j] * (ys[i] / jobs[i]) / per[i]
            if ys[j] / jobs[j] >= ys[i] / jobs[i] - slack and ys[j] / jobs[j] > bought + slack:
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
    u = "1/s" if result.y_unit != "1/s" and np.isfinite(ys).all() and not np.array_equal(ys, pts["y"].to_numpy(float)) \
        else result.y_unit
    jobs, xs = pts["jobs"].to_numpy(float), pts[x].to_numpy(float)
    parts = []
    for i, j in pairs.items():
        who = "the job" if jobs[i] == 1 else f"each of the {jobs[i]:g} jobs"
        parts.append(f"at {x} = {_xv(result, xs[i])} {who} used {100 * per[i]:.3g} % of a CPU for "
                     f"{fmt_y(ys[i] / jobs[i], u)} per job, yet at {x} = {_xv(result, xs[j])} "
                     f"{'the job' if jobs[j] == 1 else 'each job'} made "
                     f"{fmt_y(ys[j] / jobs[j], u)} with {100 * per[j]:.3g} %")
    return [Claim("cpu", "fio's CPU accounting: " + "; ".join(parts) + " (usr+sys): the busy CPU did not limit the "
                         "rate there (a job that waits by spinning counts as busy), so no CPU-bound claim is made "
                         "from it.")]


def _spins(cf) -> dict | None:
    """The CPU fact's ``spins`` (busy jobs whose CPU per I/O grew with the load, or runs that poll), else None."""
    return cf.cpu.facts.get("spins") if cf is not None and cf.cpu is not None else None


def _spin_words(result, cf, sp) -> str:
    """Round 7's CB: why fio's busy CPU share shows no CPU limit here — the measured growth of CPU per I/O against
    the rate (the pair of points where it grew most), and what the runs say about polling."""
    p, x = cf.points, result.x
    why = sp["why"]
    if sp["pair"] is None:
        share = np.asarray(cf.cpu.facts["share"], float)
        if sp.get("unseen"):  # the I/O's submitter not counted, the job spinning: one sentence, no figure (r18 QB)
            return (f"fio's CPU accounting: {why}, so fio's figures ({_pcts(np.nanmin(share), np.nanmax(share))} of "
                    f"one CPU per job) hold neither the submitting thread's work nor a load: they show no CPU limit, "
                    f"no cost per I/O and no kernel (sys) share.")
        from ..hostcal.costs import POLL_OPTIONS

        # a polling option is the reading; a CPU per I/O that grew beside it is no cost's growth (round 18, QB)
        rise = "" if why in POLL_OPTIONS.values() else cost_rise(result, p, cf.cpu.facts["cpu_s_per_io"])
        return (f"fio's CPU accounting: {why}, so the jobs' CPU ({_pcts(np.nanmin(share), np.nanmax(share))} "
                f"of one CPU per job) shows no CPU limit and no cost per I/O{rise}.")
    i, j = sp["pair"]
    cpus, iops = p["cpus"].to_numpy(float), p["iops"].to_numpy(float)
    per_io, share = np.asarray(cf.cpu.facts["cpu_s_per_io"], float), np.asarray(cf.cpu.facts["share"], float)
    xs = p["x"].to_numpy(float)
    # round 10 (JC): the measurement, its kernel share and the rate meanwhile; spinning or polling only where an
    # option the runs set says so — no lock or other cause the files do not name
    sys_i, sys_j = (_sys_share(result, p, k) for k in (i, j))
    kernel = ((f", {_pct(sys_i)} of it in the kernel (sys) at both" if _pct(sys_i) == _pct(sys_j) else
               f", {_pct(sys_i)} → {_pct(sys_j)} of it in the kernel (sys)")
              if np.isfinite(sys_i) and np.isfinite(sys_j) else "")
    top = int(np.nanargmax(iops))
    fell = (f"; meanwhile the IOPS fell from {fmt_y(iops[top], '1/s')} at {x} = {_xv(result, xs[top])} to "
            f"{fmt_y(iops[-1], '1/s')} at {_xv(result, xs[-1])} ({iops[-1] / iops[top] - 1:+.0%})"
            if top < len(iops) - 1 and iops[-1] < (1 - LEVEL_STEP) * iops[top] else "")
    return (f"fio's CPU accounting: from {x} = {_xv(result, xs[i])} to {_xv(result, xs[j])} the jobs' CPU grew "
            f"×{cpus[j] / cpus[i]:.3g} ({cpus[i]:.3g} → {cpus_words(cpus[j], '.3g')}, {_pct(share[j])} of one CPU per job at "
            f"{_xv(result, xs[j])}) for ×{iops[j] / iops[i]:.3g} the IOPS: CPU per I/O grew ×"
            f"{per_io[j] / per_io[i]:.3g}, from {fmt_y(per_io[i], 's')} to {fmt_y(per_io[j], 's')} (usr+sys ÷ I/Os)"
            f"{kernel}{fell}. Not one cost: the added CPU bought no I/O, so no CPU limit of the device's I/O is read "
            f"from it" + (f"; {why}." if why else f"; {_poll_record(result, p)}: what the added CPU was spent on the "
                          "files do not show."))


def _poll_record(result, p) -> str:
    """What the files say of polling where no run polled: the options unset, or not recorded at all (a case named
    "hipri" whose table has no such column: r7_bergstartup_sn540-local-hipri)."""
    rows = runs_rows(result, p)
    cols = [c for c in ("hipri", "sqthread_poll") if rows is not None and c in rows.columns]
    return (f"no polling option is set ({', '.join(cols)})" if cols else
            "the files do not record whether the runs polled (no hipri or sqthread_poll)")


def _median_cpus(result, p, k: int) -> float:
    """The median over point ``k``'s runs (≥ 3 source files) of their jobs' summed usr+sys, in CPUs, read as
    ``facts._run_costs`` reads each run; NaN where the runs cannot be told apart or do not average to the point's
    CPU within 1 % — one disturbed run must not set the figure (round 9, GC; round 10, HG)."""
    tbl = result.table
    if tbl is None or not {"source_path", "cpu_usr", "cpu_sys", "iops"} <= set(tbl.columns) or "sources" not in p:
        return np.nan
    from ..ingest.summary import usable_rows

    rows = usable_rows(tbl)
    srcs = [s for s in str(p["sources"].iloc[k]).split(";") if s]
    r = rows[rows["source_path"].astype(str).isin(srcs)]
    if len(srcs) < 3 or r.empty:
        return np.nan
    from .facts import run_cpus

    c = run_cpus(r).to_numpy(float)
    want = float(p["cpus"].iloc[k])
    ok = len(c) == len(srcs) and np.isfinite(c).all() and abs(c.mean() - want) <= 0.01 * max(want, 1e-9)
    return float(np.median(c)) if ok else np.nan


def _sys_share(result, p, k: int) -> float:
    """The kernel's (sys) share of fio's usr+sys at point ``k``, summed over its runs' rows; NaN where unknown."""
    rows = runs_rows(result, p)
    if rows is None or not {"source_path", "cpu_usr", "cpu_sys"} <= set(rows.columns) or "sources" not in p:
        return np.nan
    srcs = [s for s in str(p["sources"].iloc[k]).split(";") if s]
    r = rows[rows["source_path"].astype(str).isin(srcs)]
    usr, sys = r["cpu_usr"].to_numpy(float).sum(), r["cpu_sys"].to_numpy(float).sum()
    return float(sys / (usr + sys)) if r.size and np.isfinite(usr + sys) and usr + sys > 0 else np.nan


def _cpu_bound_sentence(result, key, ev: Evidence, bound) -> str:
    """ "fio's CPU accounting at numjobs = 1: the job used 99.8 % of a CPU (usr+sys): CPU-bound there; …" """
    x, u = result.x, result.y_unit
    pts = _pts(result, key).sort_values(result.x)
    per_all = _per_job_cpu(pts)
    xs, ys = pts[x].to_numpy(float), pts["y"].to_numpy(float)
    parts = []
    at = np.flatnonzero(np.isin(xs, bound[x].to_numpy(float)))
    if len(bound) >= 3 and at.size == len(bound) and np.all(np.diff(at) == 1):  # a run of points: one clause (r10 JF)
        per = bound["cpus"].to_numpy(float) / bound["jobs"].to_numpy(float)
        parts.append(f"at every point from {x} = {_xv(result, xs[at[0]])} to {_xv(result, xs[at[-1]])} every job used "
                     f"{span(f'{100 * per.min():.3g} %', f'{100 * per.max():.3g} %')} of a CPU")
    else:
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
        # "lifted" only by a rise beyond noise that also pays per doubling (issue 28: +3 % for twice the jobs is none)
        cp = pts["cpus"].to_numpy(float)
        io = _iops_or_y(result, key, pts)
        awake = never_slept(runs_rows(result, pts))  # round 24 CA: jobs on a CPU or waiting for one
        if ys[j] - ys[i] > ev.beyond_noise(i_ev, j_ev) and spread(cp[i], cp[j], cp[i] / io[i], cp[j] / io[j], io[i],
                                                                  io[j], awake=awake):
            # round 23 (ZD): the summed CPU grew with the rate at about one cost — no limit was lifted
            text += (f"; at {x} = {_xv(result, xs[j])} each job used {100 * per_all[j]:.3g} % of a CPU, the jobs together "
                     f"{cpus_words(cp[j], '.3g')} against {cpus_words(cp[i], '.3g')} at {_xv(result, xs[i])}, at about one "
                     f"cost per I/O ({fmt_y(cp[i] / io[i], 's')} → {fmt_y(cp[j] / io[j], 's')}), and {_what(result)} rose "
                     f"×{ys[j] / ys[i]:.3g} (to {fmt_y(ys[j], u)}): more jobs spread the work over more CPUs "
                     f"({cp[i]:.3g} → {cp[j]:.3g}); the rate is the CPU they got ÷ that cost, not a limit lifted")
        elif ys[j] - ys[i] > ev.beyond_noise(i_ev, j_ev) and _gain(ys[i], ys[j], xs[i], xs[j]) >= PAYS:
            text += (f"; at {x} = {_xv(result, xs[j])} each job used {100 * per_all[j]:.3g} % of a CPU and "
                     f"{_what(result)} rose ×{ys[j] / ys[i]:.3g} (to {fmt_y(ys[j], u)}): more jobs lifted that limit")
    return text + "."


def _cpu(result, key, ev: Evidence) -> list[Claim]:
    pts = _pts(result, key).sort_values(result.x)
    # ("at the maximum" of a latency is its slowest point: no load to read CPU against)
    if "cpus" not in pts or pts["cpus"].isna().all() or result.y_unit == "s":
        return []
    cf = curve_facts(result, key)
    sp = _spins(cf)
    if sp is not None and not _machine_cpu(pts):  # one sentence: busy CPU that bought no I/O is no limit (r7 CB)
        return [Claim("cpu", _spin_words(result, cf, sp))]
    bound_below = _cpu_bound_below(result, key, ev, band=True)
    below = [Claim("cpu", _cpu_bound_sentence(result, key, ev, bound_below))] if len(bound_below) else []
    below += _busy_not_binding_sentence(result, key, ev)
    not_binding = _busy_not_binding(result, key, ev)
    topo = result.setup(key)[0]
    cores, assumed = None, False
    if topo is not None and getattr(topo, "host", None) is not None:
        cores = int(topo.host.sockets * topo.host.cores_per_socket)
        why = str(getattr(topo.host, "provenance", {}).get("cores_per_socket", ""))
        assumed = why.startswith(("assumption", "estimate"))  # not this machine's count: no saturation claim
    whose = f"the host's {cores} cores"
    from .facts import pinned_cpus

    pin = pinned_cpus(runs_rows(result, pts))  # the CPUs the files say fio could use (round 11, KD/KH)
    if pin is not None and (cores is None or assumed or pin[0] < cores):
        cores, assumed = pin[0], False
        whose = f"the {cores} CPU{'s' * (cores != 1)} fio's jobs were pinned to (cpus_allowed={pin[1]})"
    # "the maximum" by the points' levels, the kept runs' medians every level sentence uses (round 23 AD: level_stat)
    from .level_stat import top_index

    top_x = float(cf.points["x"].iloc[top_index(cf.points)])
    at = np.flatnonzero(np.isclose(pts[result.x].to_numpy(float), top_x))
    i = int(at[0]) if at.size == 1 and len(pts) == len(cf.points) else int(np.argmax(pts["y"].to_numpy()))
    row = pts.iloc[i]
    cpus = float(row["cpus"])
    f = curve_facts(result, key).cpu  # not_binding: said above (busy, not what limited the rate)
    if i in not_binding or not np.isfinite(cpus) or f is not None and f.facts["how"] in ("job", "host", "busy_jobs"):  # said
        return below
    # the jobs of the runs at the maximum themselves (not a table-wide count: on an outstanding axis the
    # runs differ in numjobs); no share per job for a whole machine's CPU or more than one CPU per job
    jobs = float(row["jobs"]) if "jobs" in row and np.isfinite(row["jobs"]) and row["jobs"] > 0 else np.nan
    per_job = float(_per_job_cpu(pts)[i])
    machine = _machine_cpu(pts)
    med = np.nan if machine else _median_cpus(result, pts, i)
    if np.isfinite(med) and np.isfinite(per_job):  # a point's CPU is its runs' median, as documented (round 10, HG)
        cpus, per_job = med, med / jobs
    if machine:  # a whole machine's CPU, every process
        text = (f"{machine}'s CPU accounting at the maximum ({result.x} = {_xv(result, row[result.x])}): the "
                f"machine used {cpus_words(cpus, '.3g')} (user+kernel, every process, not the jobs' alone)")
    else:
        one = jobs == 1  # one job: its CPUs are its share of one CPU, said once (the job, not "per job")
        text = (f"fio's CPU accounting at the maximum ({result.x} = {_xv(result, row[result.x])}): "
                f"{'the job' if one else 'the jobs'} used {cpus_words(cpus, '.3g')} (usr+sys"
                + (", the median of the point's runs)" if np.isfinite(med) else ")")
                + (f", {_share(per_job)} of one CPU{'' if one else ' per job'}" if np.isfinite(per_job) else ""))
        step = _coarse_step(runs_rows(result, pts)) if cpus == 0 else None
        if step:  # round 6 (BH): whole-second accounting's 0 is below its resolution, not an idle job
            text = (f"fio's CPU accounting at the maximum ({result.x} = {_xv(result, row[result.x])}): the jobs' "
                    f"usr+sys read 0, below fio's resolution here (it counted CPU in whole seconds: "
                    f"{_pct(step)} of a CPU per job)")
    bound = []
    holder = ""
    starved = False  # the jobs were CPU-starved at the maximum (round 28, MB)
    # "no job's own CPU held it" may be said only where the CPU fact found no CPU limit (a CPU-bound, level or
    # spare-CPU reading has its own sentence) and the engine does I/O (the null engine's rate is its CPU's)
    f = cf.cpu
    told = bool(np.isfinite(per_job) and per_job < CPU_BOUND and f is not None and f.facts["cpu_bound"] is False
                and not f.facts.get("spare"))
    flags = run_flags(result, key, cf.points) if told else {}
    told = told and flags["engine"] not in ("null", "cpuio")
    held = _share_held(result, key, cf, flags) if told else None
    if held is not None:  # round 5, AA: the rate is the CPU the job got ÷ its cost: said whole, with its cost
        return below + [Claim("cpu", _held_words(result, cf, held), {"share_held": True})]
    total = fixed_total(result, key, cf, flags, idle_share=IDLE_SHARE) if told else None
    if total is not None:  # round 17, XC: the jobs' summed CPU fixed while the rate moved — said whole, with its costs
        return below + [Claim("cpu", fixed_total_words(result, cf, total),
                              {"holder": "the CPU sentence names it: the jobs' summed CPU stayed fixed while the rate "
                                         "moved" if total["device"] is None else
                                         "the CPU sentence names the device's work in the other direction"})]
    near = _near_limit(result, cf, off_thread(cf, flags["buffered"])) if told and not not_binding else ""  # (r7 CB)
    other = _not_per_io(cf, flags) if told else ""
    if np.isfinite(per_job) and per_job >= CPU_BOUND:
        pw = (f.facts.get("polled") if f is not None else None) or {"x": ()}  # round 8 (EA): its own runs poll
        bound.append(f"there {pw['why']}" if row[result.x] in pw["x"] else "the job kept its CPU busy: the submitting "
                     "thread is CPU-bound" if jobs == 1 else "each job kept its CPU busy: the submitting threads are "
                     "CPU-bound")
    elif near:
        bound.append(near)
    elif told and not other and not not_binding and (at_rate := _at_rate_limit(result, cf, float(row[result.x]),
                                                                                   jobs, off_thread(cf, flags["buffered"]))):
        near = at_rate
        bound.append(at_rate)
    elif other:
        bound.append(f"{other} — so the share says nothing of a CPU limit either way")
    elif told:
        # issue 28 rule 4 (a job is one thread, whatever the host), one-sided since round 5 (AA): below 90 % of one
        # CPU a job's own CPU did not hold it only where something else explains its rate — a pace, a cap the data
        # show, or its outstanding I/O in flight for its whole cycle (rate = outstanding ÷ latency)
        why = _rate_explained(result, cf, flags, float(row[result.x]))
        who = "the job was" if jobs == 1 else "each job was"
        k = int(np.argmin(np.abs(cf.points["x"].to_numpy(float) - float(row[result.x]))))
        per_k = float(np.asarray(f.facts["cpu_s_per_io"], float)[k])
        if per_job < IDLE_SHARE:  # round 7 (CC, CG): a nearly idle job, whatever else its path did
            bound.append(f"{who} nearly idle: fio's own CPU was far from a limit")
        elif not why and (st := cpu_starved(result, cf)) is not None and k >= st["k"] \
                and _spread_from(result, key, bound_below, row) is not None:  # round 28, MB: in place of ZD's words
            bound.append(f"{who} below {CPU_BOUND:.0%} of one CPU; {cpu_starved_words(result, st)}")
            starved = True
        elif not why and (sp := _spread_from(result, key, bound_below, row)) is not None:  # round 23, ZD
            bound.append(f"{who} below {CPU_BOUND:.0%} of one CPU, yet the jobs together used {cpus_words(cpus, '.3g')} "
                         f"at about the cost per I/O the CPU-bound job{'s' * (sp['jobs'] > 1)} paid at {result.x} = "
                         f"{_xv(result, sp['x'])} ({fmt_y(sp['cost_i'], 's')} → {fmt_y(sp['cost_j'], 's')}): the rate "
                         f"grew with the CPUs the jobs got")
        elif not why and (own := in_thread(result, cf, flags)) is not None:  # round 23, AB: its own thread's CPU
            bound.append(in_thread_words(result, cf, own, jobs=jobs))
            holder = ("the CPU sentence names it: the job did each I/O in its own thread, at one CPU cost per I/O, "
                      "on the CPU share it got")
        elif not why and (per_job >= NEAR_CPU or _run_reaches(result, cf, k)) and per_k > 0 and not not_binding \
                and not flags["paced"]:
            # the onset's "near its CPU limit" at the maximum too: 76 % and 79 % read alike (set after round 10 was
            # read: r10_jackserver qd at 76 % "its CPU figures do not show", swissknife ext4 at 79 % "near", JF); a
            # run of the point at CPU_BOUND is near too, and beneath a layer whose work fio leaves out the rate is
            # the job thread's own (set after round 18 was read: r18_here-rwmixdio over loop0, runs 0.85–0.91 of a
            # CPU told "what held the rate its CPU figures do not show", ZC)
            near = _near_words(result, cf, k, "", off_thread(cf, flags["buffered"]))
            bound.append(near)
        elif why:
            held_w = ("so its own CPU did not hold it" if jobs == 1 else "so no job's own CPU held it")
            bound.append(f"{who} below {CPU_BOUND:.0%} of one CPU and {why}, {held_w} (a job is one thread: this "
                         f"needs no core count)")
        elif (far := far_from_limit(cf, result, None if assumed else cores)) is not None:  # round 21, WE
            left = off_thread(cf, flags["buffered"])
            reps = cf.points["n_runs"].to_numpy(float) if "n_runs" in cf.points else np.ones(len(cf.points))
            # the figure is the largest single run, said so: never a mean below the median quoted above (review)
            most = f"every run at most {far_words(far)}" if (reps >= 2).any() else f"at most {far_words(far)}"
            bound.append(f"{who} below a quarter of one CPU at every {result.x} ({most}): fio's own CPU "
                         f"was far from a limit" + (f" (the work of {left} is not in its figures)" if left else ""))
        elif jobs == 1 and (fol := follows_at(result, cf, float(row[result.x]))) is not None:  # round 22, XD
            bound.append(f"{who} below {CPU_BOUND:.0%} of one CPU, and its runs' rates moved with the CPU it got "
                         f"({fol['gb_lo']:.3g}–{fol['gb_hi']:.3g} GB per CPU-second: see its cost per byte); what held "
                         f"its CPU time below a whole CPU its figures do not show (fio counts the job's thread only)")
        elif (sub := submit_serial(result, cf.points)) is not None:  # the submit call held it (round 25 EC)
            bound.append(f"{who} below {CPU_BOUND:.0%} of one CPU while {'it' if jobs == 1 else 'each job'} spent "
                         f"{share_span(sub['lo'], sub['hi'])} of its time inside the submit call: for the rest of each call the thread waited inside "
                         f"the kernel (for the layer below, a lock or a CPU), not computing")
        elif (oc := off_cpu(result, cf, flags, k, synced=_synced(runs_rows(result, cf.points)))) is not None:
            # what the figures do show: the job's share on a CPU, its switches, its CPU inside the call (round 26 FB)
            bound.append(off_cpu_words(result, cf, oc, jobs=jobs, k=k))
            if oc["kind"] == "awake":
                holder = ("the CPU sentence names it: the job never slept per I/O, so off its CPU it was runnable, "
                          "waiting for a CPU")
        else:
            bound.append(f"{who} below {CPU_BOUND:.0%} of one CPU; what held the rate its CPU figures do not show "
                         f"(fio counts the job's thread only)")
    if cores and assumed:
        bound.append(f"{_pct(cpus / cores)} of the {cores} cores assumed for this host (its core count was not "
                     f"measured: no CPU-saturation claim)")
    elif cores and cpus >= 0.9 * cores:
        bound.append(f"{cpus / cores:.0%} of {whose}: the CPUs are saturated")
    elif cores:
        bound.append(f"{_pct(cpus / cores)} of {whose}")
    elif told and not starved:
        bound.append("whether the host's CPUs together were busy needs its core count (give a topology): no "
                     "CPU-saturation claim for the host")
    elif not (np.isfinite(per_job) and per_job >= CPU_BOUND) and not starved:
        bound.append("the host's core count is not known here (give a topology): no CPU-saturation claim")
    cost = "" if machine or near else cost_words(result, key)
    # the figure, short, where no other words give a cost or read the rate as a CPU share ÷ a cost (round 29, OE)
    if not (cost or machine or near or starved) and not re.search(r"CPU per I/O|cost", " ".join(bound)) \
            and unsaid_cost(result, key):
        from .cost_brief import brief_cost_words, job_thread_only

        # (not of a paced run: a think time or rate cap leaves the job near fio's per-second floor; the maximum's own
        # point not where this sentence calls its jobs nearly idle by the runs' median)
        fl = run_flags(result, key, cf.points)
        if not fl["paced"]:
            cost = brief_cost_words(result, cf, IDLE_SHARE,
                                    skip_x=float(row[result.x]) if per_job < IDLE_SHARE else None,
                                    job_thread_only=job_thread_only(result, cf, fl["engine"]))
    return below + [Claim("cpu", text + ("; " + "; ".join(bound) if bound else "") + "." + cost,
                          {"holder": holder} if holder else {})]


def _spread_from(result, key, bound_below, row) -> dict | None:
    """Round 23 (ZD): the last CPU-bound point below the maximum ``row`` along a job-count axis from which the jobs'
    summed CPU grew with the rate at about one cost per I/O (:func:`~nvmemodel.fitting.busy_jobs.spread`), or None."""
    if result.x not in ("numjobs", "jobs", "threads") or not len(bound_below) or "jobs" not in bound_below:
        return None
    b = bound_below.iloc[-1]
    ci, cj = float(b["cpus"]), float(row["cpus"])
    pts = _pts(result, key).sort_values(result.x)
    io = _iops_or_y(result, key, pts)
    xs = pts[result.x].to_numpy(float)
    i, j = int(np.argmin(np.abs(xs - float(b[result.x])))), int(np.argmin(np.abs(xs - float(row[result.x]))))
    if j <= i or not spread(ci, cj, ci / io[i], cj / io[j], io[i], io[j], awake=never_slept(runs_rows(result, pts))):
        return None
    return {"x": float(b[result.x]), "jobs": float(b["jobs"]), "cost_i": ci / io[i], "cost_j": cj / io[j]}


def _at_rate_limit(result, cf, xv: float, jobs: float, off: str = "") -> str:
    """Round 6's BC: at x = ``xv`` each job made ≥ :data:`NEAR_RATE` of the rate one CPU sustains at its own measured
    cost (per-job rate × CPU per I/O is its CPU share): at or near its CPU limit, however long its I/O was in flight;
    "" otherwise or for an engine whose CPU is no cost per I/O."""
    f = cf.cpu
    if f is None or not np.isfinite(jobs) or jobs <= 0:
        return ""
    p = cf.points
    xs = p["x"].to_numpy(float)
    if not xs.size:
        return ""
    k = int(np.argmin(np.abs(xs - xv)))
    per_io = float(np.asarray(f.facts["cpu_s_per_io"], float)[k])
    rate = float(p["iops"].iloc[k]) / jobs if "iops" in p else np.nan
    if not (np.isfinite(per_io) and per_io > 0 and np.isfinite(rate) and rate > 0):
        return ""
    one = 1.0 / per_io
    if rate / one < NEAR_RATE or rate / one >= CPU_BOUND:
        return ""
    who = "the job" if jobs <= 1 else "each job"
    more = _more_jobs_beat(result, float(p["out"].iloc[k]) if "out" in p else np.nan, jobs,
                           float(p["iops"].iloc[k]))
    # a synchronous engine reaps nothing: its I/O's time is the call itself (round 20 SI: "reaps completions late"
    # said of psync); each figure says which statistic of the runs it is (the CPU's: their median)
    from .curves import synchronous

    rows = runs_rows(result, p)
    at = rows[np.isclose(rows[result.x].astype(float), xs[k])] if rows is not None and result.x in rows else None
    sync = at is not None and len(at) > 0 and bool(synchronous(at).all())
    late = ("" if sync else " (a busy thread reaps completions late, and they still count as in flight)")
    runs = float(p["n_runs"].iloc[k]) if "n_runs" in p else 1.0
    mean, median = (" (the mean of its runs)", ", the runs' median") if runs >= 2 else ("", "")
    # (``off``: whose work fio's thread leaves out, off_thread — the rate is then the job thread's own: one rule for
    # every "one CPU sustains", round 14 SD/RE; met here once "the maximum" was read by medians, round 23 AD)
    sustains = (f"one CPU gives the job thread at its measured cost ({fmt_y(per_io, 's')} of the job thread's CPU per "
                f"I/O, usr+sys ÷ I/Os{median}; the work of {off} is not in it)" if off else
                f"one CPU sustains at its measured cost ({fmt_y(per_io, 's')} of CPU per I/O, usr+sys ÷ I/Os{median})")
    return (f"{who} made {fmt_y(rate, '1/s')}{mean}, {rate / one:.0%} of the {fmt_y(one, '1/s')} {sustains}: at or near its CPU "
            f"limit, whatever the time its I/O was in flight reads{late}; "
            + (more or f"more jobs at the same outstanding I/O would tell the job's limit from {_beneath(cf)}"))


#: more jobs at the same outstanding I/O making at least this much more: evidence of a per-job limit (round 6, BC)
MORE_JOBS_GAIN = 0.05


def _more_jobs_beat(result, out: float, jobs: float, iops: float) -> str:
    """Round 6's BC, across the curves of one result split by job count only: where more jobs with the same I/O
    outstanding in total made ≥ :data:`MORE_JOBS_GAIN` more, the sentence saying so ("" otherwise) — the device held
    that much more in flight, so the fewer jobs were held by something per job."""
    pts = result.points
    if len(getattr(result, "by", ()) or ()) != 1 or not {"outstanding", "jobs", "y"} <= set(pts.columns) \
            or result.y_unit != "1/s" or not (np.isfinite(out) and out > 0 and np.isfinite(iops) and iops > 0):
        return ""
    o, j, y = (pts[c].to_numpy(float) for c in ("outstanding", "jobs", "y"))
    hit = np.flatnonzero(np.isclose(o, out) & (j > jobs) & (y >= (1 + MORE_JOBS_GAIN) * iops))
    if not hit.size:
        return ""
    b = hit[np.argmin(j[hit])]  # the fewest jobs that beat it: the closest comparison
    x = result.x
    return (f"and at the same {out:g} I/Os outstanding {j[b]:g} jobs ({x} = {_xv(result, pts[x].iloc[b])} each) made "
            f"{fmt_y(y[b], '1/s')}, +{y[b] / iops - 1:.0%}: the device took more, so the fewer jobs were held by "
            f"something per job (the job's own CPU, by the figures above)")


def _rate_explained(result, cf, flags, xv: float) -> str:
    """What explains the rate at x = ``xv`` besides the job's CPU ("" where nothing the files show does): a pace, a
    cap the data show, or the job's outstanding I/O in flight for (nearly) its whole cycle."""
    if flags.get("paced"):
        return f"the runs were paced ({', '.join(flags['paced'])})"
    c = cf.cap.facts if cf.cap is not None else {}  # (a level said as the rate at one depth is no cap: one story)
    # (one depth's byte level whose bytes in flight grew is the byte cap the cap sentence names: round 16 WB)
    if (c.get("iops_cap") and not (c.get("one_depth") or c.get("by_outstanding"))) \
            or (c.get("bytes_cap") and (not c.get("bytes_depth") or c.get("bytes_inflight"))):
        return "a cap the data show sets the rate"
    from .sync_time import sync_held, sync_short

    if (t := sync_held(runs_rows(result, cf.points))) is not None:  # the syncs filled the cycle (round 21, VA)
        return sync_short(t)
    if cf.layer is not None and cf.layer.facts.get("served") == "no_device":
        return ""  # round 6 (BG): no device to wait on — "in flight" is the call's own work (a copy, a lock's spin)
    # not fio's in-flight share (rate = outstanding ÷ latency): it is ≈ 1 in any closed loop fio keeps full, a job
    # the scheduler held off included — fio stamps a completion when the job reaps it (set after round 10 was read:
    # r10_icpe24sched_8x980pro numjobs, "in flight for 100 % … so no job's own CPU held it" at a 10-CPU level, JA)
    return ""


def unsaid_cost(result, key) -> str:
    """The cost line :func:`cost_words` leaves out because every job of the curve was far from its CPU limit
    (:func:`~nvmemodel.fitting.cpu_band.cost_worth`; round 19 TE), for a user who asks for it; "" where the cost is
    said or there is none to say."""
    return "" if cost_words(result, key) else cost_words(result, key, quiet=False).strip()


def cost_words(result, key, *, quiet: bool = True) -> str:
    """Issue 28 rule 4 on every axis: " fio's CPU per I/O at x = v: 8.2 µs (usr+sys CPU-seconds ÷ I/Os, per job) —
    17.9 K cycles at the host's 2.2 GHz —, at which cost one CPU sustains 122 K IOPS." at the saturation onset (else
    the maximum); along block size the cost at each size and how it changes (CPU is spent per I/O: never per byte
    across sizes). "" where the CPU-bound fact already states it, without a per-I/O figure, or for an engine whose
    CPU is no I/O cost (cpuio). ``quiet``: "" where every job was far from its CPU limit and the cost is no argument
    (:func:`~nvmemodel.fitting.cpu_band.cost_worth`); ``quiet=False`` gives the words anyway (:func:`unsaid_cost`)."""
    cf = curve_facts(result, key)
    f = cf.cpu
    if f is None or f.facts["cpu_bound"] is True or f.facts.get("spare") or f.facts["cpu_bound"] is None \
            or _spins(cf):
        return ""  # said by the CPU fact's own sentence (fact_claims.cpu_claims, _spin_words), with its cost
    p = cf.points
    per_io = np.asarray(f.facts["cpu_s_per_io"], float)
    share = np.asarray(f.facts["share"], float)
    if per_io.size != len(p) or not np.isfinite(per_io).any():
        return ""
    flags = run_flags(result, key, p)
    if flags["engine"] == "cpuio":
        return ""
    from ..hostcal.costs import HELPER_THREADS

    helper = flags["engine"] in HELPER_THREADS
    if _not_per_io(cf, flags) and not helper and not flags["polling"]:
        return ""  # round 5, AD: a CPU share level while the rate changes is no cost per I/O (said in the sentence)
    sat = cf.saturation
    i = sat.facts.get("onset_index") if sat is not None else None
    where = "at the saturation onset" if i is not None else "at the maximum"
    if i is None or not np.isfinite(per_io[i]):
        from .level_stat import top_index  # (the kept runs' medians, round 23 AD)

        i = top_index(p, np.isfinite(per_io))
        where = "at the maximum"
    if (pw := f.facts.get("polled")) and p["x"].iloc[i] in pw["x"]:  # this point's runs polled (round 8, EA)
        flags["polling"] = pw["why"]
    idle = share < IDLE_SHARE  # no cost where a job was nearly idle (round 7, part 2 CC)
    if x_bs := result.x == "block_size_bytes":
        idle &= per_io > 0  # (a whole-second zero stays: it is said below fio's resolution)
    if idle[i] and (not x_bs or idle[np.isfinite(per_io)].all()):
        return ""
    if quiet and not cost_worth(share[np.isfinite(per_io)], bool(cost_rise(result, p, per_io))):
        return ""  # every job far from its CPU limit: no cost line (set after round 19 was read, TE: cpu_band)
    if not (helper or flags["polling"] or flags["paced"]) and (h := follows_time(result, cf)) is not None:
        return follows_time_words(result, cf, h)  # a waiting job's CPU per I/O follows its time (round 20, RC)
    topo = result.setup(key)[0]
    host = getattr(topo, "host", None)
    hz = float(getattr(host, "clock_hz", np.nan)) if host is not None else np.nan
    why = str(getattr(host, "provenance", {}).get("clock_hz", "")) if host is not None else ""
    whose = "the clock assumed for this host" if why.startswith(("assumption", "estimate")) else "the host's clock"
    x = result.x
    xs = p["x"].to_numpy(float)

    def cyc(c):
        return f"; {c * hz:,.0f} cycles at {whose}, {hz / 1e9:.3g} GHz" if np.isfinite(hz) and hz > 0 else ""

    step = flags["step"]
    varies = ""
    if x_bs:
        ok, out = np.flatnonzero(np.isfinite(per_io) & ~idle), np.flatnonzero(np.isfinite(per_io) & idle)  # r8 ED

        def size(v) -> str:  # round 5: "512 to 512 KiB" read as one value: every size with its unit
            w = _xv(result, v)
            return w if w.endswith("B") else f"{w} B"

        def one(k) -> str:  # round 6 (BH): a zero of whole-second accounting is below its resolution, not a cost of 0
            if per_io[k] > 0 or not step:
                return f"{size(xs[k])} {fmt_y(per_io[k], 's')}"
            jobs = float(p["jobs"].iloc[k]) if "jobs" in p and np.isfinite(p["jobs"].iloc[k]) else 1.0
            res = step * jobs / float(p["iops"].iloc[k]) if "iops" in p and p["iops"].iloc[k] > 0 else np.nan
            return (f"{size(xs[k])} below fio's resolution" + (f" (< {fmt_y(res, 's')}: 1 s ÷ the I/Os of the run)"
                                                              if np.isfinite(res) else ""))

        each = ", ".join(one(k) for k in ok) + (f"; left out: {', '.join(size(xs[k]) for k in out)}, "
                                                f"where the job used {_pcts(share[out].min(), share[out].max())} of a "
                                                f"CPU (below {IDLE_SHARE:.0%}: no cost read)" if out.size else "")
        if step:  # the comparisons below use measured costs only
            ok = ok[per_io[ok] > 0]
        if ok.size < 2:
            return (f" fio's CPU per I/O (usr+sys CPU-seconds ÷ I/Os, per job) at each size: {each}; " + (
                "fio counted CPU here in whole seconds, so " if step else "") + "no change across sizes is read.")
        lo, hi = per_io[ok[0]], per_io[ok[-1]]
        r = hi / lo if lo > 0 else np.nan
        steady = bool(np.all(np.diff(per_io[ok]) >= -0.15 * per_io[ok][:-1]))
        span, over = f"×{r:.3g} from {size(xs[ok[0]])} to {size(xs[ok[-1]])}", "of the sizes listed: " * bool(out.size)
        trend = ("about the same at every size (within ±15 %): the cost is per I/O, not per byte" if
                 np.all(np.abs(per_io[ok] / np.median(per_io[ok]) - 1) <= 0.15) else
                 f"{span}: a larger I/O costs more CPU (per-byte work on top of the per-I/O cost)"
                 if r > 1 and steady else
                 f"{span}, not in step with size (lowest at {size(xs[ok[int(np.argmin(per_io[ok]))]])})"
                 if not steady else span)
        from .cpu_bytes import follows_cpu, per_byte_top, per_byte_words  # a cost per byte at the top (round 22 XD)

        top = None if steady else per_byte_top(xs, per_io, ok)
        if top is not None:
            trend = trend.replace("not in step with size", f"not in step with size below {size(top['first'])}", 1)
            trend += per_byte_words(top, size, follows_cpu(runs_rows(result, p), x, top["xs"]))
        from .cpu_bytes import per_byte_ends

        # where each larger I/O cost more and most of it per byte, the cost per byte is a figure of the work: given
        # at both ends, not forbidden (cpu_bytes.PER_BYTE_SPAN; round 23 AE)
        ends = per_byte_ends(xs, per_io, ok) if r > 1 and steady and "per-byte work" in trend else None
        text = (f" fio's CPU per I/O (usr+sys CPU-seconds ÷ I/Os, per job) at each size: {each} — {over}{trend}; "
                + (f"compared per I/O below {size(top['first'])}, per byte from it" if top is not None else
                   f"per byte {ends[0] * 1e9:.3g} ns at {size(xs[ok[0]])} and {ends[1] * 1e9:.3g} ns at "
                   f"{size(xs[ok[-1]])}" if ends is not None else
                   "compared per I/O, never per byte across sizes"))
    else:
        text = (f" fio's CPU per I/O {where} ({x} = {_xv(result, xs[i])}): {fmt_y(per_io[i], 's')} (usr+sys "
                f"CPU-seconds ÷ I/Os, per job{cyc(per_io[i])})")
        # read at the maximum (no onset ties the cost to a level) along a load axis, a cost above the series' lowest
        # by more than COST_VARIES is no one cost: its range with where, and no one rate (set after round 17 was read:
        # r17_mmn0001 numjobs, 13.8 µs at 1 job → 26 µs at 64, "one CPU sustains 38.49 K IOPS" read at 64, YD; round
        # 16's WC read the level after an onset instead and was removed: a busy job's one cost at the onset holds it).
        # A cost that fell to the maximum (io_getevents reaping more per call at depth) is that load's own, and stays.
        along = [k for k in range(len(p)) if np.isfinite(per_io[k]) and per_io[k] > 0 and not idle[k]
                 and abs(_sizes(p)[k] / _sizes(p)[i] - 1) <= 0.01] \
            if where == "at the maximum" and axis_kind(x) == "concurrency" else []
        if len(along) >= 3 and per_io[i] > COST_VARIES * min(per_io[along]) and not cost_rise(result, p, per_io):
            lo = min(along, key=lambda k: per_io[k])
            a, b = sorted((lo, i))
            top = {a: " (the maximum)" * (a == i), b: " (the maximum)" * (b == i)}
            varies = (f" fio's CPU per I/O along {x} (usr+sys CPU-seconds ÷ I/Os, per job): {fmt_y(per_io[a], 's')} "
                      f"at {x} = {_xv(result, xs[a])}{top[a]} to {fmt_y(per_io[b], 's')} at {_xv(result, xs[b])}"
                      f"{top[b]}, ×{per_io[i] / per_io[lo]:.3g} apart: not one cost, so no rate one CPU sustains is "
                      f"read from it")
    notes = []
    partial = off_thread(cf, flags["buffered"])  # fio's figure is not the I/O path's (round 7, CG; round 14, SD)
    if not partial and _no_device(runs_rows(result, p), cf, flags["engine"]):
        # the files name no device: what lay beneath (an NFS client's RPC threads, virtio-fs, a local disk) is
        # unknown, and with it whose work fio's thread leaves out (set after round 14 was read: r14_dpfs host NFS and
        # DPU virtio-fs, fio normal output with no disk statistics, "one CPU sustains 145.17 K IOPS", RE)
        partial = "whatever lay beneath the files (the results name no device)"
    sustain = not (flags["paced"] or flags["part_paced"] or flags["polling"] or flags["engine"] == "null" or helper
                   or partial or idle[i])
    if sustain and varies:  # (where another reason withholds the one-CPU rate, the maximum's cost stays as it was)
        text, sustain = varies, False
    if sustain and per_io[i] > 0:  # (a cost of 0 — whole-second accounting — has no rate: round 6 BH)
        rate = fmt_y(1.0 / per_io[i], "1/s") + (f", {fmt_y(_sizes(p)[i] / per_io[i], 'B/s')}"
                                                * bool(_sizes(p)[i] >= 65536))
        text += (f"; at the {_xv(result, xs[i])} cost ({fmt_y(per_io[i], 's')}{cyc(per_io[i])}) one CPU sustains "
                 f"{rate}" if x == "block_size_bytes" else f", at which cost one CPU sustains {rate}")
    if flags["paced"]:
        notes.append(f"the runs were paced ({', '.join(flags['paced'])}): a cost at a set rate, not at saturation, "
                     "so no rate one CPU sustains is read from it")
    notes += [flags["part_paced"]] if flags["part_paced"] else []
    if flags["polling"]:
        notes.append("the engine polls (busy whatever the rate): a cost per I/O at saturation only where a job is "
                     "CPU-bound")
    if flags["not_stack"]:
        notes.append(flags["not_stack"])
    if partial and (busy := busy_sustains(result, cf)):  # the job's own thread at its limit throughout (r21 VE)
        notes.append(f"fio counts its own thread only: the work of {partial} is not in it, {busy}")
    elif partial:
        notes.append(f"fio counts its own thread only: the work of {partial} is not in it, so no rate one CPU "
                     f"sustains is read from it")
    if helper:
        notes.append("a lower bound of the cost (the engine's own threads are not counted), so no rate one CPU "
                     "sustains is read from it")
    if flags["buffered"] and partial != BUFFERED_OFF:
        notes.append("buffered (direct=0): the page cache's work per I/O is in it")
    if step and np.isfinite(share[i]) and share[i] > 0:
        notes.append(f"fio counted CPU here in whole seconds (every usr and sys figure a multiple of 1/runtime, "
                     f"{_pct(step)} of a CPU): this figure is known to about ±{min(step / share[i], 1):.0%}")
    return text + cost_rise(result, p, per_io) + ("; " + "; ".join(notes) if notes else "") + "."
