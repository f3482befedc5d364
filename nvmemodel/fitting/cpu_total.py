"""A CPU total fixed across load: the jobs' summed usr+sys (fio's own accounting, per run) the same at every point of a
stretch and in every repeat while the rate moved by a clear factor. The rate then followed the CPU per I/O under a
fixed CPU share (IOPS = that CPU ÷ CPU per I/O): a CPU quota (cgroup) or a host whose other load left the jobs that
share gives it, and the files do not say which (set after round 17 was read: r17_here-cpuquota libaio iodepth, 0.245-
0.249 CPUs in all 18 runs while IOPS went 29 K → 87 K, and psync numjobs, 0.47-0.50 CPUs from 2 to 8 jobs while the
rate fell 144 K → 77 K, told "what held the rate its CPU figures do not show", XC).

Only along a concurrency axis: along block size a byte cap with per-byte CPU work keeps the summed CPU level too
(IOPS × (a + b·size) → B·b as the IOPS fall ×2 per doubling), so a level total is no proof there. Not where a run
polls (hipri, sqthread_poll, an SPDK engine: a polling job's CPU is level whatever its rate), is paced, or its
engine's I/O is done by threads fio does not count.

Where fio's disk statistics show the device doing a clear amount of the direction the jobs did not do, growing with
the load (:func:`~nvmemodel.fitting.merges.other_direction`: a write-only job's device reading), that work is in the
files and the quota-or-busy-host reading is not given beside it: the CPU figures stay as measurements and the device's
work is said with its numbers (set after round 19 was read: r19_here-mmapw_ext4-on-loop … numjobs, UC)."""

from __future__ import annotations

import numpy as np

from .axes import CONCURRENCY
from .claim import _xv, runs_rows
from .facts import CPU_BOUND, point_run_cpus
from .wording import fmt_y, span

__all__ = ["fixed_total", "fixed_total_words"]

#: each point's summed CPU (the median of its runs) within this of the stretch's median, each run within twice it
#: ("a few %": one run's own noise is allowed twice the point's)
TOTAL_FLAT = 0.05
#: the rate moved by at least this factor over the stretch, between two points whose runs do not overlap
RATE_MOVE = 1.3
#: fewest points of the stretch
MIN_POINTS = 3


def _runs(result, p, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(summed CPUs, IOPS) of each run (source file) of point ``k``, empty where the runs cannot be told apart."""
    rows = runs_rows(result, p)
    if rows is None or "sources" not in p or not {"source_path", "cpu_usr", "cpu_sys", "iops"} <= set(rows.columns):
        return np.array([]), np.array([])
    c, io, _ = point_run_cpus(rows, [s for s in str(p["sources"].iloc[k]).split(";") if s])
    return c, io


def fixed_total(result, key, cf, flags, *, idle_share: float) -> dict | None:
    """The stretch (≥ :data:`MIN_POINTS` points, ending at the last) over which the jobs' summed CPU stayed fixed
    (:data:`TOTAL_FLAT`) while the rate moved ≥ :data:`RATE_MOVE` between two points whose runs do not overlap, each
    job below :data:`CPU_BOUND` of one CPU and at least ``idle_share`` (``cpu_claims.IDLE_SHARE``: fio's per-second
    floor); None otherwise (a flat rate at a flat CPU is any bound; a job ≥ 90 % busy
    has its own CPU-bound sentence)."""
    from ..hostcal.costs import CANNOT_POLL, HELPER_THREADS, NOT_A_STACK, POLL_OPTIONS, polls

    f, p = cf.cpu, cf.points
    if f is None or result.x.lower() not in CONCURRENCY or result.y_unit == "s" or len(p) < MIN_POINTS:
        return None
    rows = runs_rows(result, p)
    engine = flags.get("engine") or ""
    if flags.get("paced") or flags.get("part_paced") or flags.get("polling") or engine in HELPER_THREADS \
            or engine in NOT_A_STACK or polls(rows):
        return None
    # that no run polled must be in the files: an engine that cannot, or one whose polling options the runs record
    # (a job whose engine or options are not known may have polled: round 5's AD reading stays then)
    if not engine or (engine not in CANNOT_POLL and not (rows is not None and set(POLL_OPTIONS) <= set(rows.columns))):
        return None

    share, per_io = np.asarray(f.facts["share"], float), np.asarray(f.facts["cpu_s_per_io"], float)
    iops = p["iops"].to_numpy(float)
    runs = [_runs(result, p, k) for k in range(len(p))]
    med = np.array([np.median(c) if c.size and np.isfinite(c).all() else np.nan for c, _ in runs])
    n = len(p)

    def flat(k: int) -> bool:
        m = float(np.median(med[k:]))
        every = np.concatenate([runs[j][0] for j in range(k, n)])
        return bool(m > 0 and np.all(np.abs(med[k:] / m - 1) <= TOTAL_FLAT)
                    and np.all(np.abs(every / m - 1) <= 2 * TOTAL_FLAT))

    if not (np.isfinite(med[-MIN_POINTS:]).all() and flat(n - MIN_POINTS)):
        return None
    k = n - MIN_POINTS
    while k > 0 and np.isfinite(med[k - 1]) and flat(k - 1):
        k -= 1
    s = slice(k, n)
    if not (np.isfinite(share[s]).all() and np.all(share[s] < CPU_BOUND) and np.all(share[s] >= idle_share)
            and np.isfinite(per_io[s]).all() and np.isfinite(iops[s]).all() and (iops[s] > 0).all()):
        return None
    # the rate a point's runs give (their median), as its CPU per I/O is read (facts._run_costs): IOPS = CPU ÷ cost
    rate = np.array([np.median(io) if io.size else iops[j] for j, (_, io) in enumerate(runs)])
    lo, hi = k + int(np.argmin(rate[s])), k + int(np.argmax(rate[s]))
    if rate[hi] < RATE_MOVE * rate[lo]:
        return None
    if runs[lo][1].size and runs[hi][1].size and runs[lo][1].max() >= runs[hi][1].min():
        return None  # the two points' runs overlap: the rate did not move beyond their noise
    every_c = np.concatenate([runs[j][0] for j in range(k, n)])
    every_io = np.concatenate([runs[j][1] for j in range(k, n)])
    from .merges import other_direction

    return {"device": other_direction(rows, p), "engine": engine, "buffered": bool(flags.get("buffered")),
            "k": k, "lo": lo, "hi": hi, "cpu_lo": float(every_c.min()), "cpu_hi": float(every_c.max()),
            "n_runs": int(every_c.size), "io_lo": float(every_io.min()), "io_hi": float(every_io.max()),
            "per_io": per_io, "iops": rate, "share": share}


def fixed_total_words(result, cf, h) -> str:
    """The sentence of :func:`fixed_total`, with its numbers."""
    p, x = cf.points, result.x
    xs = p["x"].to_numpy(float)
    k, lo, hi, per_io, iops = h["k"], h["lo"], h["hi"], h["per_io"], h["iops"]
    n = len(p)
    where = (f"at every point ({x} = {_xv(result, xs[0])}–{_xv(result, xs[-1])})" if k == 0 else
             f"at every point from {x} = {_xv(result, xs[k])} to {_xv(result, xs[-1])}")
    runs = f", in all {h['n_runs']} runs" if h["n_runs"] > n - k else ""
    first, last = (lo, hi) if lo < hi else (hi, lo)
    share = h["share"][k:]
    cpus = span(f"{h['cpu_lo']:.3g}", f"{h['cpu_hi']:.3g}")
    each = span(f"{100 * share.min():.0f} %", f"{100 * share.max():.0f} %")
    head = (f"fio's CPU accounting: the jobs together used {cpus} CPUs "
            f"(usr+sys) {where}{runs}, while IOPS went {fmt_y(iops[first], '1/s')} at {x} = "
            f"{_xv(result, xs[first])} → {fmt_y(iops[last], '1/s')} at {_xv(result, xs[last])} ("
            f"{iops[last] / iops[first] - 1:+.0%}, medians of the runs; runs {fmt_y(h['io_lo'], '1/s')} to "
            f"{fmt_y(h['io_hi'], '1/s')})")
    dev = h.get("device")
    from .job_count import each_job

    who = each_job(p)  # "the job" where every run had one (round 26 remnant 2)
    if dev is not None:
        return head + (f", CPU per I/O {fmt_y(per_io[first], 's')} → {fmt_y(per_io[last], 's')}, {who} at {each} "
                       f"of one CPU. {_device_words(result, h, dev)}")
    from .serialised import serialised, serialised_words

    lock = serialised(result, p)  # fio's own lock fixes the total: named, not a quota or a host (round 27 IC)
    cause = (f"; {serialised_words(result, lock)}." if lock is not None else
             "; a CPU quota or a busy host gives this; the files do not say which.")
    return head + (f": a fixed "
            f"CPU share held the rate (IOPS = that CPU ÷ CPU per I/O, {fmt_y(per_io[first], 's')} → "
            f"{fmt_y(per_io[last], 's')}), {who} at {each}"
            f" of one CPU{cause}")


def _device_words(result, h, dev) -> str:
    """The device's work in the direction the jobs did not do, at both ends, and what the options prove of it."""
    x, xs, r = result.x, dev["x"], dev["ratio"]
    lo, hi = dev["runs_last"]
    runs = f" (runs {lo:.3g}–{hi:.3g})" if f"{lo:.3g}" != f"{hi:.3g}" else ""
    did, other = ("writes", "reads") if dev["direction"] == "write" else ("reads", "writes")
    # which reads they are only the options tell: a mapped or buffered file's pages come through the page cache
    why = ""
    if dev["direction"] == "write" and h["engine"] == "mmap":
        why = ": pages of the mapped files read into the page cache, device work that grew with the load"
    elif dev["direction"] == "write" and h["buffered"]:
        why = ": pages of the files read into the page cache (direct=0), device work that grew with the load"
    return (f"Yet the jobs only {did[:-1]}, and fio's disk statistics show {dev['device']} doing {other}: "
            f"{r[0]:.3g} device {other} per fio {did[:-1]} at {x} = {_xv(result, xs[0])} → {r[-1]:.3g} at "
            f"{_xv(result, xs[-1])}{runs}{why or ', device work that grew with the load'}; that work is in the files "
            f"beside the rate, a CPU quota or a busy host is not.")
