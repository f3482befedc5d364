"""How loaded a layer that fio's disk statistics name was: its busy share per run, and its write requests per fio
write — so that "the flushes waited for that layer" is not read as "that layer was at its limit".

Set after round 25 was read (EG: r25_here-datajournal_ext4-datajournal-on-loop_psync_randwrite4k_fdatasync1_numjobs
_repeats, "the rates are that layer's, not memory's" where loop0 was 43–51 % busy at 1 job and 65–75 % at 2–8 jobs —
idle a quarter to a half of every run — and took 4.77–4.81 writes per fio write at 1 job, 2.95–3.05 at 8, unsaid).
fio's ``disk_util`` is the share of the run the device had a request in flight (iostat's %util); its write count is
the device's requests over the whole job (ramp time included), against fio's own count of the writes it timed.
"""
from __future__ import annotations

import numpy as np

__all__ = ["WRITE_AMP", "direct_writes", "layer_load", "layer_load_words"]

#: device write requests per fio write above which they are said: up to 1.5 a write a split or an occasional
#: metadata write; above it the layer wrote much more than fio asked (a journal, copy-on-write, parity). Set after
#: round 25 was read (EG: datajournal 2.95–4.81).
WRITE_AMP = 1.5


def _num(rows, col):
    import pandas as pd

    return pd.to_numeric(rows[col], errors="coerce") if col in rows else pd.Series(np.nan, index=rows.index)


def layer_load(rows, busy) -> dict | None:
    """``{busy_lo, busy_hi, writes_lo, writes_hi}`` over the runs (one source file a run): the device's busy share
    (0–1, NaN where not recorded) and its write requests per fio write (NaN where a count is missing or any run's
    file holds several devices' counts); None without rows. ``busy`` is the caller's ``buffered._busy(rows)``."""
    if rows is None or not len(rows) or "source_path" not in rows:
        return None
    per: list[float] = []
    if {"disk_write_ios", "ios", "direction"} <= set(rows.columns):
        for _, g in rows.groupby(rows["source_path"].astype(str), sort=False):
            dev = _num(g, "disk_write_ios").dropna().unique()
            ios = float(_num(g[g["direction"].astype(str) == "write"], "ios").sum())
            if dev.size != 1 or not ios > 0 or not dev[0] > 0:
                per = []
                break
            per.append(float(dev[0]) / ios)
    return {"busy_lo": busy[1] if busy else np.nan, "busy_hi": busy[2] if busy else np.nan,
            "writes_lo": min(per) if per else np.nan, "writes_hi": max(per) if per else np.nan}


def direct_writes(rows) -> dict | None:
    """:func:`layer_load`'s write requests per fio write (no busy share) for direct-I/O write runs on one device,
    where every run's count is known and the lowest is above :data:`WRITE_AMP`; None otherwise. Set after round 29
    was read (OE: r29_here-vdadsync, psync O_DSYNC direct 4 KiB writes, 2.06–3.47 vda writes per fio write unsaid —
    the data block and ext4's journal). Not of reads, buffered runs (:mod:`.buffered` says theirs) or mixed runs."""
    import pandas as pd

    if rows is None or not len(rows) or not {"direct", "direction"} <= set(rows.columns):
        return None
    if not (rows["direction"].astype(str) == "write").all():
        return None
    direct = rows["direct"].astype(object).map(lambda v: int(v) if isinstance(v, bool) else v)
    if not pd.to_numeric(direct, errors="coerce").eq(1).all():
        return None
    load = layer_load(rows, None)
    if load is None or not np.isfinite(load["writes_lo"]) or not load["writes_lo"] > WRITE_AMP:
        return None
    return load


def layer_load_words(load: dict | None, dev: str, at_limit: float) -> str:
    """"; loop0 was busy 43–75 % of the runs (…), and fio's disk statistics count 2.95–4.81 writes on it per fio
    write (…)" — each part only where recorded (the writes only above :data:`WRITE_AMP`); "" otherwise. ``at_limit``
    is the busy share at which a device is at its limit (``buffered.BUSY_AT_LIMIT``)."""
    if load is None:
        return ""
    parts = []
    lo, hi = load["busy_lo"], load["busy_hi"]
    if np.isfinite(lo) and np.isfinite(hi):
        rng = f"{lo:.0%}" if round(100 * lo) == round(100 * hi) else f"{100 * lo:.0f}–{100 * hi:.0f} %"
        parts.append(f"{dev} was busy {rng} of each run" + (
            " (idle the rest: not saturated)"
            if hi < at_limit else ""))
    wl, wh = load["writes_lo"], load["writes_hi"]
    if np.isfinite(wl) and np.isfinite(wh) and wh > WRITE_AMP:
        rng = f"{wl:.3g}" if f"{wl:.3g}" == f"{wh:.3g}" else f"{wl:.3g}–{wh:.3g}"
        parts.append(f"fio's disk statistics count {rng} writes on {dev} per fio write (more requests than fio's writes: "
                     f"the file system's journal or metadata writes, or splits; the device's count also covers any ramp "
                     f"time)")
    return ("; " + ", and ".join(parts)) if parts else ""
