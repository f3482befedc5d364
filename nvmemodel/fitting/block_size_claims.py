"""The block-size claims beside the cap: a step in IOPS between sizes, the small sizes' levels, a creep or a level after
a peak, and the IOPS said along sizes.
"""

from __future__ import annotations

import numpy as np

from .cap_claims import _cap_claims, _cap_words
from .direction_words import _capped
from .fact_base import FLAT, CurveFacts, Fact
from .fact_words import BIG_BLOCK, _claim, _xv
from .knee_words import cpu_level_words
from .wording import _fx, fmt_y, span


def _is_level(x: np.ndarray, v: np.ndarray) -> bool:
    """No adjacent step of ``v`` changes it by FLAT or more per doubling of ``x``: a level (round 10, HD)."""
    with np.errstate(all="ignore"):
        per = (v[1:] / v[:-1]) ** (1 / np.log2(x[1:] / x[:-1])) - 1
    return bool(np.all(np.isfinite(per)) and np.all(np.abs(per) < FLAT))


def size_step(result, ev) -> dict | None:
    """Along block size with bandwidth fitted, each side of the step in the unit it is level in — bytes/s, else IOPS,
    else none — and the step between the adjacent points (set after round 10 was read: r10_dgfiobench_palacios…_bs,
    HD: 8.6 → 48.6 MB/s at 4–32 KiB, ×1.6–×1.9 a doubling, was printed as a 25.9 MB/s level and ×55.5 a ratio of
    means where the adjacent step is ×27.5)."""
    if result.x != "block_size_bytes" or result.y_unit != "B/s" or not ev.step:
        return None
    k = int(np.searchsorted(ev.x, ev.step["high"]["x_from"]))
    sides = []
    for idx in (slice(0, k), slice(k, None)):
        x, v = ev.x[idx], ev.y[idx]
        unit = "B/s" if _is_level(x, v) else ("1/s" if _is_level(x, v / x) else None)
        sides.append({"unit": unit, "x": x, "bytes": v, "iops": v / x})
    return {"sides": sides, "levels": all(sd["unit"] for sd in sides), "k": k, "step": float(ev.y[k] / ev.y[k - 1])}


def stream_evidence(result, key):
    """:func:`~nvmemodel.fitting.claim.curve_evidence` without a step where one serial stream's line describes every
    size (``facts.one_stream``): one regime, no "two regimes" (set after round 17 was read: YA,
    r17_openzfs7834_…_qd1-1job_sync_bs, "jumps ×5.97 … two regimes?" beside its own R² 0.9993 fit)."""
    import dataclasses

    from .claim import curve_evidence
    from .facts import curve_facts

    ev, struct = curve_evidence(result, key)
    if ev.step and curve_facts(result, key).one_stream is not None:
        ev = dataclasses.replace(ev, step=None)
    return ev, struct


def step_sides(result, ev) -> str:
    """What the two sides of a step are: "levels", or "regimes" along block size where one is no level."""
    return "regimes" if (size_step(result, ev) or {"levels": True})["levels"] is False else "levels"


def size_step_text(result, ev, level) -> str | None:
    """The step sentence along block size (see :func:`size_step`); ``level`` words a side level in bytes/s."""
    st = size_step(result, ev)
    if st is None:
        return None
    x, k = result.x, st["k"]

    def side(sd, p):
        lo, hi = _xv(result, sd["x"][0]), _xv(result, sd["x"][-1])
        iops = span(fmt_y(sd["iops"].min(), "1/s"), fmt_y(sd["iops"].max(), "1/s"))
        if sd["unit"] == "B/s":
            return level(p)
        if sd["unit"] == "1/s":
            return f"an IOPS level of {iops} at {x} = {span(lo, hi)} (bandwidth grows with the size there)"
        g = sd["bytes"][-1] / sd["bytes"][-2] - 1 if p is ev.step["high"] and len(sd["x"]) >= 2 else 0.0
        return (f"{fmt_y(sd['bytes'][0], 'B/s')} at {lo} to {fmt_y(sd['bytes'][-1], 'B/s')} at {hi} ({iops})"
                + (f", still rising at the largest block ({g:+.0%})" if g >= FLAT else ""))

    lo, hi = (side(sd, ev.step[n]) for sd, n in zip(st["sides"], ("low", "high")))
    at = (f"between {x} = {_xv(result, ev.x[k - 1])} ({fmt_y(ev.y[k - 1], 'B/s')}) and {_xv(result, ev.x[k])} "
          f"({fmt_y(ev.y[k], 'B/s')})")
    if st["levels"]:
        return (f"Measured bandwidth shows two levels: {lo}, then {hi} — a step of ×{st['step']:.3g} {at}: two "
                f"regimes? (what holds the lower level does not hold the upper one).")
    return (f"Measured bandwidth jumps ×{st['step']:.3g} {at}: below it {lo}; from it {hi}; neither side is level in "
            f"bandwidth or IOPS — two regimes? (what holds the smaller blocks does not hold the larger ones).")


def creep_words(result, m: dict, noise: str, cf: CurveFacts | None = None) -> str:
    """Along block size: the means' climb into the largest point that no level is read over (see
    :func:`~nvmemodel.fitting.evidence.shape_evidence`; round 11 KA); "" where there is none. "Within the noise"
    only where the kept runs of the two sizes overlap (set after round 15 was read, UB: r15_here-newfio_fio336-terse_
    loop_pvsync2_randwrite_bs, "+33 % … within the repeat noise" while every 256 KiB run lay above every 128 KiB run)."""
    from .point_runs import point_levels

    c = m.get("creeps")
    if not c:
        return ""
    u = result.y_unit
    how = f"within {noise}"
    p = cf.points if cf is not None else None
    if p is not None and "x" in p:
        lv = {d["x"]: d for d in point_levels(result, p)}
        a, b = lv.get(float(c["x_from"])), lv.get(float(c["x_to"]))
        if a and b and a["runs"] and b["runs"] and b["lo"] > a["hi"]:
            how = f"every run at {_xv(result, c['x_to'])} above every run at {_xv(result, c['x_from'])}"
    return (f"its means still rise {c['rise']:+.0%} per doubling from {fmt_y(c['y_from'], u)} at "
            f"{_xv(result, c['x_from'])} to {fmt_y(c['y_to'], u)} at {_xv(result, c['x_to'])}, {how}: no "
            f"level is read from these runs.")


def size_iops_text(result, cf: CurveFacts | None, ev, noise: str) -> str:
    """IOPS along block size: a level only where no adjacent step moves ≥ FLAT per doubling (a ×15 range "within the
    noise" is no level: round 11 KE); trims move no data, so no bandwidth is said for them (:func:`~.facts.trims`)."""
    from .stream_facts import trims

    u, x0, x1 = result.y_unit, _xv(result, ev.x[0]), _xv(result, ev.x[-1])
    trim = cf is not None and trims(result, cf.points)
    data = (" A trim moves no data: no bandwidth is read from these runs." if trim else None)
    # a point whose runs differ by more than WIDE_RUNS is read by its median, and said to be (round 26 FA: wide_runs)
    y, first, last, wide = _wide_read(result, cf, ev)
    bw = y * ev.x
    if ev.y[0] - ev.y[-1] > ev.beyond_noise(0, ev.y.size - 1) and y[0] > y[-1]:  # IOPS fall with size whatever binds
        held = iops_held_to(result, cf, ev)  # flat from the first size to a crossover: the shape leads (round 27 HD)
        if held is not None and not trim:
            k = int(np.flatnonzero(ev.x == held[2])[0])
            return (f"Measured IOPS hold at {held[0]} from {x0} to {held[1]}; only past it they fall from "
                    f"{fmt_y(y[k], u)} at {held[1]} to {last} at {x1}, while bandwidth goes from {fmt_y(bw[0], 'B/s')} "
                    f"to {fmt_y(bw[-1], 'B/s')}{wide}.")
        return (f"Measured IOPS fall from {first} at {x0} to {last} at {x1} as blocks grow"
                + (f".{data}" if trim else f", while bandwidth goes from {fmt_y(bw[0], 'B/s')} to "
                                           f"{fmt_y(bw[-1], 'B/s')}{wide}."))
    lo, hi = float(np.min(y)), float(np.max(y))
    if not (hi <= (1 + FLAT) * lo or _is_level(ev.x, y)):
        return (f"Measured IOPS go from {first} at {x0} to {last} at {x1} ({fmt_y(lo, u)}–{fmt_y(hi, u)}, "
                f"×{hi / lo:.3g} apart, within {noise}{wide}): the runs of a size spread too widely for a level or a "
                f"fall to be read." + (data or ""))
    return (f"Measured IOPS stay at {span(fmt_y(lo, u), fmt_y(hi, u))} from {x0} to {x1} (within {noise}{wide}): a "
            f"limit on I/Os per second, not on bytes" + (f".{data}" if trim else
                                                      f"; bandwidth grows with the block size, from "
                                                      f"{fmt_y(bw[0], 'B/s')} to {fmt_y(bw[-1], 'B/s')} at {x1}, the "
                                                      f"largest size: no bandwidth ceiling is shown up to that rate."))


def iops_held_to(result, cf: CurveFacts | None, ev) -> tuple[str, str, float] | None:
    """The IOPS level and the last size of the cap fact's flat IOPS stretch where it starts at the first size and ends
    before the last (and that size's value) — the IOPS hold, then fall (set after round 27 was read: HD, r27_miztiik_aws-ebs-gp3-16000iops_…_bs,
    "IOPS fall from 17.58 K at 4 KiB to 4.18 K at 256 KiB as blocks grow" while flat to 64 KiB); None otherwise."""
    f = cf.cap if cf is not None else None
    if f is None or not f.facts.get("iops_cap") or not f.facts.get("iops_flat"):
        return None
    (a, b), (lo, hi) = f.facts["iops_flat"], f.facts["iops_range"]
    if a != ev.x[0] or b >= ev.x[-1] or not np.any(ev.x == b):
        return None
    return span(fmt_y(lo, "1/s"), fmt_y(hi, "1/s")), _xv(result, b), float(b)


def _wide_read(result, cf: CurveFacts | None, ev) -> tuple[np.ndarray, str, str, str]:
    """The points' values as the block-size sentences read them (:func:`~.wide_runs.point_values`: a wide point by its
    median), the first and last point as written ("58.29 K IOPS (the median of its runs)" at a wide one) and "; but the
    runs of one block size differ …" where a point is wide ("" elsewhere)."""
    from .wide_runs import point_values, wide_at, wide_noise_words

    u, p = result.y_unit, cf.points if cf is not None else None
    if p is None or "runs_kept" not in p or len(p) != ev.x.size or not np.allclose(p["x"].to_numpy(float), ev.x):
        return ev.y, fmt_y(ev.y[0], u), fmt_y(ev.y[-1], u), ""
    y, w = point_values(p), wide_at(p)
    # (the runs' span is said once, in the noise words after the sentence)
    first, last = (fmt_y(y[i], u) + (" (the median of its runs)" if i in w else "") for i in (0, len(p) - 1))
    wide = wide_noise_words(result, p, "block size", read="a point there is read by its median, not its mean")
    return y, first, last, (f"; but {wide}" if wide else "")


def size_claims(result, cf: CurveFacts, key=None) -> list:
    """Along block size, after the data sentence: the caps the data show (a direction's own, with ``key``: see
    :func:`direction_claims`), the outstanding I/O at small blocks."""
    capped = _capped(result, key) if key is not None else None
    out = _cap_claims(result, cf, capped) if cf.cap or cf.outstanding or cf.one_stream is not None else []
    if cf.small_sizes is not None:
        said = _small_sizes_claim(result, cf.small_sizes, stream_evidence(result, key)[0].step if key is not None else None)
        out += [said] if said is not None else []
    f = cf.size_fall
    if f is not None:
        s = f.facts
        # the peak in IOPS beside bytes/s at large blocks (set after round 15 was read, TF: r15 spdk-initiator qd,
        # "peaks at 23.1 GB/s" at 128 KiB, no IOPS)
        io = (f", {fmt_y(s['bytes_max'] / s['x_max'], '1/s')}," if s["x_max"] >= BIG_BLOCK else "")
        from .first_size import level_before_peak, level_before_words  # (round 30 QE)

        lb = (level_before_peak(cf.points["x"], cf.points["y"], s["x_max"])
              if cf.points is not None and result.y_unit == "B/s" else None)
        held = level_before_words(result, lb, s["x_max"]) if lb else ""
        head = (f"Measured bandwidth {held}peaks at {fmt_y(s['bytes_max'], 'B/s')}{io} at {_xv(result, s['x_max'])} and falls "
                f"{s['drop']:.0%} to {fmt_y(s['bytes_last'], 'B/s')} at {_xv(result, s['x_last'])}, more than "
                f"{s['basis']}: larger blocks were slower here")
        if s.get("level_after"):  # the level after the peak, from its runs (round 18 ZB)
            text, kind = _level_after_words(result, s), "falls" if s["level_after"]["beyond"] else "level"
            out.insert(0, _claim(kind, text, f))
            return out
        if s.get("held"):  # the peak's job was busy on its CPU or on the IOPS cap: no byte limit read (round 10 JD)
            sh = s["held"][0]
            why = f"its job was {sh:.0%} busy on a CPU" if sh is not None else "the IOPS were at their cap"
            text = f"{head}; at {_xv(result, s['x_max'])} {why}, so the peak does not show the byte limit."
            if s.get("cpu_level"):  # the sizes the CPU held at a byte level: that level first (round 19 UF)
                text = f"{cpu_level_words(result, s['cpu_level'])}. Within it {text[len('Measured '):]}"
        elif s.get("bytes_runs") and s["bytes_runs"][1] > (1 + FLAT) * s["bytes_max"]:
            # the peak's own runs scatter past the band: no byte limit is read from it (one story: not "the byte
            # limit" and "not a cap" together — tests/data/qa4/uringbs, 64 KiB runs 2.04 and 3.90 GB/s)
            lo, hi = s["bytes_runs"]
            text = (f"{head}; the runs at {_xv(result, s['x_max'])} spread {span(fmt_y(lo, 'B/s'), fmt_y(hi, 'B/s'))}, "
                    f"up to {hi / s['bytes_max'] - 1:.0%} above {fmt_y(s['bytes_max'], 'B/s')}: no byte limit is read "
                    f"from them.")
        elif s.get("band"):  # a flat top band, one step down, a lower level: no peak (round 21 WB)
            bd, B = s["band"], (lambda v: fmt_y(v, "B/s"))  # noqa: E731
            (x0, x1), (a0, a1), k = bd["x"], bd["after_x"], bd["band"][1] - bd["band"][0] + 1
            m = bd["after"][1] - bd["after"][0] + 1
            text = (f"Measured bandwidth is level at {span(B(bd['lo']), B(bd['hi']), ' to ')} from {_xv(result, x0)} to "
                    f"{_xv(result, x1)} ({k} sizes within {FLAT:.0%} of one another, IOPS "
                    f"{fmt_y(bd['iops'][0], '1/s')} → {fmt_y(bd['iops'][1], '1/s')} for ×{x1 / x0:.3g} the size), then "
                    f"steps down {abs(bd['step']):.0%} in one step to {_xv(result, a0)}"
                    + (f" and holds {span(B(bd['after_lo']), B(bd['after_hi']), ' to ')} up to {_xv(result, a1)} ({m} sizes)"
                       if m >= 2 else f" ({B(bd['after_lo'])}, the largest size)")
                    + f": larger blocks were slower here from {_xv(result, a0)} on. The most bandwidth measured, "
                    f"{B(s['bytes_max'])}{io} at {_xv(result, s['x_max'])}, lies inside that level, no peak; it is "
                    f"the byte limit these data show — "
                    + _cap_words("a byte cap", s["bytes_max"], s.get("bytes_runs"), "B/s") + ".")
        else:
            text = (f"{head}, and the most bandwidth measured is the byte limit these data show — "
                    + _cap_words("a byte cap", s["bytes_max"], s.get("bytes_runs"), "B/s") + ".")
        out.insert(0, _claim("falls", text, f))
    return out


def _small_sizes_claim(result, f: Fact, step: dict | None = None):
    """The request-time steps and IOPS levels of ``facts.small_sizes``, beside the byte sentence (round 18 ZE); a
    step the curve's own "two levels" sentence already says (``step``, the evidence's) is not said twice."""
    s = f.facts
    I, sz = (lambda v: fmt_y(v, "1/s")), (lambda v: _xv(result, v) if v >= 1024 else f"{_fx(v)} B")  # noqa: E731
    steps = [st for st in s["steps"] if not (step and (st["x_from"], st["x_to"]) == (step["low"]["x_to"],
                                                                                    step["high"]["x_from"]))]
    if not steps and not s["levels"]:
        return None
    text = []
    if steps:
        said = []
        for st in steps:
            (i0, i1), (b0, b1), (l0, l1) = st["iops"], st["bytes"], st["lat"]
            lat = f"; fio's mean latency {fmt_y(l0, 's')} → {fmt_y(l1, 's')}" if np.isfinite([l0, l1]).all() else ""
            said.append(f"×{i0 / i1:.3g} from {sz(st['x_from'])} to {sz(st['x_to'])} ({I(i0)} → {I(i1)}{lat})"
                        + (": the larger request took less time" if st["faster"] else f", the bandwidth no higher there ({fmt_y(b0, 'B/s')} → "
                                                   f"{fmt_y(b1, 'B/s')}), though {sz(st['next'][0])} gains "
                                                   f"×{st['next'][1] / b1:.3g} over it again"))
        o = steps[0]["out"]
        per = (f"{_fx(o)} I/O{'' if o == 1 else 's'} outstanding ÷ IOPS" if np.isfinite(o) else
               "1 ÷ IOPS at one depth")
        text.append(f"Along the sizes the time of a request ({per}) steps: " + "; ".join(said))
    if s["levels"]:
        lv = [f"{span(I(v['lo']), I(v['hi']))} from {sz(v['x_from'])} to {sz(v['x_to'])}" for v in s["levels"]]
        band = f"within {FLAT:.0%} of one another" + (" or their runs' own spread" if s["by_runs"] else "")
        # at one I/O outstanding a level is one I/O's time the bytes did not add to (Little's law, the files' own)
        one = [v for v in s["levels"] if v.get("lat") and v["out"] == 1]
        by = (f"; at 1 I/O outstanding each is 1 ÷ fio's mean latency there ("
              + " and ".join(span(fmt_y(v["lat"][0], "s"), fmt_y(v["lat"][1], "s")) for v in one) + ")"
              if len(one) == len(lv) else "")
        text.append(("IOPS hold at " if steps else "Along the sizes IOPS hold at ") + " and at ".join(lv)
                    + f" ({'each ' if len(lv) > 1 else ''}{band}{by})")
    why = " The files do not show what sets these steps." if steps else "" if by else \
        " The files do not show what sets that rate."
    return _claim("small sizes", "; ".join(text) + "." + why, f)


def _level_after_words(result, s: dict) -> str:
    """The rise to a bandwidth peak along block size, the level of the sizes after it read from their runs, and the
    peak beside that level — a fall only beyond the level's own noise (set after round 18 was read: ZB)."""
    a = s["level_after"]
    x0, b0 = a["rise_from"]
    B = lambda v: fmt_y(v, "B/s")  # noqa: E731
    runs = "every kept run" if a["by_runs"] else "one run a size"
    text = (f"Measured bandwidth rises ×{s['bytes_max'] / b0:.3g} from {B(b0)} at {_xv(result, x0)} to "
            f"{B(s['bytes_max'])} at {_xv(result, s['x_max'])} (×{s['x_max'] / x0:.3g} the size), then is flat at {span(B(a['lo']), B(a['hi']))} "
            f"({runs}) from {_xv(result, a['x_from'])} to {_xv(result, a['x_to'])} while IOPS fall in proportion to "
            f"the size ({fmt_y(a['iops'][0], '1/s')} → {fmt_y(a['iops'][1], '1/s')}): "
            # a limit is an upper bound of what was measured: below a peak beyond its noise it is those sizes' level
            + (f"a byte level of about {B(a['value'])} over those sizes" if a["beyond"] else
               f"a byte limit of about {B(s['bytes_max'])}") + f", first reached at {_xv(result, a['onset_x'])}")
    if s.get("held"):
        sh = s["held"][0]
        why = f"its job was {sh:.0%} busy on a CPU" if sh is not None else "the IOPS were at their cap"
        return text + f"; at {_xv(result, s['x_max'])} {why}, so that peak is no byte limit."
    pk = (f"its runs {span(B(a['peak_runs'][0]), B(a['peak_runs'][1]))}" if a["peak_runs"] else "one run")
    if a["beyond"]:
        return (text + f"; {_xv(result, s['x_max'])} ({pk}) lies above every {'run' if a['by_runs'] else 'point'} "
                f"of that level ({_xv(result, s['x_last'])} {s['drop']:.0%} lower): larger blocks were slower here "
                f"than {_xv(result, s['x_max'])}.")
    return text + f"; {_xv(result, s['x_max'])} ({pk}) reaches into that level: no fall beyond its noise."
