"""A buffered write run that ends in a flush of everything it wrote (fio ``end_fsync=1`` or ``fsync_on_close=1``):
fio counts that flush in the job's time, so the run's rate is of data written out to the layer beneath the page
cache, not of page-cache copies alone.

Set after round 28 was read (ME: r28_here-btrfszstd_btrfs-compress-force-zstd3-on-loop-tmpfs_psync-buffered-endfsync
_seqwrite128k-compress50_numjobs_repeats, "through the page cache … what lay beneath the page cache is unknown" where
every run ended with an fsync fio counted, 0.03–2.75 s past the 5 s asked). fio's output gives neither the runtime
asked nor the flush's own time (the job's ``sync`` block holds the calls made during the run), so the flush is not
sized: the words say only that it is inside the measured time. Not said of direct I/O (nothing dirty to flush), of
reads, nor where any run lacks the option (``end_fsync`` NA: not set, or not echoed).
"""

from __future__ import annotations

__all__ = ["end_flush", "end_flush_words"]


def end_flush(rows) -> bool:
    """Whether every write row of these buffered runs set ``end_fsync`` (or ``fsync_on_close``): the ingest column
    ``end_fsync`` is 1 on each, ``direct`` is 0 on each, and there is at least one write row."""
    import pandas as pd

    if rows is None or not len(rows) or not {"end_fsync", "direct", "direction"} <= set(rows.columns):
        return False
    w = rows[rows["direction"].astype(str).isin(("write", "mixed"))]
    if not len(w):
        return False
    flag = pd.to_numeric(w["end_fsync"], errors="coerce")
    direct = pd.to_numeric(w["direct"].astype(object).map(
        lambda v: {True: 1, False: 0}.get(v, v) if isinstance(v, bool) else v), errors="coerce")
    # (NA is not 1: a run that does not say it set the option is not taken to have set it)
    return bool(flag.eq(1).fillna(False).all() and direct.eq(0).fillna(False).all())


def end_flush_words() -> str:
    """The clause said after a buffered layer sentence where :func:`end_flush` holds."""
    return (" Every run ended with a flush of all it had written (end_fsync or fsync_on_close in the job options), "
            "which fio counts in the job's time: the rates include writing the data out to the layer beneath the page "
            "cache, not only copying it into the page cache (fio's output does not give that flush's own time).")
