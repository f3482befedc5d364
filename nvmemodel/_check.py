"""Argument checks shared by the dataclasses and the vectorized kernel.

Each check accepts a scalar or an array and raises :class:`ParameterError` naming
the parameter, the first offending value and the allowed range.
"""

from __future__ import annotations

import numpy as np

from .errors import ParameterError


def _first_bad(original, arr: np.ndarray, bad: np.ndarray):
    """The first rejected value, as the caller wrote it when it was a scalar."""
    if arr.ndim == 0:
        return original.item() if hasattr(original, "item") else original
    value = arr[bad].flat[0]
    return int(value) if value == int(value) else float(value)


def _as_array(name: str, value) -> np.ndarray:
    if isinstance(value, (str, bytes)) or value is None:
        raise ParameterError(name, value, "a number")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ParameterError(name, value, "a number") from None
    return arr


def number(name: str, value, *, lo: float = -np.inf, hi: float = np.inf,
           lo_open: bool = False, integer: bool = False, unit: str = "") -> np.ndarray:
    """Check ``lo <= value <= hi`` (``lo < value`` with ``lo_open``), finite, optionally integral."""
    arr = _as_array(name, value)
    bad = ~np.isfinite(arr) | (arr <= lo if lo_open else arr < lo) | (arr > hi)
    if integer:
        bad |= arr != np.round(arr)
    if np.any(bad):
        op = ">" if lo_open else ">="
        rng = [f"{op} {lo:g}" if np.isfinite(lo) else "", f"<= {hi:g}" if np.isfinite(hi) else ""]
        kind = "an integer" if integer else "a finite number"
        allowed = f"{kind} {' and '.join(r for r in rng if r)}".strip() + (f" ({unit})" if unit else "")
        raise ParameterError(name, _first_bad(value, arr, bad), allowed)
    return arr


def positive(name: str, value, *, unit: str = "", integer: bool = False) -> np.ndarray:
    return number(name, value, lo=0.0, lo_open=True, unit=unit, integer=integer)


def fraction(name: str, value) -> np.ndarray:
    return number(name, value, lo=0.0, hi=1.0)


def choice(name: str, value, allowed) -> np.ndarray:
    arr = _as_array(name, value)
    bad = ~np.isin(arr, np.asarray(allowed, dtype=float))
    if np.any(bad):
        raise ParameterError(name, _first_bad(value, arr, bad), f"one of {', '.join(str(a) for a in allowed)}")
    return arr
