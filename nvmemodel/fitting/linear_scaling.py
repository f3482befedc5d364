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
from .device_collapse import collapse, collapse_words, grown_resource
from .device_steps import grows_per_device, machine_per_count, per_device_levels, step_yields
from .wording import _fx, fmt_y

__all__ = ["added_yield", "device_regimes", "fixed_outstanding", "linear_scaling_claim", "noun_of", "superlinear_machines"]

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
#: the last step's yield must exceed every yield after the linear stretch by more than this share of one device's
#: rate to read "in proportion again" (a fall, then a hold; set after round 30 was read: PB, i7i randread, yields 74,
#: 74, 70, 68 % of one drive told "then the last step scaled in proportion again")
RECOVERS = 0.10
#: the last step's yield said beside the average where it is below it by more than this share of one device's rate
#: (set after round 30 was read: PA)
DIFFERS = 0.10
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
    from .shared_device import load_grew, one_device, one_device_words  # targets on one device (round 32, VA)

    grew = load_grew(result, cf.points)
    dev = one_device(result, cf.points)
    if dev is not None:
        return [Claim("scaling", one_device_words(result, x, y, dev, grew, noun),
                      {"verdict": "one_device", "devices": dev["devices"], "device_count": dev["count"],
                       **({"outstanding": grew["out"]} if grew else {})})]
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
    hosts = machine_per_count(result, cf.points)
    machines = (f" Each count ran on a different machine ({hosts[0]} … {hosts[-1]}): CPU, memory and the run itself "
                f"changed with the {noun}s." if hosts else "")
    if hosts:
        facts["machines"] = hosts
    gp = grows_per_device(x, y)
    if gp is not None and last_lin == x.size - 1:  # per-device rates that grow with the count (round 30 PD)
        text += (f" Per {noun} {fmt_y(gp['first'], unit)} → {fmt_y(gp['last'], unit)}, rising at every count (the "
                 f"total ≈ {fmt_y(gp['c'], unit)} × n{_power(gp['p_said'])}): no array of independent {noun}s gains "
                 f"rate per {noun} with width — these figures need checking (a total counted once per {noun}, or a "
                 f"layer above the {noun}s that grew with them), not read as {noun} scaling.{machines}")
        facts["verdict"] = "grows_per_device"
        facts["power"] = gp["p"]
        return [Claim("scaling", text, facts)]
    if last_lin == x.size - 1 and pct.max() > ABOVE * 100:  # more than linear is not "linear" (round 29 NF)
        text += (f" At or above linear at every count, up to {pct.max():.0f}% of it: no limit the {noun}s share is "
                 f"shown; above {ABOVE:.0%} the {noun}s added later each gave more than the first count's rate per "
                 f"{noun}, so {one} ran below what each {noun} later delivered.{machines}")
        facts["verdict"] = "above_linear"
        return [Claim("scaling", text, facts)]
    if last_lin == x.size - 1:
        text += f" It scales linearly over the whole range ({_fx(x[0])}–{_fx(x[-1])} {noun}s).{machines}"
        facts["verdict"] = "linear"
        return [Claim("scaling", text, facts)]
    lv = per_device_levels(x, y)
    if lv is not None:  # two per-device levels interleaved along the count: two families, not one curve (round 30 PC)
        at = lambda xs: ", ".join(_fx(v) for v in xs)  # noqa: E731
        text += (f" Per {noun} the rate sits on two levels, {fmt_y(lv['hi'], unit)} (at {at(lv['x_hi'])}) and "
                 f"{fmt_y(lv['lo'], unit)} (at {at(lv['x_lo'])}), {lv['ratio']:.3g}× apart and interleaved along the "
                 f"count: within each level the total is proportional to the count, and the steps between them are "
                 f"changes between the runs, not scaling — no verdict on a limit the {noun}s share is read from them.{machines}")
        facts.update(verdict="levels", levels=lv)
        return [Claim("scaling", text, facts)]
    yl = step_yields(x, y)
    if not yl:  # (counts not strictly increasing: no step to read)
        return [Claim("scaling", text, facts)]
    col = _collapse_of(p)
    if col is not None:  # a peak, then a fall beyond the noise that stays below it: no cap (round 31 SA)
        upto = f"It stays at {LINEAR:.0%} of linear or more up to {_fx(x[last_lin])} {noun}s; " \
            if 0 < last_lin <= col["m"] else ""
        text += collapse_words(result, col, share, yl, last_lin, noun, upto, grown_resource(result, cf.points)) + machines
        facts.update(verdict="collapse", linear_to=float(x[last_lin]), collapse=col)
        return [Claim("scaling", text, facts)]
    after = [d for d in yl if d["i"] >= last_lin]  # the steps after the linear stretch
    last = yl[-1]
    prev = max(d["share"] for d in after[:-1]) if len(after) > 1 else None
    if (last_lin < x.size - 2 and x[-1] / x[-2] >= REGIME_STEP and last["of_before"] >= LINEAR and prev is not None
            and last["share"] > prev + RECOVERS):
        # a lower per-device rate, then proportional again: two regimes, not a limit reached (round 29 NA: i3en RAID-0,
        # 243 K a drive at 1–2 drives, 137 K at 4–8, the last doubling ×1.97); the last step's yield against the rate
        # per device at the count before, above every yield after the linear stretch (round 30 PB: a steady drift,
        # 74, 74, 70, 68 % of one drive, told "then in proportion again")
        per = [fmt_y(y[i] / x[i], unit) for i in (last_lin, x.size - 2, x.size - 1)]
        text += (f" The per-{noun} rate fell from {per[0]} at {_fx(x[last_lin])} to {per[1]} at {_fx(x[-2])}, then the "
                 f"last step scaled in proportion again (×{y[-1] / y[-2]:.3g} for ×{_fx(x[-1] / x[-2])} the {noun}s; "
                 f"{per[2]} a {noun} at {_fx(x[-1])}): a lower rate per {noun} from {_fx(x[last_lin + 1])} on, not a "
                 f"limit the {noun}s share reached within the data.{machines}")
        facts.update(verdict="regimes", linear_to=float(x[last_lin]), last_step=float(last["of_before"]))
        return [Claim("scaling", text, facts)]
    gain = (y[-1] - y[last_lin]) / (x[-1] - x[last_lin]) / per0
    added = (y[-1] - y[last_lin]) / (x[-1] - x[last_lin])
    upto = f"It stays at {LINEAR:.0%} of linear or more up to {_fx(x[last_lin])} {noun}s; " if last_lin > 0 else ""
    start = "f" if upto else "F"
    stretch = (f"{start}rom {_fx(x[last_lin])} to {_fx(x[-1])} the added {noun}s added nothing to the total "
               f"({y[-1] / y[last_lin] - 1:+.1%})") if added <= 0 else (f"{start}rom {_fx(x[last_lin])} to {_fx(x[-1])} each added {noun} yielded "
               f"{fmt_y(added, unit)}, {gain:.0%} of one {noun}'s {fmt_y(per0, unit)}")
    facts.update(linear_to=float(x[last_lin]), marginal_share=float(gain),
                 step_shares=[float(d["share"]) for d in after])
    step_sh = [d["share"] for d in after]
    fell = all(b <= a for a, b in zip(step_sh, step_sh[1:]))
    host = "a change between the machines, " if hosts else "the host's path or CPU, "
    # "a load that did not grow" only where Little's law does not show the in-flight I/O growing with the count
    # (set after round 32 was read: VA)
    causes = (f"{host}a switch or the network" if grew is not None else
              f"{host}a switch, the network, or a load that did not grow with the {noun}s")
    if gain >= BINDS and len(after) > 1 and last["share"] < BINDS and last["share"] <= after[-2]["share"]:
        # the average still passes but the last step yields under half, no better than the one before: the steps
        # decide (set after round 30 was read: PA, i7ie randwrite, 79, 66, 50, 35 % of one drive averaged to 50.4 %)
        state = cf.saturation.facts.get("state") if cf.saturation is not None else None
        rise = ", although the total still rises" if state == "rising" else ""
        ys = ", ".join(f"{v:.0%}" for v in step_sh)
        n_last = _fx(x[-1] - x[-2])
        text += (f" {upto}{stretch} on average, but the steps' yields {'fell' if fell else 'went'} {ys} of one "
                 f"{noun} — the last {n_last} {noun}{'s' if x[-1] - x[-2] != 1 else ''} "
                 f"{fmt_y(last['each'], unit)} each: a limit the {noun}s share binds{rise} ({causes}).{machines}")
        facts["verdict"] = "shared_limit"
        return [Claim("scaling", text, facts)]
    if gain >= BINDS and any(v < BINDS for v in step_sh):
        # one inner step under half and a later one back above it: the average is no verdict (round 30 PA: azure,
        # 54, 122, 100, 9, 76 % of one disk averaged to "more than half")
        k = next(d for d in after if d["share"] < BINDS)
        ys = ", ".join(f"{v:.0%}" for v in step_sh)
        text += (f" {upto}{stretch} on average, but the steps' yields went {ys} of one {noun}: the step "
                 f"{_fx(k['x0'])} → {_fx(k['x1'])} yielded {k['share']:.0%} and a later one more, a dip, not a trend — "
                 f"no verdict on a limit the {noun}s share is read from the average.{machines}")
        facts["verdict"] = "uneven"
        return [Claim("scaling", text, facts)]
    # the last step said where it yielded less than the average by more than DIFFERS (a last step above it, one device
    # on a wandering plateau, is no recovery the average hides: r5 plaid 29 → 30)
    lastw = (f" (the last step {last['share']:.0%})" if gain - last["share"] > DIFFERS else "")
    if gain < BINDS:
        state = cf.saturation.facts.get("state") if cf.saturation is not None else None
        rise = ", although the total still rises" if state == "rising" else ""  # as the saturation fact reads it
        text += f" {upto}{stretch}{lastw}: a limit the {noun}s share binds{rise} ({causes}).{machines}"
        facts["verdict"] = "shared_limit"
    else:
        text += (f" {upto}{stretch}{lastw}: sub-linear, each added {noun} still paying more than half of one's "
                 f"rate.{machines}")
        facts["verdict"] = "sublinear"
    return [Claim("scaling", text, facts)]


def _collapse_of(p) -> dict | None:
    """device_collapse.collapse of the sorted points, with each point's runs where it has them."""
    cols = {k: p[k].to_numpy(float) for k in ("level_lo", "level_hi", "n_runs") if k in p}
    return collapse(p["x"].to_numpy(float), p["y"].to_numpy(float), cols.get("level_lo"), cols.get("level_hi"),
                    cols.get("n_runs"))


def _power(p: float) -> str:
    """"²" for 2, "^1.5" otherwise."""
    return {2.0: "²", 3.0: "³"}.get(p, f"^{p:g}")


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


def superlinear_machines(result, pts, said: str, model: str, drift: str) -> Claim | None:
    """The superlinear sentence along devices where each count ran on a different machine (device_steps
    .machine_per_count) and the files give no outstanding count: a change between the runs first, no per-I/O host
    cost that more outstanding I/O hides; where the per-device rates sit on two interleaved levels or grow with the
    count, that said instead of a cause (set after round 30 was read: PF, PC, PD — azure Lsv3 ×2.59 for ×2 disks
    between two per-disk levels, i8g ×3.93 … ×2.25 on a total ∝ n², both told "a per-I/O cost that more outstanding
    I/O hides (host-side submission and completion, …)"); None otherwise."""
    if result.x.lower() not in DEVICE_AXES or pts is None or len(pts) < 3:
        return None
    hosts = machine_per_count(result, pts)
    if not hosts:
        return None
    if "outstanding" in pts and np.isfinite(pts["outstanding"].to_numpy(float)).any():
        return None  # an outstanding count in the files: the general sentence reads it
    p = pts.sort_values(result.x)
    x, y = p[result.x].to_numpy(float), p["y"].to_numpy(float)
    noun, unit = noun_of(result.x) or "device", result.y_unit
    why = ""
    lv, gp = per_device_levels(x, y), grows_per_device(x, y)
    if gp is not None:
        why = (f" The rate per {noun} grows at every count ({fmt_y(gp['first'], unit)} → {fmt_y(gp['last'], unit)}; "
               f"the total ≈ {fmt_y(gp['c'], unit)} × n{_power(gp['p_said'])}): no array of independent {noun}s does "
               f"that, so these figures need checking before any cause is read from them.")
    elif lv is not None:
        at = lambda xs: ", ".join(_fx(v) for v in xs)  # noqa: E731
        why = (f" The rate per {noun} sits on two levels, {fmt_y(lv['hi'], unit)} (at {at(lv['x_hi'])}) and "
               f"{fmt_y(lv['lo'], unit)} (at {at(lv['x_lo'])}): a step from the lower to the upper level, not "
               f"scaling.")
    return Claim("superlinear", said[:1].upper() + said[1:] + f". Each count ran on a different machine ({hosts[0]} … "
                 f"{hosts[-1]}) and the files give no outstanding I/O, so a change between the runs (another machine, "
                 f"its CPU, memory and setup) is the first cause to check; with no outstanding I/O known, no per-I/O cost that more "
                 f"outstanding I/O hides is read from them.{why} "
                 f"{drift[:1].upper() + drift[1:]} cannot tell more, so no parameter of the {model} fit is "
                 f"interpreted (its values are in params and summary()).")
