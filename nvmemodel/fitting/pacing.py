"""The pacing fact: the rate fio was told to keep each point's runs to (``--rate_iops``, ``--rate``), from the runs'
own options, and whether a point runs at it — one floor below the facts and the claims that use it."""

from __future__ import annotations

import numpy as np

from .claim import _pts
from .wording import fmt_y

__all__ = ["AT_PACE", "pd_numeric"]

#: a run within this share of the rate fio was told to keep is at that limit
AT_PACE = 0.97


def _pacing(result, key) -> tuple[np.ndarray, str] | None:
    """(limit per point, how fio was told) where every point's runs record the rate fio paced them to
    (``--rate_iops`` for IOPS, ``--rate`` for bytes/s; ingest's ``rate_iops``/``rate_bytes_per_s`` per job and
    direction, a group row counting its numjobs jobs); None where y is no such rate or a run does not say."""
    from ..ingest.summary import usable_rows
    from .curves import Y_COLUMNS

    col = {"1/s": "rate_iops", "B/s": "rate_bytes_per_s"}.get(result.y_unit)
    tbl = result.table
    if col is None or tbl is None or col not in tbl or "source_path" not in tbl:
        return None
    rows = usable_rows(tbl)
    direction = Y_COLUMNS.get(result.y, (None, None))[1]
    if direction:
        rows = rows[rows["direction"] == direction]
    pts = _pts(result, key).sort_values(result.x)
    limits: list = []
    per_job: set = set()
    for joined in pts["sources"].astype(str):
        total = []
        for src in joined.split(";"):
            r = rows[rows["source_path"].astype(str) == src]
            rate = pd_numeric(r[col])
            if not len(r) or np.isnan(rate).any():
                return None
            jobs = jobs_of(r)
            total.append(float(np.sum(rate * jobs)))
            per_job.update(float(v) for v in rate)
        limits.append(float(np.mean(total)))
    if col == "rate_iops":
        told = " / ".join(f"--rate_iops={v:g}" for v in sorted(per_job))
    else:
        told = " / ".join(f"--rate={v / 2**20:g}m = {fmt_y(v, 'B/s')}" if v % 2**20 == 0 else f"--rate={v:g} B/s"
                          for v in sorted(per_job))
    return np.asarray(limits, float), told + " per job"


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
