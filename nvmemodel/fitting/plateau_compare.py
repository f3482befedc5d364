"""Saturated curves of one ``by=`` fit compared by their levels: past its onset a curve's points are repeats of one
level (the load no longer moves it), so their scatter is that level's noise, and two levels whose points do not
overlap are told apart by it — which is higher, and by how much, is said (set after round 25 was read:
r25_juicefsceph_rados-bench-256k-write_ec42-vs-rep3_threads_by-pool, DA: "differ by at most 13% … with one run a
point no run-to-run noise is known to tell differences that small from chance", where each pool's three plateau points
lay within sd 0.55 % / 1.34 % of its level and the levels 11 % apart, EC 4+2 above Rep3 at every depth).

Not where a curve still rises (its points are no repeats of a level), a plateau has one point, a plateau has a trend
(a slope on log x beyond Student's t of its own residuals: a creep or a slow fall is no level), or the plateaus'
points overlap: there :func:`~nvmemodel.fitting.explain.curves_within_scatter` keeps its "not told apart" words
(tests/data/review28/engines_qd: libaio still +13 % per doubling beside io_uring's two-point plateau).
"""

from __future__ import annotations

import numpy as np

#: the two-sided level of the tests here: a plateau's trend (slope on log2 x against its residuals) and the gap
#: between two plateaus (Welch's t on their points) — set after round 25 was read (the conventional 5 %)
ALPHA = 0.05

#: the fewest points a plateau needs to serve as repeats of its level (one point has no scatter) — set after round 25
#: was read
MIN_POINTS = 2


def _trend(x: np.ndarray, y: np.ndarray) -> bool:
    """A slope of ``y`` on log2 ``x`` beyond Student's t at :data:`ALPHA` (n − 2 degrees of freedom) of its own
    residuals: the points creep or fall rather than scatter about one level. Two points cannot tell."""
    from scipy.stats import t as student_t

    n = x.size
    if n < 3:
        return False
    lx = np.log2(x)
    sxx = float(np.sum((lx - lx.mean()) ** 2))
    if sxx <= 0:
        return False
    slope = float(np.sum((lx - lx.mean()) * (y - y.mean())) / sxx)
    resid = y - (y.mean() + slope * (lx - lx.mean()))
    se = float(np.sqrt(np.sum(resid ** 2) / (n - 2) / sxx))
    if se == 0:
        return slope != 0
    return abs(slope) / se > float(student_t.ppf(1 - ALPHA / 2, n - 2))


def plateau_points(result, key) -> tuple[np.ndarray, np.ndarray] | None:
    """(x, y) of the curve's plateau points (the saturation fact's onset to the plateau's last load), or None where
    the curve is not saturated, its plateau has fewer than :data:`MIN_POINTS` points or a split point, or a trend."""
    from .claim import _pts
    from .facts import curve_facts

    sat = curve_facts(result, key).saturation
    if sat is None or sat.facts.get("state") not in ("onset", "from_first") or sat.facts.get("plateau_split"):
        return None
    p = _pts(result, key).sort_values(result.x)
    x, y = p[result.x].to_numpy(float), p["y"].to_numpy(float)
    x0 = sat.facts.get("onset_x")
    x0 = x[0] if x0 is None else float(x0)
    x1 = sat.facts.get("plateau_x_to")
    x1 = x[-1] if x1 is None else float(x1)
    on = (x >= x0) & (x <= x1) & np.isfinite(y)
    if on.sum() < MIN_POINTS or _trend(x[on], y[on]):
        return None
    return x[on], y[on]


def level_gaps(result, keys: list) -> list[dict] | None:
    """The curves in order of their levels, highest first, each with its plateau's mean, range, sd and points, and
    the gap to the next below it (share of the lower level, Welch's p on the two plateaus' points, the ratio per load
    both measured); None unless every curve has a plateau (:func:`plateau_points`) and every next pair's points do
    not overlap and differ by Welch's t at :data:`ALPHA`."""
    from scipy.stats import ttest_ind

    levels = []
    for k in keys:
        pp = plateau_points(result, k)
        if pp is None:
            return None
        x, y = pp
        levels.append({"key": k, "x": x, "y": y, "mean": float(y.mean()), "lo": float(y.min()),
                       "hi": float(y.max()), "sd": float(y.std(ddof=1))})
    levels.sort(key=lambda d: -d["mean"])
    for a, b in zip(levels, levels[1:]):
        if b["hi"] >= a["lo"]:  # the plateaus' points overlap: no difference shown
            return None
        if a["sd"] == 0 and b["sd"] == 0:
            pval = 0.0
        else:
            pval = float(ttest_ind(a["y"], b["y"], equal_var=False).pvalue)
        if not pval < ALPHA:
            return None
        common = sorted(set(a["x"]) & set(b["x"]))
        ratio = [float(a["y"][a["x"] == x][0] / b["y"][b["x"] == x][0]) for x in common]
        a["gap"] = {"share": a["mean"] / b["mean"] - 1, "p": pval, "common": common, "ratio": ratio,
                    "sd_times": (a["mean"] - b["mean"]) / max(a["sd"], b["sd"]) if max(a["sd"], b["sd"]) > 0
                    else np.inf}
    return levels


def level_gap_words(result, levels: list[dict], title) -> str:
    """The sentence for :func:`level_gaps`: which curve is higher and by how much, against the plateaus' scatter."""
    from .wording import fmt_y, span

    u, xn = result.y_unit, result.x

    def pct(v: float) -> str:
        return f"{100 * v:.0f}%"

    def xr(xs) -> str:
        return f"{xn} = {xs[0]:g}" if len(xs) == 1 else f"{xn} = {xs[0]:g}–{xs[-1]:g}"

    head = [f"{title(levels[0]['key'])} levels at {fmt_y(levels[0]['mean'], u)}"]
    for i, (a, b) in enumerate(zip(levels, levels[1:])):
        g = a["gap"]
        each = ""
        if g["common"]:
            lo, hi = min(g["ratio"]) - 1, max(g["ratio"]) - 1
            each = (f" ({span(f'{100 * lo:.0f}', f'{100 * hi:.0f}')}% above it at each {xr(g['common'])})"
                    if lo > 0 else "")
        head.append(f"{'which is ' if i else ''}{pct(g['share'])} above {title(b['key'])} at {fmt_y(b['mean'], u)}"
                    f"{each}")
    ranges = "; ".join(f"{span(fmt_y(d['lo'], u), fmt_y(d['hi'], u))} over {xr(list(d['x']))} ({d['y'].size} points, "
                       f"sd {d['sd'] / d['mean']:.2%})" for d in levels)
    gaps = "; ".join((f"the gap ×{a['gap']['sd_times']:.3g} the larger sd" if np.isfinite(a["gap"]["sd_times"])
                      else "the points of each level identical")
                     + f", Welch's t on those points p = {a['gap']['p']:.2g}" for a in levels[:-1])
    return (", ".join(head) + ". Past its onset each curve's points are repeats of its level (the load no longer "
            f"moves it), highest first: {ranges} — the levels' points do not overlap ({gaps}). One session: whether "
            f"another repeats "
            f"the difference is not shown.")
