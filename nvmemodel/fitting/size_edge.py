"""The edge of a byte level along block size: the sizes just below a flat stretch that belong to it.

A flat stretch is read from the largest size down while every size lies within FLAT of the others. One size a hair
outside that band breaks the run, and the sizes before it — some of them inside the very range the level is stated
with — would read as "below the level" (round 28 KA: r28_cbtjake_…_randread-peak-over-qd_bs, 384 KiB 1.3 % under the
11.44–12.57 GB/s band broke the level at 512 KiB, and 256 KiB at 11.49 GB/s, inside it, was called below it). A size
whose value lies within :data:`EDGE` under the band's bottom (and not above its top) is read within that level: the
stretch reaches back over it to the first size that is really below.
"""

from __future__ import annotations

import numpy as np

__all__ = ["EDGE", "level_edge"]

#: how far under the bottom of a flat stretch's own band a size before it may lie and still belong to that level: the
#: 2 % the cap facts already allow a cap below the largest measurement (set after round 28 was read: KA, 384 KiB and
#: 128 KiB 1.3 % and 0.8 % under the band of 512 KiB–4 MiB; r25 helios4's SSD 64 KiB, 9.4 % under, stays below it)
EDGE = 0.02


def level_edge(bw: np.ndarray, m: int, floor: int = 0) -> tuple[int, list[int]]:
    """The flat stretch ``bw[m:]`` reached back over the sizes before it that lie within its band or :data:`EDGE`
    under its bottom (never above its top, never before index ``floor``): (the stretch's new point count, the indices
    of the added sizes that lie under the band's bottom)."""
    bw = np.asarray(bw, float)
    n = bw.size
    seg = bw[m:]
    if m <= floor or not np.isfinite(seg).all() or seg.size < 3:
        return n - m, []
    lo, hi = float(seg.min()), float(seg.max())
    k, edge = m - 1, []
    while k >= floor and np.isfinite(bw[k]) and (1 - EDGE) * lo <= bw[k] <= hi:
        if bw[k] < lo:
            edge.append(k)
        k -= 1
    return n - (k + 1), sorted(edge)
