"""A mean latency grown in the tail is not queueing (round 14 RA; facts._tail_growth, fact_claims.tail_words).

Where fio's median stays flat over a plateau while its mean grows, the growth is a few I/Os held for long, not every
I/O queued: said so with the median, the tail, and the I/Os in service (rate × median). The spent case that asked for
it, a spent real counter (the same workload over host NFS, whose median grows with its mean) and seeded synthetic
curves either way; the assertions recompute from the table what the words claim, no value is pinned.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.facts import LITTLE_TOL, TAIL_GROWTH, curve_facts

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

RA = "r14_dpfs_dpu-virtiofs-nfs_4k-randread_p2_qd"
BUFFERED = "r2_here_pagecache_write_numjobs_repeats"  # buffered writes: 16 µs copies, a few held by writeback
QUEUED = "r14_dpfs_host-nfs-tmpfs_4k-randread_p2_qd"  # same workload over host NFS: p50 157 µs → 5.1 ms


def _sat(r):
    key = next(iter(r.fits))
    return curve_facts(r, key)


@pytest.mark.parametrize("case", [RA, BUFFERED])
def test_flat_median_under_a_grown_mean_is_a_tail(case):
    r = fit_case_id(case)
    cf = _sat(r)
    s = cf.saturation.facts
    t = s["tail"]
    p = cf.points
    k = s["onset_index"]
    med = p["p50"].to_numpy(float)[k:]
    # the premise, from the points: the mean grew ≥ ×2, the median stayed within the tolerance of flat
    assert p["lat"].iloc[-1] >= TAIL_GROWTH * p["lat"].iloc[k]
    assert np.all(np.abs(med / med[0] - 1) <= LITTLE_TOL)
    # I/Os in service = rate × median at the last point, far fewer than the outstanding I/O
    assert np.isclose(t["served"], p["iops"].iloc[-1] * med[-1]) and t["served"] < t["out"] / 4
    text = r.explain()
    assert "the growth is in the tail" in text and "as Little's law gives at that rate" not in text
    n = f"{t['served']:.2g}" if t["served"] < 10 else f"{t['served']:.0f}"
    assert f"about {n} I/Os in service" in text


def test_median_grown_with_the_mean_keeps_littles_law():
    r = fit_case_id(QUEUED)
    cf = _sat(r)
    s = cf.saturation.facts
    p = cf.points
    k = s["onset_index"]
    assert p["p50"].iloc[-1] / p["p50"].iloc[k] > 1 + LITTLE_TOL  # the median moved: queueing
    assert "tail" not in s
    text = r.explain()
    assert "as Little's law gives at that rate" in text and "in the tail" not in text


def _fit(p50_grows: bool, seed: int = 14):
    """SYNTHETIC: a level from QD 4 on, fio's mean latency by Little's law; the median either grows with the mean
    (queueing) or stays at the QD-4 service time (a tail)."""
    rng = np.random.default_rng(seed)
    rows = []
    for qd, iops in zip([1, 2, 4, 8, 16, 32, 64], [10e3, 19e3, 36e3, 37e3, 36.5e3, 37e3, 36.8e3]):
        v = iops * (1 + 0.005 * rng.standard_normal())
        mean = qd / v
        p50 = 0.9 * mean if p50_grows else min(0.9 * mean, 4 / 36e3)
        rows.append({"source_path": f"synthetic/qd{qd}.json", "iodepth": qd, "iops": v, "lat_mean_s": mean,
                     "clat_p50_s": p50, "clat_p99_9_s": 8 * mean, "lat_max_s": 40 * mean, "direction": "read"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")


@pytest.mark.parametrize("grows", [True, False])
def test_seeded_median_decides(grows):
    r = _fit(grows)
    s = _sat(r).saturation.facts
    assert ("tail" in s) is (not grows)
    assert ("the growth is in the tail" in r.explain()) is (not grows)
