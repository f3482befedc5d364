"""The read/write mix claim: a mix below the harmonic mix of its pure runs, or one I/O in flight, or stalled runs that
explain it instead.
"""

from __future__ import annotations

import numpy as np

from .fact_base import MIX_BELOW, CurveFacts
from .fact_words import _claim, _xv
from .wording import _fx, fmt_y, span


def _one_in_flight(cf: CurveFacts) -> bool:
    """Every run of the curve had one I/O outstanding (iodepth × jobs, or one per job for a synchronous engine)."""
    out = cf.points["out"].to_numpy(float)
    return bool(out.size and np.isfinite(out).all() and np.all(out <= 1.0))


def _stalled_out(result, cf: CurveFacts) -> str:
    """The stalled runs a level left out, named (their signature is told once, with the saturation words); no level
    of the others pooled across the axis — along a read share that is no one point's level."""
    from .point_runs import stalled_runs

    st = stalled_runs(result, cf.points)
    if st is None:
        return ""
    n = len(st["left"])
    at = ", ".join(f"{fmt_y(v, result.y_unit)} at {_xv(result, a)}" for a, v in st["left"])
    return (f" {n} of {st['runs']} runs {'was' if n == 1 else 'were'} stalled by fio's own figures (mean latency "
            f"×{span(format(st['mean_lo'], '.3g'), format(st['mean_hi'], '.3g'))} their point's fastest run's, CPU at "
            f"most half its) and are left out: {at}.")


def _by_se_words(result, cf: CurveFacts) -> str:
    """The shortfall told by the means' uncertainty where the runs' extremes reach the line (round 24 BA)."""
    b = cf.mix.facts.get("by_se") if cf.mix is not None else None
    if not b:
        return ""
    u = result.y_unit
    q = (f" (above Student's t quantile {b['q']:.2f} for its {b['df']:.2g} degrees of freedom)"
         if b.get("q") is not None and np.isfinite(b.get("df", np.inf)) else "")
    return (f"; the runs reach the line, but at a read share of {b['share']:.2g} their mean {fmt_y(b['mean'], u)} "
            f"({b['runs']} runs) lies {fmt_y(b['diff'], u)} below the line through the pure runs' means "
            f"({fmt_y(b['line'], u)}), {b['t']:.1f} times the standard error of that difference{q} — a shortfall beyond "
            f"the runs' scatter")


def _direction_words(result, cf: CurveFacts) -> str:
    """Each direction's latency in the worst mix against alone, where the table has a row per direction (round 24
    BA): which direction paid for the mix."""
    from .mix_facts import direction_latencies

    key = cf.saturation.facts.get("key", ()) if cf.saturation is not None else ()
    d = direction_latencies(result, key, float(cf.mix.facts["worst_share"])) if cf.mix is not None else None
    if d is None:
        return ""

    def one(v):
        return f"{span(fmt_y(v[0], 's'), fmt_y(v[1], 's'))} against {span(fmt_y(v[2], 's'), fmt_y(v[3], 's'))} alone"

    return (f" In that mix the reads took {one(d['read'])} (fio's mean latency, by run); the writes "
            f"{one(d['write'])}.")


def _same_side_words(sd: dict | None) -> str:
    """', so … neither overlap nor faster mixed I/O.' — or, where every mix's median lies above the harmonic mix (2
    mixes or more) and most of their runs above even the line through the pure points' highest runs, that direction
    said with its counts: at most a small gain, not shown beyond the runs' scatter (round 31 TD)."""
    plain = ", so these runs show neither overlap nor faster mixed I/O."
    if not sd or sd["mixes"] < 2 or sd["above"] != sd["mixes"] or not sd["runs"] \
            or 2 * sd["runs_above_hi"] <= sd["runs"]:
        return plain
    every = "both" if sd["mixes"] == 2 else f"all {sd['mixes']}"
    return (f"; but {every} mixes' medians lie above the harmonic mix and {sd['runs_above_hi']} of their "
            f"{sd['runs']} runs above even the line through the pure points' highest runs: at most a small gain from "
            f"mixing (overlap of reads and writes), not shown beyond the scatter with these runs.")


def straddle_words(st: dict, u: str) -> str:
    """Mixes on both sides of the harmonic line, each beyond MIX_BELOW (round 30 QA): both told, and no verdict —
    neither interference nor overlap is read where the mixes disagree."""
    b, a = st["below"], st["above"]
    ratio = a["median"] / a["line"]
    over = f"×{ratio:.3g} the line's value" if ratio >= 1.5 else f"{ratio - 1:.0%} above it"
    sp = st.get("spread")
    runs = (f"; each share's runs spread ×{span(format(sp[0], '.2g'), format(sp[1], '.2g'), '–×')} (highest ÷ lowest)"
            if sp else "")
    return (f" The mixes lie on both sides of it: at a read share of {b['share']:.2g} the median is "
            f"{b['deficit']:.0%} below it ({fmt_y(b['median'], u)} against {fmt_y(b['line'], u)}), at "
            f"{a['share']:.2g} it is {over} ({fmt_y(a['median'], u)} against {fmt_y(a['line'], u)}){runs}: no mixing "
            f"verdict from these runs — neither interference nor overlap of reads and writes is read from them.")


def _mix_claim(result, cf: CurveFacts):
    f = cf.mix
    s, u = f.facts, result.y_unit
    i = int(np.argmax(s["deficits"]))
    r, h = s["shares"][i], s["harmonic"][i]
    measured = h * (1 - s["deficits"][i])
    rg = s.get("ranges")

    def runs(d):  # the kept runs' range beside a level read from them
        return f", runs {span(fmt_y(rg[d][0], u), fmt_y(rg[d][1], u))}" if rg else ""

    from .paced_mix import paced_mix_words

    paced = paced_mix_words(result, cf, runs)  # pure runs at fio's pace: no harmonic mix (round 22 XE)
    if paced is not None:
        return _claim("mix", paced, f)
    head = (f"Along the read share the pure runs make {fmt_y(s['read'], u)} (reads{runs('read')}) and "
            f"{fmt_y(s['write'], u)} (writes{runs('write')}){' — each the median of its kept runs' if rg else ''}; if "
            f"each I/O took its own direction's time, a mix would make 1/X = r/R + (1 − r)/W (the harmonic mix).")
    lo, hi = min(s["deficits"]), max(s["deficits"])  # shortfalls below the harmonic mix (negative: above it)

    def side(d):
        return f"{abs(d):.0%} {'below' if d > 0 else 'above'}"

    where = side(hi) if np.isclose(lo, hi) else (f"between {side(lo)} and {side(hi)} it" if lo < 0 < hi else
                                                 f"{span(*sorted((f'{abs(lo):.0%}', f'{abs(hi):.0%}'), key=lambda v: float(v[:-1])), ' to ')} "
                                                 f"{'below' if lo > 0 else 'above'} it")  # low to high (blind3/4)
    if s.get("loads_differ"):
        loads = ", ".join(_fx(v) for v in s["loads_differ"])
        tail = (f" But the runs were made at different loads ({loads} I/Os outstanding): the harmonic mix compares "
                f"each direction at the mix's own load, so the mixes lie {where} it without telling interference "
                f"from the load — measure every share at one iodepth × numjobs to compare them.")
    elif s.get("straddle"):
        tail = straddle_words(s["straddle"], u)
    elif s.get("in_noise"):
        n = s["in_noise"]
        tail = (f" The mixes' medians lie up to {n['deficit']:.0%} below it, but the runs reach the line: at a read "
                f"share of {n['share']:.2g} they spread {span(fmt_y(n['lo'], u), fmt_y(n['hi'], u))} against "
                f"{fmt_y(n['line_lo'], u)} from the pure points' lowest runs — no shortfall beyond the runs' own scatter "
                f"(these runs cannot tell interference from it)." + _stalled_out(result, cf))
    elif s["below_harmonic"]:
        tail = (f" Mixes fall below it, by up to {s['deficit']:.0%} at a read share of {r:.2g} ({fmt_y(measured, u)} "
                f"against {fmt_y(h, u)})" + _by_se_words(result, cf) + ": reads and writes interfere beyond sharing "
                f"the device's time, on the device or the path to it (these files cannot tell which: e.g. writes "
                f"stalling reads on a drive — program/erase, write buffering — or in a target or link between)."
                + _direction_words(result, cf))
    elif lo < -MIX_BELOW and s.get("above_in_noise"):  # above only within the pure runs' own spread (round 19 UD)
        n = s["above_in_noise"]
        tail = (f" The mixes' medians lie {where}: none falls more than {MIX_BELOW:.0%} below it, and the "
                f"{n['excess']:.0%} above it at a read share of {n['share']:.2g} is inside the runs' own scatter: the "
                f"line through the pure points' highest runs gives {fmt_y(n['line_hi'], u)} there, and that mix's runs "
                f"({span(fmt_y(n['lo'], u), fmt_y(n['hi'], u))}) do not all lie above it — no mix lies above it beyond "
                f"the scatter" + _same_side_words(n.get("sides")))
    elif lo < -MIX_BELOW and _one_in_flight(cf):
        # one I/O at a time: nothing overlaps, so a mix above the harmonic mix is I/Os that each took less time
        # than in the pure runs (blind2's marcm24 sync read-share at QD 1 was "served in parallel")
        tail = (f" The mixes lie {where}: none falls more than {MIX_BELOW:.0%} below it. With one I/O in flight at a "
                f"time nothing was served in parallel: above it, each mixed I/O took less time on average than the "
                f"pure runs' (compare fio's latency of each direction).")
    elif lo < -MIX_BELOW:
        tail = (f" The mixes lie {where}: none falls more than {MIX_BELOW:.0%} below it, and above it the two directions "
                f"overlap (separate limits or paths for reads and writes, served in parallel).")
    else:
        from .write_cache import mix_ends, mix_layers_words

        from .shared_time import mix_cpu_time, mix_cpu_words

        ends = mix_ends(result)  # page-cache writes and device reads: the job's time is shared (round 23 ZB)
        cpu = None if ends else mix_cpu_time(result, cf)  # no device: the job's CPU time (round 24 CE)
        tail = (f" The mixes lie {where} (within {MIX_BELOW:.0%}): little interference beyond sharing "
                + (f"{mix_layers_words(ends)}." if ends else f"{mix_cpu_words(cpu)}." if cpu else
                   "the device's time."))
    return _claim("mix", head + tail, f)
