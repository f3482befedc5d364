"""Full-stripe merging of sequential writes on RAID-5/6 (issue 29 item 3; docs/physics.md §12.2): MD batches adjacent
full-stripe writes, a batch never crossing a chunk boundary, so the members see chunk-sized writes — Linux commit
59fc630b 'RAID5: batch adjacent full stripe write' (Linux 4.1): 160k random writes on a 6-drive RAID-5 with 32k chunks,
"IO size to under layer disk is exactly 32k". Checked: the drive I/O size and count per host write (exact), the
drive-bandwidth ceiling that follows (exact), and that random writes, reads and mixes are unchanged."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.ceiling.derive import prepare
from nvmemodel.ceiling.raid import raid_transform

DELL = nm.preset("dell-r7525")


def _t(level, width, size, chunk, random, f=0.0, batching=1):
    p = prepare({"raid.level": level, "raid.width": width, "raid.chunk_bytes": chunk, "raid.degraded": 0,
                 "workload.block_size": size, "workload.read_fraction": f, "workload.random": random,
                 "raid.stripe_batching": batching})
    return [float(x) for x in raid_transform(p)]


def test_the_commits_case_full_stripes_of_32k_chunks_reach_the_members_as_32k():
    # 6-drive RAID-5, 32k chunks: a 160k write is a full stripe (5 data chunks) -> 6 member writes of 32 KiB
    assert _t("raid5", 6, 160 * 1024, 32768, random=1) == pytest.approx([6.0, 32768.0, 0.0])


@pytest.mark.parametrize("level, width, parity", [("raid5", 4, 1), ("raid6", 6, 2)])
def test_sequential_small_writes_are_batched_into_chunks(level, width, parity):
    a, size, f = _t(level, width, 4096, 524288, random=0)
    assert size == 524288.0 and f == 0.0
    assert a == pytest.approx(4096 / 524288 * width / (width - parity))   # a share of one stripe's member writes
    before = _t(level, width, 4096, 524288, random=0, batching=0)
    assert before == pytest.approx([width / (width - parity), 4096.0, 0.0])  # 4 KiB member writes, no merge


@pytest.mark.parametrize("pattern, rf", [("randwrite", None), ("read", None), ("rw", 0.5)])
def test_random_writes_reads_and_mixes_are_not_merged(pattern, rf):
    wl = nm.Workload(pattern, "4K", read_fraction=rf)
    on = nm.evaluate(DELL, wl, drives=[8], overrides={"raid.level": "raid5"})
    off = nm.evaluate(DELL, wl, drives=[8], overrides={"raid.level": "raid5", "raid.stripe_batching": 0})
    assert on.iops_at(8) == off.iops_at(8)


def test_sequential_4k_writes_are_bound_by_the_members_bandwidth_not_their_write_iops():
    # 8 PM1733 (3.8 GB/s sequential writes, 260 K 4K write IOPS) as two 4-wide RAID-5 arrays; md's own published
    # ceiling (the bitmap lock: 1.27 M 4 KiB sequential writes per array, tests/layers/test_md_raid.py) switched off
    # here (raid.md_iops = inf) to check the members' side alone
    on = nm.evaluate(DELL, nm.Workload("write", "4K"), drives=[8], overrides={"raid.level": "raid5",
                                                                               "raid.md_iops": float("inf")})
    assert on.binding_at(8) == "drive"
    assert on.iops_at(8) == pytest.approx(8 * 3.8e9 * 3 / 4 / 4096, rel=1e-12)
    off = nm.evaluate(DELL, nm.Workload("write", "4K"), drives=[8],
                      overrides={"raid.level": "raid5", "raid.stripe_batching": 0, "raid.md_iops": float("inf")})
    assert off.iops_at(8) == pytest.approx(8 * 260e3 * 3 / 4, rel=1e-12)  # 4 KiB member writes at the write rating
    assert "md batches into whole-chunk member writes" in on.explain(8)
