"""One model on one measured curve: the bounded fit, 95 % intervals, statistics and diagnostics.

Intervals (two-sided 95 %):

* ``"profile"`` — lmfit's ``conf_interval`` (profile likelihood via the F test on χ²), the default for
  smooth models;
* ``"bootstrap"`` — a seeded residual bootstrap (residuals rescaled by √(n/(n−k)), refitted from the best
  fit, percentile intervals), the default for hard minima, whose χ² surface has kinks;
* ``"wald"`` — estimate ± t(0.975, n−k) · standard error (R's ``confint.default`` with t quantiles).

Standard errors are lmfit's (covariance scaled by the reduced χ², as R's ``nls`` does).
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ParameterError
from .models import Shape, lmfit_model
from .select import information

if TYPE_CHECKING:  # lmfit loads on first fit (and has no type information: read as Any)
    from lmfit.model import ModelResult

__all__ = ["CI_METHODS", "CurveFit", "fit_shape"]

CI_METHODS = ("auto", "profile", "bootstrap", "wald")
_LEVEL = 0.95


@dataclasses.dataclass(frozen=True, repr=False)
class CurveFit:
    """The fit of one model to one curve.

    Attributes
    ----------
    shape : Shape
    x, y, weights : ndarray
        The measured points fitted (weights = 1/standard error, or ones).
    values, stderr, ci_low, ci_high : dict
        Per free parameter; NaN where unknown.
    stats : dict
        ``n``, ``k``, ``df``, ``rss`` (weighted), ``residual_se``, ``r2``, ``aicc``, ``bic``.
    ci_method : str
        How the intervals were computed (after any fallback).
    notes : list of str
        Warnings about this fit (too few points, unidentifiable or bound-stuck parameters …).
    samples : ndarray or None
        Bootstrap parameter samples (rows), when a bootstrap ran.
    """

    shape: Shape
    x: np.ndarray
    y: np.ndarray
    weights: np.ndarray
    values: dict
    stderr: dict
    ci_low: dict
    ci_high: dict
    stats: dict
    ci_method: str
    notes: list
    result: ModelResult
    samples: np.ndarray | None = None
    discrete: dict = dataclasses.field(default_factory=dict)  # ceiling model: {name: {value, rss by value}}
    held: dict = dataclasses.field(default_factory=dict)  # parameter → "at bound" / "unidentified" (no SE, no CI)

    def eval(self, x, values: dict | None = None) -> np.ndarray:
        """The fitted curve at ``x`` (or with other parameter ``values``)."""
        return np.asarray(self.shape.func(np.asarray(x, dtype=float), **(values or self.values)), dtype=float)

    def band(self, x) -> tuple[np.ndarray, np.ndarray]:
        """95 % confidence band of the fitted curve at ``x`` (bootstrap percentiles, else lmfit's delta method)."""
        x = np.asarray(x, dtype=float)
        if self.samples is not None and len(self.samples):
            curves = np.array([self.eval(x, dict(zip(self.shape.params, s))) for s in self.samples])
            return np.nanpercentile(curves, 2.5, axis=0), np.nanpercentile(curves, 97.5, axis=0)
        mid = self.eval(x)
        if not self.shape.params:
            return mid, mid  # nothing continuous was fitted: no band
        varied = getattr(self.result, "var_names", None) or self.shape.params  # (held parameters have no error)
        if any(not np.isfinite(self.stderr[p]) for p in self.shape.params if p in varied):
            return np.full_like(mid, np.nan), np.full_like(mid, np.nan)
        if all(self.stderr[p] == 0 for p in self.shape.params):
            return mid, mid  # points met exactly: no spread (lmfit's delta method would divide 0 by 0)
        dely = self.result.eval_uncertainty(n=x, sigma=_LEVEL)
        return mid - dely, mid + dely

    def __repr__(self) -> str:
        vals = ", ".join(f"{p}={v:.4g}" for p, v in self.values.items())
        return f"<CurveFit {self.shape.name}: {vals}; R²={self.stats['r2']:.4f}, AICc={self.stats['aicc']:.2f}>"


def _check_points(shape: Shape, x: np.ndarray, y: np.ndarray) -> None:
    k = len(shape.params)
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ParameterError("measured points", "NaN or inf", "finite x and y at every point")
    if np.any(y < 0):
        raise ParameterError("y", float(y[y < 0][0]), "non-negative measurements")
    solve = shape.name.startswith("ceiling")  # the physical model may be *solved* from as many points as it frees
    if np.unique(x).size < 2 and not solve:
        raise ParameterError("x", f"one value ({x[0]:g})", "at least two different x values to fit a curve")
    if x.size < max(k, 1) or (x.size == k and not solve):
        raise ParameterError(f"model {shape.name!r}", f"{x.size} points",
                             f"more points than its {k} free parameters ({', '.join(shape.params)})")
    # a flat series can sit on a model's ceiling, and is what the constant model (x is no load) describes exactly
    if np.ptp(y) == 0 and not shape.name.startswith("ceiling") and shape.name != "constant":
        raise ParameterError("y", f"constant ({y[0]:g})", "measurements that vary along x (a constant has no shape "
                             "to fit)")


def fit_shape(shape: Shape, x: Any, y: Any, weights: Any = None, *, ci: str = "auto", seed: int = 0,
              n_boot: int | None = None) -> CurveFit:
    """Fit ``shape`` to the points and compute intervals and diagnostics (see the module docstring).

    Parameters
    ----------
    shape : Shape
    x, y : array_like
        Measured points (SI).
    weights : array_like, optional
        1/standard error of each y; unweighted when omitted.
    ci : {"auto", "profile", "bootstrap", "wald"}
    seed : int
        Seed of the bootstrap (results are deterministic).
    n_boot : int, optional
        Bootstrap resamples: default 1,000 when ``ci="bootstrap"`` is asked for, 300 when ``"auto"`` falls
        back to a bootstrap (percentile ends then rest on ~8 resamples each; ask for more when they matter).
    """
    if ci not in CI_METHODS:
        raise ParameterError("ci", ci, f"one of {', '.join(CI_METHODS)}")
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    _check_points(shape, x, y)
    w = np.ones_like(y) if weights is None else np.asarray(weights, dtype=float)
    if not shape.params:  # a ceiling model whose free parameters are all discrete: evaluate, nothing to fit
        resid = y - np.asarray(shape.func(x), dtype=float)
        stats = information(rss=float(np.sum((resid * w) ** 2)), n=y.size, k=0)
        tss = float(np.sum((y - y.mean()) ** 2))
        stats["r2"] = 1.0 - float(np.sum(resid ** 2)) / tss if tss > 0 else np.nan
        stats["residual_se"] = float(np.sqrt(np.sum(resid ** 2) / y.size))
        return CurveFit(shape=shape, x=x, y=y, weights=w, values={}, stderr={}, ci_low={}, ci_high={}, stats=stats,
                        ci_method="none", notes=[], result=None)
    model = lmfit_model(shape)
    start = shape.guess(x, y)
    params = model.make_params(**{p: float(np.clip(start[p], *shape.bounds[p])) for p in shape.params})
    try:
        result = _fit(model, params, x, y, w)
    except ValueError as exc:  # lmfit: "The model function generated NaN values" — a model undefined there
        raise ParameterError("model", shape.name, f"a model defined at every point ({exc})") from None
    notes: list[str] = []
    values = {p: float(result.params[p].value) for p in shape.params}
    stderr = {p: (float(result.params[p].stderr) if result.params[p].stderr is not None else np.nan)
              for p in shape.params}
    resid = y - result.best_fit
    stats = information(rss=float(np.sum((resid * w) ** 2)), n=y.size, k=len(shape.params))
    tss = float(np.sum((y - y.mean()) ** 2))
    stats["r2"] = 1.0 - float(np.sum(resid ** 2)) / tss if tss > 0 else np.nan
    stats["residual_se"] = float(np.sqrt(np.sum(resid ** 2) / stats["df"])) if stats["df"] > 0 else np.nan
    if stats["df"] == 0:
        notes.append(f"{y.size} point(s) for {len(shape.params)} parameter(s): solved exactly, not fitted — no "
                     f"interval and no test of the model")
    elif stats["df"] - 1 <= 0:
        # one degree of freedom: the fit can miss its points (a line through the origin and two points), so it is
        # not an interpolation; it is a test with one residual's worth of evidence (DOCSQA s27)
        k = len(shape.params)
        notes.append(f"{y.size} points for {k} parameter{'s' if k != 1 else ''}: one degree of freedom left, too few "
                     f"for AICc (it needs more than k + 1 points); one residual is all that tests the model")
    edges = at_bound(shape, x, y, w, values, stats["rss"])
    notes += _identifiability(shape, result, x, values, stderr, edges)
    idle = unidentified(shape.params, notes)
    pinned = [p for p in edges if p not in idle]
    if (idle or pinned) and len(idle) + len(pinned) < len(shape.params) and stats["df"] > 0:
        # no point depends on these (idle), or the data push them onto a bound (pinned): they leave the
        # covariance singular or distorted (lmfit's bounded transform inflates a standard error at a bound
        # eightfold) and take every other interval with them — hold them there and fit the rest; they are
        # reported without a standard error or interval ("at bound"), as R's usl should
        held = {**{p: values[p] for p in idle}, **{p: edges[p] for p in pinned}}
        return _held_fit(shape, held, x, y, w, notes, counted=pinned, start=values, ci=ci, seed=seed, n_boot=n_boot)
    if stats["rss"] <= 1e-20 * max(float(np.sum((y * w) ** 2)), 1e-300):
        notes.append("the model passes through every point exactly: the intervals carry no measurement noise "
                     "(repeat the runs to see a spread)")

    method = ci
    if stats["df"] == 0:
        method = "none"
    if method == "auto":
        method = _auto_method(shape, values, stderr, stats["df"], notes)
    samples = None
    lo = dict.fromkeys(shape.params, np.nan)
    hi = dict.fromkeys(shape.params, np.nan)
    if method == "profile":
        start = result.params.copy()  # a failed profile leaves them changed
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # lmfit warns when a bound stops the profile; handled below
                table = result.conf_interval(sigmas=[_LEVEL])
            for p in shape.params:  # rows (probability, value): lower end, best, upper end
                lo[p], hi[p] = float(table[p][0][1]), float(table[p][-1][1])
        except Exception:  # noqa: BLE001 — lmfit raises bare errors when the profile cannot close
            result.params = start.copy()
            # an exact fit has no residual variance: its likelihood is not flat but degenerate (QA s27: the
            # --rate=20m series, 20,961,039 B/s three times, was said to be "flat in level")
            exact = stats["rss"] == 0.0
            why = ("profile intervals could not be computed (the model meets every point exactly: there is no "
                   "residual variance to profile)" if exact else
                   f"profile intervals could not be computed ({_flat_profiles(result, shape.params)})")
            if shape.name.startswith("ceiling") and all(np.isfinite(list(stderr.values()))):
                notes.append(f"{why}; t intervals from the covariance instead")
                method = "wald"
            else:
                notes.append(f"{why}; a seeded bootstrap was used")
                method = "bootstrap"
    if method == "wald":
        from scipy.stats import t

        q = t.ppf(0.5 + _LEVEL / 2, max(stats["df"], 1))
        for p in shape.params:
            lo[p], hi[p] = values[p] - q * stderr[p], values[p] + q * stderr[p]
    if method == "bootstrap":
        if n_boot is None:
            n_boot = 1000 if ci == "bootstrap" else 300
        samples = _bootstrap(model, result, x, y, w, shape, seed=seed, n_boot=n_boot)
        for i, p in enumerate(shape.params):
            lo[p], hi[p] = (float(v) for v in np.nanpercentile(samples[:, i], [2.5, 97.5]))
    for p in shape.params:  # a bound is a hard edge of every interval
        blo, bhi = shape.bounds[p]
        lo[p], hi[p] = max(lo[p], blo), min(hi[p], bhi)
    for p in unidentified(shape.params, notes):  # refits never move it: a zero-width interval would claim precision
        lo[p] = hi[p] = np.nan
    return CurveFit(shape=shape, x=x, y=y, weights=w, values=values, stderr=stderr, ci_low=lo, ci_high=hi,
                    stats=stats, ci_method=method, notes=notes, result=result, samples=samples)


_COVARIANCE_NOTES = ("no standard error (the covariance matrix is singular)", "is poorly identified", "correlated")


def _flat_profiles(result, names) -> str:
    """Which parameters' likelihood profiles do not close (each profiled on its own; the fit's parameters are
    restored after every attempt, a failed profile leaves them changed) — in words for the user, never an
    exception's name."""
    saved = result.params.copy()
    flat = []
    for p in names:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result.conf_interval(p_names=[p], sigmas=[_LEVEL])
        except Exception:  # noqa: BLE001 — lmfit's bare errors: this one's profile does not close
            flat.append(p)
        finally:
            result.params = saved.copy()
    if not flat:
        return "the profiles of the parameters together do not close"
    return (f"the likelihood is flat in {', '.join(flat)}: "
            + ("its profile does not" if len(flat) == 1 else "their profiles do not")
            + " close within the parameter's bounds")


def _auto_method(shape: Shape, values: dict, stderr: dict, df: int, notes: list) -> str:
    """``ci="auto"``: t intervals (estimate ± t(0.975, n−k)·SE, cheap and exact for linear parameters) unless
    one would cross a bound — there the t interval misstates a skewed uncertainty, and profile likelihood
    (smooth models) or a seeded bootstrap (hard minima, whose χ² surface has kinks) is computed instead."""
    from scipy.stats import t

    if not all(np.isfinite(list(stderr.values()))):
        if shape.name.startswith("ceiling"):
            # the ceiling kernel costs milliseconds a call: a bootstrap takes minutes, so only on request
            notes.append("no interval: the covariance is singular or a parameter sits at a bound "
                         "(ci='bootstrap' computes a seeded bootstrap, at about 20 model evaluations per resample)")
            return "none"
        return "bootstrap"
    q = t.ppf(0.5 + _LEVEL / 2, max(df, 1))
    crosses = any(values[p] - q * stderr[p] < shape.bounds[p][0] or values[p] + q * stderr[p] > shape.bounds[p][1]
                  for p in shape.params)
    if not crosses or len(shape.params) == 1:
        return "wald"  # (lmfit cannot profile one parameter; for a linear model the t interval is exact)
    if shape.name.startswith("ceiling"):
        return "profile"  # (falls back to t intervals when the profile cannot close)
    return "profile" if shape.smooth else "bootstrap"


def at_bound(shape: Shape, x, y, w, values: dict, rss: float) -> dict:
    """``{parameter: bound}`` for parameters the data push onto a finite bound: moving the estimate onto it
    changes the weighted residual sum of squares by less than 1 part in 10⁶ (κ = 1.2e-11 of a USL fit is at
    its bound 0; a closeness test on the value alone misses it when the bound is 0)."""
    out = {}
    for p in shape.params:
        v = values[p]
        for edge in shape.bounds[p]:
            if not np.isfinite(edge):
                continue
            if edge == v or np.isclose(v, edge, rtol=1e-9, atol=0.0):
                out[p] = float(edge)
                break
            try:
                with np.errstate(all="ignore"):
                    r = float(np.sum(((y - np.asarray(shape.func(x, **dict(values, **{p: edge})), float)) * w) ** 2))
            except (ZeroDivisionError, ValueError, FloatingPointError):
                continue  # the model is undefined at that bound (MVA at x_max = 0): never there
            if np.isfinite(r) and r <= rss * (1 + 1e-6) + 1e-300:
                out[p] = float(edge)
                break
    return out


def _held_fit(shape: Shape, held: dict, x, y, w, notes, *, counted=(), start=None, **kw) -> CurveFit:
    """:func:`fit_shape` with the parameters ``held`` at the given values (not identifiable from these points,
    or pushed onto a bound); the result speaks of the full shape: held parameters with their value and no
    error or interval. Parameters in ``counted`` (at a bound: estimated, the estimate is the bound) stay
    counted in k; the unidentifiable ones are counted out."""
    idle = list(held)
    keep = tuple(p for p in shape.params if p not in idle)
    values = {**(start or {}), **held}
    full = shape.func

    def func(n, **k):
        return full(n, **held, **k)

    reduced = dataclasses.replace(shape, func=func, params=keep, guess=lambda xd, yd: {p: values[p] for p in keep})
    f = fit_shape(reduced, x, y, w, **kw)
    if counted:  # at a bound: estimated (its estimate is the bound), so it keeps its place in k and df
        stats = information(rss=f.stats["rss"], n=f.stats["n"], k=f.stats["k"] + len(counted))
        resid = f.y - f.eval(f.x)
        stats["r2"] = f.stats["r2"]
        stats["residual_se"] = float(np.sqrt(np.sum(resid ** 2) / stats["df"])) if stats["df"] > 0 else np.nan
        f = dataclasses.replace(f, stats=stats)
    bound_names = [p for p in idle if p in counted]
    free_names = [p for p in idle if p not in counted]
    if bound_names:
        # standard errors as R's nls gives them: from the Jacobian of every estimated parameter, the one at its
        # bound included (the bound makes its own error meaningless, not the others' — conditioning on it would
        # make them too small); their t intervals follow
        est = [p for p in shape.params if p not in free_names]
        se = _jacobian_stderr(shape.func, f.x, f.weights, {**f.values, **held}, est, f.stats, shape.bounds)
        if se is not None:
            from scipy.stats import t

            q = t.ppf(0.5 + _LEVEL / 2, max(f.stats["df"], 1))
            lo_, hi_ = dict(f.ci_low), dict(f.ci_high)
            for p in keep:
                if f.ci_method == "wald":
                    blo, bhi = shape.bounds[p]
                    lo_[p], hi_[p] = max(f.values[p] - q * se[p], blo), min(f.values[p] + q * se[p], bhi)
            f = dataclasses.replace(f, stderr={p: se[p] for p in keep}, ci_low=lo_, ci_high=hi_)
    nan = dict.fromkeys(idle, np.nan)
    samples = None
    if f.samples is not None:  # full columns: a held parameter keeps its value in every sample
        cols = {p: f.samples[:, i] for i, p in enumerate(keep)}
        samples = np.column_stack([cols[p] if p in cols else np.full(len(f.samples), held[p])
                                   for p in shape.params])
    order = list(shape.params)
    return CurveFit(shape=shape, x=f.x, y=f.y, weights=f.weights,
                    values={p: {**f.values, **held}[p] for p in order},
                    stderr={p: {**f.stderr, **nan}[p] for p in order},
                    ci_low={p: {**f.ci_low, **nan}[p] for p in order},
                    ci_high={p: {**f.ci_high, **nan}[p] for p in order}, stats=f.stats, ci_method=f.ci_method,
                    # the full fit's covariance notes came from the singular matrix: the reduced fit's replace them
                    notes=[*(n for n in notes if not any(t in n for t in _COVARIANCE_NOTES)),
                           *(n for n in f.notes if n not in notes),
                           *([(f"{', '.join(map(_shown, free_names))} held at the fitted value to fit the others "
                               f"(counted out of k)")] if free_names else []),
                           *([(f"{', '.join(map(_shown, bound_names))} held at its bound to fit the others (no "
                               f"standard error or interval: at bound)")] if bound_names else [])],
                    result=f.result, samples=samples, held={**dict.fromkeys(free_names, "unidentified"),
                                                            **dict.fromkeys(bound_names, "at bound")})


def _jacobian_stderr(func, x, w, values: dict, names: list, stats: dict, bounds=None) -> dict | None:
    """Standard errors √diag(s²(JᵀJ)⁻¹) from the weighted Jacobian by central differences in the natural
    parameters (what R's ``nls`` reports), s² = weighted RSS / (n − k); None when JᵀJ is singular. A parameter at
    one of its ``bounds`` is differenced on the inside only: the model may refuse a value past it (DIFFQA s27 P4,
    ``memory.dma_fraction=1.000001 is not allowed`` from a share fitted at 1)."""
    cols = []
    for p in names:
        v = values[p]
        h = max(abs(v) * 1e-6, 1e-10)
        lo, hi = bounds[p] if bounds and p in bounds else (-np.inf, np.inf)
        a, b = (v - h if v - h >= lo else v), (v + h if v + h <= hi else v)
        with np.errstate(all="ignore"):
            up = np.asarray(func(x, **dict(values, **{p: b})), float)
            dn = np.asarray(func(x, **dict(values, **{p: a})), float)
        cols.append((up - dn) / (b - a) * w)
    jac = np.column_stack(cols)
    if not np.all(np.isfinite(jac)) or stats["df"] <= 0:
        return None
    try:
        cov = np.linalg.inv(jac.T @ jac) * stats["rss"] / stats["df"]
    except np.linalg.LinAlgError:
        return None
    d = np.diag(cov)
    return {p: float(np.sqrt(v)) if v >= 0 else np.nan for p, v in zip(names, d)}


def _fit(model, params, x, y, w):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return model.fit(y, params, n=x, weights=w, nan_policy="raise")


def _shown(ident: str) -> str:
    return ident.replace("__", ".")  # the ceiling model's lmfit names back to parameter names


def unidentified(params, notes) -> list[str]:
    """The parameters :func:`_identifiability` found no measured point to depend on (they have no interval)."""
    return [p for p in params if any(n.startswith(f"{_shown(p)} is not identifiable:") for n in notes)]


def depends(func, x, values: dict, p: str, lo: float, hi: float) -> bool:
    """Whether any point of ``func(x, **values)`` moves by 1e-9 of its value when ``p`` moves by 0.1 % (within
    its bounds ``lo``, ``hi``; near 0, by 1e-6 of a finite range at least: a step of 1e-12 moves no point by 1e-9
    of itself, whatever the parameter does): False for a parameter no measured point depends on."""
    v = values[p]
    span = hi - lo if np.isfinite(lo) and np.isfinite(hi) else 0.0
    step = max(abs(v) * 1e-3, span * 1e-6, 1e-12)
    up = dict(values, **{p: min(v + step, hi) if np.isfinite(hi) else v + step})
    dn = dict(values, **{p: max(v - step, lo)})
    with np.errstate(all="ignore"):
        sens = np.abs(np.asarray(func(x, **up), float) - np.asarray(func(x, **dn), float))
        scale = np.maximum(np.abs(np.asarray(func(x, **values), float)), 1e-300)
    return bool(np.any(sens / scale >= 1e-9))


def _identifiability(shape: Shape, result, x, values, stderr, edges=None) -> list[str]:
    """Parameters the data cannot tell: zero sensitivity at every point, huge or missing errors, at a bound.

    Sensitivity first: a parameter no point depends on is also "at" any bound by :func:`at_bound`'s test (moving
    it there changes nothing). One near its bound 0 (σ = 2e-11 of a USL fit) is told from it by
    :func:`depends`' step, at least 1e-6 of its range."""
    notes = []
    edges = edges or {}
    for p in shape.params:
        v = values[p]
        blo, bhi = shape.bounds[p]
        if not depends(shape.func, x, values, p, blo, bhi):
            notes.append(f"{_shown(p)} is not identifiable: no measured point depends on it "
                         f"({shape.meanings.get(p, p)}; e.g. a curve that never bends cannot tell its ceiling)")
        elif p in edges:
            edge = edges[p]
            notes.append(f"{_shown(p)} is at its bound {edge if edge > 1e-300 else 0:g}: the data push it there")
        elif not np.isfinite(stderr[p]):
            notes.append(f"{_shown(p)}: no standard error (the covariance matrix is singular): weakly identified")
        elif stderr[p] > abs(v):
            notes.append(f"{_shown(p)} is poorly identified: standard error {stderr[p]:.3g} exceeds the estimate {v:.3g}")
    corr = result.covar
    if corr is not None and len(shape.params) > 1:
        d = np.sqrt(np.diag(corr))
        with np.errstate(all="ignore"):
            c = corr / np.outer(d, d)
        names = [n for n in result.var_names]
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                if abs(c[i, j]) > 0.995:
                    notes.append(f"{_shown(names[i])} and {_shown(names[j])} are {abs(c[i, j]):.1%} correlated: the data fix a "
                                 f"combination of them, not each one")
    return notes


def _bootstrap(model, result, x, y, w, shape: Shape, *, seed: int, n_boot: int) -> np.ndarray:
    """Residual bootstrap of the weighted fit, seeded; rows of parameter samples (failed refits dropped).

    Refits call scipy's bounded ``least_squares`` directly (lmfit's per-fit bookkeeping would dominate
    the time of a 1,000-resample bootstrap); the objective is the one lmfit minimised.
    """

    rng = np.random.default_rng(seed)
    fitted = result.best_fit
    n, k = y.size, len(shape.params)
    scaled = (y - fitted) * w * np.sqrt(n / max(n - k, 1))  # residuals in weighted units, de-shrunk
    best = np.array([result.params[p].value for p in shape.params])
    lo = np.array([shape.bounds[p][0] for p in shape.params], dtype=float)
    hi = np.array([shape.bounds[p][1] for p in shape.params], dtype=float)
    scale = np.where(best != 0, np.abs(best), 1.0)  # fit in units of the estimate: well conditioned
    start = np.clip(best, np.nextafter(lo, np.inf), np.nextafter(hi, -np.inf)) / scale
    names = shape.params
    out = np.full((n_boot, k), np.nan)
    for b in range(n_boot):
        yb = fitted + rng.choice(scaled, size=n, replace=True) / w

        def resid(u, yb=yb):
            return (shape.func(x, **dict(zip(names, u * scale))) - yb) * w

        out[b] = refit(resid, start, lo, hi, scale)
    return out[np.all(np.isfinite(out), axis=1)]


def refit(resid, start, lo, hi, scale) -> np.ndarray | float:
    """One bootstrap refit: scipy's bounded ``least_squares`` of ``resid`` in units of ``scale`` from ``start``;
    the parameters, or NaN where it fails."""
    from scipy.optimize import least_squares

    with np.errstate(all="ignore"):
        try:
            sol = least_squares(resid, start, bounds=(lo / scale, hi / scale), method="trf")
        except ValueError:
            return np.nan
    return sol.x * scale if sol.success else np.nan
