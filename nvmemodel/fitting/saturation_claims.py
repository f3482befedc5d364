"""The saturation claim along a load axis: where throughput stops paying per doubling of load (or saturates from the
first point, or still rises), the level it holds, what the latency did, and what the files show holds it.
"""

from __future__ import annotations

import numpy as np

from .job_spans import span_ok
from .p50_flat import median_flat, median_flat_words
from .direction_words import directions_words
from .fact_base import CPU_BOUND, FLAT, LEVEL_STEP, PAYS, CurveFacts
from .fact_words import _both, _claim, _noise_words, _what, _xv, level_words
from .fall_runs import fall_shown_words, fall_unshown_words
from .fall_shape import AGAINST
from .gaps import wide_gap
from .knee_words import between_words, held_head, knee_sentence
from .latency_growth import latency_step, queued_last
from .last_doubling import SPAN
from .latency_words import _after_onset, little_growth_words
from .device_steps import EVEN, YIELD_STEP, step_yields, yields_verdict
from .linear_scaling import ABOVE as LIN_ABOVE, REGIME_HOLD, added_yield, device_regimes, noun_of
from .one_outstanding import known_one, one_words, queues
from .near_saturation import LITTLE_OK, queued_words, trailing_stretch, trailing_words
from .point_runs import DISTURBED
from .run_drift import drift_words, sequence_note
from .run_noise import last_step_within
from .split_words import over_words, split_points_words
from .submit_serial import submit_holder_words
from .steps import GAIN_STEP, SUBMITTERS, cost_growth, latency_took, shrinking, submit_carried
from .wording import _fx, fmt_y, span


#: what a saturation sentence says where nothing in its own facts names what holds the level; the verification pass
#: (verify.one_holder) removes it where another sentence of the explanation names the holder with its proof
UNKNOWN_HOLDER = (" The files do not show what holds it: a rate cap or one serial server whose service time is that "
                  "latency would both look like this.")


def _range_words(result, cf: CurveFacts, lo: float, hi: float) -> str:
    """A range of levels in the curve's unit, with the other unit beside it where :func:`level_words` gives one."""
    one = level_words(result, cf, lo)
    if ", " not in one:
        return span(fmt_y(lo, result.y_unit), fmt_y(hi, result.y_unit))
    return level_words(result, cf, lo, hi)


def _gains_words(result, xs, ys, i0: int = 0, last: int = 6, p=None, drift=None) -> str:
    """Every step's gain per doubling of x from point ``i0`` (at most the ``last`` steps), with the first value:
    "from 0.8 GB/s at iodepth = 1: +75% (1 → 4), +35% (4 → 8), +13% (8 → 16) per doubling" (round 20 SF/RE: a rise
    told by one step hid its bend and its first point). ``drift`` (run_drift.series_drift): where the list starts at
    the drifted point, it starts from that point's run measured in sequence, said so (run_drift.sequence_note); where
    the drifted point is inside the list, its pooled mean is named as such."""
    from .steps import doubling_gains

    x, u = result.x, result.y_unit
    pct = lambda v: f"{v if abs(v) >= 0.005 else 0.0:+.0%}"  # noqa: E731  (never "-0%")
    i0 = max(i0, xs.size - 1 - last)
    at = np.flatnonzero(np.isclose(xs, drift["x"])) if drift is not None else np.array([], int)
    f_note = first_note = mid_note = ""
    if at.size:  # (a copy: the caller's levels stay the points' means)
        k = int(at[0])
        if k == i0 or k == 0:
            ys = np.array(ys, float)
            ys[k] = drift["in_sequence"]
            if k == i0:
                f_note = sequence_note(drift)
            else:
                first_note = sequence_note(drift)
        elif i0 < k < xs.size:
            mid_note = f" ({x} = {_xv(result, xs[k])}: the mean of its first and last runs, which drifted — below)"
    g = doubling_gains(xs[i0:], ys[i0:])
    # (a point whose runs lie more than ×WIDE_RUNS apart: its steps by the medians and the runs' overlap, round 24 CG)
    from .wide_runs import first_words, median_step

    same = p is not None and len(p) >= xs.size and np.allclose(p["x"].to_numpy(float)[:xs.size], xs)
    sub = int(at[0]) if at.size and (f_note or first_note) else -1  # (the substituted run: its steps by the values)
    med = [median_step(result, p, k, k + 1, pct) if same and sub not in (k, k + 1) else None
           for k in range(i0, xs.size - 1)]
    # along devices a step shorter than about a doubling is told by what each added device yielded, not raised to a
    # doubling (round 29 NE: linear_scaling.added_yield)
    noun = noun_of(x)
    every = noun is not None and _yields_yardstick(p)  # one run a point: doublings as yields too (round 30 PE)
    short = [noun is not None and m is None and (every or b / a < SPAN) for m, a, b in zip(med, xs[i0:-1], xs[i0 + 1:])]
    per0 = fmt_y(ys[0] / xs[0], u)
    said0: list[bool] = []

    def _yield(k: int, a, b) -> str:
        each, share = added_yield(xs, ys, k)
        of = f"of one {noun}'s {per0}" if not said0 else "of it"
        said0.append(True)
        return f"{fmt_y(each, u)} per added {noun} ({_xv(result, a)} → {_xv(result, b)}: {share:.0%} {of})"

    per = " per doubling" if any(short) and not all(short) else ""
    steps = ", ".join(_yield(k, a, b) if sh else m if m is not None else f"{pct(v)}{per} ({_xv(result, a)} → "
                      f"{_xv(result, b)}" + (f": {pct(y1 / y0 - 1)} for ×{b / a:.3g})" if abs(b / a - 2) > 0.01 else ")")
                      for k, sh, m, v, a, b, y0, y1 in zip(range(i0, xs.size - 1), short, med, g, xs[i0:-1],
                                                           xs[i0 + 1:], ys[i0:-1], ys[i0 + 1:]))
    f0 = (first_words(result, p, i0) if same and not f_note else None) or fmt_y(ys[i0], u)
    first = (f" (the first point {fmt_y(ys[0], u)} at {x} = {_xv(result, xs[0])}{first_note.replace(' (', ', ')[:-1]})"
             if i0 > 0 else "")
    tail = "" if per or (short and all(short)) else f" per doubling of {x}"
    return f"from {f0} at {x} = {_xv(result, xs[i0])}{f_note}{first}: {steps}{tail}{mid_note}"


def _bend_words(s: dict, shrink: bool = False, noise: bool = True, gains=None) -> str:
    """Whether the gains per doubling shrink step over step beyond the noise (``steps.bends``: the last three
    steps), said; ``shrink``: every gain is below the one before, though not beyond the noise (steps.shrinking, round
    22 XC: never "do not shrink" beside a shrinking list). ``noise``: every point has repeats, so the test also used
    their noise; without, "and the noise" is not said (set after round 25 was read: DE, r25_juicefsceph … 20m-read,
    "(by more than 5 points and the noise)" beside "One run a point, so no repeats to measure a noise")."""
    by = f"{GAIN_STEP * 100:.0f} points and the noise" if noise else f"{GAIN_STEP * 100:.0f} points"
    b = s.get("bend")
    mb = s.get("median_bend")
    if b is None and mb is not None:  # (round 28 MG: median_bend.py)
        b = mb
        meds = ", ".join(format(v, "+.0%") for v in b["medians"])
        return (f"every gain below the one before by more than {GAIN_STEP * 100:.0f} points, by the means and by the "
                f"medians of the kept runs ({meds} per doubling), whatever one point's run spread: the rise slows")
    if b is not None:
        return (f"the last two gains each smaller than the one before (by more than {by}): the rise slows")
    if s.get("last_falls"):
        # the test reads the last three gains: where an earlier listed gain fell as far, the words name their window
        # and that fall (set after round 28 was read: KD, r28_crimsonbench … randwrite-nj1_qd, "only the last gain
        # fell by more than 5 points" beside its own +98% → +86%)
        ef = s.get("earlier_fall")
        if ef is not None:
            return (f"of the last three gains only the last fell by more than {by} (the earlier fall, "
                    f"{ef['from']:+.0%} → {ef['to']:+.0%}, did not continue): one step, not yet a trend, so no "
                    f"approach to a ceiling is shown")
        return (f"only the last gain fell by more than {by}: one step, not yet a trend, so no approach to a ceiling "
                f"is shown")
    if shrink:
        return (f"each gain is below the one before, but not each by more than {by}, so the gains alone do not show "
                f"an approach to a ceiling")
    g = [float(v) for v in (gains if gains is not None else []) if np.isfinite(v)]
    if len(g) >= 2 and max(g[:-1]) - g[-1] > GAIN_STEP:
        # all the gains compared, not the last pair: the last below an earlier one is no undiminished rise (set after
        # round 30 was read: RB, r30_here-uringsqpoll, "the gains do not shrink" of +48 % → +10 % → +10 %)
        return (f"the last gain is below the earlier {max(g[:-1]):+.0%}, though not each gain below the one before "
                f"(by more than {by}), so the gains alone do not show an approach to a ceiling")
    return f"the gains do not shrink step over step (by more than {by}), so no approach to a ceiling is shown"


def _yields_yardstick(p) -> bool:
    """Along devices the step list prints every step as the yield per added device where no point has repeats (the
    step tests with a noise, steps.bends, read the gains per doubling; set after round 30 was read: PE)."""
    return p is not None and not ("n_runs" in p and float(np.nanmax(p["n_runs"].to_numpy(float))) >= 2)


def _verdict_words(result, xs, ys, p, s: dict, shrink: bool = False, gains=None) -> str:
    """The verdict closing a step list: along devices with every step told as a yield (:func:`_yields_yardstick`),
    judged on the yields printed (device_steps.yields_verdict; set after round 30 was read: PC, azure Lsv3 "the gains
    do not shrink step over step" beside 100 % → 9 % → 76 %; PE, i7i randread "do not shrink" beside 74, 74, 70, 68 %);
    else :func:`_bend_words`."""
    noun = noun_of(result.x)
    yl = step_yields(xs, ys) if noun is not None and _yields_yardstick(p) else None
    if yl is None:
        return _bend_words(s, shrink, _repeated(p), gains)
    by = f"{YIELD_STEP * 100:.0f} points of one {noun}'s rate"
    v = yields_verdict([d["share"] for d in yl])
    u = result.y_unit
    if v["kind"] == "even":
        lo, hi = min(d["each"] for d in yl), max(d["each"] for d in yl)
        first = ys[0] / xs[0] - float(np.mean([d["each"] for d in yl]))
        line = (f": a straight line, the first {noun} alone {fmt_y(first, u)} above each added one"
                if xs[0] == 1 and first > EVEN * ys[0] else "")
        pl, ph = format(v["lo"], ".0%"), format(v["hi"], ".0%")
        return (f"each added {noun} yielded {span(fmt_y(lo, u), fmt_y(hi, u))} ({span(pl, ph)} of one) at every "
                f"step{line}; the yields do not shrink, so no approach to a ceiling is shown")
    if v["kind"] == "one":  # (round 31 SG)
        return "one step, so no trend of the yields and no approach to a ceiling is shown"
    if v["kind"] == "slows":
        return f"the last two yields each smaller than the one before (by more than {by}): the rise slows"
    if v["kind"] == "dip" and device_regimes(xs, ys) is not None:  # a lower rate per device that held: said below
        k = v["k"]
        return (f"one step ({_xv(result, xs[k])} → {_xv(result, xs[k + 1])}) yielded {yl[k]['share']:.0%} of one "
                f"{noun}, the later ones more again: the rate per {noun} fell at that step and held after it (below), "
                f"so no approach to a ceiling is shown")
    if v["kind"] == "dip":
        k = v["k"]
        return (f"one step ({_xv(result, xs[k])} → {_xv(result, xs[k + 1])}) yielded {yl[k]['share']:.0%} of one "
                f"{noun}, a later one more again: a dip, not a trend, so no approach to a ceiling is shown")
    if v["kind"] == "last_fell":
        return f"only the last yield fell by more than {by}: one step, not yet a trend, so no approach to a ceiling is shown"
    if v["kind"] == "fell_once":
        k = v["k"]
        return (f"one yield fell by more than {by} ({_xv(result, xs[k])} → {_xv(result, xs[k + 1])}) and the later "
                f"ones did not fall further: not a trend, so no approach to a ceiling is shown")
    if v["kind"] == "shrinking":
        return (f"each yield is below the one before, but not each by more than {by}, so the yields alone do not show "
                f"an approach to a ceiling")
    return f"the yields do not shrink step over step (by more than {by}), so no approach to a ceiling is shown"


def _gains_of(xs, ys, last: int = 6):
    """The last ``last`` gains per doubling (the step list's window)."""
    from .steps import doubling_gains

    return doubling_gains(xs, ys)[-last:]


def _held(p, i0: int) -> bool:
    """Little's law within near_saturation.LITTLE_OK of 1 at point ``i0`` and the last point."""
    if "little" not in p:
        return False
    lit = p["little"].to_numpy(float)[[i0, -1]]
    return bool(np.isfinite(lit).all() and (np.abs(lit - 1) <= LITTLE_OK).all())


def _repeated(p) -> bool:
    """Every point of the table has repeats (the step tests of steps.py then use their noise)."""
    r = p["n_runs"].to_numpy(float)
    return bool(np.isfinite(r).all() and (r >= 2).all())


def _submit_words(lg: float, sub: dict) -> str:
    """" fio's mean latency grew +42% per doubling in it, in submission (slat a → b; completion c → d): each
    submission took longer (CPU work inside the submit call), not a queue" — the growth slat carries
    (steps.submit_carried, round 22 YE: never "queued" where the completion latency stayed flat)."""
    (s0, s1), (c0, c1) = sub["slat"], sub["clat"]
    return (f" fio's mean latency grew {lg:+.0%} per doubling in it, in submission (slat {fmt_y(s0, 's')} → "
            f"{fmt_y(s1, 's')}; completion latency {fmt_y(c0, 's')} → {fmt_y(c1, 's')}): each submission took longer "
            f"(CPU work inside the submit call), not a queue of the added load")


#: the verdicts on the gains per doubling (steps.bends and its kin) → the same with their yardstick named
_BEND_PHRASES = {"the gains do not shrink": "the gains per doubling do not shrink",
                 "the last two gains each smaller": "the last two gains per doubling each smaller",
                 "each gain is below the one before": "each gain per doubling is below the one before",
                 "only the last gain fell": "only the last gain per doubling fell",
                 "of the last three gains only": "of the last three gains per doubling only"}


def _yardstick_named(result, cf: CurveFacts, c):
    """Where the step list told short device steps by the yield per added device (round 29 NE), the verdict on the
    gains (bends, shrinking) still reads the gains per doubling: its yardstick is named, so a reader does not judge it
    against the yields listed (r20 devcount psync: yields 22 %, 27 %, 14 % of one device beside "the gains do not
    shrink", said of the gains per doubling). The raised figures themselves are not repeated (NE)."""
    import dataclasses

    noun = noun_of(result.x)
    if noun is None or f" per added {noun} (" not in c.text:
        return c
    text = c.text
    for old, new in _BEND_PHRASES.items():
        text = text.replace(old, new, 1)
    return dataclasses.replace(c, text=text)


def _saturation_claim(result, cf: CurveFacts, ev=None):
    """The saturation sentence (:func:`_saturation_words`), its noise words told where a point's runs lie more than
    :data:`~nvmemodel.fitting.wide_runs.WIDE_RUNS` apart and no sentence of it already says how far the runs of one
    point differ (round 24 CG: "3 runs a point, their spread the noise" over runs ×3.2–×8.1 apart)."""
    import dataclasses
    import re

    from .wide_runs import wide_noise_words

    c = _saturation_words(result, cf, ev)
    if c is None or cf.saturation is None:
        return c
    from .run_sets import diverging_sets, sets_words

    rs = diverging_sets(result, cf.points)  # two run sets diverging along x: no level on their mean (round 31 SD)
    if rs is not None:
        return _claim("saturation", sets_words(result, rs, _what(result)), cf.saturation, run_sets=rs)
    c = _yardstick_named(result, cf, c)
    c = _load_axis_words(result, cf, ev, c)  # (round 29 OC, OD: near_saturation.py)
    noise = _noise_words(cf)
    dr = cf.saturation.facts.get("drift")
    if dr is not None and f"{noise}." in c.text:  # a bracketing repeat: drift over the series (round 25 DB)
        at = c.text.rfind(f"{noise}.")
        from_run = sequence_note(dr) in c.text[:at]  # the step list started from the run in sequence (remnant 1)
        c = dataclasses.replace(c, text=c.text[:at] + f"{noise}; but {drift_words(result, dr, from_run)}."
                                + c.text[at + len(noise) + 1:])
    wide = wide_noise_words(result, cf.points, result.x)
    if not wide or re.search(r"(?:runs|repeats) (?:of one|at) .{0,60}differ by", c.text) or f"{noise}." not in c.text:
        return c
    at = c.text.rfind(f"{noise}.")
    return dataclasses.replace(c, text=c.text[:at] + f"{noise}; but {wide}." + c.text[at + len(noise) + 1:])


def _load_axis_words(result, cf: CurveFacts, ev, c):
    """What the load axis itself shows, whatever the sentence's verdict: a step that rose faster than its load, said
    before the noise words (round 29 OC); a fall inside its noise, its margin printed beside "and the noise" (OD)."""
    import dataclasses

    from .near_saturation import fall_margin, superlinear_words

    text, p = c.text, cf.points
    tag = f"{GAIN_STEP * 100:.0f} points and the noise"
    if tag in text and _repeated(p):
        fm = fall_margin(p["x"].to_numpy(float), p["y"].to_numpy(float), p["y_std"].to_numpy(float),
                         p["n_runs"].to_numpy(float))
        # only where both gains are in the list as printed (a list by the medians shows other numbers)
        if fm is not None and all(f"{v:+.0%} (" in text for v in (fm["from"], fm["to"])):
            m = (f"the fall {fm['from']:+.0%} → {fm['to']:+.0%} per doubling is inside its "
                 f"±{fm['margin'] * 100:.0f}-point noise")
            text = (text.replace(f"{tag})", f"{tag}; {m})", 1) if f"{tag})" in text else
                    text.replace(tag, f"{tag} ({m})", 1))
    noise = _noise_words(cf)
    if cf.saturation.facts.get("state") in ("rising", "onset", "near") and f"{noise}" in text \
            and "rose faster than" not in text:
        sw = superlinear_words(result, p, ev)
        if sw:
            at = text.rfind(f" {noise}")
            text = text[:at] + sw + text[at:]
    if cf.saturation is not None and cf.saturation.facts.get("state") in ("rising", "onset", "near") \
            and f"{noise}" in text:
        text = _path_said(result, cf, text, noise, cf.saturation.facts.get("onset_x"))
    return c if text == c.text else dataclasses.replace(c, text=text)


def _path_said(result, cf: CurveFacts, text: str, noise: str, onset) -> str:
    """A step queueing does not make (load_path: the latency fell, or every run fell before a recovery) said before
    the noise words; "the load still paid" not of such a step, no "rise … to the onset" across a dip (round 30 QB,
    QC)."""
    import re

    from .load_path import path_steps, path_words

    p, xs = cf.points, cf.points["x"].to_numpy(float)
    steps = [st for st in path_steps(result, p)  # a step OC already told keeps its words (round 29 OC)
             if f"the step {_xv(result, xs[st['i']])} → {_xv(result, xs[st['j']])} rose" not in text]
    if not steps:
        return text
    if onset is not None and any(st["kind"] == "faster" and xs[st["j"]] == onset for st in steps):
        text = text.replace("Up to it the load still paid:", "The step into it, not queueing (below):", 1)
    if any(st["kind"] == "slowed" for st in steps):
        text = re.sub(r" The rise began at [^()]{0,120}\(×[^()]* to the onset for ×[^()]*\)\.", "", text)
    at = text.rfind(f" {noise}")
    return text[:at] + path_words(result, p, steps) + text[at:]


def _saturation_words(result, cf: CurveFacts, ev=None):
    f = cf.saturation
    s, x, u = f.facts, result.x, result.y_unit
    p = cf.points  # (each point's level and latency: the kept runs' medians, facts.point_levels)
    xs, lat = p["x"].to_numpy(float), p["lat_kept"].to_numpy(float)
    ys = np.array([np.mean(r) for r in p["runs_kept"]])  # the steps' kept-run means (facts._saturation)
    what = _what(result)
    noise = _noise_words(cf)
    state = s["state"]
    if state == "rising":  # (a last rise is told on the means, against their standard error, as before the point table)
        ys, lat = p["y"].to_numpy(float), p["lat"].to_numpy(float)  # (and its latencies: one statistic a sentence)
        g = (ys[-1] / ys[-2]) ** (1 / np.log2(xs[-1] / xs[-2])) - 1
        step = (f"{fmt_y(ys[-2], u)} at {x} = {_xv(result, xs[-2])} → {fmt_y(ys[-1], u)} at "
                f"{_xv(result, xs[-1])}")
        ratio = xs[-1] / xs[-2]
        if abs(ratio - 2) > 0.01:  # a step of ×4 is two doublings: its own gain, then the gain per doubling
            step += f", {ys[-1] / ys[-2] - 1:+.0%} for ×{ratio:.3g} the {x}"
        cpu = cf.cpu.facts if cf.cpu is not None and cf.cpu.facts["cpu_bound"] else {}
        if cpu.get("at_x") == xs[-1] and cpu.get("how") == "job" and x in SUBMITTERS:
            # each added job brings its own CPU: no one job's CPU is the curve's ceiling (round 22 YE, steps.py)
            cg = cost_growth(cpu)
            cost = (f"; CPU per I/O rose ×{cg[1] / cg[0]:.3g} from {x} = {_xv(result, xs[0])} to "
                    f"{_xv(result, xs[-1])} ({fmt_y(cg[0], 's')} → {fmt_y(cg[1], 's')}), so each added job bought "
                    f"less" if cg and cg[1] > (1 + PAYS) * cg[0] else "")
            noise = (f"At the largest {x} each job was ≥ {CPU_BOUND:.0%} busy (fio's CPU accounting, below): each "
                     f"added job brought its own CPU, so no one job's CPU is the curve's ceiling{cost}. {noise}")
        elif cpu.get("at_x") == xs[-1] and cpu.get("how") == "job":  # the busy submitting job holds the last point
            noise = (f"At the largest {x} the submitting job was ≥ {CPU_BOUND:.0%} busy (fio's CPU accounting, "
                     f"below): the ceiling the curve approaches is that job's CPU. {noise}")
        sd, reps = p["y_std"].to_numpy(float), p["n_runs"].to_numpy(float)
        # the last doubling: from the largest load at or below half the largest (the step before it where none is)
        half = np.flatnonzero(xs <= xs[-1] / 2 * 1.01)
        j = int(half[-1]) if half.size else xs.size - 2
        tr = s.get("trend")
        gate = bool(np.isfinite(sd[[j, -1]]).all() and np.isfinite(reps[[j, -1]]).all() and (reps[[j, -1]] >= 2).all()
                    and ys[-1] - ys[j] <= 2.0 * float(np.hypot(sd[j] / np.sqrt(reps[j]), sd[-1] / np.sqrt(reps[-1]))))
        queued = queued_last(p, j) if "little" in p and "out" in p else None
        if gate and not tr and queued is not None and g < 2 * PAYS:  # +22 % a doubling still pays (r4 numjobs)
            # the runs overlap, but the latency says where the added load went: with Little's law holding, a small
            # gain for latency grown nearly with the load means the added I/O waited (set after round 12 was read:
            # r12_here-loopdio_loop-dio-on_libaio_randread_iodepth_repeats, MA: +10 % for ×1.80 the latency)
            return _claim("saturation", f"Measured {what} is near saturation at the largest {x}: the last step "
                                        f"({step}) gained {g:+.0%} per doubling of {x} while fio's mean latency grew "
                                        f"×{queued['lat_growth']:.3g} ({fmt_y(lat[j], 's')} → {fmt_y(lat[-1], 's')}) "
                                        f"and Little's law held ({span(format(queued['little_lo'], '.2f'), format(queued['little_hi'], '.2f'))}): "
                                        f"the added load mostly queued{_starved_level(result, cf, sd[j], sd[-1], u)}"
                                        f". {noise}.", f, state="near", **queued)
        if gate and not tr:
            # with repeats, a last gain within twice the standard error of the two means' difference is their noise:
            # no "still rises" (issue 28: "where repeats exist, noise from them"; blind2's loop_iodepth_64k and
            # loop_psync_numjobs: +12 % with runs spanning each other)
            return _claim("saturation", f"Measured {what} gained {g:+.0%} per doubling of {x} in the last step "
                                        f"({step}), within the repeats' noise (sd {fmt_y(sd[-2], u)} and "
                                        f"{fmt_y(sd[-1], u)} over {int(reps[-2])} and {int(reps[-1])} runs): these "
                                        f"runs do not tell a last rise from a level, so neither a ceiling nor a "
                                        f"continued rise is claimed. {noise}.", f, state="unresolved")
        if gate and tr is not None:
            # each of the last doublings paid at no higher latency: rising, whatever the last pair's runs (r11 KF)
            t = tr["from_index"]
            return _claim("saturation", f"Measured {what} still rises at the largest {x}: the means gained "
                                        f"{', '.join(format(g, '+.0%') for g in tr['gains'])} per doubling of {x} from "
                                        f"{_xv(result, xs[t])} to {_xv(result, xs[-1])} ({fmt_y(ys[t], u)} → "
                                        f"{fmt_y(ys[-1], u)}) while fio's mean latency at {_xv(result, xs[-1])} "
                                        f"({fmt_y(lat[-1], 's')}) was no higher than at {_xv(result, xs[t])} "
                                        f"({fmt_y(lat[t], 's')}), Little's law {span(format(tr['little_lo'], '.2f'), format(tr['little_hi'], '.2f'))}: "
                                        f"the added load was paid for, not queued, so no ceiling is reached within the "
                                        f"data, though the runs of the last two points overlap. {noise}.", f)
        i0, alone = xs.size - 2, ""
        if not gate and j < xs.size - 2 and last_step_within(p):
            # the last step alone lies within its runs: the rise is read over the last doubling, the span the verdict
            # came from, and the sentence says both — one verdict per step, shared with the model sentence
            # (run_noise.last_step_within; set after round 20 was read, SB: r20_here-devcount … psync randwrite)
            i0 = j
            g = (ys[-1] / ys[j]) ** (1 / np.log2(xs[-1] / xs[j])) - 1
            step = f"{fmt_y(ys[j], u)} at {x} = {_xv(result, xs[j])} → {fmt_y(ys[-1], u)} at {_xv(result, xs[-1])}"
            if abs(xs[-1] / xs[j] - 2) > 0.01:
                step += f", {ys[-1] / ys[j] - 1:+.0%} for ×{xs[-1] / xs[j]:.3g} the {x}"
            kept = p["runs_kept"].iloc[j], p["runs_kept"].iloc[-1]
            if all(np.size(k) >= 2 for k in kept) and np.min(kept[1]) > np.max(kept[0]):
                step += f"; every run at {_xv(result, xs[-1])} above every run at {_xv(result, xs[j])}"
            alone = (f"; the last step alone ({_xv(result, xs[-2])} → {_xv(result, xs[-1])}, "
                     f"{ys[-1] / ys[-2] - 1:+.0%}) is within its runs' noise")
        if s.get("collapsed_from") is not None and not alone:  # the last doubling pays a small part of the one before (r7 CF)
            grew = p["out"].to_numpy(float)[[-2, -1]]
            grew = (f" and ×{grew[1] / grew[0]:.3g} the outstanding I/O" if np.isfinite(grew).all() and grew[0] > 0
                    and abs(grew[1] / grew[0] - ratio) > 0.01 * ratio else "")
            # each per-doubling figure names its step; a last step that still gains PAYS leads with "still rises"
            # (set after round 25 was read: ED, r25_lisapr610 … qd, "+87% per doubling up to iodepth = 64" for the
            # 32 → 64 step only, and "near saturation" beside +19 % in the last doubling)
            prev = f"{_xv(result, xs[-3])} → {_xv(result, xs[-2])}"
            if g >= PAYS:
                return _claim("saturation", f"Measured {what} still rises at the largest {x}: {g:+.0%} per doubling "
                                            f"in the last step ({step}{grew}), down from {s['collapsed_from']:+.0%} in "
                                            f"the step before ({prev}): the rise slowed sharply, so a level, if any, "
                                            f"is at or above {level_words(result, cf, ys[-1])}, the last point, not "
                                            f"measured. {noise}.", f, state="rising")
            return _claim("saturation", f"Measured {what} gained {s['collapsed_from']:+.0%} per doubling of {x} in the "
                                        f"step {prev}, then only {g:+.0%} per doubling in the last "
                                        f"step ({step}{grew}): near saturation between {x} = {_xv(result, xs[-2])} and "
                                        f"{_xv(result, xs[-1])}, its level at or above {level_words(result, cf, ys[-1])}"
                                        f", the last point. {noise}.", f, state="near", onset_x=float(xs[-1]),
                          plateau=float(ys[-1]), plateau_iops=float(p["iops"].iloc[-1]),
                          plateau_bytes_per_s=float(p["bytes_per_s"].iloc[-1]))
        # the statistic named only where a point has runs to take it over (round 20 SI; one run a point: no label)
        named = " by the means" if "n_runs" in p and float(np.nanmax(p["n_runs"].to_numpy(float))) >= 2 else ""
        added = (f"the last doubling of {x} added {g:+.0%}" if alone else
                 f"the last step added {g:+.0%} per doubling" + (f" of {x}" if s.get("slowing") else ""))
        if not alone and noun_of(x) is not None and ratio < SPAN:  # along devices: the yield per added device (r29 NE)
            each, share = added_yield(xs, ys, xs.size - 2)
            lin = ys[-1] / (xs[-1] * ys[0] / xs[0])  # the total against linear from the first count
            # more than one device's rate on a short step is no superlinear fact by itself: the total said beside it
            near = (f", the total {lin:.0%} of linear at {_xv(result, xs[-1])}"
                    if share > 1 and round(lin * 100) <= 100 * LIN_ABOVE else "")
            added = (f"each {noun_of(x)} added in the last step yielded {fmt_y(each, u)}, {share:.0%} of one "
                     f"{noun_of(x)}'s {fmt_y(ys[0] / xs[0], u)}{near}")
        # fio's mean latency over the same span, from the same statistic as the rates (means: round 20 SB, "+21 %"
        # from means beside "+58 %" from medians, unlabelled)
        lg = (lat[-1] / lat[i0]) ** (1 / np.log2(xs[-1] / xs[i0])) - 1 if np.isfinite(lat[[i0, -1]]).all() else np.nan
        sub = submit_carried(p, i0) if np.isfinite(lg) and lg > g else None
        if s.get("slowing"):  # the gains shrink step over step (steps.bends): round 20 RF
            flat = median_flat(p) if np.isfinite(lg) and lg > g and not sub else None  # round 24 CB
            waited = ("" if not (np.isfinite(lg) and lg > g) else _submit_words(lg, sub) if sub else
                      f" while fio's mean latency grew {lg:+.0%} per doubling — {median_flat_words(flat)}" if flat else
                      f" while fio's mean latency grew {lg:+.0%} per doubling — {queued_words(g, _held(p, i0) and span_ok(result, p))}")
            return _claim("saturation", f"Measured {what} still rises at the largest {x}, more slowly: "
                                        f"{_gains_words(result, xs, ys, p=p, drift=s.get('drift'))} — {_verdict_words(result, xs, ys, p, s)}; {added}{named} "
                                        f"({step}){waited}{alone}, so the curve is approaching a ceiling it has not "
                                        f"reached within the data. {noise}.", f)
        bend = latency_step(p, xs.size - 2) if "little" in p and "out" in p else None
        if bend is not None:  # latency flat, then a step at the last one: the added load mostly waited (round 18 ZD)
            grew = f"×{bend['step_load']:.3g} the {'outstanding I/O' if np.isfinite(p['out'].iloc[-1]) else x}"
            return _claim("saturation", f"Measured {what} still rises at the largest {x}, but bends there: the last "
                                        f"step added {g:+.0%} per doubling ({step}) while fio's mean latency, "
                                        f"{span(fmt_y(bend['lat_lo'], 's'), fmt_y(bend['lat_hi'], 's'))} from {x} = "
                                        f"{_xv(result, xs[0])} to {_xv(result, xs[-2])}, grew ×{bend['lat_step']:.3g} "
                                        f"to {fmt_y(lat[-1], 's')}: {grew} bought {bend['step_gain']:+.0%} of a "
                                        f"possible {bend['step_load'] - 1:+.0%}, the rest spent waiting (Little's law "
                                        f"holds: {span(*(f'{bend[k]:.2f}' for k in ('little_lo', 'little_hi')))}). "
                                        f"No ceiling is reached within the data. {noise}.", f, state="rising", **bend)
        tail = trailing_stretch(p, ys, lat) if not alone and "little" in p else None
        if tail is not None:  # no onset, but the trailing steps gained little while the latency grew (round 30 RB)
            return _claim("saturation", f"{trailing_words(result, tail, xs, ys, what, named.strip()[3:])} {noise}.",
                          f, state="near", onset_x=float(xs[tail['i0'] + 1]), plateau=float(ys[-1]),
                          plateau_iops=float(p["iops"].iloc[-1]),
                          plateau_bytes_per_s=float(p["bytes_per_s"].iloc[-1]))
        little_held = _held(p, i0) and span_ok(result, p)  # jobs that ran the whole run (round 31 TA)
        flat = median_flat(p) if np.isfinite(lg) and lg > g and not sub else None  # round 24 CB
        lat_words = (f"; fio's mean latency grew {lg:+.0%} per doubling in it, more than the throughput "
                     f"({median_flat_words(flat)})" if flat else
                     f"; fio's mean latency grew {lg:+.0%} per doubling in it, more than the throughput "
                     f"({queued_words(g, little_held)})" if np.isfinite(lg) and lg > g and not sub else
                     ";" + _submit_words(lg, sub) if sub else "")
        shrink = shrinking(xs, ys) is not None
        took = latency_took(p, i0) if shrink and not alone and xs.size >= 4 else None
        if took is not None:  # every gain smaller than the last, and the last doubling mostly waited (round 22 XC)
            lo, hi = took["little"]
            # one verdict a sentence: the last step's Little test leads, and no "no approach … is shown" beside it
            # (set after round 29 was read: OD, r29_here-vdammap … numjobs)
            bw = _verdict_words(result, xs, ys, p, s, True)
            bw = "" if "no approach" in bw or "do not show" in bw else f" — {bw}"
            return _claim("saturation", f"Measured {what} still rises at the largest {x}, more slowly, towards a "
                                        f"limit it has not reached within the data: {added}{named} "
                                        f"({step}) while fio's mean latency grew {lg:+.0%} per doubling "
                                        f"({fmt_y(took['lat'][0], 's')} → {fmt_y(took['lat'][1], 's')}) with the I/O "
                                        f"asked for outstanding (Little's law {span(f'{lo:.2f}', f'{hi:.2f}')}): most of "
                                        f"the added load waited. Step by step "
                                        f"{_gains_words(result, xs, ys, p=p, drift=s.get('drift'))}{bw}. {noise}.", f)
        gw = _gains_words(result, xs, ys, p=p, drift=s.get('drift'))
        # (the means' gains compared only where the list shows the means: not beside a list by the medians, r25 CG)
        gl = None if noun_of(x) is not None or "by the medians" in gw else _gains_of(xs, ys)
        shape = (f" Step by step {gw} — {_verdict_words(result, xs, ys, p, s, shrink, gl)}." if xs.size >= 4 else
                 f" Step by step {_gains_words(result, xs, ys, p=p, drift=s.get('drift'))}." if xs.size == 3 else "")
        rg = device_regimes(xs, ys) if noun_of(x) is not None else None
        if rg is not None:  # the per-device rate fell at one step and held on each side: two linear regimes (r29 NB)
            nn, i = noun_of(x), rg["i"]
            rates = ", ".join(f"{fmt_y(v, u)} at {_xv(result, c)}" for v, c in zip(rg["rates"], rg["x"]))
            shape += (f" Per {nn}: {rates} — {rg['fall']:.0%} lower from {_xv(result, xs[i + 1])} on than up to "
                      f"{_xv(result, xs[i])}, and within {REGIME_HOLD:.0%} on each side: two linear regimes, a lower "
                      f"rate per {nn} set in between {_xv(result, xs[i])} and {_xv(result, xs[i + 1])}, not a bend "
                      f"toward a ceiling.")
        return _claim("saturation", f"Measured {what} still rises at the largest {x}: {added}{named} "
                                    f"({step}){alone}{lat_words}, so no ceiling is reached within the data.{shape} "
                                    f"{noise}.", f)
    if state == "near" and s.get("last_span") is not None:  # the last span of about a doubling (round 28 JF)
        ls = s["last_span"]
        tw = ("fio's mean latency" if ls["t_kind"] == "latency" else
              "the time per I/O (outstanding ÷ IOPS by Little's law; the files give no latency)")
        sg = ", ".join(format(v, "+.0%") for v in ls["span_gains"])
        lst = (f", still {ls['last_step']:+.0%} at the last step (×{ls['last_ratio']:.3g} the {x})"
               if ls["last_step"] > 0 else "")
        return _claim("saturation", f"Measured {what} is near saturation from {x} = {_xv(result, ls['x0'])}: over the "
                                    f"last ×{ls['ratio']:.3g} of {x} ({_xv(result, ls['x0'])} → {_xv(result, ls['x1'])}) "
                                    f"it gained {ls['step']:+.0%} ({fmt_y(ls['y0'], u)} → {fmt_y(ls['y1'], u)}, "
                                    f"{ls['gain']:+.0%} per doubling) while {tw} grew ×{ls['t_ratio']:.3g} "
                                    f"({fmt_y(ls['t0'], 's')} → {fmt_y(ls['t1'], 's')}): nearly all the added load "
                                    f"waited. The gains per doubling fell from "
                                    f"{span(format(ls['before_lo'], '+.0%'), format(ls['before_hi'], '+.0%'), ' to ')} "
                                    f"({x} = {_xv(result, ls['x_first'])} → {_xv(result, ls['x0'])}) to {sg} after it. "
                                    f"Level {_range_words(result, cf, s['plateau_lo'], s['plateau_hi'])} over {x} = "
                                    f"{span(_xv(result, s['plateau_x_from']), _xv(result, s['plateau_x_to']))}{lst}. "
                                    f"{noise}.", f)
    if state == "near" and s.get("median_onset") is not None:  # the onset by the medians of the kept runs (r28 MA)
        mo = s["median_onset"]
        xs_ = mo["xs"]
        gains = ", ".join(f"{g:+.0%} ({_xv(result, a)} → {_xv(result, b)})"
                          for g, a, b in zip(mo["med_gains"], xs_[:-1], xs_[1:]))
        lats = " and ".join(f"×{v:.3g}" for v in mo["lat_steps"])
        top = (f", carried by one run at {x} = {_xv(result, mo['x_to'])} ({fmt_y(mo['top_run'], u)}; the others "
               f"{', '.join(fmt_y(v, u) for v in mo['other_runs'])})"
               if mo["top_run"] is not None and mo["other_runs"] and mo["mean1"] > mo["med"][-1] else "")
        means = (f" The means gain more ({fmt_y(mo['mean0'], u)} → {fmt_y(mo['mean1'], u)}, {mo['mean_gain']:+.0%} per "
                 f"doubling){top}: the runs of the last points overlap, and their medians decide."
                 if mo["mean_gain"] >= PAYS else "")
        return _claim("saturation", f"Measured {what} saturates from {x} = {_xv(result, mo['x'])} by the medians of its "
                                    f"kept runs: they gained {gains} per doubling of {x} while fio's mean latency grew "
                                    f"{lats} per doubling ({fmt_y(mo['lat0'], 's')} → {fmt_y(mo['lat1'], 's')}) with "
                                    f"Little's law at {span(format(mo['little_lo'], '.2f'), format(mo['little_hi'], '.2f'))}: "
                                    f"the added load queued. Level {_range_words(result, cf, mo['lo'], mo['hi'])} (the "
                                    f"points' medians) over {x} = {span(_xv(result, mo['x']), _xv(result, mo['x_to']))}, "
                                    f"its runs {span(fmt_y(mo['runs_lo'], u), fmt_y(mo['runs_hi'], u), ' to ')}.{means} "
                                    f"{noise}.", f)
    if state == "no_queue":
        return None
    if state == "fall_unshown":  # a lower last point inside the runs' spread: no fall, no level (round 25 EA)
        return _claim("saturation", f"{fall_unshown_words(result, s, level_words(result, cf, s['fall_unshown']['y_max']))}"
                                    + (f" Up to it the load still paid, "
                                       f"{_gains_words(result, xs[:s['fall_unshown']['i_max'] + 1], ys[:s['fall_unshown']['i_max'] + 1], p=p, drift=s.get('drift'))}."
                                       if s["fall_unshown"]["i_max"] >= 1 else "") + f" {noise}.", f, state="unresolved")
    if state == "overlap":  # round 9 GA: the runs overlap, the mean or median gains PAYS: cannot tell
        r0, r1 = s["runs0"], s["runs1"]
        runs = (f" (runs {span(fmt_y(min(r0), u), fmt_y(max(r0), u), ' to ')} and "
                f"{span(fmt_y(min(r1), u), fmt_y(max(r1), u), ' to ')})" if r0 and r1 else "")
        return _claim("saturation", f"From {x} = {_xv(result, s['x0'])} to {_xv(result, s['x1'])} the mean {what} "
                                    f"gained {s['gain']:+.0%} per doubling ({fmt_y(s['y0'], u)} → {fmt_y(s['y1'], u)}) "
                                    f"and the median {s['med_gain']:+.0%}, but the runs of the two overlap{runs}: these "
                                    f"runs cannot tell a rise from a level, so no onset, plateau or fall is claimed.", f, state="unresolved")
    if state == "noisy":
        runs = (f", {fmt_y(s['runs_lo'], u)} to {fmt_y(s['runs_hi'], u)}" if s.get("runs_lo") is not None else
                f" (sd up to {s['cv']:.0%} of the mean)")
        by = f"×{s['ratio']:.3g}" if np.isfinite(s["ratio"]) else "more than any step between the points"
        return _claim("saturation", f"The repeats of one {x} differ by {by} (at {x} = {_xv(result, s['x'])}{runs}), "
                                    f"more than any step between the points' levels: no onset, level or fall can be "
                                    f"read from these runs.", f, state="unresolved")
    if s.get("no_latency"):  # runs wider than every step, no step gaining PAYS, no latency proof: the measurement
        from .sync_time import queue_clause  # a latency column filled: not "no latency" (round 21, VB)

        qw = queue_clause(result, p)
        qw = ", and the files give no latency to tell whether the added load queued" if qw is None else qw
        return _claim("saturation", f"Measured {what} gains nothing with {x} beyond the noise of its runs: a level "
                                    f"from the first point, {level_words(result, cf, s['plateau'])} (the mean of the "
                                    f"{s['n_runs']} runs kept; the points' levels, each the median of its kept runs, "
                                    f"{span(fmt_y(s['plateau_lo'], u), fmt_y(s['plateau_hi'], u), ' to ')} over {x} = "
                                    f"{span(_xv(result, s['onset_x']), _xv(result, s['plateau_x_to']))}), its runs "
                                    f"anywhere from {fmt_y(s['runs_lo'], u)} to {fmt_y(s['runs_hi'], u)}; from the "
                                    f"first point to the last the level gained {s['gain']:+.0%} per doubling of {x}. "
                                    f"The repeats of one {x} differ by up to ×{s['ratio']:.3g} (at {x} = "
                                    f"{_xv(result, s['x'])}), more than any step between the points' levels, so no "
                                    f"onset or fall is read between them{qw}. {noise}.", f)
    if s.get("within_noise"):  # runs wider than every step, yet the load from x_k on queued: the level and its runs
        k0 = s.get("below_x") is not None  # (r10 HB from the first point; r11 KC from a later one, the wide runs below)
        frm = f"holds a level from {x} = {_xv(result, s['onset_x'])} on" if k0 else "is saturated from the first point"
        wide = (f"The runs at {x} = {_xv(result, s['below_x'])} differ by ×{s['below_ratio']:.3g} "
                f"({fmt_y(s['below_lo'], u)} to {fmt_y(s['below_hi'], u)}): whether the level starts there is not told "
                f"from them" if k0 else
                f"The repeats of one {x} differ by up to ×{s['ratio']:.3g} (at {x} = {_xv(result, s['x'])}), more than "
                f"any step between the points' levels, so no onset or fall is read between them")
        return _claim("saturation", f"Measured {what} {frm}, {'its runs' if k0 else 'at a level its runs put'} "
                                    f"anywhere from {fmt_y(s['runs_lo'], u)} to {fmt_y(s['runs_hi'], u)} (the mean of "
                                    f"the {s['n_runs']} runs kept {level_words(result, cf, s['plateau'])}; the points' levels, "
                                    f"each the median of its kept runs, "
                                    f"{span(fmt_y(s['plateau_lo'], u), fmt_y(s['plateau_hi'], u), ' to ')} over {x} = "
                                    f"{span(_xv(result, s['onset_x']), _xv(result, s['plateau_x_to']))}): from "
                                    f"{_xv(result, s['onset_x']) + ' to ' + _xv(result, s['plateau_x_to']) if k0 else 'the first point to the last'} "
                                    f"the level gained {s['gain']:+.0%} per doubling of {x} while fio's mean latency grew "
                                    f"×{s['lat_last'] / s['lat_first']:.3g} ({fmt_y(s['lat_first'], 's')} → "
                                    f"{fmt_y(s['lat_last'], 's')}) for ×{s['load_growth']:.3g} the {x}, with the I/O asked "
                                    f"for outstanding ({span(format(s['little_lo'], '.2f'), format(s['little_hi'], '.2f'))} by Little's "
                                    f"law): the added load queued. {wide}. {noise}.", f)
    level = _both(result, cf, s["plateau"], s.get("plateau_iops"), s.get("plateau_bytes_per_s"))
    if level == fmt_y(s["plateau"], u):  # the table gave one unit only: the other from the bytes per I/O
        level = level_words(result, cf, s["plateau"])
    # every range through wording.span: a plateau whose ends round alike is one value, not "X to X" (blind3)
    rng = span(fmt_y(s['plateau_lo'], u), fmt_y(s['plateau_hi'], u), " to ")
    over = f"{x} = {span(_xv(result, s['onset_x']), _xv(result, s['plateau_x_to']))}"
    sl = s.get("split_level")  # split points set apart: the level over the points it describes (split_level.py)
    over = over_words(result, s) or over
    latw = ""
    if s.get("lat_first") and s.get("lat_last") and s["lat_last"] > s["lat_first"]:
        latw = (f" fio's mean latency grows ×{s['lat_last'] / s['lat_first']:.3g} over it, "
                f"{fmt_y(s['lat_first'], 's')} → {fmt_y(s['lat_last'], 's')}, {little_growth_words(s)}.")
    one = s["plateau_points"] - s.get("plateau_split", 0)  # (a point whose runs split has no level: UA)
    kw = knee_sentence(result, s)  # an onset that had not queued: the points past the knee counted there (round 19 TB)
    npts = len(sl["whole_x"]) if sl else s["plateau_points"]
    plateau = (f" Plateau {level} at {over}, the one point from the onset on whose runs do not split." if sl and npts == 1
               else f" Plateau {level}: {rng} over {over}" + ("." if kw else f", {npts} points.")
               if " to " in rng else f" Plateau {level} at each of the {npts} points over {over}." if sl else f" Plateau {level} over {over}." if kw and one == s["plateau_points"] else
               f" Plateau {level} at each of the {s['plateau_points']} points over {over}." if one == s["plateau_points"]
               else f" Plateau {level} over {over}, at the {'one point' if one == 1 else f'{one} points'} whose runs "
                    f"do not split.")
    ap = s.get("approach")
    if ap is not None:  # the onset point below a flat level: the level from the points after it (round 28 JA, KE)
        rng = span(fmt_y(ap["lo"], u), fmt_y(ap["hi"], u), " to ")
        over_ap = f"{x} = {span(_xv(result, ap['x_from']), _xv(result, ap['x_to']))}"
        plateau = (f" Plateau {level}: {rng} over {over_ap}, {ap['points']} points" if " to " in rng else
                   f" Plateau {level} at each of the {ap['points']} points over {over_ap}")
        plateau += (f"; at {x} = {_xv(result, ap['x'])} the rate, {fmt_y(ap['y'], u)}, was already near saturation, "
                    f"{ap['share']:.0%} of that level.")
    rb = s.get("robust")
    if rb:  # runs far below their point's others are left out of the level and said (round 7, part 2 CA)
        left = ", ".join(f"{fmt_y(v, u)} at {_xv(result, a)}" for a, v in rb["left"])
        plateau = (f" Plateau {level}, the mean of {rb['kept']} of the {rb['runs']} runs over {over} ({rng}); "
                   f"{len(rb['left'])} run{'s' if len(rb['left']) > 1 else ''} more than {DISTURBED:.0%} below "
                   f"the median of the level's runs ({fmt_y(rb['median'], u)}) and below the fastest run of {'its' if len(rb['left']) == 1 else 'their'} "
                   f"point ({left}) left out: {'a run' if len(rb['left']) == 1 else 'runs'} slowed, not the level.")
    elif " to " in rng:  # a kept run far outside the medians' range is counted (round 23 AD: level_stat)
        from .level_stat import outside_words

        xs_all = p["x"].to_numpy(float)
        on = np.flatnonzero((xs_all >= s["onset_x"]) & (xs_all <= s["plateau_x_to"]))
        if on.size:
            plateau += outside_words(result, p, int(on[0]), int(on[-1]), s["plateau_lo"], s["plateau_hi"],
                                     only=sl["whole_index"] if sl else None)
    if state == "from_first":
        bump = s.get("bump")
        if bump is not None:  # the onset point a bump above earlier points already on the level (round 24 CC)
            at = " and ".join(_xv(result, v) for v in bump["xs_before"])
            meds = ", ".join(fmt_y(v, u) for v in bump["meds_before"])
            later = (f", above the median{'s' if len(bump['above_later']) > 1 else ''} at {x} = "
                     f"{' and '.join(_xv(result, v) for v in bump['above_later'])} after it" if bump["above_later"] else "")
            head = (f"Measured {what} is saturated from the first point: the median{'s' if len(bump['xs_before']) > 1 else ''}"
                    f" at {x} = {at} ({meds}) already lie{'' if len(bump['xs_before']) > 1 else 's'} within the level's "
                    f"own range ({fmt_y(bump['lo'], u)} to {fmt_y(bump['hi'], u)}), so {x} = {_xv(result, bump['x_bump'])}"
                    f" ({fmt_y(bump['bump'], u)}{later}) is a bump in that scatter, not an onset.")
        else:
            head = f"Measured {what} is saturated from the first point: no later point gains {PAYS:.0%} per doubling of {x} over it."
        text = f"{head}{plateau}{latw}{split_points_words(result, s)}"
        out = p["out"].to_numpy(float)
        mixed = directions_words(result, cf)
        if mixed:
            text += mixed
        elif _targets(result, cf) > 1:  # several targets are not one path (round 6 BC: filename=/dev/loop0:/dev/loop1)
            text += (f" The jobs spread their I/O over {_targets(result, cf):g} targets side by side: the level is not "
                     f"one serial path's service time (a rate per target, or a cap or pace, sets it).")
        elif np.isfinite(out[0]) and out[0] == 1 and np.isfinite(lat[0]) and lat[0] > 0 and u == "1/s" \
                and abs((1 / lat[0]) / ys[0] - 1) <= 0.25 and not s.get("tail") and not s.get("upper") and known_one(result, p):
            # a flat median: not each I/O's time; the one I/O only where numjobs is named, the queueing only where
            # the latency grew with the load (one_outstanding; set after round 21's fixes were reviewed: asct)
            # the submit call as the serial server where each job spent ≥ 90 % of its time in it (round 25 EC)
            held = submit_holder_words(result, p)
            if not held:  # the wait placed above an idle device (round 30 RG)
                from .above_device import waited_above_words

                held = waited_above_words(result, cf)
            text += (f" With one I/O in flight each took {fmt_y(lat[0], 's')}, and 1 ÷ {fmt_y(lat[0], 's')} = "
                     f"{fmt_y(1 / lat[0], '1/s')}: a limit reached at the first point"
                     + (", and more outstanding I/O only queues in front of it." if queues(result, p) and not held
                        else ".")
                     + (held or UNKNOWN_HOLDER))
        elif np.isfinite(out[0]) and out[0] > 1:
            text += f" The limit is reached at or below the smallest load measured, {_fx(out[0])} I/Os outstanding."
        elif np.isfinite(out[0]) and out[0] == 1:  # without fio's latency 1 ÷ IOPS is each I/O's mean time by
            # Little's law (set after round 21 was read: WF, r21_noxdb … 1m-seqwrite_qd, nothing said); the count only
            # where numjobs is named and fio's latency, where given, puts one I/O in flight (one_outstanding, asct)
            io = float(p["iops"].iloc[0]) if "iops" in p else float("nan")
            text += one_words(result, p, io)
        return _claim("saturation", f"{text} {noise}.", f, stated_level=s.get("plateau"),
                      holder_unknown=UNKNOWN_HOLDER if UNKNOWN_HOLDER in text else "")
    if s.get("between") is not None and state == "onset":  # one point on the level (round 6 BD)
        k, a = s["onset_index"], s["between"]
        j = int(np.flatnonzero(xs == a)[0])
        was = (f"fio's mean latency, {fmt_y(lat[j], 's')}, was ×{lat[j] / lat[:j].min():.3g} the "
               f"{fmt_y(lat[:j].min(), 's')} of lighter loads")
        why = (f"at {x} = {_xv(result, a)} {was}, still the unloaded one, so the rate still grew with the load there "
               f"(Little's law)" if s.get("between_why") == "unloaded" else
               f"the step from {_xv(result, a)} spans ×{xs[j + 1] / xs[j]:.3g} the {x} and still added "
               f"{ys[j + 1] / ys[j] - 1:+.0%}, so where in it the level was reached is not measured (at {x} = "
               f"{_xv(result, a)} {was}: part of the load queued there already)")
        return _claim("saturation", f"Measured {what} reaches its level between {x} = {_xv(result, a)} and "
                                    f"{_xv(result, xs[k])}: {why}; the "
                                    f"step to {_xv(result, xs[k])} added {ys[k] / ys[k - 1] - 1:+.0%} for "
                                    f"×{xs[k] / xs[k - 1]:.3g} the {x} while the latency grew "
                                    f"×{lat[k] / lat[k - 1]:.3g} — the added load queued. The level, {level}, rests "
                                    f"on the one point measured on it ({x} = {_xv(result, xs[k])}). {noise}.", f)
    before, stated = "", s.get("plateau")
    if rb:  # the runs the level left out are out of the step list too (round 27, IG: kept_steps)
        from .kept_steps import without_left

        ys = without_left(p, ys, rb["left"])
    if s.get("gain_before") is not None:
        k = s["onset_index"]
        own = (f"{ys[k] / ys[k - 1] - 1:+.0%} for ×{xs[k] / xs[k - 1]:.3g} the {x}, "
               if abs(xs[k] / xs[k - 1] - 2) > 0.01 else "")  # the step's own gain first (round 5: +4.5 % for ×1.06)
        from .steps import doubling_gains  # (the list's own kept-run means, not the fact's all-run means: a run set
        # aside is out of every number of the sentence — set after round 27 was read: r27_here-filestat, "+78%" from
        # the 2-job mean with its left-out run, +98% by the kept runs, IG)
        gb = float(doubling_gains(xs[k - 1:k + 1], ys[k - 1:k + 1])[0])
        before = (f" Up to it the load still paid: {own}{gb:+.0%} per doubling from "
                  f"{fmt_y(ys[k - 1], u)} at {x} = {_xv(result, xs[k - 1])}.")
        from .wide_runs import first_words, median_step

        ms = median_step(result, p, k - 1, k, lambda v: f"{v:+.0%}")  # (round 24 CG: runs ×WIDE_RUNS apart)
        if ms is not None:
            before = f" Up to it the load still paid: {ms}, from {first_words(result, p, k - 1) or fmt_y(ys[k - 1], u)}."
        if wide_gap(xs[k - 1], xs[k]):  # no gain per doubling over unsampled doublings (round 21 WC: gaps.py)
            before = (f" Up to it the load still paid: {ys[k] / ys[k - 1] - 1:+.0%} for ×{xs[k] / xs[k - 1]:.3g} the "
                      f"{x}, from {fmt_y(ys[k - 1], u)} at {x} = {_xv(result, xs[k - 1])}, with no point between: "
                      f"the level is reached somewhere in ({_xv(result, xs[k - 1])}, {_xv(result, xs[k])}], "
                      f"not measured closer.")
            if k > 1:
                before += (f" The rise began at {fmt_y(ys[0], u)} at {x} = {_xv(result, xs[0])} (×{ys[k] / ys[0]:.3g} "
                           f"to the onset for ×{xs[k] / xs[0]:.3g} the {x}).")
        elif 2 <= k <= 4 or (k == 1 and noun_of(x) is not None and _yields_yardstick(p)):  # every step from the first
            # point, not the last one only (set after round 20 was read: RE); along devices the one step too, as a yield
            # per added device (set after round 31 was read: SG, spdk p3.1 "+193% for ×3 the targets, +97% per doubling")
            before = f" Up to it the load still paid, {_gains_words(result, xs[:k + 1], ys[:k + 1], p=p, drift=s.get('drift'))}."
        elif k > 4:  # many steps: the last one's gain, and where the rise began
            before += (f" The rise began at {fmt_y(ys[0], u)} at {x} = {_xv(result, xs[0])} (×{ys[k] / ys[0]:.3g} "
                       f"to the onset for ×{xs[k] / xs[0]:.3g} the {x}).")
        from .near_saturation import near_stretch, near_words

        ns = near_stretch(p, k, ys, lat) if not wide_gap(xs[k - 1], xs[k]) else None
        if ns is not None:  # doublings at ≥ ×1.6 the latency were near saturation, not "still paid" (round 29 OA)
            i0 = ns["i0"]
            reps = p["n_runs"].to_numpy(float)  # the statistic named only where the points have runs (r20 SI)
            before = near_words(result, ns, xs, ys, lat, "the means" if np.nanmax(reps) >= 2 else "")
            if i0 >= 1:
                before += (f" Up to {x} = {_xv(result, xs[i0])} the load still paid, "
                           f"{_gains_words(result, xs[:i0 + 1], ys[:i0 + 1], p=p, drift=s.get('drift'))}.")
        from .near_saturation import under_bar_words

        ub = under_bar_words(result, p, xs, ys, k, lat) if ns is None and ms is None else ""
        if ub:  # a step under the onset's own bar is not "the load still paid" (round 31 SE)
            before = (f" Up to {x} = {_xv(result, xs[k - 1])} the load still paid, "
                      f"{_gains_words(result, xs[:k], ys[:k], p=p, drift=s.get('drift'))}.{ub}" if k >= 2 else ub)
        elif ns is None and ms is None and not wide_gap(xs[k - 1], xs[k]):
            from .near_saturation import early_under_bar_words

            eb, ei, ej = early_under_bar_words(result, p, xs, ys, k, lat)
            if eb:  # a listed step before the onset under the bar is not "the load still paid" either (round 32 UB);
                # the steps that paid before it and after it stay listed
                pre = (f" Up to {x} = {_xv(result, xs[ei])} the load still paid, "
                       f"{_gains_words(result, xs[:ei + 1], ys[:ei + 1], p=p, drift=s.get('drift'))}."
                       if ei >= 1 else "")
                post = (f" Then the load paid again, {_gains_words(result, xs[:k + 1], ys[:k + 1], i0=ej, p=p)}, "
                        f"into the onset." if ej < k - 1 else "")
                before = pre + eb + post
    br = s.get("by_runs")
    if br is not None and s.get("gain_before") is not None:  # runs spread past the steps: the rise read on the runs
        k, lo, hi = s["onset_index"], br["runs_lo"], br["runs_hi"]
        i = max(i for i in range(k) if lo[k] > hi[i])
        a, b = br["apart"]
        aside = cf.points.loc[cf.points["x"] == br["x"], "stalled"] if "stalled" in cf.points else []
        of_kept = " (of its kept runs: one or more set aside as stalled, named below)" if any(len(v) for v in aside) else ""
        before = (f" The runs of one {x} differ by up to ×{br['ratio']:.3g} (at {x} = {_xv(result, br['x'])}{of_kept}), so a "
                  f"step is read only where the runs of two points do not overlap: every run at {_xv(result, xs[k])} "
                  f"({span(fmt_y(lo[k], u), fmt_y(hi[k], u), ' to ')}) is above every run at {_xv(result, xs[i])} "
                  f"(the highest {fmt_y(hi[i], u)})" + (f", and every run at {_xv(result, xs[b])} above every run at "
                                                     f"{_xv(result, xs[a])}" if (a, b) != (i, k) else "") + ".")
        hb = s.get("held_back")
        if hb is not None:  # the earlier point the runs' test passed, held back by the means (round 20 SD)
            own = (f" ({hb['step']:+.0%} for ×{hb['ratio']:.3g} the {x})" if abs(hb["ratio"] - 2) > 0.01 else "")
            above = (f"every run at {_xv(result, hb['x'])} is above every run at {_xv(result, hb['above_x'])} and "
                     if hb["above_x"] is not None else "")
            before += (f" At {x} = {_xv(result, hb['x'])} {above}no later point's runs lie above its runs either, but "
                       f"the means still gained {hb['gain']:+.0%} per doubling from {_xv(result, hb['x'])} to "
                       f"{_xv(result, hb['x_next'])}{own} over runs that overlap: these runs do not tell whether the "
                       f"level starts at {_xv(result, hb['x'])}, so the onset is read at {_xv(result, xs[k])}, where "
                       f"neither the runs nor the means of a later point gain {PAYS:.0%} per doubling.")
    if s.get("gain_before") is not None:  # the lightest load's longer time per I/O (round 28, LE)
        from .first_step import first_step_words

        before += first_step_words(result, cf)
    pts = cf.points
    split = bool(pts["split"][(pts["x"] >= s["onset_x"]) & (pts["x"] <= s["plateau_x_to"])].any())
    if ev is not None and ev.plateau is not None and state == "onset" and ev.plateau["x_from"] == s["onset_x"] \
            and not rb and not split and ap is None:  # (its mean pools every run: over a split point, no group's level
        # — UA; nor over an approach point and the level after it — round 28 JA, KE)
        # the noise test of evidence.py finds the same plateau: its words (mean and sd of every run in it) lead
        from .claim import _level_runs

        first = level_words(result, cf, ev.plateau["value"])  # IOPS and bytes/s at large blocks (issue 28)
        stated = ev.plateau["value"]  # (the number said, for the verification pass)
        text = (f"Measured {what} flattens at {first} ({_level_runs(result, ev.plateau)}): "
                f"saturated from {x} = {_xv(result, s['onset_x'])}: no later point gains {PAYS:.0%} per doubling of {x} "
                f"over it"
                + (f" ({_both(result, cf, s['plateau'], s.get('plateau_iops'), s.get('plateau_bytes_per_s'))})"
                   if level != fmt_y(s["plateau"], u) and first == fmt_y(ev.plateau["value"], u) else "")
                + f".{kw}{latw}{before}")
    else:
        text = (f"Measured {what} saturates from {x} = {_xv(result, s['onset_x'])}: no later point gains {PAYS:.0%} "
                f"per doubling of {x} over it.{plateau}{kw}{latw}{before}")
    if state == "falls":
        d = s["falls"]
        drop = f"{d['drop']:.0%}" if f"{d['drop']:.0%}" != f"{FLAT:.0%}" else f"{d['drop']:.1%}"  # 10.1 %, > 10 %
        head = (f"Measured {what} peaks at {level_words(result, cf, d['y_max'])} at {x} = {_xv(result, d['x_max'])} and falls "
                f"{drop} to {fmt_y(ys[-1], u)} at {x} = {_xv(result, xs[-1])}, " +
                (f"every run at {_xv(result, xs[-1])} below every run at {_xv(result, d['x_max'])}." if d.get("apart")
                 else f"{fall_shown_words(result, d['by_runs'])}." if d.get("by_runs") else f"beyond {d['basis']}."))
        if d.get("held"):  # the peak repeated by the next points: held from a to b, falls from c (round 19 UG)
            head = held_head(result, what, level_words(result, cf, d["y_max"]), d, f"{fmt_y(ys[-1], u)} at {x} = "
                             f"{_xv(result, xs[-1])}", drop,
                             f"every run at {_xv(result, xs[-1])} below every run at {_xv(result, d['x_max'])}."
                             if d.get("apart") else f"{fall_shown_words(result, d['by_runs'])}." if d.get("by_runs")
                             else f"beyond {d['basis']}.")
        from .device_collapse import trough_words  # along devices the trough and the last point (round 31 SG)

        head = trough_words(result, xs, ys, d, head, drop)
        la, one = d.get("level_after"), d.get("one_step")
        if one is not None and not la and not d.get("held"):  # one step down, then a lower level held to the last
            # point (round 20 SE)
            head = (f"Measured {what} peaks at {level_words(result, cf, d['y_max'])} at {x} = "
                    f"{_xv(result, d['x_max'])} and falls in one step to {x} = {_xv(result, one['x_from'])} "
                    f"({one['step']:+.0%}, every run at {_xv(result, one['x_from'])} below every run at "
                    f"{_xv(result, d['x_max'])}), then holds a lower level to {_xv(result, one['x_to'])}: "
                    f"{_range_words(result, cf, one['lo'], one['hi'])} over {one['points']} points, its runs "
                    f"{span(fmt_y(one['runs_lo'], u), fmt_y(one['runs_hi'], u), ' to ')}.")
        sl = d.get("slide_level")  # a fall over several steps, then a level held to the last point (round 27, HC)
        if sl and not la and one is None and not d.get("held"):
            from .fall_level import LEVEL_BAND

            grow = (f"; over it the mean latency grows ×{sl['lat_to'] / sl['lat_from']:.3g} "
                    f"({fmt_y(sl['lat_from'], 's')} → {fmt_y(sl['lat_to'], 's')}) for "
                    f"×{sl['x_to'] / sl['x_from']:.3g} the {x}, as Little's law gives at a held rate: saturated "
                    f"at that level from {x} = {_xv(result, sl['x_from'])}"
                    if sl.get("lat_from") and sl.get("lat_to") else "")
            head = (f"Measured {what} peaks at {level_words(result, cf, d['y_max'])} at {x} = "
                    f"{_xv(result, d['x_max'])}, falls {1 - sl['value'] / d['y_max']:.0%} "
                    f"{'in one step' if xs[xs > d['x_max']][0] == sl['x_from'] else 'over the steps'} to {x} = "
                    f"{_xv(result, sl['x_from'])}, then levels at {fmt_y(sl['value'], u)} "
                    f"({span(fmt_y(sl['lo'], u), fmt_y(sl['hi'], u), ' to ')} over {x} = "
                    f"{span(_xv(result, sl['x_from']), _xv(result, sl['x_to']))}, {sl['points']} points, each within "
                    f"±{LEVEL_BAND:.0%} of the level){grow}.")
        tr = (la or {}).get("trend")  # the later points drift one way: a further fall, no level (round 21 WA)
        if la and la.get("high") is not None:  # two levels, each of ≥ 2 points: the step between them (round 5 AA)
            head = (f"Measured {what} steps down between two levels: {level_words(result, cf, la['high'])} "
                    f"({span(fmt_y(la['high_lo'], u), fmt_y(d['y_max'], u), ' to ')} over {x} = "
                    f"{span(_xv(result, la['high_from']), _xv(result, d['x_max']))}, {la['high_points']} points), then "
                    f"{level_words(result, cf, la['value'])} ({span(fmt_y(la['lo'], u), fmt_y(la['hi'], u), ' to ')} "
                    f"over {x} = {span(_xv(result, la['x_from']), _xv(result, la['x_to']))}, {la['points']} points): "
                    f"a step of −{drop} between {x} = {_xv(result, d['x_max'])} and {_xv(result, la['x_from'])}, not a "
                    f"decline along {x}; with one run a point a change between the runs is not told from an effect "
                    f"of {x}.")
            if tr:  # (round 21 WA: the later "level" drifts one way)
                head = (f"Measured {what} steps down from {level_words(result, cf, la['high'])} "
                        f"({span(fmt_y(la['high_lo'], u), fmt_y(d['y_max'], u), ' to ')} over {x} = "
                        f"{span(_xv(result, la['high_from']), _xv(result, d['x_max']))}, {la['high_points']} points) "
                        f"to {fmt_y(tr['y_from'], u)} at {x} = {_xv(result, la['x_from'])}, {_trend_words(result, tr)}; "
                        f"with one run a point a change between the runs is not told from an effect of {x}.")
            text = (f"{head} It saturates from {x} = {_xv(result, s['onset_x'])} (no later point gains {PAYS:.0%} "
                    f"per doubling over it).{kw}{latw}{before}")
            return _claim("saturation", f"{between_words(result, s, text)} {noise}.", f)
        if la:  # one high single-run point, then a level: the level is the reading, the point beside it (blind3 Q)
            head = (f"Measured {what} is level at {level_words(result, cf, la['value'])} "
                    f"({span(fmt_y(la['lo'], u), fmt_y(la['hi'], u), ' to ')} over {x} = "
                    f"{span(_xv(result, la['x_from']), _xv(result, la['x_to']))}, {la['points']} points) after one "
                    f"higher point, {fmt_y(d['y_max'], u)} at {x} = {_xv(result, d['x_max'])}: the drop of "
                    f"{1 - ys[xs > d['x_max']][0] / d['y_max']:.1%} to {fmt_y(ys[xs > d['x_max']][0], u)} at "
                    f"{_xv(result, la['x_from'])} is that one step, not a decline along {x}, and with one run a point a single high point is not "
                    f"told from a change between the runs.")
            if tr:  # the points after the one step drift one way beyond the band: no level (round 21 WA)
                head = (f"Measured {what} peaks at {level_words(result, cf, d['y_max'])} at {x} = "
                        f"{_xv(result, d['x_max'])} and drops {1 - tr['y_from'] / d['y_max']:.1%} in one step to "
                        f"{fmt_y(tr['y_from'], u)} at {x} = {_xv(result, la['x_from'])} (with one run a point a single "
                        f"high point is not told from a change between the runs), {_trend_words(result, tr)}.")
        steps = d.get("steps") or []
        if sl and not la and one is None and not d.get("held"):  # the steps up to the level's onset only (round 27)
            steps = [st for st in steps if st[1] <= sl["x_from"]]
        if not la and sum(abs(g) > LEVEL_STEP for _, _, g in steps) >= 2:  # a fall spread over steps: each (round 6 BA)
            head += (" Step by step: " + ", ".join(
                f"{g:+.1%} ({x} = {_xv(result, a)} → {_xv(result, b)})" for a, b, g in steps) + ".")
        held = d.get("held")
        if s["plateau_points"] < 2 or (held and s["onset_x"] == d["x_max"]):  # the maximum is the onset itself (held
            # or not): no stretch before it to give a range over
            text = (f"{head} No later point gains {PAYS:.0%} per doubling of {x} over the maximum"
                    + (f", the smallest {x}" if s["onset_index"] == 0 else "") + f".{kw}{latw}{before}")
        else:
            # the peak is its runs' mean, the level the points' medians: where the peak point prints two values, each
            # is named (set after round 19 was read: r19_here-batch … batch32 numjobs, UB, "peaks at 149.57 K" beside
            # "136.06 K IOPS to 144.80 K IOPS over numjobs = 1–2", nj 2's mean and median)
            two = s.get("robust") is None and fmt_y(d["y_max"], u) != fmt_y(s["plateau_hi"], u)
            stat = " by each point's median run (the peak above is its runs' mean)" if two else ""
            to = held["x_to"] if held else d["x_max"]
            text = (f"{head} It saturates from {x} = {_xv(result, s['onset_x'])} (no later point gains {PAYS:.0%} "
                    f"per doubling over it); up to {f'{x} = {_xv(result, to)}' if held else 'the maximum'}{stat}: "
                    f"{level}, {rng} over {x} = {span(_xv(result, s['onset_x']), _xv(result, to))}.{kw}{latw}{before}")
    if br is not None:  # no later point's runs lie above the onset's by PAYS per doubling (round 6 BE)
        text = text.replace(f"no later point gains {PAYS:.0%} per doubling of {x} over it",
                            f"no later point's runs lie above its runs by {PAYS:.0%} per doubling of {x}"
                            + (", nor does a later mean gain that much over its mean" if s.get("held_back") else ""))
    qn = s.get("onset_noise")
    if qn is not None:  # a later mean gains PAYS, within its runs' noise: that test decided, said (round 18 ZA)
        said = (f"no later point gains {PAYS:.0%} per doubling of {x} over it beyond its runs' noise ({x} = "
                f"{_xv(result, qn['x'])}: {qn['gain']:+.0%} per doubling by means, runs "
                f"{span(fmt_y(qn['runs'][0], u), fmt_y(qn['runs'][1], u), ' to ')} against "
                f"{span(fmt_y(qn['onset_runs'][0], u), fmt_y(qn['onset_runs'][1], u), ' to ')} at {x} = "
                f"{_xv(result, s['onset_x'])}, within twice the means' standard error)")
        text = text.replace(f"no later point gains {PAYS:.0%} per doubling of {x} over it", said)
        text = text.replace(f"no later point gains {PAYS:.0%} per doubling over it", said)
    od = s.get("onset_doubling")
    if od is not None and qn is None:  # the measured doubling from the onset decided, not a short sub-step (r29 ND)
        said = (f"no later point gains {PAYS:.0%} per doubling of {x} over it, measured over the doubling to "
                f"{x} = {_xv(result, od['x1'])} ({od['step']:+.1%}; the shorter step to {_xv(result, od['short_x'])}, "
                f"{od['short_step']:+.1%} for ×{od['short_ratio']:.3g}, is not raised to a doubling)")
        text = text.replace(f"no later point gains {PAYS:.0%} per doubling of {x} over it", said)
        text = text.replace(f"no later point gains {PAYS:.0%} per doubling over it", said)
        runs = f"no later point's runs lie above its runs by {PAYS:.0%} per doubling of {x}"
        if runs in text and said not in text:  # (the runs' test decided: the means over the doubling said beside it)
            text = text.replace(runs, f"{runs}, and the means gained {od['step']:+.1%} over the doubling to {x} = "
                                      f"{_xv(result, od['x1'])} (the shorter step to {_xv(result, od['short_x'])}, "
                                      f"{od['short_step']:+.1%} for ×{od['short_ratio']:.3g}, is not raised to a "
                                      f"doubling)", 1)
    lo_step, hi_step = s.get("step_lo"), s.get("step_hi")
    if rb and lo_step is not None and s.get("split_level") is None and s.get("onset_index") is not None:
        # the steps after the onset from the runs the level kept, as the step list before it (round 31 SF: fiolab's
        # "-11%" kept the QD8 run the plateau left out; -0.5 % without it)
        ws = np.asarray(ys, float)[s["onset_index"]:]
        if ws.size >= 2 and (ws > 0).all():
            lo_step, hi_step = float((ws[1:] / ws[:-1] - 1).min()), float((ws[1:] / ws[:-1] - 1).max())
    if lo_step is not None and hi_step is not None and br is None and (hi_step >= PAYS or lo_step <= -PAYS) \
            and state != "falls":
        text += _after_onset(result, s, lo_step, hi_step)
    text = between_words(result, s, text)  # (after the phrases above replaced theirs: "over it" names the onset)
    text += split_points_words(result, s) if sl else _split_words(result, cf, s.get("onset_x"))
    return _claim("saturation", f"{text} {noise}.", f, stated_level=stated)


def _trend_words(result, tr: dict) -> str:
    """A one-signed drift after a step (fall_shape.trend_after), its steps each said: no level (round 21 WA)."""
    x, u, down = result.x, result.y_unit, tr["change"] < 0
    each = all((g < 0) == down and g != 0 for _, _, g in tr["steps"])
    return (f"then {'falls a further' if down else 'rises again by'} {abs(tr['change']):.1%} to {fmt_y(tr['y_to'], u)} "
            f"at {x} = {_xv(result, tr['x_to'])}, "
            + ("every step " + ("down" if down else "up") if each else
               f"no step back {'up' if down else 'down'} beyond {AGAINST:.0%}")
            + " (" + ", ".join(f"{g:+.1%} {_xv(result, a)} → {_xv(result, b)}" for a, b, g in tr["steps"])
            + f"): no level after the step, a {'decline' if down else 'rise'} along {x}")


def _split_words(result, cf: CurveFacts, x_from) -> str:
    """Points on the level whose kept runs split in two groups (facts.point_levels): they have no single level, and
    a level pooled over them is no rate a run sat at — said, not averaged away (set after round 12 was read: NA,
    r12_here-sched_loop-kyber_libaio_randwrite_iodepth_repeats, "flattens at 79.04 K" over 42–43 K and 114 K at QD32)."""
    from .point_runs import point_levels

    if x_from is None:
        return ""
    u, parts = result.y_unit, []
    for i, d in enumerate(point_levels(result, cf.points)):
        if d["split"] and d["x"] >= x_from:
            v = np.sort(_runs_kept(result, cf, i, d))
            g = int(np.argmax(v[1:] / v[:-1])) + 1
            parts.append(f"{_xv(result, d['x'])} ({span(fmt_y(v[0], u), fmt_y(v[g - 1], u))} and "
                         f"{span(fmt_y(v[g], u), fmt_y(v[-1], u))})")
    if not parts:
        return ""
    return (f" At {result.x} = {', '.join(parts)} the runs split into two groups more than ×2 apart: "
            f"{'that point has' if len(parts) == 1 else 'those points have'} no single level (these files do not "
            f"show which group is the undisturbed one).")


def _runs_kept(result, cf: CurveFacts, i: int, d: dict):
    from .point_runs import _run_values

    v = _run_values(result, cf.points, i)
    return np.array([r for r in v if not any(np.isclose(r, t) for t in d["stalled"])], float)


def _targets(result, cf: CurveFacts) -> float:
    """How many targets each run's jobs used side by side (:func:`~nvmemodel.fitting.devices.parallel_targets`: files,
    or the bottom devices fio lists — a stacked device and its drive are one path), else 1."""
    from .claim import runs_rows
    from .devices import parallel_targets

    rows = runs_rows(result, cf.points)
    return parallel_targets(rows) if rows is not None else 1.0


def _starved_level(result, cf, sd_j: float, sd_last: float, u: str) -> str:
    """The end of the near-saturation sentence: the runs' overlap, and the level fio's CPU figures read where the jobs
    were CPU-starved (:mod:`~nvmemodel.fitting.cpu_starved`; set after round 28 was read, MB)."""
    from .cpu_starved import cpu_starved, starved_level_words

    overlap = f"The runs of the last two points overlap (sd {fmt_y(sd_j, u)} and {fmt_y(sd_last, u)})"
    st = cpu_starved(result, cf)
    if st is None:
        return f". {overlap}, so the level is not read from them"
    return (f" — for a CPU, not at a device. {overlap} because each run got a different CPU share: "
            f"{starved_level_words(result, st)}")

