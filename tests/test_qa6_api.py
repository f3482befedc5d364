"""QA s25 H32 (plot_results / read_fio_logs parts), H33 and H34: the Python entry points answer a wrong argument
with one error naming it, and a component's wording says where its value is not from a spec sheet."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError


# ---------------------------------------------------------------- H33: nm.plan(target, topology)
def _target():
    return nm.Target(nm.Workload("read", "128K"), bytes_per_s=60e9)


def _mixed():
    dell = nm.preset("dell-r7525")
    return nm.MixedTopology("p3700 then optane", dell.host, (nm.DriveGroup("intel-p3700-800gb", 8, name="p3700"),
                            nm.DriveGroup("intel-p5800x-800gb", 8, name="optane")), extras=dict(dell.extras))


@pytest.mark.parametrize("space", [lambda: nm.preset("dell-r7525"), lambda: "dell-r7525"], ids=["topology", "name"])
def test_h33_a_topology_or_preset_name_is_the_space_without_axes(space):
    # was AttributeError: 'Topology' object has no attribute 'size' ('str' ...) from inside the planner
    got = nm.plan(_target(), space())
    want = nm.plan(_target(), nm.DesignSpace("dell-r7525", {}))
    assert got.evaluated == want.evaluated == 1
    assert int(got.best["drives"]) == int(want.best["drives"]) == 9   # 9 x 7.2 GB/s Gen4 x4 links > 60 GB/s
    assert got.best["128K read|binding"] == "pcie_link"
    assert got.table().equals(want.table())


def test_h33_a_mixed_topology_is_the_space_without_axes():
    target = nm.Target(nm.Workload("randread", "4K"), iops=2e6)
    mixed = _mixed()
    got = nm.plan(target, mixed)
    want = nm.plan(target, nm.DesignSpace(mixed, {}))
    assert int(got.best["drives"]) == int(want.best["drives"]) == 5   # 5 P3700s x 460 K >= 2 M
    assert got.table().equals(want.table())


@pytest.mark.parametrize("bad", [24, None, {"host.gen": [4]}])
def test_h33_anything_else_is_one_error_naming_space(bad):
    with pytest.raises(ParameterError) as err:
        nm.plan(_target(), bad)
    assert err.value.parameter == "space"
    assert "expected a DesignSpace" in str(err.value) and "preset name" in str(err.value)


def test_h33_a_design_space_of_no_topology_is_one_error_naming_base():
    with pytest.raises(ParameterError) as err:
        nm.DesignSpace(24, {})
    assert err.value.parameter == "base"
    assert "expected a topology" in str(err.value)
