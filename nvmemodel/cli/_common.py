"""Helpers shared by the command modules."""

from __future__ import annotations

import math

from ..errors import ParameterError


#: Most drive counts one command evaluates (checked before a range is built).
MAX_DRIVE_COUNTS = 100_000


def parse_drives(text: str) -> list[int]:
    """Drive counts from ``'4'``, ``'1-24'`` or ``'1,2,4,8'``."""
    out: list[int] = []
    try:
        for part in text.split(","):
            if "-" in part:
                lo, hi = (int(v) for v in part.split("-", 1))
                if hi - lo + 1 + len(out) > MAX_DRIVE_COUNTS:
                    raise ParameterError("--drives", text, f"at most {MAX_DRIVE_COUNTS:,} drive counts in all")
                out.extend(range(lo, hi + 1))
            elif part.strip():
                out.append(int(part))
    except ParameterError:
        raise
    except ValueError:
        raise ParameterError("--drives", text, "counts like '4', '1-24' or '1,2,4,8'") from None
    if not out:
        raise ParameterError("--drives", text, "at least one drive count")
    return out


def json_number(x: float):
    """A float for JSON, ``None`` (null) where it is not finite."""
    return None if not math.isfinite(x) else float(x)
