"""Buffered reads of one page or less, counted against the read requests fio's disk statistics give the device
beneath: what the count shows of the page cache's share.

A buffered read of at most one page (``block_size_bytes`` ≤ :data:`PAGE`; fio aligns each I/O to its size, so such a
read lies inside one page of any page size) that finds its page in the page cache issues no request to the device;
one that misses issues at least one. So, run by run, the device's read requests ÷ fio's reads (``disk_read_ios`` ÷
``ios``) bound the share of hits from below: hits ≥ 1 − requests ÷ reads (the count also holds the ramp's and any
readahead's requests, which only raise it). Two readings are said, each where every page-sized run agrees:

* every run ≥ :data:`MISSED_MIN` requests a read: the device saw at least one request for every read fio made —
  fio's reads missed the page cache and the rates are the device's path's (``verdict = "missed"``; the claim names the
  device's layer, not the page cache);
* every run ≤ :data:`HITS_MAX`: at least 1 − that share of fio's reads were page-cache hits (``verdict = "hits"``).

Between the two nothing is said. Above a page one read may become several requests, so there fio's count is of
requests, not bytes, and the old words stand. Set after round 22 was read (r22_here-memcg_loop-buffered-memcg32m_psync
randread_bs_repeats, …_randread_numjobs_repeats, …_seqread_bs_repeats, part 1 XB: 1.71–2.06 and 1.18–2.07 loop0
requests per 4 KiB random read, "which served it is not shown"; 0.015–0.023 per 4 KiB sequential read, the hits
unsaid)."""

from __future__ import annotations

import numpy as np

__all__ = ["PAGE", "MISSED_MIN", "HITS_MAX", "page_reads", "page_words"]

#: the smallest page size Linux uses (x86, most arm64 kernels): a read of at most this many bytes, aligned to its size,
#: lies in one page whatever the page size
PAGE = 4096
#: device read requests per fio read at or above which every page-sized read is taken as having reached the device (a
#: hit issues none, so fewer than one a read means some hit). Set after round 22 was read (the two memcg randread
#: series, 1.18–2.07 a run; the seqread series' 0.015–0.023 falls far below)
MISSED_MIN = 1.0
#: below this many device requests a fio read, the excess over one may be the ramp's requests alone (fio's default
#: ramp_time of a few seconds beside a run of tens: up to about a quarter more); set after round 29 was read (OE:
#: r29_here-vdammap 1.13–1.19 with a 1 s ramp before 5 s measured)
RAMP_ONLY = 1.25
#: at or below this many requests a read, the hits' lower bound (1 − ratio) is at least half of fio's reads, and is
#: said; the same half as cache_hits.REACHED_MAX. Set after round 22 was read (r22 memcg seqread 4 KiB, 0.015–0.023)
HITS_MAX = 0.5


def _num(s):
    import pandas as pd

    return pd.to_numeric(s, errors="coerce")


def page_reads(rows) -> dict | None:
    """``{"verdict", "lo", "hi", "runs", "size", "all_pages", "bytes_lo", "bytes_hi", "sequential"}`` for the
    page-sized runs of a buffered read series (``lo``/``hi`` the requests a read, ``bytes_*`` fio's bytes per device
    request), or None where no page-sized run has a count of its own or the runs do not agree (module docstring)."""
    need = {"source_path", "direction", "ios", "disk_read_ios", "block_size_bytes"}
    if rows is None or not len(rows) or not need <= set(rows.columns):
        return None
    if not (rows["direction"].astype(str) == "read").all():
        return None
    ratio, per_req, sizes, all_pages = [], [], set(), True
    for _, g in rows.groupby(rows["source_path"].astype(str), sort=False):
        bs = _num(g["block_size_bytes"]).dropna().unique()
        dev = _num(g["disk_read_ios"]).dropna().unique()
        ios = float(_num(g["ios"]).sum())
        if bs.size != 1 or dev.size != 1 or not ios > 0:
            return None  # one size and one device count a report (a report of several groups counts them together)
        if bs[0] > PAGE:
            all_pages = False
            continue
        sizes.add(float(bs[0]))
        ratio.append(float(dev[0]) / ios)
        per_req.append(ios * float(bs[0]) / float(dev[0]) if dev[0] > 0 else np.inf)
    if not ratio:
        return None
    lo, hi = min(ratio), max(ratio)
    verdict = "missed" if lo >= MISSED_MIN else "hits" if hi <= HITS_MAX and lo > 0 else None
    if verdict is None:
        return None
    pat = rows["pattern"].astype(object).fillna("").astype(str) if "pattern" in rows else None
    return {"verdict": verdict, "lo": lo, "hi": hi, "runs": len(ratio), "size": max(sizes), "all_pages": all_pages,
            "bytes_lo": min(per_req), "bytes_hi": max(per_req),
            "sequential": bool(pat is not None and len(pat) and (~pat.str.startswith("rand")).all()
                               and (pat != "").all())}


def _floor_pct(v: float) -> str:
    """A lower bound as a whole percent, rounded down (0.999 is "99", never "100")."""
    return f"{int(np.floor(100 * v + 1e-9))}"


def _bytes(v: float) -> str:
    return f"{v / 2**20:.3g} MiB" if v >= 2**20 else f"{v / 1024:.3g} KiB" if v >= 1024 else f"{v:.0f} B"


def page_words(p: dict, devs: str, layer: str | None) -> str:
    """The clause for :func:`page_reads`' verdict, after "… read requests on <devs> in each run"."""
    from .wording import span

    at = "" if p["all_pages"] else f" at {_bytes(p['size'])}"
    if p["verdict"] == "missed":
        whose = f"{devs}'s path's (the loop worker's copy of its file)" if layer == "loop" else f"{devs}'s path's"
        ratio = span(f"{p['lo']:.2f}", f"{p['hi']:.2f}")
        # the device's count covers the ramp, fio's does not: an excess over one is not said as extra requests
        # (set after round 29 was read: r29_here-vdammap, "1.13–1.19 requests per fio read" = 0.94–1.00 over the
        # measured 5 s of a 1 s ramp + 5 s run, OE)
        ramp = (" (the device's count also covers any ramp_time, fio's does not: an excess over one that small "
                "need be no extra request)" if p["hi"] < RAMP_ONLY else "")
        return (f"{ratio} requests per fio read of one page{at}{ramp} — a page found in the page cache issues "
                f"none, so "
                f"fio's reads{at} missed the page cache and went to {devs}: the rates{at} are {whose}, not memory's")
    ratio = span(f"{p['lo']:.3f}", f"{p['hi']:.3f}")
    per = span(_bytes(p["bytes_lo"]), _bytes(p["bytes_hi"]))
    return (f"{ratio} requests per fio read of one page{at} — a read that missed the page cache issues at least one, "
            f"so at least {_floor_pct(1 - p['hi'])} % of fio's reads{at} were page-cache hits (one request per {per} "
            f"of fio's reads{': readahead' if p['sequential'] else ''})")


def missed_layer(facts: dict) -> str | None:
    """The layer a buffered layer claim names where :func:`page_reads` found every page-sized read missed the page
    cache: the one device's layer (``loop``, ``dm`` …), ``buffered_device`` for a disk; None otherwise."""
    from .devices import layer_of

    pg, devs = facts.get("pages"), facts.get("devices") or []
    if not pg or pg["verdict"] != "missed" or facts.get("served") != "device_part" or len(devs) != 1:
        return None
    return layer_of(devs[0]) or "buffered_device"


def served_what(facts: dict) -> str:
    """What served buffered reads the device served in every run (``served = "device_part"``), for a sentence about a
    limit: the device where every read missed, the page cache where most hit (every point page-sized), else both —
    never "which served it is not shown" beside a layer sentence that says the device served reads in every run."""
    pg, devs = facts.get("pages"), ", ".join(facts.get("devices") or []) or "the device"
    if pg and pg["verdict"] == "missed":
        which = "every read" if pg["all_pages"] else "every page-sized read"
        return f"{devs} beneath the page cache (buffered I/O: {which} missed the page cache)"
    if pg and pg["verdict"] == "hits":
        which = "reads" if pg["all_pages"] else "page-sized reads"
        return (f"the page cache (memory; at least {_floor_pct(1 - pg['hi'])} % of {which} hit it) and {devs} "
                f"beneath it")
    return (f"{devs} and the page cache above it (buffered I/O: {devs} served reads in every run; the page cache's "
            f"share is not shown)")
