"""Quantities derived from a fit (peak, limit, knee, contention/coherency split) with 95 % intervals.

Intervals come from the bootstrap samples when the fit has them, else from 4,000 seeded draws of the
parameters from a multivariate t distribution with the fit's n − k degrees of freedom and its covariance
(a parametric bootstrap, clipped to the bounds; percentile intervals).

The USL peak N* = √((1−σ)/κ) is reported only where κ's 95 % interval excludes 0: otherwise the data do
not show a peak, and ``peak_n`` is ``(inf, N*_min, inf)`` with N*_min the peak at κ's upper end (``"no peak
within the data; N* > N*_min"``).
"""

from __future__ import annotations

import numpy as np

from . import shapes
from .ceiling import DRIVE_AXES

__all__ = ["derived_quantities", "no_peak"]


def _draws(fit, seed: int = 0, size: int = 4000) -> np.ndarray | None:
    """Parameter draws for derived intervals: the bootstrap samples, else draws from the multivariate t
    distribution with the fit's n − k degrees of freedom (centre = estimates, scale = covariance — the
    small-sample analogue of the t interval of each parameter; a normal would be too narrow at small n).
    Parameters held at a bound or at their value (:attr:`CurveFit.held`) keep it in every draw."""
    if fit.samples is not None and len(fit.samples) >= 20:
        return fit.samples
    cov = fit.result.covar if fit.result is not None else None
    if cov is None or not np.all(np.isfinite(cov)):
        return None
    names = list(fit.shape.params)
    varied = list(fit.result.var_names)
    if [p for p in names if p not in fit.held] != varied:
        return None
    se = np.sqrt(np.diag(cov))
    if not np.all(se > 0):
        return None
    own = np.array([fit.stderr[p] for p in varied], dtype=float)  # (at a bound: the Jacobian's errors)
    if np.all(np.isfinite(own)) and np.all(own > 0):
        cov = cov / np.outer(se, se) * np.outer(own, own)
    rng = np.random.default_rng(seed)
    mean = np.array([fit.values[p] for p in varied])
    df = max(int(fit.stats.get("df", 1)), 1)
    z = rng.multivariate_normal(np.zeros(len(varied)), cov, size=size, method="eigh")
    scale = np.sqrt(df / rng.chisquare(df, size=size))[:, None]
    part = mean + z * scale
    out = np.empty((size, len(names)))
    for j, p in enumerate(names):
        out[:, j] = part[:, varied.index(p)] if p in varied else fit.values[p]
    lo = np.array([fit.shape.bounds[p][0] for p in names], dtype=float)
    hi = np.array([fit.shape.bounds[p][1] for p in names], dtype=float)
    return np.clip(out, lo, hi)


def _ceiling_knee(fit, v: dict) -> float:
    """First integer x where the fitted ceiling falls 0.1 % below linear scaling from x = 1 (NaN: never)."""
    grid = np.arange(1.0, max(float(np.max(fit.x)), 1.0) + 1)
    with np.errstate(all="ignore"):  # a draw clipped to a bound (a rate of 1e-308) overflows: no knee there
        c = np.asarray(fit.shape.func(grid, **v), dtype=float)
    below = np.flatnonzero(c < 0.999 * grid * c[0])
    return float(grid[below[0]]) if below.size else np.nan


def _quantities(name: str, v: dict, x_max_measured: float, fit=None) -> dict[str, float]:
    if name.startswith("ceiling") and fit is not None:
        return {"knee_n": _ceiling_knee(fit, v)}
    if name == "usl":
        peak = shapes.usl_peak(v["sigma"], v["kappa"])
        lost_s = v["sigma"] * (x_max_measured - 1)
        lost_k = v["kappa"] * x_max_measured * (x_max_measured - 1)
        total = lost_s + lost_k
        return {"peak_n": peak,
                "optimal_n": 1.0 / v["sigma"] if v["sigma"] > 0 else np.inf,
                "peak_throughput": float(shapes.usl(peak, v["x1"], v["sigma"], v["kappa"])) if np.isfinite(peak)
                else np.nan,
                "amdahl_limit": shapes.amdahl_limit(v["x1"], v["sigma"]),
                "contention_share": lost_s / total if total > 0 else np.nan,
                "coherency_share": lost_k / total if total > 0 else np.nan}
    if name == "amdahl":
        return {"amdahl_limit": shapes.amdahl_limit(v["x1"], v["sigma"])}
    if name in ("littles", "littles_soft", "mva"):
        return {"knee_n": shapes.littles_knee(v["x_max"], v["r0"]), "x_max": v["x_max"]}
    if name == "per_io_byte":
        return {"crossover_bytes": shapes.per_io_byte_crossover(v["iops_max"], v["bw_max"])}
    return {}


#: unit of each derived quantity ("{x}"/"{y}" replaced by the report)
UNITS = {"peak_n": "{x}", "optimal_n": "{x}", "peak_throughput": "{y}", "amdahl_limit": "{y}", "contention_share": "1",
         "coherency_share": "1", "knee_n": "{x}", "x_max": "{y}", "crossover_bytes": "B"}
MEANINGS = {
    "peak_n": "load at which the USL peaks, N* = √((1−σ)/κ)",
    "peak_throughput": "throughput at the USL peak",
    "optimal_n": "R usl's optimal load 1/σ (where contention alone would halve the per-unit efficiency)",
    "amdahl_limit": "throughput approached as load → ∞ with contention alone, x1/σ",
    "contention_share": "share of the lost throughput at the largest measured x due to contention σ",
    "coherency_share": "share of the lost throughput at the largest measured x due to coherency κ",
    "knee_n": "knee: load where the curve leaves linear scaling (queueing: N* = x_max · r0; ceiling model: first "
              "integer x 0.1 % below linear)",
    "x_max": "throughput cap",
    "crossover_bytes": "block size where the per-I/O and per-byte costs are equal, b* = bw_max / iops_max (IOPS "
                       "ceiling below it, bandwidth ceiling above)",
}


def _on_held(fit, name: str, top: float, key: str, val: float) -> bool:
    """Whether derived quantity ``key`` moves with a parameter held at a bound or at its value (no interval of
    its own): its draws keep that parameter fixed, so their spread would be a false precision."""
    if not fit.held or not np.isfinite(val):
        return False
    for p in fit.held:
        v = dict(fit.values)
        lo, hi = fit.shape.bounds.get(p, (-np.inf, np.inf))
        # a step inside the parameter's bounds: one held at its upper bound (a switch efficiency of 1) steps down,
        # not to a value the model refuses (DIFFQA s27 P7: 'switch.efficiency=1.01 is not allowed')
        step = v[p] * 1.01 if v[p] else 1e-6
        v[p] = step if lo <= step <= hi else v[p] * 0.99
        if not lo <= v[p] <= hi or v[p] == fit.values[p]:
            continue
        with np.errstate(all="ignore"):
            moved = _quantities(name, v, top, fit).get(key, np.nan)
        if not np.isclose(moved, val, rtol=1e-6, atol=0.0):
            return True
    return False


def derived_quantities(fit) -> dict[str, tuple[float, float, float]]:
    """``name → (value, ci_low, ci_high)`` for the fit's model (empty for models without any)."""
    name = fit.shape.name
    top = float(np.max(fit.x))
    if name.startswith("ceiling") and (getattr(fit.shape, "x_axis", "drives") not in DRIVE_AXES or fit.x.min() < 1
                                       or np.any(fit.x != np.round(fit.x))):
        # the knee is computed along drives, where one vectorized evaluation gives the whole curve; along
        # other axes every x costs an evaluation of milliseconds (and 200 draws of it would take minutes)
        return {}
    point = _quantities(name, fit.values, top, fit)
    if not point:
        return {}
    draws = _draws(fit)
    if name.startswith("ceiling") and draws is not None:
        draws = draws[:200]  # each draw is a model evaluation of milliseconds
    out = {}
    for key, val in point.items():
        lo = hi = np.nan
        if draws is not None:
            vals = np.array([_quantities(name, dict(zip(fit.shape.params, d)), top, fit)[key] for d in draws])
            vals = vals[np.isfinite(vals)]
            if vals.size >= 0.9 * len(draws):  # else the interval is open-ended: say so with NaN/inf
                lo, hi = (float(q) for q in np.percentile(vals, [2.5, 97.5]))
            elif np.isfinite(val):
                lo, hi = float(np.percentile(vals, 2.5)) if vals.size else np.nan, np.inf
        if _on_held(fit, name, top, key, val):  # the data do not determine it: no interval (issue 16 item 5)
            lo = hi = np.nan
        out[key] = (float(val), lo, hi)
    if name == "usl":
        k_lo, k_hi = fit.ci_low.get("kappa", np.nan), fit.ci_high.get("kappa", np.nan)
        if fit.held.get("kappa") or not np.isfinite(k_lo) or k_lo <= 0:
            # κ's interval includes 0: the data do not show a peak; where there is one, it lies beyond the load
            # that κ's upper end gives
            floor = shapes.usl_peak(fit.values["sigma"], k_hi) if np.isfinite(k_hi) and k_hi > 0 else np.nan
            out["peak_n"] = (np.inf, floor, np.inf)
            out["peak_throughput"] = (np.nan, np.nan, np.nan)
    return out


def no_peak(derived: dict) -> bool:
    """Whether :func:`derived_quantities` found no USL peak the data support (κ's interval includes 0)."""
    peak = derived.get("peak_n")
    return bool(peak is not None and not np.isfinite(peak[0]))
