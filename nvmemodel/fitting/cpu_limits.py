"""What fio's CPU figures decide about a limit, from the whole series rather than one point.

Three readings, each of fio's usr+sys per job (``curve_facts(...).cpu``: ``share`` of one CPU per job and CPU per I/O,
the runs' median) along the axis, set after round 21 was read:

* :func:`shared_level` — jobs added while their summed CPU held one level, the jobs busy where the level began, and
  the CPU per I/O rising while the rate fell. A rate held by something else at a fixed CPU cost per I/O keeps the
  summed CPU level too, but it keeps its cost; a cost that rose while the summed CPU stayed put is the rate following
  the cost at a fixed CPU budget — the CPUs the host gave the jobs held it (r21_here-uringbuf … randread_qd4_numjobs,
  1.84–1.90 CPUs at 2–6 jobs, 95 % of a CPU per job at 2, 1.83 → 2.17–2.35 µs per I/O, told "give the host to decide",
  part 1 VD).
* :func:`busy_throughout` — the job (each job, at one job count) at :data:`~nvmemodel.fitting.facts.CPU_BOUND` of a
  CPU or more at every point, its engine not polling: each point's rate is what that CPU sustained at the point's own
  cost, so a last rise is a lower cost, not room below a ceiling still ahead, and whatever other threads did, the
  job's own thread was at its limit (r21_here-uringbuf … seqread_qd4_bs, 91–99 % of a CPU at 4 KiB–1 MiB, told "the
  data do not reach a ceiling" and "no rate one CPU sustains is read from it", part 1 VE).
* :func:`far_from_limit` — every point's job below :data:`FAR_SHARE` (a quarter of a CPU: it would need more than
  four times its rate to reach its CPU's limit): fio's own CPU was far from a limit, the same verdict as a nearly idle job's
  (r21_tieredvol 2m-write 1 job at 5–17 % and 4 jobs along bs at 2–6 % told "what held the rate its CPU figures do not
  show" beside its 4-job sibling's "far from a limit" at 3 %, part 2 WE).
"""

from __future__ import annotations

import numpy as np

__all__ = ["FAR_SHARE", "SHARE_LEVEL", "SHARED_FLAT", "SHARED_COST_RISE", "busy_throughout", "busy_rise_end", "far_from_limit", "far_words", "FAR_TOGETHER", "shared_level",
           "shared_words"]

#: the jobs' summed CPU within this of its mean at every point from the level's first: one budget shared (set after
#: round 21 was read: r21_here-uringbuf randread_qd4_numjobs, 1.84–1.90 CPUs at 2–6 jobs, ±2 %, VD; the hand reading's
#: rule says ±5 %)
SHARED_FLAT = 0.05
#: the CPU per I/O at every later point of the level at least this much above the level's first point's: not one cost
#: (set after round 21 was read: the same case, +19 % to +28 %; a run-to-run cost spread of a few % must not pass)
SHARED_COST_RISE = 0.10


#: every point's job below this share of one CPU: its CPU per I/O a small fraction of its time per I/O, more than
#: two doublings of its rate from its own CPU's limit — "far from a limit" (set after round 21 was read:
#: r21_tieredvol 2m-write 1 job at most 17.4 %, 4 jobs bs at most 6.4 %, WE; the hand reading's "below ~half a CPU"
#: narrowed to a quarter so that a job at 40 % whose CPU per I/O doubled at a flat rate — tests/fitting/test_cpu_r5's
#: synthetic, where nothing explains the rate — keeps "its CPU figures do not show")
FAR_SHARE = 0.25
#: every point's job share within this of their median: the share held one level, which a CPU quota or a host's other
#: load gives — no "far from a limit" (set after round 21 was read: spent r17_here-cpuquota … cfs25pct qd4_bs,
#: 22.5–24.8 % of a CPU under a 25 % quota, −8.5 % from its median, must not pass; the WE cases moved ×3.3 and ×3.4)
SHARE_LEVEL = 0.10
#: without a core count, the jobs' summed CPU (each kept run's share × its jobs) must stay below this many CPUs for
#: "far from a limit": every host has one, and beyond it a per-job share below a quarter says nothing of the host's
#: headroom (set after round 21's fixes were reviewed — the review read oberstet 16nvme individual, 2048 threads
#: at 6.6 % = 135 CPUs; the review's own rule, one CPU)
FAR_TOGETHER = 1.0


def _cpu(cf):
    f = cf.cpu
    if f is None:
        return None
    share = np.asarray(f.facts.get("share") or [], float)
    per_io = np.asarray(f.facts.get("cpu_s_per_io") or [], float)
    p = cf.points
    if share.size != len(p) or per_io.size != len(p) or not len(p):
        return None
    return f, p, share, per_io


def shared_level(result, cf) -> dict | None:
    """The numbers of :data:`VD <nvmemodel.fitting.cpu_limits>`'s reading, or None: along a jobs axis, the CPU fact's
    summed-CPU level (no core count to decide it), flat within :data:`SHARED_FLAT` from its first point, each job
    ≥ ``CPU_BOUND`` there, and the CPU per I/O at every later point ≥ :data:`SHARED_COST_RISE` above the first's."""
    from .facts import CPU_BOUND

    got = _cpu(cf)
    if got is None or result.x not in ("numjobs", "jobs", "threads"):
        return None
    f, p, share, per_io = got
    s = f.facts
    if s.get("cpu_bound") is not None or s.get("level_cpus") is None or s.get("spins") or s.get("polled"):
        return None
    xs = p["x"].to_numpy(float)
    at = np.flatnonzero(np.isclose(xs, float(s["level_from_x"])))
    if not at.size or "cpus" not in p or "jobs" not in p:
        return None
    k = int(at[0])
    cpus, jobs, iops = (p[c].to_numpy(float)[k:] for c in ("cpus", "jobs", "iops"))
    c = per_io[k:]
    if cpus.size < 3 or not (np.isfinite(cpus).all() and np.isfinite(c).all() and (c > 0).all()):
        return None
    mean = float(cpus.mean())
    if not (np.all(np.abs(cpus / mean - 1) <= SHARED_FLAT) and share[k] >= CPU_BOUND and np.all(np.diff(jobs) > 0)):
        return None
    if not np.all(c[1:] >= (1 + SHARED_COST_RISE) * c[0]) or not np.all(iops[1:] < iops[0]):
        return None
    return {"k": k, "x": xs[k:].tolist(), "cpus": cpus.tolist(), "level": mean, "share_first": float(share[k]),
            "share_last": float(share[-1]), "cost_first": float(c[0]), "cost_lo": float(c[1:].min()),
            "cost_hi": float(c[1:].max()), "iops_first": float(iops[0]), "iops_lo": float(iops[1:].min()),
            "iops_hi": float(iops[1:].max()), "whole": int(round(mean))}


def shared_words(result, cf) -> str:
    """The CPU sentence of :func:`shared_level` ("" where it does not apply)."""
    from .claim import _xv
    from .wording import cpus_words, fmt_y, span

    h = shared_level(result, cf)
    if h is None:
        return ""
    x, xs = result.x, h["x"]
    lo, hi = f"{min(h['cpus']):.3g}", f"{max(h['cpus']):.3g}"
    rise = f"+{h['cost_lo'] / h['cost_first'] - 1:.0%} to +{h['cost_hi'] / h['cost_first'] - 1:.0%}"
    whole = f"about {cpus_words(str(h['whole']))}" if abs(h["level"] - h["whole"]) <= 0.1 * h["whole"] else \
        "fewer than a whole number of CPUs: some other load shared them"
    return (f"fio's CPU accounting: from {x} = {_xv(result, xs[0])} on the jobs together used a level "
            f"{cpus_words(span(lo, hi))} (usr+sys) however many were added, "
            f"each job {h['share_first']:.0%} of one CPU at {x} = {_xv(result, xs[0])} and "
            f"{h['share_last']:.0%} at {_xv(result, xs[-1])}, while the CPU per I/O rose from "
            f"{fmt_y(h['cost_first'], 's')} to {span(fmt_y(h['cost_lo'], 's'), fmt_y(h['cost_hi'], 's'))} ({rise}) as "
            f"the rate fell from {fmt_y(h['iops_first'], '1/s')} to "
            f"{span(fmt_y(h['iops_lo'], '1/s'), fmt_y(h['iops_hi'], '1/s'))}: a rate held by something else at a "
            f"fixed CPU cost per I/O would have kept its cost. The jobs shared one CPU budget, busy where it was "
            f"reached: the plateau is CPU-bound, at the CPUs this host gave fio ({whole}; the host's core count — "
            f"--host or a topology — would confirm it).")


def busy_throughout(result, cf) -> dict | None:
    """``{"lo", "hi", "jobs"}``: the share of one CPU each job used, where at every point of the curve each job used
    ``CPU_BOUND`` of one CPU or more at one job count, no point polled or spun and the engine does I/O; else None."""
    from .facts import CPU_BOUND

    got = _cpu(cf)
    if got is None:
        return None
    f, p, share, per_io = got
    s = f.facts
    if s.get("engine") in ("null", "cpuio") or s.get("polled") or s.get("spins") or any(s.get("spinning") or ()):
        return None
    jobs = p["jobs"].to_numpy(float) if "jobs" in p else np.full(len(p), np.nan)
    if len(p) < 2 or not (np.isfinite(share).all() and np.isfinite(jobs).all() and np.unique(jobs).size == 1):
        return None
    if not (share.min() >= CPU_BOUND and np.isfinite(per_io).all() and (per_io > 0).all()):
        return None
    return {"lo": float(share.min()), "hi": float(share.max()), "jobs": float(jobs[0])}


def busy_rise_end(result, cf, r: dict) -> str:
    """The end of a "still rises at the largest x" sentence (``r``: its from/to points) where :func:`busy_throughout`
    holds and the CPU cost (per byte along block size, per I/O elsewhere) fell over that last rise: the rise is the
    cost's, and the series is CPU-limited at every point — "" otherwise (the caller keeps "the data do not reach a
    ceiling")."""
    from .wording import fmt_y, span

    b = busy_throughout(result, cf)
    if b is None:
        return ""
    _, p, _, per_io = _cpu(cf)
    xs = p["x"].to_numpy(float)
    ii = np.flatnonzero(np.isclose(xs, float(r.get("x_from", np.nan))))
    jj = np.flatnonzero(np.isclose(xs, float(r.get("x_to", np.nan))))
    if not (ii.size and jj.size):
        return ""
    i, j = int(ii[0]), int(jj[0])
    bs = result.x == "block_size_bytes"
    if bs:
        c0, c1, unit = per_io[i] / xs[i], per_io[j] / xs[j], "byte"
        cw = (f"{fmt_y(per_io[i], 's')} → {fmt_y(per_io[j], 's')} of CPU per I/O, ×{per_io[j] / per_io[i]:.3g} for "
              f"×{xs[j] / xs[i]:.3g} the bytes")
    else:
        c0, c1, unit = per_io[i], per_io[j], "I/O"
        cw = f"{fmt_y(c0, 's')} → {fmt_y(c1, 's')} of CPU per I/O"
    if not c1 < c0:
        return ""
    who = "the job" if b["jobs"] <= 1 else "each job"
    pct = span(f"{100 * b['lo']:.0f}", f"{100 * b['hi']:.0f}")
    return (f"; {who} used {pct} % of one CPU at every {result.x} (usr+sys): each rate is what that CPU sustained at "
            f"the point's own cost, and this rise is a lower CPU cost per {unit} ({cw}), not room below a ceiling "
            f"still ahead — the series is CPU-limited throughout.")


def busy_sustains(result, cf) -> str:
    """Along block size where :func:`busy_throughout` holds: the rate one CPU sustains at each size's cost (1 ÷ CPU
    per I/O, in bytes per second), "" otherwise. Whatever other threads did (a loop device's worker, read-ahead),
    the job's own thread was at its limit, so this is what that thread's CPU allowed."""
    from .claim import _xv
    from .wording import fmt_y

    b = busy_throughout(result, cf)
    if b is None or result.x != "block_size_bytes":
        return ""
    _, p, _, per_io = _cpu(cf)
    xs = p["x"].to_numpy(float)
    each = ", ".join(f"{_xv(result, v)} {fmt_y(v / c, 'B/s')}" for v, c in zip(xs, per_io))
    who = "the job" if b["jobs"] <= 1 else "each job"
    return (f"but {who} used ≥ 90 % of one CPU at every size, so its own thread was at its limit whatever other "
            f"threads did: one CPU sustains at each size's cost {each}")


def far_from_limit(cf, result=None, cores: int | None = None) -> float | None:
    """The largest share of one CPU any job used in any kept run of any point (a point of one run: its share), where
    every one is known and below :data:`FAR_SHARE` of what a job could get — one CPU, or the host's ``cores`` ÷ the
    point's jobs where the jobs outnumber them — and the shares moved with the load (not all within
    :data:`SHARE_LEVEL` of their median: a share held at one level is what a CPU quota or a host's other load gives,
    ``cpu_total``); None otherwise.

    Each kept run (``facts.point_cpu_runs``: the stalled ones left out) is tested, not a point's mean or median: a
    point whose mean is 23.6 % may hold runs at 29 and 32 % (set after round 21's fixes were reviewed:
    r14_here-ra … seqread_bs, r15_here-newfio … iouring-nonvectored, r2_here_loop_iouring_libaio — "below a quarter
    … at most 25 %" with runs at 29–35 %; r2_here_loop_iodepth_64k, "at most 8.7 %", a mean, beside the maximum's
    median 8.9 %). A repeated point whose runs cannot be read from the table gives no verdict (its runs are not
    known). Without ``cores`` the jobs together must stay below :data:`FAR_TOGETHER` CPUs: a host has at least that
    many, and a per-job share says nothing of headroom once the jobs together use more (set after the same review:
    oberstet 16nvme individual, 2048 threads at 6.6 % each = 135 CPUs of 176, each at 77 % of the 8.6 % a thread
    could get)."""
    got = _cpu(cf)
    if got is None:
        return None
    _, p, share, _ = got
    if not (np.isfinite(share).all() and share.size >= 2):
        return None
    if np.all(np.abs(share / np.median(share) - 1) <= SHARE_LEVEL):
        return None  # one level at every point: a cap (quota, busy host) may have set it, not the job's need
    jobs = p["jobs"].to_numpy(float) if "jobs" in p else np.full(len(p), np.nan)
    if not (np.isfinite(jobs).all() and (jobs > 0).all()):
        return None
    top = share.copy()
    reps = p["n_runs"].to_numpy(float) if "n_runs" in p else np.ones(len(p))
    if (reps >= 2).any():
        from .facts import point_cpu_runs

        for k in np.flatnonzero(reps >= 2):
            runs = point_cpu_runs(result, p, int(k)) if result is not None else None
            if runs is None:
                return None  # the runs of a repeated point are not known: no run can be said below the bar
            top[k] = max(top[k], float(np.max(runs["share"])))
    bound = np.minimum(1.0, float(cores) / jobs) if cores else np.ones_like(jobs)
    if not np.all(top < FAR_SHARE * bound):
        return None
    if not cores and np.any(top * jobs >= FAR_TOGETHER):
        return None  # the jobs together used a whole CPU or more: whether that is the host's limit needs its count
    return float(top.max())


def far_words(v: float) -> str:
    """A share below :data:`FAR_SHARE` as a percentage that does not round to the bar (24.8 %, not "25%" beside
    "below a quarter")."""
    from .claim import _pct

    t = _pct(v)  # the share's usual form (7.9 %, 17%), more decimals only where it would read as the bar
    if float(t.rstrip(" %")) < 100 * FAR_SHARE:
        return t
    for nd in (1, 2, 3):
        t = f"{100 * v:.{nd}f}"
        if float(t) < 100 * FAR_SHARE:
            return f"{t} %"
    return f"{100 * v:.4f} %"
