"""A first step along a load axis that gains more than the load: at the lightest load each I/O took longer than at the
next one — a cost per I/O that more I/O in flight hides or shortens (completion handling on the host, a device or
path leaving an idle state, a disk reordering a deeper queue) (issue 28: "a QD1 latency above the per-I/O latency at QD 8 is the classic
host-side per-I/O cost"; set after round 28 was read: r28_vspherediskspd 64k-by-vm, LE: "+145 % (1 → 2)" with
0.159 ms reads at OIO 1 against 0.129 ms at 2, unremarked). Said where the rate per unit of load rose by at least
``PAYS`` (10 %) and at most ``SUPERLINEAR_REL`` (25 %: above it the super-linear claim says the step, once), the mean
latency fell, and Little's law holds at both points (``LITTLE_TOL``); never on a paced series."""

from __future__ import annotations

import numpy as np

from .evidence import SUPERLINEAR_REL
from .fact_base import PAYS
from .fact_words import _xv
from .load_time import LOAD_AXES, _paced
from .wording import fmt_y

#: Little's law (IOPS × mean latency ÷ outstanding I/O) within this of 1 at both points: each point's latency is the
#: time per I/O that set its rate (as the Little check reads "consistent"); else the latencies are not compared
LITTLE_TOL = 0.1


def first_step_words(result, cf) -> str:
    """" The first step gained ×2.45 for ×2 the iodepth — more than the load: an I/O at iodepth = 1 took 159 µs on
    average, longer than at 2 (129 µs), …" (see the module for when); "" otherwise."""
    if cf is None or result.x.lower() not in LOAD_AXES or result.y_unit not in ("1/s", "B/s") or _paced(result):
        return ""
    p = cf.points.sort_values("x")
    if len(p) < 2 or "lat" not in p:
        return ""
    x, y, lat = (p[c].to_numpy(float)[:2] for c in ("x", "y", "lat"))
    if not (np.isfinite(x).all() and np.isfinite(y).all() and np.isfinite(lat).all()) or (x <= 0).any() or (y <= 0).any():
        return ""
    load, gain = x[1] / x[0], y[1] / y[0]
    if gain < load * (1 + PAYS) or lat[0] <= lat[1]:
        return ""  # within a pay's share of the load's ratio: no more than the load, as far as one step tells
    if gain > load * (1 + SUPERLINEAR_REL):
        return ""  # the super-linear claim's own domain: it says this step, with its hedge, once
    if "out" in p and "iops" in p:  # the latency must be the time per I/O that set the rate: Little's law holds
        out, iops = p["out"].to_numpy(float)[:2], p["iops"].to_numpy(float)[:2]
        little = iops * lat / out
        if not (np.isfinite(little).all() and (np.abs(little - 1) <= LITTLE_TOL).all()):
            return ""
    return (f" The first step gained ×{gain:.3g} for ×{load:.3g} the {result.x} — more than the load: an I/O at "
            f"{result.x} = {_xv(result, x[0])} took {fmt_y(lat[0], 's')} on average, longer than at "
            f"{_xv(result, x[1])} ({fmt_y(lat[1], 's')}): a cost per I/O that more I/O in flight hides or shortens "
            f"(completion handling on the host, a device or path leaving an idle state, a disk reordering a deeper "
            f"queue); these files do not say which.")
