""""Still rises" judged over the last span of about a doubling of load, not over a last step shorter than one: where
the last step multiplies the load by less than :data:`SPAN`, its gain raised to a doubling says little (+3 % for ×1.23
is "+11 % per doubling"). Over the fewest last steps whose load ratio reaches :data:`SPAN`, a gain per doubling near the
10 % line while the time per I/O (fio's mean latency, or outstanding ÷ IOPS by Little's law) grew nearly with the load,
after gains per doubling several times larger, is an approach to saturation: the added load only waited.

Set after round 28 was read (``_blind_rounds/round28_hand_read_part1.md`` JF, r28_thejj_samsung-pm1643a … numjobs:
"still rises … +11 % per doubling (… +3 % for ×1.23 the numjobs) … the gains do not shrink", where the gains per
doubling fell from +40–95 % to 7 jobs to +10 % over 7 → 16 (×2.29) while each write's time doubled, 84 → 172 µs).
Series sampled in doublings or wider steps keep their last step's verdict (the last doubling is measured).

Pure numbers: the words are ``saturation_claims``'.
"""
from __future__ import annotations

import numpy as np

from .fact_base import PAYS
from .steps import doubling_gains

#: the last span read: the fewest last steps whose load ratio reaches this ("about a doubling"; set after round 28 was
#: read: JF)
SPAN = 1.8
#: over that span the time per I/O grew by at least this share of the load's ratio: nearly every added I/O waited
#: (a time per I/O ∝ load is a held rate; set after round 28 was read: JF, ×2.04 for ×2.29)
WAITED = 0.8
#: the span's gain per doubling at most this share of the median gain per doubling of the steps before it: the gains
#: fell to a lower level, not step by step (set after round 28 was read: JF, +10 % after +40–95 %)
SHRINK = 1 / 3
#: the span's gain per doubling under this: near the 10 % line (PAYS), its rounding, not a rise that still pays
#: (set after round 28 was read: JF, +10.0 % per doubling over the last ×2.29)
NEAR_LINE = 1.5 * PAYS


def measured_doubling(x, k: int) -> int | None:
    """The index of the first point after ``x[k]`` at about twice it (``SPAN ≤ x[d] ÷ x[k] ≤ 4 ÷ SPAN``: a measured
    doubling), where shorter steps lie before it; None otherwise. Over such a span the measured ``y(2x) ÷ y(x)`` decides
    whether the load still paid from ``x[k]``, not a shorter sub-step raised to a doubling (set after round 29 was read:
    ND, r29_pbbtrfs btrfs RAID-0 randread over 1–4 disks, onset told at 3 from "+13 % per doubling" = +7 % for ×1.5
    from 2, where the measured doubling 2 → 4 gained +7.9 %). The same yardstick as :func:`last_span`'s."""
    x = np.asarray(x, float)
    if not (0 <= k < x.size - 2) or not np.isfinite(x[k]) or x[k] <= 0 or x[k + 1] / x[k] >= SPAN:
        return None
    for d in range(k + 2, x.size):
        r = x[d] / x[k]
        if r >= SPAN:
            return d if r <= 4 / SPAN else None
    return None


def last_span(x, y, lat=None, out=None) -> dict | None:
    """The last span of about a doubling (``x[j] → x[-1]``, ``x[-1] / x[j] ≥ SPAN``, ``j`` the largest such index)
    where the last step alone is shorter than :data:`SPAN`: ``{"j", "x0", "x1", "y0", "y1", "ratio", "step", "gain",
    "t0", "t1", "t_ratio", "t_kind", "before_lo", "before_hi", "before_med", "last_step", "last_ratio"}`` where its gain
    per doubling is under :data:`NEAR_LINE`, at most :data:`SHRINK` × the median gain before it (≥ 2 steps before), and
    the time per I/O grew ≥ :data:`WAITED` × the load ratio; None otherwise (no time per I/O known: None)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    n = x.size
    if n < 5 or not (np.isfinite(x).all() and np.isfinite(y).all() and (x > 0).all() and (y > 0).all()):
        return None
    if x[-1] / x[-2] >= SPAN:
        return None
    idx = np.flatnonzero(x[-1] / x >= SPAN)
    if not idx.size:
        return None
    j = int(idx[-1])
    ratio = float(x[-1] / x[j])
    gain = float((y[-1] / y[j]) ** (1 / np.log2(ratio)) - 1)
    before = doubling_gains(x[:j + 1], y[:j + 1])
    if before.size < 2 or not np.isfinite(before).all():
        return None
    med = float(np.median(before))
    if not (gain < NEAR_LINE and med > 0 and gain <= SHRINK * med):
        return None
    t, kind = None, None
    if lat is not None and np.isfinite(np.asarray(lat, float)[[j, -1]]).all() and (np.asarray(lat, float)[[j, -1]] > 0).all():
        t, kind = np.asarray(lat, float), "latency"
    elif out is not None and np.isfinite(np.asarray(out, float)[[j, -1]]).all() and (np.asarray(out, float)[[j, -1]] > 0).all():
        t, kind = np.asarray(out, float) / y, "little"
        ratio_out = float(t[-1] / t[j]) * float(y[-1] / y[j])  # the outstanding I/O's own ratio
        if abs(ratio_out / ratio - 1) > 0.01:  # the load axis is not the outstanding count: no time read from it
            return None
    if t is None:
        return None
    t_ratio = float(t[-1] / t[j])
    if t_ratio < WAITED * ratio:
        return None
    return {"j": j, "x0": float(x[j]), "x1": float(x[-1]), "y0": float(y[j]), "y1": float(y[-1]), "ratio": ratio,
            "step": float(y[-1] / y[j] - 1), "gain": gain, "t0": float(t[j]), "t1": float(t[-1]), "t_ratio": t_ratio,
            "t_kind": kind, "before_lo": float(before.min()), "before_hi": float(before.max()), "before_med": med,
            "x_first": float(x[0]), "last_step": float(y[-1] / y[-2] - 1), "last_ratio": float(x[-1] / x[-2]),
            "span_gains": [float(v) for v in doubling_gains(x[j:], y[j:])]}
