"""Model choice for small samples: AICc, Akaike weights and BIC.

For least squares with Gaussian errors the log-likelihood is, up to a constant, ``−n/2 · ln(RSS/n)``
and the error variance is one more estimated parameter, so ``K = k + 1`` [1]_:

    AIC  = n·ln(RSS/n) + 2K
    AICc = AIC + 2K(K+1) / (n − K − 1)          (undefined — inf — when n ≤ K + 1)
    BIC  = n·ln(RSS/n) + K·ln(n)
    wᵢ   = exp(−ΔAICcᵢ/2) / Σⱼ exp(−ΔAICcⱼ/2)

(lmfit's ``aic``/``bic`` use ``K = k``; the ranking of models fitted to the same points is the same,
the small-sample correction is not.) RSS is weighted when the points carry weights.

References
----------
.. [1] K. P. Burnham and D. R. Anderson, *Model Selection and Multimodel Inference*, 2nd ed.,
       Springer 2002, §2.4 (AICc), §2.9 (Akaike weights), §6.4 (BIC).
"""

from __future__ import annotations

import numpy as np

__all__ = ["akaike_weights", "compare_table", "information"]


def information(*, rss: float, n: int, k: int) -> dict:
    """``n``, ``k``, ``df``, ``rss``, ``aic``, ``aicc``, ``bic`` for a least-squares fit with k free parameters."""
    big_k = k + 1
    loglik_term = n * np.log(max(rss, np.finfo(float).tiny) / n)
    aic = loglik_term + 2 * big_k
    aicc = aic + 2 * big_k * (big_k + 1) / (n - big_k - 1) if n - big_k - 1 > 0 else np.inf
    bic = loglik_term + big_k * np.log(n)
    return {"n": int(n), "k": int(k), "df": int(n - k), "rss": float(rss), "aic": float(aic), "aicc": float(aicc),
            "bic": float(bic)}


def akaike_weights(aicc) -> np.ndarray:
    """Akaike weights from AICc values (inf → weight 0; all inf → all NaN)."""
    a = np.asarray(aicc, dtype=float)
    ok = np.isfinite(a)
    if not ok.any():
        return np.full(a.shape, np.nan)
    rel = np.where(ok, np.exp(-(a - a[ok].min()) / 2), 0.0)
    return rel / rel.sum()


def compare_table(result):  # result: a FitResult (not imported: select sits below result)
    """The models side by side, per curve: k, n, RSS, R², AICc, ΔAICc, Akaike weight, BIC, why a fitted model
    could not be chosen (``excluded``) and why a model was not fitted (``not_fitted``)."""
    import pandas as pd

    rows = []
    for key, by_model in result.fits.items():
        aicc = np.array([f.stats["aicc"] for f in by_model.values()])
        weights = akaike_weights(aicc)
        best = np.nanmin(np.where(np.isfinite(aicc), aicc, np.nan)) if np.isfinite(aicc).any() else np.nan
        for (m, f), wt in zip(by_model.items(), weights):
            rows.append({**dict(zip(result.by, key)), "model": m, "k": f.stats["k"], "n": f.stats["n"],
                         "rss": f.stats["rss"], "r2": f.stats["r2"], "aicc": f.stats["aicc"],
                         "delta_aicc": f.stats["aicc"] - best, "akaike_weight": wt, "bic": f.stats["bic"],
                         "chosen": m == result.chosen[key],
                         "excluded": result.selection.get(key, {}).get("excluded", {}).get(m, "")})
        for m, reason in result.failed.get(key, {}).items():
            rows.append({**dict(zip(result.by, key)), "model": m, "k": np.nan, "n": np.nan, "rss": np.nan,
                         "r2": np.nan, "aicc": np.nan, "delta_aicc": np.nan, "akaike_weight": np.nan, "bic": np.nan,
                         "chosen": False, "not_fitted": reason})
    return pd.DataFrame(rows)
