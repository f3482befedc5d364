"""What a curve's runs say about its noise, computed once from the points and named in words from that fact only.

A "beyond noise" verdict names its yardstick. Where it is not every point's repeats, the words used to come from
fixed texts ("one run a point", "no fit that describes them") whatever the series held. This module keeps the facts
those words need — how many points were repeated and with how many runs, the widest run-to-run spread at any point,
and why a fit gave no noise — and words them (set after round 20 was read, RA: r20_nerdst_nvme-p7_randread_qd1_bs,
"one run a point" where two of six points had two runs; r20_xeome_zram-lz4-rpi4_read_bs, "no fit that describes
them" beside an R² 0.9993 fit whose two parameters left 4 points 2 degrees of freedom).

**The widest spread stands for the points of one run.** Where some points were repeated, a point's noise is its own
runs' where it has them; a point of one run is given the largest relative run-to-run standard deviation measured at
any point of the series (its own scatter is not known, and the series shows how far one run can stray) — a step that
rests on a one-run point must exceed that (set after round 20 was read, RB: r20_nerdst_nvme-p7_seqread_qd1_bs, a
−45 % "fall" to one 256 KiB run judged against "±10 %" where the two 128 KiB runs differ ×1.46).
"""

from __future__ import annotations

import numpy as np

#: the ±band a level is read within with one run a point (= facts.FLAT; not imported: facts imports this module's
#: user, evidence)
FLAT = 0.10

__all__ = ["noise_basis", "noise_floor", "reversal", "runs_words", "why_no_noise"]


def noise_floor(y, sd, n) -> np.ndarray | None:
    """The standard error each point's mean has at least, where some (not all) points were repeated: a repeated
    point's own ``sd``/√``n``, a one-run point the largest relative sd of any repeated point times its value. None
    where no point or every point was repeated (the repeats' own rule applies then)."""
    y, sd, n = (np.asarray(a, float) for a in (y, sd, n))
    rep = (n >= 2) & np.isfinite(sd) & (y > 0)
    if not rep.any() or rep.all():
        return None
    cv = float(np.max(sd[rep] / y[rep]))
    return np.where(rep, np.where(rep, sd, 0.0) / np.sqrt(np.where(rep, n, 1.0)), cv * np.abs(y))


def noise_basis(pts, x: str, best=None, describes: bool = True) -> dict:
    """The facts a noise phrase may state: ``points``, ``repeated`` (points with ≥ 2 runs), ``runs`` (the fewest and
    most runs a point), ``widest`` (``{x, ratio, cv}``: the repeated point whose runs spread most, its runs' largest
    over smallest estimated as (1 + cv)/(1 − cv) from two runs' sd, or None), and the fit that would give a noise
    without repeats (``fit``, ``fit_df``, ``fit_r2``, ``fit_describes``; None where there was none)."""
    n = pts["n_runs"].to_numpy(float) if "n_runs" in pts else np.ones(len(pts))
    n = np.where(np.isfinite(n) & (n >= 1), n, 1.0)
    out: dict = {"points": int(n.size), "repeated": int(np.sum(n >= 2)),
                 "runs": (int(n.min()), int(n.max())) if n.size else (1, 1), "widest": None}
    if "y_std" in pts and out["repeated"]:
        y, sd = pts["y"].to_numpy(float), pts["y_std"].to_numpy(float)
        rep = (n >= 2) & np.isfinite(sd) & (y > 0)
        if rep.any():
            cv = np.where(rep, sd / np.where(y > 0, y, 1.0), -1.0)
            k = int(np.argmax(cv))
            # two runs a standard deviation s apart from their mean m lie at m ± s/√2: their ratio
            half = cv[k] / np.sqrt(2.0)
            out["widest"] = {"x": float(pts[x].to_numpy(float)[k]), "cv": float(cv[k]),
                             "ratio": float((1 + half) / (1 - half)) if half < 1 else np.inf}
    if best is not None:
        out.update(fit=getattr(getattr(best, "shape", None), "name", None) or "model", fit_df=int(best.stats.get("df", 0)),
                   fit_r2=float(best.stats.get("r2", np.nan)), fit_describes=bool(describes))
    return out


def runs_words(b: dict) -> str:
    """"one run a point", "2 runs a point", "repeats at 2 of 6 points only: 1–2 runs a point" — from the counts."""
    if not b:
        return ""
    lo, hi = b["runs"]
    if b["repeated"] == 0:
        return "one run a point"
    if b["repeated"] == b["points"]:
        return f"{lo} runs a point" if lo == hi else f"{lo}–{hi} runs a point"
    return f"repeats at {b['repeated']} of {b['points']} points only: {lo}–{hi} runs a point"


def band_not_noise(b: dict) -> bool:
    """A repeated point's runs stray from their mean by more than the ±FLAT a level is read within: that band is not
    the noise of this series."""
    w = (b or {}).get("widest")
    return bool(w and w["cv"] / np.sqrt(2.0) > FLAT)


def why_no_noise(b: dict) -> str:
    """Why the series has no noise estimate, from the fit facts: no fit to take it from, a fit that describes the
    points but leaves too few degrees of freedom (< 3) to estimate a scatter, or one that does not describe them."""
    fit = (b or {}).get("fit")
    if fit is None:
        return "no fit to estimate it from"
    df = b.get("fit_df", 0)
    if b.get("fit_describes") and df < 3:
        return (f"the {fit} fit describes them (R² = {b['fit_r2']:.4g}) but leaves {df} degree{'' if df == 1 else 's'} "
                f"of freedom, too few to estimate a noise from its scatter")
    return "no fit that describes them"


def max_runs_words(result, cf, m: dict) -> str:
    """What a stated maximum rests on: "(sd s over n runs)", or — where a kept run of that point lies above the mean by
    more than the ±FLAT band — the runs' range, so no figure below a measured run is given as the most measured
    (round 20 RB: "reaches 1.43 GB/s" where a 128 KiB run made 1.70 GB/s). "" without repeats."""
    from .wording import fmt_y, span

    u = result.y_unit
    if not np.isfinite(m.get("spread", np.nan)):
        return ""
    if cf is not None and "level_hi" in cf.points and "x" in cf.points:
        p = cf.points
        at = np.isclose(p["x"].to_numpy(float), float(m["x"]))
        if at.sum() == 1:
            lo, hi = float(p["level_lo"][at].iloc[0]), float(p["level_hi"][at].iloc[0])
            if hi > (1 + FLAT) * float(m["y"]):
                return f" (the mean of {m['runs']} runs, {span(fmt_y(lo, u), fmt_y(hi, u))})"
    return f" (sd {fmt_y(m['spread'], u)} over {m['runs']} runs)"


#: a run more than this below both its point's median and its point's fastest run is a slowed run, left out of the
#: last step's verdict as the level rule leaves it out of a level (= facts.DISTURBED; not imported, as FLAT)
SLOWED = 0.2


def step_runs(p, i: int) -> np.ndarray | None:
    """Point ``i``'s kept runs (the stalled ones out, ``runs_kept``) with the slowed ones also left out — more than
    :data:`SLOWED` below both the point's median run and its fastest run, the level rule's test (facts._robust_level)
    read within the point (set after round 21's fixes were reviewed: r9_here-think … ttblocks-eq-qd iodepth, runs
    2604 / 8644 / 9322 at 16 and 6302 / 15351 / 16471 at 32, "+85 %, within its runs' noise" by one disturbed run a
    point; aialra0 … qd32 bs, a 512 KiB run at −22 % pulling the step to "+11 %" where the others give +3.6 %); None
    where the table does not give the runs, fewer than two are kept, or the kept runs spread beyond the ±FLAT band
    a level is read within — runs that scatter anyway, not a few apart from a tight rest, as the level rule reads them
    (r21_here-syncfr … randwrite bs, VH: 64 KiB's runs 1.07–1.50 GB/s keep the last step within)."""
    if "runs_kept" not in p or "kept_runs" not in p or not p["kept_runs"].iloc[i] > 0:
        return None
    v = np.asarray(p["runs_kept"].iloc[i], float)
    if v.size < 2 or not np.isfinite(v).all():
        return None
    low = (v < (1 - SLOWED) * np.median(v)) & (v < (1 - SLOWED) * v.max())
    k = v[~low]
    if k.size < 2 or k.max() - k.min() > 2 * FLAT * k.mean():
        return None
    return k


#: a last step whose kept runs (:func:`step_runs`) gain at least this per doubling of x is the series' rise, not its
#: noise, though one slowed run a point widens the point's spread past it (= facts.PAYS, the gain a doubling must
#: bring; set after round 21's fixes were reviewed: r9_here-think ttblocks, +78 % by the medians where each doubling
#: gave ×1.7–2.0; aialra0 qd32 bs, +3.6 %, stays within)
STEP_PAYS = 0.10


def _stats(p, robust: bool):
    k = len(p)
    if robust:
        a, b = step_runs(p, k - 2), step_runs(p, k - 1)
        if a is None or b is None:
            return None
        return (np.array([a.mean(), b.mean()]), np.array([a.std(ddof=1), b.std(ddof=1)]),
                np.array([float(a.size), float(b.size)]))
    y, sd, n = (p[c].to_numpy(float)[-2:] for c in ("y", "y_std", "n_runs"))
    if not (np.isfinite(sd).all() and np.isfinite(n).all() and (n >= 2).all()):
        return None
    return y, sd, n


def _within(st) -> bool:
    y, sd, n = st
    return bool(abs(y[1] - y[0]) <= 2.0 * float(np.hypot(*(sd / np.sqrt(n)))))


def last_two(p) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The last two points' mean, sd and run count: the kept runs' (:func:`step_runs`, a slowed run left out) where
    both give them, else the point table's; None where either has one run."""
    if len(p) < 2 or "y_std" not in p or "n_runs" not in p:
        return None
    return _stats(p, True) or _stats(p, False)


def last_step_within(p) -> bool | None:
    """The one verdict on a curve's last step that every sentence shares (set after round 20 was read, SB:
    r20_here-devcount … psync randwrite, "still rises … the last step added +21 %" beside "the last step (+21 %) is
    within the repeats' noise"): True where both of the last two points were repeated and their means differ by no
    more than twice the standard error of the difference (sd/√n of each), False where they differ by more, None
    where either has one run (no runs to judge it by). A step within the noise of all the runs is not within it where
    the kept runs (:func:`step_runs`, a slowed run left out) put it beyond theirs and it gains :data:`STEP_PAYS` or
    more per doubling of x: one disturbed run a point does not make a rise noise."""
    if len(p) < 2 or "y_std" not in p or "n_runs" not in p:
        return None
    base = _stats(p, False)
    if base is None:
        return None
    if not _within(base):
        return False
    rob = _stats(p, True)
    if rob is not None and not _within(rob) and "x" in p:
        x = p["x"].to_numpy(float)[-2:]
        y = rob[0]
        if x[0] > 0 and x[1] > x[0] and y[0] > 0 and y[1] > y[0] \
                and (y[1] / y[0]) ** (1 / np.log2(x[1] / x[0])) - 1 >= STEP_PAYS:
            return False
    return True


def last_alone_words(result, p, x_from: float, x_to: float) -> str:
    """'; the last step alone (64 KiB → 256 KiB, +22%) is within its runs' noise' where a rise is read over a span
    that starts before the last step and ends at the last point while that last step is within its runs
    (:func:`last_step_within`); "" otherwise. A rise said over 16 KiB → 256 KiB without it hides that the last point
    cannot be told from the one before (set after round 21 was read: r21_here-syncfr … randwrite bs, "+94 %, beyond the
    repeat noise" over 64 KiB's 1.29 GB/s, runs 1.07–1.50 overlapping 256 KiB's 1.32–1.75, part 1 VH). The step is
    the kept runs' (a slowed run left out, :func:`last_two`)."""
    from .wording import xv as _xv

    xs = p["x"].to_numpy(float)
    if xs.size < 3 or not np.isclose(x_to, xs[-1]) or x_from >= xs[-2] or not last_step_within(p):
        return ""
    two = last_two(p)
    if two is None:
        return ""
    y = two[0]
    return (f"; the last step alone ({_xv(result, xs[-2])} → {_xv(result, xs[-1])}, {y[1] / y[0] - 1:+.0%}) is "
            f"within its runs' noise")


def reversal(x, y) -> dict | None:
    """The largest step down on a curve's rise — between successive points, both before its highest point — where
    it exceeds the ±:data:`FLAT` band: ``{x0, x1, fall}``; else None. With one run a point it is the series' own
    measure of how far a single run strays (more load should not lower the rate on the way up), and a step no larger
    is not told from it (set after round 21 was read, VG: r21_cephvn_rbd-3hdd-osd-rep3_4k-randwrite_qd, a plateau read
    from two single-run points, −6 % apart after +21 %, while the rise stepped back −14 % at QD 8 → 16; read before it
    was set: that case only — the band is the one a level is read within, not a new threshold)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if y.size < 3 or not np.isfinite(y).all() or not (y > 0).all():
        return None
    top = int(np.argmax(y))
    best = None
    for i in range(top - 1):  # steps i → i + 1 with i + 1 < top
        fall = 1.0 - y[i + 1] / y[i]
        if fall > FLAT and (best is None or fall > best["fall"]):
            best = {"x0": float(x[i]), "x1": float(x[i + 1]), "fall": float(fall)}
    return best
