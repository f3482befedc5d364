"""Plain-language text for a :class:`~nvmemodel.fitting.result.FitResult`: an R-style summary and an explanation.

Bandwidth is written in decimal GB/s (with GiB/s beside it), small-block rates in IOPS, latencies in µs.
"""

from __future__ import annotations

import numpy as np

from .wording import P_FLOOR, _fmt_param, _r2, fmt_y  # noqa: F401  (fmt_y: explain's name too)

__all__ = ["explain_text", "fmt_y", "summary_text"]


def _group_title(result, key) -> str:
    return ", ".join(f"{b}={v}" for b, v in zip(result.by, key)) if key else "all points"


def summary_text(result) -> str:
    """Coefficients, standard errors, t values, 95 % intervals, residual SE on df, AICc, warnings."""
    from scipy.stats import t as student_t

    from .claims import curve_claims
    from .verify import dropped_words

    from .runs_left_out import left_out_words

    params = result.params
    derived = result.derived()
    runs = left_out_words(getattr(result, "runs_left_out", None) or {})
    lines = [f"runs: {runs}"] if runs else []
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
            pval = "< 1e-6" if pval < P_FLOOR else format(pval, ".3g")  # (an underflowed tail is no "0")
            lines.append(f"   {r['name']:<28}{r['value']:>12.4g}{r['stderr']:>12.4g}{r['t']:>9.3g}{pval:>10}   "
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
        lines += [f"   selection: {t}" for t in selection_words(result, key)]
        lines += [f"   {t}" for t in dropped_words(result, key, curve_claims)]  # the verification pass's drops
        for m, reason in result.failed.get(key, {}).items():
            lines.append(f"   not fitted: {m}: {reason}")
    return "\n".join(lines)


def selection_words(result, key) -> list[str]:
    """How the model kept was chosen, where that needs saying: said in summary(), not in explain() — a reader of the
    explanation cannot use it (CAUSES rule 4; round 7 part 1 CH, set after round 7 was read)."""
    sel = result.selection.get(key) or {}
    out = []
    if sel.get("criterion") == "BIC":
        out.append("AICc is undefined for some models at this number of points: the models were ranked by BIC, the "
                   "one with the fewest parameters among those within 2.")
    if sel.get("undecided"):
        out.append(f"The data do not decide between {result.chosen[key]} and {', '.join(sel['undecided'])} "
                   f"({sel.get('criterion')} within 2).")
    if sel.get("excluded"):
        out.append("Not chosen: " + "; ".join(f"{m} ({r})" for m, r in sel["excluded"].items()) + ".")
    return out


def explain_text(result) -> str:
    """One paragraph per curve: what the data show (with their noise), what the chosen model adds where the
    data support it, what binds (topology), any falsified assumption
    (:func:`~nvmemodel.fitting.claims.curve_claims`)."""
    from .claims import curve_claims

    from ..ceiling.explain import one_cost_sentence

    from .runs_left_out import left_out_words

    runs = left_out_words(getattr(result, "runs_left_out", None) or {})
    out = [s for s in (runs, shared_level(result), curves_within_scatter(result)) if s]
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
    from .concurrent_curves import identity_by, per_client_words  # curves that are clients (round 28, LB)

    if identity_by(result):
        return per_client_words(result, names, lo, hi, len(keys))
    return (f"Every curve ({names}) levels at the same rate, {fmt_y(lo, result.y_unit)} to "
            f"{fmt_y(hi, result.y_unit)} (plateaus within {SHARED_LEVEL:.0%} of one another): what differs between "
            f"them ({', '.join(result.by)}) does not set that level — a limit they share does.")


def curves_within_scatter(result) -> str:
    """One sentence where ``by=`` curves of one run a point differ, on their plateaus, by no more than one curve's own
    points scatter from step to step there: those differences are not told apart (issue 28's adversarial read: io_uring
    and libaio ±10 % on one VM, read as one scaling past the other); "" otherwise."""
    import numpy as np

    from .claim import _pts
    from .facts import PAYS, curve_facts

    keys = [k for k in result.chosen if k]
    if len(keys) < 2 or result.y_unit not in ("1/s", "B/s"):
        return ""
    pts = {k: _pts(result, k).sort_values(result.x) for k in keys}
    if any("n_runs" in p and (p["n_runs"] >= 2).all() for p in pts.values()):
        return ""  # with repeats their noise tells the curves apart; the sentences per curve say it
    onsets, scatter = [], 0.0
    for k in keys:
        sat = curve_facts(result, k).saturation
        if sat is not None and sat.facts.get("onset_x") is not None:
            onsets.append(sat.facts["onset_x"])
            if sat.facts.get("step_lo") is not None:
                scatter = max(scatter, abs(sat.facts["step_lo"]), abs(sat.facts["step_hi"]))
    if not onsets:
        return ""
    start = min(onsets)  # from where a curve first levels: the differences there are read against the scatter
    common = sorted(set.intersection(*(set(p[result.x][p[result.x] >= start]) for p in pts.values())))
    if not common:
        return ""
    ys = np.array([[float(pts[k].loc[pts[k][result.x] == x, "y"].iloc[0]) for x in common] for k in keys])
    spread = float(np.max(ys.max(axis=0) / ys.min(axis=0) - 1))
    if spread > max(scatter, 2 * PAYS):
        return ""
    # saturated curves compared by their levels, each plateau's points its repeats (round 25 DA): said where told apart
    from .plateau_compare import level_gap_words, level_gaps

    levels = level_gaps(result, keys)
    if levels is not None:
        return level_gap_words(result, levels, lambda k: _group_title(result, k))
    names = ", ".join(_group_title(result, k) for k in keys)
    where = (f"{result.x} = {common[0]:g}" if len(common) == 1 else f"{result.x} = {common[0]:g}–{common[-1]:g}")
    if spread <= scatter:
        return (f"The curves ({names}) differ by at most {spread:.0%} at {where}, no more than one curve's own points "
                f"scatter from step to step there (up to {scatter:.0%}): with one run a point these differences are not "
                f"told apart.")
    return (f"The curves ({names}) differ by at most {spread:.0%} at {where}; with one run a point no run-to-run noise "
            f"is known to tell differences that small from chance (repeat the runs to compare them: nvmemodel compare).")
