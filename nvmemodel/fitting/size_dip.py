"""A dip at one size along block size: one point well below the size before it, the next size back (round 32 VB).

Along block size bytes/s do not fall as the size grows under an IOPS cap or a byte cap; with one run a point, a step
of more than ONE_RUN_STEP down whose next size is back within FLAT of the size before it (or above it) is one
size's drop — a single run, or a cost of that size, the files do not show which — and not a rise into a level. Set
after round 32 was read (VB: r32_bian-perc-hdd_psync-direct-1job_seqwrite_bs, 104.9 → 77.3 → 98.4 MB/s at 1, 4,
16 MiB hidden in "below the level at the 7 sizes from 4 KiB to 16 MiB"; the seqread sweep's −40 % at 4 MiB said as
"no higher").
"""

from __future__ import annotations

import numpy as np

from .fact_base import FLAT

#: a fall between neighbouring sizes larger than this is beyond what one run's scatter gives a step (the ±25 % band
#: the one-run level rules read with, first_size; set after round 32 was read: VB, −26 % and −40 % at 4 MiB)
ONE_RUN_STEP = 0.25


def one_size_dips(b, bw, runs) -> list[dict]:
    """Each interior size k whose bytes/s fall by more than ONE_RUN_STEP from size k−1 and more than every other
    step-to-step fall, with size k+1 back to at least (1 − FLAT) of size k−1 — where sizes k−1, k and k+1 have one run
    each (with repeats the runs tell the noise; other rules speak)."""
    b, bw = np.asarray(b, float), np.asarray(bw, float)
    n = b.size
    if n < 4 or not (np.isfinite(bw).all() and (bw > 0).all()):
        return []
    steps = bw[1:] / bw[:-1] - 1
    out = []
    for k in range(1, n - 1):
        if any(runs[j] > 1 for j in (k - 1, k, k + 1)):
            continue
        fall = steps[k - 1]
        others = np.delete(steps, [k - 1, k])
        if fall < -ONE_RUN_STEP and (others.size == 0 or fall < others.min()) and bw[k + 1] >= (1 - FLAT) * bw[k - 1]:
            out.append({"x": float(b[k]), "before": (float(b[k - 1]), float(bw[k - 1])), "at": float(bw[k]),
                        "after": (float(b[k + 1]), float(bw[k + 1])), "fall": float(fall)})
    return out
