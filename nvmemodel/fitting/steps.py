"""The shape of a curve along a load axis, step by step: the gain per doubling of load of every step, whether those
gains shrink (a bend towards a ceiling) or hold (a steady rise), and the level a curve falls to after its peak.

Set after round 20 was read (``_blind_rounds/round20_hand_read_*.md``):

- SF (r20_gb10notes … qd): a still-rising curve told by its last step only ("+13 % per doubling"), where its steps
  were +75 %, +35 %, +13 % per doubling — a bend, unsaid; every step's gain and the first value are said.
- RF (r20_tutsunom_sdb-hdd … numjobs): "approaching a ceiling" said of +14, +23, +21, +21, +20 % per doubling (runs
  within ±1.4 %): nothing bends. A ceiling is "approached" only where the gain per doubling falls step over step,
  over the last two steps at least, each fall beyond the noise (:func:`bends`).
- SE (r20_here-devcount … seqread128k): a peak, then one step down (2 → 3 devices, every run apart) to a lower level
  held to the last point, said as "falls 33 % to 4.74 GB/s at 6" — a slide. :func:`level_after_fall` gives where the
  fall happens and the level after it.

Pure numbers: the words are ``fact_claims``'.
"""
from __future__ import annotations

import math

import numpy as np

#: without repeats, a gain per doubling must fall by more than this (in points of gain) to count as a fall: below it
#: two steps' gains are not told apart from a table's rounding and a run's scatter (facts.LEVEL_STEP, the step a level
#: may hold)
GAIN_STEP = 0.05
#: a level after a fall: every point after the step down within ±this of the level's mean (facts.FLAT)
LEVEL_BAND = 0.10


def doubling_gains(x, y) -> np.ndarray:
    """Each step's gain per doubling of x, ``(y[i+1]/y[i])^(1/log2(x[i+1]/x[i])) − 1`` (NaN where not defined)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    with np.errstate(all="ignore"):
        return (y[1:] / y[:-1]) ** (1.0 / np.log2(x[1:] / x[:-1])) - 1.0


def gain_noise(x, y, sd, reps) -> np.ndarray | None:
    """Twice the standard error of each step's gain per doubling from the repeats (the means' relative standard
    errors, combined), or None where a point of the curve has fewer than 2 runs or no sd."""
    x, y, sd, reps = (np.asarray(v, float) for v in (x, y, sd, reps))
    if not (np.isfinite(sd).all() and np.isfinite(reps).all() and (reps >= 2).all() and (y > 0).all()):
        return None
    rel = sd / np.sqrt(reps) / y  # each mean's relative standard error
    g = doubling_gains(x, y)
    with np.errstate(all="ignore"):
        d = np.log2(x[1:] / x[:-1])
        return 2.0 * (1.0 + g) / d * np.hypot(rel[1:], rel[:-1])


def bends(x, y, sd=None, reps=None, last: int = 3) -> dict | None:
    """The gains per doubling of the last ``last`` steps (≥ 3 steps, so two falls) each below the one before by more
    than :data:`GAIN_STEP` and, where every point has repeats, twice the standard error of the difference of the two
    gains: the curve bends (its added load pays less and less). ``{"gains": …, "from_index": i}`` or None (a steady or
    irregular rise)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    g = doubling_gains(x, y)
    if g.size < last or not np.isfinite(g[-last:]).all():
        return None
    for i in range(g.size - last + 1, g.size):
        if not _falls(x, y, sd, reps, i):
            return None
    return {"gains": [float(v) for v in g[-last:]], "from_index": int(g.size - last)}


def _falls(x, y, sd, reps, i: int) -> bool:
    """Step ``i``'s gain per doubling is below step ``i − 1``'s by more than :data:`GAIN_STEP` and, where every point
    has repeats, by more than twice the standard error of the two gains' difference."""
    g = doubling_gains(x, y)
    noise = gain_noise(x, y, sd, reps) if sd is not None and reps is not None else None
    margin = GAIN_STEP if noise is None else max(GAIN_STEP, float(math.hypot(noise[i - 1], noise[i])))
    return bool(np.isfinite(g[[i - 1, i]]).all() and g[i - 1] - g[i] > margin)


def last_falls(x, y, sd=None, reps=None) -> bool:
    """The last step's gain per doubling is below the one before beyond the noise (:func:`_falls`): one step that
    slowed, not yet a trend (:func:`bends` needs two)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    return x.size >= 3 and _falls(x, y, sd, reps, x.size - 2)


def level_after_fall(x, y, lo, hi, i_max: int) -> dict | None:
    """After a peak at ``i_max``: the fall in one step — every run of the next point below every run of the peak
    (``lo``/``hi``: each point's lowest and highest kept run) — then the points from there to the last (≥ 2) within
    :data:`LEVEL_BAND` of their mean: ``{"x_from", "x_to", "lo", "hi", "runs_lo", "runs_hi", "step"}`` (the step's
    own change, the level's point values and its runs' range), or None where the fall is spread over the steps."""
    x, y, lo, hi = (np.asarray(v, float) for v in (x, y, lo, hi))
    after = np.arange(i_max + 1, y.size)
    if after.size < 2 or not (np.isfinite(lo[[i_max, i_max + 1]]).all() and np.isfinite(hi[[i_max, i_max + 1]]).all()):
        return None
    if not hi[i_max + 1] < lo[i_max]:  # the step down is beyond the runs of the two points
        return None
    mean = float(y[after].mean())
    if not np.all(np.abs(y[after] / mean - 1) <= LEVEL_BAND):
        return None
    step = float(y[i_max + 1] / y[i_max] - 1)
    rest = float(y[-1] / y[i_max + 1] - 1)
    if abs(rest) >= abs(step) / 2:  # the level's own drift must stay well below the one step down
        return None
    return {"x_from": float(x[after[0]]), "x_to": float(x[-1]), "lo": float(y[after].min()), "hi": float(y[after].max()),
            "runs_lo": float(np.nanmin(lo[after])), "runs_hi": float(np.nanmax(hi[after])), "step": step,
            "points": int(after.size)}


def term_shown(b, t, w, a: float) -> bool:
    """The per-I/O term ``a`` of a weighted least-squares line t = a + c·b is shown by the points: its estimate lies
    beyond the 95 % interval of zero that the line's own relative misses give (Student's t, n − 2 degrees of freedom).
    A per-I/O time below the smallest size's bytes time is still measured where the line fits that closely (set after
    round 20 was read: SG, r20_jherskovic_iscsi-truenas-lan_seqread-qd1_bs, 415 µs per command + size ÷ 98.5 MB/s
    within 0.35 % at 256 KiB–8 MiB, a bend at ~41 KB below the sizes measured)."""
    from scipy import stats

    b, t, w = (np.asarray(v, float) for v in (b, t, w))
    n = b.size
    if n < 4 or not a > 0:
        return False
    X = np.stack([np.ones_like(b), b], 1)
    A = X.T @ (w[:, None] * X)
    try:
        cov = np.linalg.inv(A)
    except np.linalg.LinAlgError:
        return False
    coef = cov @ (X.T @ (w * t))
    r = np.sqrt(w) * (t - X @ coef)  # the relative misses (w = 1/t²)
    s2 = float((r ** 2).sum() / (n - 2))
    se = math.sqrt(s2 * cov[0, 0])
    return bool(a > stats.t.ppf(0.975, n - 2) * se)


def top_band(b, bw, band: float = LEVEL_BAND) -> dict | None:
    """The largest sizes whose bytes/s lie within ``band`` of one another (largest ÷ smallest ≤ 1 + band, from the
    largest size back; ≥ 2 sizes), with the size just below the band: ``{"i": first index, "lo", "hi", "below"}``,
    "below" None where the band starts at the first size."""
    b, bw = np.asarray(b, float), np.asarray(bw, float)
    j = bw.size - 1
    while j > 0 and bw[j - 1:].max() <= (1 + band) * bw[j - 1:].min():
        j -= 1
    if j > bw.size - 2:
        return None
    return {"i": int(j), "lo": float(bw[j:].min()), "hi": float(bw[j:].max()), "x": (float(b[j]), float(b[-1])),
            "n": int(bw.size - j), "below": int(j - 1) if j > 0 else None}
