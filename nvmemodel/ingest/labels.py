"""Experiment labels for result files: sidecars (YAML/CSV globs → labels), path patterns, and
the checks a label must pass when it names a table column."""

from __future__ import annotations

import datetime
import fnmatch
import math
import os
import pathlib
import re
from collections.abc import Mapping

from ..errors import IngestError, NvmeModelError
from .files import read_text
from .schema import COLUMNS

__all__ = ["Globs", "PathRegex", "apply_labels", "load_sidecar", "pattern_to_regex"]


#: a label's value: one text, number, true/false or date (YAML), or empty — never a list or a mapping (a column
#: holds one value per row)
_SCALARS = (str, int, float, bool, datetime.date, type(None))


def _check_values(glob, labels: Mapping, where) -> dict:
    """``labels`` as a dict after checking that every name is text and every value one scalar."""
    for name, value in labels.items():
        if not isinstance(name, str) or not name.strip() or not name.isprintable():
            raise IngestError(where, f"glob {glob!r}: label name {name!r}: expected a name (printable text: it "
                                     "becomes a column)")
        if not isinstance(value, _SCALARS):
            kind = "a list" if isinstance(value, (list, tuple, set)) else "a mapping" if isinstance(value, Mapping) \
                else type(value).__name__
            raise IngestError(where, f"glob {glob!r}: label {name}={value!r}: expected one value (text, a number, "
                                     f"true/false or empty), not {kind}")
    return dict(labels)


def _yaml_shape(text: str, path, yaml) -> None:
    """Refuse a YAML sidecar deeper than ``glob → label → value`` before it is built: the parser's events are read
    one at a time, so a document nested hundreds deep is one error naming its line, not a RecursionError while
    building it (a sidecar is two mappings deep; a third level is a list or mapping as a label's value)."""
    depth = 0
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > 2:  # (shallower misshapes are said after the whole document parsed: a syntax error first)
                line = event.start_mark.line + 1 if event.start_mark is not None else "?"
                what = "a list" if isinstance(event, yaml.SequenceStartEvent) else "a mapping"
                raise IngestError(path, f"line {line}: {what} where a label value was expected (a sidecar maps "
                                        "file globs to {label: value} mappings, each value one text or number)")
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1


def load_sidecar(sidecar) -> list[tuple[str, dict]]:
    """[(absolute glob, labels)] from a YAML or CSV sidecar, or from a mapping."""
    if isinstance(sidecar, Mapping):
        bad = [k for k, v in sidecar.items() if not isinstance(v, Mapping)]
        if bad:
            raise IngestError("(labels)", f"glob {bad[0]!r}: expected a mapping of label names to values")
        return [(str(k), _check_values(k, v, "(labels)")) for k, v in sidecar.items()]
    if not isinstance(sidecar, (str, pathlib.PurePath)):
        raise IngestError("(labels)", f"labels={sidecar!r}: expected a sidecar path or a mapping")
    path = pathlib.Path(sidecar)
    base = path.parent
    text = read_text(path)
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml

        try:
            _yaml_shape(text, path, yaml)
            doc = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506 (a safe loader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise IngestError(path, f"not valid YAML{where}: {problem}") from None
        if not isinstance(doc, dict) or not all(isinstance(v, dict) for v in doc.values()):
            raise IngestError(path, "expected a mapping of file globs to {label: value} mappings")
        bad = [k for k in doc if not isinstance(k, str) or not k]
        if bad:
            raise IngestError(path, f"glob {bad[0]!r}: expected a file glob (text)")
        return [(str(base / k), _check_values(k, v, path)) for k, v in doc.items()]
    import csv
    import io

    reader = csv.DictReader(io.StringIO(text))
    rows = []
    for r in reader:
        if None in r:  # more fields than the header names: which label would they be?
            raise IngestError(path, f"line {reader.line_num}: {len(r[None]) + len(r) - 1} fields where the header "
                                    f"names {len(r) - 1}: expected one value per column")
        rows.append(r)
    if not rows or "path" not in rows[0]:
        raise IngestError(path, "expected a CSV with a 'path' column (file globs) and one column per label")
    names = reader.fieldnames or []
    if len(set(names)) != len(names) or any(not n.strip() for n in names):
        twice = next((n for n in names if names.count(n) > 1 or not n.strip()), "")
        raise IngestError(path, f"header column {twice!r}: expected each label named once (a name, not empty)")
    return [(str(base / (g := r.pop("path"))), _check_values(g, r, path)) for r in rows]


class Globs:
    """A sidecar's globs, matched against many paths in time that does not grow with globs × files.

    Each glob's literal head (the text before its first ``*``, ``?`` or ``[``) is indexed, so a path is tried
    only against the globs whose head it starts with: a sidecar of 60,000 globs over 1,000 files was 60 M
    ``fnmatch`` calls (and a path resolved per call); it is a few dictionary look-ups per file. A path matches
    a glob as :func:`fnmatch.fnmatch` says, on the path as given or resolved; labels of later globs win.
    """

    def __init__(self, sidecar: list[tuple[str, dict]]) -> None:
        self.sidecar = sidecar
        self.used: set[int] = set()
        self._heads: dict[str, list[tuple[int, str, bool]]] = {}
        for i, (glob, _) in enumerate(sidecar):
            glob = os.path.normcase(glob)
            cut = min([j for j in (glob.find(c) for c in "*?[") if j >= 0], default=len(glob))
            self._heads.setdefault(glob[:cut], []).append((i, glob, cut == len(glob)))
        self._lengths = sorted({len(h) for h in self._heads})

    def _matching(self, name: str) -> set[int]:
        name = os.path.normcase(name)
        hits = set()
        for n in self._lengths:
            if n > len(name):
                break
            for i, glob, literal in self._heads.get(name[:n], ()):
                if name == glob if literal else fnmatch.fnmatchcase(name, glob):  # (compiled when first tried)
                    hits.add(i)
        return hits

    def labels_for(self, path) -> dict:
        """The labels of every glob that matches ``path`` (as given or resolved), in sidecar order."""
        if not self.sidecar:
            return {}
        hits = self._matching(str(path)) | self._matching(str(pathlib.Path(path).resolve()))
        self.used |= hits
        out: dict = {}
        for i in sorted(hits):
            out.update(self.sidecar[i][1])
        return out

    def unused(self) -> list[str]:
        """Globs that matched no path asked about."""
        return [g for i, (g, _) in enumerate(self.sidecar) if i not in self.used]


#: Allowed values of label columns beyond their dtype: (low, high) inclusive, or a set.
_LABEL_RULES: dict[str, object] = {
    "iodepth": (1, 2**31), "numjobs": (1, 2**31), "targets": (0, 2**31), "run": (0, 2**31), "device_count": (0, 2**31),
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


def apply_labels(rows: list[dict], labels: dict, path) -> None:
    for key, value in labels.items():
        if key == "run":  # a label numbers the run of a one-run file (repeats: run1.json …)
            value = _coerce(key, value, path)
            runs = {row.get("run") for row in rows}
            if len(runs) > 1:
                raise IngestError(path, f"label run={value!r}: the file holds {len(runs)} runs (numbered 0…"
                                        f"{len(runs) - 1} in file order); a run label fits a one-run file only")
            for row in rows:
                row["run"] = value
        elif key in COLUMNS:
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


#: Longest a path regex may take on one path (s): a real pattern answers in microseconds; one that backtracks
#: catastrophically (``(a+)+$`` on a long name) would take years
REGEX_TIMEOUT_S = 1.0


class PathRegex:
    """A user's ``path_regex`` (or a ``path_pattern`` turned into one), searched in each file's path in bounded
    time: with the ``regex`` package's ``timeout`` (the standard ``re`` has none), so a pattern that backtracks
    catastrophically is one error naming it and the path, not a hang. Python's ``re`` syntax (named groups
    ``(?P<name>…)``) as before."""

    def __init__(self, pattern: str, option: str = "path_regex") -> None:
        import regex

        self.pattern, self.option = pattern, option
        try:
            re.compile(pattern)  # Python's syntax and rules (a group name used twice is refused, as before)
            self._compiled = regex.compile(pattern)
        except (re.error, regex.error, ValueError, OverflowError, RecursionError) as exc:
            raise IngestError("(arguments)", f"{option} {pattern!r}: not a valid pattern ({exc})") from None

    @property
    def groupindex(self):
        return self._compiled.groupindex

    def search(self, text: str):
        from ..errors import ParameterError

        try:
            return self._compiled.search(text, timeout=REGEX_TIMEOUT_S)
        except TimeoutError:
            raise ParameterError(self.option, self.pattern, f"a pattern that answers in time: it ran over "
                                 f"{REGEX_TIMEOUT_S:g} s on {text!r} (alternatives that overlap under a repeat, "
                                 "such as (a|aa)+, backtrack without end; write each part once, e.g. a+)") from None
