"""Steps along a load axis that queueing does not make: the path changed between two points.

A queue only lengthens each I/O as the load grows, and more load in flight never serves less. So a step where

- **each I/O took less time at the higher load** — every run's mean latency at the higher load below every run's at
  the lower one — is a change of path (a cache, a device state, another run set), not queueing: it is not "the load
  still paid" (set after round 30 was read: QC, r30_orangetangy … 4k-randread_qd_repeats, "Up to it the load still
  paid: +137 %" of 64 → 128 where each read's mean time fell 1.86 → 1.05 ms, every run apart, across a change of
  session the job names show);
- **every run at the higher load lies below every run at the lower one**, with a later point above the lower one's
  level again (a dip, not a fall after the peak), is a slowing of the path, and what follows is a recovery — not one
  rise "×N to the onset" (set after round 30 was read: QB, the same case, QD 8 → 16 runs 16.3–29.2 K → 10.1–14.5 K
  IOPS, told "The rise began at 4.78 K IOPS at iodepth = 1 (×16.6 to the onset …)").

Both need ≥ 2 runs at each end (one run a point cannot tell a step from its noise: nothing is said). The first step
(from the first point) is left to the host-cost words of round 28 LE; a step that already rose faster than its load
by the runs is left to round 29 OC's words.
"""

from __future__ import annotations

import re

import numpy as np

__all__ = ["LITTLE_LOW", "path_steps", "path_words", "run_set"]

#: Little's law (IOPS × mean latency ÷ outstanding) at least this at both ends of a step before its latency is read as
#: each I/O's time (the "far below" line of the Little claim's words; set after round 30 was read: r25 datajournal's
#: fdatasync jobs at 0.04, otqd's 64 → 128 at 0.97 → 0.66)
LITTLE_LOW = 0.5


def _rows_at(result, p, xv: float):
    from .claim import runs_rows

    try:
        rows = runs_rows(result, p)
    except Exception:  # noqa: BLE001 — no run rows: nothing to read
        return None
    if rows is None or result.x not in rows:
        return None
    import pandas as pd

    return rows[(pd.to_numeric(rows[result.x], errors="coerce") - xv).abs() <= 1e-9 * max(1.0, abs(xv))]


def _lats(rows) -> np.ndarray:
    import pandas as pd

    for col in ("lat_mean_s", "clat_mean_s"):
        if col in rows:
            v = pd.to_numeric(rows[col], errors="coerce").to_numpy(float)
            if v.size and np.isfinite(v).all() and (v > 0).all():
                return v
    return np.array([])


def run_set(rows) -> set[str]:
    """The run identifiers' patterns (job names, else source files) with every number replaced by '#'."""
    col = "job_name" if "job_name" in rows and rows["job_name"].notna().all() else "source_path"
    if col not in rows:
        return set()
    return {re.sub(r"\d+", "#", str(v)) for v in rows[col]}


def path_steps(result, p) -> list[dict]:
    """The steps of a load axis (after the first) where the latency fell beyond the runs (``"kind": "faster"``) or
    the rate fell beyond the runs before a recovery (``"kind": "slowed"``): ``{"i", "j", "kind", "lat", "y",
    "sets"}`` (``lat`` and ``y`` the medians at both ends, ``sets`` the two run-set patterns where they differ)."""
    if "runs_kept" not in p:
        return []
    xs = p["x"].to_numpy(float)
    out_ = p["out"].to_numpy(float) if "out" in p else np.full(xs.size, np.nan)
    lv = p["level"].to_numpy(float) if "level" in p else np.array([np.median(r) for r in p["runs_kept"]])
    out = []
    for i in range(1, xs.size - 1):
        j = i + 1
        if not (xs[j] > xs[i] > 0):
            continue
        a, b = (np.asarray(p["runs_kept"].iloc[k], float) for k in (i, j))
        if a.size < 2 or b.size < 2:
            continue
        # the latency speaks for the I/O's time only where it accounts for the load in flight (Little's law not far
        # below 1 at both ends: a write whose sync is outside fio's latency is not read here)
        if "little" not in p or not all(np.isfinite(v) and v >= LITTLE_LOW for v in p["little"].to_numpy(float)[[i, j]]):
            continue
        # the load itself grew by the step's ratio (not devices or targets added under one load)
        if not (np.isfinite(out_[[i, j]]).all() and out_[i] > 0
                and abs(out_[j] / out_[i] / (xs[j] / xs[i]) - 1) <= 0.05):
            continue
        ra, rb = _rows_at(result, p, float(xs[i])), _rows_at(result, p, float(xs[j]))
        if ra is None or rb is None:
            continue
        la, lb = _lats(ra), _lats(rb)
        kind = None
        if la.size >= 2 and lb.size >= 2 and lb.max() < la.min() and b.max() > a.max():
            kind = "faster"
        elif b.max() < a.min() and np.nanmax(lv[j + 1:], initial=-np.inf) > lv[i]:
            kind = "slowed"
        if kind is None:
            continue
        sa, sb = run_set(ra), run_set(rb)
        out.append({"i": i, "j": j, "kind": kind, "y": (float(lv[i]), float(lv[j])),
                    "lat": (float(np.median(la)), float(np.median(lb))) if la.size and lb.size else None,
                    "sets": (sorted(sa), sorted(sb)) if sa and sb and not (sa & sb) else None})
    return out


def path_words(result, p, steps: list[dict]) -> str:
    """' Along the iodepth, the step iodepth = 64 → 128 (…) is no queueing: each I/O took less time at the higher load
    (fio's mean latency 1.86 ms → 1.05 ms by the runs' medians, every run at 128 below every run at 64) — the added
    load shared a per-I/O cost, or what served the I/O changed between these points; the runs at 128 are another run
    set than at 64 (extension-qd#-t# against …): the step coincides with that change.'"""
    from .claim import _xv
    from .wording import fmt_y

    x, u, xs, parts = result.x, result.y_unit, p["x"].to_numpy(float), []
    for st in steps:
        i, j = st["i"], st["j"]
        a, b = _xv(result, xs[i]), _xv(result, xs[j])
        lat = (f"fio's mean latency {fmt_y(st['lat'][0], 's')} → {fmt_y(st['lat'][1], 's')} by the runs' medians"
               if st["lat"] else "")
        if st["kind"] == "faster":
            t = (f"the step {x} = {a} → {b} ({fmt_y(st['y'][0], u)} → {fmt_y(st['y'][1], u)}, the medians) is no "
                 f"queueing: each I/O took less time at the higher load ({lat}, every run at {b} below every run at "
                 f"{a}) — the added load shared a per-I/O cost, or what served the I/O changed between these "
                 f"points")
        else:
            t = (f"at {x} = {a} → {b} every run was lower ({fmt_y(st['y'][0], u)} → {fmt_y(st['y'][1], u)}, the "
                 f"medians{'; ' + lat if lat else ''}) for ×{xs[j] / xs[i]:.3g} the {x}: the path slowed, the load "
                 f"did not pay, and the later rise is a recovery")
        if st["sets"]:
            t += (f"; the runs at {b} are another run set than at {a} ({', '.join(st['sets'][1])} against "
                  f"{', '.join(st['sets'][0])}): the step coincides with that change")
        parts.append(t)
    if not parts:
        return ""
    s = "; ".join(parts)
    return f" Along the {x}, {s}."
