"""The per-I/O + per-byte model along block size, read only as far as the facts of the curve let it be read.

``1 / (1/I + b/B)`` has an IOPS ceiling ``I`` at small blocks and a bandwidth ceiling ``B`` at large ones. Each is
stated as a ceiling only where the measurements leave room for one (issue 28):

- never below a measurement, and never with an interval whose lower end is below one (a ceiling is an upper bound:
  the measured value is its lowest possible value, so the interval is written from there);
- the bandwidth ceiling not while bandwidth still rises at the largest block by :data:`~.facts.PAYS` or more per
  doubling of the size: the data have not reached it, and the value is the model's bend, not a measurement;
- not at all where the facts state a level (a measured cap or fall along block size): the explanation then has no
  model sentence (claims.curve_claims; round 8);
- the IOPS ceiling of a smallest block whose submitting job used ≥ :data:`~.facts.CPU_BOUND` of a CPU is that CPU's
  rate, which more jobs (not a deeper queue) may raise.
"""

from __future__ import annotations

import numpy as np

from .claim import EXTRAPOLATION, NO_INTERVAL, Claim, _bytes, _pts
from .evidence import fit_misses
from .facts import CPU_BOUND, FLAT, PAYS, TRUST_R2, total_latency
from .wording import _fx, fmt_y

__all__ = ["ceiling_ci", "per_io_byte_claims"]

#: a per-I/O term that makes up at least this share of the smallest block's time per I/O (top IOPS ÷ the term's rate)
#: is read off that block, not off the model's shape beyond the data, where the fit misses no point by more than the
#: ±FLAT a level is read within: no caution about its value (round 20 RI: the zram lz4 fit's 1.91 µs was 65 % of the
#: 4 KiB time, misses ≤ 1.2 %, "its value rests on the model's shape beyond the data")
PINNED = 0.5


def ceiling_ci(lo: float, hi: float, unit: str, measured: float | None = None, note: str = "") -> str:
    """" (95 % CI lo–hi)" of a ceiling; where ``lo`` is below the largest measurement (by > 2 %), the interval is
    written from the measurement up: a ceiling below what was measured is no ceiling. ``note`` follows the measurement
    where it is a point's median, not its mean (:func:`~.measured_top.top_note`)."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return ""
    if measured is not None and np.isfinite(measured) and lo < measured / 1.02 and hi > measured:
        # (its lower end, below what was measured, is not said: no ceiling lies there — round 7 part 1 CH, part 2 CG)
        said = f"the {fmt_y(measured, unit)} measured{note}"
        return f" (between {said} and {fmt_y(hi, unit)}, the upper end of its 95 % CI)"
    if fmt_y(lo, unit) == fmt_y(hi, unit):  # no spread at the digits written: "50.00 K–50.00 K" is no interval
        return ""
    return f" (95 % CI {fmt_y(lo, unit)}–{fmt_y(hi, unit)})"


def _ci(f, p, unit, top=None, ev_x=None) -> str:
    """The interval of parameter ``p`` written from ``top`` (a :class:`~.measured_top.MeasuredTop` of the sizes
    ``ev_x``) up: "between the 58.29 K IOPS measured at 4 KiB (the median of its 3 runs) and …" where it is a median."""
    from .measured_top import top_note

    if top is None:
        return ceiling_ci(f.ci_low[p], f.ci_high[p], unit)
    at = f" at {_xv_b(float(ev_x[top.index]))} ({top_note(top, unit, spread=False)[2:]})" if top.by_median else ""
    return ceiling_ci(f.ci_low[p], f.ci_high[p], unit, top.value, at)


def _small_block_cpu(cf) -> float | None:
    """The smallest block's job CPU share where it was ≥ CPU_BOUND and not spinning (fio's usr+sys), else None."""
    if cf is None or cf.cpu is None:
        return None
    share, spin = cf.cpu.facts["share"], cf.cpu.facts["spinning"]
    if share and np.isfinite(share[0]) and share[0] >= CPU_BOUND and not spin[0]:
        return float(share[0])
    return None


def _below_claim(result, ev, below, iops, tops, lost) -> Claim:
    """A fitted ceiling below what was measured is none: said so with the most measured (and its size; a point's
    median named as such: :mod:`~.measured_top`), the time per I/O that fell with the size where it did
    (:func:`~.size_steps.cheaper_words`), and any ceiling the data do not determine — never a bracket from the
    measurement to the interval's top around a value under it (round 21 VF)."""
    from .measured_top import top_note
    from .size_steps import cheaper_words

    said = ", ".join(f"{fmt_y(t.value, un)} at {_xv_b(float(ev.x[t.index]))}{top_note(t, un)}"
                     for nm_, t, un in (("IOPS", tops[0], "1/s"), ("bandwidth", tops[1], "B/s")) if nm_ in below)
    kinds = {"iops_max": "an IOPS", "bw_max": "a bandwidth"}
    rest = (f"; nor do the data determine {' or '.join(kinds[p] for p in lost)} ceiling" if lost else "")
    what = ("not ceilings of these data, so neither they" if len(below) > 1 else
            "not a ceiling of these data, so neither it")
    return Claim("model", f"The per-I/O + per-byte fit's {' and '.join(below)} ceiling"
                          f"{'s lie' if len(below) > 1 else ' lies'} below what was measured ({said}): {what}"
                          f" nor a crossing block size is stated{rest}."
                          + cheaper_words(ev.x, iops),
                 {"interpreted": False, "below_measured": True})


def per_io_byte_claims(result, key, f, d, ev, cf) -> list:

    u = result.y_unit
    im, bm = f.values["iops_max"], f.values["bw_max"]
    cross = d.get("crossover_bytes", (np.nan, np.nan, np.nan))
    from .measured_top import measured_top, top_note

    iops = ev.y if u == "1/s" else ev.y / ev.x
    bw = iops * ev.x
    # the most measured in each unit: each point by the larger of its mean and its kept runs' median (round 26 FA)
    ti = measured_top(result, ev, cf, scale=None if u == "1/s" else 1.0 / ev.x)
    tb = measured_top(result, ev, cf, scale=ev.x if u == "1/s" else None)
    top_i, top_b = ti.value, tb.value
    lost = [p for p in ("iops_max", "bw_max") if f.held.get(p) == "unidentified"]
    below = [name for p, name, cap, top in (("iops_max", "IOPS", im, top_i), ("bw_max", "bandwidth", bm, top_b))
             if p not in lost and cap < top]
    if below:  # a fitted ceiling under a measurement is none (issue 28), a lost one's partner too (round 21 VF)
        return [_below_claim(result, ev, below, iops, (ti, tb), lost)]
    if lost:  # a ceiling no measured point depends on has no value to state, nor has the crossing
        kept = "iops_max" if lost == ["bw_max"] else "bw_max" if lost == ["iops_max"] else None
        kept_text = ("" if kept is None else
                     f"an IOPS ceiling of {fmt_y(im, '1/s')}" + _ci(f, "iops_max", "1/s", ti, ev.x)
                     + " at small blocks; "
                     if kept == "iops_max" else
                     f"a bandwidth ceiling of {fmt_y(bm, 'B/s')}" + _ci(f, "bw_max", "B/s", tb, ev.x)
                     + " at large blocks; ")
        names = {"iops_max": "no IOPS ceiling", "bw_max": "no bandwidth ceiling"}
        return [Claim("model", f"The per-I/O + per-byte cost model finds {kept_text}"
                               + " and ".join(names[p] for p in lost)
                               + " within the sizes measured (the data do not determine it, so neither a value "
                                 "nor a crossing block size is stated).")]
    # what the measurements say of each end, before the model is read there
    rising = _bandwidth_rising(ev.x, bw)
    # a ceiling the data do not reach gets no interval (NO_INTERVAL), nor does the crossing, b* = bw_max / iops_max
    # or whose whole 95 % interval lies above every measurement: not reached, the fit's extrapolation (set after
    # round 13 was read: r13_cephpr27392 iouring bs, PD: "an IOPS ceiling of 38.45 K (CI 33.94–42.95 K)" over a
    # best 30.7 K)
    lo_i, lo_b = f.ci_low.get("iops_max", np.nan), f.ci_low.get("bw_max", np.nan)
    im_far = im > EXTRAPOLATION * top_i or bool(np.isfinite(lo_i) and lo_i > top_i)
    bm_far = bm > EXTRAPOLATION * top_b or bool(np.isfinite(lo_b) and lo_b > top_b)
    from .submit_inline import inline_words

    cpu = _small_block_cpu(cf)
    # without an IOPS cap the data show flat, the small-block rate was measured at one queue depth: the IOPS
    # "ceiling" is that depth's (a deeper queue may raise it) — or, where the job was busy, its CPU's
    pts_ = _pts(result, key).sort_values(result.x)
    depth = float(pts_["outstanding"].iloc[0]) if "outstanding" in pts_ else float("nan")
    bo = None if cf is None or cf.cap is None else cf.cap.facts.get("by_outstanding")
    no_icap = cf is None or cf.cap is None or not cf.cap.facts["iops_cap"] or (bo is not None and not bo["wide"]) \
        or bool(cf.cap.facts.get("one_depth"))
    if cpu is not None and no_icap:
        at_depth = (f" (at {_xv_b(ev.x[0])} the submitting job used {cpu:.0%} of a CPU: that rate is its CPU's — "
                    f"more jobs, not a deeper queue, may raise it)")
    elif np.isfinite(depth) and no_icap and inline_words(result, pts_.iloc[:1]):
        # each I/O completed inside its submission call (buffered libaio): one at a time per job, the small-block
        # rate is 1 ÷ one I/O's fixed time, which no deeper queue changes (submit_inline; round 23 ZA)
        at_depth = (f" ({inline_words(result, pts_.iloc[:1])}: the rate of one I/O at a time, not a queue's ceiling "
                    f"— a deeper queue is not more I/O at the device)")
    elif np.isfinite(depth) and no_icap:
        from .fact_claims import served_words

        more = served_words(result, cf)[1] if cf is not None else "a deeper queue"  # psync: more jobs (round 5 AD)
        at_depth = f" (at {_fx(depth)} I/O{'s' if depth != 1 else ''} outstanding: {more} may raise it)"
        cp = cf.points if cf is not None else None  # Little's law at the smallest size: IOPS × latency ÷ asked
        held = float(cp["iops"].iloc[0] * cp["lat"].iloc[0] / depth) if cp is not None and len(cp) else float("nan")
        if not total_latency(result, pts_):  # clat, or a typed table's "Lat=": the share is not the in-flight one
            held = float("nan")
        if np.isfinite(held) and held < 0.8:  # the queue asked for was not kept full: more of it is not more in flight
            at_depth = (f" (at {_fx(depth)} I/Os outstanding asked for, only {held:.0%} were in flight by Little's law: "
                        f"more queue asked for is not more in flight — what submits the I/O held it, not the depth)")
    else:
        at_depth = ""
    lead = (f"{fmt_y(im, '1/s')} at small blocks as 1 ÷ that fixed time" if at_depth.startswith(" (each I/O completed")
            else f"an IOPS ceiling of {fmt_y(im, '1/s')} at small blocks")
    iops_words = f"{lead}{at_depth}" \
        + ("" if im_far else _ci(f, "iops_max", "1/s", ti, ev.x))
    if im_far:  # more than EXTRAPOLATION × the most IOPS measured is no ceiling of these data (blind4, issue 28)
        iops_words = (f"the per-I/O term alone would allow {fmt_y(im, '1/s')}, {im / top_i:.2g}× the most IOPS "
                      f"measured ({fmt_y(top_i, '1/s')}"
                      + (f" at {_xv_b(ev.x[ti.index])}{top_note(ti, '1/s', spread=False)}" if ti.by_median else "")
                      + "): not reached, an extrapolation of the fit, not stated as an IOPS ceiling")
        if cpu is not None and no_icap:  # the small-block rate is the busy job's CPU's (blind4 lorrocks seqread bs)
            iops_words += (f" — at {_xv_b(ev.x[0])} the submitting job used {cpu:.0%} of a CPU: the small-block rate "
                           f"measured is its CPU's (more jobs, not a deeper queue, may raise it)")
        elif np.isfinite(depth) and no_icap:
            iops_words += f" (the small-block rate measured at {at_depth.strip()[4:]}"
    if rising is not None:
        bw_words = (f"bandwidth still rises at the largest block ({rising}), so its ceiling, {fmt_y(bm, 'B/s')} in "
                    f"the fit, is not measured" if depth != 1 else  # one I/O in flight: a rate, no ceiling (round 5)
                    f"bandwidth still rises at the largest block ({rising}); the fit's per-byte term, "
                    f"{fmt_y(bm, 'B/s')}, is a transfer rate at 1 I/O outstanding, not a ceiling")
    else:
        bw_words = f"a bandwidth ceiling of {fmt_y(bm, 'B/s')} at large ones" \
            + ("" if bm_far else _ci(f, "bw_max", "B/s", tb, ev.x))
    # the terms as a time per I/O and a rate per byte, never "1/<a rate>" (round 20 RI: "costs 1/522.86 K IOPS")
    parts = [f"Each I/O costs {fmt_y(1 / im, 's')} of the binding resource plus its size ÷ {fmt_y(bm, 'B/s')}: "
             f"{iops_words} and {bw_words}"]
    unsure = im_far or bm_far or rising is not None
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
    r2_, worst_, _ = fit_misses(f)
    # pinned: the smallest block's time mostly the term, and every point within the ±FLAT a level is read within
    pinned = im_far and top_i / im >= PINNED and r2_ >= TRUST_R2 and worst_ <= FLAT
    if pinned:  # the smallest block's time is mostly the per-I/O term: the data pin the term, only its rate is far
        text += (f" At {_xv_b(ev.x[0])} the per-I/O term is {top_i / im:.0%} of each I/O's time and the fit misses "
                 f"no point by more than {worst_:.1%}: the term is measured; only the IOPS it would allow "
                 f"alone lies beyond the data.")
    elif im_far:
        text += (f" The smallest block measured reaches {top_i / im:.0%} of the per-I/O term; neither an interval "
                 f"for it nor {'a crossing block size, which depends on it, ' if crossing else ''}is stated: its "
                 f"value rests on the model's shape beyond the data, not on measurements near it.")
    for name, cap, meas, unit in (("IOPS", im, iops, "1/s"), ("bandwidth", bm, bw, "B/s")):
        j = int(np.argmax(meas))
        noise_j = ev.beyond_noise(j, j) / np.sqrt(2) * (meas[j] / ev.y[j] if ev.y[j] else 1.0)
        if meas[j] - cap > noise_j and cap < 0.98 * meas[j]:
            text += (f" Caution: the fitted {name} ceiling is {1 - cap / meas[j]:.0%} below the largest "
                     f"measurement ({fmt_y(meas[j], unit)}): not a ceiling of these data.")
    if bm_far and rising is None:
        text += (f" The bandwidth ceiling is an extrapolation: the largest block measured reaches "
                 f"{top_b / bm:.0%} of it{NO_INTERVAL.replace('is given', 'is given' + crossing)}.")
    return [Claim("model", text, {"iops_term": im, "bytes_term": bm, "bandwidth_rising": rising is not None,
                                  "cpu_bound_small_block": cpu is not None})]


def _xv_b(v: float) -> str:
    """A block size as the claims write it (4 KiB, 1 MiB)."""
    from .wording import xv_bytes

    return xv_bytes(v)


def _bandwidth_rising(b: np.ndarray, bw: np.ndarray) -> str | None:
    """"+45% from 16 KiB to 32 KiB" where the last step of block size still adds ≥ PAYS per doubling, else None."""
    if b.size < 2 or not (b[-1] > b[-2] > 0 and bw[-2] > 0):
        return None
    gain = (bw[-1] / bw[-2]) ** (1.0 / np.log2(b[-1] / b[-2])) - 1.0
    if not gain >= PAYS:
        return None
    return f"{bw[-1] / bw[-2] - 1:+.0%} from {_xv_b(b[-2])} to {_xv_b(b[-1])}"
