"""Round 18's QA and ZA: percentiles no I/O could have had, and onset words that say what decided.

QA: fio 3.32 with io_uring sqthread_poll puts every completion in its top histogram bucket (17.1 s) beside a slowest
I/O of 1.8–28 ms; those percentiles were read as the median (facts.possible_percentiles sets them NaN). ZA: the onset
words "no later point gains 10 % per doubling" stood beside a +15 % step the kept-run noise test had judged within
the runs' noise (facts' onset_noise, said in the saturation sentence). Spent real cases either way; the assertions
recompute from the table what the words claim, no value is pinned.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.facts import PAYS, PERCENTILE_SLACK, curve_facts, possible_percentiles

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

SQPOLL = ["r18_msf2fsbench_zn540-zns-512lbaf_4k-seqwrite_iouring-sqpoll_1zone_qd",
          "r18_msf2fsbench_zn540-zns-4klbaf_4k-seqwrite_iouring-sqpoll_qd16_zones-numjobs",
          "r18_msf2fsbench_zn540-zns-512lbaf_4k-seqwrite_iouring-sqpoll_qd1_zones-numjobs"]
TAIL = "r14_dpfs_dpu-virtiofs-nfs_4k-randread_p2_qd"  # real percentiles under a grown mean: a tail, kept
NOISY_ONSET = "r18_here-stack2_loop-on-ext4-on-loop_libaio_randread_iodepth_repeats"
ONE_RUN_ONSET = SQPOLL[0]  # one run a point: the 10 % test decided, its words stay


def _facts(r):
    return curve_facts(r, next(iter(r.fits)))


@pytest.mark.parametrize("case", SQPOLL)
def test_percentiles_above_the_slowest_io_are_not_read(case):
    r = fit_case_id(case)
    t = r.table
    # the premise, from the file: every clat percentile above the same row's slowest I/O
    assert (t["clat_p50_s"] > t["lat_max_s"] * PERCENTILE_SLACK).all()
    kept = possible_percentiles(t)
    assert kept["clat_p50_s"].isna().all() and kept["clat_p99_9_s"].isna().all()
    assert kept["lat_max_s"].equals(t["lat_max_s"]) and kept["iops"].equals(t["iops"])
    p = _facts(r).points
    assert p["p50"].isna().all() and p["p99_9"].isna().all() and p["max"].notna().all()
    text = r.explain()
    assert "in service at a time" not in text and "its median stays" not in text and "17.1 s" not in text


def test_percentiles_below_the_slowest_io_stay():
    r = fit_case_id(TAIL)
    t = r.table
    assert (t["clat_p50_s"].dropna() <= t["lat_max_s"][t["clat_p50_s"].notna()]).all()
    assert possible_percentiles(t) is t  # nothing impossible: the table as given
    assert "the growth is in the tail" in r.explain()


def test_a_row_is_judged_by_its_own_maximum():
    t = pd.DataFrame({"lat_max_s": [1e-3, 1e-3, np.nan], "clat_p50_s": [5e-4, 17.1, 5e-4],
                      "lat_p99_9_s": [1.02e-3, 2e-3, 5e-4]})
    kept = possible_percentiles(t)
    # within fio's histogram bucket of the maximum stays; a row with no maximum is not judged
    assert kept["clat_p50_s"].tolist()[0] == 5e-4 and np.isnan(kept["clat_p50_s"].iloc[1])
    assert kept["clat_p50_s"].iloc[2] == 5e-4
    assert kept["lat_p99_9_s"].iloc[0] == 1.02e-3 and np.isnan(kept["lat_p99_9_s"].iloc[1])
    assert t["clat_p50_s"].iloc[1] == 17.1  # the caller's table untouched


def test_an_onset_the_noise_test_decided_says_so():
    r = fit_case_id(NOISY_ONSET)
    cf = _facts(r)
    s, p = cf.saturation.facts, cf.points
    q = s["onset_noise"]
    k = s["onset_index"]
    j = int(np.flatnonzero(p["x"].to_numpy(float) == q["x"])[0])
    # the premise: that later point's kept mean gains PAYS per doubling over the onset's, and their runs overlap
    rk, rj = p["runs_kept"].iloc[k], p["runs_kept"].iloc[j]
    gain = (np.mean(rj) / np.mean(rk)) ** (1 / np.log2(p["x"].iloc[j] / p["x"].iloc[k])) - 1
    assert gain >= PAYS and np.isclose(gain, q["gain"]) and min(rj) < max(rk)
    text = r.explain()
    sat = next(c["text"] for c in r.claims() if c["kind"] == "saturation")
    assert f"no later point gains {PAYS:.0%} per doubling of iodepth over it beyond its runs' noise" in sat
    assert f"{q['gain']:+.0%} per doubling by means" in sat
    assert f"no later point gains {PAYS:.0%} per doubling of iodepth over it." not in text


def test_an_onset_the_ten_percent_test_decided_keeps_its_words():
    r = fit_case_id(ONE_RUN_ONSET)
    cf = _facts(r)
    s, p = cf.saturation.facts, cf.points
    assert "onset_noise" not in s
    y, x, k = p["y"].to_numpy(float), p["x"].to_numpy(float), s["onset_index"]
    assert all((y[j] / y[k]) ** (1 / np.log2(x[j] / x[k])) - 1 < PAYS for j in range(k + 1, len(y)))
    assert f"no later point gains {PAYS:.0%} per doubling of iodepth over it." in r.explain()
