"""The read/write facts: a mix below the harmonic mix of its pure runs, and each direction of a mixed curve whose y
is the total (the direction that holds the total at its level).
"""

from __future__ import annotations

import numpy as np

from .evidence import Z
from .fact_base import MIX_BELOW, Fact, pd_num
from .point_runs import point_levels


def _mean_se(k) -> tuple[float, float] | None:
    """The mean of a point's kept runs and its standard error (None with fewer than two runs: no scatter known)."""
    k = np.asarray(k, float)
    if k.size < 2 or not np.isfinite(k).all():
        return None
    return float(k.mean()), float(k.std(ddof=1) / np.sqrt(k.size))


def shortfall_by_se(r: float, pure_r, pure_w, mix) -> dict | None:
    """A mix's shortfall against the harmonic line judged by the uncertainty of the means (set after round 24 was
    read: BA, r24_fiorbd2016_ceph-librbd_4k-rand_qd16_readshare_repeats, "no shortfall beyond the runs' own scatter"
    where five mixes average 444 IOPS against a harmonic 539 IOPS, t = −2.88): the line through the pure points'
    mean runs, its standard error propagated from theirs (∂h/∂R = h²r/R², ∂h/∂W = h²(1 − r)/W²), against the mix's
    mean run and its standard error; ``t`` = the difference ÷ their combined standard error. The extremes test (the
    mix's highest run against the line of the pure points' lowest) passes almost any shortfall when the runs are many:
    its chance of clearing grows with every run, while the mean's uncertainty shrinks with them."""
    a, b, m = _mean_se(pure_r), _mean_se(pure_w), _mean_se(mix)
    if a is None or b is None or m is None or a[0] <= 0 or b[0] <= 0:
        return None
    (R, sR), (W, sW), (x, sx) = a, b, m
    h = 1.0 / (r / R + (1 - r) / W)
    parts = (h * h * r / R ** 2 * sR, h * h * (1 - r) / W ** 2 * sW, sx)
    se = float(np.sqrt(sum(c * c for c in parts)))
    if se <= 0:
        return None
    # the t quantile for the runs there are (Welch–Satterthwaite degrees of freedom of the three parts), never a
    # normal one: with 3 runs a point, 2 standard errors is p ≈ 0.09 (set after round 30 was read: QA,
    # r30_orangetangy_…_4k-randrw-qd8_readshare_repeats, t = 2.22 on ≈ 4.8 degrees of freedom "beyond the scatter")
    ns = [np.asarray(v).size for v in (pure_r, pure_w, mix)]
    den = sum(c ** 4 / (n - 1) for c, n in zip(parts, ns))
    df = float(se ** 4 / den) if den > 0 else float("inf")
    return {"share": float(r), "mean": x, "line": float(h), "diff": float(h - x), "se": se, "t": float((h - x) / se),
            "runs": int(np.asarray(mix).size), "df": df, "q": t_quantile(df)}


#: the two-sided confidence a shortfall of means must clear (the t quantile at it for the runs' degrees of freedom;
#: 1.96 with many runs, as round 24's Z = 2.0 was meant — set after round 30 was read: QA)
SE_CONFIDENCE = 0.95


def t_quantile(df: float) -> float:
    """The two-sided :data:`SE_CONFIDENCE` quantile of Student's t on ``df`` degrees of freedom (the normal one, no
    lower than :data:`~nvmemodel.fitting.evidence.Z`'s convention would allow, where ``df`` is unbounded)."""
    from scipy import stats

    if not np.isfinite(df):
        return float(Z)
    return float(stats.t.ppf(0.5 + SE_CONFIDENCE / 2, max(df, 1.0)))


def directions(result, key) -> dict | None:
    """Per direction of a mixed read/write curve whose y is the total (ingest's rows per direction): each direction's
    mean IOPS, bytes/s and fio's mean latency at each x, the write share, and the direction whose rate sits at one
    level over the whole range (within ±2 %) with fio's latency ≥ ×3 the other's at every x — through a fixed mix
    such a direction holds the total at level ÷ its share (blind4 class Y: writes at an 8 MiB/s cap, reads at 15 µs, said as "one serial path" of 145 µs)."""
    t = result.table
    if t is None or not {"direction", "iops", "lat_mean_s", "read_fraction"} <= set(t.columns) or result.x not in t:
        return None
    for b, v in zip(result.by, key):
        t = t[t[b] == v]
    t = t[t["direction"].isin(["read", "write"])]
    share = pd_num(t["read_fraction"])
    along_share = result.x == "read_fraction"  # the share is the axis: one per point (round 6, part 1 BF)
    if along_share:  # the mixes only: a pure run has one direction
        t, share = t[share.between(0.01, 0.99)], share[share.between(0.01, 0.99)]
    if t.empty or set(t["direction"]) != {"read", "write"} or not share.between(0.01, 0.99).all() \
            or (share.nunique() != 1 and not along_share):
        return None
    g = t.groupby([result.x, "direction"])[["iops", "bw_bytes_per_s", "lat_mean_s"]].mean().unstack("direction")
    if g.isna().any().any() or len(g) < 2:
        return None
    out = {"x": g.index.to_numpy(float), "read_share": float(share.iloc[0]) if share.nunique() == 1 else None}
    out["read_shares"] = (g.index.to_numpy(float) if along_share else np.full(len(g), float(share.iloc[0])))
    for d in ("read", "write"):
        for q in ("iops", "bw_bytes_per_s", "lat_mean_s"):
            out[f"{d}_{q}"] = g[(q, d)].to_numpy(float)
    # the slow direction: fio's latency ≥ ×3 the other's at every x (the other's rate follows it through the mix)
    level = None
    for d, o in (("read", "write"), ("write", "read")):
        v = out[f"{d}_iops"]
        if np.all(out[f"{d}_lat_mean_s"] >= 3 * out[f"{o}_lat_mean_s"]) and v.min() > 0 \
                and (v.max() - v.min()) / (v.max() + v.min()) <= 0.02 and not along_share:
            level = d
    out["level"] = level
    out["capped"] = _direction_cap(result, out)
    return out


#: a direction's rate over its last points within this of their mean ((max − min) ÷ (max + min)): one level
DIRECTION_FLAT = 0.03


def _direction_cap(result, d: dict) -> dict | None:
    """The direction held at a cap of its own over the last points (≥ 3, to the largest x) while the other follows
    it through the mix fio keeps: its rate within :data:`DIRECTION_FLAT` there — in bytes/s along block size (a
    byte cap), in IOPS along any other axis, else the other unit — with fio's latency ≥ ×3 the other direction's at
    each of those points (its I/Os wait in a throttle or queue, the other's do not). Round 6, part 1 BB: reads at
    ~40 MB/s from 16 KiB in a 50/50 mix read as "a byte cap of 83.1 MB/s" of the total; BF: reads at ~2.0 K IOPS at
    every read share from 25 % said nothing. ``total_holds``: the total at each of those points within 5 % of the
    cap ÷ the direction's share (by I/O count; in bytes where both directions move the same block size)."""
    units = ("bw_bytes_per_s", "iops") if result.x == "block_size_bytes" else ("iops", "bw_bytes_per_s")
    n = len(d["x"])
    for q in units:
        for slow, other in (("read", "write"), ("write", "read")):
            v, lat, olat = d[f"{slow}_{q}"], d[f"{slow}_lat_mean_s"], d[f"{other}_lat_mean_s"]
            k = n
            while k > 0:
                seg = v[k - 1:]
                if not (np.isfinite(seg).all() and seg.min() > 0 and lat[k - 1] >= 3 * olat[k - 1]
                        and (seg.max() - seg.min()) / (seg.max() + seg.min()) <= DIRECTION_FLAT):
                    break
                k -= 1
            if n - k < 3:
                continue
            idx = np.arange(k, n)
            shares = d["read_shares"][idx] if slow == "read" else 1 - d["read_shares"][idx]
            level = float(np.mean(v[idx]))
            total = d[f"read_{q}"][idx] + d[f"write_{q}"][idx]
            with np.errstate(all="ignore"):
                ratio = np.min(lat[idx] / olat[idx])
            return {"direction": slow, "other": other, "unit": "B/s" if q == "bw_bytes_per_s" else "1/s",
                    "from_index": int(k), "x_from": float(d["x"][k]), "x_to": float(d["x"][-1]),
                    "points": int(n - k), "lo": float(v[idx].min()), "hi": float(v[idx].max()), "level": level,
                    "lat_ratio": float(ratio), "shares": shares.tolist(), "totals": total.tolist(),
                    "predicted": (level / shares).tolist(),
                    "total_holds": bool(np.all(np.abs(total / (level / shares) - 1) <= 0.05))}
    return None


def _mix(result, p) -> Fact | None:
    if result.x.lower() not in ("read_fraction", "rwmixread") or result.y_unit not in ("1/s", "B/s"):
        return None
    r = p["x"].to_numpy(float)
    if result.x.lower() == "rwmixread":
        r = r / 100.0
    if not (np.isclose(r, 1).any() and np.isclose(r, 0).any()):
        return None
    # each share's level and range from its kept runs (point_levels), never means over stalled runs: a shortfall is
    # read only where a mix's highest kept run lies below the harmonic line of the pure points' lowest kept runs —
    # beyond every run's scatter (set after round 13 was read: PB, r13_here-oldfio_fio313-jsonplus_…_readshare_repeats,
    # "23 % below" from means with ×40 stalls while one run at every share sat on the line)
    lv = point_levels(result, p)
    y, lo, hi = (np.array([d[k] for d in lv], float) for k in ("median", "lo", "hi"))
    one, zero = np.isclose(r, 1), np.isclose(r, 0)
    R, W = float(y[one].mean()), float(y[zero].mean())
    mid = ~(zero | one)
    if not mid.any() or R <= 0 or W <= 0:
        return None
    h = 1.0 / (r / R + (1 - r) / W)
    h_lo = 1.0 / (r / lo[one].min() + (1 - r) / lo[zero].min())
    h_hi = 1.0 / (r / hi[one].max() + (1 - r) / hi[zero].max())
    deficit = 1 - y / h
    below = mid & (deficit > MIX_BELOW) & (hi < h_lo)
    # or beyond the uncertainty of the means: the line and the mix each carry their standard error (round 24 BA)
    by_se: dict | None = None
    for m in np.flatnonzero(mid & (deficit > MIX_BELOW) & ~below).tolist():
        sf = shortfall_by_se(float(r[m]), np.concatenate([lv[q]["kept"] for q in np.flatnonzero(one)]),
                             np.concatenate([lv[q]["kept"] for q in np.flatnonzero(zero)]), lv[m]["kept"])
        if sf is not None and sf["t"] > max(Z, sf["q"]) and sf["diff"] > MIX_BELOW * sf["line"]:
            below[m] = True
            if by_se is None or sf["t"] > by_se["t"]:
                by_se = sf
    i = int(np.argmax(np.where(below if below.any() else mid, deficit, -np.inf)))
    # the harmonic mix holds each direction's pure rate at the load of the mix: runs at different outstanding I/O
    # (768 reading threads, 32 writing, 256 mixed) compare unlike loads, and no interference is read from them
    out = p["out"].to_numpy(float)
    differ = bool(np.isfinite(out).all() and out.min() > 0 and out.max() / out.min() > 1 + MIX_BELOW)
    runs = any(d["runs"] for d in lv)
    noise = None
    if not below.any() and (mid & (deficit > MIX_BELOW)).any():  # a shortfall of medians inside the runs' scatter
        j = int(np.argmax(np.where(mid, deficit, -np.inf)))
        noise = {"share": float(r[j]), "lo": float(lo[j]), "hi": float(hi[j]), "line_lo": float(h_lo[j]),
                 "deficit": float(deficit[j])}
    # above the line likewise only beyond the pure runs' spread: a mix's lowest kept run above the line of the pure
    # points' highest (set after round 19 was read: r19_here-mmapw_tmpfs_mmap_randrw_readshare_repeats, "17% above"
    # explained while that mix's runs, 537–678 K, reached into the pure reads' own 569–682 K, UD)
    over = mid & (deficit < -MIX_BELOW)
    above_noise: dict | None = None
    if over.any() and not (over & (lo > h_hi)).any():
        j = int(np.argmin(np.where(mid, deficit, np.inf)))
        above_noise = {"share": float(r[j]), "lo": float(lo[j]), "hi": float(hi[j]), "line_hi": float(h_hi[j]),
                       "excess": float(-deficit[j])}
        # how many mixes (medians) and how many of their kept runs lie on each side of both lines: a same-side
        # majority is a direction the reader should get, even inside the scatter (set after round 31 was read: TD,
        # r31_here-vdarwmix … rwmixread, every mix 5–14 % above and 6 of 9 runs above the highest-runs line unsaid)
        ms = np.flatnonzero(mid)
        kept = [np.asarray(lv[m]["kept"], float) for m in ms]
        above_noise["sides"] = None if min(k.size for k in kept) < 2 else {  # runs, not one mean a mix
            "mixes": int(ms.size), "above": int((deficit[ms] < 0).sum()), "below": int((deficit[ms] > 0).sum()),
            "runs": int(sum(k.size for k in kept)),
            "runs_above_hi": int(sum((k > h_hi[m]).sum() for k, m in zip(kept, ms))),
            "runs_below_lo": int(sum((k < h_lo[m]).sum() for k, m in zip(kept, ms)))}
    # mixes on both sides of the line (by medians, each beyond MIX_BELOW): no one verdict for the mixes, and no cause
    # (set after round 30 was read: QA, r30_orangetangy_…_4k-randrw-qd8_readshare_repeats, "Mixes fall below it …
    # reads and writes interfere" from the 0.5 mix while the 0.7 mix's median lay ×2.17 above the line)
    straddle = None
    dn, up = mid & (deficit > MIX_BELOW), mid & (deficit < -MIX_BELOW)
    if dn.any() and up.any() and not differ:
        b = int(np.argmax(np.where(dn, deficit, -np.inf)))
        a = int(np.argmin(np.where(up, deficit, np.inf)))
        with np.errstate(all="ignore"):
            sp = hi / lo
        sp = sp[np.isfinite(sp) & (sp > 0)] if runs else np.array([])
        straddle = {"below": {"share": float(r[b]), "median": float(y[b]), "line": float(h[b]),
                              "deficit": float(deficit[b])},
                    "above": {"share": float(r[a]), "median": float(y[a]), "line": float(h[a])},
                    "spread": (float(sp.min()), float(sp.max())) if sp.size else None}
    facts = {"read": R, "write": W, "harmonic": h[mid].tolist(), "shares": r[mid].tolist(),
             "deficits": deficit[mid].tolist(), "worst_share": float(r[i]), "deficit": float(deficit[i]),
             "below_harmonic": None if differ or straddle else bool(below.any()), "straddle": straddle,
             "above": False if differ else bool(np.all((deficit[mid] < -MIX_BELOW) & (lo[mid] > h_hi[mid]))),
             "loads_differ": sorted({float(v) for v in out}) if differ else None,
             "by_se": None if differ else by_se, "medians": runs, "in_noise": None if differ else noise, "above_in_noise": None if differ else above_noise,
             "ranges": {"read": (float(lo[one].min()), float(hi[one].max())),
                        "write": (float(lo[zero].min()), float(hi[zero].max()))} if runs else None}
    return Fact("mix", facts, "the harmonic mix 1/X = r/R + (1 − r)/W of the pure points' levels (median of kept runs)")


def direction_latencies(result, key, share: float) -> dict | None:
    """Each direction's fio mean latency over the runs of one mix and over its pure runs, where the table has a row
    per direction (round 24 BA: the reads of the fiorbd2016 4k-rand mixes took 13–23 ms against 1.9 ms alone, the
    writes what they took alone — the reads waited behind the writes). ``{direction: (mix_lo, mix_hi, pure_lo,
    pure_hi)}``; None where a direction lacks rows or latencies."""
    t = result.table
    if t is None or result.x not in t or not {"direction", "lat_mean_s"} <= set(t.columns):
        return None
    for b, v in zip(result.by, key):
        t = t[t[b] == v]
    x = pd_num(t[result.x])
    if result.x.lower() == "rwmixread":
        x = x / 100.0
    lat = pd_num(t["lat_mean_s"])
    out = {}
    for d, pure in (("read", 1.0), ("write", 0.0)):
        m = lat[(t["direction"] == d) & np.isclose(x, share)].dropna()
        q = lat[(t["direction"] == d) & np.isclose(x, pure)].dropna()
        if m.empty or q.empty or (m <= 0).any() or (q <= 0).any():
            return None
        out[d] = (float(m.min()), float(m.max()), float(q.min()), float(q.max()))
    return out
