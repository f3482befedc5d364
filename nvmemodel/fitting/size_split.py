"""Along block size, a byte level pooled across a step: the points the plateau test joined (their runs' pooled spread,
widened by a disturbed run or two, hides a step) split where one size's median lies a step off the next's and outside
the tighter of the two points' kept runs. The level is then read from the kept runs' medians of the sizes after the
last such step, and every point is quoted by that one statistic.

Set after round 27 was read (IE: r27_here-vdabs_vda-ext4-1gfile_libaio-direct-qd16_randread_bs_repeats, "flattens at
1.67 GB/s … over 64 KiB–1 MiB", where 64 KiB sat at 1.48–1.51 GB/s and 256 KiB / 1 MiB at medians 1.86 / 2.01 GB/s,
and the 1 MiB point was 1.89 GB/s (its mean) in one sentence and 2.01 GB/s (its median) in the next). Counter-cases: a
flat top whose sizes' runs overlap; one run a size (no runs to read a scatter from); IOPS levels (a cap in I/Os, read
elsewhere).
"""
from __future__ import annotations

import numpy as np

__all__ = ["SPLIT_STEP", "split_level"]

#: adjacent sizes' medians this far apart (relative to the lower) split a byte level: a step a level may not hold
#: (facts.LEVEL_STEP). Set after round 27 was read (IE: 1.50 → 1.86 GB/s, +24 %, runs ±1 % at 64 KiB).
SPLIT_STEP = 0.10


def split_level(cf, plateau: dict) -> dict | None:
    """``{"level": [{x, median, lo, hi, runs}, …], "below": [{…}, …], "step": (x_a, x_b, change)}`` where, among the
    plateau's points (``x_from``–``x_to``, every one with ≥ 2 kept runs), a step between adjacent medians is at least
    :data:`SPLIT_STEP` and beyond the tighter point's kept-run range (its ``hi − lo``), the sizes after the last such
    step (≥ 2) within SPLIT_STEP of one another being the level; None otherwise."""
    from .point_runs import point_levels

    p = cf.points
    if p is None or not len(p) or "runs_kept" not in p:
        return None
    lv = [d for d in point_levels(None, p) if plateau["x_from"] <= d["x"] <= plateau["x_to"]]
    if len(lv) < 3 or any(d["runs"] < 2 or d["split"] for d in lv):
        return None
    cut = None
    for i in range(1, len(lv)):
        a, b = lv[i - 1], lv[i]
        step = b["median"] / a["median"] - 1
        tight = min(a["hi"] - a["lo"], b["hi"] - b["lo"])
        if abs(step) >= SPLIT_STEP and abs(b["median"] - a["median"]) > tight:
            cut = i
    if cut is None or len(lv) - cut < 2:
        return None
    level = lv[cut:]
    med = np.array([d["median"] for d in level])
    if med.max() > (1 + SPLIT_STEP) * med.min():
        return None
    a, b = lv[cut - 1], lv[cut]
    keep = ("x", "median", "lo", "hi", "runs")
    return {"level": [{k: d[k] for k in keep} for d in level], "below": [{k: d[k] for k in keep} for d in lv[:cut]],
            "step": (a["x"], b["x"], float(b["median"] / a["median"] - 1))}


def split_level_words(result, sp: dict) -> str:
    """"Measured throughput levels at 1.86 GB/s to 2.01 GB/s (each size's median over its runs) over … = 256 KiB–1 MiB;
    below it, 64 KiB at 1.5 GB/s (runs …): a step of +24% …" — every point by its kept runs' median."""
    from .claim import _xv
    from .wording import fmt_y

    u, x = result.y_unit, result.x
    lev, below = sp["level"], sp["below"]
    a, b, ch = sp["step"]
    meds = [d["median"] for d in lev]
    lo, hi = fmt_y(min(meds), u), fmt_y(max(meds), u)
    rng = lo if lo == hi else f"{lo} to {hi}"
    under = "; ".join(f"{_xv(result, d['x'])} at {fmt_y(d['median'], u)} (runs {fmt_y(d['lo'], u)} to "
                      f"{fmt_y(d['hi'], u)})" for d in below)
    return (f"Measured {'throughput' if u == 'B/s' else result.y} levels at {rng} (each size's median over its runs) "
            f"over {x} = {_xv(result, lev[0]['x'])}–{_xv(result, lev[-1]['x'])}; below it, {under}: a step of "
            f"{ch:+.0%} from {_xv(result, a)} to {_xv(result, b)}, beyond the runs of the tighter of the two sizes, so "
            f"{_xv(result, a)} is not on that level.")
