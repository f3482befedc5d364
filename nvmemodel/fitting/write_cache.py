"""Buffered writes counted against the write requests fio's disk statistics give the device beneath, and the layers
that served the two pure ends of a buffered read/write mix.

Set after round 23 was read (ZB: r23_ericfan_nvme-buffered-pagecache_4k-randwrite_libaio_qd, 0.012–0.035 nvme0n1 write
requests per fio 4 KiB write and no sentence naming the page cache; r23_ericfan_nvme-buffered_4k-randrw_qd32_readshare,
"little interference beyond sharing the device's time" and "which a slower device alone does not do (… the threads fio
does not count would tell what took the CPU)" where the pure writes were page-cache copies, ~7 µs of CPU each, and the
pure reads each went to the drive, ~100 µs inside io_submit).

* A buffered page-sized *random* write that reached the device during the run issues a request of its own (random
  pages rarely merge), so where every run's device write requests ÷ fio's writes is at most :data:`WRITES_HELD`, at
  least 9 in 10 of fio's writes ended in the page cache without a request of their own during the run: the page cache
  took them (write-back later, merged, or overwritten in memory). Sequential writes are not read so (write-back merges
  them into large requests whatever served the rate).
* Buffered page-sized reads with at least :data:`READS_REACHED` device read requests per fio read went to the device
  (a hit issues none).
* A mix whose pure write end the page cache took and whose pure read end went to the device is two layers: what its
  I/O shared was the one job's time, and the CPU per I/O between the ends is the layers' cost.
"""
from __future__ import annotations

import numpy as np

from .devices import listed_devices

__all__ = ["WRITES_HELD", "READS_REACHED", "device_writes", "mix_ends"]

#: device write requests per fio page-sized random write at or below which the page cache took the writes: a write that
#: reached the device issues about one; one in ten leaves ≥ 90 % that did not (set after round 23 was read, ZB:
#: ericfan randwrite 0.012–0.035 a write; direct=1 and O_SYNC writes issue ≈ 1)
WRITES_HELD = 0.1
#: device read requests per fio page-sized read at or above which the reads went to the device (ericfan randread
#: 0.998–0.999; a cached read issues none — set after round 23 was read, ZB; page_reads.MISSED_MIN (1.0) is the
#: stricter bound it uses to say "every read missed")
READS_REACHED = 0.9
_PAGE = 4096


def _num(rows, col):
    import pandas as pd

    return pd.to_numeric(rows[col], errors="coerce") if col in rows else pd.Series(np.nan, index=rows.index)


def _ratios(rows, direction: str, disk_col: str) -> np.ndarray | None:
    """Per report of page-sized runs in one direction: device requests ÷ fio I/Os; None where a count is missing."""
    need = {"source_path", "direction", "ios", disk_col, "block_size_bytes"}
    if rows is None or not len(rows) or not need <= set(rows.columns):
        return None
    out = []
    for _, g in rows.groupby(rows["source_path"].astype(str), sort=False):
        d = g[g["direction"].astype(str) == direction]
        bs, dev, ios = _num(d, "block_size_bytes").dropna().unique(), _num(g, disk_col).dropna().unique(), \
            float(_num(d, "ios").sum())
        if bs.size != 1 or bs[0] > _PAGE or dev.size != 1 or not ios > 0:
            return None
        out.append(float(dev[0]) / ios)
    return np.array(out) if out else None


def device_writes(rows) -> dict | None:
    """``{"lo", "hi", "runs"}`` device write requests per fio write where every run is a buffered page-sized random
    write at most :data:`WRITES_HELD` a write (module docstring); else None."""
    if rows is None or not len(rows) or "direction" not in rows or not (rows["direction"].astype(str) == "write").all():
        return None
    if "pattern" not in rows or not rows["pattern"].astype(str).str.startswith("rand").all():
        return None
    r = _ratios(rows, "write", "disk_write_ios")
    # a run with no device write at all is no count (a device whose counters fio could not read: disk_counts, round
    # 19 TF — r19_lsvdrbd's NVMe-oF namespace, 0 writes for 395 K 19 ms writes), not a page cache's proof
    if r is None or not (r <= WRITES_HELD).all() or not (r > 0).all():
        return None
    return {"lo": float(r.min()), "hi": float(r.max()), "runs": int(r.size)}


def write_words(head: str, w: dict, devs: str) -> str:
    from .wording import span

    ratio = span(f"{w['lo']:.3f}", f"{w['hi']:.3f}")
    return (f"{head}, and fio's disk statistics count {ratio} write requests on {devs} per fio write of one page "
            f"(random writes: one that reached the device issues its own request): the page cache took the writes — "
            f"at least {int(np.floor(100 * (1 - w['hi'])))} % of them never reached {devs} as a request of their own during the run "
            f"— so the rates are the page cache's and the CPU's, not the device's.")


def mix_ends(result) -> dict | None:
    """Along the read share of buffered runs: ``{"write", "read", "devs"}`` (requests per I/O at each pure end) where
    the pure writes were taken by the page cache (:func:`device_writes`) and the pure reads went to the device (≥
    :data:`READS_REACHED` requests a read); else None."""
    tbl = getattr(result, "table", None)
    if result.x != "read_fraction" or tbl is None or "read_fraction" not in tbl or "direct" not in tbl:
        return None
    from ..ingest.summary import usable_rows
    from .claim import stated

    rows = usable_rows(tbl)
    d = stated(rows, "direct").dropna()
    if len(d) and bool(d.astype(bool).any()):
        return None  # a direct=1 mix keeps "the device's time" (not stated: the write counts below decide)
    rf = _num(rows, "read_fraction")
    w = device_writes(rows[rf == 0])
    r = _ratios(rows[rf == 1], "read", "disk_read_ios")
    if w is None or r is None or not (r >= READS_REACHED).all():
        return None
    devs = sorted(listed_devices(rows)) if "devices" in rows else []
    return {"write": (w["lo"], w["hi"]), "read": (float(r.min()), float(r.max())),
            "devs": ", ".join(devs) or "the device"}


def mix_layers_words(e: dict) -> str:
    """The clause after "little interference beyond sharing …": the job's time between two layers."""
    from .wording import span

    w = span(f"{e['write'][0]:.3f}", f"{e['write'][1]:.3f}")
    r = span(f"{e['read'][0]:.3f}", f"{e['read'][1]:.3f}")
    return (f"the one job's time, not the device's: the pure ends are two layers — the page cache took the writes "
            f"({w} write requests on {e['devs']} per fio write) and the reads went to {e['devs']} ({r} read requests "
            f"per fio read)")
