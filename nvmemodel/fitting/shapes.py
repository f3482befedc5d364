"""Pure scaling shapes: throughput as a function of a load variable (drives, jobs, outstanding I/O).

Every function takes the load ``n`` (array, dimensionless count) first and returns throughput in the
unit of its scale parameter (IOPS or bytes/s — the caller decides). They broadcast, never fit and never
validate: :mod:`nvmemodel.fitting.models` wraps them as bounded lmfit models.

References
----------
.. [1] N. J. Gunther, *Guerrilla Capacity Planning*, Springer 2007, ch. 4–6 (Amdahl, USL, N* = √((1−σ)/κ)).
.. [2] J. D. C. Little, "A proof for the queuing formula L = λW", *Oper. Res.* 9 (1961) 383–387.
.. [3] M. Reiser and S. S. Lavenberg, "Mean-value analysis of closed multichain queuing networks",
       *J. ACM* 27 (1980) 313–322 (exact MVA recursion).
.. [4] docs/physics.md §6 (the knee N* = X_max · R₀ the ceiling model uses).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "amdahl",
    "amdahl_limit",
    "linear",
    "littles_hard",
    "littles_knee",
    "littles_soft",
    "mva",
    "per_io_byte_bytes",
    "per_io_byte_iops",
    "soft_min",
    "usl",
    "usl_peak",
]


def linear(n, x1):
    """``x1 · n``: perfect scaling at ``x1`` per unit of load."""
    return x1 * np.asarray(n, dtype=float)


def amdahl(n, x1, sigma):
    """Amdahl's law as a throughput curve: ``x1·n / (1 + σ(n−1))`` [1]_ (σ = serial fraction)."""
    n = np.asarray(n, dtype=float)
    return x1 * n / (1.0 + sigma * (n - 1.0))


def usl(n, x1, sigma, kappa):
    """Universal Scalability Law ``x1·n / (1 + σ(n−1) + κ·n(n−1))`` [1]_.

    σ (contention) and κ (coherency, crosstalk) are dimensionless and non-negative; κ > 0 makes
    throughput peak at :func:`usl_peak` and fall beyond it.
    """
    n = np.asarray(n, dtype=float)
    return x1 * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0))


def usl_peak(sigma: float, kappa: float) -> float:
    """Load at which the USL peaks, ``N* = √((1−σ)/κ)`` [1]_ (inf when κ = 0 or σ ≥ 1)."""
    if kappa <= 0 or sigma >= 1:
        return float("inf")
    return float(np.sqrt((1.0 - sigma) / kappa))


def amdahl_limit(x1: float, sigma: float) -> float:
    """Throughput an Amdahl curve approaches as n → ∞: ``x1 / σ`` (inf when σ = 0)."""
    return float(x1 / sigma) if sigma > 0 else float("inf")


def littles_hard(n, x_max, r0):
    """Little's law with a latency floor and a cap [2]_: ``min(n / r0, x_max)``.

    ``n`` outstanding I/Os, ``r0`` the latency at one outstanding I/O (s), ``x_max`` the cap (1/s).
    """
    with np.errstate(divide="ignore"):  # r0 = 0 (a bound probed by a sensitivity check): no latency floor
        return np.fmin(np.asarray(n, dtype=float) / r0, x_max)


def littles_knee(x_max: float, r0: float) -> float:
    """Outstanding I/O where :func:`littles_hard` reaches its cap: ``N* = x_max · r0`` [4]_."""
    return float(x_max * r0)


def soft_min(values, p):
    """Generalized-mean soft minimum ``(Σ vᵢ^−p)^(−1/p)`` of positive arrays (p > 0).

    Always ≤ the hard minimum and tends to it as p → ∞; a small p bends gradually. Infinite entries
    (absent limits) drop out. Computed in log space so that large p does not overflow.
    """
    v = np.stack(np.broadcast_arrays(*[np.asarray(a, dtype=float) for a in values]))
    with np.errstate(divide="ignore"):
        logs = -p * np.log(v)
    m = np.max(logs, axis=0)
    return np.exp(-(m + np.log(np.sum(np.exp(logs - m), axis=0))) / p)


def littles_soft(n, x_max, r0, p):
    """Little's law and its cap joined by :func:`soft_min` with sharpness ``p``."""
    with np.errstate(divide="ignore"):
        rate = np.asarray(n, dtype=float) / r0
    return soft_min((rate, np.broadcast_to(x_max, np.shape(n))), p)


def mva(n, x_max, r0):
    """Exact mean-value analysis [3]_ of a closed network with ``n`` customers (outstanding I/Os).

    One queueing station with service demand ``D = 1/x_max`` (the saturating resource) and a pure
    delay ``Z = r0 − D`` (the rest of the QD-1 latency: flash read, transfer, interrupt). The
    recursion ``R(k) = D·(1 + Q(k−1))``, ``X(k) = k / (R(k) + Z)``, ``Q(k) = X(k)·R(k)`` gives
    ``X(1) = 1/r0`` and ``X(k) → x_max`` with a soft knee near ``x_max · r0``. Non-integer ``n``
    interpolate linearly between integer populations. Requires ``r0 ≥ 1/x_max``; a smaller ``r0``
    is clipped to it (a zero delay).
    """
    n = np.asarray(n, dtype=float)
    d = 1.0 / x_max
    z = max(r0 - d, 0.0)
    top = int(np.ceil(np.nanmax(n))) if n.size else 0
    x = [0.0]
    q = 0.0
    for k in range(1, top + 1):
        r = d * (1.0 + q)
        x.append(k / (r + z))
        q = x[k] * r
        if x_max - x[k] <= 1e-10 * x_max:  # saturated (to 1e-10): every larger population gives the same
            break
    return np.interp(n, np.arange(len(x)), np.asarray(x))  # beyond the last population computed: its value


def per_io_byte_iops(n, iops_max, bw_max):
    """IOPS at block size ``n`` (bytes) when every I/O costs ``1/iops_max`` and every byte ``1/bw_max`` of the
    binding resource's time: ``1 / (1/iops_max + n/bw_max)`` (the IOPS ceiling at small blocks, the bandwidth
    ceiling at large ones)."""
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore"):
        return 1.0 / (1.0 / iops_max + n / bw_max)


def per_io_byte_bytes(n, iops_max, bw_max):
    """Bytes/s at block size ``n`` of :func:`per_io_byte_iops`: ``n / (1/iops_max + n/bw_max)``."""
    return np.asarray(n, dtype=float) * per_io_byte_iops(n, iops_max, bw_max)


def per_io_byte_crossover(iops_max: float, bw_max: float) -> float:
    """Block size where the per-I/O and per-byte costs are equal: ``b* = bw_max / iops_max`` (bytes)."""
    return float(bw_max / iops_max) if iops_max > 0 else float("inf")
