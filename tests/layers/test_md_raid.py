"""md RAID as what binds it (issue 29 item 3; docs/physics.md §12.3.1): md's own per-array ceiling by level, size
class and kernel generation, from the published measurements in ``nvmemodel/catalog/md_raid.csv``.

Authority rows: each catalog value is the number its quoted sentence states (GiB/s of 4 KiB reads converted at
2**30 / 4096 = 262,144 I/Os per GiB). The physics checks compare the model with the published arrays; every one of
these measurements set the table (none is blind: docs/physics.md §12.3.1 says which were seen before any value was
set), so the tolerance is the spread of the sources themselves, not an accuracy claim.
"""

from __future__ import annotations

import math

import pytest

import nvmemodel as nm
from nvmemodel.ceiling.md import md_ceiling, md_cell, md_label, md_rows, parse_md_rows, size_class
from nvmemodel.errors import NvmeModelError

X = 1.2e6  # a drive fast enough that md binds first (the FLAT drive of these tests: reads and writes alike)
DELL = nm.preset("dell-r7525")
FAST = DELL.replace(drive=DELL.drive.replace(rand_read_iops=X, rand_write_iops=X))
GIB_4K = 2**30 / 4096


def curve(topology, workload, n, **overrides):
    return nm.evaluate(topology, workload, drives=[n], overrides=overrides)


# ------------------------------------------------------------------ the catalog reproduces its sources
@pytest.mark.parametrize("row_id, value, quoted", [
    # Finlayson, linux-raid, 5 Aug 2021 (HPE DL385, EPYC Rome; two 10+1+1 RAID-5 arrays, fio 3.26 libaio QD128 x 64)
    ("finlayson21_s0_before", 1.263e6, "socket0 1.263M IOPS"),
    ("finlayson21_s1_before", 1.071e6, "socket1 1.071M IOSP"),
    ("finlayson21_s0_after", 5.332e6, "5.332 M IOPS"),
    ("finlayson21_s1_after", 5.892e6, "5.892M IOPS"),
    ("finlayson21_s0_1m_after", 47.8e9, "BW=44.5GiB/s (47.8GB/s)"),   # 1 MiB reads: bound elsewhere (at least)
    ("finlayson21_s1_1m_after", 42.3e9, "BW=39.4GiB/s (42.3GB/s)"),
    # Ofri, commit 97ae27252f49 (Linux 5.14): RAID-6 6+2, 96 cores, 1024 threads
    ("ofri21_nvme_4k_before", 1.6e6, "without patch | 1.6M"),
    ("ofri21_brd_4k_after", 4.0e6, "with patch | 4M"),
    ("ofri21_nvme_128k_before", 5.5e9, "5.5GB/s"),
    ("ofri21_brd_128k_before", 24e9, "24GB/s"),
    ("ofri21_brd_128k_after", 55e9, "55GB/s"),
    # Yu Kuai, md/raid10 lock contention v3 (Linux 6.1): RAID-10 of 4 NVMe, 4 KiB random reads
    ("yukuai22_x86_before", 7.0 * GIB_4K, "before this patchset: 7.0 GiB/s"),
    ("yukuai22_arm_before", 3.2 * GIB_4K, "before this patchset: 3.2 GiB/s"),
    ("yukuai22_arm_node_before", 6.9 * GIB_4K, "bind node before this patchset: 6.9 Gib/s"),
    # Paszkiewicz, md-6.12 (null_blk RAID-5, 4k random writes, group_thread_cnt=8)
    ("paszkiewicz24_before", 463e3, "before: 463k IOPS"),
    ("paszkiewicz24_after", 523e3, "after:  523k IOPS"),
    # Shushu Yi, md/bitmap RFC V7 (not merged): RAID-5 2+1 of 980 Pro, 4 KiB sequential writes
    ("yi24_bitmap_seqwrite", 5218e6 / 4096, "from 5218MB/s"),
])
def test_catalog_values_are_the_numbers_their_sources_state(row_id, value, quoted):
    (row,) = [r for r in md_rows() if r.id == row_id]
    assert row.value == pytest.approx(value, rel=1e-6)  # unit conversions only
    assert quoted in row.source


def test_every_row_has_a_source_and_a_kernel_boundary_that_exists():
    rows = md_rows()
    assert len(rows) == 22
    assert {r.kernel_boundary for r in rows} == {"5.14", "6.1", "6.12", ""}
    assert all(r.source and r.host and r.workload for r in rows)


def test_a_bad_catalog_row_is_refused_naming_file_row_and_field():
    with open(nm.__file__.rsplit("/", 1)[0] + "/catalog/md_raid.csv", encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    bad = lines[1].replace(",before,ceiling,1263000,", ",before,ceiling,-5,")
    with pytest.raises(NvmeModelError, match=r"md_raid.csv, row 2 \(iops = '-5'\): expected a finite number > 0"):
        parse_md_rows("\n".join([lines[0], bad]))
    bad = lines[1].replace(",5.14,before,", ",5.99,before,")
    with pytest.raises(NvmeModelError, match=r"row 2 \(kernel_boundary = '5.99'\)"):
        parse_md_rows("\n".join([lines[0], bad]))


# ------------------------------------------------------------------ cells: generation, ranges, no invention
def test_raid5_and_6_small_reads_before_and_after_the_5_14_patch():
    before = md_cell("raid6", "read", "random", "small", "5.13")
    after = md_cell("raid6", "read", "random", "small", "5.14")
    assert (before.generation, after.generation, before.boundary) == ("before", "after", "5.14")
    # four md-bound measurements before (1.071, 1.263, 1.6, 2.0 M): median charged, min–max the range
    assert (before.low, before.point, before.high) == (1.071e6, pytest.approx(1.4315e6), 2.0e6)
    # after: 4.0 (brd), 5.332, 5.892 M; Ofri's 2 M on NVMe was the drives ('throttled'): a lower bound, not charged
    assert (after.low, after.point, after.high) == (4.0e6, 5.332e6, 5.892e6)
    assert after.at_least == ("ofri21_nvme_4k_after",)
    assert after.point / before.point == pytest.approx(3.72, rel=0.01)


def test_raid10_reads_before_6_1_and_nothing_invented_after():
    before = md_cell("raid10", "read", "random", "small", "6.0")
    assert before.low == pytest.approx(3.2 * GIB_4K) and before.high == pytest.approx(7.0 * GIB_4K)
    # after the series every published figure was bound by something else (or says not what): no md ceiling
    assert md_cell("raid10", "read", "random", "small", "6.1") is None


@pytest.mark.parametrize("level, bs, f, random", [
    ("raid0", 4096, 1.0, True),     # md RAID-0's published limits are CPU-bound (raid.cycles_per_io), not a lock
    ("raid1", 4096, 0.0, True),     # no published lock-bound RAID-1 figure
    ("raid6", 4096, 0.0, True),     # RAID-6 writes: none published
    ("raid5", 32768, 1.0, True),    # between the size classes: no figure carried
    ("raid5", 4 * 2**20, 1.0, False),  # above 1 MiB
])
def test_no_published_figure_no_ceiling(level, bs, f, random):
    assert md_ceiling(level, bs, f, random, "6.12")[0] == math.inf


def test_a_mix_spends_md_time_of_both_directions():
    point, low, high, cells = md_ceiling("raid5", 4096, 0.7, True, "6.12")
    assert point == pytest.approx(1 / (0.7 / 5.332e6 + 0.3 / 523e3), rel=1e-12)
    assert [c.direction for c in cells] == ["read", "write"]
    # RAID-6: no write figure, so the reads' part alone: an upper bound
    assert md_ceiling("raid6", 4096, 0.7, True, "6.12")[0] == pytest.approx(5.332e6 / 0.7, rel=1e-12)


def test_large_reads_are_charged_per_byte():
    assert size_class(128 * 1024) == "large" and size_class(16 * 1024) == "small" and size_class(32768) is None
    point, low, high, _ = md_ceiling("raid6", 131072, 1.0, False, "5.10")
    assert point * 131072 == pytest.approx((5.5e9 + 24e9) / 2)       # median of the two md-bound figures
    assert (low * 131072, high * 131072) == (pytest.approx(5.5e9), pytest.approx(24e9))
    assert md_ceiling("raid6", 1 << 20, 1.0, False, "5.10")[0] * (1 << 20) == pytest.approx(14.75e9)
    after = md_cell("raid5", "read", "sequential", "large", "5.14")   # RAM disks 55 GB/s; Finlayson's 1 MiB arrays,
    assert (after.point, after.rows) == (55e9, ("ofri21_brd_128k_after",))  # bound by root complexes: at least
    assert set(after.at_least) == {"finlayson21_s0_1m_after", "finlayson21_s1_1m_after", "ofri21_nvme_128k_after"}


# ------------------------------------------------------------------ it binds, named, and the kernel moves it
def test_md_binds_and_is_named_with_its_level_kernel_and_range():
    c = curve(FAST, nm.Workload("randread", "4K"), 16, **{"raid.level": "raid6", "raid.width": 8,
                                                           "raid.md_kernel": "5.10"})
    assert c.binding_at(16) == "md_raid"
    assert c.iops_at(16) == pytest.approx(2 * 1.4315e6, rel=1e-12)   # two arrays of 8
    assert c.labels["md_raid"].startswith("md RAID-6 stripe handling (lock-bound), kernel < 5.14: 1.07–2.00 M IOPS "
                                          "per array in 4 published measurements")
    assert "md RAID-6 stripe handling (lock-bound), kernel < 5.14" in c.explain()


def test_the_kernel_generation_changes_the_ceiling():
    wl = nm.Workload("randread", "4K")
    old = curve(FAST, wl, 16, **{"raid.level": "raid5", "raid.width": 8, "raid.md_kernel": "4.18"})
    new = curve(FAST, wl, 16, **{"raid.level": "raid5", "raid.width": 8, "raid.md_kernel": "5.15"})
    assert old.iops_at(16) == pytest.approx(2 * 1.4315e6) and old.binding_at(16) == "md_raid"
    assert new.iops_at(16) == pytest.approx(2 * 5.332e6) and new.binding_at(16) == "md_raid"
    assert "kernel ≥ 5.14" in new.labels["md_raid"]
    # RAID-10 after 6.1: no md ceiling of its own, the drives bind
    r10 = curve(FAST, wl, 16, **{"raid.level": "raid10", "raid.md_kernel": "6.1"})
    assert r10.binding_at(16) != "md_raid" and "no published md-bound figure" in r10.labels["md_raid"]
    assert curve(FAST, wl, 16, **{"raid.level": "raid10", "raid.md_kernel": "6.0"}).binding_at(16) == "md_raid"


def test_against_the_published_arrays():
    """Finlayson's two pre-5.14 arrays (RAID-5 of 11 + a spare each, 4 KiB random reads, drives 13.2 M / socket):
    1.071 and 1.263 M IOPS; the model charges the median of the four pre-5.14 figures, 1.43 M per array —
    +13 … +34 % against these two (seen: they set it). Ofri's NVMe array after the patch (8 drives of 250 K IOPS):
    the drives bind at 2 M, as the commit says ('throttled')."""
    wl = nm.Workload("randread", "4K")
    two = curve(FAST, wl, 22, **{"raid.level": "raid5", "raid.width": 11, "raid.md_kernel": "4.18"})
    assert two.iops_at(22) / 2 == pytest.approx(1.4315e6, rel=1e-12)
    for measured in (1.071e6, 1.263e6):
        assert 0.0 < two.iops_at(22) / 2 / measured - 1 < 0.35
    slow = DELL.replace(drive=DELL.drive.replace(rand_read_iops=250e3, rand_write_iops=250e3))
    ofri = curve(slow, wl, 8, **{"raid.level": "raid6", "raid.width": 8, "raid.md_kernel": "5.14"})
    assert ofri.iops_at(8) == pytest.approx(2.0e6) and ofri.binding_at(8) == "drive"
    before = curve(slow, wl, 8, **{"raid.level": "raid6", "raid.width": 8, "raid.md_kernel": "5.13"})
    assert before.binding_at(8) == "md_raid" and before.iops_at(8) / 1.6e6 - 1 == pytest.approx(-0.105, abs=0.001)


def test_sweep_and_plan_see_the_kernel():
    s = nm.sweep(FAST, nm.Workload("randread", "4K"), drives=[16],
                 grid={"raid.level": ["raid6", "raid6"], "raid.width": [8, 8], "raid.md_kernel": ["5.10", "6.12"]})
    frame = s.to_frame()
    got = dict(zip(frame["raid.md_kernel"].astype(str), frame["iops"]))
    assert got["5.10"] == pytest.approx(2 * 1.4315e6) and got["6.12"] == pytest.approx(2 * 5.332e6)
    assert list(frame["binding"]) == ["md_raid", "md_raid"]
    space = nm.DesignSpace(FAST, {"raid.level": ["raid6"], "raid.width": [8], "raid.md_kernel": ["5.10"]},
                           max_drives=24)
    missed = nm.plan(nm.Target(nm.Workload("randread", "4K"), iops=5e6), space)  # 3 arrays give 4.29 M
    assert missed.frame.empty
    assert "md RAID-6 stripe handling (lock-bound), kernel < 5.14" in missed.explain() and "[md_raid] binds" in \
        missed.explain()
    met = nm.plan(nm.Target(nm.Workload("randread", "4K"), iops=4e6), space)
    row = met.frame.iloc[0]
    assert (int(row["drives"]), row["4K randread|binding"]) == (24, "md_raid")  # 16 drives: 2.86 M < 4 M
    assert ("4K randread: md RAID-6's own ceiling is a published range (1.07–2.00 M IOPS per array, 1.43 M IOPS "
            "charged; docs/physics.md §12.3.1): at 24 drives the ceiling lies in 3.21–6.00 M IOPS.") in met.explain()


def test_a_measured_ceiling_of_ones_own_replaces_the_table_and_inf_switches_it_off():
    wl = nm.Workload("randread", "4K")
    own = curve(FAST, wl, 16, **{"raid.level": "raid6", "raid.width": 8, "raid.md_iops": 1.0e6})
    assert own.iops_at(16) == pytest.approx(2.0e6)
    assert own.labels["md_raid"] == "md RAID-6 per array: 1.00 M IOPS (raid.md_iops, set)"
    off = curve(FAST, wl, 16, **{"raid.level": "raid6", "raid.width": 8, "raid.md_iops": math.inf})
    assert off.binding_at(16) != "md_raid"


def test_the_cpu_term_stays_apart():
    """md's CPU cost (raid.cycles_per_io) is charged to the host CPU, not to md's own ceiling, and the other way
    round: setting one leaves the other's component as it was."""
    wl = nm.Workload("randread", "4K")
    base = {"raid.level": "raid6", "raid.width": 8, "raid.md_kernel": "5.10"}
    a = curve(FAST, wl, 16, **base)
    b = curve(FAST, wl, 16, **base, **{"raid.cycles_per_io": 27_700.0})
    assert a.ceilings["md_raid"][0] == b.ceilings["md_raid"][0]
    assert b.ceilings["host_cpu"][0] < a.ceilings["host_cpu"][0]


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("name, value, words", [
    ("raid.md_kernel", "5.99", "raid.md_kernel"),
    ("raid.md_kernel", "6.12.3", "raid.md_kernel"),
    ("raid.md_iops", -1.0, "raid.md_iops"),
    ("raid.md_iops", 0.0, "raid.md_iops"),
])
def test_bad_parameters_are_refused_naming_them(name, value, words):
    with pytest.raises((nm.errors.ParameterError, nm.errors.UnknownNameError), match=words.replace(".", r"\.")):
        curve(FAST, nm.Workload("randread", "4K"), 8, **{"raid.level": "raid6", name: value})


def test_md_cell_refuses_a_kernel_that_is_no_release():
    with pytest.raises(nm.errors.ParameterError, match=r"raid\.md_kernel='7\.9' is not allowed: expected a Linux "
                                                      r"mainline release from 3\.0 to 6\.18"):
        md_cell("raid5", "read", "random", "small", "7.9")


def test_no_label_without_raid_and_windows_is_not_md():
    assert md_label({"raid.level": "none"}) is None
    assert "not charged" in md_label({"raid.level": "raid5", "workload.io_stack": "windows_storport"})


# ------------------------------------------------------------------ the published range, said where it moves the answer
def test_the_range_of_the_sources_is_said_where_it_moves_the_answer():
    c = curve(FAST, nm.Workload("randread", "4K"), 16, **{"raid.level": "raid6", "raid.width": 8,
                                                           "raid.md_kernel": "5.10"})
    line = ("md RAID-6's own ceiling is a published range (1.07–2.00 M IOPS per array, 1.43 M IOPS charged; "
            "docs/physics.md §12.3.1): at 16 drives the ceiling lies in 2.14–4.00 M IOPS.")
    assert line in c.explain(16) and line in c.explain()   # two arrays: 2 x 1.071 M … 2 x 2.0 M


@pytest.mark.parametrize("topology, workload, overrides", [
    (FAST, nm.Workload("randwrite", "4K"), {"raid.level": "raid5", "raid.width": 8}),   # one source: no range
    (FAST, nm.Workload("randread", "4K"), {"raid.level": "raid6", "raid.width": 8, "raid.md_iops": 1e6}),  # one's own
    (nm.preset("ion-sr71mach5-linux"), nm.Workload("randread", "4K"), {}),  # the CPU binds at both ends (3 M)
])
def test_no_range_sentence_where_there_is_none_or_it_moves_nothing(topology, workload, overrides):
    n = 8
    assert "'s own ceiling is a published range" not in curve(topology, workload, n, **overrides).explain(n)
