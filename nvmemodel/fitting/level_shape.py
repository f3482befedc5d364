"""A level stretch (read within ±10 % as one level) that peaks inside it with steps beyond the runs on both sides: a
rise to the peak and a fall after it, each with every run of one size beyond every run of the other. "Flat" there
contradicts the falls sentence over the same sizes; the level sentence says the shape instead (set after round 31 was
read: TC, r31_here-tmpfsbs_tmpfs-256mfile_psync-buffered_seqread_bs_repeats, "flat at 5.31–5.71 GB/s from 64 KiB to
1 MiB" beside "peaks at 5.72 GB/s at 256 KiB and falls 7% … more than the repeat noise"). Counter-cases: steps inside
the runs' scatter (r30 otrbs 128–256 KiB), a level within ±1–2 % (r30 ldseq), a one-way creep (level_creep.py).
"""

from __future__ import annotations

import numpy as np

from .fact_base import LEVEL_STEP

__all__ = ["peaked", "shape_words"]


def peaked(x, level, lo, hi, runs) -> dict | None:
    """``{"x": (first, peak, last), "rise", "fall"}`` where the stretch's highest median lies inside it, every size has
    ≥ 2 kept runs, every run at the peak lies above every run at the first and at the last size, and the rise or the
    fall is at least ``LEVEL_STEP``; None otherwise."""
    x, level, lo, hi, runs = (np.asarray(v, float) for v in (x, level, lo, hi, runs))
    if x.size < 3 or np.any(runs < 2) or not (np.isfinite(level).all() and np.isfinite(lo).all() and np.all(lo > 0)):
        return None
    k = int(np.argmax(level))
    if k in (0, x.size - 1):
        return None
    rise, fall = float(level[k] / level[0]) - 1, 1 - float(level[-1] / level[k])
    if not (lo[k] > hi[0] and lo[k] > hi[-1]) or max(rise, fall) < LEVEL_STEP:
        return None
    return {"x": (float(x[0]), float(x[k]), float(x[-1])), "rise": rise, "fall": fall,
            "peak": float(level[k])}


def shape_words(result, d: dict | None) -> str:
    """", rising 4% to its peak at 256 KiB, then 7% lower at 1 MiB (each step beyond the runs: every run at the peak
    above every run at either end)" — or ""."""
    from .fact_words import _xv

    if not d:
        return ""
    a, k, z = d["x"]
    return (f": rising {d['rise']:.0%} to its peak at {_xv(result, k)}, then {d['fall']:.0%} lower at {_xv(result, z)}, "
            f"each beyond the runs (every run at {_xv(result, k)} above every run at {_xv(result, a)} and at "
            f"{_xv(result, z)})")
