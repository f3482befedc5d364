"""IOmeter results CSV (and its "instantaneous" update-frequency variant) into table rows.

An IOmeter results file is a sequence of test blocks (``'Test Type`` … ``'End Test``): the
version, the access specification (``size, % of size, % reads, % random, …``) and a
``'Results`` section whose header row names the columns, followed by ALL / MANAGER /
PROCESSOR / WORKER / DISK rows. Columns are found **by name**, so their order and the
versions' renamings do not matter:

* bandwidth: ``MiBps (Binary)`` / ``MBps (Decimal)`` (1.1.0); ``MBps (Binary)`` in older 1.1.0
  builds means MiB/s; a bare ``MBps`` (2006 builds) is binary too (IOmeter's MB = 2^20 B).
  Byte counts (``Bytes Read``/``Bytes Written``) and I/O counts are used when present.
* response times are in milliseconds; run time is ``Total Raw Run Time / Processor Speed``.

Rows: one per (test, ALL/MANAGER/WORKER/DISK row, direction with I/O). Each test is a **run** (``run`` =
the test's index in the file) with one report (``snapshot``, numbered over the file); its workers are its
jobs (``job_index`` = the worker's position in the test, on its WORKER row and the DISK rows under it; NA
on the ALL and MANAGER rows, which sum them). PROCESSOR rows (per-CPU
utilisation, no I/O) are not tabulated; the CPU columns come from the ALL/MANAGER rows'
``% User Time`` / ``% Privileged Time``, averages over the PROCESSOR rows' CPUs, × their number:
the CPUs' worth the machine (a MANAGER row: its host) used during the test, every process
(NA where the file lists no PROCESSOR rows). The latency-bin columns are not tabulated. ``is_aggregate`` is True for rows that sum others (ALL,
MANAGER, and WORKER when DISK rows exist). The instantaneous variant (a ``TimeStamp`` first
column) gives one ``snapshot`` per interval, none of them ``final``.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re

from ..errors import IngestError
from .schema import new_row

_LEVELS = ("ALL", "MANAGER", "WORKER", "DISK")


def looks_like_iometer(head: str) -> bool:
    """An IOmeter results file starts with a \"'Test Type\" block, or has a \"'Results\" line
    followed by a header row naming \"'Target Type\" (both at the start of a line)."""
    first = head.lstrip().splitlines()[0] if head.strip() else ""
    if first.startswith("'Test Type,"):
        return True
    return bool(re.search(r"^'Results\s*$", head, re.MULTILINE)) and bool(re.search(r"^(TimeStamp,)?'Target Type,", head, re.MULTILINE))


def is_iometer_file(path) -> bool:
    """The file at ``path`` starts as an IOmeter results CSV does (read by content, not by its ``.csv``
    suffix, which ``nvmemodel ingest -o`` tables share); False where it is no regular file (a FIFO is never
    opened here: it could block) or cannot be read."""
    if not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    return looks_like_iometer(head.decode("utf-8-sig", errors="replace"))


#: Columns this reader uses; a value there must be a number (>= 0 where marked), or empty.
_CHECKED = {"IOps": True, "Read IOps": True, "Write IOps": True, "Read I/Os": True, "Write I/Os": True,
            "Bytes Read": True, "Bytes Written": True, "Total Raw Run Time": True, "Processor Speed": True,
            "Average Read Response Time": True, "Average Write Response Time": True, "Queue Depth": True,
            "# Workers": True, "# Disks": True, "% User Time": True, "% Privileged Time": True}
#: Counts that become integer columns: beyond this they cannot be a real setting.
_COUNT_MAX = {"Queue Depth": 2**31, "# Workers": 2**31, "# Disks": 2**31}


def _num(row: dict, col: str) -> float:
    """A cell as a float; NaN when empty (IOmeter leaves cells empty where they do not apply)."""
    text = (row.get(col) or "").strip()
    if not text:
        return math.nan
    try:
        return float(text)
    except ValueError:
        return math.nan


def _check_row(row: dict, path, test: int, level: str) -> None:
    for col, non_negative in _CHECKED.items():
        text = (row.get(col) or "").strip()
        if not text:
            continue
        try:
            value = float(text)
        except ValueError:
            raise IngestError(path, f"test {test}, {level} row {row.get('Target Name')!r}, column {col!r} = "
                                    f"{text!r}: expected a number") from None
        if math.isnan(value) or math.isinf(value) or (non_negative and value < 0) or value > _COUNT_MAX.get(col, math.inf):
            limit = f" up to {_COUNT_MAX[col]}" if col in _COUNT_MAX else ""
            raise IngestError(path, f"test {test}, {level} row {row.get('Target Name')!r}, column {col!r} = "
                                    f"{text!r}: expected a finite number{' >= 0' if non_negative else ''}{limit}")
    if "Processor Speed" in row and (row.get("Processor Speed") or "").strip() and _num(row, "Processor Speed") <= 0:
        raise IngestError(path, f"test {test}, {level} row {row.get('Target Name')!r}, column 'Processor Speed' = "
                                f"{row['Processor Speed']!r}: expected a clock rate > 0")


def _mb_factor(columns: list[str]) -> tuple[str | None, float]:
    for name, factor in (("MiBps (Binary)", 2.0**20), ("MBps (Binary)", 2.0**20), ("MBps (Decimal)", 1e6),
                         ("MBps", 2.0**20)):
        if name in columns:
            return name, factor
    return None, math.nan


def _pattern(read_fraction: float, random_fraction: float) -> str | None:
    """The fio name of an access specification that is all random or all sequential (randread, read, randwrite,
    write, randrw, rw); None for a partly random one (fio has no single word for it)."""
    if random_fraction not in (0.0, 1.0) or not 0.0 <= read_fraction <= 1.0:
        return None
    kind = "read" if read_fraction == 1.0 else "write" if read_fraction == 0.0 else "rw"
    return ("rand" if random_fraction == 1.0 else "") + kind


def read_iometer(path, text: str | None = None) -> list[dict]:
    """Rows of an IOmeter results CSV."""
    if text is None:
        with open(path, encoding="utf-8-sig", errors="strict", newline="") as fh:
            text = fh.read()
    if not looks_like_iometer(text[:4096]):
        raise IngestError(path, "not an IOmeter results CSV: expected a first line \"'Test Type,Test Description\"")
    lines = list(csv.reader(io.StringIO(text)))
    tests: list[dict] = []
    cur: dict | None = None
    section = None
    header: list[str] | None = None
    for lineno, fields in enumerate(lines, start=1):
        if not fields or not any(f.strip() for f in fields):
            continue
        first = fields[0]
        if first.startswith("'") or (len(fields) > 1 and fields[1].startswith("'Target Type")):
            tag = first.lstrip("'") if first.startswith("'") else "Target Type (timestamped)"
            if tag.startswith("Test Type"):
                cur = {"description": None, "version": None, "spec": [], "rows": [], "line": lineno}
                tests.append(cur)
                section = "test"
            elif tag.startswith("Version"):
                section = "version"
            elif tag.startswith("Time Stamp"):
                section = "time"
            elif tag.startswith("size"):
                section = "spec"
            elif tag.startswith(("Access specification", "End access")):
                section = "specname" if tag.startswith("Access specification name") else None
            elif tag.startswith("Results"):
                section = "results"
            elif tag.startswith("Target Type"):
                header = [f.strip().lstrip("'") for f in fields]
                section = "rows"
            elif tag.startswith(("End Test", "End Results")):
                section = None
            continue
        if cur is None:
            raise IngestError(path, f"line {lineno}: data before the first 'Test Type block")
        if section == "test":
            cur["description"] = fields[1] if len(fields) > 1 else fields[0]
        elif section == "version":
            cur["version"] = fields[0].strip()
        elif section == "spec":
            try:
                size, share, reads, random = (float(x) for x in fields[:4])
            except ValueError:
                raise IngestError(path, f"line {lineno}: access specification {fields[:4]}: expected numbers "
                                        "for size, % of size, % reads, % random") from None
            if not (size > 0 and all(0 <= x <= 100 for x in (share, reads, random))):
                raise IngestError(path, f"line {lineno}: access specification {fields[:4]}: expected a size > 0 and "
                                        "percentages from 0 to 100")
            cur["spec"].append((size, share, reads, random))
        elif section == "rows":
            if header is None:
                raise IngestError(path, f"line {lineno}: result row before the results header")
            cur["rows"].append(dict(zip(header, fields)))
    if not tests:
        raise IngestError(path, "no IOmeter test blocks found")

    out = []
    version = next((t["version"] for t in tests if t["version"]), None)
    reports = 0  # reports before this test's (snapshot numbers run over the file)
    for index, test in enumerate(tests):
        if not test["rows"]:
            raise IngestError(path, f"test {index} ({test['description']!r}, line {test['line']}): no result rows "
                                    "(truncated file?)")
        columns = list(test["rows"][0])
        mb_col, mb_factor = _mb_factor(columns)
        if "Target Type" not in columns or "IOps" not in columns:
            raise IngestError(path, f"test {index}: results header lacks 'Target Type' or 'IOps' columns")
        spec = test["spec"]
        fixed_size = spec[0][0] if len(spec) == 1 else None
        read_fraction = sum(s[1] * s[2] for s in spec) / 100 / 100 if spec else math.nan
        random_fraction = sum(s[1] * s[3] for s in spec) / 100 / 100 if spec else math.nan
        pattern = _pattern(read_fraction, random_fraction)
        # the test's workers are its jobs: every row says how many (as fio's clones each carry numjobs)
        counts = [_num(r, "# Workers") for r in test["rows"] if (r.get("Target Type") or "").strip() in ("ALL", "MANAGER")]
        names = {r.get("Target Name") for r in test["rows"] if (r.get("Target Type") or "").strip() == "WORKER"}
        n_workers = int(counts[0]) if counts and 0 < counts[0] <= _COUNT_MAX["# Workers"] else len(names) or None
        has_disks = any(r.get("Target Type") == "DISK" for r in test["rows"])
        cpus = _processors(test["rows"])
        seen: dict[tuple, int] = {}
        workers: dict[str, int] = {}  # worker name -> its position in the test (first appearance)
        worker = None
        for r in test["rows"]:
            level = (r.get("Target Type") or "").strip()
            if level not in _LEVELS:
                continue
            _check_row(r, path, index, level)
            ts = r.get("TimeStamp")
            if level == "WORKER":
                worker = workers.setdefault(r.get("Target Name"), len(workers))
            elif level in ("ALL", "MANAGER"):
                worker = None
            # a worker's DISK rows follow it; instantaneous files repeat every target once per interval:
            # the repeat count is the report (a results file: one report per test)
            key = (level, r.get("Target Name"), worker)
            snapshot = seen.get(key, -1) + 1 if ts is not None else 0
            seen[key] = snapshot
            # run time in seconds from raw ticks; response times are ms
            runtime = _num(r, "Total Raw Run Time") / _num(r, "Processor Speed")
            for direction, pre, cnt, byt in (("read", "Read ", "Read I/Os", "Bytes Read"),
                                             ("write", "Write ", "Write I/Os", "Bytes Written")):
                iops = _num(r, f"{pre}IOps")
                if not iops > 0:
                    continue
                ios = _num(r, cnt)
                nbytes = _num(r, byt)
                rt = runtime if runtime > 0 else (ios / iops if ios > 0 else math.nan)
                if nbytes > 0 and rt > 0:
                    bw = nbytes / rt
                elif mb_col:
                    bw = _num(r, f"{pre}{mb_col}") * mb_factor
                else:
                    bw = math.nan
                bs = fixed_size or (nbytes / ios if ios > 0 else bw / iops)
                out.append(new_row(
                    tool="iometer", tool_version=test["version"] or version, format="iometer-csv",
                    source_path=str(path), run=index, snapshot=reports + snapshot,
                    final=ts is None, job_name=test["description"], job_index=worker,
                    hostname=(r.get("Target Name") if level == "MANAGER" else None), level=level,
                    is_aggregate=level in ("ALL", "MANAGER") or (level == "WORKER" and has_disks),
                    pattern=pattern, direction=direction, read_fraction=read_fraction,
                    random_fraction=random_fraction, block_size_bytes=bs,
                    iodepth=int(_num(r, "Queue Depth")) if _num(r, "Queue Depth") > 0 else None,
                    numjobs=int(_num(r, "# Workers")) if _num(r, "# Workers") > 0 else n_workers,
                    target_names=(r.get("Target Name") if level == "DISK" else None),
                    targets=int(_num(r, "# Disks")) if _num(r, "# Disks") >= 0 else None,
                    runtime_s=rt, ios=ios, io_bytes=nbytes, iops=iops, bw_bytes_per_s=bw,
                    lat_mean_s=_num(r, f"Average {pre}Response Time") * 1e-3,
                    lat_max_s=_num(r, f"Maximum {pre}Response Time") * 1e-3,
                    cpu_usr=_num(r, "% User Time") / 100 * cpus.get(_manager(r, level), math.nan),
                    cpu_sys=_num(r, "% Privileged Time") / 100 * cpus.get(_manager(r, level), math.nan),
                ))
        reports += max(seen.values(), default=-1) + 1
    return out


def _manager(row: dict, level: str):
    """The key of :func:`_processors` for a row's CPU columns: None (all) for ALL, the manager's name for MANAGER."""
    return None if level == "ALL" else row.get("Target Name") if level == "MANAGER" else "(none)"


def _processors(rows: list[dict]) -> dict:
    """How many processors the ALL row's (key None) and each MANAGER row's (key: its name) CPU percentages
    average over: the PROCESSOR rows (one per CPU, after their manager's row; an instantaneous file repeats
    them every interval), so that percentage × count is the CPUs' worth used (QA s25 H25). A count of 0
    (no PROCESSOR rows) is left out: the CPU columns are then NA."""
    seen: dict = {}
    manager = None
    for r in rows:
        level = (r.get("Target Type") or "").strip()
        if level == "MANAGER":
            manager = r.get("Target Name")
        elif level == "PROCESSOR":
            seen.setdefault(manager, set()).add(r.get("Target Name"))
    counts = {m: float(len(names)) for m, names in seen.items()}
    if counts:
        counts[None] = float(sum(counts.values()))
    return counts
