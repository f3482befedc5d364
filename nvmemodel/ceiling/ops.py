"""Elementwise operations for the component functions that keep one configuration's scalars scalar.

The ceiling functions are written once and evaluated on arrays (sweeps, the planner: thousands to
millions of configurations) and on scalars (one configuration: a curve, and the fits that call it
thousands of times). numpy's ufuncs cost about a microsecond on a scalar, a hundred times the
arithmetic, so these helpers do what ``np.fmin``, ``np.where``, ``np.ceil`` … do, but with Python
operators when every operand is a scalar and with the ufunc otherwise. Arithmetic stays in the
operands' own types (``numpy.float64`` from :func:`~nvmemodel.ceiling.derive.prepare`) and a scalar
result is always a ``numpy.float64`` (never a Python float, whose division by zero raises), so a division
by zero gives ``inf``/``nan`` exactly as on arrays, and the results are the same numbers bit for bit.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["all_", "any_", "ceil", "fmax", "fmin", "isnan", "nan_to_num", "not_", "scalar", "take", "to_float", "where"]

_SCALARS = frozenset({float, int, bool, np.float64, np.bool_, np.int64, np.float32, np.int32})
_MAX = np.finfo(float).max
_F64 = np.float64


def _f(x):
    """A scalar result as ``numpy.float64`` (numpy's semantics for what is computed from it)."""
    return x if type(x) is _F64 else _F64(x)


def scalar(*xs) -> bool:
    """True when every argument is a Python or numpy scalar (not an array)."""
    for x in xs:
        if type(x) not in _SCALARS:
            return False
    return True


def fmin(a, b):
    """``np.fmin``: the smaller of two values, ignoring a NaN operand."""
    if type(a) in _SCALARS and type(b) in _SCALARS:
        if math.isnan(a):
            return _f(b)
        return _f(a if math.isnan(b) or a <= b else b)
    return np.fmin(a, b)


def fmax(a, b):
    """``np.fmax``: the larger of two values, ignoring a NaN operand."""
    if type(a) in _SCALARS and type(b) in _SCALARS:
        if math.isnan(a):
            return _f(b)
        return _f(a if math.isnan(b) or a >= b else b)
    return np.fmax(a, b)


def where(condition, a, b):
    """``np.where`` on numbers. A scalar condition picks an operand whole (a scalar as ``numpy.float64``, an
    array as it is — not broadcast, not copied: the results are never written to)."""
    if type(condition) in _SCALARS:
        x = a if condition else b
        return _f(x) if type(x) in _SCALARS else x
    return np.where(condition, a, b)


def not_(condition):
    """``np.logical_not`` (``~`` would turn a Python ``True`` into ``-2``)."""
    if type(condition) in _SCALARS:
        return not condition
    return np.logical_not(condition)


def ceil(x):
    """``np.ceil`` (a float; ``inf`` and ``nan`` pass through)."""
    if type(x) in _SCALARS:
        if not math.isfinite(x):
            return _f(x)
        c = math.ceil(x)
        return _F64(c) if c else _F64(math.copysign(0.0, x))  # np.ceil(-0.5) is -0.0
    return np.ceil(x)


def isnan(x):
    """``np.isnan``."""
    if type(x) in _SCALARS:
        return math.isnan(x)
    return np.isnan(x)


def nan_to_num(x):
    """``np.nan_to_num`` with its defaults: NaN → 0, ±inf → the largest finite float of that sign."""
    if type(x) in _SCALARS:
        if math.isnan(x):
            return _F64(0.0)
        return _f(x) if math.isfinite(x) else _F64(math.copysign(_MAX, x))
    return np.nan_to_num(x)


def to_float(x):
    """``np.asarray(x, dtype=float)``; a scalar becomes ``numpy.float64`` (numpy's division semantics)."""
    if type(x) in _SCALARS:
        return _f(x)
    return np.asarray(x, dtype=float)


def take(table: np.ndarray, index):
    """``table[index]`` for integer-valued ``index`` (float codes), scalar or array."""
    if type(index) in _SCALARS:
        return table[int(index)]
    return table[np.asarray(index).astype(int)]


def any_(condition) -> bool:
    """True where the condition holds for some configuration."""
    if type(condition) in _SCALARS:
        return bool(condition)
    return bool(np.any(condition))


def all_(condition) -> bool:
    """True where the condition holds for every configuration."""
    if type(condition) in _SCALARS:
        return bool(condition)
    return bool(np.all(condition))
