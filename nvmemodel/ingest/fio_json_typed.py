"""The usual fio JSON report decoded from its bytes into typed structs and packed rows (msgspec).

:func:`typed_rows` gives, for a file's bytes, the rows :func:`~nvmemodel.ingest.fio_json_packed.packed_rows`
gives for the document ``orjson.loads`` makes of them, or None where it cannot say so for certain —
then the caller reads the file as before (orjson, the packed reader, the general reader), so nothing
read or refused changes. Its speed comes from the decoder: msgspec reads only the fields the table
needs into :class:`msgspec.Struct` objects, checking their types and ranges as it reads them (an
integer from 0 to 2**63, a finite float >= 0, a string), and skips everything else without building
it. The struct of a job and of the document forbid unknown keys (the general reader warns of them),
so every key is one the packed reader knows.

It declines (None): text that is not ASCII (skipped fields are not checked for valid UTF-8, which
orjson refuses), a field of another type or out of range, a value nesting deeper than msgspec reads,
client/server or unified reports, json+ bins, a failed job, and everything the packed reader declines.
What it skips it still checks as JSON (syntax, nesting, escapes, control characters), with two
differences from orjson, both in fields the table does not read: a number beyond a double there
(orjson refuses the file, whose text Python's json then reads, as infinity: the same rows) and an
integer of more than 4,300 digits there (which Python's json refuses, so such a file was skipped as
malformed before; it is read now). ``tests/ingest/test_fast_paths.py`` holds it to the packed and
general readers on every JSON file of the test data and on mutated reports. msgspec is optional (``pip install "nvmemodel[fast]"``): without it, this
returns None for every file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Annotated

from .fio_json import (
    _FLOAT_MAX,
    _LAT_FACTOR,
    _KNOWN_DOC_KEYS,
    _KNOWN_JOB_KEYS,
    _count_from_iops,
    _group_size,
    numbers_inconsistent,
)
from .fio_json_packed import (
    NO_LAT_PERCENTILES,
    NO_SYNC,
    append_job_rows,
    block_size,
    disk_busy,
    disk_ios,
    document_parts,
    job_option_set,
    with_targets,
)
from .steadystate import NO_STEADY_STATE

__all__ = ["typed_rows"]

_NAN = math.nan

try:  # optional accelerator (pip install "nvmemodel[fast]"): without it every file is read as before
    import msgspec
    from msgspec import UNSET, Meta, Raw, Struct, UnsetType, field
    _HAVE_MSGSPEC = True
except ImportError:  # pragma: no cover - exercised when msgspec is absent
    _HAVE_MSGSPEC = False

if _HAVE_MSGSPEC:
    # (gc=False: the structs are not tracked by the garbage collector, which they need not be: a decoded
    # document holds no reference cycle)
    #: a number as the packed reader accepts it: an integer from 0 to 2**63 or a finite float >= 0 (bool is neither)
    _Num = Annotated[int, Meta(ge=0, le=2**63 - 1)] | Annotated[float, Meta(ge=0.0, le=_FLOAT_MAX)]

    class _Percentiles(Struct, gc=False):
        """The six percentiles of the table (others skipped)."""

        p50: _Num | UnsetType = field(default=UNSET, name="50.000000")
        p90: _Num | UnsetType = field(default=UNSET, name="90.000000")
        p95: _Num | UnsetType = field(default=UNSET, name="95.000000")
        p99: _Num | UnsetType = field(default=UNSET, name="99.000000")
        p999: _Num | UnsetType = field(default=UNSET, name="99.900000")
        p9999: _Num | UnsetType = field(default=UNSET, name="99.990000")

    # (a field fio always writes is required: a file without it is read as before. Fields are declared in the order
    # fio writes its keys: msgspec looks for each key first at the field after the last one found, so a key in that
    # order is found at once; decode 25.0 -> 23.7 us a file on the benchmark's fixtures)
    class _Latency(Struct, kw_only=True, gc=False):
        max: _Num
        mean: _Num
        N: Annotated[int, Meta(ge=-(2**63), le=2**63 - 1)] | None | UnsetType = UNSET  # (orjson: a float beyond)
        percentile: _Percentiles | UnsetType = UNSET
        bins: Raw | UnsetType = UNSET

    class _Sync(Struct, kw_only=True, gc=False):
        """A job's sync block (fsync/fdatasync calls): only whether it measured any (fio_json.sync_measured)."""

        total_ios: _Num | UnsetType = UNSET
        lat_ns: _Latency | UnsetType = UNSET
        lat: _Latency | UnsetType = UNSET

    class _Direction(Struct, kw_only=True, gc=False):
        io_bytes: _Num
        io_kbytes: Raw | UnsetType = UNSET  # (only whether it is there: fio 3's io_bytes are bytes)
        bw_bytes: _Num | UnsetType = UNSET
        bw: _Num
        iops: _Num
        runtime: _Num
        total_ios: _Num | UnsetType = UNSET
        slat_ns: _Latency | UnsetType = UNSET
        clat_ns: _Latency | UnsetType = UNSET
        lat_ns: _Latency | UnsetType = UNSET
        slat: _Latency | UnsetType = UNSET
        clat: _Latency | UnsetType = UNSET
        lat: _Latency | UnsetType = UNSET

    _Skipped = Raw | UnsetType

    class _Job(Struct, forbid_unknown_fields=True, kw_only=True, gc=False):
        """A job entry: the keys of fio_json._KNOWN_JOB_KEYS (no others), those the table does not read skipped."""

        jobname: str | None
        groupid: Annotated[int, Meta(ge=0, le=2**31)]
        job_start: _Skipped = UNSET
        error: int
        eta: _Skipped = UNSET
        elapsed: _Skipped = UNSET
        job_options: dict[str, str] | None | UnsetType = field(default=UNSET, name="job options")
        read: _Direction
        write: _Direction
        trim: _Direction | None | UnsetType = UNSET
        sync: _Sync | None | UnsetType = UNSET
        job_runtime: _Num | UnsetType = UNSET
        usr_cpu: int | Annotated[float, Meta(ge=0.0, le=_FLOAT_MAX)]  # (an integer: read as before, see _rows)
        sys_cpu: int | Annotated[float, Meta(ge=0.0, le=_FLOAT_MAX)]
        ctx: Annotated[int, Meta(ge=0, le=2**63 - 1)] | UnsetType = UNSET  # (a float or null: read as before)
        hostname: str | None | UnsetType = UNSET
        mixed: _Skipped = UNSET
        majf: _Skipped = UNSET
        minf: _Skipped = UNSET
        iodepth_level: _Skipped = UNSET
        iodepth_submit: _Skipped = UNSET
        iodepth_complete: _Skipped = UNSET
        latency_ns: _Skipped = UNSET
        latency_us: _Skipped = UNSET
        latency_ms: _Skipped = UNSET
        latency_depth: _Skipped = UNSET
        latency_target: _Skipped = UNSET
        latency_percentile: _Skipped = UNSET
        latency_window: _Skipped = UNSET
        latency_target_ns: _Skipped = UNSET  # (fio 3.42)
        latency_window_us: _Skipped = UNSET
        port: _Skipped = UNSET
        desc: _Skipped = UNSET
        steadystate: _Skipped = UNSET

    class _Disk(Struct, gc=False):
        name: str | None | UnsetType = UNSET
        read_ios: int | None = None
        write_ios: int | None = None
        util: float | None = None

    class _Document(Struct, forbid_unknown_fields=True, kw_only=True, gc=False):
        """A fio JSON document: the keys of fio_json._KNOWN_DOC_KEYS (no others)."""

        version: str | None | UnsetType = field(default=UNSET, name="fio version")
        timestamp: _Skipped = UNSET
        timestamp_ms: _Skipped = UNSET
        time: _Skipped = UNSET
        global_options: dict[str, str] | None | UnsetType = field(default=UNSET, name="global options")
        client_stats: _Skipped = UNSET
        jobs: list[_Job]
        disk_util: list[_Disk] | None | UnsetType = UNSET
        cmdline: _Skipped = UNSET

    for _struct, _known in ((_Job, _KNOWN_JOB_KEYS), (_Document, _KNOWN_DOC_KEYS)):
        if {f.encode_name for f in msgspec.structs.fields(_struct)} != _known:  # pragma: no cover
            raise ImportError(f"fio_json_typed: {_struct.__name__}'s keys no longer match fio_json's known keys")
    _decode = msgspec.json.Decoder(_Document).decode
    _DECLINED = (msgspec.DecodeError, RecursionError)  # (ValidationError is a DecodeError)


def typed_rows(data: bytes, path: str) -> list[tuple] | None:
    """The packed rows of a file whose bytes ``data`` are the one usual fio JSON report, or None
    where the file must be read as before (see the module docstring). ``path``: its name as a string."""
    if not _HAVE_MSGSPEC or data[:1] != b"{" or not data.isascii():
        return None
    try:
        doc = _decode(data)
    except _DECLINED:
        return None
    try:
        return _rows(doc, path)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, OverflowError, ZeroDivisionError):
        return None  # (IngestError is a ValueError) the packed and general readers say what they say


def _numbers(d) -> tuple | None:
    """``fio_json.direction_numbers`` of a direction read into a struct (its numbers' types and ranges
    checked by the decoder), in its order: NaN where a latency block has no samples (``N`` 0) or a
    percentile is not written; None where a field it needs is missing, and for a direction that moved no
    bytes (which the packed reader leaves to the general one) and where its latencies contradict each other
    (``fio_json.numbers_inconsistent``: the general reader warns)."""
    # (one pass over the struct, each field read once: this runs for every direction of every file read)
    lat = d.lat_ns
    if lat is not UNSET:  # fio 3: ns
        clat, slat, scale = d.clat_ns, d.slat_ns, 1e-9
    else:  # fio 2: µs
        lat, clat, slat, scale = d.lat, d.clat, d.slat, 1e-6
    io_bytes = d.io_bytes
    if clat is UNSET or lat is UNSET or slat is UNSET or io_bytes == 0 or lat.percentile is not UNSET:
        return None  # (total-latency percentiles: the general reader reads them)
    rt, iops, ios, bw = d.runtime, d.iops, d.total_ios, d.bw_bytes
    io_bytes = float(io_bytes) if d.io_kbytes is not UNSET else io_bytes * 1024.0  # fio 2.x: io_bytes is KiB
    bw = d.bw * 1024.0 if bw is UNSET else float(bw)  # fio < 3.2: KiB/s only
    if io_bytes > _FLOAT_MAX or bw > _FLOAT_MAX:  # finite only before scaling: the checked reader refuses it
        return None
    if rt > 0 and abs(bw - io_bytes * 1000.0 / rt) > 0.01 * io_bytes * 1000.0 / rt + 2048.0:
        return None  # (fio_json.bw_wrapped: the general reader warns and recomputes it)
    # (fio_json.counts_implausible, written out: the general reader recomputes the rate or refuses, saying why)
    if ios is UNSET:  # fio 2.1: counted from iops and bytes
        ios, iops = _count_from_iops(io_bytes, iops, rt)
        if ios > io_bytes:
            return None
    elif rt > 0:  # (fio_json.iops_disagrees)
        rate = ios * 1000.0 / rt
        if abs(iops - rate) > 1.0 + 1e-9 * rate:
            return None
    pct = clat.percentile
    # samples per block: 0 where N says so, or where fio < 3.20 wrote no N and the zeros of no samples
    # (fio_json.unmeasured_block)
    n = lat.N
    n_lat = 0 if n == 0 or ((n is None or n is UNSET) and lat.mean == 0 and lat.max == 0) else 1
    n = clat.N
    n_clat = 0 if n == 0 or ((n is None or n is UNSET) and clat.mean == 0 and clat.max == 0) else 1
    n = slat.N
    n_slat = 0 if n == 0 or ((n is None or n is UNSET) and slat.mean == 0 and slat.max == 0) else 1
    if pct is not UNSET and n_lat and n_clat and n_slat:  # the usual direction
        p50, p90, p95, p99, p999, p9999 = pct.p50, pct.p90, pct.p95, pct.p99, pct.p999, pct.p9999
        if p50 is not UNSET and p90 is not UNSET and p95 is not UNSET and p99 is not UNSET and p999 is not UNSET \
                and p9999 is not UNSET:
            lat_mean, clat_mean, slat_mean, lat_max = lat.mean * scale, clat.mean * scale, slat.mean * scale, \
                lat.max * scale
            # (fio_json.numbers_inconsistent on the locals, before the tuple is built: the same arithmetic)
            if clat_mean > lat_max * _LAT_FACTOR + 2e-9 or lat_mean > lat_max * _LAT_FACTOR + 2e-9 \
                    or clat_mean > lat_mean * _LAT_FACTOR + 2e-9 or slat_mean > lat_mean * _LAT_FACTOR + 2e-9:
                return None
            return (rt / 1000.0, float(ios), io_bytes, float(iops), bw, lat_mean, clat_mean, slat_mean, lat_max,
                    p50 * scale, p90 * scale, p95 * scale, p99 * scale, p999 * scale, p9999 * scale)
    # a block without samples (left unknown) or percentiles not all written
    means = [_NAN, _NAN, _NAN]
    lat_max = _NAN
    has_max = False
    for i, (block, n) in enumerate(((lat, n_lat), (clat, n_clat), (slat, n_slat))):  # lat, then clat (its maximum
        # when lat had no samples), slat
        if not n:
            continue
        means[i] = block.mean * scale
        if i < 2 and not has_max:
            lat_max = block.max * scale
            has_max = True
    if pct is UNSET or not n_clat:  # (clat without samples: no percentiles)
        percentiles: Sequence[float] = (_NAN,) * 6
    else:
        percentiles = [_NAN if v is UNSET else v * scale
                       for v in (pct.p50, pct.p90, pct.p95, pct.p99, pct.p999, pct.p9999)]
    numbers = (rt / 1000.0, float(ios), io_bytes, float(iops), bw, *means, lat_max, *percentiles)
    return None if numbers_inconsistent(numbers) else numbers


#: the columns of a job's row before its CPU figures: no total-latency percentiles, no sync calls
_TAIL_START = NO_LAT_PERCENTILES + NO_SYNC


def _sync_measured(sync) -> bool:
    """``fio_json.sync_measured`` of the decoded sync block: False only for none and for fio's "nothing measured"."""
    if sync is None or sync is UNSET:
        return False
    if not (sync.total_ios == 0 and type(sync.total_ios) is int):
        return sync.total_ios is not UNSET
    block = sync.lat_ns if sync.lat_ns is not UNSET else sync.lat
    if block is UNSET:
        return False
    if block.N is UNSET or block.N is None:
        return not (block.mean == 0 and block.max == 0)
    return block.N != 0


def _rows(doc, path: str) -> list[tuple] | None:
    """``fio_json_packed._packed_rows`` of the document, read from its structs (the same steps in the same order)."""
    entries = doc.jobs
    if doc.client_stats is not UNSET or not entries:
        return None
    version = doc.version
    version = None if version is None or version is UNSET else version
    global_opts = doc.global_options or {}
    disk_util = doc.disk_util or ()
    devices = [u.name for u in disk_util if u.name]
    has_global = doc.global_options is not UNSET
    global_key, head, devices_part = document_parts(version, path, global_opts, devices,
                                                         disk_ios(disk_util) if devices else (None, None),
                                                         disk_busy(disk_util) if devices else None)
    rows: list[tuple] = []
    name_counts: dict | None = None
    last_set, last_part = None, ()  # (the jobs of a report mostly share one option set: its columns joined once)
    for index, job in enumerate(entries):
        read, write, name = job.read, job.write, job.jobname
        if job.mixed is not UNSET or job.error != 0 or name == "All clients":
            return None
        job_opts = job.job_options or {}
        echoed = job.job_options is not UNSET or has_global
        option_set = job_option_set(global_opts, global_key, job_opts, path, echoed)
        bs_read, bs_write, bs_trim, numjobs, verify, grouped, in_flight, pattern, read_fraction, random_fraction, \
            option_part, defaulted, general, engine_part = option_set
        if general:
            return None  # options that pace the run or turn latency off: the general reader reads them
        # fio_json.job_group, of the structs
        merged = None
        if job.job_runtime is not UNSET:  # (what _group_size reads of the job: its directions' runtimes)
            blocks = {d: {"runtime": b.runtime} for d, b in (("read", read), ("write", write), ("trim", job.trim))
                      if type(b) is _Direction}
            merged = _group_size({"job_runtime": job.job_runtime, **blocks}, path, f"jobs[{index}]", verify)
        if numjobs > 1 and name_counts is None:
            name_counts = {}
            for other in entries:
                other_name = str(other.jobname)
                name_counts[other_name] = name_counts.get(other_name, 0) + 1
        group = (grouped and numjobs > 1) \
            or (numjobs > 1 and name_counts is not None and name_counts[str(name)] < numjobs) or (merged or 1) > 1
        if merged and merged > numjobs and echoed:
            return None  # jobs of several sections reported as one group
        group_id, usr, sys_ = job.groupid, job.usr_cpu, job.sys_cpu
        if type(usr) is not float or type(sys_) is not float:  # (an integer: the packed reader declines it)
            return None
        host = job.hostname
        job_head = (*head, name, index, group_id, None if host is UNSET else host, "group" if group else "job",
                    False, pattern)
        if job.steadystate is not UNSET:
            return None  # a steady-state report: the general reader reads it
        sync = job.sync
        if sync is not UNSET and sync is not None and _sync_measured(sync):
            return None  # fsync/fdatasync calls measured: the general reader tabulates them
        ctx = _NAN if job.ctx is UNSET else float(job.ctx)
        job_tail = (*_TAIL_START, usr / 100, sys_ / 100, ctx, defaulted, 0, *NO_STEADY_STATE)
        if option_set is not last_set:
            last_set, last_part = option_set, (*option_part, *devices_part, *engine_part)
        job_rows = []
        trim = job.trim
        for direction, d, option in (("read", read, bs_read), ("write", write, bs_write), ("trim", trim, bs_trim)):
            if d is None or d is UNSET:
                continue
            moved = d.io_bytes
            if moved == 0 and type(moved) is int:
                done = d.total_ios
                if done is UNSET or (done == 0 and type(done) is int):
                    continue  # an idle direction (exact integer zeros)
            clat_ns = d.clat_ns
            if clat_ns is not UNSET and clat_ns.bins is not UNSET:
                return None  # json+
            numbers = _numbers(d)
            if numbers is None:
                return None  # (also latencies that contradict each other: the general reader warns)
            if option is None:  # (block_size without an option, written out)
                done, moved = numbers[1], numbers[2]
                job_rows.append((direction, moved / done if done > 0 and moved - moved == 0.0 else _NAN, numbers))
            else:
                job_rows.append((direction, block_size(option, numbers, in_flight), numbers))
        if not append_job_rows(rows, job_rows, echoed, group, pattern, job_head, read_fraction, random_fraction,
                               last_part, job_tail):
            return None
    return with_targets(rows)
