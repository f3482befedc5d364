"""A mixed topology's switch settings are fittable (nm.fit with the ceiling model; docs/topologies.md "Fit it").

``switch.efficiency``, ``switch.per_command_s`` and ``switch.per_tlp_s`` set every group's switches (the groups
behind switches hold one model); groups without a switch do not take them. The series are SYNTHETIC: the model's
own curve at a known value, times seeded 1 % Gaussian noise (numpy default_rng(22)), recovered by the fit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError

DELL = nm.preset("dell-r7525")
WL = nm.Workload("read", "128K")


def _mixed(*groups) -> nm.MixedTopology:
    return nm.MixedTopology("gen4 + gen3", DELL.host, groups or (
        nm.DriveGroup("samsung-pm1733-u2", 8, name="gen4"),
        nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797", switch_count=2, name="gen3")),
        extras=dict(DELL.extras))


def test_a_switch_override_sets_the_switched_groups_only():
    """Uplink efficiency 0.6: each of gen3's two uplinks carries 0.6 of its 1.0-efficiency value; gen4's direct
    drives (no switch) keep their 51.2 GB/s (8 x 6.4 GB/s, spec)."""
    base = nm.evaluate(_mixed(), WL, drives=[24])
    low = nm.evaluate(_mixed(), WL, drives=[24], overrides={"switch.efficiency": 0.6})
    assert low.group_iops_at(24)["gen4"] == pytest.approx(base.group_iops_at(24)["gen4"], rel=1e-12)
    assert low.group_iops_at(24)["gen3"] == pytest.approx(0.6 * base.group_iops_at(24)["gen3"], rel=1e-12)
    assert low.topology.groups[1].switch.efficiency == 0.6 and low.group_parameters[1]["switch.efficiency"] == 0.6


def test_fit_recovers_the_uplink_efficiency_of_a_mixed_topology():
    rng = np.random.default_rng(22)
    n = np.arange(2, 25, 2)
    truth = nm.evaluate(_mixed(), WL, drives=n, overrides={"switch.efficiency": 0.7}).iops
    y = truth * (1 + 0.01 * rng.standard_normal(n.size))  # synthetic, seeded
    df = pd.DataFrame([{"source_path": f"run{i}.json", "group_id": 0, "final": True, "is_aggregate": False,
                        "job_name": "j", "direction": "read", "pattern": "read", "iops": v,
                        "bw_bytes_per_s": v * 131072.0, "ios": v * 10, "block_size_bytes": 131072.0,
                        "drives": float(x)} for i, (x, v) in enumerate(zip(n, y, strict=True))])
    r = nm.fit(df, x="drives", y="iops", model="ceiling", topology=_mixed(), workload=WL, free=["switch.efficiency"])
    est = r.params.set_index("name").loc["switch.efficiency", "value"]
    assert est == pytest.approx(0.7, abs=0.02)  # 1 % noise on the points where the uplinks bind


@pytest.mark.parametrize(("groups", "match"), [
    ((nm.DriveGroup("samsung-pm1733-u2", 8),), "no switch"),
    ((nm.DriveGroup("intel-p3700-800gb", 8, switch="broadcom-pex9797", name="a"),
      nm.DriveGroup("intel-p3700-800gb", 4, switch="broadcom-pex9733", name="b")), "one switch model"),
])
def test_a_switch_override_needs_one_switch_model(groups, match):
    with pytest.raises(ParameterError, match=match):
        nm.evaluate(_mixed(*groups), WL, overrides={"switch.efficiency": 0.8})


def test_a_switch_model_is_still_a_groups_own():
    with pytest.raises(ParameterError, match="on its DriveGroup"):
        nm.evaluate(_mixed(), WL, overrides={"switch.ports": 32})


@pytest.mark.parametrize("order", ["switched last", "switched first"])
def test_a_sweep_over_the_switch_setting_is_evaluate_at_each_value(order):
    gen4 = nm.DriveGroup("samsung-pm1733-u2", 8, name="gen4")
    gen3 = nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797", switch_count=2, name="gen3")
    topo = _mixed(gen4, gen3) if order == "switched last" else _mixed(gen3, gen4)
    values = [1.0, 0.8, 0.6]
    res = nm.sweep(topo, WL, drives=[8, 16, 24], grid={"switch.efficiency": values})
    assert list(res.grid) == ["switch.efficiency"] and res.iops.shape == (3, 3)
    for i, e in enumerate(values):
        curve = nm.evaluate(topo, WL, drives=[8, 16, 24], overrides={"switch.efficiency": e})
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12)
        np.testing.assert_array_equal(res.binding[i], curve.binding)
