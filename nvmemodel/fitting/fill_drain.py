"""Runs too short for a steady queue: a size-limited run whose whole I/O count is a few queue-fulls.

A run that issues ``ios`` I/Os per job at ``iodepth`` outstanding holds ``ios ÷ iodepth`` queue-fulls. fio fills the
queue at the start and drains it at the end; over the drain the I/Os in flight fall from the depth to none. With only
a few queue-fulls the fill and the drain are a large part of the run, so its rate and mean latency are those of a
fill-and-drain, not of a queue held at that depth (at one queue-full every I/O is queued at once and the mean latency
is about half the run). The point is said so; its level is not dropped (the rate is still what the run measured).

Set after round 21 was read (``_blind_rounds/round21_hand_read_part2.md``, WG: r21_tieredvol_dm-stripe-nvme-2sata_2m-
write_1job_qd, 2 GiB size-limited runs of 1024 I/Os at QD 512 and 1024, 2 and 1 queue-fulls, read as steady points;
clat p50 1.552 s ≈ the 1.640 s run at QD 1024).
"""

from __future__ import annotations

import numpy as np

__all__ = ["FILL_DRAIN", "queue_fulls", "fill_drain_claims"]

#: a run of at most this many queue-fulls per job (ios ÷ iodepth) is a fill-and-drain: the drain alone (the last
#: queue-full, in flight falling from the depth to none) is a quarter of the run or more. Set after round 21 was read
#: (WG; read before it was set: the tieredvol 1-job series, 1024 I/Os a run at QD 1–1024, and its 4-job time-based
#: sibling, thousands of queue-fulls a run)
FILL_DRAIN = 4.0


def queue_fulls(rows) -> np.ndarray:
    """Each row's I/Os per job ÷ its iodepth (NaN where a column is missing): a per-job row's ``ios`` is its job's,
    a group row's all its jobs'."""
    import pandas as pd

    def num(c):
        return pd.to_numeric(rows[c], errors="coerce") if c in rows else pd.Series(np.nan, index=rows.index)

    ios, depth, jobs = num("ios"), num("iodepth"), num("numjobs").fillna(1.0)
    if "level" in rows:
        per_job = rows["level"].astype(object).fillna("").astype(str) == "job"
        jobs = jobs.where(~per_job, 1.0)
    with np.errstate(all="ignore"):
        return (ios / (depth * jobs)).to_numpy(float)


def short_points(result, p) -> list[tuple[float, float, float]]:
    """``(x, queue-fulls, ios per job)`` of each point whose every run was at most :data:`FILL_DRAIN` queue-fulls
    (the most over its runs); empty without a results table naming its files."""
    import pandas as pd

    from ..ingest.summary import usable_rows
    from .claim import runs_rows

    out: list[tuple[float, float, float]] = []
    if "sources" not in p:
        return out
    for i in range(len(p)):
        rows = runs_rows(result, p.iloc[[i]])
        if rows is None or not len(rows) or "ios" not in rows or "iodepth" not in rows:
            continue
        rows = usable_rows(rows)  # final reports only: a status snapshot's count is part of a run
        if result.x in rows:  # one file may hold several points' rows (a transcribed sweep): this point's only
            rows = rows[np.isclose(pd.to_numeric(rows[result.x], errors="coerce").to_numpy(float), p["x"].iloc[i])]
        k = queue_fulls(rows)
        if k.size and np.isfinite(k).all() and float(k.max()) <= FILL_DRAIN:
            i_max = int(np.argmax(k))
            per_job = float(k[i_max]) * float(pd.to_numeric(rows["iodepth"], errors="coerce").to_numpy(float)[i_max])
            out.append((float(p["x"].iloc[i]), float(k.max()), per_job))
    return out


def fill_drain_claims(result, cf) -> list:
    """A caution on the points whose runs were fill-and-drains (:func:`short_points`); [] where none was."""
    from .claim import Claim, _xv
    from .wording import _fx

    if cf is None or cf.points is None or "x" not in cf.points:
        return []
    pts = short_points(result, cf.points)
    if not pts:
        return []
    x = result.x
    def both(v):  # "4, 2 and 1"
        return v[0] if len(v) == 1 else f"{', '.join(v[:-1])} and {v[-1]}"

    at = both([_xv(result, a) for a, _, _ in pts])
    ks = both([_fx(k) for _, k, _ in pts])
    ios = sorted({_fx(n) for _, _, n in pts})
    many = len(pts) > 1
    text = (f"At {x} = {at} each run was only {ks} queue-full{'s' if many or pts[0][1] != 1 else ''} of I/O "
            f"({' or '.join(ios)} I/Os per job): fio filled the queue and drained it, so "
            f"{'those points’' if many else 'that point’s'} rate and mean latency are a fill-and-drain's, not a "
            f"queue held at that depth.")
    return [Claim("caution", text.replace("’", "'"), {"fill_drain": [a for a, _, _ in pts]})]
