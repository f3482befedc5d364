"""fio per-interval logs (``write_bw_log``, ``write_iops_log``, ``write_lat_log``) as a time series.

Each line is ``time (ms), value, direction (0 read, 1 write, 2 trim), block size[, offset][, prio]``.
What the value *is* is not in the file: fio names the file for it (``<prefix>_bw.<job>.log``,
``_iops``, ``_clat``, ``_slat``, ``_lat``), so the kind comes from the name unless given.
Units: bandwidth KiB/s, IOPS per interval; latency in µs up to fio 2.21 and in ns from fio 2.99/3.0
(fio's "nsec" branch, merged 2017-06-22; fio's HOWTO said "usecs" until fio 3.1), and nothing in a log
says which: the unit comes from ``latency_unit=`` if given, else from the fio version of a result file
beside the log (its folder, else the folder above: a normal report's ``fio-2.2.10`` line, a JSON's
``"fio version"``, a terse line's second field); where neither says, ns is assumed with an
:class:`~nvmemodel.errors.IngestWarning` naming the file (1000× too small if fio < 3 wrote it). With ``log_avg_msec`` each line is an interval average (block size 0);
without it each line is one I/O (IOPS value 1, the I/O's own rate as bandwidth, its size as
block size), and :func:`merge_fio_logs` counts I/Os and bytes per bin instead of adding
values. With ``per_job_logs=0`` all jobs share one file (``<prefix>_bw.log``, job 0).
"""

from __future__ import annotations

import math
import pathlib
import os
import re
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from ..errors import IngestError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["merge_fio_logs", "read_fio_log", "read_fio_logs"]

_NAME = re.compile(r"_(?P<kind>bw|iops|clat|slat|lat)(?:\.(?P<job>\d+))?\.log$")  # no job number: per_job_logs=0
#: fio --write_hist_log files: <prefix>_clat_hist.<job>.log (each line a latency histogram)
_HIST_NAME = re.compile(r"_(?:clat|lat|slat)_hist(?:\.\d+)?\.log$")
_DIRECTION = {0: "read", 1: "write", 2: "trim"}
_LAT_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3}
#: a fio version in a result file: a normal report's version line, a terse line's 2nd field, JSON's "fio version"
_VERSION_IN = re.compile(r'^fio-(\d+)\.(\d+)\S*\s*$|^[2-5];fio-(\d+)\.(\d+)|"fio version"\s*:\s*"fio-(\d+)\.(\d+)',
                         re.MULTILINE)
#: the first fio release that logs latency in ns (fio-2.99, the 3.0 release candidate: merge 22bcb265 "nsec")
_NS_FROM = (2, 99)


def looks_like_fio_log(head: str) -> bool:
    lines = [ln for ln in head.splitlines()[:3] if ln.strip()]
    return bool(lines) and all(re.match(r"^\s*\d+,\s*-?\d+,\s*\d+,\s*\d+", ln) for ln in lines) \
        and len(lines[0].split(",")) <= 8


def _versions_beside(folder: pathlib.Path, seen: dict) -> dict[str, tuple[int, int, str]]:
    """{file: fio version} of the fio result files in ``folder`` (not logs; the first 64 KiB of each)."""
    if folder in seen:
        return seen[folder]
    found: dict[str, tuple[int, int, str]] = {}
    try:
        entries = sorted(folder.iterdir())[:500]
    except OSError:
        entries = []
    for f in entries:
        if f.suffix in (".log", ".png", ".svg", ".gz", ".ods", ".odp") or _NAME.search(f.name):
            continue
        try:
            if not f.is_file():
                continue
            with open(f, encoding="utf-8", errors="replace") as fh:
                head = fh.read(65536)
        except OSError:
            continue
        if m := _VERSION_IN.search(head):
            nums = [int(x) for x in m.groups() if x is not None]
            token = m[0][m[0].index("fio-"):]
            found[f.name] = (nums[0], nums[1], token.split('"')[0].split(";")[0].strip())
    seen[folder] = found
    return found


def _latency_unit(path: pathlib.Path, given: str | None, seen: dict) -> str:
    """The unit of a latency log's values: ``given``, else the one the fio version beside the log implies,
    else ns with a warning (see the module docstring)."""
    from ..errors import IngestWarning

    # the result file of the log's own run where one is named for it: <prefix>.json/.out beside <prefix>_clat.1.log, or
    # randread-4k.out beside the folder randread-4k/ of its logs; else every result file of the nearest folder
    prefix = _NAME.sub("", path.name)
    versions: dict = {}
    for folder, stem in ((path.parent, prefix), (path.parent.parent, path.parent.name)):
        beside = _versions_beside(folder, seen)
        own = {n: v for n, v in beside.items() if n == stem or n.rsplit(".", 1)[0] == stem}
        versions = own or beside
        if versions:
            break
    units = {("ns" if v[:2] >= _NS_FROM else "us") for v in versions.values()}
    said = ", ".join(f"{n}: {v[2]}" for n, v in list(versions.items())[:3]) + (" …" if len(versions) > 3 else "")
    if given is not None:
        if len(units) == 1 and given not in units:
            warnings.warn(f"{path}: latency_unit={given!r}, but the fio output beside it ({said}) says fio "
                          f"{'< 2.99' if 'us' in units else '>= 2.99'}, whose latency logs are in "
                          f"{'µs' if 'us' in units else 'ns'}; the values are read as {given} as asked",
                          IngestWarning, stacklevel=4)
        return given
    if len(units) == 1:
        return units.pop()
    why = (f"the fio output beside it is of releases that log in different units ({said})" if units else
           "no fio result file beside it (its folder or the one above) says which fio wrote it")
    warnings.warn(f"{path}: a latency log does not say its unit (fio up to 2.21 logs µs, fio >= 2.99/3.0 ns) and "
                  f"{why}; read as ns — 1000x too small if fio < 3 wrote it: pass latency_unit='us' or 'ns'",
                  IngestWarning, stacklevel=4)
    return "ns"


def read_fio_log(path: str | os.PathLike, *, kind: str | None = None, latency_unit: str | None = None,
                 _seen: dict | None = None) -> pd.DataFrame:
    """One fio log file as a tidy DataFrame.

    Columns: ``time_s``, ``kind`` (bw/iops/clat/slat/lat), ``job`` (the log's job number),
    ``direction``, ``value`` (SI: bytes/s for bw, I/O per interval-second for iops, seconds
    for latencies), ``block_size_bytes`` (0 when averaged), ``source_path``.

    ``latency_unit`` ("ns", "us" or "ms"): the unit of a latency log's values. None (default): from the
    fio version of a result file beside the log (µs before fio 2.99, ns from it), else ns with an
    :class:`~nvmemodel.errors.IngestWarning` naming the file: the log itself never says.
    """
    import pandas as pd

    path = pathlib.Path(path)
    if _HIST_NAME.search(path.name) or _fields_of_first_line(path) > 8:
        raise IngestError(path, "a fio histogram log (--write_hist_log): each line is a latency histogram (time, "
                                "direction, block size, then its bin counts), not a time series of one value; draw "
                                "the run's latency histogram from its json+ output (nvmemodel plot --histogram "
                                "run.json; read_results tabulates the run's percentiles from it)")
    m = _NAME.search(path.name)
    if kind is None:
        if m is None:
            raise IngestError(path, "cannot tell what this fio log measures: expected a name like "
                                    "'<prefix>_bw.1.log' (bw, iops, clat, slat, lat) or pass kind=")
        kind = m["kind"]
    if kind not in ("bw", "iops", "clat", "slat", "lat"):
        raise IngestError(path, f"kind={kind!r}: expected bw, iops, clat, slat or lat")
    if latency_unit is not None and latency_unit not in _LAT_UNITS:
        raise IngestError(path, f"latency_unit={latency_unit!r}: expected ns, us or ms")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # an empty log (e.g. slat of a sync engine) is no data
            data = np.loadtxt(path, delimiter=",", usecols=(0, 1, 2, 3), ndmin=2, dtype=float)
    except (ValueError, OSError) as exc:
        raise IngestError(path, f"not a fio log (time, value, direction, block size per line): {exc}") from None
    if data.size and (np.isnan(data).any() or (data[:, [0, 1, 3]] < 0).any()):
        raise IngestError(path, "negative or NaN time, value or block size: expected counts >= 0")
    if kind in ("bw", "iops"):
        scale = {"bw": 1024.0, "iops": 1.0}[kind]
    elif not data.size:  # an empty latency log has no value whose unit matters (it is refused or left out later)
        scale = _LAT_UNITS[latency_unit or "ns"]
    else:
        scale = _LAT_UNITS[_latency_unit(path, latency_unit, {} if _seen is None else _seen)]
    dirs = data[:, 2].astype(int)
    bad = ~np.isin(dirs, list(_DIRECTION))
    if bad.any():
        raise IngestError(path, f"line {int(np.argmax(bad)) + 1}: direction {dirs[bad][0]}: expected 0, 1 or 2")
    if m and m["job"]:
        job = int(m["job"])
    else:  # per_job_logs=0: fio writes each job's entries in turn into one file, so its time restarts at a job's
        # start; each restart is the next job (0, 1, …), whose rates add — never one job's samples averaged (QA s25)
        job = np.r_[0, np.cumsum(np.diff(data[:, 0]) < 0)] if len(data) else 0
    return pd.DataFrame({
        "time_s": data[:, 0] / 1000.0, "kind": kind, "job": job,
        "direction": [_DIRECTION[d] for d in dirs], "value": data[:, 1] * scale,
        "block_size_bytes": data[:, 3], "source_path": str(path),
    })


def _fields_of_first_line(path: pathlib.Path) -> int:
    """Comma-separated fields of the file's first line (0 if it cannot be read: the reader says why)."""
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            return fh.readline(65536).count(",") + 1
    except OSError:
        return 0


def read_fio_logs(paths: str | os.PathLike | Iterable[str | os.PathLike], *, kind: str | None = None,
                  latency_unit: str | None = None) -> pd.DataFrame:
    """Several fio logs concatenated (see :func:`read_fio_log`; ``kind`` and ``latency_unit`` apply to every file).

    An empty log (fio writes one for what it did not measure, e.g. the slat log of a synchronous engine) has no
    samples: it is named in an :class:`~nvmemodel.errors.IngestWarning`, and if every log is empty that is an
    :class:`~nvmemodel.errors.IngestError` naming them (QA s25 H32: was an empty table without a word).
    """
    import pandas as pd

    from ..errors import IngestWarning

    if isinstance(paths, (str, os.PathLike)):  # one file
        paths = [paths]
    paths = list(paths)
    seen: dict = {}  # folder → fio versions of the result files in it
    frames = [read_fio_log(p, kind=kind, latency_unit=latency_unit, _seen=seen) for p in paths]
    if not frames:
        raise IngestError("(no files)", "no fio log files given")
    empty = [str(p) for p, f in zip(paths, frames) if f.empty]
    why = "an empty log (fio writes one for a quantity it did not measure, e.g. slat with a synchronous engine)"
    if len(empty) == len(frames):
        more = f" (and {len(empty) - 1} more log(s), all empty)" if len(empty) > 1 else ""
        raise IngestError(empty[0], f"no samples: {why}; expected lines of time, value, direction, block size{more}")
    if empty:
        warnings.warn(f"{len(empty)} fio log(s) with no samples left out: {', '.join(empty[:3])}"
                      f"{' …' if len(empty) > 3 else ''} — {why}", IngestWarning, stacklevel=2)
    return pd.concat([f for f in frames if not f.empty], ignore_index=True)


def _default_bin(frame) -> float:
    first = frame[(frame["job"] == frame["job"].iloc[0]) & (frame["source_path"] == frame["source_path"].iloc[0])]
    if (first["block_size_bytes"] > 0).any():  # one line per I/O: bins of about a tenth of the span
        span = float(frame["time_s"].max() - frame["time_s"].min())
        return max(10.0 ** math.floor(math.log10(span / 8)), 0.001) if span > 0 else 1.0
    t = np.sort(first["time_s"].unique())
    return float(np.median(np.diff(t))) if t.size > 1 else 1.0


def _covered(counted, rows, job, bin_s: float):
    """Per (bin, job) row of ``counted``: whether that job's per-I/O log spans the bin (its first I/O at most a
    tenth of a bin after the bin's start, its last at least nine tenths in)."""
    first = rows.groupby(job)["time_s"].min()
    last = rows.groupby(job)["time_s"].max()
    b = counted["time_s"].to_numpy(dtype=float)
    lo = counted["job"].map(first).to_numpy(dtype=float)
    hi = counted["job"].map(last).to_numpy(dtype=float)
    return (lo <= b + 0.1 * bin_s) & (hi >= b + 0.9 * bin_s)


def merge_fio_logs(frame: pd.DataFrame, *, bin_s: float | None = None) -> pd.DataFrame:
    """Merge the jobs' logs into one time series per (kind, direction).

    Samples are put in bins of ``bin_s`` seconds (default: the median spacing of the first
    job's samples, i.e. ``log_avg_msec``; for per-I/O logs a round tenth of the time span).
    Averaged logs: bandwidth and IOPS add across jobs (mean within a job's bin first).
    Per-I/O logs (block size > 0): IOPS is the I/Os counted in the bin / ``bin_s``, bandwidth
    their bytes / ``bin_s``. Latencies are averaged. Returns columns ``time_s`` (bin start),
    ``kind``, ``direction``, ``value``, ``jobs`` (how many jobs contributed).
    """
    import pandas as pd

    if frame.empty:
        return frame.assign(jobs=[])
    if bin_s is None:
        bin_s = _default_bin(frame)
    if not (bin_s > 0 and math.isfinite(bin_s)):
        raise IngestError("(merge)", f"bin_s={bin_s!r}: expected a positive number of seconds")
    job = frame["source_path"].astype(str) + "#" + frame["job"].astype(str)
    per_io = (frame["block_size_bytes"] > 0).to_numpy()
    t = frame["time_s"].to_numpy(dtype=float)
    # an averaged entry (log_avg_msec) is written at the END of its window: it belongs to [t − window, t), the
    # window being its job's spacing of entries (QA s25, H5), and is binned by the window's middle (fio's times
    # jitter by a millisecond: 200, 399, 600); a per-I/O entry is one I/O completed at t
    start = t.copy()
    avg = ~per_io
    if avg.any():
        spacing = frame[avg].groupby(job[avg])["time_s"].agg(
            lambda s: float(np.median(np.diff(np.unique(s.to_numpy())))) if s.nunique() > 1 else math.nan)
        window = job[avg].map(spacing).fillna(bin_s).to_numpy(dtype=float)
        start[avg] = np.maximum(t[avg] - window / 2, 0.0)
    f = frame.assign(time_s=np.floor(start / bin_s + 1e-9) * bin_s, job=job)
    per_io = f["block_size_bytes"] > 0
    additive = f["kind"].isin(["bw", "iops"])
    keys = ["kind", "direction", "time_s"]
    # per-I/O lines: count I/Os (iops) and bytes (bw) per bin; averaged lines: mean per job's bin
    counted = f[additive & per_io].assign(value=lambda x: np.where(x["kind"] == "iops", 1.0, x["block_size_bytes"]))
    counted = counted.groupby([*keys, "job"], as_index=False)["value"].sum().assign(value=lambda x: x["value"] / bin_s)
    counted["full"] = _covered(counted, frame[per_io.to_numpy()], job[per_io.to_numpy()], bin_s)
    averaged_jobs = f[additive & ~per_io].groupby([*keys, "job"], as_index=False)["value"].mean().assign(full=True)
    rates = pd.concat([counted, averaged_jobs], ignore_index=True)
    # ``jobs``: the jobs whose log covers the whole bin (a per-I/O log's last bin, which the run's end cuts short,
    # counts none: a chart leaves such edge bins out instead of drawing the end of the run as a drop, QA s25 H17)
    summed = rates.groupby(keys, as_index=False).agg(value=("value", "sum"), jobs=("full", "sum"))
    lat = f[~additive].groupby([*keys, "job"], as_index=False)["value"].mean()
    averaged = lat.groupby(keys, as_index=False).agg(value=("value", "mean"), jobs=("job", "nunique"))
    return pd.concat([summed, averaged], ignore_index=True).sort_values(keys, ignore_index=True)
