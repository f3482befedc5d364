"""Where a load axis's added load stopped paying: the near-saturation stretch before the onset, a step that rose
faster than its load, and the margin a "beyond the noise" test used.

With Little's law holding (every I/O asked for in flight), a doubling of the outstanding I/O that gains ``g`` leaves
``1 − g`` of the added I/O waiting and grows the mean latency ×``2 ÷ (1 + g)``. A stretch of doublings that each gain
at most :data:`NEAR_GAIN` while fio's mean latency grows at least ×:data:`NEAR_LAT` per doubling is **near
saturation**, whatever the literal onset rule (the first doubling under 10 %) says after it: "+14 % for ×1.75 the
latency" is not "the load still paid" (set after round 29 was read: OA, r29_here-uringvda … iodepth, "Up to it the
load still paid: +14% per doubling from 72.80 K IOPS at iodepth = 16" of the steps 8 → 16 → 32, +16 % and +14 % for
×1.72 and ×1.75 the latency).

A step whose rate rose more than its load beyond the runs' noise (``evidence.superlinear_steps``) is a fact of the
load axis, not of a model: it is said in the saturation claim, with fio's mean latency at both ends and, where fio's
disk statistics have it, the device's busy share at the lower load (set after round 29 was read: OC,
r29_here-vdadsync … numjobs, "+535% …, +391% (2 → 4) … per doubling" for ×4.9 the rate at ×2 the jobs, the runs
apart, vda 6–19 % busy at 2 jobs, said as an ordinary gain because no model claim followed).

A fall of the gain per doubling judged inside its noise (``steps._falls``) is printed with that noise where the
sentence reads "and the noise" (set after round 29 was read: OD, r29_here-vdammap … numjobs, a 10-point fall beside
"only the last gain fell by more than 5 points and the noise" with its ±16-point margin unsaid).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["EARLIER_TIMES", "IDLE_BELOW", "LITTLE_OK", "NEAR_GAIN", "NEAR_LAT", "fall_margin", "near_stretch",
           "near_words", "queued_words", "within_blocks", "MIN_BLOCKS", "superlinear_words", "trailing_stretch", "trailing_words", "WAITED_MOST",
           "under_bar_words", "waited_word", "early_under_bar_words"]

#: a doubling that gains at most this is near saturation (≥ 80 % of the added load waited; set after round 29 was
#: read: OA, the hand read's "every doubling gains ≤ 20 %")
NEAR_GAIN = 0.20
#: … and its mean latency grew at least this per doubling (2 ÷ 1.2 = ×1.67 by Little's law; ×1.6 the hand read's
#: "never 'still paid' of a step whose latency grew ≥ ×1.6 per doubling"; set after round 29 was read)
NEAR_LAT = 1.6
#: Little's law holds at a point: IOPS × mean latency ÷ outstanding within this of 1 (set after round 29 was read)
LITTLE_OK = 0.1
#: a device busy below this share at the lower load of a superlinear step sat idle much of the time: the I/O's time
#: there was spent above it (set after round 29 was read: OC, vda 1–19 % busy at 1–2 jobs, 53–91 % from 4)
IDLE_BELOW = 0.5
#: a trailing near-saturation stretch (no onset found) is told only where an earlier step gained at least this many
#: times the stretch's largest gain: the gains fell into the stretch, not a curve that never paid more (set after
#: round 30 was read: RB, r30_here-uringsqpoll … iodepth, +48 % → +10 % → +10 % per doubling at ×1.8 the latency said
#: "still rises … the gains do not shrink … no ceiling"; counter-case r30_croit … exos … randwrite, +24 % then +14 %)
EARLIER_TIMES = 2.0


def _per_doubling(a: float, b: float, xa: float, xb: float) -> float:
    return float((b / a) ** (1.0 / math.log2(xb / xa)))


def near_stretch(p, k: int, ys, lat) -> dict | None:
    """The steps before the onset point ``k`` (the last one ending at ``k``) that each gained at most
    :data:`NEAR_GAIN` per doubling while the mean latency ``lat`` grew at least ×:data:`NEAR_LAT` per doubling, with
    Little's law within :data:`LITTLE_OK` of 1 at every point of them: ``{"i0", "k", "gains", "lat_steps", "waited",
    "little"}`` (``i0`` the stretch's first point; it is near saturation from ``i0 + 1``) or None."""
    xs = p["x"].to_numpy(float)
    ys, lat = np.asarray(ys, float), np.asarray(lat, float)
    if "little" not in p or k < 1 or k >= xs.size:
        return None
    lit = p["little"].to_numpy(float)
    i0 = None
    for i in range(k - 1, -1, -1):  # back from the step into the onset while each step is near saturation
        a, b = i, i + 1
        if not (xs[b] > xs[a] > 0 and ys[a] > 0 and ys[b] > 0 and lat[a] > 0 and lat[b] > 0
                and np.isfinite([ys[a], ys[b], lat[a], lat[b], lit[a], lit[b]]).all()):
            break
        if abs(lit[a] - 1) > LITTLE_OK or abs(lit[b] - 1) > LITTLE_OK:
            break
        if _per_doubling(ys[a], ys[b], xs[a], xs[b]) - 1 > NEAR_GAIN or \
                _per_doubling(lat[a], lat[b], xs[a], xs[b]) < NEAR_LAT:
            break
        i0 = i
    if i0 is None:
        return None
    gains = [_per_doubling(ys[i], ys[i + 1], xs[i], xs[i + 1]) - 1 for i in range(i0, k)]
    lats = [_per_doubling(lat[i], lat[i + 1], xs[i], xs[i + 1]) for i in range(i0, k)]
    return {"i0": i0, "k": k, "gains": gains, "lat_steps": lats, "waited": [1 - g for g in gains],
            "little": (float(lit[i0:k + 1].min()), float(lit[i0:k + 1].max())), "share": float(ys[i0 + 1] / ys[k])}


def near_words(result, d: dict, xs, ys, lat, stat: str = "") -> str:
    """' Near saturation before the onset, from iodepth = 16: the doublings before it gained +16% (8 → 16), +14%
    (16 → 32) … while fio's mean latency grew ×1.74, ×1.78 per doubling …' — or, where only the step into the onset
    point is near saturation, ' The step into it gained only +16% per doubling (16 → 32) while …' (no point before
    the onset is near saturation then: the one before it still paid)."""
    from .claim import _xv
    from .wording import fmt_y, span

    x, u = result.x, result.y_unit
    i0, k = d["i0"], d["k"]
    parts = []
    for g, i in zip(d["gains"], range(i0, k)):
        r = xs[i + 1] / xs[i]
        own = f", {ys[i + 1] / ys[i] - 1:+.0%} for ×{r:.3g} the {x}" if abs(r - 2) > 0.01 else ""
        parts.append(f"{g:+.0%} ({_xv(result, xs[i])} → {_xv(result, xs[i + 1])}{own})")
    gains = ", ".join(parts)
    lats = ", ".join(f"×{v:.3g}" for v in d["lat_steps"])
    w = d["waited"]
    waited = span(f"{min(w):.0%}", f"{max(w):.0%}")
    lo, hi = d["little"]
    by = f" by {stat}" if stat else ""
    tail = (f" while fio's mean latency grew {lats} per doubling, with Little's law at "
            f"{span(f'{lo:.2f}', f'{hi:.2f}')}: {waited} of the added load waited")
    if k - i0 == 1:  # the step into the onset alone
        return (f" The step into it, from {fmt_y(ys[i0], u)} at {x} = {_xv(result, xs[i0])}, gained only {gains} per "
                f"doubling of {x}{by}{tail}.")
    top = int(k + np.argmax(ys[k:]))  # the highest point from the onset on, by the same statistic as the steps
    share = (f"; at {x} = {_xv(result, xs[i0 + 1])} the rate, {fmt_y(ys[i0 + 1], u)}, was already "
             f"{ys[i0 + 1] / ys[top]:.0%} of the {fmt_y(ys[top], u)} at {x} = {_xv(result, xs[top])}"
             if ys[top] > 0 else "")
    return (f" Near saturation before the onset, from {x} = {_xv(result, xs[i0 + 1])}: the steps gained {gains} per "
            f"doubling of {x}{by}{tail}{share}.")


def trailing_stretch(p, ys, lat) -> dict | None:
    """Where the onset search found none: the trailing steps (the last included) that each gained at most
    :data:`NEAR_GAIN` per doubling while the mean latency grew at least ×:data:`NEAR_LAT` per doubling with Little's
    law holding (:func:`near_stretch` walked back from the last point), and an earlier step that gained at least
    :data:`EARLIER_TIMES` × the stretch's largest gain — ``near_stretch``'s dict plus ``"earlier"`` (that step's
    gain per doubling) and ``"earlier_i"`` (its first point), or None."""
    xs = p["x"].to_numpy(float)
    ys, lat = np.asarray(ys, float), np.asarray(lat, float)
    d = near_stretch(p, xs.size - 1, ys, lat)
    if d is None or d["i0"] < 1:
        return None
    top = max(d["gains"])
    before = [(_per_doubling(ys[i], ys[i + 1], xs[i], xs[i + 1]) - 1, i) for i in range(d["i0"])
              if xs[i + 1] > xs[i] > 0 and ys[i] > 0 and ys[i + 1] > 0]
    if not before or top <= 0:
        return None
    g, i = max(before)
    if g < EARLIER_TIMES * top or g > 1.0:  # a step faster than its load (> +100 % a doubling) paid no load (r22 memcg)
        return None
    return {**d, "earlier": float(g), "earlier_i": int(i)}


def trailing_words(result, d: dict, xs, ys, what: str, stat: str = "") -> str:
    """"Measured IOPS is near saturation from iodepth = 16: …; its level is at or above …, the last point, not
    reached within the data." — a :func:`trailing_stretch` said, never "no ceiling" beside it."""
    from .claim import _xv
    from .wording import fmt_y, span

    x, u = result.x, result.y_unit
    i0, k, e = d["i0"], d["k"], d["earlier_i"]
    parts = []
    for g, i in zip(d["gains"], range(i0, k)):
        r = xs[i + 1] / xs[i]
        own = f", {ys[i + 1] / ys[i] - 1:+.0%} for ×{r:.3g} the {x}" if abs(r - 2) > 0.01 else ""
        parts.append(f"{g:+.0%} ({_xv(result, xs[i])} → {_xv(result, xs[i + 1])}{own})")
    lats = ", ".join(f"×{v:.3g}" for v in d["lat_steps"])
    w = d["waited"]
    lo, hi = d["little"]
    by = f" by {stat}" if stat else ""
    return (f"Measured {what} is near saturation from {x} = {_xv(result, xs[i0 + 1])}: after "
            f"{d['earlier']:+.0%} per doubling ({_xv(result, xs[e])} → {_xv(result, xs[e + 1])}), the steps gained "
            f"{', '.join(parts)} per doubling of {x}{by} while fio's mean latency grew {lats} per doubling, with "
            f"Little's law at {span(f'{lo:.2f}', f'{hi:.2f}')}: {span(f'{min(w):.0%}', f'{max(w):.0%}')} of the added "
            f"load waited. Its level is at or above {fmt_y(ys[-1], u)}, the last point, not reached within the data.")


# WAITED_MOST and waited_word live in load_time (it is imported by this module, not the other way round) and are
# re-exported here: the one scale for every "waited" word.
from .load_time import WAITED_MOST, waited_share, waited_word  # noqa: E402


def queued_words(g: float, little_ok: bool = True) -> str:
    """"most of the added load queued (86 % of it waited …)" / "part of …" — one wording by the share of a
    doubling's added load that waited, ``1 − g`` for a gain ``g`` per doubling (set after round 30 was read: RH,
    r30_croit … exos … randwrite, "part of the added load queued" for 86 % waited beside "most" for 82 %); only where
    Little's law held (the load asked for was in flight) — elsewhere "part of the added load queued", as before."""
    w = 1.0 - g
    if not (0 < w <= 1) or not little_ok:  # the share needs the load asked for in flight: the old words
        return "part of the added load queued"
    word = waited_word(w)
    return f"{word} of the added load queued: {w:.0%} of it waited, by Little's law"


def under_bar_words(result, p, xs, ys, k: int, lat) -> str:
    """' The step 8 → 32 gained only +6% per doubling (+12% for ×4 the iodepth), under the 10% bar of the onset,
    while the time per I/O grew ×3.57 (outstanding ÷ IOPS, Little's law, if the load was kept outstanding): 96% of
    the added I/Os waited; the level is reached in [8, 32].' — the step into the onset ``k`` where it gained less than
    ``PAYS`` per doubling (an onset placed after a step of more than a doubling, or held back by latency): never "the
    load still paid" (set after round 31 was read: SE, r31_antonhpe-zfs19076 … async-dio_write, "Up to it the load
    still paid … +6% (8 → 32: +12% for ×4) per doubling" under the sentence's own 10 % bar, the Little time ×3.57).
    The time per I/O is fio's mean latency where measured at both ends, else outstanding ÷ IOPS along a load kept
    outstanding (``load_time``'s conditions); "" where the step paid."""
    from .claim import _xv
    from .fact_base import PAYS

    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    if k < 1 or k >= xs.size or not (xs[k] > xs[k - 1] > 0 and ys[k - 1] > 0 and ys[k] > 0) or result.y_unit == "s":
        return ""
    g = _per_doubling(ys[k - 1], ys[k], xs[k - 1], xs[k]) - 1
    if g >= PAYS or g < 0:  # (a fall into the onset is the fall words' to tell)
        return ""
    x, a, b = result.x, _xv(result, xs[k - 1]), _xv(result, xs[k])
    r = xs[k] / xs[k - 1]
    own = f" ({ys[k] / ys[k - 1] - 1:+.0%} for ×{r:.3g} the {x})" if abs(r - 2) > 0.01 else ""
    timew = ""
    tt = _step_time(result, p, xs, ys, k - 1, k, lat)
    if tt is not None:
        t0, t1, how = tt
        w = _little_waited(p, k - 1, k, t0, t1)
        if t1 > t0 and 0 < w <= 1:
            timew = (f", while the time per I/O grew ×{t1 / t0:.3g} ({how}): {waited_word(w)} of the added I/Os "
                     f"waited ({w:.0%} of them)")
    return (f" The step {a} → {b} gained only {g:+.0%} per doubling{own}, under the {PAYS:.0%} bar of the onset"
            f"{timew} — not the load still paying; the level is reached in [{a}, {b}].")


def _step_time(result, p, xs, ys, i: int, j: int, lat):
    """(time per I/O at ``i``, at ``j``, how it was read) — fio's mean latency where measured at both ends, else
    outstanding ÷ IOPS along a load kept outstanding (``load_time``'s conditions) — or None."""
    out = p["out"].to_numpy(float) if "out" in p and len(p) == xs.size else None
    if out is None or not np.isfinite(out[[i, j]]).all() or out[i] <= 0 or out[j] / out[i] <= 1.01:
        return None
    lat = np.asarray(lat, float) if lat is not None else np.full(xs.size, np.nan)
    if np.isfinite(lat[[i, j]]).all() and (lat[[i, j]] > 0).all():
        return float(lat[i]), float(lat[j]), "fio's mean latency"
    from .load_time import LOAD_AXES, _load_stated, _paced

    io = (np.asarray(ys, float) if result.y_unit == "1/s" else
          p["iops"].to_numpy(float) if "iops" in p else np.full(xs.size, np.nan))
    if result.x.lower() in LOAD_AXES and _load_stated(result) and not _paced(result) \
            and np.isfinite(io[[i, j]]).all() and (io[[i, j]] > 0).all():
        return (float(out[i] / io[i]), float(out[j] / io[j]),
                "outstanding ÷ IOPS by Little's law, if the load was kept outstanding")
    return None


def _little_waited(p, i: int, j: int, t0: float, t1: float) -> float:
    """The share of the added I/Os that waited from point ``i`` to ``j``: the rate's growth by Little's law
    (outstanding ÷ time per I/O) against the outstanding load's."""
    out = p["out"].to_numpy(float)
    g_load = out[j] / out[i]
    return waited_share((t0 / t1) * g_load, g_load)


def early_under_bar_words(result, p, xs, ys, k: int, lat) -> tuple[str, int, int]:
    """' From iodepth = 1 to 16 the load did not pay: +1% per doubling (+3% for ×16 the iodepth), under the 10% bar,
    while the time per I/O grew ×15.6 (…): 99% of the added I/Os waited. Then +59% per doubling (16 → 32) into the
    onset; one run a point: a jump after a flat stretch may be a change between runs rather than the deeper queue
    paying — repeats would tell.' — a listed step BEFORE the step into the onset ``k`` that gained less than ``PAYS``
    per doubling while the time per I/O (measured or Little's) grew at least ×:data:`NEAR_LAT` per doubling: never
    "the load still paid" (set after round 32 was read: UB, r32_spdk2104 … randread-64cores_iodepth, "Up to it the
    load still paid … +1% (1 → 16: +3% for ×16), +59% (16 → 32)" for ×15.6 the Little time; r31 SE judged only the
    step into the onset). The latest such step ending before ``k`` is told, with its points ``(i, j)``, so the caller
    keeps the steps that paid before ``i`` and after ``j`` (a first version dropped them); ("", -1, -1) where none."""
    from .claim import _xv
    from .fact_base import PAYS

    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    if k < 2 or k >= xs.size or result.y_unit == "s":
        return "", -1, -1
    for j in range(k - 1, 0, -1):
        i = j - 1
        if not (xs[j] > xs[i] > 0 and ys[i] > 0 and ys[j] > 0):
            continue
        g = _per_doubling(ys[i], ys[j], xs[i], xs[j]) - 1
        if round(g, 2) >= PAYS or g < 0:  # under the bar as printed: never "+10%, under the 10% bar"
            continue
        tt = _step_time(result, p, xs, ys, i, j, lat)
        if tt is None or not tt[1] > tt[0] > 0:
            continue
        t0, t1, how = tt
        if _per_doubling(t0, t1, xs[i], xs[j]) < NEAR_LAT:
            continue
        w = _little_waited(p, i, j, t0, t1)
        if not 0 < w <= 1:
            continue
        x, a, b = result.x, _xv(result, xs[i]), _xv(result, xs[j])
        r = xs[j] / xs[i]
        own = f" ({ys[j] / ys[i] - 1:+.0%} for ×{r:.3g} the {x})" if abs(r - 2) > 0.01 else ""
        gk = _per_doubling(ys[k - 1], ys[k], xs[k - 1], xs[k]) - 1
        one = ("n_runs" in p and len(p) == xs.size and np.nanmax(p["n_runs"].to_numpy(float)) < 2)
        jump = (f"; one run a point: a jump after a flat stretch may be a change between runs rather than the deeper "
                f"queue paying — repeats would tell" if one and j == k - 1 and gk >= PAYS else "")
        then = (f" Then {gk:+.0%} per doubling ({_xv(result, xs[k - 1])} → {_xv(result, xs[k])}) into the onset{jump}."
                if j == k - 1 else "")
        return (f" From {x} = {a} to {b} the load did not pay: {g:+.0%} per doubling{own}, under the {PAYS:.0%} bar, "
                f"while the time per I/O grew ×{t1 / t0:.3g} ({how}): {waited_word(w)} of the added I/Os waited "
                + (f"({w:.1%} of them)" if w >= 0.995 else f"({w:.0%} of them)") + f".{then}", i, j)
    return "", -1, -1


def fall_margin(x, y, sd, reps, last: int = 6) -> dict | None:
    """The largest fall of the gain per doubling (of the last ``last`` steps, the last excepted) that is more than
    ``steps.GAIN_STEP`` but inside twice the standard error of the two gains' difference — the one a reader sees
    beside "fell by more than 5 points and the noise" — as ``{"from", "to", "margin"}``, or None."""
    from .steps import GAIN_STEP, doubling_gains, gain_noise

    x, y = np.asarray(x, float), np.asarray(y, float)
    g = doubling_gains(x, y)
    noise = gain_noise(x, y, sd, reps)
    if noise is None or g.size < 3:
        return None
    best = None
    for i in range(max(1, g.size - last), g.size - 1):
        if not np.isfinite(g[[i - 1, i]]).all() or not np.isfinite(noise[[i - 1, i]]).all():
            continue
        margin = float(math.hypot(noise[i - 1], noise[i]))
        fall = float(g[i - 1] - g[i])
        if GAIN_STEP < fall <= margin and (best is None or fall > best["from"] - best["to"]):
            best = {"from": float(g[i - 1]), "to": float(g[i]), "margin": margin}
    return best


def _busy_at(result, p, xv: float) -> tuple[float, float] | None:
    """fio's disk_util (lowest, highest over the runs and the lowest layer's devices) at ``x`` = ``xv``, or None."""
    from .claim import runs_rows
    from .devices import device_busy, layer_of, listed_devices

    try:
        rows = runs_rows(result, p)
    except Exception:  # noqa: BLE001 — no run rows: no busy share
        return None
    if rows is None or "devices" not in rows or result.x not in rows:
        return None
    import pandas as pd

    at = rows[(pd.to_numeric(rows[result.x], errors="coerce") - xv).abs() <= 1e-9 * max(1.0, abs(xv))]
    if not len(at):
        return None
    names = listed_devices(at)
    layers = [layer_of(d) for d in names]
    known = [lay for lay in layers if lay is not None]
    hit = [d for d, lay in zip(names, layers) if known and lay == known[-1]] or names[:1]
    b = device_busy(at, hit, result.x, xv)
    return None if b is None else (b["lo"], b["hi"])


def _by_runs(p) -> list[dict]:
    """Neighbouring points with ≥ 2 kept runs each where every run of the higher load lies above the load ratio ×
    every run of the lower one: faster than the load whatever one point's spread does to a pooled noise (round 29 OC:
    vdadsync's runs at 1 job ×13 apart pooled into a noise that hid 2 → 4 jobs, runs 1.98–3.79 K → 12.14–13.40 K)."""
    if "runs_kept" not in p:
        return []
    xs, out = p["x"].to_numpy(float), []
    for i in range(xs.size - 1):
        a, b = (np.asarray(p["runs_kept"].iloc[k], float) for k in (i, i + 1))
        if a.size < 2 or b.size < 2 or not (xs[i + 1] > xs[i] > 0) or not (a > 0).all():
            continue
        r = float(xs[i + 1] / xs[i])
        if float(b.min()) > r * float(a.max()):
            out.append({"i": i, "j": i + 1, "x_from": float(xs[i]), "x_to": float(xs[i + 1]),
                        "y_from": float(a.mean()), "y_to": float(b.mean()), "load": r,
                        "gain": float(b.mean() / a.mean())})
    return out


#: a superlinear step told within blocks of runs needs at least this many blocks, measured in both orders (set after
#: round 31 was read: SF, r31_fiolab … qd_repeats, ×2.12, ×2.09, ×2.24 for ×2 the depth in 3 counterbalanced blocks)
MIN_BLOCKS = 2


def within_blocks(result, p, xa: float, xb: float, load: float) -> dict | None:
    """Where the table names blocks of runs (a ``block`` column) and each of at least :data:`MIN_BLOCKS` blocks ran
    both points, the step's ratio within each block (``{"lo", "hi", "n"}``) — only where every block's ratio is above
    ``load`` and the two points ran in both orders across the blocks (by ``position``, else ``run``): a drift between
    the runs would have made the step smaller in the blocks that ran the higher load first. None otherwise."""
    import pandas as pd

    from .claim import runs_rows

    try:
        rows = runs_rows(result, p)
    except Exception:  # noqa: BLE001 — no run rows: no blocks
        return None
    y = getattr(result, "y", None)
    if rows is None or "block" not in rows or result.x not in rows or y not in rows:
        return None
    order = "position" if "position" in rows else "run"
    if order not in rows:
        return None
    r = pd.DataFrame({"b": pd.to_numeric(rows["block"], errors="coerce"),
                      "x": pd.to_numeric(rows[result.x], errors="coerce"),
                      "y": pd.to_numeric(rows[y], errors="coerce"),
                      "o": pd.to_numeric(rows[order], errors="coerce")}).dropna()
    ratios, first = [], set()
    for _, g in r.groupby("b"):
        a, b = g[np.isclose(g["x"], xa)], g[np.isclose(g["x"], xb)]
        if len(a) != 1 or len(b) != 1 or not float(a["y"].iloc[0]) > 0:
            continue
        ratios.append(float(b["y"].iloc[0] / a["y"].iloc[0]))
        first.add(bool(a["o"].iloc[0] < b["o"].iloc[0]))
    if len(ratios) < MIN_BLOCKS or len(first) < 2 or min(ratios) <= load:
        return None
    return {"lo": min(ratios), "hi": max(ratios), "n": len(ratios)}


def superlinear_words(result, p, ev) -> str:
    """' The step 2 → 4 rose ×4.91 for ×2 the numjobs, beyond the runs' noise: …' — every step of
    ``evidence.superlinear_steps`` along a load that grew with the axis (the outstanding I/O grew by the step's ratio:
    not devices added at one load), with fio's mean latency at both ends and the device's busy share at the lower
    load where fio's disk statistics give it; "" where none, or where a step has no latency at both ends."""
    from .claim import _xv
    from .evidence import superlinear_steps
    from .wording import fmt_y, span

    if ev is None or result.y_unit == "s" or "lat" not in p or "out" not in p:
        return ""
    xs, lat, out = (p[c].to_numpy(float) for c in ("x", "lat", "out"))
    steps = _by_runs(p) or superlinear_steps(ev)
    if not steps:
        return ""
    x, parts = result.x, []
    reps = p["n_runs"].to_numpy(float) if "n_runs" in p else np.ones(len(p))
    for st in steps:
        at_i = np.flatnonzero(np.isclose(xs, st["x_from"]))
        at_j = np.flatnonzero(np.isclose(xs, st["x_to"]))
        if not (at_i.size and at_j.size):
            return ""
        i, j = int(at_i[0]), int(at_j[0])
        if not (np.isfinite(out[[i, j]]).all() and out[i] > 0
                and abs(out[j] / out[i] / st["load"] - 1) <= 0.05):  # the load itself grew by the step's ratio
            return ""
        if not (np.isfinite(lat[[i, j]]).all() and lat[i] > 0 and lat[j] > 0):
            return ""
        beyond = ", beyond the runs' noise," if np.all(reps >= 2) else ""  # (one run a point: no runs' noise)
        text = (f"the step {_xv(result, st['x_from'])} → {_xv(result, st['x_to'])} rose ×{st['gain']:.3g} for "
                f"×{st['load']:.3g} the {x}{beyond} while fio's mean latency went "
                f"{fmt_y(lat[i], 's')} → {fmt_y(lat[j], 's')}")
        busy = _busy_at(result, p, float(xs[i]))
        if busy is not None and lat[j] < lat[i] and busy[1] < IDLE_BELOW:
            hi = _busy_at(result, p, float(xs[j]))
            text += (f"; the device was {span(f'{busy[0]:.0%}', f'{busy[1]:.0%}')} busy at {_xv(result, xs[i])}"
                     + (f", {span(f'{hi[0]:.0%}', f'{hi[1]:.0%}')} at {_xv(result, xs[j])}" if hi else "")
                     + " (fio's disk statistics): the time each I/O took at the lower load was spent above the device")
        parts.append(text)
    said = "; ".join(parts)
    drift = "the repeats at each point" if np.all(reps >= 2) else "one run per point"
    blocks = [within_blocks(result, p, st["x_from"], st["x_to"], st["load"]) for st in steps]
    why = ("" if "above the device" in said and np.all(reps >= 2) else
           f": at the lower load each I/O took longer — a per-I/O cost that more load hides, or a change between the "
           f"runs ({drift} cannot tell which)")
    told = [b for b in blocks if b is not None]
    if why and len(told) == len(blocks):  # blocks run in both orders tell (round 31 SF)
        within = "; ".join("×" + span(f"{b['lo']:.3g}", f"{b['hi']:.3g}") + f" within each of {b['n']} blocks"
                           for b in told)
        why = (f": at the lower load each I/O took longer — the step is {within} of runs that measured the two "
               f"points in both orders, so not a change between the runs: a per-I/O cost that more load hides")
    last = _xv(result, steps[-1]["x_to"])
    return (f" Faster than its load: {said}. No queueing model rises faster than its load (X ≤ N/R₀){why}; the steps "
            f"up to {x} = {last} do not show the path's own scaling.")
