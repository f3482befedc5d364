"""Direct reads (``direct=1``) at random offsets of which fewer reached the device fio names than fio made.

With direct I/O there is no page cache above the device, and reads at random offsets are rarely adjacent, so the block
layer seldom merges them: each read that reaches the device is, nearly always, one device read. fio's disk statistics count the
device's reads over the whole job, ramp included (``merges.py``), so device reads ÷ fio's reads is an upper bound of the
share that reached it. Read only where fio's target is a file (not a ``/dev`` node: a device opened itself has
nothing above it; r12_here-sched … numjobs on /dev/loop0 counts 0.85–0.94 at random offsets on a small device,
where adjacent reads in flight do merge). A run below :data:`REACHED_BELOW` had reads answered above the device — by the file system
above it, e.g. reads of never-written or unwritten (fallocated) extents, which it answers with zeros and no device
read, or a cache in that layer. Those reads cost less, so the rates are not all the device's. Said per run share and
where; nothing is said where every run is at or above it.

Set after round 22 was read (r22_vsalvaggio_wsl2-loop-image_4k-randread_libaio_qd_repeats, 0.81–0.83 loop0 reads per
fio read from iodepth 4, and …_4k-randrw_qd32_readshare, 0.93 at 70 % reads and 0.51 at 100 %, part 2 YF: the layer
sentence said loop0's rates without the share)."""

from __future__ import annotations

import numpy as np

__all__ = ["REACHED_BELOW", "direct_reached", "direct_reached_words"]

#: device reads per fio read below which some direct reads did not reach the device: the ±5 % the count's ramp and
#: the odd adjacent pair leave (merges.ONE_EACH). Set after round 22 was read (vsalvaggio QD 0.996–0.999 at QD 1–2,
#: 0.81–0.83 from 4; randrw 1.000, 0.932, 0.510)
REACHED_BELOW = 0.95


def _num(s):
    import pandas as pd

    return pd.to_numeric(s, errors="coerce")


def direct_reached(rows, xcol: str | None) -> dict | None:
    """``{"device", "lo", "hi", "at", "runs", "below"}``: per run, the one device's reads ÷ fio's reads, where every
    run recorded direct=1, every read was random, one device was named and at least one run fell below
    :data:`REACHED_BELOW` (``lo``/``hi`` over those runs, ``at`` their x values); None otherwise."""
    need = {"source_path", "direction", "ios", "devices", "disk_read_ios", "direct"}
    if rows is None or not len(rows) or not need <= set(rows.columns):
        return None
    from .claim import stated

    d = stated(rows, "direct")
    if d.isna().any() or not d.astype(bool).all():
        return None
    pat = rows["pattern"].astype(object).fillna("").astype(str) if "pattern" in rows else None
    if pat is None or not pat.str.startswith("rand").all():
        return None
    targets = rows["target_names"].dropna().astype(str) if "target_names" in rows else None
    if targets is None or not len(targets) or targets.str.startswith("/dev/").any():
        return None  # a file above the device: a device opened itself has nothing above it to answer a read
    devs = rows["devices"].astype(object)
    names = set(devs.astype(str))
    if not devs.notna().all() or len(names) != 1 or ";" in next(iter(names)) or not next(iter(names)):
        return None
    ratios, xs = [], []
    for _, g in rows.groupby(rows["source_path"].astype(str), sort=False):
        r = g[g["direction"].astype(str) == "read"]
        if not len(r):
            continue
        dev = _num(r["disk_read_ios"]).dropna().unique()
        ios = float(_num(r["ios"]).sum())
        if dev.size != 1 or not ios > 0 or len(g["source_path"]) != len(g):
            return None
        ratios.append(float(dev[0]) / ios)
        xs.append(float(_num(r[xcol]).iloc[0]) if xcol and xcol in r else np.nan)
    low = [i for i, v in enumerate(ratios) if v < REACHED_BELOW]
    if not low:
        return None
    return {"device": next(iter(names)), "lo": min(ratios[i] for i in low), "hi": max(ratios[i] for i in low),
            "at": sorted({xs[i] for i in low if np.isfinite(xs[i])}), "runs": len(low), "of": len(ratios),
            "rest_lo": min((v for v in ratios if v >= REACHED_BELOW), default=np.nan)}


def direct_reached_words(rows, xcol: str | None, text: str, xv=str) -> str:
    """``text`` (a layer sentence ending in ".") with :func:`direct_reached`'s share added; ``text`` unchanged where
    it does not apply."""
    h = direct_reached(rows, xcol)
    if h is None or not text.endswith("."):
        return text
    from .wording import span

    share = span(f"{100 * h['lo']:.0f}", f"{100 * h['hi']:.0f}") + " %"
    where = ""
    if h["at"]:
        vals = [xv(v) for v in h["at"]]
        where = f" at {xcol} = {vals[0] if len(vals) == 1 else ', '.join(vals[:-1]) + ' and ' + vals[-1]}"
    return (f"{text[:-1]}. But in {h['runs']} of the {h['of']} runs{where} at most {share} of fio's direct reads "
            f"reached {h['device']} as reads of their own (its read count ÷ fio's reads): with no page cache in the "
            f"way, the rest were merged with a neighbour in flight (rare at random offsets) or answered above it — "
            f"e.g. by the file system, for never-written or unwritten extents read as zeros, without "
            f"{h['device']}'s work — so the rates there are not all {h['device']}'s.")
