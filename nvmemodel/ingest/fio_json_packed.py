"""The usual fio JSON report read straight into packed rows (tuples of the table's values).

:func:`packed_rows` gives, for one complete fio JSON document read alone from a file, the rows
that :func:`~nvmemodel.ingest.fio_json.rows_from_document` followed by the file-level steps
(``targets`` per run, verify reads) gives, as tuples of their values in
:data:`~nvmemodel.ingest.schema.COLUMNS` order: what ``read_results`` keeps of a file without
labels (``read_results`` turns them into dicts where a file has labels). It writes no row dict
(each job's values are locals, each row one tuple), which is what makes it cheaper. It makes every
check the general reader makes on what it reads (a direction's numbers are read by the same
:func:`~nvmemodel.ingest.fio_json.direction_numbers`), and reads only the usual report: every job
a ``dict`` of known keys with ``read`` and ``write`` blocks, no ``mixed`` (unified reporting), no
``client_stats``, no ``json+`` bins, error 0, every direction with its numbers. Anything else —
an unknown key, a failed or idle job, a group whose echoed pattern its rows contradict, an odd
value, anything the general reader would warn about or refuse — returns None, and the general
reader reads the document again and says what it says. ``tests/ingest/test_fast_paths.py`` holds
it to the general reader on every JSON file of the test data.
"""

from __future__ import annotations

import math

from ..errors import IngestError
from .fio_json import (
    disk_busy,
    disk_ios,
    _FLOAT_MAX,
    _KNOWN_DOC_KEYS,
    _KNOWN_JOB_KEYS,
    _ONE_WAY,
    _ONLY,
    IDLE,
    _option_fields,
    direction_numbers,
    job_group,
    numbers_inconsistent,
    sync_measured,
)
from .fio_options import CPU_WORK_COLUMN, ENGINE_COLUMNS, SERIAL_COLUMN, PACING_OPTIONS, choose_block_size, drive_letter_split
from .schema import COLUMNS
from .steadystate import NO_STEADY_STATE

__all__ = ["packed_rows"]

#: The column order the tuples below are written in (checked against the schema at import).
_ORDER = ("tool", "tool_version", "format", "source_path", "run", "snapshot", "final", "job_name", "job_index",
          "group_id", "hostname", "level", "is_aggregate", "pattern", "direction", "read_fraction",
          "random_fraction", "block_size_bytes", "iodepth", "numjobs", "ioengine", "direct", "target_names",
          "targets", "devices", "device_count", "disk_read_ios", "disk_write_ios", "disk_util_pct", "rate_iops",
          "rate_bytes_per_s", "thinktime_s",
          "fsync_every", "fdatasync_every", "end_fsync", "hipri", "sqthread_poll", "iodepth_low", "iodepth_batch",
          "iodepth_batch_complete", "cpus_allowed", "cpu_options", "serial_options", "runtime_s", "ios", "io_bytes", "iops", "bw_bytes_per_s",
          "lat_mean_s", "clat_mean_s", "slat_mean_s", "lat_max_s", "clat_p50_s", "clat_p90_s", "clat_p95_s",
          "clat_p99_s", "clat_p99_9_s", "clat_p99_99_s", "lat_p50_s", "lat_p90_s", "lat_p95_s", "lat_p99_s",
          "lat_p99_9_s", "lat_p99_99_s", "sync_ios", "sync_lat_mean_s", "sync_lat_max_s", "sync_lat_p50_s",
          "sync_lat_p90_s", "sync_lat_p95_s", "sync_lat_p99_s", "sync_lat_p99_9_s", "sync_lat_p99_99_s",
          "cpu_usr", "cpu_sys", "ctx", "defaulted", "error", "ss_criterion", "ss_attained", "ss_duration_s",
          "ss_criterion_value", "ss_iops", "ss_bw_bytes_per_s")
if _ORDER != tuple(COLUMNS):  # pragma: no cover - a schema change must be followed here
    raise ImportError("fio_json_packed: the packed column order no longer matches schema.COLUMNS")

_NAN = math.nan
#: the total-latency percentiles of a row: not written (fio writes them with lat_percentiles=1, which
#: direction_numbers leaves to the general reader)
NO_LAT_PERCENTILES = (_NAN,) * 6
#: the sync columns of a row (sync_ios, sync_lat_*): none measured (a job whose fio JSON sync block has samples is
#: read by the general reader: fio_json.sync_measured)
NO_SYNC = (_NAN,) * 9
#: the pacing columns of a row (fio_options.PACING_COLUMNS) where no option sets them (the general reader
#: reads the documents whose options do)
NO_PACING = (_NAN, _NAN, _NAN, None, None, None)
#: options whose documents the general reader reads: pacing (its columns), gtod_reduce (its warning) and
#: lat_percentiles (fio 3.1-3.15 wrote total-latency percentiles as clat_ns's: fio_json._total_in_clat),
#: directory (the files fio names after the job: fio_json._job_files)
GENERAL_ONLY = PACING_OPTIONS | {"gtod_reduce", "lat_percentiles", "directory"}
_WRITE_ONLY = ("write", "randwrite")  # a read of such a job is its verify phase (api._mark_verify_reads)
#: directions a one-way pattern cannot issue (as fio_json._contradicts reads them)
_OTHER_WAY = {p: {"write", "trim"} if p in _ONLY["read"] else {"read", "trim"} for p in _ONE_WAY}
#: What an option set gives a job (see _option_set), keyed by whether it was echoed and the names and values
#: of the job's options, after the global options' names and values where the document has them.
_OPTION_SETS: dict = {}


def _option_set(opts: dict, path: str, echoed: bool, key: tuple) -> tuple:
    """(block size of read, write, trim; numjobs; verify; group_reporting; I/Os in flight; pattern;
    read_fraction; random_fraction; (iodepth, numjobs, ioengine, direct, target_names, targets); defaulted; whether
    an option of :data:`GENERAL_ONLY` is set; the values of fio_options.ENGINE_COLUMNS)
    of a job's options, from :func:`fio_json._option_fields` (which raises what the general reader raises)."""
    fields, _, sizes, option_columns, numjobs, verify, grouped, in_flight = _option_fields(opts, path, echoed,
                                                                                          warn=False)
    got = fields.get
    hit = (sizes["read"], sizes["write"], sizes["trim"], numjobs, verify, grouped, in_flight, got("pattern"),
           got("read_fraction", _NAN), got("random_fraction", _NAN),
           (got("iodepth"), got("numjobs"), got("ioengine"), got("direct"), got("target_names"), got("targets")),
           option_columns["defaulted"], not GENERAL_ONLY.isdisjoint(opts)
           or drive_letter_split(str(opts.get("filename", ""))) is not None,  # (its warning: the general reader's)
           tuple([got(c) for c in (*ENGINE_COLUMNS, CPU_WORK_COLUMN, SERIAL_COLUMN)]))
    # as _option_fields keeps them: only sets of strings (1, 1.0 and True are equal keys but other option text)
    if len(_OPTION_SETS) < 4096 and all(type(v) is str for v in opts.values()):
        _OPTION_SETS[key] = hit
    return hit


def packed_rows(doc: dict, path: str) -> list[tuple] | None:
    """The rows of a file that is the one complete fio JSON report ``doc``, packed; None where the
    general reader must read it (see the module docstring). ``path``: the file's name as a string."""
    try:
        return _packed_rows(doc, path)
    except (IngestError, ValueError, KeyError, TypeError, IndexError, AttributeError, OverflowError,
            ZeroDivisionError):
        return None  # the general reader raises what it raises


def _packed_rows(doc: dict, path: str) -> list[tuple] | None:
    if type(doc) is not dict or not _KNOWN_DOC_KEYS.issuperset(doc) or "client_stats" in doc:
        return None
    entries = doc.get("jobs")
    if type(entries) is not list or not entries:
        return None
    version = doc.get("fio version")
    version = None if version is None else str(version)
    global_opts = doc.get("global options") or {}
    if type(global_opts) is not dict:
        return None
    disk_util = doc.get("disk_util") or []
    devices = [str(u["name"]) for u in (disk_util if isinstance(disk_util, list) else [])
               if isinstance(u, dict) and u.get("name")]
    has_global = "global options" in doc
    global_key, head, devices_part = document_parts(version, path, global_opts, devices,
                                                         disk_ios(disk_util) if devices else (None, None),
                                                         disk_busy(disk_util) if devices else None)
    rows: list[tuple] = []
    name_counts: dict | None = None
    for index, job in enumerate(entries):
        # (a key fio always writes that is missing raises KeyError: the general reader reads the document)
        if type(job) is not dict or not _KNOWN_JOB_KEYS.issuperset(job) or "mixed" in job or "steadystate" in job:
            return None  # (a steady-state report: the general reader reads it)
        read, write = job["read"], job["write"]
        job_opts = job.get("job options") or {}
        name, error = job["jobname"], job["error"]
        if type(read) is not dict or type(write) is not dict or type(job_opts) is not dict or name == "All clients" \
                or not (error == 0 and type(error) is int):
            return None
        echoed = "job options" in job or has_global
        option_set = job_option_set(global_opts, global_key, job_opts, path, echoed)
        bs_read, bs_write, bs_trim, numjobs, verify, grouped, in_flight, pattern, read_fraction, random_fraction, \
            option_part, defaulted, general, engine_part = option_set
        if general:
            return None  # options that pace the run or turn latency off: the general reader reads them
        merged, group, name_counts = job_group(job, entries, index, path, numjobs, grouped, verify, name_counts)
        if merged and merged > numjobs and echoed:
            return None  # jobs of several sections reported as one group
        group_id, usr, sys_ = job["groupid"], job["usr_cpu"], job["sys_cpu"]
        if not (type(group_id) is int and 0 <= group_id <= 2**31) or not (type(usr) is float and 0.0 <= usr <= _FLOAT_MAX) \
                or not (type(sys_) is float and 0.0 <= sys_ <= _FLOAT_MAX):
            return None
        host = job.get("hostname")
        job_head = (*head, None if name is None else str(name), index, group_id, None if host is None else str(host),
                    "group" if group else "job", False, pattern)
        if sync_measured(job.get("sync")):
            return None  # fsync/fdatasync calls measured: the general reader tabulates them
        if "ctx" in job:  # context switches: fio's count (as fio_json reads it: else the general reader)
            ctx = job["ctx"]
            if not (type(ctx) is int and 0 <= ctx < 2**63):
                return None
            ctx = float(ctx)
        else:
            ctx = _NAN
        job_tail = (*NO_LAT_PERCENTILES, *NO_SYNC, usr / 100, sys_ / 100, ctx, defaulted, 0, *NO_STEADY_STATE)
        option_part = (*option_part, *devices_part, *engine_part)
        job_rows = []
        for direction, d, option in (("read", read, bs_read), ("write", write, bs_write),
                                     ("trim", job.get("trim"), bs_trim)):
            if type(d) is not dict:
                if isinstance(d, dict):
                    return None
                continue
            moved = d["io_bytes"]
            if moved == 0 and type(moved) is int:
                done = d.get("total_ios", 0)
                if done == 0 and type(done) is int:
                    continue  # an idle direction (exact integer zeros)
            if "bins" in d.get("clat_ns", ()):
                return None  # json+ (or clat_ns not an object): the general reader reads it
            numbers = direction_numbers(d)
            if numbers is None or numbers is IDLE or numbers_inconsistent(numbers):
                return None  # (latencies that contradict each other: the general reader warns)
            job_rows.append((direction, block_size(option, numbers, in_flight), numbers))
        if not append_job_rows(rows, job_rows, echoed, group, pattern, job_head, read_fraction, random_fraction,
                               option_part, job_tail):
            return None
    return with_targets(rows)


def document_parts(version, path: str, global_opts: dict, devices: list[str],
                   disk_ios: tuple = (None, None), util: str | None = None) -> tuple:
    """``(global_key, head, devices_part)`` of a report: the key of its global options for :func:`job_option_set`,
    the columns every row of it starts with, and its devices' columns (with the pacing columns NA) that end each
    job's option columns; shared with :mod:`.fio_json_typed`."""
    global_key = (tuple(global_opts), tuple(global_opts.values())) if global_opts else None
    device_part = (";".join(devices), len(devices), *disk_ios, util) if devices else (None, None, None, None, None)
    return global_key, ("fio", version, "fio-json", path, 0, 0, True), (*device_part, *NO_PACING)


def job_option_set(global_opts: dict, global_key: tuple | None, job_opts: dict, path: str, echoed: bool) -> tuple:
    """What a job's options give it (see :func:`_option_set`), looked up by the global and the job's options'
    names and values (merged only to read a new set); shared with :mod:`.fio_json_typed`."""
    if global_opts:
        key: tuple = (echoed, global_key, tuple(job_opts), tuple(job_opts.values()))
        hit = _OPTION_SETS.get(key)
        return _option_set({**global_opts, **job_opts}, path, echoed, key) if hit is None else hit
    key = (echoed, tuple(job_opts), tuple(job_opts.values()))
    hit = _OPTION_SETS.get(key)
    return _option_set(job_opts, path, echoed, key) if hit is None else hit


def block_size(option: float | None, numbers: tuple, in_flight: int) -> float:
    """A direction's block size from its option (None: not given) and its numbers (bytes over I/Os where
    the option does not say; :func:`~nvmemodel.ingest.fio_options.choose_block_size` where a range or a
    split of sizes must be chosen from)."""
    moved, done = numbers[2], numbers[1]
    if option is None:
        return moved / done if done > 0 and moved - moved == 0.0 else _NAN
    return option if done > 0 and moved - moved == 0.0 \
        and abs(option * done - moved) <= option * (in_flight + 1e-6 * done) \
        else choose_block_size(option, moved, done, in_flight=in_flight)


def append_job_rows(rows: list, job_rows: list, echoed: bool, group: bool, pattern, job_head: tuple, read_fraction,
                    random_fraction, option_part: tuple, job_tail: tuple) -> bool:
    """Append a job's packed rows to ``rows`` from its directions ``job_rows`` ((direction, block size, numbers)
    each); False where the general reader must read the document (shared with :mod:`.fio_json_typed`)."""
    if not job_rows:
        return False  # a job that did no I/O: the general reader warns
    if echoed:
        if group and pattern in _ONE_WAY and any(r[0] in _OTHER_WAY[pattern] for r in job_rows):
            return False  # a group of jobs with different patterns (fio_json._contradicts): the general
            # reader keeps what was measured
        for direction, bs, numbers in job_rows:
            if direction == "read" and pattern in _WRITE_ONLY:
                direction = "verify"  # a write job's verify reads (api._mark_verify_reads)
            rows.append((*job_head, direction, read_fraction, random_fraction, bs, *option_part, *numbers, *job_tail))
        return True
    # options unknown: the realised read share is still measured
    if len(job_rows) == 1:
        direction, _, numbers = job_rows[0]
        ios = numbers[1]
        share = (1.0 if ios else _NAN) if direction == "read" else (0.0 if direction == "write" and ios else _NAN)
    else:
        reads = sum([n[1] for dr, _, n in job_rows if dr == "read"])
        total = sum([n[1] for dr, _, n in job_rows if dr in ("read", "write")])
        share = reads / total if total else _NAN
    for direction, bs, numbers in job_rows:
        rows.append((*job_head, direction, share, random_fraction, bs, *option_part, *numbers, *job_tail))
    return True


def with_targets(rows: list[tuple]) -> list[tuple]:
    """``rows`` with targets counted over the run's jobs, where every job names its own (runs.apply_targets)."""
    if len(rows) > 1:
        names = [r[22] for r in rows]
        if None not in names:
            count = len({t for n in names for t in n.split(";")})
            rows = [r if r[23] == count else (*r[:23], count, *r[24:]) for r in rows]
    return rows
