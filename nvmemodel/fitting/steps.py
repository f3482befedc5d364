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


# ---------------------------------------------------------------- set after round 22 was read (XC, YE)
#: axes along which each step adds submitting jobs, each with its own CPU: one job's CPU is no ceiling of their sum
#: (round 22 YE, r22_remoteswap_android-zram_4k-randwrite_libaio_qd1_numjobs: "the ceiling the curve approaches is that
#: job's CPU" where 1, 2, 4, 8 jobs used 0.99, 1.89, 3.67, 7.49 CPUs)
SUBMITTERS = ("numjobs", "jobs", "threads")
#: a latency growth is the submission's where slat carries at least this share of it (more than half: the rest cannot
#: be the larger part). Set after round 22 was read (YE, the zram numjobs series: lat 14.4 → 20.5 µs, slat 13.9 → 19.8
#: µs, clat 0.34 → 0.48 µs, said "part of the added load queued")
SUBMIT_SHARE = 0.5
#: the last doubling's latency growth, on a log scale, at least this share of the load's: with every I/O in flight
#: (Little's law within OCCUPIED of 1) the doubling paid at most 2 ÷ 2^½ = +41 %, the rest waited — over half way
#: from linear to flat. Set after round 22 was read (XC, r22_here-memcg … psync_randread_numjobs_repeats: +18 % for
#: ×1.69 the latency at Little 0.99–1.00, said "no approach to a ceiling is shown")
LAT_SHARE = 0.5
#: Little's law (IOPS × mean latency ÷ outstanding I/O) within this of 1: the I/O asked for was in flight (the
#: occupancy round 22's XA rule reads as ≈ 1: ≥ 0.95)
OCCUPIED = 0.05


def shrinking(x, y) -> list[float] | None:
    """The gains per doubling of every step (≥ 3 steps), each below the one before — however little: a list the words
    must not call "not shrinking" (round 22 XC: "+455 %, +41 %, +18 % … the gains do not shrink"). None otherwise."""
    g = doubling_gains(x, y)
    if g.size < 3 or not np.isfinite(g).all() or not np.all(np.diff(g) < 0):
        return None
    return [float(v) for v in g]


def submit_carried(p, i0: int, i1: int = -1) -> dict | None:
    """fio's mean latency grew from point ``i0`` to ``i1`` and submission (slat) carries at least :data:`SUBMIT_SHARE`
    of the growth of slat + clat: each submission took longer, no queue below the job (round 22 YE). ``{"slat": (a,
    b), "clat": (a, b)}`` or None (no slat/clat columns, or completion carries the growth)."""
    if "slat_mean" not in p or "clat_mean" not in p:
        return None
    s, c = p["slat_mean"].to_numpy(float)[[i0, i1]], p["clat_mean"].to_numpy(float)[[i0, i1]]
    if not (np.isfinite(s).all() and np.isfinite(c).all()):
        return None
    grew = (s[1] + c[1]) - (s[0] + c[0])
    if not grew > 0 or s[1] - s[0] < SUBMIT_SHARE * grew:
        return None
    return {"slat": (float(s[0]), float(s[1])), "clat": (float(c[0]), float(c[1]))}


def latency_took(p, j: int) -> dict | None:
    """The last doubling (point ``j`` → the last) with every I/O asked for in flight at both ends (Little's law within
    :data:`OCCUPIED` of 1) and fio's mean latency grown by at least :data:`LAT_SHARE` of the load's growth (log scale),
    the growth not the submission's (:func:`submit_carried`): the added load mostly waited — an approach to a limit.
    ``{"lat": (a, b), "little": (lo, hi), "share"}`` or None."""
    if "little" not in p or "lat" not in p:
        return None
    x, lat, lit = (p[k].to_numpy(float) for k in ("x", "lat", "little"))
    ends = [j, lat.size - 1]
    if not (np.isfinite(lat[ends]).all() and (lat[ends] > 0).all() and np.isfinite(lit[ends]).all()
            and x[-1] > x[j] > 0):
        return None
    if np.any(np.abs(lit[ends] - 1) > OCCUPIED) or submit_carried(p, j) is not None:
        return None
    share = float(np.log(lat[-1] / lat[j]) / np.log(x[-1] / x[j]))
    if share < LAT_SHARE:
        return None
    return {"lat": (float(lat[j]), float(lat[-1])), "little": (float(lit[ends].min()), float(lit[ends].max())),
            "share": share}


def cost_growth(cpu: dict) -> tuple[float, float] | None:
    """CPU per I/O at the first and the last point of the CPU fact (``cpu_s_per_io``), or None where either is
    missing."""
    c = np.asarray(cpu.get("cpu_s_per_io") or [], float)
    if c.size < 2 or not (np.isfinite(c[[0, -1]]).all() and (c[[0, -1]] > 0).all()):
        return None
    return float(c[0]), float(c[-1])


#: along block size, a last rise under this per doubling of the size (facts.FLAT, the step a level may hold) with IOPS
#: falling at least BYTE_SHARE of ∝ 1/size is nearly a byte limit, not "no ceiling". Set after round 22 was read (XF,
#: r22_opensearch18873_mnt-remote-volume_randread_qd64_bs: +21 % for ×8 the size = +6.4 % per doubling, IOPS ×0.151
#: for a byte cap's ×0.125, said "the data do not reach a ceiling"; r22_mpvmnotes … sync-qd1_bs, +6.5 % per doubling,
#: already said "approaches a byte limit")
SIZE_FLAT = 0.10
#: IOPS falling at least this share of ∝ 1/size on a log scale (×0.151 for ×8: 0.91 of it)
BYTE_SHARE = 0.75


def near_byte_limit(b0: float, b1: float, bw0: float, bw1: float, io0: float, io1: float) -> dict | None:
    """From size ``b0`` to ``b1``: bytes/s gained under :data:`SIZE_FLAT` per doubling of the size while IOPS fell by
    at least :data:`BYTE_SHARE` of ∝ 1/size: ``{"per", "iops_ratio", "cap_ratio"}`` or None."""
    v = np.array([b0, b1, bw0, bw1, io0, io1], float)
    if not (np.isfinite(v).all() and (v > 0).all() and b1 > b0 and bw1 > bw0):
        return None
    per = float((bw1 / bw0) ** (1 / np.log2(b1 / b0)) - 1)
    fell = -float(np.log(io1 / io0) / np.log(b1 / b0))
    if per >= SIZE_FLAT or fell < BYTE_SHARE:
        return None
    return {"per": per, "iops_ratio": float(io1 / io0), "cap_ratio": float(b0 / b1)}
