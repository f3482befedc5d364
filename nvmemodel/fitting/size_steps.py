"""Steps along block size where an I/O got cheaper: the time per I/O (1 ÷ IOPS) lower at a larger size.

The per-I/O + per-byte cost model, 1/IOPS = a + b·size with b ≥ 0, only lets an I/O's time grow with its size. Where a
larger size's 1 ÷ IOPS lies below a smaller one's by more than a level's ±band, no such cost describes that step (a
full-stripe write that skips a read-modify-write, a size the device merges or caches): it is said, not fitted away.

Set after round 21 was read (``_blind_rounds/round21_hand_read_part1.md``, VF: r21_raid6rmw_md-raid6-10hdd_randwrite-
8thr-rmw0_bs, 1 ÷ IOPS 28.4 … 34.0 ms to 256 KiB then 26.2 ms at 512 KiB, left to "structure" beside an IOPS ceiling
said "between the 38 IOPS measured and 39 IOPS" of a 36 IOPS fit; read before it was set: rmw0 and rmw1).
"""

from __future__ import annotations

import numpy as np

__all__ = ["CHEAPER", "cheaper_step", "cheaper_words"]

#: a larger size's 1 ÷ IOPS below the smaller neighbour's by more than this share is a cheaper I/O, not scatter: the
#: ±band a level is read within with one run a point (facts.FLAT, 10 %); set after round 21 was read (VF: rmw0's
#: −23 % step at 256 → 512 KiB; rmw1's −21 % at 256 → 512 KiB and its dips at 32–128 KiB)
CHEAPER = 0.10


def cheaper_step(x, iops) -> dict | None:
    """The step between neighbouring sizes (sorted by size) whose time per I/O (1 ÷ IOPS) fell most, where it fell by
    more than :data:`CHEAPER`: ``{x0, x1, t0, t1, fall}``; else None."""
    x, v = np.asarray(x, float), np.asarray(iops, float)
    o = np.argsort(x)
    x, v = x[o], v[o]
    ok = np.isfinite(v) & (v > 0) & np.isfinite(x)
    best = None
    for i in range(len(x) - 1):
        if not (ok[i] and ok[i + 1]) or x[i + 1] <= x[i]:
            continue
        t0, t1 = 1.0 / v[i], 1.0 / v[i + 1]
        fall = 1.0 - t1 / t0
        if fall > CHEAPER and (best is None or fall > best["fall"]):
            best = {"x0": float(x[i]), "x1": float(x[i + 1]), "t0": float(t0), "t1": float(t1), "fall": float(fall)}
    return best


def cheaper_words(x, iops) -> str:
    """" Each I/O took less time at 512 KiB than at 256 KiB (1 ÷ IOPS 26.2 ms against 34 ms, −23%): no cost that grows
    with the bytes gives that step." — or "" where no step fell by more than :data:`CHEAPER`."""
    from .wording import xv_bytes as _xv_b
    from .wording import fmt_y

    c = cheaper_step(x, iops)
    if c is None:
        return ""
    return (f" Each I/O took less time at {_xv_b(c['x1'])} than at {_xv_b(c['x0'])} (1 ÷ IOPS {fmt_y(c['t1'], 's')} "
            f"against {fmt_y(c['t0'], 's')}, {-c['fall']:+.0%}): no cost that grows with the bytes, as the per-I/O + "
            f"per-byte model's does, gives that step.")
