"""A curve's points and the runs behind each: which runs a point's level keeps (a stalled or split run is left out),
its latency percentiles, and the one-I/O-in-flight test by Little's law. Every fact reads its levels from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

#: how far above a row's largest latency a percentile of it may sit (fio's histogram bucket; ingest warns beyond it)
from ..ingest.percentiles import PERCENTILE_SLACK, PERCENTILE_SLACK_S
from .cpu_facts import run_cpus
from .fact_base import pd_num

if TYPE_CHECKING:  # for annotations only: pandas is loaded by the fit already
    import pandas as pd


def _points(result, key):
    """The curve's points sorted by x, with IOPS and bytes/s side by side (whichever y is), the bytes per I/O,
    fio's mean latency, outstanding I/O, jobs and CPU."""
    import pandas as pd

    from .claim import _pts
    from .curves import measured_points

    pts = _pts(result, key).sort_values(result.x).reset_index(drop=True)
    out = pd.DataFrame({"x": pts[result.x].to_numpy(float), "y": pts["y"].to_numpy(float)})
    for col, name in (("y_std", "y_std"), ("n_runs", "n_runs"), ("lat_mean_s", "lat"), ("outstanding", "out"),
                      ("jobs", "jobs"), ("cpus", "cpus"), ("little", "little"), ("little_lo", "little_lo"),
                      ("little_hi", "little_hi")):
        out[name] = pts[col].to_numpy(float) if col in pts else np.nan
    out["sources"] = pts["sources"].astype(str).to_numpy() if "sources" in pts else ""
    out["iops"], out["bytes_per_s"] = np.nan, np.nan
    if result.y_unit == "1/s":
        out["iops"] = out["y"]
    elif result.y_unit == "B/s":
        out["bytes_per_s"] = out["y"]
    other = {"1/s": "bytes_per_s", "B/s": "iops"}.get(result.y_unit)
    if other is not None and result.table is not None and result.y in ("iops", "bytes_per_s"):
        try:
            o = measured_points(result.table, x=result.x, y=other, by=result.by or None)
        except Exception:  # a table without the other quantity (a hand-made one): that column stays NaN
            o = None
        if o is not None:
            for b, v in zip(result.by, key):
                o = o[o[b] == v]
            o = o.sort_values(result.x)
            if len(o) == len(out) and np.allclose(o[result.x].to_numpy(float), out["x"].to_numpy()):
                out[other] = o["y"].to_numpy(float)
    _percentiles(result, key, out)
    if result.x in ("block_size_bytes",):
        per_io = out["x"].to_numpy(float)
        if other == "iops" or result.y_unit == "B/s":
            out["iops"] = out["bytes_per_s"] / per_io
        elif result.y_unit == "1/s":
            out["bytes_per_s"] = out["iops"] * per_io
    with np.errstate(all="ignore"):
        out["bytes_per_io"] = out["bytes_per_s"] / out["iops"]
    _one_in_flight_by_little(result, out)
    # the one level per point every claim reads (point_levels): the kept runs' median, range, count, split flag and
    # latency — the means above stay for the charts
    lv = point_levels(result, out)
    for col, name in (("median", "level"), ("lo", "level_lo"), ("hi", "level_hi"), ("runs", "kept_runs"),
                      ("split", "split"), ("lat", "lat_kept"), ("p50", "p50_kept")):
        out[name] = [d[col] for d in lv]
    out["stalled"] = pd.Series([d["stalled"] for d in lv], dtype=object)
    out["runs_kept"] = pd.Series([d["kept"] for d in lv], dtype=object)
    _kept_little(result, key, out, lv)
    return out


#: how near 1 IOPS × mean latency must be at every size for a table that gives no depth to count as one I/O in flight
ONE_IN_FLIGHT_TOL = 0.05


def _one_in_flight_by_little(result, out) -> None:
    """Along block size, where the table gives no outstanding I/O at any point (a typed table: no iodepth, no jobs)
    but IOPS × mean latency is within :data:`ONE_IN_FLIGHT_TOL` of 1 at every point, one I/O was in flight (Little's
    law, N = X · R): ``out`` is set to 1 and ``out_little`` holds each point's IOPS × latency, so the words say how
    it is known (set after round 18 was read: QD, r18_vitastor-i22_vitastor-vdisk_randread_bs and _randwrite_bs,
    0.98–0.99 at every size, read as no depth at all)."""
    out["out_little"] = np.nan
    if result.x != "block_size_bytes" or len(out) < 2 or out["out"].notna().any():
        return
    with np.errstate(all="ignore"):
        n = out["iops"].to_numpy(float) * out["lat"].to_numpy(float)
    if np.isfinite(n).all() and np.all(np.abs(n - 1) <= ONE_IN_FLIGHT_TOL):
        out["out"], out["out_little"] = 1.0, n


def _kept_little(result, key, out, lv) -> None:
    """A point with stalled runs set aside (:func:`point_levels`) gets its Little check (mean and per-run ``lo``–``hi``)
    from its kept runs, as its level is: a stalled run, left out of the level, must not widen the range the sentences
    print (round 18 ZF a: the range from the runs the onset/plateau words read)."""
    from .curves import measured_points

    tbl = result.table
    for i, d in enumerate(lv):
        srcs = d.get("sources")
        if not d["stalled"] or not srcs or tbl is None or "source_path" not in tbl:
            continue
        try:
            o = measured_points(tbl[tbl["source_path"].astype(str).isin(srcs)], x=result.x, y=result.y,
                                by=result.by or None)
        except Exception:  # the kept runs alone do not make a point (a hand-made table): the point's own check stays
            continue
        for b, v in zip(result.by, key):
            o = o[o[b] == v]
        o = o[np.isclose(o[result.x].to_numpy(float), out["x"].iloc[i])]
        if len(o) == 1:
            for c in ("little", "little_lo", "little_hi"):
                out.loc[i, c] = float(o[c].iloc[0])


#: fio's latency figures a point's tail is read from (total latency where fio gave it, else completion): the
#: median, the 99.9th percentile and the maximum, each the mean over a point's runs (measured_points)
PERCENTILES = {"p50": ("lat_p50_s", "clat_p50_s"), "p99_9": ("lat_p99_9_s", "clat_p99_9_s"), "max": ("lat_max_s",),
               # the 90th percentile beside the median, of the same kind where fio gave both (round 30 RA)
               "p90": ("lat_p90_s", "clat_p90_s")}


def possible_percentiles(tbl):
    """``tbl`` with every latency percentile above its own row's largest latency (``lat_max_s``, total else
    completion: a completion latency never exceeds the total one) set NaN: no percentile of a set of I/Os exceeds
    its slowest, so such a figure measured nothing (fio before 3.34 with io_uring sqthread_poll puts every I/O in
    its top bucket, 17.1 s, beside a slowest I/O of 1.8–28 ms: set after round 18 was read, r18_msf2fsbench ×3,
    QA). Read here rather than at ingest: a table read back from CSV (points.csv) never passes ingest's checks.
    ``tbl`` itself where nothing is impossible."""
    if tbl is None or "lat_max_s" not in tbl:
        return tbl
    cols = [c for c in tbl.columns if c.startswith(("lat_p", "clat_p")) and c.endswith("_s")]
    top = pd_num(tbl["lat_max_s"]) * PERCENTILE_SLACK + PERCENTILE_SLACK_S
    bad = {c: (pd_num(tbl[c]) > top).to_numpy() for c in cols}
    if not any(b.any() for b in bad.values()):
        return tbl
    tbl = tbl.copy()
    for c, b in bad.items():
        tbl.loc[b, c] = np.nan
    return tbl


def _percentiles(result, key, out) -> None:
    """Columns ``p50``, ``p99_9``, ``max`` of ``out`` (NaN where the table lacks them or they are impossible:
    :func:`possible_percentiles`), of the curve's direction."""
    from .curves import Y_COLUMNS, measured_points

    for name in (*PERCENTILES, "clat_mean", "slat_mean"):
        out[name] = np.nan
    out["p50_kind"] = ""
    if result.table is None or result.y not in Y_COLUMNS:
        return
    d = Y_COLUMNS[result.y][1]
    tbl = possible_percentiles(result.table)
    # the completion and submission means beside the percentiles: a median is compared only with the mean of its own
    # kind (clat with clat), and where fio gave completion percentiles only, the submission time is told apart
    for name, cols in (*PERCENTILES.items(), ("clat_mean", ("clat_mean_s",)), ("slat_mean", ("slat_mean_s",))):
        for col in cols:
            if col not in tbl or not tbl[col].notna().any():
                continue
            try:
                o = measured_points(tbl, x=result.x, y=f"{d}_{col}" if d else col, by=result.by or None)
            except Exception:  # a table whose rows give no point of it (a hand-made one): the column stays NaN
                break
            for b, v in zip(result.by, key):
                o = o[o[b] == v]
            o = o.sort_values(result.x)
            if len(o) == len(out) and np.allclose(o[result.x].to_numpy(float), out["x"].to_numpy()):
                out[name] = o["y"].to_numpy(float)
                if name == "p50":
                    out["p50_kind"] = col.split("_")[0]
            break


#: a run more than this share below the level's runs (their median, and a run of its own point) was disturbed
DISTURBED = 0.2

#: a stalled run: mean latency ≥ this many times its point's fastest run's and its growth ≥ this many times its
#: median latency's growth; …
STALL_MEAN = 3.0
#: … and its CPU at most this share of that run's
STALL_CPU = 0.5
#: a run the test would set aside stays where a kept run other than the reference is like it: its mean latency and
#: its CPU within √STALL_MEAN (≈ 1.73, the geometric midpoint between "alike" and the stall factor) of that run's — the
#: test never splits two like runs, leaving the odd fast one as the point's reference (set after round 23 was read:
#: r23_here-cpusplit loop numjobs, AA — 115.73 / 49.90 / 36.75 K at one job, the two slow runs of one signature, CPU
#: 0.241 / 0.191, mean latency 80 / 109 µs; the 36.75 K run was set aside against the fast one, the 49.90 K kept)
LIKE_RUN = STALL_MEAN ** 0.5
#: a stall sets aside fewer than this share of one point's runs: a point's half or more is its behaviour, not an
#: outlier below it (set after the review of round 23's fixes: r5_here_ext4_fsync numjobs, 2 of 3 runs at 4 jobs set
#: aside, the level its one fast run; r12 kyber QD16, 2 of 3 set aside beside one 122 K run)
STALL_SHARE = 0.5
#: "rare long waits, not a slower typical I/O" is said only where the stalled runs' median and p90 latency stayed
#: within this factor of their point's fastest run's: the premise (most I/Os as fast) is then in fio's own figures —
#: the factor is the one the stall test already grants the median's growth against the mean's (STALL_MEAN ÷ 2, one
#: half of the margin), and beyond it ≥ 10 % of the I/Os waited long (set after the review of round 23's fixes:
#: r12 kyber QD16, p90 ×31.6; r15 ext4 seqwrite 1 MiB, p90 ×42; here_loop_iodepth, p90 ×15.5)
STALL_TYPICAL = STALL_MEAN / 2


def _run_figures(result, p) -> list[dict | None]:
    """Each point's runs as fio's files give them, in :func:`_run_values`' order (sorted source paths): ``rate``,
    mean latency ``lat``, median latency ``p50`` and usr+sys ``cpu`` (NaN where the table lacks one); None for a
    point whose runs cannot be told apart."""
    out: list[dict | None] = [None] * len(p)
    tbl = result.table
    if tbl is None or "source_path" not in tbl:
        return out
    from ..ingest.summary import usable_rows

    rows = possible_percentiles(usable_rows(tbl))
    g = rows.groupby(rows["source_path"].astype(str))
    fig = {}
    for name, cols in (("lat", ("lat_mean_s", "clat_mean_s")), ("p50", ("clat_p50_s", "lat_p50_s")),
                       ("p90", ("clat_p90_s", "lat_p90_s")), ("p99", ("clat_p99_s", "lat_p99_s"))):
        c = next((c for c in cols if c in tbl), None)
        fig[name] = g[c].mean() if c is not None else None
    from ..hostcal.costs import unseen_work

    # (a CPU figure that leaves out the threads doing the I/O tells nothing of whether they ran: no stall is read
    # from it — posixaio, rbd, rados, glusterfs_async, windowsaio)
    fig["cpu"] = run_cpus(rows) if {"cpu_usr", "cpu_sys"} <= set(tbl.columns) and not unseen_work(rows) else None
    fig["untested"] = _untested(rows).groupby(rows["source_path"].astype(str)).max().astype(float)
    for i in range(len(p)):
        v = _run_values(result, p, i)
        srcs = sorted(s for s in str(p["sources"].iloc[i]).split(";") if s)
        if v.size < 2 or len(srcs) != v.size:
            continue
        out[i] = {"rate": v, **{k: np.array([np.nan] * v.size) if ser is None else
                                ser.reindex(srcs).to_numpy(float) for k, ser in fig.items()}}
    return out


def _untested(rows):
    """Per row, True where the stall test cannot read the run (set after the review of round 23's fixes): a job that
    makes sync calls (fio's ``sync_ios``, ``fsync_every``/``fdatasync_every`` > 0) — each cycle's wait is in the sync
    figures, not in the write latency the test reads (r5_here_ext4_fsync numjobs: median fsync ×190 in a run read as
    "not a slower typical I/O") — and a trim, whose own operation is bimodal by what earlier runs punched or filled
    (r11_here-trim loop randtrim bs: 10–50 µs or 0.7–4.6 ms a trim, the slow mode typical at 64 KiB)."""
    import pandas as pd

    out = pd.Series(False, index=rows.index)
    for c in ("sync_ios", "fsync_every", "fdatasync_every"):
        if c in rows:
            out |= (pd_num(rows[c]).fillna(0) > 0).to_numpy()
    if "direction" in rows:
        out |= (rows["direction"].astype(str) == "trim").to_numpy()
    return out


def _stall_flags(r, m, q, c) -> np.ndarray:
    """One point's stalled runs (:func:`stalled_runs`' test) with every guard of the review of round 23's fixes:
    two flagged runs like each other (:data:`LIKE_RUN`) are a regime of the point, not stalls; a flagged run faster
    than a run kept at its own point is no outlier below the point (r15 ext4 seqwrite 1 MiB: 301 IOPS set aside
    beside a kept 46 IOPS run); fewer than :data:`STALL_SHARE` of the point's runs."""
    bad = np.zeros(r.size, bool)
    if not (np.isfinite(m).all() and np.isfinite(q).all() and np.isfinite(c).all() and (m > 0).all()):
        return bad
    f = int(np.argmin(m))  # and the rate fell: a paced run idling at its pace is not stalled (r6)
    bad = (m >= STALL_MEAN * m[f]) & (m / m[f] >= STALL_MEAN * q / q[f]) & (c <= STALL_CPU * c[f]) \
        & (r < (1 - DISTURBED) * r[f])
    flagged = bad.copy()
    for j in np.flatnonzero(flagged):  # (LIKE_RUN) a flagged run like another run than the reference is no stall
        if any(max(m[j], m[o]) < LIKE_RUN * min(m[j], m[o]) and max(c[j], c[o]) < LIKE_RUN * min(c[j], c[o])
               for o in range(r.size) if o != j and o != f):
            bad[j] = False
    while bad.any() and (~bad).any() and (r[bad] > r[~bad].min()).any():
        bad &= ~(r > r[~bad].min())
    if bad.sum() >= STALL_SHARE * r.size:
        bad[:] = False
    return bad


def stalled_runs(result, p, figures: list | None = None) -> dict | None:
    """Runs the host stalled, by fio's own figures in each run's file: the typical I/O as fast as the point's fastest
    run (its mean latency ×:data:`STALL_MEAN` or more that run's, and grown ×:data:`STALL_MEAN` more than its median
    latency did) and fio's CPU at most :data:`STALL_CPU` of that run's — the process waited off the CPU through rare
    long waits, not a slower typical I/O (a slower device moves the median with the mean) (set after round 12 was
    read: r12_here-vsync loop randread iodepth, 5 runs at 2.1–7.6 K beside 29–58 K, p50 6–14 µs, CPU 0.03–0.07 vs
    0.14–0.18, pooled into one level; MD/NC). Told point by point: a point whose runs lack a figure sets none aside
    and stops no other point's test (set after round 15 was read: r15_here-newfio_fio342 … iouring-nonvectored
    iodepth, UC). ``value``/``lo``/``hi``: the other runs; None where no run, or more than half the runs tested,
    show it."""
    figures = _run_figures(result, p) if figures is None else figures
    kept: list[float] = []
    left: list[tuple[float, float, float, float, float, float]] = []
    at: dict[float, tuple[float, float]] = {}  # each point with a stalled run: its kept runs' range
    n = 0
    for i, fg in enumerate(figures):
        if fg is None:
            continue
        r, m, q, c = fg["rate"], fg["lat"], fg["p50"], fg["cpu"]
        q90 = fg.get("p90", np.full(r.size, np.nan))
        q99 = fg.get("p99", np.full(r.size, np.nan))
        n += r.size
        bad = np.zeros(r.size, bool) if (np.asarray(fg.get("untested", 0.0)) > 0).any() else _stall_flags(r, m, q, c)
        x = float(p["x"].iloc[i])
        kept += [float(v) for v in r[~bad]]
        if bad.any():
            f = int(np.argmin(m))
            at[x] = (float(r[~bad].min()), float(r[~bad].max()))
            left += [(x, float(r[j]), float(m[j] / m[f]), float(q[j] / q[f]), float(q90[j] / q90[f]),
                      float(q99[j] / q99[f])) for j in np.flatnonzero(bad)]
    if not left or 2 * len(left) > n:
        return None
    k = np.array(kept)
    typical = np.array([max(v[3], v[4]) for v in left])
    return {"value": float(k.mean()), "lo": float(k.min()), "hi": float(k.max()), "kept": len(kept), "runs": n,
            "left": [(a, r) for a, r, *_ in left], "mean_lo": min(v[2] for v in left),
            "mean_hi": max(v[2] for v in left), "p50_lo": min(v[3] for v in left), "p50_hi": max(v[3] for v in left),
            "p90_lo": min(v[4] for v in left), "p90_hi": max(v[4] for v in left),
            "typical_held": bool(np.isfinite(typical).all() and (typical <= STALL_TYPICAL).all()),
            "kept_at": at, "each": [stall_kind(v) for v in left]}


def stall_kind(v) -> dict:
    """One stalled run's own verdict (set after round 24 was read: r6_here_loop_libaio_ureap iodepth, 8.44 K at 1
    with median ×1.78 its point's fastest run's beside 30.08 K at 2 and 20.79 K at 4 with median ×0.83 and ×1.02,
    all three worded "not only rare ones"): ``kind`` "rare" where its median and p90 stayed within
    :data:`STALL_TYPICAL` of its point's fastest run's (the typical I/O as fast, the mean grown by a tail), "slow"
    where either grew beyond it (the typical I/O slower too), "unread" where fio's files give neither; its ratios to
    that run's: ``mean``, ``p50``, ``p90``, ``p99`` (NaN where the files lack it)."""
    x, rate, mean, p50, p90, p99 = v
    t = np.array([p50, p90], float)
    kind = ("slow" if (t[np.isfinite(t)] > STALL_TYPICAL).any() else "rare" if np.isfinite(t).all() else "unread")
    return {"x": x, "rate": rate, "mean": mean, "p50": p50, "p90": p90, "p99": p99, "kind": kind}


#: kept runs of one point whose sorted neighbours lie more than this many times apart split into two groups: the
#: point has no single level (round 12 NA, read before this: r12_here-sched_loop-kyber_… iodepth, 114–122 K beside
#: 23–43 K at QD16–32, pooled into a "level" of 79 K that no run sat at)
SPLIT_RATIO = 2.0


def point_levels(result, p) -> list[dict]:
    """One level per point, the one every claim that reads a point's level is to use: the runs that count (the
    stalled runs of :func:`stalled_runs` left out), their **median** — one disturbed run the stall test does not catch
    moves a mean, not a median (round 13 PB, read before this: r13_here-oldfio_fio313-jsonplus_loop_libaio_randrw_qd4_
    readshare_repeats, pure reads 93.7 / 1.75 / 89.1 K averaged to 61.49 K) — and the kept runs' range ``lo``–``hi``.
    ``split``: the kept runs fall into two groups more than :data:`SPLIT_RATIO` apart (no single level; ``level`` is
    then None). ``kept``: the kept runs themselves, sorted. ``lat``/``p50``: the median over the kept runs of fio's
    mean and median latency, the statistic of the level (round 15 UE, r15 ext4 psync numjobs: "×2.36" from means
    that held one run at 115 µs; ×1.89 by the runs' medians, as Little's law gives). Where the runs cannot be told apart (one run a point, a transcribed table)
    the point's mean stands in with ``lo`` = ``hi`` = it and ``runs`` = 0: nothing is known of its scatter.
    Computed once in :func:`_points` (its columns ``level`` … ``runs_kept``) and read back from them."""
    if "runs_kept" in p:
        return [{"x": float(r.x), "level": None if r.split else float(r.level), "median": float(r.level),
                 "lo": float(r.level_lo), "hi": float(r.level_hi), "runs": int(r.kept_runs), "stalled": list(r.stalled),
                 "split": bool(r.split), "kept": r.runs_kept, "lat": float(r.lat_kept), "p50": float(r.p50_kept)}
                for r in p.itertuples()]
    figures = _run_figures(result, p)
    st = stalled_runs(result, p, figures)
    left = {(a, round(v, 6)) for a, v in st["left"]} if st else set()
    out = []
    for i, fg in enumerate(figures):
        x, y = float(p["x"].iloc[i]), float(p["y"].iloc[i])
        lat = float(p["lat"].iloc[i]) if "lat" in p else np.nan
        p50 = float(p["p50"].iloc[i]) if "p50" in p else np.nan
        if fg is None:
            out.append({"x": x, "level": y, "median": y, "lo": y, "hi": y, "runs": 0, "stalled": [],
                        "split": False, "kept": np.array([y]), "lat": lat, "p50": p50})
            continue
        bad = np.array([(x, round(float(r), 6)) in left for r in fg["rate"]])
        order = np.argsort(fg["rate"][~bad])
        k = fg["rate"][~bad][order]
        split = bool(k.size >= 2 and (k[1:] / k[:-1]).max() > SPLIT_RATIO)
        lk, qk = fg["lat"][~bad], fg["p50"][~bad]
        # the runs' latencies stand for the point's only where all of them average to it (a per-direction curve of a
        # mixed job: a run's file mixes both directions — r7 blkio wbps randrw9010, 114 µs read as 351 µs)
        lk = lk if abs(np.mean(fg["lat"]) / lat - 1) <= 0.01 else np.array([np.nan])
        qk = qk if abs(np.mean(fg["p50"]) / p50 - 1) <= 0.01 else np.array([np.nan])
        out.append({"x": x, "level": None if split else float(np.median(k)), "median": float(np.median(k)),
                    "lo": float(k[0]), "hi": float(k[-1]),
                    "runs": int(k.size), "stalled": [float(r) for r in fg["rate"][bad]], "split": split, "kept": k,
                    "sources": [src for src, b in zip(sorted(t for t in str(p["sources"].iloc[i]).split(";") if t), bad)
                                if not b],
                    "lat": float(np.median(lk)) if np.isfinite(lk).all() else lat,
                    "p50": float(np.median(qk)) if np.isfinite(qk).all() else p50})
    return out


def _kept(p, i: int) -> np.ndarray:
    """Point ``i``'s kept runs from the point table (:func:`point_levels`), empty where the runs cannot be told apart."""
    return np.asarray(p["runs_kept"].iloc[i], float) if p["kept_runs"].iloc[i] > 0 else np.array([])


def _run_values(result, p, i: int) -> np.ndarray:
    """The runs of point ``i`` from the table (one value per source file, summed over its jobs), or an empty array
    where they cannot be told apart or do not average to the point's mean within 1 %."""
    col = {"1/s": "iops", "B/s": "bw_bytes_per_s"}.get(result.y_unit)
    tbl = result.table
    if col is None or tbl is None or col not in tbl or "source_path" not in tbl:
        return np.array([])
    from ..ingest.summary import usable_rows

    srcs = [s for s in str(p["sources"].iloc[i]).split(";") if s]
    rows = usable_rows(tbl)
    rows = rows[rows["source_path"].astype(str).isin(srcs)]
    if rows.empty:
        return np.array([])
    v = rows.groupby(rows["source_path"].astype(str))[col].sum().to_numpy(float)
    ok = v.size == len(srcs) and v.size >= 2 and abs(v.mean() / p["y"].iloc[i] - 1) <= 0.01 and (v > 0).all()
    return v if ok else np.array([])
