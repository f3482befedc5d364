"""The cap fact along block size: an IOPS cap over the small sizes, a byte cap over the large ones, or the outstanding
I/O that sets the small-block rate where no IOPS cap is measured.
"""

from __future__ import annotations

import numpy as np

from .fact_base import FLAT, LEVEL_STEP, NO_GAIN, Fact, pd_num
from .latency_growth import LITTLE_TOL
from .level_creep import creep
from .one_request import one_request_times
from .size_dip import one_size_dips
from .point_runs import point_levels
from .queue_caps import inflight_from_rates, one_io_workers, per_io_wait, roof_misses
from .size_edge import level_edge
from .size_level import rise_into
from .stream_facts import NOISE_BAND, WIDE_SPAN, _flat_run, _held, _held_why, one_stream, trims


#: the growth of the bytes in flight (depth × size) over a flat byte stretch at one depth that shows a byte limit: a
#: ×2 step is one doubling, inside what a level is read within; ×4 is two sizes past the first (round 16 WB)
INFLIGHT_GROWTH = 4.0


def _paced_rows(result, p, icap) -> bool:
    """fio was told a pace (rate_iops) the level sits at: the pace speaks, not one request's time (round 32 WA)."""
    if "sources" not in p:
        return False
    from .claim import runs_rows
    from .pacing import AT_PACE

    rows = runs_rows(result, p)
    pace = pd_num(rows["rate_iops"]) if rows is not None and "rate_iops" in rows else None
    return pace is not None and bool((pace > 0).any()) and icap >= AT_PACE * float(pace[pace > 0].min())


def _cap(result, key, p) -> tuple[Fact | None, Fact | None]:
    if result.x not in ("block_size_bytes",) or result.y_unit not in ("1/s", "B/s"):
        return None, None
    b, iops, bw = p["x"].to_numpy(float), p["iops"].to_numpy(float), p["bytes_per_s"].to_numpy(float)
    n = b.size
    if n < 3 or not (np.isfinite(iops).all() and np.isfinite(bw).all()) or np.any(iops <= 0):
        return None, None
    # the stretches, caps and ranges read the point table, not the means: each point's kept-run median (stalled runs
    # out; a split point has no level and ends a stretch) and its kept runs' spread, for IOPS and bytes alike (set
    # after round 15 was read, UB: r15_here-ext4_ext4-on-loop_libaio_seqwrite_qd4_bs, a cap read over a 1 MiB point
    # whose kept runs lay ×41 apart)
    lv = point_levels(result, p)
    with np.errstate(all="ignore"):
        to_b, to_i = bw / p["y"].to_numpy(float), iops / p["y"].to_numpy(float)
    lev = np.array([np.nan if d["split"] else d["median"] for d in lv], float)
    means_i, means_b, iops, bw = iops, bw, lev * to_i, lev * to_b
    spread = np.array([d["hi"] / d["lo"] if d["runs"] >= 3 else np.nan for d in lv])
    rng = (np.array([d["lo"] for d in lv]), np.array([d["hi"] for d in lv]))
    ni, nb = _flat_run(iops, True, spread, rng), (0 if trims(result, p) else _flat_run(bw, False, spread, rng))
    if nb < 3:  # two sizes ("nearly level"): their means within ±FLAT, as before — not one stream's (round 17 YB)
        nb = 0 if trims(result, p) or one_stream(result, key, p) is not None else \
            min(2, _flat_run(np.where(np.isnan(lev), np.nan, means_b), False))
    # the byte level's edge: sizes just below the stretch whose value lies within EDGE under its band belong to it
    # (set after round 28 was read: KA)
    edge: list = []
    band = (float(np.nanmin(bw[n - nb:])), float(np.nanmax(bw[n - nb:]))) if nb >= 3 else None
    if nb >= 3 and not trims(result, p):
        nb, edge = level_edge(bw, n - nb, ni if ni >= 3 else 0)
    # the two-size stretch's values are the means it was read on, as its words print them (the figure draws the fact:
    # tests/data/fit/local/bs drew medians 0.904–1.01 GB/s beside a text's "byte limit near 1.1 GB/s")
    tail = (means_b if nb == 2 else bw)[n - nb:]
    # bytes/s that gain less than FLAT per doubling of the size at every step from the first size (a gap of untested
    # sizes counts by its doublings), within NOISE_BAND end to end and still gaining beyond rounding and the runs at the
    # largest size: a byte level from the first size, not a limit the two largest sizes approach (set after round 17
    # was read: r17_openzfs7834_…_qd16-16jobs_nosync_bs, YC, 1.23 → 1.6 GB/s over 4 KiB–1 MiB, +9 %, +3.2 %, +1 % per
    # doubling, said "nearly level at the two largest sizes … approaches a byte limit"). Where the two largest sizes
    # gain nothing the two-size limit stands (r6_ysj_sandisk-usb_randread_qd32_bs_repeats: 319 MB/s at 64 KiB and
    # 1 MiB, +0.14 %, a hard cap by its reading; 4 KiB held below it by its IOPS)
    doubling = None
    if nb < 3 and ni < 3 and n >= 3 and np.isfinite(bw).all() and not trims(result, p) \
            and one_stream(result, key, p) is None:
        with np.errstate(all="ignore"):
            per = (bw[1:] / bw[:-1]) ** (1 / np.log2(b[1:] / b[:-1])) - 1
        gains = means_b[-1] >= (1 + NO_GAIN) * means_b[-2] and not (lv[-1]["runs"] and lv[-2]["runs"]
                                                                      and rng[0][-1] <= rng[1][-2])
        if np.all(np.abs(per) < FLAT) and bw.max() / bw.min() <= NOISE_BAND and gains and bw[-1] >= bw.max():
            o = p["out"].to_numpy(float) if "out" in p else np.array([np.nan])
            depth = float(o[0]) if np.isfinite(o).all() and np.all(o == o[0]) and o[0] > 0 else None
            doubling = {"per_max": float(per[np.argmax(np.abs(per))]), "bytes": (float(bw[0]), float(bw[-1])),
                        "range": (float(bw.min()), float(bw.max())), "iops": (float(iops[0]), float(iops[-1])),
                        "sizes": (float(b[0]), float(b[-1])), "depth": depth}
            nb = 0
    if ni + nb > n + 1:  # everything flat in both: one size span too short to tell; keep the longer claim
        ni, nb = (ni, 0) if ni >= nb else (0, nb)
    # a cap is an upper bound the measurements reach: its value is the largest of the flat stretch, never its mean
    icap = float(iops[:ni].max()) if ni >= 3 and iops[:ni].max() >= np.nanmax(iops) / 1.02 else None
    # a byte cap holds the largest bandwidth measured: a stretch below an earlier peak is a fall, not a cap — unless
    # that peak is held (its job busy on its CPU, or on the IOPS cap's stretch) and the stretch's own jobs are not:
    # such a point cannot define the byte roof (set after round 10 was read: r10_icpe24sched_980pro…qd128_bs, JD)
    held = _held(p, b[ni - 1] if icap is not None else None)
    top = np.nanmax(bw)
    free = ~held[n - nb:] if nb >= 2 else np.zeros(0, bool)
    if free.sum() >= 2:
        top = max(float(np.nanmax(np.where(held, np.nan, bw))), float(tail.max()))
    bcap = float(tail.max()) if nb >= 2 and tail.max() >= top / 1.02 else None
    above = [(float(b[k]), float(bw[k]), _held_why(p, k)) for k in range(n - nb if bcap else 0)
             if bcap is not None and bw[k] > 1.02 * bcap]
    ni, nb = (ni if icap is not None else 0), (nb if bcap is not None else 0)
    # the roofline with the measured caps (or the largest measurement where no stretch is flat)
    I = icap if icap is not None else float(np.nanmax(iops))
    B = bcap if bcap is not None else float(np.nanmax(bw))
    roof = np.minimum(I, B / b)  # (compared with the smooth form on the means both describe)
    rms_roof = float(np.sqrt(np.mean(np.log(means_i / roof) ** 2)))
    smooth = None
    f = result.fits.get(key, {}).get("per_io_byte")
    if f is not None:
        with np.errstate(all="ignore"):
            fitted = np.asarray(f.eval(b), float)
        fitted_iops = fitted if result.y_unit == "1/s" else fitted / b
        if np.all(fitted_iops > 0):
            smooth = float(np.sqrt(np.mean(np.log(means_i / fitted_iops) ** 2)))
    # Little's law on the flat IOPS stretch at one I/O in flight: where 1 ÷ mean latency gives its rate at every
    # point, the level is what one I/O in flight allows at that latency — a cap only where the latency stays the same over a wide span of sizes (a per-I/O time the bytes do not add to), not where
    # it is one I/O's time over a few small sizes (blind4 r4_yuming_wsl2-vdisk_seqread_qd1_bs, 4–16 KiB at QD1)
    by_out = None
    # no latency column at exactly one I/O outstanding: 1 ÷ IOPS is the time of a request (round 32 WA, one_request)
    rated = one_request_times(result, p, means_i, ni) if icap is not None and not _paced_rows(result, p, icap) else None
    if icap is not None:
        lat, out = rated if rated is not None else (p["lat"].to_numpy(float)[:ni], p["out"].to_numpy(float)[:ni])
        if np.isfinite(lat).all() and np.isfinite(out).all() and (lat > 0).all() and (out > 0).all() \
                and np.all(np.abs(out / lat / means_i[:ni] - 1) <= 0.10) and np.all(out == 1):
            # one I/O in flight (with a full queue Little's law holds at any cap and names nothing, as above)
            wide = b[ni - 1] / b[0] >= WIDE_SPAN and lat.max() / lat.min() <= 1 + FLAT
            by_out = {"outstanding": float(out[0]), "lat": (float(lat.min()), float(lat.max())),
                      "bound": float(out[0] / np.mean(lat)), "wide": bool(wide), "span": float(b[ni - 1] / b[0]),
                      "from_rate": rated is not None}
    # one depth > 1 at every point of the stretch and no load axis in the files: the level is the rate at that depth;
    # a flat rate along block size proves a per-I/O time, not a cap a deeper queue would not raise (set after round
    # 13 was read: r13_krien-znsspdk_zns-spdk_seqread_qd4_bs, QC: "an IOPS cap of 396 K" at QD4 while the same
    # drive's QD1–QD4 jobs still rose +16 % for +33 % load)
    one_depth = None
    if icap is not None and by_out is None:
        out = p["out"].to_numpy(float)[:ni] if "out" in p else np.full(ni, np.nan)
        if np.isfinite(out).all() and np.all(out == out[0]) and out[0] > 1:
            one_depth = float(out[0])
    from .pacing import _at_pace

    paced = icap is not None and all(_at_pace(result, key, v) for v in b[:ni])
    if one_depth is not None:  # a pace fio was told to keep (rate_iops/rate) is no depth's rate: pacing speaks
        from .claim import runs_rows

        rows = runs_rows(result, p) if "sources" in p else None
        pace = pd_num(rows["rate_iops"]) if rows is not None and "rate_iops" in rows else None
        from .pacing import AT_PACE  # the level at fio's IOPS pace (adv bsrate), not a byte pace it stays under (r8)

        set_pace = pace is not None and bool((pace > 0).any()) and icap is not None and icap >= AT_PACE * float(pace[pace > 0].min())
        one_depth = None if paced or set_pace else one_depth
    # the flat IOPS level at one deep queue whose latency did not follow the size: a per-I/O limit, measured (round 27 HA)
    per_io = per_io_wait(b, iops, means_i, p["lat"].to_numpy(float), p["out"].to_numpy(float), ni) \
        if one_depth is not None and "lat" in p else None
    # one rule for both units: bandwidth flat over ≥ 3 sizes at one depth is the byte rate at that depth, not a cap a
    # deeper queue would not raise (set after round 15 was read: r14_here-ra_loop-ra0_psync_buffered_seqread_bs, SF,
    # a QD1 byte level over 8–256 KiB said only as "does not change … beyond the repeat noise")
    out = p["out"].to_numpy(float)[n - nb:] if "out" in p and bcap is not None else np.array([np.nan])
    bytes_depth = float(out[0]) if nb >= 3 and np.isfinite(out).all() and np.all(out == out[0]) and out[0] > 0 \
        and not any(_at_pace(result, key, v) for v in b[n - nb:]) else None
    # at one depth the size axis is itself a load axis for bytes: depth × size in flight. Where that grew ≥ ×4 over the
    # flat stretch and fio's Little check holds at each of its points (mean latency ∝ the bytes in flight at a fixed
    # byte rate), more bytes in flight only queued: a byte limit, measured — a deeper queue would add bytes in flight
    # as the larger sizes already did (set after round 16 was read: r16_xnvmebench_nvme0n1_seqwrite_qd16_bs, WB,
    # 16 I/Os × 128 KiB → 1 MiB at 3.385 → 3.362 GB/s, latency ×8.05, said "not shown to be a cap")
    # At one I/O outstanding nothing queued: latency ∝ size is that one transfer's time, the byte rate of the QD1 path
    # (round 14 SF), and a second I/O in flight could still add — so only at a depth of 2 or more.
    inflight = None
    if bytes_depth is not None and bytes_depth >= 2:
        lat = p["lat"].to_numpy(float)[n - nb:]
        with np.errstate(all="ignore"):  # fio's Little check from the means, as every sentence prints it: IOPS ×
            little = lat * means_i[n - nb:] / bytes_depth  # latency ÷ outstanding (round 18 ZF a: beegfs's inverse)
        grew = float(b[-1] / b[n - nb])
        if grew >= INFLIGHT_GROWTH and np.isfinite(lat).all() and (lat > 0).all() and np.isfinite(little).all() \
                and np.all(np.abs(little - 1) <= LITTLE_TOL):
            inflight = {"bytes": (bytes_depth * b[n - nb], bytes_depth * b[-1]), "growth": grew,
                        "lat": (float(lat[0]), float(lat[-1])), "little": (float(little.min()), float(little.max()))}
        elif not np.isfinite(lat).any():  # no latency column: from the rates, over a larger growth (round 27 GD)
            # workers with one I/O each, far from busy: bytes in flight known without a latency (round 28 LC)
            workers = one_io_workers(result, p, means_i[n - nb:], bytes_depth)
            inflight = inflight_from_rates(b[n - nb:], means_i[n - nb:], bytes_depth, lat, workers=workers)
    # the kept runs of the flat stretch beside its level (point_levels): a run above the cap shows the cap is not an
    # upper bound of these runs (set after round 13 was read: QA, r13_here-oldfio_fio325-terse_loop_libaio_seqwrite_
    # qd4_bs_repeats, "a byte cap of 1.38 GB/s or a little above" from means while single runs reached 1.71 GB/s)
    def kept(idx, scale):
        known = [k for k in idx if lv[k]["runs"]]
        return (float(min(lv[k]["lo"] * scale[k] for k in known)), float(max(lv[k]["hi"] * scale[k] for k in known))) \
            if known else None

    # a stretch read within ±FLAT that still creeps beyond its sizes' tight repeats is no flat one (round 25 DD)
    def creeping(idx, scale):
        idx = list(idx)
        if not idx:
            return None
        g = lambda f: np.array([lv[k][f] * (scale[k] if f != "runs" else 1) for k in idx], float)  # noqa: E731
        return creep(b[idx], g("median"), g("lo"), g("hi"), g("runs"))

    def shape(idx, scale):  # a peak inside the stretch, beyond the runs both ways (round 31 TC)
        from .level_shape import peaked

        idx = list(idx)
        g = lambda f: np.array([lv[k][f] * (scale[k] if f != "runs" else 1) for k in idx], float)  # noqa: E731
        return peaked(b[idx], g("median"), g("lo"), g("hi"), g("runs")) if idx else None

    facts = {"iops_cap": icap, "bytes_cap": bcap, "by_outstanding": by_out, "one_depth": one_depth, "per_io": per_io,
             "iops_runs": kept(range(ni), to_i) if icap is not None else None,
             "bytes_runs": kept(range(n - nb, n), to_b) if bcap is not None else None, "paced": paced, "crossover_bytes": (B / I) if icap and bcap else None,
             "measured": icap is not None or nb >= 3, "bytes_points": nb, "iops_flat": (float(b[0]), float(b[ni - 1]))
             if icap else None, "iops_range": (float(iops[:ni].min()), float(iops[:ni].max())) if icap else None, "iops_noise":
             float(np.median(spread[:ni])) if icap and iops[:ni].max() > (1 + FLAT) * iops[:ni].min() else None,
             "bytes_flat": (float(b[n - nb]), float(b[-1])) if bcap else None,
             "bytes_range": (float(tail.min()), float(tail.max())) if bcap else None,
             "bytes_depth": bytes_depth, "bytes_inflight": inflight, "by_runs": all(lv[k]["runs"] for k in range(n - nb, n)), "bytes_noise": float(np.median(spread[n - nb:]))
             if bcap and bw[n - nb:].max() > (1 + FLAT) * bw[n - nb:].min() and np.isfinite(spread[n - nb:]).all()
             else None,
             "iops_creep": creeping(range(ni), to_i) if icap is not None else None,
             "bytes_creep": creeping(range(n - nb, n), to_b) if bcap is not None and nb >= 3 else None,
             "bytes_shape": shape(range(n - nb, n), to_b) if bcap is not None and nb >= 3 else None,
             "held_above": above, "bytes_doubling": doubling,
             # the sizes below a measured byte level, where no IOPS cap speaks for them: the rise into it (round 19 UF)
             "bytes_rise": rise_into(b, bw, iops, n - nb, float(tail.min()), FLAT, LEVEL_STEP) if bcap is not None and nb >= 3
             and icap is None else None,
             "rms_log_roofline": rms_roof, "rms_log_smooth": smooth,
             # the sizes the roofline misses by more than a model may (round 28 LD), and the level's edge (KA)
             "roof_misses": roof_misses(b, means_i, roof), "bytes_edge": [(float(b[k]), float(bw[k])) for k in edge
                                                                           if bcap is not None and nb >= 3],
             "bytes_band": band if edge and bcap is not None else None,
             # one size well below its neighbours, one run each: a dip, not a rise into the level (round 32 VB)
             "size_dips": one_size_dips(b, means_b, [d["runs"] for d in lv])}
    cap = Fact("cap", facts, "IOPS / bandwidth flat within ±10 % over a stretch of sizes") \
        if icap is not None or bcap is not None or doubling is not None else None
    outstanding = None
    # a byte cap flat down to the smallest block sets the small-block rate itself (its latency is that cap's queue)
    if icap is None and not (bcap is not None and nb == n):
        lat, out = p["lat"].to_numpy(float), p["out"].to_numpy(float)
        bound = out[0] / lat[0] if np.isfinite(lat[0]) and lat[0] > 0 and np.isfinite(out[0]) and out[0] > 0 \
            else np.nan
        # one I/O in flight: the rate is one I/O's time (fio's latency plus the job's own time between I/Os, so a
        # little above 1/latency); with a full queue Little's law holds whatever limits the rate and names nothing
        if np.isfinite(bound) and out[0] == 1 and -0.10 <= bound / iops[0] - 1 <= 0.25:
            outstanding = Fact("outstanding", {"x": float(b[0]), "bound": float(bound), "outstanding": float(out[0]),
                                               "lat": float(lat[0]), "measured": float(iops[0])},
                               "Little's law at the smallest block: outstanding I/O ÷ mean latency")
    return cap, outstanding
