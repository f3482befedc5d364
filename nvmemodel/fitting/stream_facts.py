"""Along block size with one I/O outstanding (a per-I/O time plus size over a byte rate), and what the block-size
facts share: whether fio paced the runs, a flat run of sizes, whether the ends are trimmed, the level a CPU held.
"""

from __future__ import annotations

import numpy as np

from .fact_base import CPU_BOUND, FLAT, LEVEL_STEP, NO_GAIN, Fact, pd_num
from .point_runs import point_levels


def _paced(result, p, key=None) -> bool:
    """Every run was paced by fio (a think time after each I/O, or a rate it kept to) — a rate only where it held a
    point (:func:`~nvmemodel.fitting.pacing.pace_binds`): a pace no run reached is no load axis change, and the
    series reads as unpaced (set after round 16 was read: r16_mickeydonkey optane sqpoll qd, rate_iops=700000 at
    83.6 % at most, its onset, rise and latency withheld, VF)."""
    from .claim import runs_rows
    from .pacing import pace_binds

    rows = runs_rows(result, p)
    if rows is None or not len(rows):
        return False
    for col in ("thinktime_s", "rate_iops", "rate_bytes_per_s"):
        if col in rows:
            v = pd_num(rows[col])
            if v.notna().all() and (v > 0).all():
                return col == "thinktime_s" or key is None or pace_binds(result, key) is not False
    return False


#: the widest run spread (largest ÷ smallest run of a size) :func:`_flat_run` takes as a level's band: runs further apart
#: scatter, and their means say no level (QA4's uringbs2, runs ×2.3 apart, read before round 9's rule was set)
NOISE_BAND = 1.5


def _flat_run(v: np.ndarray, from_start: bool, spread: np.ndarray | None = None,
              runs: tuple | None = None) -> int:
    """How many points from the start (or the end) of ``v`` lie within FLAT of one another (largest ÷ smallest) — or,
    where every point of the stretch has ≥ 3 runs (``spread``: each point's largest ÷ smallest run), within the
    median of their spreads: means that differ less than the points' own runs are one level (set after round 9 was
    read: r9 here-fio221 null engine, IOPS 1.37–1.72 M at 4 KiB–1 MiB with runs ×1.4 apart at every size, FC) — and,
    with ``runs`` (each point's lowest and highest kept run), only where every point's runs reach one common value:
    every run at one size above every run at another is no noise (round 15 UB, r15 fio336 pvsync2 randwrite bs)."""
    n = v.size
    best = 0
    for m in range(2, n + 1):
        idx = slice(0, m) if from_start else slice(n - m, n)
        seg = v[idx]
        if not np.isfinite(seg).all():
            break
        # flat: the stretch's largest value within FLAT of its smallest (a steady rise of 15 % is no cap)
        sp = spread[idx] if spread is not None else np.array([np.nan])
        noise = float(np.median(sp)) if np.isfinite(sp).all() else 0.0
        if runs is not None and runs[0][idx].max() > runs[1][idx].min():
            noise = 0.0
        band = max(1 + FLAT, noise if noise <= NOISE_BAND else 0.0)  # runs ×2 apart scatter: no level (qa4 uringbs2)
        if seg.min() > 0 and seg.max() / seg.min() <= band:
            best = m
    return best


#: a flat IOPS stretch whose latency stays the same over at least this many times the size is a per-I/O time the bytes
#: do not add to: a cap at that outstanding I/O (blind4: the cgroup's 2000 IOPS at QD1, 500 µs over ×64 the size,
#: against a QD1 drive's 89–95 µs over ×4 — both read before this was set)
WIDE_SPAN = 16.0


def trims(result, p) -> bool:
    """Every run of the curve is a trim (fio's direction "trim"): a trim frees a range and moves no data, so its
    bytes are no bandwidth — no byte level, cap or fall is read from them (set after round 11 was read:
    r11_here-trim_loop_psync_randtrim_bs_repeats, KE: 54.4 GB/s of "bandwidth" on a 2-core VM)."""
    from .claim import runs_rows

    rows = runs_rows(result, p) if "sources" in p else None
    return bool(rows is not None and len(rows) and "direction" in rows
                and (rows["direction"].astype(str) == "trim").all())


#: one I/O outstanding along block size (iodepth × jobs = 1, one per job for a synchronous engine): 1 ÷ IOPS is each
#: I/O's time, latency column or not; where a per-I/O time + size ÷ a byte rate gives it within this at every size,
#: one serial stream describes the series — no step, no byte limit (set after round 17 was read:
#: r17_openzfs7834_…_qd1-1job_sync_bs, YA, "jumps ×5.97 … two regimes?" beside its own R² 0.9993 fit; _nosync_bs, YB,
#: "approaches a byte limit" for one thread's 5 µs + size ÷ 0.925 GB/s)
ONE_STREAM_TOL = FLAT


def one_stream(result, key, p) -> Fact | None:
    """The one-serial-stream line t = a + size ÷ B of a block-size series with one I/O outstanding at every point,
    fitted to each size's time 1 ÷ IOPS (its kept runs' median) by least squares on the relative miss; a fact where it
    misses no size by more than :data:`ONE_STREAM_TOL` nor leaves a size's kept runs, and where both terms show
    inside the data (a ≥ the smallest size's bytes time, the largest size's bytes time ≥ a: the line bends within
    them). Not for a pace fio kept (the pace, not the stream, sets the rate) nor for trims (no bytes moved)."""
    if result.x != "block_size_bytes" or result.y_unit not in ("1/s", "B/s") or len(p) < 4 or "out" not in p:
        return None
    out = p["out"].to_numpy(float)
    if not (np.isfinite(out).all() and np.all(out == 1)) or trims(result, p) or _paced(result, p, key):
        return None
    from .pacing import _at_pace

    b = p["x"].to_numpy(float)
    if any(_at_pace(result, key, v) for v in b):
        return None
    lv = point_levels(result, p)
    if any(d["split"] for d in lv):
        return None
    with np.errstate(all="ignore"):
        to_i = p["iops"].to_numpy(float) / p["y"].to_numpy(float)
        iops = np.array([d["median"] for d in lv], float) * to_i
    if not (np.isfinite(iops).all() and (iops > 0).all()):
        return None
    t, w = 1 / iops, iops ** 2  # weights 1/t²: the relative miss is what is compared at every size
    A = np.array([[w.sum(), (w * b).sum()], [(w * b).sum(), (w * b * b).sum()]])
    try:
        a, c = np.linalg.solve(A, np.array([(w * t).sum(), (w * b * t).sum()]))
    except np.linalg.LinAlgError:
        return None
    from .steps import term_shown, top_band

    # both terms inside the data: the line bends within the sizes, or its per-I/O term is shown beyond its own misses
    # (round 20 SG: a per-command time 13.5 % of the smallest size's time, the line within 0.35 %)
    if not (a > 0 and c > 0 and c * b.max() >= a and (a >= c * b.min() or term_shown(b, t, w, a))):
        return None
    fitted = a + c * b
    miss = fitted / t - 1
    lo, hi = (np.array([d[k] for d in lv], float) * to_i for k in ("lo", "hi"))
    # where a size was repeated, the line's rate must lie within its kept runs (a miss its runs rule out is a change)
    outside = np.array([d["runs"] >= 2 and not lo[i] / (1 + NO_GAIN) <= 1 / fitted[i] <= hi[i] * (1 + NO_GAIN)
                        for i, d in enumerate(lv)])
    if np.abs(miss).max() > ONE_STREAM_TOL or outside.any():
        return None
    k = int(np.argmax(np.abs(miss)))
    bw = iops * b
    # the largest sizes' bytes/s level (adjacent steps and each within LEVEL_STEP of the last) while the line's B
    # lies above them by more than that: the line keeps rising where the data stopped, so the measured level is the
    # description, not B (set after round 19 was read: r19_lkml-yukuai_hdd_randwrite-qd1_bs, TA, 86.9 MB/s at 2 and
    # 4 MiB said as "0.105 GB/s is one stream's byte rate")
    j = b.size - 1
    while j > 0 and abs(bw[j - 1] / bw[j] - 1) <= LEVEL_STEP and abs(bw[j - 1] / bw[-1] - 1) <= LEVEL_STEP:
        j -= 1
    top = None
    if j < b.size - 1 and 1 / c > bw[j:].max() * (1 + LEVEL_STEP):
        top = {"bytes": (float(bw[j:].min()), float(bw[j:].max())), "x": (float(b[j]), float(b[-1])),
               "n": int(b.size - j), "step": float(bw[-1] / bw[j] - 1)}
    # the measured bytes/s at the largest sizes (within FLAT of one another) and the size below them, with the
    # per-I/O term's share of each I/O's time at both ends: what the line says in the data's own numbers (set after
    # round 20 was read: SG, r20_here-verify … qd1_bs, 0.443 / 0.425 GB/s at 256 KiB / 1 MiB never stated; r20_jherskovic
    # … lan bs, 85.3 MB/s at 256 KiB left out of "flat at 94.5–98.1 MB/s from 1 MiB")
    band = top_band(b, bw)
    if band is not None and a / fitted[band["i"]] > FLAT:
        band = None  # the line itself still rises over the band by more than FLAT: no level of the line (hothanh7)
    if band is not None:
        band["share"] = (float(a / fitted[band["i"]]), float(a / fitted[-1]))
        to_b = p["bytes_per_s"].to_numpy(float) / p["y"].to_numpy(float)
        idx = [i for i in range(band["i"], b.size) if lv[i]["runs"] >= 2]
        band["runs"] = ((float(min(lv[i]["lo"] * to_b[i] for i in idx)), float(max(lv[i]["hi"] * to_b[i] for i in idx)))
                        if idx else None)
        if band["below"] is not None:
            i = band["below"]
            band.update(below_x=float(b[i]), below_bytes=float(bw[i]), below_share=float(a / fitted[i]),
                        first_x=float(b[0]), first_bytes=float(bw[0]))
    return Fact("one_stream", {"per_io_s": float(a), "bytes_per_s": float(1 / c), "worst_miss": float(miss[k]),
                               "band": band,
                               "worst_x": float(b[k]), "sizes": (float(b[0]), float(b[-1])), "n": int(b.size),
                               "by_runs": any(d["runs"] >= 2 for d in lv), "most_bytes": float(bw.max()),
                               "most_x": float(b[int(np.argmax(bw))]), "top_level": top},
                "one I/O outstanding: 1 ÷ IOPS = a + size ÷ B within ONE_STREAM_TOL at every size")


def _held(p, iops_to: float | None) -> np.ndarray:
    """The points that cannot show a byte roof: the job ≥ :data:`CPU_BOUND` busy on its CPU (usr+sys ÷ jobs), or
    the block size within the IOPS cap's flat stretch (up to ``iops_to``), where the IOPS roof holds the rate."""
    with np.errstate(all="ignore"):
        share = p["cpus"].to_numpy(float) / p["jobs"].to_numpy(float) if "cpus" in p and "jobs" in p \
            else np.full(len(p), np.nan)
    busy = np.isfinite(share) & (share >= CPU_BOUND) & (share <= 1.05)  # (> 1.05: an accounting mismatch)
    roof = p["x"].to_numpy(float) <= iops_to if iops_to is not None else np.zeros(len(p), bool)
    return busy | roof


def _held_why(p, k: int) -> float | None:
    """The busy share of a CPU of point ``k``'s job (None: held on the IOPS roof instead)."""
    if "cpus" not in p or "jobs" not in p:
        return None
    c, j = float(p["cpus"].iloc[k]), float(p["jobs"].iloc[k])
    return c / j if j > 0 and np.isfinite(c) and CPU_BOUND <= c / j <= 1.05 else None
