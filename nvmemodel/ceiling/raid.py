"""Software RAID (MD, Storage Spaces, RSTe-like): drive I/Os per host I/O, and the RAID layer's own limits.

A host I/O of ``S`` bytes with read fraction ``f`` becomes, on the drives, ``a`` drive I/Os of ``S_d`` bytes
with read fraction ``f_d`` (:func:`raid_transform`; docs/physics.md §12.2):

* striped levels (0, 5, 6, 10) split an I/O into chunk-sized pieces, ``S_d = min(S, chunk)``; RAID-1
  keeps ``S_d = S``; ``pieces = S / S_d``;
* a read costs ``pieces`` drive reads (degraded parity arrays: ``2 (W − 1) / W`` times that, a lost
  chunk being rebuilt from the ``W − 1`` others);
* a write costs ``pieces`` writes (RAID-0), ``2 × pieces`` (RAID-1/10), ``(1 + p) × pieces`` reads and as
  many writes for a small random write (read-modify-write, ``p`` = 1 parity for RAID-5, 2 for RAID-6),
  or ``pieces × W / (W − p)`` writes for sequential writes, which MD's stripe cache assembles into full
  stripes (an assumption: enough sequential data in flight).

Every limit that drives, links, switches, root complexes and sockets put on *drive* I/Os is divided by
``a`` to become a limit on host I/Os (:class:`nvmemodel.ceiling.system.Levels`): hence the textbook
small-write penalties, ``N × X / 4`` for RAID-5, ``/ 6`` for RAID-6, ``/ 2`` for RAID-10. Host-side costs
are the RAID layer's CPU cycles per I/O (added to the host CPU, :func:`nvmemodel.ceiling.derive.prepare`)
and the :data:`RAID_LAYER` component: its own I/O rate limit (a single thread or lock, e.g. MD's
``md_make_request`` path) and its parity computation rate.
"""

from __future__ import annotations

import numpy as np

from ..parameters import PARAMETERS
from .components import Component, Limit, everywhere, register

__all__ = ["LEVELS", "MIN_DRIVES", "RAID_LAYER", "describe_raid", "drive_side", "min_drives", "raid_transform"]

#: RAID levels in the order of the ``raid.level`` choices (codes).
LEVELS = PARAMETERS["raid.level"].choices
_R0, _R1, _R5, _R6, _R10 = (LEVELS.index(x) for x in ("raid0", "raid1", "raid5", "raid6", "raid10"))
#: Fewest drives each level can be built from (mdadm refuses fewer; RAID-10 as two mirrored pairs).
MIN_DRIVES = {"none": 1, "raid0": 2, "raid1": 2, "raid5": 3, "raid6": 4, "raid10": 4}


def min_drives(codes):
    """:data:`MIN_DRIVES` for ``raid.level`` codes, vectorized."""
    return np.array([MIN_DRIVES[x] for x in LEVELS], dtype=float)[np.asarray(codes, dtype=int)]


def _present(p) -> bool:
    return "raid.level" in p and not everywhere(p["raid.level"], 0.0)


def raid_transform(p):
    """``(a, S_d, f_d)``: drive I/Os per host I/O, drive I/O size (bytes) and drive-side read fraction.

    ``None`` where no configuration uses RAID (nothing to compute). Identity (1, S, f) where
    ``raid.level`` is ``none``.

    >>> from nvmemodel.ceiling.derive import prepare
    >>> import numpy as np
    >>> p = prepare({"raid.level": "raid5", "raid.width": 4, "raid.chunk_bytes": 524288, "raid.degraded": 0,
    ...              "workload.block_size": 4096, "workload.read_fraction": 0.0, "workload.random": 1})
    >>> [float(x) for x in raid_transform(p)]     # 4K random write on RAID-5: 2 reads + 2 writes
    [4.0, 4096.0, 0.5]
    """
    if not _present(p):
        return None
    level = np.asarray(p["raid.level"])
    S = np.asarray(p["workload.block_size"], dtype=float)
    f = np.asarray(p["workload.read_fraction"], dtype=float)
    W = np.asarray(p["raid.width"], dtype=float)
    striped = (level == _R0) | (level == _R5) | (level == _R6) | (level == _R10)
    S_d = np.where(striped, np.fmin(S, p["raid.chunk_bytes"]), S)
    pieces = S / S_d
    parity = np.where(level == _R5, 1.0, np.where(level == _R6, 2.0, 0.0))
    degraded = (np.asarray(p["raid.degraded"]) > 0) & (parity > 0)
    r_read = pieces * np.where(degraded, 2.0 * (W - 1.0) / W, 1.0)
    sequential = np.asarray(p["workload.random"]) == 0
    mirror = (level == _R1) | (level == _R10)
    w_write = np.where(parity > 0, np.where(sequential, pieces * W / np.fmax(W - parity, 1.0), (1 + parity) * pieces),
                       np.where(mirror, 2.0 * pieces, pieces))
    r_write = np.where((parity > 0) & ~sequential, (1 + parity) * pieces, 0.0)
    reads = f * r_read + (1 - f) * r_write
    writes = (1 - f) * w_write
    a = reads + writes
    none = level == 0
    return (np.where(none, 1.0, a), np.where(none, S, S_d), np.where(none, f, reads / a))


def describe_raid(params) -> str | None:
    """One sentence on what a RAID level does to the drives for this workload (None without RAID).

    ``params`` is a public parameter vector of one configuration (e.g. ``curve.parameters``).
    """
    from .derive import prepare

    keys = ("raid.level", "raid.width", "raid.chunk_bytes", "raid.degraded", "workload.block_size",
            "workload.read_fraction", "workload.random")
    if any(k not in params for k in keys) or params["raid.level"] == "none":
        return None
    t = raid_transform(prepare({k: params[k] for k in keys}))
    a, size, f = (float(x) for x in t)
    level = str(params["raid.level"]).upper().replace("RAID", "RAID-")
    small = {"RAID-5": " (a small write = 2 reads + 2 writes)", "RAID-6": " (a small write = 3 reads + 3 writes)",
             "RAID-1": " (every write twice)", "RAID-10": " (every write twice)"}.get(level, "")
    return (f"Software {level} of {int(params['raid.width'])}{small}: each host I/O costs {a:.3g} drive I/Os of "
            f"{size / 1024:g} KiB ({f:.0%} reads); every per-drive, switch, complex and socket limit is divided by "
            f"{a:.3g}.")


def drive_side(p, transform):
    """The parameter mapping as the drives see it: block size ``S_d`` and read fraction ``f_d``."""
    _, S_d, f_d = transform
    q = dict(p)
    q["workload.block_size"] = S_d
    q["workload.read_fraction"] = f_d
    return q


def _limit(p) -> Limit:
    if not _present(p):
        return Limit()
    level = np.asarray(p["raid.level"])
    S = np.asarray(p["workload.block_size"], dtype=float)
    f = np.asarray(p["workload.read_fraction"], dtype=float)
    parity = np.where(level == _R5, 1.0, np.where(level == _R6, 2.0, 0.0))  # RAID-6: two syndromes per byte
    with np.errstate(divide="ignore", invalid="ignore"):
        parity_iops = np.where((parity > 0) & (f < 1), p["raid.parity_bytes_per_s"] / (parity * (1 - f) * S), np.inf)
    x = np.fmin(p["raid.max_iops"], parity_iops)
    return Limit(system=np.where(level == 0, np.inf, x))


RAID_LAYER = register(Component(
    "raid_layer", "the software RAID layer (its thread/lock rate, parity computation)", 57, _limit,
    parameters=("raid.level", "raid.width", "raid.max_iops", "raid.parity_bytes_per_s", "raid.cycles_per_io"),
    summary="software RAID: its own I/O rate limit and parity computation", color="#1b9e77"))
