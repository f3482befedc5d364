"""The planner's answers say what software sets: the CPU's ceiling over the published range of its cost per I/O
against the target, and Little's law's latency per I/O for the target (issue 29 item 6; docs/physics.md §4.1, §6)."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.plan.ranges import answer_ranges
from nvmemodel.topology.host import STACK_CYCLES_RANGE, IoStack


def _target(iops=20e6):
    return nm.Target(nm.Workload("randread", "4K"), iops=iops)


def _plan(drive="samsung-pm1743", **axes):
    space = nm.DesignSpace(nm.preset("dell-r7525"), {"host": ["amd-epyc-9654:2"], "drive.model": [drive], **axes})
    return nm.plan(_target(), space)


def test_an_answer_says_the_cpu_range_against_the_target_and_the_latency_it_needs():
    p = _plan(**{"workload.io_stack": ["io_uring"]})
    best = p.frame.iloc[0]
    assert int(best["drives"]) == 8  # 8 x 2.5 M
    lines = answer_ranges(p.space, p.targets, best)
    low, high, _ = STACK_CYCLES_RANGE[IoStack.IO_URING]
    cores_hz = 2 * 96 * 2.4e9
    cpu = [line for line in lines if "host_cpu alone" in line]
    assert len(cpu) == 1 and "io_uring 5.3–9.3 K cycles per I/O, 7,550 charged" in cpu[0]
    assert f"{cores_hz / high / 20e6 - 1:+.0%} … {cores_hz / low / 20e6 - 1:+.0%}" in cpu[0]  # +146% … +332%
    # Little's law for the TARGET: 8 drives x QD32 = 256 in flight / 20 M IOPS = 12.8 us (issue 29's arithmetic)
    lat = [line for line in lines if "Little's law" in line]
    assert len(lat) == 1 and "at most 12.8 µs per I/O" in lat[0] and "not known" in lat[0]
    assert "12.8 µs" in p.explain() and "host_cpu alone" in p.explain()


def test_a_merged_answer_is_said_for_each_stack_it_stands_for():
    p = _plan(**{"workload.io_stack": ["io_uring", "libaio"]})
    text = p.explain()
    assert "io_uring 5.3–9.3 K cycles per I/O" in text and "libaio 5.8–10.2 K cycles per I/O" in text


def test_a_drive_with_a_qd1_latency_says_what_queueing_may_add():
    p = _plan("intel-p5800x-800gb")
    best = p.frame.iloc[0]
    n = int(best["drives"])
    (lat,) = [line for line in answer_ranges(p.space, p.targets, best) if "Little's law" in line]
    need = n * 32 / 20e6
    r0 = nm.get_drive("intel-p5800x-800gb").read_latency_s
    assert f"at most {need * 1e6:.3g} µs per I/O" in lat
    assert f"queueing may add at most {(need - r0) * 1e6:.3g} µs per I/O" in lat


def test_a_cost_set_by_the_user_is_not_ranged():
    p = _plan(**{"host.cycles_per_io": [9000.0]})
    lines = answer_ranges(p.space, p.targets, p.frame.iloc[0])
    assert not any("alone" in line for line in lines) and any("Little's law" in line for line in lines)


@pytest.mark.parametrize("base", ["ion-sr71mach5-linux"])
def test_a_calibrated_preset_is_not_ranged(base):
    p = nm.plan(_target(1e6), nm.DesignSpace(nm.preset(base), {"host.gen": [3]}))
    assert len(p.frame)
    assert not any("alone" in line for line in answer_ranges(p.space, p.targets, p.frame.iloc[0]))
