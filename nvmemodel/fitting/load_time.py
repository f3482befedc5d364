"""The time per I/O that Little's law gives from the load and the rate, where the files give no latency.

A published table often has IOPS along iodepth or numjobs and no latency column. If the load was kept outstanding
(fio keeps iodepth × numjobs in flight unless it is paced), Little's law gives each I/O's time as outstanding ÷ IOPS,
and how that time grows against the load tells what the added I/Os did: a time that holds while the load grows means
they were served side by side; a time that grows about as fast as the load means they waited (saturation); faster
than the load, the path slowed as load was added (set after round 27 was read, HF: r27_lisapr1424 Azure Premium SSD
2.14 → 1.69 ms, r27_lisapr629 Azure local NVMe 64 → 349 µs, r27_zfs5019 zvols 0.28 → 191 ms, each said without a
time per I/O). The cases seen before the thresholds were set: those three.

Between "held" and "faster", the words go by the share of the added I/Os that waited, ``1 − (X₂/X₁ − 1)/(N₂/N₁ − 1)``
for the rate ×X₂/X₁ at ×N₂/N₁ the load, on the one scale of ``near_saturation.waited_word`` ("most" / "part"), and
"about as fast as the load" only where the rate itself held; where the saturation claim found an onset, each side of
it is read apart, one verdict a side (set after round 31 was read: SC, r31_antonhpe-zfs19076 … async-dio_read,
"grew about as fast as the load (×30 for ×128 the load)" and … async-dio_write, "×27.4 for ×128 the load: part of the
added I/Os waited" — both ~97 % waited, split by a log share of 0.70; the time ×1.96 for ×8 to the onset at 8 and
×15.3 for ×16 after it).

A table whose rates were derived from latency has a latency column, so this claim never restates its input.
"""

from __future__ import annotations

import numpy as np

from .claim import Claim
from .wording import _fx, fmt_y

__all__ = ["load_time_claim"]

#: load axes along which fio keeps the load outstanding
LOAD_AXES = ("iodepth", "numjobs", "outstanding")
#: the time per I/O "held" when it changed by at most this factor over the load's growth (set after round 27 was read)
HELD = 1.25
#: the time per I/O "fell" only below 1 ÷ this factor (a smaller drop is said to hold: set after round 27 was read)
FELL = 1.5
#: the load must grow at least this much for a verdict on the time's growth
MIN_LOAD_GROWTH = 4.0
#: the time grew faster than the load above this share of the load's growth (log scale); below it the words go by the
#: share of the added I/Os that waited (round 31 SC replaced the log share 0.7 that split "about as fast" from "part")
FASTER = 1.3
#: "about as fast as the load" only where the rate held (≤ ×HELD) and at least this share of the added I/Os waited
#: (set after round 31 was read: SC — "×30 for ×128" was "about as fast"; ×1.63 for ×2, 77 % waited, is "most")
NEARLY_ALL = 0.9
#: options that pace the jobs: the load was then not kept outstanding
_PACING = ("rate_iops", "rate_bytes_per_s", "thinktime_s")


def _paced(result) -> bool:
    import pandas as pd

    tbl = result.table
    if tbl is None:
        return False
    for col in _PACING:
        if col in tbl and (pd.to_numeric(tbl[col], errors="coerce").fillna(0) > 0).any():
            return True
    return False


def _load_stated(result) -> bool:
    """The table states the whole load: ``outstanding``, or both ``iodepth`` and ``numjobs`` in every row (a count
    left out would scale every time by an unknown factor)."""
    import pandas as pd

    tbl = result.table
    if tbl is None or not len(tbl):
        return False
    if "outstanding" in tbl and pd.to_numeric(tbl["outstanding"], errors="coerce").notna().all():
        return True
    return all(c in tbl and pd.to_numeric(tbl[c], errors="coerce").notna().all() for c in ("iodepth", "numjobs"))


#: "most" of the added load waited from this share of it, "part" below (set after round 30 was read: RH; the one scale
#: for every "waited" word, the no-latency time per I/O's too — set after round 31 was read: SC)
WAITED_MOST = 0.5


def waited_word(w: float) -> str:
    """"most" for a share ``w`` of the added load that waited at or above :data:`WAITED_MOST`, else "part"."""
    return "most" if w >= WAITED_MOST else "part"


def waited_share(g_rate: float, g_load: float) -> float:
    """The share of the added I/Os that waited, ``1 − (X₂/X₁ − 1)/(N₂/N₁ − 1)``, for the rate ×``g_rate`` at
    ×``g_load`` the load (0: every added I/O was served side by side; 1: the rate did not grow)."""
    return 1.0 - (g_rate - 1.0) / (g_load - 1.0)


def _verdict(g_t: float, g_load: float) -> tuple[str, str]:
    """How a time per I/O that grew ×``g_t`` for ×``g_load`` the load is read: the verdict's key and its words."""
    share = np.log(g_t) / np.log(g_load) if g_t > 0 and g_load > 1 else 0.0
    grew = f"×{g_t:.3g} for ×{_fx(g_load)} the load"
    if 1 / FELL <= g_t <= HELD:
        return "held", f"held ({grew}): the rate grew with the load, the added I/Os served side by side"
    if g_t < 1 / FELL:
        return "fell", (f"fell ({grew}): each I/O cost less at the larger load (a per-I/O cost that more outstanding "
                        f"I/O hides, or a change between the runs)")
    if share > FASTER:
        return "faster", (f"grew faster than the load ({grew}): the rate fell as load was added — the path slowed with "
                          f"concurrency, not only queued")
    g_x = g_load / g_t  # the rate's growth (Little's law: the load ÷ the time)
    w = waited_share(g_x, g_load)
    if g_x <= HELD and w >= NEARLY_ALL:  # the rate held: the added I/Os waited (round 31 SC: "about as fast" only here)
        return "waited", f"grew about as fast as the load ({grew}): the added I/Os waited"
    word = waited_word(w)
    return ("waited" if word == "most" else "partly",
            f"grew {grew}: the rate grew ×{g_x:.3g}, {word} of the added I/Os waited ({w:.0%} of them)")


def _onset_index(result, cf) -> int | None:
    """The saturation claim's onset (its index among the points), where it found one and says it (not over two run
    sets that diverge: run_sets.py)."""
    from .run_sets import diverging_sets

    s = cf.saturation.facts if getattr(cf, "saturation", None) is not None else {}
    if s.get("state") != "onset" or s.get("onset_index") is None or diverging_sets(result, cf.points) is not None:
        return None
    return int(s["onset_index"])


def load_time_claim(result, cf) -> list[Claim]:
    """One "time per I/O" claim along a load axis with ≥ 3 points, IOPS known, no latency anywhere (see the module)."""
    if cf is None or result.x.lower() not in LOAD_AXES or result.y_unit == "s":
        return []
    p = cf.points.sort_values("x")
    for col in ("lat", "clat_mean", "p50"):  # any latency the files give (a flat clat beside a flat rate: no queue)
        if col in p and np.isfinite(p[col].to_numpy(float)).any():
            return []
    out = p["out"].to_numpy(float) if "out" in p else np.full(len(p), np.nan)
    iops = p["iops"].to_numpy(float) if "iops" in p else np.full(len(p), np.nan)
    if result.y_unit == "1/s":
        iops = p["y"].to_numpy(float)
    if len(p) < 3 or not (np.isfinite(out).all() and np.isfinite(iops).all()) or (out <= 0).any() or (iops <= 0).any():
        return []
    if _paced(result):
        return []
    stated = _load_stated(result)  # else numjobs unknown: iodepth ÷ IOPS is a lower bound (numjobs ≥ 1)
    t = out / iops
    x = p["x"].to_numpy(float)
    idx = list(range(len(p))) if len(p) <= 6 else sorted({0, int(np.argmin(t)), len(p) // 2, len(p) - 1})
    times = ", ".join(f"{fmt_y(t[i], 's')} at {_fx(x[i])}" for i in idx)
    how = ("outstanding ÷ IOPS" if stated else
           f"at least {result.x} ÷ IOPS (× the jobs, which the files do not give: the growth holds for a fixed count)")
    text = (f"The files give no latency; if the load was kept outstanding (Little's law), each I/O took {how}: "
            f"{times} ({result.x}).")
    g_load, g_t = out[-1] / out[0], t[-1] / t[0]
    facts = {"time_per_io_s": [float(v) for v in t], "load_stated": stated, "load_growth": float(g_load), "time_growth": float(g_t)}
    held = 0  # the last point of the first stretch whose time stays within HELD of the first point's
    while held + 1 < len(t) and t[held + 1] <= HELD * t[0] and t[held + 1] >= t[0] / FELL:
        held += 1
    if 1 <= held <= len(t) - 2 and out[held] / out[0] >= 2 and out[-1] / out[held] >= 2:
        # two phases (round 28 JG: ×3.18 for ×16 blended ×1.23 to 4 jobs, served side by side, and ×2 from 7 to 16)
        key, words = _verdict(t[-1] / t[held], out[-1] / out[held])
        text += (f" The time per I/O held to {_fx(x[held])} (×{t[held] / t[0]:.3g} for ×{_fx(out[held] / out[0])} the "
                 f"load: the added I/Os served side by side), then {words}.")
        facts.update(verdict=f"held, then {key}", held_to=float(x[held]))
    elif (k := _onset_index(result, cf)) is not None and 1 <= k <= len(t) - 2 and out[k] / out[0] >= 2 \
            and out[-1] / out[k] >= 2:  # one verdict each side of the onset, not a share across the knee (r31 SC)
        k0, w0 = _verdict(t[k] / t[0], out[k] / out[0])
        k1, w1 = _verdict(t[-1] / t[k], out[-1] / out[k])
        text += (f" Up to the onset at {_fx(x[k])} the time per I/O {w0}; from {_fx(x[k])} to {_fx(x[-1])} it "
                 f"{w1}.")
        facts.update(verdict=f"{k0}, then {k1}", onset_at=float(x[k]))
    elif g_load >= MIN_LOAD_GROWTH:
        key, words = _verdict(g_t, g_load)
        text += f" The time per I/O {words}."
        facts["verdict"] = key
    return [Claim("time per I/O", text, facts)]
