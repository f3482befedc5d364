"""elbencho's own CSV results (``elbencho --csvfile``) into table rows: one row per READ or WRITE phase.

elbencho appends one line per phase of a run (MKDIRS, WRITE, READ, SYNC, DROPCACHES, RMFILES, …) under a header
that starts ``ISO date,label,path type,paths,hosts,threads,…`` (2.x and 3.x write the same leading columns; 2.x adds
``rwmix read …``, ``version`` and ``command``). Each phase line holds two readings: ``[first]`` when the first thread
finished and ``[last]`` when all had (elbencho's "FIRST DONE" and "LAST DONE" columns); the rows here are the
``[last]`` ones, the whole phase. Phases that move no data (directory and file housekeeping, sync, cache drops) give
no row.

Columns read (units as elbencho writes them): ``threads`` (per host) × ``hosts`` → ``numjobs``; ``block size`` (B);
``IO depth``; ``direct IO`` (0/1); ``random`` (0/1); ``time ms [last]``; ``IOPS [last]``; ``MiB/s [last]`` (MiB =
2**20 B); ``MiB [last]`` (bytes moved); ``IO lat us [avg]``/``[max]``. ``CPU%`` is the hosts' whole-machine CPU
utilisation in percent of all their cores, with no core count beside it: it is not converted to CPUs (``cpu_usr`` and
``cpu_sys`` stay NA). With ``--rwmixpct`` a WRITE line also fills the ``rwmix read …`` columns: the reads of the mix
(a ``read`` row beside the ``write`` row, both of pattern ``rw``/``randrw``). The paths are the command line's last
``paths`` arguments, where the ``command`` column is written.
"""

from __future__ import annotations

import csv
import io
import math
import shlex

from ..errors import IngestError
from .schema import new_row

__all__ = ["looks_like_elbencho_csv", "read_elbencho_csv"]

_HEADER_START = "ISO date,label,path type,paths,hosts,threads"
#: the columns every elbencho results CSV has (2.x and 3.x)
_REQUIRED = ("operation", "threads", "hosts", "block size", "IO depth", "direct IO", "random", "time ms [last]",
             "IOPS [last]", "MiB/s [last]")
_IO_OPERATIONS = {"READ": "read", "WRITE": "write"}
_MIB = 2**20


def looks_like_elbencho_csv(head: str) -> bool:
    return head.lstrip("\ufeff").startswith(_HEADER_START)


def _num(row: dict, field: str, path, line: int, *, required: bool = True) -> float:
    text = (row.get(field) or "").strip()
    if not text:
        if required:
            raise IngestError(path, f"line {line} ({row.get('operation')}): field {field!r} is empty: expected a number")
        return math.nan
    try:
        v = float(text)
    except ValueError:
        raise IngestError(path, f"line {line} ({row.get('operation')}): field {field!r} = {text!r}: expected a "
                                "number") from None
    if not math.isfinite(v) or v < 0:
        raise IngestError(path, f"line {line} ({row.get('operation')}): field {field!r} = {text!r}: expected a "
                                "finite number >= 0")
    return v


def _paths(row: dict) -> str | None:
    """The command line's last ``paths`` arguments (elbencho takes its paths last), ';'-joined; None without one."""
    cmd, n = (row.get("command") or "").strip(), (row.get("paths") or "").strip()
    if not cmd or not n.isdigit() or int(n) < 1:
        return None
    try:
        args = shlex.split(cmd)
    except ValueError:
        return None
    tail = args[-int(n):] if len(args) > int(n) else []
    return ";".join(tail) if tail and not any(a.startswith("-") for a in tail) else None


def read_elbencho_csv(path, text: str) -> list[dict]:
    """Rows of an elbencho ``--csvfile`` result (see the module docstring); raises :class:`IngestError` naming the
    file, the line and the field for a malformed line."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    header = next(reader, None)
    if not header:
        raise IngestError(path, "an empty elbencho CSV (no header line)")
    missing = [c for c in _REQUIRED if c not in header]
    if missing:
        raise IngestError(path, f"elbencho CSV header lacks {', '.join(repr(c) for c in missing)}: expected the "
                                "columns elbencho --csvfile writes")
    rows: list[dict] = []
    index = 0
    for line, values in enumerate(reader, start=2):
        if not any(v.strip() for v in values):
            continue
        if len(values) != len(header):
            raise IngestError(path, f"line {line}: {len(values)} fields under a header of {len(header)}: a line cut "
                                    "short or two lines run together")
        row = dict(zip(header, values))
        op = row["operation"].strip().upper()
        direction = _IO_OPERATIONS.get(op)
        if direction is None:  # MKDIRS, SYNC, DROPCACHES, RMFILES, STAT …: no data moved
            continue
        threads, hosts = _num(row, "threads", path, line), _num(row, "hosts", path, line)
        bs = _num(row, "block size", path, line)
        depth = _num(row, "IO depth", path, line)
        runtime = _num(row, "time ms [last]", path, line) / 1e3
        if not bs > 0 or not threads >= 1 or not hosts >= 1 or not depth >= 1 or not runtime > 0:
            raise IngestError(path, f"line {line} ({op}): threads {threads:g}, hosts {hosts:g}, block size {bs:g}, "
                                    f"IO depth {depth:g}, time ms [last] {runtime * 1e3:g}: expected threads, hosts "
                                    "and IO depth ≥ 1, a block size and a time > 0")
        random = _num(row, "random", path, line) == 1
        mixed = direction == "write" and _num(row, "rwmix read IOPS [last]", path, line, required=False) > 0
        pattern = ("rand" if random else "") + ("rw" if mixed else direction)
        parts = [(direction, "")] + ([("read", "rwmix read ")] if mixed else [])
        counts = {}
        for d, pre in parts:
            iops = _num(row, f"{pre}IOPS [last]", path, line)
            mib_s = _num(row, f"{pre}MiB/s [last]", path, line)
            mib = _num(row, f"{pre}MiB [last]", path, line, required=False)
            io_bytes = mib * _MIB if math.isfinite(mib) else mib_s * _MIB * runtime
            counts[d] = (iops, mib_s, io_bytes)
        total = sum(c[0] for c in counts.values())
        version = (row.get("version") or "").strip() or None
        for d, pre in parts:
            iops, mib_s, io_bytes = counts[d]
            rows.append(new_row(
                tool="elbencho", tool_version=version, format="elbencho-csv", source_path=str(path), run=index,
                snapshot=0, final=True, job_name=(row.get("label") or "").strip() or None, job_index=0,
                level="group", is_aggregate=False, pattern=pattern, direction=d,
                read_fraction=(counts["read"][0] / total if total > 0 else math.nan) if mixed else
                (1.0 if d == "read" else 0.0),
                random_fraction=1.0 if random else 0.0, block_size_bytes=bs, iodepth=int(depth),
                numjobs=int(threads * hosts), direct=_num(row, "direct IO", path, line) == 1,
                target_names=_paths(row), runtime_s=runtime, ios=io_bytes / bs, io_bytes=io_bytes, iops=iops,
                bw_bytes_per_s=mib_s * _MIB,
                lat_mean_s=_num(row, f"{pre}IO lat us [avg]", path, line, required=False) * 1e-6,
                lat_max_s=_num(row, f"{pre}IO lat us [max]", path, line, required=False) * 1e-6,
            ))
        index += 1
    if not rows:
        raise IngestError(path, "an elbencho CSV with no READ or WRITE phase (only housekeeping phases such as "
                                "MKDIRS or SYNC): no I/O results")
    return rows
