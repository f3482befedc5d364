"""Plain-language text for a :class:`~nvmemodel.fitting.result.FitResult`: an R-style summary and an explanation.

Bandwidth is written in decimal GB/s (with GiB/s beside it), small-block rates in IOPS, latencies in µs.
"""

from __future__ import annotations

import numpy as np

from ..units import format_iops

__all__ = ["explain_text", "fmt_y", "summary_text"]


def fmt_y(value: float, unit: str) -> str:
    """A measured or fitted y value in the unit a planner reads."""
    if not np.isfinite(value):
        return "∞" if value > 0 else "n/a"
    if unit == "B/s":
        return f"{value / 1e9:.3g} GB/s ({value / 2**30:.3g} GiB/s)" if value >= 1e8 else f"{value / 1e6:.3g} MB/s"
    if unit == "1/s":
        return format_iops(value)
    if unit == "s":
        return f"{value * 1e3:.3g} ms" if value >= 1e-3 else f"{value * 1e6:.3g} µs"
    return f"{value:.4g} {unit}".strip()


def _fx(value: float) -> str:
    """An x value as written: whole numbers in full (a 1 MiB block is 1048576, not 1.04858e+06)."""
    v = float(value)
    return f"{v:.0f}" if np.isfinite(v) and v.is_integer() else f"{v:g}"


def _fmt_param(value: float, unit: str) -> str:
    if unit in ("B/s", "1/s", "s"):
        return fmt_y(value, unit)
    return f"{value:.4g}" + (f" {unit}" if unit not in ("", "1") else "")


def _r2(r2: float) -> str:
    return f"{r2:.4f}" if np.isfinite(r2) else "n/a (y does not vary)"


def _group_title(result, key) -> str:
    return ", ".join(f"{b}={v}" for b, v in zip(result.by, key)) if key else "all points"


def summary_text(result) -> str:
    """Coefficients, standard errors, t values, 95 % intervals, residual SE on df, AICc, warnings."""
    from scipy.stats import t as student_t

    params = result.params
    derived = result.derived()
    lines = []
    for key, model in result.chosen.items():
        f = result.fits[key][model]
        s = f.stats
        lines.append(f"== {_group_title(result, key)} — {model}: {f.shape.description}")
        own = s.get("n_curve", s["n"])  # a joint fit's n counts every curve's points
        lines.append(f"   {own} points" + (f" (the joint fit's n = {s['n']} over all curves)" if own != s["n"] else "")
                     + f", y = {result.y} [{result.y_unit}] vs x = {result.x}"
                     + (", weighted by a pooled relative spread of repeats" if np.any(f.weights != 1) else ", unweighted"))
        sel = params[(params["model"] == model) & params["status"].isin(["free", "at bound"])]
        for b, v in zip(result.by, key):
            sel = sel[sel[b] == v]
        resid = f.y - f.eval(f.x)
        q = np.percentile(resid, [0, 25, 50, 75, 100])
        lines.append("   residuals (min, 1Q, median, 3Q, max): " + ", ".join(f"{v:.4g}" for v in q))
        if model in ("usl", "amdahl", "linear"):
            eff = f.y / (f.x * f.values["x1"])
            lines.append("   efficiency X(n)/(n·x1) (min, median, max): "
                         + ", ".join(f"{v:.3g}" for v in np.percentile(eff, [0, 50, 100])))
        lines.append(f"   {'coefficient':<28}{'estimate':>12}{'std. error':>12}{'t value':>9}{'Pr(>|t|)':>10}   "
                     f"95 % interval ({f.ci_method})")
        for _, r in sel.iterrows():
            if isinstance(r["value"], str) or r["source"].startswith("fit (best of"):  # a discrete choice
                lines.append(f"   {r['name']:<28}{r['value']!s:>12}{'':>12}{'':>9}   {r['source']} {r['unit']}")
                continue
            if r["status"] != "free":  # at a bound / not identifiable: no standard error, t or interval (R gives one)
                lines.append(f"   {r['name']:<28}{r['value']:>12.4g}{r['status']:>12}{'':>9}{'':>10}   {r['unit']}")
                continue
            pval = 2 * student_t.sf(abs(r["t"]), max(s["df"], 1)) if np.isfinite(r["t"]) else np.nan
            lines.append(f"   {r['name']:<28}{r['value']:>12.4g}{r['stderr']:>12.4g}{r['t']:>9.3g}{pval:>10.3g}   "
                         f"[{r['ci_low']:.4g}, {r['ci_high']:.4g}] {r['unit']}")
        adj = 1 - (1 - s["r2"]) * (s["n"] - 1) / s["df"] if s["df"] > 0 and np.isfinite(s["r2"]) else np.nan
        lines.append(f"   residual standard error: {s['residual_se']:.4g} {result.y_unit} on {s['df']} degrees of "
                     f"freedom; R² = {_r2(s['r2'])}, adjusted {_r2(adj)}; AICc = {s['aicc']:.2f}; "
                     f"BIC = {s['bic']:.2f}")
        dsel = derived[derived["model"] == model] if len(derived) else derived
        for b, v in zip(result.by, key):
            if len(dsel):
                dsel = dsel[dsel[b] == v]
        for _, r in dsel.iterrows():
            if r["name"] in ("peak_n", "peak_throughput") and not np.isfinite(r["value"]):
                lines.append(f"   {r['name']:<28}{'none':>12}   (κ's 95 % interval includes 0: no peak within the data"
                             + (f"; N* > {r['ci_low']:.4g}" if r["name"] == "peak_n" and np.isfinite(r["ci_low"])
                                else "") + ")")
                continue
            lines.append(f"   {r['name']:<28}{r['value']:>12.4g}   [{r['ci_low']:.4g}, {r['ci_high']:.4g}] {r['unit']}"
                         f"  ({r['meaning']})")
        for note in f.notes:
            lines.append(f"   warning: {note}")
        for m, reason in result.failed.get(key, {}).items():
            lines.append(f"   not fitted: {m}: {reason}")
    return "\n".join(lines)


def _little_verdict(frac) -> str:
    """What per-point Little's-law ratios X·R/N say, in the direction each deviation points."""
    low, high = frac < 0.8, frac > 1.1
    parts = []
    if low.any():
        parts.append(f"at {int(low.sum())} point(s) it is far below 1: fewer I/Os were in flight than asked for "
                     f"(submission batching, a CPU-bound submitter, a rate limit or a per-job limit)")
    if high.any():
        parts.append(f"at {int(high.sum())} point(s) it is far above 1: the latency and the rate measured do not "
                     f"describe the same I/Os (latency that includes submission or queueing outside the device, "
                     f"or more I/O in flight than the job options say)")
    if not parts:
        return "; consistent (the I/O asked for was in flight)."
    return "; " + "; ".join(parts) + "."


def _little_check(result, key) -> str:
    """X·R against the outstanding I/O: the effective in-flight fraction, per run (averaged over repeats)."""
    pts = result.points
    for b, v in zip(result.by, key):
        pts = pts[pts[b] == v]
    if result.y_unit != "1/s" or "little" not in pts or pts["little"].isna().all():
        return ""
    frac = pts["little"].to_numpy(float)
    frac = frac[np.isfinite(frac)]
    if frac.size == 0:
        return ""
    return (f"Little's law check: measured IOPS × mean latency ÷ outstanding I/O, per run = "
            f"{frac.min():.2f}–{frac.max():.2f} (the effective in-flight fraction)" + _little_verdict(frac))


def explain_text(result) -> str:
    """One paragraph per curve: what the data show (with their noise), what the chosen model adds where the
    data support it, what binds (topology), any falsified assumption
    (:func:`~nvmemodel.fitting.claims.curve_claims`)."""
    from .claims import curve_claims

    out = []
    for key in result.chosen:
        text = " ".join(c.text for c in curve_claims(result, key) if c.text)
        out.append(f"{_group_title(result, key)}: {text}" if key else text)
    return "\n\n".join(out)


def _ceiling_sentences(result, key, f, ceiling_profile, labels) -> str:
    from .ceiling import fitted_overrides, from_lmfit_name

    u = result.y_unit
    overrides = fitted_overrides(f)
    xs = np.unique(f.x)
    prof = ceiling_profile(*result.setup(key), x=result.x, values=xs, overrides=overrides,
                           drives=result.drives, y_unit=u)
    parts = []
    fitted = ", ".join(f"{from_lmfit_name(p)} = {_fmt_param(f.values[p], _unit(p))}"
                       + (f" (95 % CI {_fmt_param(f.ci_low[p], _unit(p))}–{_fmt_param(f.ci_high[p], _unit(p))})"
                          if np.isfinite(f.ci_low[p]) and np.isfinite(f.ci_high[p]) else " (no interval)")
                       for p in f.shape.params)
    if f.discrete:
        fitted = ", ".join([*(s for s in [fitted] if s), *(_choice_sentence(name, info)
                                                         for name, info in f.discrete.items())])
    parts.append(f"Fitted: {fitted}.")
    runs = []
    for xv, b, c in zip(prof["x"], prof["binding"], prof["ceiling"]):
        if runs and runs[-1][1] == b:
            runs[-1][2].append((xv, c))
        else:
            runs.append([xv, b, [(xv, c)]])
    ends = [seg[-1][0] for _, _, seg in runs]
    with np.errstate(all="ignore"):
        band_lo, band_hi = f.band(np.asarray(ends, dtype=float))  # the fitted ceiling's 95 % band there
    for (start, b, seg), lo, hi in zip(runs, band_lo, band_hi):
        last_x, last_c = seg[-1]
        span = f"from {result.x} = {_fx(start)}" + (f" to {_fx(last_x)}" if last_x != start else "")
        ci = (f", 95 % CI {fmt_y(lo, u)}–{fmt_y(hi, u)}" if np.isfinite(lo) and np.isfinite(hi) and hi > lo
              and lo <= last_c * (1 + 1e-9) and hi >= last_c * (1 - 1e-9) else "")
        parts.append(f"{span.capitalize()} {labels.get(b, b)} [{b}] binds ({fmt_y(last_c, u)}{ci} at {_fx(last_x)}).")
    row = prof.iloc[-1]
    others = sorted(((c, row[c] / row["ceiling"] - 1) for c in labels if c in row and np.isfinite(row[c])
                     and c != row["binding"]), key=lambda t: t[1])
    if others:
        parts.append("Headroom of the others at the largest x: " + ", ".join(f"{c} +{h:.0%}" for c, h in others)
                     + ".")
    parts.append(_lift_sentence(result, key, f, row, others, overrides, ceiling_profile))
    pts = result.points
    for b, v in zip(result.by, key):
        pts = pts[pts[b] == v]
    eff = pts["y"].to_numpy() / np.interp(pts[result.x].to_numpy(), prof["x"], prof["ceiling"])
    if eff.max() <= 1.005:  # an efficiency is a share of a ceiling: above 100 % it is not one
        parts.append(f"Measured efficiency (measured ÷ fitted ceiling): {eff.min():.1%}–{eff.max():.1%}.")
    else:
        parts.append(f"Measured ÷ fitted ceiling: {eff.min():.1%}–{eff.max():.1%} — above 100 % at "
                     f"{int(np.sum(eff > 1.005))} point(s): the fitted ceiling is not an upper bound of these data.")
    return " ".join(parts)


def _lift_sentence(result, key, f, row, others, overrides, ceiling_profile) -> str:
    """Where the curve leaves linear scaling (drives), whether one more unit adds anything, what lifting the
    binding limit would give and what would bind then."""
    u, x = result.y_unit, result.x
    text = []
    if x == "drives":
        topology, workload = result.setup(key)
        top = int(getattr(topology, "max_drives", row["x"]))
        grid = np.arange(1, max(top, int(row["x"])) + 1)
        prof = ceiling_profile(topology, workload, x=x, values=grid, overrides=overrides,
                               drives=result.drives, y_unit=u)
        c = prof["ceiling"].to_numpy()
        below = np.flatnonzero(c < 0.999 * grid * c[0])
        if below.size:
            k = int(below[0])
            text.append(f"The fitted model leaves linear scaling at {int(grid[k])} drives "
                        f"({prof['binding'].iloc[k]} binds from there)"
                        + ("; from there on each further drive adds nothing." if np.all(c[k:] <= c[k - 1] * (1 + 1e-9))
                           else "."))
    if others:
        nxt, head = others[0]
        text.append(f"Lifting the {row['binding']} limit by more than {head:.0%} would raise the ceiling at "
                    f"{x} = {_fx(row['x'])} to {fmt_y(row[nxt], u)}, where {nxt} binds.")
    return " ".join(text)


def _choice_sentence(name: str, info: dict) -> str:
    chosen = str(info["value"])
    best = info["rss"].get(chosen, np.nan)
    others = ", ".join(f"{v}: RSS ×{r / best:.3g}" if best > 0 else f"{v}: RSS {r:.3g}"
                       for v, r in sorted(info["rss"].items(), key=lambda t: t[1]) if v != chosen)
    return (f"{name} = {chosen} (of {len(info['rss'])} values tried, the best fit that leaves no measurement "
            f"above the ceiling; {others})")


def _unit(ident: str) -> str:
    from .ceiling import bounds_of, from_lmfit_name

    return "1" if ident == "sharpness" else bounds_of(from_lmfit_name(ident))[2]
