"""Round 19's UA: a total mean latency read against completion percentiles (facts._tail_growth, _submission_growth).

r19 batchfull (libaio, iodepth_batch = iodepth_batch_complete_min = iodepth) grew its total mean latency ×17 while fio's
completion median and 99.9th percentile stayed flat: the growth was submission time (slat), every I/O waiting for its
batch, and was read as "in the tail … in fewer than 1 I/O in 1000", which its own maximum makes impossible. A median
is now read only against the mean of its own kind, a growth mostly in slat is said so, and a tail must fit under the
99.9th percentile and the slowest I/O. Spent real cases either way and a seeded synthetic; the assertions recompute
from the table what the words claim, no value is pinned.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.facts import SUBMISSION_SHARE, TAIL_GROWTH, curve_facts

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

UA = "r19_here-batch_loop_libaio_batchfull_randread_iodepth_repeats"
TAIL = "r16_here-zram_zram-lzorle_psync_randwrite_numjobs_repeats"  # psync: no slat, clat median flat, p99.9 ×240


def _facts(r):
    return curve_facts(r, next(iter(r.fits)))


def _by_x(r, col):
    return r.table.groupby(r.x)[col].mean()


def test_submission_growth_is_no_tail():
    r = fit_case_id(UA)
    t = r.table
    # the premise, from the files: completion percentiles only; the total mean grew ≥ ×2 from the onset, mostly slat
    assert "lat_p50_s" not in t or t["lat_p50_s"].isna().all()
    s = _facts(r).saturation.facts
    k = s["onset_index"]
    lat, sl, cl = (_by_x(r, c).to_numpy(float) for c in ("lat_mean_s", "slat_mean_s", "clat_mean_s"))
    assert lat[-1] >= TAIL_GROWTH * lat[k] and sl[-1] - sl[k] >= SUBMISSION_SHARE * (lat[-1] - lat[k])
    assert cl[-1] < TAIL_GROWTH * cl[k]  # the completion mean, the median's kind, did not grow
    assert "tail" not in s and np.allclose(s["submission"]["slat"], (sl[k], sl[-1]))
    text = r.explain()
    assert "in the tail" not in text and "in fewer than 1 I/O in 1000" not in text
    assert "the growth is in submission: fio's submission latency (slat)" in text


def test_completion_growth_under_a_flat_median_stays_a_tail():
    r = fit_case_id(TAIL)
    s = _facts(r).saturation.facts
    k = s["onset_index"]
    cl, p9, mx = (_by_x(r, c).to_numpy(float) for c in ("clat_mean_s", "clat_p99_9_s", "lat_max_s"))
    # the premise: the completion mean itself grew, and fits under 99.9 % at p99.9 and 0.1 % at the slowest I/O
    assert cl[-1] >= TAIL_GROWTH * cl[k] and cl[-1] <= 0.999 * p9[-1] + 0.001 * mx[-1]
    assert "submission" not in s and "tail" in s
    assert "the growth is in the tail" in r.explain()


def _fit(max_factor: float):
    """SYNTHETIC: a level from QD 4 on, fio's mean by Little's law, the median flat at the QD-4 service time and the
    99.9th percentile flat at 3× it; the slowest I/O ``max_factor`` × the last mean."""
    rows = []
    for qd, iops in zip([1, 2, 4, 8, 16, 32, 64], [10e3, 19e3, 36e3, 37e3, 36.5e3, 37e3, 36.8e3]):
        mean, med = qd / iops, min(qd / iops, 4 / 36e3)
        rows.append({"source_path": f"synthetic/qd{qd}.json", "iodepth": qd, "iops": iops, "lat_mean_s": mean,
                     "lat_p50_s": med, "lat_p99_9_s": 3 * med, "lat_max_s": max_factor * 64 / 36.8e3,
                     "direction": "read"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")


@pytest.mark.parametrize("max_factor", [2.0, 5000.0])
def test_a_tail_must_fit_under_the_slowest_io(max_factor):
    r = _fit(max_factor)
    p = _facts(r).points
    bound = 0.999 * p["p99_9"].iloc[-1] + 0.001 * p["max"].iloc[-1]
    possible = bool(p["lat"].iloc[-1] <= bound)
    assert possible is (max_factor > 1000)
    assert ("tail" in _facts(r).saturation.facts) is possible
    assert ("the growth is in the tail" in r.explain()) is possible
