"""Stalled runs worded by kind (round 24's hand read, fixed for round 25; :mod:`nvmemodel.fitting.stall_kinds`): where
some stalled runs kept their typical I/O (median and p90 within ``STALL_TYPICAL`` of their point's fastest run's) and
others did not, each group gets its own verdict and the ratios that decide it; where all share one verdict the
sentence is the one verdict as before. Synthetic tables are labelled synthetic.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.point_runs import STALL_TYPICAL, stall_kind, stalled_runs
from nvmemodel.fitting.stall_kinds import mixed
from tests.fitting.corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

UREAP = "r6_here_loop_libaio_ureap_iodepth_repeats"
NRREQ = "r14_here-nrreq_loop-nrreq4_libaio_randread_iodepth_repeats"
FIXEDBUFS = "r9_here-uring_fixedbufs_numjobs_repeats"
LOOPQD = "here_loop_iodepth"


def _stall_sentence(text: str) -> str:
    return next((s for s in text.split(". ") if "were stalled" in s or "was stalled" in s), "")


def _fig(rate, lat, p50, p90, cpu):
    n = len(rate)
    return {"rate": np.array(rate, float), "lat": np.array(lat, float), "p50": np.array(p50, float),
            "p90": np.array(p90, float), "p99": np.full(n, np.nan), "cpu": np.array(cpu, float),
            "untested": np.zeros(n)}


P2 = pd.DataFrame({"x": [1.0, 2.0]})
# synthetic: at x = 1 a run stalled with its median ×2 (slower throughout), at x = 2 one with its median ×1 (rare waits)
SLOW_AT_1 = _fig([30e3, 3e3, 32e3], [33e-6, 330e-6, 31e-6], [10e-6, 20e-6, 10e-6], [12e-6, 24e-6, 12e-6],
                 [0.15, 0.05, 0.16])
RARE_AT_2 = _fig([31e3, 5e3, 33e3], [32e-6, 200e-6, 30e-6], [10e-6] * 3, [12e-6] * 3, [0.15, 0.04, 0.16])
RARE_AT_1 = _fig([30e3, 6e3, 32e3], [33e-6, 165e-6, 31e-6], [10e-6] * 3, [12e-6] * 3, [0.15, 0.05, 0.16])


def test_synthetic_each_stalled_run_gets_its_own_kind():
    st = stalled_runs(None, P2, [SLOW_AT_1, RARE_AT_2])
    assert [(e["x"], e["kind"]) for e in st["each"]] == [(1.0, "slow"), (2.0, "rare")]
    assert st["each"][0]["p50"] == pytest.approx(2.0) and st["typical_held"] is False and mixed(st)


def test_synthetic_counter_one_kind_is_not_mixed():
    st = stalled_runs(None, P2, [RARE_AT_1, RARE_AT_2])
    assert [e["kind"] for e in st["each"]] == ["rare", "rare"] and st["typical_held"] is True and not mixed(st)


def test_kind_of_one_run_by_its_median_and_p90():
    assert stall_kind((1.0, 5e3, 7.0, 1.0, 1.0, 80.0))["kind"] == "rare"
    assert stall_kind((1.0, 5e3, 7.0, STALL_TYPICAL * 1.1, 1.0, 80.0))["kind"] == "slow"
    assert stall_kind((1.0, 5e3, 7.0, 1.0, STALL_TYPICAL * 1.1, 80.0))["kind"] == "slow"
    assert stall_kind((1.0, 5e3, 7.0, 1.0, np.nan, 80.0))["kind"] == "unread"
    assert stall_kind((1.0, 5e3, 7.0, 2.0, np.nan, 80.0))["kind"] == "slow"  # (the median alone shows it)


def test_ureap_words_the_slow_run_apart_from_the_rare_ones():
    s = _stall_sentence(fit_case_id(UREAP).explain())
    assert s.startswith("3 of 18 runs were stalled: ")
    assert ("2 (30.08 K IOPS at 2, 20.79 K IOPS at 4): rare long waits off the CPU, not a slower typical I/O — their "
            "median ×0.833–1.02 and p90 ×0.909–1.04 within ×1.5") in s
    assert "1 (8.44 K IOPS at 1): slower throughout" in s and "its median ×1.78 and p90 ×1.81 that run's" in s
    assert "not only rare ones" not in s  # (the one verdict for all, said before)


def test_nrreq_words_the_slow_run_apart_from_the_rare_ones():
    s = _stall_sentence(fit_case_id(NRREQ).explain())
    assert s.startswith("4 of 21 runs were stalled: ")
    assert "3 (8.22 K IOPS at 2, 24.15 K IOPS at 4, 40.73 K IOPS at 32): rare long waits" in s
    assert "median ×0.662–1.05 and p90 ×0.742–1.11 within ×1.5" in s
    assert "1 (11.64 K IOPS at 1): slower throughout" in s and "its median ×2.35 and p90 ×1.82" in s


@pytest.mark.parametrize("case, n, verdict", [
    (FIXEDBUFS, "1 of 12 runs was stalled (25.33 K IOPS at 1)", "rare long waits off the CPU, not a slower typical"),
    (LOOPQD, "1 of 21 runs was stalled (28.24 K IOPS at 16)", "waits off the CPU, not only rare ones"),
])
def test_counter_one_verdict_where_every_stalled_run_shares_it(case, n, verdict):
    s = _stall_sentence(fit_case_id(case).explain())
    assert n in s and verdict in s and "differ in kind" not in s
