"""Along an axis of devices (drives, targets …), a total that peaks and then collapses: after its maximum it falls
beyond the noise and stays below it. A cap reached holds its level; a total that more devices push *down* shows
something the devices share degrading past the peak (contention for the host's cores, memory, a lock, the network),
and "the added devices added nothing … a limit they share binds" misreads it as a cap.

Set after round 31 was read (``_blind_rounds/round31_hand_read_part1.md`` SA, SG; spdk issue #3097, vfio-user VMs each
at QD128 along the VM count, 2.08 → 17.78 M IOPS at 20 VMs, then 7.42, 5.61, 6.84 M at 28, 36, 44, told "from 12 to
44 the added targets added nothing to the total (−43.3 %): a limit the targets share binds (… or a load that did not
grow with the targets)"; the SPDK target's cores, ``cpus_allowed``, grew with the VMs unsaid).

Pure numbers (:func:`collapse`, :func:`grown_resource`) and the scaling sentence's words (:func:`collapse_words`).
"""
from __future__ import annotations

import re

import numpy as np

from .fact_base import FLAT

__all__ = ["COLLAPSE_STEP", "collapse", "collapse_words", "grown_resource", "trough_words"]

#: with one run a point, a step after the maximum that falls by more than this is beyond what a single unrepeated run
#: moves (the hand read's bar; set after round 31 was read: SA, spdk #3097, −58 %, −51 % steps)
COLLAPSE_STEP = 0.25
#: the last point at least this far below the maximum: the fall did not recover to the peak's level (the ±10 % band a
#: level is read within, fact_base.FLAT; set after round 31 was read: SA)
STAYS_BELOW = FLAT
#: the points after the peak each within this of their mean: a lower level held, said as one (fall_level.LEVEL_BAND;
#: set after round 31 was read)
HOLD = 0.10
#: a resource column (fio's ``cpus_allowed``) that grows by at least this factor over the axis, rising with the count
#: at every step, is said beside the scaling verdict (set after round 31 was read: SG, spdk #3097 target cores 1 → 22
#: with 2 → 44 VMs)
GROWS = 2.0


def collapse(x, y, lo=None, hi=None, n_runs=None) -> dict | None:
    """The peak-then-collapse of a total along devices: the maximum ``y[m]`` inside the axis (a rise to it, at least one
    point after it), every later point below it, the last below it by more than :data:`STAYS_BELOW`, and the fall
    beyond the noise — with repeats at the maximum and the trough (``n_runs`` ≥ 2), every run at the trough below every
    run at the maximum (``lo``/``hi``: each point's lowest and highest run); with one run a point, a step after the
    maximum falling by more than :data:`COLLAPSE_STEP`. ``{"m", "t", "peak", "x_peak", "trough", "x_trough", "last",
    "x_last", "first_fall", "x_first_fall", "below_lo", "below_hi", "rebound", "repeated"}`` (shares below the peak
    for the points after it); None otherwise."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if x.size < 3 or not (np.isfinite(x).all() and np.isfinite(y).all() and (y > 0).all() and (np.diff(x) > 0).all()):
        return None
    m = int(np.argmax(y))
    if m == 0 or m >= x.size - 1:
        return None
    after = y[m + 1:]
    if not (after < y[m]).all() or y[-1] > (1 - STAYS_BELOW) * y[m]:
        return None
    t = m + 1 + int(np.argmin(after))
    reps = n_runs is not None and np.isfinite(np.asarray(n_runs, float)[[m, t]]).all() \
        and (np.asarray(n_runs, float)[[m, t]] >= 2).all()
    if reps:
        if lo is None or hi is None or not float(np.asarray(hi, float)[t]) < float(np.asarray(lo, float)[m]):
            return None
    else:
        steps = y[m + 1:] / y[m:-1] - 1
        if not (steps < -COLLAPSE_STEP).any():
            return None
    below = 1 - after / y[m]
    # the points after the peak holding one lower level (each within the band of their mean, ≥ 2 points): the fall then
    # a held level (set after round 31 was read: r20_here-devcount seqread128k, 7.07 GB/s at 2 loop devices, then
    # 4.74–5.08 GB/s at 3–6, the 2 cores copying for them)
    held = bool(after.size >= 2 and (np.abs(after / after.mean() - 1) <= HOLD).all())
    return {"held": held, "held_lo": float(after.min()), "held_hi": float(after.max()),"m": m, "t": t, "peak": float(y[m]), "x_peak": float(x[m]), "trough": float(y[t]),
            "x_trough": float(x[t]), "last": float(y[-1]), "x_last": float(x[-1]),
            "first_fall": float(1 - y[m + 1] / y[m]), "x_first_fall": float(x[m + 1]),
            "below_lo": float(below.min()), "below_hi": float(below.max()),
            "rebound": float(y[-1] / y[t] - 1) if t < x.size - 1 else None, "repeated": bool(reps)}


_COUNT_WORDS = re.compile(r"^\s*(\d+)\s+(?:[\w-]+\s+){0,3}?(?:cores?|cpus?|core\(s\)|cpu\(s\))\b", re.I)


def _cpu_count(spec) -> int | None:
    """CPUs named by a ``cpus_allowed`` value: fio's list ("0-3,8") counted as fio does, or a count written in words
    by the one who transcribed it ("6 SPDK target core(s)"); None otherwise."""
    from ..ingest.fio_options import allowed_cpu_count

    if spec is None or (isinstance(spec, float) and not np.isfinite(spec)):
        return None
    s = str(spec).strip()
    n = allowed_cpu_count(s)
    if n is not None:
        return n
    m = _COUNT_WORDS.match(s)
    return int(m[1]) if m else None


def grown_resource(result, points) -> dict | None:
    """Where the runs' ``cpus_allowed`` names a CPU count at every count of the axis, rising with it at every step and
    by at least :data:`GROWS` over it: ``{"column", "first", "last"}`` (the CPUs at the first and the last count);
    None otherwise — the devices were not the only thing the axis added."""
    from .claim import runs_rows, stated

    if points is None or "sources" not in points:
        return None
    rows = runs_rows(result, points)
    if rows is None or rows.empty or "cpus_allowed" not in rows or result.x not in rows:
        return None
    import pandas as pd

    n = stated(rows, "cpus_allowed").map(_cpu_count)
    xs = pd.to_numeric(rows[result.x], errors="coerce")
    if n.isna().any() or xs.isna().any():
        return None
    by = pd.Series(n.astype(float).to_numpy(), index=xs.to_numpy()).groupby(level=0)
    if by.ngroups < 3 or (by.nunique() != 1).any():
        return None
    c = by.first().sort_index().to_numpy(float)
    if not (np.diff(c) > 0).all() or c[-1] < GROWS * c[0]:
        return None
    xs_ = by.first().sort_index().index.to_numpy(float)
    per = xs_ / c  # counts per CPU
    ratio = float(np.median(per)) if np.abs(per / np.median(per) - 1).max() <= 0.10 else None
    return {"column": "cpus_allowed", "first": int(c[0]), "last": int(c[-1]), "per": ratio}


def collapse_words(result, c: dict, share, yl, last_lin: int, noun: str, upto: str, grown: dict | None) -> str:
    """The scaling sentence's reading of a collapse ``c`` (:func:`collapse`): the peak with its share of linear and the
    steps' yields up to it (``yl``: device_steps.step_yields), the fall after it, the trough and the last point, and
    "something they share degrades past x, not a cap reached"; never "added nothing" and no "load that did not grow"
    (the load is not shown fixed)."""
    from .wording import _fx, fmt_y

    u, m = result.y_unit, c["m"]
    ys = ", ".join(f"{d['share']:.0%}" for d in yl[:m])
    steps = (f"the step to it yielded {ys} of one {noun}" if m == 1 else
             f"the steps to it yielded {ys} of one {noun}")
    lead = upto.rstrip("; ") + " and p" if upto else "P"
    peak = (f" {lead}eaks at {fmt_y(c['peak'], u)} at {_fx(c['x_peak'])} {noun}s ({share[m]:.0%} of linear; {steps}),"
            f" then falls {c['first_fall']:.0%} at {_fx(c['x_first_fall'])}")
    if c.get("held"):  # a lower level held to the last point: said as a level, its shares below the peak beside it
        lo, hi = f"{c['below_lo']:.0%}", f"{c['below_hi']:.0%}"
        peak += (f" and holds a lower level to {_fx(c['x_last'])}, {fmt_y(c['held_lo'], u)}–{fmt_y(c['held_hi'], u)} "
                 f"({lo if lo == hi else f'{lo[:-1]}–{hi}'} below the peak)")
        return (f"{peak}: more {noun}s got less — something they share degrades past {_fx(c['x_peak'])} {noun}s and "
                f"holds the total at that lower level, not a cap reached at the peak (a cap would have kept the peak's "
                f"level).{_grown_words(grown, noun)}")
    if c["x_first_fall"] < c["x_last"]:
        lo, hi = f"{c['below_lo']:.0%}", f"{c['below_hi']:.0%}"
        peak += (f" and stays {lo if lo == hi else f'{lo[:-1]}–{hi}'} below the peak to {_fx(c['x_last'])}")
        if c["x_trough"] != c["x_last"]:
            peak += (f" (the trough {fmt_y(c['trough'], u)} at {_fx(c['x_trough'])}, "
                     f"{1 - c['trough'] / c['peak']:.0%} below the peak; {fmt_y(c['last'], u)} at "
                     f"{_fx(c['x_last'])}, {1 - c['last'] / c['peak']:.0%} below it)")
        else:
            peak += f" ({fmt_y(c['last'], u)} at {_fx(c['x_last'])}, the trough)"
    text = (f"{peak}: more {noun}s got less — something they share degrades past {_fx(c['x_peak'])} {noun}s, not a "
            f"cap reached (a cap holds its level).")
    if c["rebound"] is not None and c["rebound"] > 0 and not c["repeated"]:
        text += (f" The rise after the trough ({c['rebound']:+.0%} to {_fx(c['x_last'])}) is one run a point: no "
                 f"verdict on it.")
    return text + _grown_words(grown, noun)


def _grown_words(grown: dict | None, noun: str) -> str:
    """The CPU count the runs' cpus_allowed names, where it grew with the count (:func:`grown_resource`), said once:
    " The CPUs the files' cpus_allowed names grew with the targets too, 1 → 22 (1 per 2 targets at every count)."."""
    from .wording import _fx

    if grown is None:
        return ""
    r = grown.get("per")
    each = (f" (1 per {_fx(r)} {noun}{'s' if r != 1 else ''} at every count)" if r is not None and r >= 1 else
            f" ({_fx(1 / r)} per {noun} at every count)" if r is not None else "")
    return f" The CPUs the files' cpus_allowed names grew with the {noun}s too, {grown['first']} → {grown['last']}{each}."


def trough_words(result, xs, ys, d: dict, head: str, drop: str) -> str:
    """Along devices, a falls sentence's "falls 54% to <last point>" where a lower point lies between the peak and the
    last: "falls 59% to its trough, 5.31 M IOPS at targets = 28 (5.90 M IOPS at targets = 36, the last point, 54%
    below the peak)" (set after round 31 was read: SG, spdk p3.1 and p3.0, the trough 59–68 % below the peak unsaid);
    ``head`` unchanged otherwise (another axis, the last point the trough, or the peak not a point of ``xs``)."""
    from .axes import DEVICES
    from .fact_words import _xv
    from .wording import fmt_y

    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    if result.x.lower() not in DEVICES or xs.size < 3:
        return head
    at = np.flatnonzero(np.isclose(xs, d.get("x_max", np.nan)))
    if not at.size or at[0] >= xs.size - 2:
        return head
    t = int(at[0]) + 1 + int(np.argmin(ys[at[0] + 1:]))
    if t == xs.size - 1 or not ys[t] < ys[-1]:
        return head
    x, u = result.x, result.y_unit
    said = f"falls {drop} to {fmt_y(ys[-1], u)} at {x} = {_xv(result, xs[-1])}"
    if said not in head:
        return head
    peak = float(d["y_max"])
    return head.replace(said, f"falls {1 - ys[t] / peak:.0%} to its trough, {fmt_y(ys[t], u)} at {x} = "
                              f"{_xv(result, xs[t])} ({fmt_y(ys[-1], u)} at {x} = {_xv(result, xs[-1])}, the last "
                              f"point, {drop} below the peak)", 1)
