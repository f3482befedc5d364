"""Steps of a load axis that span several unsampled doublings: what the rise into them says, and what it cannot.

A gain per doubling is an average over the doublings a step spans. Over one or two doublings that average describes
the curve; over more, with no point between, it draws a steady climb the data do not have — the rate may have risen
in the first doubling and held over the rest. Across such a step only the total gain is stated, and where the onset
of a level is the point at its top, the onset lies somewhere in the gap: "(a, b]".

Set after round 21 was read (``_blind_rounds/round21_hand_read_part2.md``, WC: r21_tieredvol_dm-stripe-nvme-2sata_2m-
write_1job_qd, "+66% for ×32 the iodepth, +11% per doubling from 0.825 GB/s at iodepth = 1" over QD 1 → 32 with no point
between, where the 4-job sibling shows the level reached at 4 outstanding).
"""

from __future__ import annotations

import math

__all__ = ["GAP_DOUBLINGS", "gap_doublings", "wide_gap"]

#: a step spanning more than this many doublings of the load, with no point between, gets no gain per doubling. Two
#: doublings (×4) is the widest step the corpus's sweeps commonly take between neighbours (QD 1, 4, 16, 64 …) and
#: whose average still reads as a trend; set after round 21 was read (WC: r21_tieredvol … 2m-write_1job_qd, a ×32 step,
#: five doublings; read before it was set: that case and its 4-job sibling)
GAP_DOUBLINGS = 2.0


def gap_doublings(x0: float, x1: float) -> float:
    """How many doublings of the load the step x0 → x1 spans (NaN where not defined)."""
    if not (x0 > 0 and x1 > 0 and math.isfinite(x0) and math.isfinite(x1)):
        return float("nan")
    return math.log2(x1 / x0)


def wide_gap(x0: float, x1: float) -> bool:
    """Whether the step x0 → x1 spans more than :data:`GAP_DOUBLINGS` doublings (a small tolerance for the ±1 % a
    recorded depth or size may carry)."""
    d = gap_doublings(x0, x1)
    return bool(math.isfinite(d) and d > GAP_DOUBLINGS + 0.015)
