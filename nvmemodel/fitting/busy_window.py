"""How much of fio's disk_util window carried I/O: fio's busy share is over the job's whole time (start-up, ramp_time
and exit included), so a share below 100 % is not idle device time by itself. fio counts the device's I/Os over the
same window and its own only after the ramp: where one device request is one fio I/O (direct I/O, no merge, no
split), fio's own I/Os ÷ the device's is the share of the counted I/O that fell after the ramp — runtime ÷ (runtime +
ramp) at a steady rate — and a busy share at or above it is consistent with a request at the device all the time the
job did I/O. Only a share clearly below it is idle device time (set after round 28 was read: r28_here-vdawrite,
MD: "vda 65–87 % busy … idle part of every run, so the layer alone did not hold the rate", where 82–87 % at
iodepth 16–32 was the whole I/O time of a 1 s ramp + 5 s run).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .merges import SPLIT

#: a busy share this far (0–1) below the run's own I/O share is idle device time; within it the two agree (the ramp's
#: rate may differ from the measured one, and fio's counters are read at the job's edges). Set after round 28 was
#: read: vdawrite's deep runs sit 0–3 points from their I/O share, r27 xfsunwritten's loop0 7–13 points below it.
WINDOW_SLACK = 0.05
#: Little's law per run at or above this, at a depth of 2 or more on a direct asynchronous engine: the depth asked for
#: was in flight all the measured time, so a busy share below the I/O share is the busy counter under-reading (a
#: sampled busy time), not idle device time (set after round 31 was read: TB, r31_here-vdarwmix … rwmixread, "idle in
#: those runs" where 16 of 16 I/Os were in flight in every run; counter-case r31 xfsfalloc's psync numjobs = 1)
HELD = 0.95
#: … and at most this: far above 1 the latency counts time outside the device's queue (a throttle, a wait to be reaped)
HELD_MAX = 1.05
#: a busy share below this share of the I/O-count share is no under-reading counter (a sampled busy time misses tens
#: of percent, not half): the device was idle (set after round 31 was read: a blkio-throttled loop0 at 5 % under a held
#: depth of 8, r2_here_blkio_rbps_rwmix_64k_repeats, against vdarwmix's 58 % for a 76 % share)
UNDER_READ = 0.5
#: the engines that keep several I/Os in flight from one thread (fio's asynchronous engines)
_ASYNC = ("libaio", "io_uring", "io_uring_cmd", "posixaio", "windowsaio", "solarisaio")


def _single_direction_runs(rows, name: str, xcol: str) -> list[tuple[float, float, float]]:
    """(x, busy share, fio's I/Os ÷ the device's) for each row that lists ``name`` as its only device, is read-only or
    write-only, and counts that direction's device I/Os (≥ fio's own); nothing else is read."""
    need = ("devices", "disk_util_pct", "ios", "direction", xcol)
    if any(c not in rows for c in need):
        return []
    out = []
    for _, r in rows.iterrows():
        devs, util = r["devices"], r["disk_util_pct"]
        if not isinstance(devs, str) or devs != name:
            continue
        d = str(r["direction"])
        col = {"read": "disk_read_ios", "write": "disk_write_ios"}.get(d)
        if col is None or col not in rows:
            continue
        try:
            busy, ios, dev, x = float(util) / 100.0, float(r["ios"]), float(r[col]), float(r[xcol])
        except (TypeError, ValueError):
            continue
        if not all(np.isfinite([busy, ios, dev, x])) or ios <= 0 or dev < ios or dev >= SPLIT * ios:
            continue  # merged (fewer device I/Os) or split (merges.SPLIT times as many): not one request an I/O
        if "direct" in rows and not (pd.notna(r["direct"]) and bool(r["direct"])):
            continue  # buffered: the device's requests are not fio's I/Os
        out.append((x, busy, ios / dev))
    return out


def held_depth(rows, xcol: str) -> dict:
    """``{x: (Little lo, hi, depth)}`` of the points whose every run was direct I/O on an asynchronous engine at a
    depth of 2 or more with Little's law (Σ IOPS × mean latency over the run's rows ÷ the jobs' depth) at or above
    :data:`HELD`: the depth asked for was in flight all the measured time. Points missing a figure are not in it."""
    need = ("source_path", "iops", "lat_mean_s", "iodepth", "ioengine", "direct", xcol)
    if rows is None or any(c not in rows for c in need):
        return {}
    keys = ["source_path", *(["run"] if "run" in rows else [])]
    jobk = [k for k in ("job_name", "job_index") if k in rows]
    by_x: dict[float, list] = {}
    for _, g in rows.groupby(keys, sort=False, dropna=False):
        x = pd.to_numeric(g[xcol], errors="coerce").dropna().unique()
        eng = set(g["ioengine"].astype(str))
        ok = len(x) == 1 and eng <= set(_ASYNC) and bool(g["direct"].map(lambda v: pd.notna(v) and bool(v)).all())
        iops, lat = pd.to_numeric(g["iops"], errors="coerce"), pd.to_numeric(g["lat_mean_s"], errors="coerce")
        first = ~g[jobk].duplicated().to_numpy() if jobk else np.r_[True, np.zeros(len(g) - 1, bool)]
        depth = float(pd.to_numeric(g["iodepth"], errors="coerce").to_numpy(float)[first].sum())
        xr = float((iops * lat).sum(min_count=1))
        little = xr / depth if ok and depth >= 2 and np.isfinite(xr) else np.nan
        if len(x) == 1:
            by_x.setdefault(float(x[0]), []).append((little, depth))
    out = {}
    for x, v in by_x.items():
        lit = np.array([a for a, _ in v], float)
        if np.isfinite(lit).all() and (lit >= HELD).all() and (lit <= HELD_MAX).all():
            out[x] = (float(lit.min()), float(lit.max()), float(np.median([d for _, d in v])))
    return out


def busy_window(rows, names: list[str], xcol: str, busy: dict | None) -> dict | None:
    """Which points' runs kept ``names[0]`` busy for the whole time that carried I/O and which left it idle, where
    every run of the series gives the counts to tell: ``{"busy_x": [...], "idle_x": [...], "mixed_x": [...],
    "io_share": (lo, hi)}``; None where one device is not the only one, or a run lacks the counts."""
    if busy is None or rows is None or len(names) != 1:
        return None
    runs = _single_direction_runs(rows, names[0], xcol)
    if not runs or len(runs) < len(rows):
        return None
    by_x: dict[float, list[bool]] = {}
    for x, b, share in runs:
        by_x.setdefault(x, []).append(b >= share - WINDOW_SLACK)
    shares = [s for _, _, s in runs]
    xs = sorted(by_x)
    held = held_depth(rows, xcol)
    # the depth held at every point of the series (no point where the device could have idled by Little's law), and
    # every busy share at least UNDER_READ of its I/O share: a counter under-reading, not idle time (round 31 TB)
    far = any(b < UNDER_READ * sh for _, b, sh in runs)
    if far or not all(x in held for x in xs):
        held = {}
    under = [x for x in xs if not all(by_x[x]) and x in held]  # below the share with the depth held: under-read
    return {"busy_x": [x for x in xs if all(by_x[x])], "idle_x": [x for x in xs if not any(by_x[x]) and x not in held],
            "mixed_x": [x for x in xs if any(by_x[x]) and not all(by_x[x]) and x not in held],
            "counter_x": under, "held": {x: held[x] for x in under},
            "busy": {x: (min(b for xx, b, _ in runs if xx == x), max(b for xx, b, _ in runs if xx == x)) for x in under},
            "io_share": (min(shares), max(shares))}


def _xs_words(result, xs: list[float], every: list[float]) -> str:
    from .fact_words import _xv

    if len(xs) == 1:
        return _xv(result, xs[0])
    i, j = every.index(xs[0]), every.index(xs[-1])
    if j - i + 1 == len(xs):  # a stretch of neighbouring points
        return f"{_xv(result, xs[0])}–{_xv(result, xs[-1])}"
    return ", ".join(_xv(result, x) for x in xs)


def window_words(win: dict, device: str, result) -> str:
    """"fio's own I/Os were 81–91 % of those vda counted over that time (…): at iodepth = 16 the busy share reaches
    that share — a request at vda for about all the time the job did I/O; at iodepth = 1–8 it is below it, so vda
    was idle between requests there; …" (:func:`busy_window`)."""
    every = sorted(win["busy_x"] + win["idle_x"] + win["mixed_x"] + win.get("counter_x", []))
    lo, hi = win["io_share"]
    share = f"{100 * lo:.0f} %" if round(100 * lo) == round(100 * hi) else f"{100 * lo:.0f}–{100 * hi:.0f} %"
    x = result.x
    parts = [f"fio's own I/Os were {share} of those {device} counted over that time (the rest fell in the ramp, "
             f"before fio's own count began, or were not fio's)"]
    if win["busy_x"]:
        parts.append(f"at {x} = {_xs_words(result, win['busy_x'], every)} the busy share reaches that share — "
                     f"a request at {device} for about all the time the job did I/O")
    if win["idle_x"]:
        parts.append(f"at {x} = {_xs_words(result, win['idle_x'], every)} it is below it, so {device} was idle "
                     f"between requests there")
    if win["mixed_x"]:
        parts.append(f"at {x} = {_xs_words(result, win['mixed_x'], every)} some runs' share is below it (idle in "
                     f"those runs) and some runs' reaches it")
    if win.get("counter_x"):
        under = win["counter_x"]
        b_lo = min(win["busy"][v][0] for v in under)
        b_hi = max(win["busy"][v][1] for v in under)
        l_lo = min(win["held"][v][0] for v in under)
        l_hi = max(win["held"][v][1] for v in under)
        depths = sorted({win["held"][v][2] for v in under})
        depth = f"{depths[0]:.0f}" if len(depths) == 1 else "the depth"
        busy = f"{100 * b_lo:.0f} %" if round(100 * b_lo) == round(100 * b_hi) else f"{100 * b_lo:.0f}–{100 * b_hi:.0f} %"
        lit = f"{l_lo:.2f}" if f"{l_lo:.2f}" == f"{l_hi:.2f}" else f"{l_lo:.2f}–{l_hi:.2f}"
        parts.append(f"at {x} = {_xs_words(result, under, every)} its busy share is lower ({busy}), but Little's "
                     f"law gives {lit} a run at {depth} outstanding (direct I/O, an asynchronous engine): {depth} I/Os "
                     f"were in flight all the measured time, so {device} had requests all that time — its busy "
                     f"counter under-reads there and shows no idle time (a busy time says nothing against a share of "
                     f"I/O counts)")
    return "; ".join(parts)
