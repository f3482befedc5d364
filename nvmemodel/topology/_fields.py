"""Dataclass fields ↔ parameter-table entries: one check and one export for every component."""

from __future__ import annotations

import enum
import math

from ..parameters import PARAMETERS, Source


def public(value):
    """A field value as the parameter vector holds it: enums by name (IntEnum as a number), bools as 0/1."""
    if isinstance(value, enum.IntEnum):
        return float(int(value))
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool):
        return float(value)
    if value is None:
        return math.nan
    return float(value)


def check_fields(obj, prefix: str, fields) -> None:
    """Check each field against its row of the parameter table (NaN allowed where it means unknown)."""
    for field in fields:
        value = getattr(obj, field)
        if value is None:
            continue
        if isinstance(value, enum.IntEnum):
            value = int(value)
        elif isinstance(value, (enum.Enum, bool)):
            value = public(value)
        PARAMETERS[f"{prefix}.{field}"].check_stored(value)  # plain numbers as given, for the message


def export(obj, prefix: str, fields) -> dict:
    """``{"prefix.field": value}`` for the given fields."""
    return {f"{prefix}.{field}": public(getattr(obj, field)) for field in fields}


def field_source(provenance, field: str, fallback: Source) -> Source:
    """The source of one field: its provenance entry (``"status: text"``) or the fallback."""
    text = (provenance or {}).get(field)
    return Source.parse(text) if text else fallback
