"""The per-I/O + per-byte model along block size, read only as far as the facts of the curve let it be read.

``1 / (1/I + b/B)`` has an IOPS ceiling ``I`` at small blocks and a bandwidth ceiling ``B`` at large ones. Each is
stated as a ceiling only where the measurements leave room for one (issue 28):

- never below a measurement, and never with an interval whose lower end is below one (a ceiling is an upper bound:
  the measured value is its lowest possible value, so the interval is written from there);
- the bandwidth ceiling not while bandwidth still rises at the largest block by :data:`~.facts.PAYS` or more per
  doubling of the size: the data have not reached it, and the value is the model's bend, not a measurement;
- not above a level the data show (the cap fact: bandwidth within :data:`~.facts.FLAT` over the largest sizes, IOPS
  over the smallest) by more than that band — the smooth form bends more gently than a hard cap, so it overshoots it;
- the IOPS ceiling of a smallest block whose submitting job used ≥ :data:`~.facts.CPU_BOUND` of a CPU is that CPU's
  rate, which more jobs (not a deeper queue) may raise.
"""

from __future__ import annotations

import numpy as np

from .claim import EXTRAPOLATION, NO_INTERVAL, Claim, _bytes, _pts
from .facts import CPU_BOUND, FLAT, PAYS
from .wording import _fx, fmt_y, span

__all__ = ["cap_and_ci", "ceiling_ci", "per_io_byte_claims"]


def ceiling_ci(lo: float, hi: float, unit: str, measured: float | None = None) -> str:
    """" (95 % CI lo–hi)" of a ceiling; where ``lo`` is below the largest measurement (by > 2 %), the interval is
    written from the measurement up: a ceiling below what was measured is no ceiling."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return ""
    if measured is not None and np.isfinite(measured) and lo < measured / 1.02 and hi > measured:
        # (its lower end, below what was measured, is not said: no ceiling lies there — round 7 part 1 CH, part 2 CG)
        return f" (between the {fmt_y(measured, unit)} measured and {fmt_y(hi, unit)}, the upper end of its 95 % CI)"
    if fmt_y(lo, unit) == fmt_y(hi, unit):  # no spread at the digits written: "50.00 K–50.00 K" is no interval
        return ""
    return f" (95 % CI {fmt_y(lo, unit)}–{fmt_y(hi, unit)})"


def cap_and_ci(value: float, lo: float, hi: float, unit: str, measured: float, words=None) -> tuple[str, str]:
    """A fitted cap's words and its interval's. Where the interval is written from the largest measurement up
    (:func:`ceiling_ci`) and the fit's own value lies below that measurement, the value is not printed as the cap —
    a bracket that excludes the number it qualifies contradicts itself (blind3: "a cap of 89.76 K IOPS (between the
    91.29 K IOPS measured and 91.52 K IOPS …)"): the cap is the measurement or a little above."""
    words = words or (lambda v: fmt_y(v, unit))
    ci = ceiling_ci(lo, hi, unit, measured)
    if ci.startswith(" (between the ") and np.isfinite(value) and value < measured:
        return (f"the {words(measured)} measured or a little above",
                f" (at most {fmt_y(hi, unit)}, the upper end of its 95 % CI; the fit's own "
                f"{fmt_y(value, unit)} is below that measurement)")
    return words(value), ci


def stays_words(value: float, lo: float, hi: float, unit: str, measured: float, words=None, there=None) -> str:
    """"stays at X (95 % CI …)" of a fitted level, only where the level is one of the measurements: not above every
    measurement, and every point measured on the level (``there``: (values, standard errors), or None) inside its
    interval within twice its noise. Otherwise the measured level (``there``'s pooled value) is what throughput stays
    at (round 7 part 1 CC, set after round 7 was read: r7_bergstartup_sn540's fit "stays at 455.81 K (CI 448.77–462.85 K)
    from numjobs = 2" with 425.0 K and 444.7 K measured there and 452.9 K the most). Where X reads below the largest
    measurement it is the level the points scatter about (blind3 class P-mild)."""
    words = words or (lambda v: fmt_y(v, unit))
    if there is not None:
        ys, se, level = there
        se = np.where(np.isfinite(se), se, 0.0)
        off = np.isfinite(lo) and np.isfinite(hi) and bool(np.any((ys < lo - 2 * se) | (ys > hi + 2 * se)))
        if off or (value > measured and fmt_y(value, unit) != fmt_y(measured, unit)):
            return f"stays at the measured {words(level)}"
    # (below by less than 0.05 %, which prints as "0.0 %", is the same level written to more digits)
    if np.isfinite(value) and np.isfinite(measured) and measured / value - 1 >= 0.0005 \
            and fmt_y(value, unit) != fmt_y(measured, unit):
        within = (f" and within its 95 % CI, {fmt_y(lo, unit)}–{fmt_y(hi, unit)}"
                  if np.isfinite(lo) and np.isfinite(hi) and lo <= measured <= hi else "")
        return (f"levels off at {words(value)}, the level its points scatter about (the most measured, "
                f"{fmt_y(measured, unit)}, lies {measured / value - 1:.1%} above it{within})")
    return f"stays at {words(value)}{ceiling_ci(lo, hi, unit, measured)}"


def _ci(f, p, unit, measured=None) -> str:
    return ceiling_ci(f.ci_low[p], f.ci_high[p], unit, measured)


def _small_block_cpu(cf) -> float | None:
    """The smallest block's job CPU share where it was ≥ CPU_BOUND and not spinning (fio's usr+sys), else None."""
    if cf is None or cf.cpu is None:
        return None
    share, spin = cf.cpu.facts["share"], cf.cpu.facts["spinning"]
    if share and np.isfinite(share[0]) and share[0] >= CPU_BOUND and not spin[0]:
        return float(share[0])
    return None


def per_io_byte_claims(result, key, f, d, ev, cf) -> list:

    u = result.y_unit
    im, bm = f.values["iops_max"], f.values["bw_max"]
    cross = d.get("crossover_bytes", (np.nan, np.nan, np.nan))
    iops = ev.y if u == "1/s" else ev.y / ev.x
    bw = iops * ev.x
    top_i, top_b = float(np.max(iops)), float(np.max(bw))
    lost = [p for p in ("iops_max", "bw_max") if f.held.get(p) == "unidentified"]
    if lost:  # a ceiling no measured point depends on has no value to state, nor has the crossing
        kept = "iops_max" if lost == ["bw_max"] else "bw_max" if lost == ["iops_max"] else None
        kept_text = ("" if kept is None else
                     f"an IOPS ceiling of {fmt_y(im, '1/s')}" + _ci(f, "iops_max", "1/s", top_i) + " at small blocks; "
                     if kept == "iops_max" else
                     f"a bandwidth ceiling of {fmt_y(bm, 'B/s')}" + _ci(f, "bw_max", "B/s", top_b) + " at large blocks; ")
        names = {"iops_max": "no IOPS ceiling", "bw_max": "no bandwidth ceiling"}
        return [Claim("model", f"The per-I/O + per-byte cost model finds {kept_text}"
                               + " and ".join(names[p] for p in lost)
                               + " within the sizes measured (the data do not determine it, so neither a value "
                                 "nor a crossing block size is stated).")]
    below = [name for name, cap, meas in (("IOPS", im, iops), ("bandwidth", bm, bw)) if cap < float(np.max(meas))]
    if below:  # a fitted ceiling under a measurement is none (issue 28): the fit is not read as ceilings
        said = ", ".join(fmt_y(float(np.max(m)), un) for nm_, m, un in (("IOPS", iops, "1/s"), ("bandwidth", bw, "B/s"))
                         if nm_ in below)
        return [Claim("model", f"The per-I/O + per-byte fit's {' and '.join(below)} ceiling"
                               f"{'s lie' if len(below) > 1 else ' lies'} below what was measured ({said}): not "
                               f"ceilings of these data, so neither they nor a crossing block size is stated.",
                      {"interpreted": False, "below_measured": True})]
    # what the measurements say of each end, before the model is read there
    rising = _bandwidth_rising(ev.x, bw)
    level = _levels(cf)
    over_b = level.get("B/s") is not None and bm > level["B/s"] * (1 + FLAT)
    over_i = level.get("1/s") is not None and im > level["1/s"] * (1 + FLAT)
    # a ceiling the data do not reach gets no interval (NO_INTERVAL), nor does the crossing, b* = bw_max / iops_max
    im_far, bm_far = im > EXTRAPOLATION * top_i, bm > EXTRAPOLATION * top_b
    cpu = _small_block_cpu(cf)
    # without an IOPS cap the data show flat, the small-block rate was measured at one queue depth: the IOPS
    # "ceiling" is that depth's (a deeper queue may raise it) — or, where the job was busy, its CPU's
    pts_ = _pts(result, key).sort_values(result.x)
    depth = float(pts_["outstanding"].iloc[0]) if "outstanding" in pts_ else float("nan")
    bo = None if cf is None or cf.cap is None else cf.cap.facts.get("by_outstanding")
    no_icap = cf is None or cf.cap is None or not cf.cap.facts["iops_cap"] or (bo is not None and not bo["wide"])
    if cpu is not None and no_icap:
        at_depth = (f" (at {_xv_b(ev.x[0])} the submitting job used {cpu:.0%} of a CPU: that rate is its CPU's — "
                    f"more jobs, not a deeper queue, may raise it)")
    elif np.isfinite(depth) and no_icap:
        from .fact_claims import served_words

        more = served_words(result, cf)[1] if cf is not None else "a deeper queue"  # psync: more jobs (round 5 AD)
        at_depth = f" (at {_fx(depth)} I/O{'s' if depth != 1 else ''} outstanding: {more} may raise it)"
        cp = cf.points if cf is not None else None  # Little's law at the smallest size: IOPS × latency ÷ asked
        held = float(cp["iops"].iloc[0] * cp["lat"].iloc[0] / depth) if cp is not None and len(cp) else float("nan")
        if np.isfinite(held) and held < 0.8:  # the queue asked for was not kept full: more of it is not more in flight
            at_depth = (f" (at {_fx(depth)} I/Os outstanding asked for, only {held:.0%} were in flight by Little's law: "
                        f"more queue asked for is not more in flight — what submits the I/O held it, not the depth)")
    else:
        at_depth = ""
    iops_words = f"an IOPS ceiling of {fmt_y(im, '1/s')} at small blocks{at_depth}" \
        + ("" if im_far else _ci(f, "iops_max", "1/s", top_i))
    if im_far:  # more than EXTRAPOLATION × the most IOPS measured is no ceiling of these data (blind4, issue 28)
        iops_words = (f"a per-I/O term of 1/{fmt_y(im, '1/s')}, {im / top_i:.2g}× the most IOPS measured "
                      f"({fmt_y(top_i, '1/s')}): an extrapolation, not stated as an IOPS ceiling")
        if cpu is not None and no_icap:  # the small-block rate is the busy job's CPU's (blind4 lorrocks seqread bs)
            iops_words += (f" — at {_xv_b(ev.x[0])} the submitting job used {cpu:.0%} of a CPU: the small-block rate "
                           f"measured is its CPU's (more jobs, not a deeper queue, may raise it)")
        elif np.isfinite(depth) and no_icap:
            iops_words += f" (the small-block rate measured at {at_depth.strip()[4:]}"
    if over_i:
        iops_words = f"a per-I/O term of 1/{fmt_y(im, '1/s')}, above the IOPS the data level at (below)"
    if over_b:
        bw_words = f"a per-byte term of 1/{fmt_y(bm, 'B/s')}, above the bandwidth the data level at (below)"
    elif rising is not None:
        bw_words = (f"bandwidth still rises at the largest block ({rising}), so its ceiling, {fmt_y(bm, 'B/s')} in "
                    f"the fit, is not measured" if depth != 1 else  # one I/O in flight: a rate, no ceiling (round 5)
                    f"bandwidth still rises at the largest block ({rising}); the fit's per-byte term, "
                    f"{fmt_y(bm, 'B/s')}, is a transfer rate at 1 I/O outstanding, not a ceiling")
    else:
        bw_words = f"a bandwidth ceiling of {fmt_y(bm, 'B/s')} at large ones" \
            + ("" if bm_far or over_b else _ci(f, "bw_max", "B/s", top_b))
    parts = [f"Each I/O costs 1/{fmt_y(im, '1/s')} and each byte 1/{fmt_y(bm, 'B/s')} of the binding "
             f"resource: {iops_words} and {bw_words}"]
    unsure = im_far or bm_far or rising is not None or over_b or over_i
    if np.isfinite(cross[0]) and not im_far:  # a crossing set by an extrapolated term is not stated
        inside = ev.x.min() <= cross[0] <= ev.x.max()
        # draws clipped at a ceiling's bound put the lower end at 0 B, which is no block size (QA s27 O1)
        ci = (f" (95 % CI {_bytes(cross[1])}–{_bytes(cross[2])})" if cross[1] >= 1 else
              f" (95 % CI up to {_bytes(cross[2])}: the data bound it only from above)")
        parts.append(f", crossing at a block size of {_bytes(cross[0])}"
                     + (ci if np.isfinite(cross[1]) and np.isfinite(cross[2]) and not unsure else "")
                     + ("" if inside else " — outside the sizes measured"))
    text = "".join(parts) + "."
    crossing = " for it or for the crossing block size, which depends on it" if np.isfinite(cross[0]) else ""
    if im_far and not over_i:
        text += (f" The smallest block measured reaches {top_i / im:.0%} of the per-I/O term; neither an interval "
                 f"for it nor {'a crossing block size, which depends on it, ' if crossing else ''}is stated: its "
                 f"value rests on the model's shape beyond the data, not on measurements near it.")
    for name, cap, meas, unit in (("IOPS", im, iops, "1/s"), ("bandwidth", bm, bw, "B/s")):
        j = int(np.argmax(meas))
        noise_j = ev.beyond_noise(j, j) / np.sqrt(2) * (meas[j] / ev.y[j] if ev.y[j] else 1.0)
        if meas[j] - cap > noise_j and cap < 0.98 * meas[j]:
            text += (f" Caution: the fitted {name} ceiling is {1 - cap / meas[j]:.0%} below the largest "
                     f"measurement ({fmt_y(meas[j], unit)}): not a ceiling of these data.")
    for name, over, cap, unit in (("bandwidth", over_b, bm, "B/s"), ("IOPS", over_i, im, "1/s")):
        if over:
            text += (f" The measured {name} levels at {fmt_y(level[unit], unit)} ({level[unit + ' words']}); the "
                     f"smooth form overshoots that level by {cap / level[unit] - 1:.0%} — it bends more gently than "
                     f"a hard cap — so the measured level, not the fit's term, is the {name} limit of these data.")
    if bm_far and rising is None and not over_b:
        text += (f" The bandwidth ceiling is an extrapolation: the largest block measured reaches "
                 f"{top_b / bm:.0%} of it{NO_INTERVAL.replace('is given', 'is given' + crossing)}.")
    return [Claim("model", text, {"iops_term": im, "bytes_term": bm, "bandwidth_rising": rising is not None,
                                  "overshoots_level": bool(over_b or over_i), "cpu_bound_small_block": cpu is not None})]


def _xv_b(v: float) -> str:
    """A block size as the claims write it (4 KiB, 1 MiB)."""
    import types

    from .claim import _xv

    return _xv(types.SimpleNamespace(x="block_size_bytes"), v)


def _bandwidth_rising(b: np.ndarray, bw: np.ndarray) -> str | None:
    """"+45% from 16 KiB to 32 KiB" where the last step of block size still adds ≥ PAYS per doubling, else None."""
    if b.size < 2 or not (b[-1] > b[-2] > 0 and bw[-2] > 0):
        return None
    gain = (bw[-1] / bw[-2]) ** (1.0 / np.log2(b[-1] / b[-2])) - 1.0
    if not gain >= PAYS:
        return None
    return f"{bw[-1] / bw[-2] - 1:+.0%} from {_xv_b(b[-2])} to {_xv_b(b[-1])}"


def _levels(cf) -> dict:
    """The levels the cap fact measured: bandwidth over the largest sizes, IOPS over the smallest."""
    if cf is None or cf.cap is None:
        return {}
    s = cf.cap.facts
    out: dict[str, float | str] = {}  # a cap, and its words
    if s.get("bytes_cap"):
        lo, hi = s["bytes_range"]
        out["B/s"] = float(s["bytes_cap"])
        out["B/s words"] = (f"{span(fmt_y(lo, 'B/s'), fmt_y(hi, 'B/s'))} from {_xv_b(s['bytes_flat'][0])} to "
                            f"{_xv_b(s['bytes_flat'][1])}, within {FLAT:.0%}")
    if s.get("iops_cap"):
        lo, hi = s["iops_range"]
        out["1/s"] = float(s["iops_cap"])
        out["1/s words"] = (f"{span(fmt_y(lo, '1/s'), fmt_y(hi, '1/s'))} from {_xv_b(s['iops_flat'][0])} to "
                            f"{_xv_b(s['iops_flat'][1])}, within {FLAT:.0%}")
    return out
