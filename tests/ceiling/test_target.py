"""The NVMe-oF target's CPU as a component (issue 29 item 4; docs/physics.md §5.2): target.stack (none | kernel | spdk),
target.cores (0: the host's, shared) and target.cycles_per_io. No published per-core figure of a kernel or SPDK target
with its CPU stated was found, so every default is NaN: not applied, said so; a user's figure binds and is named in
evaluate, sweep and plan, and bad input is refused naming the parameter."""

from __future__ import annotations

import math

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.target import TARGET_CYCLES, target_defaults
from nvmemodel.errors import ParameterError
from nvmemodel.parameters import PARAMETERS

STINGRAY = nm.preset("broadcom-stingray")  # 1 socket x 8 cores at 3 GHz (the paper's), RoCEv2 fabric
WL = nm.Workload("randread", "4K", iodepth=128)


def _curve(topology=STINGRAY, drives=(1, 4), **over):
    return nm.evaluate(topology, WL, drives=list(drives), overrides=over)


def test_no_published_target_figure_is_invented():
    # every (stack, transport) default is NaN and says it was not found and what to set
    for key, (point, low, high, source) in TARGET_CYCLES.items():
        assert math.isnan(point) and math.isnan(low) and math.isnan(high), key
        assert source.startswith("not known") and "target.cycles_per_io" in source, key
    stacks = PARAMETERS["target.stack"].choices
    transports = PARAMETERS["fabric.transport"].choices
    codes = np.array([[stacks.index(s), transports.index(t)] for s in stacks for t in transports])
    assert np.isnan(target_defaults(codes[:, 0], codes[:, 1])).all()


def test_not_modelled_by_default_nor_at_an_unknown_figure_nor_without_a_fabric():
    assert np.isinf(_curve().ceilings["target_cpu"]).all()                          # target.stack = none
    assert np.isinf(_curve(**{"target.stack": "spdk"}).ceilings["target_cpu"]).all()  # no figure: not applied
    local = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[4],
                        overrides={"target.stack": "kernel", "target.cycles_per_io": 10_000})
    assert np.isinf(local.ceilings["target_cpu"]).all()                            # no fabric: no target


def test_dedicated_cores_bind_and_are_named():
    # SPDK's target on 2 reactor cores of the Stingray's 3 GHz: 2 x 3e9 / 4,000 cycles = 1.5 M IOPS, used whole
    curve = _curve(**{"target.stack": "spdk", "target.cores": 2, "target.cycles_per_io": 4000})
    assert curve.ceilings["target_cpu"][-1] == pytest.approx(2 * 3.0e9 / 4000, rel=1e-12)
    assert curve.binding_at(4) == "target_cpu"
    text = curve.explain(4)
    assert "the NVMe-oF target's CPU" in text and "[target_cpu]" in text
    assert "target.cycles_per_io = 4,000 cycles (user" in text


def test_the_hosts_cores_are_shared_at_its_utilization_cap():
    over = {"target.stack": "kernel", "target.cycles_per_io": 20_000, "host.cpu_utilization_max": 0.5}
    curve = _curve(**over)
    p = curve.parameters
    want = p["host.sockets"] * p["host.cores_per_socket"] * p["host.clock_hz"] * 0.5 / 20_000  # 8 x 3e9 x 0.5 / 2e4
    assert want == pytest.approx(600e3)
    assert curve.ceilings["target_cpu"][-1] == pytest.approx(want, rel=1e-12)
    assert curve.binding_at(4) == "target_cpu"


def test_sweep_and_plan_name_the_target():
    grid = {"target.stack": ["spdk", "spdk"], "target.cores": [1, 8], "target.cycles_per_io": [6000.0, 6000.0]}
    result = nm.sweep(STINGRAY, WL, drives=[4], grid=grid)
    one = nm.evaluate(STINGRAY, WL, drives=[4], overrides={k: v[0] for k, v in grid.items()})
    assert result.iops[0, 0] == pytest.approx(one.iops_at(4), rel=1e-12) == pytest.approx(3.0e9 / 6000, rel=1e-12)
    assert one.binding_at(4) == "target_cpu"
    space = nm.DesignSpace(STINGRAY, {"target.stack": ["spdk"], "target.cores": [1],
                                      "target.cycles_per_io": [6000.0]}, max_drives=4)
    plan = nm.plan(nm.Target(WL, iops=450e3), space)
    best = plan.best  # one SPDK core at 6,000 cycles on the 3 GHz host: 500 K IOPS, binding from the first drive
    assert int(best["drives"]) == 1 and best["4K randread|binding"] == "target_cpu"
    assert best["4K randread|ceiling"] == pytest.approx(500e3, rel=1e-12)
    assert nm.plan(nm.Target(WL, iops=600e3), space).best is None  # above what the target's core gives: no answer


@pytest.mark.parametrize("name, value, expect", [
    ("target.stack", "ramdisk", "target.stack"),
    ("target.cores", -1, "target.cores"),
    ("target.cycles_per_io", 0, "target.cycles_per_io"),
    ("target.cycles_per_io", -5, "target.cycles_per_io"),
])
def test_bad_input_is_refused_naming_the_parameter(name, value, expect):
    with pytest.raises(ParameterError, match=expect.replace(".", r"\.")):
        _curve(**{name: value})
