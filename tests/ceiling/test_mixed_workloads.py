"""Groups with their own workloads (DriveGroup(workload=...), docs/physics.md §12.7): each group's limits on its own
I/O, shared host levels by load fraction. Synthetic round numbers of tests/ceiling/test_mixed.py."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm

from .test_mixed import DRIVE_A, HOST, READ_4K

DRIVE_C = nm.Drive("synthetic C", gen=4, lanes=4, rand_read_iops=400e3, rand_write_iops=100e3)  # synthetic
WRITE_4K = nm.Workload("randwrite", "4K")
READ_64K = nm.Workload("randread", "64K")


def test_each_group_runs_its_own_workload():
    """a: 2 x 500 K 4K reads; b: 2 x 100 K 4K writes (its own workload): 1.2 M IOPS, the drives bind; host CPU
    4.0 M is far. The same topology without b's workload reads on b: 2 x 500 K + 2 x 400 K = 1.8 M."""
    groups = (nm.DriveGroup(DRIVE_A, 2, name="a"), nm.DriveGroup(DRIVE_C, 2, name="b", workload=WRITE_4K))
    curve = nm.evaluate_mixed(nm.MixedTopology("own workloads", HOST, groups), READ_4K, drives=[4])
    assert curve.iops_at(4) == pytest.approx(1.2e6, rel=1e-12) and curve.binding_at(4) == "drive"
    assert curve.group_iops_at(4) == pytest.approx({"a": 1.0e6, "b": 0.2e6}, rel=1e-12)
    plain = nm.MixedTopology("one workload", HOST, (groups[0], nm.DriveGroup(DRIVE_C, 2, name="b")))
    assert nm.evaluate_mixed(plain, READ_4K, drives=[4]).iops_at(4) == pytest.approx(1.8e6, rel=1e-12)
    assert "running 4K randwrite" in curve.topology.describe()


def test_a_complex_shared_by_two_block_sizes_delivers_its_bytes():
    """2 sockets x 1 complex of 4 GB/s; a (4K reads) and b (64K reads, its own) one drive per complex each. Each
    complex's load fractions add to u = 500 K x 4 KiB / 4 GB/s + d_b x 64 KiB / 4 GB/s > 1, so each delivers
    exactly 4 GB/s: 8 GB/s in all, whatever the mix of sizes; the root complex binds."""
    extras = {"tree.complexes_per_socket": 1, "tree.complex_bytes_per_s": 4e9}
    topo = nm.MixedTopology("two sizes", HOST, (nm.DriveGroup(DRIVE_A, 2, name="a"),
                                                 nm.DriveGroup(DRIVE_C, 2, name="b", workload=READ_64K)),
                            extras=extras)
    curve = nm.evaluate_mixed(topo, READ_4K, drives=[4])
    assert curve.bandwidth_at(4) == pytest.approx(8e9, rel=1e-12)
    assert curve.binding_at(4) == "root_complex" and curve.binding_group_at(4) == "host"
    # the split: each group's share of a complex in proportion to what it brings (its IOPS x the same factor)
    d_b = nm.evaluate(nm.Topology("b alone", HOST, DRIVE_C), READ_64K, drives=[1]).iops_at(1)
    u = (500e3 * 4096 + d_b * 65536) / 4e9
    assert curve.group_iops_at(4) == pytest.approx({"a": 2 * 500e3 / u, "b": 2 * d_b / u}, rel=1e-12)
    # the root complex alone is what the drives deliver through the full complexes: the binding ceiling itself
    assert curve.ceilings["root_complex"][-1] == pytest.approx(curve.iops_at(4), rel=1e-12)
    assert "unevenly" not in curve.explain(4)


def test_own_workloads_sweep_like_evaluate():
    topo = nm.MixedTopology("own workloads", HOST, (nm.DriveGroup(DRIVE_A, 2, name="a"),
                                                     nm.DriveGroup(DRIVE_C, 2, name="b", workload=WRITE_4K)),
                            extras={"tree.complexes_per_socket": 1, "tree.complex_bytes_per_s": 3e9})
    grid = {"host.cycles_per_io": [2500.0, 20000.0]}
    res = nm.sweep(topo, READ_4K, drives=range(1, 5), grid=grid)
    for i, cycles in enumerate(grid["host.cycles_per_io"]):
        curve = nm.evaluate_mixed(topo, READ_4K, overrides={"host.cycles_per_io": cycles})
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12)
        np.testing.assert_array_equal(res.binding[i], curve.binding)


def test_a_sweep_refuses_groups_of_different_block_sizes():
    topo = nm.MixedTopology("two sizes", HOST, (nm.DriveGroup(DRIVE_A, 2), nm.DriveGroup(DRIVE_C, 2, workload=READ_64K)))
    with pytest.raises(nm.ParameterError, match="one block size"):
        nm.sweep(topo, READ_4K, drives=[4])
