"""Latency percentiles no I/O of their row could have had: a percentile above the row's largest latency.

No percentile of a set of I/Os exceeds the slowest of them, so a ``lat_p*`` or ``clat_p*`` above its own row's
``lat_max_s`` (total, else completion latency: a completion latency never exceeds the total) measured nothing. fio
before 3.34 writes such rows for io_uring with ``sqthread_poll=1`` (every completion stamped from a stale issue
time: fio 3.32 puts all of them in its top histogram bucket, 17.1 s, beside a slowest I/O of 1.8–28 ms; round 18,
r18_msf2fsbench, QA). :func:`read_results` warns about them and keeps them as written (inputs are never
corrected); fitting does not read them (``nvmemodel.fitting.facts.possible_percentiles``). Checked once on the
finished table rather than per file, so every reader (JSON, terse, normal) is checked alike and the per-file fast
paths stay as they are.
"""

from __future__ import annotations

import warnings

from ..errors import IngestWarning

__all__ = ["PERCENTILE_SLACK", "PERCENTILE_SLACK_S", "warn_impossible_percentiles"]

#: how far above a row's largest latency a percentile of it may sit: fio reads its percentiles off a histogram whose
#: buckets are 1/64 of their value wide (stat.h FIO_IO_U_PLAT_BITS 6) and terse output cuts the maximum to whole µs
PERCENTILE_SLACK, PERCENTILE_SLACK_S = 1.05, 1e-6

_PREFIXES = ("lat_p", "clat_p")


def warn_impossible_percentiles(df, *, shown: int = 20) -> int:
    """Warn (:class:`~nvmemodel.errors.IngestWarning`) once per row of ``df`` holding a latency percentile above
    ``lat_max_s`` × :data:`PERCENTILE_SLACK` + :data:`PERCENTILE_SLACK_S`, naming the file, job, direction, the
    highest such percentile and the maximum; at most ``shown`` rows are named one by one, the rest counted in one
    more warning. The values stay as written. Returns the number of such rows."""
    if "lat_max_s" not in df or not len(df):
        return 0
    import numpy as np

    cols = [c for c in df.columns if c.startswith(_PREFIXES) and c.endswith("_s")]
    if not cols:
        return 0
    top = df["lat_max_s"].to_numpy(float, na_value=np.nan) * PERCENTILE_SLACK + PERCENTILE_SLACK_S
    values = np.column_stack([df[c].to_numpy(float, na_value=np.nan) for c in cols])
    with np.errstate(invalid="ignore"):
        above = values > top[:, None]  # (NaN on either side compares False: nothing measured, nothing judged)
    bad = np.flatnonzero(above.any(axis=1))
    for i in bad[:shown]:
        j = int(np.argmax(np.where(above[i], values[i], -np.inf)))
        row = df.iloc[i]
        many = int(above[i].sum())
        warnings.warn(f"{row.get('source_path')}: job {row.get('job_name')!r} {row.get('direction')}: {cols[j]} = "
                      f"{values[i, j]:.6g} s is above the row's largest latency, lat_max_s = "
                      f"{df['lat_max_s'].iloc[i]:.6g} s"
                      + (f" ({many} of its percentiles are)" if many > 1 else "")
                      + ": no I/O of the row took that long, so the percentile measured nothing (fio before 3.34 "
                      "writes such completion percentiles for io_uring with sqthread_poll); kept as written, not read "
                      "by fitting", IngestWarning, stacklevel=3)
    if bad.size > shown:
        warnings.warn(f"{bad.size - shown} more row(s) hold latency percentiles above their largest latency "
                      f"(the first {shown} are named above); kept as written", IngestWarning, stacklevel=3)
    return int(bad.size)
