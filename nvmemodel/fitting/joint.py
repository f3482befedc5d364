"""Several curves fitted together, with chosen parameters shared between them.

``by="stack"`` splits QD sweeps into curves; ``shared=["r0"]`` says the latency floor is one number for
all of them while each keeps its own cap. One lmfit ``Minimizer`` fits every curve's residuals at once:
each curve's parameters are ``<name>_g<i>``, and a shared parameter of curves 1… is tied to curve 0's by
an lmfit expression. Intervals are t intervals from the joint covariance (n − k of the joint fit), or
lmfit's profile likelihood on the joint χ² with ``ci="profile"``; bands come from 1,000 seeded draws of
the joint covariance.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from ..errors import ParameterError
from .engine import CurveFit, _check_points
from .models import Shape
from .select import information

__all__ = ["fit_joint"]


def fit_joint(shape: Shape, curves: list, shared: list[str], *, ci: str = "auto", seed: int = 0) -> dict:
    """Fit ``shape`` to every curve at once with ``shared`` parameters common to all.

    Parameters
    ----------
    shape : Shape
    curves : list of (key, x, y, weights or None)
    shared : list of str
        Names among ``shape.params``.

    Returns
    -------
    dict
        ``{key: CurveFit}``; each holds its curve's points and the joint fit's statistics.
    """
    import lmfit
    from scipy.stats import t as student_t

    unknown = [p for p in shared if p not in shape.params]
    if unknown:
        raise ParameterError("shared", unknown[0], f"parameters of model {shape.name!r}: {', '.join(shape.params)}")
    if len(curves) < 2:
        raise ParameterError("shared", shared, "at least two curves (by=) to share parameters between")
    params = lmfit.Parameters()
    for i, (_, x, y, _) in enumerate(curves):
        x, y = np.asarray(x, float), np.asarray(y, float)
        _check_points(dataclasses.replace(shape, params=()), x, y)
        start = shape.guess(x, y)
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
            out.append((shape.func(np.asarray(x, float), **unpack(pars, i)) - np.asarray(y, float)) * w)
        return np.concatenate(out)

    mini = lmfit.Minimizer(residual, params)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = mini.minimize(method="leastsq")
    n = sum(len(c[2]) for c in curves)
    k = res.nvarys
    if n <= k:
        raise ParameterError("shared", shared, f"more points ({n}) than the joint fit's {k} free parameters")
    stats = information(rss=float(np.sum(res.residual ** 2)), n=n, k=k)
    notes = [f"fitted jointly over {len(curves)} curves; shared: {', '.join(shared)}; statistics are the joint fit's"]
    lo_ci, hi_ci, method = {}, {}, "wald"
    if ci in ("auto", "profile") and res.errorbars:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                table = lmfit.conf_interval(mini, res, sigmas=[0.95])
            lo_ci = {name: rows[0][1] for name, rows in table.items()}
            hi_ci = {name: rows[-1][1] for name, rows in table.items()}
            method = "profile"
        except Exception as exc:  # noqa: BLE001 — lmfit raises bare errors when a profile cannot close
            notes.append(f"profile intervals failed ({type(exc).__name__}); t intervals instead")
    q = student_t.ppf(0.975, max(n - k, 1))
    cov = res.covar if res.errorbars else None
    rng = np.random.default_rng(seed)
    draws = (rng.multivariate_normal([res.params[v].value for v in res.var_names], cov, size=1000, method="eigh")
             if cov is not None else None)
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
            lo[p] = max(lo_ci.get(name, values[p] - q * stderr[p]), blo)
            hi[p] = min(hi_ci.get(name, values[p] + q * stderr[p]), bhi)
        samples = None
        if draws is not None:
            idx = [res.var_names.index(f"{p}_g0" if p in shared else f"{p}_g{i}") for p in shape.params]
            bounds = np.array([shape.bounds[p] for p in shape.params], dtype=float)
            samples = np.clip(draws[:, idx], bounds[:, 0], bounds[:, 1])
        resid = y - shape.func(x, **values)
        tss = float(np.sum((y - y.mean()) ** 2))
        st = dict(stats, r2=1.0 - float(np.sum(resid ** 2)) / tss if tss > 0 else np.nan,
                  residual_se=float(np.sqrt(np.sum(res.residual ** 2) / max(n - k, 1))))
        out[key] = CurveFit(shape=shape, x=x, y=y, weights=np.ones_like(y) if w is None else np.asarray(w, float),
                            values=values, stderr=stderr, ci_low=lo, ci_high=hi, stats=st, ci_method=method,
                            notes=list(notes), result=res, samples=samples)
    return out
