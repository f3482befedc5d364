"""fio's I/Os against the I/Os the device beneath completed (fio's disk statistics): where the block layer merged.

fio's JSON, terse and normal output list, per device under the job's files, the read and write requests the
device completed (``disk_read_ios``, ``disk_write_ios``: /sys/block/<dev>/stat deltas). fio samples them from
the moment it sets the job's files up to its end (``init_disk_util`` in backend.c, ``update_io_tick_disk`` in
diskutil.c; nothing resets them when ``ramp_time`` ends), while its own I/O count (``ios``) starts after the ramp.
So the device's count covers more time than fio's: fio's I/Os ÷ the device's is at most the true ratio over fio's
runtime, fio's bytes ÷ the device's I/Os at most the true mean device I/O size, and the device's I/Os ÷ fio's
runtime at least its true rate. Those bounds go one way only: a ratio above :data:`MERGED` proves that the block
layer merged fio's I/Os (the ramp cannot raise it), and a ratio near 1 proves nothing about merging (a ramp of a
third of the runtime lowers a true 1.33 to 1), so nothing is said of it.

Read only where the comparison is one device against one job's direction: direct I/O (buffered I/O goes through
the page cache, whose write-back and read-ahead also change the device's count), every run one direction, one
device named in every run (a stack's devices would count each request once per layer), and each report one
configuration with a device count above 0 (set after round 18 was read: r18_msf2fsbench_zn540-zns-512lbaf …
1zone_qd, 95 fio writes per device write from iodepth 256 while the explanation read 252 K "IOPS" as the
device's; r18_msf2fsbench … 4klbaf … zones-numjobs, 5.29 → 0.97 fio writes per device write while fio's rate fell
43 %, QC).
"""

from __future__ import annotations

import numpy as np

__all__ = ["MERGED", "OTHER", "SPLIT", "merge_facts", "other_direction", "split_facts"]

#: more fio I/Os than this per device I/O: the block layer merged them (the device's count includes any ramp, so
#: the ratio is a lower bound and this margin is the only one needed)
MERGED = 2.0
#: device I/Os per fio I/O at least this many times the unsplit sizes' count: the block layer split fio's I/Os
SPLIT = 1.5
#: where the files do not record ``direct``, every run of the unsplit sizes must count one device I/O per fio I/O
#: within this share (as direct I/O gives: page-cache hits would lower it, read-ahead change it)
ONE_EACH = 0.05
#: device I/Os of the direction the jobs did not do, per fio I/O, from which that device work is said (round 19, UC)
OTHER = 0.1
#: two runs whose runtimes differ by less than this share counted their device I/Os over the same time
SAME_RUNTIME = 0.01


def _num(rows, col):
    import pandas as pd

    return pd.to_numeric(rows[col], errors="coerce")


def _report(g, col: str) -> tuple | None:
    """(fio I/Os, device I/Os, fio bytes, runtime) of one report's rows, or None where its count is not one run's."""
    dev = _num(g, col).dropna().unique()
    ios = _num(g, "ios")
    keys = [c for c in ("block_size_bytes", "iodepth", "numjobs") if c in g]
    if dev.size != 1 or not dev[0] > 0 or not ios.notna().all() or not ios.sum() > 0 \
            or any(g[k].nunique(dropna=False) > 1 for k in keys):
        return None  # (several stonewalled groups of one report share one count)
    size = _num(g, "io_bytes").sum(min_count=1) if "io_bytes" in g else np.nan
    if not np.isfinite(size) and "block_size_bytes" in g:
        size = float((ios * _num(g, "block_size_bytes")).sum(min_count=1))
    run = _num(g, "runtime_s").max() if "runtime_s" in g else np.nan
    return float(ios.sum()), float(dev[0]), float(size), float(run)


def _one_device(rows) -> tuple | None:
    """(the rows without aggregates, their one direction, the one device every run names, the rows by source file),
    or None where the runs are not one direction (read or write) against one device (a stack's devices would count
    each request once per layer)."""
    if "is_aggregate" in rows:
        rows = rows[~rows["is_aggregate"].astype(object).map(lambda v: str(v).strip().lower() in ("true", "1"))]
    dirs = set(rows["direction"].astype(str))
    if len(dirs) != 1 or not dirs <= {"read", "write"}:
        return None
    devs = rows["devices"].astype(object)
    names = set(devs.astype(str))
    if not devs.notna().all() or len(names) != 1 or ";" in next(iter(names)) or not next(iter(names)):
        return None
    by_src = {s: g for s, g in rows.groupby(rows["source_path"].astype(str), sort=False)}
    return rows, dirs.pop(), next(iter(names)), by_src


def merge_facts(rows, points, state: str | None = None) -> dict | None:
    """fio's I/Os per device I/O at each point (the median of its reports), where the device merged some: ``None``
    unless the comparison is unambiguous (module docstring) and some point's ratio is above :data:`MERGED`.

    ``rows`` are the table's rows of the curve's runs (``claim.runs_rows``), ``points`` the curve's points (their
    ``x`` and ``sources``), ``state`` the saturation fact's. Where the curve falls (``state == "falls"``) and the
    peak point merged, ``fall`` compares the peak's run with the last one's (same runtime only): fio's I/Os, the
    device's, and the ratio at both."""
    if rows is None or not len(rows):
        return None
    need = {"source_path", "direction", "ios", "direct", "devices"}
    if not need <= set(rows.columns):
        return None
    one = _one_device(rows)
    if one is None:
        return None
    rows, d, device, by_src = one
    col = f"disk_{d}_ios"
    direct = rows["direct"].astype(object).map(lambda v: str(v).strip().lower() in ("true", "1", "1.0"))
    if col not in rows or not direct.all():
        return None
    per = []
    for srcs in points["sources"].astype(str):
        reps = [_report(by_src[s], col) if s in by_src else None for s in srcs.split(";") if s]
        if not reps or any(r is None for r in reps):
            return None
        fio, dev, size, run = (np.array(v, float) for v in zip(*reps))
        per.append((float(np.median(fio / dev)), float(np.median(fio)), float(np.median(dev)),
                    float(np.median(size / dev)), float(np.median(dev / run)), float(np.median(run)),
                    float(np.median(size / fio))))
    ratio, fio, dev, dev_size, dev_rate, run, fio_size = (np.array(v, float) for v in zip(*per))
    merged = ratio > MERGED
    if not merged.any():
        return None
    xs = points["x"].to_numpy(float)
    most = int(np.argmax(ratio))
    out = {"direction": d, "device": device, "x": xs.tolist(), "ratio": ratio.tolist(),
           "fio_ios": fio.tolist(), "device_ios": dev.tolist(), "device_size_lo": dev_size.tolist(),
           "device_rate_hi": dev_rate.tolist(), "runtime_s": run.tolist(), "fio_size": fio_size.tolist(),
           "first_merged": int(np.flatnonzero(merged)[0]), "most": most, "merged": int(merged.sum()), "fall": None}
    if state == "falls":
        k, j = int(np.argmax(points["y"].to_numpy(float))), len(xs) - 1
        if j > k and merged[k] and np.isfinite(run[[k, j]]).all() and abs(run[j] / run[k] - 1) < SAME_RUNTIME:
            out["fall"] = {"from": k, "to": j}
    return out


def other_direction(rows, points) -> dict | None:
    """The device's I/Os of the direction the jobs did not do (reads under a write-only job, writes under a
    read-only one) per fio I/O at each point (the median of its reports), where that work is clear and grew with the
    load: at least :data:`OTHER` per fio I/O at the last point and more there than at the first; ``None`` otherwise
    or where the comparison is not one device against one direction (as :func:`merge_facts`, buffered I/O allowed:
    the page cache's own reads and write-back are what this reads; set after round 19 was read:
    r19_here-mmapw_ext4-on-loop … numjobs, 0.05 → 1.04 loop0 reads per fio write of a write-only mmap job, every
    page of the files read in, while the explanation blamed a CPU quota or a busy host, UC).

    The device's count spans the whole job and fio's only its runtime, so the ratio is at most the true one over
    fio's runtime; the pairs of a write-only job against a ``disk_read_ios`` of 0 give 0 and nothing is said."""
    if rows is None or not len(rows) or not {"source_path", "direction", "ios", "devices", "disk_read_ios",
                                             "disk_write_ios"} <= set(rows.columns) or "sources" not in points:
        return None
    one = _one_device(rows)
    if one is None:
        return None
    rows, d, device, by_src = one
    o = "read" if d == "write" else "write"
    per = []
    for srcs in points["sources"].astype(str):
        r = []
        for s in (s for s in srcs.split(";") if s):
            g = by_src.get(s)
            if g is None:
                return None
            dev, ios = _num(g, f"disk_{o}_ios").dropna().unique(), _num(g, "ios")
            if dev.size != 1 or not dev[0] >= 0 or not ios.notna().all() or not ios.sum() > 0:
                return None
            r.append(float(dev[0]) / float(ios.sum()))
        if not r:
            return None
        per.append(r)
    ratio = np.array([float(np.median(r)) for r in per])
    if not (ratio[-1] >= OTHER and ratio[-1] > ratio[0]):
        return None
    return {"direction": d, "other": o, "device": device, "ratio": ratio.tolist(),
            "runs_last": (min(per[-1]), max(per[-1])), "x": points["x"].to_numpy(float).tolist()}


def split_facts(rows, points) -> dict | None:
    """Device I/Os per fio I/O at each point (the median of its reports) where, from some I/O size on, the device
    completed several I/Os for each of fio's: the block layer split them (a request-size limit of the device's queue
    such as ``max_sectors_kb``, the device's MDTS, a chunk boundary). ``None`` unless the comparison is unambiguous.

    Set after round 20 was read (r20_nerdst_nvme-p7_randread_qd1_bs, RD): 1.99 device reads per fio read at 256 KiB
    against 1.00 at 4–128 KiB, so at one I/O outstanding in fio the drive had two reads in flight — why 256 KiB reads
    took no longer than 128 KiB ones and bytes/s doubled — while the explanation read fio's latency as one read's.

    The guards are :func:`merge_facts`' (one direction, one device named in every run, each report one
    configuration), and: direct I/O — or, where the files do not record ``direct``, every run of the unsplit sizes
    counting one device I/O per fio I/O within :data:`ONE_EACH` (no page-cache hit or read-ahead changed the count
    there); no point below one device I/O per fio I/O (merging); the points split into the smaller sizes, each about
    one device I/O (below :data:`SPLIT`), and the larger sizes, at least :data:`SPLIT` times the smaller sizes'
    highest count — nothing in between. The device's count includes any ramp_time and fio's does not, so a point's
    ratio is an upper bound of the true one; divided by the unsplit sizes' highest ratio (the same ramp share at every
    point, one device I/O per fio I/O there) it gives a lower one. Both are kept (``lo``, ``hi``)."""
    if rows is None or not len(rows) or "sources" not in points:
        return None
    if not {"source_path", "direction", "ios", "devices"} <= set(rows.columns):
        return None
    one = _one_device(rows)
    if one is None:
        return None
    rows, d, device, by_src = one
    col = f"disk_{d}_ios"
    if col not in rows:
        return None
    import pandas as pd

    given = rows["direct"].astype(object) if "direct" in rows else pd.Series([None] * len(rows), index=rows.index)
    recorded = bool(given.notna().all())
    if recorded and not given.map(lambda v: str(v).strip().lower() in ("true", "1", "1.0")).all():
        return None
    if not recorded and given.notna().any():
        return None  # direct recorded for some runs only
    per, runs = [], []
    for srcs in points["sources"].astype(str):
        reps = [_report(by_src[s], col) if s in by_src else None for s in srcs.split(";") if s]
        if not reps or any(r is None for r in reps):
            return None
        fio, dev, size, run = (np.array(v, float) for v in zip(*reps))
        per.append((float(np.median(dev / fio)), float(np.median(size / fio))))
        runs.append(dev / fio)
    ratio, size = (np.array(v, float) for v in zip(*per))
    if ratio.size < 3 or not np.isfinite(ratio).all() or not np.isfinite(size).all() or ratio.min() < 1 - ONE_EACH:
        return None
    low = ratio < SPLIT * ratio.min()
    base = float(ratio[low].max())
    split = ratio >= SPLIT * base
    if base >= SPLIT or not split.any() or not (low | split).all() or size[split].min() <= size[low].max():
        return None
    if not recorded and not all(np.all(np.abs(runs[i] - 1) <= ONE_EACH) for i in np.flatnonzero(low)):
        return None
    first = int(np.flatnonzero(split)[np.argmin(size[split])])
    below = int(np.flatnonzero(low)[np.argmax(size[low])])
    return {"direction": d, "device": device, "x": points["x"].to_numpy(float).tolist(), "ratio": ratio.tolist(),
            "fio_size": size.tolist(), "split": split.tolist(), "base": base,
            "base_lo": float(ratio[low].min()), "lo": (ratio / max(base, 1.0)).tolist(), "hi": ratio.tolist(),
            "first": first, "below": below, "direct": recorded}
