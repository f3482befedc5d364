"""Experiment labels for result files: sidecars (YAML/CSV globs → labels), path patterns, and
the checks a label must pass when it names a table column."""

from __future__ import annotations

import math
import pathlib
import re
from collections.abc import Mapping

from ..errors import IngestError, NvmeModelError
from .files import read_text
from .schema import COLUMNS

__all__ = ["apply_labels", "load_sidecar", "pattern_to_regex"]


def load_sidecar(sidecar) -> list[tuple[str, dict]]:
    """[(absolute glob, labels)] from a YAML or CSV sidecar, or from a mapping."""
    if isinstance(sidecar, Mapping):
        bad = [k for k, v in sidecar.items() if not isinstance(v, Mapping)]
        if bad:
            raise IngestError("(labels)", f"glob {bad[0]!r}: expected a mapping of label names to values")
        return [(str(k), dict(v)) for k, v in sidecar.items()]
    if not isinstance(sidecar, (str, pathlib.PurePath)):
        raise IngestError("(labels)", f"labels={sidecar!r}: expected a sidecar path or a mapping")
    path = pathlib.Path(sidecar)
    base = path.parent
    text = read_text(path)
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
