"""An onset read on repeated runs, against the runs themselves: where the runs of the onset and of the point before it
overlap, the runs do not tell which of the two the level starts at, and a later step whose runs do not overlap is a
rise the level's words would otherwise leave unsaid.

The saturation facts read an onset from each point's level and a gain per doubling (:data:`PAYS`). With repeats, a
step is told from the noise only where every run of one point lies above every run of the other (the test the
"runs of one … differ by up to" sentence states). "Saturated from numjobs = 3" over runs at 2 (101.2–139.3 K) that
overlap those at 3 (128.9–156.9 K) claimed a precision the runs do not have, and the step 4 → 8 (every run at 8 above
every run at 4, +21 %) went unsaid (set after round 23 was read: r23_here-cpusplit loop numjobs, part 2 AC).
"""

from __future__ import annotations

import numpy as np

from .wording import fmt_y

__all__ = ["onset_range", "onset_runs_words"]


def _runs(p, i: int, left=()):
    """Point ``i``'s kept runs without those the saturation sentence's level left out (``left``: (x, rate) pairs,
    plateau_level._robust_level), None under two."""
    k = p["runs_kept"].iloc[i] if "runs_kept" in p else None
    k = np.atleast_1d(np.asarray(k if k is not None else [], float))
    x = float(p["x"].iloc[i])
    out = [v for v in k if not any(np.isclose(a, x) and np.isclose(r, v, rtol=1e-6) for a, r in left)]
    k = np.asarray(out, float)
    return k if k.size >= 2 else None


def onset_range(p, k: int, left=(), last: int | None = None) -> dict | None:
    """With ≥ 2 kept runs at every point up to and after onset index ``k``: the first index ``i`` ≤ ``k`` from which
    each point's runs overlap those of every later point on the level (to index ``last``, the level's end, or to the
    first later step the runs tell apart, which is said on its own; the onset
    lies in [x_i, x_k] as far as the runs tell), and the later steps whose runs do not overlap and whose medians gain
    :data:`~nvmemodel.fitting.facts.PAYS` or more per doubling. ``left``: the runs the saturation sentence's level left
    out (one kept set for both sentences). None where the runs do not decide less than the levels do (no overlap
    before, no such later step). Every later point, not the onset's alone (set after the review of round 23's fixes:
    r4_here_null numjobs, "[1, 4]" with every run at 8 above every run at 1; r17 cpuquota, "[1, 2]" with every run
    at 16 above every run at 1; r21 uringbuf, the overlap only through the run the level left out)."""
    from .facts import PAYS

    n = len(p)
    runs = [_runs(p, j, left) for j in range(n)]
    split = p["split"].to_numpy(bool) if "split" in p else np.zeros(n, bool)
    if k < 1 or any(r is None for r in runs) or split[k - 1] or split[k]:
        return None  # (a split point has no one level: no step is read from it)
    xs = p["x"].to_numpy(float)
    last = n - 1 if last is None else int(last)
    later = []
    for a in range(k, n - 1):
        b = a + 1
        if split[a] or split[b]:
            continue
        med_a, med_b = float(np.median(runs[a])), float(np.median(runs[b]))
        per = (med_b / med_a) ** (1 / np.log2(xs[b] / xs[a])) - 1 if xs[b] > xs[a] > 0 else 0.0
        if runs[b].min() > runs[a].max() and per >= PAYS:
            later.append({"x0": float(xs[a]), "x1": float(xs[b]), "gain": med_b / med_a - 1, "per_doubling": per})
    # (a point past a later step the runs do tell apart is that step's, said on its own — "a level or a slow rise")
    upto = min([last] + [int(np.flatnonzero(xs == st["x0"])[0]) for st in later])
    i = k
    while i > 0 and not split[i - 1] and all(runs[i - 1].max() >= runs[j].min()
                                             for j in range(k, upto + 1) if not split[j]):
        i -= 1
    if i == k and not later:
        return None
    return {"x_from": float(xs[i]), "x_to": float(xs[k]), "later": later}


def onset_runs_words(result, cf) -> str:
    """The onset as the range its runs allow and the later non-overlapping steps (a sentence), "" where the runs
    decide no less than the levels."""
    from .claim import _xv

    s = cf.saturation.facts if cf is not None and cf.saturation is not None else {}
    if s.get("state") != "onset" or s.get("onset_index") is None or s.get("by_runs") is not None:
        return ""
    p = cf.points
    left = (s.get("robust") or {}).get("left") or ()
    to = s.get("plateau_x_to")
    last = int(np.flatnonzero(np.isclose(p["x"].to_numpy(float), to))[0]) if to is not None else None
    r = onset_range(p, int(s["onset_index"]), left, last)
    if r is None:
        return ""
    x, u = result.x, result.y_unit
    out = []
    if r["x_from"] < r["x_to"]:
        i = int(np.flatnonzero(p["x"].to_numpy(float) == r["x_from"])[0])
        k = int(s["onset_index"])
        lo_i, hi_i = _runs(p, i, left).min(), _runs(p, i, left).max()
        lo_k, hi_k = _runs(p, k, left).min(), _runs(p, k, left).max()
        out.append(f"By the runs themselves the onset is in [{_xv(result, r['x_from'])}, {_xv(result, r['x_to'])}]: "
                   f"the runs at {_xv(result, r['x_from'])} ({fmt_y(lo_i, u)} to {fmt_y(hi_i, u)}) overlap those at "
                   f"{_xv(result, r['x_to'])} ({fmt_y(lo_k, u)} to {fmt_y(hi_k, u)})")
    for st in r["later"]:
        out.append(f"every run at {_xv(result, st['x1'])} is above every run at {_xv(result, st['x0'])} "
                   f"({st['gain']:+.0%} by their medians"
                   + (f", {st['per_doubling']:+.0%} per doubling of {x}" if abs(st["x1"] / st["x0"] - 2) > 0.01 else "")
                   + "): a level or "
                   f"a slow rise after the onset, these runs cannot tell")
    if not out:
        return ""
    text = "; ".join(out)
    return text[0].upper() + text[1:] + "."
