"""The cap claims along block size: an IOPS or byte cap and its band, the outstanding I/O and bytes in flight that set
the small-block rate, and whether the job's CPU or its submission held the level.
"""

from __future__ import annotations

import numpy as np

from .fact_base import CPU_BOUND, FLAT, NO_GAIN, CurveFacts, Fact
from .fact_words import _bytes, _claim, _xv
from .knee_words import rise_words
from .level_creep import creep_words
from .level_shape import shape_words
from .queue_caps import inflight_bytes, per_io_words
from .wording import _fx, fmt_y, span


def _cap_words(what: str, cap: float, runs: tuple | None, u: str) -> str:
    """"a byte cap of X or a little above, measured", or — where a kept run of the flat stretch lies above X by more
    than the ±FLAT a level is read within — the level with its runs' range and no cap (round 13 QA; a blkio throttle's
    runs 2.4 % above its mean-read cap, r7_here_blkio_wiops_seqwrite_bs_repeats, keep the cap)."""
    if runs is None or runs[1] <= (1 + FLAT) * cap:
        return f"{what} of {fmt_y(cap, u)} or a little above, measured" + (
            f" (its runs {span(fmt_y(runs[0], u), fmt_y(runs[1], u))})" if runs and runs[0] < (1 - FLAT) * cap else "")
    return (f"its runs spread {span(fmt_y(runs[0], u), fmt_y(runs[1], u))}, up to {runs[1] / cap - 1:.0%} above "
            f"{fmt_y(cap, u)}: a level of these runs, not a cap they show")


def _one_stream_words(result, cf: CurveFacts, s: dict) -> str:
    """"; with one I/O in flight each took a fixed 1.9 ms plus the size ÷ 33.5 MB/s between 1 MiB and 2 MiB: one
    stream's time per byte, which more I/O in flight may overlap" — for a byte limit approached at the two largest
    sizes where every point ran one I/O outstanding (set after round 25 was read: EE, r25_iscsiwifi_lio-iscsi-80211ac_
    seqwrite-direct-psync_bs_by-disk, "a byte limit at or above 32.5 MB/s" of psync writes one at a time over an iSCSI
    link); "" otherwise."""
    p = cf.points
    if "out" not in p or "bytes_per_s" not in p or len(p) < 2:
        return ""
    out = p["out"].to_numpy(float)
    if not (np.isfinite(out).all() and (out == 1).all()):
        return ""
    xs, bw = p["x"].to_numpy(float), p["bytes_per_s"].to_numpy(float)
    at = [np.flatnonzero(xs == v) for v in s["bytes_flat"]]
    if not all(a.size for a in at):
        return ""
    i, j = int(at[0][0]), int(at[1][0])
    t_i, t_j = xs[i] / bw[i], xs[j] / bw[j]
    if not (t_j > t_i > 0):
        return ""
    rate = (xs[j] - xs[i]) / (t_j - t_i)
    fixed = t_i - xs[i] / rate
    head = (f"a fixed {fmt_y(fixed, 's')} plus the size ÷ {fmt_y(rate, 'B/s')}" if fixed > 0 else
            f"the size ÷ {fmt_y(rate, 'B/s')}")
    return (f"; with one I/O in flight at every size, each took {head} between {_xv(result, xs[i])} and "
            f"{_xv(result, xs[j])} (its time {fmt_y(t_i, 's')} → {fmt_y(t_j, 's')}): one stream's time per byte, "
            f"which more I/O in flight may overlap")


def _outside_words(result, cf: CurveFacts, s: dict, lo: float, hi: float) -> str:
    """"; below the level at 64 KiB: 0.345 GB/s (0.321 GiB/s), 9.4% below its top" — the sizes outside a stated flat byte
    range whose mean lies outside it and that no IOPS sentence of the claim covers (an IOPS flat stretch said before),
    named with their value and side: one or two by value, more as the range of sizes and values (set after round 25 was
    read: EF, r25_iscsiwifi_helios4-local-sg-hdd-vs-ssd_seqwrite_bs_by-disk, the SSD "flat … from 128 KiB to 2 MiB"
    with 64 KiB at 345 MB/s unsaid); "" where there is none."""
    if "bytes_per_s" not in cf.points:
        return ""
    flat = s["bytes_flat"]
    xs, bw = cf.points["x"].to_numpy(float), cf.points["bytes_per_s"].to_numpy(float)
    out = ((xs < flat[0]) | (xs > flat[1])) & np.isfinite(bw)
    if s.get("iops_cap") and s.get("iops_flat"):  # said by the IOPS sentence before it
        out &= ~((xs >= s["iops_flat"][0]) & (xs <= s["iops_flat"][1]))
    for x, *_ in s.get("held_above") or ():  # said by _held_words after it
        out &= xs != x
    parts = []
    for side, sel in (("below", out & (bw < lo)), ("above", out & (bw > hi))):
        # a range of sizes is worded as one only where every size in it is on that side: a size inside the level
        # between them splits it (set after round 28 was read: KA, "below the level at the 7 sizes from 4 KiB to
        # 384 KiB" with 256 KiB inside the stated 11.4–12.6 GB/s)
        idx = np.flatnonzero(sel)
        groups = np.split(idx, np.flatnonzero(np.diff(idx) > 1) + 1) if idx.size else []
        words = []
        for g in groups:
            a, v = xs[g], bw[g]
            if a.size <= 2:
                words += [f"{_xv(result, x)}: {fmt_y(y, 'B/s')}, {abs(y / hi - 1):.1%} {side} its top"
                          for x, y in zip(a, v)]
            else:
                words.append(f"the {a.size} sizes from {_xv(result, a[0])} to {_xv(result, a[-1])} "
                             f"({span(fmt_y(v.min(), 'B/s'), fmt_y(v.max(), 'B/s'))})")
        if words:
            parts.append(f"{side} the level at " + ", ".join(words))
    return ("; " + "; ".join(parts)) if parts else ""


def _depth_time_words(cf: CurveFacts, s: dict) -> str:
    """", each I/O's time 32 ÷ IOPS = 7.74 ms–7.83 ms by Little's law (the files give no latency)" — the time per I/O
    of a flat IOPS stretch at one depth where no latency is in the files (set after round 28 was read: LE,
    r28_hetznervol, 7.8 ms a read at every size from 4 to 32 KiB unsaid); "" where a latency is given."""
    p = cf.points
    n = int(np.sum(p["x"].to_numpy(float) <= s["iops_flat"][1]))
    lat = p["lat"].to_numpy(float)[:n] if "lat" in p else np.full(n, np.nan)
    iops = p["iops"].to_numpy(float)[:n]
    if np.isfinite(lat).any() or not (np.isfinite(iops).all() and (iops > 0).all()):
        return ""
    d = s["one_depth"]
    t = d / iops
    return (f", each I/O's time {_fx(d)} ÷ IOPS = {span(fmt_y(t.min(), 's'), fmt_y(t.max(), 's'))} by Little's law "
            f"(assumed: the files give no latency)")


def _edge_words(result, s: dict) -> str:
    """" (128 KiB at 11.35 GB/s and 384 KiB at 11.29 GB/s lie under 2 % below the other sizes' band: read with it)" —
    the sizes the byte level reached back over (size_edge, round 28 KA); "" where there are none."""
    from .size_edge import EDGE

    edge = s.get("bytes_edge") or []
    if not edge:
        return ""
    lo, hi = s["bytes_band"]
    said = " and ".join(f"{_xv(result, x)} at {fmt_y(v, 'B/s')} {1 - v / lo:.1%} under it" for x, v in edge)
    return (f" (the other sizes within {FLAT:.0%} of one another, {span(fmt_y(lo, 'B/s'), fmt_y(hi, 'B/s'))}; "
            f"{said}: within {EDGE:.0%} of that band, so one level, not a fall below it)")


def dip_words(result, dips) -> str:
    """". It dips 26% at 4 MiB (0.105 GB/s → 77.3 MB/s → 98.4 MB/s at 1, 4, 16 MiB) …" — one size's drop its next
    size recovers from (size_dip, round 32 VB); "" where there is none."""
    if not dips:
        return ""
    said = "; ".join(
        f"{-d['fall']:.0%} at {_xv(result, d['x'])} ({fmt_y(d['before'][1], 'B/s')} at {_xv(result, d['before'][0])} "
        f"→ {fmt_y(d['at'], 'B/s')} → {fmt_y(d['after'][1], 'B/s')} at {_xv(result, d['after'][0])})" for d in dips)
    from .size_dip import ONE_RUN_STEP

    return (f". Bandwidth dips {said}, back at the next size: more than the ±{ONE_RUN_STEP:.0%} a step of one run a "
            f"point allows; a single run or a cost of that size, the files do not show which")


def _cap_claims(result, cf: CurveFacts, capped: dict | None = None) -> list:
    out = []
    f = cf.cap
    if f is not None:
        s = f.facts
        parts, per_io_said = [], False
        if s["iops_cap"]:
            lo, hi = s["iops_range"]
            ic = s.get("iops_creep")  # steps beyond the sizes' own tight runs: nearly level, not flat (round 25 DD)
            head = (f"IOPS are {'nearly level' if ic else 'flat'} at {span(fmt_y(lo, '1/s'), fmt_y(hi, '1/s'))} from "
                    f"{_xv(result, s['iops_flat'][0])} to {_xv(result, s['iops_flat'][1])}"
                    + (creep_words(result, ic) if ic else " " + (
                        f"(within {FLAT:.0%} of one another)" if not s.get("iops_noise") else
                        f"(×{hi / lo:.3g} apart, within the ×{s['iops_noise']:.3g} a size's own runs vary: one level)")))
            bo = s.get("by_outstanding")
            if s.get("paced"):  # fio's pace, not a cap (blind4 r4_here_rateiops_bs_loop)
                parts.append(f"{head}: fio's pace, not a cap of the device or the host")
            elif bo is not None:
                n_out = f"{_fx(bo['outstanding'])} I/O{'' if bo['outstanding'] == 1 else 's'} outstanding"
                lat = span(fmt_y(bo["lat"][0], "s"), fmt_y(bo["lat"][1], "s"))
                # issue 28 point 2: a rate the outstanding I/O limits is that, not a cap — also where the latency
                # holds over a wide span of sizes (set after round 11 was read: r11_myconfzns_…_seqread_psync-qd1_bs,
                # LC: "an IOPS cap … measured at 1 I/O outstanding" for psync's 1 ÷ 95 µs)
                wide = (f"; the latency holds over ×{bo['span']:.3g} the size: a per-I/O time the bytes do not add to"
                        if bo["wide"] else "")
                if bo.get("from_rate"):  # no latency in the files: 1 ÷ IOPS at one in flight (round 32 WA)
                    wide = (f"; that time holds over ×{bo['span']:.3g} the size: a per-I/O time the bytes do not add "
                            f"to" if bo["wide"] else "")
                    parts.append(f"{head}, all at 1 I/O outstanding: one request at a time took {lat} (1 ÷ IOPS, "
                                 f"Little's law with one in flight; the files give no latency), whatever its size"
                                 f"{wide} — the rate one outstanding request allows, not shown to be a cap "
                                 f"({served_words(result, cf)[1]} would tell)")
                else:
                    parts.append(f"{head}: {n_out} ÷ fio's mean latency ({lat}) = {fmt_y(bo['bound'], '1/s')}, the "
                                 f"rate that much outstanding I/O allows at that latency{wide} — not shown to be a "
                                 f"cap ({served_words(result, cf)[1]} would tell)")
            elif s.get("one_depth"):  # the rate at the one depth measured (round 13, QC)
                more = served_words(result, cf)[1]
                if _cpu_busy(cf, int(np.sum(cf.points["x"].to_numpy(float) <= s["iops_flat"][1]))):
                    more = "more jobs, not a deeper queue,"  # the CPU claim names the busy job (r10 980pro 1-core)
                per_io_said = s.get("per_io") is not None and more != "more jobs, not a deeper queue,"
                if per_io_said:  # measured per I/O (round 27 HA)
                    parts.append(f"{head}, all at {_fx(s['one_depth'])} I/Os outstanding: " + per_io_words(s["per_io"]))
                else:
                    parts.append(f"{head}, all at {_fx(s['one_depth'])} I/Os outstanding{_depth_time_words(cf, s)}: "
                                 f"the rate at that depth, not shown to be a cap ({more} would tell)")
            else:
                parts.append(f"{head}: " + _cap_words("an IOPS cap", s["iops_cap"], s.get("iops_runs"), "1/s"))
        held = capped is not None and capped["unit"] == "B/s"  # one direction's byte cap (round 6, part 1 BB)
        if s["bytes_cap"] and capped is not None and held:
            lo, hi = s["bytes_range"]
            parts.append(f"bandwidth is flat at {span(fmt_y(lo, 'B/s'), fmt_y(hi, 'B/s'))} from "
                         f"{_xv(result, s['bytes_flat'][0])} to {_xv(result, s['bytes_flat'][1])}: the {capped['direction']}s' "
                         f"byte cap and the {capped['other']}s the mix carries with them (below), not one byte cap of "
                         f"the total")
        elif s["bytes_cap"] and s["bytes_points"] >= 3:
            lo, hi = s["bytes_range"]
            rise = rise_words(result, s.get("bytes_rise"))  # the sizes below the level, its onset (round 19 UF)
            bc = s.get("bytes_creep")  # steps beyond the sizes' own tight runs: nearly level, not flat (round 25 DD)
            pk = None if bc else s.get("bytes_shape")  # a peak inside, beyond the runs both ways (round 31 TC)
            head = (f"{rise}{'it' if rise else 'bandwidth'} is "
                    f"{'nearly level' if bc else 'level' if s.get('bytes_edge') or pk else 'flat'} at "
                    f"{span(fmt_y(lo, 'B/s'), fmt_y(hi, 'B/s'))} from "
                    f"{_xv(result, s['bytes_flat'][0])} to {_xv(result, s['bytes_flat'][1])}"
                    + (" (each size the median of its kept runs" if s.get("by_runs") else "")
                    + (f"{'; ' if s.get('by_runs') else ' ('}×{hi / lo:.3g} apart, within the ×{s['bytes_noise']:.3g} "
                       f"a size's own runs vary: one level)" if s.get("bytes_noise") else ")" if s.get("by_runs") else "")
                    + creep_words(result, bc) + shape_words(result, pk) + _edge_words(result, s))
            outside = "" if rise else _outside_words(result, cf, s, lo, hi)  # (round 25 EF)
            if s.get("bytes_depth"):  # the byte level at the one depth measured: as the IOPS one (round 13 QC)
                d = s["bytes_depth"]
                parts.append(f"{head}, all at {_fx(d)} I/O{'' if d == 1 else 's'} outstanding: "
                             + _depth_bytes_words(result, cf, s) + _held_words(result, s) + outside)
            else:
                parts.append(f"{head}: " + _cap_words("a byte cap", s["bytes_cap"], s.get("bytes_runs"), "B/s")
                             + _held_words(result, s) + outside)
        elif s["bytes_cap"]:
            bw = cf.points["bytes_per_s"].to_numpy(float)
            a, b = bw[-2], bw[-1]  # in size order, as measured
            from .point_runs import _run_values

            # a gain the rounding or the runs cannot tell from none is no gain: the limit is measured (round 14 RB)
            ra, rb = (_run_values(result, cf.points, i) for i in (len(bw) - 2, len(bw) - 1))
            overlap = bool(ra.size and rb.size and rb.min() <= ra.max())
            gains = b >= a * (1 + NO_GAIN) and not overlap
            parts.append(f"bandwidth is nearly level at the two largest sizes ({fmt_y(a, 'B/s')} at "
                         f"{_xv(result, s['bytes_flat'][0])}, {fmt_y(b, 'B/s')} at {_xv(result, s['bytes_flat'][1])}): "
                         + (f"it approaches a byte limit at or above {fmt_y(max(a, b), 'B/s')}, not measured beyond"
                            if gains else f"a byte limit near {fmt_y(max(a, b), 'B/s')}, the larger block no faster"
                            + ((f" ({b / a - 1:+.2%} in the means, within the runs' spread)" if overlap else
                                f" ({b / a - 1:+.2%})") if b >= a else ""))
                         + _one_stream_words(result, cf, s) + _held_words(result, s))
        elif s.get("bytes_doubling"):  # a byte level from the first size, by doubling (round 17 YC)
            d = s["bytes_doubling"]
            (b0, b1), (x0, x1), dep = d["bytes"], d["sizes"], d["depth"]
            fl = (f"; with {_fx(dep)} I/O{'' if dep == 1 else 's'} outstanding the bytes in flight grew "
                  f"×{x1 / x0:.3g} ({_bytes(dep * x0)} → {_bytes(dep * x1)}) for ×{b1 / b0:.3g} the bandwidth"
                  if dep else "")
            parts.append(f"bandwidth gains under {FLAT:.0%} per doubling of the size at every step from the first "
                         f"size ({d['per_max']:+.0%} the largest): {fmt_y(b0, 'B/s')} at {_xv(result, x0)} to {fmt_y(b1, 'B/s')} at "
                         f"{_xv(result, x1)} (×{b1 / b0:.3g} over ×{x1 / x0:.3g} the size; IOPS "
                         f"{fmt_y(d['iops'][0], '1/s')} → {fmt_y(d['iops'][1], '1/s')}): a byte level from the "
                         f"first size, not one reached only at the largest sizes{fl}; the files do not show what "
                         f"holds it")
        text = "Measured " + "; ".join(parts) + dip_words(result, s.get("size_dips"))
        if s["crossover_bytes"] and s["bytes_points"] >= 3 and not held:
            il = s.get("by_outstanding") or (s.get("one_depth") and not per_io_said)  # measured: a cap (r27 HA)
            depth_only = s.get("bytes_depth") and (not s.get("bytes_inflight") or _stretch_busy(cf, s) is not None)
            bl = "byte level" if depth_only else "byte cap"
            two = (f"The {'IOPS level' if il else 'IOPS cap'} and the {bl}" if il or bl == "byte level" else
                   "The two caps", "IOPS level" if il else "IOPS cap")
            miss = s.get("roof_misses") or []
            if miss:  # the misses first, and no crossover read from a roofline that misses (round 28 LD)
                from .evidence import TRUST_MISS

                I = lambda v: fmt_y(v, "1/s")  # noqa: E731
                said = ", ".join(f"{_xv(result, x)} ({I(m)} against its {I(r)}, {m / r - 1:+.1%})" for x, m, r in miss)
                text += (f". The roofline min({two[1]}, {bl} ÷ block size) misses {said}, by more than "
                         f"{TRUST_MISS:.0%}: it does not describe "
                         f"{'that size' if len(miss) == 1 else 'those sizes'}, so no crossover is read from it")
                if s.get("rms_log_smooth") is not None:
                    text += (f" (RMS log error {s['rms_log_roofline']:.3g}; the smooth per-I/O + per-byte form "
                             f"{s['rms_log_smooth']:.3g})")
            else:
                text += (f". {two[0]} cross at about {_bytes(s['crossover_bytes'])} ({bl} ÷ {two[1]}): "
                         f"min({two[1]}, {bl} ÷ block size) — a roofline — describes the points")
            if s.get("rms_log_smooth") is not None and not miss:
                better = s["rms_log_roofline"] <= s["rms_log_smooth"]
                text += (f" {'better than' if better else 'less well than'} the smooth per-I/O + per-byte form "
                         f"(RMS log error {s['rms_log_roofline']:.3g} against {s['rms_log_smooth']:.3g})")
        out.append(_claim("cap", text + ".", f))
    o = cf.outstanding
    little = _little_depth(cf)
    if o is not None and little:  # no depth in the files: Little's law gave it, and it holds at every size (r18 QD)
        iops, x = cf.points["iops"].to_numpy(float), cf.points["x"].to_numpy(float)
        out.append(_claim("outstanding", f"One I/O in flight at every size: {little}, so 1 ÷ IOPS is each I/O's "
                                         f"time — {fmt_y(1 / iops[0], 's')} at {_xv(result, x[0])} to "
                                         f"{fmt_y(1 / iops[-1], 's')} at {_xv(result, x[-1])} — and the rate at every "
                                         f"size is what one I/O at a time allows at that latency; a ceiling of "
                                         f"{served_words(result, cf)[0]} is not measured at this depth (a deeper queue "
                                         f"or more jobs would tell).", o))
    elif o is not None:
        s = o.facts
        more = served_words(result, cf)[1]
        busy = _cpu_shares(cf, [int(np.argmin(np.abs(cf.points["x"].to_numpy(float) - s["x"])))])
        if busy is not None:  # the job's CPU, not the depth (round 16 VB: zram QD1 4 KiB at 99 % of a CPU)
            more = f"its job was {busy[0]:.0%} busy on its CPU there: more jobs, not a deeper queue,"
        out.append(_claim("outstanding", f"At {_xv(result, s['x'])}, {_fx(s['outstanding'])} I/O"
                                         f"{'' if s['outstanding'] == 1 else 's'} outstanding ÷ "
                                         f"{fmt_y(s['lat'], 's')} mean latency = {fmt_y(s['bound'], '1/s')} (measured "
                                         f"{fmt_y(s['measured'], '1/s')}): the small-block rate is what that much "
                                         f"outstanding I/O allows at that latency; an IOPS ceiling of "
                                         f"{served_words(result, cf)[0]} is not measured at this depth; "
                                         f"{more} would tell.", o))
    o = cf.one_stream
    if o is not None:
        s = o.facts
        what, more = served_words(result, cf)
        more = more if "synchronous" in more else "more jobs or a deeper queue"
        busy = _cpu_shares(cf, range(len(cf.points)))
        if busy is not None:  # the job's CPU did both terms: a deeper queue overlaps nothing of it (round 16 VB)
            more = (f"its job was {span(f'{busy[0]:.0%}', f'{busy[1]:.0%}')} busy on its CPU at every size: more "
                    f"jobs, not a deeper queue,")

        def sz(v):  # a size below 1 KiB with its unit (never "from 512 to 512 KiB")
            return _xv(result, v) if v >= 1024 else f"{_fx(v)} B"

        miss = (f"within {abs(s['worst_miss']):.1%} at every size (the worst, at {sz(s['worst_x'])})"
                + (", each size the median of its kept runs" if s["by_runs"] else ""))
        little = _little_depth(cf)
        head = "One serial stream: with 1 I/O outstanding at every size" + (f" ({little})" if little else "")
        top = s.get("top_level")
        if top is not None:  # the largest sizes level below the line's B: the measured level, not B (round 19 TA)
            lo, hi = top["bytes"]
            level = fmt_y(hi, "B/s") if lo == hi else span(fmt_y(lo, "B/s"), fmt_y(hi, "B/s"))
            out.append(_claim("one stream", f"{head}, its bytes/s level at the largest sizes: {level} over "
                                            f"{sz(top['x'][0])} to {sz(top['x'][1])} ({top['n']} sizes, "
                                            f"{top['step']:+.2%} from the first to the last), the larger I/O no "
                                            f"faster: one stream's measured level, not shown to be a cap of "
                                            f"{what.split(' (')[0]} ({more} would tell).", o))
            return out
        rate = (f"{fmt_y(s['bytes_per_s'], 'B/s')} is one stream's byte rate,"
                if s["bytes_per_s"] <= s["most_bytes"] * (1 + NO_GAIN) else
                f"{fmt_y(s['bytes_per_s'], 'B/s')} is the line's byte rate, above the most measured "
                f"({fmt_y(s['most_bytes'], 'B/s')} at {sz(s['most_x'])}): extrapolated, not measured, and")
        out.append(_claim("one stream", f"{head}, 1 ÷ IOPS is each "
                                        f"I/O's time, and {fmt_y(s['per_io_s'], 's')} per I/O + the size ÷ "
                                        f"{fmt_y(s['bytes_per_s'], 'B/s')} gives it {miss}, from "
                                        f"{sz(s['sizes'][0])} to {sz(s['sizes'][1])}: "
                                        f"{rate} not shown to "
                                        f"be a cap of {what.split(' (')[0]} ({more} would tell).{_band_words(s, sz, cf.cap)}", o))
        # the line first: it describes every size, a flat stretch only the largest (round 20 SG)
        out = [c for c in out if c.kind == "one stream"] + [c for c in out if c.kind != "one stream"]
    return out


def _band_words(s: dict, sz, cap: Fact | None = None) -> str:
    """The measured bytes/s at the largest sizes (``facts.one_stream``'s band) and the sizes below it, each with the
    per-I/O term's share of its time (set after round 20 was read: SG); where the cap claim states that stretch, it is
    named, not repeated."""
    band = s.get("band")
    if band is None:
        return ""
    B = lambda v: fmt_y(v, "B/s")  # noqa: E731
    lo, hi = band["lo"], band["hi"]
    level = B(hi) if B(lo) == B(hi) else span(B(lo), B(hi))
    runs = (f"; each the median of its kept runs, the runs {span(B(band['runs'][0]), B(band['runs'][1]), ' to ')}"
            if band.get("runs") else "")
    shares = (f"the per-I/O time {band['share'][0]:.1%} of each I/O's time at {sz(band['x'][0])} and "
              f"{band['share'][1]:.1%} at {sz(band['x'][1])}")
    said = cap is not None and cap.facts.get("bytes_flat") is not None and cap.facts.get("bytes_points", 0) >= 3 \
        and tuple(cap.facts["bytes_flat"]) == tuple(band["x"])
    if said:
        text = (f" The flat stretch from {sz(band['x'][0])} (the next sentence) is the line's level, {shares}")
    else:
        text = (f" Measured bytes/s: {level} over {sz(band['x'][0])} to {sz(band['x'][1])} ({band['n']} sizes within "
                f"{FLAT:.0%} of one another{runs}), {shares}")
    if band.get("below") is not None:
        first = (f", rising from {B(band['first_bytes'])} at {sz(band['first_x'])}"
                 if band["first_x"] != band["below_x"] else "")
        text += (f"; below it {B(band['below_bytes'])} at {sz(band['below_x'])} (the per-I/O time "
                 f"{band['below_share']:.1%} of its time){first}")
    return text + "."


def _little_depth(cf: CurveFacts) -> str:
    """How one I/O in flight is known where the files give no depth (``facts._one_in_flight_by_little``), or ""."""
    n = cf.points["out_little"].to_numpy(float) if "out_little" in cf.points else np.array([np.nan])
    if not np.isfinite(n).all():
        return ""
    return (f"the files give no iodepth, but IOPS × the mean latency is "
            f"{span(f'{n.min():.2f}', f'{n.max():.2f}')} at every size (Little's law)")


def _depth_bytes_words(result, cf: CurveFacts, s: dict) -> str:
    """What the byte level at one depth is, by its proof (set after round 16 was read): the job's CPU where it was
    busy at every size of the stretch (VB, r16 zram seqread QD1: 97–100 % of a CPU, each I/O done inside its
    submission — a deeper queue adds nothing to it); a byte limit where the bytes in flight grew ≥ ×4 over it with
    Little's law holding (WB, r16 xnvme QD16); else the rate at that depth, not shown to be a cap."""
    n = len(cf.points)
    stretch = range(n - s["bytes_points"], n)
    busy = _stretch_busy(cf, s)
    if busy is not None:
        share = _submit_share(result, cf, stretch)
        sub = (f"; fio's submission latency {span(f'{share[0]:.0%}', f'{share[1]:.0%}')} of its total: each I/O was "
               f"done inside its submission" if share is not None and share[0] >= CPU_BOUND else "")
        return (f"the job was {span(f'{busy[0]:.0%}', f'{busy[1]:.0%}')} busy on its CPU at every size of it{sub}: "
                f"the job's CPU holds the rate; more jobs, not a deeper queue, would tell")
    fl = s.get("bytes_inflight")
    if fl is not None and fl["lat"] is None:  # no latency column: each I/O's time from the rates (round 27 GD)
        lo, hi = fl["bytes"]
        t0, t1 = fl["per_io"]
        wk = fl.get("workers")
        if wk is not None:  # one I/O a worker, far from busy: the depth is the workers' (round 28 LC)
            p_lo, p_hi = (f"{v:.3g}" for v in wk["per_worker"])
            bw = cf.points["bytes_per_s"].to_numpy(float)[-s["bytes_points"]:]
            return (f"{_fx(wk['workers'])} workers with one I/O each, {span(p_lo, p_hi)} I/Os a second a worker (each "
                    f"had its I/O in flight nearly all of the time), so the bytes in flight grew ×{fl['growth']:.3g} "
                    f"({inflight_bytes(lo)} → {inflight_bytes(hi)}) for {bw[-1] / bw[0] - 1:+.1%} in bytes/s, each "
                    f"I/O's time (workers ÷ IOPS) growing with its size, {fmt_y(t0, 's')} → {fmt_y(t1, 's')}: more "
                    f"bytes in flight only queued — "
                    + _cap_words("a byte limit", s["bytes_cap"], s.get("bytes_runs"), "B/s")
                    + "; the IOPS at each size are that limit ÷ the size, not an IOPS limit; more workers would add "
                      "bytes in flight as the larger sizes did")
        return (f"the bytes in flight grew ×{fl['growth']:.3g} ({inflight_bytes(lo)} → {inflight_bytes(hi)}) for no "
                f"gain in bytes/s, "
                f"each I/O's time (outstanding I/O ÷ IOPS, Little's law assumed: the files give no latency) growing "
                f"with its size, {fmt_y(t0, 's')} → {fmt_y(t1, 's')}: more bytes in flight only queued — "
                + _cap_words("a byte cap", s["bytes_cap"], s.get("bytes_runs"), "B/s")
                + "; the IOPS at each size are that cap ÷ the size, not an IOPS limit")
    if fl is not None:
        lo, hi = fl["bytes"]
        check = span(f"{fl['little'][0]:.2f}", f"{fl['little'][1]:.2f}")
        return (f"the bytes in flight grew ×{fl['growth']:.3g} ({_bytes(lo)} → {_bytes(hi)}) and fio's mean latency "
                f"×{fl['lat'][1] / fl['lat'][0]:.3g} ({fmt_y(fl['lat'][0], 's')} → {fmt_y(fl['lat'][1], 's')}), "
                f"as Little's law gives at one byte rate (IOPS × mean latency ÷ outstanding I/O {check}):"
                f" more bytes in flight only queued — "
                + _cap_words("a byte cap", s["bytes_cap"], s.get("bytes_runs"), "B/s"))
    from .fixed_share import fixed_parts, fixed_words  # the fixed time per request at one outstanding (r32 VC)

    hi = s["bytes_range"][1] if s.get("bytes_range") else np.nan
    from .one_request import _numjobs_stated

    fixed = fixed_words(fixed_parts(cf.points, s["bytes_points"], hi), fmt_y(hi, "B/s")) if s.get("bytes_depth") == 1 \
        and cf.layer is None and _numjobs_stated(result, cf.points) else ""
    return f"the byte rate at that depth, not shown to be a cap ({served_words(result, cf)[1]} would tell){fixed}"


def _stretch_busy(cf: CurveFacts, s: dict) -> tuple[float, float] | None:
    """:func:`_cpu_shares` over the flat byte stretch of the cap fact ``s``."""
    n = len(cf.points)
    return _cpu_shares(cf, range(n - s["bytes_points"], n))


def _cpu_shares(cf: CurveFacts, idx) -> tuple[float, float] | None:
    """The lowest and highest CPU share of the points ``idx`` where every one of their jobs was ≥ CPU_BOUND busy
    (fio's usr+sys) and the series neither polls nor spends CPU that bought no I/O; None otherwise. The per-point
    "spinning" flag is not read: it compares I/Os per job across points, which along block size differ by the size."""
    if cf.cpu is None or cf.cpu.facts.get("spins") or cf.cpu.facts.get("polled"):
        return None
    share = cf.cpu.facts.get("share") or []
    idx = list(idx)
    if not idx or max(idx) >= len(share):
        return None
    vals = [share[k] for k in idx]
    if not all(np.isfinite(v) and v >= CPU_BOUND for v in vals):
        return None
    return float(min(vals)), float(max(vals))


def _submit_share(result, cf: CurveFacts, idx) -> tuple[float, float] | None:
    """fio's submission latency as a share of its total (slat ÷ lat, each point's runs' mean) over points ``idx``:
    near 1 the engine or device did the I/O inside the submitting call (zram, a synchronous service)."""
    from .claim import runs_rows
    from .fact_base import pd_num

    rows = runs_rows(result, cf.points)
    if rows is None or not {"slat_mean_s", "lat_mean_s", "source_path"} <= set(rows.columns):
        return None
    out = []
    for k in idx:
        srcs = set(str(cf.points["sources"].iloc[k]).split(";"))
        r = rows[rows["source_path"].astype(str).isin(srcs)]
        sl, la = pd_num(r["slat_mean_s"]), pd_num(r["lat_mean_s"])
        if not len(r) or sl.isna().any() or la.isna().any() or (la <= 0).any():
            return None
        out.append(float((sl / la).mean()))
    return min(out), max(out)


def _cpu_busy(cf: CurveFacts, n: int) -> bool:
    """Every one of the first ``n`` points' jobs ≥ CPU_BOUND busy on a CPU and not spinning (fio's usr+sys)."""
    if cf.cpu is None or n < 1:
        return False
    share, spin = cf.cpu.facts.get("share") or [], cf.cpu.facts.get("spinning") or []
    if len(share) < n or len(spin) < n:
        return False
    return all(np.isfinite(share[k]) and share[k] >= CPU_BOUND and not spin[k] for k in range(n))


def _held_words(result, s: dict) -> str:
    """The smaller blocks that made more bandwidth than the byte cap, held by their job's CPU or the IOPS cap: said,
    so the cap does not read as exceeded unexplained (round 10, JD)."""
    if not s.get("held_above"):
        return ""
    cpu = [(x, v, sh) for x, v, sh in s["held_above"] if sh is not None]
    roof = [(x, v) for x, v, sh in s["held_above"] if sh is None]
    said = [f"{_xv(result, x)} made {fmt_y(v, 'B/s')} with its job {sh:.0%} busy on a CPU" for x, v, sh in cpu]
    said += [f"{_xv(result, x)} made {fmt_y(v, 'B/s')} at the IOPS cap" for x, v in roof]
    return f" (more at a smaller block: {'; '.join(said)} — a point so held does not show the byte limit)"


def served_words(result, cf: CurveFacts) -> tuple[str, str]:
    """(what served the I/O, what more load would be) for a sentence about a limit not measured at this load: "the
    device" and "a deeper queue" unless the facts say otherwise — the page cache (buffered I/O: memory, not a
    device) or another layer the files name, and "more jobs" for a synchronous engine (one I/O in flight per job
    whatever iodepth says)."""
    from .curves import synchronous
    from .claim import runs_rows

    layer = cf.layer.facts["layer"] if cf.layer is not None else None
    what = {"page_cache": "the page cache (memory, not a device)", None: "the device",
            "buffered_device": "the device", "memory": "the memory target"}.get(
        layer, "the layer that served the I/O")
    served = cf.layer.facts.get("served") if cf.layer is not None else None
    if layer == "none":  # an engine that touches no storage (net …): what its I/O goes through (round 10, HF)
        what = cf.layer.facts["path"]
    elif layer == "page_cache" and served == "device_part":  # the device served reads in every run (round 22, XB)
        from .page_reads import served_what

        assert cf.layer is not None  # (the layer above is its fact's)
        what = served_what(cf.layer.facts)
    elif layer == "page_cache" and served == "unknown":  # no evidence either way
        what = "the page cache or the device (buffered I/O: which served it is not shown)"
    elif layer == "page_cache" and served == "waited":  # each read slept (fio's ctx per read: round 17, XE)
        what = "what each read waited on (a device or a user-space server: not shown which)"
    elif layer == "page_cache" and served == "writeback":  # buffered.py's write-back rule
        what = "the write-back from the page cache to the device"
    rows = runs_rows(result, cf.points)
    engines = set(rows["ioengine"].dropna().astype(str)) if rows is not None and "ioengine" in rows else set()
    sync = bool(engines) and bool(synchronous(rows).all())
    # fio has no asynchronous engine for a socket or the CPU (engines/net.c, cpu.c …): there only more jobs would
    # (set after round 11 was read: r11_here-net_tcp-loopback_write_bs_repeats, KG)
    from ..jobs.fiooptions import NO_STORAGE_ENGINES

    from .in_thread import memory_devices

    alt = "more jobs" if engines <= NO_STORAGE_ENGINES else "more jobs or an async engine"
    why = ""
    if sync and alt != "more jobs" and (mem := memory_devices(rows)):  # the work is the job's own (round 23 AE)
        alt, why = "more jobs", f"; on {', '.join(mem)} an async engine does the same work in its submitting call"
    more = (f"{alt} ({', '.join(sorted(engines))} is synchronous: one I/O in flight per job{why})"
            if sync
            else "a deeper queue")
    return what, more
