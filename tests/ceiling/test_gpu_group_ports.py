"""GPUs behind the drives' switches in a topology of groups (issue 29; docs/physics.md §12.10): the downstream ports
they take are counted against the drives of the group that owns the switches and of the groups sharing them, as a
single-model topology counts them (``Topology.max_drives``), and the GPUs' links are one per-switch limit shared by
every group on the switch (not one per group).

Broadcom PEX 8749 (catalog): a x16 uplink and 8 x4 downstream ports; a x16 GPU takes ⌈16/4⌉ = 4 of them, a x4 GPU 1."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError

HOST = nm.preset("dell-r7525").host
WL = nm.Workload("read", "128K", iodepth=32)


def _mixed(extras, a=4, b=3, shared=True):
    groups = (nm.DriveGroup("samsung-pm1733-u2", a, switch="broadcom-pex8749", name="a"),
              nm.DriveGroup("intel-p3700-800gb", b, switch_with="a" if shared else None, name="b"))
    return nm.MixedTopology("m", HOST, groups, extras=extras)


def test_gpu_ports_leave_fewer_drive_slots_for_one_group_as_for_a_single_topology():
    gpu = {"gpu.count": 1, "gpu.attach": "switch"}
    single = nm.Topology(name="s", host=HOST, drive=nm.get_drive("samsung-pm1733-u2"),
                         switch=nm.get_switch("broadcom-pex8749"), extras=gpu)
    assert single.max_drives == 4  # 8 ports - 4 a x16 GPU takes
    nm.MixedTopology("m", HOST, (nm.DriveGroup("samsung-pm1733-u2", 4, switch="broadcom-pex8749"),), extras=gpu)
    with pytest.raises(ParameterError, match=r"at most 4 drives .* 4 taken by the 1 GPU\(s\) of x16"):
        nm.MixedTopology("m", HOST, (nm.DriveGroup("samsung-pm1733-u2", 5, switch="broadcom-pex8749"),), extras=gpu)


def test_groups_sharing_the_switch_count_with_the_gpus_ports():
    with pytest.raises(ParameterError, match="at most 4 drives on the switches of a"):
        _mixed({"gpu.count": 1, "gpu.attach": "switch"}, a=3, b=2)  # 3 + 2 > 8 - 4
    assert _mixed({"gpu.count": 1, "gpu.attach": "switch"}, a=2, b=2).max_drives == 4
    assert _mixed({"gpu.count": 1, "gpu.attach": "switch", "gpu.lanes": 4}).max_drives == 7  # a x4 GPU: one port
    assert _mixed({"gpu.count": 1, "gpu.attach": "root_port"}, a=4, b=4).max_drives == 8  # not on the switch
    with pytest.raises(ParameterError, match="at most 4 drives"):  # the same check for overrides
        nm.evaluate(_mixed({}), WL, drives=[7], overrides={"gpu.count": 1, "gpu.attach": "switch"})


def test_a_group_on_root_ports_is_refused_when_the_gpus_sit_behind_another_groups_switch():
    with pytest.raises(ParameterError, match="b on root ports would send its data through another group's switch"):
        _mixed({"gpu.count": 1, "gpu.attach": "switch"}, a=2, b=2, shared=False)


def test_the_gpu_link_is_one_limit_shared_by_the_groups_on_its_switch():
    # one Gen4 x4 GPU behind the switch: 7 drives (4 PM1733 + 3 P3700) read into it; its link binds once, for all
    t = _mixed({"gpu.count": 1, "gpu.attach": "switch", "gpu.lanes": 4, "gpu.gen": 4})
    c = nm.evaluate(t, WL, drives=[4, 7])
    single = nm.Topology(name="s", host=HOST, drive=nm.get_drive("samsung-pm1733-u2"),
                         switch=nm.get_switch("broadcom-pex8749"), extras=dict(t.extras))
    one = float(nm.evaluate(single, WL, drives=[1]).ceilings["gpu_link"][0])  # one GPU's link alone
    # Gen4 x4 = 7.877 GB/s raw after 128b/130b; 128 KiB reads in 256-byte TLPs keep about 91 % of it
    assert one * 131072 == pytest.approx(7.18e9, rel=0.01)
    assert list(c.iops) == pytest.approx([one, one], rel=1e-9)  # not 2 x one: the second group shares it
    assert list(c.binding) == ["gpu_link", "gpu_link"]
