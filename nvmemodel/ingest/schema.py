"""The tidy results table: one row per (result file, job or target, direction).

Every reader returns rows with these columns and nothing else but user labels; values are
SI (bytes, seconds, bytes/s, I/O per second, fractions 0..1). ``COLUMNS`` documents each
column; ``nvmemodel ingest --schema`` prints this table.
"""

from __future__ import annotations

import math
import operator
from typing import Any

from .steadystate import COLUMNS as _STEADY_STATE_COLUMNS

__all__ = ["COLUMNS", "FIO_DEFAULTS", "MEASUREMENTS", "failed_job_rows", "new_row", "schema_table", "to_frame"]

#: name → (dtype, unit, description). Order is the table's column order.
COLUMNS: dict[str, tuple[str, str, str]] = {
    "tool": ("string", "", "benchmark tool: fio, iometer, diskspd"),
    "tool_version": ("string", "", "version string as the tool printed it (e.g. fio-3.39, 1.1.0)"),
    "format": ("string", "", "input form: fio-json, fio-json+, fio-terse-v3, fio-normal, iometer-csv, …"),
    "source_path": ("string", "", "the result file"),
    "run": ("Int64", "", ("0-based ordinal of the benchmark run within the file, in file order (outputs of several "
                          "runs appended to one file are one run each)")),
    "snapshot": ("Int64", "", "0-based index of the report within the file (fio --status-interval writes several)"),
    "final": ("boolean", "", "True for a run's last (complete) report; earlier snapshots are interim"),
    "job_name": ("string", "", "fio job name / IOmeter test description"),
    "job_index": ("Int64", "", "position of the job (fio job, IOmeter worker) in the report"),
    "group_id": ("Int64", "", "fio group id"),
    "hostname": ("string", "", "client host (fio client/server, IOmeter manager)"),
    "level": ("string", "", "what the row aggregates: job, group (group_reporting), all-clients, ALL, MANAGER, WORKER, DISK"),
    "is_aggregate": ("boolean", "", "True if the row sums other rows of the same report (do not add it to them; a report whose every row is a sum keeps them as its measurement)"),
    "pattern": ("string", "", "fio rw= vocabulary: read, write, randread, randwrite, rw, randrw, trim, …"),
    "direction": ("string", "", ("read, write, trim, or mixed (fio unified_rw_reporting): the direction this "
                                 "row's numbers measure; verify: the read-back phase of a write job with fio "
                                 "verify= (after the writes: not summed with them)")),
    "read_fraction": ("float64", "1", "share of reads the workload issued (rwmixread/100; 1 or 0 for pure patterns)"),
    "random_fraction": ("float64", "1", "share of random accesses (IOmeter % random; 1 or 0 from a fio pattern)"),
    "block_size_bytes": ("float64", "B", "I/O size in this direction"),
    "iodepth": ("Int64", "", "queue depth per job (fio iodepth, IOmeter outstanding I/Os)"),
    "numjobs": ("Int64", "", "jobs (fio numjobs; IOmeter workers)"),
    "ioengine": ("string", "", "fio ioengine (libaio, io_uring, psync, …)"),
    "direct": ("boolean", "", "O_DIRECT (fio direct=1)"),
    "target_names": ("string", "", "files or devices the job used (fio filename=), ';'-separated"),
    "targets": ("Int64", "", ("number of distinct files or devices the run used (fio filename=a:b:c → 3, over all "
                              "its jobs that completed; IOmeter # Disks)")),
    "devices": ("string", "", "block devices the tool reported statistics for (fio disk_util), ';'-separated"),
    "device_count": ("Int64", "", "number of such devices"),
    "disk_read_ios": ("Int64", "", ("read requests those devices completed during the run (fio disk_util read_ios, "
                                    "summed over the devices listed; one count for every job of the report)")),
    "disk_write_ios": ("Int64", "", "write requests, the same way (fio disk_util write_ios)"),
    "disk_util_pct": ("string", "%", ("how busy each device listed in ``devices`` was, in the same order, ';'-separated "
                                      "(fio disk_util util: the share of the time it had at least one request in "
                                      "flight, ramp_time included)")),
    "rate_iops": ("float64", "1/s", ("I/O rate cap per job in this direction (fio rate_iops=; 0: no cap; NA: not "
                                     "set or not echoed)")),
    "rate_bytes_per_s": ("float64", "B/s", "bandwidth cap per job in this direction (fio rate=, e.g. 20m = 20 MiB/s)"),
    "thinktime_s": ("float64", "s", "pause after each I/O completes (fio thinktime=; a bare number is µs)"),
    "fsync_every": ("Int64", "", "writes between fsync calls (fio fsync=N; 0: none)"),
    "fdatasync_every": ("Int64", "", "writes between fdatasync calls (fio fdatasync=N; 0: none)"),
    "end_fsync": ("Int64", "", ("1: the job flushed its files when its writes ended or as it closed them (fio "
                                "end_fsync= or fsync_on_close=), a flush fio counts in the job's runtime; 0: set off; "
                                "NA: not set or not echoed")),
    "hipri": ("Int64", "", ("1: polled completions (fio hipri=, io_uring and pvsync2 alike), 0: not; 0 for a fio "
                            "engine without the option; NA where the output cannot say (fio's JSON leaves a bare "
                            "'--hipri' out of its job options) or does not echo options (terse, normal)")),
    "sqthread_poll": ("Int64", "", ("1: a kernel thread polls the submission queue (fio sqthread_poll=, io_uring), "
                                    "0: not; NA as for hipri")),
    "iodepth_low": ("Int64", "", ("queue depth at which fio starts submitting again (fio iodepth_low=; fio's "
                                  "default, and 0 or above iodepth: iodepth)")),
    "iodepth_batch": ("Int64", "", ("I/Os fio submits at once (fio iodepth_batch= / iodepth_batch_submit=; default "
                                    "1; 0 or above iodepth: iodepth)")),
    "iodepth_batch_complete": ("Int64", "", ("fewest completions fio waits for at once (fio "
                                             "iodepth_batch_complete_min= / iodepth_batch_complete=; default 1)")),
    "cpus_allowed": ("string", "", "CPUs the job may run on, as given (fio cpus_allowed=); NA: not set or not echoed"),
    "cpu_options": ("string", "", ("fio options that add CPU work per I/O or per byte in the job's own thread, as "
                                   "given (verify=md5, refill_buffers, buffer_compress_percentage=, dedupe_percentage=; "
                                   "';'-joined); NA: none set, or options not echoed (terse, normal)")),
    "serial_options": ("string", "", ("fio options that serialise I/O, as given (lockfile=exclusive or readwrite, "
                                      "serialize_overlap; ';'-joined); NA: none set, or options not echoed (terse, "
                                      "normal)")),
    "runtime_s": ("float64", "s", "measured run time of this direction"),
    "ios": ("float64", "", "completed I/Os"),
    "io_bytes": ("float64", "B", "bytes transferred"),
    "iops": ("float64", "1/s", "I/O per second"),
    "bw_bytes_per_s": ("float64", "B/s", "bandwidth"),
    "lat_mean_s": ("float64", "s", ("mean total latency (submission + completion) of this direction's I/Os; fio's "
                                    "sync calls are not in it (sync_lat_mean_s)")),
    "clat_mean_s": ("float64", "s", "mean completion latency"),
    "slat_mean_s": ("float64", "s", "mean submission latency"),
    "lat_max_s": ("float64", "s", "maximum latency (total, else completion)"),
    "clat_p50_s": ("float64", "s", "completion-latency median"),
    "clat_p90_s": ("float64", "s", "completion-latency 90th percentile"),
    "clat_p95_s": ("float64", "s", "completion-latency 95th percentile"),
    "clat_p99_s": ("float64", "s", "completion-latency 99th percentile"),
    "clat_p99_9_s": ("float64", "s", "completion-latency 99.9th percentile"),
    "clat_p99_99_s": ("float64", "s", "completion-latency 99.99th percentile"),
    "lat_p50_s": ("float64", "s", "total-latency median (fio lat_percentiles=1: submission + completion)"),
    "lat_p90_s": ("float64", "s", "total-latency 90th percentile (fio lat_percentiles=1)"),
    "lat_p95_s": ("float64", "s", "total-latency 95th percentile (fio lat_percentiles=1)"),
    "lat_p99_s": ("float64", "s", "total-latency 99th percentile (fio lat_percentiles=1)"),
    "lat_p99_9_s": ("float64", "s", "total-latency 99.9th percentile (fio lat_percentiles=1)"),
    "lat_p99_99_s": ("float64", "s", "total-latency 99.99th percentile (fio lat_percentiles=1)"),
    "sync_ios": ("float64", "", ("fsync/fdatasync/sync_file_range calls the job completed (fio JSON sync block: its "
                                 "latency sample count), on the job's write row (mixed: unified reporting); NA: none "
                                 "measured. Their time is not in lat_mean_s")),
    "sync_lat_mean_s": ("float64", "s", "mean latency of those sync calls (fio JSON sync.lat_ns)"),
    "sync_lat_max_s": ("float64", "s", "maximum latency of those sync calls"),
    "sync_lat_p50_s": ("float64", "s", "sync-call latency median"),
    "sync_lat_p90_s": ("float64", "s", "sync-call latency 90th percentile"),
    "sync_lat_p95_s": ("float64", "s", "sync-call latency 95th percentile"),
    "sync_lat_p99_s": ("float64", "s", "sync-call latency 99th percentile"),
    "sync_lat_p99_9_s": ("float64", "s", "sync-call latency 99.9th percentile"),
    "sync_lat_p99_99_s": ("float64", "s", "sync-call latency 99.99th percentile"),
    "cpu_usr": ("float64", "1", "user CPU in CPUs (1 = one CPU busy all run): fio: the job's own (group_reporting: per job); DiskSpd, IOmeter: the whole machine's, every process"),
    "cpu_sys": ("float64", "1", "system CPU, same basis as cpu_usr"),
    "ctx": ("float64", "", ("context switches of the job's threads as fio counts them (getrusage: voluntary + "
                            "involuntary); a group_reporting row: fio's sum over its jobs. NA: not reported (IOmeter, "
                            "DiskSpd, elbencho)")),
    "defaulted": ("string", "", "columns filled with the tool's documented default because the output did not echo them, ';'-separated"),
    "error": ("Int64", "", ("the tool's error code for this job (fio errno); 0 = ran without error, NA = not "
                            "reported. A failed job's row keeps its labels but no numbers")),
    **_STEADY_STATE_COLUMNS,  # fio's steady-state check (ss=): .steadystate
}

#: Columns that hold measured numbers: emptied (NaN) on the row of a job that failed.
MEASUREMENTS = ("runtime_s", "ios", "io_bytes", "iops", "bw_bytes_per_s", "lat_mean_s", "clat_mean_s", "slat_mean_s",
                "lat_max_s", "clat_p50_s", "clat_p90_s", "clat_p95_s", "clat_p99_s", "clat_p99_9_s",
                "clat_p99_99_s", "lat_p50_s", "lat_p90_s", "lat_p95_s", "lat_p99_s", "lat_p99_9_s", "lat_p99_99_s",
                "sync_ios", "sync_lat_mean_s", "sync_lat_max_s", "sync_lat_p50_s", "sync_lat_p90_s", "sync_lat_p95_s",
                "sync_lat_p99_s", "sync_lat_p99_9_s", "sync_lat_p99_99_s", "cpu_usr", "cpu_sys", "ctx")

#: fio's defaults for options its output does not echo (fio HOWTO: rw=read, bs=4k, iodepth=1,
#: numjobs=1, direct=0, ioengine=psync on Linux, rwmixread=50).
FIO_DEFAULTS = {"pattern": "read", "block_size_bytes": 4096.0, "iodepth": 1, "numjobs": 1, "direct": False,
                "ioengine": "psync"}

_NA: dict[str, float | None] = {"string": None, "Int64": None, "boolean": None, "float64": math.nan}
_EMPTY_ROW: dict[str, Any] = {name: _NA[dtype] for name, (dtype, _, _) in COLUMNS.items()}
_ALL_COLUMNS = operator.itemgetter(*COLUMNS)
NoneType = type(None)
_INT_OR_NONE = frozenset((int, NoneType))
_BOOL_OR_NONE = frozenset((bool, NoneType))
_TUPLE_ONLY = {tuple}


def new_row(**values) -> dict:
    """A row with every column present (missing → NA)."""
    row = dict(_EMPTY_ROW)
    row.update(values)
    return row


def failed_job_rows(rows: list[dict], common: dict, defaulted: list[str]) -> list[dict]:
    """The rows of a job that reported an error: its numbers emptied (never a measurement),
    one row (direction NA) if it did no I/O at all, so the failure is never silently dropped."""
    if not rows:
        rows = [new_row(**common)]
        rows[0]["defaulted"] = ";".join(defaulted) or None
    for row in rows:
        row.update(dict.fromkeys(MEASUREMENTS, math.nan))
    return rows


def to_frame(rows: list[dict], label_columns: list[str] | None = None):
    """Build the typed DataFrame from row dicts (schema columns first, then labels).

    A row may also be packed: a tuple of the :data:`COLUMNS` values in their order (what
    ``read_results`` keeps of a file without labels). Column by column (a typed array from each column's values), the same frame as
    ``DataFrame.from_records`` followed by ``astype`` per column, at a third of its cost."""
    import numpy as np
    import pandas as pd

    labels = [c for c in (label_columns or []) if c not in COLUMNS]
    if not rows:
        df = pd.DataFrame(columns=list(COLUMNS) + labels)
        for name, (dtype, _, _) in COLUMNS.items():
            df[name] = df[name].astype(dtype)
        return df
    columns: list[Any]  # one sequence of values per column
    if set(map(type, rows)) == _TUPLE_ONLY:  # every row packed (read_results packs rows without labels)
        columns = list(zip(*rows, strict=True))
    else:
        rows = [dict(zip(COLUMNS, r)) if type(r) is tuple else r for r in rows]
        try:  # transpose at C speed: every reader's rows hold every column
            columns = list(zip(*map(_ALL_COLUMNS, rows), strict=True))
        except KeyError:
            columns = [[r.get(name) for r in rows] for name in COLUMNS]
    data = {}
    arrays = True  # every column a numpy or pandas array (else a Series)
    for (name, (dtype, _, _)), values in zip(COLUMNS.items(), columns, strict=True):
        if values and values[0] is _NA[dtype] and values.count(values[0]) == len(values):  # (values[0] first: cheap)
            # a column no row has (an option no run set, total-latency percentiles): the readers' one NaN or None
            data[name] = _all_na(dtype, len(values))
            continue
        if dtype == "float64":
            try:  # (np.fromiter converts each value as np.array does, without looking for nested sequences first)
                data[name] = np.fromiter(values, dtype=float, count=len(values))
                continue
            except (TypeError, ValueError):
                pass
            try:
                data[name] = np.array(values, dtype=float)
                continue
            except (TypeError, ValueError):
                pass
        elif dtype == "Int64" and _INT_OR_NONE.issuperset(types := set(map(type, values))):
            try:  # integers (and None for NA), as pd.array makes them at less than half its cost
                if NoneType in types:
                    exact = np.fromiter(values, float, len(values))  # None is NaN; integers below 2**53 exactly
                    mask = np.isnan(exact)
                    exact[mask] = 0.0
                    if len(values) and np.abs(exact).max() < 2.0**53:
                        ints = exact.astype(np.int64)
                    else:
                        ints = np.array(values, dtype=object)
                        ints[mask] = 0
                        ints = ints.astype(np.int64)
                else:
                    mask = np.zeros(len(values), dtype=bool)
                    ints = np.fromiter(values, np.int64, len(values))
                data[name] = pd.arrays.IntegerArray(ints, mask)
                continue
            except OverflowError:  # beyond int64: as pd.array says
                pass
            try:
                data[name] = pd.array(values, dtype=dtype)
                continue
            except (TypeError, ValueError):
                pass
        elif dtype == "boolean" and _BOOL_OR_NONE.issuperset(types := set(map(type, values))):
            if NoneType in types:
                flags = np.fromiter(values, float, len(values))  # True 1, False 0, None NaN
                mask = np.isnan(flags)
                flags = flags == 1.0
            else:
                mask, flags = np.zeros(len(values), dtype=bool), np.fromiter(values, bool, len(values))
            data[name] = pd.arrays.BooleanArray(flags, mask)
            continue
        else:
            if dtype == "string" and (strings := _python_strings()) is not None:
                # strings and NA as they are: StringArray checks that they are (pd.array would also turn other
                # values into text: they take it below) and keeps them, at half pd.array's cost
                try:
                    data[name] = pd.arrays.StringArray(np.fromiter(values, object, len(values)), dtype=strings)
                    continue
                except (TypeError, ValueError):
                    pass
            try:
                data[name] = pd.array(values, dtype=dtype)
                continue
            except (TypeError, ValueError):
                pass
        data[name] = pd.Series(values, dtype=object).astype(dtype)
        arrays = False
    df = _frame(data, len(rows)) if arrays else pd.DataFrame(data)
    if labels:
        extra = pd.DataFrame.from_records(rows, columns=labels)
        for name in labels:
            df[name] = extra[name]
    return df


_STRINGS: list = []


def _python_strings():
    """The dtype ``pd.array(…, dtype="string")`` gives where its values are kept in a numpy array of Python strings
    (``StringDtype("python")``), else None (pyarrow storage: ``pd.array`` builds those)."""
    if not _STRINGS:
        import pandas as pd

        dtype = pd.api.types.pandas_dtype("string")
        _STRINGS.append(dtype if getattr(dtype, "storage", None) == "python" else None)
    return _STRINGS[0]


def _frame(data: dict, n: int):
    """``pd.DataFrame(data)`` of columns that are numpy or pandas arrays of ``n`` values each, without checking
    and copying them again (a tenth of its cost on a few thousand rows)."""
    import pandas as pd

    try:
        return pd.DataFrame._from_arrays(list(data.values()), columns=list(data), index=pd.RangeIndex(n),
                                         verify_integrity=False)
    except (AttributeError, TypeError):  # (a pandas without it: the public constructor)
        return pd.DataFrame(data)


def _all_na(dtype: str, n: int):
    """A column of ``n`` NA values of ``dtype``, built without looking at each."""
    import numpy as np
    import pandas as pd

    if dtype == "float64":
        return np.full(n, np.nan)
    if dtype == "string":
        return pd.arrays.StringArray(np.full(n, pd.NA, dtype=object))
    mask = np.ones(n, dtype=bool)
    return pd.arrays.IntegerArray(np.zeros(n, np.int64), mask) if dtype == "Int64" \
        else pd.arrays.BooleanArray(np.zeros(n, bool), mask)


def schema_table() -> str:
    """The schema as a Markdown table (for the README and ``nvmemodel ingest --schema``)."""
    lines = ["| column | type | unit | meaning |", "|---|---|---|---|"]
    lines += [f"| `{n}` | {t} | {u or '—'} | {d} |" for n, (t, u, d) in COLUMNS.items()]
    return "\n".join(lines)
