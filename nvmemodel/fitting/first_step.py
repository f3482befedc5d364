"""A first step along a load axis that gains more than the load: at the lightest load each I/O took longer than at the
next one — time paid per I/O when few are in flight (on the host's side: a wake-up, an interrupt, a submission per
I/O) that the next load overlaps, not the device's time at load (issue 28: "a QD1 latency above the per-I/O latency at
QD 8 is the classic host-side per-I/O cost"; set after round 28 was read: r28_vspherediskspd 64k-by-vm, LE: "+145 %
(1 → 2)" with 0.159 ms reads at OIO 1 against 0.129 ms at 2, unremarked).
"""

from __future__ import annotations

import numpy as np

from .fact_words import _xv
from .load_time import LOAD_AXES, _paced
from .wording import fmt_y


def first_step_words(result, cf) -> str:
    """" The first step gained ×2.45 for ×2 the iodepth — more than the load: an I/O at iodepth = 1 took 159 µs on
    average, longer than at 2 (129 µs): …" where the first step along a load axis (no pacing) grew throughput by more
    than the load's ratio while the mean latency fell; "" otherwise."""
    if cf is None or result.x.lower() not in LOAD_AXES or result.y_unit not in ("1/s", "B/s") or _paced(result):
        return ""
    p = cf.points.sort_values("x")
    if len(p) < 2 or "lat" not in p:
        return ""
    x, y, lat = (p[c].to_numpy(float)[:2] for c in ("x", "y", "lat"))
    if not (np.isfinite(x).all() and np.isfinite(y).all() and np.isfinite(lat).all()) or (x <= 0).any() or (y <= 0).any():
        return ""
    load, gain = x[1] / x[0], y[1] / y[0]
    if gain <= load or lat[0] <= lat[1]:
        return ""
    return (f" The first step gained ×{gain:.3g} for ×{load:.3g} the {result.x} — more than the load: an I/O at "
            f"{result.x} = {_xv(result, x[0])} took {fmt_y(lat[0], 's')} on average, longer than at "
            f"{_xv(result, x[1])} ({fmt_y(lat[1], 's')}), time paid per I/O when only that many are in flight (a "
            f"wake-up per completion on the host, or a path or device leaving an idle state between I/Os), which the "
            f"next load overlaps.")
