"""fio ``--minimal`` / ``--output-format=terse``, terse versions 2-5, into table rows.

Field layout from the fio HOWTO ("Terse output"): a header (version; fio version [v3+];
jobname; groupid; error), then per direction: total KiB, bandwidth KiB/s, IOPS, runtime ms,
slat/clat min/max/mean/stdev (µs), 20 clat percentiles ``p%=value`` (µs), lat
min/max/mean/stdev (µs), bw min/max/agg %/mean/stdev (KiB/s) [+ bw samples and IOPS
min/max/mean/stdev/samples in v5]. Directions: read, write, and trim in every version but 3.
Then CPU usr %/sys %/ctx/majf/minf, IO depths (7), latency buckets (10 µs + 12 ms), and from
v3 on disk statistics (9 fields per device). Latencies are in µs even on fio 3.x.

Terse output echoes no job options: pattern, iodepth and numjobs are unknown (fill them from
a sidecar or path pattern); the block size is the measured mean, ``KiB × 1024 / I/Os``.
"""

from __future__ import annotations

import math
import warnings

from ..errors import IngestError, IngestWarning
from .schema import new_row

_PCT_COLS = {"50.000000": "clat_p50_s", "90.000000": "clat_p90_s", "95.000000": "clat_p95_s",
             "99.000000": "clat_p99_s", "99.900000": "clat_p99_9_s", "99.990000": "clat_p99_99_s"}


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


def _f(fields: list[str], i: int, path, lineno: int, what: str) -> float:
    text = fields[i].rstrip("%")
    try:
        value = float(text)
    except ValueError:
        raise IngestError(path, f"line {lineno}, field {i + 1} ({what}) = {fields[i]!r}: expected a number") from None
    if math.isnan(value) or value < 0:
        raise IngestError(path, f"line {lineno}, field {i + 1} ({what}) = {fields[i]!r}: expected a number >= 0")
    return value


def _mean_block_size(kib: float, ios: float) -> float:
    """Measured mean I/O size; snapped to a multiple of 512 B when within 0.5 % of one
    (terse gives KiB and a rounded IOPS, so the mean is only that precise)."""
    if ios <= 0:
        return math.nan
    raw = kib * 1024.0 / ios
    snapped = round(raw / 512.0) * 512.0
    return snapped if snapped and abs(raw / snapped - 1) < 5e-3 else raw


def read_fio_terse(path, text: str | None = None) -> list[dict]:
    """Rows of a terse-output file (one line per job; other lines, e.g. fio warnings, are skipped)."""
    if text is None:
        with open(path, encoding="utf-8", errors="strict") as fh:
            text = fh.read()
    rows = []
    skipped = 0
    job_index = -1
    for lineno, line in enumerate(text.splitlines(), start=1):
        fields = line.strip().split(";")
        if len(fields) < 10 or fields[0] not in ("2", "3", "4", "5"):
            skipped += bool(line.strip())
            continue
        version = int(fields[0])
        job_index += 1
        nh, per_dir, dirs = _layout(version)
        need = nh + per_dir * len(dirs) + 5 + 7 + 22
        if len(fields) < need:
            raise IngestError(path, f"line {lineno}: terse v{version} needs at least {need} ';'-fields, "
                                    f"found {len(fields)} (truncated line?)")
        fio_version = fields[1] if version >= 3 else None
        jobname, groupid = fields[nh - 3], fields[nh - 2]
        cpu_at = nh + per_dir * len(dirs)
        cpu_usr = _f(fields, cpu_at, path, lineno, "cpu usr %") / 100
        cpu_sys = _f(fields, cpu_at + 1, path, lineno, "cpu sys %") / 100
        devices = []
        rest = fields[cpu_at + 5 + 7 + 22:]
        while version >= 3 and len(rest) >= 9 and rest[8].endswith("%"):
            devices.append(rest[0])
            rest = rest[9:]
        for k, direction in enumerate(dirs):
            o = nh + k * per_dir
            kib = _f(fields, o, path, lineno, f"{direction} KiB")
            bw_kib = _f(fields, o + 1, path, lineno, f"{direction} bandwidth KiB/s")
            iops = _f(fields, o + 2, path, lineno, f"{direction} IOPS")
            runtime_s = _f(fields, o + 3, path, lineno, f"{direction} runtime ms") / 1000
            if kib <= 0 and iops <= 0:
                continue
            ios = round(iops * runtime_s)
            row = new_row(
                tool="fio", tool_version=fio_version, format=f"fio-terse-v{version}", source_path=str(path),
                snapshot=0, final=True, job_name=jobname, job_index=job_index,
                group_id=int(groupid) if groupid.isdigit() else None, level="job", is_aggregate=False,
                direction=direction, runtime_s=runtime_s, ios=float(ios), io_bytes=kib * 1024.0, iops=iops,
                bw_bytes_per_s=bw_kib * 1024.0, block_size_bytes=_mean_block_size(kib, ios),
                slat_mean_s=_f(fields, o + 6, path, lineno, "slat mean") * 1e-6,
                clat_mean_s=_f(fields, o + 10, path, lineno, "clat mean") * 1e-6,
                lat_mean_s=_f(fields, o + 34, path, lineno, "lat mean") * 1e-6,
                lat_max_s=_f(fields, o + 33, path, lineno, "lat max") * 1e-6,
                cpu_usr=cpu_usr, cpu_sys=cpu_sys,
                devices=";".join(devices) or None, device_count=len(devices) or None,
            )
            for j in range(20):
                key, _, value = fields[o + 12 + j].partition("%=")
                col = _PCT_COLS.get(key)
                if col and value:
                    row[col] = float(value) * 1e-6
            rows.append(row)
    if not rows and not skipped:
        raise IngestError(path, "no terse lines found (expected ';'-separated lines starting with 2, 3, 4 or 5)")
    if not rows:
        raise IngestError(path, f"no terse lines among {skipped} line(s)")
    if skipped:
        warnings.warn(f"{path}: {skipped} non-terse line(s) ignored (fio warnings?)", IngestWarning, stacklevel=2)
    return rows
