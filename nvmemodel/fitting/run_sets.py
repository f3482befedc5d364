"""Repeats that are two run sets: each point's runs split by run order into an earlier and a later block (two builds,
two sessions), one block above at every point and the gap growing along the axis — two curves, not noise around one.

A published table may type two runs of a whole sweep (say, two builds of the same code) as two repeats of each point.
Where the two sets keep a constant gap, or interleave, their mean is a level and their spread its noise; where one set
sits above the other at every point and the gap grows with x, the mean is neither set's curve: a level read from it,
or "near saturation", describes no run (set after round 31 was read: SD, r31_antonhpe-zfs19076 … async-dio_write,
"flattens at 81.12 K IOPS … 2 runs a point, their spread the noise" where runs 0–4 (2.5.14) rose to 106 K and runs
5–9 (2.5.16) held 64–70 K from depth 8, ×1.04 → ×1.51 apart; counter-cases its async-dio_read and sync-dio_read
siblings, one build above by a constant 1–4 %).
"""

from __future__ import annotations

import numpy as np

__all__ = ["APART_LAST", "GROWS", "diverging_sets", "sets_words"]

#: the last point's sets at least this ratio apart (set after round 31 was read: SD — the hand read's "last gap
#: ≥ ×1.25"; ×1.25 is also load_time.HELD, the smallest change this package reads as more than the runs' drift)
APART_LAST = 1.25
#: … and the last gap (ratio − 1) at least this many times the first point's: the gap grew along x, not a constant
#: offset between the sets (set after round 31 was read: SD, "≥ 2× the first")
GROWS = 2.0
#: at least this many points: a gap growing over two points is one step
MIN_POINTS = 3


def diverging_sets(result, p) -> dict | None:
    """Where every point has the same even number (≥ 2) of runs, each point's earlier half (by ``run``) all before its
    later half in the run order of the whole table, one half's mean above the other's at every point and their ratio
    at the last point ≥ :data:`APART_LAST` and ≥ :data:`GROWS` × the first point's gap: ``{"x", "a", "b", "ratio",
    "runs_a", "runs_b"}`` (``a`` the set above), else None."""
    import pandas as pd

    from .claim import runs_rows

    if result.y_unit == "s" or len(p) < MIN_POINTS:
        return None
    try:
        rows = runs_rows(result, p)
    except Exception:  # noqa: BLE001 — no run rows: no sets
        return None
    y = getattr(result, "y", None)
    if rows is None or not len(rows) or "run" not in rows or result.x not in rows or y not in rows:
        return None
    run = pd.to_numeric(rows["run"], errors="coerce").to_numpy(float)
    xv = pd.to_numeric(rows[result.x], errors="coerce").to_numpy(float)
    yv = pd.to_numeric(rows[y], errors="coerce").to_numpy(float)
    if not (np.isfinite(run).all() and np.isfinite(xv).all() and np.isfinite(yv).all()):
        return None
    xs = np.unique(xv)
    if xs.size < MIN_POINTS:
        return None
    first: list[float] = []
    second: list[float] = []
    ra: list[np.ndarray] = []
    rb: list[np.ndarray] = []
    for v in xs:
        at = np.flatnonzero(xv == v)
        at = at[np.argsort(run[at], kind="stable")]
        m = at.size
        if m < 2 or m % 2 or (first and m != 2 * len(ra[0])):
            return None
        lo, hi = at[: m // 2], at[m // 2:]
        first.append(float(yv[lo].mean()))
        second.append(float(yv[hi].mean()))
        ra.append(run[lo])
        rb.append(run[hi])
    if not max(np.concatenate(ra)) < min(np.concatenate(rb)):  # two blocks of runs, not runs interleaved
        return None
    a, b = np.array(first), np.array(second)
    if not ((a > 0).all() and (b > 0).all()):
        return None
    if not ((a > b).all() or (b > a).all()):  # one set above at every point
        return None
    swap = bool((b > a).all())
    hi_, lo_ = (b, a) if swap else (a, b)
    ratio = hi_ / lo_
    if ratio[-1] < APART_LAST or ratio[-1] - 1 < GROWS * (ratio[0] - 1):
        return None
    runs_hi, runs_lo = (rb, ra) if swap else (ra, rb)
    return {"x": xs.tolist(), "a": hi_.tolist(), "b": lo_.tolist(), "ratio": ratio.tolist(),
            "runs_a": sorted(int(r) for rr in runs_hi for r in rr),
            "runs_b": sorted(int(r) for rr in runs_lo for r in rr)}


def _runs(ids: list[int]) -> str:
    return f"runs {ids[0]}–{ids[-1]}" if ids == list(range(ids[0], ids[-1] + 1)) else "runs " + ", ".join(map(str, ids))


def sets_words(result, d: dict, what: str) -> str:
    """"Measured IOPS is two curves, not one with noise: …" — each set's values along x and their ratio, no level."""
    from .claim import _xv
    from .wording import fmt_y, span

    u, x = result.y_unit, result.x
    at = ", ".join(_xv(result, v) for v in d["x"])

    def curve(vals):
        return ", ".join(fmt_y(v, u) for v in vals)

    r = d["ratio"]
    return (f"Measured {what} is two run sets, not repeats of one curve: each point's runs split by run order the "
            f"same way, {_runs(d['runs_a'])} above {_runs(d['runs_b'])} at every point, and the gap grows along {x} "
            f"(×{r[0]:.3g} at {_xv(result, d['x'][0])}, ×{r[-1]:.3g} at {_xv(result, d['x'][-1])}). "
            f"{_runs(d['runs_a']).capitalize()}: {curve(d['a'])}; {_runs(d['runs_b'])}: {curve(d['b'])} (at {x} = "
            f"{at}). Their mean is neither set's curve: no single level, and no near-saturation verdict, is read from "
            f"it; the sets differ by ×{span(f'{min(r):.3g}', f'{max(r):.3g}')} — whatever changed between them "
            f"(a build, a block of runs) is not in the files.")
