"""Software RAID (MD, Storage Spaces, RSTe-like): drive I/Os per host I/O, and the RAID layer's own limits.

A host I/O of ``S`` bytes with read fraction ``f`` becomes, on the drives, ``a`` drive I/Os of ``S_d`` bytes
with read fraction ``f_d`` (:func:`raid_transform`; docs/physics.md §12.2):

* striped levels (0, 5, 6, 10) split an I/O into chunk-sized pieces, ``S_d = min(S, chunk)``; RAID-1
  keeps ``S_d = S``; ``pieces = S / S_d``;
* a read costs ``pieces`` drive reads (degraded parity arrays: ``2 (W − 1) / W`` times that, a lost
  chunk being rebuilt from the ``W − 1`` others);
* a write costs ``pieces`` writes (RAID-0), ``2 × pieces`` (RAID-10), ``W`` (RAID-1: md writes every member of a
  ``W``-way mirror), ``(1 + p) × pieces`` reads and as
  many writes for a small random write (read-modify-write, ``p`` = 1 parity for RAID-5, 2 for RAID-6),
  or ``pieces × W / (W − p)`` writes for sequential writes, which MD's stripe cache assembles into full
  stripes (an assumption: enough sequential data in flight), and for random writes of whole stripes.

Every limit that drives, links, switches, root complexes and sockets put on *drive* I/Os is divided by
``a`` to become a limit on host I/Os (:class:`nvmemodel.ceiling.system.Levels`): hence the textbook
small-write penalties, ``N × X / 4`` for RAID-5, ``/ 6`` for RAID-6, ``/ 2`` for RAID-10. Host-side costs
are the RAID layer's CPU cycles per I/O (added to the host CPU, :func:`nvmemodel.ceiling.derive.prepare`)
and the :data:`RAID_LAYER` component: its own I/O rate limit (a single thread or lock, e.g. MD's
``md_make_request`` path) and its parity computation rate.
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError
from ..parameters import PARAMETERS
from .components import Component, Limit, everywhere, register

__all__ = ["LEVELS", "MD_CYCLES_PER_IO", "MIN_DRIVES", "RAID_LAYER", "array_counts", "arrays_text", "check_degraded",
           "describe_raid", "drive_bytes_per_host_io", "drive_side", "min_drives", "raid_transform", "rebuild_traffic"]

#: RAID levels in the order of the ``raid.level`` choices (codes).
LEVELS = PARAMETERS["raid.level"].choices
_R0, _R1, _R5, _R6, _R10 = (LEVELS.index(x) for x in ("raid0", "raid1", "raid5", "raid6", "raid10"))
#: CPU cycles Linux MD adds per host I/O (for ``raid.cycles_per_io``; not the default, which charges nothing):
#: DERIVED from a CPU-bound MD RAID-0 — oberstet/scratchbox cruncher/sync-engines/sector-size-4096/
#: md-nvmes-psync-1024.log vs individual-nvmes-psync-1024.log (fio 2.17 psync 4K random reads, 1024 threads, 16
#: NVMe namespaces, 4 x Xeon E7-8880 v4 = 88 cores / 176 threads at 2.2 GHz base, kernel 4.8): 4.29 M IOPS with
#: 175.5 of 176 logical CPUs busy = 45,000 cycles per I/O at base clock, against 17,300 on the same devices
#: without MD (9.41 M IOPS, 148 busy). Measured on RAID-0 (a remap per I/O); a lower bound for RAID-5/6 writes;
#: it moves with sockets and kernel (docs/physics.md §12.3).
MD_CYCLES_PER_IO = 27_700.0
#: Fewest drives each level can be built from (mdadm refuses fewer; RAID-10 as two mirrored pairs).
MIN_DRIVES = {"none": 1, "raid0": 2, "raid1": 2, "raid5": 3, "raid6": 4, "raid10": 4}
#: Failed members per array each level survives (RAID-1 of W members: W − 1, see check_degraded; RAID-10 with both
#: in different pairs).
_TOLERATES = {"none": 0, "raid0": 0, "raid1": 1, "raid5": 1, "raid6": 2, "raid10": 2}


def array_counts(level: str, width, drives) -> tuple[list[int], list[int]]:
    """``(whole, partial)``: the drive counts that are whole arrays of ``width`` members of RAID ``level`` and the
    others (a count below one array holds none; above, the drives beyond the last whole array are in none).
    :class:`ParameterError` naming ``raid.width`` where the level needs more members per array (:data:`MIN_DRIVES`:
    mdadm builds no RAID-5 of fewer than 3, no RAID-6 of fewer than 4). Without RAID every count is whole.

    >>> array_counts("raid5", 4, range(1, 9))      # ION's two arrays of 4: 3 drives hold no RAID-5 of 4
    ([4, 8], [1, 2, 3, 5, 6, 7])
    """
    counts = [int(n) for n in drives]
    if level == "none":
        return counts, []
    w = int(width)
    if w < MIN_DRIVES[level]:
        raise ParameterError("raid.width", w, f"at least {MIN_DRIVES[level]} members per array for {level} (mdadm "
                                              f"builds no smaller {level.replace('raid', 'RAID-')})")
    return [n for n in counts if n % w == 0], [n for n in counts if n % w]


def arrays_text(level: str, width, drives: int) -> str:
    """"2 arrays of 4" (``drives`` = 8): how many arrays the drives form.

    >>> arrays_text("raid5", 4, 8), arrays_text("raid6", 6, 6)
    ('2 arrays of 4', '1 array of 6')
    """
    k = int(drives) // int(width)
    return f"{k} array{'s' * (k != 1)} of {int(width)}"


def min_drives(codes):
    """:data:`MIN_DRIVES` for ``raid.level`` codes, vectorized."""
    return np.array([MIN_DRIVES[x] for x in LEVELS], dtype=float)[np.asarray(codes, dtype=int)]


def _present(p) -> bool:
    return "raid.level" in p and not everywhere(p["raid.level"], 0.0)


def _counts(level, W, lost, random, pieces):
    """Drive I/Os per host read and per host write, ``(r_read, r_write, w_write)``, summed over an array's members.

    ``lost`` failed members per array (0, 1, 2). Per case (the parity-RAID counts of Holland & Gibson 1992,
    docs/physics.md §12.2), averaged over the roles the failed member plays in a stripe — a rotated parity
    layout puts it on every role equally often.
    """
    r5, r6 = level == _R5, level == _R6
    parity = np.where(r5, 1.0, np.where(r6, 2.0, 0.0))
    mirror = (level == _R1) | (level == _R10)
    l1, l2 = lost == 1, lost == 2
    # reads: a chunk on a failed member is rebuilt from W - p survivors (RAID-6 with two lost: all W - 2);
    # a sequential read reads every survivor of the stripe: one drive read per chunk whatever is lost.
    rebuild_read = np.where(random, 1.0 - lost / W + lost / W * (W - parity), 1.0)
    r_read = pieces * np.where(parity > 0, rebuild_read, 1.0)
    # small random writes. RAID-5, one lost: parity lost (1/W) 1 write; target lost (1/W) W-2 reads + 1 write
    # (reconstruct-write); another data chunk lost 2 + 2 (read-modify-write).
    r5_reads, r5_writes = 3 * (W - 2) / W, 2 * (W - 1) / W
    # RAID-6, one lost: P or Q lost (2/W) 2 + 2; target lost (1/W) W-3 reads + 2 writes; other data 3 + 3.
    r6_reads1, r6_writes1 = 4 * (W - 2) / W, 3 * (W - 1) / W
    # RAID-6, two lost, over the W(W-1)/2 pairs of roles: {P,Q} 1 write; {P|Q, target} W-3 reads + 1 write;
    # {P|Q, other} 2 + 2; {target, other} W-2 reads + 2 writes; {other, other} 3 + 3.
    pairs = W * (W - 1) / 2
    others2 = (W - 3) * (W - 4) / 2
    r6_reads2 = (2 * (W - 3) + 4 * (W - 3) + (W - 3) * (W - 2) + 3 * others2) / pairs
    r6_writes2 = (1 + 2 + 4 * (W - 3) + 2 * (W - 3) + 3 * others2) / pairs
    small_reads = np.where(r5, np.where(l1, r5_reads, 2.0),
                           np.where(r6, np.where(l2, r6_reads2, np.where(l1, r6_reads1, 3.0)), 0.0))
    small_writes = np.where(r5, np.where(l1, r5_writes, 2.0),
                            np.where(r6, np.where(l2, r6_writes2, np.where(l1, r6_writes1, 3.0)), 0.0))
    # sequential writes: full stripes (MD's stripe cache), W - p data chunks cost the W - lost chunks still there
    full_stripe = (W - lost) / np.fmax(W - parity, 1.0)
    # a random write of whole stripes is a large write too (PGK88): fio aligns random offsets to the block size,
    # so k stripes' worth of data covers k whole stripes. (Writes of several chunks that are not whole stripes
    # are still counted chunk by chunk as small writes: an overcount, docs/physics.md §12.2.)
    data = np.fmax(W - parity, 1.0)
    small = random & ~((pieces >= data) & (np.mod(pieces, data) == 0))
    # md RAID-1 writes every member still there (raid1.c: one bio per mirror; a W-way mirror, md(4)); RAID-10's
    # near-2 layout writes each chunk's two copies
    w_write = pieces * np.where(parity > 0, np.where(small, small_writes, full_stripe),
                                np.where(level == _R1, W - lost, np.where(mirror, 2.0, 1.0)))
    r_write = pieces * np.where((parity > 0) & small, small_reads, 0.0)
    return r_read, r_write, w_write


def check_degraded(level, lost, rebuild=None, width=None) -> None:
    """Refuse failures an array does not survive (RAID-0: none; RAID-1: all members but one (a W-way mirror; one
    without ``width``); RAID-5: one; RAID-6: two; RAID-10: two, in different pairs, so at most ``width // 2``)
    and a rebuild without a failed member. Raises
    :class:`ParameterError` naming ``raid.degraded``/``raid.rebuild``."""
    level, lost = np.asarray(level), np.asarray(lost)
    tolerated = np.array([_TOLERATES[x] for x in LEVELS])[level.astype(int)]
    if width is not None:
        tolerated = np.where(level == _R10, np.fmin(tolerated, np.floor(np.asarray(width) / 2)), tolerated)
        tolerated = np.where(level == _R1, np.asarray(width) - 1, tolerated)
    bad = lost > tolerated
    if np.any(bad):
        i = np.argmax(np.broadcast_to(bad, np.broadcast_shapes(bad.shape, lost.shape)).ravel())
        code = int(np.broadcast_to(level, bad.shape).ravel()[i])
        most = int(np.broadcast_to(tolerated, bad.shape).ravel()[i])
        raise ParameterError("raid.degraded", int(np.broadcast_to(lost, bad.shape).ravel()[i]),
                             f"at most {most} failed member(s) per array for {LEVELS[code]} of this width "
                             "(more and the array has lost data)")
    if rebuild is not None and np.any((np.asarray(rebuild) > 0) & (lost == 0) & (level != 0)):
        raise ParameterError("raid.rebuild", 1, "0 unless raid.degraded >= 1 (a rebuild needs a failed member)")


def _check_level_set(p) -> None:
    """Failed or rebuilding members need an array: refuse ``raid.degraded``/``raid.rebuild`` where ``raid.level``
    is none (they were ignored, and a "degraded" set of plain drives evaluated as healthy)."""
    level = np.asarray(p.get("raid.level", 0.0))
    for name in ("raid.degraded", "raid.rebuild"):
        x = p.get(name)
        if x is None or everywhere(x, 0.0):
            continue
        bad = (np.asarray(x) > 0) & (level == 0)
        if np.any(bad):
            raise ParameterError(name, float(np.broadcast_to(x, bad.shape)[bad].flat[0]),
                                 "0 where raid.level is none (set raid.level to the array's level: members fail "
                                 "and rebuild only in a RAID array)")


def raid_transform(p):
    """``(a, S_d, f_d)``: drive I/Os per host I/O, drive I/O size (bytes) and drive-side read fraction.

    ``None`` where no configuration uses RAID (nothing to compute). Identity (1, S, f) where
    ``raid.level`` is ``none``. ``a`` is the load of the *busiest* member per host I/O times the array's
    width, so that ``n`` drives × a per-drive limit ÷ ``a`` is the array's ceiling: with members lost, the
    survivors carry everything (parity levels spread it evenly over them; a mirror's lone survivor carries
    its pair); during a rebuild each survivor also gives ``raid.rebuild_bytes_per_s`` of its sequential
    read time to the rebuild (docs/physics.md §12.2).

    >>> from nvmemodel.ceiling.derive import prepare
    >>> import numpy as np
    >>> p = prepare({"raid.level": "raid5", "raid.width": 4, "raid.chunk_bytes": 524288, "raid.degraded": 0,
    ...              "workload.block_size": 4096, "workload.read_fraction": 0.0, "workload.random": 1})
    >>> [float(x) for x in raid_transform(p)]     # 4K random write on RAID-5: 2 reads + 2 writes
    [4.0, 4096.0, 0.5]
    >>> p["raid.degraded"] = np.float64(1)        # one of 4 lost: 1.5 reads + 1.5 writes on 3 survivors
    >>> [float(x) for x in raid_transform(p)]
    [4.0, 4096.0, 0.5]
    """
    _check_level_set(p)
    if not _present(p):
        return None
    level, S, f, W, lost, S_d = _geometry(p)
    rebuild = p.get("raid.rebuild")
    check_degraded(level, lost, rebuild, W)
    pieces = S / S_d
    r_read, r_write, w_write = _counts(level, W, lost, np.asarray(p["workload.random"]) != 0, pieces)
    reads = f * r_read + (1 - f) * r_write
    writes = (1 - f) * w_write
    total = reads + writes
    mirror = (level == _R1) | (level == _R10)
    # busiest member x width: parity levels spread the load over W - lost survivors; a RAID-10 pair with a
    # lost member leaves its partner 2/W of all drive I/O (every read and write of the pair) → 2 per piece; a
    # RAID-1 survivor reads 1/(W - lost) of the reads and writes every write
    with np.errstate(divide="ignore", invalid="ignore"):  # W - lost = 0 only in the mirror branch
        r1_lost = W * (f / (W - lost) + (1 - f)) * pieces
        a = np.where(lost > 0, np.where(level == _R1, r1_lost, np.where(mirror, 2.0 * pieces,
                                                                        total * W / (W - lost))), total)
    if rebuild is not None and not everywhere(rebuild, 0.0):
        a = a / (1.0 - _rebuild_share(p, level, lost))
    none = level == 0
    return (np.where(none, 1.0, a), np.where(none, S, S_d), np.where(none, f, reads / total))


def drive_bytes_per_host_io(p):
    """Bytes the drives move per host I/O (every drive read and write × ``S_d``), ``None`` without RAID.

    Unlike ``a · S_d`` from :func:`raid_transform` — where ``a`` is the busiest member's load × the width,
    inflated where members are lost or rebuilding — this counts bytes, for DMA and inter-socket traffic.

    >>> from nvmemodel.ceiling.derive import prepare
    >>> p = prepare({"raid.level": "raid5", "raid.width": 4, "raid.chunk_bytes": 524288, "raid.degraded": 1,
    ...              "workload.block_size": 4096, "workload.read_fraction": 1.0, "workload.random": 1})
    >>> float(drive_bytes_per_host_io(p)), float(raid_transform(p)[0]) * 4096   # 1.5 reads vs a = 2
    (6144.0, 8192.0)
    """
    if not _present(p):
        return None
    level, S, f, W, lost, S_d = _geometry(p)
    r_read, r_write, w_write = _counts(level, W, lost, np.asarray(p["workload.random"]) != 0, S / S_d)
    mirror_lost = (level == _R10) & (lost > 0)
    # a RAID-10 pair with a lost member writes once instead of twice: 2 - 2L/W writes per chunk on average (as in
    # raid_transform, whose partner carries 2/W of the I/O); RAID-1's W - lost writes are counted in _counts
    w_write = np.where(mirror_lost, w_write * (1.0 - lost / W), w_write)
    drive_ios = f * r_read + (1 - f) * (r_write + w_write)
    return np.where(level == 0, S, drive_ios * S_d)


def _geometry(p):
    """``(level, S, f, W, lost, S_d)``: level codes, host I/O size, read fraction, width, members lost
    (0 without RAID) and the size of one drive I/O (a chunk at most on striped levels). Sequential writes on RAID-5/6
    (write-only workloads) with ``raid.stripe_batching`` reach the members as whole chunks: MD batches adjacent
    full-stripe writes, a batch never crossing a chunk boundary ("IO size to under layer disk is exactly 32k" with
    32k chunks; Linux commit 59fc630b, 'RAID5: batch adjacent full stripe write', Linux 4.1), so ``S_d`` is the chunk
    and a host write is ``S / chunk`` of a stripe's member writes (docs/physics.md §12.2)."""
    level = np.asarray(p["raid.level"])
    S = np.asarray(p["workload.block_size"], dtype=float)
    f = np.asarray(p["workload.read_fraction"], dtype=float)
    W = np.asarray(p["raid.width"], dtype=float)
    lost = np.where(level == 0, 0.0, np.asarray(p.get("raid.degraded", 0.0), dtype=float))
    striped = (level == _R0) | (level == _R5) | (level == _R6) | (level == _R10)
    chunk = p["raid.chunk_bytes"]
    S_d = np.where(striped, np.fmin(S, chunk), S)
    batching = np.asarray(p.get("raid.stripe_batching", 0.0)) > 0
    if np.any(batching):  # write-only sequential streams on parity levels: whole-chunk member writes
        merged = batching & ((level == _R5) | (level == _R6)) & (np.asarray(p["workload.random"]) == 0) & (f == 0)
        S_d = np.where(merged, np.fmax(S_d, chunk), S_d)
    return level, S, f, W, lost, S_d


def _times(width) -> str:
    words = {1: "once", 2: "twice", 3: "three times", 4: "four times", 5: "five times", 6: "six times",
             7: "seven times", 8: "eight times", 9: "nine times"}
    return words.get(int(width), f"{int(width)} times")


def _rebuild_share(p, level, lost):
    """Share of a surviving member's time the rebuild takes: ``r / (its sequential read rate)``; 0 where no
    rebuild runs or the drive's sequential read rate is unknown (not charged, said in the docs)."""
    on = (np.asarray(p["raid.rebuild"]) > 0) & (lost > 0) & (level != 0)
    r = np.asarray(p["raid.rebuild_bytes_per_s"], dtype=float)
    seq = np.asarray(p.get("drive.seq_read_bytes_per_s", np.nan), dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        u = np.where(on & np.isfinite(seq), r / seq, 0.0)
    if np.any(u >= 1.0):
        first = float(np.broadcast_to(r, u.shape)[u >= 1.0].flat[0])
        raise ParameterError("raid.rebuild_bytes_per_s", first,
                             "below the drive's sequential read rate (drive.seq_read_bytes_per_s): a rebuild "
                             "cannot read a member faster than the drive reads")
    return u


def describe_raid(params, drives: int | None = None) -> str | None:
    """One sentence on what a RAID level does to the drives for this workload (None without RAID).

    ``params`` is a public parameter vector of one configuration (e.g. ``curve.parameters``); with ``drives`` the
    sentence says how many arrays they form ("Software RAID-5, 2 arrays of 4").
    """
    from .derive import prepare

    keys = ("raid.level", "raid.width", "raid.chunk_bytes", "raid.degraded", "workload.block_size",
            "workload.read_fraction", "workload.random")
    if any(k not in params for k in keys) or params["raid.level"] == "none":
        return None
    extra = ("raid.rebuild", "raid.rebuild_bytes_per_s", "drive.seq_read_bytes_per_s", "raid.stripe_batching")
    p = prepare({k: params[k] for k in keys + extra if k in params})
    t = raid_transform(p)
    a, size, f = (float(x) for x in t)
    level = str(params["raid.level"]).upper().replace("RAID", "RAID-")
    lost = int(params.get("raid.degraded", 0))
    small = {"RAID-5": " (a small write = 2 reads + 2 writes)", "RAID-6": " (a small write = 3 reads + 3 writes)",
             "RAID-1": f" (every write {_times(params['raid.width'])}: a {int(params['raid.width'])}-way mirror)",
             "RAID-10": " (every write twice)"}.get(level, "") if not lost else \
        f", {lost} member{'s' if lost > 1 else ''} lost per array"
    code, S, _, W, gone, S_d = _geometry(p)
    r_write = _counts(code, W, gone, np.asarray(p["workload.random"]) != 0, S / S_d)[1]
    if level in ("RAID-5", "RAID-6") and not lost and float(params["workload.read_fraction"]) < 1 \
            and float(r_write) == 0:  # these writes fill whole stripes: the small-write penalty does not apply
        small = (" (writes assumed to fill whole stripes — sequential writes with enough data in flight for md's "
                 "stripe cache, or writes of a whole stripe each: no read-modify-write)")
        if size > float(params["workload.block_size"]):  # batched into whole-chunk member writes (raid.stripe_batching)
            small = (" (sequential writes fill whole stripes, which md batches into whole-chunk member writes — Linux "
                     "4.1 and later, raid.stripe_batching: no read-modify-write)")
    if lost and params.get("raid.rebuild", 0):
        small += (f", rebuilding at {float(params['raid.rebuild_bytes_per_s']) / 1e6:.4g} MB/s per member "
                  "(taken from the survivors' time)")
    # a healthy array spreads its drive I/Os evenly; a degraded or rebuilding one is limited by its busiest
    # member, so ``a`` is then that member's load × the width, not the sum — say which
    busiest = " on the busiest member × the width" if lost else ""
    # a = 1 (reads of a healthy array, one chunk each): nothing is divided, so say only what the drives see
    divided = (f"; every per-drive, switch, complex and socket limit is divided by {a:.3g}" if round(float(a), 3) != 1
               else "")
    arrays = f" of {int(params['raid.width'])}" if drives is None else \
        f", {arrays_text(str(params['raid.level']), params['raid.width'], drives)}"
    return (f"Software {level}{arrays}{small}: each host I/O costs {a:.3g} drive "
            f"I/O{'s' * (round(float(a), 3) != 1)} of {size / 1024:g} KiB ({f:.0%} reads){busiest}{divided}.")


def rebuild_traffic(level: str, width: int, lost: int, rate_bytes_per_s: float) -> tuple[float, float]:
    """``(read, written)`` bytes per second one rebuilding array puts on its members.

    A parity array reads every survivor (``W − lost``) at the rebuild rate and writes each replacement;
    a mirror reads the lost member's partner and writes the replacement (docs/physics.md §12.2).

    >>> rebuild_traffic("raid5", 4, 1, 204.8e6)      # MD's speed_limit_max: 3 survivors read, 1 written
    (614400000.0, 204800000.0)
    """
    check_degraded(np.asarray(float(LEVELS.index(level))), np.asarray(float(lost)), width=width)
    if level in ("raid1", "raid10"):
        return lost * rate_bytes_per_s, lost * rate_bytes_per_s
    if level in ("raid5", "raid6"):
        return (width - lost) * rate_bytes_per_s if lost else 0.0, lost * rate_bytes_per_s
    return 0.0, 0.0


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
