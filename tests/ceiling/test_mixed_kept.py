"""A mixed topology's grid is checked once whatever its number of groups, and its groups' levels are kept as a
single-model topology's are (:func:`~nvmemodel.ceiling.system.levels_of`): evaluated again, nothing is composed
anew and the numbers are the same bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling import system
from nvmemodel.errors import ParameterError

DELL = nm.preset("dell-r7525")
SWITCHED = nm.DriveGroup("intel-p3700-800gb", 8, switch="broadcom-pex9797", switch_count=2, name="sw")
DIRECT = nm.DriveGroup("samsung-pm1733-u2", 4, name="direct")
WL = nm.Workload("read", "128K")


def _mixed(*groups):
    return nm.MixedTopology("t", DELL.host, groups, extras=dict(DELL.extras))


@pytest.mark.parametrize("groups", [(SWITCHED,), (SWITCHED, DIRECT)], ids=["one group", "two groups"])
def test_a_switch_setting_sweeps_as_evaluate_overrides_it(groups):
    # the one-group sweep refused switch.efficiency (a "switch." name) that two groups and nm.evaluate accept
    t = _mixed(*groups)
    grid = {"switch.efficiency": [0.5, 0.9]}
    res = nm.sweep(t, WL, drives=range(1, t.max_drives + 1), grid=grid)
    for i, eff in enumerate(grid["switch.efficiency"]):
        curve = nm.evaluate(t, WL, overrides={"switch.efficiency": eff})
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12, atol=0)
        np.testing.assert_array_equal(res.binding[i], curve.binding)
    assert not np.array_equal(res.iops[0], res.iops[1])  # the setting reaches the switches (8 drives on 2)


@pytest.mark.parametrize("groups", [(SWITCHED,), (SWITCHED, DIRECT)], ids=["one group", "two groups"])
@pytest.mark.parametrize("name", ["drive.model", "switch.model", "host.port_lanes"])
def test_a_groups_own_parameter_is_one_error_whatever_the_groups(groups, name):
    value = {"drive.model": "samsung-pm1743", "switch.model": "broadcom-pex9797", "host.port_lanes": 8}[name]
    with pytest.raises(ParameterError, match="set a group's drive, switch model and lanes on its DriveGroup") as e:
        nm.sweep(_mixed(*groups), WL, drives=[1, 2], grid={name: [value]})
    assert name in str(e.value)


def test_a_switch_setting_without_a_switch_is_refused_for_one_group():
    with pytest.raises(ParameterError, match="no switch"):
        nm.sweep(_mixed(DIRECT), WL, drives=[1, 2], grid={"switch.efficiency": [0.5]})


def _count_levels(monkeypatch):
    built = []
    init = system.Levels.__init__

    def counting(self, p):
        built.append(1)
        init(self, p)

    monkeypatch.setattr(system.Levels, "__init__", counting)
    return built


def test_a_mixed_topology_evaluated_again_composes_its_kept_levels(monkeypatch):
    t = _mixed(SWITCHED, DIRECT)
    first = nm.evaluate(t, WL)
    built = _count_levels(monkeypatch)
    again = nm.evaluate(t, WL)
    again.placed_at(6)
    again.shared_level_at(12)
    assert built == []
    np.testing.assert_array_equal(again.iops, first.iops)
    np.testing.assert_array_equal(again.group_iops, first.group_iops)
    assert list(again.binding) == list(first.binding)


def test_a_curves_groups_are_composed_on_its_kept_levels(monkeypatch):
    curve = nm.evaluate(DELL, WL, drives=range(1, 25))
    built = _count_levels(monkeypatch)
    shares = curve.group_iops_at(12)
    assert built == []
    assert list(shares) == ["group 0"]
    assert shares["group 0"] == pytest.approx(float(curve.iops[11]), rel=1e-12)  # summed in another order at most
