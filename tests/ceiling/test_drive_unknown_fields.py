"""A drive limit the catalog does not know is said to be unknown, not turned into a number presented as a spec
ceiling (QA round 4, F23): the Lenovo preset's drive has no sequential write rating, so its 256K-write "drive"
ceiling (4K write IOPS x 256 KiB = 85 GB/s per drive) is an upper bound, and so is every result that rests on it."""
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.drive import unknown_drive_fields


def _curve(preset, pattern, bs, **kw):
    return nm.evaluate(nm.preset(preset), nm.Workload(pattern, bs), drives=[1, 4], **kw)


def test_large_writes_on_a_drive_without_a_write_rating_are_an_upper_bound():
    c = _curve("lenovo-sr850-direct", "write", "256K")
    assert unknown_drive_fields(c.parameters) == ("sequential write bandwidth",)
    assert "the drive's sequential write bandwidth is not known" in c.upper_bound_note
    assert c.to_dict()["upper_bound"]["unknown_layers"] == ["drive"]
    assert "drive +" in c.explain(4) and "(at most: its sequential write bandwidth not known)" in c.explain(4)


def test_reads_of_the_same_drive_need_nothing_it_lacks():
    c = _curve("lenovo-sr850-direct", "read", "256K")
    assert unknown_drive_fields(c.parameters) == () and c.upper_bound_note is None


def test_small_random_reads_without_an_iops_rating():
    c = _curve("dell-r7525", "randread", "4K", overrides={"drive.model": "samsung-pm981-1tb"})
    # and its QD1 latency (QA s25 H39): 32 in flight / 115 us (the catalog's slowest) = 278 K < 3.2 GB/s / 4 KiB
    assert unknown_drive_fields(c.parameters) == ("4K random-read IOPS", "QD1 latency (Little's law at this queue depth "
                                                                         "may bind)")
    assert "the drive's 4K random-read IOPS and QD1 latency" in c.upper_bound_note


def test_a_field_outside_its_range_is_not_needed():
    # a 4K random read needs no sequential rating (a sheet's IOPS are rated at 4 KiB)
    p = {"workload.read_fraction": 1.0, "workload.block_size": 4096.0, "drive.rand_read_iops": 1e6,
         "drive.seq_read_bytes_per_s": float("nan"), "drive.rand_write_iops": float("nan"),
         "drive.seq_write_bytes_per_s": float("nan")}
    assert unknown_drive_fields(p) == ()


def test_unknown_latency_at_low_queue_depth_is_said():
    # QA round 5, G5: one I/O in flight per drive, latency unknown: 1.45 M IOPS "drive-bound" with no word
    c = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K", iodepth=1), drives=[1])
    assert "QD1 latency" in c.upper_bound_note
    # QA s25 H39: at the default QD32 x 1 job too: the catalog's NAND drives take 75-115 us at QD1, and 32 / 115 us
    # = 278 K IOPS lies below the 1.45 M rating: the latency MAY bind (the 6 us Optane bound, 5.3 M, said only where
    # it certainly binds). The number stays the rating; the words say it is an upper bound.
    deep = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K", iodepth=32), drives=[1])
    assert "upper bound: the drive's QD1 latency (Little's law at this queue depth may bind)" in deep.upper_bound_note
    assert deep.iops[0] == 1.45e6
    # 128K reads at QD32: 278 K > 8 GB/s / 128 KiB = 61 K, so no catalog latency could bind: no word
    big = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K", iodepth=32), drives=[1])
    assert big.upper_bound_note is None
    # ... and at iodepth 8, 16 KiB (QA s25 H39's chart): 8 / 115 us = 70 K < 8 GB/s / 16 KiB = 488 K
    mid = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "16K", iodepth=8), drives=[1])
    assert "QD1 latency" in mid.upper_bound_note
    known = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K", iodepth=1), drives=[1],
                        overrides={"drive.read_latency_s": 80e-6})
    assert known.upper_bound_note is None


def test_the_fastest_qd1_latency_is_the_catalogs():
    import math

    from nvmemodel.ceiling.drive import FASTEST_QD1_S

    lats = [d.read_latency_s for d in nm.drive_catalog().values()]
    assert FASTEST_QD1_S == min(x for x in lats if not math.isnan(x))


def test_the_slowest_qd1_latencies_are_the_catalogs():
    # QA s25 H39: the "may bind" test takes an unknown latency as the slowest the catalog knows, per direction
    import math

    from nvmemodel.ceiling.drive import SLOWEST_QD1_READ_S, SLOWEST_QD1_WRITE_S

    drives = nm.drive_catalog().values()
    for got, lats in ((SLOWEST_QD1_READ_S, [d.read_latency_s for d in drives]),
                      (SLOWEST_QD1_WRITE_S, [d.write_latency_s for d in drives])):
        assert got == pytest.approx(max(x for x in lats if not math.isnan(x)), rel=1e-12)  # 115e-6 as us x 1e-6
