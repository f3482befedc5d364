"""The drive's own limit: spec-sheet IOPS and bandwidth, by block size and read/write mix."""

from __future__ import annotations

import math

import numpy as np

from . import ops
from .components import Component, Limit, register

__all__ = ["DRIVE", "drive_iops", "in_flight_depth", "unknown_drive_fields"]


def drive_iops(block_size, read_fraction, rand_read_iops, rand_write_iops,
               seq_read_bytes_per_s, seq_write_bytes_per_s):
    """IOPS ceiling of one drive; NaN limits are ignored (treated as infinite).

    Per direction the lower of the command-rate limit and the bandwidth limit binds,
    ``X_dir = min(IOPS_dir, BW_dir / S)``; a read/write mix combines them harmonically,
    ``1/X = f/X_read + (1 − f)/X_write``, because each read and each write occupies the
    drive for ``1/X_read`` and ``1/X_write`` seconds of its capacity.

    >>> float(drive_iops(131072, 1.0, 1.45e6, 2.6e5, 6.4e9, 3.8e9))   # 6.4 GB/s / 128 KiB
    48828.125
    """
    # fmin ignores a NaN (unknown) operand; both unknown stays NaN and is read as no limit below
    x_read = ops.fmin(rand_read_iops, seq_read_bytes_per_s / block_size)
    x_write = ops.fmin(rand_write_iops, seq_write_bytes_per_s / block_size)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = ops.fmax(read_fraction / x_read, 0.0) + ops.fmax((1.0 - read_fraction) / x_write, 0.0)
        return 1.0 / inv


#: The drive fields, per direction, and how texts name them.
_FIELDS = ((True, "drive.rand_read_iops", "4K random-read IOPS"),
           (True, "drive.seq_read_bytes_per_s", "sequential read bandwidth"),
           (False, "drive.rand_write_iops", "4K random-write IOPS"),
           (False, "drive.seq_write_bytes_per_s", "sequential write bandwidth"))


def unknown_drive_fields(p) -> tuple[str, ...]:
    """The drive's spec-sheet limits this workload needs but the catalog does not know (NaN), by name.

    :func:`drive_iops` leaves an unknown limit out, so the drive's ceiling then rests on the other field alone
    (a 4K write IOPS times 256 KiB, a sequential bandwidth over 4 KiB): an upper bound, not a spec value.

    >>> unknown_drive_fields({"workload.read_fraction": 0.0, "workload.block_size": 262144.0, "drive.rand_read_iops": float("nan"),
    ...     "drive.seq_read_bytes_per_s": 3e9, "drive.rand_write_iops": 3.25e5, "drive.seq_write_bytes_per_s": float("nan")})
    ('sequential write bandwidth',)
    """
    if "drive.rand_read_iops" not in p or "workload.read_fraction" not in p:
        return ()
    one = _scalars(p, ("workload.read_fraction", "workload.block_size", *(name for _, name, _ in _FIELDS)))
    # one configuration (the planner's upper-bound sentences, some 200 a plan) stays in Python floats: the same
    # tests, without NumPy's cost per call on a scalar
    f = p["workload.read_fraction"] if one else np.asarray(p["workload.read_fraction"], dtype=float)
    size = p.get("workload.block_size", 4096.0) if one else np.asarray(p.get("workload.block_size", 4096.0), dtype=float)
    out = []
    for reads, name, words in _FIELDS:
        # a sheet rates IOPS at 4 KiB and bandwidth at 128 KiB: above 4 KiB the bandwidth may bind, below
        # 128 KiB the IOPS may; outside its range a field's absence changes nothing a sheet could tell
        needed = _any(size > 4096) if "seq_" in name else _any(size < 131072)
        used = _any(f > 0) if reads else _any(f < 1)
        if needed and used and (math.isnan(p[name]) if one else np.any(np.isnan(np.asarray(p[name], dtype=float)))):
            out.append(words)
    if _latency_may_bind(p, f):
        out.append("QD1 latency (Little's law at this queue depth may bind)")
    return tuple(out)


#: The fastest QD1 read latency in the drive catalog (Intel Optane P5800X, 6 us; tests/ceiling/test_drive_unknown_fields.py
#: checks it is the catalog's minimum): no catalog drive answers one I/O faster.
FASTEST_QD1_S = 6e-6

#: The slowest QD1 latencies in the drive catalog, per direction (reads: Intel P4500, 115 us; writes: Samsung PM983,
#: 50 us; tests/ceiling/test_drive_unknown_fields.py checks they are the catalog's maxima). A drive whose latency is
#: unknown may answer as slowly as a catalog drive does: where N in flight / this latency lies below the drive's
#: rating, Little's law MAY bind below the rating (QA s25 H39: with the fastest latency the test only found where it
#: certainly binds, and a NAND drive at QD32 x 1 job kept 1.45 M IOPS with no word; docs/physics.md §6).
SLOWEST_QD1_READ_S = 115e-6
SLOWEST_QD1_WRITE_S = 50e-6


def in_flight_depth(iodepth, io_stack):
    """I/Os in flight per job: ``iodepth``, but 1 (where finite) for a synchronous stack, which keeps one I/O in
    flight per job whatever iodepth says (fio: iodepth does not affect synchronous engines; QA round 5, G4).
    ``io_stack``: names or ``workload.io_stack`` codes (None: iodepth as given)."""
    depth = np.asarray(iodepth, dtype=float)
    if io_stack is None:
        return depth
    from ..parameters import PARAMETERS

    psync = "psync" if isinstance(io_stack, str) else PARAMETERS["workload.io_stack"].choices.index("psync")
    return np.where((np.asarray(io_stack) == psync) & np.isfinite(depth), 1.0, depth)


def _any(v) -> bool:
    """``v`` (a comparison's result) holds anywhere: NumPy's any for an array, plain truth for one bool."""
    return bool(v.any()) if isinstance(v, np.ndarray) else bool(v)


def _scalars(p, keys) -> bool:
    """Whether each of ``keys`` in ``p`` (where present) is one number: a Python float or int (NumPy's float64 is one)."""
    return all(type(p[k]) in (float, int, np.float64) for k in keys if k in p)


def _latency_may_bind(p, f) -> bool:
    """Whether the drive's QD1 latency, unknown here, may make Little's law bind below the drive's own rating at this
    workload's I/Os in flight per drive (QA round 5, G5: 1.45 M IOPS at QD1 with no word): an unknown latency is
    taken as the catalog's slowest of its direction (:data:`SLOWEST_QD1_READ_S`, :data:`SLOWEST_QD1_WRITE_S`; a known
    one as it is), mixed by read fraction as the model mixes them, and ``N / R < rating`` says it may bind (QA s25
    H39: the catalog's fastest latency only found where it certainly binds)."""
    keys = ("drive.read_latency_s", "drive.write_latency_s", "workload.iodepth", "workload.numjobs",
            "workload.per_drive", "workload.block_size")
    if any(k not in p for k in keys):
        return False
    # (one test for one configuration and for arrays: most drives' latencies are known, so most calls end here)
    if not np.all(np.asarray(p["workload.per_drive"]) > 0):
        return False
    read, write = p["drive.read_latency_s"], p["drive.write_latency_s"]
    if not ((_any(f > 0) and _any(np.isnan(read))) or (_any(f < 1) and _any(np.isnan(write)))):
        return False
    f = np.asarray(f, dtype=float)
    read, write = np.asarray(read, float), np.asarray(write, float)
    read, write = np.where(np.isnan(read), SLOWEST_QD1_READ_S, read), np.where(np.isnan(write), SLOWEST_QD1_WRITE_S, write)
    r = np.where(f >= 1, read, np.where(f <= 0, write, f * read + (1 - f) * write))
    x = drive_iops(p["workload.block_size"], f, p["drive.rand_read_iops"], p["drive.rand_write_iops"],
                   p["drive.seq_read_bytes_per_s"], p["drive.seq_write_bytes_per_s"])
    n = in_flight_depth(p["workload.iodepth"], p.get("workload.io_stack")) * np.asarray(p["workload.numjobs"], float)
    with np.errstate(invalid="ignore"):
        return bool(np.any(np.isfinite(x) & (n / r < x)))


def _limit(p) -> Limit:
    return Limit(drive=drive_iops(p["workload.block_size"], p["workload.read_fraction"], p["drive.rand_read_iops"],
                                  p["drive.rand_write_iops"], p["drive.seq_read_bytes_per_s"],
                                  p["drive.seq_write_bytes_per_s"]))


DRIVE = register(Component(
    "drive", "the drives' own limit (spec sheet)", 10, _limit,
    parameters=("drive.rand_read_iops", "drive.rand_write_iops", "drive.seq_read_bytes_per_s",
                "drive.seq_write_bytes_per_s"),
    summary="the drive's spec-sheet IOPS / bandwidth", color="#4c72b0"))
