"""Ranges, not points, where the CPU's cost per I/O is uncertain (issue 29 item 6; docs/physics.md §4.1, §6).

The ranges' ends are checked against the published figures that set them (tolerance: the rounding to 10 cycles);
the curve's range against a hand computation of the same kernel; the points compared after the range was set are
NOT blind (docs/physics.md §4.1 says which were seen)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.ranges import cost_ranges, curve_range, littles_law_need, range_lines
from nvmemodel.topology.host import STACK_CYCLES, STACK_CYCLES_RANGE, IoStack, with_host


def test_io_uring_range_is_its_published_per_core_points():
    low, high, _ = STACK_CYCLES_RANGE[IoStack.IO_URING]
    # github.com/axboe/fio/issues/1206: 638k IOPS, one Ice Lake core at 100 %, the assumed 8380's 3.4 GHz boost
    assert low == pytest.approx(3.4e9 / 638e3, abs=5)
    # github.com/ParAlg/PLAID fio/results/ssd_block_size.txt: 16 KiB reads, 0.885 / 1.66 / 3.33 / 6.41 M IOPS with
    # 2 / 4 / 8 / 16 jobs at 92-93 % of a CPU each: median per job 415.6 K, at 0.925 of the 3995WX's 4.2 GHz boost
    per_job = np.median([0.885e6 / 2, 1.66e6 / 4, 3.33e6 / 8, 6.41e6 / 16])
    assert high == pytest.approx(0.925 * 4.2e9 / per_job, abs=5)


def test_spdk_range_is_its_three_perf_tool_points():
    low, high, _ = STACK_CYCLES_RANGE[IoStack.SPDK]
    assert low == pytest.approx(3.4e9 / 12.62e6, abs=1)       # [SPDK21] 8380 at 3.4 GHz, 12.62 M 4 KiB IOPS
    assert high == pytest.approx(4.0e9 / 10.32e6, abs=5)      # [SPDK19] 8280L at 4.0 GHz, 10.32 M
    assert low < 3.8e9 / 12.51e6 < high                        # [SPDK23] 8480+ at 3.8 GHz, 12.51 M: inside


def test_psync_high_end_is_the_turbo_reading_of_its_one_point():
    _, high, _ = STACK_CYCLES_RANGE[IoStack.PSYNC]
    assert high == pytest.approx(17300 * 3.3 / 2.2, abs=5)    # [OBERSTET] at the E7-8880 v4's turbo, not its base


@pytest.mark.parametrize("stack", list(IoStack))
def test_every_point_lies_in_its_range(stack):
    low, high, source = STACK_CYCLES_RANGE[stack]
    assert low <= STACK_CYCLES[stack][0] <= high
    assert low < high and source


def _genoa(stack="io_uring", drives=range(1, 25), **over):
    topo = with_host(nm.preset("dell-r7525"), nm.get_host("amd-epyc-9654"))
    return nm.evaluate(topo, nm.Workload("randread", "4K", io_stack=stack), drives=list(drives),
                       overrides={"drive.model": "samsung-pm1743", **over})


def test_the_curve_is_evaluated_at_both_ends_of_the_range():
    curve = _genoa()
    r = curve_range(curve)
    cores_hz = 2 * 96 * 2.4e9  # 2 x EPYC 9654 at the 2.4 GHz base
    low, high, _ = STACK_CYCLES_RANGE[IoStack.IO_URING]
    # at the dearest the CPU binds at 24 drives: its ceiling, below the drives' 24 x 2.5 M
    assert r.at(24)[0] == pytest.approx(cores_hz / high, rel=1e-12)
    assert r.at(24)[1] == pytest.approx(24 * 2.5e6, rel=1e-12)       # cheapest: the drives bind
    assert r.cpu_binds_from(r.binding_low) == int(np.ceil(cores_hz / high / 2.5e6))  # 20 drives
    assert r.cpu_binds_from(r.binding_high) is None and r.cpu_binds_from(curve.binding) is None
    assert r.cpu_alone_at(24)["host_cpu"] == pytest.approx((cores_hz / high, cores_hz / low), rel=1e-12)


def test_the_explanations_say_the_range():
    curve = _genoa()
    along = curve.explain()
    assert "io_uring 5.3–9.3 K cycles per I/O, 7,550 charged" in along
    assert "the CPU binds from 20 drives at the dearest; not within 1–24 drives at the charged cost and the cheapest" \
        in along
    point = curve.explain(24)
    assert "this ceiling lies in 49.28–60.00 M IOPS (at the charged cost 60.00 M IOPS)" in point
    assert "host_cpu alone 49.28–86.45 M IOPS (headroom -17.9% … +44.1%)" in point


def test_the_json_carries_the_range():
    doc = json.loads(json.dumps(_genoa(drives=[8, 24]).to_dict()))
    cr = doc["cost_range"]
    assert cr["costs"][0]["parameter"] == "host.cycles_per_io" and cr["costs"][0]["low"] == 5330.0
    assert cr["dearest"]["binding"] == ["drive", "host_cpu"] and cr["dearest"]["cpu_binds_from"] == 24
    assert cr["cheapest"]["cpu_binds_from"] is None


def test_a_cost_of_ones_own_is_not_ranged():
    curve = _genoa(**{"host.cycles_per_io": 9000.0})
    assert cost_ranges(curve.parameters, curve.sources) == []
    assert curve_range(curve) is None and curve.to_dict()["cost_range"] is None
    assert "Over the published range" not in curve.explain(24)


@pytest.mark.parametrize("preset", ["ion-sr71mach5-linux", "ion-sr71mach5-windows", "dell-r7525"])
def test_calibrated_presets_are_not_ranged(preset):
    # ION: a RAID remainder calibrated against a measured total; the R7525: libaio calibrated on Dell's paper
    curve = nm.evaluate(nm.preset(preset), nm.Workload("randread", "4K"))
    assert curve_range(curve) is None


def test_another_stack_of_a_calibrated_host_scales_the_range_as_the_point():
    curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K", io_stack="psync"))
    (c,) = cost_ranges(curve.parameters, curve.sources)
    ratio = 10000.0 / 8200.0  # the R7525's libaio calibration over libaio's default
    assert c.point == pytest.approx(17300 * ratio)
    assert (c.low, c.high) == pytest.approx((12210 * ratio, 25950 * ratio))


def test_points_compared_after_the_range_was_set_not_blind():
    """docs/physics.md §4.1: seen before the range was set; compared, not fitted."""
    def cpu_range(host, cores):
        low, high, _ = STACK_CYCLES_RANGE[IoStack.IO_URING]
        h = nm.get_host(host)
        return cores * h.clock_hz / high, cores * h.clock_hz / low
    lo, hi = cpu_range("amd-threadripper-pro-3955wx", 16)
    assert lo < 11e6 < hi                      # [TP] > 11 M IOPS on 16 cores (not all busy)
    lo, hi = cpu_range("amd-threadripper-pro-3995wx", 64)
    assert lo < 22.7e6 < hi                    # [PLAID] 4 KiB plateau
    lo, hi = cpu_range("amd-epyc-9654", 192)
    assert 38.5e6 < lo and 38.5e6 / lo == pytest.approx(0.78, abs=0.01)   # [TP25] Genoa: 22 % under the low end


def test_littles_law_need_beside_the_drive_latency():
    # issue 29's arithmetic: QD32 at 2.5 M IOPS per drive = 12.8 us; the PM1743's QD1 latency is not in the catalog
    text = littles_law_need(_genoa(drives=[8]), 8)
    assert "8 drives x QD32 x 1 job each = 256 I/Os in flight reach 20.00 M IOPS" in text
    assert "at most 12.8 µs per I/O" in text and "not known" in text
    # a drive with a QD1 latency in its sheet: the P4510's 77 us, queue depth 32 -> 32 / 77 us = 415.6 K per drive
    curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[4],
                        overrides={"drive.model": "intel-p4510-2tb"})
    text = littles_law_need(curve, 4)
    assert f"at most {32 / curve.iops_at(4) * 4 * 1e6:.3g} µs" in text
    # queue_depth binds: N / X = R0, so no room for queueing
    assert "the drive's QD1 read latency is 77 µs (recalled), so queueing may add at most 0 µs per I/O" in text


def test_a_topology_of_groups_is_ranged_as_it_is_composed():
    host = nm.get_host("amd-epyc-9654", sockets=1)
    t = nm.MixedTopology("two", host, (nm.DriveGroup("samsung-pm1743", 8), nm.DriveGroup("samsung-pm1733-u2", 8)))
    curve = nm.evaluate(t, nm.Workload("randread", "4K", io_stack="io_uring"), drives=[4, 16])
    r = curve_range(curve)
    low, high, _ = STACK_CYCLES_RANGE[IoStack.IO_URING]
    dear, cheap = r.at(16)
    assert dear == pytest.approx(96 * 2.4e9 / high, rel=1e-12) and r.binding_low[-1] == "host_cpu"
    assert cheap > curve.iops_at(16) and r.binding_high[-1] != "host_cpu"  # the drives bind at the cheapest
    assert r.cpu_alone_at(16)["host_cpu"] == pytest.approx((96 * 2.4e9 / high, 96 * 2.4e9 / low), rel=1e-12)
    assert curve.to_dict()["cost_range"]["dearest"]["cpu_binds_from"] == 16
    assert "Over the published range of the CPU's cost (io_uring" in curve.explain(16)


def test_a_mirror_spanning_two_groups_is_not_ranged():
    t = nm.MixedTopology("mirror", nm.get_host("amd-epyc-9654"), (nm.DriveGroup("samsung-pm1743", 4, name="a"),
                         nm.DriveGroup("samsung-pm1733-u2", 4, name="b")), extras={"raid.level": "raid10", "raid.width": 4},
                         order="interleaved", mirror=True)
    curve = nm.evaluate(t, nm.Workload("randread", "4K", io_stack="io_uring"), drives=[8])
    assert curve_range(curve) is None and range_lines(curve) == []
