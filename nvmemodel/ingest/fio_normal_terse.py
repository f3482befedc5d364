"""fio ``--output-format=normal,terse``: both forms of the same runs in one file, read from the
normal report.

fio keeps one buffer per output form and writes them after each report in the order terse,
JSON, normal (fio ``stat.c``, ``__show_run_stats``): each report's terse lines, then its normal
job blocks. The normal report says what terse does not (each run's job header with ``rw``,
``bs``, ``ioengine`` and ``iodepth``, ``Starting N processes``, ``(groupid=0, jobs=1)``), so it
tells appended runs of one job from clones and gives exact I/O counts (the ``issued`` line); the
rows are its rows (``format`` ``fio-normal``), as a ``json,normal,terse`` file is read from its
JSON. The terse lines are read too and must describe the same jobs with the same numbers
(within terse's whole IOPS): a file where they do not (a terse-only run appended beside a
normal,terse run, a cut-off normal part) is refused rather than read half.

Terse lines beside fio's job header lines but without any normal result block (the normal part
lost): the header lines still say where each run starts and its ``rw``, ``ioengine`` and
``iodepth`` (:func:`header_runs`), so appended runs of one job are not taken for clones.
"""

from __future__ import annotations

import math
import re
import warnings

from ..errors import IngestError
from .fio_normal import read_fio_normal
from .fio_terse import read_fio_terse

__all__ = ["has_normal_results", "header_runs", "read_fio_normal_terse"]

_JOB_HEADER = re.compile(r"(?P<name>\S.*?): \(g=(?P<g>\d+)\): rw=(?P<rw>[^,]+), bs=.*?, ioengine=(?P<engine>[^,]+), "
                         r"iodepth=(?P<qd>\d+)")
#: the other lines fio's normal report prints before a run's results
_REPORT_LINE = re.compile(r"fio-\d+\.\d+\S*|Starting \d+ (?:process|thread)e?s?(?: and \d+ \w+)?")
_NORMAL_RESULT = re.compile(r"^\S.*?: \(groupid=\d+, jobs=\d+\): err=", re.MULTILINE)
#: IOPS of one job direction in the two forms agree within this share (+ 2 IOPS): terse prints
#: whole IOPS of completed I/Os, normal counts issued ones (an interim report's in-flight I/Os).
_IOPS_REL, _IOPS_ABS = 0.1, 2.0
#: fio's normal result line shortens a long job name; the terse line has it whole
_SHORTENED = 31


def has_normal_results(text: str) -> bool:
    """The text holds a job result block of fio's normal report (``name: (groupid=0, jobs=1): err= 0``)."""
    return "(groupid=" in text and bool(_NORMAL_RESULT.search(text))


def _measured(rows: list[dict]) -> list[dict]:
    return [r for r in rows if not r.get("error")]


def _same_name(terse: str, normal: str) -> bool:
    return terse == normal or (len(normal) >= _SHORTENED and terse.startswith(normal))


def read_fio_normal_terse(path, text: str) -> list[dict]:
    """Rows of a file holding fio's normal report and terse lines of the same runs (see the module
    docstring); raises :class:`IngestError` where the two do not describe the same jobs."""
    rows = read_fio_normal(path, text)
    with warnings.catch_warnings():  # the normal report's rows are the ones kept: its warnings are the ones said
        warnings.simplefilter("ignore")
        terse = read_fio_terse(path, text)
    n, t = _measured(rows), _measured(terse)
    if t and all(r["format"] == "fio-terse-v3" for r in t):  # terse v3 has no trim block (fio 2.x --append-terse
        n = [r for r in n if r["direction"] != "trim"]  # writes v3 by default): the normal report's trims stay
    problem = None
    if len(n) != len(t):
        problem = (f"{len(t)} job direction(s) with results in the terse lines, {len(n)} in the normal report")
    else:
        for a, b in zip(t, n):
            # (fio before 3.28 writes a unified_rw_reporting job's mixed numbers in the terse read fields)
            if not _same_name(a["job_name"], b["job_name"]) or (a["direction"] != b["direction"] and (
                    a["direction"], b["direction"]) != ("read", "mixed")):
                problem = (f"terse line of job {a['job_name']!r} ({a['direction']}) where the normal report has "
                           f"job {b['job_name']!r} ({b['direction']})")
                break
            x, y = a["iops"], b["iops"]
            if not (math.isnan(x) or math.isnan(y)) and abs(x - y) > _IOPS_REL * max(x, y) + _IOPS_ABS:
                problem = (f"job {a['job_name']!r} ({a['direction']}): {x:,.0f} IOPS in its terse line, {y:,.0f} in "
                           "the normal report")
                break
    if problem:
        raise IngestError(path, f"its fio terse lines and fio's normal report do not describe the same runs "
                                f"({problem}): expected the output of --output-format=normal,terse, or one form "
                                "per file")
    return rows


def header_runs(text: str) -> list[tuple[str, dict, int]] | None:
    """Terse text cut into runs at fio's job header lines (``app: (g=0): rw=randread, bs=…,
    ioengine=libaio, iodepth=4``): [(the run's text without the report lines, {"jobs": {name: {group:
    {"rw", "ioengine", "iodepth"}}}}, its first line number)], or None without header lines. A
    header after terse lines starts the next run (fio prints a run's headers before its results).
    Job names need not be unique (two stonewalled groups both named ``write``): headers are kept per group."""
    if ": (g=" not in text:
        return None
    chunks: list[tuple[str, dict, int]] = []
    pieces: list[str] = []
    jobs: dict = {}
    first, seen_terse = 1, False
    for n, line in enumerate(text.splitlines(keepends=True), start=1):
        if m := _JOB_HEADER.match(line):
            if seen_terse:
                chunks.append(("".join(pieces), {"jobs": jobs}, first))
                pieces, jobs, first, seen_terse = [], {}, n, False
            jobs.setdefault(m["name"], {}).setdefault(int(m["g"]), {"rw": m["rw"].strip(), "ioengine": m["engine"].strip(), "iodepth": int(m["qd"])})
            continue
        if _REPORT_LINE.fullmatch(line.strip()):
            continue
        seen_terse = seen_terse or line[:2] in ("2;", "3;", "4;", "5;")
        pieces.append(line)
    chunks.append(("".join(pieces), {"jobs": jobs}, first))
    return chunks if any(c[1]["jobs"] for c in chunks) else None


def apply_headers(rows: list[dict], options: dict) -> None:
    """Fill the pattern, ioengine and iodepth the job header of a row's job gives, where unknown
    (terse says none of them; nothing else is taken from the header: fio does not print it)."""
    for row in rows:
        # the header of the row's own name and group: fio 3.33 --output-format=terse prints the first job's header
        # only, so a second group of the same name has none (its options stay unknown, never the first group's)
        header = (options["jobs"].get(row.get("job_name")) or {}).get(row.get("group_id"))
        if header is None:
            continue
        for col, key in (("pattern", "rw"), ("ioengine", "ioengine"), ("iodepth", "iodepth")):
            if row.get(col) is None:
                row[col] = header[key].split(":")[0] if key == "rw" else header[key]
