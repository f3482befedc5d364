"""Whether one of fio's I/Os reached the device as one request: a block above the device's request limit
(``/sys/block/*/queue/max_sectors_kb``) is split by the block layer, so one fio I/O outstanding is several device
requests in flight. "One I/O at a time already reaches it" then names the wrong queue depth (set after round 24 was
read, class BD: r24_noxdb … sn530 1m-seqwrite libaio qd, max_sectors_kb = 128, each 1 MiB write 8 device requests,
device aqu-sz 4.29 at QD1).

From fio's disk statistics (device requests ÷ fio's I/Os at the first point) where the files give them; else from the
block size alone, hedged: above :data:`SPLIT_BYTES` a split is possible, not known.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SPLIT_BYTES", "SPLIT_RATIO", "first_split", "split_clause"]

#: an I/O larger than this may be split: 128 KiB is the request limit (max_hw_sectors_kb) of NVMe drives whose MDTS is
#: 5 with 4 KiB pages, a common value, and a max_sectors_kb some hosts set; blocks of twice that or more are split on
#: such a device (set after round 24 was read)
SPLIT_BYTES = 256 * 1024  # (a block of this size or more)
#: device requests per fio I/O above this (ramp included in fio's disk counts, ≤ ~1.3 for an unsplit I/O on the short
#: runs seen: r24 memcgmmap 1.05–1.65 per page read is a different thing — page faults — and never reaches here, as
#: only direct I/O is read): the I/Os were split (set after round 24 was read)
SPLIT_RATIO = 1.5


def first_split(result, p, rows=None) -> dict | None:
    """At the first point: ``{"bytes", "ratio"}`` with ``ratio`` the device requests per fio I/O where fio's disk
    statistics give them (None where they do not and the block exceeds :data:`SPLIT_BYTES`); None where the I/O was
    not split (ratio ≤ :data:`SPLIT_RATIO`) or is no larger than SPLIT_BYTES without disk statistics. ``rows``: the
    first point's table rows (``one_outstanding._first_rows``, which its caller passes: no import back)."""
    size = float(p["bytes_per_io"].iloc[0]) if "bytes_per_io" in p else np.nan
    ratio = np.nan
    if rows is not None and len(rows) and "ios" in rows:
        dev = sum(rows[c].astype(float).fillna(0).to_numpy() for c in ("disk_read_ios", "disk_write_ios") if c in rows)
        ios = rows["ios"].astype(float).to_numpy()
        if not np.isscalar(dev) and np.all(np.isfinite(ios)) and ios.sum() > 0 and dev.sum() > 0:
            ratio = float(dev.sum() / ios.sum())
    if not np.isfinite(size):
        return None
    if np.isfinite(ratio):
        return {"bytes": size, "ratio": ratio} if ratio > SPLIT_RATIO else None
    if size >= SPLIT_BYTES:
        return {"bytes": size, "ratio": None}
    return None


def split_clause(s: dict) -> str:
    """The clause on what one fio I/O was at the device."""
    from .claim import _bytes

    b = _bytes(s["bytes"])
    if s["ratio"] is not None:
        return (f"each {b} I/O reached the device as about {s['ratio']:.1f} requests (fio's disk statistics: device "
                f"requests ÷ fio's I/Os), so the device had more than one request in its queue")
    return (f"a {b} I/O may reach the device as several requests (the block layer splits any I/O above the device's "
            f"request limit, max_sectors_kb, 128 KiB on many drives), so the device's queue may have been deeper "
            f"than 1 (the files do not say how deep)")
