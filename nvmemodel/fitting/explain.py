"""Plain-language text for a :class:`~nvmemodel.fitting.result.FitResult`: an R-style summary and an explanation.

Bandwidth is written in decimal GB/s (with GiB/s beside it), small-block rates in IOPS, latencies in µs.
"""

from __future__ import annotations

import numpy as np

from .wording import _fmt_param, _r2, fmt_y  # noqa: F401  (fmt_y: explain's name too)

__all__ = ["explain_text", "fmt_y", "summary_text"]


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


def explain_text(result) -> str:
    """One paragraph per curve: what the data show (with their noise), what the chosen model adds where the
    data support it, what binds (topology), any falsified assumption
    (:func:`~nvmemodel.fitting.claims.curve_claims`)."""
    from .claims import curve_claims

    from ..ceiling.explain import one_cost_sentence

    out = [shared] if (shared := shared_level(result)) else []
    for key in result.chosen:
        text = " ".join(c.text for c in curve_claims(result, key) if c.text)
        topology, workload = result.setup(key)
        one_cost = one_cost_sentence(topology.host, workload.io_stack) if topology is not None and workload else ""
        if one_cost and "host.cycles_per_io" not in result.fits[key][result.chosen[key]].values:
            text += f" {one_cost[0].upper()}{one_cost[1:]}" + ("" if one_cost.endswith("…") else ".")  # as ceilings says
        out.append(f"{_group_title(result, key)}: {text}" if key else text)
    return "\n\n".join(out)


#: curves whose plateaus lie within this share of one another level at one cap
SHARED_LEVEL = 0.05


def shared_level(result) -> str:
    """One sentence, said once, where every curve of a ``by=`` fit saturates at the same level (within
    :data:`SHARED_LEVEL`): a cap they share, whatever differs between them (issue 28); "" otherwise."""
    from .facts import curve_facts

    keys = [k for k in result.chosen if k]
    if len(keys) < 2 or result.y_unit not in ("1/s", "B/s"):
        return ""
    levels = []
    for k in keys:
        sat = curve_facts(result, k).saturation
        if sat is None or sat.facts["state"] not in ("onset", "from_first"):
            return ""
        levels.append(sat.facts["plateau"])
    lo, hi = min(levels), max(levels)
    if hi > lo * (1 + SHARED_LEVEL):
        return ""
    names = ", ".join(_group_title(result, k) for k in keys)
    return (f"Every curve ({names}) levels at the same rate, {fmt_y(lo, result.y_unit)} to "
            f"{fmt_y(hi, result.y_unit)} (plateaus within {SHARED_LEVEL:.0%} of one another): what differs between "
            f"them ({', '.join(result.by)}) does not set that level — a limit they share does.")
