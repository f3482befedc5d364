"""The last pass of a curve's explanation: every level, plateau or cap a claim states is checked against the runs each
point kept, and two claims about one curve that contradict each other are reduced to the one the runs support.

Each claim chose its own runs and noise test (round 13, design direction 3: a "cap" whose kept runs lie above it, a
"flat at A–B" beside a point outside A–B, "still rises" beside "flat from x on"); this pass reads every stated number
against one set of runs — a point's runs minus those :func:`~nvmemodel.fitting.facts.stalled_runs` flags — and drops
what they contradict. A dropped claim is not rewritten: what it said and why it went are in ``summary()``
(:func:`dropped_words`), so the explanation keeps only what the runs hold (CAUSES rule 2: shorter beats wrong).
Set after round 13 was read (r13_fio325 bs QA, r13_fio313 readshare PB; r12 kyber NA).
"""

from __future__ import annotations

import numpy as np

from .claim import result_cache

__all__ = ["checked", "dropped_words", "kept_runs", "ROUNDING"]

#: a stated number is printed to 3–4 significant figures: a kept run this far outside it is not outside
ROUNDING = 0.02

#: what the pass dropped (id(result) → {key: [(text, why)]}), dropped with the result
_DROPPED: dict = {}


def kept_runs(result, cf) -> list[np.ndarray]:
    """Each point's runs (in the curve's unit; the point's value where its runs cannot be told apart) without the
    runs the host stalled."""
    from .facts import _run_values, stalled_runs

    p = cf.points
    stalled = (stalled_runs(result, p) or {}).get("left", [])
    out = []
    for i in range(len(p)):
        v = _run_values(result, p, i)
        if not v.size:
            out.append(np.array([float(p["y"].iloc[i])]))
            continue
        x = float(p["x"].iloc[i])
        drop = [r for a, r in stalled if a == x]
        keep = np.array([r for r in v if not any(np.isclose(r, d) for d in drop)])
        out.append(keep if keep.size else v)
    return out


def _in_unit(result, cf, runs, unit: str) -> list[np.ndarray]:
    """Runs converted to ``unit`` (IOPS ↔ bytes/s by each point's bytes per I/O)."""
    if unit == result.y_unit or unit not in ("1/s", "B/s") or result.y_unit not in ("1/s", "B/s"):
        return runs
    b = cf.points["bytes_per_io"].to_numpy(float)
    return [r * b[i] if unit == "B/s" else r / b[i] for i, r in enumerate(runs)]


def _outside(runs: np.ndarray, lo: float, hi: float) -> bool:
    """Every kept run of a point beyond [lo, hi] (past the printing's rounding): the point is not at that level."""
    return bool(runs.min() > hi * (1 + ROUNDING) or runs.max() < lo * (1 - ROUNDING))


def _level_ranges(result, cf, c) -> list[tuple[float, float, float, float, str, bool, set]]:
    """(x_from, x_to, lo, hi, unit, upper bound?, x the claim says were held elsewhere) of each level the claim
    states from a fact's numbers."""
    f = c.facts
    out: list[tuple[float, float, float, float, str, bool, set]] = []
    if c.kind == "saturation" and f.get("state") in ("onset", "from_first") and f.get("plateau_lo") is not None:
        out.append((f["onset_x"], f["plateau_x_to"], f["plateau_lo"], f["plateau_hi"], f.get("unit", result.y_unit),
                    False, set()))
    if c.kind == "cap":
        x = cf.points["x"].to_numpy(float)
        if f.get("iops_cap") is not None and f.get("iops_flat"):
            out.append((*f["iops_flat"], *f["iops_range"], "1/s", False, set()))
            out.append((x.min(), x.max(), 0.0, f["iops_cap"], "1/s", True, set()))
        if f.get("bytes_cap") is not None and f.get("bytes_flat"):
            out.append((*f["bytes_flat"], *f["bytes_range"], "B/s", False, set()))
            held: set = {a for a, *_ in f.get("held_above") or []}  # points the cap's sentence says were held elsewhere
            out.append((x.min(), x.max(), 0.0, f["bytes_cap"], "B/s", True, held))
    return out


def _misfit(result, cf, runs, c) -> str:
    """Why the claim's stated level or cap is not the kept runs' ("" where every point in its range agrees)."""
    x = cf.points["x"].to_numpy(float)
    for x0, x1, lo, hi, unit, bound, skip in _level_ranges(result, cf, c):
        r = _in_unit(result, cf, runs, unit)
        for i in np.flatnonzero((x >= x0) & (x <= x1)):
            if x[i] in skip or not _outside(r[i], lo, hi):
                continue
            what = f"the cap {hi:.4g}" if bound else f"the level {lo:.4g}–{hi:.4g}"
            return (f"{what} {unit} is contradicted by the kept runs at {result.x} = {x[i]:g} "
                    f"({r[i].min():.4g}–{r[i].max():.4g} {unit})")
    return ""


def _gain(runs, x, i0: int, i1: int) -> float:
    """The kept runs' medians' gain per doubling of x from point i0 to point i1."""
    m0, m1 = float(np.median(runs[i0])), float(np.median(runs[i1]))
    return (m1 / m0) ** (1 / max(np.log2(x[i1] / x[i0]), 1e-9)) - 1 if m0 > 0 and x[i1] > x[i0] > 0 else 0.0


def _contradicted(result, cf, runs, claims) -> dict[int, str]:
    """Of two claims about one curve that cannot both hold, the one the kept runs do not support (index → why)."""
    from .facts import FLAT, PAYS

    kinds = {c.kind: i for i, c in enumerate(claims)}
    x = cf.points["x"].to_numpy(float)
    out = {}
    level = next((i for i, c in enumerate(claims) if c.kind in ("plateau", "flat") or (c.kind == "saturation" and
                  c.facts.get("state") in ("onset", "from_first"))), None)
    if "rising" in kinds and level is not None and x.size >= 2:
        g = _gain(runs, x, x.size - 2, x.size - 1)  # "still rises at the largest x" is about the last doubling
        loser, won = (level, "still rising") if g >= PAYS else (kinds["rising"], "level")
        out[loser] = f"it contradicts another claim of this curve; the kept runs' medians gain {g:+.0%} per doubling " \
                     f"over the last step: {won}"
    moved = next((i for i, c in enumerate(claims) if c.kind in ("rises", "falls")), None)
    if moved is not None and "flat" in kinds:
        med = np.array([float(np.median(r)) for r in runs])
        spread = float(med.max() / med.min() - 1) if med.min() > 0 else np.inf
        loser = kinds["flat"] if spread > FLAT else moved
        out[loser] = f"it contradicts another claim of this curve; the kept runs' medians span {spread:.0%} " \
                     f"({'beyond' if spread > FLAT else 'within'} ±{FLAT:.0%})"
    return out


def checked(result, key, claims: list) -> list:
    """``claims`` without those the kept runs contradict (recorded for :func:`dropped_words`)."""
    from .facts import curve_facts

    cf = curve_facts(result, key)
    dropped: list[tuple[str, str]] = []
    if cf is None or cf.points is None or not len(cf.points) or result.y_unit not in ("1/s", "B/s"):
        result_cache(_DROPPED, result)[key] = dropped
        return claims
    runs = kept_runs(result, cf)
    why = _contradicted(result, cf, runs, claims)
    for i, c in enumerate(claims):
        why[i] = why.get(i) or _misfit(result, cf, runs, c)
    kept = [c for i, c in enumerate(claims) if not why[i]]
    dropped = [(c.text, why[i]) for i, c in enumerate(claims) if why[i]]
    result_cache(_DROPPED, result)[key] = dropped
    return kept


def dropped_words(result, key, build) -> list[str]:
    """What the pass dropped from ``key``'s explanation and why (for ``summary()``); ``build`` (``curve_claims``,
    passed in: claims imports this module) writes the explanation where it was not yet written."""
    cache = result_cache(_DROPPED, result)
    if key not in cache:
        build(result, key)
    return [f"dropped from explain(): “{text[:160]}{'…' if len(text) > 160 else ''}” — {why}."
            for text, why in cache.get(key, [])]
