"""fio ``--output-format=json`` and ``json+``, every version, into table rows.

Dispatch is on ``"fio version"`` and on which keys exist, never on file names:

* fio 3.x: latencies ``*_ns`` (ns), ``io_bytes`` in bytes with ``io_kbytes`` beside it,
  ``bw_bytes`` from 3.2 on; per-priority ``prios`` from 3.30 (not tabulated).
* fio 2.x: latencies ``lat``/``clat``/``slat`` in µs, ``io_bytes`` in **KiB** (there is no
  ``io_kbytes``), ``bw`` in KiB/s.
* ``json+`` adds ``clat_ns.bins`` histograms (recognised; not tabulated).
* client/server: ``client_stats`` with a ``hostname`` per entry and an "All clients" sum.
* ``--status-interval``: several documents concatenated; each is a ``snapshot``, the last ``final``.
* warnings or errors printed before the JSON, or normal output after it
  (``--output-format=json,normal``), are skipped.
"""

from __future__ import annotations

import itertools
import json
import math
import operator
import re
import warnings
from collections.abc import Callable
from typing import Any

_fast_loads: Callable[[bytes | str], Any] | None
try:  # optional accelerator (pip install "nvmemodel[fast]"); the stdlib path gives identical rows
    from orjson import loads as _orjson_loads
    _fast_loads = _orjson_loads
except ImportError:  # pragma: no cover - exercised when orjson is absent
    _fast_loads = None

from ..errors import IngestError, IngestWarning
from .fio_options import (
    ENGINE_OPTIONS,
    PACING_OPTIONS,
    block_sizes,
    choose_block_size,
    directory_files,
    drive_letter_split,
    engine_fields,
    pacing_fields,
    workload_fields,
)
from .schema import _EMPTY_ROW, failed_job_rows
from .steadystate import steady_state_columns

_DIRECTIONS = ("read", "write", "trim")
_ALL_DIRECTIONS = (*_DIRECTIONS, "mixed")
_PERCENTILES = {"50.000000": "clat_p50_s", "90.000000": "clat_p90_s", "95.000000": "clat_p95_s",
                "99.000000": "clat_p99_s", "99.900000": "clat_p99_9_s", "99.990000": "clat_p99_99_s"}
_PERCENTILE_ITEMS = tuple(_PERCENTILES.items())
#: total-latency percentiles (fio ``lat_percentiles=1``: ``lat_ns.percentile``), the same points
_LAT_PERCENTILES = {key: "lat" + col[4:] for key, col in _PERCENTILES.items()}
_KNOWN_DOC_KEYS = {"fio version", "timestamp", "timestamp_ms", "time", "jobs", "disk_util", "global options",
                   "client_stats", "cmdline"}
_KNOWN_JOB_KEYS = {
    "jobname", "groupid", "job_start", "error", "eta", "elapsed", "job options", "read", "write", "trim", "sync",
    "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "iodepth_level", "iodepth_submit",
    "iodepth_complete", "latency_ns", "latency_us", "latency_ms", "latency_depth", "latency_target",
    "latency_percentile", "latency_window", "hostname", "port", "desc", "steadystate", "mixed",
    "latency_target_ns", "latency_window_us",  # (fio 3.42)
}


#: Where a fio document can start: '{' at the start of a line followed by one of the keys fio
#: writes first (so a file of '{' lines is not a million candidates). A line is also one that follows
#: a carriage return: fio's progress lines (--eta=always, captured with 2>&1) end in '\r', not '\n',
#: so the report's '{' follows the last of them on the same '\n'-line.
_DOC_START = re.compile(r'(?:^|(?<=\r))\{\s*"(?:fio version|jobs|client_stats|timestamp|global options|time)"',
                        re.MULTILINE)
#: Work bound for salvaging documents from a malformed file: characters the decoder may scan,
#: as a multiple of the file size (a handful of failed attempts), so no content is quadratic.
_SCAN_BUDGET = 8
#: fio prints a NaN double with printf's "%f": "-nan" or "nan" where JSON has no literal for it.
_FIO_NAN = re.compile(r"(?<=: )-?nan\b")


def _is_fio_doc(d) -> bool:
    return isinstance(d, dict) and ("fio version" in d or "jobs" in d or "client_stats" in d)


def _decode_documents(text: str, path) -> tuple[list[dict], bool]:
    """Every top-level fio JSON object in ``text`` (with noise before, between or after).

    Returns (documents, truncated): ``truncated`` is True when a document after the last
    complete one was cut off (a run killed while writing its report). Candidate documents
    start with ``{`` at the start of a line and one of fio's first keys, as fio writes them;
    the work spent on failed candidates is bounded by :data:`_SCAN_BUDGET` times the file size.
    """
    first_error = None
    try:
        doc = _fast_loads(text) if _fast_loads is not None else json.loads(text)
    except (ValueError, RecursionError) as exc:  # orjson.JSONDecodeError is a ValueError too
        first_error = exc
        if _fast_loads is not None:  # orjson rejects NaN/Infinity literals that fio never writes but
            try:  # hand-edited files may hold; let the stdlib decide (and the checks reject NaN)
                doc = json.loads(text)
                first_error = None
            except (ValueError, RecursionError) as exc2:
                first_error = exc2
    if first_error is None:
        if not _is_fio_doc(doc):
            raise IngestError(path, "a JSON document that is not fio output (no 'fio version' or 'jobs' key)")
        return [doc], False
    if _FIO_NAN.search(text):  # fio writes C's "-nan"/"nan" (steadystate slope of one sample): JSON NaN
        text = _FIO_NAN.sub("NaN", text)
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            pass
        else:
            if not _is_fio_doc(doc):
                raise IngestError(path, "a JSON document that is not fio output (no 'fio version' or 'jobs' key)")
            return [doc], False
    decoder = json.JSONDecoder()
    docs, pos, budget, truncated = [], 0, _SCAN_BUDGET * len(text) + 65536, False
    for m in _DOC_START.finditer(text):
        start = m.start()
        if start < pos:
            continue
        try:
            doc, end = decoder.raw_decode(text, start)
        except ValueError as exc:
            # the error itself costs O(position): json counts the lines before it for its message
            budget -= max(getattr(exc, "pos", len(text)), 1)
            truncated = '"jobs"' in text[start:start + 4096] or '"fio version"' in text[start:start + 4096]
        except RecursionError:
            budget -= len(text) - start
            truncated = False
        else:
            if _is_fio_doc(doc):
                docs.append(doc)
                truncated = False
            pos = end
            continue
        if budget < 0:
            raise IngestError(path, f"malformed fio JSON ({first_error}); gave up salvaging documents after "
                                    f"{_SCAN_BUDGET}x the file size")
    if docs:
        return docs, truncated
    if '"fio version"' in text or '"jobs"' in text:
        raise IngestError(path, f"truncated or malformed fio JSON ({first_error})")
    raise IngestError(path, f"not JSON: {first_error}")


def one_fio_document(data: bytes) -> dict | None:
    """The fio document that ``data`` (a file's bytes) is, if it is one JSON object from its first
    byte that orjson parses (so valid UTF-8 without NUL bytes): what :func:`_decode_documents`
    gives for its text, without decoding the text. None for anything else (the text path decides)."""
    if _fast_loads is None or data[:1] != b"{":
        return None
    try:
        doc = _fast_loads(data)
    except Exception:  # noqa: BLE001 - not one document of valid JSON: the text path says what it is
        return None
    return doc if _is_fio_doc(doc) else None


def looks_like_fio_json(head: str) -> bool:
    return '"fio version"' in head or ('"jobs"' in head and "{" in head) or '"client_stats"' in head


_MISSING = object()
_INT_MAX = 2**63  # beyond this an integer cannot be a count fio wrote (and would not fit Int64)


def _num(d: dict, key: str, path, where: str, *, required: bool = True) -> float:
    """A finite number from ``d[key]``; NaN when absent and not required; IngestError otherwise."""
    value = d.get(key, _MISSING)
    kind = type(value)
    if kind is float and value - value == 0.0:  # fast path: a finite float (NaN and inf fail x - x == 0)
        return value
    if kind is int and -_INT_MAX < value < _INT_MAX:
        return float(value)
    if value is _MISSING:
        if required:
            raise IngestError(path, f"{where}: missing field {key!r}")
        return math.nan
    if kind is int:
        raise IngestError(path, f"{where}.{key} = {value}: expected a number below 2**63")
    if kind is float:
        raise IngestError(path, f"{where}.{key} is {value}: expected a finite number")
    raise IngestError(path, f"{where}.{key} = {value!r}: expected a number")


def _nonneg(d: dict, key: str, path, where: str, *, required: bool = True, scale: float = 1.0) -> float:
    value = d.get(key)
    if type(value) is float and value >= 0.0 and value - value == 0.0:  # fast path: finite, non-negative
        return value * scale
    value = _num(d, key, path, where, required=required)
    if value < 0:
        raise IngestError(path, f"{where}.{key} = {d[key]!r}: expected a number >= 0")
    return value * scale


def _latency(d: dict, base: str) -> tuple[dict | None, float]:
    """The latency block and its scale to seconds: fio 3 ``*_ns`` (ns), fio 2 plain (µs)."""
    if f"{base}_ns" in d:
        return d[f"{base}_ns"], 1e-9
    if base in d and isinstance(d[base], dict):
        return d[base], 1e-6
    return None, math.nan


def _count_from_iops(io_bytes: float, iops: float, runtime_ms: float) -> tuple[float, float]:
    """(I/Os, IOPS) of a fio 2.x direction without ``total_ios`` (fio 2.1.4). Its ``iops`` is an integer,
    ``1000 × I/Os ÷ runtime`` truncated (stat.c), so the count lies within ``[iops − ½, iops + 1] × runtime``
    (a rounding writer included): the count there that makes the bytes a whole number of blocks of a round
    size (a multiple of 4096, else 1000, else 512 B; the nearest to the estimate if several) is the count,
    and IOPS that count ÷ runtime; else the estimate ``iops × runtime`` rounded, fio's iops kept. (``io / the
    estimate`` gave 525,775.34 B for a 512 KiB job: QA s25 H6 addendum.)"""
    estimate = iops * runtime_ms / 1000.0
    lo, hi = (iops - 0.5) * runtime_ms / 1000.0, (iops + 1.0) * runtime_ms / 1000.0
    if io_bytes > 0 and runtime_ms > 0 and iops >= 1 and iops == int(iops) and hi - lo < 100_000 \
            and io_bytes < 2.0**53 and io_bytes == int(io_bytes):  # (an infinite or NaN size fails the first)
        io, first, last = int(io_bytes), max(1, math.ceil(lo)), math.floor(hi)
        for unit in (4096, 1000, 512):
            if io % unit:  # bytes that are no whole number of such blocks: no count of this size
                continue
            # n·b = io with b = k·unit: n divides M = io/unit and k = M/n lies in [M/last, M/first] — a few k, not
            # every count of the range (the same counts, found in fewer steps: ingest speed)
            m = io // unit
            best = 0
            for k in range(-(-m // last) if last >= first else 1, m // first + 1):  # n descending
                if m % k == 0:
                    n = m // k
                    if first <= n <= last and (not best or abs(n - estimate) <= abs(best - estimate)):
                        best = n  # (<=: of two as near, the smaller count, as a search upwards would keep)
            if best:
                return float(best), best * 1000.0 / runtime_ms
    return float(round(estimate)), iops


def unmeasured_block(mean, max_) -> bool:
    """A latency block without ``N`` that is fio's "nothing measured": fio before 3.20 (stat.c
    ``add_lat_json``/``show_lat`` of 2.x–3.19) writes a block that collected no samples as
    ``{"min": 0, "max": 0, "mean": 0.0, …}`` with no sample count (the submission latency of psync,
    sync and null jobs, every latency under ``gtod_reduce``); from 3.20 on ``"N": 0`` says it. A
    measured latency is never exactly 0 (fio clocks in ns; in µs, 2.x, a mean of 0.0 with a maximum of 0
    is under the clock's resolution, not a measurement either), so these zeros are NaN, as in terse."""
    return mean == 0 and max_ == 0 and type(mean) in (int, float) and type(max_) in (int, float)


def bw_wrapped(bw: float, io_bytes: float, runtime_ms: float) -> bool:
    """fio's bandwidth (B/s) is not ``1000 × io_bytes ÷ runtime_ms``, as fio computes it (stat.c, integer
    division; 2.x in KiB: within 2 KiB/s), by more than 1 %: the product wrapped past 2**64 in fio's uint64."""
    if not runtime_ms > 0:
        return False
    rate = io_bytes * 1000.0 / runtime_ms
    return abs(bw - rate) > 0.01 * rate + 2048.0


def iops_disagrees(iops: float, ios: float, runtime_ms: float) -> bool:
    """fio's ``iops`` is not ``1000 × total_ios ÷ runtime`` (ms), as fio computes it (stat.c: a float from 3.0,
    an integer division before), by more than the 1 IOPS of that truncation and a part in 10**9."""
    if not runtime_ms > 0:
        return False
    rate = ios * 1000.0 / runtime_ms
    return abs(iops - rate) > 1.0 + 1e-9 * rate


def counts_implausible(iops: float, ios: float, io_bytes: float, runtime_ms: float, counted: bool) -> bool:
    """The direction's I/O count or rate cannot be tabulated as written (:func:`_direction_rows` says why and
    recomputes or refuses): fio's ``iops`` disagrees with ``total_ios`` (:func:`iops_disagrees`), or a count
    estimated from ``iops`` alone (fio 2.1, ``counted``) is more I/Os than bytes moved."""
    if counted:
        return ios > io_bytes
    return iops_disagrees(iops, ios, runtime_ms)


def _direction_rows(d: dict, direction: str, path, where: str) -> dict | None:
    """Numbers of one direction, SI; None when it did no I/O."""
    if type(d.get("io_bytes")) is int and d["io_bytes"] == 0 and type(d.get("total_ios", 0)) is int \
            and d.get("total_ios", 0) == 0:
        return None  # an idle direction (exact integer zeros): nothing to check or tabulate
    runtime_ms = _num(d, "runtime", path, where)
    iops = _num(d, "iops", path, where)
    if "io_kbytes" in d:  # fio >= 3: io_bytes is bytes
        io_bytes = _num(d, "io_bytes", path, where)
    else:  # fio 2.x: io_bytes is KiB
        io_bytes = _num(d, "io_bytes", path, where) * 1024.0
    ios = _num(d, "total_ios", path, where, required=False)
    counted = math.isnan(ios)  # fio 2.1: no total_ios, the count from iops (_count_from_iops)
    if io_bytes < 0:  # (before "no bytes moved": a negative count is a corrupt file, not an idle direction)
        raise IngestError(path, f"{where}.io_bytes = {d.get('io_bytes')!r}: expected a number >= 0 (a corrupt file?)")
    if math.isnan(ios):
        ios, iops = _count_from_iops(io_bytes, iops, runtime_ms)
    if io_bytes <= 0:  # no bytes moved: nothing measured (a cpuio job counts "I/Os" of 0 bytes)
        return None
    bw = _num(d, "bw_bytes", path, where, required=False)
    bw_key = "bw_bytes"
    if math.isnan(bw):
        bw, bw_key = _num(d, "bw", path, where) * 1024.0, "bw"  # KiB/s
    for key, value in (("runtime", runtime_ms), ("iops", iops), ("io_bytes", io_bytes), ("total_ios", ios),
                       (bw_key, bw)):
        if value < 0 or math.isinf(value):
            raise IngestError(path, f"{where}.{key} = {d.get(key, value)!r}: expected a non-negative finite number")
    if counted and ios > io_bytes:  # (no total_ios: iops is the only count, and it cannot be checked against one)
        moved = f"{where}.io_bytes = {d.get('io_bytes')!r}" + ("" if "io_kbytes" in d else " KiB")
        raise IngestError(path, f"{where}.iops = {d.get('iops')!r} over {where}.runtime = {d.get('runtime')!r} ms "
                                f"is {ios:.6g} I/Os, more than the {io_bytes:.6g} bytes moved ({moved}): "
                                "expected at most one I/O per byte (a corrupt or edited file?)")
    if not counted and iops_disagrees(iops, ios, runtime_ms):
        rate = ios * 1000.0 / runtime_ms
        if ios > io_bytes:  # the count is no better: nothing to recompute the rate from
            moved = f"{where}.io_bytes = {d.get('io_bytes')!r}" + ("" if "io_kbytes" in d else " KiB")
            raise IngestError(path, f"{where}.iops = {d.get('iops')!r} disagrees with {where}.total_ios / runtime "
                                    f"({rate:.6g} IOPS; fio writes iops as 1000 x total_ios / runtime), and "
                                    f"{where}.total_ios = {d.get('total_ios')!r} is more I/Os than the "
                                    f"{io_bytes:.6g} bytes moved ({moved}): expected counts fio could "
                                    "have written (a corrupt or edited file?)")
        warnings.warn(f"{path}: {where}.iops = {d.get('iops')!r} disagrees with total_ios / runtime ({rate:.6g} "
                      "IOPS): fio writes iops as 1000 x total_ios / runtime (ms), so the file was edited or is "
                      "corrupt there; the rate tabulated is total_ios / runtime", IngestWarning, stacklevel=4)
        iops = rate
    if bw_wrapped(bw, io_bytes, runtime_ms):
        warnings.warn(f"{path}: {where}.{bw_key} = {d.get(bw_key)!r} disagrees with io_bytes / runtime "
                      f"({io_bytes * 1000.0 / runtime_ms:.0f} B/s): fio computes it as 1000 x io_bytes / runtime in "
                      "64-bit integers, which wrap past 2**64 (io_bytes over 18 PB); the rate tabulated is io_bytes / "
                      "runtime", IngestWarning, stacklevel=4)
        bw = io_bytes * 1000.0 / runtime_ms
    out = {"direction": direction, "runtime_s": runtime_ms / 1000.0, "iops": iops, "io_bytes": io_bytes,
           "ios": ios, "bw_bytes_per_s": bw}
    for base in ("lat", "clat", "slat"):
        block, scale = _latency(d, base)
        if not isinstance(block, dict):
            continue
        here = f"{where}.{base}"
        n = _num(block, "N", path, here, required=False)
        if n == 0 or (n != n and unmeasured_block(block.get("mean"), block.get("max"))):
            continue  # no samples (e.g. slat with some engines): leave unknown
        out[f"{base}_mean_s"] = _nonneg(block, "mean", path, here, required=False, scale=scale)
        if base == "lat" or ("lat_max_s" not in out and base == "clat"):
            out["lat_max_s"] = _nonneg(block, "max", path, here, required=False, scale=scale)
        pct = block.get("percentile")
        if base != "slat" and isinstance(pct, dict):
            where_pct = f"{here}.percentile"
            for key, col in (_PERCENTILES if base == "clat" else _LAT_PERCENTILES).items():
                if key in pct:
                    out[col] = _nonneg(pct, key, path, where_pct, scale=scale)
    return out


#: fio's sync-call latency percentiles (the job's ``sync`` block), the same points as clat's
_SYNC_PERCENTILES = {key: "sync_lat" + col[4:] for key, col in _PERCENTILES.items()}


def sync_measured(sync) -> bool:
    """The job's ``sync`` block (fio 3.x JSON: ``total_ios`` and ``lat_ns`` of its fsync/fdatasync/sync_file_range
    calls) holds a measurement, or is not what fio writes (the general reader says so): False only for no block
    and for fio's "nothing measured" (``N`` 0, or before 3.20 zeros without ``N``, with ``total_ios`` 0)."""
    if sync is None:
        return False
    if type(sync) is not dict:
        return True
    total = sync.get("total_ios", 0)
    if not (total == 0 and type(total) is int):
        return True
    block, _ = _latency(sync, "lat")
    if block is None:
        return "lat_ns" in sync or "lat" in sync
    n = block.get("N", _MISSING)
    if n is _MISSING:
        return not unmeasured_block(block.get("mean"), block.get("max"))
    return not (n == 0 and type(n) is int)


def _sync_columns(sync, path, where: str) -> dict | None:
    """The sync columns (``sync_ios``, ``sync_lat_*_s``) of a job's ``sync`` block; None where none were measured.

    The count is the latency block's sample count ``N``: fio's ``total_ios`` there counts fsync calls only (stat.c
    writes ``total_io_u[DDIR_SYNC]``; fdatasync is DDIR_DATASYNC: fio 3.33 wrote ``total_ios`` 0 beside 127
    fdatasync samples); before fio 3.20 (no ``N``) it is ``total_ios`` where that is not 0, else unknown (NaN)."""
    if not sync_measured(sync):
        return None
    if not isinstance(sync, dict):
        raise IngestError(path, f"{where} = {sync!r}: expected an object (fio's sync block: total_ios and lat_ns)")
    out: dict = {}
    total = _nonneg(sync, "total_ios", path, where, required=False)
    n = math.nan
    block, scale = _latency(sync, "lat")
    if block is not None:
        here = f"{where}.{'lat_ns' if scale == 1e-9 else 'lat'}"
        if not isinstance(block, dict):
            raise IngestError(path, f"{here} = {block!r}: expected an object of mean, max, N and percentile")
        n = _nonneg(block, "N", path, here, required=False)
        if not (n == 0 or (n != n and unmeasured_block(block.get("mean"), block.get("max")))):
            out["sync_lat_mean_s"] = _nonneg(block, "mean", path, here, scale=scale)
            out["sync_lat_max_s"] = _nonneg(block, "max", path, here, required=False, scale=scale)
            pct = block.get("percentile")
            if isinstance(pct, dict):
                for key, col in _SYNC_PERCENTILES.items():
                    if key in pct:
                        out[col] = _nonneg(pct, key, path, f"{here}.percentile", scale=scale)
    out["sync_ios"] = n if n > 0 else (total if total > 0 else math.nan)
    return out


#: Relative slack of the latency consistency checks: fio writes its means as doubles of whole ns (µs in 2.x)
#: summed over the same samples, so a real record meets them to far better than this
_LAT_SLACK = 1e-6
_LAT_FACTOR = 1.0 + _LAT_SLACK


def latency_inconsistency(lat_mean: float, clat_mean: float, slat_mean: float, lat_max: float) -> tuple | None:
    """The first relation a direction's latencies break, as ``(smaller column, larger column)``, or None.

    fio takes a total latency (``lat``) from the I/O's start and a completion latency (``clat``) from its issue,
    after the submission (``slat``), for the same I/Os (io_u.c ``account_io_completion``), so ``clat`` and
    ``slat`` means are at most ``lat``'s and every mean is at most the largest latency (``lat_max_s``: total,
    else completion). NaN (not measured) breaks nothing."""
    for small, big, a, b in (("clat_mean_s", "lat_max_s", clat_mean, lat_max), ("lat_mean_s", "lat_max_s", lat_mean,
                             lat_max), ("clat_mean_s", "lat_mean_s", clat_mean, lat_mean),
                             ("slat_mean_s", "lat_mean_s", slat_mean, lat_mean)):
        if a > b * _LAT_FACTOR + 2e-9:
            return small, big
    return None


def numbers_inconsistent(numbers: tuple) -> bool:
    """:func:`latency_inconsistency` of :func:`direction_numbers`' tuple (the fast paths decline such a direction,
    and the general reader warns)."""
    lat, clat, slat, lat_max = numbers[5], numbers[6], numbers[7], numbers[8]
    # latency_inconsistency's four relations written out, the same arithmetic (called on every direction read)
    return (clat > lat_max * _LAT_FACTOR + 2e-9 or lat > lat_max * _LAT_FACTOR + 2e-9
            or clat > lat * _LAT_FACTOR + 2e-9 or slat > lat * _LAT_FACTOR + 2e-9)


def _warn_inconsistent(row: dict, d: dict, opts: dict, path, job: str, direction: str) -> None:
    """Warn, naming the file, job and fields, where a direction's latencies contradict each other (kept as written)."""
    broken = latency_inconsistency(row["lat_mean_s"], row["clat_mean_s"], row["slat_mean_s"], row["lat_max_s"])
    if broken is None:
        return
    ns = "lat_ns" in d or "clat_ns" in d
    lat_block, _ = _latency(d, "lat")
    max_of = "lat" if isinstance(lat_block, dict) and row["lat_mean_s"] == row["lat_mean_s"] else "clat"

    def field(col: str) -> str:
        base = max_of if col == "lat_max_s" else col.split("_")[0]
        return f"{direction}.{base}{'_ns' if ns else ''}.{'max' if col == 'lat_max_s' else 'mean'}"

    small, big = broken
    if _truthy(opts.get("sqthread_poll", "0")) and "io_uring" in str(opts.get("ioengine", "")):
        why = ("the job ran io_uring with sqthread_poll: fio before 3.34 records no issue time for its I/Os "
               "(engines/io_uring.c fio_ioring_commit returns before stamping them), so their completion latency is "
               "measured from a stale time; fixed in 3.34 by commit c011bf1 (fio issue #1484), and in 3.36 by 10bad6b "
               "where 3.34-3.35 stamped the wrong I/O")
    else:
        why = "an edited or corrupt file, or a fio bug"
    warnings.warn(f"{path}: {job}: {field(small)} = {row[small]:.6g} s is more than {field(big)} = "
                  f"{row[big]:.6g} s: an internally inconsistent fio record ({why}); kept as written, not corrected", IngestWarning,
                  stacklevel=4)


_FLOAT_MAX = 1.7976931348623157e308
_SLOW = object()


def _direction_fast(d: dict, direction: str, row: dict | None = None):
    """The common fio direction, every field present and valid (:func:`direction_numbers`): the same
    numbers and checks as :func:`_direction_rows`, which handles everything else (and says what is
    wrong). Returns the numbers (written into ``row`` if given, which is then returned), None for a
    direction that moved no bytes, or ``_SLOW``."""
    numbers = direction_numbers(d)
    if numbers is None:
        return _SLOW
    if numbers is IDLE:
        return None
    out = {} if row is None else row
    out["direction"] = direction
    if not math.isnan(sum(numbers)):  # every number measured
        out.update(zip(NUMBER_COLUMNS, numbers))
        return out
    for col, value in zip(NUMBER_COLUMNS, numbers):
        if not math.isnan(value):  # (NaN: not measured, left unknown)
            out[col] = value
    return out


#: The columns of :func:`direction_numbers`, in its order.
NUMBER_COLUMNS = ("runtime_s", "ios", "io_bytes", "iops", "bw_bytes_per_s", "lat_mean_s", "clat_mean_s",
                  "slat_mean_s", "lat_max_s", *_PERCENTILES.values())
_PERCENTILE_VALUES = operator.itemgetter(*_PERCENTILES)
#: What :func:`direction_numbers` returns for a direction that moved no bytes.
IDLE = ()


def direction_numbers(d: dict) -> tuple | None:
    """The numbers of a fio direction, SI, in :data:`NUMBER_COLUMNS` order (NaN where a latency
    block has no samples or a percentile is not written); :data:`IDLE` where it moved no bytes;
    None where the checked reader :func:`_direction_rows` must read it (a field missing or of an
    odd type, a value it refuses). Every number is an int from 0 to 2**63 or a finite float >= 0
    (bool is neither), as the checked reader requires; fio 2's KiB are scaled after the check and
    must stay finite."""
    try:
        io_bytes, rt, iops = d["io_bytes"], d["runtime"], d["iops"]
        if "lat_ns" in d:  # fio 3: ns
            lat, clat, slat, scale = d["lat_ns"], d["clat_ns"], d["slat_ns"], 1e-9
        else:  # fio 2: µs
            lat, clat, slat, scale = d["lat"], d["clat"], d["slat"], 1e-6
        kib = "bw_bytes" not in d  # fio < 3.2: KiB/s only (checked as written, then scaled)
        bw = d["bw"] if kib else d["bw_bytes"]
        counted = "total_ios" not in d  # fio 2.1: counted from iops and bytes below (_count_from_iops)
        ios = 0.0 if counted else d["total_ios"]
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
    if type(clat) is not dict or type(lat) is not dict or type(slat) is not dict or "percentile" in lat:
        return None  # (total-latency percentiles, lat_percentiles=1: the checked reader reads them)
    pct = clat.get("percentile")
    n_lat, n_clat, n_slat = lat.get("N"), clat.get("N"), slat.get("N")
    # (no N: fio < 3.20, whose zeros mean no samples, see unmeasured_block)
    if n_lat is None and unmeasured_block(lat.get("mean"), lat.get("max")):
        n_lat = 0
    if n_clat is None and unmeasured_block(clat.get("mean"), clat.get("max")):
        n_clat = 0
    if n_slat is None and unmeasured_block(slat.get("mean"), slat.get("max")):
        n_slat = 0
    if type(pct) is dict and (n_lat is None or (type(n_lat) is int and n_lat != 0)) \
            and (n_clat is None or (type(n_clat) is int and n_clat != 0)) \
            and (n_slat is None or (type(n_slat) is int and n_slat != 0)):
        # the usual direction: every block with samples, every percentile written, all checked at once
        try:
            lat_mean, lat_max, clat_mean, slat_mean = lat["mean"], lat["max"], clat["mean"], slat["mean"]
            p50, p90, p95, p99, p999, p9999 = _PERCENTILE_VALUES(pct)
        except KeyError:  # a field missing: the general loop below
            pass
        else:
            # each value of the type fio writes it in (io_bytes, runtime, bw, lat's max and the percentiles
            # integers, the means floats, iops and ios either); anything else is checked value by value
            if not (type(io_bytes) is int and 0 <= io_bytes < _INT_MAX and type(rt) is int and 0 <= rt < _INT_MAX
                    and type(bw) is int and 0 <= bw < _INT_MAX and type(lat_max) is int and 0 <= lat_max < _INT_MAX
                    and ((type(ios) is int and 0 <= ios < _INT_MAX) or (type(ios) is float and 0.0 <= ios <= _FLOAT_MAX))
                    and ((type(iops) is float and 0.0 <= iops <= _FLOAT_MAX)
                         or (type(iops) is int and 0 <= iops < _INT_MAX))
                    and type(lat_mean) is float and 0.0 <= lat_mean <= _FLOAT_MAX
                    and type(clat_mean) is float and 0.0 <= clat_mean <= _FLOAT_MAX
                    and type(slat_mean) is float and 0.0 <= slat_mean <= _FLOAT_MAX
                    and type(p50) is int and 0 <= p50 < _INT_MAX and type(p90) is int and 0 <= p90 < _INT_MAX
                    and type(p95) is int and 0 <= p95 < _INT_MAX and type(p99) is int and 0 <= p99 < _INT_MAX
                    and type(p999) is int and 0 <= p999 < _INT_MAX and type(p9999) is int and 0 <= p9999 < _INT_MAX):
                for v in (io_bytes, ios, rt, iops, bw, lat_mean, lat_max, clat_mean, slat_mean, p50, p90, p95, p99,
                          p999, p9999):
                    t = type(v)
                    if not ((t is float and 0.0 <= v <= _FLOAT_MAX) or (t is int and 0 <= v < _INT_MAX)):
                        return None
            if io_bytes == 0:
                return IDLE
            io_bytes = float(io_bytes) if "io_kbytes" in d else io_bytes * 1024.0  # fio 2.x: io_bytes is KiB
            bw = bw * 1024.0 if kib else float(bw)
            if io_bytes > _FLOAT_MAX or bw > _FLOAT_MAX:  # finite only before scaling: the checked reader refuses it
                return None
            if counted:
                ios, iops = _count_from_iops(io_bytes, iops, rt)
            if rt > 0 and abs(bw - io_bytes * 1000.0 / rt) > 0.01 * io_bytes * 1000.0 / rt + 2048.0:
                return None  # (bw_wrapped: the checked reader warns and recomputes it)
            if counts_implausible(iops, ios, io_bytes, rt, counted):
                return None  # (the checked reader recomputes the rate or refuses, saying why)
            return (rt / 1000.0, float(ios), io_bytes, float(iops), bw, lat_mean * scale, clat_mean * scale,
                    slat_mean * scale, lat_max * scale, p50 * scale, p90 * scale, p95 * scale, p99 * scale,
                    p999 * scale, p9999 * scale)
    # a block without samples (N == 0, an exact integer: left unknown) or percentiles not all written
    for v in (io_bytes, ios, rt, iops, bw):
        t = type(v)
        if not ((t is int and 0 <= v < _INT_MAX) or (t is float and 0.0 <= v <= _FLOAT_MAX)):
            return None
    if io_bytes == 0:
        return IDLE
    io_bytes = float(io_bytes) if "io_kbytes" in d else io_bytes * 1024.0
    bw = bw * 1024.0 if kib else float(bw)
    if io_bytes > _FLOAT_MAX or bw > _FLOAT_MAX:
        return None
    if counted:
        ios, iops = _count_from_iops(io_bytes, iops, rt)
    if bw_wrapped(bw, io_bytes, rt):
        return None  # (the checked reader warns and recomputes it)
    if counts_implausible(iops, ios, io_bytes, rt, counted):
        return None  # (the checked reader recomputes the rate or refuses, saying why)
    means = [math.nan, math.nan, math.nan]
    lat_max = math.nan
    has_max = False
    for i, (block, n) in enumerate(((lat, n_lat), (clat, n_clat), (slat, n_slat))):  # lat, then clat (its
        # maximum when lat had no samples), slat
        if n == 0 and type(n) is int:
            continue
        mean: Any = block.get("mean")  # JSON: checked by its type just below
        t = type(mean)
        if not ((t is float and 0.0 <= mean <= _FLOAT_MAX) or (t is int and 0 <= mean < _INT_MAX)) \
                or (n is not None and type(n) is not int):
            return None
        means[i] = mean * scale
        if i < 2 and not has_max:
            mx: Any = block.get("max")
            t = type(mx)
            if not ((t is int and 0 <= mx < _INT_MAX) or (t is float and 0.0 <= mx <= _FLOAT_MAX)):
                return None
            lat_max = mx * scale
            has_max = True
    percentiles = [math.nan] * 6
    if pct is not None and not (n_clat == 0 and type(n_clat) is int):  # (clat without samples: none)
        if type(pct) is not dict:
            return None
        for i, key in enumerate(_PERCENTILES):
            v = pct.get(key)
            if v is None:
                continue
            t = type(v)
            if not ((t is int and 0 <= v < _INT_MAX) or (t is float and 0.0 <= v <= _FLOAT_MAX)):
                return None
            percentiles[i] = v * scale
    return (rt / 1000.0, float(ios), io_bytes, float(iops), bw, *means, lat_max, *percentiles)


#: Workload fields and block sizes of an option set already seen (a folder repeats a handful).
_OPTION_FIELDS: dict = {}


def _option_fields(opts: dict, path, echoed: bool, warn: bool = True):
    """(fields, defaulted, block sizes, the row's option columns, numjobs, verify, group_reporting,
    I/Os in flight) of a job's options: the row's columns are ``fields`` with ``defaulted``; numjobs
    is 1 where not given; verify: a write pattern with ``verify=``. Shared between calls: do not modify.
    ``warn``: say that fio split a Windows drive letter off ``filename=`` (each call, cached or not)."""
    try:  # keyed by names and values (two tuples of strings: cheaper to hash than the items' pairs)
        values = tuple(opts.values())
        key = (echoed, tuple(opts), values)
        hit = _OPTION_FIELDS.get(key)
    except TypeError:  # an option value that is a list or object (hand-edited JSON): read as its text
        key, hit = None, None
    if hit is None:
        text = {k: v if type(v) is str else str(v) for k, v in opts.items()}
        fields, defaulted = workload_fields(text, path, echoed=echoed, warn=False)
        if echoed:  # (hipri, sqthread_poll, depth marks, cpus_allowed: fio's JSON drops a bare flag's name)
            fields.update(engine_fields(text, path, iodepth=fields.get("iodepth"), bare_echoed=False))
        numjobs = fields.get("numjobs") or 1
        verify = fields.get("pattern") in ("write", "randwrite") and str(opts.get("verify", "0")) not in ("0", "null")
        hit = (fields, tuple(defaulted), block_sizes(text, path), {**fields, "defaulted": ";".join(defaulted) or None},
               numjobs, verify, "group_reporting" in opts, (fields.get("iodepth") or 1) * numjobs)
        # only option sets of strings (as fio writes them) are kept: 1, 1.0 and True are equal keys
        # but different option text
        if key is not None and len(_OPTION_FIELDS) < 4096 and all(type(v) is str for v in values):
            _OPTION_FIELDS[key] = hit
    if warn and "filename" in opts and (drive := drive_letter_split(str(opts["filename"]))) is not None:
        warnings.warn(f"{path}: {drive}", IngestWarning, stacklevel=3)
    return hit


def _group_size(job: dict, path, where: str, phases: bool = False) -> int | None:
    """Jobs merged into this entry: fio sums ``job_runtime`` over a group's jobs while each
    direction's ``runtime`` is the longest one, so their ratio counts them, rounded (a job's
    own ``job_runtime`` exceeds its I/O runtime by its setup time, a few %: 300 vs 293 ms for
    one job; jobs of a group that ran much shorter than the longest are undercounted).
    ``phases``: the directions ran one after the other (a write job's verify reads), so one
    job's time is their sum. None when the fio version wrote no ``job_runtime``."""
    total = job.get("job_runtime")
    if total is None:
        return None  # (each direction's runtime is checked where it is read)
    if phases:
        longest = sum(_num(job[d], "runtime", path, f"{where}.{d}", required=False) for d in _DIRECTIONS
                      if isinstance(job.get(d), dict))
        total = _num(job, "job_runtime", path, where, required=False)
        return max(1, round(total / longest)) if total > 0 and longest > 0 else None
    if type(total) is int and 0 < total < _INT_MAX:  # the common case, without the general checks
        longest = 0
        for d in _ALL_DIRECTIONS:
            block = job.get(d)
            if type(block) is dict:
                t = block.get("runtime")
                if type(t) is not int or not 0 <= t < _INT_MAX:
                    break
                longest = max(longest, t)
        else:
            return max(1, round(total / longest)) if longest > 0 else None
    total = _num(job, "job_runtime", path, where, required=False)
    longest = max((_num(job[d], "runtime", path, f"{where}.{d}", required=False) for d in (*_DIRECTIONS, "mixed")
                   if isinstance(job.get(d), dict)), default=math.nan)
    if not (total > 0 and longest > 0):
        return None
    return max(1, round(total / longest))


def job_group(job: dict, entries: list, index: int, path, numjobs: int, grouped: bool, verify: bool,
              name_counts: dict | None, *, all_clients: bool = False) -> tuple[int | None, bool, dict | None]:
    """(jobs merged into the entry, from ``job_runtime``: None where fio did not write it; whether the
    entry is a group's sum; the entries per job name, counted once per document when a job with
    numjobs > 1 asks: pass it back for the next entry). group_reporting is not always echoed: more
    jobs behind the entry than entries of its name means a group sum."""
    merged = _group_size(job, path, f"jobs[{index}]", verify) if not all_clients and "job_runtime" in job else None
    if merged is not None and merged >= 2**31:  # (a corrupt job_runtime: 1e308 ms made a count pandas cannot hold)
        raise IngestError(path, f"jobs[{index}].job_runtime = {job.get('job_runtime')!r}: expected the jobs' run "
                                f"time in ms, near the directions' runtime (this is {merged:.3g} times it)")
    if numjobs > 1 and name_counts is None:
        name_counts = {}
        for other in entries:
            if isinstance(other, dict):
                key = str(other.get("jobname"))
                name_counts[key] = name_counts.get(key, 0) + 1
    # (an entry counts itself: fewer entries of its name than numjobs needs numjobs > 1)
    group = (grouped and numjobs > 1) or (numjobs > 1 and name_counts is not None
                                                 and name_counts[str(job.get("jobname"))] < numjobs) \
        or (merged or 1) > 1
    return merged, group, name_counts


def _check_int(job: dict, key: str, path, where: str, lo: int, hi: int) -> int | None:
    value = job.get(key)
    if value is None:
        return None
    if type(value) is not int or not lo <= value <= hi:
        raise IngestError(path, f"{where}.{key} = {value!r}: expected an integer from {lo} to {hi}")
    return value


def disk_ios(disk_util) -> tuple:
    """(read requests, write requests) of fio's ``disk_util`` entries, summed over the devices (None where a count
    is missing or not a whole number): what the devices beneath did during the run, against what fio asked."""
    if not disk_util:
        return None, None
    reads: int | None = 0
    writes: int | None = 0
    for u in disk_util:  # one pass, no per-key generators: this runs once per fio document (ingest speed)
        r, w = (u.get("read_ios"), u.get("write_ios")) if isinstance(u, dict) else \
            (getattr(u, "read_ios", None), getattr(u, "write_ios", None))
        reads = reads + r if reads is not None and type(r) is int and r >= 0 else None
        writes = writes + w if writes is not None and type(w) is int and w >= 0 else None
    return reads, writes


def disk_busy(disk_util) -> str | None:
    """How busy each of fio's ``disk_util`` devices was (its ``util``, %: the share of the time it had a request in
    flight), in fio's order, ';'-separated; None where any is missing. Read by the layer fact: a device idle part of
    every run was not what held the rate (set after round 20 was read: r20_here-verify … numjobs, SC)."""
    out = []
    for u in disk_util or ():
        v = u.get("util") if isinstance(u, dict) else getattr(u, "util", None)
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 <= v <= 1000:
            return None
        out.append(f"{float(v):.4g}")
    return ";".join(out) if out else None


def rows_from_document(doc: dict, path, *, snapshot: int, final: bool, fmt_hint: str = "fio-json",
                       run: int = 0) -> list[dict]:
    """Table rows of one fio JSON document."""
    if not isinstance(doc, dict):
        raise IngestError(path, "not a fio JSON document: expected an object with 'fio version' and 'jobs'")
    unknown = set(doc) - _KNOWN_DOC_KEYS if not _KNOWN_DOC_KEYS.issuperset(doc) else None
    if unknown:
        warnings.warn(f"{path}: unknown top-level fio keys ignored: {sorted(unknown)}", IngestWarning, stacklevel=3)
    version = doc.get("fio version")
    version = None if version is None else str(version)
    entries = doc.get("client_stats") if "client_stats" in doc else doc.get("jobs")
    if not isinstance(entries, list):
        raise IngestError(path, "field 'jobs': expected a list of jobs (is this fio JSON output?)")
    if not entries:
        raise IngestError(path, "field 'jobs' is an empty list: no job results in this report")
    global_opts = doc.get("global options") or {}
    disk_util = doc.get("disk_util") or []
    devices = [str(u["name"]) for u in (disk_util if isinstance(disk_util, list) else [])
               if isinstance(u, dict) and u.get("name")]
    fmt = fmt_hint
    # the columns every row of this document shares; a job's row adds its own, each direction its numbers
    doc_row = _EMPTY_ROW.copy()
    doc_row["tool"] = "fio"
    doc_row["tool_version"] = version
    doc_row["source_path"] = str(path)
    doc_row["run"] = run
    doc_row["snapshot"] = snapshot
    doc_row["final"] = final
    doc_row["format"] = fmt_hint
    if devices:
        doc_row["devices"] = ";".join(devices)
        doc_row["device_count"] = len(devices)
        doc_row["disk_read_ios"], doc_row["disk_write_ios"] = disk_ios(disk_util if isinstance(disk_util, list) else [])
        doc_row["disk_util_pct"] = disk_busy(disk_util if isinstance(disk_util, list) else [])
    has_global = "global options" in doc
    rows = []
    unknown_job_keys: set[str] = set()
    name_counts: dict | None = None  # entries per job name, counted when a job with numjobs > 1 asks
    with_options: dict = {}  # id of an option set's columns -> (them, the document's columns with them)
    no_latency = ""  # the option that kept fio from measuring latency (gtod_reduce), where one did
    clones_seen: dict = {}  # entries so far per (job name, directory=): which clone of a directory= job an entry is
    for index, job in enumerate(entries):
        if type(job) is not dict and not isinstance(job, dict):
            raise IngestError(path, f"jobs[{index}]: expected an object")
        if not _KNOWN_JOB_KEYS.issuperset(job):
            unknown_job_keys |= set(job) - _KNOWN_JOB_KEYS
        job_opts = job.get("job options") or {}
        if not isinstance(job_opts, dict) or not isinstance(global_opts, dict):
            raise IngestError(path, f"jobs[{index}]: 'job options' / 'global options' must be objects of option: value")
        opts = {**global_opts, **job_opts} if global_opts else job_opts
        name = job.get("jobname")
        all_clients = name == "All clients"
        has_mixed = "mixed" in job
        if not has_mixed and not (type(job.get("read")) is dict and type(job.get("write")) is dict) \
                and not all(isinstance(job.get(d), dict) for d in ("read", "write")):
            missing = next(d for d in ("read", "write") if not isinstance(job.get(d), dict))
            raise IngestError(path, f"jobs[{index}] ({name!r}): no {missing!r} block (fio writes read, write and trim "
                                    "for every job, or 'mixed' with unified_rw_reporting)")
        error = job.get("error")
        if not (type(error) is int and 0 <= error <= 2**31):
            error = _check_int(job, "error", path, f"jobs[{index}]", 0, 2**31)
        # an "All clients" sum carries no options of its own: unknown rather than defaulted
        echoed = "job options" in job or (has_global and not all_clients)
        fields, defaulted, sizes, option_columns, numjobs, verify, grouped, in_flight = \
            _option_fields(opts, path, echoed)
        merged, group, name_counts = job_group(job, entries, index, path, numjobs, grouped, verify, name_counts,
                                               all_clients=all_clients)
        if merged and merged > numjobs and echoed:
            fields = {**fields, "numjobs": merged}  # jobs of several sections reported as one group
            defaulted = [c for c in defaulted if c != "numjobs"]
            in_flight = (fields.get("iodepth") or 1) * merged
            # fio echoes only the group's last job's own options (under the first job's name): a job that sets
            # its own options says the sections set theirs, so an option outside the global ones may differ
            # between them (set by another section, or defaulted in this one), e.g. iodepth=1 echoed for a
            # group whose other section ran iodepth=8 (tests/data/fio_group_mixed)
            own_set = set(job_opts) - {"name"}
            unsure = [k for k in ("iodepth", "ioengine")
                      if k in job_opts or (own_set and k not in (global_opts or {}))]
            if unsure:
                fields.update(dict.fromkeys(unsure))
                defaulted = [c for c in defaulted if c not in unsure]
                shown = ", ".join(f"{k}={job_opts[k]}" if k in job_opts else f"{k} not set" for k in unsure)
                warnings.warn(f"{path}: jobs[{index}] ({name!r}) is a group_reporting sum of {merged} jobs that "
                              f"set their own options, and fio's JSON echoes only the last job's "
                              f"({_echoed_name(job_opts, name)}: {shown}): the group's jobs may differ, so its "
                              f"{' and '.join(unsure)} {'is' if len(unsure) == 1 else 'are'} not tabulated (NA)",
                              IngestWarning, stacklevel=3)
            # the same for the other options that set how a job submits (hipri, depth marks, cpus_allowed …)
            own = [col for col, keys in ENGINE_OPTIONS.items() if not set(keys).isdisjoint(job_opts)]
            if own:
                fields.update(dict.fromkeys(own))
            option_columns = {**fields, "defaulted": ";".join(defaulted) or None}
        if echoed and ("directory" in opts or (merged and merged > numjobs and "filename" in job_opts)):
            files = _job_files(opts, job_opts, name, numjobs, merged, group, clones_seen, path, index, devices)
            if files is not None:
                fields = {**fields, "target_names": ";".join(files) or None, "targets": len(set(files)) or None}
                option_columns = {**fields, "defaulted": ";".join(defaulted) or None}
        group_id = job.get("groupid")
        if not (type(group_id) is int and 0 <= group_id <= 2**31):
            group_id = _check_int(job, "groupid", path, f"jobs[{index}]", 0, 2**31)
        usr, sys_ = job.get("usr_cpu"), job.get("sys_cpu")  # % of one CPU
        usr = usr / 100 if type(usr) is float and 0.0 <= usr <= _FLOAT_MAX else \
            _nonneg(job, "usr_cpu", path, f"jobs[{index}]", required=False) / 100
        sys_ = sys_ / 100 if type(sys_) is float and 0.0 <= sys_ <= _FLOAT_MAX else \
            _nonneg(job, "sys_cpu", path, f"jobs[{index}]", required=False) / 100
        host = job.get("hostname")
        # the job's columns (every row of the job: a copy with its direction's numbers), from the
        # document's and the option set's (shared by the jobs of one option set)
        known = with_options.get(id(option_columns))  # (the option set is kept alive with it: its id stays its own)
        if known is None or known[0] is not option_columns:
            known = with_options[id(option_columns)] = (option_columns, {**doc_row, **option_columns})
        common = known[1].copy()
        common["job_name"] = None if name is None else str(name)
        common["job_index"] = index
        common["group_id"] = group_id
        common["hostname"] = None if host is None else str(host)
        common["level"] = "all-clients" if all_clients else ("group" if group else "job")
        common["is_aggregate"] = all_clients
        common["cpu_usr"] = usr
        common["cpu_sys"] = sys_
        ctx = job.get("ctx")  # context switches: fio's count (a group's: the sum over its jobs)
        common["ctx"] = float(ctx) if type(ctx) is int and 0 <= ctx < 2**63 else \
            _nonneg(job, "ctx", path, f"jobs[{index}]", required=False)
        common["error"] = error
        if "steadystate" in job:  # fio's ss= check: attained, criterion, window (.steadystate)
            common.update(steady_state_columns(job["steadystate"], path, f"jobs[{index}].steadystate"))
        job_rows = []
        for direction in _ALL_DIRECTIONS if has_mixed else _DIRECTIONS:
            d = job.get(direction)
            if type(d) is not dict and not isinstance(d, dict):
                continue
            moved = d.get("io_bytes")
            if moved == 0 and type(moved) is int:
                done = d.get("total_ios", 0)
                if done == 0 and type(done) is int:
                    continue  # an idle direction (exact integer zeros): nothing to check or tabulate
            if fmt is fmt_hint:
                clat = d.get("clat_ns")
                if type(clat) is dict and "bins" in clat:
                    fmt = "fio-json+"
            row = common.copy()
            nums = _direction_fast(d, direction, row)
            if nums is _SLOW:
                nums = _direction_rows(d, direction, path, f"jobs[{index}].{direction}")
                if nums is not None:
                    row = {**common, **nums}
            if nums is None:
                continue
            _warn_inconsistent(row, d, opts, path, f"jobs[{index}] ({name!r})", direction)
            if "lat_percentiles" in opts and _total_in_clat(d, opts):
                for col in _PERCENTILES.values():  # total-latency percentiles under clat_ns (fio 3.1-3.15)
                    row["lat" + col[4:]], row[col] = row[col], math.nan
            option, moved, done = sizes[direction], row["io_bytes"], row["ios"]
            # choose_block_size, its common cases inline: the option's size where the measurement agrees
            # with it, the measured mean where no size was given
            if option is None:
                row["block_size_bytes"] = moved / done if done > 0 and moved - moved == 0.0 else math.nan
            else:
                row["block_size_bytes"] = option if done > 0 and moved - moved == 0.0 \
                    and abs(option * done - moved) <= option * (in_flight + 1e-6 * done) \
                    else choose_block_size(option, moved, done, in_flight=in_flight)
            job_rows.append(row)
        if has_mixed and len(job_rows) > 1:  # unified_rw_reporting=both: 'mixed' sums read+write
            for r in job_rows:
                if r["direction"] == "mixed":
                    r["is_aggregate"] = True
        if not job_rows:
            pass
        elif echoed:
            if group and fields.get("pattern") in _ONE_WAY and _contradicts(fields.get("pattern"), job_rows):
                # a group of jobs with different patterns: fio echoes one member's options (the last
                # job's); they do not describe the group, so only what was measured is kept
                _realised_mix(job_rows)
        elif len(job_rows) == 1:  # options unknown: the realised read share is still measured
            r = job_rows[0]
            direction = r["direction"]
            if direction == "read":
                r["read_fraction"] = 1.0 if r["ios"] else math.nan
            else:
                r["read_fraction"] = 0.0 if direction == "write" and r["ios"] else math.nan
        else:
            reads = sum([r["ios"] for r in job_rows if r["direction"] == "read"])
            total = sum([r["ios"] for r in job_rows if r["direction"] in ("read", "write")])
            share = reads / total if total else math.nan
            for r in job_rows:
                r["read_fraction"] = share
        sync = _sync_columns(job.get("sync"), path, f"jobs[{index}].sync") if "sync" in job else None
        if sync is not None:  # a job's fsync/fdatasync calls: on the row of the writes that issue them
            on = next((r for d in ("write", "mixed", "trim") for r in job_rows if r["direction"] == d), None)
            if on is not None:
                on.update(sync)
            elif job_rows and final:
                warnings.warn(f"{path}: jobs[{index}] ({name!r}) measured {sync['sync_ios']:.0f} sync call(s) but "
                              "no writes; they are not tabulated", IngestWarning, stacklevel=3)
        if error:
            job_rows = failed_job_rows(job_rows, common, defaulted)
            warnings.warn(f"{path}: jobs[{index}] ({name!r}) failed with fio error {error} ({_strerror(error)}); its "
                          "numbers are not tabulated (row kept with the error column set)", IngestWarning,
                          stacklevel=3)
        if echoed and job_rows and not PACING_OPTIONS.isdisjoint(opts):
            _apply_pacing(job_rows, opts, job_opts, path, own=bool(merged and merged > numjobs))
        if "gtod_reduce" in opts and job_rows and not no_latency and _truthy(opts["gtod_reduce"]) \
                and any(math.isnan(r["lat_mean_s"]) and math.isnan(r["clat_mean_s"]) for r in job_rows):
            no_latency = f"gtod_reduce={opts['gtod_reduce']}"
        rows += job_rows
        if not job_rows and not all_clients and final:  # an interim report precedes a stonewalled job's start
            warnings.warn(f"{path}: jobs[{index}] ({name!r}) {_no_io_reason(opts)}; no row for it", IngestWarning,
                          stacklevel=3)
    if no_latency and final:
        warnings.warn(f"{path}: fio did not measure latency in this run ({no_latency} turns its latency "
                      "measurement off), so its latency columns are NaN; IOPS and bandwidth are measured", IngestWarning, stacklevel=3)
    if unknown_job_keys:
        warnings.warn(f"{path}: unknown fio job keys ignored: {sorted(unknown_job_keys)}", IngestWarning,
                      stacklevel=3)
    if fmt != fmt_hint:
        for row in rows:
            row["format"] = fmt
    return rows


def _job_files(opts: dict, job_opts: dict, name, numjobs: int, merged: int | None, group: bool, clones_seen: dict,
               path, index: int, devices: list[str]) -> list[str] | None:
    """The files of a job entry where ``filename=`` does not list them (``target_names``): ``[]`` where fio's
    output cannot say (NA, with a warning), None where the echoed ``filename=`` stands.

    A ``group_reporting`` sum of several job sections (``merged`` jobs, more than ``numjobs``) that set their own
    ``filename=`` cannot say: fio echoes the last job's options only. A ``directory=`` job without ``filename=``
    uses the files fio names after it (:func:`~nvmemodel.ingest.fio_options.directory_files`): every clone's for
    a group entry, else the clone's own (clones are reported in order: the k-th entry of a name is clone k)."""
    several = bool(merged and merged > numjobs)
    if "filename" in opts:
        if several and "filename" in job_opts:
            shown = f"; fio reported statistics for {len(devices)} device(s) of the whole run ({', '.join(devices)}: " \
                    "devices, device_count)" if devices else ""
            warnings.warn(f"{path}: jobs[{index}] ({name!r}) is a group_reporting sum of {merged} jobs whose sections "
                          f"set their own filename=, and fio's JSON echoes only the last job's "
                          f"({_echoed_name(job_opts, name)}, filename={job_opts['filename']}): the group's files are "
                          f"not in the output, so its target_names and targets are NA (unless the job file is echoed "
                          f"before the output){shown}", IngestWarning,
                          stacklevel=4)
            return []
        return None
    if several:
        warnings.warn(f"{path}: jobs[{index}] ({name!r}) is a group_reporting sum of {merged} jobs of several sections "
                      f"that write under directory={opts['directory']}, each in files named after its own section, "
                      "and fio's JSON names only the first section: the group's files are not in the output, so its "
                      "target_names and targets are NA", IngestWarning, stacklevel=4)
        return []
    key = (str(name), str(opts.get("directory")))
    clone = clones_seen.get(key, 0)
    clones_seen[key] = clone + 1
    files = directory_files(opts, name, numjobs, None if group else clone % numjobs)
    if isinstance(files, str):
        warnings.warn(f"{path}: jobs[{index}] ({name!r}) writes under directory={opts['directory']} and {files}: "
                      "its target_names and targets are NA", IngestWarning, stacklevel=4)
        return []
    return files


def _total_in_clat(d: dict, opts: dict) -> bool:
    """The direction's ``clat`` percentiles are of total latency: a job with ``lat_percentiles=1`` whose ``lat``
    block has none while its ``clat`` block has them. fio 3.1-3.15 keep one histogram, of total latency under
    lat_percentiles (which turns clat_percentiles off), and write its percentiles under ``clat_ns`` (stat.c
    ``add_ddir_status_json``; seen in fio 3.1 and 3.7 output); later releases write them under ``lat_ns``."""
    if not _truthy(opts["lat_percentiles"]):
        return False
    lat, _ = _latency(d, "lat")
    clat, _ = _latency(d, "clat")
    return isinstance(lat, dict) and isinstance(clat, dict) and "percentile" not in lat \
        and isinstance(clat.get("percentile"), dict)


def _apply_pacing(rows: list[dict], opts: dict, job_opts: dict, path, *, own: bool) -> None:
    """The pacing columns (rate caps, think time, syncs) of a job's rows from its options. ``own``: the
    entry sums jobs with their own options, of which fio echoes the last job's: what that job sets itself
    is not known for the group (NA)."""
    if own:
        opts = {k: v for k, v in opts.items() if not (k in PACING_OPTIONS and k in job_opts)}
    pacing = pacing_fields(opts, path)
    for r in rows:
        r.update(pacing.get(r["direction"], ()))


def _truthy(value) -> bool:
    """A fio boolean option's value set (fio reads 0 and false as unset)."""
    return str(value).strip().lower() not in ("0", "false", "")


def _echoed_name(job_opts: dict, name) -> str:
    """Which job's options fio echoed for a group: 'job <name>' where they name it."""
    echoed = job_opts.get("name")
    return f"job {str(echoed)!r}" if echoed is not None and str(echoed) != str(name) else "one job"


def _no_io_reason(opts: dict) -> str:
    """Why a job has no row, in words (cpuio burns CPU; create_only only lays out files)."""
    if str(opts.get("ioengine", "")).strip() == "cpuio":
        return "is a CPU-load job (ioengine=cpuio) and does no I/O"
    if str(opts.get("create_only", "0")).strip() not in ("0", "false", ""):
        return "only creates its files (create_only) and does no I/O"
    return "completed no I/O"


_ONLY = {"read": {"read", "randread"}, "write": {"write", "randwrite"}}
_ONE_WAY = _ONLY["read"] | _ONLY["write"]


def _contradicts(pattern: str | None, rows: list[dict]) -> bool:
    """A row measures a direction the echoed pattern cannot issue (reads under rw=write)."""
    dirs = {r["direction"] for r in rows}
    if pattern in _ONLY["read"]:
        return bool(dirs & {"write", "trim"})
    if pattern in _ONLY["write"]:
        return bool(dirs & {"read", "trim"})
    return False


def _realised_mix(rows: list[dict]) -> None:
    """Options unknown for these rows: pattern and random share unknown, the read share and
    block size as measured."""
    reads = sum(r["ios"] for r in rows if r["direction"] == "read")
    total = sum(r["ios"] for r in rows if r["direction"] in ("read", "write"))
    for r in rows:
        r.update(pattern=None, random_fraction=math.nan, read_fraction=reads / total if total else math.nan,
                 block_size_bytes=r["io_bytes"] / r["ios"] if r["ios"] > 0 else math.nan)


def _strerror(code: int) -> str:
    import os

    return os.strerror(code)


def _run_clock(doc) -> tuple[tuple, float, tuple] | None:
    """(job names, report time in ms, each job's longest direction runtime in ms) of a document, or None."""
    jobs = doc.get("jobs")
    if not isinstance(jobs, list) or not jobs or not all(isinstance(j, dict) for j in jobs):
        return None
    when = doc.get("timestamp_ms")
    if type(when) is not int:
        when = doc.get("timestamp") * 1000 if type(doc.get("timestamp")) is int else None
    runtimes = []
    for j in jobs:
        times = [j[d].get("runtime") for d in (*_DIRECTIONS, "mixed") if isinstance(j.get(d), dict)]
        times = [float(t) for t in times if type(t) in (int, float) and math.isfinite(t)]
        runtimes.append(max(times, default=0.0))
    if when is None or not any(runtimes):
        return None
    names = tuple((j.get("jobname"), j.get("groupid")) for j in jobs)
    return names, float(when), tuple(runtimes)


def _continues(prev, doc) -> bool:
    """True if ``doc`` is a later ``--status-interval`` report of the run that wrote ``prev``.

    Within one run no job's runtime goes down, some job's grows (with stonewalled groups only
    the running group's), and the report times advance by about what the runtime advanced; a
    separate run appended to the file started after ``prev`` was written, so its report comes
    at least its whole runtime later. (``eta`` does not tell: fio writes 0 only in a final
    report that followed status reports, and INT_MAX otherwise.)
    """
    a, b = _run_clock(prev), _run_clock(doc)
    if a is None or b is None or a[0] != b[0]:
        return False
    (_, t1, r1), (_, t2, r2) = a, b
    if any(y < x for x, y in zip(r1, r2)):
        return False
    grown = max(y - x for x, y in zip(r1, r2))
    slack = 0.0 if prev.get("timestamp_ms") is not None else 1000.0  # whole-second timestamps
    # (or sooner than its own runtime after prev: a run appended to the file started after prev was written, so
    # its report comes at least its runtime later; fio 2.2.10's reports can lag their runtimes by a second or more)
    return grown > 0 and (t2 - t1) - slack < max(grown + max(r1) / 2, max(r2))


def final_flags(docs: list, truncated: bool, microseconds: set | frozenset = frozenset()) -> list[bool]:
    """Which reports are final: each one not continued by the next report of the same run;
    the last one too, unless the file ends in a truncated report (the run's final report is lost).
    ``microseconds``: reports of fio 2.1 known to be interim (see :func:`interim_in_microseconds`)."""
    flags = [i not in microseconds and not _continues(a, b) for i, (a, b) in enumerate(itertools.pairwise(docs))]
    return flags + [not truncated] if docs else []


def _counters(doc) -> tuple | None:
    """(job names, each job's bytes over its directions, each job's context switches, each job's longest runtime)
    of a document without report times (fio 2.1), or None."""
    jobs = doc.get("jobs") if isinstance(doc, dict) else None
    if not isinstance(jobs, list) or not jobs or not all(isinstance(j, dict) for j in jobs):
        return None
    names, moved, ctx, runtimes = [], [], [], []
    for j in jobs:
        blocks = [j[d] for d in _ALL_DIRECTIONS if isinstance(j.get(d), dict)]
        values = [b.get("io_bytes") for b in blocks] + [b.get("runtime") for b in blocks] + [j.get("ctx", 0)]
        if not all(type(v) is int and 0 <= v < _INT_MAX for v in values):
            return None
        names.append((j.get("jobname"), j.get("groupid")))
        moved.append(sum(b["io_bytes"] for b in blocks))
        ctx.append(j.get("ctx", 0))
        runtimes.append(max((b["runtime"] for b in blocks), default=0))
    return tuple(names), moved, ctx, runtimes


def interim_in_microseconds(docs: list) -> set[int]:
    """The reports of fio 2.1 that are ``--status-interval`` interim reports whose runtimes are in µs.

    fio 2.1 (seen in 2.1.11) writes an interim report's ``runtime`` in µs and its final report's in ms, and
    its JSON has no report time: the interim reports of a 3 s run say 522,446, 1,561,659 and 2,598,374, its
    final report 3,001. A report is such an interim report where the next report of the same jobs has moved
    at least as many bytes with as many context switches or more (one run's counters only grow), and either
    is the final report, with a runtime below this one's but not below a thousandth of it, or is itself such
    an interim report with a runtime as long or longer. Runs appended to a file restart their counters."""
    out: set[int] = set()
    counters = [_counters(d) if str(d.get("fio version", "")).startswith("fio-2.1") and "timestamp" not in d
                else None for d in docs]
    for i in range(len(docs) - 2, -1, -1):
        a, b = counters[i], counters[i + 1]
        if a is None or b is None or a[0] != b[0] or any(y < x for x, y in zip(a[1], b[1])) \
                or any(y < x for x, y in zip(a[2], b[2])) or not any(y > x for x, y in zip(a[1], b[1])):
            continue
        shorter = all(x / 1000 <= y < x for x, y in zip(a[3], b[3]) if x)  # µs, then the final report's ms
        longer = i + 1 in out and all(y >= x for x, y in zip(a[3], b[3]))  # µs, then µs
        if (shorter and i + 1 not in out) or longer:
            out.add(i)
    return out


def read_fio_json(path, text: str | None = None) -> list[dict]:
    """Rows of a fio JSON / json+ result file (see the module docstring for what is handled)."""
    if text is None:
        with open(path, encoding="utf-8", errors="strict") as fh:
            text = fh.read()
    docs, truncated = _decode_documents(text, path)
    if len(docs) == 1 and not truncated:  # the common case: one complete report
        return rows_from_document(docs[0], path, snapshot=0, final=True, run=0)
    micro = interim_in_microseconds(docs)
    finals = final_flags(docs, truncated, micro)
    if truncated:
        warnings.warn(f"{path}: the last report is truncated (run killed while writing?); it is not read, and the "
                      f"{len(docs)} complete report(s) before it are interim unless a later run began",
                      IngestWarning, stacklevel=2)
    rows, run = [], 0
    for i, doc in enumerate(docs):
        doc_rows = rows_from_document(doc, path, snapshot=i, final=finals[i], run=run)
        if i in micro:  # fio 2.1's interim runtimes are µs: the rates fio derived from them are 1000x too low
            for r in doc_rows:
                if r.get("runtime_s") == r.get("runtime_s"):
                    r["runtime_s"] /= 1000.0
                    r["iops"] = r["ios"] / r["runtime_s"] if r["runtime_s"] > 0 else math.nan
                    r["bw_bytes_per_s"] = r["io_bytes"] / r["runtime_s"] if r["runtime_s"] > 0 else math.nan
        rows.extend(doc_rows)
        run += finals[i]
    return rows
