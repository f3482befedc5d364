"""Per-job rows of one run whose jobs ran for different times: Little's law per job, the run's level both ways.

Without ``group_reporting`` fio writes one row per job, each with the job's own ``runtime_s``, ``ios`` and rate over
its own runtime. Where every job of a run ran the whole run (time_based, or sizes no job finished), the sum of the
rows' rates is the run's rate and Σ IOPS × mean latency ÷ the jobs' depth is the I/O in flight over the run. Where
jobs finished their size early, neither holds: each job kept its depth while it ran (Little per job), but over the
run's span — its longest job's runtime — fewer I/Os were in flight, and the sum of the jobs' rates (each over its own
span, with fewer competitors after the others ended) is above the run's wall rate, Σ I/Os ÷ the span. CPU shares
summed over jobs likewise cover different spans: CPU-seconds ÷ the span is what the run used.

Set after round 31 was read: TA, r31_here-xfsfalloc_loop-xfs-900mimg_psync-direct_seqwrite4k-newfile_numjobs_repeats
(jobs ending at 1.19–3.00 s at numjobs = 8): "per run = 0.99–1.05 …; consistent (fio kept the I/O asked for
outstanding)" and a level of 60.06 K IOPS (Σ of the jobs' rates) where Σ I/Os ÷ the run's span was 35.8–60.5 K.
Counter-cases: runs whose jobs all ran the whole time (the same case's numjobs 1 and 2, every time_based sweep), one
group_reporting row a run, and start-up staggering of 1–2 %.
"""

from __future__ import annotations

import numpy as np

__all__ = ["LITTLE_JOB", "UNEVEN", "job_span_claims", "job_spans", "little_words", "level_words", "span_ok"]

#: Little's law per job within this band: each job held its depth while it ran (else the Little sentence keeps its
#: own words and causes; set after round 31 was read: TA)
LITTLE_JOB = (0.9, 1.1)
#: a run's shortest job ran less than (1 − this) × its longest job: the jobs did not all run the whole run (set after
#: round 31 was read: TA; fio's start-up staggering leaves 1–2 %, a job that finished its size early far more)
UNEVEN = 0.10


def _truthy(v) -> bool:
    return str(v).strip().lower() in ("true", "1")


def _runs(rows):
    """``[(source, frame of the run's per-job rows)]``: every run (no aggregate row): one row a job."""
    import pandas as pd

    if rows is None or not len(rows) or not {"runtime_s", "ios", "source_path"} <= set(rows.columns):
        return []
    if "is_aggregate" in rows:
        rows = rows[~rows["is_aggregate"].astype(object).map(_truthy).to_numpy(bool)]
    from .curves import _RUN_KEYS

    keys = [k for k in _RUN_KEYS if k in rows]  # a file's runs and stonewalled groups apart, as the fit keys them
    jobk = [k for k in ("job_name", "job_index") if k in rows]
    if not jobk or "source_path" not in keys:
        return []
    out = []
    for k, g in rows.groupby(keys, sort=False, dropna=False):
        if len(g):
            out.append((str(k[0] if isinstance(k, tuple) else k), g, jobk))
    del pd
    return out


def _run_fact(g, jobk, direction):
    """The span fact of one run's rows ``g`` (or None where a needed figure is missing)."""
    import pandas as pd

    num = lambda c: pd.to_numeric(g[c], errors="coerce") if c in g else pd.Series(np.nan, index=g.index)  # noqa: E731
    rt, ios, lat = num("runtime_s"), num("ios"), num("lat_mean_s")
    sel = (g["direction"] == direction).to_numpy(bool) if direction and "direction" in g else np.ones(len(g), bool)
    job = pd.Series(["/".join(map(str, t)) for t in zip(*(g[k].tolist() for k in jobk))], index=g.index)
    t_job = rt.groupby(job).max()
    if not (np.isfinite(t_job).all() and (t_job > 0).all()):
        return None
    t_hi, t_lo = float(t_job.max()), float(t_job.min())
    n_ios = float(ios[sel].sum(min_count=1))
    nb = float(num("io_bytes")[sel].sum(min_count=1))
    rate_sum = float(num("iops")[sel].sum(min_count=1))
    bw_sum = float(num("bw_bytes_per_s")[sel].sum(min_count=1))
    depth = num("iodepth").groupby(job).max().reindex(t_job.index).fillna(1.0)
    if "ioengine" in g:
        from .curves import SYNC_ENGINES

        eng = g["ioengine"].astype(str).groupby(job).first().reindex(t_job.index)
        depth[eng.isin(SYNC_ENGINES).to_numpy(bool)] = 1.0
    # Little per job: every direction's I/O of the job, over its own runtime
    xr = (ios * lat).groupby(job).sum(min_count=1).reindex(t_job.index)
    own = (xr / t_job / depth).to_numpy(float)
    cpu = (num("cpu_usr") + num("cpu_sys")).groupby(job).first().reindex(t_job.index)
    return {"t_lo": t_lo, "t_hi": t_hi, "jobs": int(len(t_job)), "depth": float(depth.sum()),
            "little_job": (float(np.nanmin(own)), float(np.nanmax(own))) if np.isfinite(own).any() else None,
            "in_flight": float(xr.sum(min_count=1)) / t_hi,
            "rate_sum": rate_sum, "rate_wall": n_ios / t_hi, "bw_sum": bw_sum, "bw_wall": nb / t_hi,
            "cpu_sum": float(cpu.sum(min_count=1)), "cpu_span": float((cpu * t_job).sum(min_count=1)) / t_hi}


def job_spans(result, key) -> dict | None:
    """``{"x": [...], "runs": [[run fact, …] a point], "uneven": [bool a point]}`` for a curve whose runs have per-job
    rows and at least one run's jobs ran for times more than :data:`UNEVEN` apart; None otherwise (one row a run,
    equal runtimes, no runtimes or I/O counts in the table, a latency curve)."""
    from .facts import curve_facts

    if result.y_unit not in ("1/s", "B/s"):
        return None
    return spans_of(result, curve_facts(result, key).points)


def spans_of(result, kp) -> dict | None:
    """:func:`job_spans` of the points ``kp`` (a curve's ``CurveFacts.points``)."""
    try:
        return _spans_of(result, kp)
    except (TypeError, ValueError, KeyError):  # a table this fact cannot read: no words, never a failed explanation
        return None


def _spans_of(result, kp) -> dict | None:
    from .claim import runs_rows
    from .curves import Y_COLUMNS

    if result.y_unit not in ("1/s", "B/s") or "sources" not in kp or "x" not in kp:
        return None
    import pandas as pd

    direction = Y_COLUMNS.get(result.y, (None, None))[1]
    rows = runs_rows(result, kp)
    if rows is not None:
        for b in result.by:  # this curve's rows only, where the points name their by value
            if b in kp and b in rows and kp[b].nunique() == 1:
                rows = rows[rows[b] == kp[b].iloc[0]]
    srcs_of = [[v for v in str(j).split(";") if v] for j in kp["sources"]]
    owners: dict = {}
    for i, ss in enumerate(srcs_of):
        for v in ss:
            owners.setdefault(v, set()).add(i)
    xs = kp["x"].to_numpy(float)
    per_point: list = [[] for _ in range(len(kp))]
    for src, g, jobk in _runs(rows):
        own = owners.get(src, set())
        if len(own) > 1:  # a file holding several points: the run's own x value tells which (else not read)
            xv = pd.to_numeric(g[result.x], errors="coerce").dropna().unique() if result.x in g else []
            own = {i for i in own if len(xv) == 1 and np.isclose(xs[i], xv[0])}
        if len(own) != 1:
            continue
        f = _run_fact(g, jobk, direction)
        if f is not None:
            per_point[own.pop()].append(f)
    if not any(per_point):
        return None
    uneven = []
    for fs in per_point:
        uneven.append(any(f["t_lo"] < (1 - UNEVEN) * f["t_hi"] for f in fs))
    if not any(uneven):
        return None
    return {"x": kp["x"].to_numpy(float).tolist(), "runs": per_point, "uneven": uneven,
            "unit": result.y_unit}


def span_ok(result, p) -> bool:
    """True unless some run of the points ``p`` (a curve's ``CurveFacts.points``) had jobs that ran for different
    times (:func:`job_spans`): Little per job then says nothing of the run's in-flight I/O, so "the added load waited,
    by Little's law" is not read from it."""
    try:
        return spans_of(result, p) is None
    except Exception:  # noqa: BLE001 — a fact that cannot be computed keeps the old words
        return True


def _range(vals, spec) -> str:
    from .wording import span

    v = [x for x in vals if np.isfinite(x)]
    return span(format(min(v), spec), format(max(v), spec)) if v else "n/a"


def little_words(result, key) -> str:
    """The Little sentence for per-job rows of unequal runtimes: per job, then in flight over the runs' spans. ""
    where the fact does not hold."""
    from .claim import _xv
    from .wording import span

    d = job_spans(result, key)
    if d is None:
        return ""
    lit = [f["little_job"] for fs in d["runs"] for f in fs if f["little_job"]]
    if not lit:
        return ""
    lo, hi = min(v[0] for v in lit), max(v[1] for v in lit)
    if not (LITTLE_JOB[0] <= lo and hi <= LITTLE_JOB[1]):  # a job short of its depth: the old words and causes
        return ""
    ended, flight = [], []
    for xv, fs, un in zip(d["x"], d["runs"], d["uneven"]):
        if not un:
            continue
        at = f"{result.x} = {_xv(result, xv)}"
        t0, t1 = min(f["t_lo"] for f in fs), max(f["t_hi"] for f in fs)
        ended.append(f"{span(f'{t0:.2f}', f'{t1:.2f}')} s at {at}")
        flight.append(f"{_range([f['in_flight'] for f in fs], '.2f')} of {_fmt_n(fs[0]['depth'])} at {at}")
    kept = "each job kept the I/O asked for outstanding while it ran"
    return (f"Little's law check: measured IOPS × mean latency ÷ outstanding I/O, per job (each over its own "
            f"runtime) = {span(f'{lo:.2f}', f'{hi:.2f}')}: {kept}; but the jobs of a run did not all run the whole "
            f"run (one row per job; their runtimes were {_and(ended)}), so over a run's span (its longest job) on "
            f"average {_and(flight)} were in flight (Σ I/Os × mean latency ÷ the span).")


def _and(items: list) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _fmt_n(v: float) -> str:
    return f"{v:.0f}" if float(v).is_integer() else f"{v:.3g}"


def level_words(result, key) -> str:
    """'The jobs of a run ran for different times …: the level both ways, and CPU ÷ the run's span' — or ""."""
    from .claim import _xv
    from .wording import cpus_words, fmt_y

    d = job_spans(result, key)
    if d is None:
        return ""
    u = d["unit"]
    s_key, w_key = ("rate_sum", "rate_wall") if u == "1/s" else ("bw_sum", "bw_wall")
    xs = np.asarray(d["x"], float)
    med_sum = np.array([np.median([f[s_key] for f in fs]) if fs else np.nan for fs in d["runs"]])
    med_wall = np.array([np.median([f[w_key] for f in fs]) if fs else np.nan for fs in d["runs"]])
    if not (np.isfinite(med_sum).all() and np.isfinite(med_wall).all()):
        return ""
    un = np.asarray(d["uneven"], bool)
    parts = []
    for i in np.flatnonzero(un):
        fs = d["runs"][i]
        ratio = [f[s_key] / f[w_key] for f in fs if f[w_key] > 0]
        parts.append(f"at {result.x} = {_xv(result, xs[i])} Σ of the jobs' rates {fmt_y(med_sum[i], u)}, Σ I/Os ÷ "
                     f"the run's span {fmt_y(med_wall[i], u)} (medians; ×{_range(ratio, '.2f')} apart by run)")
    text = (f"The jobs of a run ran for different times (one row per job, no group_reporting): a run's rate read as "
            f"the Σ of its jobs' own rates counts each job over its own span; the wall rate, Σ I/Os ÷ the run's span "
            f"(its longest job), is what the run delivered: {'; '.join(parts)}.")
    if xs.size >= 2:
        g_sum, g_wall = med_sum[1:] / med_sum[:-1] - 1, med_wall[1:] / med_wall[:-1] - 1
        steps = ", ".join(f"{g:+.0%} ({_xv(result, xs[i])} → {_xv(result, xs[i + 1])})"
                          for i, g in enumerate(g_wall))
        same = bool(np.all(np.sign(np.round(g_sum, 2)) == np.sign(np.round(g_wall, 2))))
        text += (f" Step by step on the wall rate (medians): {steps}"
                 + ("; each step goes the same way on both." if same else
                    "; the steps differ in direction between the two: read them on the wall rate."))
    cs = [(f["cpu_sum"], f["cpu_span"]) for i in np.flatnonzero(un) for f in d["runs"][i]
          if np.isfinite(f["cpu_sum"]) and np.isfinite(f["cpu_span"])]
    if cs:
        last = int(np.flatnonzero(un)[-1])
        fs = [f for f in d["runs"][last] if np.isfinite(f["cpu_span"])]
        if fs:
            text += (f" CPU likewise: at {result.x} = {_xv(result, xs[last])} the jobs' CPU shares sum to "
                     f"{cpus_words(float(np.median([f['cpu_sum'] for f in fs])))}, but CPU-seconds ÷ the run's span "
                     f"give {cpus_words(float(np.median([f['cpu_span'] for f in fs])))} (medians of the runs).")
    return text


def job_span_claims(result, key) -> list:
    """The level both ways and CPU ÷ the span as one claim (``little``), where the fact holds."""
    from .claim import Claim

    text = level_words(result, key)
    return [Claim("little", text, facts={"job_spans": True})] if text else []
