"""How fio's mean latency grew with the load: queueing by Little's law, a tail grown, a submission cost grown,
the last point queued, a latency step. Read by the saturation and cap facts and by the words that explain them.
"""

from __future__ import annotations

import numpy as np

from ..ingest.percentiles import PERCENTILE_SLACK_S
from .fact_base import FLAT


#: how far fio's latency growth over a plateau may sit from Little's law's (and its per-run check from 1) for the
#: growth to be said "as Little's law gives" (blind4: ×44 for ×64 the load, check 0.2–0.5, was said so)
LITTLE_TOL = 0.2


def little_runs(p, idx) -> tuple[float, float]:
    """The lowest and highest run's Little check (IOPS × mean latency ÷ outstanding I/O) over the points ``idx`` —
    what a sentence prints, never the points' means (set after round 18 was read: ZF a, r18 stack2 psync numjobs
    "0.98–0.99" where a run gave 0.972); the means where the table has no per-run ends."""
    lo = p["little_lo"] if "little_lo" in p and p["little_lo"].notna().any() else p["little"]
    hi = p["little_hi"] if "little_hi" in p and p["little_hi"].notna().any() else p["little"]
    return float(np.nanmin(lo.to_numpy(float)[idx])), float(np.nanmax(hi.to_numpy(float)[idx]))


def _little_growth(p, k: int) -> dict:
    """Little's law's latency growth from point ``k`` to the last, R = N ÷ X: the load's ratio over the rate's, and
    whether fio's latency grew so (within :data:`LITTLE_TOL`) with the I/O asked for in flight at both ends (the
    per-run check N_eff ÷ N in [0.8, 1.1], where fio's numbers give it)."""
    out, x, y, lat = (p[c].to_numpy(float) for c in ("out", "x", "y", "lat"))
    load = out[-1] / out[k] if np.isfinite(out[[k, -1]]).all() and out[k] > 0 else x[-1] / x[k]
    expected = float(load / (y[-1] / y[k]))
    check = p["little"].to_numpy(float)[[k, -1]]
    in_flight = not np.isfinite(check).any() or bool(np.all((check[np.isfinite(check)] >= 0.8)
                                                          & (check[np.isfinite(check)] <= 1.1)))
    holds = abs(float(lat[-1] / lat[k]) / expected - 1) <= LITTLE_TOL and in_flight
    return {"lat_load_growth": float(load), "lat_little_growth": expected, "lat_little_holds": bool(holds),
            **_tail_growth(p, k)}


#: fio's mean latency over a plateau grown at least this many times, its median within :data:`LITTLE_TOL` of flat:
#: the growth is in the tail, not a queue every I/O waits in
TAIL_GROWTH = 2.0


def _tail_growth(p, k: int) -> dict:
    """Where fio's mean latency grew ×:data:`TAIL_GROWTH` or more from point ``k`` to the last while its median stayed
    within :data:`LITTLE_TOL` of its value at ``k`` at every point: ``tail`` — the median's range, the 99.9th
    percentile and maximum at both ends (NaN where not given), the outstanding I/O at the last point and the I/Os
    served at a time there (rate × median latency, Little's law on the median). The added depth was held back, a few
    I/Os for long, not queued in order (set after round 14 was read: r14_dpfs_dpu-virtiofs-nfs_4k-randread_p2_qd, RA:
    mean ×16.4 "as Little's law gives" beside a median of 265–269 µs at QD 8–128 and a p99.9 of 0.775 ms → 1.84 s)."""
    lat, med = p["lat"].to_numpy(float), p["p50"].to_numpy(float)[k:]
    # like with like (set after round 19 was read: r19_here-batch_loop_libaio_batchfull_randread_iodepth_repeats, UA:
    # a total mean 27 → 474 µs set against completion percentiles, the growth all submission, slat 9 → 444 µs, in
    # lock-step batches): where the median is fio's completion one, the mean it is read against is the completion
    # mean, and a growth mostly in submission is said so, never a tail
    sub = _submission_growth(p, k)
    if sub:
        return sub
    if "clat_mean" in p and "p50_kind" in p and (p["p50_kind"] == "clat").all() \
            and np.isfinite(p["clat_mean"].to_numpy(float)[[k, -1]]).all():
        lat = p["clat_mean"].to_numpy(float)
    if not (np.isfinite(med).all() and np.all(med > 0)) or lat[-1] < TAIL_GROWTH * lat[k] \
            or np.any(np.abs(med / med[0] - 1) > LITTLE_TOL):
        return {}
    # a tail must be possible: 99.9 % of the I/Os lie at or below the 99.9th percentile and none above the slowest,
    # so the mean is at most 0.999 × p99.9 + 0.001 × max (means over runs keep the bound); a mean above it was not
    # measured on the I/Os the percentiles were (round 19 UA: 474 µs beside p99.9 81 µs and a max of 4.6 ms)
    p9, mx = float(p["p99_9"].iloc[-1]), float(p["max"].iloc[-1])
    if np.isfinite(p9) and np.isfinite(mx) and lat[-1] > (1 - 1e-3) * p9 + 1e-3 * mx + PERCENTILE_SLACK_S:
        return {}
    iops = p["iops"].to_numpy(float)[-1]
    upper = _upper_class(p, k, med, float(lat[k]))
    if upper is not None:
        return {"upper": {**upper, "p50_lo": float(med.min()), "p50_hi": float(med.max()),
                          "out": float(p["out"].iloc[-1]), "rate": float(iops), "in_flight": _in_flight(p)}}
    return {"tail": {"p50_lo": float(med.min()), "p50_hi": float(med.max()),
                     "p99_9": (float(p["p99_9"].iloc[k]), float(p["p99_9"].iloc[-1])),
                     "max": float(p["max"].iloc[-1]), "max_runs": float(p["n_runs"].iloc[-1]),
                     "out": float(p["out"].iloc[-1]), "served": float(iops * med[-1]),
                     # the share of the outstanding I/O in flight by Little's law (round 28 MC: 4 psync jobs in their
                     # writes 12–27 % of their time are not "4 outstanding")
                     "in_flight": _in_flight(p)}}


#: "a few I/Os held for long" only where fio's 90th percentile stays within this factor of its value at the onset
#: and below :data:`TWO_CLASSES` × the median: else the growth is in the upper tenth or more, not a few (set after
#: round 30 was read: RA, r30_croit_ceph-rbd-rep3-6x-toshiba-mg06-hdd_4k-randread-librbd_iodepth, "a few I/Os held for
#: long … about 1.3 I/Os in service" where p90 went 29.5 → 83.4 ms, 100× the median, Little 1.00 with 256 in flight)
TAIL_P90_FLAT = 2.0
#: fio's 90th percentile at least this many times the median: two classes of I/O (a fast one under the median, a
#: slow one of at least a tenth of the I/Os), not one distribution with a tail
TWO_CLASSES = 10.0


def _upper_class(p, k: int, med, lat_k: float) -> dict | None:
    """Where the median stayed flat but fio's 90th percentile grew beyond :data:`TAIL_P90_FLAT` from point ``k`` to at
    least the mean latency at ``k`` (a growth of the upper tenth on the scale of the mean, not of microseconds beside
    it: r3_here_blkio_wiops numjobs, p90 13.5 → 66 µs beside a mean of 400 µs → 3.2 ms), or reached
    :data:`TWO_CLASSES` × the median at the last point: the p90 at both ends and ``two`` (the latter); None where the
    rows give no p90 (the tail words stand) or it stayed flat and near the median."""
    if "p90" not in p:
        return None
    q = p["p90"].to_numpy(float)[k:]
    if not (np.isfinite(q).all() and np.all(q > 0)):
        return None
    grew = bool(q.max() > TAIL_P90_FLAT * q[0] and np.isfinite(lat_k) and q[-1] >= lat_k)
    two = bool(q[-1] >= TWO_CLASSES * med[-1])
    if not (grew or two):
        return None
    return {"p90": (float(q[0]), float(q[-1])), "two": two, "grew": grew,
            "p99_9": (float(p["p99_9"].iloc[k]), float(p["p99_9"].iloc[-1]))}


def _in_flight(p) -> float:
    """IOPS × mean latency ÷ outstanding I/O at the last point (fio's Little check, from the point's means where the
    check's own column is blank)."""
    v = float(p["little"].iloc[-1]) if "little" in p else float("nan")
    if not np.isfinite(v) and {"iops", "lat", "out"} <= set(p.columns) and float(p["out"].iloc[-1]) > 0:
        v = float(p["iops"].iloc[-1] * p["lat"].iloc[-1] / p["out"].iloc[-1])
    return v


#: the share of the total mean's growth over a plateau that, carried by fio's submission latency (slat), puts the
#: growth in submission rather than completion
SUBMISSION_SHARE = 0.5


def _submission_growth(p, k: int) -> dict:
    """Where fio's percentiles are completion ones (clat), the total mean grew ×:data:`TAIL_GROWTH` or more from
    point ``k`` to the last and the submission mean (slat) carried at least :data:`SUBMISSION_SHARE` of that growth:
    ``submission`` — slat and the completion mean at both ends (NaN where not given); else empty."""
    if not {"slat_mean", "p50_kind"} <= set(p.columns) or not (p["p50_kind"] == "clat").all():
        return {}
    lat, sl = p["lat"].to_numpy(float), p["slat_mean"].to_numpy(float)
    cl = p["clat_mean"].to_numpy(float) if "clat_mean" in p else np.full(len(p), np.nan)
    if not (np.isfinite(lat[[k, -1]]).all() and np.isfinite(sl[[k, -1]]).all()) or lat[-1] < TAIL_GROWTH * lat[k] \
            or sl[-1] - sl[k] < SUBMISSION_SHARE * (lat[-1] - lat[k]):
        return {}
    return {"submission": {"slat": (float(sl[k]), float(sl[-1])), "clat": (float(cl[k]), float(cl[-1])),
                           "lat": float(lat[-1])}}


#: latency growth per doubling of the load, at a last gain the runs do not resolve, read as "the added load
#: queued" where Little's law holds at both points (set after round 12 was read: r12_here-loopdio_loop-dio-on_libaio_
#: randread_iodepth_repeats, MA: +10 % for ×1.80 per doubling, Little 0.98–1.01 in every run)
QUEUED_LAT = 1.6


def queued_last(p, j: int) -> dict | None:
    """The last step from point ``j``: latency grew ≥ :data:`QUEUED_LAT` per doubling of the load while the I/O
    asked for was in flight at both ends (fio's per-point Little check within 1 ± 0.2) — or None."""
    out, x, lat, little = (p[c].to_numpy(float) for c in ("out", "x", "lat", "little"))
    load = out[-1] / out[j] if np.isfinite(out[[j, -1]]).all() and out[j] > 0 else x[-1] / x[j]
    check = little[[j, -1]]
    if not (load > 1 and np.isfinite(lat[[j, -1]]).all() and lat[j] > 0 and np.isfinite(check).all()
            and np.all(np.abs(check - 1) <= LITTLE_TOL)):
        return None
    growth = float(lat[-1] / lat[j])
    if growth ** (1 / np.log2(load)) < QUEUED_LAT:
        return None
    return {"lat_growth": growth, **dict(zip(("little_lo", "little_hi"), little_runs(p, [j, -1])))}


#: a last step whose fio mean latency grew at least this many times, after a latency flat (within ×(1 + FLAT)) at
#: every point before it: the rise bends there (set after round 18 was read: r18_irisaws_ebs-gp3-6000iops_8k-seqread-
#: windowsaio_qd1_numjobs, ZD: 0.808–0.822 ms at 1–4 jobs, 1.29 ms at 8, said only "still rises … +27 %")
LAT_STEP = 1.4


def latency_step(p, j: int) -> dict | None:
    """The last step from point ``j`` where fio's mean latency, flat (its largest within ×(1 + :data:`FLAT`) of its
    smallest) at every point up to ``j`` (≥ 2 points), grew ≥ :data:`LAT_STEP` in it while the I/O asked for was in
    flight at both ends (the per-point Little check within 1 ± :data:`LITTLE_TOL`): by Little's law X = N ÷ R the
    added load bought the rate's growth (``step_gain``) of the load's (``step_load``), the rest spent waiting. The
    means, as the rising words read them; None otherwise (a latency already growing, no latency or no Little check)."""
    out, x, y, lat, little = (p[c].to_numpy(float) for c in ("out", "x", "y", "lat", "little"))
    before = lat[:j + 1]
    if j < 1 or not (np.isfinite(before).all() and np.all(before > 0) and np.isfinite(lat[-1])) \
            or before.max() > (1 + FLAT) * before.min() or lat[-1] < LAT_STEP * lat[j] \
            or not (np.isfinite(little[[j, -1]]).all() and np.all(np.abs(little[[j, -1]] - 1) <= LITTLE_TOL)):
        return None
    load = out[-1] / out[j] if np.isfinite(out[[j, -1]]).all() and out[j] > 0 else x[-1] / x[j]
    return {"lat_lo": float(before.min()), "lat_hi": float(before.max()), "lat_step": float(lat[-1] / lat[j]),
            "step_load": float(load), "step_gain": float(y[-1] / y[j] - 1),
            **dict(zip(("little_lo", "little_hi"), little_runs(p, [j, -1])))}
