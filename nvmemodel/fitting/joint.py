"""Several curves fitted together, with chosen parameters shared between them.

``by="stack"`` splits QD sweeps into curves; ``shared=["r0"]`` says the latency floor is one number for
all of them while each keeps its own cap. One lmfit ``Minimizer`` fits every curve's residuals at once:
each curve's parameters are ``<name>_g<i>``, and a shared parameter of curves 1… is tied to curve 0's by
an lmfit expression. Intervals are t intervals from the joint covariance (n − k of the joint fit), or
lmfit's profile likelihood on the joint χ² with ``ci="profile"``; bands come from 1,000 seeded draws of
the joint covariance; a seeded residual bootstrap of the joint fit (residuals resampled within each
curve) with ``ci="bootstrap"``, or where ``"auto"`` finds no covariance.

The ceiling model is fitted jointly the same way with one :class:`~nvmemodel.fitting.models.Shape` per
curve (each curve its own topology and workload, the same free parameter names): ``shared=
["drive.seq_read_bytes_per_s"]`` over an x8- and an x16-uplink curve fits one drive rate to both. As for
one curve, ``ci="auto"`` gives it no interval where the covariance is singular or a parameter sits at a
bound (a bootstrap of the ceiling kernel takes minutes); ask for ``ci="bootstrap"``.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from ..errors import ParameterError
from .engine import CI_METHODS, CurveFit, _check_points, _identifiability, _shown, depends, refit, unidentified
from .models import Shape
from .select import information

__all__ = ["fit_joint"]

_NO_COVARIANCE = type("NoCovariance", (), {"covar": None, "var_names": ()})()


def fit_joint(shape: Shape | list[Shape], curves: list, shared: list[str], *, ci: str = "auto", seed: int = 0,
              n_boot: int | None = None) -> dict:
    """Fit ``shape`` to every curve at once with ``shared`` parameters common to all.

    Parameters
    ----------
    shape : Shape or list of Shape
        One shape for every curve, or one per curve (same parameter names; the ceiling model of each
        curve's own topology).
    curves : list of (key, x, y, weights or None)
    shared : list of str
        Names among ``shape.params``.
    ci : {"auto", "profile", "bootstrap", "wald"}
        ``"auto"``: profile for smooth shapes, a seeded bootstrap for hard minima (the ceiling model).
    n_boot : int, optional
        Bootstrap resamples (default 1,000 on request, 300 when ``"auto"`` chooses it).

    Returns
    -------
    dict
        ``{key: CurveFit}``; each holds its curve's points and the joint fit's statistics.
    """
    import lmfit
    from scipy.stats import t as student_t

    if ci not in CI_METHODS:
        raise ParameterError("ci", ci, f"one of {', '.join(CI_METHODS)}")
    shapes = list(shape) if isinstance(shape, (list, tuple)) else [shape] * len(curves)
    if len(shapes) != len(curves):
        raise ParameterError("shape", len(shapes), f"one shape per curve ({len(curves)})")
    shape = shapes[0]
    if any(s.params != shape.params for s in shapes):
        raise ParameterError("free", [s.params for s in shapes], "the same free parameters in every curve")
    unknown = [p for p in shared if p not in shape.params]
    if unknown:
        raise ParameterError("shared", unknown[0], f"parameters of model {shape.name!r}: {', '.join(shape.params)}")
    if len(curves) < 2:
        raise ParameterError("shared", shared, "at least two curves (by=) to share parameters between")
    params = lmfit.Parameters()
    for i, (_, x, y, _) in enumerate(curves):
        x, y = np.asarray(x, float), np.asarray(y, float)
        _check_points(dataclasses.replace(shapes[i], params=()), x, y)
        start = shapes[i].guess(x, y)
        for p in shape.params:
            lo, hi = shape.bounds[p]
            if p in shared and i > 0:
                params.add(f"{p}_g{i}", expr=f"{p}_g0")
            else:
                params.add(f"{p}_g{i}", value=float(np.clip(start[p], lo, hi)), min=lo, max=hi)

    def unpack(pars, i):
        return {p: pars[f"{p}_g{i}"].value for p in shape.params}

    def residual(pars):
        out = []
        for i, (_, x, y, w) in enumerate(curves):
            w = np.ones(len(y)) if w is None else np.asarray(w, float)
            out.append((shapes[i].func(np.asarray(x, float), **unpack(pars, i)) - np.asarray(y, float)) * w)
        return np.concatenate(out)

    mini = lmfit.Minimizer(residual, params)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = mini.minimize(method="leastsq")
        # a parameter no point of any curve depends on (an x16 uplink that never binds cannot tell its
        # efficiency) makes the joint covariance singular and takes every other interval with it: hold it
        # where it is and refit the rest (it is reported as not identifiable, without an interval)
        idle = _idle(shapes, curves, res.params, unpack)
        if idle and len(idle) < res.nvarys:
            held = res.params.copy()
            for v in idle:
                held[v].vary = False
            res = mini.minimize(method="leastsq", params=held)
    n = sum(len(c[2]) for c in curves)
    k = res.nvarys
    if n <= k:
        raise ParameterError("shared", shared, f"more points ({n}) than the joint fit's {k} free parameters")
    stats = information(rss=float(np.sum(res.residual ** 2)), n=n, k=k)
    notes = [f"fitted jointly over {len(curves)} curves; shared: {', '.join(map(_shown, shared))}; "
             + "statistics are the joint fit's"]
    lo_ci, hi_ci, method = {}, {}, "wald"
    ceiling = shape.name.startswith("ceiling")
    at_bound = any(np.isclose(res.params[v].value, b, rtol=1e-6, atol=1e-12) for v in res.var_names
                   for b in (res.params[v].min, res.params[v].max) if np.isfinite(b))
    if ci == "auto" and ceiling and (not res.errorbars or at_bound):
        # as for one curve: the ceiling kernel makes a bootstrap cost minutes, so only on request
        ci = method = "none"
        notes.append("no interval: the joint covariance is singular or a parameter sits at a bound "
                     "(ci='bootstrap' computes a seeded bootstrap of the joint fit)")
    boot = None
    if ci == "profile" and not res.errorbars:  # as for one curve: a profile starts from the covariance
        notes.append("profile intervals need the joint covariance, which is singular here; a seeded bootstrap "
                     "was used")
    if ci == "bootstrap" or (ci in ("auto", "profile") and not res.errorbars):
        boot = _bootstrap_joint(shapes, curves, res, seed=seed,
                                n_boot=n_boot or (1000 if ci == "bootstrap" else 300))
        lo_ci = {v: float(np.nanpercentile(boot[:, j], 2.5)) for j, v in enumerate(res.var_names)}
        hi_ci = {v: float(np.nanpercentile(boot[:, j], 97.5)) for j, v in enumerate(res.var_names)}
        method = "bootstrap"
        notes.append(f"intervals from a seeded residual bootstrap of the joint fit ({len(boot)} resamples)")
    elif ci in ("auto", "profile") and res.errorbars:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                table = lmfit.conf_interval(mini, res, sigmas=[0.95])
            lo_ci = {name: rows[0][1] for name, rows in table.items()}
            hi_ci = {name: rows[-1][1] for name, rows in table.items()}
            method = "profile"
        except Exception:  # noqa: BLE001 — lmfit raises bare errors when a profile cannot close
            notes.append("profile intervals could not be computed (a likelihood profile does not close within its "
                         "parameter's bounds); t intervals instead")
    q = student_t.ppf(0.975, max(n - k, 1))
    cov = res.covar if res.errorbars else None
    rng = np.random.default_rng(seed)
    draws = boot if boot is not None else (
        rng.multivariate_normal([res.params[v].value for v in res.var_names], cov, size=1000, method="eigh")
        if cov is not None and method != "none" else None)
    # the residual standard error in y units, as for one curve (res.residual is weighted: in units of σ)
    w_all = np.concatenate([np.ones(len(c[2])) if c[3] is None else np.asarray(c[3], float) for c in curves])
    rse = float(np.sqrt(np.sum((res.residual / w_all) ** 2) / max(n - k, 1)))
    out = {}
    for i, (key, x, y, w) in enumerate(curves):
        x, y = np.asarray(x, float), np.asarray(y, float)
        values = unpack(res.params, i)
        stderr, lo, hi = {}, {}, {}
        for p in shape.params:
            name = f"{p}_g0" if p in shared else f"{p}_g{i}"
            se = res.params[name].stderr
            stderr[p] = float(se) if se is not None else np.nan
            blo, bhi = shape.bounds[p]
            if method == "none":
                lo[p] = hi[p] = np.nan
            else:
                lo[p] = max(lo_ci.get(name, values[p] - q * stderr[p]), blo)
                hi[p] = min(hi_ci.get(name, values[p] + q * stderr[p]), bhi)
        shp = shapes[i]
        samples = None
        if draws is not None:  # a parameter held fixed (not identifiable) keeps its value in every draw
            cols = [draws[:, res.var_names.index(name)] if name in res.var_names else
                    np.full(len(draws), res.params[name].value)
                    for name in (f"{p}_g0" if p in shared else f"{p}_g{i}" for p in shape.params)]
            bounds = np.array([shape.bounds[p] for p in shape.params], dtype=float)
            samples = np.clip(np.column_stack(cols) if cols else np.empty((len(draws), 0)), bounds[:, 0],
                              bounds[:, 1]) if cols else None
        resid = y - shp.func(x, **values)
        tss = float(np.sum((y - y.mean()) ** 2))
        st = dict(stats, n_curve=len(y), r2=1.0 - float(np.sum(resid ** 2)) / tss if tss > 0 else np.nan,
                  residual_se=rse)
        # what this curve's points cannot tell (e.g. an x16 uplink that never binds cannot fix its efficiency);
        # correlations are the joint fit's, not one curve's, so only the per-parameter checks run here
        own = [n for n in _identifiability(shp, _NO_COVARIANCE, x, values, stderr) if "correlated" not in n]
        # no point of this curve depends on its own parameter: no interval (was e.g. "1–1"); a shared one keeps the
        # joint interval the other curves give it
        for p in unidentified([q for q in shape.params if q not in shared], own):
            lo[p] = hi[p] = np.nan
        out[key] = CurveFit(shape=shp, x=x, y=y, weights=np.ones_like(y) if w is None else np.asarray(w, float),
                            values=values, stderr=stderr, ci_low=lo, ci_high=hi, stats=st, ci_method=method,
                            notes=[*notes, *own], result=res, samples=samples)
    return out


def _bootstrap_joint(shapes, curves, res, *, seed: int, n_boot: int) -> np.ndarray:
    """Residual bootstrap of a joint fit: each curve's weighted residuals (de-shrunk by √(n/(n−k))) resampled
    within that curve, every resample refitted from the best fit with scipy's bounded ``least_squares``.
    Rows of samples of ``res.var_names`` (failed refits dropped)."""

    rng = np.random.default_rng(seed)
    names = list(res.var_names)
    best = np.array([res.params[v].value for v in names])
    lo = np.array([res.params[v].min for v in names], dtype=float)
    hi = np.array([res.params[v].max for v in names], dtype=float)
    scale = np.where(best != 0, np.abs(best), 1.0)
    start = np.clip(best, np.nextafter(lo, np.inf), np.nextafter(hi, -np.inf)) / scale
    n = sum(len(c[2]) for c in curves)
    inflate = np.sqrt(n / max(n - len(names), 1))
    fitted, scaled, weights = [], [], []
    at = 0
    for _, x, y, w in curves:
        y = np.asarray(y, float)
        w = np.ones(len(y)) if w is None else np.asarray(w, float)
        r = res.residual[at:at + len(y)]  # (model − y)·w
        at += len(y)
        fitted.append(y + r / w)
        scaled.append(-r * inflate)
        weights.append(w)
    # each curve's parameters as positions in the vector of varied ones (a shared one is curve 0's): the
    # refits then never go through lmfit's expression machinery, which would dominate their time
    # (a parameter held fixed — not identifiable — keeps its value: position -1 reads it from ``fixed``)
    where = [[names.index(_own(res.params, f"{p}_g{i}")) if _own(res.params, f"{p}_g{i}") in names else -1
              for p in shapes[i].params] for i in range(len(curves))]
    fixed = [np.array([res.params[_own(res.params, f"{p}_g{i}")].value for p in shapes[i].params])
             for i in range(len(curves))]

    def resid_for(ys):
        def f(u):
            v = u * scale
            out = []
            for i, (_, x, _, _) in enumerate(curves):
                at = np.asarray(where[i], dtype=int)
                vals = dict(zip(shapes[i].params, np.where(at >= 0, v[at], fixed[i])))
                out.append((shapes[i].func(np.asarray(x, float), **vals) - ys[i]) * weights[i])
            return np.concatenate(out)
        return f

    out = np.full((n_boot, len(names)), np.nan)
    for b in range(n_boot):
        ys = [fv + rng.choice(sc, size=len(sc), replace=True) / w for fv, sc, w in zip(fitted, scaled, weights)]
        out[b] = refit(resid_for(ys), start, lo, hi, scale)
    return out[np.all(np.isfinite(out), axis=1)]



def _own(params, name: str) -> str:
    """The varied parameter behind ``name`` (itself, or curve 0's that a shared one is tied to)."""
    expr = params[name].expr
    return expr.strip() if expr else name


def _idle(shapes, curves, params, unpack) -> list[str]:
    """Varied parameters (lmfit names) that no curve's points depend on (:func:`~nvmemodel.fitting.engine.depends`,
    as :func:`~nvmemodel.fitting.engine._identifiability` tests one curve)."""
    moved: dict[str, bool] = {}
    for i, (_, x, _, _) in enumerate(curves):
        values = unpack(params, i)
        for p in shapes[i].params:
            name = _own(params, f"{p}_g{i}")
            if params[name].vary and not moved.get(name):
                moved[name] = depends(shapes[i].func, np.asarray(x, float), values, p, params[name].min,
                                      params[name].max)
    return [name for name, m in moved.items() if not m]
