"""The sweep's kernel (one drive count at a time over many configurations, in place) gives what ``nm.evaluate`` gives
for each configuration alone (every drive count at once, scalars): the same numbers bit for bit and the same
binding component, on the presets the speed benchmark uses, as shipped (host trees, switches, fabric), with
numeric and categorical grids (names given as numpy strings, lists and enums).
"""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.topology.host import IoStack

PRESETS = ("dell-r7525", "lenovo-sr850-810-4p", "broadcom-stingray")
CONFIGS = 12


def numeric_grid(rng):
    return {"host.gen": rng.integers(3, 6, CONFIGS).astype(float),
            "pcie.mps": rng.choice([128.0, 256.0, 512.0], CONFIGS),
            "workload.block_size": rng.choice([4096.0, 16384.0, 131072.0, 1048576.0], CONFIGS),
            "workload.read_fraction": rng.choice([0.0, 0.3, 1.0], CONFIGS),
            "workload.iodepth": rng.choice([1.0, 32.0, 128.0], CONFIGS),
            "drive.rand_read_iops": rng.uniform(2e5, 2.5e6, CONFIGS)}


def categorical_grid(rng):
    return {"workload.io_stack": rng.choice(["libaio", "io_uring", "io_uring_polled", "spdk"], CONFIGS),
            "drive.model": rng.choice(list(nm.drive_catalog()), CONFIGS),
            "fabric.eth_mtu": rng.choice([1500.0, 4200.0, 9000.0], CONFIGS),
            "fabric.roce_mtu": np.zeros(CONFIGS),  # the largest that fits each Ethernet MTU
            "fabric.transport": rng.choice(["rocev2", "tcp"], CONFIGS),
            "host.gen": rng.integers(3, 6, CONFIGS).astype(float),
            "workload.block_size": rng.choice([4096.0, 131072.0], CONFIGS)}


def _topology(preset):
    topo = nm.preset(preset)  # 24 drives behind a switch: its port count enters no ceiling
    return topo.replace(switch=topo.switch.replace(ports=24)) if topo.switch else topo


@pytest.mark.parametrize("kind", ["numeric", "categorical"])
@pytest.mark.parametrize("preset", PRESETS)
def test_sweep_equals_evaluate_per_configuration(preset, kind):
    rng = np.random.default_rng(20)
    grid = numeric_grid(rng) if kind == "numeric" else categorical_grid(rng)
    topo, wl, drives = _topology(preset), nm.Workload("randread", "4K"), np.arange(1, 25)
    res = nm.sweep(topo, wl, drives=drives, grid=grid)
    for i in range(CONFIGS):
        over = {k: (str(v[i]) if v.dtype.kind == "U" else float(v[i])) for k, v in grid.items()}
        curve = nm.evaluate(topo, wl, drives=drives, overrides=over)
        # bit for bit: both run the same formulas, in the same order
        np.testing.assert_array_equal(res.iops[i], curve.iops, err_msg=f"{preset} configuration {i}: {over}")
        np.testing.assert_array_equal(res.binding[i], curve.binding, err_msg=f"{preset} configuration {i}")


def test_categorical_names_are_coded_alike_in_every_form():
    rng = np.random.default_rng(3)
    stacks = rng.choice(["libaio", "io_uring", "io-uring", "spdk", "SPDK", "uring"], 200)
    topo, wl = nm.preset("dell-r7525"), nm.Workload()
    as_array = nm.sweep(topo, wl, drives=[1, 24], grid={"workload.io_stack": stacks})
    as_list = nm.sweep(topo, wl, drives=[1, 24], grid={"workload.io_stack": stacks.tolist()})
    as_enum = nm.sweep(topo, wl, drives=[1, 24], grid={"workload.io_stack": [IoStack(
        {"io-uring": "io_uring", "uring": "io_uring", "SPDK": "spdk"}.get(s, s)) for s in stacks]})
    np.testing.assert_array_equal(as_array.grid["workload.io_stack"], as_list.grid["workload.io_stack"])
    np.testing.assert_array_equal(as_array.grid["workload.io_stack"], as_enum.grid["workload.io_stack"])
    np.testing.assert_array_equal(as_array.iops, as_enum.iops)


@pytest.mark.parametrize("bad", [["libaio", "io_urin"], ["spdk", ""], ["libaio", "lib aio"]])
def test_an_unknown_name_in_a_string_array_is_named(bad):
    with pytest.raises(nm.ParameterError, match="workload.io_stack") as err:
        nm.sweep(nm.preset("dell-r7525"), nm.Workload(), drives=[1], grid={"workload.io_stack": np.array(bad)})
    assert repr(bad[-1]) in str(err.value)


def test_names_with_spaces_or_another_case_take_the_general_path():
    grid = {"workload.io_stack": np.array(["libaio ", " SPDK", "io_uring"])}
    res = nm.sweep(nm.preset("dell-r7525"), nm.Workload(), drives=[1], grid=grid)
    assert res.grid["workload.io_stack"].tolist() == [float(nm.parameters.get("workload.io_stack").code(s))
                                                      for s in ("libaio", "spdk", "io_uring")]


def test_a_switch_link_changed_in_the_grid_drops_its_calibration_as_evaluate_does():
    topo, wl = nm.preset("lenovo-sr850-810-4p"), nm.Workload("randread", "4K")
    grid = {"switch.up_gen": np.array([3.0, 4.0, 3.0]), "switch.up_lanes": np.array([8.0, 8.0, 16.0])}
    res = nm.sweep(topo, wl, drives=[1, 2, 4], grid=grid)
    for i in range(3):
        curve = nm.evaluate(topo, wl, drives=[1, 2, 4], overrides={k: float(v[i]) for k, v in grid.items()})
        np.testing.assert_array_equal(res.iops[i], curve.iops)
        np.testing.assert_array_equal(res.binding[i], curve.binding)
