"""The last pass of a curve's explanation: every level, plateau or cap a claim states is checked against the runs each
point kept, and two claims about one curve that contradict each other are reduced to the one the runs support.

Each claim chose its own runs and noise test (round 13, design direction 3: a "cap" whose kept runs lie above it, a
"flat at A–B" beside a point outside A–B, "still rises" beside "flat from x on"); this pass reads every stated number
against one set of runs — a point's kept runs of :func:`~nvmemodel.fitting.facts.point_levels` — and drops
what they contradict. A dropped claim is not rewritten: what it said and why it went are in ``summary()``
(:func:`dropped_words`), so the explanation keeps only what the runs hold (CAUSES rule 2: shorter beats wrong).
Set after round 13 was read (r13_fio325 bs QA, r13_fio313 readshare PB; r12 kyber NA).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .claim import result_cache

__all__ = ["checked", "dropped_words", "kept_runs", "one_holder", "ROUNDING"]

from .fact_base import ROUNDING  # (re-exported: facts and verify share the printing's tolerance)

#: what the pass dropped (id(result) → {key: [(text, why)]}), dropped with the result
_DROPPED: dict = {}


def kept_runs(result, cf) -> list[np.ndarray]:
    """Each point's kept runs as :func:`~nvmemodel.fitting.facts.point_levels` keeps them (in the curve's unit; the
    point's value where its runs cannot be told apart): the pass checks against the same runs the claims' levels are
    read from, not a second selection of its own."""
    from .facts import point_levels

    return [d["kept"] for d in point_levels(result, cf.points)]


def _in_unit(result, cf, runs, unit: str) -> list[np.ndarray]:
    """Runs converted to ``unit`` (IOPS ↔ bytes/s by each point's bytes per I/O)."""
    if unit == result.y_unit or unit not in ("1/s", "B/s") or result.y_unit not in ("1/s", "B/s"):
        return runs
    b = cf.points["bytes_per_io"].to_numpy(float)
    return [r * b[i] if unit == "B/s" else r / b[i] for i, r in enumerate(runs)]


def _outside(runs: np.ndarray, lo: float, hi: float) -> bool:
    """Every kept run of a point beyond [lo, hi] (past the printing's rounding): the point is not at that level."""
    return bool(runs.min() > hi * (1 + ROUNDING) or runs.max() < lo * (1 - ROUNDING))


def _run_groups(runs: np.ndarray) -> list[np.ndarray]:
    """A point's kept runs cut wherever two sorted neighbours lie more than
    :data:`~nvmemodel.fitting.point_runs.SPLIT_RATIO` apart (one group where the point has a single level)."""
    from .point_runs import SPLIT_RATIO

    v = np.sort(np.asarray(runs, float))
    if v.size < 2 or v.min() <= 0:
        return [v]
    return np.split(v, np.flatnonzero(v[1:] / v[:-1] > SPLIT_RATIO) + 1)


def _off_level(runs: np.ndarray, lo: float, hi: float, said: tuple[float, float] | None = None) -> bool:
    """The point is not at the level [lo, hi]: every kept run lies beyond it (:func:`_outside`), or its runs split
    into groups (:func:`_run_groups`) none of which lies at it — a level stated over such a point describes none of
    its runs, whichever group is the undisturbed one (set after round 24 was read, the review of round 23's fixes:
    r12_here-sched_loop-kyber_libaio_randwrite_iodepth_repeats, a plateau of 87.66–99.26 K from QD4–8 said over
    QD16 and QD32, whose runs lie at 23–34 K and 122 K, 42–43 K and 114 K). ``said``: the run range the words give
    as the level where they give one (a level said within the noise, "its runs put anywhere from A to B"): a group
    inside it is described (r11_here-pin_loop_libaio_1cpu_randread_numjobs_repeats, 51–177 K over a 1-job point at
    51–62 K and 136 K)."""
    glo, ghi = said if said is not None else (lo, hi)
    return _outside(runs, lo, hi) or all(_outside(g, glo, ghi) for g in _run_groups(runs))


def _level_ranges(result, cf, c) -> list[tuple[float, float, float, float, str, bool, set]]:
    """(x_from, x_to, lo, hi, unit, upper bound?, x the claim says were held elsewhere) of each level the claim
    states from a fact's numbers."""
    f = c.facts
    out: list[tuple[float, float, float, float, str, bool, set]] = []
    if c.kind == "saturation" and f.get("state") in ("onset", "from_first") and f.get("plateau_lo") is not None:
        # split points the words set apart, each named with its run groups (split_level.py): the level is not
        # stated over them (set after round 25's fixes were reviewed: r12 kyber, r15 ext4-on-loop libaio iodepth)
        sl = f.get("split_level") or {}
        apart = {d["x"] for d in sl.get("points", [])} if sl.get("apart") else set()
        if f.get("approach"):  # the onset point said apart, near saturation below the level (round 28 JA, KE)
            apart = apart | {f["approach"]["x"]}
        out.append((f["onset_x"], f["plateau_x_to"], f["plateau_lo"], f["plateau_hi"], f.get("unit", result.y_unit),
                    False, apart))
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


def _no_point_at(result, cf, c) -> str:
    """A saturation level said as one number that lies outside the span of its points' own levels (the medians of
    their kept runs, :func:`~nvmemodel.fitting.facts.point_levels`; split points left out): a level no point sits at
    (round 12 NA, read before this: r12_here-sched_loop-kyber_libaio_randwrite_iodepth_repeats, "flattens at 79.04 K"
    pooled over stalled runs while the points' levels were 87.7–122.3 K)."""
    from .facts import point_levels

    f = c.facts
    v = f.get("stated_level")
    if c.kind != "saturation" or f.get("state") not in ("onset", "from_first") or v is None \
            or f.get("within_noise") or f.get("onset_x") is None:
        return ""
    on = [d for d in point_levels(result, cf.points) if f["onset_x"] <= d["x"] <= f["plateau_x_to"]]
    lv = [d for d in on if d["runs"] and not d["split"]]
    # only over a point whose kept runs split: one slow run a point pulls a pooled mean below every median, yet the
    # level and its sd still describe the runs (r10_here-fio2111 loop iodepth 175.77 K, r3_here_loop_iouring numjobs
    # 280.73 K keep theirs); across two run groups the pooled number is no group's (NA)
    if len(lv) < 2 or not any(d["split"] for d in on):
        return ""
    lo, hi = min(d["median"] for d in lv), max(d["median"] for d in lv)
    if lo * (1 - ROUNDING) <= v <= hi * (1 + ROUNDING):
        return ""
    return (f"the level {v:.4g} {result.y_unit} is at no point's level: the medians of the points' kept runs span "
            f"{lo:.4g}–{hi:.4g} {result.y_unit} over {result.x} = {lv[0]['x']:g}–{lv[-1]['x']:g}")


def _misfit(result, cf, runs, c) -> str:
    """Why the claim's stated level or cap is not the kept runs' ("" where every point in its range agrees)."""
    if _no_point_at(result, cf, c):
        return _no_point_at(result, cf, c)
    x = cf.points["x"].to_numpy(float)
    f = c.facts
    said = (f["runs_lo"], f["runs_hi"]) if c.kind == "saturation" and f.get("within_noise") \
        and f.get("runs_lo") is not None and f.get("runs_hi") is not None else None
    # a level read at one point whose runs do not split is said as that point's ("Plateau 95.39 K … at the one point
    # whose runs do not split", saturation_claims), the split points set apart beside it: the words pool no split
    # point into the level (dev here_loop_iodepth, r2_here_loop_iouring_libaio_iodepth's libaio curve); with two or
    # more such points the words give "N points", the split ones counted in (NA, kyber)
    apart = c.kind == "saturation" and f.get("plateau_points", 0) - f.get("plateau_split", 0) == 1
    for x0, x1, lo, hi, unit, bound, skip in _level_ranges(result, cf, c):
        r = _in_unit(result, cf, runs, unit)
        for i in np.flatnonzero((x >= x0) & (x <= x1)):
            off = _outside(r[i], lo, hi) if bound or apart else _off_level(r[i], lo, hi, said)
            if x[i] in skip or not off:
                continue
            what = f"the cap {hi:.4g}" if bound else f"the level {lo:.4g}–{hi:.4g}"
            groups = _run_groups(r[i]) if not bound and not _outside(r[i], lo, hi) else [r[i]]
            at = " and ".join(f"{g.min():.4g}–{g.max():.4g}" if g.size > 1 else f"{g[0]:.4g}" for g in groups)
            return (f"{what} {unit} is contradicted by the kept runs at {result.x} = {x[i]:g} "
                    f"({at} {unit}{', groups none of which is at the level' if len(groups) > 1 else ''})")
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
    r = claims[kinds["rising"]].facts if "rising" in kinds else {}
    i0, i1 = (np.flatnonzero(np.isclose(x, r.get(k, np.nan))) for k in ("x_from", "x_to"))
    if i0.size and i1.size and min(runs[i0[0]].size, runs[i1[0]].size) >= 2 \
            and runs[i1[0]].min() <= runs[i0[0]].max():
        # a rise "beyond the repeat noise" of two means whose kept runs overlap is no rise beyond them (set after
        # round 17 was read: r17_here-endfsync … seqwrite bs, "+80 %, beyond the repeat noise" from 64 KiB's
        # 0.53/0.63/1.51 GB/s to 1 MiB's 1.44/1.50/1.86 GB/s, XA)
        out[kinds["rising"]] = (f"its two points' kept runs overlap (the highest at {result.x} = {x[i0[0]]:g}, "
                                f"{runs[i0[0]].max():.4g}, above the lowest at {x[i1[0]]:g}, {runs[i1[0]].min():.4g}): "
                                f"not a rise beyond the runs")
    moved = next((i for i, c in enumerate(claims) if c.kind in ("rises", "falls")), None)
    if moved is not None and "flat" in kinds:
        med = np.array([float(np.median(r)) for r in runs])
        spread = float(med.max() / med.min() - 1) if med.min() > 0 else np.inf
        loser = kinds["flat"] if spread > FLAT else moved
        out[loser] = f"it contradicts another claim of this curve; the kept runs' medians span {spread:.0%} " \
                     f"({'beyond' if spread > FLAT else 'within'} ±{FLAT:.0%})"
    return out


def _holder(c) -> str:
    """What a claim names as holding the level with its proof ("" where it names none): the CPU fact's CPU-bound
    verdict (a busy job at one cost per I/O, the jobs' summed CPU at the host's or pinned CPUs, an engine that does
    no I/O), or fio's pace held at every point."""
    if c.kind == "cpu" and c.facts.get("cpu_bound") is True:
        return "the CPU sentence names it (fio's CPU accounting)"
    return c.facts.get("holder") or ""


def one_holder(claims: list) -> tuple[list, list[tuple[str, str]]]:
    """``claims`` with every "the files do not show what holds it" (a claim's ``holder_unknown`` words) taken out where
    another claim of the explanation names the holder with its proof, and what was taken out with why: two sentences
    of one explanation that contradict are a bug whichever rule wrote them (set after round 16 was read:
    r16_here-zram libaio randread iodepth, "the files do not show what holds it" beside "the level is CPU-bound (the
    submitting job, ≥ 90 % busy)" at 0.997–0.999 CPU and 2.97–3.84 µs per I/O, VA)."""
    named = next((w for w in map(_holder, claims) if w), "")
    if not named:
        return claims, []
    out, cut = [], []
    for c in claims:
        piece = c.facts.get("holder_unknown") or ""
        if piece and piece in c.text:
            out.append(dataclasses.replace(c, text=c.text.replace(piece, ""),
                                           facts={**c.facts, "holder_unknown": ""}))
            cut.append((piece.strip(), f"what holds the level is not unknown: {named}"))
        else:
            out.append(c)
    return out, cut


def checked(result, key, claims: list) -> list:
    """``claims`` without those the kept runs contradict (recorded for :func:`dropped_words`)."""
    from .facts import curve_facts

    cf = curve_facts(result, key)
    dropped: list[tuple[str, str]] = []
    if cf is None or cf.points is None or not len(cf.points) or result.y_unit not in ("1/s", "B/s"):
        claims, dropped = one_holder(claims)
        result_cache(_DROPPED, result)[key] = dropped
        return claims
    runs = kept_runs(result, cf)
    why = _contradicted(result, cf, runs, claims)
    for i, c in enumerate(claims):
        why[i] = why.get(i) or _misfit(result, cf, runs, c)
    kept, dropped = one_holder([c for i, c in enumerate(claims) if not why[i]])
    dropped += [(c.text, why[i]) for i, c in enumerate(claims) if why[i]]
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
