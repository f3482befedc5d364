"""The planner's sub-grid walk and its drive-side solve agree with the flat walk and the forward model."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.plan import STANDARD_WORKLOADS as W
from nvmemodel.plan import DesignSpace, Target, plan

AXES = {"drive.model": ["samsung-pm1743", "samsung-pm1733-u2", "toshiba-px04pmb-960gb"], "host.gen": [3, 4, 5],
        "connection": ["direct-x4", "lenovo-810-4p"], "host.sockets": [1, 2], "workload.io_stack": ["libaio", "spdk"]}


@pytest.mark.parametrize("size", [1, 2, 5, 7, 12, 25, 72, 1000])
def test_blocks_walk_the_space_in_flat_order(size):
    """Whatever the block size (smaller than an axis, than the inner grid, larger than the space), the blocks
    list every configuration once, in flat order, with the values the flat walk gives."""
    space = DesignSpace("dell-r7525", AXES)
    _, flat = next(space.chunks(space.size))
    seen = []
    for index, shape, codes in space.blocks(size):
        assert index.size == int(np.prod(shape)) <= max(size, 1)
        for name, arr in codes.items():
            np.testing.assert_array_equal(np.broadcast_to(arr, shape).ravel(), flat[name][index])
        seen.append(index)
    np.testing.assert_array_equal(np.concatenate(seen), np.arange(space.size))


def test_blocks_of_an_axisless_space():
    assert [(i.tolist(), s, c) for i, s, c in DesignSpace("dell-r7525", {}).blocks()] == [([0], (1,), {})]


@pytest.mark.parametrize("chunk", [5, 1 << 16])
def test_plan_with_a_host_tree_equals_the_forward_model(chunk):
    """Root complexes (round-robin and fill-first), socket DMA and switches: the planner's fewest drives, ceiling
    and binding equal nm.evaluate's over every drive count, configuration by configuration (small blocks too)."""
    axes = {"tree.placement": ["round_robin", "fill_first"], "tree.complexes_per_socket": [1, 4],
            "connection": ["direct-x4", "lenovo-1610-4p"], "switch.count": [1, 3], "host.sockets": [1, 2],
            "tree.complex_bytes_per_s": [12e9, 30e9]}
    space = DesignSpace("dell-r7525", axes, max_drives=16)
    targets = [Target(W["128k-read"], bytes_per_s=30e9), Target(W["4k-randread"], iops=4e6)]
    p = plan(targets, space, keep=10**6, chunk=chunk, merge_identical=False)
    base = nm.preset("dell-r7525")
    expected = {}
    for i in range(space.size):
        values = {k: v[0] for k, v in space.values_at(np.array([i])).items()}
        conn = values.pop("connection")
        over = {**values, **({"switch.model": "none", "host.port_lanes": 4} if conn == "direct-x4"
                             else {"switch.model": conn})}
        topo, _ = base.with_parameters(over, targets[0].workload)
        n = np.arange(1, min(topo.max_drives, 16) + 1)
        curves = [nm.evaluate(base, t.workload, drives=n, overrides=over) for t in targets]
        ok = np.all([c.iops >= t.iops_needed for c, t in zip(curves, targets)], axis=0)
        expected[i] = (int(n[ok][0]), curves) if ok.any() else None
    frame = p.frame
    got = {}
    for _, row in frame.iterrows():
        at = [next(j for j, c in enumerate(v) if str(c) == str(row[k]) or (not isinstance(c, str) and
                                                                           float(c) == float(row[k])))
              for k, v in space.axes.items()]
        got[int(np.ravel_multi_index(at, [len(v) for v in space.axes.values()]))] = row
    assert set(got) == {i for i, v in expected.items() if v is not None}
    assert len(got) > 10  # the space has both feasible and infeasible configurations
    for i, row in got.items():
        n_min, curves = expected[i]
        assert row["drives"] == n_min
        for t, c in zip(targets, curves):
            k = n_min - 1
            x = c.iops[k] * (t.workload.block_size if t.bytes_per_s else 1)
            assert row[f"{t.name}|ceiling"] == pytest.approx(x, rel=1e-12)
            assert row[f"{t.name}|binding"] == c.binding[k]


@pytest.mark.parametrize("merge", [True, False])
@pytest.mark.parametrize("rank", ["drives", "headroom", "lanes"])
def test_keeping_the_best_few_per_block_is_the_head_of_all(rank, merge):
    """Memory stays flat because only the best `keep` answers survive each block; the answer is the same as
    ranking every feasible configuration and taking the first `keep` (ties in flat order), whether identical
    results are merged into one row (their counts and choices merged across blocks too) or not."""
    space = DesignSpace("dell-r7525", AXES, max_drives=24)
    targets = [Target(W["4k-randread"], iops=3e6), Target(W["128k-read"], bytes_per_s=20e9)]
    whole = plan(targets, space, rank=rank, keep=10**6, merge_identical=merge)
    everything = whole.frame
    assert len(everything) > 3  # more answers than the 3 kept below
    assert everything["configurations"].sum() == whole.feasible  # every feasible configuration in some row
    few = plan(targets, space, rank=rank, keep=3, chunk=5, merge_identical=merge)
    pd = pytest.importorskip("pandas")
    pd.testing.assert_frame_equal(few.frame, everything.head(3).reset_index(drop=True))
    for i in range(3):
        assert few.choices(i) == whole.choices(i)
