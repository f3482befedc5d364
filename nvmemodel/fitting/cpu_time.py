"""CPU charged per unit of a job's time, not per I/O: where a job with one I/O outstanding waited on it for its whole
cycle (so its time per I/O is its I/O's own latency) and its CPU share stayed level while that time changed, fio's
CPU per I/O (usr+sys ÷ I/Os) is that share of each I/O's time — the wait's own work (interrupts, wake-ups, whatever
runs on the job's thread per unit of time) — and moves with the time per I/O, not with the I/O's size or count.

The identity behind it: a job's CPU share s = CPU per I/O c × its I/Os per second r, so c = s × (1 ÷ r). A level s
makes c follow 1 ÷ r, the time per I/O, whatever made that time (a slower device, a larger read, a run that ran
slower than its twin). Per-I/O or per-byte work would keep c with the I/O — equal at equal sizes, growing with the
bytes — and let s move with the rate instead. So along block size a cost ×4.9 at a share ×1.3 is no per-byte work,
and its "one CPU sustains" rate (1 ÷ c) is no bound: a busy CPU does not spend the wait (set after round 20 was read:
r20_nerdst_nvme-p7 randread and seqread QD1 along block size, "×4.92 … per-byte work on top of the per-I/O cost … one
CPU sustains 13.36 K IOPS, 3.5 GB/s", part 2 RC; the same job spent 14.3 µs per I/O at QD1 and 6.9–7.4 µs at
QD16–128, where it was busy).
"""

from __future__ import annotations

import numpy as np

from .claim import _pcts, _xv
from .facts import CPU_BOUND
from .wording import fmt_y

__all__ = ["follows_time", "follows_time_words"]

#: CPU per I/O within this of a + b·(bytes per I/O) at every point: one constant cost (round 5, AA)
COST_TOL = 0.15
#: CPU per I/O whose highest is at least this × its lowest along the series: a change to explain
COST_SPREAD = 2.0
#: the job's CPU share whose highest is at most this × its lowest: level
SHARE_LEVEL = 1.5
#: and the share's spread, as a log ratio, at most this part of the cost's: it is the cost that moves with the time
SHARE_OF_SPREAD = 0.5
#: fio's latency covering at least this share of each job's I/O cycle (IOPS × mean latency ÷ outstanding I/O) at
#: every point: the job waited on its I/O (a job doing its own work between I/Os — verify=, hashing — is below it:
#: r20_here-verify psync 0.13–0.67, r5 verify=sha256 0.04–0.08)
WAITED = 0.75
#: one I/O per job in flight for more than this share of its cycle is no single stream's figure (means over runs
#: that differ: r3_here_loop_sync's 3.6 from a stalled run): no reading
OVERLAP = 1.1
#: a job below this share of one CPU: its cost is fio's per-second floor, not read (as cpu_claims.IDLE_SHARE)
IDLE = 0.05
#: ×2 the bytes per I/O at no more than this × the CPU per I/O: the bytes did not set the cost (r20 nerdst randread:
#: 64 → 256 KiB, CPU ×1.08)
BYTES_FREE = 1.25
#: two runs of one point whose costs differ by at least this × in the direction of their latencies are named
RUN_SPREAD = 1.2


def _cost_line(per_io: np.ndarray, size: np.ndarray) -> tuple[float, float] | None:
    """(a, b) where CPU per I/O is a + b·size within :data:`COST_TOL` at every point (≥ 3 points; one size: a
    constant), else None — one cost per I/O (and per byte) behind every point."""
    ok = np.isfinite(per_io) & (per_io > 0) & np.isfinite(size)
    if ok.sum() < 3:
        return None
    c, z = per_io[ok], size[ok]
    if np.ptp(z) <= 0.01 * np.max(z):
        a, b = float(np.median(c)), 0.0
    else:  # least squares relative to each point's cost: a small size's cost counts as much as a large one's
        a, b = np.linalg.lstsq(np.c_[1 / c, z / c], np.ones(c.size), rcond=None)[0]
    pred = a + b * z
    if b < 0 or np.any(pred <= 0) or np.max(np.abs(pred / c - 1)) > COST_TOL:
        return None
    return float(a), float(b)


def _sizes(p) -> np.ndarray:
    """Bytes per I/O at each point; ones where the table does not give every size (one cost per I/O then)."""
    size = p["bytes_per_io"].to_numpy(float) if "bytes_per_io" in p else np.ones(len(p))
    return size if np.isfinite(size).all() and (size > 0).all() else np.ones(len(p))


def follows_time(result, cf) -> dict | None:
    """The fact: ``{"cost": (lo, hi, i_lo, i_hi), "share": (lo, hi), "time": (lo, hi), "cover": (lo, hi), "twin":
    None | (x, c1, c2, l1, l2)}`` where the job's CPU per I/O changed at least :data:`COST_SPREAD` × along the series
    while its CPU share stayed within :data:`SHARE_LEVEL` (and moved at most :data:`SHARE_OF_SPREAD` of the cost's log
    spread), no job ≥ :data:`CPU_BOUND` busy, one I/O outstanding per job, fio's latency covered ≥ :data:`WAITED`
    (and at most :data:`OVERLAP`) of every job's cycle, no per-I/O + per-byte cost (a + b·size within
    :data:`COST_TOL` at every point) describes the costs — a level share beside a cost linear in size is
    per-byte work done inside the I/O's time, which stays that — and the data deny a cost of the I/O: one size at two
    costs ≥ :data:`RUN_SPREAD` × apart (points, or runs in step with their latency), or ×2 the bytes at ≤
    :data:`BYTES_FREE` × the cost; else None. ``time`` is each job's time per I/O (jobs ÷ IOPS); ``twin`` the point
    whose runs' costs differ most, in step with their mean latencies."""
    f = cf.cpu
    p = cf.points
    if f is None or not len(p) or not {"iops", "lat", "out", "jobs"} <= set(p.columns):
        return None
    share, cost = np.asarray(f.facts["share"], float), np.asarray(f.facts["cpu_s_per_io"], float)
    iops, lat, out, jobs = (p[c].to_numpy(float) for c in ("iops", "lat", "out", "jobs"))
    vals = np.c_[share, cost, iops, lat, out, jobs]
    if len(p) < 3 or share.size != len(p) or not (np.isfinite(vals).all() and (vals > 0).all()):
        return None
    if share.max() >= CPU_BOUND or share.min() < IDLE:
        return None
    cover = iops * lat / out
    r_cost, r_share = cost.max() / cost.min(), share.max() / share.min()
    if r_cost < COST_SPREAD or r_share > SHARE_LEVEL or np.log(r_share) > SHARE_OF_SPREAD * np.log(r_cost) \
            or cover.min() < WAITED or cover.max() > OVERLAP:
        return None
    if not np.allclose(out, jobs, rtol=0.01):  # one I/O per job: its time per I/O is its I/O's own time
        return None
    size = _sizes(p)
    if _cost_line(cost, size) is not None:  # a per-I/O + per-byte cost fits every point: that reading stands
        return None
    twin = _twin(result, p)
    # evidence the cost is not the I/O's own: one size at two costs (points or runs), or ×2 the bytes at about one cost
    one_size = any(abs(size[a] / size[b] - 1) <= 0.01 and cost[a] >= RUN_SPREAD * cost[b]
                   for a in range(len(p)) for b in range(len(p)))
    bytes_free = any(size[b] >= 2 * size[a] and cost[b] <= BYTES_FREE * cost[a]
                     for a in range(len(p)) for b in range(len(p)))
    if not (one_size or bytes_free or twin is not None):
        return None
    t = jobs / iops
    return {"cost": (float(cost.min()), float(cost.max()), int(np.argmin(cost)), int(np.argmax(cost))),
            "share": (float(share.min()), float(share.max())), "time": (float(t[np.argmin(cost)]),
                                                                        float(t[np.argmax(cost)])),
            "cover": (float(cover.min()), float(cover.max())), "twin": twin}


def _twin(result, p) -> tuple | None:
    """(x, cost₁, cost₂, latency₁, latency₂) of the point whose two runs' CPU per I/O differ most (≥ :data:`RUN_SPREAD`
    ×) with their mean latencies in the same order; None where no point has such runs."""
    tbl = result.table
    if tbl is None or not {"source_path", "cpu_usr", "cpu_sys", "iops", "lat_mean_s"} <= set(tbl.columns) \
            or "sources" not in p:
        return None
    from ..ingest.summary import usable_rows
    from .facts import point_run_cpus

    rows = usable_rows(tbl)
    best = None
    for k in range(len(p)):
        srcs = [s for s in str(p["sources"].iloc[k]).split(";") if s]
        if len(srcs) < 2:
            continue
        c, io, found = point_run_cpus(rows, srcs)
        r = rows[rows["source_path"].astype(str).isin(srcs)]
        lat = r.groupby(r["source_path"].astype(str))["lat_mean_s"].mean().to_numpy(float)
        if not found or len(io) != len(srcs) or lat.size != io.size or not (np.isfinite(c).all() and (io > 0).all()):
            continue
        per = c / io
        a, b = int(np.argmax(per)), int(np.argmin(per))
        if per[b] > 0 and per[a] / per[b] >= RUN_SPREAD and lat[a] > lat[b] and \
                (best is None or per[a] / per[b] > best[1] / best[2]):
            best = (float(p["x"].iloc[k]), float(per[a]), float(per[b]), float(lat[a]), float(lat[b]))
    return best


def follows_time_words(result, cf, h) -> str:
    """ " fio's CPU per I/O … went from 15.2 µs (4 KiB) to 74.8 µs (256 KiB), ×4.92, while the job's CPU share stayed
    20–27 % of one CPU …: the CPU charged follows the time per I/O …" — the sentence of :func:`follows_time`."""
    p, x = cf.points, result.x
    lo, hi, i, j = h["cost"]
    xs = p["x"].to_numpy(float)
    t0, t1 = h["time"]
    who = "the job" if np.nanmax(p["jobs"].to_numpy(float)) <= 1 else "each job"
    twin = ""
    if h["twin"] is not None:
        xv, c1, c2, l1, l2 = h["twin"]
        twin = (f"; the runs at {x} = {_xv(result, xv)} cost {fmt_y(c1, 's')} and {fmt_y(c2, 's')} (×{c1 / c2:.3g}) at "
                f"{fmt_y(l1, 's')} and {fmt_y(l2, 's')} mean latency: one size, two costs, in step with the time")
    return (f" fio's CPU per I/O (usr+sys CPU-seconds ÷ I/Os, per job) went from {fmt_y(lo, 's')} at {x} = "
            f"{_xv(result, xs[i])} to {fmt_y(hi, 's')} at {_xv(result, xs[j])}, ×{hi / lo:.3g}, while {who}'s CPU "
            f"share stayed {_pcts(*h['share'])} of one CPU and its I/O was in flight for "
            f"{_pcts(*h['cover'])} of its cycle (IOPS × mean latency ÷ outstanding): the CPU charged follows the time "
            f"each I/O took ({fmt_y(t0, 's')} → {fmt_y(t1, 's')} per I/O of a job there) — CPU spent while the job "
            f"waited (completions, wake-ups), not a per-I/O or per-byte cost{twin}; so no cost is compared across "
            f"the points and no rate one CPU sustains is read from it.")
