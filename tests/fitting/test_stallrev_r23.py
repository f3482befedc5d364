"""The review of round 23's fixes (/tmp/lead/review23_findings.md, problems 1–7 and the mild ones): the stall test
(:func:`nvmemodel.fitting.point_runs.stalled_runs`), the stalled-runs sentence (``caution_claims.stalled_words``) and
the onset range (:mod:`nvmemodel.fitting.onset_runs`), each on the spent cases the review read and on counter-cases
where the rule must not fire. Synthetic tables are labelled synthetic.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.onset_runs import onset_range
from nvmemodel.fitting.point_runs import STALL_SHARE, STALL_TYPICAL, stalled_runs
from tests.fitting.corpus_score import CORPUS, fit_case_id, load_case, load_table

pytestmark = pytest.mark.filterwarnings("ignore")

FSYNC = "r5_here_ext4_fsync_numjobs_repeats"
KYBER = "r12_here-sched_loop-kyber_libaio_randwrite_iodepth_repeats"
SEQW = "r15_here-ext4_ext4-on-loop_libaio_seqwrite_qd4_bs_repeats"
TRIM = "r11_here-trim_loop_psync_randtrim_bs_repeats"
URINGBUF = "r21_here-uringbuf_loop-pagecache_iouring_buffered_randread_iodepth_repeats"
NULL = "r4_here_null_numjobs_repeats"
QUOTA = "r17_here-cpuquota_loop_cfs25pct_libaio_randread_iodepth_repeats"
LOOPQD = "here_loop_iodepth"
FIXEDBUFS = "r9_here-uring_fixedbufs_numjobs_repeats"
VSYNC = "r12_here-vsync_loop_vsync_randread_iodepth_repeats"
VERIFY = "r20_here-verify_loop_psync_md5-verify_randread64k_numjobs_repeats"
IOURING_NJ = "r3_here_loop_iouring_numjobs_repeats"


def _fig(rate, lat, p50, cpu, p90=None, untested=0.0):
    n = len(rate)
    return {"rate": np.array(rate, float), "lat": np.array(lat, float), "p50": np.array(p50, float),
            "cpu": np.array(cpu, float), "p90": np.array(p90 if p90 is not None else [np.nan] * n, float),
            "untested": np.array([untested] * n, float)}


P2 = pd.DataFrame({"x": [1.0, 2.0]})
STEADY = _fig([31e3, 30e3, 33e3], [32e-6, 33e-6, 30e-6], [10e-6] * 3, [0.15, 0.15, 0.16], [12e-6] * 3)
VSYNC_LIKE = _fig([30e3, 6e3, 32e3], [33e-6, 165e-6, 31e-6], [10e-6] * 3, [0.15, 0.05, 0.16], [12e-6] * 3)


def _stall_sentence(text: str) -> str:
    return next((s for s in text.split(". ") if "stalled (" in s), "")


# ---- 1: the stall test ---------------------------------------------------------------------------------------------

def test_synthetic_counter_one_stalled_run_of_three_still_set_aside():
    st = stalled_runs(None, P2, [VSYNC_LIKE, STEADY])
    assert st is not None and st["left"] == [(1.0, 6e3)] and st["typical_held"] is True  # (median, p90 ×1)
    f = dict(VSYNC_LIKE, p90=np.array([12e-6, 60e-6, 12e-6]))  # p90 ×5: set aside, but not "rare"
    st = stalled_runs(None, P2, [f, STEADY])
    assert st["left"] == [(1.0, 6e3)] and st["typical_held"] is False and st["p90_hi"] == pytest.approx(5.0)


def test_synthetic_sync_calls_are_not_tested():
    """Synthetic: the same figures under fsync (the wait is in the sync figures) set nothing aside."""
    f = dict(VSYNC_LIKE, untested=np.ones(3))
    assert stalled_runs(None, P2, [f, STEADY]) is None


def test_synthetic_half_of_a_point_is_never_set_aside():
    """Synthetic, r5 ext4 fsync at 4 jobs without fsync: two unlike slow runs of three (latency ×7, ×10; CPU ×0.3, ×0.1)."""
    f = _fig([9.76e3, 4.48e3, 1.0e3], [10e-6, 70e-6, 100e-6], [8e-6] * 3, [0.03, 0.009, 0.003])
    assert 2 >= STALL_SHARE * 3
    assert stalled_runs(None, P2, [f, STEADY]) is None


def test_synthetic_two_like_flagged_runs_are_a_regime():
    """Synthetic, kyber QD16's numbers in a five-run point: 23.3 K and 34.1 K alike (×1.46 latency, ×1.02 CPU)."""
    f = _fig([122.3e3, 23.3e3, 34.1e3, 120e3, 118e3], [131e-6, 687e-6, 469e-6, 133e-6, 135e-6], [60e-6] * 5,
             [0.30, 0.105, 0.103, 0.30, 0.29])
    assert stalled_runs(None, P2, [f, STEADY]) is None


def test_synthetic_a_run_faster_than_a_kept_run_is_no_stall():
    """Synthetic, r15 ext4 seqwrite 1 MiB: 2021 / 301 / 46 IOPS; the slowest kept (its median moved), so 301 stays."""
    f = _fig([2021, 301, 46.3], [2.0e-3, 13.5e-3, 84.8e-3], [1.0e-3, 1.03e-3, 64e-3], [0.127, 0.028, 0.011])
    assert stalled_runs(None, P2, [f, STEADY]) is None


def test_fsync_case_sets_nothing_aside():
    case = CORPUS / FSYNC
    t = load_table(case, load_case(case))
    assert (pd.to_numeric(t["fsync_every"], errors="coerce") > 0).all()
    text = fit_case_id(FSYNC).explain()
    assert "stalled" not in text and "rare long waits" not in text


def test_kyber_qd16_keeps_its_three_runs():
    fit = fit_case_id(KYBER)
    p = curve_facts(fit, ()).points
    i = int(np.flatnonzero(p["x"].to_numpy(float) == 16)[0])
    assert p["kept_runs"].iloc[i] == 3
    s = _stall_sentence(fit.explain())
    assert s.startswith("1 of 18 runs was stalled (7.78 K IOPS at 1)") and "23.31 K" not in s


@pytest.mark.parametrize("case", [SEQW, TRIM])
def test_no_stall_sentence_where_the_slow_mode_is_the_points_own(case):
    assert "stalled" not in fit_case_id(case).explain()


# ---- 2: the sentence -----------------------------------------------------------------------------------------------

def test_rare_only_where_median_and_p90_held():
    s = _stall_sentence(fit_case_id(LOOPQD).explain())
    assert "p90 ×15.5" in s and "rare long waits" not in s and "waits off the CPU, not only rare ones" in s
    assert "the other 20 runs" not in s and "the runs kept at 16: 62.52 K IOPS–105.24 K IOPS" in s


def test_counter_rare_said_where_the_figures_hold_it():
    s = _stall_sentence(fit_case_id(FIXEDBUFS).explain())
    assert "1 of 12 runs was stalled (25.33 K IOPS at 1)" in s
    assert f"rare long waits off the CPU, not a slower typical I/O (median and p90 within ×{STALL_TYPICAL:.3g}" in s


def test_counter_flat_series_keeps_its_pooled_level():
    s = _stall_sentence(fit_case_id(VSYNC).explain())
    assert "3 of 18 runs were stalled" in s and "the other 15 runs: 30.31 K IOPS" in s


# ---- 3: the onset range --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", [URINGBUF, NULL, QUOTA])
def test_no_onset_range_below_runs_a_later_point_clears(case):
    assert "By the runs themselves the onset is in [1," not in fit_case_id(case).explain()


def test_synthetic_lower_end_must_overlap_every_later_point():
    """Synthetic, r4 null's shape: 1's runs overlap 4's but lie below every run at 8."""
    p = pd.DataFrame({"x": [1.0, 2.0, 4.0, 8.0], "split": [False] * 4,
                      "runs_kept": [np.array([1.64e6, 2.5e6, 2.87e6]), np.array([2.6e6, 2.8e6, 2.93e6]),
                                    np.array([2.74e6, 3.3e6, 3.8e6]), np.array([3.37e6, 3.4e6, 3.93e6])]})
    r = onset_range(p, 2)
    assert r is None or r["x_from"] == 4.0
    q = p.copy()
    q.at[3, "runs_kept"] = np.array([2.8e6, 3.4e6, 3.6e6])  # counter: 8's runs now overlap 1's
    assert onset_range(q, 2)["x_from"] == 1.0


def test_synthetic_runs_the_level_left_out_do_not_make_the_overlap():
    """Synthetic, r21 uringbuf's shape: the overlap at 2 only through the run the level left out."""
    p = pd.DataFrame({"x": [1.0, 2.0, 4.0], "split": [False] * 3,
                      "runs_kept": [np.array([271.75e3, 350e3, 403.01e3]), np.array([357.73e3, 508.1e3, 594.77e3]),
                                    np.array([400e3, 520e3, 606.9e3])]})
    assert onset_range(p, 1)["x_from"] == 1.0
    assert onset_range(p, 1, left=[(2.0, 357.73e3)]) is None


@pytest.mark.parametrize("case,words", [
    (VERIFY, "By the runs themselves the onset is in [2, 3]"),
    (IOURING_NJ, "By the runs themselves the onset is in [2, 4]"),
])
def test_counter_ranges_that_hold_against_every_later_point_stay(case, words):
    assert words in fit_case_id(case).explain()
