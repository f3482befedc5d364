"""QA round 4, F26: a ``host`` axis whose every configuration shares one host tree (one catalog CPU, or CPUs of
one platform) crashed the planner with a numpy broadcast error; the answer must equal the plan of the same
system built by ``nm.with_host`` (no axis)."""
import pytest

import nvmemodel as nm
from nvmemodel.plan import STANDARD_WORKLOADS as W

_HOSTS = list(nm.host_catalog()["key"])
_TARGETS = {"4k": nm.Target(W["4k-randread"], iops=10e6), "128k": nm.Target(W["128k-read"], bytes_per_s=60e9)}


def _answer(plan):
    """(fewest drives, ceiling, binding) of the best answer, or the closest miss's reason."""
    if len(plan.frame):
        r = plan.frame.iloc[0]
        t = plan.targets[0].name
        return int(r["drives"]), float(r[f"{t}|ceiling"]), str(r[f"{t}|binding"])
    return None, None, plan.rejected["reason"].iloc[0].split("; ")[0]


@pytest.mark.parametrize("target", list(_TARGETS))
@pytest.mark.parametrize("host", _HOSTS)
def test_one_catalog_host_as_an_axis_plans_as_that_host(host, target):
    t = _TARGETS[target]
    on_axis = nm.plan(t, nm.DesignSpace("dell-r7525", {"host": [host]}, max_drives=24))
    built = nm.plan(t, nm.DesignSpace(nm.with_host(nm.preset("dell-r7525"), host), {}, max_drives=24))
    assert on_axis.evaluated == 1
    assert _answer(on_axis) == _answer(built)


def test_epyc_7742_alone_finds_the_presets_answer():
    # the QA command: `nvmemodel plan --iops 10M --host amd-epyc-7742` (the R7525's own CPU: 7 drives, as the preset)
    t = _TARGETS["4k"]
    p = nm.plan(t, nm.DesignSpace("dell-r7525", {"host": ["amd-epyc-7742", "amd-epyc-7702"]}))
    assert list(p.frame["drives"])[:1] == [7]
    assert int(nm.plan(t, nm.DesignSpace("dell-r7525", {})).frame["drives"].iloc[0]) == 7


def test_a_large_block_over_one_host_tree_is_planned_as_the_forward_model():
    # 768 configurations that share one tree (lanes only move the drive bays): too many points for the stacked sums
    # of a varying tree, so this went to the bisection, which crashed the same way; each answer checked by evaluate
    space = nm.DesignSpace("dell-r7525", {"host.lanes_per_socket": list(range(64, 160, 4)),
                                          "host.reserved_lanes_per_socket": list(range(0, 64, 2))})
    t = nm.Target(W["128k-read"], bytes_per_s=60e9)
    p = nm.plan(t, space, merge_identical=False, keep=5)
    base = nm.preset("dell-r7525")
    for _, r in p.frame.iterrows():
        topo, wl = base.with_parameters({"host.lanes_per_socket": r["host.lanes_per_socket"],
                                         "host.reserved_lanes_per_socket": r["host.reserved_lanes_per_socket"]},
                                        t.workload)
        n = int(r["drives"])
        curve = nm.evaluate(topo, wl, drives=[n - 1, n])
        assert curve.bandwidth_at(n) >= 60e9 > curve.bandwidth_at(n - 1)
