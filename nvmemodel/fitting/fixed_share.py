"""At one request outstanding on a flat byte level: the fixed time per request beside its bytes (round 32 VC).

Only where no layer is known to have served the I/O (a page cache, tmpfs or network engine has no device time to split:
its level is a copy the CPU makes) and numjobs is stated with one I/O outstanding at every point of the level.

Each request's time at one outstanding is its bytes at the level's rate plus a part that does not grow with them
(time − size ÷ level). That part's share of the time is how much overlapping requests on this stream could add at
most, if the level is the stream's transfer rate; several streams may engage more hardware, which the files do not
show. Set after round 32 was read (VC: r32_bian-perc-hdd_psync-direct-1job_seqread_bs, "the byte rate at that depth,
not shown to be a cap" where 2.3–4.1 ms of 289 ms–1.15 s a request, ≤ 1.1 %, is not the bytes).
"""

from __future__ import annotations

import numpy as np


def fixed_parts(points, n_level: int, level: float) -> dict | None:
    """The fixed part of each request's time over the last ``n_level`` points (one I/O outstanding at each, its time
    fio's mean latency or else 1 ÷ IOPS) against the byte level ``level``; None where a point has more than one I/O
    outstanding or no time."""
    p = points.iloc[len(points) - n_level:]
    if n_level < 2 or not {"x", "iops", "out"} <= set(p.columns) or not level > 0:
        return None
    out = p["out"].to_numpy(float)
    if not (np.isfinite(out).all() and np.all(out == 1)):
        return None
    iops = p["iops"].to_numpy(float)
    t = 1.0 / iops  # one request's whole cycle at one outstanding (Little's law, N = 1), the job's own time included
    if not (np.isfinite(t).all() and (t > 0).all()):
        return None
    fixed = np.clip(t - p["x"].to_numpy(float) / level, 0.0, None)
    share = fixed / t
    return {"fixed": (float(fixed.min()), float(fixed.max())), "time": (float(t.min()), float(t.max())),
            "share": float(share.max())}


def fixed_words(d: dict | None, level_words: str) -> str:
    from .wording import fmt_y, span

    if d is None:
        return ""
    return (f"; each request's time (1 ÷ IOPS at one outstanding, {span(fmt_y(d['time'][0], 's'), fmt_y(d['time'][1], 's'))}) beyond its "
            f"bytes at {level_words} (the level's top) is at most {fmt_y(d['fixed'][1], 's')}, {d['share']:.1%} of "
            f"it: overlapping requests on this stream could add at most about that share; whether "
            f"parallel streams add more these files do not show")
