"""Whether the runs show a fall after a peak when the peak or the falling point has too few runs for a repeat test.

A fall is read from runs, not from means: the falling point's highest run must lie below the peak's LOWEST run by
more than the largest spread the runs of one point show anywhere in the series (1 − lowest ÷ highest,
:func:`~nvmemodel.fitting.saturation_facts.curve_noise`'s ``rel``). One run at the falling point whose distance below
the peak's runs is within that spread does not show a fall, whatever the distance from the peak's mean: a mean of two
runs far apart was measured at no time (set after round 25 was read: EA, r25_femupr40 … numjobs, "falls 24 % to
185.00 K … more than the spread of the runs at one point (19 %)" for ONE run at 4 jobs that lies 15 % below the lower
of the two 3-job runs, 217 K and 269 K).
"""

from __future__ import annotations

import numpy as np


def fall_by_runs(peak_runs: np.ndarray, last_runs: np.ndarray, rel: float, rel_x: float) -> dict | None:
    """The runs' reading of a fall from the peak point to the last point, where a repeat test cannot be made (either
    point has fewer than 2 runs) but the series has repeats at some point (``rel`` > 0, at ``rel_x``).

    Returns None where the rule does not apply (no repeats anywhere, a point without runs, or both points repeated:
    the repeat test decides those); else ``{"shown": bool, "gap": 1 − last's highest run ÷ peak's lowest run, "rel",
    "rel_x", "peak_lo", "peak_hi", "peak_n", "last_lo", "last_hi", "last_n"}``. ``shown`` is True only where ``gap``
    exceeds ``rel``.
    """
    a, b = np.asarray(peak_runs, float), np.asarray(last_runs, float)
    if not (rel > 0) or a.size == 0 or b.size == 0 or (a.size >= 2 and b.size >= 2):
        return None
    gap = float(1 - b.max() / a.min())
    return {"shown": bool(gap > rel), "gap": gap, "rel": float(rel), "rel_x": float(rel_x),
            "peak_lo": float(a.min()), "peak_hi": float(a.max()), "peak_n": int(a.size),
            "last_lo": float(b.min()), "last_hi": float(b.max()), "last_n": int(b.size)}


def _runs_words(u: str, lo: float, hi: float, n: int, at: str) -> str:
    from .wording import fmt_y, span

    if n == 1:
        return f"the one run at {at}, {fmt_y(lo, u)}"
    return f"{'both' if n == 2 else f'all {n}'} runs at {at} ({span(fmt_y(lo, u), fmt_y(hi, u), ' to ')})"


def fall_unshown_words(result, s: dict, peak_words: str) -> str:
    """"Measured IOPS is highest at numjobs = 3, 243.00 K IOPS (the mean of its 2 runs, 217.00 K IOPS to 269.00 K
    IOPS); the one run at numjobs = 4, 185.00 K IOPS, lies 15% below the lower of them, less than the runs of one
    point differ (at numjobs = 3 the lowest is 19% below the highest): these runs cannot tell a fall from their spread,
    nor a level (repeat the runs at numjobs = 4)." — the words of a fall :func:`fall_by_runs` does not show."""
    from .fact_words import _what, _xv
    from .wording import fmt_y, span

    d, x, u = s["fall_unshown"], result.x, result.y_unit
    peak = (f"(the mean of its {d['peak_n']} runs, {span(fmt_y(d['peak_lo'], u), fmt_y(d['peak_hi'], u), ' to ')})"
            if d["peak_n"] >= 2 else "(one run)")
    lower = "the lower of them" if d["peak_n"] == 2 else "the lowest of them" if d["peak_n"] > 2 else "it"
    last = _runs_words(u, d["last_lo"], d["last_hi"], d["last_n"], f"{x} = {_xv(result, d['x_last'])}")
    verb = "lies" if d["last_n"] == 1 else "lie"
    by = (f"{max(d['gap'], 0):.0%} below {lower}" if d["gap"] > 0 else f"no lower than {lower}")
    few = [f"{x} = {_xv(result, v)}" for v, m in ((d["x_last"], d["last_n"]), (d["x_max"], d["peak_n"])) if m < 2]
    return (f"Measured {_what(result)} is highest at {x} = {_xv(result, d['x_max'])}, {peak_words} {peak}; {last}, "
            f"{verb} {by}, less than the runs of one point differ (at {x} = {_xv(result, d['rel_x'])} the lowest is "
            f"{d['rel']:.0%} below the highest): these runs cannot tell a fall from their spread, nor a level (repeat "
            f"the runs at {' and '.join(few)}).")


def fall_shown_words(result, d: dict) -> str:
    """"both runs at iodepth = 8 (1.03 GB/s to 1.07 GB/s) lie 29% or more below the one run at iodepth = 1, more
    than the runs of one point differ (at iodepth = 8 the lowest is 3.9% below the highest)" — the noise a fall read
    by :func:`fall_by_runs` was tested against, named by its source (round 25 DE)."""
    from .fact_words import _xv

    x, u = result.x, result.y_unit
    last = _runs_words(u, d["last_lo"], d["last_hi"], d["last_n"], f"{x} = {_xv(result, d['x_last'])}")
    peak = (f"the one run at {x} = {_xv(result, d['x_max'])}" if d["peak_n"] == 1 else
            f"the lowest of the {d['peak_n']} runs at {x} = {_xv(result, d['x_max'])}")
    rel = f"{d['rel']:.1%}" if d["rel"] < 0.1 else f"{d['rel']:.0%}"
    return (f"{last} {'lies' if d['last_n'] == 1 else 'lie'} {d['gap']:.0%}{' or more' if d['last_n'] > 1 else ''} "
            f"below {peak}, more than the runs of one point differ (at {x} = {_xv(result, d['rel_x'])} the lowest is "
            f"{rel} below the highest)")
