"""The saturation fact along a load axis: where throughput stops paying per doubling of load (or never does), the level
it holds, a fall after it, and the noise a level or a trend must stand above.
"""

from __future__ import annotations

import math

import numpy as np

from .fall_runs import fall_by_runs
from .run_drift import series_drift
from .fact_base import FLAT, LEVEL_STEP, NEAR, PAYS, Fact, _gain, last_gain
from .knee import held_peak, unqueued_onset
from .last_doubling import measured_doubling
from .onset_checks import bump_before, later_rise
from .latency_growth import LITTLE_TOL, _little_growth, little_runs
from .plateau_level import _in_flight_stall, _level_after, _robust_level, repeat_spread
from .point_runs import _kept
from .split_level import split_level
from .stream_facts import _paced


def _saturation(result, p, ev=None, key=None) -> Fact | None:
    from .axes import axis_kind

    if axis_kind(result.x) not in ("concurrency", "other") or result.y_unit not in ("1/s", "B/s"):
        return None
    # every step, level and latency ratio below reads the point table (point_levels), never the means one stalled
    # run drags (round 15 UC, read before this: r15_here-newfio_fio342 … iouring-nonvectored iodepth, "+106 % per
    # doubling from 59.97 K" = the mean of 110.1 / 12.9 / 56.9 K). The steps and the noise tests read the kept runs'
    # means — the means decide, never the median alone, a median being one run of three (round 10 HB: median +15 %,
    # mean +3.5 %, a level; r11_here-fio31 psync numjobs: medians +118 % from 1 to 2 jobs over runs 27–73 K and
    # 34–91 K) — and the level and its range the kept runs' medians (yl)
    ym = np.array([r.mean() if r.size else v for r, v in ((_kept(p, i), p["level"].iloc[i]) for i in range(len(p)))])
    q = p.assign(y=ym, lat=p["lat_kept"], p50=p["p50_kept"])
    x, y, lat, yl = q["x"].to_numpy(float), ym, q["lat"].to_numpy(float), p["level"].to_numpy(float)
    # latency is the kept runs' median: Little's law pairs it with the median rate, never with the mean (dev
    # here_loop_iodepth QD32 → 64: means 119.9 → 107.0 K beside medians 95.4 → 118.7 K read as "no queue")
    # (the tail test reads the median latency across the runs as before: a median of three p50s of 6–14 µs moves by
    # ±40 % where the runs' typical I/O did not — r3_here_blkio_wiops_numjobs, mean ×8 at a 6–9 µs median, a tail)
    ql = q.assign(y=yl, p50=p["p50"])
    n = x.size
    if n < 3 or not np.all(x > 0) or not np.all(y > 0) or x[-1] / x[0] < 4 or _paced(result, p, key):
        return None  # (runs fio paced — a think time, a rate — are the pacing claims': their load is not x)
    noisy = repeat_spread(result, q)
    by_runs = noisy if noisy is not None and noisy.get("readable") else None
    noisy = None if by_runs is not None else noisy
    if noisy is not None:  # the repeats spread more than every step: no onset or fall is read (round 5 AB/AE) …
        in_noise = _level_in_noise(result, q, noisy)
        if in_noise is not None:  # … but the whole axis may still show the added load queued: a level within the noise
            return Fact("saturation", in_noise, f"over ×{in_noise['load_growth']:g} the {result.x} the means gain under "
                                             f"{PAYS:.0%} per doubling while fio's latency grew with the load")
        return Fact("saturation", {"axis": result.x, "unit": result.y_unit, "state": "noisy", "onset_x": None,
                                   **noisy}, f"the runs at one {result.x} differ more than any step between points")
    kr = [_kept(q, i) for i in range(n)]
    splits = q["split"].to_numpy(bool)

    def beyond(i, j) -> bool:
        """The kept means of i and j differ by more than twice their standard error (evidence.Z, the yardstick every
        fall is judged by) — a step one run of three makes is no step (set after round 17 was read: r17_here-cpuquota
        … libaio iodepth, "+24 % per doubling" from QD8's 52–62 K to QD16's 59/64/87 K, onset 16 where the level
        holds from QD2–4, XA). True where either point's runs are not told apart (the means stand), and for the last
        point: no later point tells a bump from a rise there, and its step is the last-rise words' (r2 pagecache read
        numjobs keeps "these runs do not tell a last rise from a level"; r6 null pin1cpu keeps onset 2)."""
        a, b = kr[i], kr[j]
        if a.size < 2 or b.size < 2 or j == n - 1:
            return True
        return abs(b.mean() - a.mean()) > 2.0 * math.hypot(a.std(ddof=1) / math.sqrt(a.size),
                                                         b.std(ddof=1) / math.sqrt(b.size))

    def pay(i, j):
        return _gain(ym[i], ym[j], x[i], x[j])

    # onset: the first point no later point gains PAYS per doubling over
    lat_known = bool(np.isfinite(lat).all() and np.all(lat > 0))
    onset, between, why, unsure, held = None, None, None, None, None
    for k in range(n - 1):
        gains = [pay(k, j) if beyond(k, j) else 0.0 for j in range(k + 1, n)]
        overlap = []  # later points whose runs overlap k's while their mean gains PAYS per doubling
        if by_runs is not None:  # runs spread past the steps: a later point pays only where its runs lie above k's,
            rlo, rhi = by_runs["runs_lo"], by_runs["runs_hi"]  # and k must itself lie above an earlier point's runs
            # the means decide, never the median alone: a median is one run of three (round 10 HB, read before this
            # rule: r10_here-fio2111 loop iodepth, means +3.5 % and median +15 % from 16 to 32 while fio's mean
            # latency grew ×2.07 for ×2 the depth — the added depth queued, a level)
            overlap = [j for j in range(k + 1, n) if not rlo[j] > rhi[k] and _gain(ym[k], ym[j], x[k], x[j]) >= PAYS]
            # (runs that lie apart: their kept mean's gain, as before the medians — round 6 BE's r6 ureap QD8 → 32)
            gains = [_gain(ym[k], ym[j], x[k], x[j]) if rlo[j] > rhi[k] else 0.0 for j in range(k + 1, n)]
            if k > 0 and not any(rlo[k] > rhi[i] for i in range(k)):
                continue
        # a measured doubling from k decides, not a shorter sub-step before it raised to a doubling (round 29 ND)
        d = measured_doubling(x, k)
        if d is not None:
            gains = [0.0 if j < d else g for j, g in zip(range(k + 1, n), gains)]
            overlap = [j for j in overlap if j >= d]
        if all(g < PAYS for g in gains) and overlap:
            # the runs overlap, yet the step's mean gains PAYS: the runs cannot tell a rise from a level
            # — no onset here, no plateau (round 9 GA, read before this rule: r9 fio221 loop numjobs, +10.3 % mean,
            # +16 % median from 8 to 16 jobs with one 16-job run below the best 8-job run)
            # (never from a point whose runs split in two: it has no level to tell a rise from — r6 ureap QD4's
            # 73.5 / 190.8 K; the next unsplit point's overlap is read, round 6's 16 → 32)
            unsure = (k, overlap[0]) if unsure is None and not splits[k] else unsure
            held = (k, overlap[0]) if not splits[k] else held  # (the last such point before the onset: round 20 SD)
            continue
        if all(g < PAYS for g in gains):
            # not an onset (round 6 BD): the latency at k still the unloaded one (Little's law: the rate still grew
            # with the load into k) while the next point is more than LEVEL_STEP above it, or one step of more than a doubling after k that gains PAYS as measured (its rise
            # may all lie in its first doubling)
            unloaded = k > 0 and lat_known and lat[k] <= (1 + PAYS) * lat[:k].min() and y[k + 1] / y[k] - 1 > LEVEL_STEP
            wide = x[k + 1] / x[k] > 2.01 and y[k + 1] / y[k] - 1 >= PAYS
            if unloaded or wide:  # (which of the two, said as measured: round 7 CA, a ×2.03 latency was "unloaded")
                between, why = (k, "unloaded" if unloaded else "wide") if between is None else (between, why)
                continue
            onset = k
            break
    if onset is None and unsure is not None:
        k, j = unsure
        rv = [_kept(q, i) for i in (k, j)]
        return Fact("saturation", {"axis": result.x, "unit": result.y_unit, "state": "overlap", "onset_x": None,
                                   "x0": float(x[k]), "x1": float(x[j]), "y0": float(ym[k]), "y1": float(ym[j]),
                                   "med0": float(yl[k]), "med1": float(yl[j]),
                                   "gain": _gain(ym[k], ym[j], x[k], x[j]), "med_gain": _gain(yl[k], yl[j], x[k], x[j]),
                                   "runs0": rv[0].tolist(), "runs1": rv[1].tolist()},
                    f"the runs at {result.x} = {x[k]:g} and {x[j]:g} overlap while the mean or median gains "
                    f"{PAYS:.0%} per doubling")
    pays = [pay(i, i + 1) for i in range(n - 1)]  # each step's gain per doubling
    cnoise = curve_noise(result, q)
    if onset is not None and by_runs is None and pays[-1] >= PAYS and y[-1] > (1 + FLAT) * y[onset] \
            and (pays[-2] >= PAYS or y[-1] > 1.15 * y[onset:].mean()) \
            and y[-1] > max(cnoise["hi"][:-1]) and y[-1] > (1 + cnoise["step_fall"]) * y[:-1].max():
        # the last doublings still pay, or the last point stands > 15 % above the level: rising (r7 CB) — only where
        # the last point beats EVERY earlier one by more than the curve's own noise (round 9 FB, read before this
        # rule: r9 fiozfsbench rawdev 1,623, 3,367, 2,648, 3,871 IOPS, +15 % over 4 jobs after a −21 % dip)
        onset = None
    if onset is None and between is not None and lat_known and lat[-1] >= 1.3 * lat[-2] \
            and _gain(y[-2], y[-1], x[-2], x[-1]) < PAYS:
        onset = n - 1  # the last point alone is on the level: the onset lies between the point before it and it
    else:
        between = None
    # an onset must pass two checks on the runs (set after round 24 was read, CC: onset_checks.py): no later step the
    # runs read as a rise (then the series still rises), and not above earlier points already on the level's range
    # (then the level holds from the first point and the onset point is a bump)
    rise_after = later_rise(x, ym, yl, kr, splits, onset) if onset is not None and between is None else None
    onset = None if rise_after is not None else onset
    bump = bump_before(x, ym, yl, splits, onset) if onset is not None and between is None else None
    last_gain = _gain(y[-2], y[-1], x[-2], x[-1])
    facts = {"axis": result.x, "unit": result.y_unit, "onset_x": None, "last_gain_per_doubling": last_gain,
             "by_runs": by_runs, "noise": cnoise,
             "lat_growth": float(lat[-1] / lat[0]) if lat_known else None, "load_growth": float(x[-1] / x[0]),
             "later_rise": rise_after, "bump": bump, "drift": series_drift(result, p)}
    d = measured_doubling(x, onset) if onset is not None and between is None and bump is None else None
    short = [j for j in range(onset + 1, d) if pay(onset, j) >= PAYS] if d is not None and onset is not None else []
    # the onset told by a measured doubling, past a shorter step that gained PAYS raised to one (round 29 ND): said
    facts["onset_doubling"] = ({"x0": float(x[onset]), "x1": float(x[d]), "step": float(ym[d] / ym[onset] - 1),
                                "short_x": float(x[short[0]]), "short_step": float(ym[short[0]] / ym[onset] - 1),
                                "short_ratio": float(x[short[0]] / x[onset])} if short else None)
    if onset is None:
        lat_gain = _gain(lat[-2], lat[-1], x[-2], x[-1]) if lat_known else np.nan
        # still paying, but most of the added load queued: rising, towards a ceiling it has not reached
        # … and only where the gain per doubling falls step over step beyond the noise: a steady gain approaches no
        # ceiling the data show (set after round 20 was read: RF, r20_tutsunom_sdb-hdd … numjobs, +14, +23, +21, +21,
        # +20 % per doubling said as "approaching a ceiling"; steps.bends)
        from .steps import GAIN_STEP, bends, last_falls

        sy = (x, p["y"].to_numpy(float), p["y_std"].to_numpy(float), p["n_runs"].to_numpy(float))
        bend, one_fall = bends(*sy), last_falls(*sy)
        from .median_bend import median_bend  # every gain falls by GAIN_STEP on the means and the medians (r28 MG)

        facts["median_bend"] = median_bend(x, sy[1], p["level"].to_numpy(float), sy[3]) if bend is None else None
        slowing = last_gain < NEAR and np.isfinite(lat_gain) and lat_gain > last_gain and bend is not None
        # the gain collapsed: the last doubling pays under a quarter of what the one before it paid (round 7 CF)
        collapsed = last_gain < NEAR and pays[-2] > 0 and last_gain <= pays[-2] / 4
        from .steps import doubling_gains

        dg = doubling_gains(x, sy[1])  # an earlier listed step (of the last six) that fell by GAIN_STEP: round 28 KD
        early = [i for i in range(max(1, dg.size - 6), dg.size - 2)
                 if np.isfinite(dg[[i - 1, i]]).all() and dg[i - 1] - dg[i] > GAIN_STEP]
        facts["earlier_fall"] = ({"from": float(dg[early[-1] - 1]), "to": float(dg[early[-1]])}
                                 if early and one_fall and bend is None else None)
        facts.update(state="rising", slowing=bool(slowing), lat_gain_per_doubling=lat_gain, bend=bend, last_falls=bool(one_fall),
                     collapsed_from=float(pays[-2]) if collapsed else None, trend=_paying_trend(p, pays))  # (on the means: r11 KF)
        # "still rises" judged over the last span of about a doubling, not a short last step raised to one (set after
        # round 28 was read: JF; last_doubling.py): near saturation from where that span starts, its level the points
        # after it
        from .median_onset import median_onset

        mo = median_onset(p) if by_runs is None and not splits.any() else None  # (round 28 MA: median_onset.py)
        if mo is not None:
            facts.update(state="near", median_onset=mo, onset_x=mo["x"], onset_index=mo["k"], plateau=mo["value"],
                         plateau_lo=mo["lo"], plateau_hi=mo["hi"], plateau_x_from=mo["x"], plateau_x_to=mo["x_to"],
                         plateau_points=mo["points"])
            for u in ("iops", "bytes_per_s"):  # each point's median level in either unit (its bytes per I/O)
                v = (p[u].to_numpy(float) / p["y"].to_numpy(float))[mo["k"]:]
                facts[f"plateau_{u}"] = float(np.mean(v)) * mo["value"] if np.isfinite(v).all() else None
            return Fact("saturation", facts, f"the medians gain under {PAYS:.0%} per doubling from {result.x} = "
                                             f"{mo['x']:g} while fio's mean latency grew with the load")
        from .last_doubling import last_span

        ls = last_span(x, y, lat if lat_known else None, p["out"].to_numpy(float) if "out" in p else None) \
            if by_runs is None and not splits.any() else None
        if ls is not None:
            j = ls["j"]
            facts.update(state="near", last_span=ls, onset_x=float(x[j]), onset_index=j, plateau=float(yl[j + 1:].mean()),
                         plateau_lo=float(yl[j + 1:].min()), plateau_hi=float(yl[j + 1:].max()),
                         plateau_x_from=float(x[j + 1]), plateau_x_to=float(x[-1]), plateau_points=int(n - j - 1))
            for u in ("iops", "bytes_per_s"):
                v = p[u].to_numpy(float)[j + 1:]
                facts[f"plateau_{u}"] = float(v.mean()) if np.isfinite(v).all() else None
            return Fact("saturation", facts, f"over the last ×{ls['ratio']:.3g} of {result.x} the rate gained "
                                             f"{ls['gain']:+.0%} per doubling while the time per I/O grew "
                                             f"×{ls['t_ratio']:.3g}")
        return Fact("saturation", facts, f"the last doubling of {result.x} added {last_gain:+.0%}")
    k = 0 if bump is not None else onset
    if held is not None and by_runs is not None and held[0] < k:
        # an earlier point passed the runs' test (above an earlier point's runs, no later point's runs above its own)
        # and was held back only because a later mean still gained PAYS per doubling over runs that overlap: the onset
        # is where both tests pass, and the words say which held the earlier point back (set after round 20 was read:
        # SD, r20_here-devcount … randread, "saturated from 4: no later point's runs lie above its runs" — as true of
        # 3, held back by +17 % per doubling in the means from 3 to 4)
        a, b = held
        below = [i for i in range(a) if by_runs["runs_lo"][a] > by_runs["runs_hi"][i]]
        facts_held = {"x": float(x[a]), "x_next": float(x[b]), "gain": float(_gain(ym[a], ym[b], x[a], x[b])),
                      "step": float(ym[b] / ym[a] - 1), "ratio": float(x[b] / x[a]),
                      "above_x": float(x[below[-1]]) if below else None}
    else:
        facts_held = None
    # later points whose mean gains PAYS per doubling over the onset, but within their runs' noise (beyond): the
    # noise test decided, not the PAYS one, and the words say so (set after round 18 was read: ZA,
    # r18_here-stack2 … libaio iodepth, "no later point gains 10 %" beside QD8's +15 % over QD4 by means)
    quiet = [j for j in range(k + 1, n) if by_runs is None and pay(k, j) >= PAYS and not beyond(k, j)]
    if quiet:
        j = max(quiet, key=lambda i: pay(k, i))
        facts["onset_noise"] = {"x": float(x[j]), "gain": float(pay(k, j)), "runs": (float(kr[j].min()),
                                float(kr[j].max())), "onset_runs": (float(kr[k].min()), float(kr[k].max()))}
    if lat_known:
        # Little's law at a fixed rate: latency ∝ load. Latency that did not grow with the load means the added
        # load never reached the device (a synchronous engine, a cap upstream): no saturation is read from it.
        expected = (x[-1] / x[k]) / (yl[-1] / yl[k])
        if expected > 1.5 and lat[-1] / lat[k] < 1 + 0.5 * (expected - 1):
            facts.update(state="no_queue", onset_x=float(x[k]), in_flight_stall=_in_flight_stall(ql, k))
            return Fact("saturation", facts, f"throughput level from {result.x} = {x[k]:g} but fio's mean latency "
                                             f"grew only ×{lat[-1] / lat[k]:.3g} for ×{x[-1] / x[k]:.3g} the load")
    tail = np.arange(k, n)
    i_max = int(tail[np.argmax(y[tail])])
    # the points after the maximum that repeat it: the level held to the last of them, the fall told from there (set
    # after round 19 was read: UG, r19_lkml-yukuai … numjobs, 67.7 MiB/s at 1–8 jobs said "peaks at numjobs = 1")
    i_held = held_peak(y, i_max)
    # a fall after the plateau's maximum: beyond the repeat noise, or (one run a point) beyond every step-to-step
    # change inside the plateau before the maximum
    falls, unshown = None, None
    if i_max < n - 1:
        drop = y[i_max] - y[-1]
        sd = p["y_std"].to_numpy(float)
        reps = p["n_runs"].to_numpy(float)
        if ev is not None and np.isfinite(reps).all() and (reps >= 2).all():
            noise = ev.beyond_noise(i_max, n - 1)  # the repeats' noise, as evidence.py tests every fall
            basis = "the repeat noise"
        elif np.isfinite(sd[[i_max, -1]]).all() and (reps[[i_max, -1]] >= 2).all():
            noise = 2.0 * math.hypot(sd[i_max] / math.sqrt(reps[i_max]), sd[-1] / math.sqrt(reps[-1]))
            basis = "the repeat noise"
        else:
            # one run a point: a fall must leave the ±FLAT band a cap's level is read within, and exceed every
            # step-to-step change on the way up to the maximum
            steps = np.abs(np.diff(y[k:i_max + 1]))
            noise = max(float(steps.max()) if steps.size else 0.0, FLAT * y[i_max])
            # (the steps are those from the onset to the peak: said so — round 9 GF, "more than every step before
            # it" beside an earlier +117 % rise)
            basis = (f"any step from {result.x} = {x[k]:g} to the peak and the ±{FLAT:.0%} band a level is read within"
                     if steps.size else f"the ±{FLAT:.0%} band a level is read within")
        cn = curve_noise(result, q)
        # every kept run at the last point below every kept run at the peak: the fall is beyond the runs whatever
        # another point's scatter (set after round 17 was read: r17_here-cpuquota … psync numjobs, 2 jobs 112–148 K,
        # 8 jobs 78–83 K, averaged into a "plateau" of 98 K beside the 1-job point's ×4.9 split, XB)
        apart = kr[i_max].size >= 2 and kr[-1].size >= 2 and kr[-1].max() < kr[i_max].min() \
            and not splits[[i_max, n - 1]].any()  # (a split point has no level to fall to: r14 nrreq 128k QD32)
        if apart and drop > noise:
            basis = "the runs of either point"
        elif cn["rel"] * y[i_max] > noise:
            # the repeats at one point of this curve spread more than the fall: the fall is not told from them (round
            # 9 FA, read before this rule: r9 fiozfsbench standard, −13 % beside runs ×1.9 apart at 4 jobs)
            noise = cn["rel"] * y[i_max]
            basis = (f"the spread of the runs at one point (at {result.x} = {cn['x']:g} the lowest is {cn['rel']:.0%} "
                     f"below the highest)")
        # where the peak or the last point has one run but the series has repeats elsewhere, the fall is read from
        # the runs: the last point's runs below the peak's lowest run by more than the series' largest run spread
        # (set after round 25 was read: EA, fall_runs.py)
        one = lambda i: kr[i] if kr[i].size else np.array([y[i]]) if reps[i] == 1 else kr[i]  # noqa: E731
        fr = fall_by_runs(one(i_max), one(n - 1), cn["rel"], cn["x"]) \
            if drop > noise and not apart and not splits[[i_max, n - 1]].any() else None
        if fr is not None and not fr["shown"]:
            unshown = {**fr, "x_max": float(x[i_max]), "y_max": float(y[i_max]), "x_last": float(x[-1]),
                       "y_last": float(y[-1]), "i_max": i_max, "drop": float(drop / y[i_max])}
            noise = drop  # (no fall: the runs do not show one)
        if fr is not None and fr["shown"]:
            basis = "runs"
        after = _level_after(x, y, reps, i_held) if drop > noise else None
        if drop > noise and not (after or {}).get("one_level"):  # (with repeats their noise; without, ±FLAT above)
            from .steps import level_after_fall

            # the fall in one step beyond the runs, then a lower level held to the last point: where it happens and the
            # level after it (set after round 20 was read: SE, r20_here-devcount … seqread128k, "falls 33 % to 4.74 GB/s
            # at 6" for one step 2 → 3, then 4.74–5.08 GB/s to 6)
            lo_r = [float(r.min()) if r.size >= 2 else np.nan for r in kr]
            hi_r = [float(r.max()) if r.size >= 2 else np.nan for r in kr]
            one_step = level_after_fall(x, y, lo_r, hi_r, i_max) if after is None and not splits.any() else None
            from .fall_level import slide_level  # a fall over several steps, then a level (round 27, HC)

            slide = slide_level(x, y, lat, i_max) if after is None and one_step is None and not splits.any() \
                and not (np.isfinite(reps).all() and (reps >= 2).any()) else None
            falls = {"x_max": float(x[i_max]), "y_max": float(y[i_max]), "drop": float(drop / y[i_max]),
                     "slide_level": slide,
                     "basis": basis, "level_after": after, "apart": bool(apart), "one_step": one_step,
                     "by_runs": ({**fr, "x_max": float(x[i_max]), "x_last": float(x[-1])}
                                 if fr is not None and fr["shown"] else None),
                     "held": ({"x_to": float(x[i_held]), "points": i_held - i_max + 1, "x_next": float(x[i_held + 1]),
                               "lo": float(y[i_max:i_held + 1].min())}
                              if i_max < i_held < n - 1 else None),
                     "steps": [(float(x[j]), float(x[j + 1]), float(y[j + 1] / y[j] - 1))
                               for j in range(min(i_held, n - 2), n - 1)]}
    if unshown is not None:
        # a lower last point the runs do not tell from their spread: neither a fall nor a level is read (round 25 EA)
        facts.update(state="fall_unshown", fall_unshown=unshown, onset_index=k,
                     gain_before=(_gain(y[k - 1], y[k], x[k - 1], x[k]) if k > 0 else None))
        return Fact("saturation", facts, f"the one run at {result.x} = {x[-1]:g} lies within the series' run spread "
                                         f"below the peak's runs")
    # how much the points after the onset scatter step to step (one run a point: a +27 % step after a -16 % one is
    # scatter about the level, not a rise the onset rule missed — said so)
    steps = y[k + 1:] / y[k:-1] - 1 if n - k >= 2 else np.array([])
    level = tail if falls is None else np.arange(k, (i_held if falls["held"] else i_max) + 1)
    # the level's points at their own levels (the point table: the median of each point's kept runs), the one level
    # per point the verification pass and every other claim read (round 12 NB, read before this: r12_here-sched_loop-
    # bfq iodepth, runs 43–160 K at QD16, the level printed from means the runs do not bear out). A point whose kept
    # runs split in two has no level: the plateau's value and range never come from it (round 15 UA, read before
    # this: r15_here-ext4 libaio randread iodepth, "54.54 K to 98.96 K", both ends from split points).
    split = q["split"].to_numpy(bool)[level]
    whole = level[~split] if (~split).any() else level
    by_point = bool((q["kept_runs"].to_numpy(float)[level] > 0).all())
    robust = _robust_level(result, p, level) if by_runs is None else None  # (round 7, part 2 CA: runs it leaves out)
    plateau = float(yl[whole].mean())
    facts.update(state="falls" if falls else ("from_first" if k == 0 else "onset"), onset_x=float(x[k]),
                 onset_index=k, plateau=robust["value"] if robust else plateau, robust=robust, plateau_by_point=by_point,
                 plateau_lo=robust["lo"] if robust else float(yl[whole].min()),
                 plateau_hi=robust["hi"] if robust else float(yl[whole].max()),
                 plateau_points=int(level.size), plateau_split=int(split.sum()), plateau_x_to=float(x[level[-1]]), falls=falls,
                 gain_before=(_gain(y[k - 1], y[k], x[k - 1], x[k]) if k > 0 else None),
                 between=float(x[between]) if between is not None else None, between_why=why,
                 held_back=facts_held,
                 step_lo=float(steps.min()) if steps.size else None, step_hi=float(steps.max()) if steps.size else None)
    # split points on the level set apart: the level said over the points whose runs do not split, each split point
    # named with its run groups (set after round 25's fixes were reviewed: split_level.py)
    sl = split_level(x, ym, kr, splits, k, level, facts["plateau_lo"], facts["plateau_hi"], by_runs is not None) \
        if falls is None else None
    facts["split_level"] = sl
    last = sl["whole_index"][-1] if sl is not None else n - 1  # the level's last point the latency is read to
    if sl is not None and len(sl["whole_index"]) >= 2:  # the steps after the onset between those points only
        ws = y[sl["whole_index"]]
        facts.update(step_lo=float((ws[1:] / ws[:-1] - 1).min()), step_hi=float((ws[1:] / ws[:-1] - 1).max()))
    for u in ("iops", "bytes_per_s"):  # the level in either unit: each point's level times its own bytes per I/O
        v = (p[u].to_numpy(float) / p["y"].to_numpy(float))[whole]
        facts[f"plateau_{u}"] = float(np.mean(v)) * facts["plateau"] if np.isfinite(v).all() else None
    # an onset point clearly below the later points of one level: the level and its range are those later points',
    # the onset point near saturation beside it (set after round 28 was read: JA, KE; plateau_approach.py)
    from .plateau_approach import approach_point

    ap = approach_point(x, yl, kr, k, level) if falls is None and sl is None and robust is None \
        and by_runs is None and not split.any() else None
    facts["approach"] = ap
    if ap is not None:
        facts.update(plateau=ap["value"], plateau_lo=ap["lo"], plateau_hi=ap["hi"])
        for u in ("iops", "bytes_per_s"):
            v = (p[u].to_numpy(float) / p["y"].to_numpy(float))[level[1:]]
            facts[f"plateau_{u}"] = float(np.mean(v)) * ap["value"] if np.isfinite(v).all() else None
    if lat_known:
        # an onset whose latency had not risen over the lighter loads': the knee lies past it (round 19 TB, knee.py)
        facts["unqueued"] = unqueued_onset(x, lat, q["little"].to_numpy(float), k, int(level[-1]), LITTLE_TOL) \
            if k > 0 else None
        facts.update(lat_first=float(lat[k]), lat_last=float(lat[last]))
        facts.update(_little_growth(ql.iloc[:last + 1], k))
        facts["in_flight_stall"] = _in_flight_stall(ql, k)
    return Fact("saturation", facts, "no doubling of load after the onset added 10 %")


def _paying_trend(p, pays) -> dict | None:
    """The means gaining :data:`PAYS` or more on each of the last ≥ 3 doublings while fio's mean latency at the last point
    was no higher than where the trend began and Little's law held (within [0.9, 1.1]) at each of its points: every added
    I/O paid, so the curve still rises whether or not the last pair's runs overlap (round 11 KF, read before this
    rule: r11_here-trim loop psync randtrim numjobs, means +78 %, +75 %, +72 % per doubling at 1.2–2.1 ms, said as
    "cannot tell a last rise from a level" from the last pair's sd). None otherwise."""
    t = len(pays)
    while t > 0 and pays[t - 1] >= PAYS:
        t -= 1
    lat, little = p["lat"].to_numpy(float)[t:], p["little"].to_numpy(float)[t:]
    if len(pays) - t < 3 or not (np.isfinite(lat).all() and (lat > 0).all() and np.isfinite(little).all()) \
            or lat[-1] > lat[0] or not np.all((little >= 0.9) & (little <= 1.1)):
        return None
    return {"from_index": t, "gains": [float(g) for g in pays[t:]], "lat_lo": float(lat.min()),
            "lat_hi": float(lat.max()), **dict(zip(("little_lo", "little_hi"), little_runs(p, slice(t, None))))}


#: repeats of one point within this ratio (largest ÷ smallest run) still bound a level the whole axis shows; wider
#: runs bound nothing (set after round 10 was read: r10_here-fio37 loop iodepth, runs ×2.79 apart at QD1, a level;
#: round 5 AE's r5_here_loop_posixaio ×10.5 and r5_here_ext4_fsync ×125 stay "nothing read")
NOISE_LEVEL_RATIO = 3.0


def _level_in_noise(result, p, noisy: dict) -> dict | None:
    """Runs whose spread at one point exceeds every step, read over the whole axis: where the means gain under
    :data:`PAYS` per doubling from the first point to the last, fio's mean latency grew with the load (at least half
    the way to Little's law at a fixed rate) and the I/O asked for was in flight at every point (the per-run check
    within [0.9, 1.1]), the added load queued — latency ∝ load is evidence of saturation whatever the rate's scatter
    (round 10 HB, read before this rule: r10_here-fio37 loop iodepth, means 47–73 K over ×32 the depth, latency ×19,
    Little 0.98–1.00, said as "no level can be read"). The level is said with the range of its runs, no onset or fall
    (the steps are not read). None where the runs spread beyond :data:`NOISE_LEVEL_RATIO` or a condition fails."""
    x, y, lat = (p[c].to_numpy(float) for c in ("x", "y", "lat"))
    little = p["little"].to_numpy(float)
    runs = [_kept(p, i) for i in range(len(p))]
    if not all(v.size for v in runs):
        return None
    # a level from x_k on, judged with the noise of the points it covers only: runs spread wide BELOW k are the rise's
    # noise, not the level's (round 11 KC, read before this: r11_here-osync loop psync numjobs, runs ×2.68 apart at
    # 1 job, then means +5 % and +2 % per doubling from 2 jobs on while latency doubled with each doubling)
    for k in range(len(x) - 2):
        xs, ys, ls, li = x[k:], y[k:], lat[k:], little[k:]
        if not (np.isfinite(ls).all() and (ls > 0).all()) or not (np.isfinite(li).all() and np.all((li >= 0.9) & (li <= 1.1))) \
                or max(v.max() / v.min() for v in runs[k:]) > NOISE_LEVEL_RATIO or _gain(ys[0], ys[-1], xs[0], xs[-1]) >= PAYS:
            continue
        expected = (xs[-1] / xs[0]) / (ys[-1] / ys[0])  # Little's law at the rates measured: R grows as N ÷ X
        if ls[-1] / ls[0] < 1 + 0.5 * (expected - 1):
            continue
        v = np.concatenate(runs[k:])
        wide = [float(r.max() / r.min()) for r in runs]
        i, b = k + int(np.argmax(wide[k:])), int(np.argmax(wide[:k])) if k else 0
        below = {"below_x": float(x[b]), "below_ratio": wide[b], "below_lo": float(runs[b].min()),
                 "below_hi": float(runs[b].max())} if k else {}
        return {"axis": result.x, "unit": result.y_unit, "state": "onset" if k else "from_first", "within_noise": True,
                "onset_x": float(xs[0]), "onset_index": k, "plateau": float(v.mean()), "plateau_lo": float(ys.min()),
                "plateau_hi": float(ys.max()), "runs_lo": float(v.min()), "runs_hi": float(v.max()), "n_runs": int(v.size),
                "plateau_points": int(xs.size), "plateau_x_to": float(xs[-1]), "ratio": wide[i], "x": float(x[i]),
                "gain_before": None, "between": None, "gain": _gain(ys[0], ys[-1], xs[0], xs[-1]), "lat_first": float(ls[0]),
                "lat_last": float(ls[-1]), **dict(zip(("little_lo", "little_hi"), little_runs(p, slice(k, None)))),
                "robust": None,
                "falls": None, "by_runs": None, "load_growth": float(xs[-1] / xs[0]), **below,
                "plateau_iops": float(v.mean()) if result.y_unit == "1/s" else None,
                "plateau_bytes_per_s": float(v.mean()) if result.y_unit == "B/s" else None}
    # no latency proof in the files (no Little's law check at some point): where the level gains under PAYS per
    # doubling over the whole axis, every point's runs within NOISE_LEVEL_RATIO, the measurement itself is the reading
    # — more load gained nothing beyond the noise, a level from the first point — never "nothing can be read" (set
    # after round 17 was read: r17_here-endfsync … seqwrite64k numjobs, means 1.07–1.35 GB/s over ×8 the jobs, runs
    # ×2.63 apart at 4 jobs, buffered with end_fsync: no latency of the device, XD)
    if (np.isfinite(lat).all() and (lat > 0).all() and np.isfinite(little).all()) \
            or max(v.max() / v.min() for v in runs) > NOISE_LEVEL_RATIO or _gain(y[0], y[-1], x[0], x[-1]) >= PAYS:
        return None
    v = np.concatenate(runs)
    wide = [float(r.max() / r.min()) for r in runs]
    i = int(np.argmax(wide))
    lv = p["level"].to_numpy(float) if "level" in p else y
    return {"axis": result.x, "unit": result.y_unit, "state": "from_first", "within_noise": True, "no_latency": True,
            "onset_x": float(x[0]), "onset_index": 0, "plateau": float(v.mean()), "plateau_lo": float(lv.min()),
            "plateau_hi": float(lv.max()), "runs_lo": float(v.min()), "runs_hi": float(v.max()), "n_runs": int(v.size),
            "plateau_points": int(x.size), "plateau_x_to": float(x[-1]), "ratio": wide[i], "x": float(x[i]),
            "gain_before": None, "between": None, "gain": _gain(y[0], y[-1], x[0], x[-1]), "robust": None,
            "falls": None, "by_runs": None, "load_growth": float(x[-1] / x[0]),
            "plateau_iops": float(v.mean()) if result.y_unit == "1/s" else None,
            "plateau_bytes_per_s": float(v.mean()) if result.y_unit == "B/s" else None}


def curve_noise(result, p) -> dict:
    """The curve's own noise for a verdict: ``rel`` = the largest share by which one point's lowest run lies below its
    highest (1 − min ÷ max, over every point with ≥ 2 runs the table gives), and that largest fall between two
    successive points (``step_fall``: a step down with more load is noise or a fall; a rise no larger than it is not
    told from it), ``hi`` each point's highest run — never the fixed ±FLAT band alone (round 9 FA/FB/GA). A last
    point "still rises" only above every earlier point's highest run and by more than ``step_fall`` over the highest
    earlier mean. ``x``: where the runs spread most."""
    rel, at = 0.0, float("nan")
    sd, reps, ym = p["y_std"].to_numpy(float), p["n_runs"].to_numpy(float), p["y"].to_numpy(float)
    hi = ym.copy()  # each point's highest kept run (its level where it has one run)
    for i in range(len(p)):
        v = _kept(p, i)
        if v.size >= 2:
            r, hi[i] = float(1 - v.min() / v.max()), float(v.max())
        elif np.isfinite(sd[i]) and np.isfinite(reps[i]) and reps[i] >= 2 and ym[i] > 0:
            # runs not told apart in the table: their spread from the sd (two runs: exactly mean ± sd/√2)
            c = sd[i] / math.sqrt(2) if reps[i] == 2 else sd[i]
            r, hi[i] = float(1 - max(ym[i] - c, 0.0) / (ym[i] + c)), float(ym[i] + c)
        else:
            continue
        if r > rel:
            rel, at = r, float(p["x"].iloc[i])
    y = p["y"].to_numpy(float)
    drops = 1 - y[1:] / y[:-1] if y.size >= 2 else np.array([])
    step = float(drops.max()) if drops.size and drops.max() > 0 else 0.0
    return {"rel": rel, "x": at, "step_fall": step, "hi": hi.tolist()}
