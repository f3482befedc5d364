"""The time fio's jobs spent in their sync calls (fsync, fdatasync, sync_file_range: fio's JSON ``sync`` block, read as
``sync_ios`` and ``sync_lat_mean_s``), set beside the time in their writes and the run's length.

fio reports a sync call's time apart from the writes': it is in no write's latency. A job issuing one write or one
sync at a time (one I/O outstanding) spends its run inside ``write()``, inside the sync, or elsewhere (its own work,
sleeping between calls); only that last remainder is the job's own. Leaving the sync out made a job that sat 64–94 %
of its time in ``sync_file_range`` read as "CPU-bound …, not held by the I/O beneath it" and its Little's-law gap as
"an fsync after each write, fio's own work …" (set after round 21 was read: r21_here-syncfr … randwrite4k numjobs and
… randwrite bs, part 1 VA), and a table holding write and sync latency at every row read as "the files give no
latency" (… seqwrite128k numjobs, VB).

Every share here is per job: fio's I/O counts of a group-reported row are the sum over its ``numjobs`` jobs, so the
time they took is divided by the jobs before it is set against the run's wall-clock runtime (VH: "its writes took at
most 0.56 s" was job-seconds summed over 3 jobs against a 1.5 s run)."""

from __future__ import annotations

import numpy as np

__all__ = ["SYNC_HELD", "SYNC_QUEUED", "job_seconds", "queue_clause", "sync_held", "sync_kind", "sync_little",
           "sync_queue", "sync_short", "sync_time", "sync_words"]

#: a job inside its sync calls at least this share of its runtime in every run: the syncs (the write-back they wait
#: for), not the job's CPU, held its rate — half, so the sync time is more than everything else the job did together
#: (set after round 21 was read: r21_here-syncfr … randwrite4k numjobs 0.64–0.94, … randwrite bs 0.56–0.65,
#: … seqwrite128k numjobs 0.62–0.89; r9_here-fsync … fsync4/fsync8 (direct=1) read beside them as counter-cases)
SYNC_HELD = 0.5


def _num(rows, col):
    import pandas as pd

    return pd.to_numeric(rows[col], errors="coerce") if col in rows else pd.Series(np.nan, index=rows.index)


def job_seconds(rows) -> list | None:
    """Per run (``source_path``, ``run``): (rows, jobs) — the rows of one run and how many jobs they stand for: a
    group-reported row (one row a run) stands for its ``numjobs``, rows one per job each for one. None where a run's
    rows are neither (several job sections: their jobs are not told apart here)."""
    if rows is None or "source_path" not in rows or not len(rows):
        return None
    keys = [rows["source_path"].astype(str)] + ([rows["run"]] if "run" in rows else [])
    out = []
    for _, r in rows.groupby(keys, sort=False):
        n = _num(r, "numjobs").fillna(1).unique()
        if n.size != 1 or n[0] < 1 or len(r) not in (1, int(n[0])):
            return None
        out.append((r, float(n[0])))
    return out


def sync_kind(rows) -> str:
    """What the sync calls were: fsync or fdatasync where the runs record the option (``fsync_every`` /
    ``fdatasync_every``); in fio's JSON, which echoes every option a job set, neither set leaves sync_file_range, the
    third call fio's sync block counts; otherwise the three are named together."""
    for col, name in (("fsync_every", "fsync"), ("fdatasync_every", "fdatasync")):
        if (_num(rows, col).fillna(0) > 0).all():
            return name
    unset = all((_num(rows, c).fillna(0) == 0).all() for c in ("fsync_every", "fdatasync_every"))
    if unset and "format" in rows and rows["format"].astype(str).str.startswith("fio-json").all():
        return "sync_file_range"
    return "sync calls (fsync, fdatasync or sync_file_range)"


def sync_time(rows) -> dict | None:
    """Per run, the share of each job's runtime spent inside its writes (I/Os × fio's mean write latency ÷ jobs) and
    inside its sync calls (sync calls × their mean latency ÷ jobs), and the writes per sync call. Only write runs
    with one I/O outstanding per job (``iodepth`` 1: a job is then in one call at a time, so the shares add up),
    unpaced, every run with sync calls beyond one per job (an ``end_fsync`` at close is not a sync in the loop) and
    both latencies recorded. None otherwise.

    ``write``, ``sync``, ``both``: (lowest, highest) share over the runs; ``every``: writes per sync call (lowest,
    highest); ``write_s``: the most time one job spent in its writes in a run (s); ``sync_s``: (lowest, highest) time
    one job spent in its syncs; ``runtime``: (lowest, highest) runtime_s; ``by_source``: source_path → (write share,
    sync share, mean sync latency) of that run; ``kind``: :func:`sync_kind`."""
    need = {"direction", "ios", "lat_mean_s", "sync_ios", "sync_lat_mean_s", "runtime_s"}
    if rows is None or not need <= set(rows.columns) or not len(rows) \
            or not (rows["direction"].astype(str) == "write").all():
        return None
    for col in ("rate_iops", "rate_bytes_per_s", "thinktime_s"):
        if (_num(rows, col).fillna(0) > 0).any():
            return None
    if (_num(rows, "iodepth").fillna(1) > 1).any():
        return None
    runs = job_seconds(rows)
    if not runs:
        return None
    ws: list[float] = []
    ss: list[float] = []
    every: list[float] = []
    wsec: list[float] = []
    ssec: list[float] = []
    rt: list[float] = []
    by: dict = {}
    for r, jobs in runs:
        ios, lat, n, sl = (_num(r, c) for c in ("ios", "lat_mean_s", "sync_ios", "sync_lat_mean_s"))
        run = float(_num(r, "runtime_s").max())
        if not (ios.notna().all() and lat.notna().all() and n.notna().all() and sl.notna().all() and run > 0
                and (ios > 0).all() and float(n.sum()) > jobs):
            return None
        tw, ts = float((ios * lat).sum()) / jobs, float((n * sl).sum()) / jobs
        ws.append(tw / run)
        ss.append(ts / run)
        every.append(float(ios.sum() / n.sum()))
        wsec.append(tw)
        ssec.append(ts)
        rt.append(run)
        by[str(r["source_path"].iloc[0])] = (tw / run, ts / run, float((n * sl).sum() / n.sum()))
    w, s = np.array(ws), np.array(ss)
    return {"write": (float(w.min()), float(w.max())), "sync": (float(s.min()), float(s.max())),
            "both": (float((w + s).min()), float((w + s).max())), "every": (min(every), max(every)),
            "write_s": max(wsec), "sync_s": (min(ssec), max(ssec)), "runtime": (min(rt), max(rt)), "by_source": by,
            "kind": sync_kind(rows), "jobs": max(j for _, j in runs)}


def sync_held(rows) -> dict | None:
    """:func:`sync_time` where every run's jobs spent at least :data:`SYNC_HELD` of their time in the syncs, else
    None: the rate is the syncs', and no CPU-bound reading of the job applies."""
    t = sync_time(rows)
    return t if t is not None and t["sync"][0] >= SYNC_HELD else None


def _every(t) -> str:
    lo, hi = t["every"]
    n = f"{lo:.0f}" if round(lo) == round(hi) else f"{lo:.0f}–{hi:.0f}"
    return "after every write" if n == "1" else f"once every {n} writes"


def _name(t) -> str:
    return t["kind"] if t["kind"] in ("fsync", "fdatasync", "sync_file_range") else "their sync calls"


def sync_words(t) -> str:
    """'each job spent 64 %–94 % of its time inside sync_file_range (once every 8 writes; fio's sync latency × its
    syncs ÷ the run) and 5 %–25 % inside its writes' — the shares of :func:`sync_time`."""
    from .wording import span

    def pct(lo_hi):
        lo, hi = (round(100 * v) for v in lo_hi)
        return f"{lo} %" if lo == hi else span(f"{lo} %", f"{hi} %")

    kind = t["kind"] if t["kind"] in ("fsync", "fdatasync", "sync_file_range") else t["kind"]
    who = "the job" if t["jobs"] <= 1 else "each job"
    return (f"{who} spent {pct(t['sync'])} of its time inside {kind} ({_every(t)}; fio's sync latency × its "
            f"syncs ÷ the run) and {pct(t['write'])} inside its writes")


def sync_short(t) -> str:
    """'each job spent 64 %–94 % of its time inside sync_file_range' (the job, for one job)."""
    lo, hi = (round(100 * v) for v in t["sync"])
    who = "the job" if t["jobs"] <= 1 else "each job"
    return f"{who} spent {lo} %" + (f"–{hi} %" if hi != lo else "") + f" of its time inside {_name(t)}"


def sync_little(t) -> str:
    """The Little's-law causes for runs whose syncs fill the cycle: the time fio counts in no write's latency."""
    from .wording import span

    lo, hi = t["both"]
    who = "the job" if t["jobs"] <= 1 else "each job"
    return (f"{sync_short(t)} ({_every(t)}), which fio reports apart, in no write's latency; with it, {who} was "
            f"inside a write or {_name(t)} {span(f'{lo:.2f}', f'{hi:.2f}')} of its time")


#: sync latency grown at least this share of the way to Little's law at the rates measured (latency ∝ jobs ÷ rate)
#: reads as the added load queueing in the syncs — half, the same bar the queueing reading of fio's write latency
#: uses (facts._level_in_noise); set after round 21 was read (r21_here-syncfr … seqwrite128k numjobs, VB)
SYNC_QUEUED = 0.5


def sync_queue(result, points) -> dict | None:
    """Along numjobs, where every job's sync latency grew with the jobs at least :data:`SYNC_QUEUED` of the way to
    Little's law at the rates measured: the added load queued in the syncs. ``lat``: each point's mean sync latency
    (its runs' mean), ``lo``/``hi``: its runs' range, ``x`` the points; None otherwise."""
    from .claim import runs_rows

    if result.x not in ("numjobs", "jobs", "threads") or "sources" not in points:
        return None
    t = sync_time(runs_rows(result, points))
    if t is None:
        return None
    lat, lo, hi = [], [], []
    for srcs in points["sources"].astype(str):
        v = [t["by_source"][s][2] for s in srcs.split(";") if s in t["by_source"]]
        if not v:
            return None
        lat.append(float(np.mean(v)))
        lo.append(min(v))
        hi.append(max(v))
    x, y = points["x"].to_numpy(float), points["y"].to_numpy(float)
    expected = (x[-1] / x[0]) / (y[-1] / y[0])
    if len(x) < 3 or not (expected > 1 and lat[-1] / lat[0] >= 1 + SYNC_QUEUED * (expected - 1)):
        return None
    return {"lat": lat, "lo": lo, "hi": hi, "x": x, "growth": lat[-1] / lat[0], "load": x[-1] / x[0],
            "kind": _name(t), "time": t}


def queue_clause(result, points) -> str | None:
    """What the no-latency-proof level says of queueing (``facts._level_in_noise``'s "no_latency" reading): the syncs'
    queueing where :func:`sync_queue` finds it; "" where a latency column is filled but shows none (no sentence that
    the files hold no latency); None where no latency is in the files at all (the old words stand). Set after round 21
    was read: r21_here-syncfr … seqwrite128k numjobs "the files give no latency" beside write and sync latency at
    every row (VB)."""
    from .claim import _xv
    from .wording import fmt_y

    q = sync_queue(result, points)
    if q is not None:
        x = result.x
        return (f", and fio's sync latency shows where the added load went: each {q['kind']} took "
                f"×{q['growth']:.3g} as long ({fmt_y(q['lat'][0], 's')} at {x} = {_xv(result, q['x'][0])} → "
                f"{fmt_y(q['lat'][-1], 's')} at {_xv(result, q['x'][-1])}) for ×{q['load']:.3g} the {x} while the rate "
                f"stayed level: the added load queued in the syncs")
    from .claim import runs_rows

    lat = points["lat"].to_numpy(float) if "lat" in points else np.full(len(points), np.nan)
    if np.isfinite(lat).any() or sync_time(runs_rows(result, points)) is not None:
        return ""
    return None
