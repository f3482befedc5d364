"""Runs of a sweep that stopped early: which point, how long, and whether their rate agrees with the other runs.

fio reports the time each job ran (``runtime_s``) and the I/Os it completed (``ios``). A time-based sweep
(``--time_based --runtime``) runs every point for the same time, to within the rounding of fio's own timer. A run
far shorter than the rest either finished the bytes it was given (``size``/``io_size`` without ``time_based``) or was
stopped: a signal (fio's "fio: terminating on signal", which ingest warns of), a wrapper's timeout, an error. The two
are told apart by the I/O done: a run that stopped on its size did at least as many I/Os per job as the runs that ran
their whole time (they did not reach that size), while a run that stopped early did fewer — neither its time nor a
size the others did not reach ended it. Such a run is measured over less time, so it may carry start-up (caches,
queues filling) the others average out: the reader is told which point it is and whether its rate agrees with what the
other runs say (set after round 19 was read: r19_zwal_zns-ssd_8k-zoneappend_iouring-cmd-sqpoll_qd, QD64 16.7 s and
592 K appends against 60.0 s and up to 2.13 M at the other points, its file opening "fio: terminating on signal 2",
unremarked while it was the plateau's second point, TC). Counters: r6_kangeek_p3600 and r5_nknytk (runs that ended on
their size, the same I/O count at every short point), r19_silentzns … numjobs (a size-bound sweep, 11.8–18.8 s).

A run ingest saw stopped by a signal is said whatever its length where the other runs' lengths differ anyway (a
size-bound sweep): whether it ran short is then not shown, and the sentence says so.
"""

from __future__ import annotations

import re

import numpy as np

__all__ = ["SAME_LENGTH", "SHORTER", "cut_short", "cut_short_claims"]

#: the other runs' runtimes within this of their median: a sweep timed alike (fio's timer leaves < 1 % at 60 s)
SAME_LENGTH = 0.05
#: a run shorter than (1 − this) × the other runs' median runtime ran far shorter than they did
SHORTER = 0.2
#: a short run's I/Os per job this far below the most a full-length run did per job: it did not stop on a size
FEWER = 0.01
#: ingest's warning of a report fio wrote after a signal stopped it (``ingest.api._warn_signal``)
_SIGNAL = re.compile(r"^(.*): fio was stopped by a signal")


def _signalled(result) -> list[str]:
    """The paths of the files whose fio report followed a signal (ingest's warnings kept with the fit)."""
    out = []
    for w in getattr(result, "ingest_warnings", None) or []:
        m = _SIGNAL.match(str(w))
        if m:
            out.append(m.group(1).replace("\\", "/"))
    return out


def cut_short(result, p) -> dict | None:
    """``{"runs": [{"k", "source", "runtime_s", "ios_per_job", "bytes_per_job", "value", "signal"}, …], "others_s":
    (lo, hi), "median_s", "others_ios" / "others_bytes": the most per job of a full-length run, "alike", "one_size"}``
    for the curve's points ``p`` (``facts._points``): the runs that ran less than (1 − :data:`SHORTER`) × the median
    runtime of the other runs (which agree within :data:`SAME_LENGTH`: ``alike``) and moved fewer bytes per job (I/Os
    where bytes are not known) than some full-length run, and any
    run ingest saw stopped by a signal where the runs are not alike; None where there is none, or runtimes or I/O
    counts are not in the table. ``value`` is the run's own rate (y), NaN where the table cannot tell it."""
    import pandas as pd

    from .claim import runs_rows
    from .facts import _run_values

    rows = runs_rows(result, p)
    if rows is None or not len(rows) or not {"runtime_s", "ios"} <= set(rows.columns):
        return None
    if "is_aggregate" in rows:
        rows = rows[~rows["is_aggregate"].astype(object).map(lambda v: str(v).strip().lower() in ("true", "1"))]
    src = rows["source_path"].astype(str)
    rt = pd.to_numeric(rows["runtime_s"], errors="coerce").groupby(src).max()
    ios = pd.to_numeric(rows["ios"], errors="coerce").groupby(src).sum(min_count=1)
    size = (pd.to_numeric(rows["io_bytes"], errors="coerce").groupby(src).sum(min_count=1) if "io_bytes" in rows
            else pd.Series(dtype=float))
    err = (pd.to_numeric(rows["error"], errors="coerce").groupby(src).max() if "error" in rows
           else pd.Series(dtype=float))
    jobs = p["jobs"].to_numpy(float) if "jobs" in p else np.ones(len(p))
    per_io = p["bytes_per_io"].to_numpy(float) if "bytes_per_io" in p else np.full(len(p), np.nan)
    runs = []  # (point, source, runtime, I/Os per job, bytes per job)
    for k, srcs in enumerate(p["sources"].astype(str)):
        for s in (s for s in srcs.split(";") if s):
            if s in rt.index and np.isfinite(rt[s]) and rt[s] > 0:
                n = jobs[k] if np.isfinite(jobs[k]) and jobs[k] > 0 else 1.0
                i = float(ios.get(s, np.nan)) / n
                b = float(size.get(s, np.nan)) / n
                runs.append((k, s, float(rt[s]), i, b if np.isfinite(b) else i * per_io[k]))
    if len(runs) < 3:
        return None
    # what a size (bytes per job) stops: bytes where known at every run, else I/Os (one size of I/O)
    t, per = np.array([r[2] for r in runs]), np.array([r[4] for r in runs])
    if not np.isfinite(per).all():
        per = np.array([r[3] for r in runs])
    sig = _signalled(result)
    signal = np.array([any(s.endswith(w) or w.endswith(s) for w in sig) for _, s, _, _, _ in runs], bool)
    short = t < (1 - SHORTER) * np.median(t)
    others = t[~(short | signal)]
    alike = others.size >= 2 and bool(np.all(np.abs(others / np.median(others) - 1) <= SAME_LENGTH))
    if alike:  # (the median of the runs that ran alike, then the runs short of it)
        short = t < (1 - SHORTER) * float(np.median(others))
    full = ~(short | signal)
    most = float(np.nanmax(per[full])) if alike and np.isfinite(per[full]).any() else np.nan
    # a short run that did as many I/Os per job as a full-length run may have ended on its size: not said
    stopped = short & alike & np.isfinite(per) & (per < (1 - FEWER) * most)
    flagged = stopped | (signal & (stopped | (not alike)))
    if not flagged.any() or not full.any():
        return None
    out = []
    for (k, s, r, n, b), cut, sg in zip(runs, flagged, signal):
        if not cut:
            continue
        srcs = sorted(v for v in str(p["sources"].iloc[k]).split(";") if v)
        each = _run_values(result, p, k) if len(srcs) > 1 else np.array([float(p["y"].iloc[k])])
        value = float(each[srcs.index(s)]) if each.size == len(srcs) else np.nan
        e = float(err.get(s, np.nan))
        out.append({"k": k, "source": s, "runtime_s": r, "ios_per_job": n, "bytes_per_job": b, "value": value,
                    "signal": bool(sg), "error": e, "set": bool(e == 0 and not sg and set_runtime(r) is not None)})
    one_size = bool(np.isfinite(per_io).all() and np.allclose(per_io, per_io[0], rtol=0.01))
    full_ios = np.array([r[3] for r in runs])[full]
    return {"runs": out, "others_s": (float(t[full].min()), float(t[full].max())),
            "median_s": float(np.median(t[full])), "alike": alike, "one_size": one_size,
            "others_ios": float(np.nanmax(full_ios)) if np.isfinite(full_ios).any() else np.nan,
            "others_bytes": float(np.nanmax(np.array([r[4] for r in runs])[full]))
            if np.isfinite(np.array([r[4] for r in runs])[full]).any() else np.nan}


#: a runtime fio was set to is a whole number of seconds, a multiple of this (5 s, 10 s, 30 s, 60 s …) …
ROUND_S = 5.0
#: … which fio overshoots by its last I/Os only: at most this share of it plus :data:`OVERSHOOT_S` (set after round 30
#: was read: RF, r30_croit_ceph-rbd-rep3-6x-exos2x14-mach2_4k-randread-librbd_iodepth, 10.003 s with fio error 0 said
#: "stopped before its time … (a signal, a timeout or an error)" beside runs of 900.0–901.6 s)
OVERSHOOT = 0.001
OVERSHOOT_S = 0.05


def set_runtime(r: float) -> float | None:
    """The round runtime (a multiple of :data:`ROUND_S`) a run of ``r`` seconds ran to, overshooting it by no more
    than fio's last I/Os take; None where ``r`` is not such a figure (a run cut at a random moment rarely is)."""
    n = ROUND_S * np.floor(r / ROUND_S + 1e-9)
    if n <= 0:
        return None
    return float(n) if r - n <= OVERSHOOT * n + OVERSHOOT_S else None


def _agreement(result, p, run: dict, lv: list) -> str:
    """Whether a stopped run's rate agrees with what the other runs say: its point's other runs where there are some,
    else the other points of the level the saturation fact reads it in; else that it cannot be told."""
    from .claim import _xv
    from .facts import LEVEL_STEP
    from .wording import fmt_y, span

    u, x, k, v = result.y_unit, result.x, run["k"], run["value"]
    if not np.isfinite(v):
        return ""
    own = [float(r) for r in np.atleast_1d(lv[k]["kept"]) if not np.isclose(float(r), v, rtol=1e-9)]
    if lv[k]["runs"] >= 2 and own:
        lo, hi = min(own), max(own)
        if lo <= v <= hi:
            return f"its rate, {fmt_y(v, u)}, lies among its point's other runs ({span(fmt_y(lo, u), fmt_y(hi, u))})"
        d = v / (hi if v > hi else lo) - 1
        return (f"its rate, {fmt_y(v, u)}, lies {abs(d):.0%} {'above' if d > 0 else 'below'} its point's other runs "
                f"({span(fmt_y(lo, u), fmt_y(hi, u))})")
    level = run.get("level")
    if not level:
        return f"its rate, {fmt_y(v, u)}, is its point's only run and outside a level: whether it agrees is not told"
    y, xs = p["y"].to_numpy(float), p["x"].to_numpy(float)
    rest = [j for j in level if j != k]
    d = v / float(np.mean(y[rest])) - 1
    at = ", ".join(f"{fmt_y(y[j], u)} at {x} = {_xv(result, xs[j])}" for j in rest[:3])
    verdict = "agrees with" if abs(d) <= LEVEL_STEP else "differs from"
    return (f"its rate, {fmt_y(v, u)}, {verdict} the level's other point{'s' * (len(rest) > 1)} ({at}{', …' * (len(rest) > 3)}"
            f": {d:+.2%})")


def _done(c: dict, run: dict | None = None) -> str:
    """What a run did (``run``) or the most a full-length run did per job: I/Os where every point's I/O is one size,
    else bytes (decimal, as the rates)."""
    from .wording import _count

    if c["one_size"]:
        v = run["ios_per_job"] if run is not None else c["others_ios"]
        return f"{_count(v)} I/Os" if np.isfinite(v) else ""
    v = run["bytes_per_job"] if run is not None else c["others_bytes"]
    if not np.isfinite(v):
        return ""
    f, name = next(((f, n) for f, n in ((1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")) if v >= f), (1.0, "B"))
    return f"{v / f:.3g} {name}"


def cut_short_claims(result, key) -> list:
    """The caution of :func:`cut_short` for one curve ([] where no run stopped early): which point, how long and how
    many I/Os against the others, fio's signal where ingest saw it, and whether the run's rate agrees
    (:func:`_agreement`)."""
    from .claim import Claim, _xv
    from .facts import curve_facts, point_levels
    from .wording import _fx, fmt_y

    cf = curve_facts(result, key)
    p = cf.points
    c = cut_short(result, p)
    if c is None:
        return []
    lv = point_levels(result, p)
    sat = cf.saturation.facts if cf.saturation is not None else {}
    level = None
    if sat.get("state") in ("onset", "from_first") and sat.get("onset_index") is not None:
        xs = p["x"].to_numpy(float)
        level = [j for j in range(int(sat["onset_index"]), xs.size) if xs[j] <= sat.get("plateau_x_to", xs[-1])]
    x, said, agree = result.x, [], []
    jobs = "" if not ("jobs" in p and (p["jobs"].to_numpy(float) > 1).any()) else " per job"
    for run in c["runs"][:3]:
        run["level"] = level if lv[run["k"]]["runs"] < 2 and level and run["k"] in level and len(level) >= 2 else None
        at = f"{x} = {_xv(result, p['x'].iloc[run['k']])}"
        done = f" and {_done(c, run)}{jobs}" if c["alike"] and _done(c, run) else ""
        said.append(f"at {at} ran {fmt_y(run['runtime_s'], 's')}{done}"
                    + (" (fio was stopped by a signal there)" * run["signal"]))
        a = _agreement(result, p, run, lv)
        if a:
            agree.append(f"at {at} {a}" if len(c["runs"]) > 1 else a)
    more = len(c["runs"]) - len(said)
    lo, hi = c["others_s"]
    span_s = fmt_y(c["median_s"], "s") if fmt_y(lo, "s") == fmt_y(hi, "s") else f"{fmt_y(lo, 's')}–{fmt_y(hi, 's')}"
    one = len(c["runs"]) == 1
    head = f"the run {said[0]}" if one else "the runs " + ", ".join(said) + (f" and {more} more" * (more > 0))
    sig = all(r["signal"] for r in c["runs"])
    no_err = all(r.get("error") == 0 for r in c["runs"])
    if c["alike"] and all(r.get("set") for r in c["runs"]):
        # fio's error 0 and a round runtime: a run set shorter, not one cut short (round 30 RF)
        most = f" and up to {_done(c)}{jobs}" if _done(c) else ""
        rs = sorted({_fx(set_runtime(r["runtime_s"]) or r["runtime_s"]) for r in c["runs"]})
        text = (f"Caution: {head}, against {span_s}{most} for every other run of the series: "
                f"{'its' if one else 'their'} runtime is a round {' s, '.join(rs)} s (fio runs past a set runtime "
                f"by its last I/Os only) and fio reported no error — a runtime set shorter than the others', not a "
                f"run cut short, so {'its rate is' if one else 'their rates are'} measured over less time.")
    elif c["alike"]:
        most = f" and up to {_done(c)}{jobs}" if _done(c) else ""
        text = (f"Caution: {head}, against {span_s}{most} for every other run of the series: {'it' if one else 'they'} "
                f"stopped before {'its' if one else 'their'} time and before the I/O other runs completed" + ("" if sig else " (a signal or a timeout: the files do not say which; fio "
                                                             "reported no error)" if no_err else
                                                             " (a signal, a timeout or an error: the files do not say "
                                                             "which)")
                + f", so {'its rate is' if one else 'their rates are'} measured over less time.")
    else:  # a signal where the runs' lengths differ anyway (a size-bound sweep): whether it ran short is not shown
        text = (f"Caution: {head}; the other runs ran {span_s} (their lengths differ with their rates): "
                f"{'it' if one else 'they'} may have stopped early.")
    text += (" " + "; ".join(agree)[0].upper() + "; ".join(agree)[1:] + ".") if agree else ""
    return [Claim("caution", text, {"cut_short": c})]
