"""The planner's fast paths compute what its general ones do, bit for bit (speed is measured in benchmarks/)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.plan import STANDARD_WORKLOADS as W
from nvmemodel.plan import DesignSpace, Target, plan, solve

TARGETS = [Target(W["4k-randread"], iops=6e6), Target(W["128k-read"], bytes_per_s=40e9),
           Target(W["4k-oltp-70-30"], iops=2e6)]
SPACE = {"tree.placement": ["round_robin", "fill_first"], "tree.complexes_per_socket": [1, 4],
         "connection": ["direct-x4", "lenovo-1610-4p"], "switch.count": [1, 3], "host.sockets": [1, 2],
         "tree.complex_bytes_per_s": [12e9, 30e9], "workload.io_stack": ["libaio", "spdk"]}


@pytest.mark.parametrize("chunk", [7, 1 << 16])
def test_host_tree_sums_at_every_drive_count_equal_the_bisection(monkeypatch, chunk):
    """Few configurations per block: the tree's sums at every drive count at once (one kernel call) give the
    bisection's fewest drives, ceilings, bindings and closest misses exactly."""
    space = DesignSpace("dell-r7525", SPACE, max_drives=20)
    fast = plan(TARGETS, space, chunk=chunk, merge_identical=False, keep=10**6)
    monkeypatch.setattr(solve, "_STACKED_POINTS", 0)  # every block by bisection
    slow = plan(TARGETS, space, chunk=chunk, merge_identical=False, keep=10**6)
    assert len(fast.frame) > 10 and len(fast.rejected) > 0  # both answers and misses are compared
    pd.testing.assert_frame_equal(fast.frame, slow.frame, check_exact=True)
    pd.testing.assert_frame_equal(fast.rejected, slow.rejected, check_exact=True)


def test_closest_per_family_equals_the_stable_sort():
    """Per family the largest closeness (NaN least, -0.0 equal to 0.0), the first position of equals, as a stable
    sort by (family, -closeness) gives."""
    rng = np.random.default_rng(3)
    for _ in range(50):
        size = int(rng.integers(1, 400))
        k = rng.integers(0, 12, size)
        closeness = rng.choice([-1.0, 0.0, -0.0, 0.25, 0.5, 0.5, 1.5, np.nan, np.inf], size)
        order = np.lexsort((-closeness, k))
        expected = order[np.r_[True, k[order][1:] != k[order][:-1]]]
        fam, n_fam = np.unique(k, return_counts=True)
        first, got_fam, got_n = solve._closest_per_family(k, closeness, 12)
        assert first.tolist() == expected.tolist()
        assert got_fam.tolist() == fam.tolist() and got_n.tolist() == n_fam.tolist()
        first, got_fam, got_n = solve._closest_per_family(k, closeness, 10**9)  # many possible families: the sort
        assert first.tolist() == expected.tolist() and got_n.tolist() == n_fam.tolist()


def test_group_masks_equal_the_rows_masks_or_ed_per_group():
    from nvmemodel.plan import rank

    rng = np.random.default_rng(5)
    for lengths in ([3, 1, 4], [70, 2], [1], [9, 3, 2, 4, 4, 8, 4, 4, 3, 4]):
        size = int(np.prod(lengths))
        config = np.sort(rng.integers(0, size, 300))
        starts = np.flatnonzero(np.r_[True, rng.random(299) < 0.2])
        expected = np.logical_or.reduceat(rank._masks(config, lengths), starts, axis=0)
        assert np.array_equal(rank._group_masks(config, starts, lengths), expected)


def test_system_threshold_gives_the_pick_against_the_system_limit():
    """The binding as a threshold on the sums' axes (solve._system_threshold) equals the pick of the levels under the
    system limit against it over the whole block (Levels.total_and_binding): ties either way, NaN, inf, -1 indices."""
    from types import SimpleNamespace

    from nvmemodel.ceiling.system import pick

    rng = np.random.default_rng(11)
    values = [0.0, 1.0, 2.0, 2.0, np.nextafter(2.0, 3.0), 5.0, np.inf, np.nan]
    for _ in range(200):
        shape = (int(rng.integers(1, 5)), int(rng.integers(1, 7)))
        value, code = rng.choice(values, shape), rng.integers(-1 if rng.random() < 0.2 else 0, 6, shape).astype(np.int8)
        system, s = rng.choice(values, (3, *shape)), int(rng.integers(0, 6))
        got = solve._system_threshold(SimpleNamespace(system_index=s), (value, code))
        expected = pick(((value, code), (system, s)), system.shape)[1]
        if got is None:  # a tie at an infinite level: the general pick is kept
            assert np.any((s < pick(((value, code),), shape)[1]) & np.isinf(value))
            continue
        t, index = got
        assert np.array_equal(np.where(system < t, np.int8(s), index), expected)


@pytest.mark.parametrize("fraction", [0.0, 0.3, 1.0])
@pytest.mark.parametrize("size", [512.0, 4096.0, 65536.0, 262144.0])
def test_unknown_drive_fields_of_one_configuration_as_of_arrays(fraction, size):
    """unknown_drive_fields' Python-float path (one configuration) says what its array path says."""
    from nvmemodel.ceiling.drive import unknown_drive_fields

    nan = float("nan")
    for rr, sr, rw, sw, lr, lw in [(1e6, 7e9, 2e5, nan, 80e-6, nan), (nan, 3e9, 3e5, 2e9, nan, 20e-6),
                                   (1e6, nan, nan, 2e9, 80e-6, 20e-6), (1e6, 7e9, 2e5, 4e9, nan, nan)]:
        p = {"workload.read_fraction": fraction, "workload.block_size": size, "drive.rand_read_iops": rr,
             "drive.seq_read_bytes_per_s": sr, "drive.rand_write_iops": rw, "drive.seq_write_bytes_per_s": sw,
             "drive.read_latency_s": lr, "drive.write_latency_s": lw, "workload.iodepth": 32.0,
             "workload.numjobs": 1.0, "workload.per_drive": 1.0, "workload.io_stack": 0.0}
        assert unknown_drive_fields(p) == unknown_drive_fields({k: np.array([v]) for k, v in p.items()})
