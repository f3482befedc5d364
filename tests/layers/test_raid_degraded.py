"""Degraded RAID (failed members) and rebuild traffic (docs/physics.md §12.2) against textbook counts.

Textbook cases (Holland & Gibson, "Parity Declustering for Continuous Operation in Redundant Disk Arrays",
ASPLOS 1992, degraded-mode accesses; Patterson, Gibson & Katz 1988 for the fault-free small write):

* fault-free RAID-5 small write: 2 reads + 2 writes;
* degraded: a write whose parity unit is on the failed disk is 1 write; a write to the failed disk's data
  is a reconstruct-write, G − 2 reads + 1 write; any other small write is the usual 2 + 2;
* a read of the failed disk's data reads the G − 1 survivors of its stripe, so a degraded RAID-5 gives
  half its fault-free small-read throughput, whatever its width.

MD's rebuild rates: ``speed_limit_min`` 1000 and ``speed_limit_max`` 200000 (drivers/md/md.c), in
kibibytes per second (Documentation/admin-guide/md.rst, ``sync_speed_min``/``sync_speed_max``).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.derive import prepare
from nvmemodel.ceiling.raid import drive_bytes_per_host_io, raid_transform, rebuild_traffic
from nvmemodel.errors import ParameterError
from nvmemodel.parameters import PARAMETERS

from .test_raid import DELL, FLAT, X, iops  # the textbook's symmetric drive on the Dell host


def counts(level, width, lost, read_fraction, random=1, block=4096):
    """(drive reads, drive writes) per host I/O summed over the array, from the transform's a and f_d."""
    p = prepare({"raid.level": level, "raid.width": width, "raid.chunk_bytes": 524288, "raid.degraded": lost,
                 "workload.block_size": block, "workload.read_fraction": read_fraction, "workload.random": random})
    a, _, f_d = (float(x) for x in raid_transform(p))
    total = a * (width - lost) / width  # a is the busiest survivor's load x the width; parity arrays: balanced
    return total * f_d, total * (1 - f_d)


def enumerate_small_write(parity, width, lost):
    """Brute force over every placement of the lost members among a stripe's roles (P, Q, data …): the cheapest
    way to write one data unit with the rules of the textbook (read-modify-write while the target and a parity
    survive; otherwise reconstruct-write from the surviving data, reading parities to rebuild lost data)."""
    roles = ["P", "Q"][:parity] + [f"D{i}" for i in range(width - parity)]
    target = "D0"
    reads = writes = 0
    cases = list(itertools.combinations(roles, lost))
    for gone in cases:
        gone = set(gone)
        parities = [r for r in roles[:parity] if r not in gone]
        lost_data = [r for r in roles[parity:] if r in gone and r != target]
        if target not in gone:
            if parities:  # read-modify-write: old data + surviving parities, write them back
                reads += 1 + len(parities)
                writes += 1 + len(parities)
            else:
                writes += 1
        else:  # reconstruct-write: every other surviving data unit (+ parities to rebuild lost data units)
            others = [r for r in roles[parity:] if r != target and r not in gone]
            reads += len(others) + (len(parities) if lost_data else 0)
            writes += len(parities)
    return reads / len(cases), writes / len(cases)


# --------------------------------------------------------------------------- textbook counts
def test_raid5_one_lost_small_write_textbook_cases():
    # W = 4: parity lost (1/4): 1 write; target lost (1/4): 2 reads + 1 write; else (2/4): 2 + 2.
    reads, writes = counts("raid5", 4, 1, 0.0)
    assert reads == pytest.approx((0 + 2 + 2 * 2) / 4, rel=1e-12)   # 1.5
    assert writes == pytest.approx((1 + 1 + 2 * 2) / 4, rel=1e-12)  # 1.5
    healthy = counts("raid5", 4, 0, 0.0)
    assert healthy == (pytest.approx(2.0), pytest.approx(2.0))


@pytest.mark.parametrize("level, parity, lost", [("raid5", 1, 1), ("raid6", 2, 1), ("raid6", 2, 2),
                                                 ("raid5", 1, 0), ("raid6", 2, 0)])
@pytest.mark.parametrize("width", [4, 5, 6, 8, 12])
def test_small_write_counts_equal_a_brute_force_over_failed_roles(level, parity, lost, width):
    expected = enumerate_small_write(parity, width, lost)
    got = counts(level, width, lost, 0.0)
    assert got == (pytest.approx(expected[0], rel=1e-12), pytest.approx(expected[1], rel=1e-12))


@pytest.mark.parametrize("width", [3, 4, 6, 8])
def test_degraded_raid5_reads_half_the_fault_free_rate_at_any_width(width):
    n = 2 * width
    healthy, _ = iops(FLAT, nm.Workload("randread", "4K"), n, **{"raid.level": "raid5", "raid.width": width})
    degraded, binding = iops(FLAT, nm.Workload("randread", "4K"), n, **{"raid.level": "raid5", "raid.width": width,
                                                                        "raid.degraded": 1})
    assert binding == "drive" and degraded == pytest.approx(healthy / 2, rel=1e-12)


def test_doubly_degraded_raid6_reads_a_third():
    # two lost of W: 2/W of the chunks need all W - 2 survivors: 3 (W - 2)/W reads on W - 2 drives → a third
    healthy, _ = iops(FLAT, nm.Workload("randread", "4K"), 12, **{"raid.level": "raid6", "raid.width": 6})
    got, _ = iops(FLAT, nm.Workload("randread", "4K"), 12, **{"raid.level": "raid6", "raid.width": 6,
                                                              "raid.degraded": 2})
    assert got == pytest.approx(healthy / 3, rel=1e-12)


def test_degraded_raid5_small_writes_on_the_survivors():
    # W = 4: 3 drive I/Os per host write on 3 survivors = 1 per survivor, as healthy (4 on 4): the same rate.
    wl = nm.Workload("randwrite", "4K")
    healthy, _ = iops(FLAT, wl, 8, **{"raid.level": "raid5"})
    degraded, _ = iops(FLAT, wl, 8, **{"raid.level": "raid5", "raid.degraded": 1})
    assert healthy == pytest.approx(8 * X / 4) and degraded == pytest.approx(healthy, rel=1e-12)
    # W = 8: (3·6 + 2·7)/8 = 4 drive I/Os on 7 survivors: 8 x X / (4 x 8/7) host writes (md's own published
    # ceiling, 523 K 4 KiB random writes per RAID-5 array, would bind first: switched off to check the members' side)
    wide, _ = iops(FLAT, wl, 16, **{"raid.level": "raid5", "raid.width": 8, "raid.degraded": 1,
                                    "raid.md_iops": float("inf")})
    assert wide == pytest.approx(16 * X / (4 * 8 / 7), rel=1e-12)


def test_degraded_mirrors():
    # RAID-10: a lost member's partner takes every read and write of its pair: reads halve, writes do not change.
    # RAID-1 of 4 (a 4-way mirror, md(4)): the 3 survivors share the reads (3/4 of the healthy rate) and each
    # still writes every write (unchanged)
    r_ok, _ = iops(FLAT, nm.Workload("randread", "4K"), 8, **{"raid.level": "raid1"})
    r_deg, _ = iops(FLAT, nm.Workload("randread", "4K"), 8, **{"raid.level": "raid1", "raid.degraded": 1})
    w_ok, _ = iops(FLAT, nm.Workload("randwrite", "4K"), 8, **{"raid.level": "raid1"})
    w_deg, _ = iops(FLAT, nm.Workload("randwrite", "4K"), 8, **{"raid.level": "raid1", "raid.degraded": 1})
    assert r_deg == pytest.approx(r_ok * 3 / 4, rel=1e-12) and w_deg == pytest.approx(w_ok, rel=1e-12)
    for level, n in (("raid10", 8),):
        r_ok, _ = iops(FLAT, nm.Workload("randread", "4K"), n, **{"raid.level": level})
        r_deg, _ = iops(FLAT, nm.Workload("randread", "4K"), n, **{"raid.level": level, "raid.degraded": 1})
        w_ok, _ = iops(FLAT, nm.Workload("randwrite", "4K"), n, **{"raid.level": level})
        w_deg, _ = iops(FLAT, nm.Workload("randwrite", "4K"), n, **{"raid.level": level, "raid.degraded": 1})
        assert r_deg == pytest.approx(r_ok / 2, rel=1e-12) and w_deg == pytest.approx(w_ok, rel=1e-12)


def test_degraded_full_stripe_writes_keep_the_per_survivor_rate():
    # a full stripe skips the lost member: W - 1 writes for W - 1 data chunks on W - 1 survivors... per survivor
    # one chunk per stripe, as healthy: 128K sequential writes run at the healthy rate.
    wl = nm.Workload("write", "128K")
    healthy, _ = iops(DELL, wl, 12, **{"raid.level": "raid5"})
    degraded, binding = iops(DELL, wl, 12, **{"raid.level": "raid5", "raid.degraded": 1})
    assert binding == "drive" and degraded == pytest.approx(healthy, rel=1e-12)


# --------------------------------------------------------------------------- arrays that lost data
@pytest.mark.parametrize("level, lost, width", [("raid0", 1, 4), ("raid1", 4, 4), ("raid1", 2, 2), ("raid5", 2, 4),
                                                ("raid10", 2, 2), ("raid10", 2, 3)])
def test_failures_beyond_the_redundancy_are_refused(level, lost, width):
    with pytest.raises(ParameterError, match="raid.degraded"):
        nm.evaluate(FLAT, nm.Workload("randread", "4K"), drives=[8],
                    overrides={"raid.level": level, "raid.degraded": lost, "raid.width": width})


def test_rebuild_needs_a_failed_member():
    with pytest.raises(ParameterError, match="raid.rebuild"):
        nm.evaluate(FLAT, nm.Workload("randread", "4K"), drives=[8], overrides={"raid.level": "raid5",
                                                                               "raid.rebuild": 1})


def test_rebuild_rate_above_the_drives_sequential_read_is_refused():
    with pytest.raises(ParameterError, match="raid.rebuild_bytes_per_s"):
        nm.evaluate(FLAT, nm.Workload("randread", "4K"), drives=[8], overrides={
            "raid.level": "raid5", "raid.degraded": 1, "raid.rebuild": 1, "raid.rebuild_bytes_per_s": 9e9})


# --------------------------------------------------------------------------- rebuild
def test_md_rebuild_rate_defaults_are_kibibytes_per_second():
    # md.c: sysctl_speed_limit_min = 1000, speed_limit_max = 200000; md.rst: "in kibibytes-per-second"
    assert PARAMETERS["raid.rebuild_bytes_per_s"].default == 1000 * 1024
    assert "200000 KiB/s = 204.8 MB/s" in PARAMETERS["raid.rebuild_bytes_per_s"].meaning


def test_rebuild_reads_every_survivor_and_writes_the_replacement():
    r = 200000 * 1024.0  # MD's speed_limit_max
    assert rebuild_traffic("raid5", 6, 1, r) == (5 * r, r)        # N - 1 members read
    assert rebuild_traffic("raid6", 6, 2, r) == (4 * r, 2 * r)
    assert rebuild_traffic("raid10", 8, 1, r) == (r, r)           # the partner only
    with pytest.raises(ParameterError):
        rebuild_traffic("raid5", 6, 2, r)


@pytest.mark.parametrize("rate", [1000 * 1024.0, 200000 * 1024.0, 2e9])
def test_rebuild_takes_its_share_of_each_survivors_time(rate):
    # PM1733 (preset): sequential reads 8.0 GB/s; a survivor reading `rate` for the rebuild leaves 1 - rate/8 GB/s
    # of its time to foreground I/O, so a drive-bound degraded array loses that share.
    wl = nm.Workload("randread", "4K")
    base = {"raid.level": "raid5", "raid.degraded": 1}
    degraded, _ = iops(FLAT, wl, 8, **base)
    rebuilding, binding = iops(FLAT, wl, 8, **base, **{"raid.rebuild": 1, "raid.rebuild_bytes_per_s": rate})
    assert binding == "drive"
    assert rebuilding == pytest.approx(degraded * (1 - rate / FLAT.drive.seq_read_bytes_per_s), rel=1e-12)


def test_default_rebuild_rate_barely_touches_nvme():
    # 1.024 MB/s per member against 8 GB/s of sequential read: 0.0128 % of a survivor's time
    wl = nm.Workload("randread", "4K")
    degraded, _ = iops(FLAT, wl, 8, **{"raid.level": "raid6", "raid.degraded": 2})
    rebuilding, _ = iops(FLAT, wl, 8, **{"raid.level": "raid6", "raid.degraded": 2, "raid.rebuild": 1})
    assert 1 - rebuilding / degraded == pytest.approx(1.024e6 / 8.0e9, rel=1e-9)


def test_sweep_over_degraded_and_rebuild_equals_evaluate():
    grid = {"raid.level": ["raid5", "raid6", "raid6", "raid10", "raid10"], "raid.degraded": [1, 1, 2, 1, 2],
            "raid.rebuild": [0, 1, 1, 1, 0], "raid.rebuild_bytes_per_s": [1e8, 2e8, 3e8, 4e8, 5e8]}
    wl = nm.Workload("randrw", "16K", read_fraction=0.7)
    res = nm.sweep(DELL, wl, drives=[4, 8, 12, 24], grid=grid)
    for i in range(5):
        over = {k: v[i] for k, v in grid.items()}
        curve = nm.evaluate(DELL, wl, drives=[4, 8, 12, 24], overrides=over)
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12)


@pytest.mark.parametrize("level", ["raid0", "raid1", "raid5", "raid6", "raid10"])
@pytest.mark.parametrize("pattern, f", [("randread", 1.0), ("randwrite", 0.0), ("randrw", 0.7)])
def test_bytes_moved_equal_a_times_size_when_healthy(level, pattern, f):
    p = prepare({"raid.level": level, "raid.width": 6, "raid.chunk_bytes": 65536, "raid.degraded": 0,
                 "workload.block_size": 16384, "workload.read_fraction": f, "workload.random": 1})
    a, size, _ = (float(x) for x in raid_transform(p))
    assert float(drive_bytes_per_host_io(p)) == pytest.approx(a * size, rel=1e-12)


def test_bytes_moved_by_degraded_arrays_are_counts_not_the_busiest_members_load():
    def moved(level, width, lost, f):
        p = prepare({"raid.level": level, "raid.width": width, "raid.chunk_bytes": 65536, "raid.degraded": lost,
                     "workload.block_size": 4096, "workload.read_fraction": f, "workload.random": 1})
        return float(drive_bytes_per_host_io(p)) / 4096
    assert moved("raid5", 4, 1, 1.0) == pytest.approx(1.5)          # 2(W-1)/W reads
    assert moved("raid5", 4, 1, 0.0) == pytest.approx(3.0)          # 1.5 R + 1.5 W (Holland & Gibson cases)
    assert moved("raid10", 8, 1, 0.0) == pytest.approx(2 - 2 / 8)   # the degraded pair writes once
    assert moved("raid1", 2, 1, 0.0) == pytest.approx(1.0)


@pytest.mark.parametrize("level, lost", [("raid1", 1), ("raid5", 1), ("raid6", 1), ("raid6", 2), ("raid10", 1),
                                         ("raid10", 2)])
@pytest.mark.parametrize("width", [4, 6, 8, 16])
def test_losing_members_never_speeds_reads_and_a_rebuild_never_speeds_anything(level, lost, width):
    n = min(2 * width, 24)  # the R7525 holds 24
    # the members' side (md's own published per-array ceiling, which a rebuild does not lower in the model, off)
    base = {"raid.level": level, "raid.width": width, "raid.md_iops": float("inf")}
    for pattern in ("randread", "read", "randrw"):
        wl = nm.Workload(pattern, "16K" if pattern != "read" else "1M",
                         **({"read_fraction": 0.7} if pattern == "randrw" else {}))
        healthy, _ = iops(DELL, wl, n, **base)
        degraded, _ = iops(DELL, wl, n, **base, **{"raid.degraded": lost})
        rebuilding, _ = iops(DELL, wl, n, **base, **{"raid.degraded": lost, "raid.rebuild": 1,
                                                     "raid.rebuild_bytes_per_s": 204.8e6})
        if pattern != "randrw":
            assert degraded <= healthy * (1 + 1e-12)
        assert rebuilding < degraded
