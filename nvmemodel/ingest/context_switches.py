"""Context switches per I/O from fio's accounting: one count per run.

fio's ``ctx`` is the job's (getrusage: voluntary + involuntary switches of its threads), not a direction's: a job that
reads and writes reports it once, and the tidy table repeats it on the job's read row and its write row; a
``group_reporting`` row carries fio's sum over the group's jobs. So a run's switches per I/O are each job's ``ctx``
once (a job's direction rows are one job) over all the I/Os of the run, both directions summed. Dividing a row's
``ctx`` by that row's I/Os instead counted a mixed job's every switch against its reads alone and again against its
writes: ×4 at a read share of 25 % (set after round 24 was reviewed: r23_here-zramlz4 psync randrw read-share sweep,
"at most 0.0066 context switches an I/O in every run" in one sentence and "at most 0.002" in the next; the runs give
229 switches for 138 K I/Os, 0.0017).

Every reader of the count (:mod:`nvmemodel.fitting.in_thread`, :mod:`nvmemodel.fitting.shared_time`,
:mod:`nvmemodel.fitting.buffered`, :mod:`nvmemodel.hostcal.poll_proof`) takes it from :func:`run_switches` (each
run's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["JOB_KEYS", "run_switches"]

#: the columns that tell one job of a run from another: a job's read and write rows share them
JOB_KEYS = ("job_name", "job_index", "group_id", "hostname")


def _num(s):
    import pandas as pd

    return pd.to_numeric(s, errors="coerce")


def run_switches(rows: "pd.DataFrame") -> "pd.DataFrame":
    """Each run's (source file's) context switches, indexed by ``source_path``: ``ctx`` (each job's once, summed),
    ``ios`` (all its rows, both directions), ``jobs`` (a group-reported row counts its ``numjobs``), ``runtime_s``
    (its longest row), ``per_io`` = ctx ÷ ios and ``per_job_s`` = ctx ÷ jobs ÷ runtime (switches a second of one
    job). Only measurement rows count (:func:`~nvmemodel.ingest.summary.usable_rows`). A run whose ``ctx`` or ``ios``
    is missing on any row, or whose I/Os are not positive, has NaN ``per_io``; an empty frame where the columns are
    missing."""
    import pandas as pd

    from .summary import usable_rows

    cols = ["ctx", "ios", "jobs", "runtime_s", "per_io", "per_job_s"]
    if rows is None or not len(rows) or not {"source_path", "ctx", "ios"} <= set(rows.columns):
        return pd.DataFrame(columns=cols, dtype=float)
    r = usable_rows(rows)
    keys = [k for k in JOB_KEYS if k in r]
    out = {}
    for src, g in r.groupby(r["source_path"].astype(str), sort=True):
        ctx_all, ios_all = _num(g["ctx"]), _num(g["ios"])
        first = ~g.duplicated(keys).to_numpy(bool) if keys else np.arange(len(g)) == 0
        ctx = float(ctx_all[first].sum()) if ctx_all.notna().all() else np.nan
        ios = float(ios_all.sum()) if ios_all.notna().all() else np.nan
        nj = _num(g["numjobs"]).to_numpy(float)[first] if "numjobs" in g else np.ones(int(first.sum()))
        jobs = float(first.sum()) if first.sum() > 1 else (float(nj[0]) if np.isfinite(nj[0]) and nj[0] >= 1 else 1.0)
        rt = float(_num(g["runtime_s"]).max()) if "runtime_s" in g else np.nan
        per_io = ctx / ios if np.isfinite(ctx) and np.isfinite(ios) and ios > 0 else np.nan
        per_s = ctx / jobs / rt if np.isfinite(ctx) and np.isfinite(rt) and rt > 0 else np.nan
        out[src] = (ctx, ios, jobs, rt, per_io, per_s)
    return pd.DataFrame.from_dict(out, orient="index", columns=cols, dtype=float)

