"""fio ``--minimal`` / ``--output-format=terse``, terse versions 2-5, into table rows.

Field layout from the fio HOWTO ("Terse output"): a header (version; fio version [v3+];
jobname; groupid; error), then per direction: total KiB, bandwidth KiB/s, IOPS, runtime ms,
slat/clat min/max/mean/stdev (µs), 20 clat percentiles ``p%=value`` (µs), lat
min/max/mean/stdev (µs), bw min/max/agg %/mean/stdev (KiB/s) [+ bw samples and IOPS
min/max/mean/stdev/samples in v5]. Directions: read, write, and trim in every version but 3;
one ``mixed`` block with ``unified_rw_reporting``. Then CPU usr %/sys %/ctx/majf/minf, IO
depths (7), latency buckets (10 µs + 12 ms), and from v3 on disk statistics (9 fields per
device; none in fio 2.1's lines: :func:`_disk_stats`). Latencies are in µs even on fio 3.x.

The layout is anchored on content, not counted from the start: the CPU fields are the only
ones ending in ``%`` right after the direction blocks, so a job name holding ``;`` (fio
writes it unescaped) or a single ``mixed`` block is found where it is.

What terse output cannot say, and so stays unknown here:

* job options (pattern, iodepth, numjobs): fill them from a sidecar or path pattern; the
  block size is the measured mean, ``KiB × 1024 / I/Os``;
* whether a line is one job or a ``group_reporting`` sum (``level`` is ``job`` only where
  several lines share a group in one report);
* whether the percentiles are of completion or of total latency (``lat_percentiles=1`` puts
  the latter in the same fields): they are tabulated as ``clat_p*`` where the submission
  latency is too small to tell the two apart, or where the mean of the distribution they
  describe is clearly the completion-latency mean rather than the total one (or they lie
  below the smallest total latency); otherwise they are left out with a warning naming the
  direction and line. The kind is one per line (``lat_percentiles`` is an option of the job):
  where one direction's percentiles are surely of completion latency, every direction's are.

``--status-interval`` writes one line per job per report: a block of lines that the next
block repeats with runtimes held or grown is a report (``snapshot``), only a run's last report
is ``final`` (see :func:`_reports`); clones of a job (numjobs without group_reporting) are one
report however their runtimes differ, but lines of one job that ran at other depths (the "IO depths"
fields) or block sizes are runs appended to the file, never clones (:func:`_split_appended`). A cut-off last line (killed run) is dropped with a
warning and leaves its run without a final report. ``unified_rw_reporting=both`` lines (read,
write and a ``mixed`` sum, every version) are read, the mixed row marked ``is_aggregate``; an
"All clients" line (client/server mode) is an aggregate too. Terse writes ``0`` where fio
measured nothing (``gtod_reduce``, ``disable_slat``, engines without a submission step): a
measured latency is never exactly 0, so a 0 latency is NaN; a job of under 1 IOPS (printed
as 0) has its I/O count and IOPS NaN beside the bytes it moved.
"""

from __future__ import annotations

import itertools
import math
import re
import warnings
from collections.abc import Sequence

from ..errors import IngestError, IngestWarning
from .fio_json import latency_inconsistency
from .schema import failed_job_rows, new_row

_PCT_COLS = {"50.000000": "clat_p50_s", "90.000000": "clat_p90_s", "95.000000": "clat_p95_s",
             "99.000000": "clat_p99_s", "99.900000": "clat_p99_9_s", "99.990000": "clat_p99_99_s"}
_PCT = re.compile(r"^\d+(\.\d+)?%=\d+$")
_PCT_FIELD = 12  # offset of the first percentile in a direction block
_TAIL = 5 + 7 + 22  # CPU, IO depths, latency buckets
#: slat below this share of clat: clat and lat percentiles differ by less than a few of fio's
#: histogram bins (about 1.6 % wide, FIO_IO_U_PLAT_BITS=6), so either serves as clat.
_SLAT_NEGLIGIBLE = 0.05
#: A percentile this far below the minimum total latency cannot be a total-latency percentile
#: (fio reports a bin's upper edge, ≤ 1.6 % above the sample).
_BELOW_LAT_MIN = 0.97


#: Lines of one (job, group) whose runtimes differ by less than this are clones of one report
#: (numjobs without group_reporting, started together); more: the next report, or a new run
#: when the runtime went down. Terse output has no report marker; clones of size-based jobs
#: that ran for very different times are the case this cannot tell apart.
_SAME_TIME_S, _SAME_TIME_REL = 0.05, 0.05


#: A job name split into more ';'-fields than this is not looked for (fio names are short).
_MAX_NAME_FIELDS = 64


def _layout(version: int) -> tuple[int, int, tuple[str, ...]]:
    """(header fields, fields per direction, directions) for a terse version."""
    header = 4 if version == 2 else 5
    per_dir = 47 if version == 5 else 41
    dirs = ("read", "write") if version == 3 else ("read", "write", "trim")
    return header, per_dir, dirs


def looks_like_fio_terse(head: str) -> bool:
    for line in head.splitlines():
        fields = line.split(";")
        if len(fields) > 40 and fields[0] in ("2", "3", "4", "5"):
            return True
    return False


def _is_num(text: str, *, pct: bool = False) -> bool:
    if pct != text.endswith("%"):
        return False
    try:
        float(text.rstrip("%"))
    except ValueError:
        return False
    return True


def _anchor(fields: list[str], version: int) -> tuple[int, tuple[str, ...]] | None:
    """(extra fields in the job name, directions) that make the line parse, or None."""
    nh, per_dir, dirs = _layout(version)
    for shift in range(min(len(fields) - nh, _MAX_NAME_FIELDS)):
        o = nh + shift
        if len(fields) < o + _PCT_FIELD + 1:
            return None
        if not (fields[o - 2].isdigit() and fields[o - 1].lstrip("-").isdigit() and _PCT.match(fields[o + _PCT_FIELD])
                and all(_is_num(f) for f in fields[o:o + 4])):
            continue
        for names in (dirs, ("mixed",), (*dirs, "mixed")):  # unified_rw_reporting=0, mixed, both
            cpu = o + per_dir * len(names)
            if len(fields) >= cpu + _TAIL and _is_num(fields[cpu], pct=True) and _is_num(fields[cpu + 1], pct=True) \
                    and _is_num(fields[cpu + 5], pct=True):
                return shift, names
    return None


def _f(fields: list[str], i: int, path, lineno: int, what: str) -> float:
    text = fields[i].rstrip("%")
    try:
        value = float(text)
    except ValueError:
        raise IngestError(path, f"line {lineno}, field {i + 1} ({what}) = {fields[i]!r}: expected a number") from None
    if not math.isfinite(value) or value < 0:
        raise IngestError(path, f"line {lineno}, field {i + 1} ({what}) = {fields[i]!r}: expected a finite number >= 0")
    return value


def _lat(fields: list[str], i: int, path, lineno: int, what: str) -> float:
    """A latency field in seconds; NaN where terse wrote 0 (not measured)."""
    value = _f(fields, i, path, lineno, what)
    return value * 1e-6 if value > 0 else math.nan


def _terse_count(kib: float, iops: float, runtime_s: float) -> float:
    """The I/O count of a terse direction. fio prints ``iops = 1000 × I/Os ÷ runtime_ms`` floored (stat.c
    ``show_ddir_status_terse``), so the count lies in ``[iops × runtime, (iops + 1) × runtime)``: where that
    holds one whole number it is the count; where several, the one that makes the bytes (whole KiB, also
    floored) whole blocks of a round size (a multiple of 4096, 1000 or 512 B), the nearest to the middle
    if several; else ``iops × runtime`` rounded. (Rounding ``iops × runtime`` read three 1 MiB reads of
    1,001 ms, printed 2 IOPS, as two of 1.5 MiB.)"""
    lo, hi = iops * runtime_s, (iops + 1) * runtime_s
    first, last = math.ceil(lo - 1e-9), math.ceil(hi - 1e-9) - 1  # (hi excluded; 1e-9: ms × IOPS in binary)
    if not (iops >= 1 and first <= last and last - first < 100_000 and kib < 2.0**43):  # (0 IOPS: unknown)
        return float(round(lo))
    if first == last:
        return float(first)
    total, mid = int(kib) * 1024, (lo + hi) / 2
    for unit in (4096, 1000, 512):
        fits = [n for n in range(max(first, 1), last + 1) if total % n == 0 and (total // n) % unit == 0]
        if fits:
            return float(min(fits, key=lambda n: abs(n - mid)))
    return float(round(lo))


def _mean_block_size(kib: float, ios: float, iops: float, runtime_s: float) -> float:
    """Measured mean I/O size, snapped to a round size (a multiple of 4096, 1000 or 512 bytes,
    in that order) when one lies within the precision of the terse numbers: whole KiB, and
    I/Os from the IOPS fio rounded to a whole number (×3 margin: fio derives IOPS and the
    runtime from microsecond clocks, not from each other; at least 1e-4)."""
    if not ios > 0:
        return math.nan
    raw = kib * 1024.0 / ios
    rel = 3 * 0.5 / iops + 1.0 / kib if iops > 0 and kib > 0 else 0.0
    for unit in (4096.0, 1000.0, 512.0):
        snapped = round(raw / unit) * unit
        if snapped and abs(raw - snapped) <= max(rel, 1e-4) * raw:
            return snapped
    return raw


def _quantile_mean(pct: dict[str, float]) -> float:
    """The mean of a distribution from its percentiles: the integral of the (piecewise linear)
    quantile function over 0..1, held flat beyond the first and last percentile."""
    points = sorted((float(k) / 100, v) for k, v in pct.items())
    points = [(0.0, points[0][1]), *points, (1.0, points[-1][1])]
    return sum((p2 - p1) * (v1 + v2) / 2 for (p1, v1), (p2, v2) in itertools.pairwise(points))


def _closer_to_first(x: float, a: float, b: float) -> bool:
    """x is clearly nearer a than b (a third of the distance or less)."""
    return abs(x - a) * 3 < abs(x - b)


#: fio's terse disk statistics of one device (stat.c/diskutil.c ``print_disk_util``, terse branch; the same fields
#: from fio 2.0.13 to 3.42): ``;name;read_ios;write_ios;read_merges;write_merges;read_ticks;write_ticks;in_queue;util%``
_DISK_FIELDS = ("name", "read_ios", "write_ios", "read_merges", "write_merges", "read_ticks", "write_ticks", "in_queue",
                "util %")


def _disk_stats(fields: list[str], start: int, path, lineno: int) -> tuple[list[str], int | None, int | None]:
    """(device names, read requests, write requests summed over them) of the disk statistics that end a terse v3+
    line at ``start``, as fio's JSON ``disk_util`` gives them (:func:`.fio_json.disk_ios`); ``([], None, None)``
    where the line has none.

    fio writes them after the latency buckets in terse v3, v4 and v5 (stat.c ``show_thread_status_terse_all``:
    ``if (ver >= 3 && is_running_backend()) show_disk_util(1, NULL, out)``, 3.13-3.42; ``if (ver >= 3)`` in 3.1
    and 3.7; unconditionally in 2.2/2.21's ``show_thread_status_terse_v3_v4``), never in v2, and in fio 2.1 only
    from a server backend (``if (is_backend)``), so a fio 2.1 terse line names no device whatever it ran on. Every
    device of fio's disk list is one block, the slaves of a device-mapper or md device included; a device with
    slaves adds ``;slaves;`` and 8 fields of their averages (``show_agg_stats``), which are not a device and are
    not counted (fio's JSON puts them in the device's ``aggr_*`` keys). What follows the blocks (the error count
    and first error of ``continue_on_error``, a job ``description``) is not disk statistics."""
    devices: list[str] = []
    reads = writes = 0
    i = start
    while len(fields) >= i + 9 and fields[i + 8].endswith("%"):
        name = fields[i]
        slaves = name == "slaves" and bool(devices)
        counts = []
        for k in range(1, 8):
            text = fields[i + k]
            if not text.isdigit() or not text.isascii():
                what = f"disk {devices[-1]} slaves' {_DISK_FIELDS[k]}" if slaves else f"disk {name} {_DISK_FIELDS[k]}"
                raise IngestError(path, f"line {lineno}, field {i + k + 1} ({what}) = {text!r}: expected a whole "
                                        "number >= 0 (fio's terse disk statistics: " + ";".join(_DISK_FIELDS) + ")")
            counts.append(int(text))
        _f(fields, i + 8, path, lineno, f"disk {name} util %")
        if not slaves:
            devices.append(name)
            reads += counts[0]
            writes += counts[1]
        i += 9
    return (devices, reads, writes) if devices else ([], None, None)


def _parse_line(fields, version, shift, names, path, lineno) -> tuple[dict, list[dict]]:
    nh, per_dir, _ = _layout(version)
    o0 = nh + shift
    fio_version = fields[1] if version >= 3 else None
    jobname = ";".join(fields[nh - 3:o0 - 2])
    groupid, error = int(fields[o0 - 2]), int(fields[o0 - 1])
    if groupid >= 2**31 or not 0 <= error < 2**31:
        raise IngestError(path, f"line {lineno}: groupid {groupid} / error {error}: expected integers below 2**31")
    cpu_at = o0 + per_dir * len(names)
    cpu_usr = _f(fields, cpu_at, path, lineno, "cpu usr %") / 100
    cpu_sys = _f(fields, cpu_at + 1, path, lineno, "cpu sys %") / 100
    ctx = _f(fields, cpu_at + 2, path, lineno, "cpu ctx (context switches)")  # (every terse version: stat.c)
    devices, disk_reads, disk_writes = _disk_stats(fields, cpu_at + _TAIL, path, lineno) if version >= 3 \
        else ([], None, None)  # (fio writes no disk statistics in terse v2)
    all_clients = jobname == "All clients"  # client/server mode: the sum of every client's jobs
    common = {"tool": "fio", "tool_version": fio_version, "format": f"fio-terse-v{version}", "source_path": str(path),
              "job_name": jobname, "group_id": groupid, "is_aggregate": all_clients, "cpu_usr": cpu_usr, "cpu_sys": cpu_sys,
              "ctx": ctx,
              "devices": ";".join(devices) or None, "device_count": len(devices) or None,
              "disk_read_ios": disk_reads, "disk_write_ios": disk_writes, "error": error}
    rows = []
    undecided = []  # (row, percentiles) whose kind the row alone cannot tell
    shown_clat = False  # some direction's percentiles are surely of completion latency
    negligible = []  # directions tabulated because their kind makes no difference
    maybe_total = []  # of those, directions whose submission latency was measured (the two kinds differ by it)
    for k, direction in enumerate(names):
        o = o0 + k * per_dir
        kib = _f(fields, o, path, lineno, f"{direction} KiB")
        bw_kib = _f(fields, o + 1, path, lineno, f"{direction} bandwidth KiB/s")
        iops = _f(fields, o + 2, path, lineno, f"{direction} IOPS")
        runtime_s = _f(fields, o + 3, path, lineno, f"{direction} runtime ms") / 1000
        if kib <= 0 and iops <= 0:
            continue
        if iops * runtime_s > 2.0**62:
            raise IngestError(path, f"line {lineno}: {direction} IOPS {iops:g} x runtime {runtime_s:g} s: "
                                    "more I/Os than any run makes")
        ios = _terse_count(kib, iops, runtime_s)
        if ios == 0 and kib > 0:  # fewer than 1 IOPS prints as 0: the count is not in the line
            ios = iops = math.nan
        # terse writes 0 where fio measured nothing (gtod_reduce, disable_slat, engines without a
        # submission step); a measured latency is never exactly 0, so 0 is "not measured"
        slat = _lat(fields, o + 6, path, lineno, "slat mean")
        clat = _lat(fields, o + 10, path, lineno, "clat mean")
        lat_max = _lat(fields, o + 33, path, lineno, "lat max")
        if math.isnan(lat_max):  # total latency not measured (disable_lat): the maximum is the completion one's,
            lat_max = _lat(fields, o + 9, path, lineno, "clat max")  # as in fio's JSON (lat_max_s: "else completion")
        row = new_row(
            **common, direction=direction, runtime_s=runtime_s, ios=ios, io_bytes=kib * 1024.0, iops=iops,
            bw_bytes_per_s=bw_kib * 1024.0, block_size_bytes=_mean_block_size(kib, ios, iops, runtime_s),
            slat_mean_s=slat, clat_mean_s=clat,
            lat_mean_s=_lat(fields, o + 34, path, lineno, "lat mean"),
            lat_max_s=lat_max,
        )
        # (terse prints a maximum in whole µs, cut down from fio's ns, beside means with three decimals: 1 µs slack)
        broken = latency_inconsistency(row["lat_mean_s"], clat, slat, lat_max + 1e-6)
        if broken is not None:  # (fio_json._warn_inconsistent: kept as written)
            warnings.warn(f"{path}: line {lineno} ({jobname!r}) {direction}: {broken[0]} {row[broken[0]]:.6g} s is more "
                          f"than {broken[1]} {row[broken[1]]:.6g} s: an internally inconsistent fio record (fio before "
                          "3.34 writes such completion latencies for io_uring with sqthread_poll, whose I/Os it does "
                          "not stamp at issue; else an edited or corrupt file); kept as written, not corrected",
                          IngestWarning, stacklevel=4)
        pct = {}
        for j in range(20):
            key, _, value = fields[o + _PCT_FIELD + j].partition("%=")
            if key != "0" and value:
                pct[key] = _f([value], 0, path, lineno, f"{direction} percentile {key}") * 1e-6
        if pct and not any(pct.values()):  # all 0: no completion latencies measured
            pct = {}
        lat_min = _f(fields, o + 32, path, lineno, "lat min") * 1e-6
        # percentiles where no total latency was measured (disable_lat: its fields 0) are completion latency's:
        # fio computes lat_percentiles from the total-latency samples (stat.c show_ddir_status_terse)
        surely_clat = bool(pct) and (math.isnan(row["lat_mean_s"]) or min(pct.values()) < _BELOW_LAT_MIN * lat_min
                                     or _closer_to_first(_quantile_mean(pct), clat, row["lat_mean_s"]))
        # terse prints whole µs: a submission latency below 1 µs cannot show in them either
        # fio before 3.1 has no lat_percentiles: its terse percentiles are completion latency's
        surely_clat = surely_clat or (bool(pct) and (_release(fio_version) or _LAT_PERCENTILES_SINCE)
                                      < _LAT_PERCENTILES_SINCE)
        if not slat > max(_SLAT_NEGLIGIBLE * clat, 1e-6) or surely_clat:
            row.update({col: pct[key] for key, col in _PCT_COLS.items() if key in pct})
            if not surely_clat:
                negligible.append(direction)
                # (NaN: no submission step, total and completion latency the same; under 1 µs: below the whole µs
                # terse prints its percentiles in)
                if pct and slat >= 1e-6:
                    maybe_total.append(direction)
        elif pct:
            undecided.append((row, pct))
        rows.append(row)
        shown_clat = shown_clat or surely_clat
    if maybe_total and not shown_clat:
        common["percentiles_maybe_total"] = maybe_total
    if undecided and shown_clat:
        # lat_percentiles is one option of the job (fio stat.c prints one kind for every direction of
        # a line): where one direction's percentiles are surely of completion latency, so are the
        # others' (QA s25 H14)
        for row, pct in undecided:
            row.update({col: pct[key] for key, col in _PCT_COLS.items() if key in pct})
    elif undecided:
        common["percentiles_dropped"] = ([r["direction"] for r, _ in undecided], negligible)
    if len(rows) > 1 and rows[-1]["direction"] == "mixed":  # unified_rw_reporting=both: mixed sums the others
        rows[-1]["is_aggregate"] = True
    return common, rows


def _where(lines: list[int], *, counted: bool = False) -> str:
    """'line 3', or 'lines 2, 3, 4, 5, 6 …' ('5 lines (2, 3, 4, 5, 6)' where ``counted``): the first five named."""
    if len(lines) == 1:
        return f"line {lines[0]}"
    named = ", ".join(map(str, lines[:5])) + (" …" if len(lines) > 5 else "")
    return f"{len(lines)} lines ({named})" if counted else f"lines {named}"


def _warn_percentiles(path, dropped: list[tuple[int, list, list]],
                      maybe_total: Sequence[tuple[int, list]] = ()) -> None:
    """One warning for the rows whose percentiles are not tabulated, naming their directions and lines,
    and why the other directions of the same lines are (QA s25 H14)."""
    def words(dirs):
        dirs = list(dict.fromkeys(dirs))
        return " and ".join(dirs)

    rows = sum(len(d) for _, d, _ in dropped)
    lines = [n for n, _, _ in dropped]
    where = _where(lines, counted=True)
    kept = [d for _, _, k in dropped for d in k]
    warnings.warn(f"{path}: the {words(d for _, ds, _ in dropped for d in ds)} percentiles of {rows} row(s) ({where}) "
                  "are not tabulated: terse output does not say whether they are of completion or total latency "
                  "(lat_percentiles), and their submission latency (5 % of the completion latency or more) makes "
                  "the two differ" + (f"; the {words(kept)} percentiles of the same line(s) are tabulated as "
                                      "completion latency (their mean submission latency, by which the two kinds "
                                      "differ, is under 5 % of the mean completion latency)" if kept else "")
                  + _other_lines(maybe_total, {n for n, _, _ in dropped}), IngestWarning, stacklevel=3)


def _other_lines(maybe_total: Sequence[tuple[int, list]], named: set) -> str:
    """The lines, other than ``named``, whose percentiles are tabulated as completion latency that may be total."""
    others = [n for n, _ in maybe_total if n not in named]
    if not others:
        return ""
    where = _where(others)
    return (f"; those of {where} are tabulated as completion latency for the same reason, and with "
            "lat_percentiles=1 (fio 3.1 on) are of total latency")


def _warn_maybe_total(path, lines: list[tuple[int, list]]) -> None:
    """One warning for the rows whose percentiles are tabulated as completion latency though they may be of total
    latency (fio >= 3.1 with lat_percentiles=1 writes those in the same fields): their submission latency, by
    which the two kinds differ, is under 5 % of the completion latency."""
    nums = [n for n, _ in lines]
    rows = sum(len(d) for _, d in lines)
    where = _where(nums, counted=True)
    warnings.warn(f"{path}: the percentiles of {rows} row(s) ({where}) are tabulated as completion latency (clat_p*), "
                  "but terse output does not say whether they are: with lat_percentiles=1 (fio 3.1 on) they are of "
                  "total latency, which exceeds completion latency by the submission latency (under 5 % of it "
                  "here); write JSON or normal output to tell", IngestWarning, stacklevel=3)


def _depth_shares(fields: list[str], cpu_at: int, path, lineno: int) -> tuple[float, ...]:
    """The line's "IO depths" distribution: % of I/Os submitted with 1, 2-3, 4-7, 8-15, 16-31, 32-63 and
    >= 64 in flight (fio stat.c ``show_thread_status_terse_all`` prints ``io_u_map`` as ``%3.1f%%``;
    io_u.c ``io_u_mark_depth`` buckets the depth ``cur_depth`` at submission; a bucket holding any I/O
    prints at least 0.1 %)."""
    return tuple(_f(fields, cpu_at + 5 + k, path, lineno, f"IO depths field {k + 1}") for k in range(7))


#: A depth bucket holding at least this % of a line's I/Os is where that job ran (see _differ).
_DEPTH_SUPPORT = 1.0
#: Mean block sizes of one direction this far apart (ratio) are different jobs' (clones of a
#: bsrange/bssplit job measure nearly the same mean).
_BS_APART = 1.5


def _signature(shares: tuple[float, ...], rows: list[dict]) -> tuple[frozenset, dict]:
    return (frozenset(k for k, v in enumerate(shares) if v >= _DEPTH_SUPPORT),
            {r["direction"]: r["block_size_bytes"] for r in rows if r["block_size_bytes"] > 0})


def _differ(a: tuple[frozenset, dict], b: tuple[frozenset, dict]) -> bool:
    """Two lines of one job name cannot be clones of one job (which share its iodepth and bs): the depths
    they ran at do not overlap, or one direction's mean block size differs by a factor of 1.5 or more."""
    if a[0] and b[0] and not a[0] & b[0]:
        return True
    return any(max(a[1][d], b[1][d]) >= _BS_APART * min(a[1][d], b[1][d]) for d in a[1].keys() & b[1].keys())


def _split_appended(runs: list[tuple[int, int]], keys: list, signatures: list) -> list[tuple[int, int]]:
    """(run, report) of every line once lines that _reports took for clones of one job but that ran at
    other depths or block sizes (see _differ) are made runs of their own: in a one-report run, a line
    whose job already has a line that differs from it starts the next run (appended to the file; QA s25
    H4). Runs with several reports (--status-interval) are left as they are."""
    reports_of: dict[int, set] = {}
    for run, report in runs:
        reports_of.setdefault(run, set()).add(report)
    seen: dict[tuple, list] = {}  # a report's lines' signatures by key
    out, shift, prev = [], 0, None
    for (run, report), key, sig in zip(runs, keys, signatures):
        if (run, report) != prev:
            prev, seen = (run, report), {}
        elif len(reports_of[run]) == 1 and any(_differ(other, sig) for other in seen.get(key, ())):
            shift, seen = shift + 1, {}
        seen.setdefault(key, []).append(sig)
        out.append((run + shift, report + shift))
    return out


def _grows(a: float, b: float) -> bool:
    """Runtime b is a later report's than a (grew by more than clones of one report differ)."""
    return b - a > max(_SAME_TIME_S, _SAME_TIME_REL * a)


def _repeats(keys: list, times: list[float], s: int, m: int, *, strict: bool) -> bool:
    """Lines s+m … s+2m-1 repeat the report at s as a later report of the same run: the same
    (job, group) sequence, no runtime lower at the same position, some runtime grown. ``strict``
    (the first repetition of a run, which fixes the report length): every runtime either held
    (a finished or a not yet started job) or grew by more than clones of one report differ."""
    if s + 2 * m > len(keys) or keys[s + m:s + 2 * m] != keys[s:s + m]:
        return False
    pairs = list(zip(times[s:s + m], times[s + m:s + 2 * m]))
    if strict:
        return all(b == a or _grows(a, b) for a, b in pairs) and any(_grows(a, b) for a, b in pairs)
    return all(b >= a for a, b in pairs) and any(b > a for a, b in pairs)


def _period(keys: list, times: list[float], s: int) -> int | None:
    """Length of the report at line ``s`` if the next lines strictly repeat it (see _repeats);
    the lines compared are bounded (:data:`_MAX_PERIOD_WORK`), so a long file stays linear."""
    work = 0
    for m in range(1, min((len(keys) - s) // 2, _MAX_REPORT_LINES) + 1):
        if keys[s + m] == keys[s]:
            work += m
            if work > _MAX_PERIOD_WORK:
                return None
            if _repeats(keys, times, s, m, strict=True):
                return m
    return None


def _reports(keys: list, times: list[float]) -> list[tuple[int, int]]:
    """(run, report) of every terse line.

    A run's first report is a block of lines that the next block repeats with every runtime
    held or grown by more than clones differ (``--status-interval``); its length is then the
    run's report length, and later blocks repeating the one before with no runtime lower are its
    next reports (the final one may have grown only a little). Clones of a job (numjobs without
    group_reporting) stay in one report however their runtimes differ by a few %, since their
    runtimes do not all grow from one clone to the next. A block not repeated so is a run's last
    report; it ends where its first (job, group) comes back with a runtime below half of every
    runtime of the report so far (the next run, appended to the file; appended runs of the same
    jobs and runtimes cannot be told from clones: echo each command before its run, see
    :mod:`.runs`).
    """
    out: list[tuple[int, int]] = []
    s, run, report, n, period = 0, 0, 0, len(keys), None
    while s < n:
        m = period if period is not None and _repeats(keys, times, s, period, strict=False) else (
            _period(keys, times, s) if period is None else None)
        if m is not None:
            out += [(run, report)] * m
            s, report, period = s + m, report + 1, m
            continue
        low, e = math.inf, s
        while e < n:  # (clones of size-based jobs can differ by tens of %: only a drop below half is a new run)
            if keys[e] == keys[s] and e > s and times[e] < low / 2:
                break
            low = min(low, times[e]) if times[e] > 0 else low
            e += 1
        out += [(run, report)] * (e - s)
        s, run, report, period = e, run + 1, report + 1, None
    return out


#: Longest report looked for (lines of one status report: one per job), and the most lines
#: compared while looking for it (reports of a few hundred jobs are found well within it).
_MAX_REPORT_LINES, _MAX_PERIOD_WORK = 4096, 500_000


def read_fio_terse(path, text: str | None = None) -> list[dict]:
    """Rows of a terse-output file (one line per job and report; other lines are skipped with a
    warning that quotes the first; a file that also holds fio's normal report is read by
    :func:`~nvmemodel.ingest.fio_normal_terse.read_fio_normal_terse`)."""
    if text is None:
        with open(path, encoding="utf-8", errors="strict") as fh:
            text = fh.read()
    lines = [(n, ln.strip()) for n, ln in enumerate(text.splitlines(), start=1) if ln.strip()]
    parsed: list[tuple] = []  # (lineno, key, runtime, common, rows, signature)
    skipped, truncated = 0, False
    first_skipped: tuple[int, str] | None = None
    percentiles_dropped: list[tuple[int, list, list]] = []  # (line, directions dropped, directions kept)
    percentiles_maybe_total: list[tuple[int, list]] = []  # (line, directions tabulated as completion latency)
    for i, (lineno, line) in enumerate(lines):
        fields = line.split(";")
        if len(fields) < 10 or fields[0] not in ("2", "3", "4", "5"):
            skipped += 1
            first_skipped = first_skipped or (lineno, line)
            continue
        version = int(fields[0])
        found = _anchor(fields, version)
        if found is None:
            if i == len(lines) - 1 and parsed:
                truncated = True
                continue
            raise IngestError(path, f"line {lineno}: not a complete terse v{version} line ({len(fields)} ';'-fields; "
                                    "expected the direction blocks followed by 'usr%;sys%' CPU fields)")
        common, rows = _parse_line(fields, version, *found, path, lineno)
        if "percentiles_dropped" in common:
            dropped_dirs, negligible_dirs = common.pop("percentiles_dropped")
            percentiles_dropped.append((lineno, dropped_dirs, negligible_dirs))
        if "percentiles_maybe_total" in common:
            percentiles_maybe_total.append((lineno, common.pop("percentiles_maybe_total")))
        runtime = max((r["runtime_s"] for r in rows), default=0.0)
        nh, per_dir, _ = _layout(version)
        shares = _depth_shares(fields, nh + found[0] + per_dir * len(found[1]), path, lineno)
        parsed.append((lineno, (common["job_name"], common["group_id"]), runtime, common, rows,
                       _signature(shares, rows)))
    v3_lines = any(common["format"] == "fio-terse-v3" for _, _, _, common, _, _ in parsed)
    if parsed and not any(rows for *_, rows, _ in parsed) and v3_lines and not any(c["error"] for *_, c, _, _ in parsed):
        raise IngestError(path, f"no rows: no job did any read or write I/O{_NO_TRIM}")
    if not parsed:
        raise IngestError(path, "no terse lines found (expected ';'-separated lines starting with 2, 3, 4 or 5)"
                          if not skipped else f"no terse lines among {skipped} line(s)")
    parsed = _microsecond_interims(parsed)
    out: list[dict] = []
    keys = [p[1] for p in parsed]
    runs = _split_appended(_reports(keys, [p[2] for p in parsed]), keys, [p[5] for p in parsed])
    last_report = {}
    for run, report in runs:
        last_report[run] = report
    per_report: dict[tuple, int] = {}
    for (run, report), (_, key, *_) in zip(runs, parsed):
        per_report[(report, key[1])] = per_report.get((report, key[1]), 0) + 1
    seen_in_report: dict[int, int] = {}
    maybe_mixed: list[int] = []  # read-only lines of a fio release that wrote unified reporting as reads
    for (run, report), (lineno, key, _, common, rows, _) in zip(runs, parsed):
        final = report == last_report[run] and not (truncated and run == runs[-1][0])
        level = "all-clients" if common["is_aggregate"] else "job" if per_report[(report, key[1])] > 1 else None
        if common["error"]:
            rows = failed_job_rows(rows, common, [])
            warnings.warn(f"{path}: line {lineno} ({key[0]!r}) failed with fio error {common['error']}; its numbers "
                          "are not tabulated (row kept with the error column set)", IngestWarning, stacklevel=2)
        elif not rows and final:  # (in an interim report a stonewalled job may not have started yet)
            warnings.warn(f"{path}: line {lineno} ({key[0]!r}) completed no {'read or write I/O' + _NO_TRIM if v3_lines else 'I/O'}; no row "
                          "for it", IngestWarning, stacklevel=2)
        elif final and [r["direction"] for r in rows] == ["read"] and common["format"] != "fio-terse-v2" \
                and (_release(common["tool_version"]) or _MIXED_BLOCK_SINCE) < _MIXED_BLOCK_SINCE:
            maybe_mixed.append(lineno)
        job_index = seen_in_report.get(report, 0)
        seen_in_report[report] = job_index + 1
        for row in rows:
            row.update(run=run, snapshot=report, final=final, level=level, job_index=job_index)
        out.extend(rows)
    _clone_numjobs(out)
    if maybe_mixed:
        _warn_maybe_mixed(path, maybe_mixed, next(r["tool_version"] for r in out if r["tool_version"]))
    if truncated:
        warnings.warn(f"{path}: the last line is a truncated terse line (run killed?); it is not read and its run "
                      "has no final report", IngestWarning, stacklevel=2)
    if percentiles_dropped:  # (it names the lines whose percentiles are tabulated though they may be total latency)
        _warn_percentiles(path, percentiles_dropped, percentiles_maybe_total)
    elif percentiles_maybe_total:
        _warn_maybe_total(path, percentiles_maybe_total)
    if skipped and first_skipped is not None:  # (what they are is not guessed: the first is quoted)
        lineno, line = first_skipped
        warnings.warn(f"{path}: {skipped} line(s) that are not terse results ignored (line {lineno}: "
                      f"{line[:120]!r})", IngestWarning, stacklevel=2)
    return out


#: Why a terse v3 line shows no I/O where the job may have trimmed (fio stat.c writes v3 without a trim block).
_NO_TRIM = (" (terse v3 has no trim block: a job's trims are not in a v3 line; write terse v2, v4 or v5, or JSON, "
            "to read them)")
#: fio releases before this one write a unified_rw_reporting job's numbers (reads and writes together) in the
#: read fields of a terse line, with write and trim 0 (stat.c show_thread_status_terse_all); from 3.28 on one
#: 'mixed' block.
_MIXED_BLOCK_SINCE = (3, 28)
#: The first fio release with lat_percentiles (total-latency percentiles in the same terse fields).
_LAT_PERCENTILES_SINCE = (3, 1)


def _release(version: str | None) -> tuple[int, ...] | None:
    """(major, minor) of a terse line's 'fio-3.16' field, None where it does not say."""
    m = re.match(r"fio-(\d+)\.(\d+)", version or "")
    return (int(m[1]), int(m[2])) if m else None


def _warn_maybe_mixed(path, lines: list[int], version: str) -> None:
    where = _where(lines)
    warnings.warn(f"{path}: {where} ({version}) read as reads: fio before 3.28 writes a unified_rw_reporting job's "
                  "numbers (reads and writes together) in a terse line's read fields, so a line that only read cannot "
                  "say whether it is reads or mixed; if the run set unified_rw_reporting, its direction is 'mixed' "
                  "(write JSON or normal output to tell)", IngestWarning, stacklevel=3)


def _microsecond_interims(parsed: list) -> list:
    """``parsed`` with the ``--status-interval`` lines whose runtimes fio wrote in µs made seconds.

    fio 2.1 (seen in 2.1.11) writes an interim report's runtime in µs and the final report's in ms: a job's
    lines read 511,984, 1,536,692, 2,559,751 and then 3,001 "ms", with the rates fio derived from them 1000x
    too low (3 IOPS, then 2,000). A line is such an interim line where the job's next line moved more bytes
    in a runtime that is shorter but not below a thousandth of it, or is itself such a line with a runtime as
    long or longer, and its bandwidth is 100 to 10,000 times below that of the job's last line (a run appended
    to the file, which restarts its counters, is not so). Its rows get the runtime in seconds and the IOPS and
    bandwidth of it; the I/O count is found again from the bytes (:func:`_terse_count`)."""
    by_key: dict = {}
    for i, p in enumerate(parsed):
        by_key.setdefault(p[1], []).append(i)
    micro: set[int] = set()
    for idx in by_key.values():
        last = parsed[idx[-1]]
        for a, b in zip(reversed(idx[:-1]), reversed(idx[1:])):
            ra, rb = parsed[a][4], parsed[b][4]
            ka, kb = sum(r["io_bytes"] for r in ra), sum(r["io_bytes"] for r in rb)
            ta, tb = parsed[a][2], parsed[b][2]
            rate_a = ka / ta if ta > 0 else 0.0
            rate_last = sum(r["io_bytes"] for r in last[4]) / last[2] if last[2] > 0 else 0.0
            if not (ra and rb and kb > ka and rate_a > 0 and 100 <= rate_last / rate_a <= 10_000):
                break
            if not ((b not in micro and ta / 1000 <= tb < ta) or (b in micro and tb >= ta)):
                break
            micro.add(a)
    if not micro:
        return parsed
    out = list(parsed)
    for i in micro:
        lineno, key, runtime, common, rows, sig = parsed[i]
        for r in rows:
            r["runtime_s"] /= 1000.0
            kib, rt = r["io_bytes"] / 1024.0, r["runtime_s"]
            ios = _terse_count(kib, math.floor(1000 * r["ios"] / (rt * 1000)) if r["ios"] == r["ios"] and rt > 0 else 0,
                               rt)
            r.update(ios=ios if ios > 0 else math.nan, iops=ios / rt if ios > 0 and rt > 0 else math.nan,
                     bw_bytes_per_s=r["io_bytes"] / rt if rt > 0 else math.nan,
                     block_size_bytes=_mean_block_size(kib, ios, ios / rt if rt > 0 else 0.0, rt))
        out[i] = (lineno, key, runtime / 1000.0, common, rows, sig)
    return out


def _clone_numjobs(rows: list[dict]) -> None:
    """Clones of a job (several lines of one job name in one report, numjobs without group_reporting) are summed
    into one run: each of its rows gets numjobs = the clone count where the file left numjobs unknown, so the
    run's outstanding I/O (iodepth x numjobs: the fit's load axis and its Little's-law check) counts every clone
    (QA5 G9). A label or echoed command that gives numjobs still has to agree with it."""
    lines: dict[tuple, set] = {}
    for r in rows:
        if not r.get("is_aggregate"):
            lines.setdefault((r.get("run"), r.get("snapshot"), r.get("job_name"), r.get("group_id")),
                             set()).add(r.get("job_index"))
    for r in rows:  # (the reader of the file says the lines were summed as clones: ingest/api.py)
        n = len(lines.get((r.get("run"), r.get("snapshot"), r.get("job_name"), r.get("group_id")), ()))
        have = r.get("numjobs")
        if n > 1 and (have is None or (isinstance(have, float) and math.isnan(have))):
            r["numjobs"] = n
