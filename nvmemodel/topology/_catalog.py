"""Load the CSV catalogs that ship in ``nvmemodel/catalog/`` (units converted at this edge)."""

from __future__ import annotations

import csv
import functools
import io
import math
from importlib import resources

from ..errors import NvmeModelError, UnknownNameError


@functools.cache
def read_catalog(filename: str) -> tuple[dict[str, str], ...]:
    """Rows of ``nvmemodel/catalog/<filename>`` as dicts of strings (cached, read once)."""
    path = resources.files("nvmemodel") / "catalog" / filename
    with io.TextIOWrapper(path.open("rb"), encoding="utf-8", newline="") as fh:  # (newline="": as csv asks)
        rows = tuple(csv.DictReader(fh))
    if not rows:
        raise NvmeModelError(f"catalog {filename} is empty")
    return rows


def number(row: dict[str, str], column: str, scale: float = 1.0, *, filename: str) -> float:
    """Parse one numeric cell; empty means unknown (NaN). Bad text names the file, row and column."""
    text = (row.get(column) or "").strip()
    if not text:
        return math.nan
    try:
        return float(text) * scale
    except ValueError:
        raise NvmeModelError(
            f"{filename}: row {row.get('key')!r}, column {column!r}: expected a number, got {text!r}"
        ) from None


def lookup(catalog: dict, name: str, kind: str):
    """An entry by key or display name (``.name``), case-insensitively; else UnknownNameError."""
    needle = str(name).strip().lower()
    for key, entry in catalog.items():
        if needle in (key, entry.name.lower()):
            return entry
    raise UnknownNameError(kind, name, list(catalog))
