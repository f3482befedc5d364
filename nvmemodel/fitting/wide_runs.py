"""A point whose runs lie far apart: its mean hangs on one run, so a step to or from it is read by medians and overlap.

Three runs of one point at 33.96 / 4.25 / 4.17 K IOPS have a mean (14.12 K) no run sat near; a step percentage from that
mean ("+355 % (1 → 2)") is one run's, not the point's. Where a point's kept runs (the stall test's left out) differ by
more than :data:`WIDE_RUNS` (largest ÷ smallest), the steps to and from it are given by the points' medians, with
whether every run of one point lies above every run of the other, and the noise sentence says which points' runs are
that wide instead of "their spread the noise" (set after round 24 was read, CG: r24_here-hipri pvsync2 numjobs,
"+355 % (1 → 2)" from means over 1-job runs ×8.1 apart; r24_here-memcgmmap numjobs "-25 % (1 → 2)", runs ×4.9;
r24_here-posixaio numjobs "+166 % (1 → 2)", runs ×3.2).
"""
from __future__ import annotations

import numpy as np

from .wording import fmt_y, span

#: a point's kept runs whose largest is more than this many times their smallest are "wide": the mean is then one
#: run's as much as the point's (the factor of :data:`~nvmemodel.fitting.point_runs.SPLIT_RATIO`, the gap that splits
#: sorted neighbours, taken over the whole range) (set after round 24 was read, CG: ×3.2–×8.1 apart left under "3 runs a
#: point, their spread the noise")
WIDE_RUNS = 2.0


def _kept(p, i) -> np.ndarray:
    if "runs_kept" not in p:
        return np.array([])
    k = np.asarray(p["runs_kept"].iloc[i], float)
    return k[np.isfinite(k)]


def wide_at(p) -> list[int]:
    """Indices of the points whose kept runs (≥ 2, all > 0) differ by more than :data:`WIDE_RUNS`."""
    out = []
    for i in range(len(p)):
        k = _kept(p, i)
        if k.size >= 2 and k.min() > 0 and k.max() > WIDE_RUNS * k.min():
            out.append(i)
    return out


def overlap_words(result, p, a: int, b: int) -> str:
    """Whether every kept run at point ``b`` lies above (or below) every kept run at point ``a``; else "overlap"."""
    from .fact_words import _xv

    ka, kb = _kept(p, a), _kept(p, b)
    xa, xb = _xv(result, float(p["x"].iloc[a])), _xv(result, float(p["x"].iloc[b]))
    if kb.min() > ka.max():
        return f"every run at {xb} above every run at {xa}"
    if kb.max() < ka.min():
        return f"every run at {xb} below every run at {xa}"
    return f"the runs at {xa} and {xb} overlap"


def median_step(result, p, a: int, b: int, pct) -> str | None:
    """A step between points ``a`` and ``b`` (consecutive) read by medians where either point is wide: "+1087% by the
    medians (1 → 2; every run at 2 above every run at 1)"; None where neither is wide."""
    from .fact_words import _xv

    wide = wide_at(p)
    if a not in wide and b not in wide:
        return None
    ma, mb = float(np.median(_kept(p, a))), float(np.median(_kept(p, b)))
    xa, xb = float(p["x"].iloc[a]), float(p["x"].iloc[b])
    g = (mb / ma) ** (1 / np.log2(xb / xa)) - 1 if ma > 0 and xb > xa > 0 else np.nan
    if not np.isfinite(g):
        return None
    return f"{pct(g)} by the medians ({_xv(result, xa)} → {_xv(result, xb)}; {overlap_words(result, p, a, b)})"


def first_words(result, p, i: int) -> str | None:
    """The first value of a step list at a wide point: its median, with its runs' range."""
    if i not in wide_at(p):
        return None
    k, u = _kept(p, i), result.y_unit
    return (f"{fmt_y(float(np.median(k)), u)} (the median; runs "
            f"{span(fmt_y(float(k.min()), u), fmt_y(float(k.max()), u), ' to ')})")


def point_values(p) -> np.ndarray:
    """Each point's value as a sentence reads it: the kept runs' median at a wide point (:func:`wide_at`), the point's
    own value (``y``, its mean) elsewhere — on any axis (set after round 26 was read, FA: along block size
    "Measured IOPS fall from 46.87 K IOPS at 4 KiB", the mean of runs at 6.02 / 58.29 / 76.30 K IOPS)."""
    v = p["y"].to_numpy(float).copy()
    for i in wide_at(p):
        v[i] = float(np.median(_kept(p, i)))
    return v


def wide_noise_words(result, p, axis: str, read: str | None = None) -> str | None:
    """"the runs of one numjobs differ by more than ×2 at numjobs = 1 (×8.15: 4.17 K IOPS to 33.96 K IOPS): …" — the
    wide points said, and how their steps are read (``read``: what the sentence reads there instead, where it reads no
    steps); None where no point is wide."""
    from .fact_words import _xv

    wide = wide_at(p)
    if not wide:
        return None
    u = result.y_unit
    at = ", ".join(f"{_xv(result, float(p['x'].iloc[i]))} (×{_kept(p, i).max() / _kept(p, i).min():.3g}: "
                   f"{span(fmt_y(float(_kept(p, i).min()), u), fmt_y(float(_kept(p, i).max()), u), ' to ')})"
                   for i in wide)
    how = read or (f"a step to or from {'that point' if len(wide) == 1 else 'those points'} is read by the medians "
                   f"and whether the runs overlap, not by the means")
    return (f"the runs of one {axis} differ by more than ×{WIDE_RUNS:.3g} at {axis} = {at}: a mean there hangs on "
            f"one run, so {how}")
