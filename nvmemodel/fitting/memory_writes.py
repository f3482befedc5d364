"""Buffered writes that never waited: fio's context switches ≈ 0 per write and each write shorter than any device's
service time — the page cache took them in memory (set after round 28 was read: r28_here-overlaycopyup, MJ: 1.8 µs
writes with ~0 context switches told only "what lay beneath the page cache is unknown").

fio's ``ctx`` counts voluntary and involuntary switches alike (getrusage), so a write that slept — for the device, for
write-back throttling, for a flush — counts at least one; at most :data:`~nvmemodel.fitting.memory_bounds.CTX_NEVER` per
write in every run, no write slept. Not said where a write was flushed (fsync / fdatasync, sync calls in fio's
figures), nor of direct I/O.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def _num(rows, col) -> pd.Series:
    return pd.to_numeric(rows[col], errors="coerce") if col in rows else pd.Series(np.nan, index=rows.index)


def memory_writes(rows) -> dict | None:
    """``{"per_hi", "lat_lo", "lat_hi", "runs"}`` where every row is a buffered write with no sync call, every run
    switched at most ``CTX_NEVER`` per write and every run's mean write latency is below ``MEMORY_LATENCY``; else
    None."""
    from ..ingest.context_switches import run_switches
    from .memory_bounds import CTX_NEVER, MEMORY_LATENCY

    need = {"source_path", "direction", "ios", "ctx"}
    if rows is None or not len(rows) or not need <= set(rows.columns):
        return None
    if not (rows["direction"].astype(str) == "write").all():
        return None
    for col in ("fsync_every", "fdatasync_every", "sync_ios"):
        v = _num(rows, col)
        if (v.fillna(0) > 0).any():
            return None  # a flush waits for the device (round 28, MF's vdafsync)
    sw = run_switches(rows)
    if not len(sw) or sw["per_io"].isna().any():
        return None
    lat = _num(rows, "lat_mean_s").fillna(_num(rows, "clat_mean_s"))
    lat = lat.groupby(rows["source_path"].astype(str)).max()
    if lat.isna().any() or not len(lat):
        return None
    per = sw["per_io"].to_numpy(float)
    if per.max() > CTX_NEVER or lat.max() >= MEMORY_LATENCY:
        return None
    return {"per_hi": float(per.max()), "lat_lo": float(lat.min()), "lat_hi": float(lat.max()), "runs": int(per.size)}


def memory_writes_words(head: str, m: dict, no_device: bool) -> str:
    from .wording import fmt_y, span

    lat = span(fmt_y(m["lat_lo"], "s"), fmt_y(m["lat_hi"], "s"))
    return (f"{head}, and no write waited: fio counted at most {m['per_hi']:.2g} context switches per write in any of "
            f"the {m['runs']} runs (voluntary and involuntary alike: a write that slept for a device would count one) "
            f"and a write took {lat} on average (fio's mean latency), shorter than any device serves one — the page "
            f"cache took the writes in memory, so the rates are memory's and the CPU's"
            + ("; fio's disk statistics name no block device under the files, so what lay beneath the page cache "
               "(where the writes would go later) is unknown from them." if no_device else "."))
