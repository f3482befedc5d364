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

import json
import math
import warnings

try:  # optional accelerator (pip install "nvmemodel[fast]"); the stdlib path gives identical rows
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - exercised when orjson is absent
    _fast_loads = None

from ..errors import IngestError, IngestWarning
from .fio_options import block_sizes, workload_fields
from .schema import new_row

_DIRECTIONS = ("read", "write", "trim")
_PERCENTILES = {"50.000000": "clat_p50_s", "90.000000": "clat_p90_s", "95.000000": "clat_p95_s",
                "99.000000": "clat_p99_s", "99.900000": "clat_p99_9_s", "99.990000": "clat_p99_99_s"}
_KNOWN_DOC_KEYS = {"fio version", "timestamp", "timestamp_ms", "time", "jobs", "disk_util", "global options",
                   "client_stats", "cmdline"}
_KNOWN_JOB_KEYS = {
    "jobname", "groupid", "job_start", "error", "eta", "elapsed", "job options", "read", "write", "trim", "sync",
    "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "iodepth_level", "iodepth_submit",
    "iodepth_complete", "latency_ns", "latency_us", "latency_ms", "latency_depth", "latency_target",
    "latency_percentile", "latency_window", "hostname", "port", "desc", "steadystate", "mixed",
}


def _decode_documents(text: str, path) -> list[dict]:
    """Every top-level JSON object in ``text`` (with noise before, between or after)."""
    first_error = None
    try:
        doc = _fast_loads(text) if _fast_loads is not None else json.loads(text)
    except ValueError as exc:  # orjson.JSONDecodeError is a ValueError too
        first_error = exc
        if _fast_loads is not None:  # orjson rejects NaN/Infinity literals that fio never writes but
            try:  # hand-edited files may hold; let the stdlib decide (and the checks reject NaN)
                doc = json.loads(text)
                first_error = None
            except ValueError as exc2:
                first_error = exc2
    if first_error is None:
        if not (isinstance(doc, dict) and ("fio version" in doc or "jobs" in doc or "client_stats" in doc)):
            raise IngestError(path, "a JSON document that is not fio output (no 'fio version' or 'jobs' key)")
        return [doc]
    decoder = json.JSONDecoder()
    docs, pos = [], 0
    while True:
        start = text.find("{", pos)
        if start < 0:
            break
        try:
            doc, end = decoder.raw_decode(text, start)
        except ValueError:
            pos = start + 1
            continue
        docs.append(doc)
        pos = end
    fio_docs = [d for d in docs if isinstance(d, dict) and ("fio version" in d or "jobs" in d or "client_stats" in d)]
    if fio_docs:
        return fio_docs
    if '"fio version"' in text or '"jobs"' in text:
        raise IngestError(path, f"truncated or malformed fio JSON ({first_error})")
    raise IngestError(path, f"not JSON: {first_error}")


def looks_like_fio_json(head: str) -> bool:
    return '"fio version"' in head or ('"jobs"' in head and "{" in head) or '"client_stats"' in head


_MISSING = object()


def _num(d: dict, key: str, path, where: str, *, required: bool = True) -> float:
    """A finite number from ``d[key]``; NaN when absent and not required; IngestError otherwise."""
    value = d.get(key, _MISSING)
    kind = type(value)
    if kind is float and value - value == 0.0:  # fast path: a finite float (NaN and inf fail x - x == 0)
        return value
    if kind is int:
        return float(value)
    if value is _MISSING:
        if required:
            raise IngestError(path, f"{where}: missing field {key!r}")
        return math.nan
    if kind is float:
        raise IngestError(path, f"{where}.{key} is {value}: expected a finite number")
    raise IngestError(path, f"{where}.{key} = {value!r}: expected a number")


def _latency(d: dict, base: str) -> tuple[dict | None, float]:
    """The latency block and its scale to seconds: fio 3 ``*_ns`` (ns), fio 2 plain (µs)."""
    if f"{base}_ns" in d:
        return d[f"{base}_ns"], 1e-9
    if base in d and isinstance(d[base], dict):
        return d[base], 1e-6
    return None, math.nan


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
    if math.isnan(ios):
        ios = float(round(iops * runtime_ms / 1000.0))
    if ios <= 0 and io_bytes <= 0:
        return None
    bw = _num(d, "bw_bytes", path, where, required=False)
    bw_key = "bw_bytes"
    if math.isnan(bw):
        bw, bw_key = _num(d, "bw", path, where) * 1024.0, "bw"  # KiB/s
    for key, value in (("runtime", runtime_ms), ("iops", iops), ("io_bytes", io_bytes), ("total_ios", ios),
                       (bw_key, bw)):
        if value < 0 or math.isinf(value):
            raise IngestError(path, f"{where}.{key} = {d.get(key, value)!r}: expected a non-negative finite number")
    out = {"direction": direction, "runtime_s": runtime_ms / 1000.0, "iops": iops, "io_bytes": io_bytes,
           "ios": ios, "bw_bytes_per_s": bw}
    for base in ("lat", "clat", "slat"):
        block, scale = _latency(d, base)
        if not isinstance(block, dict):
            continue
        here = f"{where}.{base}"
        if _num(block, "N", path, here, required=False) == 0:
            continue  # no samples (e.g. slat with some engines): leave unknown
        out[f"{base}_mean_s"] = _num(block, "mean", path, here, required=False) * scale
        if base == "lat" or ("lat_max_s" not in out and base == "clat"):
            out["lat_max_s"] = _num(block, "max", path, here, required=False) * scale
        pct = block.get("percentile")
        if base == "clat" and isinstance(pct, dict):
            where_pct = f"{here}.percentile"
            for key, col in _PERCENTILES.items():
                if key in pct:
                    out[col] = _num(pct, key, path, where_pct) * scale
    return out


def rows_from_document(doc: dict, path, *, snapshot: int, final: bool, fmt_hint: str = "fio-json") -> list[dict]:
    """Table rows of one fio JSON document."""
    if not isinstance(doc, dict):
        raise IngestError(path, "not a fio JSON document: expected an object with 'fio version' and 'jobs'")
    unknown = set(doc) - _KNOWN_DOC_KEYS
    if unknown:
        warnings.warn(f"{path}: unknown top-level fio keys ignored: {sorted(unknown)}", IngestWarning, stacklevel=3)
    version = doc.get("fio version")
    version = None if version is None else str(version)
    entries = doc.get("client_stats") if "client_stats" in doc else doc.get("jobs")
    if not isinstance(entries, list):
        raise IngestError(path, "field 'jobs': expected a list of jobs (is this fio JSON output?)")
    global_opts = doc.get("global options") or {}
    disk_util = doc.get("disk_util") or []
    devices = [str(u["name"]) for u in (disk_util if isinstance(disk_util, list) else [])
               if isinstance(u, dict) and u.get("name")]
    fmt = fmt_hint
    rows = []
    unknown_job_keys: set[str] = set()
    name_counts: dict = {}
    for job in entries:
        if isinstance(job, dict):
            key = str(job.get("jobname"))
            name_counts[key] = name_counts.get(key, 0) + 1
    for index, job in enumerate(entries):
        where = f"jobs[{index}]"
        if not isinstance(job, dict):
            raise IngestError(path, f"{where}: expected an object")
        unknown_job_keys |= set(job) - _KNOWN_JOB_KEYS
        job_opts = job.get("job options") or {}
        if not isinstance(job_opts, dict) or not isinstance(global_opts, dict):
            raise IngestError(path, f"{where}: 'job options' / 'global options' must be objects of option: value")
        opts = {k: str(v) for k, v in {**global_opts, **job_opts}.items()}
        name = job.get("jobname")
        all_clients = name == "All clients"
        # an "All clients" sum carries no options of its own: unknown rather than defaulted
        echoed = "job options" in job or ("global options" in doc and not all_clients)
        fields, defaulted = workload_fields(opts, path, echoed=echoed)
        sizes = block_sizes(opts, path)
        # group_reporting is not always echoed: fewer entries than numjobs clones means a group sum
        numjobs = fields.get("numjobs") or 1
        group = numjobs > 1 and ("group_reporting" in opts or name_counts[str(name)] < numjobs)
        common = {
            "tool": "fio", "tool_version": version, "source_path": str(path), "snapshot": snapshot, "final": final,
            "job_name": None if name is None else str(name), "job_index": index,
            "group_id": job["groupid"] if isinstance(job.get("groupid"), int) else None,
            "hostname": None if job.get("hostname") is None else str(job.get("hostname")),
            "level": "all-clients" if all_clients else ("group" if group else "job"), "is_aggregate": all_clients,
            "cpu_usr": _num(job, "usr_cpu", path, where, required=False) / 100,  # % of one CPU
            "cpu_sys": _num(job, "sys_cpu", path, where, required=False) / 100,
            **fields,
        }
        if devices:
            common["devices"] = ";".join(devices)
            common["device_count"] = len(devices)
        job_rows = []
        for direction in _DIRECTIONS:
            d = job.get(direction)
            if not isinstance(d, dict):
                continue
            if isinstance(d.get("clat_ns"), dict) and "bins" in d["clat_ns"]:
                fmt = "fio-json+"
            nums = _direction_rows(d, direction, path, f"{where}.{direction}")
            if nums is None:
                continue
            bs = sizes[direction]
            if bs is None:
                bs = nums["io_bytes"] / nums["ios"] if nums["ios"] > 0 else math.nan  # measured mean size
            row = new_row(**common, **nums, block_size_bytes=bs)
            row["defaulted"] = ";".join(defaulted) or None
            job_rows.append(row)
        if not echoed and job_rows:  # options unknown: the realised read share is still measured
            reads = sum(r["ios"] for r in job_rows if r["direction"] == "read")
            total = sum(r["ios"] for r in job_rows if r["direction"] != "trim")
            for r in job_rows:
                r["read_fraction"] = reads / total if total else math.nan
        rows.extend(job_rows)
        if not job_rows and not all_clients:
            warnings.warn(f"{path}: {where} ({name!r}) completed no I/O; no row for it", IngestWarning, stacklevel=3)
    if unknown_job_keys:
        warnings.warn(f"{path}: unknown fio job keys ignored: {sorted(unknown_job_keys)}", IngestWarning,
                      stacklevel=3)
    for row in rows:
        row["format"] = fmt
    return rows


def read_fio_json(path, text: str | None = None) -> list[dict]:
    """Rows of a fio JSON / json+ result file (see the module docstring for what is handled)."""
    if text is None:
        with open(path, encoding="utf-8", errors="strict") as fh:
            text = fh.read()
    docs = _decode_documents(text, path)
    rows = []
    for i, doc in enumerate(docs):
        rows.extend(rows_from_document(doc, path, snapshot=i, final=i == len(docs) - 1))
    return rows
