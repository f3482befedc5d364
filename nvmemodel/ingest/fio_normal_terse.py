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
"""

from __future__ import annotations

import math
import re
import warnings

from ..errors import IngestError
from .fio_normal import read_fio_normal
from .fio_terse import read_fio_terse

__all__ = ["has_normal_results", "read_fio_normal_terse"]

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
    problem = None
    if len(n) != len(t):
        problem = (f"{len(t)} job direction(s) with results in the terse lines, {len(n)} in the normal report")
    else:
        for a, b in zip(t, n):
            if not _same_name(a["job_name"], b["job_name"]) or a["direction"] != b["direction"]:
                problem = (f"terse line of job {a['job_name']!r} ({a['direction']}) where the normal report has "
                           f"job {b['job_name']!r} ({b['direction']})")
                break
            x, y = a["iops"], b["iops"]
            if not (math.isnan(x) or math.isnan(y)) and abs(x - y) > _IOPS_REL * max(x, y) + _IOPS_ABS:
                problem = (f"job {a['job_name']!r} ({a['direction']}): {x:,.0f} IOPS in its terse line, {y:,.0f} in "
                           "the normal report")
                break
    if problem:
        raise IngestError(path, f"fio terse lines and fio's normal report that do not describe the same runs "
                                f"({problem}): expected the output of --output-format=normal,terse, or one form "
                                "per file")
    return rows
