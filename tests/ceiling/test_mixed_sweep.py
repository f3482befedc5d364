"""Sweeping a mixed topology (docs/topologies.md): the groups' composition with the configurations as a second axis.

Each configuration of ``nm.sweep(mixed, …, grid=…)`` must be what ``nm.evaluate_mixed`` gives with that
configuration's values as overrides, and a mixed topology of one group must sweep like its single-model
topology (the same formulas, summed in another order at most: rtol 1e-12).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError

DELL = nm.preset("dell-r7525")
MIXED = nm.MixedTopology("gen4 direct + gen3 switched", DELL.host, (
    nm.DriveGroup("samsung-pm1733-u2", 8, name="gen4"),
    nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797", switch_count=2, name="gen3")),
    extras=dict(DELL.extras), order="interleaved")
GRID = dict(zip(("workload.io_stack", "host.cycles_per_io", "tree.complex_bytes_per_s"), map(list, zip(*itertools.product(
    ["libaio", "spdk"], [3000.0, 9000.0], [8e9, 30e9])))))


@pytest.mark.parametrize("workload", [nm.Workload("randread", "4K"), nm.Workload("read", "128K"),
                                      nm.Workload("randrw", "8K", read_fraction=0.7)], ids=lambda w: w.describe()[:14])
def test_each_configuration_is_evaluate_mixed_with_its_overrides(workload):
    res = nm.sweep(MIXED, workload, drives=range(1, 25), grid=GRID)
    assert res.iops.shape == (8, 24) and res.binding_index.dtype == np.int8
    for i in range(8):
        over = {k: v[i] for k, v in GRID.items()}
        curve = nm.evaluate_mixed(MIXED, workload, overrides=over)
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12, atol=0, err_msg=str(over))
        np.testing.assert_array_equal(res.binding[i], curve.binding, err_msg=str(over))
    # the grid matters: the CPU binds at 9000 cycles with libaio and not at 3000 with SPDK (8 configurations differ)
    assert len({tuple(row) for row in res.iops}) > 1


@pytest.mark.parametrize("preset", ["dell-r7525", "lenovo-sr850-1610-4p", "ion-sr71mach5-linux"])
def test_one_group_sweeps_like_its_single_model_topology(preset):
    topo = nm.preset(preset)
    grid = {"host.cycles_per_io": [2000.0, 6000.0, 20000.0], "memory.peak_bytes_per_s": [20e9, 80e9, 400e9]}
    wl = nm.Workload("randread", "4K")
    drives = range(1, topo.max_drives + 1)
    a = nm.sweep(topo, wl, drives=drives, grid=grid)
    b = nm.sweep(nm.MixedTopology.from_topology(topo), wl, drives=drives, grid=grid)
    np.testing.assert_allclose(b.iops, a.iops, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(b.binding, a.binding)
    assert b.components == a.components


@pytest.mark.parametrize(("grid", "match"), [
    ({"drive.model": ["samsung-pm1743"]}, "DriveGroup"),
    ({"host.sockets": [1, 2]}, "one value for a mixed sweep"),
    ({"host.cycles_per_io": [-1.0]}, "host.cycles_per_io"),
])
def test_bad_mixed_grid_is_one_clear_error(grid, match):
    with pytest.raises(ParameterError, match=match):
        nm.sweep(MIXED, nm.Workload(), drives=[1, 2], grid=grid)


def test_drive_counts_beyond_the_groups_are_refused():
    with pytest.raises(ParameterError, match="drives"):
        nm.sweep(MIXED, nm.Workload(), drives=[25])
