"""Whether a sentence speaks of one job or of several: "the job" where every run of the curve ran one job, "each job"
otherwise (and where the files do not say).

A sentence that says "each job spent 98 % of its time inside the submit call" of a curve whose every run had one job
reads as if there were several (set after round 26 was read: remnant 2, r25_here-btrfscow … libaio randwrite4k
iodepth, one job per run, "while each job spent 98–99 % of its time inside the submit call"). The job count comes from
the points (``jobs``: each point's jobs per run) or the runs' rows (``numjobs``, one job a row where it is missing);
an unknown count keeps "each job", which is true of one job too.
"""

from __future__ import annotations

import numpy as np

__all__ = ["each_job", "one_job"]


def one_job(table) -> bool:
    """Every point (a points table with ``jobs``) or every row (runs' rows with ``numjobs``) of ``table`` ran one
    job; False where the count is missing or any is above one."""
    if table is None or not len(table):
        return False
    col = "jobs" if "jobs" in table else "numjobs" if "numjobs" in table else None
    if col is None:
        return False
    import pandas as pd

    n = pd.to_numeric(table[col], errors="coerce").to_numpy(float)
    return bool(np.isfinite(n).all() and (n <= 1).all())


def each_job(table, capital: bool = False) -> str:
    """"the job" where :func:`one_job`, else "each job" ("The job" / "Each job" with ``capital``)."""
    w = "the job" if one_job(table) else "each job"
    return w[0].upper() + w[1:] if capital else w
