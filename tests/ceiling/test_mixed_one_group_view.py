"""A curve of one drive model answers the questions of groups as the one group of a mixed topology
(docs/topologies.md "What binds"): what holds it, its share, where its drives sit — the composition of groups
computes them, and the binding it names is the single-model kernel's own at every point."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.topology.presets import PRESETS


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("workload", [nm.Workload("randread", "4K"), nm.Workload("read", "128K"),
                                      nm.Workload("randwrite", "4K")], ids=["4K randread", "128K read", "4K randwrite"])
def test_a_uniform_curve_is_its_one_group(preset, workload):
    topo = nm.preset(preset)
    curve = nm.evaluate(topo, workload)
    one = nm.evaluate(nm.MixedTopology.from_topology(topo), workload, drives=curve.drives)
    for n in (int(x) for x in curve.drives):
        held = curve.held_by_at(n)
        assert held == one.held_by_at(n) and curve.describe_binding_at(n) == one.describe_binding_at(n)
        # the component named is the uniform kernel's binding one, the group's own or a shared level's
        assert set(held) == {"group 0"} and held["group 0"].removeprefix("host: ") == curve.binding_at(n)
        assert curve.binding_group_at(n) in ("group 0", "host")
        assert curve.group_iops_at(n)["group 0"] == pytest.approx(curve.iops_at(n), rel=1e-12)
        placed = curve.placed_at(n)
        assert placed == one.placed_at(n) and sum(c for _, gs in placed for c in gs.values()) == n


def test_a_shared_limit_is_said_as_the_host():
    """The Dell with 30,000 cycles per I/O: 2 x 64 cores x 2.25 GHz / 30,000 = 9.6 M IOPS caps 24 drives' 4K reads."""
    curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[1, 24],
                        overrides={"host.cycles_per_io": 30000})
    assert curve.binding_at(24) == "host_cpu" and curve.describe_binding_at(24) == "host: host_cpu"
    assert curve.describe_binding_at(1) == f"group 0: {curve.binding_at(1)}"


def test_a_curve_asked_of_its_groups_still_pickles_and_copies():
    """The one-group view is kept on the curve once asked; a copy or a pickle of the curve answers the same."""
    import copy
    import pickle

    curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[2, 24])
    held = curve.held_by_at(24)
    for other in (pickle.loads(pickle.dumps(curve)), copy.deepcopy(curve)):
        assert other.held_by_at(24) == held and other.placed_at(2) == curve.placed_at(2)
