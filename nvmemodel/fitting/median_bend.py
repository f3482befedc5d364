"""Shrinking gains read on the medians of the kept runs as well as on the means: where every gain per doubling is
below the one before by more than :data:`~nvmemodel.fitting.steps.GAIN_STEP` by both statistics, over ≥ 3 steps, the
curve bends whatever one point's run spread (the noise test of ``steps.bends`` refuses a shrink that one wide point
blurs).

Set after round 28 was read (``_blind_rounds/round28_hand_read_part4.md`` MG: r28_here-vdanumjobs … numjobs_repeats,
means +88, +53, +40, +20 % and medians +80, +61, +36, +17 % per doubling told "the gains alone do not show an approach"
because of the 4-job point's one low run). Gains that fall and rise again (r28 vdafsync +46, +24, +40 %) never bend.
"""
from __future__ import annotations

import numpy as np

from .steps import GAIN_STEP, doubling_gains

#: the fewest steps whose gains must each fall (set after round 28 was read: MG — two falls in a row at least)
MIN_STEPS = 3


def median_bend(x, means, medians, reps) -> dict | None:
    """Every point with ≥ 2 runs, ≥ :data:`MIN_STEPS` steps, and every step's gain per doubling below the one before by
    more than :data:`GAIN_STEP` on the means and on the medians: ``{"gains": means' gains, "medians": medians' gains,
    "from_index": 0, "by": "medians"}``, or None."""
    x, ym, yl, r = (np.asarray(v, float) for v in (x, means, medians, reps))
    if x.size < MIN_STEPS + 1 or not (np.isfinite(r).all() and (r >= 2).all()):
        return None
    gm, gl = doubling_gains(x, ym), doubling_gains(x, yl)
    if not (np.isfinite(gm).all() and np.isfinite(gl).all()):
        return None
    if not (np.all(-np.diff(gm) > GAIN_STEP) and np.all(-np.diff(gl) > GAIN_STEP)):
        return None
    return {"gains": [float(v) for v in gm], "medians": [float(v) for v in gl], "from_index": 0, "by": "medians"}
