"""How many of fio's reads reached the layered device fio's disk statistics name, where the files do not record
``direct``: reads that never reached it were served above it (page-cache hits of buffered reads).

fio's disk statistics count, per device under the job's files, the reads the device completed during the whole job
(``disk_read_ios``; ramp included, so the count is at least the one over fio's runtime and the device's reads ÷ fio's
reads is an upper bound). Direct I/O sends every read to the device: the block layer can merge only reads that are
in flight together, so at most the job's outstanding I/Os (``iodepth`` × ``numjobs``) become one device read, and
reads at random offsets are not adjacent and are not merged at all. A run with fewer device reads than that allows
did not use direct I/O: its reads were buffered, and those that did not reach the device were hits in the page cache
above it — the rates are the page cache's, not the device's (set after round 21 was read:
r21_here-uringbuf_loop-pagecache_iouring_buffered_randread_iodepth_repeats, …_randread_qd4_numjobs_repeats and
…_seqread_qd4_bs_repeats, VC: 0.04–0.16 loop0 reads per fio read, 65,536 a run, while the explanation said of loop0
"its rates are that layer's" and "direct I/O not ruled out").

Read only where the comparison is unambiguous: reads only, one device named in every run
(:func:`~nvmemodel.fitting.merges._one_device`), ``direct`` not recorded (recorded direct=0 is ``buffered.py``'s;
direct=1 with fewer device reads is merging, ``merges.py``'s), each report one configuration.
"""

from __future__ import annotations

import numpy as np

__all__ = ["REACHED_MAX", "RANDOM_FLOOR", "reached", "reached_sentence"]

#: at most this many device reads per fio read in every run before anything is said: a device that saw at most half
#: of fio's reads did not serve the rest (set after round 21 was read: the three r21_here-uringbuf_loop-pagecache
#: series, 0.003–0.38 in every run; a ratio near 1 — direct I/O, or buffered reads missing the cache — says nothing)
REACHED_MAX = 0.5
#: device reads per fio read below which random reads cannot have been direct: direct reads at random offsets are
#: not adjacent, so each reaches the device as its own read (1 a read; half of that leaves room for the odd adjacent
#: pair and a short file). Set after round 21 was read (the two r21_here-uringbuf randread series, 0.04–0.16)
RANDOM_FLOOR = 0.5


def _num(s):
    import pandas as pd

    return pd.to_numeric(s, errors="coerce")


def _random(rows) -> bool:
    """Every row's reads are at random offsets (fio's ``rw=randread`` or a random fraction of 100 %)."""
    pat = rows["pattern"].astype(object).fillna("").astype(str) if "pattern" in rows else None
    frac = _num(rows["random_fraction"]) if "random_fraction" in rows else None
    by_pat = pat is not None and pat.str.startswith("rand").all()
    by_frac = frac is not None and bool((frac >= 0.999).all())
    return bool(by_pat or by_frac)


def reached(rows, xcol: str | None = None) -> dict | None:
    """Per run (source file), the device's reads ÷ fio's reads, where every run's is at most :data:`REACHED_MAX`:
    ``{"device", "lo", "hi", "dev", "fio", "runs", "ruled_out", "random", "outstanding"}`` (``dev`` and ``fio`` the
    (lo, hi) reads a run). ``ruled_out`` where every run read fewer device reads than direct I/O allows (module
    docstring); else ``ruled_at`` the values of ``xcol`` where every run did (``rest`` the others, with their
    ratios' ``rest_lo``, ``rest_hi``). None where the comparison is not unambiguous."""
    from .claim import stated
    from .merges import _one_device, _report

    need = {"source_path", "direction", "ios", "devices", "disk_read_ios"}
    if rows is None or not len(rows) or not need <= set(rows.columns):
        return None
    one = _one_device(rows)
    if one is None:
        return None
    rows, d, device, by_src = one
    if d != "read":
        return None
    if "direct" in rows and stated(rows, "direct").notna().any():
        return None  # recorded: buffered runs are buffered.py's, direct ones merges.py's
    random = _random(rows)
    ratio, dev, fio, out, ruled, xs = [], [], [], [], [], []
    for _, g in by_src.items():
        rep = _report(g, "disk_read_ios")
        if rep is None:
            return None
        n_fio, n_dev = rep[0], rep[1]
        depth = _num(g["iodepth"]).max() if "iodepth" in g else np.nan
        jobs = _num(g["numjobs"]).max() if "numjobs" in g else 1.0
        k = float(depth * (jobs if np.isfinite(jobs) else 1.0))
        r = n_dev / n_fio
        floor = max(RANDOM_FLOOR if random else 0.0, 1.0 / k if np.isfinite(k) and k >= 1 else 0.0)
        ratio.append(r)
        dev.append(n_dev)
        fio.append(n_fio)
        out.append(k)
        ruled.append(r < floor)
        xs.append(float(_num(g[xcol]).iloc[0]) if xcol and xcol in g else np.nan)
    if not ratio or max(ratio) > REACHED_MAX:
        return None
    outs = [o for o in out if np.isfinite(o)]
    at: list[float] = []
    rest: list[float] = []
    rest_r: list[float] = []
    if not all(ruled) and np.isfinite(xs).all():  # per point: every run of a point below what direct I/O allows
        for x in sorted(set(xs)):
            runs = [i for i, v in enumerate(xs) if v == x]
            (at if all(ruled[i] for i in runs) else rest).append(x)
            rest_r += [] if all(ruled[i] for i in runs) else [ratio[i] for i in runs]
    return {"device": device, "lo": min(ratio), "hi": max(ratio), "dev": (min(dev), max(dev)),
            "fio": (min(fio), max(fio)), "runs": len(ratio), "ruled_out": all(ruled), "random": random,
            "outstanding": (min(outs), max(outs)) if outs else None, "ruled_at": at if at and rest else [],
            "rest": rest if at and rest else [], "rest_lo": min(rest_r, default=np.nan),
            "rest_hi": max(rest_r, default=np.nan)}


def _pct(v: float) -> str:
    return f"{100 * v:.2g} %" if v < 0.1 else f"{100 * v:.0f} %"


def _xs(vals: list, xv) -> str:
    words = [xv(v) for v in vals]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def reached_sentence(h: dict, said: str, what: str, x: str = "x", xv=str) -> str:
    """The layer sentence where :func:`reached` applies: how many reads reached the device, and what served the
    rest — the page cache where direct I/O is ruled out (at every point, or at the points named), left open (cache
    or merging) where it is not. ``x`` is the curve's x name, ``xv`` formats its values."""
    from .wording import _count

    dev = h["device"]

    def span(lo, hi, f=_count):
        return f(lo) if f(lo) == f(hi) else f"{f(lo)}–{f(hi)}"

    share = span(h["lo"], h["hi"], _pct)
    counts = (f"{span(*h['dev'])} device reads a run against fio's {span(*h['fio'])}; the device's count includes "
              f"any ramp, so at most that share")
    head = f"{said}: the I/O went through {what}, but only {share} of fio's reads reached {dev} ({counts})"
    if h["random"]:
        need, least = f"every read to {dev} (reads at random offsets are not merged, so each reaches it)", "half"
    else:
        lo, hi = h["outstanding"] or (np.nan, np.nan)
        n = f"{hi:.0f}" if lo == hi else f"{lo:.0f}–{hi:.0f}"  # each run against its own I/Os in flight
        need = (f"at least 1 in {n if lo == hi else 'its I/Os in flight'} of fio's reads to {dev} as a device read "
                f"(at most the {n} I/Os in flight merge into one)")
        least = f"1 in {n}" if lo == hi else "1 in their I/Os in flight"
    if h["ruled_out"]:
        return (f"{head}. Direct I/O would send {need}, so the reads were buffered (direct I/O ruled out) and the "
                f"rest were hits in the page cache above {dev}: the rates are the page cache's, not {dev}'s, and no "
                f"drive's limits apply to them.")
    if h.get("ruled_at"):
        return (f"{head}. Direct I/O would send {need}: at {x} = {_xs(h['ruled_at'], xv)} fewer than {least} "
                f"reached it, so those reads were buffered (direct I/O ruled out there) and the rest were hits in the "
                f"page cache above {dev}: those rates are the page cache's, not {dev}'s; at {x} = "
                f"{_xs(h['rest'], xv)} {span(h['rest_lo'], h['rest_hi'], _pct)} reached it, which merged direct "
                f"reads could also give.")
    return (f"{head}: the rest were page-cache hits (buffered reads) or merged into larger device reads (direct "
            f"I/O; the files do not record which), so the rates are not shown to be {dev}'s.")
