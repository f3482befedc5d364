"""GPUs behind the drives' switches take downstream ports in the planner and in a sweep over ``gpu.count`` (issue 29;
docs/physics.md §12.10), as ``Topology.max_drives`` and a topology of groups already count them.

Catalog switch Broadcom PEX 8749 (``nvmemodel/catalog/switches.csv``: a x16 uplink and 8 x4 downstream ports): a x16
GPU takes ⌈16/4⌉ = 4 ports, a x4 GPU one. Two x16 GPUs under one such switch take all 8: no drive fits. The counts
below are what those port numbers give; a planner or sweep that forgot the GPUs would offer 8 (or 16) slots."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError

HOST = nm.preset("dell-r7525").host
READ = nm.Workload("read", "128K")
RANDREAD = nm.Workload("randread", "4K")


def _single(**extras):
    return nm.Topology(name="s", host=HOST, drive=nm.get_drive("samsung-pm1733-u2"),
                       switch=nm.get_switch("broadcom-pex8749"), extras=extras)


def test_a_plan_offers_no_drive_slot_a_gpu_takes():
    t = _single(**{"gpu.attach": "switch", "gpu.gen": 4})
    # 6 M 4K reads need 7 PM1733 behind the switch (its x16 Gen3 uplink carries only commands with a GPU behind it):
    # with one x16 GPU only 4 ports are left, with two none; before, both were offered 7 drives
    p = nm.plan([nm.Target(RANDREAD, iops=6e6)], nm.DesignSpace(t, {"gpu.count": [1, 2]}))
    assert len(p.frame) == 0
    (reason,) = p.rejected["reason"]
    assert reason.endswith("4 drives is the most it can attach: 4 = switch.count 1 × (switch.ports 8 − 4 taken by "
                           "the GPUs behind each switch)")
    assert "with 4 drives" in reason
    # a target 4 drives meet: gpu.count 1 answers with 4; gpu.count 2 leaves no port (0 drives), never an answer
    p = nm.plan([nm.Target(RANDREAD, iops=3e6)], nm.DesignSpace(t, {"gpu.count": [1, 2], "gpu.lanes": [4, 16]}))
    assert list(p.frame["drives"]) == [4]  # the fewest drives of any configuration meeting it
    # (2, x4) and (1, x16) meet it with 4 drives (6 and 4 ports left); one x4 Gen4 GPU's link carries 1.75 M 4K
    # reads (binds; 7 ports left), two x16 take all 8 ports
    assert p.feasible == 2 and p.frame["configurations"][0] == 2
    (near,) = p.near_misses["reason"]
    assert "with 7 drives" in near and "[gpu_link]" in near


def test_a_plan_without_gpus_behind_the_switch_keeps_every_port():
    t = _single(**{"gpu.attach": "root_port", "gpu.gen": 4})
    p = nm.plan([nm.Target(RANDREAD, iops=20e6)], nm.DesignSpace(t, {"gpu.count": [1]}))
    assert "8 drives is the most it can attach: 8 = switch.count 1 × switch.ports 8" in p.rejected["reason"][0]


def test_a_whole_switch_of_gpus_leaves_the_planner_no_drives():
    t = _single(**{"gpu.attach": "switch", "gpu.gen": 4})
    p = nm.plan([nm.Target(RANDREAD, iops=1e6)], nm.DesignSpace(t, {"gpu.count": [2], "raid.level": ["none"]}))
    assert len(p.frame) == 0
    assert p.rejected["reason"][0] == ("4K randread has no drives: 0 drives is the most it can attach: 0 = "
                                       "switch.count 1 × (switch.ports 8 − 8 taken by the GPUs behind each switch)")


def test_two_switches_share_the_gpus():
    # 4 x16 GPUs over 2 PEX 8749: 2 under each take all 8 ports; 2 GPUs (1 each): 2 x (8 - 4) = 8 slots
    t = _single(**{"gpu.attach": "switch", "gpu.gen": 4}).replace(switch_count=2)
    p = nm.plan([nm.Target(RANDREAD, iops=20e6)], nm.DesignSpace(t, {"gpu.count": [2]}))
    assert "8 = switch.count 2 × (switch.ports 8 − 4 taken by" in p.rejected["reason"][0]


def test_a_sweep_over_gpu_count_refuses_gpus_that_leave_too_few_ports():
    t = _single()
    grid = {"gpu.count": [0, 1, 2], "gpu.attach": ["switch"] * 3}
    with pytest.raises(ParameterError) as err:
        nm.sweep(t, READ, drives=range(1, 6), grid=grid)  # 5 drives: the x16 GPU leaves 4 ports
    assert err.value.parameter == "gpu.count" and "configuration 1 of the grid" in str(err.value)
    assert "take 4 of each (gpu.attach=switch), leaving 4 drive slots (2 of 3 configurations)" in str(err.value)
    ok = nm.sweep(t, READ, drives=range(1, 5), grid={"gpu.count": [0, 1], "gpu.attach": ["switch"] * 2})
    assert ok.iops.shape == (2, 4)
    # the sweep's numbers are evaluate's at each count
    one = nm.evaluate(_single(**{"gpu.attach": "switch", "gpu.count": 1}), READ, drives=[1, 2, 3, 4])
    assert list(ok.iops[1]) == pytest.approx(list(one.iops), rel=1e-12)
    with pytest.raises(ParameterError, match="leaving 0 drive slots"):
        nm.sweep(t, READ, drives=[1], grid={"gpu.count": [2], "gpu.attach": ["switch"]})
    # x4 GPUs take one port each: 2 leave 6
    nm.sweep(t, READ, drives=range(1, 7), grid={"gpu.count": [2], "gpu.lanes": [4], "gpu.attach": ["switch"]})


def test_a_sweep_of_groups_over_gpu_count_counts_their_ports():
    m = nm.MixedTopology("m", HOST, (nm.DriveGroup("samsung-pm1733-u2", 5, switch="broadcom-pex8749", name="a"),),
                         extras={"gpu.attach": "switch", "gpu.gen": 4})
    with pytest.raises(ParameterError, match=r"gpu.count='1 \(x16, in the grid\)'.*at most 4 drives on the switches "
                                             r"of a"):
        nm.sweep(m, READ, drives=range(1, 6), grid={"gpu.count": [0, 1]})  # was accepted: 5 drives + a x16 GPU
    s = nm.sweep(m, READ, drives=range(1, 6), grid={"gpu.count": [0, 1], "gpu.lanes": [16, 4]})  # x4: 7 ports left
    assert s.iops.shape == (2, 5)
    with pytest.raises(ParameterError, match="gpu.count"):  # the planner of a mixed base refuses it the same way
        nm.plan([nm.Target(READ, iops=1e5)], nm.DesignSpace(m, {"gpu.count": [0, 1]}))
