"""Drift over a series in run order: a point measured first and again after the rest of the sweep.

Where the table gives the run order (each run of the curve its own ``run`` ordinal — a transcription in printed
order, or runs appended to one file) and one point's runs bracket every other point's (its first run before them,
its last after them), the difference between its two runs is the series' drift while it was measured, not a repeat's
scatter: said with both values, never pooled silently into "their spread the noise" (set after round 25 was read:
DB, r25_juicefsceph_direct-rados-read … by-objsize, the QD1 re-run after QD32 25 % / 17.5 % above the first QD1 run,
averaged into QD1 and called "the noise"). Where each run's file gives no order (every ``run`` 0, one file a run),
nothing is said: the order is not in the data.

The pooled mean of the two runs is a rate measured at no time; a step list that starts at the drifted point starts
from its run measured in sequence with the points beside it (``in_sequence``: the run nearer in run order to theirs)
and says so (:func:`sequence_note`), so the steps are what the sweep measured one after the other (set after round 26
was read, remnant 1: the same case's "Step by step from 0.363 GB/s … +87% (1 → 2)", from the first run +111 %). The
onset, level and bend facts stay on the points' means: the drift changed none of them there, and where the drifted
point lies inside a step list its mean is named as such.
"""

from __future__ import annotations

import numpy as np

from .fact_base import FLAT

#: a bracketing repeat's difference is drift only beyond the larger of this and the other repeated points' largest
#: spread (1 − lowest ÷ highest): the ±FLAT band a level is read within, no new threshold (set after round 25 was read:
#: r25 16m-write's QD8 first and last runs, 3.7 % apart while the curve falls 30 %, stay silent)
DRIFT_FLOOR = FLAT


def series_drift(result, p) -> dict | None:
    """``{"x", "first", "last", "change", "after_x", "others_rel"}`` — the point whose first run came before and whose
    last run came after every other point's runs, where its last run differs from its first by more than
    :data:`DRIFT_FLOOR` and the other repeated points' spread; None otherwise (or where the run order is unknown)."""
    col = {"1/s": "iops", "B/s": "bw_bytes_per_s"}.get(result.y_unit)
    tbl = getattr(result, "table", None)
    if col is None or tbl is None or not {"source_path", "run", col} <= set(tbl.columns) or "sources" not in p:
        return None
    from ..ingest.summary import usable_rows

    rows = usable_rows(tbl)
    pts = []  # per point: [(run, value)] one a source
    for i in range(len(p)):
        srcs = [s for s in str(p["sources"].iloc[i]).split(";") if s]
        r = rows[rows["source_path"].astype(str).isin(srcs)]
        if r.empty or r["run"].isna().any():
            return None
        runs = []
        for _src, g in r.groupby(r["source_path"].astype(str)):
            if g["run"].nunique() != 1 or g[col].isna().any():
                return None
            runs.append((int(g["run"].iloc[0]), float(g[col].sum())))
        pts.append(sorted(runs))
    order = [o for runs in pts for o, _ in runs]
    if len(order) != len(set(order)) or len(pts) < 3:
        return None  # (two runs with one ordinal: the files give no order across them)
    for i, runs in enumerate(pts):
        if len(runs) < 2:
            continue
        others = [o for j, r in enumerate(pts) if j != i for o, _ in r]
        (o0, v0), (o1, v1) = runs[0], runs[-1]
        if not (o0 < min(others) and o1 > max(others)) or min(v0, v1) <= 0:
            continue
        own = 1 - min(v0, v1) / max(v0, v1)
        rest = [1 - min(v for _, v in r) / max(v for _, v in r) for j, r in enumerate(pts) if j != i and len(r) >= 2]
        others_rel = max(rest) if rest else 0.0
        if own <= max(DRIFT_FLOOR, others_rel):
            continue
        last_other = max(((o, j) for j, r in enumerate(pts) if j != i for o, _ in r))[1]
        # the run measured in sequence with its neighbours along x: the one nearer in run order to their runs (the
        # first where both are as near) — the value the step list starts from (round 26 remnant 1)
        near = [o for j in (i - 1, i + 1) if 0 <= j < len(pts) for o, _ in pts[j]]
        seq_last = bool(near) and min(abs(o1 - o) for o in near) < min(abs(o0 - o) for o in near)
        return {"x": float(p["x"].iloc[i]), "first": v0, "last": v1, "change": v1 / v0 - 1,
                "in_sequence": v1 if seq_last else v0, "sequence_run": "last" if seq_last else "first",
                "after_x": float(p["x"].iloc[last_other]), "others_rel": float(others_rel),
                "others_repeated": bool(rest), "n_runs": len(runs)}
    return None


def sequence_note(d: dict) -> str:
    """" (its first run, measured in sequence with the points beside it; the drift below)": said beside the value a
    step list starts from where that value is the drifted point's run in sequence, not its two runs' mean."""
    return f" (its {d['sequence_run']} run, measured in sequence with the points beside it; the drift below)"


def drift_words(result, d: dict, steps_from_run: bool = False) -> str:
    """"the runs at iodepth = 1 are the first and the last of the series in run order: 0.323 GB/s first, 0.403 GB/s
    after iodepth = 32 (+25%), more than the ±10% band a level is read within (no other point repeated): the series
    drifted while it was measured, not a repeat's scatter, and the level at iodepth = 1 is the mean of the two" —
    with ``steps_from_run`` (the step list started from the run in sequence, :func:`sequence_note`): "…, so the steps
    from iodepth = 1 start from its first run, not from the mean of the two"."""
    from .fact_words import _xv
    from .wording import fmt_y

    x, u = result.x, result.y_unit
    than = (f"more than the runs of any other point differ (up to {d['others_rel']:.0%})" if d["others_repeated"] and
            d["others_rel"] > DRIFT_FLOOR else f"more than the ±{DRIFT_FLOOR:.0%} band a level is read within"
            + ("" if d["others_repeated"] else " (no other point repeated)"))
    return (f"the runs at {x} = {_xv(result, d['x'])} are the first and the last of the series in run order: "
            f"{fmt_y(d['first'], u)} first, {fmt_y(d['last'], u)} after {x} = {_xv(result, d['after_x'])} "
            f"({d['change']:+.0%}), {than}: the series drifted while it was measured, not a repeat's scatter"
            + (f", so the steps from {x} = {_xv(result, d['x'])} start from its {d['sequence_run']} run, not from the "
               f"mean of the {'two' if d['n_runs'] == 2 else 'runs'}" if steps_from_run else
               f", and the level at {x} = {_xv(result, d['x'])} is the mean of the "
               f"{'two' if d['n_runs'] == 2 else 'runs'}"))
