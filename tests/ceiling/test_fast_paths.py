"""Every fast path of the kernel computes what the general one does.

One configuration is evaluated with its scalars kept scalar (:mod:`nvmemodel.ceiling.ops`, the one-``argmin``
binding, the unfilled-socket shortcut); many configurations as arrays, with mixed branches (a switch here,
none there; RAID or not; a host tree or not). Both run the same component functions, so the results must be
the same numbers: the tolerance is rtol 1e-12 (the issue's "identical to evaluate"), and the binding
component must be equal. Presets × workloads × seeded random parameter vectors, trees and RAID included.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling import ops
from nvmemodel.ceiling.compose import evaluate_parameters
from nvmemodel.ceiling.derive import prepare
from nvmemodel.ceiling.system import Levels
from nvmemodel.parameters import encode
from nvmemodel.topology.presets import PRESETS

WORKLOADS = [nm.Workload("randread", "4K"), nm.Workload("read", "128K"), nm.Workload("randwrite", "4K"),
             nm.Workload("randrw", "16K", read_fraction=0.7, per_drive=False), nm.Workload("write", "256K")]


def _random_overrides(rng: np.random.Generator, topo: nm.Topology) -> dict:
    """A valid random parameter vector around a preset: PCIe/NVMe settings, host, drive, queue depth, and
    (often) a host tree with root complexes and socket DMA, a RAID level, an inter-socket link."""
    over = {"pcie.mps": int(rng.choice([128, 256, 512])), "pcie.dllp": str(rng.choice(["none", "width_scaled",
                                                                                       "pcie_model"])),
            "nvme.sgl": int(rng.integers(0, 2)), "pcie.rcb_chunks": int(rng.integers(0, 2)),
            "host.gen": int(rng.choice([3, 4, 5])), "host.cycles_per_io": float(rng.uniform(2e3, 2e4)),
            "drive.rand_read_iops": float(rng.uniform(1e5, 3e6)), "workload.iodepth": int(rng.choice([1, 8, 128]))}
    if rng.random() < 0.6:
        over.update({"tree.placement": str(rng.choice(["round_robin", "fill_first"])),
                     "tree.complexes_per_socket": int(rng.integers(1, 5)),
                     "tree.complex_bytes_per_s": float(rng.choice([np.inf, rng.uniform(4e9, 4e10)])),
                     "tree.slots_per_complex": int(rng.integers(1, 7)),
                     "memory.peak_bytes_per_s": float(rng.choice([np.inf, rng.uniform(3e10, 3e11)])),
                     "memory.dma_fraction": float(rng.uniform(0.3, 1.0))})
    if rng.random() < 0.3:
        over.update({"tree.remote_fraction": float(rng.uniform(0, 1)), "tree.inter_socket_bytes_per_s": 5e10})
    if rng.random() < 0.4:
        over.update({"raid.level": str(rng.choice(["raid0", "raid1", "raid5", "raid6", "raid10"])),
                     "raid.width": int(rng.integers(4, 9))})
    if topo.switch is not None and rng.random() < 0.7:
        over["switch.efficiency"] = float(rng.uniform(0.5, 1.0))
    return over


def _cases(name: str, count: int):
    topo = nm.preset(name)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for k in range(count):
        wl = WORKLOADS[k % len(WORKLOADS)]
        over = {} if k == 0 else _random_overrides(rng, topo)
        yield topo.with_parameters(over, wl) if over else (topo, wl)


def _mixed_attach_cases(count: int):
    """Dell R7525 variants, direct-attached or behind 1-3 switches, with and without a host tree."""
    topo = nm.preset("dell-r7525")
    rng = np.random.default_rng(11)
    for k in range(count):
        over = _random_overrides(rng, topo)
        if k % 2:
            over.update({"switch.model": str(rng.choice(["lenovo-1610-4p", "lenovo-810-4p"])),
                         "switch.count": int(rng.integers(1, 4))})
        yield topo.with_parameters(over, WORKLOADS[k % len(WORKLOADS)])


@pytest.mark.parametrize("name", [*PRESETS, "mixed-attach"])
def test_one_configuration_equals_the_array_path(name):
    cases = list(_cases(name, 12)) if name in PRESETS else list(_mixed_attach_cases(16))
    params = [t.parameters(w) for t, w in cases]
    n = np.arange(1, min(t.max_drives for t, _ in cases) + 1, dtype=float)
    single = [evaluate_parameters(p, n) for p in params]
    assert type(Levels(prepare(params[0])).drive_index) is int  # the one-configuration path was taken
    # all configurations at once, as arrays (mixed: switch or not, tree or not, RAID or not)
    codes = [encode(p) for p in params]
    stacked = {k: np.array([float(c[k]) for c in codes])[:, None] for k in codes[0]}
    many = evaluate_parameters(stacked, n[None, :])
    names = many["components"]
    for i, one in enumerate(single):
        assert one["components"] == names
        np.testing.assert_allclose(np.broadcast_to(many["iops"], (len(params), n.size))[i],
                                   np.broadcast_to(one["iops"], n.shape), rtol=1e-12)
        np.testing.assert_allclose(np.broadcast_to(many["per_drive_iops"], (len(params), 1))[i, 0],
                                   one["per_drive_iops"], rtol=1e-12)
        assert list(np.broadcast_to(many["binding"], (len(params), n.size))[i]) == \
            list(np.broadcast_to(one["binding"], n.shape)), (name, i)
        for c, (a, b) in enumerate(zip(many["ceilings"], one["ceilings"])):
            np.testing.assert_allclose(np.broadcast_to(a, (len(params), n.size))[i], np.broadcast_to(b, n.shape),
                                       rtol=1e-12, err_msg=f"{name} case {i}: {names[c]}")


@pytest.mark.parametrize("preset, extras", [("dell-r7525", False), ("dell-r7525", True),
                                            ("lenovo-sr850-810-4p", True), ("broadcom-stingray", True)])
def test_sweep_fill_equals_evaluate(preset, extras):
    """The sweep's in-place fill (direct attach; round-robin sockets; the general path) == nm.evaluate."""
    topo = nm.preset(preset)
    if not extras:
        topo = topo.replace(extras={})
    wl = nm.Workload("randread", "4K")
    rng = np.random.default_rng(3)
    rows = 40
    grid = {"pcie.mps": rng.choice([128.0, 256.0, 512.0], rows), "host.gen": rng.choice([3.0, 4.0, 5.0], rows),
            "workload.block_size": rng.choice([4096.0, 16384.0, 131072.0, 262144.0], rows),
            "workload.read_fraction": rng.choice([0.0, 0.5, 1.0], rows),
            "host.cores_per_socket": rng.choice([2.0, 16.0, 64.0], rows)}
    drives = np.arange(1, topo.max_drives + 1)
    res = nm.sweep(topo, wl, drives=drives, grid=grid, chunk_points=7 * drives.size)  # several chunks
    for i in range(rows):
        over = {k: v[i] for k, v in grid.items()}
        curve = nm.evaluate(topo, wl, drives=drives, overrides=over)
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12)
        assert list(res.binding[i]) == list(curve.binding), (i, over)


SCALARS = [0.0, -0.0, 1.5, -2.0, 3.0, np.inf, -np.inf, np.nan, np.float64(2.5), np.float64(np.nan), 7, True]


@pytest.mark.parametrize("a", SCALARS)
@pytest.mark.parametrize("b", SCALARS)
def test_ops_on_scalars_match_numpy(a, b):
    """The scalar branches return what the ufunc returns (NaN rules of fmin/fmax included), as numpy floats."""
    for mine, ref in ((ops.fmin, np.fmin), (ops.fmax, np.fmax)):
        got, want = mine(a, b), ref(a, b)
        assert type(got) is np.float64
        np.testing.assert_equal(got, want)
    for cond in (True, False, np.True_, np.False_):
        np.testing.assert_equal(ops.where(cond, a, b), np.where(cond, a, b))
    np.testing.assert_equal(ops.ceil(a), np.ceil(a))
    np.testing.assert_equal(ops.isnan(a), np.isnan(a))
    np.testing.assert_equal(ops.nan_to_num(a), np.nan_to_num(a))
    assert ops.not_(bool(np.isnan(a))) is (not np.isnan(a))
    with np.errstate(divide="ignore", invalid="ignore"):  # numpy's division semantics survive the helpers
        np.testing.assert_equal(1.0 / ops.fmax(a, 0.0), 1.0 / np.fmax(a, 0.0))


def test_ops_on_arrays_are_the_ufuncs():
    x = np.array([1.0, np.nan, -np.inf, 2.5])
    y = np.array([np.nan, 3.0, 0.0, 2.5])
    np.testing.assert_equal(ops.fmin(x, y), np.fmin(x, y))
    np.testing.assert_equal(ops.fmax(x, 1.0), np.fmax(x, 1.0))
    np.testing.assert_equal(ops.where(x > 1, x, y), np.where(x > 1, x, y))
    np.testing.assert_equal(ops.where(True, x, y), x)  # a scalar condition picks an operand whole
    np.testing.assert_equal(ops.ceil(x), np.ceil(x))
    np.testing.assert_equal(ops.nan_to_num(x), np.nan_to_num(x))
    np.testing.assert_equal(ops.take(np.array([10.0, 20.0, 30.0]), np.array([2.0, 0.0])), [30.0, 10.0])
    assert ops.take(np.array([10.0, 20.0]), np.float64(1.0)) == 20.0
    assert ops.any_(x > 2) and not ops.all_(x > 2) and ops.all_(np.True_) and not ops.any_(False)
