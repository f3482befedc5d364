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
import stat
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

__all__ = ["Skipped", "detect_format", "read_file", "read_results"]

_SKIP_DIRS = {".git", "__pycache__", ".ipynb_checkpoints"}
_LEADING_SPACE = re.compile(r"\s*")


@dataclasses.dataclass(frozen=True)
class Skipped:
    """A file a folder ingest did not turn into rows, and why."""

    path: str
    reason: str


#: Files larger than this are not read (``max_file_bytes=`` raises it): result files are kilobytes
#: to a few MB (an hour of 1 s json+ status reports is about 70 MB), and every reader is linear,
#: so this bounds the time any content can take (a few seconds at 64 MiB).
MAX_FILE_BYTES = 64 * 2**20


def _decode(data: bytes, path) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with a BOM (e.g. a PowerShell '>' redirect)
        encoding = "utf-16"
    elif len(data) >= 4 and data[1:64:2].count(0) == len(data[1:64:2]) and 0 not in data[0:64:2]:
        encoding = "utf-16-le"  # ASCII text as UTF-16 without a BOM
    elif len(data) >= 4 and data[0:64:2].count(0) == len(data[0:64:2]) and 0 not in data[1:64:2]:
        encoding = "utf-16-be"
    else:
        encoding = None
    if encoding:
        try:
            return data.decode(encoding).lstrip("\ufeff")
        except UnicodeDecodeError as exc:
            raise IngestError(path, f"not valid {encoding.upper()} text (byte {exc.start})") from None
    if b"\x00" in data[:8192]:
        raise IngestError(path, "binary file (NUL bytes): not a text benchmark result")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        try:
            return data.decode("cp1252")  # IOmeter on Windows writes the ANSI code page
        except UnicodeDecodeError:
            raise IngestError(path, f"not UTF-8 text (byte {exc.start}): not a text benchmark result") from None


def _read_text(path: pathlib.Path, max_bytes: int | None = None) -> str:
    """The file's text: only regular files, at most ``max_bytes`` (default
    :data:`MAX_FILE_BYTES`), UTF-8/UTF-16/cp1252."""
    max_bytes = MAX_FILE_BYTES if max_bytes is None else max_bytes
    try:
        st = path.stat()
    except OSError as exc:
        if isinstance(exc, FileNotFoundError) and path.is_symlink():
            raise IngestError(path, "broken symbolic link") from None
        raise IngestError(path, f"cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise IngestError(path, f"{kind}, not a result file: not read")
    if st.st_size > max_bytes:
        raise IngestError(path, f"{st.st_size:,} bytes: larger than the {max_bytes:,}-byte limit for one result file")
    try:
        with open(path, "rb") as fh:
            # what stat said (a read(n) buffer of the whole limit would cost more than the parse),
            # and bounded even if the file grows while being read
            data = fh.read(min(st.st_size, max_bytes) + 1)
            if len(data) > st.st_size:
                data += fh.read(max_bytes + 1 - len(data))
    except OSError as exc:
        raise IngestError(path, f"cannot read: {exc.strerror}") from None
    if len(data) > max_bytes:
        raise IngestError(path, f"larger than the {max_bytes:,}-byte limit for one result file")
    if not data or data.isspace():
        raise IngestError(path, "empty file")
    return _decode(data, path)


_FIO_MESSAGE = re.compile(r"^(fio: |fio-\d|Starting \d+ (process|thread)|\S+: \(g=\d+\): rw=|\s*$)")


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


def read_file(path, *, max_file_bytes: int | None = None) -> list[dict]:
    """Rows of one result file; raises :class:`IngestError` naming the file and the problem."""
    path = pathlib.Path(path)
    text = _read_text(path, max_file_bytes)
    fmt = detect_format(text)
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
            raise IngestError(path, "a CSV that is not an IOmeter results file (no \"'Test Type\" block)")
        raise IngestError(path, "not a recognised benchmark result (fio JSON/terse/normal output, IOmeter CSV, "
                                "DiskSpd XML)")
    try:
        rows = _READERS[fmt](path, text)
    except IngestError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, OverflowError,
            ZeroDivisionError, UnicodeError, MemoryError) as exc:
        # A malformed file that slipped past the reader's own checks: still name file and problem.
        raise IngestError(path, f"malformed {fmt} content ({type(exc).__name__}: {exc})") from exc
    for row in rows if fmt != "fio-json" else ():  # the fio JSON reader checks its own numbers
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


_NON_NEGATIVE = [c for c, (dtype, unit, _) in COLUMNS.items() if dtype == "float64" and unit in ("s", "B", "B/s",
                                                                                                  "1/s", "1")] + ["ios"]
_COUNTS = [c for c, (dtype, _, _) in COLUMNS.items() if dtype == "Int64"]


def _expand(paths: Iterable) -> tuple[list[pathlib.Path], list[Skipped]]:
    """Files to read, and what a folder walk passed over (with the reason): hidden files,
    version-control/cache folders, unreadable folders, symlink loops, broken links."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files: list[pathlib.Path] = []
    passed: list[Skipped] = []
    for p in paths:
        p = pathlib.Path(p)
        if p.is_dir():
            seen = {os.path.realpath(p)}

            def unreadable(exc: OSError) -> None:
                passed.append(Skipped(str(exc.filename), f"cannot read folder: {exc.strerror}"))

            for root, dirs, names in os.walk(p, onerror=unreadable, followlinks=True):
                keep = []
                for d in sorted(dirs):
                    full = os.path.join(root, d)
                    real = os.path.realpath(full)
                    if d in _SKIP_DIRS:
                        passed.append(Skipped(full, "folder not searched (version control / cache)"))
                    elif real in seen:
                        passed.append(Skipped(full, f"symlink loop: folder already read as {real}"))
                    else:
                        seen.add(real)
                        keep.append(d)
                dirs[:] = keep
                for n in sorted(names):
                    full = pathlib.Path(root) / n
                    if n.startswith("."):
                        passed.append(Skipped(str(full), "hidden file (name starts with '.'): not read"))
                    else:
                        files.append(full)  # broken links are reported when read
        elif p.exists():
            files.append(p)
        else:
            raise IngestError(p, "no such file or folder")
    return files, passed


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
            mark = getattr(exc, "problem_mark", None)
            where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise IngestError(path, f"not valid YAML{where}: {problem}") from None
        if not isinstance(doc, dict) or not all(isinstance(v, dict) for v in doc.values()):
            raise IngestError(path, "expected a mapping of file globs to {label: value} mappings")
        return [(str(base / k), v) for k, v in doc.items()]
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows or "path" not in rows[0]:
        raise IngestError(path, "expected a CSV with a 'path' column (file globs) and one column per label")
    return [(str(base / r.pop("path")), r) for r in rows]


#: Allowed values of label columns beyond their dtype: (low, high) inclusive, or a set.
_LABEL_RULES: dict[str, object] = {
    "iodepth": (1, 2**31), "numjobs": (1, 2**31), "target_count": (0, 2**31), "device_count": (0, 2**31),
    "snapshot": (0, 2**31), "job_index": (0, 2**31), "group_id": (0, 2**31), "error": (0, 2**31),
    "read_fraction": (0.0, 1.0), "random_fraction": (0.0, 1.0), "block_size_bytes": (1.0, 2.0**40),
    "pattern": {"read", "write", "randread", "randwrite", "rw", "readwrite", "randrw", "trim", "randtrim",
                "trimwrite", "randtrimwrite"},
    "direction": {"read", "write", "trim", "mixed"},
}
_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def _coerce(column: str, value, path):
    """A label value for a table column, checked against the column's type and allowed range."""
    dtype = COLUMNS[column][0]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    rule = _LABEL_RULES.get(column)
    expected = f"a {dtype} value"
    try:
        if column == "block_size_bytes" and isinstance(value, str):
            from .fio_options import parse_fio_size

            # the storage convention of the README (4K = 4KiB = 4096 B), any letter case
            value = parse_fio_size(value.replace("i", "").replace("I", ""), kb_base=1024)
        if dtype == "Int64":
            number = float(value) if not isinstance(value, int) else value
            if isinstance(number, float) and not number.is_integer():
                raise ValueError
            value = int(number)
        elif dtype == "float64":
            value = float(value)
            if not math.isfinite(value):
                raise ValueError
        elif dtype == "boolean":
            text = str(value).strip().lower()
            if text not in _TRUE | _FALSE:
                expected = "true or false"
                raise ValueError
            value = text in _TRUE
        else:
            value = str(value)
    except (ValueError, OverflowError, TypeError, NvmeModelError):
        raise IngestError(path, f"label {column}={value!r}: expected {expected}") from None
    if isinstance(rule, tuple) and not rule[0] <= value <= rule[1]:
        raise IngestError(path, f"label {column}={value!r}: expected a value from {rule[0]:g} to {rule[1]:g}")
    if isinstance(rule, set) and value not in rule:
        raise IngestError(path, f"label {column}={value!r}: expected one of {', '.join(sorted(rule))}")
    return value


_INT_TEXT = re.compile(r"[+-]?(0|[1-9]\d{0,17})")
_FLOAT_TEXT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")


def _typed(value):
    """A label taken from text (path pattern, CSV sidecar) as a number where it is one: '4' → 4."""
    if not isinstance(value, str):
        return value
    if _INT_TEXT.fullmatch(value):
        return int(value)
    if _FLOAT_TEXT.fullmatch(value) and math.isfinite(float(value)) and not _INT_TEXT.fullmatch(value.lstrip("0")):
        return float(value)
    return value


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
            value = _typed(value)
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
                 errors: str = "skip", progress: bool = False, max_file_bytes: int | None = None):
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
    files, passed = _expand(paths)
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
    skipped: list[Skipped] = list(passed)
    unmatched = 0
    iterator = files
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(files, unit="file", desc="ingest", disable=None)  # None: off when not a terminal
    for path in iterator:
        try:
            file_rows = read_file(path, max_file_bytes=max_file_bytes)
            if not file_rows:  # every job completed no I/O (each warned about): nothing to tabulate
                raise IngestError(path, "no rows: no job in the file did any I/O")
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
        warnings.warn(f"skipped {len(skipped)} of {len(files) + len(passed)} file(s): "
                      + "; ".join(f"{s.path}: {s.reason}" for s in skipped[:5])
                      + (" …" if len(skipped) > 5 else ""), IngestWarning, stacklevel=2)
    df = to_frame(rows, label_columns)
    df.attrs["files_read"] = len(files) + len(passed) - len(skipped)
    df.attrs["skipped"] = skipped
    return df
