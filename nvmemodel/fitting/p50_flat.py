"""Mean latency that grew while the median did not: rare long waits, not a queue.

A queue that grows with the load makes every I/O wait: the median latency grows with the mean. Where fio's median
(clat p50) never rose more than :data:`MEDIAN_FLAT` above its value at the first point while the mean grew at least
:data:`MEAN_GROWN` times, the typical I/O took the same time and the mean grew from a few long waits — jobs off their
CPU on a shared host, or stalls — not from load that queued (set after round 24 was read: r24_here-zramlzo p50
2.96–3.12 µs at every point while the mean grew 3.2 → 14.1 µs, told "most of the added load queued"; zramzero,
splicenj, memcgmmap the same, CB).
"""

from __future__ import annotations

import numpy as np

from .wording import fmt_y, span

__all__ = ["MEDIAN_FLAT", "MEAN_GROWN", "median_flat", "median_flat_words"]

#: the median's largest departure from its first value that is "the same time" (fio's percentiles are histogram
#: bins ~±3 % apart; a shared host moves a run's median a little): set after round 24 was read (the hand read's ±20 %)
MEDIAN_FLAT = 0.20
#: the mean grew at least this factor over the span: a growth no run-to-run noise makes (round 24's hand read)
MEAN_GROWN = 2.0


def median_flat(p) -> dict | None:
    """``{"p50_lo", "p50_hi", "mean_0", "mean_1"}`` where over the whole axis (the first point to the last) the
    median latency stayed flat while the mean grew (module docstring), else None."""
    if "p50" not in p or "lat" not in p:
        return None
    q = p["p50"].to_numpy(float)
    m = p["lat"].to_numpy(float)
    if q.size < 2 or not (np.isfinite(q).all() and np.isfinite(m).all() and (q > 0).all() and (m > 0).all()):
        return None
    if q.max() > (1 + MEDIAN_FLAT) * q[0] or m[-1] < MEAN_GROWN * m[0]:  # (a median that fell is no queue either)
        return None
    return {"p50_lo": float(q.min()), "p50_hi": float(q.max()), "mean_0": float(m[0]), "mean_1": float(m[-1])}


def median_flat_words(d: dict) -> str:
    """The clause that replaces "the added load queued"."""
    return (f"but fio's median latency did not grow ({span(fmt_y(d['p50_lo'], 's'), fmt_y(d['p50_hi'], 's'))} at every "
            f"point) while the "
            f"mean grew {fmt_y(d['mean_0'], 's')} → {fmt_y(d['mean_1'], 's')}: the typical I/O took the same time, so "
            f"the load did not queue; a few I/Os waited long (a job off its CPU on a shared host, or a stall)")
