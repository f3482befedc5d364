"""Words for where a level starts and ends: the facts of :mod:`~nvmemodel.fitting.knee` (the knee past an onset that had
not queued, a peak held over several points before a fall) and of :mod:`~nvmemodel.fitting.size_level` (the rise into a
byte level along block size, a byte level the job's CPU held). Called by :mod:`~nvmemodel.fitting.fact_claims`."""

from __future__ import annotations

import re

import numpy as np

from .knee import HELD, LAT_RISE
from .wording import _fx, fmt_y, span

__all__ = ["between_words", "cpu_level_words", "held_head", "knee_sentence", "near_byte_end", "rise_words"]


def _xv(result, v) -> str:
    from .claim import _xv as xv

    return xv(result, v)


def _sz(result, v) -> str:
    """A block size with its unit, below 1 KiB too ("512 B", never a bare "512")."""
    return _xv(result, v) if v >= 1024 else f"{_fx(v)} B"


def knee_sentence(result, s: dict) -> str:
    """" At x = a fio's mean latency … had not risen …: the knee lies between a and b, and the level is shown as a limit
    by N points past it." — "" where the saturation fact has no unqueued onset."""
    k = s.get("unqueued")
    if not k:
        return ""
    x, ms = result.x, (lambda v: fmt_y(v, "s"))  # noqa: E731
    ref, over = f"{ms(k['lat_prev'])} at {x} = {_xv(result, k['x_prev'])}", "the lighter loads'"
    if k["x_prev"] != k["x_first"]:
        # the lighter loads' latencies as measured: the nearest lighter point, then the other one (two lighter
        # points) or the range (three or more, their median beside it only where they differ beyond LAT_RISE) —
        # never the median of two, a latency no load had (set after round 26 was read: r26_here-cpuhog … numjobs,
        # "the median of numjobs = 1–2, 85.6 µs" of 130 µs and 41 µs). The rule (knee.unqueued_onset) still tests
        # the median, robust to one slow first point; where a lighter load was faster than the onset by more than
        # LAT_RISE, the words name what the onset is within LAT_RISE of, not "the lighter loads'"
        lo, hi = k["lat_lo"], k["lat_hi"]
        first, prev = _xv(result, k["x_first"]), _xv(result, k["x_prev"])
        many = k.get("n_lighter", 3) > 2  # (three or more: their median is a latency one of them had, or near)
        ref += (f", the same over {x} = {first}–{prev}" if ms(lo) == ms(hi) else
                f", {ms(k['lat_first'])} at {first}" if not many else
                f"; {span(ms(lo), ms(hi))} over {x} = {first}–{prev}"
                + (f", their median {ms(k['lat_ref'])}" if hi > (1 + LAT_RISE) * lo else ""))
        if k["lat"] > (1 + LAT_RISE) * lo:  # a lighter load was faster by more than the band: not "the loads'"
            over = ("the latency of the load before it and the lighter loads' median" if many else
                    "the latency of the load before it")
    past = k["past"]
    shown = ("no point past it stays on the level" if past == 0 else
             f"the level is shown as a limit by the one point past it ({x} = {_xv(result, k['x_to'])}) only"
             if past == 1 else
             f"the level is shown as a limit by the {past} points past it ({x} = "
             f"{span(_xv(result, k['x_next']), _xv(result, k['x_to']))})")
    return (f" At {x} = {_xv(result, k['x'])} fio's mean latency, {ms(k['lat'])}, had not risen beyond {LAT_RISE:.0%} "
            f"over {over} ({ref}): no I/O had queued there yet, its rate still the load ÷ that latency "
            f"(Little's law), and at {_xv(result, k['x_next'])} the latency grew to {ms(k['lat_next'])}. So the knee "
            f"lies between {x} = {_xv(result, k['x'])} and {_xv(result, k['x_next'])}, and {shown}.")


def between_words(result, s: dict, text: str) -> str:
    """``text`` with its "saturates from x = a" (or "saturated from") said as "between x = a and b", and the "over it"
    that follows naming a — where the saturation fact has an unqueued onset; ``text`` unchanged otherwise."""
    k = s.get("unqueued")
    if not k:
        return text
    x, a, b = result.x, _xv(result, k["x"]), _xv(result, k["x_next"])
    pat = re.compile(rf"(saturate[sd]) from {re.escape(x)} = {re.escape(a)}\b")
    m = pat.search(text)
    if m is None:
        return text
    text = text[:m.start()] + f"{m.group(1)} between {x} = {a} and {b}" + text[m.end():]
    i = text.find(" over it", m.start())
    return text if i < 0 else text[:i] + f" over {a}" + text[i + len(" over it"):]


def held_head(result, what: str, level: str, d: dict, last: str, drop: str, tail: str) -> str:
    """"Measured X holds L from x = a to b (n points), then falls from x = c on: N % in all, to Y at x = z, …" — the
    fall's head where the peak is held over several points (``d["held"]``, knee.held_peak)."""
    h, x = d["held"], result.x
    u = result.y_unit
    low = fmt_y(h["lo"], u)
    within = "" if low == fmt_y(d["y_max"], u) else f"; the lowest {low}"
    by = f"each within {HELD:.0%} of it"
    return (f"Measured {what} holds {level} from {x} = {_xv(result, d['x_max'])} to {_xv(result, h['x_to'])} "
            f"({h['points']} points, {by}{within}), then falls from {x} = {_xv(result, h['x_next'])} on: {drop} "
            f"in all, to {last}, {tail}")


def rise_words(result, r: dict | None) -> str:
    """"bandwidth rises from X at a (I) to Y at b (J) and reaches its level between b and c; " — the sizes below a byte
    level (size_level.rise_into), said before it; "" where there are none."""
    if not r:
        return ""
    B, I = (lambda v: fmt_y(v, "B/s")), (lambda v: fmt_y(v, "1/s"))  # noqa: E731
    sz = (lambda v: _sz(result, v))  # noqa: E731
    (b0, b1), (i0, i1) = r["bytes"], r["iops"]
    at = f"between {sz(r['x_last'])} and {sz(r['x_level'])}"
    if r["sizes"] == 1:
        return f"bandwidth is {B(b0)}, {I(i0)}, at {sz(r['x_from'])}, below its level, which it reaches {at}; "
    if r["rose"]:
        return (f"bandwidth rises with the size from {B(b0)}, {I(i0)}, at {sz(r['x_from'])} to {B(b1)}, {I(i1)}, at "
                f"{sz(r['x_last'])} and reaches its level {at}; ")
    return (f"bandwidth lies below its level at the {r['sizes']} smaller sizes ({B(b0)} at {sz(r['x_from'])}, {B(b1)} "
            f"at {sz(r['x_last'])}) and reaches it {at}; ")


def cpu_level_words(result, c: dict) -> str:
    """"Measured bandwidth rises … and reaches its level between a and b; it stays at lo–hi from b to z, under 10 % per
    doubling of the size …, its job busy on a CPU at every one of those sizes: a byte level its CPU held …"
    (size_level.cpu_held_level)."""
    B = (lambda v: fmt_y(v, "B/s"))  # noqa: E731
    sz = (lambda v: _sz(result, v))  # noqa: E731
    rise = rise_words(result, c.get("rise"))
    lo, hi = c["busy"]
    busy = span(f"{lo:.0%}", f"{hi:.0%}")
    return (f"Measured {rise}{'it' if rise else 'bandwidth'} stays at {span(B(c['lo']), B(c['hi']))} from "
            f"{sz(c['x_from'])} to {sz(c['x_to'])}, under {c['flat']:.0%} per doubling of the size at every step "
            f"({c['per_max']:+.0%} the largest) while IOPS fell ×{c['iops'][0] / c['iops'][1]:.3g} "
            f"({fmt_y(c['iops'][0], '1/s')} → {fmt_y(c['iops'][1], '1/s')}), its job {busy} busy on a CPU at every one "
            f"of those sizes: a byte level its CPU held (what one CPU moved at those sizes' cost per I/O), not shown to "
            f"be a limit of what lay below")


def near_byte_end(result, cf, r: dict) -> str:
    """"; +6.4% per doubling of the size, while IOPS fell ×0.151 for ×8 the size (a byte limit alone gives ×0.125):
    nearly a byte limit, above the largest size's bytes/s; its value is not measured." (no number: a limit's value is
    not read from a still-rising curve, the scorer's rule too) — the end of a "still rises" sentence along block
    size whose last rise is nearly a byte limit (steps.near_byte_limit, round 22 XF); "" otherwise."""
    from .axes import axis_kind
    from .steps import near_byte_limit

    p = getattr(cf, "points", None)
    if axis_kind(result.x) != "block size" or p is None or "iops" not in p or "bytes_per_s" not in p:
        return ""
    out = p["out"].to_numpy(float) if "out" in p else np.array([np.nan])
    if np.all(out == 1):  # one serial stream: its byte rate is one I/O's time, said by the one-stream sentence
        return ""  # (r17_openzfs7834 … qd1-1job_sync_bs, graded misleading as a byte limit; round 22 YC)
    xs = p["x"].to_numpy(float)
    i = [int(np.flatnonzero(np.isclose(xs, r[k]))[0]) if np.isclose(xs, r[k]).any() else -1 for k in ("x_from", "x_to")]
    if min(i) < 0:
        return ""
    bw, io = p["bytes_per_s"].to_numpy(float)[i], p["iops"].to_numpy(float)[i]
    d = near_byte_limit(xs[i[0]], xs[i[1]], bw[0], bw[1], io[0], io[1])
    if d is None:
        return ""
    return (f"; {d['per']:+.1%} per doubling of the size, while IOPS fell ×{d['iops_ratio']:.3g} for "
            f"×{xs[i[1]] / xs[i[0]]:.3g} the size (a byte limit alone gives ×{d['cap_ratio']:.3g}): nearly a byte "
            f"limit, above the largest size's bytes/s; its value is not measured.")
