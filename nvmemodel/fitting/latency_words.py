"""How fio's latency grew with the load, in words: queueing by Little's law, a grown tail or submission cost, and what
follows the onset. Said by the saturation claim.
"""

from __future__ import annotations

import numpy as np

from .fact_base import FLAT, PAYS
from .fact_words import _xv
from .latency_growth import LITTLE_TOL
from .wording import _fx, fmt_y, span


def little_growth_words(s: dict) -> str:
    """How fio's latency growth over a plateau compares with Little's law's (R = N ÷ X): "as Little's law gives" only
    where it holds within :data:`~nvmemodel.fitting.facts.LITTLE_TOL` (blind4: ×44 for ×64 the load at a check of
    0.2–0.5 was said to be so); else the growth the law would give, for the reader to compare."""
    if "lat_little_growth" not in s:
        return "as Little's law gives at a fixed rate"
    load, exp = s["lat_load_growth"], s["lat_little_growth"]
    if s.get("tail"):  # the mean grew, the median did not: a tail, not a queue (r14 RA) — the law's arithmetic unsaid
        return tail_words(s["tail"])
    if s.get("upper"):  # the median flat, p90 grown or far above it: the upper tenth or a slow class (round 30 RA)
        return upper_words(s["upper"])
    sub = submission_words(s.get("submission"))
    if s["lat_little_holds"]:
        return f"as Little's law gives at that rate (×{exp:.3g} for ×{load:.3g} the outstanding I/O){sub}"
    return (f"for ×{load:.3g} the outstanding I/O; Little's law, with all of it in flight at the rates measured, "
            f"would give ×{exp:.3g}{sub}")  # no pointer to a check another claim may not print (round 14 SB)


def submission_words(sub: dict | None) -> str:
    """Where the total mean's growth was fio's submission latency (facts._submission_growth): where the time went,
    from fio's own slat and clat means — no tail is read from completion percentiles (round 19 UA)."""
    if not sub:
        return ""
    sl, cl = sub["slat"], sub["clat"]
    comp = (f", its completion latency (clat) {span(fmt_y(cl[0], 's'), fmt_y(cl[1], 's'), ' → ')}"
            if np.isfinite(cl).all() else "")
    return (f"; the growth is in submission: fio's submission latency (slat) {fmt_y(sl[0], 's')} → "
            f"{fmt_y(sl[1], 's')}{comp} (means over each point's runs)")


def tail_words(t: dict) -> str:
    """The mean's growth put where fio's percentiles put it: the median flat, the 99.9th percentile (and the maximum,
    of the last point's one run) grown — a few I/Os held for long, not every I/O queued — and how many were served at
    a time (rate × median latency) of the outstanding I/O."""
    p9, mx = t["p99_9"], t["max"]
    tail = (f"its 99.9th percentile {fmt_y(p9[0], 's')} → {fmt_y(p9[1], 's')}" if np.isfinite(p9).all() else "")
    if tail and p9[1] <= (1 + LITTLE_TOL) * p9[0]:  # in fewer than 1 I/O in 1000 (r6 null, r11 tmpfs on one CPU)
        tail = (f"its 99.9th percentile {span(fmt_y(p9[0], 's'), fmt_y(p9[1], 's'), ' → ')}, no higher: in fewer "
                f"than 1 I/O in 1000")
    if np.isfinite(mx) and t["max_runs"] == 1:
        tail += (", " if tail else "") + f"the slowest I/O {fmt_y(mx, 's')} at the last point"
    out = f" of the {_fx(t['out'])} outstanding" if np.isfinite(t["out"]) else ""
    fl = t.get("in_flight", np.nan)
    if out and np.isfinite(fl) and round(fl, 2) < 0.8:  # Little's check below its band: fewer were in flight (r28 MC)
        n_in = fl * t["out"]
        out = (f" of the {_fx(t['out'])} asked for, of which the rate × the mean latency puts only "
               f"{n_in:.2g} in flight (Little's law on the point's means)")
    n = f"{t['served']:.2g}" if t["served"] < 10 else f"{t['served']:.0f}"  # 0.32 in service is not "about 0"
    return (f"but its median stays at {span(fmt_y(t['p50_lo'], 's'), fmt_y(t['p50_hi'], 's'))}: the growth is in the "
            f"tail{' (' + tail + ')' if tail else ''} — a few I/Os held for long, not every I/O queued; the rate × the "
            f"median latency puts about {n} I/Os in service at a time{out}")


def upper_words(t: dict) -> str:
    """The median flat while fio's 90th percentile grew or sits ≥ TWO_CLASSES × the median (round 30 RA): the growth
    is in at least a tenth of the I/Os, not a few; two classes where p90 is that far above the median — and where
    Little's check puts the outstanding I/O in flight, the slow class holds it (the I/Os at or under the median, half
    of them, hold at most half the rate × the median). Never the rate × the median as I/Os in service."""
    q = t["p90"]
    med = span(fmt_y(t["p50_lo"], "s"), fmt_y(t["p50_hi"], "s"))
    grew = (f"its 90th percentile went {fmt_y(q[0], 's')} → {fmt_y(q[1], 's')}" if t["grew"] else
            f"its 90th percentile stays near {fmt_y(q[1], 's')}")
    p9 = t.get("p99_9", (np.nan, np.nan))
    top = (f", its 99.9th {fmt_y(p9[0], 's')} → {fmt_y(p9[1], 's')}" if np.isfinite(p9).all() else "")
    head = f"but while its median stays at {med}, {grew}{top}"
    if not t["two"]:
        return f"{head}: the growth is in the upper tenth or more of the I/Os, not in a few held for long"
    ratio = q[1] / t["p50_hi"]
    text = (f"{head} — ×{ratio:.3g} the median at the last point: two classes of I/O, at least 1 in 10 taking "
            f"{fmt_y(q[1], 's')} or more while half took at most {fmt_y(t['p50_hi'], 's')}")
    fl, out = t.get("in_flight", np.nan), t.get("out", np.nan)
    if np.isfinite(fl) and np.isfinite(out) and fl >= 0.8:
        fast = 0.5 * t["rate"] * t["p50_hi"]
        text += (f"; Little's law holds at {fl:.2f} with {_fx(out)} outstanding, and the I/Os at or under the median "
                 f"held at most {fast:.2g} of them (half the rate × the median): the slow class held the rest")
    return text


def _after_onset(result, s: dict, lo_step: float, hi_step: float) -> str:
    """What the steps after the onset do when one of them is large: one step is that step (no range of one); steps
    all up are a creep towards the level, less than the onset rule's 10 % per doubling over the onset (near
    saturation, not scatter); steps both ways scatter about the level."""
    x = result.x
    if s["plateau_points"] == 2:
        cn = s.get("noise") or {}
        if abs(hi_step) > FLAT and cn.get("rel", 0.0) > abs(hi_step):  # beyond ±FLAT, inside the repeats (round 9 FA)
            return (f" The one point after the onset is {hi_step:+.0%} from it: inside the spread of this curve's "
                    f"repeats (at {x} = {_xv(result, cn['x'])} the lowest run is {cn['rel']:.0%} below the highest) — "
                    f"neither a fall nor a rise is told from it.")
        return (f" The one point after the onset is {hi_step:+.0%} from it: within what a level is read in — neither "
                f"a fall nor a rise the onset rule missed.")
    steps = span(f"{lo_step:+.0%}", f"{hi_step:+.0%}", " … ")
    if lo_step > 0:
        return (f" After the onset it still creeps up step by step ({steps}), each later point less than {PAYS:.0%} "
                f"per doubling of {x} above the onset: near saturation, its largest value "
                f"{fmt_y(s['plateau_hi'], result.y_unit)} at the last point.")
    if hi_step < 0:
        return (f" After the onset it drifts down step by step ({steps}), less than a fall beyond what a level is "
                f"read in.")
    return (f" After the onset the points scatter step to step ({steps}): the onset is where the level is first "
            f"reached, read within that scatter.")
