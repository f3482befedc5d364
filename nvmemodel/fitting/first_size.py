"""A byte level from the first block size: the bytes per second held over every size.

Along block size, a rate in bytes per second whose sizes' medians lie within ×:data:`SPAN` of each other, and whose largest size's runs do not lie above every earlier size's runs, is a byte limit measured from the
first size — each request's time grew with its bytes — whatever the last step did: "still rises at the largest block
size" there tells an engineer a bigger request would go faster (set after round 30 was read: QD,
r30_orangetangy … randwrite-qd8_bs_repeats, medians 46.1, 54.0, 51.4, 41.8, 36.4, 51.5 MB/s over 4–256 KiB told
"still rises at the largest block_size_bytes … +49 %" of 128 → 256 KiB, whose runs lie inside 16 and 32 KiB's).
A series that rises past its first sizes (a rise, then a level) or a rate that grows ∝ size (an IOPS limit) leaves
the band and is not touched.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SPAN", "first_size_level", "first_size_words", "level_before_peak", "level_before_words"]

#: the sizes' medians within this factor of each other (largest ÷ smallest) are one byte level: a ±25 % band about
#: their middle holds ×1.67 (set after round 30 was read: QD, the hand read's "within ±25 %"; the otwbs medians span
#: ×1.48, a rise-then-level like r30 otrbs ×3.1, an IOPS limit ∝ size far more)
SPAN = 1.6


def first_size_level(result, cf) -> dict | None:
    """``{"lo", "hi", "mid", "x0", "x1", "lat0", "lat1", "out"}`` for a byte level from the first block size, or
    None (not along block size in B/s, fewer than 4 sizes or 2 runs a size, a median outside the band, or the
    largest size's runs above every earlier size's)."""
    if result.x != "block_size_bytes" or result.y_unit != "B/s" or cf is None or cf.points is None:
        return None
    p = cf.points
    if "level" not in p or "runs_kept" not in p or len(p) < 4:
        return None
    xs, lv = p["x"].to_numpy(float), p["level"].to_numpy(float)
    runs = [np.asarray(r, float) for r in p["runs_kept"]]
    if not (np.isfinite(lv).all() and (lv > 0).all()) or any(r.size < 2 for r in runs):
        return None
    mid = float(np.median(lv))
    if lv.max() > SPAN * lv.min():
        return None
    if runs[-1].min() > max(float(r.max()) for r in runs[:-1]):  # the last size above every earlier run: a rise
        return None
    lat = p["lat_kept"].to_numpy(float) if "lat_kept" in p else np.full(xs.size, np.nan)
    out = float(p["out"].iloc[0]) if "out" in p and np.isfinite(p["out"].iloc[0]) else None
    return {"lo": float(lv.min()), "hi": float(lv.max()), "mid": mid, "x0": float(xs[0]), "x1": float(xs[-1]),
            "lat0": float(lat[0]), "lat1": float(lat[-1]), "out": out}


def first_size_words(result, d: dict, what: str) -> str:
    from .claim import _xv
    from .wording import fmt_y, span

    x, u = result.x, result.y_unit
    lat = ""
    if np.isfinite([d["lat0"], d["lat1"]]).all() and d["lat1"] > d["lat0"] > 0:
        held = f" at {d['out']:.3g} in flight" if d["out"] else ""
        lat = (f"; each request's time grew with its bytes (fio's mean latency {fmt_y(d['lat0'], 's')} at "
               f"{_xv(result, d['x0'])} → {fmt_y(d['lat1'], 's')} at {_xv(result, d['x1'])}{held})")
    return (f"Measured {what} holds a byte level from the first {x}: "
            f"{span(fmt_y(d['lo'], u), fmt_y(d['hi'], u))} (the medians) over {x} = {_xv(result, d['x0'])}–"
            f"{_xv(result, d['x1'])} (×{d['x1'] / d['x0']:.3g} the size), the largest ×{d['hi'] / d['lo']:.3g} the "
            f"smallest, their median {fmt_y(d['mid'], u)}{lat}: a byte limit reached at the first size. The largest size's runs do not lie "
            f"above every earlier size's, so no rise past the level is shown.")


def level_before_peak(x, y, x_max: float) -> dict | None:
    """Along block size, the sizes just before a falling series' peak at ``x_max`` that lie within
    ``size_edge.EDGE`` of it (walked back from the peak): ``{"x0", "lo", "hi"}`` — the byte level began at ``x0``, not
    at the peak — or None where no size before the peak lies that close (a one-point peak) (set after round 30 was
    read: QE, r30_lucasding … seqread-iouring-qd32_bs, "peaks at 3.41 GB/s … at 256 KiB and falls 11%" where 64 KiB
    already gave 3.384 GB/s and 128 KiB 3.412)."""
    from .size_edge import EDGE

    x, y = np.asarray(x, float), np.asarray(y, float)
    order = np.argsort(x, kind="stable")
    x, y = x[order], y[order]
    if np.unique(x).size != x.size:  # one value a size, else not read
        return None
    at = np.flatnonzero(np.isclose(x, float(x_max)))
    if not at.size:
        return None
    m = int(at[0])
    top = float(y[m])
    k = m
    while k - 1 >= 0 and np.isfinite(y[k - 1]) and (1 - EDGE) * top <= y[k - 1] <= top:
        k -= 1
    if k == m:
        return None
    return {"x0": float(x[k]), "lo": float(y[k:m + 1].min()), "hi": top}


def level_before_words(result, d: dict, x_max: float) -> str:
    """"reaches a level of 3.38 GB/s–3.41 GB/s at block_size_bytes = 64 KiB (every size from there to 256 KiB within
    2% of the peak), " (the falls sentence goes on "peaks at …")."""
    from .claim import _xv
    from .size_edge import EDGE
    from .wording import fmt_y, span

    u = "B/s"
    return (f"reaches a level of {span(fmt_y(d['lo'], u), fmt_y(d['hi'], u))} at {result.x} = "
            f"{_xv(result, d['x0'])} (every size from there to {_xv(result, x_max)} within {EDGE:.0%} of the peak), ")
