"""Degraded RAID and large writes against the textbook, where the model once disagreed or ignored its input.

* Patterson, Gibson & Katz, "A Case for Redundant Arrays of Inexpensive Disks (RAID)", SIGMOD 1988: a write
  that covers whole stripes ("large write") writes the data and its parity, ``G + 1`` (RAID-5) disk writes per
  ``G`` data units and no reads; only a write of part of a stripe pays read-modify-write.
* Holland & Gibson, ASPLOS 1992 (degraded mode); mirrors as 2-way pairs (docs/physics.md §12.2): a pair that
  lost a member writes once instead of twice.
"""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.ceiling.derive import prepare
from nvmemodel.ceiling.raid import drive_bytes_per_host_io, raid_transform
from nvmemodel.errors import ParameterError

DELL = nm.preset("dell-r7525")


def _p(level, width, lost, block, f, random=1, chunk=524288):
    return prepare({"raid.level": level, "raid.width": width, "raid.chunk_bytes": chunk, "raid.degraded": lost,
                    "workload.block_size": block, "workload.read_fraction": f, "workload.random": random})


@pytest.mark.parametrize("overrides", [{"raid.degraded": 1}, {"raid.rebuild": 1},
                                       {"raid.degraded": 1, "raid.rebuild": 1}])
def test_failed_members_without_a_raid_level_are_refused(overrides):
    # raid.level defaults to none: a "degraded" or "rebuilding" set of plain drives was evaluated as healthy
    with pytest.raises(ParameterError, match=r"raid\.(degraded|rebuild)=.*raid\.level"):
        nm.evaluate(DELL, nm.Workload("randread", "4K"), drives=[8], overrides=overrides)


@pytest.mark.parametrize("width", [4, 6, 8])
def test_a_degraded_mirror_writes_what_is_left(width):
    # md RAID-1 of W members is a W-way mirror (md(4); raid1.c writes one bio per member): with one lost a write
    # costs W - 1 writes (QA s25 H22: it was modelled as W/2 two-way pairs, RAID-10 under another name). RAID-10
    # (near-2) is W/2 pairs: a random write lands on the degraded pair with probability 2/W and then costs 1, else 2
    moved = {}
    for level in ("raid1", "raid10"):
        p = _p(level, width, 1, 4096, 0.0, chunk=65536)
        moved[level] = float(drive_bytes_per_host_io(p)) / 4096
    assert moved["raid1"] == pytest.approx(width - 1, rel=1e-12)
    assert moved["raid10"] == pytest.approx(2 - 2 / width, rel=1e-12)


@pytest.mark.parametrize("width", [2, 3, 4])
def test_a_raid1_of_w_members_survives_w_minus_one_and_writes_w_times(width):
    # md(4): RAID-1 keeps a copy on every member: it survives W - 1 failures and every write costs W drive writes
    healthy = raid_transform(_p("raid1", width, 0, 4096, 0.0))
    assert float(healthy[0]) == width
    raid_transform(_p("raid1", width, width - 1, 4096, 0.0))  # still an array
    with pytest.raises(ParameterError, match=r"raid\.degraded"):
        raid_transform(_p("raid1", width, width, 4096, 0.0))


@pytest.mark.parametrize("level, width, parity, stripes", [("raid5", 4, 1, 1), ("raid5", 4, 1, 2),
                                                           ("raid5", 8, 1, 1), ("raid6", 6, 2, 1), ("raid6", 6, 2, 3)])
def test_random_writes_of_whole_stripes_are_large_writes(level, width, parity, stripes):
    # fio aligns random offsets to the block size, so a block of k whole stripes always covers k stripes: W writes
    # per stripe of W - p data chunks, no reads — what a sequential full-stripe write costs (PGK88)
    chunk = 65536
    block = stripes * (width - parity) * chunk
    a, size, f_d = (float(x) for x in raid_transform(_p(level, width, 0, block, 0.0, chunk=chunk)))
    assert size == chunk and f_d == 0.0
    assert a == pytest.approx(stripes * width, rel=1e-12)
    seq = [float(x) for x in raid_transform(_p(level, width, 0, block, 0.0, random=0, chunk=chunk))]
    assert [a, size, f_d] == pytest.approx(seq, rel=1e-12)


def test_whole_stripe_random_writes_on_a_degraded_array_skip_the_lost_member():
    # RAID-5 of 4, one lost: a 3-chunk stripe is written to the 3 survivors (data and parity as they fall),
    # spread over those 3: busiest member x width = 4; no reads
    chunk = 65536
    p = _p("raid5", 4, 1, 3 * chunk, 0.0, chunk=chunk)
    a, _, f_d = (float(x) for x in raid_transform(p))
    assert f_d == 0.0 and a == pytest.approx(4.0, rel=1e-12)
    assert float(drive_bytes_per_host_io(p)) == pytest.approx(3 * chunk, rel=1e-12)


def test_a_random_write_of_one_chunk_keeps_read_modify_write():
    # the textbook small write is untouched: 2 reads + 2 writes (RAID-5), 3 + 3 (RAID-6)
    for level, width, cost in (("raid5", 4, 4.0), ("raid6", 6, 6.0)):
        a, _, f_d = (float(x) for x in raid_transform(_p(level, width, 0, 65536, 0.0, chunk=65536)))
        assert a == pytest.approx(cost) and f_d == pytest.approx(0.5)


@pytest.mark.parametrize("pattern, block, says", [("randwrite", "4K", "a small write = 2 reads + 2 writes"),
                                                  ("randwrite", "1536K", "whole stripes"),
                                                  ("write", "128K", "whole stripes")])
def test_the_explanation_names_the_write_path_the_numbers_use(pattern, block, says):
    # a 1536K random write (3 chunks of 512K: one whole stripe of a 4-wide RAID-5) and sequential writes cost no
    # reads, but the explanation still said "(a small write = 2 reads + 2 writes)" beside "0% reads"
    curve = nm.evaluate(DELL, nm.Workload(pattern, block), drives=[8], overrides={"raid.level": "raid5"})
    text = curve.explain(8)
    assert says in text
    if says == "whole stripes":
        assert "2 reads + 2 writes" not in text and "(0% reads)" in text
