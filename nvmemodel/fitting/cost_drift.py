"""A CPU cost per I/O that moved across a CPU-bound series: "one cost" only within :data:`ONE_COST_SAID`.

A busy job's rate is its CPU share ÷ its CPU per I/O. Where the cost per I/O over the points ≥ ``CPU_BOUND`` busy rose
at every step by more than that band, the cost is not one, and a fall of the rate along the series is mostly the cost's
rise: the share of the fall each factor carries is said, what raised the cost is not (the files do not show it; set
after round 23 was read: r23_ericfan_nvme-buffered-pagecache_4k-randwrite_libaio_qd, 6.55 → 8.10 µs a write told "one
cost" beside a 23 % fall left unexplained, ZE).
"""

from __future__ import annotations

import numpy as np

from .fact_base import CPU_BOUND

__all__ = ["ONE_COST_SAID", "cost_drift", "drift_words"]

#: "one cost" is said of busy points' CPU per I/O within ±this of their mid-range: fio's per-run CPU reads to a few %,
#: and ±10 % is the band a level is read within elsewhere. Set after round 23 was read (the case's 6.55–8.10 µs is
#: ±10.6 %; r23 iouringlog randread's 13.2–14.2 µs is ±3.6 %).
ONE_COST_SAID = 0.10


def cost_drift(cf, s: dict) -> dict | None:
    """The busy points' costs where they spread beyond :data:`ONE_COST_SAID`, with whether they rose at every step and
    the factors of a fall from the peak rate: None where the costs are one within the band."""
    if not s.get("one_cost"):
        return None
    lo, hi, to = s["one_cost"]
    if not (lo > 0 and (hi - lo) / (hi + lo) > ONE_COST_SAID):
        return None
    p = cf.points
    xs, iops = p["x"].to_numpy(float), p["iops"].to_numpy(float)
    share, cost = np.asarray(s["share"], float), np.asarray(s["cpu_s_per_io"], float)
    idx = [k for k in range(len(xs)) if s["at_x"] <= xs[k] <= to and share[k] >= CPU_BOUND and np.isfinite(cost[k])]
    if len(idx) < 2:
        return None
    c = cost[idx]
    out: dict = {"lo": float(lo), "hi": float(hi), "to": float(to), "x0": float(xs[idx[0]]), "rises": bool(np.all(np.diff(c) > 0)),
           "fall": None}
    pk = idx[int(np.argmax(iops[idx]))]
    last = idx[-1]
    if out["rises"] and pk != last and iops[last] < iops[pk]:
        out["fall"] = {"x_peak": float(xs[pk]), "x_last": float(xs[last]), "fall": float(iops[pk] / iops[last]),
                       "cost": float(cost[last] / cost[pk]), "share": float(share[pk] / share[last]),
                       "c_peak": float(cost[pk]), "c_last": float(cost[last]), "s_peak": float(share[pk]),
                       "s_last": float(share[last])}
    return out


def drift_words(result, d: dict) -> tuple[str, str]:
    """(the parenthesis that replaces "one cost", the sentence on the fall or "")."""
    from .claim import _xv
    from .wording import fmt_y, span

    x = result.x
    how = "rising at every step, " if d["rises"] else ""
    par = (f" ({span(fmt_y(d['lo'], 's'), fmt_y(d['hi'], 's'))} at every point ≥ {CPU_BOUND:.0%} busy up to {x} = "
           f"{_xv(result, d['to'])}: {how}×{d['hi'] / d['lo']:.3g})")
    f = d["fall"]
    if f is None:
        return par, ""
    return par, (f" The rate of a busy job is its CPU share ÷ its CPU per I/O: from {x} = {_xv(result, f['x_peak'])} "
                 f"(the peak) to {_xv(result, f['x_last'])} CPU per I/O rose ×{f['cost']:.3g} ({fmt_y(f['c_peak'], 's')} "
                 f"→ {fmt_y(f['c_last'], 's')}) while the job's share went {f['s_peak']:.0%} → {f['s_last']:.0%} "
                 f"(×{1 / f['share']:.3g}), so the cost's rise carries ×{f['cost']:.3g} of the ×{f['fall']:.3g} fall; "
                 f"what raised the cost the files do not show.")
