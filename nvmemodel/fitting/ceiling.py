"""The topology's own ceiling model as a fittable :class:`~nvmemodel.fitting.models.Shape`.

Chosen parameters of the flat vector (``drive.rand_read_iops``, ``switch.efficiency``,
``host.cycles_per_io`` …) are free; everything else stays at the preset's value and is reported as
fixed with its source. Numeric values go straight into the prepared parameter vector and the kernel
evaluates every x in one call; catalog models and categorical choices go through
:func:`nvmemodel.evaluate` with ``overrides=`` (same numbers, tested) — along drives, or with the
workload's queue depth, jobs or block size overridden for the other axes. ``smooth=True`` replaces the hard minimum of the
component ceilings by their generalized-mean soft minimum (:func:`~nvmemodel.fitting.shapes.soft_min`)
whose sharpness is fitted too.
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError
from ..parameters import PARAMETERS, encode, from_lmfit_name, get, lmfit_name
from .axes import DEVICES
from .models import Shape
from .shapes import soft_min

__all__ = ["X_AXES", "bounds_of", "ceiling_profile", "ceiling_shape", "from_lmfit_name", "lmfit_name", "reconcile"]

#: x axes the ceiling model can follow → the workload parameter(s) it overrides
X_AXES = {"drives": (), "targets": (), "target_count": (), "devices": (), "device_count": (), "iodepth": ("workload.iodepth",), "numjobs": ("workload.numjobs",),
          "outstanding": ("workload.iodepth",), "block_size_bytes": ("workload.block_size",)}
SHARPNESS = "sharpness"
#: x axes that count drives (the distinct files/devices a run targets are drives to the ceiling model)
DRIVE_AXES = DEVICES


def _table_entry(name: str):
    return PARAMETERS.get(name)


def bounds_of(name: str) -> tuple[float, float, str, str, str]:
    """(lo, hi, unit, kind, meaning) of a parameter, from the parameter table."""
    entry = get(name)
    lo = float(entry.lo) if np.isfinite(entry.lo) else -np.inf
    if entry.lo_open and lo == 0:
        lo = np.finfo(float).tiny
    return lo, float(entry.hi), entry.unit, entry.kind, entry.meaning


def _base(topology, workload):
    if _mixed(topology):  # the shared parameters (and the first group's own) of several groups under one host
        return topology.group_topology(0).parameters(workload)
    return topology.parameters(workload)


def _mixed(topology) -> bool:
    from ..topology.mixed import MixedTopology

    return isinstance(topology, MixedTopology)


def _fast(overrides: dict) -> bool:
    """Overrides the vectorized kernel can take directly: numeric parameters of the table (no catalog model
    or categorical choice, which rebuild parts of the topology)."""
    from ..parameters import PARAMETERS

    return all(k in PARAMETERS and PARAMETERS[k].kind != "categorical" for k in overrides)


def _evaluate(topology, workload, x_name: str, x, overrides: dict, drives: int, base: dict | None = None,
              ceilings: bool = True):
    """(iops total, ceilings {component: iops}, binding, block size) at each x.

    Numeric overrides go straight into the prepared parameter vector and the kernel evaluates every x in
    one vectorized call (what a fit calls thousands of times); catalog models and categorical choices go
    through :func:`nvmemodel.evaluate`, which rebuilds the topology. Both give the same numbers (tested).
    """
    x = np.asarray(x, dtype=float)
    if _fast(overrides) and not _mixed(topology):  # a mixed topology: its groups' composition, via nm.evaluate
        return _evaluate_vector(topology, workload, x_name, x, overrides, drives, base, ceilings)
    return _evaluate_public(topology, workload, x_name, x, overrides, drives)


def _evaluate_vector(topology, workload, x_name, x, overrides, drives, base, ceilings=True):
    from ..ceiling.derive import prepare
    from ..ceiling.compose import evaluate_prepared

    params = dict(base if base is not None else encode(topology.parameters(workload)))
    params.update({k: float(v) for k, v in overrides.items()})
    if x_name in DRIVE_AXES:
        n = np.rint(x)
        uniq, inv = np.unique(n, return_inverse=True)
        topology.check_drives(uniq)
        out = evaluate_prepared(prepare(params), uniq, alone=ceilings)
        shape, take = uniq.shape, inv
    else:
        for k in X_AXES[x_name]:
            params[k] = x
        if x_name == "outstanding":
            params["workload.numjobs"] = 1.0
        topology.check_drives([drives])
        out = evaluate_prepared(prepare(params), float(drives), alone=ceilings)
        shape, take = x.shape, slice(None)
    names = out["components"]
    iops = np.broadcast_to(out["iops"], shape)[take]
    ceil = {k: np.broadcast_to(out["ceilings"][i], shape)[take] for i, k in enumerate(names)} if ceilings else {}
    bind = np.asarray(names)[np.broadcast_to(out["binding"], shape)][take]
    bs = np.broadcast_to(np.asarray(params["workload.block_size"], dtype=float), x.shape).copy()
    return iops.astype(float), ceil, bind, bs


def _evaluate_public(topology, workload, x_name, x, overrides, drives):
    import nvmemodel as nm

    if x_name in DRIVE_AXES:
        n = np.rint(x).astype(int)
        uniq, inv = np.unique(n, return_inverse=True)
        c = nm.evaluate(topology, workload, drives=uniq, overrides=overrides)
        bs = np.full(x.shape, c.parameters.get("workload.block_size", workload.block_size))
        return (c.iops[inv], {k: np.asarray(v)[inv] for k, v in c.ceilings.items()}, np.asarray(c.binding)[inv], bs)
    names = X_AXES[x_name]
    iops, bind, bs = np.empty(x.shape), np.empty(x.shape, dtype=object), np.empty(x.shape)
    ceil: dict[str, np.ndarray] = {}
    for i, v in enumerate(x):
        extra = {k: float(v) for k in names}
        if x_name == "outstanding":
            extra["workload.numjobs"] = 1.0
        c = nm.evaluate(topology, workload, drives=[drives], overrides={**overrides, **extra})
        iops[i], bind[i] = c.iops[0], c.binding[0]
        bs[i] = c.parameters.get("workload.block_size", workload.block_size)
        for k, arr in c.ceilings.items():
            ceil.setdefault(k, np.empty(x.shape))[i] = arr[0]
    return iops, ceil, bind.astype(str), bs


def _to_y(iops, bs, y_unit: str):
    return iops * bs if y_unit == "B/s" else iops


def discrete_kind(name: str) -> str | None:
    """``"choice"``, ``"flag"`` or ``"categorical"`` for a parameter fitted by trying its values, else None."""
    entry = _table_entry(name)
    return entry.kind if entry is not None and entry.kind in ("choice", "flag", "categorical") else None


def choices_of(name: str) -> list:
    """The values a discrete parameter can take (numbers, or names for categorical ones)."""
    entry = get(name)
    return [0.0, 1.0] if entry.kind == "flag" else list(entry.allowed_choices())


def fitted_overrides(fit) -> dict:
    """The parameter values a ceiling-model :class:`~nvmemodel.fitting.engine.CurveFit` found: the continuous
    ones (lmfit names mapped back) and the chosen values of discrete ones."""
    out = {from_lmfit_name(k): v for k, v in fit.values.items() if k != SHARPNESS}
    out.update(getattr(fit.shape, "fixed", {}) or {})
    return out


def ceiling_shape(topology, workload, *, x: str, y_unit: str, free: list[str], drives: int = 1,
                  smooth: bool = False, fixed: dict | None = None) -> Shape:
    """A :class:`Shape` whose function is the topology's ceiling with ``free`` parameters varied.

    Parameters
    ----------
    topology, workload
        The configuration measured.
    x : str
        One of :data:`X_AXES`.
    y_unit : {"1/s", "B/s"}
        IOPS or bytes/s.
    free : list of str
        Parameter names (``"switch.efficiency"`` …). Numeric parameters only (continuous or integer).
    drives : int
        Drive count for the axes other than ``drives``.
    smooth : bool
        Soft minimum of the component ceilings with a fitted ``sharpness``.
    """
    if x not in X_AXES:
        raise ParameterError("x", x, f"one of {', '.join(X_AXES)} for the ceiling model")
    if y_unit not in ("1/s", "B/s"):
        raise ParameterError("y", y_unit, "a throughput (IOPS or bytes/s) for the ceiling model")
    fixed = dict(fixed or {})
    if not free and not fixed:
        raise ParameterError("free", [], "at least one parameter to fit (e.g. free=['switch.efficiency']); "
                             "names: nvmemodel parameters --preset …")
    base = _base(topology, workload)
    encoded = encode(base)  # categorical names → codes once, not at every evaluation of the fit
    for name in free:
        if name not in base:
            from ..errors import UnknownNameError
            raise UnknownNameError("free parameter", name, list(base))
    idents = [lmfit_name(n) for n in free]
    bounds, units, meanings, guess0 = {}, {}, {}, {}
    for name, ident in zip(free, idents):
        lo, hi, unit, kind, meaning = bounds_of(name)
        if kind not in ("continuous", "integer"):
            raise ParameterError("free", name, f"a numeric parameter (it is {kind}; compare its choices with "
                                 f"fits at each value instead)")
        bounds[ident], units[ident], meanings[ident] = (lo, hi), unit, meaning
        guess0[ident] = float(base[name])
    params = tuple(idents) + ((SHARPNESS,) if smooth else ())
    if smooth:
        bounds[SHARPNESS], units[SHARPNESS] = (0.5, 200.0), "1"
        meanings[SHARPNESS] = "sharpness of the soft minimum of the component ceilings (∞ = hard min)"

    def func(n, **kw):
        overrides = {**fixed, **{from_lmfit_name(k): float(v) for k, v in kw.items() if k != SHARPNESS}}
        total, ceil, _, bs = _evaluate(topology, workload, x, n, overrides, drives, encoded, ceilings=smooth)
        if smooth:
            finite = [np.where(np.isfinite(c), c, np.inf) for c in ceil.values()]
            total = soft_min(finite, kw[SHARPNESS])
        return _to_y(total, bs, y_unit)

    def guess(xd, yd):
        out = {}
        for ident in idents:
            v = guess0[ident]
            if not np.isfinite(v) or v <= 0:  # unknown in the preset: start from the data's scale
                if units[ident] in ("1/s", "B/s"):
                    v = float(np.max(yd))
                elif units[ident] == "s":  # a latency: Little's law at the smallest load, X = N / R
                    v = float(np.min(np.asarray(xd, float) / np.maximum(yd, 1e-300))) if x != "block_size_bytes" \
                        else 1e-4
                else:
                    v = 1.0
            lo, hi = bounds[ident]
            out[ident] = float(np.clip(v, lo, hi))
        if smooth:
            out[SHARPNESS] = 8.0
        return out

    sources = {}
    try:
        import nvmemodel as nm
        table = nm.parameter_table(topology.group_topology(0) if _mixed(topology) else topology, workload)
        sources = dict(zip(table["name"], table["source"].astype(str)))
    except (AttributeError, ImportError, KeyError):
        pass
    shown = [*free, *(f"{k} = {v}" for k, v in fixed.items())]
    return Shape(name="ceiling_smooth" if smooth else "ceiling", func=func, params=params, units=units,
                 bounds=bounds, meanings=meanings, guess=guess, smooth=smooth,
                 description=(f"{getattr(topology, 'name', 'topology')} ceiling model"
                              f"{' (soft minimum)' if smooth else ''}, free: {', '.join(shown)}"),
                 sources=sources, fixed=fixed, x_axis=x)


def ceiling_profile(topology, workload, *, x: str, values, overrides: dict | None = None, drives: int = 1,
                    y_unit: str = "1/s"):
    """The system ceiling, every component's ceiling (in y units) and what binds, at each x.

    Returns
    -------
    pandas.DataFrame
        ``x``, ``ceiling``, ``binding`` and one column per component.
    """
    import pandas as pd

    total, ceil, bind, bs = _evaluate(topology, workload, x, np.asarray(values, float), dict(overrides or {}), drives)
    df = pd.DataFrame({"x": np.asarray(values, float), "ceiling": _to_y(total, bs, y_unit), "binding": bind})
    for k, v in ceil.items():
        df[k] = _to_y(np.asarray(v, float), bs, y_unit)
    return df


def _sweep_ceiling(topology, workload, *, x, x_value, overrides, drives, y_unit, name, values) -> np.ndarray:
    """The system ceiling at one x for many values of one parameter, in one vectorized :func:`nvmemodel.sweep`."""
    import nvmemodel as nm

    values = list(values)
    c = len(values)
    grid = {k: [v] * c for k, v in overrides.items() if k != name}
    n = drives
    if x in DRIVE_AXES:
        n = round(x_value)
    else:
        for k in X_AXES[x]:
            grid[k] = [float(x_value)] * c
        if x == "outstanding":
            grid["workload.numjobs"] = [1.0] * c
    grid[name] = values
    res = nm.sweep(topology, workload, drives=[n], grid=grid)
    return np.asarray(res.bytes_per_s if y_unit == "B/s" else res.iops, dtype=float)[:, 0]


def reconcile(topology, workload, *, x: str, x_value: float, measured: float, overrides: dict | None = None,
              drives: int = 1, y_unit: str = "1/s", candidates: list[str] | None = None) -> list[str]:
    """Parameters whose change (alone) would lift the ceiling at ``x_value`` to ``measured``.

    Choice, flag and categorical parameters (MPS, DLLP policy …) are tried at each allowed value;
    continuous ones from ×1/4 to ×4 of their value on a fine geometric grid (the smallest sufficient
    change is reported). Counts (lanes, sockets, switches), the hardware's identity (``*.model``,
    ``fabric.transport``) and the workload are facts, not assumptions, and are not varied. Each
    parameter costs one vectorized sweep. Returns sentences like ``"pcie.mps = 512 (also 1024)"``.
    """
    base = _base(topology, workload)
    overrides = dict(overrides or {})
    names = candidates or [n for n in base if not n.startswith("workload.") and n not in overrides
                           and not n.endswith((".model", ".transport"))]
    kw = {"x": x, "x_value": x_value, "overrides": overrides, "drives": drives, "y_unit": y_unit}
    out = []
    for name in names:
        entry = _table_entry(name)
        v0 = base[name]
        if entry is not None and entry.kind in ("choice", "flag", "categorical"):
            tries = list(entry.allowed_choices())
            if entry.kind == "flag":
                tries = [0.0, 1.0]
            if not isinstance(v0, str):
                tries = [float(tries.index(t)) if isinstance(t, str) else float(t) for t in tries]
            tries = [t for t in tries if str(t) != str(v0) and t != v0]
            if not tries:
                continue
            try:
                ceil = _sweep_ceiling(topology, workload, name=name, values=tries, **kw)
            except (ParameterError, ValueError, TypeError, LookupError):
                continue
            shown = [(entry.name_of(t) if entry.kind == "categorical" and not isinstance(t, str) else t)
                     for t in tries]
            ok = [f"{v:g}" if isinstance(v, float) else str(v) for v, c in zip(shown, ceil) if c >= measured]
            if ok:  # the first (smallest) change that suffices, the others in brackets
                out.append(f"{name} = {ok[0]}" + (f" (also {', '.join(ok[1:])})" if ok[1:] else ""))
            continue
        if isinstance(v0, str) or not np.isfinite(v0) or v0 == 0:
            continue
        lo, hi, _unit, kind, _ = bounds_of(name)
        if kind != "continuous":
            continue  # counts (lanes, sockets, switches) are design choices, not assumptions to reconcile
        for direction in (4.0, 0.25):  # steps of 0.1 % from the value outwards, clipped to the bounds
            grid = np.clip(v0 * direction ** np.linspace(0.0, 1.0, 1400)[1:], lo, hi)
            try:
                ceil = _sweep_ceiling(topology, workload, name=name, values=grid, **kw)
            except (ParameterError, ValueError, TypeError, LookupError):
                continue
            hit = np.flatnonzero(ceil >= measured)
            if hit.size:
                b = float(grid[hit[0]])
                out.append(f"{name} from {v0:.4g} to {b:.4g} ({(b / v0 - 1):+.1%})")
                break
    return out
