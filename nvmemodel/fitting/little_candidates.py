"""The candidate causes of a Little's-law fraction below 1 where fio's figures show none, limited to what the runs'
options allow, and how far below 1 a point must be to be called "far below".

IOPS × mean latency ÷ outstanding I/O below 1 means fewer I/Os were in flight than asked for — or, where the table's
latency is fio's completion latency (no submission time), the missing share was spent in submission. A transcribed
table whose latency column carries no kind (no completion or submission mean beside it) leaves both readings open.
The generic list of causes names only what the options leave possible: no fsync after each write on a series with no
writes, no ``--thinktime`` where the files record it as unset (and "not given" where they do not record it).

Set after round 28 was read (JC: r28_spdk517 randread numjobs, a transcribed read-only series with 0.77 at one point
told "far below 1 … --thinktime, an fsync after each write"; round 27 GA the same).
"""

from __future__ import annotations

import numpy as np

__all__ = ["FAR_BELOW", "fio_own", "little_candidates", "low_words"]

#: a point's lowest run below this is "far below 1"; between it and 0.8 (the check's band) only "below 1": a quarter
#: off the asked-for I/O is within what submission time or a slow start and end can take (set after round 28 was read:
#: r28_spdk517 randread numjobs 0.77 "far below 1"; round 27 GA asked for ~0.6)
FAR_BELOW = 0.6

def fio_own(rows) -> bool:
    """Every row from fio's own output (fio-json, fio-json+, fio-normal, fio-terse…, not a transcription): its
    ``lat`` is the whole call, and an option it leaves blank was not set (fio's default, ingest's DEFAULT_AS_UNSET)."""
    if rows is None or "format" not in rows or not len(rows):
        return False
    f = rows["format"].astype(str)
    return bool((f.str.startswith("fio-") & ~f.str.contains("transcribed")).all())


def _num(rows, c):
    import pandas as pd

    return pd.to_numeric(rows[c], errors="coerce") if c in rows else None


def little_candidates(rows) -> dict:
    """``{"causes": the generic list's words, "kind_unknown": bool}`` for the curve's run rows (``rows`` may be
    None: the full list, the kind known)."""
    think, fsync, unknown = "--thinktime", "an fsync after each write", False
    if rows is not None and len(rows):
        own = fio_own(rows)
        t = _num(rows, "thinktime_s")
        if t is None or t.isna().all():
            think = "" if own else "--thinktime (the files do not give it)"
        elif not (t.fillna(0) > 0).any():
            think = ""
        d = rows["direction"].astype(str) if "direction" in rows else None
        fs = [v for v in (_num(rows, c) for c in ("fsync_every", "fdatasync_every")) if v is not None]
        f = None if not fs else fs[0] if len(fs) == 1 else fs[0].fillna(0).clip(lower=fs[1].fillna(0)).where(
            fs[0].notna() | fs[1].notna())  # fsync or fdatasync: either puts a sync in the loop
        if d is not None and not (d != "read").any():
            fsync = ""  # a read-only series: no write to sync
        elif f is not None and not (f.fillna(0) > 0).any() and (own or f.notna().all()):
            fsync = ""  # unset in fio's own output, or recorded as none
        kinds = [c for c in ("clat_mean_s", "slat_mean_s") if c in rows and _num(rows, c).notna().any()]
        unknown = not own and not kinds
    between = ", ".join(x for x in (think, fsync, "fio's own work") if x)
    causes = (f"time a job spends between I/Os — {between} —, submission batching, a CPU-bound submitter, a rate "
              f"limit or a per-job limit")
    return {"causes": causes, "kind_unknown": unknown}


def low_words(lo: np.ndarray, n_low: int) -> str:
    """"far below 1" where every low point is under :data:`FAR_BELOW`; else "below 1" with the far ones counted."""
    from .wording import counted

    far = int((np.round(lo, 2) < FAR_BELOW).sum())
    if far == n_low:
        return f"at {counted(n_low, 'point')} it is far below 1"
    if far == 0:
        return f"at {counted(n_low, 'point')} it is below 1 (down to {float(np.min(lo)):.2f})"
    return f"at {counted(n_low, 'point')} it is below 1, at {far} of them far below (under {FAR_BELOW:.1f})"
