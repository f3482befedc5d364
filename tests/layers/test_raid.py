"""Software RAID: drive I/Os per host I/O against the textbook penalties, and the RAID layer's limits.

Textbook small-write costs of parity RAID (Patterson, Gibson & Katz, SIGMOD 1988; docs/physics.md
§12.2): a RAID-5 small write is 2 reads + 2 writes, RAID-6 3 + 3, a mirrored write 2 writes; reads
cost one drive I/O on every healthy level. With equal read and write IOPS X per drive, N drives give
N·X/4, N·X/6 and N·X/2 small writes and N·X reads.
"""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.derive import prepare
from nvmemodel.ceiling.raid import raid_transform

X = 500e3  # per-drive IOPS, reads and writes alike (the textbook's symmetric drive)
DELL = nm.preset("dell-r7525")
FLAT = DELL.replace(drive=DELL.drive.replace(rand_read_iops=X, rand_write_iops=X))


def iops(topology, workload, n, **overrides):
    curve = nm.evaluate(topology, workload, drives=[n], overrides=overrides)
    return curve.iops_at(n), curve.binding_at(n)


@pytest.mark.parametrize("level, penalty", [("none", 1), ("raid0", 1), ("raid1", 4), ("raid10", 2),
                                            ("raid5", 4), ("raid6", 6)])  # raid1: a 4-way mirror (raid.width 4)
@pytest.mark.parametrize("n", [4, 8, 16])
def test_small_random_write_penalty_when_drive_bound(level, penalty, n):
    got, binding = iops(FLAT, nm.Workload("randwrite", "4K"), n, **{"raid.level": level})
    assert binding == "drive"
    assert got == pytest.approx(n * X / penalty, rel=1e-12)  # exact: no other term enters


@pytest.mark.parametrize("level", ["raid0", "raid1", "raid5", "raid6", "raid10"])
def test_reads_pay_no_penalty(level):
    got, _ = iops(FLAT, nm.Workload("randread", "4K"), 8, **{"raid.level": level})
    assert got == pytest.approx(8 * X, rel=1e-12)


def test_read_modify_write_uses_the_drives_read_and_write_rates():
    # PM1733: 1.45 M reads, 260 K writes per drive. A RAID-5 small write = 2 reads + 2 writes:
    # 8 drives / (2/1.45 M + 2/260 K), not 8 x 260 K / 4 (reads are cheaper than writes).
    got, _ = iops(DELL, nm.Workload("randwrite", "4K"), 8, **{"raid.level": "raid5"})
    assert got == pytest.approx(8 / (2 / 1.45e6 + 2 / 260e3), rel=1e-12)
    assert got > 8 * 260e3 / 4


def test_mixed_workload_amplification():
    # 70/30 on RAID-5: per host I/O 0.7 reads + 0.3 x (2 reads + 2 writes) = 1.3 reads + 0.6 writes.
    p = prepare({"raid.level": "raid5", "raid.width": 4, "raid.chunk_bytes": 524288, "raid.degraded": 0,
                 "workload.block_size": 4096, "workload.read_fraction": 0.7, "workload.random": 1})
    a, size, f = (float(x) for x in raid_transform(p))
    assert (a, size) == (pytest.approx(1.9), 4096.0) and f == pytest.approx(1.3 / 1.9)
    got, _ = iops(FLAT, nm.Workload("randrw", "4K", read_fraction=0.7), 8, **{"raid.level": "raid5"})
    assert got == pytest.approx(8 * X / 1.9, rel=1e-12)


@pytest.mark.parametrize("level, width, factor", [("raid5", 4, 4 / 3), ("raid6", 6, 6 / 4), ("raid10", 4, 2.0),
                                                  ("raid0", 4, 1.0)])
def test_sequential_writes_are_full_stripe(level, width, factor):
    # 128K sequential writes, drive-bandwidth-bound: the drives write factor x the host's bytes.
    wl = nm.Workload("write", "128K")
    base, _ = iops(DELL, wl, 12)
    got, binding = iops(DELL, wl, 12, **{"raid.level": level, "raid.width": width})
    assert binding == "drive" and got == pytest.approx(base / factor, rel=1e-12)


def test_large_io_splits_into_chunks():
    # 1 MiB random reads on RAID-0 with 64 KiB chunks: 16 drive reads of 64 KiB per host read.
    p = prepare({"raid.level": "raid0", "raid.width": 8, "raid.chunk_bytes": 65536, "raid.degraded": 0,
                 "workload.block_size": 2**20, "workload.read_fraction": 1.0, "workload.random": 1})
    assert [float(x) for x in raid_transform(p)] == [16.0, 65536.0, 1.0]


def test_degraded_raid5_reads():
    # One of W=4 drives lost: a quarter of the chunks are rebuilt from the other 3 → 2·3/4 = 1.5 reads per read,
    # carried by the 3 survivors: half the fault-free rate (Holland & Gibson 1992; tests/layers/test_raid_degraded.py).
    got, _ = iops(FLAT, nm.Workload("randread", "4K"), 8, **{"raid.level": "raid5", "raid.degraded": 1})
    assert got == pytest.approx(8 * X / 2, rel=1e-12)
    mirrored, _ = iops(FLAT, nm.Workload("randread", "4K"), 8, **{"raid.level": "raid10", "raid.degraded": 1})
    assert mirrored == pytest.approx(8 * X / 2, rel=1e-12)  # the lost member's partner serves its pair alone


def test_raid_layer_limit_and_parity_rate_bind_when_drives_do_not():
    wl = nm.Workload("randwrite", "4K")
    got, binding = iops(FLAT, wl, 16, **{"raid.level": "raid5", "raid.max_iops": 1.0e6})
    assert (got, binding) == (1.0e6, "raid_layer")  # drives alone would give 16 x 500 K / 4 = 2 M
    # parity: 3 GB/s over 4 KiB written blocks = 732 K host writes/s (RAID-6: two syndromes, half that)
    got, binding = iops(FLAT, wl, 16, **{"raid.level": "raid5", "raid.parity_bytes_per_s": 3e9})
    assert binding == "raid_layer" and got == pytest.approx(3e9 / 4096)
    got6, _ = iops(FLAT, wl, 24, **{"raid.level": "raid6", "raid.parity_bytes_per_s": 3e9})
    assert got6 == pytest.approx(3e9 / 4096 / 2)
    reads, _ = iops(FLAT, nm.Workload("randread", "4K"), 16, **{"raid.level": "raid5", "raid.parity_bytes_per_s": 3e9})
    assert reads == pytest.approx(16 * X)  # reads compute no parity


def test_raid_cycles_add_to_the_host_cpu():
    # Dell: 2 x 64 cores x 2.25 GHz = 288 G cycles/s; the preset's calibrated 10,000 + RAID 8,000 cycles per I/O.
    got, binding = iops(DELL, nm.Workload("randread", "4K"), 24, **{"raid.level": "raid0",
                                                                   "raid.cycles_per_io": 8000})
    assert binding == "host_cpu" and got == pytest.approx(288e9 / 18000)
    without, _ = iops(DELL, nm.Workload("randread", "4K"), 24, **{"raid.cycles_per_io": 8000})  # no RAID: not charged
    assert without == pytest.approx(288e9 / 10000)


def test_sweep_over_raid_levels_equals_evaluate():
    levels = ["none", "raid0", "raid1", "raid5", "raid6", "raid10"]
    wl = nm.Workload("randrw", "16K", read_fraction=0.5)
    res = nm.sweep(DELL, wl, drives=[1, 4, 12, 24], grid={"raid.level": levels})
    for i, level in enumerate(levels):
        curve = nm.evaluate(DELL, wl, drives=[1, 4, 12, 24], overrides={"raid.level": level})
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12)
        assert [res.components[b] for b in res.binding_index[i]] == list(curve.binding)
