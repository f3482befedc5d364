"""Caps measured along block size at one fixed depth, where the size axis is itself a load axis: the I/Os queued at a
rate that did not follow their bytes (a per-I/O limit), or the bytes in flight grew at a byte rate that did not follow
them (a byte limit) — without a latency column, from the rates.

With D I/Os kept outstanding, Little's law gives each I/O's time as D ÷ IOPS. Along block size at that one depth:

* IOPS flat and fio's mean latency flat while each I/O carries ×4 or more the bytes: the time per I/O did not follow
  the bytes, so with D in flight (Little holding) the I/Os waited for a per-I/O turn, not for their transfer — a
  per-I/O limit, measured; a deeper queue adds only I/Os to a queue whose length already tracks the rate.
* bytes/s flat while the bytes in flight (D × size) grew by a large factor: the time per I/O (D ÷ IOPS) grew with the
  size at one byte rate — a byte limit, measured. Round 16's rule (cap_facts, WB) reads this from fio's latency; this
  one needs no latency column, and so asks for a larger growth, since Little's law cannot be checked.

Neither fires at one I/O outstanding (one stream: its latency is its transfer, and a second I/O may overlap it), at
a paced series (fio's rate/rate_iops: the pace speaks), or where the job's CPU was busy (the CPU claims speak).
"""

from __future__ import annotations

import numpy as np

from .fact_base import FLAT
from .wording import fmt_y, span

#: the fewest I/Os kept outstanding for a flat IOPS level along block size to be read as a per-I/O limit: a queue deep
#: enough that a wait for a turn, not a transfer, is the time per I/O (set after round 27 was read: HA, the EBS volumes
#: at 256 outstanding; a QD4 level (round 13 QC) stays "the rate at that depth")
PER_IO_DEPTH = 16
#: the growth of the size over the flat IOPS stretch with a flat latency that shows the time per I/O does not follow
#: the bytes: two doublings, as round 16's bytes-in-flight rule (set after round 27 was read: HA, ×16–×64)
PER_IO_SPAN = 4.0
#: Little's in-flight fraction (IOPS × mean latency ÷ outstanding) at or above which fio kept the depth outstanding
#: (set after round 27 was read: HA, 0.997–1.000; below it the submitter or a pace held the I/O, rounds 19/22)
LITTLE_MIN = 0.9
#: the growth of the bytes in flight over a flat byte stretch at one depth that shows a byte limit where no latency
#: column lets Little's law be checked: four doublings, ×4 the ×4 that round 16's rule asks with fio's latency (set
#: after round 27 was read: GD, r27_rocmxio_…_read_qd8x4jobs_bs, ×128 at 32 outstanding, 0.78–0.82 GB/s)
NO_LAT_INFLIGHT_GROWTH = 16.0


def per_io_wait(b, iops_level, means_i, lat, out, ni: int) -> dict | None:
    """The per-I/O limit of a flat IOPS stretch ``[:ni]`` at one depth (``out`` the same at each of its points, ≥
    PER_IO_DEPTH), or None: fio's mean latency ``lat`` within ±FLAT over sizes spanning ≥ PER_IO_SPAN, and Little's
    fraction ≥ LITTLE_MIN at each. The level is the median of the stretch (the kept-run levels ``iops_level``), each
    I/O's wait D ÷ level."""
    if ni < 3:
        return None
    b, lev, mi = (np.asarray(a, float)[:ni] for a in (b, iops_level, means_i))
    lat, out = np.asarray(lat, float)[:ni], np.asarray(out, float)[:ni]
    if not (np.isfinite(lat).all() and (lat > 0).all() and np.isfinite(out).all() and np.isfinite(lev).all()):
        return None
    if not (np.all(out == out[0]) and out[0] >= PER_IO_DEPTH) or b[-1] / b[0] < PER_IO_SPAN:
        return None
    little = mi * lat / out
    if little.min() < LITTLE_MIN or little.max() > 2 - LITTLE_MIN:
        return None
    if lat.max() > (1 + FLAT) * lat.min():  # the time per I/O grew with the bytes: a per-byte part (the byte rule)
        return None
    level = float(np.median(lev))
    return {"level": level, "depth": float(out[0]), "wait": float(out[0] / level), "lat": (float(lat.min()),
            float(lat.max())), "span": float(b[-1] / b[0]), "little": (float(little.min()), float(little.max()))}


#: the growth of the bytes in flight over a flat byte stretch that shows a byte limit where no latency column is given
#: but every worker ran one I/O at a time at a rate far below what it could issue: each had its one I/O in flight
#: nearly all of the time, so the depth is known without Little's law — the ×4 round 16's rule asks with fio's latency
#: (set after round 28 was read: LC, r28_hetznervol_…_python-buffered-randread-32threads_bs, 32 threads × 256 KiB →
#: 1 MiB at 0.230–0.238 GB/s said "not shown to be a cap (a deeper queue would tell)")
ONE_IO_GROWTH = 4.0
#: the I/Os a second one worker (a job at iodepth 1, or a synchronous engine's job) may make and still be read as
#: having its one I/O in flight nearly all of the time: a thread issues a read in a few µs of its own code, so at
#: under 1 K a second its own share of the time is ≲ 1 % (set after round 28 was read: LC, 7–27 reads/s a thread)
ONE_IO_RATE = 1000.0


def one_io_workers(result, p, means_i, depth: float) -> dict | None:
    """The workers of a stretch where each ran one I/O at a time (fio's iodepth 1 on every run, or a synchronous
    engine) at under :data:`ONE_IO_RATE` I/Os a second each — ``depth`` (the outstanding I/O, ≥ 2) of them: {"workers",
    "per_worker": (lowest, highest) I/O/s}; None otherwise, or where the rows are not at hand."""
    from .claim import runs_rows
    from .curves import synchronous
    from .fact_base import pd_num

    mi = np.asarray(means_i, float)
    if depth < 2 or not (np.isfinite(mi).all() and (mi > 0).all()) or "sources" not in p:
        return None
    rows = runs_rows(result, p)
    if rows is None or not len(rows):
        return None
    qd = pd_num(rows["iodepth"]) if "iodepth" in rows else None
    one = (qd is not None and bool((qd == 1).all())) or bool(synchronous(rows).all())
    per = mi / depth
    if not one or per.max() >= ONE_IO_RATE:
        return None
    return {"workers": float(depth), "per_worker": (float(per.min()), float(per.max()))}


def inflight_from_rates(b, means_i, depth: float, lat, workers: dict | None = None) -> dict | None:
    """The bytes in flight of a flat byte stretch at one depth ≥ 2 with no latency column (every ``lat`` missing), or
    None: their growth ≥ NO_LAT_INFLIGHT_GROWTH (≥ ONE_IO_GROWTH with ``workers``, :func:`one_io_workers`), and each
    I/O's time depth ÷ IOPS from Little's law, assumed."""
    b, mi, lat = (np.asarray(a, float) for a in (b, means_i, lat))
    if depth < 2 or b.size < 3 or np.isfinite(lat).any() or not (np.isfinite(mi).all() and (mi > 0).all()):
        return None
    grew = float(b[-1] / b[0])
    if grew < (ONE_IO_GROWTH if workers is not None else NO_LAT_INFLIGHT_GROWTH):
        return None
    return {"bytes": (depth * float(b[0]), depth * float(b[-1])), "growth": grew, "lat": None,
            "per_io": (float(depth / mi[0]), float(depth / mi[-1])), "little": None, "workers": workers}


def roof_misses(b, means_i, roof) -> list:
    """The sizes a roofline ``roof`` (min(IOPS level, byte level ÷ size)) misses by more than a model may and still be
    read (evidence.TRUST_MISS, issue 28 point 6): (size, measured IOPS, roofline IOPS) each (set after round 28 was
    read: LD, r28_hetznervol, 64 and 128 KiB 27 % under a roofline whose crossover was stated)."""
    from .evidence import TRUST_MISS

    b, mi, roof = (np.asarray(a, float) for a in (b, means_i, roof))
    with np.errstate(all="ignore"):
        miss = mi / roof - 1
    return [(float(b[k]), float(mi[k]), float(roof[k])) for k in range(b.size)
            if np.isfinite(miss[k]) and abs(miss[k]) > TRUST_MISS]


def inflight_bytes(v: float) -> str:
    """Bytes in flight as words: GiB from 1 GiB (r11 lisa QD8192: 2 GiB, not "2.05e+03 MiB"), else claim._bytes."""
    from .claim import _bytes

    return f"{v / 2 ** 30:.3g} GiB" if v >= 2 ** 30 else _bytes(v)


def per_io_words(w: dict) -> str:
    """"an IOPS limit of 4.16 K IOPS (their median), measured: each I/O waited 256 ÷ 4.16 K IOPS = 61.5 ms (fio's mean
    latency 58.2 ms–61.9 ms; IOPS × mean latency ÷ outstanding I/O 1.00) whatever its size (a ×64 span), …" — the
    per-I/O limit's words (round 27 HA)."""
    d = f"{w['depth']:.0f}"
    lo, hi = (f"{v:.2f}" for v in w["little"])
    return (f"an IOPS limit of {fmt_y(w['level'], '1/s')} (their median), measured: each I/O waited {d} ÷ "
            f"{fmt_y(w['level'], '1/s')} = {fmt_y(w['wait'], 's')} (fio's mean latency "
            f"{span(fmt_y(w['lat'][0], 's'), fmt_y(w['lat'][1], 's'))}; IOPS × mean latency ÷ outstanding I/O "
            f"{span(lo, hi)}) whatever its size (a ×{w['span']:.3g} span), so the I/Os queued for a per-I/O turn, "
            f"not for their transfer; a deeper queue would only lengthen that wait")
