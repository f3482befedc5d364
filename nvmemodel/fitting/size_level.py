"""Along block size: how bandwidth reaches a byte level — the rise below it and where it starts — and a byte level the
job's own CPU held.

A byte level read over the largest sizes (a cap, or the rate at one depth) says nothing of the smaller sizes below it:
there bandwidth still rose with the size (each I/O's fixed cost weighs more), and the size between the last point
below and the first on the level is where the level starts — its onset along block size. Where every job was busy on
its CPU at every size of a stretch whose bandwidth barely moves while IOPS fall with the size, that stretch is a byte
level too: the rate one CPU moves at those sizes, not a limit of what lay below (set after round 19 was read: UF,
r19_here-batch … batch16 bs, 0.71 → 2.10 → 2.84 GB/s over 4–64 KiB unsaid before "flat at 2.81–2.84 GB/s from 64 KiB";
r19_here-mmapw tmpfs randwrite bs, 5.2–6.2 GB/s over 64 KiB–1 MiB at 99 % of a CPU said only as a peak and a fall).
"""

from __future__ import annotations

import numpy as np

__all__ = ["cpu_held_level", "rise_into"]


def rise_into(b: np.ndarray, bw: np.ndarray, iops: np.ndarray, m: int, level_lo: float, flat: float,
              step: float) -> dict | None:
    """The sizes below a byte level that starts at index ``m`` (``level_lo`` its lowest value): each below the level,
    the last of them by more than ``flat`` of it (a size just under the band a level is read within is its edge, not a
    rise the reader misses), their first and last bandwidth and IOPS, and whether bandwidth rose by more than ``step`` (a
    run's scatter) at every step up to the level. None where no size lies below the level's start, one of them is not below its lowest value (a fall, not
    a rise, into it) or the last is within ``flat`` of it."""
    b, bw, iops = (np.asarray(v, float) for v in (b, bw, iops))
    if m < 1 or m > b.size - 1 or not (np.isfinite(bw[: m + 1]).all() and np.isfinite(iops[:m]).all()):
        return None
    if not (np.all(bw[:m] < level_lo) and bw[m - 1] < (1 - flat) * level_lo):
        return None
    return {"x_from": float(b[0]), "x_last": float(b[m - 1]), "x_level": float(b[m]),
            "bytes": (float(bw[0]), float(bw[m - 1])), "iops": (float(iops[0]), float(iops[m - 1])),
            "sizes": int(m), "rose": bool(np.all(bw[1: m + 1] > (1 + step) * bw[:m]))}


def cpu_held_level(b: np.ndarray, bw: np.ndarray, iops: np.ndarray, busy: list, flat: float,
                   band: float, step: float) -> dict | None:
    """The longest stretch of the largest sizes (≥ 3) whose bandwidth changes by less than ``flat`` per doubling of
    the size at every step, within ``band`` (largest ÷ smallest) end to end, every point's job busy on its CPU
    (``busy``: each point's busy share, None where not busy): a byte level the job's CPU held. With it the rise below it
    (:func:`rise_into`). None where no such stretch is."""
    b, bw, iops = (np.asarray(v, float) for v in (b, bw, iops))
    n = b.size
    if n < 3 or not np.isfinite(bw).all() or (bw <= 0).any():
        return None
    m = n - 1
    while m > 0 and busy[m - 1] is not None and busy[m] is not None \
            and abs((bw[m] / bw[m - 1]) ** (1 / np.log2(b[m] / b[m - 1])) - 1) < flat \
            and bw[m - 1:].max() / bw[m - 1:].min() <= band:
        m -= 1
    if n - m < 3 or busy[m] is None:
        return None
    sh = [busy[k] for k in range(m, n)]
    with np.errstate(all="ignore"):
        per = (bw[m + 1:] / bw[m:-1]) ** (1 / np.log2(b[m + 1:] / b[m:-1])) - 1
    return {"x_from": float(b[m]), "x_to": float(b[-1]), "lo": float(bw[m:].min()), "hi": float(bw[m:].max()),
            "iops": (float(iops[m]), float(iops[-1])), "busy": (float(min(sh)), float(max(sh))),
            "per_max": float(per[np.argmax(np.abs(per))]), "points": int(n - m), "flat": float(flat),
            "rise": rise_into(b, bw, iops, m, float(bw[m:].min()), flat, step)}
