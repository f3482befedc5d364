"""Along block size with one run a point: a fall of bytes/s as the size grows, read from the size of the steps.

Under a cap on requests (IOPS) bytes/s grow with the size; under a byte cap they hold. Neither lets bytes/s fall as
the size grows, so one step down by more than ONE_RUN_STEP (beyond what one run's scatter gives a step) is a change
of regime whatever the points' noise — read from the steps as the load axes read one-run series, not "cannot tell a
plateau from noise". Set after round 32 was read (UC:
r32_optanestudy8_optane-dcpmm-6x-interleaved_lattester-randread_access-size, 34.5–35.0 GB/s at 256–512 B, −51 % at
1 KiB, then back to 32.5 GB/s at 16 KiB, said only as "they cannot tell a plateau from noise").
"""

from __future__ import annotations

import numpy as np

from .fact_base import FLAT
from .size_dip import ONE_RUN_STEP


def regime_fall(x, y) -> dict | None:
    """The largest step-to-step fall of bytes/s ``y`` along sizes ``x`` (one value a size) where it exceeds
    ONE_RUN_STEP, with the level before it (the sizes just below the fall within FLAT of its top) and what follows;
    None where no step falls that far or the sizes are fewer than 3."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    order = np.argsort(x)
    x, y = x[order], y[order]
    if x.size < 3 or np.unique(x).size != x.size or not (np.isfinite(y).all() and (y > 0).all()):
        return None
    steps = y[1:] / y[:-1] - 1
    k = int(np.argmin(steps))
    if steps[k] >= -ONE_RUN_STEP:
        return None
    j = k  # the level the fall leaves: the sizes up to k within FLAT of one another
    while j > 0 and y[j - 1: k + 1].max() / y[j - 1: k + 1].min() <= 1 + FLAT:
        j -= 1
    after = y[k + 1:]
    return {"x_peak": float(x[k]), "y_peak": float(y[k]), "x_level": float(x[j]), "level": (float(y[j: k + 1].min()),
            float(y[j: k + 1].max())), "x0": float(x[0]), "y0": float(y[0]), "fall": float(steps[k]),
            "x_fall": float(x[k + 1]), "y_fall": float(y[k + 1]), "x_last": float(x[-1]), "y_last": float(y[-1]),
            "recovers": bool(after.size > 1 and after[-1] > (1 + FLAT) * after[0]), "top": float(y.max()),
            "x_top": float(x[int(np.argmax(y))])}


def regime_fall_words(result, what: str, d: dict) -> str:
    from .claim import _xv, fmt_y, span

    u = "B/s"
    lvl = (f", {span(fmt_y(d['level'][0], u), fmt_y(d['level'][1], u))} from {_xv(result, d['x_level'])} to "
           f"{_xv(result, d['x_peak'])} (within {FLAT:.0%} of one another)" if d["x_level"] < d["x_peak"] else "")
    back = (f", and climbs back to {fmt_y(d['y_last'], u)} at {_xv(result, d['x_last'])}, "
            f"{1 - d['y_last'] / d['y_peak']:.0%} under {fmt_y(d['y_peak'], u)}" if d["recovers"] else "")
    head = (f"rises from {fmt_y(d['y0'], u)} at {_xv(result, d['x0'])} to " if d["x0"] < d["x_peak"] else "is ")
    return (f"Measured {what} {head}{fmt_y(d['y_peak'], u)} at {_xv(result, d['x_peak'])}{lvl}, then drops {-d['fall']:.0%} in one step to {fmt_y(d['y_fall'], u)} "
            f"at {_xv(result, d['x_fall'])}{back}. One run a size, but that step is more than the ±{ONE_RUN_STEP:.0%} "
            f"one run's scatter gives a step, and neither a cap on requests nor one on bytes lets bytes/s fall as the "
            f"size grows: something else sets the larger sizes (the files do not show what).")
