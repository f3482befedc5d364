"""Round 24 CG and round 23 AD, fixed for round 25: a point whose runs lie more than ``WIDE_RUNS`` apart is said and
its steps read by medians and overlap (:mod:`nvmemodel.fitting.wide_runs`); "the maximum" is picked by the kept runs'
medians and a run far outside a stated plateau range is counted (:mod:`nvmemodel.fitting.level_stat`). Synthetic
tables are labelled synthetic.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.level_stat import OUTSIDE, outside_words, top_index
from nvmemodel.fitting.wide_runs import WIDE_RUNS, median_step, wide_at
from tests.fitting.corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

HIPRI = "r24_here-hipri_loop-nopoll_pvsync2-hipri_randread_numjobs_repeats"
MEMCG = "r24_here-memcgmmap_loop-memcg32m_mmap_randread_numjobs_repeats"
POSIXAIO = "r24_here-posixaio_loop_posixaio_randread_qd8_numjobs_repeats"
ZRAMQD = "r23_here-zramlz4_zram-lz4-comp50_libaio_randread_iodepth_repeats"
ZRAMBS = "r23_here-zramlz4_zram-lz4-incompressible_psync_randwrite_qd1_bs_repeats"
TIGHT = "r20_tutsunom_sdb-hdd-deadline_4k-randread_qd1_numjobs_repeats"


class _R:  # (a result's two attributes the words read)
    x, y_unit = "numjobs", "1/s"


def _p(runs):
    """synthetic points: x = 1, 2, 4, …, each with its kept runs"""
    return pd.DataFrame({"x": [float(2 ** i) for i in range(len(runs))],
                         "y": [float(np.mean(r)) for r in runs], "level": [float(np.median(r)) for r in runs],
                         "runs_kept": pd.Series([sorted(r) for r in runs], dtype=object)})


def _sat(case):
    return next(c["text"] for c in fit_case_id(case).claims() if c["kind"] == "saturation")


def test_synthetic_wide_point_and_its_median_step():
    p = _p([[4e3, 4.2e3, 34e3], [46e3, 50e3, 52e3], [55e3, 56e3, 57e3]])
    assert wide_at(p) == [0]
    pct = lambda v: f"{v:+.0%}"  # noqa: E731
    s = median_step(_R, p, 0, 1, pct)
    assert s.startswith("+1090% by the medians (1 → 2; every run at 2 above every run at 1)")
    assert median_step(_R, p, 1, 2, pct) is None  # (neither point wide: the means' step stays)


def test_synthetic_counter_tight_runs_are_not_wide():
    p = _p([[10e3, 11e3, 12e3], [19e3, 20e3, 21e3], [30e3, 31e3, 2 * 15.6e3]])
    assert wide_at(p) == []
    assert WIDE_RUNS == 2.0


@pytest.mark.parametrize("case, step, ratio", [
    (HIPRI, "+1088% by the medians (1 → 2; every run at 2 above every run at 1)", "at numjobs = 1 (×8.15"),
    (MEMCG, "-38% by the medians (1 → 2; the runs at 1 and 2 overlap)", "at numjobs = 1 (×4.9"),
    (POSIXAIO, "+372% by the medians (1 → 2; the runs at 1 and 2 overlap)", "at numjobs = 1 (×3.18"),
])
def test_cg_cases_read_the_wide_point_by_medians(case, step, ratio):
    s = _sat(case)
    assert step in s and ratio in s and "the median; runs" in s
    assert "+355%" not in s and "+166% (1 → 2)" not in s and "-25% (1 → 2)" not in s  # (the means' steps, before)


def test_counter_tight_repeats_keep_their_mean_steps():
    s = _sat(TIGHT)
    assert "Step by step" in s and "by the medians" not in s and "hangs on one run" not in s


def test_synthetic_top_by_medians_and_a_run_outside():
    p = _p([[113e3, 114e3, 152e3], [112e3, 114e3, 114.5e3], [110e3, 114.8e3, 118e3]])
    assert top_index(p) == 2 and int(np.argmax(p["y"])) == 0  # (the mean would pick the first point)
    w = outside_words(type("R", (), {"x": "iodepth", "y_unit": "1/s"}), p, 0, 2, 114e3, 115e3)
    assert w.startswith(" 1 run of 3 at iodepth = 1 lay at 152") and f"more than {OUTSIDE:.0%} outside" in w
    assert outside_words(type("R", (), {"x": "iodepth", "y_unit": "1/s"}), p, 1, 2, 110e3, 115e3) == ""


def test_zram_qd_maximum_by_medians_and_the_far_run_counted():
    text = fit_case_id(ZRAMQD).explain()
    assert "fio's CPU accounting at the maximum (iodepth = 16)" in text and "at the maximum (iodepth = 1)" not in text
    assert "1 run of 3 at iodepth = 1 lay at 152.35 K IOPS, more than 10% outside that range" in text


def test_zram_bs_maximum_by_medians():
    text = fit_case_id(ZRAMBS).explain()
    assert "at the maximum (block_size_bytes = 1 MiB)" in text and "at the maximum (block_size_bytes = 256 KiB)" not in text
