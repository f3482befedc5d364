"""Along an axis of devices (drives, targets, device_count), how the total compares with linear scaling from the first
count: the share of linear at each count, how far it stays linear, and what each device added after that.

Along iodepth or numjobs a doubling of the load is the yardstick ("+10 % a doubling still pays"); along devices the
axis multiplies *capacity*, so the engineer's yardstick is linear scaling — N devices should carry N × one device's
rate until something they share (the host's lanes, CPU, a switch, the network, the submitter) binds. A total that still
rises 20 % a doubling can already mean each added drive yields a fifth of one drive (set after round 27 was read:
``r27_bam49`` GPU-initiated reads over 1–6 drives, "+20 % per doubling … no ceiling is reached", where the last two
drives added 1 GB/s each against 5 GB/s for one drive alone). The cases whose counts were seen before the constants
were set: round 27 bam49; the round 5 plaid 30-drive series and the round 2 P5800X drive series (spent, read
before).

A total that does not rise by at least :data:`MIN_RISE` over the axis (a fixed load spread over more devices, an md
array of RAM disks behind one fsync job) is not a scaling curve: nothing is said here.
"""

from __future__ import annotations

import numpy as np

from .axes import DEVICES
from .claim import Claim, runs_rows
from .wording import _fx, fmt_y

__all__ = ["added_yield", "device_regimes", "fixed_outstanding", "linear_scaling_claim", "noun_of"]

DEVICE_AXES = DEVICES  # (fitting/axes.py's one list)
#: "linear" while the total is at least this share of first-count rate × count (set after round 27 was read)
LINEAR = 0.90
#: above this share of linear a series is "at or above linear", not "linear" (set after round 29 was read, NF:
#: btrfs RAID-0 of HDDs at 117–128 % of linear called "scales linearly")
ABOVE = 1.10
#: the last step must add at least this factor of devices to show proportional scaling again (a +3 % step of a
#: wandering plateau is no regime: round 5 plaid 29 → 30 drives)
REGIME_STEP = 1.5
#: an added device yielding less than this share of one device's rate: a limit the devices share binds
#: (set after round 27 was read)
BINDS = 0.50
#: the total must rise at least this much over the axis to be read as scaling
MIN_RISE = 0.10

_NOUN = {"drives": "drive", "devices": "device", "device_count": "device", "targets": "target",
         "target_count": "target"}
#: a per-device rate that falls by more than this at one step … (set after round 29 was read, NB: i3en RAID-0
#: randread, 243 K a drive at 1–2 drives, 138 K at 4, 136 K at 8, listed as "+100 %, +13 %, +97 % per doubling")
REGIME_FALL = 0.25
#: … and stays within this of its own mean on each side of that step (≥ 2 counts after it): two linear regimes,
#: not a bend (set after round 29 was read, NB; a monotone bend — 2.07, 2.06, 1.70, 1.04 GB/s a drive — is none)
REGIME_HOLD = 0.05


def noun_of(axis: str) -> str | None:
    """"drive" for drives, "target" for targets …; None off the device axes."""
    return _NOUN.get(axis.lower())


def added_yield(x, y, i: int) -> tuple[float, float]:
    """What each device added in the step ``i → i+1`` and that as a share of the first count's rate per device: the
    yardstick along devices for a step shorter than a doubling (set after round 29 was read, NE: btrfs RAID-0
    randwrite, "+146 % per doubling" from a ×1.33 step, 3 → 4 disks, on a series within ±4 % of linear)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    each = (y[i + 1] - y[i]) / (x[i + 1] - x[i])
    return float(each), float(each / (y[0] / x[0]))


def device_regimes(x, y) -> dict | None:
    """Along a device axis, the per-device rate (total ÷ count) falling by more than :data:`REGIME_FALL` at one step
    and within :data:`REGIME_HOLD` of its mean before and after that step, with at least two counts after it: two
    linear regimes, ``{"i", "rates", "x", "before", "after", "fall"}`` (``i`` the last index before the fall); None
    otherwise (set after round 29 was read, NB)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if x.size < 3 or not (np.isfinite(x).all() and np.isfinite(y).all() and (x > 0).all() and (y > 0).all()):
        return None
    r = y / x
    for i in range(x.size - 2):
        if r[i + 1] >= (1 - REGIME_FALL) * r[i]:
            continue
        a, b = r[:i + 1], r[i + 1:]
        if all(np.abs(v / v.mean() - 1).max() <= REGIME_HOLD for v in (a, b)):
            return {"i": i, "rates": [float(v) for v in r], "x": [float(v) for v in x], "before": float(a.mean()),
                    "after": float(b.mean()), "fall": float(1 - b.mean() / a.mean())}
        return None
    return None


def linear_scaling_claim(result, cf) -> list[Claim]:
    """One "scaling" claim along a device axis with ≥ 3 counts whose total rises (see the module docstring)."""
    if cf is None or result.x.lower() not in DEVICE_AXES or result.y_unit == "s":
        return []
    p = cf.points.sort_values("x")
    x, y = p["x"].to_numpy(float), p["y"].to_numpy(float)
    if x.size < 3 or not (np.isfinite(x).all() and np.isfinite(y).all()) or x[0] < 1 or (y <= 0).any():
        return []
    if y[-1] < (1 + MIN_RISE) * y[0]:
        return []
    noun, unit = _NOUN[result.x.lower()], result.y_unit
    per0 = y[0] / x[0]
    share = y / (per0 * x)
    one = f"{_fx(x[0])} {noun}{'s' if x[0] != 1 else ''}"
    each = f"{fmt_y(per0, unit)} a {noun}" if x[0] != 1 else fmt_y(per0, unit)
    pct = np.round(share * 100)  # compared as written, so "90 %" is never said to fall below 90 %
    last_lin = 0  # the last count of the first stretch at LINEAR of linear or more
    while last_lin + 1 < x.size and pct[last_lin + 1] >= LINEAR * 100:
        last_lin += 1
    idx = range(1, x.size) if x.size <= 6 else sorted({1, last_lin, min(last_lin + 1, x.size - 1), x.size - 1} - {0})
    shares = ", ".join(f"{pct[i]:.0f}%{' of linear' if j == 0 else ''} at {_fx(x[i])}" for j, i in enumerate(idx))
    some = "" if x.size <= 6 else f" (of {x.size} counts)"
    text = f"Against linear scaling from {one} ({each}): {shares}{some}."
    facts = {"per_device": float(per0), "share_of_linear": [float(s) for s in share], "x": [float(v) for v in x]}
    if last_lin == x.size - 1 and pct.max() > ABOVE * 100:  # more than linear is not "linear" (round 29 NF)
        text += (f" At or above linear at every count, up to {pct.max():.0f}% of it: no limit the {noun}s share is "
                 f"shown; above {ABOVE:.0%} the {noun}s added later each gave more than the first count's rate per "
                 f"{noun}, so {one} ran below what each {noun} later delivered.")
        facts["verdict"] = "above_linear"
        return [Claim("scaling", text, facts)]
    if last_lin == x.size - 1:
        text += f" It scales linearly over the whole range ({_fx(x[0])}–{_fx(x[-1])} {noun}s)."
        facts["verdict"] = "linear"
        return [Claim("scaling", text, facts)]
    step = (y[-1] / y[-2]) / (x[-1] / x[-2])  # the last step's gain against proportional
    if last_lin < x.size - 2 and step >= LINEAR and x[-1] / x[-2] >= REGIME_STEP:
        # a lower per-device rate, then proportional again: two regimes, not a limit reached (round 29 NA: i3en RAID-0,
        # 243 K a drive at 1–2 drives, 137 K at 4–8, the last doubling ×1.97)
        per = [fmt_y(y[i] / x[i], unit) for i in (last_lin, x.size - 2, x.size - 1)]
        text += (f" The per-{noun} rate fell from {per[0]} at {_fx(x[last_lin])} to {per[1]} at {_fx(x[-2])}, then the "
                 f"last step scaled in proportion again (×{y[-1] / y[-2]:.3g} for ×{_fx(x[-1] / x[-2])} the {noun}s; "
                 f"{per[2]} a {noun} at {_fx(x[-1])}): a lower rate per {noun} from {_fx(x[last_lin + 1])} on, not a "
                 f"limit the {noun}s share reached within the data.")
        facts.update(verdict="regimes", linear_to=float(x[last_lin]), last_step=float(step))
        return [Claim("scaling", text, facts)]
    gain = (y[-1] - y[last_lin]) / (x[-1] - x[last_lin]) / per0
    added = (y[-1] - y[last_lin]) / (x[-1] - x[last_lin])
    upto = f"It stays at {LINEAR:.0%} of linear or more up to {_fx(x[last_lin])} {noun}s; " if last_lin > 0 else ""
    start = "f" if upto else "F"
    stretch = (f"{start}rom {_fx(x[last_lin])} to {_fx(x[-1])} the added {noun}s added nothing to the total "
               f"({y[-1] / y[last_lin] - 1:+.1%})") if added <= 0 else (f"{start}rom {_fx(x[last_lin])} to {_fx(x[-1])} each added {noun} yielded "
               f"{fmt_y(added, unit)}, {gain:.0%} of one {noun}'s {fmt_y(per0, unit)}")
    facts.update(linear_to=float(x[last_lin]), marginal_share=float(gain))
    if gain < BINDS:
        state = cf.saturation.facts.get("state") if cf.saturation is not None else None
        rise = ", although the total still rises" if state == "rising" else ""  # as the saturation fact reads it
        text += (f" {upto}{stretch}: a limit the {noun}s share binds{rise} (the host's path or CPU, a switch, the "
                 f"network, or a load that did not grow with the {noun}s).")
        facts["verdict"] = "shared_limit"
    else:
        text += f" {upto}{stretch}: sub-linear, each added {noun} still paying more than half of one's rate."
        facts["verdict"] = "sublinear"
    return [Claim("scaling", text, facts)]


def fixed_outstanding(result, key, pts):
    """(n, {x: n ÷ IOPS}) where the axis adds devices and every point kept the same stated
    outstanding I/O n (iodepth × numjobs, both in the table), IOPS known; else None (set after round 29 was read, NC:
    r29_pbbtrfs btrfs RAID-0 seqread, iodepth 4 at 1–4 disks, a ×2.55 step told "a per-I/O cost that more outstanding
    I/O hides")."""
    if result.x.lower() not in DEVICE_AXES:
        return None
    rows = runs_rows(result, pts)
    if rows is None or not all(c in rows for c in ("iodepth", "numjobs", "iops", result.x)):
        return None
    import pandas as pd

    out = pd.to_numeric(rows["iodepth"], errors="coerce") * pd.to_numeric(rows["numjobs"], errors="coerce")
    if out.isna().any() or out.nunique() != 1:
        return None
    iops = pd.to_numeric(rows["iops"], errors="coerce").groupby(pd.to_numeric(rows[result.x], errors="coerce")).mean()
    if iops.size < 2 or not (np.isfinite(iops.to_numpy(float)).all() and (iops > 0).all()):
        return None
    n = float(out.iloc[0])
    return n, {float(k): n / float(v) for k, v in iops.items()}
