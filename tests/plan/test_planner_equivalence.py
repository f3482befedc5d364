"""The planner's speed paths of 2026-11-29 change no answer: each against the code it replaced, bit for bit.

* ``lexicographic_min`` (the kernel's binding pick) compares and selects in place and leaves out the tie test
  where no index can be lower; the loop it replaced is kept here as the reference.
* ``solve._expand`` lays a limit broadcast along inner axes (the system limit, the bays' count) out on the block's
  shape once; the reference leaves it broadcast.
* ``solve._at`` takes a host tree's sums at each configuration's own drive count, where it took them at the
  fewest drives and at the bays' count and selected; ``solve._min_drives`` finds the first count that meets the
  need on the sums' own axes, where it did so on the block's; ``_round_robin_arrays`` leaves to the tree loop the
  ``k·d`` it puts where a switch limit is infinite.
* (2026-11-29, later) ``Levels._tree_stack`` takes the tree's terms for every complex in one numpy call each, where
  ``_tree_loop`` (the reference) loops over the complexes; ``solve._at`` picks the levels under the system limit on
  the sums' own axes (``Levels.below_system``) and gathers the pair, where it gathered the four sums and picked on
  the block (the reference).

Whole plans (answers, unverified, closest misses per family, the text) are compared with every path switched back
to the reference. ``benchmarks/plan_outputs.py`` records and compares the planner's outputs on the benchmark's
own 1.3 M-configuration space and the CLI examples, across versions of the code (speed is measured there too).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.ceiling import system
from nvmemodel.plan import STANDARD_WORKLOADS as W
from nvmemodel.plan import DesignSpace, Target, plan, solve

INF = float("inf")


def _lexicographic_min_loop(candidates, shape):
    """The pick as it was written before (2026-11-24): one comparison and two selections a candidate."""
    best = np.full(shape, INF)
    index = np.zeros(shape, dtype=np.int8)
    for x, k in candidates:
        better = (x < best) | ((x == best) & (k < index))
        index = np.where(better, k, index).astype(np.int8)
        best = np.where(better, x, best)
    return best, index


def _at_selecting(lv, feasible, n_eval, n_min, max_n, stacked=None, index=None):
    """``solve._at`` as it was: a host tree's sums at the fewest drives and at the bays' count, then selected."""
    parts = None
    if not lv.tree:
        pass
    elif stacked is not None:
        parts = tuple(np.where(feasible, a, b) for a, b in zip(solve._gather(stacked, n_min),
                                                                solve._gather(stacked, max_n)))
    else:
        parts = tuple(np.where(feasible, a, b) for a, b in zip(lv.parts(n_min), lv.parts(max_n)))
    out = solve.compose((lv,), solve._one_group(n_eval), groups=False, parts=parts)
    return out["iops"], out["binding"]


def _min_drives_on_the_block(lv, need, max_n, _fast=solve._min_drives):
    """``solve._min_drives`` as it was where a tree's sums are stacked: the first count found on the block's shape."""
    stacked = solve._stacked_parts(lv, max_n) if lv.tree else None
    if stacked is None:
        return _fast(lv, need, max_n)
    shape = np.broadcast_shapes(stacked[0].shape[1:], np.shape(lv.drive), np.shape(max_n))
    local = np.broadcast_to(stacked[0], (stacked[0].shape[0], *shape))
    mx = np.broadcast_to(np.asarray(max_n, dtype=float), shape)
    cap = solve._gather((local,), mx)[0]
    first = (local[1:] >= need).argmax(axis=0) + 1.0
    return np.where(cap >= need, np.fmin(first, mx), np.nan), cap, stacked


def _reference(monkeypatch) -> None:
    rr = system._round_robin_arrays
    monkeypatch.setattr(system, "lexicographic_min", _lexicographic_min_loop)
    monkeypatch.setattr(system, "_round_robin_arrays", lambda k, d, g, m, direct=True: rr(k, d, g, m))
    monkeypatch.setattr(solve, "_expand", lambda x, shape: x)
    monkeypatch.setattr(solve, "_at", _at_selecting)
    monkeypatch.setattr(solve, "_min_drives", _min_drives_on_the_block)
    monkeypatch.setattr(system.Levels, "_tree_stack", lambda self, n, M, sockets, switched: None)


def _same_plan(fast, slow) -> None:
    for name in ("frame", "unverified", "rejected", "near_misses"):
        a, b = getattr(fast, name), getattr(slow, name)
        if a is None or b is None:
            assert a is None and b is None, name
            continue
        pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert (fast.feasible, fast.n_unverified, fast.evaluated) == (slow.feasible, slow.n_unverified, slow.evaluated)
    timing = re.compile(r"in \d+\.\d\d s")
    assert timing.sub("", fast.explain(top=8)) == timing.sub("", slow.explain(top=8))


BENCH_TARGETS = [Target(W["4k-randread"], iops=10e6), Target(W["4k-randwrite"], iops=2e6),
                 Target(W["4k-oltp-70-30"], iops=4e6), Target(W["128k-read"], bytes_per_s=60e9),
                 Target(W["128k-write"], bytes_per_s=20e9)]


def _bench_like(tree: bool) -> DesignSpace:
    """``benchmarks/bench_plan.py``'s space with fewer values per axis (its block shapes, 1/40 of its size)."""
    drives = list(nm.drive_catalog())[:3]
    axes = {"drive.model": drives, "host.gen": [3, 4, 5], "host.sockets": [1, 2],
            "connection": ["direct-x4", "direct-x2", "lenovo-1610-4p", "lenovo-810-4p"],
            "workload.io_stack": ["libaio", "spdk"], "host.cores_per_socket": [8, 64],
            "host.clock_hz": [2.0e9, 3.5e9], "switch.count": [1, 2, 8], "host.lanes_per_socket": [64, 128],
            "host.cpu_utilization_max": [0.7, 1.0]}
    base = nm.preset("dell-r7525")
    return DesignSpace(base if tree else base.replace(extras={}), axes, max_drives=24)


CASES = {
    "bench-like": lambda: (BENCH_TARGETS, _bench_like(False), {}),
    "bench-like tree": lambda: (BENCH_TARGETS, _bench_like(True), {"rank": "headroom"}),
    "host tree axes, latency, cost": lambda: (
        [Target(W["4k-randread"], iops=6e6, latency_s=300e-6), Target(W["128k-read"], bytes_per_s=40e9)],
        DesignSpace("dell-r7525", {"tree.placement": ["round_robin", "fill_first"],
                                   "tree.complexes_per_socket": [1, 4], "connection": ["direct-x4", "lenovo-1610-4p"],
                                   "switch.count": [1, 3], "host.sockets": [1, 2],
                                   "tree.complex_bytes_per_s": [12e9, 30e9],
                                   "drive.model": ["samsung-pm1733-u2", "intel-p5800x-800gb"]}, max_drives=20),
        {"rank": "cost", "prices": {"drive": 1000, "socket": 4000, "switch": 500}}),
    "hosts": lambda: ([Target(W["4k-randread"], iops=20e6)],
                      DesignSpace("dell-r7525",
                                  {"host": ["amd-epyc-7742", "amd-epyc-7742:1", "intel-xeon-platinum-8380"],
                                   "workload.io_stack": ["libaio", "io_uring", "spdk"]}, max_drives=24),
                      {"rank": "lanes"}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_plan_equals_the_code_it_replaced(monkeypatch, case):
    targets, space, options = CASES[case]()
    fast = plan(targets, space, **options)
    _reference(monkeypatch)
    slow = plan(targets, space, **options)
    assert len(fast.frame) + len(fast.rejected) > 0
    _same_plan(fast, slow)


def test_lexicographic_min_equals_the_loop():
    """Values (NaN, inf, ±0, ties) and indices (ints, int8 and int64 arrays, out of order, -1) drawn at random;
    a candidate broadcast along some axes, and one larger than ``shape`` (the loop's broadcasting, kept)."""
    rng = np.random.default_rng(11)
    pool = np.array([0.0, -0.0, 1.0, 2.0, 2.0, 3.5, INF, np.nan, 1e9])
    for trial in range(300):
        shape = tuple(int(s) for s in rng.integers(1, 4, rng.integers(1, 4)))
        candidates = []
        for _ in range(int(rng.integers(1, 6))):
            sub = tuple(s if rng.random() < 0.6 else 1 for s in shape)
            x = rng.choice(pool, sub) if rng.random() < 0.8 else float(rng.choice(pool))
            r = rng.random()
            if r < 0.4:
                k = int(rng.integers(-1, 9))
            else:
                k = rng.integers(-1, 9, tuple(s if rng.random() < 0.5 else 1 for s in shape)).astype(
                    np.int8 if r < 0.7 else np.int64)
            candidates.append((x, k))
        if trial % 50 == 0:  # a candidate larger than the shape asked for: the loop's result grows with it
            candidates.append((rng.choice(pool, (2, *shape)), 3))
        want = _lexicographic_min_loop(list(candidates), shape)
        got = system.lexicographic_min(iter(candidates), shape)
        assert got[0].shape == want[0].shape and got[1].dtype == want[1].dtype == np.int8
        assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()


def test_expand_lays_out_the_broadcast():
    rng = np.random.default_rng(2)
    for _ in range(100):
        shape = tuple(int(s) for s in rng.integers(1, 5, rng.integers(1, 6)))
        sub = tuple(s if rng.random() < 0.5 else 1 for s in shape)[int(rng.integers(0, len(shape))):]
        x = rng.random(sub)
        y = solve._expand(x, shape)
        assert y.shape == shape and y.flags.c_contiguous
        assert np.array_equal(y, np.broadcast_to(x, shape))
    assert solve._expand(2.5, (3, 4)) == 2.5
