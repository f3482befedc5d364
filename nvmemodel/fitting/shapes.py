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
    "constant",
    "amdahl",
    "amdahl_limit",
    "linear",
    "littles_hard",
    "littles_knee",
    "littles_soft",
    "mva",
    "mva_closed_form",
    "per_io_byte_bytes",
    "per_io_byte_iops",
    "soft_min",
    "usl",
    "usl_peak",
]


def constant(n, level):
    """``level`` at every n: x is not a load (a synchronous engine's iodepth)."""
    return np.full(np.shape(np.asarray(n, dtype=float)), float(level))


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


#: populations up to which :func:`mva` runs the exact recursion; beyond it, the same values in closed form
MVA_CAP = 4096


def mva(n, x_max, r0):
    """Exact mean-value analysis [3]_ of a closed network with ``n`` customers (outstanding I/Os).

    One queueing station with service demand ``D = 1/x_max`` (the saturating resource) and a pure
    delay ``Z = r0 − D`` (the rest of the QD-1 latency: flash read, transfer, interrupt). The
    recursion ``R(k) = D·(1 + Q(k−1))``, ``X(k) = k / (R(k) + Z)``, ``Q(k) = X(k)·R(k)`` gives
    ``X(1) = 1/r0`` and ``X(k) → x_max`` with a soft knee near ``x_max · r0``. Non-integer ``n``
    interpolate linearly between integer populations. Requires ``r0 ≥ 1/x_max``; a smaller ``r0``
    is clipped to it (a zero delay).

    The recursion runs to the largest ``n`` up to :data:`MVA_CAP` or to saturation (``x_max`` to 1e-10),
    whichever comes first; populations beyond the cap (a knee far beyond it, or ``x`` that is not a queue
    depth) take the closed form of the same network (:func:`mva_closed_form`), equal to the recursion to
    ~1e-13, so no evaluation iterates more than :data:`MVA_CAP` times however large ``n`` or the knee.
    """
    shape = np.shape(n)
    n = np.atleast_1d(np.asarray(n, dtype=float))
    d = 1.0 / x_max
    z = max(r0 - d, 0.0)
    near = np.isfinite(n) & (n <= MVA_CAP)
    top = int(np.ceil(np.max(n[near]))) if near.any() else 0
    x = _mva_recursion(top, x_max, z)
    out = np.interp(n, np.arange(len(x)), x)  # beyond the last population computed: its value
    far = np.isfinite(n) & (n > MVA_CAP)
    if far.any():
        lo, hi = np.floor(n[far]), np.ceil(n[far])
        xl, xh = mva_closed_form(lo, x_max, r0), mva_closed_form(hi, x_max, r0)
        out[far] = xl + (n[far] - lo) * (xh - xl)
    out[np.isposinf(n)] = x_max  # (an unbounded population saturates the station)
    return out.reshape(shape) if shape else out[0]


def _mva_recursion(top: int, x_max: float, z: float) -> np.ndarray:
    """``X(0) … X(m)`` of the exact MVA recursion, ``m ≤ top``: it stops once ``X`` is within 1e-10 of ``x_max``."""
    d = 1.0 / x_max
    x = [0.0]
    q = 0.0
    for k in range(1, top + 1):
        r = d * (1.0 + q)
        x.append(k / (r + z))
        q = x[k] * r
        if x_max - x[k] <= 1e-10 * x_max:  # saturated (to 1e-10): every larger population gives the same
            break
    return np.asarray(x)


def mva_closed_form(n, x_max, r0):
    """Throughput of the network of :func:`mva` at integer populations ``n ≥ 1`` without the recursion.

    One exponential station and a delay is the machine-repairman model, whose idle probability at ``N``
    customers is Erlang's B formula with ``N`` servers and offered load ``ρ = Z/D`` [5]_, so
    ``X(N) = x_max · (1 − B(N, ρ)) = x_max · P(N−1; ρ) / P(N; ρ)`` with ``P`` the Poisson cumulative
    distribution of mean ``ρ``. Computed as that ratio (``scipy.special.pdtr``) except more than 25 standard
    deviations below ``ρ``, where ``P`` underflows and the ratio is ``1 / (1 + 1/(N·G(N, ρ)))`` with
    ``Γ(N, ρ) = e^−ρ ρ^N G(N, ρ)`` from Legendre's continued fraction (Lentz; ≤ 10 terms there, 200 at most).

    .. [5] L. Kleinrock, *Queueing Systems* vol. 1, Wiley 1975, §3.9 (finite-source M/M/1//N).
    """
    from scipy import special

    n = np.asarray(n, dtype=float)
    d = 1.0 / x_max
    rho = max(r0 - d, 0.0) / d
    if rho == 0.0:
        return np.full(n.shape, float(x_max))
    deep = n <= rho - 25.0 * np.sqrt(rho)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = special.pdtr(n - 1.0, rho) / special.pdtr(n, rho)
    if np.any(deep):
        g = _upper_gamma_cf(n[deep], rho)
        ratio = np.where(deep, 1.0, ratio)
        ratio[deep] = 1.0 / (1.0 + 1.0 / (n[deep] * g))
    return x_max * ratio


def _upper_gamma_cf(a, x: float, max_terms: int = 200) -> np.ndarray:
    """``G(a, x) = Γ(a, x)·e^x·x^−a`` by the modified Lentz method on Legendre's continued fraction (x > a + 1)."""
    a = np.asarray(a, dtype=float)
    tiny = 1e-300
    b = x + 1.0 - a
    c = np.full(a.shape, 1.0 / tiny)
    dd = 1.0 / b
    h = dd.copy()
    for i in range(1, max_terms + 1):
        an = -i * (i - a)
        b = b + 2.0
        dd = an * dd + b
        dd = np.where(np.abs(dd) < tiny, tiny, dd)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        dd = 1.0 / dd
        step = dd * c
        h = h * step
        if np.all(np.abs(step - 1.0) < 1e-15):
            return h
    raise ArithmeticError(f"the continued fraction for Γ({a}, {x}) did not converge in {max_terms} terms")


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
