"""A mirror spanning two groups: md RAID-1/10 of one NVMe and one slower SSD per pair (nvmemodel/ceiling/mirror.py,
docs/physics.md §12.9). md's read balancing (Linux drivers/md/raid1.c choose_best_rdev, raid10.c read_balance:
the non-rotational member with the fewest I/Os in flight; WriteMostly members not read) is work-conserving, so
at saturation reads use both members; every write goes to both. Hand-computed with round-number synthetic drives
(labelled synthetic, not catalog entries)."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.mirror import mirror_iops
from nvmemodel.errors import ParameterError

HOST = nm.Host("synthetic 1-socket host", sockets=1, cores_per_socket=16, clock_hz=2e9, gen=4, lanes_per_socket=64,
               cycles_per_io=2000)                      # CPU: 16 x 2e9 / 2000 = 16 M IOPS: never binds here
NVME = nm.Drive("synthetic NVMe", gen=4, lanes=4, rand_read_iops=1e6, rand_write_iops=2e5)
SATA = nm.Drive("synthetic SATA-class SSD", gen=3, lanes=1, rand_read_iops=1e5, rand_write_iops=5e4)


def _raid10(pairs=2, write_mostly=False, **extras):
    return nm.MixedTopology("mixed-member RAID-10", HOST, (
        nm.DriveGroup(NVME, pairs, name="nvme"), nm.DriveGroup(SATA, pairs, name="sata", write_mostly=write_mostly)),
        extras={"raid.level": "raid10", "raid.width": 2 * pairs, **extras}, order="interleaved", mirror=True)


@pytest.mark.parametrize(("workload", "expected", "expected_wm"), [
    # reads: least-pending keeps both busy: 2 pairs x (1.0 M + 0.1 M); write-mostly SATA: NVMe alone, 2 x 1.0 M
    (nm.Workload("randread", "4K"), 2 * 1.1e6, 2 * 1.0e6),
    # writes go to both members: the SATA member's 50 K per pair
    (nm.Workload("randwrite", "4K"), 2 * 5e4, 2 * 5e4),
    # 70/30: every write also on SATA: X <= 50 K / 0.3 = 166,667 per pair, below the shared-read optimum
    # 1.1 M / (0.7 + 0.3 (5 + 2)) = 392,857
    (nm.Workload("randrw", "4K", read_fraction=0.7), 2 * 5e4 / 0.3, 2 * 5e4 / 0.3),
])
def test_mixed_member_raid10(workload, expected, expected_wm):
    for wm, value in ((False, expected), (True, expected_wm)):
        curve = nm.evaluate_mixed(_raid10(write_mostly=wm), workload)
        assert curve.iops_at(4) == pytest.approx(value, rel=1e-12)
        assert curve.iops_at(2) == pytest.approx(value / 2, rel=1e-12)   # one pair
        assert list(curve.drives) == [2, 4]  # complete pairs
        assert curve.binding_at(4) == "drive" and curve.binding_group_at(4) == "array"
        # each write reaches both groups; the reads split so that both members are busy (all on nvme: write-mostly)
        share = curve.group_iops_at(4)
        f = workload.read_fraction
        assert share["nvme"] + share["sata"] == pytest.approx(value * (1 + (1 - f)), rel=1e-12)
        if wm:
            assert share["sata"] == pytest.approx(value * (1 - f), rel=1e-12)


def test_where_write_mostly_costs_and_where_it_does_not():
    """95 % reads: shared reads give 1.1 M / (0.95 + 0.05 x 7) = 846 K per pair (SATA writes cap 1 M: no);
    write-mostly: 1 / (0.95 / 1 M + 0.05 / 200 K) = 833 K per pair. Reads on a slow member add throughput at
    saturation; md's trap is the latency of the reads it sends there, which this ceiling does not show."""
    wl = nm.Workload("randrw", "4K", read_fraction=0.95)
    shared = nm.evaluate_mixed(_raid10(pairs=1, **{"raid.level": "raid1", "raid.width": 2}), wl).iops_at(2)
    assert shared == pytest.approx(1.1e6 / (0.95 + 0.05 * 7), rel=1e-12)
    assert mirror_iops(1e6, 2e5, 1e5, 5e4, 0.95, write_mostly_b=True) == pytest.approx(1 / (0.95e-6 + 0.05 / 2e5),
                                                                                         rel=1e-12)


def test_shared_cpu_limit_binds_for_the_array():
    """16 cores x 2 GHz / (2000 + 30,000 RAID cycles) = 1.0 M host IOPS, below 2.2 M of reads: the host binds."""
    curve = nm.evaluate_mixed(_raid10(**{"raid.cycles_per_io": 30000}), nm.Workload("randread", "4K"))
    assert curve.iops_at(4) == pytest.approx(16 * 2e9 / 32000, rel=1e-12)
    assert curve.binding_at(4) == "host_cpu" and curve.binding_group_at(4) == "host"


def test_large_reads_split_into_chunks_over_the_pairs():
    """RAID-10 with 64 KiB chunks: a 128 KiB read is 2 chunk reads of 64 KiB; each member serves what one such
    drive alone serves on 64 KiB reads (its drive and link limits, nm.evaluate of one drive), both members of both
    pairs busy: 2 pairs x (NVMe + SATA-class) chunk reads / 2 chunks per host read."""
    curve = nm.evaluate_mixed(_raid10(**{"raid.chunk_bytes": 65536}), nm.Workload("randread", "128K"))
    lone = nm.evaluate(nm.Topology("one", HOST, NVME), nm.Workload("randread", "64K"), drives=[1]).iops_at(1)
    sata = nm.evaluate(nm.Topology("one", HOST, SATA), nm.Workload("randread", "64K"), drives=[1]).iops_at(1)
    assert curve.iops_at(4) == pytest.approx(2 * (lone + sata) / 2, rel=1e-12)


@pytest.mark.parametrize(("build", "match"), [
    (lambda: nm.MixedTopology("x", HOST, (nm.DriveGroup(NVME, 2), nm.DriveGroup(SATA, 1)),
                              extras={"raid.level": "raid10"}, order="interleaved", mirror=True), "equal count"),
    (lambda: nm.MixedTopology("x", HOST, (nm.DriveGroup(NVME, 2), nm.DriveGroup(SATA, 2)),
                              extras={"raid.level": "raid10"}, mirror=True), "interleaved"),
    (lambda: nm.MixedTopology("x", HOST, (nm.DriveGroup(NVME, 2), nm.DriveGroup(SATA, 2)),
                              extras={"raid.level": "raid5"}, order="interleaved", mirror=True), "raid1 or raid10"),
    (lambda: nm.MixedTopology("x", HOST, (nm.DriveGroup(NVME, 2), nm.DriveGroup(SATA, 2, write_mostly=True))),
     "mirror=True"),
])
def test_bad_mirror_is_one_clear_error(build, match):
    with pytest.raises(ParameterError, match=match):
        build()


def test_odd_drive_counts_are_refused_and_the_json_is_complete():
    with pytest.raises(ParameterError, match="even total drive counts"):
        nm.evaluate_mixed(_raid10(), nm.Workload("randread", "4K"), drives=[3])
    curve = nm.evaluate_mixed(_raid10(), nm.Workload("randread", "4K"))
    doc = curve.to_dict()
    assert [p["iops"] for p in doc["points"]] == pytest.approx([1.1e6, 2.2e6], rel=1e-12)
    text = curve.explain(4)
    assert "RAID-10 across the groups" in text and "divided by" not in text


@pytest.mark.parametrize("wm", [False, True])
def test_a_mirror_sweeps_like_evaluate(wm):
    """Every configuration of the sweep is nm.evaluate with its values as overrides (the mirror, not two groups)."""
    grid = {"raid.cycles_per_io": [0.0, 0.0], "host.cycles_per_io": [2000.0, 30000.0],
            "workload.read_fraction": [0.7, 0.95]}
    with pytest.raises(ParameterError, match="RAID geometry"):
        nm.sweep(_raid10(write_mostly=wm), nm.Workload("randrw", "4K", read_fraction=0.5), drives=[2, 4], grid=grid)
    grid.pop("raid.cycles_per_io")
    res = nm.sweep(_raid10(write_mostly=wm), nm.Workload("randrw", "4K", read_fraction=0.5), drives=[2, 4], grid=grid)
    for i in range(2):
        over = {k: v[i] for k, v in grid.items()}
        curve = nm.evaluate_mixed(_raid10(write_mostly=wm), nm.Workload("randrw", "4K", read_fraction=0.5),
                                  overrides=over)
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12)
        np.testing.assert_array_equal(res.binding[i], curve.binding)
    with pytest.raises(ParameterError, match="even total drive counts"):
        nm.sweep(_raid10(), nm.Workload("randread", "4K"), drives=[3])



@pytest.mark.parametrize("grid", [{"memory.dma_fraction": [0.38, 0.75]}, {"tree.remote_fraction": [0.0, 0.3]}],
                         ids=["socket DMA share", "remote fraction"])
def test_a_mirror_sweeps_a_host_level_value(grid):
    """A gridded value that moves no side's capacity and no shared system limit, only a host level under the pairs
    (DIFFQA s27 P3: numpy's "more dimensions than allowed" from the sweep, a traceback from the CLI); each row is
    nm.evaluate with its value, as every other sweep of a mirror."""
    topo = nm.MixedTopology("cat mirror", nm.preset("dell-r7525").host, (
        nm.DriveGroup("samsung-pm1733-u2", 4, name="nvme"), nm.DriveGroup("intel-p3700-800gb", 4, name="old")),
        extras={"raid.level": "raid10", "raid.width": 4}, order="interleaved", mirror=True)
    wl = nm.Workload("randrw", "128K", read_fraction=0.7)
    res = nm.sweep(topo, wl, drives=[2, 4, 6, 8], grid=grid)
    assert res.iops.shape == (2, 4)
    (name, values), = grid.items()
    for i, v in enumerate(values):
        curve = nm.evaluate(topo, wl, drives=[2, 4, 6, 8], overrides={name: v})
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12)
        np.testing.assert_array_equal(res.binding[i], curve.binding)

def test_root_complex_limits_are_composed_or_refused_not_ignored():
    """QA round 4, F3: a complex limit the members stay within is composed (listed alone, the answer unchanged);
    one the NVMe member alone exceeds (1.0 M x 4 KiB = 4.1 GB/s through its complex) is refused, naming it."""
    curve = nm.evaluate_mixed(_raid10(**{"tree.complex_bytes_per_s": 20e9}), nm.Workload("randread", "4K"))
    assert curve.iops_at(4) == pytest.approx(2 * 1.1e6, rel=1e-12)
    assert curve.iops_at(4) < curve.ceilings["root_complex"][-1] < np.inf
    with pytest.raises(ParameterError, match="tree.complex_bytes_per_s"):
        nm.evaluate_mixed(_raid10(**{"tree.complex_bytes_per_s": 2e9}), nm.Workload("randread", "4K"))


def test_the_sum_rule_against_a_brute_force_split():
    """The closed form is the best split of the reads: check it against a grid of shares s."""
    rng = np.random.default_rng(7)
    for _ in range(50):
        Ra, Wa, Rb, Wb = rng.uniform(1e4, 1e6, 4)
        f = rng.uniform(0, 1)
        s = np.linspace(0, 1, 200001)
        best = np.max(1 / np.fmax(f * s / Ra + (1 - f) / Wa, f * (1 - s) / Rb + (1 - f) / Wb))
        assert mirror_iops(Ra, Wa, Rb, Wb, f) == pytest.approx(best, rel=1e-4)


def test_the_command_line_builds_the_mirror(capsys):
    """nvmemodel ceilings --group ...,mirror=NAME[,write_mostly=yes] --set raid.level=raid10: the same numbers as
    Python (the preset's root-complex and socket limits set to inf, as a spanning mirror requires)."""
    import json

    from nvmemodel import cli

    args = ["ceilings", "--preset", "dell-r7525", "--pattern", "randread", "--bs", "4K",
            "--group", "drive=samsung-pm1733-u2,count=2,name=nvme",
            "--group", "drive=intel-p3700-800gb,count=2,name=p3700,mirror=nvme,write_mostly=yes",
            "--set", "raid.level=raid10", "--set", "tree.complex_bytes_per_s=inf", "--set", "memory.peak_bytes_per_s=inf",
            "--json"]
    assert cli.main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    dell = nm.preset("dell-r7525")
    topo = nm.MixedTopology("x", dell.host, (nm.DriveGroup("samsung-pm1733-u2", 2, name="nvme"),
                                             nm.DriveGroup("intel-p3700-800gb", 2, name="p3700", write_mostly=True)),
                            extras={**dell.extras, "raid.level": "raid10"}, order="interleaved", mirror=True)
    curve = nm.evaluate_mixed(topo, nm.Workload("randread", "4K"),
                              overrides={"tree.complex_bytes_per_s": np.inf, "memory.peak_bytes_per_s": np.inf})
    assert [p["iops"] for p in doc["points"]] == pytest.approx(list(curve.iops), rel=1e-12)
    assert cli.main([*args[:-1][:9], "--group", "drive=intel-p3700-800gb,count=2,mirror=nope"]) == 2
    assert "--group mirror='nope'" in capsys.readouterr().err


def test_a_mirror_can_be_planned():
    """The fewest drives (complete pairs) meeting 3 M 4K random reads: 2 pairs give 2.2 M, 3 pairs 3.3 M."""
    topo = nm.MixedTopology("mixed-member RAID-10", HOST, (
        nm.DriveGroup(NVME, 4, name="nvme"), nm.DriveGroup(SATA, 4, name="sata")),
        extras={"raid.level": "raid10", "raid.width": 8}, order="interleaved", mirror=True)
    best = nm.plan(nm.Target(nm.Workload("randread", "4K"), iops=3e6), nm.DesignSpace(topo, {})).best
    assert int(best["drives"]) == 6 and best["4K randread|ceiling"] == pytest.approx(3.3e6, rel=1e-12)
