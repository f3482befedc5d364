"""The pacing fact: the rate fio was told to keep each point's runs to (``--rate_iops``, ``--rate``), from the runs'
own options, and whether a point runs at it — one floor below the facts and the claims that use it."""

from __future__ import annotations

import numpy as np

from .claim import _pts
from .wording import fmt_y

__all__ = ["AT_PACE", "NEAR_PACE", "pace_binds", "pace_held", "pace_run_shares", "pd_numeric"]

#: a run within this share of the rate fio was told to keep is at that limit
AT_PACE = 0.97
#: a run this close to its pace is named with it: the pace is the nearest limit the files state (round 6, r6_ioscope
#: QD: a peak at 97.1 % of --rate=32m read as the VM disk's peak)
NEAR_PACE = 0.95


def _pacing(result, key) -> tuple[np.ndarray, str] | None:
    """(limit per point, how fio was told) where every point's runs record the rate fio paced them to
    (``--rate_iops`` for IOPS, ``--rate`` for bytes/s; ingest's ``rate_iops``/``rate_bytes_per_s`` per job and
    direction, a group row counting its numjobs jobs); None where y is no such rate or a run does not say.

    A pace set in the other unit counts through the rows' block size: ``--rate=32m`` at 4 KiB paces IOPS at
    8192 a second, ``--rate_iops`` at 64 KiB bytes/s (round 6, r6_ioscope QD: a peak at 97 % of --rate=32m went
    unnamed along iodepth because the IOPS curve looked for ``--rate_iops`` only); where both are set, the lower
    binds (fio keeps each job to both)."""
    found = _pace_runs(result, key)
    return None if found is None else (found[0], found[1])


def pace_run_shares(result, key) -> list[np.ndarray] | None:
    """Each point's runs' measured rate ÷ their own pace (one share per run, in the points' x order), or None where
    the pace or a run's rate cannot be read (then only the point means speak). A statement about runs ("no run
    reached …") is made from these, never from a point's mean (round 6, r6_here_null_rateiops800k: "no run reached
    its total (at most 90.3 %)" from a point mean, while 6 of 9 runs at 1–3 jobs were at 96.7–99.8 %)."""
    found = _pace_runs(result, key)
    return None if found is None else found[2]


def pace_held(result, key) -> np.ndarray | None:
    """Each point (in x order) at the rate fio was told to keep: its mean within :data:`AT_PACE` of it, or most of
    its runs within :data:`NEAR_PACE` (a run that fell short drags a mean below; round 6: 99.7 / 71.7 / 99.5 % runs,
    a 90.3 % mean). None where no pace can be read. The one did-it-bind verdict every sentence about pacing reads."""
    found = _pace_runs(result, key)
    if found is None:
        return None
    limits, _, runs = found
    ys = _pts(result, key).sort_values(result.x)["y"].to_numpy(float)
    with np.errstate(all="ignore"):
        at = np.isfinite(ys / limits) & (ys / limits >= AT_PACE)
    if runs is not None:
        at |= np.array([bool(np.median(r) >= NEAR_PACE) for r in runs])
    return at


def pace_binds(result, key) -> bool | None:
    """Whether fio's pace held any point of the curve (:func:`pace_held`); None where no pace can be read. A pace no
    point reached is no pace: its runs are read as unpaced — their saturation, their CPU cost and the rate one CPU
    sustains at it (set after round 16 was read: r16_mickeydonkey optane nopoll and ramfs qd, "no run reached that
    rate (at most 49.8 %): it did not bind" beside "the runs were paced: a cost at a set rate", VC; the saturation
    sentence withheld from the same series, VF)."""
    at = pace_held(result, key)
    return None if at is None else bool(at.any())


def paced_rows(result, need: tuple[str, ...] = ()):
    """(y's column, the usable rows of y's direction) of a result whose table records a fio pace (rate_iops or
    rate_bytes_per_s) and ``source_path`` (and every column in ``need``); None otherwise."""
    from ..ingest.summary import usable_rows
    from .curves import Y_COLUMNS

    y_col = {"1/s": "iops", "B/s": "bw_bytes_per_s"}.get(result.y_unit)
    tbl = result.table
    if y_col is None or tbl is None or not {"source_path", *need} <= set(tbl.columns) \
            or not ({"rate_iops", "rate_bytes_per_s"} & set(tbl.columns)):
        return None
    rows = usable_rows(tbl)
    direction = Y_COLUMNS.get(result.y, (None, None))[1]
    if direction:
        rows = rows[rows["direction"] == direction]
    return y_col, rows


def _pace_runs(result, key) -> tuple[np.ndarray, str, list[np.ndarray] | None] | None:
    got = paced_rows(result)
    if got is None:
        return None
    y_col, rows = got
    pts = _pts(result, key).sort_values(result.x)
    limits: list = []
    runs: list | None = []
    told_iops: set = set()
    told_bytes: set = set()
    for joined, mean in zip(pts["sources"].astype(str), pts["y"].to_numpy(float)):
        total, got = [], []
        for src in joined.split(";"):
            r = rows[rows["source_path"].astype(str) == src]
            if not len(r):
                return None
            paced = _row_pace(r, result.y_unit, convert=result.x != "block_size_bytes")
            if paced is None:
                return None
            rate, by_iops, by_bytes = paced
            told_iops.update(by_iops)
            told_bytes.update(by_bytes)
            total.append(float(np.sum(rate * jobs_of(r))))
            got.append(float(np.nansum(pd_numeric(r[y_col]))) if y_col in r else np.nan)
        limits.append(float(np.mean(total)))
        if runs is not None:
            got_a, tot_a = np.asarray(got, float), np.asarray(total, float)
            # the runs are the point only if they average to it (the table's rows are what the point was made of)
            if np.isfinite(got_a).all() and np.isfinite(mean) and mean > 0 and abs(got_a.mean() / mean - 1) <= 0.01:
                with np.errstate(all="ignore"):
                    runs.append(got_a / tot_a)
            else:
                runs = None
    if not all(v > 0 for v in limits):  # a point whose runs were told no pace (0): no pacing fact
        return None
    parts = [f"--rate_iops={v:g}" for v in sorted(told_iops)]
    parts += [f"--rate={v / 2**20:g}m = {fmt_y(v, 'B/s')}" if v % 2**20 == 0 else f"--rate={v:g} B/s"
              for v in sorted(told_bytes)]
    return np.asarray(limits, float), " / ".join(parts) + " per job", runs


def _row_pace(r, unit: str, convert: bool = True) -> tuple[np.ndarray, set, set] | None:
    """Each row's pace in ``unit`` (0: fio was told no pace), the --rate_iops and --rate values that set it; None
    where a row does not say. ``convert``: a pace in the other unit counts through the row's block size (not along
    block size, where the cap facts already read a pace flat in its own unit)."""
    n = len(r)
    iops = pd_numeric(r["rate_iops"]) if "rate_iops" in r else np.full(n, np.nan)
    byts = pd_numeric(r["rate_bytes_per_s"]) if "rate_bytes_per_s" in r else np.full(n, np.nan)
    bs = pd_numeric(r["block_size_bytes"]) if "block_size_bytes" in r else np.full(n, np.nan)
    own, other = (iops, byts) if unit == "1/s" else (byts, iops)
    if not convert:
        other = np.full(n, np.nan)
    with np.errstate(all="ignore"):
        conv = other / bs if unit == "1/s" else other * bs
    out = np.full(n, np.nan)
    by_iops: set = set()
    by_bytes: set = set()
    for i in range(n):
        cands = [(own[i], True), (conv[i], False)]
        set_ = [(v, mine) for v, mine in cands if np.isfinite(v) and v > 0]
        if set_:
            v, mine = min(set_)
            out[i] = v
            if mine == (unit == "1/s"):
                by_iops.add(float(iops[i]))
            else:
                by_bytes.add(float(byts[i]))
        elif (np.isfinite(own[i]) and own[i] == 0) or (np.isfinite(other[i]) and other[i] == 0):
            out[i] = 0.0  # fio was told no pace (0)
        else:
            return None
    return out, by_iops, by_bytes


def jobs_of(rows) -> np.ndarray:
    """Jobs each results-table row stands for: a group row (fio's group_reporting) its numjobs, a job row 1."""
    group = rows["level"].astype(str).eq("group").to_numpy() if "level" in rows else False
    return np.where(group, pd_numeric(rows["numjobs"]) if "numjobs" in rows else 1.0, 1.0)


def pd_numeric(s) -> np.ndarray:
    import pandas as pd

    return pd.to_numeric(s, errors="coerce").to_numpy(float)


def _at_pace(result, key, x_at) -> bool:
    """Whether the point at ``x_at`` runs at the rate fio was told to keep (within :data:`AT_PACE`)."""
    found = _pacing(result, key)
    if found is None:
        return False
    limits = found[0]
    pts = _pts(result, key).sort_values(result.x)
    i = int(np.argmin(np.abs(pts[result.x].to_numpy(float) - float(x_at))))
    y = float(pts["y"].iloc[i])
    return bool(np.isfinite(limits[i]) and limits[i] > 0 and y / limits[i] >= AT_PACE)
