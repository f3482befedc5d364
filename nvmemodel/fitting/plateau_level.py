"""The level a plateau holds and what follows it: a robust level over disturbed runs, the spread of repeats, the level
after a fall, and a stall of the I/O in flight.
"""

from __future__ import annotations

import numpy as np

from .fact_base import FLAT, LEVEL_STEP
from .point_runs import DISTURBED, _kept, _run_values


def _robust_level(result, p, level) -> dict | None:
    """A level's runs with those far below the level's other runs left out (more than :data:`DISTURBED` below both
    the median of every run on the level and a run of its own point): a run the host slowed is not where the level is (round 7, part 2 CA, read before this rule:
    r7_here_blkio_riops_iodepth_low1_repeats, 16 of 18 runs at 5.99–6.19 K IOPS and two at 3.6 K, said as a
    "plateau 5.76 K" that no run sat at). None where no run is left out, more than a quarter would be, the runs
    kept spread beyond ±FLAT (r2 loop io_uring: 60–150 K, scatter not a level) or the runs are not in the table."""
    runs = [_run_values(result, p, int(i)) for i in level]
    if not all(v.size for v in runs):
        return None
    med = float(np.median(np.concatenate(runs)))  # (a level is one rate: its runs' median, not a point's)
    bar = (1 - DISTURBED) * med
    kept, left = [], []
    for i, v in zip(level, runs):
        low = (v < bar) & (v < (1 - DISTURBED) * v.max())  # and below a run of its own point: not a point that dips
        kept.append(v[~low])
        left += [(float(p["x"].iloc[int(i)]), float(r)) for r in v[low]]
    v = np.concatenate(kept)
    if not left or 4 * len(left) > v.size + len(left) or v.max() - v.min() > 2 * FLAT * v.mean():
        return None  # a few runs apart from a tight rest (within ±FLAT), not runs that scatter anyway (blind2)
    return {"value": float(v.mean()), "lo": float(v.min()), "hi": float(v.max()), "kept": int(v.size),
            "runs": int(v.size) + len(left), "left": left, "median": med}


def repeat_spread(result, p) -> dict | None:
    """Repeats whose spread at a point exceeds every step between the points' levels (their kept runs' medians) — a
    point whose kept runs differ by more than ×2 (or whose sd is over half its level) while their sd is larger than the
    largest step: the onset, plateau and fall are then the runs' scatter (round 5, read before this rule: a posixaio loop sweep, 2.7–28.3 K at
    one iodepth, and ext4 fsync runs of 0.25–29.5 K at one numjobs). ``ratio``: the largest max ÷ min of one point's
    runs where the table gives them (NaN otherwise), ``cv`` the largest sd ÷ mean, at ``x``."""
    y, sd, reps = p["y"].to_numpy(float), p["y_std"].to_numpy(float), p["n_runs"].to_numpy(float)
    runs = [_kept(p, j) for j in range(y.size)]  # the kept runs (stalled ones out) where the table tells them apart
    sd = np.array([np.std(r, ddof=1) if r.size >= 2 else (0.0 if r.size else s) for r, s in zip(runs, sd)])
    if y.size < 2 or not (np.isfinite(reps).all() and (reps >= 2).all() and np.isfinite(sd).all()):
        return None
    ratio = np.array([r.max() / r.min() if r.size >= 2 else np.nan for r in runs])
    cv = sd / y
    wide = (cv > 0.5) | (ratio > 2)
    if not wide.any() or sd.max() <= np.abs(np.diff(y)).max():
        return None
    i = int(np.nanargmax(np.where(np.isfinite(ratio), ratio, 0.0))) if np.isfinite(ratio).any() else int(np.argmax(cv))
    # silence only what the noise hides (round 6 BE: ×9 at QD4, yet every QD32 run above every QD1–2 run): where the
    # runs of two points do not overlap, the step between them is readable, and the onset is read on the runs
    lo = np.array([r.min() if r.size else np.nan for r in runs])
    hi = np.array([r.max() if r.size else np.nan for r in runs])
    # each pair as (lower, higher): the words say "every run at b above every run at a", so a fall is told in its
    # own direction (round 14 SA, read before this rule: r14_here-nrreq_loop-nrreq4 128k iodepth, "every run at 32
    # above every run at 2" where every QD32 run, 0.59–3.39 GB/s, lay below every QD2 run, 4.03–4.17 GB/s)
    apart = [(a, b) if lo[b] > hi[a] else (b, a)
             for a in range(y.size) for b in range(a + 1, y.size) if lo[b] > hi[a] or lo[a] > hi[b]]
    if np.isfinite(lo).all() and apart:
        a, b = max(apart, key=lambda ab: lo[ab[1]] / hi[ab[0]])
        return {"readable": True, "ratio": float(ratio[i]), "x": float(p["x"].to_numpy(float)[i]),
                "runs_lo": lo.tolist(), "runs_hi": hi.tolist(), "apart": (a, b)}
    return {"ratio": float(ratio[i]), "cv": float(cv.max()), "x": float(p["x"].to_numpy(float)[i]),
            "runs_lo": float(runs[i].min()) if np.isfinite(ratio[i]) else None,
            "runs_hi": float(runs[i].max()) if np.isfinite(ratio[i]) else None}


def _trim_lead(y, idx: np.ndarray) -> np.ndarray:
    """``idx`` without its leading points that lie off the rest (≥ 2 kept) by more than :data:`LEVEL_STEP` and
    twice the rest's own spread (max ÷ min − 1)."""
    while idx.size > 2 + (idx.size > 3):  # (a three-point stretch stays whole: two points are no level's spread)
        rest = y[idx[1:]]
        if abs(y[idx[0]] / rest.mean() - 1) <= max(LEVEL_STEP, 2 * (rest.max() / rest.min() - 1)):
            break
        idx = idx[1:]
    return idx


def _level_after(x, y, reps, i_max: int) -> dict | None:
    """One run a point, every point after the maximum (≥ 3) within ±FLAT of their mean: the "fall" is the one step
    after a single high point, then a level — not a decline along the load (blind3 class Q: 97 K at QD4, then 81–89 K
    from QD8 to 1024, said as "falls 17 % to 81.03 K at iodepth = 1024")."""
    after = np.arange(i_max + 1, y.size)
    if after.size < 3 or (np.isfinite(reps[i_max]) and reps[i_max] >= 2):
        return None
    mean = float(y[after].mean())
    if not np.all(np.abs(y[after] / mean - 1) <= FLAT):
        return None
    # the maximum is one spike only where the point before it is not at its level too; otherwise two levels and the
    # step between them (round 5, read before this rule: 327 K and 336 K at QD4–8, then 116–139 K over QD16–64)
    high = i_max
    while high > 0 and abs(y[high - 1] / y[i_max] - 1) <= FLAT:
        high -= 1
    # "one higher point" only where the maximum is the only point above the later level: a point before it that also
    # lies above that level (beyond its ±FLAT and its highest point) makes a rise to a limit, then a fall — said as
    # the fall (set after round 15 was read: TB, r15_spdk-iopacing kernel-initiator qd, 20.5 and 23.1 GB/s at QD2–4,
    # then 13.0–13.4 GB/s at QD8–32, said as "after one higher point")
    if high == i_max and i_max > 0 and y[i_max - 1] > max(float(y[after].max()), (1 + FLAT) * mean):
        return None
    # each level is read from its own points: a point on the way into a level (the last on the rise, the first on the
    # way down) lies off the rest by more than LEVEL_STEP and twice their own spread, and is left to lie between the
    # levels — never judged against steps that include the rise (set after round 10 was read: JB, r10_icpe24sched bfq
    # numjobs, 309–315 K at 3–5 jobs and 270–277 K at 7–15 with 294 K at 2 and 301 K at 6, said as one "plateau")
    if high < i_max:
        after, high = _trim_lead(y, after), int(_trim_lead(y, np.arange(high, i_max + 1))[0])
        mean = float(y[after].mean())
    if high < i_max and y[after].max() >= y[high:i_max + 1].min():
        return {"one_level": True}  # the maximum is not isolated and the two stretches overlap: one level, no fall
    into = abs(y[after[0]] / y[i_max] - 1)  # the step that is to stand out as "that one step"
    if np.abs(np.diff(y[after]) / y[after][:-1]).max() > max(LEVEL_STEP, 2 / 3 * into):
        return None  # a "level" holding a step beyond a run's scatter and near the one step is steps (round 6 BA)
    # the later points drifting one way beyond the band are a further fall (or rise), not a level: said as such (set
    # after round 21 was read: WA, fall_shape.py)
    from .fall_shape import trend_after

    trend = trend_after(x, y, after)
    if high < i_max:  # two levels that do not overlap
        return {"trend": trend, "value": mean, "lo": float(y[after].min()), "hi": float(y[after].max()), "x_from": float(x[after[0]]),
                "x_to": float(x[-1]), "points": int(after.size), "high": float(y[high:i_max + 1].mean()),
                "high_lo": float(y[high:i_max + 1].min()), "high_from": float(x[high]), "high_points": i_max + 1 - high}
    return {"value": mean, "lo": float(y[after].min()), "hi": float(y[after].max()), "x_from": float(x[after[0]]),
            "x_to": float(x[-1]), "points": int(after.size), "trend": trend}


def _in_flight_stall(p, k: int) -> dict | None:
    """Where the I/O in flight stopped growing with the load (Little's law, N = X · R from the measured IOPS and fio's
    mean latency): from the first plateau point on which, over ≥ 3 points and ≥ ×4 the outstanding I/O asked for, N
    stays within ±FLAT of its mean and ends below half of what was asked. The load axis then stopped being a load
    there — no serial fraction or contention is read from the level (blind4 class Z: ~17 in flight at QD 16–64 under
    posixaio, read as "Amdahl's σ … limits throughput … however far iodepth grows")."""
    iops, lat, out, x = (p[c].to_numpy(float) for c in ("iops", "lat", "out", "x"))
    if not (np.isfinite(iops[k:]).all() and np.isfinite(lat[k:]).all() and np.isfinite(out[k:]).all()):
        return None
    n_eff = iops * lat
    for j in range(k, len(x) - 2):
        seg = n_eff[j:]
        mid = float(seg.mean())
        if out[-1] / out[j] >= 4 and np.all(np.abs(seg / mid - 1) <= FLAT) and n_eff[-1] <= 0.5 * out[-1]:
            return {"x_from": float(x[j]), "in_flight": mid, "lo": float(seg.min()), "hi": float(seg.max()),
                    "asked_from": float(out[j]), "asked_to": float(out[-1]), "x_to": float(x[-1])}
    return None
