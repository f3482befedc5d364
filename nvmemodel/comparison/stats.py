"""The statistics of a comparison: Welch's t interval of a change on the log scale, and the repeats a change
needs to be seen.

Throughputs and latencies are ratio quantities (a change is "+8 %", not "+1,200 IOPS"), and their run-to-run
spread grows with their size, so each is compared on the log scale: with the runs' logarithms
:math:`y_{b,i}` (base, :math:`n_b` runs) and :math:`y_{n,j}` (new, :math:`n_n` runs),

.. math::

    d = \\bar y_n - \\bar y_b, \\qquad
    s_d^2 = \\frac{s_b^2}{n_b} + \\frac{s_n^2}{n_n}, \\qquad
    \\nu = \\frac{s_d^4}{\\frac{(s_b^2/n_b)^2}{n_b - 1} + \\frac{(s_n^2/n_n)^2}{n_n - 1}}

(Welch 1947, "The generalization of 'Student's' problem when several different population variances are
involved", Biometrika 34: 28–35; the Welch–Satterthwaite degrees of freedom), the interval
:math:`d \\pm t_{1-\\alpha/2,\\nu}\\, s_d`, and the change and its interval as ratios
:math:`e^{d} - 1`. Computed by ``scipy.stats.ttest_ind(equal_var=False)`` and its ``confidence_interval``.
Welch's test needs two runs a side at least; with fewer, the change cannot be told from noise.

The repeats needed: the smallest :math:`n` runs a side for which a two-sided Welch test at level
:math:`\\alpha` sees a change of :math:`\\delta` (a ratio, e.g. 5 %) with probability 0.8, for a
run-to-run spread :math:`\\sigma` of the logarithm (≈ the coefficient of variation, CV): with equal
:math:`n` and spread the statistic is noncentral :math:`t` with :math:`\\nu = 2n - 2` and noncentrality
:math:`\\ln(1 + \\delta) / (\\sigma \\sqrt{2/n})` (``scipy.stats.nct``).
"""

from __future__ import annotations

import math

__all__ = ["POWER", "log_change", "pooled_log_sd", "repeats_needed"]

#: probability of seeing the change that the repeats needed are worked out for (the usual 80 %)
POWER = 0.8
_MAX_REPEATS = 10_000


def log_change(base, new, *, confidence: float = 0.95) -> dict:
    """The change from ``base`` to ``new`` (positive values, one per run) on the log scale.

    Returns a dict: ``ratio`` (geometric mean of new / of base), ``low``/``high`` (the interval of the
    ratio; NaN with fewer than 2 runs a side), ``p_value`` (Welch's two-sided; NaN likewise), ``df``,
    ``sd_base``/``sd_new`` (sample standard deviations of the logarithms; NaN for one run).
    """
    import numpy as np
    from scipy import stats

    b = np.log(np.asarray(base, dtype=float))
    n = np.log(np.asarray(new, dtype=float))
    d = float(n.mean() - b.mean())
    out = {"ratio": math.exp(d), "low": math.nan, "high": math.nan, "p_value": math.nan, "df": math.nan,
           "sd_base": float(b.std(ddof=1)) if len(b) > 1 else math.nan,
           "sd_new": float(n.std(ddof=1)) if len(n) > 1 else math.nan}
    if len(b) < 2 or len(n) < 2:
        return out
    se2 = out["sd_base"] ** 2 / len(b) + out["sd_new"] ** 2 / len(n)
    if se2 == 0.0:  # every run of each side the same number (a quantised percentile): no spread to test against
        df = len(b) + len(n) - 2
        return out | {"low": math.exp(d), "high": math.exp(d), "p_value": 1.0 if d == 0 else 0.0, "df": float(df)}
    res = stats.ttest_ind(n, b, equal_var=False)
    ci = res.confidence_interval(confidence_level=confidence)
    return out | {"low": math.exp(float(ci.low)), "high": math.exp(float(ci.high)), "p_value": float(res.pvalue),
                  "df": float(res.df)}


def pooled_log_sd(groups) -> tuple[float, int]:
    """The pooled standard deviation of the logarithm over ``groups`` (sequences of one point's runs on one
    side) and its degrees of freedom (Σ (nᵢ − 1)); NaN and 0 where no group has two runs."""
    import numpy as np

    ss, dof = 0.0, 0
    for g in groups:
        y = np.log(np.asarray(g, dtype=float))
        if len(y) > 1:
            ss += float(((y - y.mean()) ** 2).sum())
            dof += len(y) - 1
    return (math.sqrt(ss / dof), dof) if dof else (math.nan, 0)


def repeats_needed(change: float, sd_log: float, *, confidence: float = 0.95, power: float = POWER) -> int | None:
    """Runs a side for a two-sided Welch test at ``1 - confidence`` to see a change of ``change`` (a ratio −1,
    e.g. 0.05) with probability ``power``, for a spread ``sd_log`` of the runs' logarithms; None beyond
    10,000 runs (or an unknown spread)."""
    from scipy import stats

    if not (sd_log > 0 and math.isfinite(sd_log)) or not change:
        return None
    delta = abs(math.log1p(change))
    alpha = 1 - confidence
    for n in range(2, _MAX_REPEATS + 1):
        df = 2 * n - 2
        nc = delta / (sd_log * math.sqrt(2 / n))
        t = stats.t.ppf(1 - alpha / 2, df)
        if stats.nct.sf(t, df, nc) + stats.nct.cdf(-t, df, nc) >= power:
            return n
    return None
