"""What a measured curve shows, read the way a storage engineer reads it — before any model or sentence.

Each fact is computed once per curve from the measurements alone (fio's rates, latencies, CPU accounting,
options and disk statistics), holds its numbers in SI and the evidence that decided it, and says nothing a
model assumed. :mod:`~nvmemodel.fitting.claims` turns facts into claims and :mod:`~nvmemodel.fitting.words`
into sentences; a model's parameters are read only where :func:`model_trust` lets them.

============  ============================================================================================
fact          how it is decided (every rule is the same for any device)
============  ============================================================================================
saturation    along a load axis (iodepth, numjobs, outstanding, drives, targets …): the gain of each
              doubling of load, ``(y_j / y_i) ** (1 / log2(x_j / x_i)) − 1``. The onset is the first load
              from which no later point gains :data:`PAYS` (10 %) or more per doubling over it (measured from
              there, so one noisy step neither makes nor breaks it) while fio's mean latency grows with the
              load (Little's law: the added I/O queues). Saturated *from the first point* when that is the
              smallest load measured: a limit reached there (a cap or a serial server; the files do not say
              which). "Rising" when the last doubling still pays (and no plateau while the last two do); "near"
              when it pays less than :data:`NEAR` and the latency grew more than the throughput did, or a quarter
              of the doubling before it or less. A level leaves out runs :data:`DISTURBED` below the rest.
              "Falls" when the last point is below the plateau's maximum by more than the repeat noise (with
              repeats) or than the largest step-to-step change inside the plateau (without), and by more than the
              largest spread of one point's runs anywhere on the curve (:func:`curve_noise`); "rising" only above
              every earlier point beyond that noise; runs that overlap while the mean gains PAYS (never the median alone): no
              onset, level or fall ("overlap", round 9). Runs wider than every step bound a level from the first
              point (round 10) or from a later one x_k (round 11, the noise of the points from x_k on) only where that stretch
              shows the added load queued (:func:`_level_in_noise`). Still rising where each of the last ≥ 3
              doublings pays at a flat latency, whatever the last pair's runs (:func:`_paying_trend`, round 11).
cap           along block size: the IOPS flat (largest ÷ smallest ≤ 1 + :data:`FLAT`) over ≥ 3 sizes from the smallest
              (an IOPS cap, *measured*), the bandwidth flat so over ≥ 2 sizes up to the largest (a byte cap);
              the roofline ``min(I, B / b)`` beside the smooth ``1 / (1/I + b/B)``, the data choosing the one
              with the smaller RMS log error.
outstanding   along block size without a measured IOPS cap: the small-block rate is what the outstanding I/O
              allows at the latency fio measured (``iodepth × numjobs ÷ mean latency``), not a device ceiling.
mix           along read share: the harmonic mix of the pure runs, ``1/X = r/R + (1 − r)/W``; mixes more than
              :data:`MIX_BELOW` below it show read/write interference.
cpu           fio's usr+sys CPU per I/O (CPU-seconds ÷ I/O, never per byte), the IOPS one CPU sustains at that
              cost; CPU-bound where each submitting job is at ≥ :data:`CPU_BOUND` of one CPU at the onset (or
              the IOPS cap), or where the jobs' total CPU stays level while more jobs are added (all the CPUs
              they could get). A job at ≥ 90 % that made no more I/O per job than one below 90 % was waiting by
              spinning (``rate_iops``), not bound; so were busy jobs whose CPU per I/O grew with the load, and
              jobs the runs say poll (``hipri``, ``sqthread_poll``, SPDK): ``spins`` (round 7, CB).
layer         the layer that most likely served the I/O, from what the files say: fio's disk statistics
              (``loop*``, ``dm-*``, ``md*``, ``nbd*``, ``rbd*``, virtio ``vd*``), buffered I/O (``direct=0``),
              or a rate per target beyond what the link of one x4 device of the newest PCIe generation carries.
trust         a model's parameters mean something about the data only when it describes them: R² ≥
              :data:`TRUST_R2` and no point missed by more than :data:`TRUST_MISS`.
============  ============================================================================================
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import TYPE_CHECKING

import numpy as np

from .devices import LAYERS, STACKING, device_busy, devices_per_point, layer_of, listed_devices, mapper_targets, parallel_targets, side_by_side  # noqa: F401  (LAYERS: fio's disk-statistics names → layers)
from .evidence import TRUST_MISS, TRUST_R2  # noqa: F401  (the test a model must pass to be read; re-exported)
from .evidence import fit_misses as _fit_misses
from .knee import held_peak, unqueued_onset
from .size_level import cpu_held_level, rise_into
from ..jobs.fiooptions import BYPASS_ENGINES, METADATA_ENGINES, NO_STORAGE_ENGINES, PASSTHROUGH_TARGET

if TYPE_CHECKING:  # for annotations only: pandas is loaded by the fit already
    import pandas as pd

__all__ = ["CurveFacts", "Fact", "curve_facts", "last_gain", "model_trust"]

#: a doubling of load that adds less than this share of throughput does not pay: saturation
PAYS = 0.10
#: a last doubling that pays less than this, while the latency grows more than the throughput, is near saturation
NEAR = 0.25
#: a quantity within ±this share of its mean over a stretch of block sizes is flat there (a cap)
FLAT = 0.10
#: one run a point: a level after a fall holds no step between neighbours larger than this and ⅔ of the step into it
#: (round 6 BA: a "level" of 4.24–4.89 GB/s held a −12.4 % step, as large as the −12.9 % "one step" before it; blind3
#: Q's +9 % bump after a −16 % step, and round 5's −6 %/−11 % after a −59 % one, stay levels)
LEVEL_STEP = 0.05
#: along block size, a last doubling that adds less than this share of bytes/s is no faster: below what a table's 3–4
#: significant digits tell apart (set after round 14 was read: r14_asct bs, 133.27 → 133.38 MB/s, +0.08 %, said to
#: "approach a byte limit at or above", class RB; ethresear's +9.8 % keeps that hedge)
NO_GAIN = 0.01
#: mixes further than this below the harmonic mix of the pure runs show read/write interference
MIX_BELOW = 0.10
#: a job at this share of one CPU or more (fio's usr+sys) kept its CPU busy
CPU_BOUND = 0.9
#: fio engines that do their I/O over a network → the layer
NETWORK_ENGINES = {"rbd": "rbd", "nfs": "network_fs", "libiscsi": "network_block", "nbd": "nbd",
                   "http": "network_fs", "libcufile": "gpu_direct", "rados": "rbd", "libhdfs": "network_fs",
                   "gfapi": "network_fs", "gfapi_async": "network_fs"}


#: the fastest read a drive completes: Intel's Optane SSD P5800X, typical 4 KiB read latency "< 5 µs" (Intel's
#: P5800X product brief; recalled, not re-verified here). Its predecessor, the P4800X, measured 8.9 µs mean and 9 µs
#: median for 4 kB random reads at QD1 under fio (AnandTech 11209, "Checking Intel's Numbers"), against Intel's
#: "< 10 µs" typical. A path through another layer (a VM's disk, a network, a loop image) adds its own round trip.
READ_FLOOR_S = 5e-6
#: on a path with no layer named, a read is flagged only below this share of :data:`READ_FLOOR_S` (a drive may beat
#: its typical figure; fio's clock and the kernel's path are not the device's), so no real drive is called a cache
BARE_SHARE = 0.5
#: through a named layer a read is flagged at or below this share of :data:`READ_FLOOR_S`. Round 12 asked for a
#: margin (r12_here-vsync_loop_vsync_seqread_iodepth_repeats, NE, 4.96 µs), but 0.9 also drops blind5's kvm1 guest
#: (5.00 µs median through dm-0 over vda, read right by hand): left at 1 until a margin keeps both.
CLEAR = 1.0
#: engines whose reads a drive does not serve (memory, no I/O): no floor applies
NO_FLOOR_ENGINES = ("null", "cpuio", "mmap", "dev-dax", "libpmem", "pmemblk", "filecreate", "filestat", "filedelete")
#: disk-statistics names of memory-backed block devices (RAM disk, null_blk, persistent memory, zram): no floor
MEMORY_DEVICES = r"^(ram\d|nullb\d|pmem\d|zram\d)"


@dataclasses.dataclass(frozen=True)
class Fact:
    """One thing the data show: ``kind``, its numbers (SI) and the evidence that decided it."""

    kind: str
    facts: dict
    evidence: str = ""


@dataclasses.dataclass(frozen=True)
class CurveFacts:
    """Every fact of one curve (None where it does not apply or the data cannot decide it) and its points."""

    points: pd.DataFrame  # sorted by x: x, y, iops, bytes_per_s, bytes_per_io, lat, out, jobs, cpus …
    saturation: Fact | None = None
    cap: Fact | None = None
    outstanding: Fact | None = None
    mix: Fact | None = None
    cpu: Fact | None = None
    layer: Fact | None = None
    trust: Fact | None = None
    size_fall: Fact | None = None
    cache: Fact | None = None  # points faster than any drive through the path named: a cache served them
    one_stream: Fact | None = None  # one I/O outstanding along block size: a per-I/O time + size ÷ a byte rate
    small_sizes: Fact | None = None  # along block size: IOPS levels and request-time steps (round 18 ZE)
    merged: Fact | None = None  # fio's disk statistics: more than 2 fio I/Os per device I/O (merges.py)
    split: Fact | None = None  # fio's disk statistics: several device I/Os per fio I/O from some size on (merges.py)

    def all(self) -> list[Fact]:
        return [f for f in (self.layer, self.cache, self.merged, self.split, self.saturation, self.cap, self.size_fall,
                            self.outstanding, self.one_stream, self.small_sizes, self.mix, self.cpu, self.trust)
                if f is not None]


def _gain(y0: float, y1: float, x0: float, x1: float) -> float:
    """Throughput gained per doubling of load between two points (−1 … ∞)."""
    if not (x1 > x0 > 0 and y0 > 0 and y1 >= 0):
        return np.nan
    return (y1 / y0) ** (1.0 / math.log2(x1 / x0)) - 1.0


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
PERCENTILES = {"p50": ("lat_p50_s", "clat_p50_s"), "p99_9": ("lat_p99_9_s", "clat_p99_9_s"), "max": ("lat_max_s",)}


#: how far above a row's largest latency a percentile of it may sit (fio's histogram bucket; ingest warns beyond it)
from ..ingest.percentiles import PERCENTILE_SLACK, PERCENTILE_SLACK_S  # noqa: E402


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


def last_gain(x, y) -> float:
    """Throughput gained per doubling of load in the last step of a curve (NaN where it cannot be told)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    order = np.argsort(x)
    x, y = x[order], y[order]
    return _gain(y[-2], y[-1], x[-2], x[-1]) if x.size >= 2 else np.nan


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
    last_gain = _gain(y[-2], y[-1], x[-2], x[-1])
    facts = {"axis": result.x, "unit": result.y_unit, "onset_x": None, "last_gain_per_doubling": last_gain,
             "by_runs": by_runs, "noise": cnoise,
             "lat_growth": float(lat[-1] / lat[0]) if lat_known else None, "load_growth": float(x[-1] / x[0])}
    if onset is None:
        lat_gain = _gain(lat[-2], lat[-1], x[-2], x[-1]) if lat_known else np.nan
        # still paying, but most of the added load queued: rising, towards a ceiling it has not reached
        # … and only where the gain per doubling falls step over step beyond the noise: a steady gain approaches no
        # ceiling the data show (set after round 20 was read: RF, r20_tutsunom_sdb-hdd … numjobs, +14, +23, +21, +21,
        # +20 % per doubling said as "approaching a ceiling"; steps.bends)
        from .steps import bends, last_falls

        sy = (x, p["y"].to_numpy(float), p["y_std"].to_numpy(float), p["n_runs"].to_numpy(float))
        bend, one_fall = bends(*sy), last_falls(*sy)
        slowing = last_gain < NEAR and np.isfinite(lat_gain) and lat_gain > last_gain and bend is not None
        # the gain collapsed: the last doubling pays under a quarter of what the one before it paid (round 7 CF)
        collapsed = last_gain < NEAR and pays[-2] > 0 and last_gain <= pays[-2] / 4
        facts.update(state="rising", slowing=bool(slowing), lat_gain_per_doubling=lat_gain, bend=bend, last_falls=bool(one_fall),
                     collapsed_from=float(pays[-2]) if collapsed else None, trend=_paying_trend(p, pays))  # (on the means: r11 KF)
        return Fact("saturation", facts, f"the last doubling of {result.x} added {last_gain:+.0%}")
    k = onset
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
    falls = None
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
            basis = (f"any step from {result.x} = {x[k]:g} to the peak and the ±{FLAT:.0%} a level is read within"
                     if steps.size else f"the ±{FLAT:.0%} a level is read within")
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
        after = _level_after(x, y, reps, i_held) if drop > noise else None
        if drop > noise and not (after or {}).get("one_level"):  # (with repeats their noise; without, ±FLAT above)
            from .steps import level_after_fall

            # the fall in one step beyond the runs, then a lower level held to the last point: where it happens and the
            # level after it (set after round 20 was read: SE, r20_here-devcount … seqread128k, "falls 33 % to 4.74 GB/s
            # at 6" for one step 2 → 3, then 4.74–5.08 GB/s to 6)
            lo_r = [float(r.min()) if r.size >= 2 else np.nan for r in kr]
            hi_r = [float(r.max()) if r.size >= 2 else np.nan for r in kr]
            one_step = level_after_fall(x, y, lo_r, hi_r, i_max) if after is None and not splits.any() else None
            falls = {"x_max": float(x[i_max]), "y_max": float(y[i_max]), "drop": float(drop / y[i_max]),
                     "basis": basis, "level_after": after, "apart": bool(apart), "one_step": one_step,
                     "held": ({"x_to": float(x[i_held]), "points": i_held - i_max + 1, "x_next": float(x[i_held + 1]),
                               "lo": float(y[i_max:i_held + 1].min())}
                              if i_max < i_held < n - 1 else None),
                     "steps": [(float(x[j]), float(x[j + 1]), float(y[j + 1] / y[j] - 1))
                               for j in range(min(i_held, n - 2), n - 1)]}
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
    for u in ("iops", "bytes_per_s"):  # the level in either unit: each point's level times its own bytes per I/O
        v = (p[u].to_numpy(float) / p["y"].to_numpy(float))[whole]
        facts[f"plateau_{u}"] = float(np.mean(v)) * facts["plateau"] if np.isfinite(v).all() else None
    if lat_known:
        # an onset whose latency had not risen over the lighter loads': the knee lies past it (round 19 TB, knee.py)
        facts["unqueued"] = unqueued_onset(x, lat, q["little"].to_numpy(float), k, int(level[-1]), LITTLE_TOL) \
            if k > 0 else None
        facts.update(lat_first=float(lat[k]), lat_last=float(lat[-1]))
        facts.update(_little_growth(ql, k))
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


#: a run more than this share below the level's runs (their median, and a run of its own point) was disturbed
DISTURBED = 0.2

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


#: a stalled run: mean latency ≥ this many times its point's fastest run's and its growth ≥ this many times its
#: median latency's growth; …
STALL_MEAN = 3.0
#: … and its CPU at most this share of that run's
STALL_CPU = 0.5


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
    for name, cols in (("lat", ("lat_mean_s", "clat_mean_s")), ("p50", ("clat_p50_s", "lat_p50_s"))):
        c = next((c for c in cols if c in tbl), None)
        fig[name] = g[c].mean() if c is not None else None
    from ..hostcal.costs import unseen_work

    # (a CPU figure that leaves out the threads doing the I/O tells nothing of whether they ran: no stall is read
    # from it — posixaio, rbd, rados, glusterfs_async, windowsaio)
    fig["cpu"] = run_cpus(rows) if {"cpu_usr", "cpu_sys"} <= set(tbl.columns) and not unseen_work(rows) else None
    for i in range(len(p)):
        v = _run_values(result, p, i)
        srcs = sorted(s for s in str(p["sources"].iloc[i]).split(";") if s)
        if v.size < 2 or len(srcs) != v.size:
            continue
        out[i] = {"rate": v, **{k: np.array([np.nan] * v.size) if ser is None else
                                ser.reindex(srcs).to_numpy(float) for k, ser in fig.items()}}
    return out


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
    left: list[tuple[float, float, float]] = []
    n = 0
    for i, fg in enumerate(figures):
        if fg is None:
            continue
        r, m, q, c = fg["rate"], fg["lat"], fg["p50"], fg["cpu"]
        n += r.size
        bad = np.zeros(r.size, bool)
        if np.isfinite(m).all() and np.isfinite(q).all() and np.isfinite(c).all() and (m > 0).all():
            f = int(np.argmin(m))  # and the rate fell: a paced run idling at its pace is not stalled (r6)
            bad = (m >= STALL_MEAN * m[f]) & (m / m[f] >= STALL_MEAN * q / q[f]) & (c <= STALL_CPU * c[f]) \
                & (r < (1 - DISTURBED) * r[f])
        x = float(p["x"].iloc[i])
        kept += [float(v) for v in r[~bad]]
        left += [(x, float(v), float(mm / m[f])) for v, mm in zip(r[bad], m[bad])]
    if not left or 2 * len(left) > n:
        return None
    k = np.array(kept)
    return {"value": float(k.mean()), "lo": float(k.min()), "hi": float(k.max()), "kept": len(kept), "runs": n,
            "left": [(a, r) for a, r, _ in left], "mean_lo": min(x for *_, x in left),
            "mean_hi": max(x for *_, x in left)}


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


def _robust_level(result, p, level) -> dict | None:
    """A level's runs with those far below the level's other runs left out (more than :data:`DISTURBED` below both
    the median of every run on the level and a run of its own point): a run the host slowed is not where the level is (round 7, part 2 CA, read before this rule:
    r7_here_blkio_riops_iodepth_low1_repeats, 16 of 18 runs at 5.99–6.19 K IOPS and two at 3.6 K, said as a
    "plateau 5.76 K" that no run sat at). None where no run is left out, more than a quarter would be, the runs
    kept spread beyond ±FLAT (r2 loop io_uring: 60–150 K, scatter not a level) or the runs are not in the table."""
    runs = [_run_values(result, p, int(i)) for i in level]
    if not all(v.size for v in runs):
        return None
    med = float(np.median(np.concatenate(runs)))  # (a level is one rate: its runs' median, not a point's)
    bar = (1 - DISTURBED) * med
    kept, left = [], []
    for i, v in zip(level, runs):
        low = (v < bar) & (v < (1 - DISTURBED) * v.max())  # and below a run of its own point: not a point that dips
        kept.append(v[~low])
        left += [(float(p["x"].iloc[int(i)]), float(r)) for r in v[low]]
    v = np.concatenate(kept)
    if not left or 4 * len(left) > v.size + len(left) or v.max() - v.min() > 2 * FLAT * v.mean():
        return None  # a few runs apart from a tight rest (within ±FLAT), not runs that scatter anyway (blind2)
    return {"value": float(v.mean()), "lo": float(v.min()), "hi": float(v.max()), "kept": int(v.size),
            "runs": int(v.size) + len(left), "left": left, "median": med}


def repeat_spread(result, p) -> dict | None:
    """Repeats whose spread at a point exceeds every step between the points' levels (their kept runs' medians) — a
    point whose kept runs differ by more than ×2 (or whose sd is over half its level) while their sd is larger than the
    largest step: the onset, plateau and fall are then the runs' scatter (round 5, read before this rule: a posixaio loop sweep, 2.7–28.3 K at
    one iodepth, and ext4 fsync runs of 0.25–29.5 K at one numjobs). ``ratio``: the largest max ÷ min of one point's
    runs where the table gives them (NaN otherwise), ``cv`` the largest sd ÷ mean, at ``x``."""
    y, sd, reps = p["y"].to_numpy(float), p["y_std"].to_numpy(float), p["n_runs"].to_numpy(float)
    runs = [_kept(p, j) for j in range(y.size)]  # the kept runs (stalled ones out) where the table tells them apart
    sd = np.array([np.std(r, ddof=1) if r.size >= 2 else (0.0 if r.size else s) for r, s in zip(runs, sd)])
    if y.size < 2 or not (np.isfinite(reps).all() and (reps >= 2).all() and np.isfinite(sd).all()):
        return None
    ratio = np.array([r.max() / r.min() if r.size >= 2 else np.nan for r in runs])
    cv = sd / y
    wide = (cv > 0.5) | (ratio > 2)
    if not wide.any() or sd.max() <= np.abs(np.diff(y)).max():
        return None
    i = int(np.nanargmax(np.where(np.isfinite(ratio), ratio, 0.0))) if np.isfinite(ratio).any() else int(np.argmax(cv))
    # silence only what the noise hides (round 6 BE: ×9 at QD4, yet every QD32 run above every QD1–2 run): where the
    # runs of two points do not overlap, the step between them is readable, and the onset is read on the runs
    lo = np.array([r.min() if r.size else np.nan for r in runs])
    hi = np.array([r.max() if r.size else np.nan for r in runs])
    # each pair as (lower, higher): the words say "every run at b above every run at a", so a fall is told in its
    # own direction (round 14 SA, read before this rule: r14_here-nrreq_loop-nrreq4 128k iodepth, "every run at 32
    # above every run at 2" where every QD32 run, 0.59–3.39 GB/s, lay below every QD2 run, 4.03–4.17 GB/s)
    apart = [(a, b) if lo[b] > hi[a] else (b, a)
             for a in range(y.size) for b in range(a + 1, y.size) if lo[b] > hi[a] or lo[a] > hi[b]]
    if np.isfinite(lo).all() and apart:
        a, b = max(apart, key=lambda ab: lo[ab[1]] / hi[ab[0]])
        return {"readable": True, "ratio": float(ratio[i]), "x": float(p["x"].to_numpy(float)[i]),
                "runs_lo": lo.tolist(), "runs_hi": hi.tolist(), "apart": (a, b)}
    return {"ratio": float(ratio[i]), "cv": float(cv.max()), "x": float(p["x"].to_numpy(float)[i]),
            "runs_lo": float(runs[i].min()) if np.isfinite(ratio[i]) else None,
            "runs_hi": float(runs[i].max()) if np.isfinite(ratio[i]) else None}


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


def run_cpus(r):
    """Each source file's (run's) CPUs of fio's usr+sys, counted as the points count them (``curves._cpus``: each job
    once, a group-reported row times its ``numjobs``), indexed by source path. Summing a run's rows instead counted a
    group-reported row once for all its jobs and a mixed job once per direction, so the median of the runs never
    matched the point and the mean stood in (set after round 11 was read: r11_here-pin_loop_libaio_1cpu_…, 0.371
    printed for a median of 0.353, KG)."""
    from .curves import _cpus

    g = r.assign(_cpu=r["cpu_usr"].astype(float) + r["cpu_sys"].astype(float),
                 _nj=pd_num(r["numjobs"]) if "numjobs" in r else np.nan)
    return g.groupby(g["source_path"].astype(str)).apply(_cpus, include_groups=False)


def point_run_cpus(rows, srcs) -> tuple[np.ndarray, np.ndarray, int]:
    """(summed CPUs, IOPS, rows found) of each run (source file) among ``srcs`` in ``rows``, the runs in one order:
    the pairs a point's CPU per I/O (:func:`_run_costs`) and a fixed CPU total (``cpu_total``) are read from."""
    r = rows[rows["source_path"].astype(str).isin(srcs)]
    if r.empty:
        return np.array([]), np.array([]), 0
    io_s = r.groupby(r["source_path"].astype(str))["iops"].sum()
    return run_cpus(r).reindex(io_s.index).to_numpy(float), io_s.to_numpy(float), len(r)


def point_cpu_runs(result, p, i: int) -> dict | None:
    """Point ``i``'s kept runs (≥ 2 source files, the stalled ones of :func:`stalled_runs` left out) as fio gives them:
    ``share`` — each run's usr+sys per job, in CPUs — and ``iops``, sorted by share; None where the runs cannot be told
    apart or do not average to the point's CPU within 1 %. A point's CPU verdict rests on its runs, not on one median
    figure against a cliff (set after round 18 was read: r18_here-rwmixdio, runs at 0.85–0.91 of one CPU told "below
    90 %" by their median's 0.879, ZC)."""
    tbl = result.table
    if tbl is None or not {"source_path", "cpu_usr", "cpu_sys", "iops"} <= set(tbl.columns) or "cpus" not in p:
        return None
    from ..ingest.summary import usable_rows

    srcs = [s for s in str(p["sources"].iloc[i]).split(";") if s]
    jobs = float(p["jobs"].iloc[i]) if "jobs" in p else np.nan
    if len(srcs) < 2 or not (np.isfinite(jobs) and jobs > 0):
        return None
    c, io, found = point_run_cpus(usable_rows(tbl), srcs)
    want = float(p["cpus"].iloc[i])
    if not found or len(io) != len(srcs) or not np.isfinite(c).all() or abs(c.mean() - want) > 0.01 * max(want, 1e-9):
        return None
    stalled = np.asarray(p["stalled"].iloc[i] if "stalled" in p else [], float)
    size = float(p["bytes_per_io"].iloc[i]) if result.y_unit == "B/s" and "bytes_per_io" in p else 1.0
    kept = ~np.array([bool(stalled.size) and bool(np.any(np.isclose(v * size, stalled, rtol=1e-3))) for v in io])
    if kept.sum() < 2:
        return None
    order = np.argsort(c[kept])
    return {"share": (c[kept] / jobs)[order], "iops": io[kept][order]}


def _run_costs(result, p) -> np.ndarray:
    """Each point's CPU per I/O as the median of its runs' (usr+sys ÷ IOPS of each source file, its jobs summed), NaN
    where the runs cannot be told apart or do not average to the point's CPU within 1 % — one disturbed run (r9
    here-think: 493 µs beside 19 and 23 µs) must not set the cost of the point (round 9, GC)."""
    out = np.full(len(p), np.nan)
    tbl = result.table
    if tbl is None or not {"source_path", "cpu_usr", "cpu_sys", "iops"} <= set(tbl.columns) or "cpus" not in p:
        return out
    from ..ingest.summary import usable_rows

    rows = usable_rows(tbl)
    for i in range(len(p)):
        srcs = [s for s in str(p["sources"].iloc[i]).split(";") if s]
        if len(srcs) < 3:
            continue
        c, io, found = point_run_cpus(rows, srcs)
        if found and len(io) == len(srcs) and (io > 0).all() and np.isfinite(c).all() \
                and abs(c.mean() - p["cpus"].iloc[i]) <= 0.01 * max(p["cpus"].iloc[i], 1e-9):
            out[i] = float(np.median(c / io))
    return out


#: CPU per I/O that grew at least this much from the fastest point to a point at half its rate or less is said
COST_RISE = 2.0


def cost_rise(result, p, per_io) -> str:
    """"; from numjobs = 1 to 8 fio's CPU per I/O grew ×25 (24 µs → 613 µs) while the rate fell ×17 …": the jobs spent
    more CPU for fewer I/Os along the axis ("" where not, by :data:`COST_RISE`; set after round 9 was read: r9
    here-uring sqpoll numjobs, 24 → 613 µs as the rate fell ×17, FD)."""
    from .claim import _xv
    from .wording import fmt_y

    iops, c = p["iops"].to_numpy(float), np.asarray(per_io, float)
    if result.x == "block_size_bytes" or iops.size < 3 or not (np.isfinite(iops).all() and np.isfinite(c).all() and (c > 0).all()):
        return ""
    i = int(np.argmax(iops))
    later = [j for j in range(i + 1, iops.size) if iops[j] <= iops[i] / 2 and c[j] >= COST_RISE * c[i]]
    if not later:
        return ""
    j = max(later, key=lambda k: c[k])
    xs = p["x"].to_numpy(float)
    return (f"; from {result.x} = {_xv(result, xs[i])} to {_xv(result, xs[j])} fio's CPU per I/O grew ×{c[j] / c[i]:.3g}"
            f" ({fmt_y(c[i], 's')} → {fmt_y(c[j], 's')}, usr+sys ÷ I/Os) while the rate fell ×{iops[i] / iops[j]:.3g}:"
            f" the jobs spent more CPU for fewer I/Os, which a slower device alone does not do (the host's core count "
            f"and the threads fio does not count would tell what took the CPU)")


def _trim_lead(y, idx: np.ndarray) -> np.ndarray:
    """``idx`` without its leading points that lie off the rest (≥ 2 kept) by more than :data:`LEVEL_STEP` and
    twice the rest's own spread (max ÷ min − 1)."""
    while idx.size > 2 + (idx.size > 3):  # (a three-point stretch stays whole: two points are no level's spread)
        rest = y[idx[1:]]
        if abs(y[idx[0]] / rest.mean() - 1) <= max(LEVEL_STEP, 2 * (rest.max() / rest.min() - 1)):
            break
        idx = idx[1:]
    return idx


def _level_after(x, y, reps, i_max: int) -> dict | None:
    """One run a point, every point after the maximum (≥ 3) within ±FLAT of their mean: the "fall" is the one step
    after a single high point, then a level — not a decline along the load (blind3 class Q: 97 K at QD4, then 81–89 K
    from QD8 to 1024, said as "falls 17 % to 81.03 K at iodepth = 1024")."""
    after = np.arange(i_max + 1, y.size)
    if after.size < 3 or (np.isfinite(reps[i_max]) and reps[i_max] >= 2):
        return None
    mean = float(y[after].mean())
    if not np.all(np.abs(y[after] / mean - 1) <= FLAT):
        return None
    # the maximum is one spike only where the point before it is not at its level too; otherwise two levels and the
    # step between them (round 5, read before this rule: 327 K and 336 K at QD4–8, then 116–139 K over QD16–64)
    high = i_max
    while high > 0 and abs(y[high - 1] / y[i_max] - 1) <= FLAT:
        high -= 1
    # "one higher point" only where the maximum is the only point above the later level: a point before it that also
    # lies above that level (beyond its ±FLAT and its highest point) makes a rise to a limit, then a fall — said as
    # the fall (set after round 15 was read: TB, r15_spdk-iopacing kernel-initiator qd, 20.5 and 23.1 GB/s at QD2–4,
    # then 13.0–13.4 GB/s at QD8–32, said as "after one higher point")
    if high == i_max and i_max > 0 and y[i_max - 1] > max(float(y[after].max()), (1 + FLAT) * mean):
        return None
    # each level is read from its own points: a point on the way into a level (the last on the rise, the first on the
    # way down) lies off the rest by more than LEVEL_STEP and twice their own spread, and is left to lie between the
    # levels — never judged against steps that include the rise (set after round 10 was read: JB, r10_icpe24sched bfq
    # numjobs, 309–315 K at 3–5 jobs and 270–277 K at 7–15 with 294 K at 2 and 301 K at 6, said as one "plateau")
    if high < i_max:
        after, high = _trim_lead(y, after), int(_trim_lead(y, np.arange(high, i_max + 1))[0])
        mean = float(y[after].mean())
    if high < i_max and y[after].max() >= y[high:i_max + 1].min():
        return {"one_level": True}  # the maximum is not isolated and the two stretches overlap: one level, no fall
    into = abs(y[after[0]] / y[i_max] - 1)  # the step that is to stand out as "that one step"
    if np.abs(np.diff(y[after]) / y[after][:-1]).max() > max(LEVEL_STEP, 2 / 3 * into):
        return None  # a "level" holding a step beyond a run's scatter and near the one step is steps (round 6 BA)
    # the later points drifting one way beyond the band are a further fall (or rise), not a level: said as such (set
    # after round 21 was read: WA, fall_shape.py)
    from .fall_shape import trend_after

    trend = trend_after(x, y, after)
    if high < i_max:  # two levels that do not overlap
        return {"trend": trend, "value": mean, "lo": float(y[after].min()), "hi": float(y[after].max()), "x_from": float(x[after[0]]),
                "x_to": float(x[-1]), "points": int(after.size), "high": float(y[high:i_max + 1].mean()),
                "high_lo": float(y[high:i_max + 1].min()), "high_from": float(x[high]), "high_points": i_max + 1 - high}
    return {"value": mean, "lo": float(y[after].min()), "hi": float(y[after].max()), "x_from": float(x[after[0]]),
            "x_to": float(x[-1]), "points": int(after.size), "trend": trend}


def _in_flight_stall(p, k: int) -> dict | None:
    """Where the I/O in flight stopped growing with the load (Little's law, N = X · R from the measured IOPS and fio's
    mean latency): from the first plateau point on which, over ≥ 3 points and ≥ ×4 the outstanding I/O asked for, N
    stays within ±FLAT of its mean and ends below half of what was asked. The load axis then stopped being a load
    there — no serial fraction or contention is read from the level (blind4 class Z: ~17 in flight at QD 16–64 under
    posixaio, read as "Amdahl's σ … limits throughput … however far iodepth grows")."""
    iops, lat, out, x = (p[c].to_numpy(float) for c in ("iops", "lat", "out", "x"))
    if not (np.isfinite(iops[k:]).all() and np.isfinite(lat[k:]).all() and np.isfinite(out[k:]).all()):
        return None
    n_eff = iops * lat
    for j in range(k, len(x) - 2):
        seg = n_eff[j:]
        mid = float(seg.mean())
        if out[-1] / out[j] >= 4 and np.all(np.abs(seg / mid - 1) <= FLAT) and n_eff[-1] <= 0.5 * out[-1]:
            return {"x_from": float(x[j]), "in_flight": mid, "lo": float(seg.min()), "hi": float(seg.max()),
                    "asked_from": float(out[j]), "asked_to": float(out[-1]), "x_to": float(x[-1])}
    return None


def directions(result, key) -> dict | None:
    """Per direction of a mixed read/write curve whose y is the total (ingest's rows per direction): each direction's
    mean IOPS, bytes/s and fio's mean latency at each x, the write share, and the direction whose rate sits at one
    level over the whole range (within ±2 %) with fio's latency ≥ ×3 the other's at every x — through a fixed mix
    such a direction holds the total at level ÷ its share (blind4 class Y: writes at an 8 MiB/s cap, reads at 15 µs, said as "one serial path" of 145 µs)."""
    t = result.table
    if t is None or not {"direction", "iops", "lat_mean_s", "read_fraction"} <= set(t.columns) or result.x not in t:
        return None
    for b, v in zip(result.by, key):
        t = t[t[b] == v]
    t = t[t["direction"].isin(["read", "write"])]
    share = pd_num(t["read_fraction"])
    along_share = result.x == "read_fraction"  # the share is the axis: one per point (round 6, part 1 BF)
    if along_share:  # the mixes only: a pure run has one direction
        t, share = t[share.between(0.01, 0.99)], share[share.between(0.01, 0.99)]
    if t.empty or set(t["direction"]) != {"read", "write"} or not share.between(0.01, 0.99).all() \
            or (share.nunique() != 1 and not along_share):
        return None
    g = t.groupby([result.x, "direction"])[["iops", "bw_bytes_per_s", "lat_mean_s"]].mean().unstack("direction")
    if g.isna().any().any() or len(g) < 2:
        return None
    out = {"x": g.index.to_numpy(float), "read_share": float(share.iloc[0]) if share.nunique() == 1 else None}
    out["read_shares"] = (g.index.to_numpy(float) if along_share else np.full(len(g), float(share.iloc[0])))
    for d in ("read", "write"):
        for q in ("iops", "bw_bytes_per_s", "lat_mean_s"):
            out[f"{d}_{q}"] = g[(q, d)].to_numpy(float)
    # the slow direction: fio's latency ≥ ×3 the other's at every x (the other's rate follows it through the mix)
    level = None
    for d, o in (("read", "write"), ("write", "read")):
        v = out[f"{d}_iops"]
        if np.all(out[f"{d}_lat_mean_s"] >= 3 * out[f"{o}_lat_mean_s"]) and v.min() > 0 \
                and (v.max() - v.min()) / (v.max() + v.min()) <= 0.02 and not along_share:
            level = d
    out["level"] = level
    out["capped"] = _direction_cap(result, out)
    return out


#: a direction's rate over its last points within this of their mean ((max − min) ÷ (max + min)): one level
DIRECTION_FLAT = 0.03


def _direction_cap(result, d: dict) -> dict | None:
    """The direction held at a cap of its own over the last points (≥ 3, to the largest x) while the other follows
    it through the mix fio keeps: its rate within :data:`DIRECTION_FLAT` there — in bytes/s along block size (a
    byte cap), in IOPS along any other axis, else the other unit — with fio's latency ≥ ×3 the other direction's at
    each of those points (its I/Os wait in a throttle or queue, the other's do not). Round 6, part 1 BB: reads at
    ~40 MB/s from 16 KiB in a 50/50 mix read as "a byte cap of 83.1 MB/s" of the total; BF: reads at ~2.0 K IOPS at
    every read share from 25 % said nothing. ``total_holds``: the total at each of those points within 5 % of the
    cap ÷ the direction's share (by I/O count; in bytes where both directions move the same block size)."""
    units = ("bw_bytes_per_s", "iops") if result.x == "block_size_bytes" else ("iops", "bw_bytes_per_s")
    n = len(d["x"])
    for q in units:
        for slow, other in (("read", "write"), ("write", "read")):
            v, lat, olat = d[f"{slow}_{q}"], d[f"{slow}_lat_mean_s"], d[f"{other}_lat_mean_s"]
            k = n
            while k > 0:
                seg = v[k - 1:]
                if not (np.isfinite(seg).all() and seg.min() > 0 and lat[k - 1] >= 3 * olat[k - 1]
                        and (seg.max() - seg.min()) / (seg.max() + seg.min()) <= DIRECTION_FLAT):
                    break
                k -= 1
            if n - k < 3:
                continue
            idx = np.arange(k, n)
            shares = d["read_shares"][idx] if slow == "read" else 1 - d["read_shares"][idx]
            level = float(np.mean(v[idx]))
            total = d[f"read_{q}"][idx] + d[f"write_{q}"][idx]
            with np.errstate(all="ignore"):
                ratio = np.min(lat[idx] / olat[idx])
            return {"direction": slow, "other": other, "unit": "B/s" if q == "bw_bytes_per_s" else "1/s",
                    "from_index": int(k), "x_from": float(d["x"][k]), "x_to": float(d["x"][-1]),
                    "points": int(n - k), "lo": float(v[idx].min()), "hi": float(v[idx].max()), "level": level,
                    "lat_ratio": float(ratio), "shares": shares.tolist(), "totals": total.tolist(),
                    "predicted": (level / shares).tolist(),
                    "total_holds": bool(np.all(np.abs(total / (level / shares) - 1) <= 0.05))}
    return None


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
    return {"tail": {"p50_lo": float(med.min()), "p50_hi": float(med.max()),
                     "p99_9": (float(p["p99_9"].iloc[k]), float(p["p99_9"].iloc[-1])),
                     "max": float(p["max"].iloc[-1]), "max_runs": float(p["n_runs"].iloc[-1]),
                     "out": float(p["out"].iloc[-1]), "served": float(iops * med[-1])}}


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


#: the growth of the bytes in flight (depth × size) over a flat byte stretch at one depth that shows a byte limit: a
#: ×2 step is one doubling, inside what a level is read within; ×4 is two sizes past the first (round 16 WB)
INFLIGHT_GROWTH = 4.0

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
    if icap is not None:
        lat, out = p["lat"].to_numpy(float)[:ni], p["out"].to_numpy(float)[:ni]
        if np.isfinite(lat).all() and np.isfinite(out).all() and (lat > 0).all() and (out > 0).all() \
                and np.all(np.abs(out / lat / means_i[:ni] - 1) <= 0.10) and np.all(out == 1):
            # one I/O in flight (with a full queue Little's law holds at any cap and names nothing, as above)
            wide = b[ni - 1] / b[0] >= WIDE_SPAN and lat.max() / lat.min() <= 1 + FLAT
            by_out = {"outstanding": float(out[0]), "lat": (float(lat.min()), float(lat.max())),
                      "bound": float(out[0] / np.mean(lat)), "wide": bool(wide), "span": float(b[ni - 1] / b[0])}
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
    # the kept runs of the flat stretch beside its level (point_levels): a run above the cap shows the cap is not an
    # upper bound of these runs (set after round 13 was read: QA, r13_here-oldfio_fio325-terse_loop_libaio_seqwrite_
    # qd4_bs_repeats, "a byte cap of 1.38 GB/s or a little above" from means while single runs reached 1.71 GB/s)
    def kept(idx, scale):
        known = [k for k in idx if lv[k]["runs"]]
        return (float(min(lv[k]["lo"] * scale[k] for k in known)), float(max(lv[k]["hi"] * scale[k] for k in known))) \
            if known else None

    facts = {"iops_cap": icap, "bytes_cap": bcap, "by_outstanding": by_out, "one_depth": one_depth,
             "iops_runs": kept(range(ni), to_i) if icap is not None else None,
             "bytes_runs": kept(range(n - nb, n), to_b) if bcap is not None else None, "paced": paced, "crossover_bytes": (B / I) if icap and bcap else None,
             "measured": icap is not None or nb >= 3, "bytes_points": nb, "iops_flat": (float(b[0]), float(b[ni - 1]))
             if icap else None, "iops_range": (float(iops[:ni].min()), float(iops[:ni].max())) if icap else None, "iops_noise":
             float(np.median(spread[:ni])) if icap and iops[:ni].max() > (1 + FLAT) * iops[:ni].min() else None,
             "bytes_flat": (float(b[n - nb]), float(b[-1])) if bcap else None,
             "bytes_range": (float(tail.min()), float(tail.max())) if bcap else None,
             "bytes_depth": bytes_depth, "bytes_inflight": inflight, "by_runs": all(lv[k]["runs"] for k in range(n - nb, n)), "bytes_noise": float(np.median(spread[n - nb:]))
             if bcap and bw[n - nb:].max() > (1 + FLAT) * bw[n - nb:].min() else None,
             "held_above": above, "bytes_doubling": doubling,
             # the sizes below a measured byte level, where no IOPS cap speaks for them: the rise into it (round 19 UF)
             "bytes_rise": rise_into(b, bw, iops, n - nb, float(tail.min()), FLAT, LEVEL_STEP) if bcap is not None and nb >= 3
             and icap is None else None,
             "rms_log_roofline": rms_roof, "rms_log_smooth": smooth}
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


def _mix(result, p) -> Fact | None:
    if result.x.lower() not in ("read_fraction", "rwmixread") or result.y_unit not in ("1/s", "B/s"):
        return None
    r = p["x"].to_numpy(float)
    if result.x.lower() == "rwmixread":
        r = r / 100.0
    if not (np.isclose(r, 1).any() and np.isclose(r, 0).any()):
        return None
    # each share's level and range from its kept runs (point_levels), never means over stalled runs: a shortfall is
    # read only where a mix's highest kept run lies below the harmonic line of the pure points' lowest kept runs —
    # beyond every run's scatter (set after round 13 was read: PB, r13_here-oldfio_fio313-jsonplus_…_readshare_repeats,
    # "23 % below" from means with ×40 stalls while one run at every share sat on the line)
    lv = point_levels(result, p)
    y, lo, hi = (np.array([d[k] for d in lv], float) for k in ("median", "lo", "hi"))
    one, zero = np.isclose(r, 1), np.isclose(r, 0)
    R, W = float(y[one].mean()), float(y[zero].mean())
    mid = ~(zero | one)
    if not mid.any() or R <= 0 or W <= 0:
        return None
    h = 1.0 / (r / R + (1 - r) / W)
    h_lo = 1.0 / (r / lo[one].min() + (1 - r) / lo[zero].min())
    h_hi = 1.0 / (r / hi[one].max() + (1 - r) / hi[zero].max())
    deficit = 1 - y / h
    below = mid & (deficit > MIX_BELOW) & (hi < h_lo)
    i = int(np.argmax(np.where(below if below.any() else mid, deficit, -np.inf)))
    # the harmonic mix holds each direction's pure rate at the load of the mix: runs at different outstanding I/O
    # (768 reading threads, 32 writing, 256 mixed) compare unlike loads, and no interference is read from them
    out = p["out"].to_numpy(float)
    differ = bool(np.isfinite(out).all() and out.min() > 0 and out.max() / out.min() > 1 + MIX_BELOW)
    runs = any(d["runs"] for d in lv)
    noise = None
    if not below.any() and (mid & (deficit > MIX_BELOW)).any():  # a shortfall of medians inside the runs' scatter
        j = int(np.argmax(np.where(mid, deficit, -np.inf)))
        noise = {"share": float(r[j]), "lo": float(lo[j]), "hi": float(hi[j]), "line_lo": float(h_lo[j]),
                 "deficit": float(deficit[j])}
    # above the line likewise only beyond the pure runs' spread: a mix's lowest kept run above the line of the pure
    # points' highest (set after round 19 was read: r19_here-mmapw_tmpfs_mmap_randrw_readshare_repeats, "17% above"
    # explained while that mix's runs, 537–678 K, reached into the pure reads' own 569–682 K, UD)
    over = mid & (deficit < -MIX_BELOW)
    above_noise = None
    if over.any() and not (over & (lo > h_hi)).any():
        j = int(np.argmin(np.where(mid, deficit, np.inf)))
        above_noise = {"share": float(r[j]), "lo": float(lo[j]), "hi": float(hi[j]), "line_hi": float(h_hi[j]),
                       "excess": float(-deficit[j])}
    facts = {"read": R, "write": W, "harmonic": h[mid].tolist(), "shares": r[mid].tolist(),
             "deficits": deficit[mid].tolist(), "worst_share": float(r[i]), "deficit": float(deficit[i]),
             "below_harmonic": None if differ else bool(below.any()),
             "above": False if differ else bool(np.all((deficit[mid] < -MIX_BELOW) & (lo[mid] > h_hi[mid]))),
             "loads_differ": sorted({float(v) for v in out}) if differ else None,
             "medians": runs, "in_noise": None if differ else noise, "above_in_noise": None if differ else above_noise,
             "ranges": {"read": (float(lo[one].min()), float(hi[one].max())),
                        "write": (float(lo[zero].min()), float(hi[zero].max()))} if runs else None}
    return Fact("mix", facts, "the harmonic mix 1/X = r/R + (1 − r)/W of the pure points' levels (median of kept runs)")


def _cpu_fact(result, p, sat: Fact | None, cap: Fact | None, engine: str = "", cores: int | None = None,
              seen: tuple | None = None, polls: str | list = "", pin: str = "", unseen: bool = False) -> Fact | None:
    cpus, jobs, iops = p["cpus"].to_numpy(float), p["jobs"].to_numpy(float), p["iops"].to_numpy(float)
    if result.y_unit == "s" or not np.isfinite(cpus).any():
        return None
    with np.errstate(all="ignore"):
        share = np.where(jobs > 0, cpus / jobs, np.nan)
        per_io = np.where(iops > 0, cpus / iops, np.nan)  # CPU-seconds per I/O: CPUs busy ÷ I/O per second
    med = _run_costs(result, p)  # a point's cost is the median of its runs' (set after round 9 was read: GC)
    per_io = np.where(np.isfinite(med), med, per_io)
    share = np.where(share > 1.05, np.nan, share)  # one job is one thread: more is an accounting mismatch
    busy = share >= CPU_BOUND
    # a job at ≥ 90 % that made no more I/O per job than a job below 90 % waited by spinning: not bound by it
    spin = np.zeros(busy.size, bool)
    per_job = iops / jobs
    for i in np.flatnonzero(busy):
        calm = np.flatnonzero((share < CPU_BOUND) & np.isfinite(per_job))
        if calm.size and np.nanmax(per_job[calm]) >= 0.95 * per_job[i]:
            spin[i] = True
    from ..hostcal.costs import CANNOT_POLL, cost_growth, not_one_cost

    size = p["bytes_per_io"].to_numpy(float) if "bytes_per_io" in p else np.ones(len(p))
    size = size if np.isfinite(size).all() else np.ones(len(p))
    # round 7 (CB): busy jobs whose CPU per I/O grew with the load bought no I/O with it (they spin or poll), nor do
    # jobs the runs say poll (hipri, sqthread_poll, SPDK): their busy share is no CPU limit anywhere on the curve
    # (an engine that cannot poll — psync, libaio … — spends added CPU on its scheduling, not spinning: not read here)
    can_poll = engine not in CANNOT_POLL
    grew = cost_growth(per_io, iops, size, [int(i) for i in np.flatnonzero(busy)]) if can_poll else None
    # round 8 (EA): each point's own runs say whether it polled; the series "polls" only where every point does
    polled = np.array([bool(w) for w in polls]) if isinstance(polls, list) else np.full(len(p), bool(polls))
    polls = next((w for w in polls if w), "") if isinstance(polls, list) else polls
    # where every point's runs poll, the option is the reading: no growth of a cost per I/O beside it (set after round
    # 18 was read: r18_msf2fsbench, "CPU per I/O grew ×7.16 …" printed before "the jobs polled (hipri)", QB)
    spins = {"why": polls, "pair": None if polled.all() and polls else grew, "unseen": unseen} \
        if (polled.all() or grew) and engine not in ("null", "cpuio") else None
    odd = not_one_cost(per_io, size, np.flatnonzero(busy & ~polled)) if can_poll and not spins else None
    if odd is not None and engine not in ("null", "cpuio"):  # round 8: the proof of a CPU limit is one cost
        from .claim import _xv
        from .wording import fmt_y

        (i, j), x = sorted(odd), result.x
        who = "the job was" if np.nanmax(jobs) <= 1 else "each job was"
        spins = {"why": f"from {x} = {_xv(result, p['x'].iloc[i])} to {_xv(result, p['x'].iloc[j])} {who} "
                        f"≥ {CPU_BOUND:.0%} busy while its CPU per I/O changed ×{per_io[j] / per_io[i]:.3g} "
                        f"({fmt_y(per_io[i], 's')} → {fmt_y(per_io[j], 's')}, usr+sys ÷ I/Os): not one cost"
                        + (f"; at {x} = {', '.join(_xv(result, v) for v in p['x'][polled])} {polls}" if polls else ""),
                 "pair": None}
    spin |= busy & (polled | bool(spins))
    bound_at = None
    how = ""
    at = None
    spare = None
    if sat is not None and sat.facts.get("onset_index") is not None:
        at = sat.facts["onset_index"]
    elif cap is not None and cap.facts.get("iops_cap"):
        at = 0
    if at is None and sat is not None and sat.facts["state"] == "rising":
        at = len(p) - 1  # still rising: is the last point held by its submitting job's CPU?
    if at is None and engine in ("null", "cpuio"):
        at = int(np.nanargmax(p["y"].to_numpy(float)))
    jobs_axis = result.x in ("numjobs", "jobs", "threads")
    if at is not None and busy[at] and not spin[at] and (not jobs_axis or bool(np.all(busy[at:]))):
        # along numjobs a busy job at the onset decides only if the jobs stay busy: jobs with spare CPU that add
        # nothing leave it to the host's core count (below) or to a device limit
        bound_at, how = at, "job"
    level = None
    host = _host_level(p, cpus, per_io, share, jobs, cores, seen) \
        if at is not None and jobs_axis and not spins and not polled.any() and engine not in ("null", "cpuio") else None
    if at is not None and engine in ("null", "cpuio"):
        bound_at, how = at, "engine"  # no device: the rate of an engine that does no I/O is its CPU's
    elif host is not None:
        bound_at, how = host["k"], "host"
    elif at is not None and jobs.size and jobs[-1] >= 2 * jobs[at] and np.isfinite(cpus[at:]).all() and jobs_axis:
        # more jobs, the same total CPU. A flat rate at a fixed CPU cost per I/O also keeps the total level, so it
        # is the CPUs' limit only when they are all busy: decided with the host's core count, else left open
        tail = cpus[at:]
        # ... and a level that could be a whole host's: within 10 % of a whole number of CPUs (1.46 CPUs is no
        # machine's count: the jobs had spare CPU)
        whole = round(float(tail.mean()))
        flat = tail.size >= 2 and whole >= 1 and abs(tail.mean() - whole) <= 0.1 * whole \
            and bool(np.all(np.abs(tail / tail.mean() - 1) <= 0.15))
        # ... reached at one cost: CPU per I/O that grew into the level bought no I/O (round 7, CB: nvmetcp-poll)
        grew = cost_growth(per_io, iops, size, list(range(max(at - 1, 0), len(p)))) if flat and can_poll else None
        spins = spins or ({"why": polls, "pair": grew} if grew and engine not in ("null", "cpuio") else None)
        if flat and not spins:
            level = float(tail.mean())
            if cores and level >= 0.9 * cores:
                bound_at, how = at, "machine"
                if pin:  # the CPU set the jobs were pinned to: the proof is the files' own (round 11, KD)
                    pin = {"spec": pin, "lo": float(tail.min()), "hi": float(tail.max()),
                           "cost_lo": float(np.nanmin(per_io[at:])), "cost_hi": float(np.nanmax(per_io[at:])),
                           "cost": float(np.nanmedian(per_io[at:])), "iops_lo": float(np.nanmin(iops[at:])),
                           "iops_hi": float(np.nanmax(iops[at:]))}
            elif not cores and seen is not None and level < 0.9 * seen[0]:
                # the same host's jobs used more CPUs at another point of this result: this level is not all of them
                spare = {"level_cpus": level, "seen_cpus": seen[0], "seen_at": seen[1], "from_x": float(p["x"].iloc[at])}
                level = None
    bound = True if bound_at is not None else (None if level is not None else False)
    one = [] if bound_at is None or how != "job" else \
        [k for k in range(bound_at, len(p)) if busy[k] and not spin[k] and abs(size[k] / size[bound_at] - 1) <= 0.01]
    facts = {"share": share.tolist(), "cpu_s_per_io": per_io.tolist(), "spinning": spin.tolist(),
             "cpu_bound": bound, "how": how, "level_cpus": level, "cores": cores, "engine": engine,
             "level_from_x": float(p["x"].iloc[at]) if level is not None else None,
             "at_x": float(p["x"].iloc[bound_at]) if bound_at is not None else None,
             "at_cpu_s_per_io": float(per_io[bound_at]) if bound_at is not None else None,
             "iops_per_cpu": float(1.0 / per_io[bound_at]) if bound_at is not None and per_io[bound_at] > 0 else None,
             "job_cpu_share": float(share[bound_at]) if bound_at is not None else None,
             "cpus": float(cpus[bound_at]) if bound_at is not None else None, "spare": spare, "spins": spins,
             "polled": {"x": p["x"].to_numpy(float)[polled].tolist(), "why": polls} if polled.any() and not spins
             else None,  # the busy points' CPU per I/O from the onset: the proof of a CPU limit (round 8)
             "one_cost": (float(np.min(per_io[one])), float(np.max(per_io[one])), float(p["x"].iloc[one[-1]]))
             if len(one) >= 2 else None, "host": host, "pin": pin if isinstance(pin, dict) else None}
    if not np.isfinite(per_io).any():
        return None
    return Fact("cpu", facts, "fio's usr+sys CPU per I/O")


#: the jobs' summed CPU within this of its median at every point of a stretch: it stopped growing (set after round 10
#: was read: r10_icpe24sched_8x980pro numjobs, 9.975–9.991 CPUs at 10–15 jobs, part 2 JA)
HOST_FLAT = 0.01
#: the summed CPU ÷ the cost per I/O within this of the measured rate at every point of that stretch
HOST_RATE_TOL = 0.05


def _host_level(p, cpus, per_io, share, jobs, cores, seen) -> dict | None:
    """Round 10's JA: jobs added while their summed CPU stops growing — flat within :data:`HOST_FLAT` over the last
    ≥ 3 points, after a point that used less — at one cost per I/O along the whole curve (every point within
    ``cpu_claims.COST_TOL``-like ±15 % of the median), each job below :data:`CPU_BOUND` at the last (more jobs than
    the CPUs they got), and that CPU ÷ that
    cost giving each point's rate within :data:`HOST_RATE_TOL`: the CPUs the host gave the jobs held the rate, which
    needs no core count (the level is the measured CPUs, a whole number of them within :data:`HOST_FLAT`: a rate held
    elsewhere at one cost keeps the summed CPU level too, at no whole count). None otherwise, or where a topology's cores or another
    curve of the result show more CPUs than the level (the host had CPUs to spare). Little's law says nothing here:
    it holds for any closed loop fio keeps full."""
    iops = p["iops"].to_numpy(float)
    n = len(p)
    ok = np.isfinite(cpus) & np.isfinite(per_io) & (per_io > 0) & np.isfinite(iops) & (iops > 0) & np.isfinite(jobs)
    if n < 4 or not ok.all():
        return None
    k = n - 1
    while k > 0 and np.all(np.abs(cpus[k - 1:] / np.median(cpus[k - 1:]) - 1) <= HOST_FLAT):
        k -= 1
    level = float(np.median(cpus[k:]))
    if n - k < 3 or k == 0 or cpus[k - 1] >= (1 - HOST_FLAT) * level or not np.all(np.diff(jobs[k - 1:]) > 0):
        return None
    if not share[-1] < CPU_BOUND or np.any(np.abs(per_io / np.median(per_io) - 1) > 0.15):
        return None
    cost = float(np.median(per_io[k:]))
    if np.any(np.abs(cpus[k:] / cost / iops[k:] - 1) > HOST_RATE_TOL):
        return None
    if (cores and level < 0.9 * cores) or (seen is not None and level < 0.9 * seen[0]):
        return None
    # a rate held elsewhere at one cost keeps the summed CPU level too, at whatever CPUs that rate costs: a host's
    # ceiling is a whole number of CPUs (9.99: 10; a device's 2.37 CPUs is none)
    whole = round(level)
    if whole < 1 or abs(level / whole - 1) > HOST_FLAT:
        return None
    return {"k": k, "whole": int(whole), "lo": float(cpus[k:].min()), "hi": float(cpus[k:].max()), "level": level, "cost": cost,
            "cost_lo": float(per_io.min()), "cost_hi": float(per_io.max()), "x_from": float(p["x"].iloc[k]),
            "x_to": float(p["x"].iloc[-1]), "rate": level / cost, "iops_lo": float(iops[k:].min()),
            "iops_hi": float(iops[k:].max()), "share_last": float(share[-1])}


def _layer(result, p) -> Fact | None:
    """The layer that most likely served the I/O, from the result files' own record."""
    from .claim import runs_rows

    rows = runs_rows(result, p)
    if rows is None or not len(rows):
        return None
    engines = set(rows["ioengine"].dropna().astype(str)) if "ioengine" in rows else set()
    if engines and engines <= {"null", "cpuio"}:
        return None  # an engine that does no I/O: the CPU fact says so ("no device is involved"), once
    if engines and engines <= NO_STORAGE_ENGINES:
        # fio's engine touches no storage (net: TCP/UDP messages; set after round 10 was read: r10_dgfiobench_*, HF)
        path = {"net": "the network stack", "netsplice": "the network stack", "rdma": "the RDMA network"}.get(
            min(engines), "memory and the CPU")
        return Fact("layer", {"layer": "none", "devices": [], "engine": ", ".join(sorted(engines)), "path": path},
                    f"fio's {', '.join(sorted(engines))} engine touches no storage")
    bypass = _bypass(rows, engines)
    if bypass is not None:  # no page cache or block layer in the path: direct=0 and empty disk stats prove nothing
        return bypass
    if "direct" in rows and not (engines and engines <= METADATA_ENGINES):  # no data, no page cache (r13 PE)
        from .claim import stated

        d = stated(rows, "direct").dropna()  # a direct=0 the reader filled in proves nothing (round 11, KB)
        if len(d) and not bool(d.astype(bool).any()):  # what served them needs evidence (fitting/buffered.py)
            from .buffered import buffered_fact

            return Fact("layer", buffered_fact(rows), "the runs used buffered I/O (direct=0)")
    if "devices" in rows:
        names = listed_devices(rows)
        stack = [(d, layer_of(d)) for d in names]
        layers = [lay for _, lay in stack if lay is not None]
        if layers:  # fio lists a layered device, then the disks beneath it: each is named, top to bottom, and the
            # fact's layer is the lowest (the one the others pass their I/O down to: a VM's vda under its dm-0)
            hit = [d for d, lay in stack if lay == layers[-1]]
            side = side_by_side(rows)  # the job's own targets are side by side, not stacked (round 6 BC)
            # devices one run at a time, differing from point to point: named per point (round 20, SA)
            apart = [] if side or any(lay in STACKING for lay in layers) or len(names) < 2 else \
                (devices_per_point(rows, result.x, p["x"].to_numpy(float)) or [])
            busy = device_busy(rows, hit, result.x, float(p["x"].iloc[-1]))  # fio's disk_util (round 20, SC)
            from .cache_hits import reached  # reads that never reached the device (round 21, VC)

            return Fact("layer", {"layer": layers[-1], "devices": hit, "all_devices": names, "stack": stack,
                                  "side_by_side": side, "per_point": apart, "busy": busy, "hits": reached(rows, result.x)},
                        f"fio's disk statistics name one device a run, {', '.join(names)}" if apart else
                        f"fio's disk statistics name {(' and ' if side else ' over ').join(names)}")
    shared = _shared_between_hosts(rows)
    if shared is not None:
        return shared
    for engine, layer in NETWORK_ENGINES.items():
        if engines == {engine}:
            return Fact("layer", {"layer": layer, "devices": [], "engine": engine},
                        f"fio's {engine} engine sends every I/O over the network")
    if "devices" in rows and "format" in rows and "target_names" in rows:
        fmt = rows["format"].astype(str)
        devs = rows["devices"].astype(object).fillna("").astype(str)
        targets = rows["target_names"].dropna().astype(str)
        # fio's JSON lists the block devices under the files it used; none at all under files (not /dev nodes)
        # proves no layer: fio maps a file's st_dev to no disk under btrfs, ZFS, overlayfs, network and memory file
        # systems alike (set after round 10 was read: r10_swissknife_lvm-nvme-btrfs_…, btrfs on dm-3 over nvme1n1, JE)
        windows = targets.str.contains(r"^[A-Za-z]:|\\", regex=True).any()  # fio on Windows keeps no disk stats
        if fmt.str.startswith("fio-json").all() and (devs == "").all() and len(targets) and not windows \
                and not targets.str.startswith("/dev/").any():
            return Fact("layer", {"layer": "unknown", "devices": [], "targets": sorted(set(targets))[:3]},
                        "fio's disk statistics list no block device under the files the jobs used")
    bps = p["bytes_per_s"].to_numpy(float)
    # normal output echoes no filename=: fio's disk stats still count them (a stacked device and its drive once)
    targets = parallel_targets(rows)
    counted = any(col in rows and pd_num(rows[col]).notna().any() for col in ("targets", "device_count"))
    top = link_limit()
    if np.isfinite(bps).any() and np.nanmax(bps) / max(targets, 1.0) > top[0]:
        # an empty count is no count of one: several drives striped or side by side carry more than one link, so
        # without a count no drive is excluded (set after round 15 was read: TA, r15_wickist-rcraid md RAID0 of
        # 4×990 PRO, 27.7 GB/s said "per target" and "no drive-level limit explains them")
        return Fact("layer", {"layer": "beyond_device", "limit": top[0], "gen": top[1], "counted": counted,
                              "per_target": float(np.nanmax(bps) / max(targets, 1.0))},
                    f"more bytes per second {'per target ' if counted else ''}than a Gen{top[1]} x4 link carries")
    mapper = mapper_targets(rows)  # a device-mapper target, no member listed (round 21, WD)
    if mapper:
        return Fact("layer", {"layer": "dm", "devices": [], "targets": mapper, "mapper": True},
                    f"the jobs' target{'s' if len(mapper) > 1 else ''} {', '.join(mapper)} "
                    f"{'are device-mapper volumes' if len(mapper) > 1 else 'is a device-mapper volume'}")
    return None


def _bypass(rows, engines: set) -> Fact | None:
    """The layer fact of runs whose engine (:data:`~nvmemodel.jobs.fiooptions.BYPASS_ENGINES`) or target (an NVMe or
    SCSI generic character node, an SPDK transport ID) goes around the page cache and the block layer, when fio's disk
    statistics name no device: the engine explains the empty statistics, once (round 13, QB and PA)."""
    if not engines:
        return None
    targets = rows["target_names"].dropna().astype(str) if "target_names" in rows else None
    char = targets is not None and len(targets) and targets.str.contains(PASSTHROUGH_TARGET, regex=True).all()
    if not (engines <= BYPASS_ENGINES or char):
        return None
    if "devices" in rows and rows["devices"].astype(object).fillna("").astype(str).ne("").any():
        return None
    engine = ", ".join(sorted(engines))
    return Fact("layer", {"layer": "bypass", "devices": [], "engine": engine,
                          "user_space": engines <= {"spdk", "spdk_bdev"}},
                f"fio's {engine} engine reaches the device around the kernel's block layer")


def _cache_served(result, p, layer: Fact | None) -> Fact | None:
    """Points whose reads completed faster than any drive can serve them through the path the files name: a direct
    (``direct`` not 0) read at one I/O in flight per job (any number of jobs) whose median (else mean) latency is at
    or below :data:`READ_FLOOR_S` through a layer that adds a round trip (a VM's disk, a network, a loop image, device-mapper, md), or below
    :data:`BARE_SHARE` of it with no layer named. The verdict is the series': every point (one way for every run —
    one loop image, or no device — with every run's reads reaching it where fio counts them), else only points far
    from the rest (≥ 2× the floor apart: blind5's kvm1 guest, 5 µs at 4 KiB through dm-0 over vda between 310 and
    486 µs, part 2 #9), which are left out of the size and CPU comparisons; else none. Memory-backed devices and
    engines (``ram*``, ``nullb*``, ``pmem*``, the null and mmap engines …) have no floor."""
    from .claim import runs_rows
    from .curves import synchronous

    rows = runs_rows(result, p)
    if rows is None or not len(rows) or result.x not in rows or "direction" not in rows:
        return None
    if layer is not None and layer.facts.get("layer") in ("page_cache", "beyond_device", "none"):
        return None  # buffered I/O is the page cache's already; beyond a link: the layer fact says it
    if "ioengine" in rows and rows["ioengine"].dropna().astype(str).isin(NO_FLOOR_ENGINES).any():
        return None
    if "devices" in rows and any(re.match(MEMORY_DEVICES, d) for d in listed_devices(rows)):
        return None
    r = rows[rows["direction"].astype(str) == "read"]
    if "direct" in r:
        d = r["direct"]
        r = r[~(d.notna() & ~d.astype(object).fillna(True).astype(bool))]  # direct=0 rows: the page cache's
    if not len(r) or "numjobs" not in r:
        return None
    depth = pd_num(r["iodepth"]) if "iodepth" in r else None
    sync = synchronous(r)
    # one I/O in flight per job, however many jobs: each job's latency is one read's (set after round 14 was read:
    # r14_here-nrreq_loop-nrreq4_psync_randread_numjobs, 4.6-7.4 µs medians at every numjobs, numjobs = 1 alone
    # flagged, SC)
    one = (depth == 1) | sync if depth is not None else sync
    r = possible_percentiles(r[one.fillna(False).astype(bool)])
    lat, how = None, ""
    for col, what in (("lat_p50_s", "median"), ("clat_p50_s", "median"), ("lat_mean_s", "mean"),
                      ("clat_mean_s", "mean")):
        if col in r and pd_num(r[col]).notna().any():
            lat, how = pd_num(r[col]), what
            break
    if lat is None:
        return None
    if col.startswith("clat_") and "slat_mean_s" in r and pd_num(r["slat_mean_s"]).notna().any():
        # a drive's figure is the whole read: completion leaves out fio's submission, ≈ 3 µs through libaio (set
        # after round 12 was read: r12_here-sched_loop-bfq_libaio_randread_iodepth_repeats, NE, 4.70 µs + 3.53 µs)
        lat, how = lat + pd_num(r["slat_mean_s"]).fillna(0.0), f"{how} completion + mean submission"
    layered = layer is not None and layer.facts.get("layer") not in ("unknown", "bypass")  # no layer's round trip
    floor = (CLEAR if layered else BARE_SHARE) * READ_FLOOR_S
    per_x = lat.groupby(pd_num(r[result.x])).median()
    hits = [(float(x), float(v)) for x, v in per_x.items() if np.isfinite(v) and (v <= floor if layered else v < floor)]
    if not hits:
        return None
    from .claim import stated

    direct = bool("direct" in r and stated(r, "direct").notna().all() and r["direct"].astype(bool).all())
    # the verdict is the series', not each point's against a threshold: where every run went one way — the same loop
    # image beneath (a loop device's backing is one file), or no device at all — and fio's disk statistics, where
    # they count, show every read run's reads reaching it, the fastest reads say what that way is, and every point
    # was served by it (set after round 15 was read: r15_here-ext4 nrfiles32 numjobs, 4.70-5.09 µs medians over
    # loop0 at every numjobs, numjobs = 4 left "device" at 5.09 µs, UD); a path that is a VM's disk or a drive may
    # hit a cache in one run only (r5_nknytk kvm1: 4 KiB 5 µs between 310 and 486 µs at 512 B and 32 KiB)
    devs = rows["devices"].astype(object).fillna("").astype(str) if "devices" in rows else None
    one_way = devs is not None and devs.nunique() == 1 and (layer is not None and layer.facts.get("layer") == "loop"
                                                         or devs.iloc[0] == "")
    counts = pd_num(r["disk_read_ios"]) if "disk_read_ios" in r else None
    if one_way and counts is not None and counts.notna().any():
        one_way = bool(counts.notna().all() and (counts > 0).all())
    rest = per_x[~per_x.index.isin([h[0] for h in hits])].dropna()
    every = one_way or len(hits) >= len(p)
    if not every and not (rest > 2 * floor).all():
        return None  # a threshold's hair between points of one path the files do not show: none is said to be served
    pts = [min(hits, key=lambda h: h[1])] if every else hits  # kvm1's 4 KiB alone: a cache hit in that run only
    return Fact("cache", {"points": [(x, v, how) for x, v in pts], "floor_s": floor, "direct": direct, "every_point": every,
                          "device_floor_s": READ_FLOOR_S, "layered": layered,
                          "reads": (float(counts.min()), float(counts.max()))
                          if counts is not None and counts.notna().any() and one_way else None,
                          "path": list(layer.facts.get("all_devices") or layer.facts.get("devices") or [])
                          if layer is not None else []},
                f"a direct read at one I/O in flight with a {how} latency "
                f"{'at or below' if layered else 'below'} {floor * 1e6:g} µs")


def _shared_between_hosts(rows) -> Fact | None:
    """A network file system, from what any tool's results say: every run was driven from several client hosts at
    once (a ``hosts`` count > 1: elbencho ``--hosts``, a multi-client run) against one path that is not a block
    device node, and no local block device is recorded under it. One namespace written from several machines at
    once is shared storage reached over the network (NFS, Lustre, a burst buffer …); several hosts each testing
    their own disk record that disk (fio's disk statistics) or a ``/dev`` path, and are left alone."""
    if "hosts" not in rows:
        return None
    hosts = pd_num(rows["hosts"])
    if not (hosts.notna().all() and (hosts > 1).all()):
        return None
    col = next((c for c in ("target_names", "path", "filename") if c in rows), None)
    paths = sorted(set(rows[col].dropna().astype(str))) if col else []
    devs = rows["devices"].astype(object).fillna("").astype(str) if "devices" in rows else None
    if len(paths) != 1 or paths[0].startswith("/dev/") or (devs is not None and (devs != "").any()):
        return None
    tool = ""
    if "tool" in rows:
        tools = set(rows["tool"].dropna().astype(str))
        tool = tools.pop() if len(tools) == 1 else ""
    n = int(hosts.min()) if hosts.min() == hosts.max() else None
    who = f"{n} client hosts" if n else f"{int(hosts.min())}–{int(hosts.max())} client hosts"
    return Fact("layer", {"layer": "network_fs", "devices": [], "targets": paths, "hosts": float(hosts.max()),
                          "tool": tool},
                f"{who} drove every run{f' ({tool})' if tool else ''} against one path, {paths[0]}, with no local "
                f"block device recorded")


def total_latency(result, p) -> bool:
    """Whether the curve's mean latency is fio's total one (submission + completion: ``lat_mean_s`` in every run,
    read from fio's own output). A completion latency leaves out the submission, and a table typed from text may
    hold either under "Lat=": IOPS × such a latency ÷ outstanding I/O is no in-flight share, and no cause is read
    from it (set after round 13 was read: r13_cephpr27392 iouring/libaio bs, PC: "only 60 % were in flight … what
    submits the I/O held it" from a latency whose kind the source does not state)."""
    from .claim import runs_rows

    rows = runs_rows(result, p) if "sources" in p else None
    if rows is None or not len(rows) or "lat_mean_s" not in rows or pd_num(rows["lat_mean_s"]).isna().any():
        return False
    return not ("format" in rows and (rows["format"].astype(object).fillna("").astype(str) == "transcribed").any())


def pd_num(s):
    import pandas as pd

    return pd.to_numeric(s, errors="coerce")


def link_limit() -> tuple[float, int]:
    """The bytes per second one direction of an x4 link of the newest PCIe generation among the catalogued drives
    carries after encoding (protocol overhead only lowers it), and that generation."""
    from ..standards import pcie as sp
    from ..topology.drive import drive_catalog

    gen = int(max(d.gen for d in drive_catalog().values()))
    return float(4 * sp.GT_PER_S[gen] * 1e9 * sp.ENCODING[gen] / 8.0), gen


def model_trust(result, key) -> Fact | None:
    """Whether the chosen model describes the points well enough for its parameters to be read."""
    model = result.chosen[key]
    r2, worst, ok = _fit_misses(result.fits[key][model])
    return Fact("model", {"name": model, "r2": r2, "max_miss": worst, "interpreted": ok},
                f"R² ≥ {TRUST_R2} and no point missed by more than {TRUST_MISS:.0%}")


#: facts of each result's curves (id(result) → {key: CurveFacts}), dropped with the result
_FACTS: dict = {}


def curve_facts(result, key) -> CurveFacts:
    """Every fact of one curve (computed once per result and curve)."""
    from .claim import curve_evidence, result_cache

    cache = result_cache(_FACTS, result)
    if key in cache:
        return cache[key]

    p = _points(result, key)
    try:
        ev = curve_evidence(result, key)[0]
    except Exception:  # a curve the evidence cannot test (one point): the facts stand on the steps alone
        ev = None
    if ev is not None and len(ev.x) != len(p):
        ev = None
    sat = _saturation(result, p, ev, key)
    if sat is not None:
        sat.facts["key"] = tuple(key)  # (the curve's rows in the table, for the per-direction words)
    layer = _layer(result, p)
    fast = _cache_served(result, p, layer)
    p_sizes = p
    if fast is not None and not fast.facts["every_point"]:  # a cache hit in some runs is left out of the comparisons
        served = np.isin(p["x"].to_numpy(float), [c[0] for c in fast.facts["points"]])
        p.loc[served, "cpus"] = np.nan
        p_sizes = p[~served].reset_index(drop=True)
    cap, outstanding = _cap(result, key, p_sizes)
    mix = _mix(result, p)
    cpu = _cpu_of(result, key, p, sat, cap)
    out = CurveFacts(points=p, saturation=sat, cap=cap, outstanding=outstanding, mix=mix, cpu=cpu,
                     layer=layer, trust=model_trust(result, key) if result.chosen.get(key) else None,
                     size_fall=_size_fall(result, p_sizes, cap) if cap is None or not cap.facts["bytes_cap"] else None,
                     cache=fast, one_stream=one_stream(result, key, p_sizes),
                     small_sizes=small_sizes(result, key, p_sizes, cap), merged=_merged(result, p, sat),
                     split=_split(result, p))
    cache[key] = out
    return out


def _merged(result, p, sat) -> Fact | None:
    """fio's I/Os per device I/O where the block layer merged them (:func:`~nvmemodel.fitting.merges.merge_facts`)."""
    from .claim import runs_rows
    from .merges import MERGED, merge_facts

    m = merge_facts(runs_rows(result, p), p, sat.facts["state"] if sat is not None else None)
    return None if m is None else Fact("merged", m, f"fio's disk statistics count more than {MERGED:g} fio "
                                                    f"{m['direction']}s per {m['device']} {m['direction']}")


def _split(result, p) -> Fact | None:
    """Several device I/Os per fio I/O from some size on: the block layer split them
    (:func:`~nvmemodel.fitting.merges.split_facts`; round 20, RD)."""
    from .claim import runs_rows
    from .merges import SPLIT, split_facts

    m = split_facts(runs_rows(result, p), p)
    return None if m is None else Fact("split", m, f"fio's disk statistics count at least {SPLIT:g} times as many "
                                                   f"{m['device']} {m['direction']}s per fio {m['direction']} at the "
                                                   f"larger sizes as at the smaller")


def pinned_cpus(rows) -> tuple[int, str] | None:
    """(how many CPUs, fio's spec) where every run states one ``cpus_allowed`` (not one the reader filled in): the
    CPUs fio's jobs could run on. None otherwise."""
    if rows is None or not len(rows) or "cpus_allowed" not in rows:
        return None
    from ..ingest.fio_options import allowed_cpu_count
    from .claim import stated

    specs = stated(rows, "cpus_allowed")
    if not specs.notna().all() or specs.astype(str).str.strip().nunique() != 1:
        return None
    n = allowed_cpu_count(str(specs.iloc[0]).strip())
    return (n, str(specs.iloc[0]).strip()) if n is not None else None


def _cpu_of(result, key, p, sat, cap):
    from .claim import _machine_cpu, _pts, runs_rows

    if "cpus" not in p or _machine_cpu(_pts(result, key)):
        return None
    engine, cores = "", None
    rows = runs_rows(result, p)
    if rows is not None and "ioengine" in rows:
        names = set(rows["ioengine"].dropna().astype(str))
        engine = names.pop() if len(names) == 1 else ""
    topo = result.setup(key)[0]
    host = getattr(topo, "host", None)
    if host is not None:
        why = str(getattr(host, "provenance", {}).get("cores_per_socket", ""))
        if not why.startswith(("assumption", "estimate")):  # an assumed count decides nothing about this machine
            cores = int(host.sockets * host.cores_per_socket)
    # fio's cpus_allowed, stated alike in every run, is the set of CPUs the jobs could run on: its count bounds
    # their summed CPU whatever the host has (set after round 11 was read: r11_here-pin_tmpfs_psync_1cpu_…, KD)
    pin = ""
    allowed, spec = pinned_cpus(rows) or (None, "")
    if allowed is not None and (cores is None or allowed < cores):
        cores, pin = allowed, spec
    from ..hostcal.costs import polls_at

    xs = p["x"].to_numpy(float)
    from ..hostcal.costs import SQPOLL, unseen_work

    # every run's I/O submitted by a kernel thread fio does not count, its job spinning on the ring: no CPU per I/O,
    # kernel share or CPU verdict anywhere on the curve (set after round 18 was read: r18_msf2fsbench zn540 4klbaf
    # and 512lbaf qd1 zones-numjobs, a CPU per I/O ×7.16 and "0.0067 % of it in the kernel", QB)
    unseen = unseen_work(rows) == SQPOLL
    polls = [SQPOLL] * len(xs) if unseen else polls_at(rows, result.x, xs)
    return _cpu_fact(result, p, sat, cap, engine, cores, _most_cpus_seen(result), polls, pin, unseen)


def _most_cpus_seen(result) -> tuple | None:
    """(CPUs, where) — the most CPUs fio's jobs used at any point of this result, a floor on the host's count when
    every curve ran on one host (no two hostnames recorded, no curve per host); else None."""
    pts, tbl = result.points, result.table
    if "cpus" not in pts or not pts["cpus"].notna().any() or any("host" in str(b).lower() for b in result.by):
        return None
    if tbl is not None and "hostname" in tbl and tbl["hostname"].dropna().astype(str).nunique() > 1:
        return None
    i = pts["cpus"].astype(float).idxmax()
    where = ", ".join(f"{b} = {pts.loc[i, b]}" for b in result.by) + (", " if result.by else "") \
        + f"{result.x} = {pts.loc[i, result.x]:g}"
    return float(pts.loc[i, "cpus"]), where
