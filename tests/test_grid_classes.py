"""A sweep grid with few distinct rows has each component's limit computed once per distinct row and gathered
(nvmemodel.ceiling.components.GridClasses): the same numbers and bindings, bit for bit, as computing every
configuration — also where a part (a switch, a fabric, FLIT mode) is absent from whole chunks but present in others.
Speed is measured in benchmarks/bench_sweep.py, not here."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling import components, grid
from nvmemodel.ceiling.components import CLASSES

WL = nm.Workload("randread", "4K")
CHUNK = 3000  # configurations per chunk (chunk_points = CHUNK x drive counts): several chunks below
DRIVES = np.arange(1, 9)


def _grid(configs: int, seed: int) -> dict:
    """Parts present in some chunks only: no switch, fabric or root-complex limit in the first third, Gen6 (FLIT)
    in the last."""
    rng = np.random.default_rng(seed)
    third = configs // 3
    switches = list(nm.switch_catalog())[:1]
    g = {
        "switch.model": np.array(["none"] * third + list(rng.choice(["none", *switches], configs - third))),
        "fabric.transport": np.array(["none"] * third + list(rng.choice(["none", "rocev2", "tcp"], configs - third))),
        "host.gen": np.concatenate([rng.choice([3.0, 4.0], configs - third), rng.choice([5.0, 6.0], third)]),
        "drive.model": rng.choice(list(nm.drive_catalog())[:2], configs),
        "workload.io_stack": rng.choice(["libaio", "spdk"], configs),
        "workload.read_fraction": rng.choice([0.0, -0.0, 1.0], configs),
        "workload.block_size": rng.choice([4096.0, 131072.0], configs),
        "fabric.eth_mtu": rng.choice([1500.0, 9000.0], configs),
        "fabric.roce_mtu": np.zeros(configs),  # the largest that fits each MTU
        # no root-complex limit in the first third (no tree level there), one in some configurations after it
        "tree.complex_bytes_per_s": np.concatenate([np.full(third, np.inf),
                                                    rng.choice([np.inf, 12e9], configs - third)]),
    }
    return g


def _sweep(topo, g, classes: bool, monkeypatch):
    monkeypatch.setattr(grid, "_CLASS_MIN_CONFIGS", 4096 if classes else 10**12)
    return nm.sweep(topo, WL, drives=DRIVES, grid=g, chunk_points=CHUNK * DRIVES.size)


@pytest.mark.parametrize("preset", ["dell-r7525", "lenovo-sr850-810-4p", "broadcom-stingray"])
def test_a_sweep_by_classes_equals_every_configuration_computed(preset, monkeypatch):
    topo = nm.preset(preset)
    if topo.switch is not None:
        topo = topo.replace(switch=topo.switch.replace(ports=8))
    g = _grid(12000, seed=len(preset))
    used = []
    original = components.GridClasses.limit
    monkeypatch.setattr(components.GridClasses, "limit", lambda self, f, p: used.append(1) or original(self, f, p))
    by_class = _sweep(topo, g, True, monkeypatch)
    assert len(used) > 20  # the classes were used, chunk after chunk
    direct = _sweep(topo, g, False, monkeypatch)
    assert np.array_equal(by_class.iops.view(np.uint64), direct.iops.view(np.uint64))
    assert np.array_equal(by_class.binding_index, direct.binding_index)
    assert by_class.components == direct.components
    assert len(set(direct.binding.ravel().tolist())) > 2  # several components bind: the comparison can fail


def test_a_mapping_derived_from_a_chunk_is_computed_directly():
    topo = nm.preset("broadcom-stingray")
    p, _, _ = grid.sweep_parameters(topo, WL, _grid(12000, seed=1))
    classes = p[CLASSES]
    chunk = dict(p)
    chunk.update({k: p[k][2000:4000] for k in classes.per})
    assert classes.applies(chunk)
    changed = dict(chunk, **{"workload.block_size": chunk["workload.block_size"] * 2})  # e.g. a RAID layer's drive side
    assert not classes.applies(changed)
    shifted = dict(chunk, **{"workload.block_size": p["workload.block_size"][2001:4001]})  # other rows
    assert not classes.applies(shifted)
    link = next(c for c in components.components() if c.name == "pcie_link")
    assert np.array_equal(link.limit(changed).drive, link.limit.__wrapped__(changed).drive)
    assert np.array_equal(link.limit(chunk).drive, link.limit.__wrapped__(chunk).drive)


def test_grids_of_many_values_or_few_configurations_have_no_classes():
    topo = nm.preset("dell-r7525")
    rng = np.random.default_rng(0)
    many = {"drive.rand_read_iops": rng.uniform(2e5, 2e6, 8000), "host.gen": rng.choice([3.0, 4.0], 8000)}
    assert CLASSES not in grid.sweep_parameters(topo, WL, many)[0]
    few = {"host.gen": rng.choice([3.0, 4.0], 1000)}
    assert CLASSES not in grid.sweep_parameters(topo, WL, few)[0]
    assert CLASSES in grid.sweep_parameters(topo, WL, {"host.gen": rng.choice([3.0, 4.0], 8000)})[0]


def test_values_are_told_apart_bit_for_bit():
    x = np.array([0.0, -0.0, 1.5, np.nan, 1.5, 0.0, np.inf] * 1000)
    codes, count = grid._few_values(x)
    assert count == 5 and codes[0] == codes[5] and codes[2] == codes[4] and codes[0] != codes[1]
    assert count == len(set(codes.tolist()))
    y = np.array([4096.0, 131072.0, 8192.0, 4096.0] * 10)
    codes, count = grid._listed_values(y, np.unique(y))
    assert count == 3 and codes.tolist()[:4] == [0, 2, 1, 0]
    assert grid._listed_values(np.array([0.0, -0.0] * 10), np.array([0.0])) is None  # -0.0 is not the 0.0 listed
    assert grid._listed_values(np.array([1.0, np.nan]), np.unique([1.0, np.nan])) is None  # hashed instead
    assert grid._listed_values(np.array([1.0, 3.0]), np.array([1.0, 2.0])) is None  # a value not listed


def test_a_mixed_sweep_by_classes_equals_every_configuration_computed(monkeypatch):
    """A mixed topology's groups each sweep their own prepared mapping (chunks as (configurations, 1) columns)."""
    dell = nm.preset("dell-r7525")
    mixed = nm.MixedTopology("gen4 direct + gen3 switched", dell.host, (
        nm.DriveGroup("samsung-pm1733-u2", 8, name="gen4"),
        nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797", switch_count=2, name="gen3")),
        extras=dict(dell.extras), order="interleaved")
    rng = np.random.default_rng(1)
    size = 9000
    g = {"workload.io_stack": rng.choice(["libaio", "spdk"], size), "host.gen": rng.choice([3.0, 4.0, 5.0], size),
         "workload.block_size": rng.choice([4096.0, 131072.0], size),
         "tree.complex_bytes_per_s": rng.choice([8e9, 30e9], size)}
    used = []
    original = components.GridClasses.limit
    monkeypatch.setattr(components.GridClasses, "limit", lambda self, f, p: used.append(1) or original(self, f, p))
    wl = nm.Workload("randrw", "8K", read_fraction=0.7)
    by_class = nm.sweep(mixed, wl, drives=range(1, 25), grid=g)
    assert used
    monkeypatch.setattr(grid, "_CLASS_MIN_CONFIGS", 10**12)
    direct = nm.sweep(mixed, wl, drives=range(1, 25), grid=g)
    assert np.array_equal(by_class.iops.view(np.uint64), direct.iops.view(np.uint64))
    assert np.array_equal(by_class.binding_index, direct.binding_index)
