"""``read_results``: files and folders of benchmark output → one tidy table.

The format of each file is recognised from its content (never its name): fio JSON/json+,
fio terse, fio normal output, IOmeter CSV, DiskSpd XML, elbencho CSV (``--csvfile``). fio time-series logs are a
different table (:func:`~nvmemodel.ingest.fio_log.read_fio_logs`); a folder ingest lists them as skipped.

Experiment variables that are not in the output (number of drives, connection type, …) come
from a *sidecar* the user writes — YAML ``{glob: {label: value}}`` or CSV with a ``path``
column of globs and one column per label, globs relative to the sidecar — or from a
``path_regex`` whose named groups become labels. A label named like a table column
(``iodepth``, ``numjobs``, ``pattern``, ``block_size_bytes``, …) fills that column where the
file left it unknown, and must agree with it where the file gave a value.
"""

from __future__ import annotations

import contextlib
import gc
import math
import pathlib
import os
import re
import warnings
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import IngestError, IngestWarning
from .diskspd import looks_like_diskspd_xml, read_diskspd_xml
from .elbencho import looks_like_elbencho_csv, read_elbencho_csv
from .files import MAX_FILE_BYTES, Skipped, decode, expand, read_bytes
from .fio_json import looks_like_fio_json, one_fio_document, read_fio_json, rows_from_document
from .fio_json_packed import packed_rows
from .fio_log import looks_like_fio_log
from .fio_normal import looks_like_fio_normal, read_fio_normal
from .fio_normal_terse import apply_headers, has_normal_results, header_runs, read_fio_normal_terse
from .fio_terse import looks_like_fio_terse, read_fio_terse
from .iometer import looks_like_iometer, read_iometer
from .labels import Globs, PathRegex, apply_labels, load_sidecar, pattern_to_regex
from .percentiles import warn_impossible_percentiles
from .runs import apply_echo, apply_targets, drop_copies, echoed_runs, has_results, warn_empty
from .schema import _ALL_COLUMNS as _ROW_VALUES
from .schema import COLUMNS, to_frame
from .steadystate import steady_state_note

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MAX_FILE_BYTES", "Skipped", "detect_format", "read_file", "read_results"]

_LEADING_SPACE = re.compile(r"\s*")


def _text_start(text: str) -> int:
    """Where ``text``'s first character that is not white space is (its length if none)."""
    m = _LEADING_SPACE.match(text)
    return m.end() if m is not None else 0  # (\s* matches every text)


_FIO_MESSAGE = re.compile(r"^(fio: |fio-\d|Starting \d+ (process|thread)|\S+: \(g=\d+\): rw=|\s*$)")


def detect_format(text: str) -> str | None:
    """fio-json, fio-terse, fio-normal, iometer-csv, diskspd-xml, elbencho-csv, fio-log, fio-hist-log, or None."""
    start = _text_start(text)
    if text.startswith("{", start):  # the common case, decided without copying or scanning
        return "fio-json"
    head = text[:65536]
    stripped = head[start:]
    if stripped.startswith("<") and looks_like_diskspd_xml(head):
        return "diskspd-xml"
    if looks_like_elbencho_csv(stripped):
        return "elbencho-csv"
    if looks_like_iometer(head):
        return "iometer-csv"
    if looks_like_fio_json(head):
        return "fio-json"
    if looks_like_fio_terse(head):
        return "fio-terse"
    if looks_like_fio_normal(head):
        return "fio-normal"
    if looks_like_fio_log(head):
        return "fio-log"
    first = stripped.split("\n", 1)[0]
    if first.count(",") > 8 and re.fullmatch(r"[\d\s,.]+", first):
        return "fio-hist-log"
    return None


#: Largest fio normal output read without an explicit ``max_file_bytes`` (a few seconds of parsing at most).
NORMAL_MAX_CHARS = 4 * 2**20

_READERS = {"fio-json": read_fio_json, "fio-terse": read_fio_terse, "fio-normal": read_fio_normal,
            "fio-normal+terse": read_fio_normal_terse, "iometer-csv": read_iometer, "diskspd-xml": read_diskspd_xml,
            "elbencho-csv": read_elbencho_csv}


def _form(fmt: str | None, text: str) -> str | None:
    """The reader's key for text of detected format ``fmt``: terse lines beside fio's normal report
    (``--output-format=normal,terse``) are read from the normal report (see :mod:`.fio_normal_terse`)."""
    return "fio-normal+terse" if fmt == "fio-terse" and has_normal_results(text) else fmt


#: :func:`.fio_json_typed.typed_rows`, imported at the first file a folder ingest reads: msgspec takes
#: about 10 ms to import, and ``import nvmemodel`` stays light.
_TYPED: list = []


def _typed_reader() -> list:
    from .fio_json_typed import typed_rows

    _TYPED[:] = [typed_rows]
    return _TYPED


def read_file(path: str | os.PathLike, *, max_file_bytes: int | None = None) -> list[dict]:
    """Rows of one result file; raises :class:`IngestError` naming the file and the problem."""
    if not isinstance(path, pathlib.Path):
        path = pathlib.Path(path)
    return _read_file(path, max_file_bytes)


def _read_file(path, max_file_bytes: int | None, st=None, packed: bool = False) -> list:
    """:func:`read_file` of a path spelled as pathlib spells it (``st``: its status, if known).
    ``packed``: the rows of the usual fio JSON report may come as tuples of their values in
    :data:`COLUMNS` order (see :mod:`.fio_json_typed` and :mod:`.fio_json_packed`), the others are dicts."""
    data = read_bytes(path, max_file_bytes, st)
    if _SIGNAL in data:  # (a substring search: about a microsecond a file)
        _warn_signal(path, data)
    if packed:  # the usual fio JSON report, decoded into typed structs (else read as below, as before)
        rows = (_TYPED or _typed_reader())[0](data, str(path))
        if rows is not None:
            return rows
    doc = one_fio_document(data)
    if doc is not None:  # the common case, read as the text path below reads it, without decoding the text
        if packed:
            rows = packed_rows(doc, str(path))
            if rows is not None:
                return rows
        try:
            rows = rows_from_document(doc, path, snapshot=0, final=True, run=0)
            apply_targets(rows)
        except IngestError:
            raise
        except _MALFORMED as exc:
            raise IngestError(path, f"malformed fio-json content ({type(exc).__name__}: {exc})") from exc
        _mark_verify_reads(rows)
        return rows
    text = decode(data, path)
    fmt = _form(detect_format(text), text)
    if fmt == "fio-log":
        raise IngestError(path, "a fio time-series log: read it with nvmemodel.read_fio_logs")
    if fmt == "fio-hist-log":
        raise IngestError(path, "a fio histogram log (write_hist_log): not supported yet")
    if fmt is None:
        lines = text.strip().splitlines()
        if any(ln.startswith("fio: ") for ln in lines) and all(_FIO_MESSAGE.match(ln) for ln in lines[:200]):
            message = next(ln for ln in lines if ln.startswith("fio: "))
            raise IngestError(path, f"fio's own error message, not results ({message[:160]!r})")
        first = text.lstrip()[:1]
        if first in "{[":
            raise IngestError(path, "a JSON document that is not fio output (no 'fio version' or 'jobs' key)")
        rows = [ln for ln in text.strip().splitlines()[:5] if ln.strip()]
        if rows and rows[0].count(",") >= 1 and all(ln.count(",") == rows[0].count(",") for ln in rows):
            raise IngestError(path, "a CSV that is not an IOmeter results file (no \"'Test Type\" block) nor an "
                                    "elbencho --csvfile result (no 'ISO date,label,path type,…' header)")
        raise IngestError(path, "not a recognised benchmark result (fio JSON/terse/normal output, IOmeter CSV, "
                                "DiskSpd XML, elbencho CSV)")
    if fmt in ("fio-normal", "fio-normal+terse") and max_file_bytes is None and len(text) > NORMAL_MAX_CHARS:
        # The human-readable form is the slowest to parse (about 1 MB/s for pathological content);
        # real reports are kilobytes (this limit holds some 3,000 job blocks).
        raise IngestError(path, f"fio normal output of {len(text):,} characters, over the "
                                f"{NORMAL_MAX_CHARS:,}-character limit for this form (pass max_file_bytes= to "
                                "read it anyway; or ask fio for --output-format=json)")
    try:
        rows = _read_runs(path, text, fmt)
    except IngestError:
        raise
    except _MALFORMED as exc:
        # A malformed file that slipped past the reader's own checks: still name file and problem.
        raise IngestError(path, f"malformed {fmt} content ({type(exc).__name__}: {exc})") from exc
    _mark_verify_reads(rows)
    for row in rows if fmt != "fio-json" else ():  # the fio JSON reader checks its own numbers
        if row["format"].startswith("fio-json"):
            continue
        for col in _NON_NEGATIVE:
            v = row.get(col)
            if isinstance(v, float) and (v < 0 or math.isinf(v)):
                raise IngestError(path, f"{col} = {v!r} in job {row.get('job_name')!r}: expected a finite number >= 0")
        for col in _COUNTS:
            v = row.get(col)
            if v is not None and not 0 <= v < 2**31:
                raise IngestError(path, f"{col} = {v!r} in job {row.get('job_name')!r}: expected an integer from 0 "
                                        "to 2**31")
    return rows


#: what fio writes when a signal (Ctrl-C, a wrapper's timeout) stops it: the report that follows is of a shortened run
_SIGNAL = b"fio: terminating on signal"


def _warn_signal(path, data: bytes) -> None:
    """Say that fio was stopped by a signal: its jobs ran shorter than their job files asked (``runtime_s`` is what
    they ran; a sweep's other points may have run the full time). The numbers are kept: they are the run's."""
    line = data[data.index(_SIGNAL):].split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    warnings.warn(f"{path}: fio was stopped by a signal ({line!r}): its jobs may have run shorter than asked "
                  "(runtime_s is what they ran); compare it with the other runs before reading a trend from them",
                  IngestWarning, stacklevel=3)


_MALFORMED = (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, OverflowError,
              ZeroDivisionError, UnicodeError, MemoryError)

#: fio patterns that issue no reads: reads of such a job are its verify phase (verify=…)
_WRITE_ONLY = {"write", "randwrite"}


def _mark_verify_reads(rows: list[dict]) -> None:
    """A write job with ``verify=`` reads its data back after writing: fio reports those reads
    as the job's read direction. They are a second phase, not part of the workload, so their
    direction is ``verify`` (kept, never summed with the writes; see ``usable_rows``)."""
    for row in rows:
        if row.get("direction") == "read" and row.get("pattern") in _WRITE_ONLY and row.get("tool") == "fio":
            row["direction"] = "verify"


def _warn_terse_clones(path, rows: list[dict]) -> None:
    """Terse lines of one job name in one report are read as clones of one run (numjobs without
    group_reporting); runs of the same job appended to one file look the same (terse has no run
    marker), so say so where nothing echoed says which it is."""
    lines: dict[tuple, set] = {}
    for r in rows:
        if r.get("final") and not r.get("is_aggregate"):
            lines.setdefault((r.get("run"), r.get("job_name"), r.get("group_id")), set()).add(r.get("job_index"))
    clones = {k: len(v) for k, v in lines.items() if len(v) > 1}
    if clones:
        (_, name, _), n = next(iter(clones.items()))
        warnings.warn(f"{path}: {n} terse lines of job {name!r} read as clones of one run (numjobs without "
                      f"group_reporting), their numbers summed and numjobs taken as {n} where the file does not give "
                      "it; terse output cannot tell them from runs appended to "
                      "one file: echo each command before its run ('Fio command: fio …'), write one file per run, or add "
                      "normal to the output formats (--output-format=normal,terse: its job headers start each run)",
                      IngestWarning, stacklevel=4)


def _read_runs(path, text: str, fmt: str) -> list[dict]:
    """Rows of every run in the file, numbered in file order (see :mod:`.runs`)."""
    if not fmt.startswith("fio") or (fmt == "fio-json" and text.startswith("{", _text_start(text))):
        rows = _READERS[fmt](path, text)  # one JSON document (or several, without echoed commands)
        if fmt.startswith("fio"):
            apply_targets(rows)
        else:  # DiskSpd: one run per file; IOmeter: its reader numbers each test's run (QA s25 H10)
            for row in rows:
                if row.get("run") is None:
                    row["run"] = 0
        return rows
    chunks: Sequence[tuple[str, dict | None, int]] | None = echoed_runs(text)
    headers = False
    if chunks is None and fmt == "fio-terse":  # terse lines beside fio's job headers (no normal results)
        chunks = header_runs(text)
        headers = chunks is not None
    if chunks is None:
        rows = _READERS[fmt](path, text)
        if fmt == "fio-terse":
            _warn_terse_clones(path, rows)
        apply_targets(rows)
        return rows
    rows, runs, snapshots = [], 0, 0
    for chunk, options, line in chunks:
        if not has_results(chunk):
            if options is not None:
                warn_empty(path, line)
            continue
        chunk_fmt = _form(detect_format(chunk), chunk)
        if chunk_fmt not in ("fio-json", "fio-normal", "fio-terse", "fio-normal+terse"):
            raise IngestError(path, f"the run echoed at line {line}: its output is not fio JSON, normal or terse")
        chunk_rows = _READERS[chunk_fmt](path, chunk)
        if headers and options is not None:  # (header runs: every chunk has its headers)
            apply_headers(chunk_rows, options)
        elif options is not None:
            apply_echo(chunk_rows, options, path)
        for row in chunk_rows:
            row["run"] = runs + (row.get("run") or 0)
            row["snapshot"] = snapshots + (row.get("snapshot") or 0)
        runs = max((r["run"] for r in chunk_rows), default=runs - 1) + 1
        snapshots = max((r["snapshot"] for r in chunk_rows), default=snapshots - 1) + 1
        rows.extend(chunk_rows)
    apply_targets(rows)
    return rows


_NON_NEGATIVE = [c for c, (dtype, unit, _) in COLUMNS.items() if dtype == "float64" and unit in ("s", "B", "B/s",
                                                                                                  "1/s", "1")] + ["ios"]
_COUNTS = [c for c, (dtype, _, _) in COLUMNS.items() if dtype == "Int64"]


def read_results(paths: str | os.PathLike | Iterable[str | os.PathLike], *, labels: Any = None,
                 path_regex: str | None = None, path_pattern: str | None = None, errors: str = "skip",
                 progress: bool = False, max_file_bytes: int | None = None) -> pd.DataFrame:
    """Read benchmark result files and folders into one tidy, SI-unit table.

    Parameters
    ----------
    paths : path or iterable of paths
        Files and folders (folders are walked recursively, in sorted order).
    labels : path or mapping, optional
        A sidecar (YAML or CSV, see the module docstring) or a mapping ``{glob: {label: value}}``.
    path_regex : str, optional
        A regular expression searched in each file's path; its named groups become labels,
        e.g. ``r"(?P<drives>\\d+)drives/(?P<connection>[^/]+)/"``.
    path_pattern : str, optional
        The same with ``{name}`` fields (see :func:`pattern_to_regex`), matched at the end of
        the path: ``"{drives}drives/{connection}/*.json"``.
    errors : {"skip", "raise"}
        ``"skip"`` (default): a file that cannot be read is listed in ``df.attrs["skipped"]``
        with the reason (and a warning is issued); ``"raise"``: the first such file raises.
    progress : bool
        Show a progress bar (tqdm) while reading.
    max_file_bytes : int, optional
        Skip files larger than this (default :data:`MAX_FILE_BYTES`, 64 MiB), so that no
        file, whatever it holds, takes more than a few seconds.

    Returns
    -------
    pandas.DataFrame
        One row per (file, job or target, direction); columns in
        :data:`nvmemodel.ingest.schema.COLUMNS` order, then labels. ``attrs`` holds
        ``files_read`` and ``skipped`` (a list of :class:`Skipped`).
    """
    if errors not in ("skip", "raise"):
        raise IngestError("(arguments)", f"errors={errors!r}: expected 'skip' or 'raise'")
    files, passed, stats = expand(paths)
    sidecar = Globs(load_sidecar(labels) if labels is not None else [])
    if path_regex and path_pattern:
        raise IngestError("(arguments)", "give path_regex or path_pattern, not both")
    regex = (PathRegex(path_regex, "path_regex") if path_regex else
             PathRegex(pattern_to_regex(path_pattern), "path_pattern") if path_pattern else None)
    skipped: list[Skipped] = list(passed)
    iterator = files
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(files, unit="file", desc="ingest", disable=None)  # None: off when not a terminal
    with _collector_paused():  # (the rows are freed before it runs again: it never walks them)
        rows, label_columns, skipped, unmatched = _read_all(iterator, stats, max_file_bytes, sidecar, regex, errors,
                                                            skipped)
        if unmatched:
            warnings.warn(f"the path pattern matched none of {unmatched} file path(s); their labels are empty",
                          IngestWarning, stacklevel=2)
        _unused_globs(sidecar, labels, files)
        rows, copies = drop_copies(rows, COLUMNS, label_columns)
        if copies:  # the same run read twice is one measurement, not two repeats (QA s25 H24)
            warnings.warn(f"{len(copies)} run(s) are copies of runs read before them (the same jobs, I/O counts, run "
                          "times and latencies to the last digit), each read once: "
                          + "; ".join(f"{c} is a copy of {o}" for c, o in copies[:5])
                          + (" …" if len(copies) > 5 else ""), IngestWarning, stacklevel=2)
        if skipped:
            warnings.warn(f"skipped {len(skipped)} of {len(files) + len(passed)} file(s): "
                          + "; ".join(f"{s.path}: {s.reason}" for s in skipped[:5])
                          + (" …" if len(skipped) > 5 else ""), IngestWarning, stacklevel=2)
        df = to_frame(rows, label_columns)
        del rows
    warn_impossible_percentiles(df)  # percentiles above their row's slowest I/O: warned once, on the whole table
    note = steady_state_note(df)  # fio's ss= check did not hold: said by ingest, plot, fit and compare alike
    if note:
        warnings.warn(note, IngestWarning, stacklevel=2)
    df.attrs["files_read"] = len(files) + len(passed) - len(skipped)
    df.attrs["skipped"] = skipped
    return df


def _unused_globs(sidecar, labels, files) -> None:
    """Warn of each sidecar glob that matches no file read: its labels (and their checks) did nothing. Globs are
    relative to the sidecar's folder, which a label file kept elsewhere does not expect (QA s25 H30)."""
    if not sidecar.sidecar:
        return
    for f in files:  # (a file skipped before its labels were looked up still counts as matched)
        sidecar.labels_for(f)
    unused = sidecar.unused()
    if unused:
        where = (f" (globs are relative to the sidecar's folder, {pathlib.Path(labels).parent})"
                 if isinstance(labels, (str, pathlib.PurePath)) else "")
        warnings.warn(f"{labels if isinstance(labels, (str, pathlib.PurePath)) else '(labels)'}: "
                      f"{len(unused)} glob(s) match none of the {len(files)} file(s) read{where}, so their labels "
                      f"were applied to nothing: {', '.join(repr(u) for u in unused[:3])}"
                      f"{' …' if len(unused) > 3 else ''}", IngestWarning, stacklevel=3)


def _read_all(files, stats, max_file_bytes, sidecar, regex, errors, skipped):
    """(rows, label columns, skipped, files the path pattern did not match) of ``files`` (see read_results)."""
    label_columns: list[str] = []
    rows: list[dict] = []
    unmatched = 0
    for path, st in zip(files, stats):
        try:
            file_rows = _read_file(path, max_file_bytes, st, packed=True)
            if not file_rows:  # every job completed no I/O (each warned about): nothing to tabulate
                raise IngestError(path, "no rows: no job in the file did any I/O")
            file_labels: dict = sidecar.labels_for(path)
            if regex is not None:
                m = regex.search(pathlib.Path(path).as_posix())
                if m:
                    file_labels.update({k: v for k, v in m.groupdict().items() if v is not None})
                else:
                    unmatched += 1
            if file_labels:
                if type(file_rows[0]) is tuple:  # labels are applied to row dicts
                    file_rows = [dict(zip(COLUMNS, r)) for r in file_rows]
                apply_labels(file_rows, file_labels, path)
                for k in file_labels:
                    if k not in COLUMNS and k not in label_columns:
                        label_columns.append(k)
                rows.extend(file_rows)
            elif type(file_rows[0]) is tuple:  # packed as read
                rows.extend(file_rows)
            else:
                try:  # packed: the values in column order, the row dicts freed while they are in cache
                    rows.extend(list(map(_ROW_VALUES, file_rows)))
                except KeyError:  # a row without every column stays a dict (to_frame reads both)
                    rows.extend(file_rows)
        except IngestError as exc:
            if errors == "raise":
                raise
            skipped.append(Skipped(str(path), exc.problem))
    return rows, label_columns, skipped, unmatched


@contextlib.contextmanager
def _collector_paused():
    """The cyclic garbage collector off while a folder is read: each file leaves a few rows
    behind (no cycles; the parsed documents are freed as they go), and those allocations alone
    set off collections that walk every object of the process (pandas' included), about a tenth of
    the ingest's time on a folder of small files. Restored as it was (also on an error); the rows
    are freed before it is (its first collection after that would walk every one of them)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
