"""Bounded lmfit models over :mod:`~nvmemodel.fitting.shapes`, each with a real ``guess()``.

A :class:`Shape` names a pure function, its parameters with their units, bounds and meanings, and
how to guess starting values from the data; :func:`lmfit_model` turns it into an ``lmfit.Model``
with those bounds. The ceiling model (:mod:`~nvmemodel.fitting.ceiling`) builds a :class:`Shape` at
run time from the topology, so everything downstream (fitting, intervals, selection) is shared.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable

import numpy as np

from . import shapes

__all__ = ["BLOCK_MODELS", "SHAPES", "X_UNIT", "Y_UNIT", "Shape", "block_shape", "lmfit_model"]

#: placeholders in :attr:`Shape.units`, replaced by the unit of y / of x when reported
Y_UNIT, X_UNIT = "{y}", "{x}"


@dataclasses.dataclass(frozen=True)
class Shape:
    """A scaling shape ready to fit.

    Attributes
    ----------
    name : str
        Model name (``"usl"``, ``"littles"`` …).
    func : callable
        ``func(n, **params)`` → y.
    params : tuple of str
        Parameter names (valid Python identifiers, the order of ``func``'s keywords).
    units : dict
        Unit of each parameter; ``"{y}"`` and ``"{x}"`` stand for the units of y and x.
    bounds : dict
        ``(lo, hi)`` for each parameter.
    meanings : dict
        One line per parameter.
    guess : callable
        ``guess(x, y)`` → starting values (dict), inside the bounds.
    smooth : bool
        False for hard minima (profile likelihood intervals are unreliable there; a bootstrap is used).
    sources : dict
        Where fixed values come from (only the ceiling model has fixed parameters).
    fixed : dict
        Ceiling model: values of discrete free parameters (MPS, DLLP policy …) this shape was built with.
    """

    name: str
    func: Callable
    params: tuple[str, ...]
    units: dict
    bounds: dict
    meanings: dict
    guess: Callable
    smooth: bool = True
    description: str = ""
    sources: dict = dataclasses.field(default_factory=dict)
    fixed: dict = dataclasses.field(default_factory=dict)  # ceiling model: discrete parameters set for this fit
    x_axis: str = ""  # ceiling model: the axis its function evaluates along (drives, iodepth, …)


def lmfit_model(shape: Shape):
    """An ``lmfit.Model`` of ``shape.func`` with the shape's bounds as parameter hints."""
    import lmfit

    inner = func = shape.func
    sig = inspect.signature(func)
    if set(shape.params) - set(sig.parameters):  # a function taking **kw: give lmfit the names
        def wrapped(n, **kw):
            return inner(n, **kw)
        par = inspect.Parameter
        setattr(wrapped, "__signature__", inspect.Signature(  # (what inspect.signature, so lmfit, reads)
            [par("n", par.POSITIONAL_OR_KEYWORD)] + [par(p, par.KEYWORD_ONLY, default=1.0) for p in shape.params]))
        wrapped.__name__ = shape.name
        func = wrapped
    model = lmfit.Model(func, independent_vars=["n"], name=shape.name)
    for p in shape.params:
        lo, hi = shape.bounds[p]
        model.set_param_hint(p, min=lo, max=hi)
    return model


def _pos(x, y):
    x, y = np.asarray(x, float), np.asarray(y, float)
    return x, np.maximum(y, np.finfo(float).tiny)


def _guess_linear(x, y):
    x, y = _pos(x, y)
    return {"x1": float(np.sum(x * y) / np.sum(x * x))}


def _x1(x, y):
    i = np.argmin(x)
    return float(y[i] / x[i])


def _guess_amdahl(x, y):
    x, y = _pos(x, y)
    x1 = _x1(x, y)
    j = np.argmax(x)
    sigma = (x1 * x[j] / y[j] - 1.0) / (x[j] - 1.0) if x[j] > 1 else 0.1
    return {"x1": x1, "sigma": float(np.clip(sigma, 1e-4, 0.99))}


def _guess_usl(x, y):
    """Linearised USL, x1·n/y − 1 = σ(n−1) + κ·n(n−1), solved by non-negative least squares."""
    from scipy.optimize import nnls

    x, y = _pos(x, y)
    x1 = _x1(x, y)
    a = np.column_stack([x - 1.0, x * (x - 1.0)])
    coef, _ = nnls(a, x1 * x / y - 1.0)
    return {"x1": x1, "sigma": float(np.clip(coef[0], 1e-4, 0.99)), "kappa": float(np.clip(coef[1], 1e-7, 0.99))}


def _guess_littles(x, y):
    x, y = _pos(x, y)
    x_max = float(np.max(y))
    r0 = float(np.min(x / y))
    return {"x_max": x_max, "r0": max(r0, 1.0 / x_max)}


def _guess_littles_soft(x, y):
    return {**_guess_littles(x, y), "p": 4.0}


def _guess_constant(x, y):
    return {"level": float(np.mean(np.abs(y))) or 1.0}


_INF = np.inf
_XY = {"x1": (Y_UNIT + " per " + X_UNIT, "throughput per unit of x at the smallest loads (the linear slope)")}
SHAPES: dict[str, Shape] = {
    "constant": Shape("constant", shapes.constant, ("level",), {"level": Y_UNIT}, {"level": (0, _INF)},
                      {"level": "the level every x gave (x does not change the load)"}, _guess_constant,
                      description="a constant X = level: x is not a load"),
    "linear": Shape("linear", shapes.linear, ("x1",), {"x1": _XY["x1"][0]}, {"x1": (0, _INF)},
                    {"x1": _XY["x1"][1]}, _guess_linear, description="linear scaling X = x1·n"),
    "amdahl": Shape("amdahl", shapes.amdahl, ("x1", "sigma"), {"x1": _XY["x1"][0], "sigma": "1"},
                    {"x1": (0, _INF), "sigma": (0, 1)},
                    {"x1": _XY["x1"][1], "sigma": "serial (contention) fraction σ"}, _guess_amdahl,
                    description="Amdahl's law X = x1·n / (1 + σ(n−1))"),
    "usl": Shape("usl", shapes.usl, ("x1", "sigma", "kappa"), {"x1": _XY["x1"][0], "sigma": "1", "kappa": "1"},
                 {"x1": (0, _INF), "sigma": (0, 1), "kappa": (0, 1)},
                 {"x1": _XY["x1"][1], "sigma": "contention σ (serialised share)",
                  "kappa": "coherency κ (pairwise crosstalk)"}, _guess_usl,
                 description="Universal Scalability Law X = x1·n / (1 + σ(n−1) + κ·n(n−1))"),
    "littles": Shape("littles", shapes.littles_hard, ("x_max", "r0"), {"x_max": Y_UNIT, "r0": X_UNIT + " per " + Y_UNIT},
                     {"x_max": (0, _INF), "r0": (0, _INF)},
                     {"x_max": "throughput cap", "r0": "latency floor (response time at one outstanding I/O)"},
                     _guess_littles, smooth=False,
                     description="Little's law with a latency floor and a cap X = min(N/r0, x_max) (hard knee)"),
    "littles_soft": Shape("littles_soft", shapes.littles_soft, ("x_max", "r0", "p"),
                          {"x_max": Y_UNIT, "r0": X_UNIT + " per " + Y_UNIT, "p": "1"},
                          {"x_max": (0, _INF), "r0": (0, _INF), "p": (0.5, 200.0)},
                          {"x_max": "throughput cap", "r0": "latency floor", "p": "knee sharpness (∞ = hard)"},
                          _guess_littles_soft,
                          description="Little's law and its cap joined by a generalized-mean soft minimum"),
    "mva": Shape("mva", shapes.mva, ("x_max", "r0"), {"x_max": Y_UNIT, "r0": X_UNIT + " per " + Y_UNIT},
                 {"x_max": (0, _INF), "r0": (0, _INF)},
                 {"x_max": "throughput cap (1 / service demand of the saturating station)",
                  "r0": "latency at one outstanding I/O"}, _guess_littles,
                 description="exact mean-value analysis: one queueing station + a delay (soft knee)"),
}

#: models tried by model="auto" for each kind of x
QUEUEING = ("littles", "littles_soft", "mva")
EMPIRICAL = ("linear", "amdahl", "usl")


#: models along block size
BLOCK_MODELS = ("per_io_byte",)


def _guess_per_io_byte(y_unit):
    def guess(x, y):
        x, y = _pos(x, y)
        iops = y if y_unit == "1/s" else y / x
        bw = iops * x
        return {"iops_max": float(np.max(iops) * 1.05), "bw_max": float(np.max(bw) * 1.05)}
    return guess


def block_shape(y_unit: str) -> Shape:
    """The per-I/O + per-byte model along block size b: every I/O costs 1/iops_max and every byte 1/bw_max of
    the busiest resource's time, so IOPS = 1/(1/iops_max + b/bw_max) and bytes/s = b·IOPS — an IOPS ceiling
    at small blocks, a bandwidth ceiling at large ones, crossing at b* = bw_max/iops_max
    (:func:`~nvmemodel.fitting.shapes.per_io_byte_iops`). ``y_unit`` ``"1/s"`` or ``"B/s"``."""
    func = shapes.per_io_byte_iops if y_unit == "1/s" else shapes.per_io_byte_bytes
    return Shape("per_io_byte", func, ("iops_max", "bw_max"), {"iops_max": "1/s", "bw_max": "B/s"},
                 {"iops_max": (0, _INF), "bw_max": (0, _INF)},
                 {"iops_max": "IOPS ceiling (per-I/O cost: small blocks)",
                  "bw_max": "bandwidth ceiling (per-byte cost: large blocks)"}, _guess_per_io_byte(y_unit),
                 description="per-I/O + per-byte cost: IOPS = 1/(1/iops_max + b/bw_max)")
