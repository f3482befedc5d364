"""CPU per I/O along block size that is, over the largest sizes, a constant per byte — and runs of one size whose rate
moved with the CPU their job got.

fio's CPU per I/O (usr+sys CPU-seconds ÷ I/Os, per job) at each size is compared per I/O; where it does not rise step
by step the cost line said "not in step with size … never per byte across sizes". Over the largest sizes it may still
be a constant per byte (a copy: page cache to user, a loop worker's copy), and then the cost per byte is the figure
that explains the rate there. Read here:

* :func:`per_byte_top`: the largest run of top sizes (at least :data:`MIN_SIZES`) whose CPU per byte (CPU per I/O ÷
  size) lies within ±:data:`PER_BYTE_TOL` of its median — said as "from S on about a constant per byte: … ns/B";
* :func:`follows_cpu`: at those sizes, the points whose runs' rates differ at least ×:data:`SPREAD` and whose rate ÷
  the job's CPU (bytes per CPU-second) stays within ±:data:`FOLLOW_TOL` of its median across the runs: the rate moved
  with the CPU time the job got. Which held which — CPU time granted, or waits that left the job's CPU idle — these
  figures do not separate; only that the rate is what that cost at that CPU time pays for is said.

Set after round 22 was read (r22_here-memcg_loop-buffered-memcg32m_psync_randread_bs_repeats, part 1 XD: 32.3, 115
and 456 µs at 64 KiB, 256 KiB and 1 MiB — 0.49, 0.44, 0.435 ns/B — told "not in step with size … never per byte
across sizes"; 1 MiB runs at 0.36/0.52/0.65 of a CPU gave 0.82/1.18/1.57 GB/s, 2.28–2.41 GB per CPU-second)."""

from __future__ import annotations

import numpy as np

__all__ = ["PER_BYTE_TOL", "MIN_SIZES", "SPREAD", "FOLLOW_TOL", "PER_BYTE_SPAN", "per_byte_top", "follows_cpu",
           "per_byte_words", "per_byte_ends"]

#: CPU per byte within this share of its median over the top sizes is one cost per byte: the ±15 % the cost line's
#: "about the same at every size" uses for a cost per I/O (set after round 22 was read: memcg randread bs, 0.435–0.49
#: ns/B from 64 KiB, +12 % at most; 16 KiB's 0.99 ns/B falls far outside)
PER_BYTE_TOL = 0.15
#: at least this many sizes (two steps) before a cost per byte is read: two points make any ratio
MIN_SIZES = 3
#: runs of one point whose rates differ at least this much are compared with their CPU (set after round 22 was read:
#: memcg randread bs, ×1.9 at 1 MiB and ×2.1 at 256 KiB; the 4 KiB and 64 KiB runs' ×1.2–1.3 is within runs' noise)
SPREAD = 1.5
#: rate ÷ CPU within this share of its median across a point's runs follows the CPU (set after round 22 was read:
#: memcg randread bs, 2.28–2.41 GB per CPU-second at 1 MiB, 2.08–2.39 at 256 KiB: at most 9 % off the median)
FOLLOW_TOL = 0.10


def per_byte_top(xs, per_io, ok) -> dict | None:
    """``{"from", "first", "sizes", "xs", "ns_per_byte"}``: the top sizes (indices into ``xs`` among ``ok``, ascending size) whose
    CPU per byte is one cost within :data:`PER_BYTE_TOL`, the longest such run ending at the largest size; None where
    fewer than :data:`MIN_SIZES` sizes hold or every size does (then the cost line's own words apply)."""
    ok = [int(k) for k in ok if np.isfinite(per_io[k]) and per_io[k] > 0 and xs[k] > 0]
    ok.sort(key=lambda k: xs[k])
    best = None
    for start in range(len(ok) - MIN_SIZES, -1, -1):
        top = ok[start:]
        pb = np.array([per_io[k] / xs[k] for k in top])
        if np.all(np.abs(pb / np.median(pb) - 1) <= PER_BYTE_TOL):
            best = top
    if best is None or len(best) == len(ok):
        return None
    return {"from": best[0], "first": float(xs[best[0]]), "sizes": best, "xs": [float(xs[k]) for k in best],
            "ns_per_byte": [1e9 * per_io[k] / xs[k] for k in best]}


def follows_cpu(rows, xcol: str, sizes: list[float]) -> list[dict]:
    """At each size of ``sizes`` whose one-job runs' rates differ at least ×:data:`SPREAD`: ``{"x", "gb_lo",
    "gb_hi", "cpu_lo", "cpu_hi", "bps_lo", "bps_hi", "runs"}`` where every run's bytes per CPU-second lies within
    :data:`FOLLOW_TOL` of their median; [] where any such size's runs do not (one story for the sizes)."""
    import pandas as pd

    need = {"source_path", "bw_bytes_per_s", "cpu_usr", "cpu_sys", xcol}
    if rows is None or not len(rows) or not need <= set(rows.columns):
        return []
    if "numjobs" in rows and not (pd.to_numeric(rows["numjobs"], errors="coerce") == 1).all():
        return []  # (one job's usr+sys is its share of one CPU)
    num = {c: pd.to_numeric(rows[c], errors="coerce") for c in ("bw_bytes_per_s", "cpu_usr", "cpu_sys", xcol)}
    df = pd.DataFrame({"src": rows["source_path"].astype(str), "x": num[xcol], "bps": num["bw_bytes_per_s"],
                       "cpu": num["cpu_usr"] + num["cpu_sys"]})
    per_run = df.groupby("src").agg(x=("x", "first"), bps=("bps", "sum"), cpu=("cpu", "max"))
    out = []
    for x in sizes:
        r = per_run[np.isclose(per_run["x"], x)]
        if len(r) < 2 or not (r["bps"] > 0).all() or not (r["cpu"] > 0).all():
            continue
        if r["bps"].max() < SPREAD * r["bps"].min():
            continue
        per = (r["bps"] / r["cpu"]).to_numpy(float)
        if not np.all(np.abs(per / np.median(per) - 1) <= FOLLOW_TOL):
            return []
        out.append({"x": float(x), "gb_lo": float(per.min()) / 1e9, "gb_hi": float(per.max()) / 1e9,
                    "cpu_lo": float(r["cpu"].min()), "cpu_hi": float(r["cpu"].max()),
                    "bps_lo": float(r["bps"].min()), "bps_hi": float(r["bps"].max()), "runs": int(len(r))})
    return out


def per_byte_words(top: dict, size, follows: list[dict]) -> str:
    """", from 64 KiB on about a constant per byte: 0.49, 0.44 and 0.435 ns/B (…)" and, where :func:`follows_cpu`
    found any, "; across the runs at 1 MiB the rate moved with the job's CPU (…)". ``size`` formats a size."""
    from .wording import span

    ns = [f"{v:.3g}" for v in top["ns_per_byte"]]
    lst = ns[0] if len(ns) == 1 else f"{', '.join(ns[:-1])} and {ns[-1]}"
    text = (f"; from {size(top['first'])} on about a constant per byte: {lst} ns/B (CPU per I/O ÷ size, within "
            f"±{PER_BYTE_TOL:.0%})")
    if follows:
        parts = []
        for f in follows:
            cpu = span(f"{100 * f['cpu_lo']:.0f}", f"{100 * f['cpu_hi']:.0f}") + " %"
            gb = span(f"{f['gb_lo']:.3g}", f"{f['gb_hi']:.3g}")
            bps = span(f"{f['bps_lo'] / 1e9:.3g}", f"{f['bps_hi'] / 1e9:.3g}") + " GB/s"
            parts.append(f"{size(f['x'])} {bps} at {cpu} of "
                         f"a CPU ({gb} GB per CPU-second)")
        text += (f"; across the runs of a size the rate moved with the CPU the job got — {'; '.join(parts)}: the "
                 f"rate there is what that cost per byte at the CPU time the job got pays for (whether CPU time "
                 f"granted or waits that left the CPU idle set that time, these figures do not separate)")
    return text


def follows_at(result, cf, x: float) -> dict | None:
    """:func:`follows_cpu`'s finding at block size ``x`` of a block-size curve whose top sizes cost one CPU per byte
    (:func:`per_byte_top`), or None — for the CPU-bound sentence, which then does not say its figures do not show
    what held the rate."""
    from .claim import runs_rows

    if result.x != "block_size_bytes" or cf.cpu is None:
        return None
    xs = cf.points["x"].to_numpy(float)
    per_io = np.asarray(cf.cpu.facts.get("cpu_s_per_io", []), float)
    if per_io.size != xs.size:
        return None
    top = per_byte_top(xs, per_io, np.flatnonzero(np.isfinite(per_io)))
    if top is None or not any(np.isclose(x, v) for v in top["xs"]):
        return None
    return next((f for f in follows_cpu(runs_rows(result, cf.points), result.x, top["xs"]) if np.isclose(f["x"], x)),
                None)


#: a CPU cost per I/O that rises step by step with size is given per byte too where its cost per byte at the smallest
#: size is at most this many times the one at the largest: with cost = a + b·size that puts the per-byte work b at a
#: third or more of the cost even at the smallest size, so the cost per byte is a figure of the work (a copy, a
#: compression per page), not a per-I/O cost divided by size (set after round 23 was read: r23_here-zramlz4 randwrite
#: bs, zram's per-page compression 2.23 → 1.51 ns a byte (×1.5) told "never per byte across sizes", AE; NVMe drives
#: read along block size fall ×9–×17 per byte — their cost is per I/O, and the caution stays)
PER_BYTE_SPAN = 3.0


def per_byte_ends(xs, per_io, ok) -> tuple[float, float] | None:
    """(cost per byte at the smallest, at the largest of the sizes ``ok``), in s/B, where the first is at most
    :data:`PER_BYTE_SPAN` times the second; else None."""
    lo, hi = per_io[ok[0]] / xs[ok[0]], per_io[ok[-1]] / xs[ok[-1]]
    if not (np.isfinite(lo) and np.isfinite(hi) and hi > 0 and lo <= PER_BYTE_SPAN * hi):
        return None
    return float(lo), float(hi)
