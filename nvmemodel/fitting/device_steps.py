"""Along an axis of devices, each step read by what its added devices yielded: the yield per added device of every
step, the verdict on those yields (the same yardstick the step list prints), per-device rates that alternate between
two levels with the count, per-device rates that grow with the count, and a different machine at every count.

Set after round 30 was read (``_blind_rounds/round30_hand_read_part1.md``; ScyllaDB's iotune presets along the drive
count, each count another cloud instance):

- PA: "each added device still paying more than half of one's rate" from one yield averaged over the steps, where the
  last steps yielded 50 % and 35 % of one drive (r30_scyllaio … i7ie … randwrite).
- PB: "then the last step scaled in proportion again" on a steady drift (r30_scyllaio … i7i … randread).
- PC: per-disk rates on two levels, 891 K at 1, 4, 6 disks and 688 K at 2, 8, 10, read as one curve (r30_scyllaio …
  azure-lsv3 …): "the gains do not shrink step over step" beside 100 % → 9 % → 76 %.
- PE: two yardsticks in one step list (gains per doubling and yields per added device).
- PF: a different machine at every count (``hostname``), nothing said; host per-I/O costs offered for a superlinear step.
- PD: per-device rates growing ∝ the count (a total ∝ n², r30_scyllaio … i8g … read-bw) read as device scaling.

Pure numbers; the words are ``linear_scaling``'s, ``saturation_claims``' and ``claims``'.
"""
from __future__ import annotations

import numpy as np

#: a yield more than this (in points of one device's rate) below the one before is a fall; the same step as the gains
#: per doubling (steps.GAIN_STEP; set after round 30 was read: PC, PE)
YIELD_STEP = 0.05
#: every yield within this of their mean: one value, said once (set after round 30 was read: PE, i7ie randread,
#: 205–209 K a drive at every step)
EVEN = 0.03
#: a per-device level: every rate of it within this of its mean (the same hold as linear_scaling.REGIME_HOLD; set after
#: round 30 was read: PC, 891 K and 688 K a disk, each within ±0.3 %)
LEVEL_HOLD = 0.05
#: two per-device levels at least this far apart (twice the hold: the levels do not touch; set after round 30 was
#: read: PC)
LEVEL_GAP = 0.10
#: per-device rates that grow with the count at this power of it or more (total ∝ n^(1+k), k ≥ this - 1) over the
#: whole axis, rising at every step: no array of independent devices does that (set after round 30 was read: PD,
#: i8g, total ≈ 4.5 GB/s × n²)
GROWS = 1.5


def _ok(x, y) -> bool:
    return bool(x.size >= 3 and np.isfinite(x).all() and np.isfinite(y).all() and (x > 0).all() and (y > 0).all()
                and (np.diff(x) > 0).all())


def step_yields(x, y) -> list[dict] | None:
    """Every step ``i → i+1``: ``{"i", "x0", "x1", "each", "share", "of_before"}`` — what each added device yielded,
    as a share of the first count's rate per device and of the rate per device at the count before; None where the
    counts are not positive and increasing."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if not _ok(x, y):
        return None
    per0 = y[0] / x[0]
    out = []
    for i in range(x.size - 1):
        each = (y[i + 1] - y[i]) / (x[i + 1] - x[i])
        out.append({"i": i, "x0": float(x[i]), "x1": float(x[i + 1]), "each": float(each),
                    "share": float(each / per0), "of_before": float(each / (y[i] / x[i]))})
    return out


def yields_verdict(shares) -> dict:
    """The verdict on a list of yields (shares of one device's rate), in the yardstick printed: ``{"kind", …}`` with
    kind ``"even"`` (all within :data:`EVEN` of their mean: ``lo``, ``hi``), ``"slows"`` (the last two each more than
    :data:`YIELD_STEP` below the one before), ``"dip"`` (a step more than that below the one before and a later one
    back above it: ``k`` its index), ``"last_fell"`` (only the last fell), ``"shrinking"`` (each below the one before,
    not each by more than the step), ``"flat"`` (no step more than the step below the one before), ``"one"`` (a single
    yield: no verdict)."""
    s = np.asarray(shares, float)
    if s.size < 2:  # one yield: nothing to compare it with (set after round 31 was read: SG)
        return {"kind": "one"}
    if s.size >= 2 and s.mean() > 0 and np.abs(s / s.mean() - 1).max() <= EVEN:
        return {"kind": "even", "lo": float(s.min()), "hi": float(s.max())}
    d = np.diff(s)
    fell = d < -YIELD_STEP
    if d.size >= 2 and fell[-1] and fell[-2]:
        return {"kind": "slows"}
    for k in range(d.size):  # a fall, then a later yield back above the fallen one by more than a step
        if fell[k] and (s[k + 2:] > s[k + 1] + YIELD_STEP).any():
            return {"kind": "dip", "k": int(k + 1)}
    if d.size and fell[-1]:
        return {"kind": "last_fell"}
    if d.size >= 2 and (d < 0).all():
        return {"kind": "shrinking"}
    if fell.any():  # an earlier fall that did not recover and did not continue
        return {"kind": "last_fell" if fell[-1] else "fell_once", "k": int(np.flatnonzero(fell)[-1] + 1)}
    return {"kind": "flat"}


def per_device_levels(x, y) -> dict | None:
    """Per-device rates (total ÷ count) on two levels, each rate within :data:`LEVEL_HOLD` of its level's mean, the
    levels more than :data:`LEVEL_GAP` apart, each held at ≥ 2 counts, and interleaved along the count (the level
    changes at least twice): ``{"hi", "lo", "x_hi", "x_lo", "ratio", "labels"}``; None otherwise (contiguous levels
    are linear_scaling.device_regimes')."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if not _ok(x, y) or x.size < 4:
        return None
    r = y / x
    o = np.sort(r)
    cut = int(np.argmax(o[1:] / o[:-1]))  # the widest gap between sorted rates
    lo_v, hi_v = o[:cut + 1], o[cut + 1:]
    if lo_v.size < 2 or hi_v.size < 2:
        return None
    if any(np.abs(v / v.mean() - 1).max() > LEVEL_HOLD for v in (lo_v, hi_v)):
        return None
    if hi_v.mean() / lo_v.mean() - 1 <= LEVEL_GAP:
        return None
    lab = r > o[cut]
    if int(np.count_nonzero(lab[1:] != lab[:-1])) < 2:
        return None
    return {"hi": float(hi_v.mean()), "lo": float(lo_v.mean()), "x_hi": [float(v) for v in x[lab]],
            "x_lo": [float(v) for v in x[~lab]], "ratio": float(hi_v.mean() / lo_v.mean()),
            "labels": [bool(v) for v in lab]}


def grows_per_device(x, y) -> dict | None:
    """Per-device rates that rise at every step, with the total growing as ``n^p``, ``p ≥`` :data:`GROWS` over the
    whole axis (log-log slope from the first to the last count): ``{"p", "first", "last", "c"}`` (``c`` = total ÷
    n^p at the last count, the constant of ``y ≈ c × n^p``); None otherwise."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if not _ok(x, y):
        return None
    r = y / x
    if not (np.diff(r) > 0).all():
        return None
    p = float(np.log(y[-1] / y[0]) / np.log(x[-1] / x[0]))
    if p < GROWS:
        return None
    pr = round(p * 2) / 2  # said to the half (n², n^1.5)
    c = float(np.median(y / x ** pr))
    return {"p": p, "p_said": pr, "first": float(r[0]), "last": float(r[-1]), "c": c}


HOST_COLUMNS = ("hostname", "host")


def machine_per_count(result, points) -> list[str] | None:
    """The machine named at each count (``hostname`` or ``host`` of the runs' rows) where each count names one and no
    two counts name the same (≥ 3 counts): the axis changed the machine as well as the devices; None otherwise."""
    from .claim import runs_rows

    if points is None or "sources" not in points or result.x not in (result.table.columns if result.table is not None
                                                                      else ()):
        return None
    rows = runs_rows(result, points)
    if rows is None or rows.empty:
        return None
    col = next((c for c in HOST_COLUMNS if c in rows and rows[c].notna().all()), None)
    if col is None:
        return None
    import pandas as pd

    by = rows.assign(_x=pd.to_numeric(rows[result.x], errors="coerce")).groupby("_x")[col]
    if by.ngroups < 3 or (by.nunique() != 1).any():
        return None
    names = [str(v) for v in by.first().sort_index()]
    return names if len(set(names)) == len(names) else None
