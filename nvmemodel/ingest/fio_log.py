"""fio per-interval logs (``write_bw_log``, ``write_iops_log``, ``write_lat_log``) as a time series.

Each line is ``time (ms), value, direction (0 read, 1 write, 2 trim), block size[, offset][, prio]``.
What the value *is* is not in the file: fio names the file for it (``<prefix>_bw.<job>.log``,
``_iops``, ``_clat``, ``_slat``, ``_lat``), so the kind comes from the name unless given.
Units: bandwidth KiB/s, latency ns (fio >= 3; µs before — pass ``latency_unit="us"``),
IOPS per interval. With ``log_avg_msec`` each line is an interval average (block size 0);
without it each line is one I/O.
"""

from __future__ import annotations

import math
import pathlib
import re

import numpy as np

from ..errors import IngestError

__all__ = ["read_fio_log", "read_fio_logs", "merge_fio_logs"]

_NAME = re.compile(r"_(?P<kind>bw|iops|clat|slat|lat)\.(?P<job>\d+)\.log$")
_DIRECTION = {0: "read", 1: "write", 2: "trim"}
_LAT_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3}


def looks_like_fio_log(head: str) -> bool:
    lines = [ln for ln in head.splitlines()[:3] if ln.strip()]
    return bool(lines) and all(re.match(r"^\s*\d+,\s*-?\d+,\s*\d+,\s*\d+", ln) for ln in lines) \
        and len(lines[0].split(",")) <= 8


def read_fio_log(path, *, kind: str | None = None, latency_unit: str = "ns"):
    """One fio log file as a tidy DataFrame.

    Columns: ``time_s``, ``kind`` (bw/iops/clat/slat/lat), ``job`` (the log's job number),
    ``direction``, ``value`` (SI: bytes/s for bw, I/O per interval-second for iops, seconds
    for latencies), ``block_size_bytes`` (0 when averaged), ``source_path``.
    """
    import pandas as pd

    path = pathlib.Path(path)
    m = _NAME.search(path.name)
    if kind is None:
        if m is None:
            raise IngestError(path, "cannot tell what this fio log measures: expected a name like "
                                    "'<prefix>_bw.1.log' (bw, iops, clat, slat, lat) or pass kind=")
        kind = m["kind"]
    if kind not in ("bw", "iops", "clat", "slat", "lat"):
        raise IngestError(path, f"kind={kind!r}: expected bw, iops, clat, slat or lat")
    if latency_unit not in _LAT_UNITS:
        raise IngestError(path, f"latency_unit={latency_unit!r}: expected ns, us or ms")
    try:
        data = np.loadtxt(path, delimiter=",", usecols=(0, 1, 2, 3), ndmin=2, dtype=float)
    except (ValueError, OSError) as exc:
        raise IngestError(path, f"not a fio log (time, value, direction, block size per line): {exc}") from None
    if data.size and (np.isnan(data).any() or (data[:, [0, 1, 3]] < 0).any()):
        raise IngestError(path, "negative or NaN time, value or block size: expected counts >= 0")
    scale = {"bw": 1024.0, "iops": 1.0}.get(kind, _LAT_UNITS[latency_unit])
    dirs = data[:, 2].astype(int)
    bad = ~np.isin(dirs, list(_DIRECTION))
    if bad.any():
        raise IngestError(path, f"line {int(np.argmax(bad)) + 1}: direction {dirs[bad][0]}: expected 0, 1 or 2")
    return pd.DataFrame({
        "time_s": data[:, 0] / 1000.0, "kind": kind, "job": int(m["job"]) if m else 0,
        "direction": [_DIRECTION[d] for d in dirs], "value": data[:, 1] * scale,
        "block_size_bytes": data[:, 3], "source_path": str(path),
    })


def read_fio_logs(paths, *, latency_unit: str = "ns"):
    """Several fio logs concatenated (see :func:`read_fio_log`)."""
    import pandas as pd

    frames = [read_fio_log(p, latency_unit=latency_unit) for p in paths]
    if not frames:
        raise IngestError("(no files)", "no fio log files given")
    return pd.concat(frames, ignore_index=True)


def merge_fio_logs(frame, *, bin_s: float | None = None):
    """Merge the jobs' logs into one time series per (kind, direction).

    Samples are put in bins of ``bin_s`` seconds (default: the median spacing of the first
    job's samples, i.e. ``log_avg_msec``); bandwidth and IOPS add across jobs (mean within a
    job's bin first), latencies are averaged. Returns columns ``time_s`` (bin start), ``kind``,
    ``direction``, ``value``, ``jobs`` (how many jobs contributed).
    """
    if frame.empty:
        return frame.assign(jobs=[])
    if bin_s is None:
        t = np.sort(frame.loc[frame["job"] == frame["job"].iloc[0], "time_s"].unique())
        bin_s = float(np.median(np.diff(t))) if t.size > 1 else 1.0
    if not (bin_s > 0 and math.isfinite(bin_s)):
        raise IngestError("(merge)", f"bin_s={bin_s!r}: expected a positive number of seconds")
    f = frame.assign(time_s=np.floor(frame["time_s"] / bin_s + 1e-9) * bin_s)
    per_job = f.groupby(["kind", "direction", "time_s", "job"], as_index=False)["value"].mean()
    additive = per_job["kind"].isin(["bw", "iops"])
    summed = per_job[additive].groupby(["kind", "direction", "time_s"], as_index=False) \
        .agg(value=("value", "sum"), jobs=("job", "nunique"))
    averaged = per_job[~additive].groupby(["kind", "direction", "time_s"], as_index=False) \
        .agg(value=("value", "mean"), jobs=("job", "nunique"))
    import pandas as pd

    return pd.concat([summed, averaged], ignore_index=True).sort_values(["kind", "direction", "time_s"],
                                                                        ignore_index=True)
