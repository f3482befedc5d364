"""Block-size facts beside the cap: the IOPS levels and request-time steps of the small sizes, and a fall of the rate
at large sizes.
"""

from __future__ import annotations

import math

import numpy as np

from .fact_base import FLAT, LEVEL_STEP, Fact
from .point_runs import point_levels
from .size_level import cpu_held_level
from .stream_facts import NOISE_BAND, _flat_run, _held, _held_why, _paced, one_stream, trims


def small_sizes(result, key, p, cap: Fact | None = None) -> Fact | None:
    """Along block size, the IOPS side of the curve that a byte cap or fall does not say (set after round 18 was read:
    ZE, r18_stackhpcio_k8s-ceph-volume_randread_qd8_bs, 6.93–7.32 K IOPS at 1–4 KiB and the per-request time ×2 at
    8 KiB, and r18_stackhpcio_k8s-beegfs_seqwrite_qd8_bs, IOPS ×2.15 and ×2.08 for twice the size at 1 and 4 KiB,
    both said only as their byte cap):

    ``levels``: stretches of ≥ 3 adjacent sizes whose IOPS (each size's kept-run median) lie within ±FLAT of one
    another or their runs' own band (:func:`_flat_run`), other than an IOPS cap from the first size the cap fact says;
    ``steps``: adjacent sizes at one outstanding I/O between which the time of a request (outstanding ÷ IOPS) moves as
    no per-I/O + per-byte time can — the IOPS rise by ≥ :data:`NOISE_BAND` as the size grows, or fall by ≥ it while
    the bandwidth gains less than FLAT and the next size gains ≥ NOISE_BAND over it again (so no byte level: a
    per-I/O + per-byte time whose bytes dominate at one size does at the next);
    where the sizes were repeated, every kept run of the one beyond every kept run of the other. None where neither
    shows, for trims, a pace fio kept or one serial stream (its line describes the sizes)."""
    if result.x != "block_size_bytes" or result.y_unit not in ("1/s", "B/s") or len(p) < 4 or trims(result, p) \
            or _paced(result, p, key) or one_stream(result, key, p) is not None:
        return None
    b, n = p["x"].to_numpy(float), len(p)
    lv = point_levels(result, p)
    with np.errstate(all="ignore"):
        to_i, to_b = (p[c].to_numpy(float) / p["y"].to_numpy(float) for c in ("iops", "bytes_per_s"))
    med = np.array([np.nan if d["split"] else d["median"] for d in lv], float)
    iops, bw = med * to_i, med * to_b
    if not (np.isfinite(iops).all() and (iops > 0).all()):
        return None
    runs = np.array([d["runs"] >= 2 for d in lv])
    lo, hi = (np.array([d[k] for d in lv], float) * to_i for k in ("lo", "hi"))
    spread = np.where(runs, hi / lo, np.nan)
    start = 0
    if cap is not None and cap.facts.get("iops_cap"):  # (said by the cap sentence)
        start = int(np.sum(b <= cap.facts["iops_flat"][1]))
    levels, k = [], start
    while k <= n - 3:
        m = _flat_run(iops[k:], True, spread[k:] if runs[k:].all() else None,
                      (lo[k:], hi[k:]) if runs[k:].all() else None)
        if m >= 3:
            o, la = p["out"].to_numpy(float)[k:k + m], p["lat"].to_numpy(float)[k:k + m]
            little = np.isfinite(la).all() and np.all(np.abs(o / la / iops[k:k + m] - 1) <= FLAT)
            levels.append({"x_from": float(b[k]), "x_to": float(b[k + m - 1]), "lo": float(iops[k:k + m].min()),
                           "hi": float(iops[k:k + m].max()), "points": int(m),
                           "out": float(o[0]) if np.all(o == o[0]) else None,
                           "lat": (float(la.min()), float(la.max())) if little else None})
            k += m
        else:
            k += 1
    out = p["out"].to_numpy(float) if "out" in p else np.full(n, np.nan)
    lat = p["lat"].to_numpy(float) if "lat" in p else np.full(n, np.nan)
    steps = []
    for k in range(n - 1):
        same = out[k] == out[k + 1] or not (np.isfinite(out[k]) or np.isfinite(out[k + 1]))
        apart = not (runs[k] and runs[k + 1]) or lo[k + 1] > hi[k] or lo[k] > hi[k + 1]
        r = iops[k + 1] / iops[k]
        up = r >= NOISE_BAND
        down = 1 / r >= NOISE_BAND and bw[k + 1] < (1 + FLAT) * bw[k] and k + 2 < n \
            and bw[k + 2] >= NOISE_BAND * bw[k + 1]
        if same and apart and (up or down):
            steps.append({"x_from": float(b[k]), "x_to": float(b[k + 1]), "iops": (float(iops[k]), float(iops[k + 1])),
                          "bytes": (float(bw[k]), float(bw[k + 1])), "lat": (float(lat[k]), float(lat[k + 1])),
                          "faster": bool(up), "out": float(out[k]),
                          "next": (float(b[k + 2]), float(bw[k + 2])) if k + 2 < n else None})
    if not levels and not steps:
        return None
    return Fact("small_sizes", {"levels": levels, "steps": steps, "by_runs": bool(runs.all())},
                "IOPS level over ≥ 3 sizes; a request's time that steps between adjacent sizes")


def _size_fall(result, p, cap: Fact | None = None) -> Fact | None:
    """Along block size: bandwidth that peaks before the largest block and is lower at it by more than the ±FLAT
    band a level is read within (one run a point) or than twice the standard error of the difference (repeats) —
    larger blocks were slower, and the peak is the most bandwidth measured (a byte limit at most that, measured).
    The rise to the peak is the block size's doing, not noise, so only the band or the repeats decide. Where the
    runs are told apart the point table decides instead: each point's kept-run median, a split point no level, and a
    fall only where every kept run at the largest block lies below every kept run at the peak (set after round 15
    was read, UB: r15_here-ext4_ext4-on-loop_libaio_seqwrite_qd4_bs, "falls 65 %" resting on a 46-IOPS stalled run
    at 1 MiB while another 1 MiB run lay above a 256 KiB one)."""
    if result.x not in ("block_size_bytes",) or result.y_unit not in ("1/s", "B/s"):
        return None
    b, bw = p["x"].to_numpy(float), p["bytes_per_s"].to_numpy(float)
    if b.size < 3 or not np.isfinite(bw).all() or trims(result, p):
        return None
    scale = bw / p["y"].to_numpy(float)  # y in its own unit → bytes/s
    lv = point_levels(result, p)
    runs = None
    if all(d["runs"] for d in lv):
        from .claim import _xv

        bw = np.array([np.nan if d["split"] else d["median"] for d in lv], float) * scale
        if not np.isfinite(bw).any():
            return None
        i = int(np.nanargmax(bw))
        if i == b.size - 1 or not lv[-1]["hi"] * scale[-1] < lv[i]["lo"] * scale[i] or not np.isfinite(bw[-1]):
            return None
        runs = (lv[i]["lo"] * scale[i], lv[i]["hi"] * scale[i])
        basis = f"the runs' own spread (every kept run at {_xv(result, b[-1])} below every one at {_xv(result, b[i])})"
    else:
        i = int(np.argmax(bw))
        if i == b.size - 1:
            return None
        sd, reps = p["y_std"].to_numpy(float), p["n_runs"].to_numpy(float)
        if lv[i]["runs"] >= 2:  # the peak's own runs, whatever other points have (round 20 RB: its scatter decides)
            runs = (lv[i]["lo"] * scale[i], lv[i]["hi"] * scale[i])
        if np.isfinite(sd[[i, -1]]).all() and (reps[[i, -1]] >= 2).all():
            noise = 2.0 * math.hypot(sd[i] * scale[i] / math.sqrt(reps[i]), sd[-1] * scale[-1] / math.sqrt(reps[-1]))
            basis = "twice the repeats' standard error"
        else:  # one run a point: the ±FLAT band, or the largest step on the level just before the peak (points
            # within FLAT of it: the rise to it is the block size's doing, not noise), whichever is larger
            k = i
            while k > 0 and bw[k - 1] >= (1 - FLAT) * bw[i]:
                k -= 1
            steps = np.abs(np.diff(bw[k:i + 1]))
            noise = max(FLAT * bw[i], float(steps.max()) if steps.size else 0.0)
            basis = (f"the ±{FLAT:.0%} a level is read within" if noise == FLAT * bw[i] else
                     "every step on the level before the peak")
            # repeats at some points: a one-run point may stray as far as the widest runs measured anywhere, so
            # the fall must exceed twice the standard error that gives (run_noise; round 20 RB: "falls 45 %, more
            # than the ±10 %" to one 256 KiB run where the 128 KiB peak's two runs differ ×1.46)
            from .run_noise import noise_floor

            floor = noise_floor(bw, sd * scale, reps)
            if floor is not None and 2.0 * math.hypot(floor[i], floor[-1]) > noise:
                noise = 2.0 * math.hypot(floor[i], floor[-1])
                basis = "twice the runs' standard error (a one-run point given the widest spread the repeats show)"
        if not bw[i] - bw[-1] > noise:
            return None
    drop = bw[i] - bw[-1]
    # a peak its job's CPU or the IOPS roof held shows no byte limit (round 10, JD): the fall is said, no cap
    to = cap.facts["iops_flat"][1] if cap is not None and cap.facts.get("iops_flat") else None
    held_at = _held(p, to)
    held = bool(held_at[i])
    # the level after the peak is read where the peak itself shows no byte limit: its job held it, or its kept runs
    # scatter past the ±FLAT band (a tight peak stays the most bandwidth measured, the byte cap: round 10 JD's counter)
    scattered = runs is not None and runs[1] > (1 + FLAT) * bw[i]
    after = _level_after_peak(p, lv, scale, bw, i, held_at) if held or scattered else None
    # a peak its job's CPU held, inside a stretch of sizes its CPU held at a byte level: that level, and the rise into
    # it, said as such (round 19 UF, size_level.py)
    cpu_level = cpu_held_level(b, bw, bw / b, [_held_why(p, k) for k in range(b.size)], FLAT, NOISE_BAND, LEVEL_STEP) \
        if held and after is None and _held_why(p, i) is not None else None
    # the maximum inside a flat top band, then one step down to a lower level: the band and the step, no peak (set
    # after round 21 was read: WB, fall_shape.py)
    from .fall_shape import band_step

    band = band_step(b, bw, i) if not held and after is None and cpu_level is None and not scattered else None
    return Fact("size_fall", {"band": band, "x_max": float(b[i]), "bytes_max": float(bw[i]), "x_last": float(b[-1]),
                              "bytes_last": float(bw[-1]), "drop": float(drop / bw[i]), "basis": basis,
                              # (a level the peak lies above beyond its noise is no cap: the words say its level)
                              "bytes_cap": None if held or (after and after["beyond"]) else float(bw[i]),
                              "measured": True,
                              "bytes_runs": runs, "held": (_held_why(p, i),) if held else None, "level_after": after,
                              "cpu_level": cpu_level},
                "bandwidth lower at the largest block than at an earlier one beyond the noise")


def _level_after_peak(p, lv, scale, bw, i: int, held_at) -> dict | None:
    """The level of the sizes after a bandwidth peak along block size: ≥ 2 sizes, all after the peak, one level by
    :func:`_flat_run` (within ±FLAT, or their runs' own band), none of them held by its job's CPU or the IOPS roof.
    Bytes/s level while the size grows: IOPS fall in proportion to the size — the byte limit of those sizes, read from
    their kept runs whatever the peak's own runs do (set after round 18 was read: ZB, r18_here-stack2 … libaio qd8 bs,
    256 KiB–1 MiB runs 2.71–2.93 GB/s told "no byte limit is read" because the 64 KiB peak's runs spread 3.07–3.72).
    With it: the rise to it (the first size to the peak) and its onset (the first size whose level reaches the level's
    lowest run), and ``beyond``: whether the peak lies above the level beyond the level's own noise (every kept run of
    the peak above every kept run of the level; one run a point: above its highest point by more than ±FLAT)."""
    b, n = p["x"].to_numpy(float), len(p)
    idx = np.arange(i + 1, n)
    if idx.size < 2 or held_at[idx].any() or not np.isfinite(bw[idx]).all():
        return None
    runs = all(lv[k]["runs"] >= 2 for k in idx) and lv[i]["runs"] >= 2
    lo = np.array([lv[k]["lo"] for k in idx]) * scale[idx]
    hi = np.array([lv[k]["hi"] for k in idx]) * scale[idx]
    if _flat_run(bw[idx], False, hi / lo if runs else None, (lo, hi) if runs else None) < idx.size:
        return None
    low, top = (float(lo.min()), float(hi.max())) if runs else (float(bw[idx].min()), float(bw[idx].max()))
    peak_lo = lv[i]["lo"] * scale[i] if runs else bw[i]
    beyond = bool(peak_lo > top) if runs else bool(bw[i] > (1 + FLAT) * top)
    onset = int(np.flatnonzero(bw[: i + 1] >= low)[0])
    iops = bw / b
    return {"x_from": float(b[idx[0]]), "x_to": float(b[-1]), "value": float(np.median(bw[idx])), "lo": low,
            "hi": top, "by_runs": runs, "iops": (float(iops[idx[0]]), float(iops[-1])), "beyond": beyond,
            "peak_runs": (float(lv[i]["lo"] * scale[i]), float(lv[i]["hi"] * scale[i])) if runs else None,
            "onset_x": float(b[onset]), "rise_from": (float(b[0]), float(bw[0]))}
