"""The runs a level sentence sets aside are out of its step list too: one set of kept runs per sentence.

Set after round 27 was read (IG: r27_here-filestat_tmpfs-64files_filestat-stat_numjobs_repeats, "Plateau 1.02 M …
1 run … (732.34 K IOPS at 2) left out" beside "Up to it the load still paid: +78% per doubling", the 2-job mean with
that run; +98 % by the runs kept). The plateau's robust level (``saturation_facts``' ``robust["left"]``: runs far
below their point's others) names the runs it leaves out; the step list of the same sentence is then read from each
point's kept runs without them, by the same statistic (their mean) as its other steps. Nothing changes where no run
is set aside, or with one run a point (nothing to set aside).
"""

from __future__ import annotations

import numpy as np

__all__ = ["without_left"]


def without_left(p, ys, left) -> np.ndarray:
    """``ys`` (each point's kept-run mean, in ``p``'s order) with the runs ``left`` — ``(x, value)`` pairs — taken
    out of their point's mean; a point all of whose runs would go keeps its value. ``ys`` itself where ``left`` is
    empty or ``p`` holds no runs."""
    ys = np.asarray(ys, float)
    if not left or "runs_kept" not in p:
        return ys
    out = ys.copy()
    xs = p["x"].to_numpy(float)
    for i, runs in enumerate(p["runs_kept"]):
        drop = [v for a, v in left if np.isclose(a, xs[i])]
        if not drop:
            continue
        r = np.asarray(runs, float)
        keep = np.ones(r.size, bool)
        for v in drop:  # (each named run once, matched to the printing's rounding)
            hit = np.flatnonzero(keep & np.isclose(r, v, rtol=1e-6))
            if hit.size:
                keep[hit[0]] = False
        if keep.any():
            out[i] = float(r[keep].mean())
    return out
