"""fio's disk statistics that name a device and count none of fio's I/O on it: the I/O did not pass a block device
whose counters fio could read.

fio lists, for each job's files, the block device beneath them and the read and write requests it completed during
the job (``disk_util``: /sys/block/<dev>/stat deltas; ``disk_read_ios``, ``disk_write_ios``, summed over the devices
listed). A device named there with 0 reads and 0 writes in every run, while fio completed thousands of reads or writes
on its files, counted none of them. Direct I/O (``direct=1``) that reached a block device which counts its requests is
counted, so the I/O went another way: an NVMe multipath head over fabrics or PCIe paths (the kernel can keep its
statistics off and count on the per-path devices fio does not list), a driver outside the block layer, a device with
its statistics switched off. The files do not say which, so none is named, and no device-level reading (merging,
utilisation, I/Os per request) rests on such counters (set after round 19 was read:
r19_lsvdrbd_nvmetcp-spdk-*_4k-*_iouring_qd, "nvme1n3: ios=0/0 … util=0.00%" against 3,930–395,336 fio I/Os a run,
unremarked, TF). fio's read and write counts leave trims out: only runs of reads and writes are read.

Where a run states ``direct=0`` the page cache may have absorbed every I/O (a cached read, a write not yet written
back): nothing is read here (``buffered.py`` says what served buffered runs). Where the files do not state ``direct``
(fio's normal and terse output echo no options) that remains possible, and the sentence says so.
"""

from __future__ import annotations

import numpy as np

__all__ = ["uncounted", "uncounted_claims"]


def _num(s):
    import pandas as pd

    return pd.to_numeric(s, errors="coerce")


def uncounted(rows) -> dict | None:
    """``{"devices", "runs", "fio_ios": (lo, hi), "direct"}`` where every run (source file) of ``rows`` names a device
    in fio's disk statistics whose read and write counts are both 0 while fio's own I/O count (``ios``) is above 0;
    ``direct`` is True where every run states direct I/O, None where some run does not say. None otherwise, and
    where any run states buffered I/O (``direct=0``)."""
    from .claim import stated
    from .devices import listed_devices

    need = {"source_path", "devices", "disk_read_ios", "disk_write_ios", "ios"}
    if rows is None or not len(rows) or not need <= set(rows.columns):
        return None
    if "is_aggregate" in rows:
        rows = rows[~rows["is_aggregate"].astype(object).map(lambda v: str(v).strip().lower() in ("true", "1"))]
    if not len(rows):
        return None
    if "direction" in rows and not set(rows["direction"].astype(str)) <= {"read", "write"}:
        return None  # trims (and the like) are no reads or writes: fio's read and write counts leave them out
    direct = stated(rows, "direct") if "direct" in rows else None
    known = direct.dropna() if direct is not None else None
    if known is not None and len(known) and not known.astype(bool).all():
        return None  # buffered: the page cache can absorb every I/O (buffered.py reads those runs)
    ios = []
    for _, g in rows.groupby(rows["source_path"].astype(str), sort=False):
        names = g["devices"].astype(object).fillna("").astype(str)
        reads, writes, n = _num(g["disk_read_ios"]), _num(g["disk_write_ios"]), _num(g["ios"])
        if (names == "").any() or not (reads.notna().all() and writes.notna().all() and n.notna().all()):
            return None
        if (reads != 0).any() or (writes != 0).any() or not n.sum() > 0:
            return None
        ios.append(float(n.sum()))
    return {"devices": listed_devices(rows), "runs": len(ios), "fio_ios": (min(ios), max(ios)),
            "direct": True if known is not None and len(known) == len(rows) else None}


def uncounted_claims(result, cf) -> list:
    """The sentence of :func:`uncounted` for one curve's runs ([] where it does not apply)."""
    from .claim import Claim, runs_rows
    from .devices import stack_words
    from .wording import _count

    u = uncounted(runs_rows(result, cf.points))
    if u is None:
        return []
    lo, hi = u["fio_ios"]
    n = _count(lo) if np.isclose(lo, hi) else f"{_count(lo)}–{_count(hi)}"
    runs = "the run" if u["runs"] == 1 else f"every one of the {u['runs']} runs"
    also = ("" if u["direct"] else "; direct is not recorded in these files, and buffered I/O served entirely by the "
                                   "page cache would leave them empty too")
    return [Claim("layer", f"fio's disk statistics name {stack_words(u['devices'])} but count no I/O on "
                            f"{'it' if len(u['devices']) == 1 else 'them'} in {runs} (0 reads, 0 writes) while fio completed {n} I/Os a run: the I/O did not pass a "
                            f"block device whose counters fio could read — an NVMe multipath or fabrics head, a "
                            f"driver outside the block layer or a device with its statistics off gives this, and the "
                            f"files do not say which{also}. Nothing is read from those counters.",
                  {"uncounted": u, "layer": None})]
