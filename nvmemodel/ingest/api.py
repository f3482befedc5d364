"""``read_results``: files and folders of benchmark output → one tidy table.

The format of each file is recognised from its content (never its name): fio JSON/json+,
fio terse, fio normal output, IOmeter CSV, DiskSpd XML. fio time-series logs are a different table
(:func:`~nvmemodel.ingest.fio_log.read_fio_logs`); a folder ingest lists them as skipped.

Experiment variables that are not in the output (number of drives, connection type, …) come
from a *sidecar* the user writes — YAML ``{glob: {label: value}}`` or CSV with a ``path``
column of globs and one column per label, globs relative to the sidecar — or from a
``path_regex`` whose named groups become labels. A label named like a table column
(``iodepth``, ``numjobs``, ``pattern``, ``block_size_bytes``, …) fills that column where the
file left it unknown, and must agree with it where the file gave a value.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import math
import os
import pathlib
import re
import warnings
from collections.abc import Iterable, Mapping

from ..errors import IngestError, IngestWarning, NvmeModelError
from .diskspd import looks_like_diskspd_xml, read_diskspd_xml
from .fio_json import looks_like_fio_json, read_fio_json
from .fio_log import looks_like_fio_log
from .fio_normal import looks_like_fio_normal, read_fio_normal
from .fio_terse import looks_like_fio_terse, read_fio_terse
from .iometer import looks_like_iometer, read_iometer
from .schema import COLUMNS, to_frame

__all__ = ["read_results", "read_file", "Skipped", "detect_format"]

_SKIP_DIRS = {".git", "__pycache__", ".ipynb_checkpoints"}
_LEADING_SPACE = re.compile(r"\s*")


@dataclasses.dataclass(frozen=True)
class Skipped:
    """A file a folder ingest did not turn into rows, and why."""

    path: str
    reason: str


def _read_text(path: pathlib.Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise IngestError(path, f"cannot read: {exc.strerror}") from None
    if not data or data.isspace():
        raise IngestError(path, "empty file")
    if b"\x00" in data[:8192]:
        raise IngestError(path, "binary file (NUL bytes): not a text benchmark result")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        try:
            return data.decode("cp1252")  # IOmeter on Windows writes the ANSI code page
        except UnicodeDecodeError:
            raise IngestError(path, f"not UTF-8 text (byte {exc.start}): not a text benchmark result") from None


def detect_format(text: str) -> str | None:
    """fio-json, fio-terse, fio-normal, iometer-csv, diskspd-xml, fio-log, fio-hist-log, or None."""
    start = _LEADING_SPACE.match(text).end()
    if text.startswith("{", start):  # the common case, decided without copying or scanning
        return "fio-json"
    head = text[:65536]
    stripped = head[start:]
    if stripped.startswith("<") and looks_like_diskspd_xml(head):
        return "diskspd-xml"
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


_READERS = {"fio-json": read_fio_json, "fio-terse": read_fio_terse, "fio-normal": read_fio_normal,
            "iometer-csv": read_iometer, "diskspd-xml": read_diskspd_xml}


def read_file(path) -> list[dict]:
    """Rows of one result file; raises :class:`IngestError` naming the file and the problem."""
    path = pathlib.Path(path)
    text = _read_text(path)
    fmt = detect_format(text)
    if fmt == "fio-log":
        raise IngestError(path, "a fio time-series log: read it with nvmemodel.read_fio_logs")
    if fmt == "fio-hist-log":
        raise IngestError(path, "a fio histogram log (write_hist_log): not supported yet")
    if fmt is None:
        first = text.lstrip()[:1]
        if first in "{[":
            raise IngestError(path, "a JSON document that is not fio output (no 'fio version' or 'jobs' key)")
        if "," in text.splitlines()[0]:
            raise IngestError(path, "a CSV that is not an IOmeter results file (no \"'Test Type\" block)")
        raise IngestError(path, "not a recognised benchmark result (fio JSON/terse/normal output, IOmeter CSV, "
                                "DiskSpd XML)")
    try:
        rows = _READERS[fmt](path, text)
    except IngestError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError) as exc:
        # A malformed file that slipped past the reader's own checks: still name file and problem.
        raise IngestError(path, f"malformed {fmt} content ({type(exc).__name__}: {exc})") from exc
    for row in rows:
        for col in ("iops", "bw_bytes_per_s", "runtime_s", "io_bytes"):
            v = row.get(col)
            if isinstance(v, float) and (v < 0 or math.isinf(v)):
                raise IngestError(path, f"{col} = {v!r} in job {row.get('job_name')!r}: expected a finite number >= 0")
    return rows


def _expand(paths: Iterable) -> list[pathlib.Path]:
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files: list[pathlib.Path] = []
    for p in paths:
        p = pathlib.Path(p)
        if p.is_dir():
            for root, dirs, names in os.walk(p):
                dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
                files.extend(pathlib.Path(root) / n for n in sorted(names) if not n.startswith("."))
        elif p.exists():
            files.append(p)
        else:
            raise IngestError(p, "no such file or folder")
    return files


def _load_sidecar(sidecar) -> list[tuple[str, dict]]:
    """[(absolute glob, labels)] from a YAML or CSV sidecar, or from a mapping."""
    if isinstance(sidecar, Mapping):
        return [(str(k), dict(v)) for k, v in sidecar.items()]
    path = pathlib.Path(sidecar)
    base = path.parent
    text = _read_text(path)
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml

        try:
            doc = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise IngestError(path, f"not valid YAML: {exc}") from None
        if not isinstance(doc, dict) or not all(isinstance(v, dict) for v in doc.values()):
            raise IngestError(path, "expected a mapping of file globs to {label: value} mappings")
        return [(str(base / k), v) for k, v in doc.items()]
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows or "path" not in rows[0]:
        raise IngestError(path, "expected a CSV with a 'path' column (file globs) and one column per label")
    return [(str(base / r.pop("path")), r) for r in rows]


def _coerce(column: str, value, path):
    dtype = COLUMNS[column][0]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    try:
        if column == "block_size_bytes" and isinstance(value, str):
            from ..units import parse_block_size

            return parse_block_size(value)
        if dtype == "Int64":
            return int(value)
        if dtype == "float64":
            return float(value)
        if dtype == "boolean":
            return str(value).strip().lower() in ("1", "true", "yes")
        return str(value)
    except (ValueError, NvmeModelError):
        raise IngestError(path, f"label {column}={value!r}: expected a {dtype} value") from None


def _apply_labels(rows: list[dict], labels: dict, path) -> None:
    for key, value in labels.items():
        if key in COLUMNS:
            value = _coerce(key, value, path)
            for row in rows:
                have = row.get(key)
                missing = have is None or (isinstance(have, float) and math.isnan(have))
                if missing:
                    row[key] = value
                elif value is not None and have != value and not (isinstance(have, float) and
                                                                 math.isclose(have, float(value), rel_tol=1e-9)):
                    raise IngestError(path, f"label {key}={value!r} contradicts the file's own {key}={have!r}")
        else:
            for row in rows:
                row[key] = value


def pattern_to_regex(pattern: str) -> str:
    """A path pattern with ``{name}`` fields → a regex with named groups.

    ``"{drives}drives/{connection}/*.json"`` matches ``…/4drives/810-4p/run.json`` with
    drives="4", connection="810-4p". ``{name}`` matches within one path component, ``*`` any
    text within a component, ``**`` across components.
    """
    out, i = [], 0
    for m in re.finditer(r"\{(\w+)\}|\*\*|\*", pattern):
        out.append(re.escape(pattern[i:m.start()]))
        tok = m.group(0)
        out.append(f"(?P<{m.group(1)}>[^/]+?)" if m.group(1) else (".*" if tok == "**" else "[^/]*"))
        i = m.end()
    out.append(re.escape(pattern[i:]))
    return "".join(out) + "$"


def read_results(paths, *, labels=None, path_regex: str | None = None, path_pattern: str | None = None,
                 errors: str = "skip", progress: bool = False):
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

    Returns
    -------
    pandas.DataFrame
        One row per (file, job or target, direction); columns in
        :data:`nvmemodel.ingest.schema.COLUMNS` order, then labels. ``attrs`` holds
        ``files_read`` and ``skipped`` (a list of :class:`Skipped`).
    """
    if errors not in ("skip", "raise"):
        raise IngestError("(arguments)", f"errors={errors!r}: expected 'skip' or 'raise'")
    files = _expand(paths)
    sidecar = _load_sidecar(labels) if labels is not None else []
    if path_regex and path_pattern:
        raise IngestError("(arguments)", "give path_regex or path_pattern, not both")
    try:
        regex = re.compile(path_regex or pattern_to_regex(path_pattern)) if (path_regex or path_pattern) else None
    except re.error as exc:
        raise IngestError("(arguments)", f"path_regex {path_regex or path_pattern!r}: not a valid pattern ({exc})") \
            from None
    label_columns: list[str] = []
    rows: list[dict] = []
    skipped: list[Skipped] = []
    unmatched = 0
    iterator = files
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(files, unit="file", desc="ingest", disable=None)  # None: off when not a terminal
    for path in iterator:
        try:
            file_rows = read_file(path)
            file_labels: dict = {}
            for pattern, lab in sidecar:
                if fnmatch.fnmatch(str(path), pattern) or fnmatch.fnmatch(str(path.resolve()), pattern):
                    file_labels.update(lab)
            if regex is not None:
                m = regex.search(path.as_posix())
                if m:
                    file_labels.update({k: v for k, v in m.groupdict().items() if v is not None})
                else:
                    unmatched += 1
            _apply_labels(file_rows, file_labels, path)
            for k in file_labels:
                if k not in COLUMNS and k not in label_columns:
                    label_columns.append(k)
            rows.extend(file_rows)
        except IngestError as exc:
            if errors == "raise":
                raise
            skipped.append(Skipped(str(path), exc.problem))
    if unmatched:
        warnings.warn(f"the path pattern matched none of {unmatched} file path(s); their labels are empty",
                      IngestWarning, stacklevel=2)
    if skipped:
        warnings.warn(f"skipped {len(skipped)} of {len(files)} file(s): "
                      + "; ".join(f"{s.path}: {s.reason}" for s in skipped[:5])
                      + (" …" if len(skipped) > 5 else ""), IngestWarning, stacklevel=2)
    df = to_frame(rows, label_columns)
    df.attrs["files_read"] = len(files) - len(skipped)
    df.attrs["skipped"] = skipped
    return df
