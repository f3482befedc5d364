"""ceiling/group_parameters.py and ceiling/placement.py: what a mixed topology's groups share, what is a group's own
or its switches', and whose switches a group sits behind (docs/topologies.md; docs/physics.md §12.7)."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.ceiling.group_parameters import each_group, shared_parameters, shared_values, with_parameters
from nvmemodel.ceiling.placement import drives_per_group, switch_host
from nvmemodel.errors import ParameterError

DELL = nm.preset("dell-r7525")
WL = nm.Workload("read", "128K")
# direct x8, behind one PEX9797, and a group sharing that switch
MIXED = nm.MixedTopology("m", DELL.host, (
    nm.DriveGroup("samsung-pm1733-u2", 4, lanes=8),
    nm.DriveGroup("intel-p3700-800gb", 4, switch="broadcom-pex9797"),
    nm.DriveGroup("intel-p3700-800gb", 4, switch_with="group 1")), extras=dict(DELL.extras))


def test_the_shared_vector_is_what_every_group_holds_and_nothing_a_group_owns():
    shared = shared_parameters(MIXED, WL)
    assert not [k for k in shared if k.startswith(("drive.", "switch.", "attach.", "host.port_lanes"))]
    assert "host.cycles_per_io" in shared and "workload.block_size" in shared
    for i in range(len(MIXED.groups)):
        own = MIXED.group_topology(i).parameters(WL)
        assert {k: own[k] for k in shared} == shared
    assert shared_parameters(DELL, WL) == DELL.parameters(WL)  # a Topology: one group, its whole vector


def test_a_switch_setting_reaches_the_groups_behind_the_switch_only():
    values = {"switch.efficiency": 0.7, "host.cycles_per_io": 5000}
    taken = [mine for _, _, _, mine in each_group(MIXED, WL, values, shared_values(MIXED, values))]
    assert taken[0] == {"host.cycles_per_io": 5000}  # the direct group has no switch
    assert taken[1] == taken[2] == values
    changed, wl, topos, _ = with_parameters(MIXED, values, WL)
    assert [t.switch and t.switch.efficiency for t in topos] == [None, 0.7, 0.7]
    assert [t.parameters(wl)["host.cycles_per_io"] for t in topos] == [5000.0] * 3
    assert changed.groups[1].switch.efficiency == 0.7 and changed.groups[2].switch is None  # the sharer owns none
    assert changed.host.port_lanes == DELL.host.port_lanes  # group 0's x8 stays on its DriveGroup


def test_no_values_leave_the_topology_as_it_is():
    same, wl, topos, wls = with_parameters(MIXED, {}, WL)
    assert same is MIXED and wl is WL and wls == [WL] * 3
    assert topos == [MIXED.group_topology(i) for i in range(3)]


@pytest.mark.parametrize(("values", "grid", "match"), [
    ({"drive.model": "intel-p5800x-800gb"}, False, r"drive.model=.*lanes on its DriveGroup$"),
    ({"host.port_lanes": 4}, True, r"host.port_lanes='\(grid\)'.*nm.sweep\(mixed.group_topology\(i\)"),
])
def test_a_groups_own_value_is_refused(values, grid, match):
    with pytest.raises(ParameterError, match=match):
        shared_values(MIXED, values, grid=grid)


def test_a_switch_setting_needs_one_switch_model():
    two = nm.MixedTopology("two", DELL.host, (nm.DriveGroup("intel-p3700-800gb", 4, switch="broadcom-pex9797"),
                                              nm.DriveGroup("intel-p3700-800gb", 4, switch="lenovo-810-4p")))
    with pytest.raises(ParameterError, match="switch.efficiency=0.7.*hold one switch model"):
        shared_values(two, {"switch.efficiency": 0.7})


def test_a_sharer_sits_behind_its_owners_switches():
    assert [switch_host(MIXED, i) for i in range(3)] == [None, None, 1]
    assert MIXED.group_topology(2).switch == MIXED.groups[1].switch
    assert drives_per_group(MIXED, [1, 5, 12]).tolist() == [[1, 4, 4], [0, 1, 4], [0, 0, 4]]
