"""Round 28's saturation classes (``_blind_rounds/round28_hand_read_part1.md`` JA, JF; ``…_part2.md`` KD, KE;
``…_part4.md`` MA, MG):

- JA / KE: a plateau's level the mean over an approach onset point and a flat level —
  :mod:`nvmemodel.fitting.plateau_approach`.
- JF: "still rises" from a last step shorter than a doubling raised to one; "the gains do not shrink" on the last three
  steps — :mod:`nvmemodel.fitting.last_doubling`.
- KD: "only the last gain fell" beside an earlier listed fall — the words name the three gains judged.
- MA: a level withheld where the medians are flat with latency ∝ load and one run keeps rising —
  :mod:`nvmemodel.fitting.median_onset`.
- MG: shrinking gains refused on one wide point — :mod:`nvmemodel.fitting.median_bend`.

Round 28 is spent; counters are other spent cases and labelled synthetic arrays.
"""

from __future__ import annotations

import numpy as np
import pytest

from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.last_doubling import last_span
from nvmemodel.fitting.median_bend import median_bend
from nvmemodel.fitting.plateau_approach import approach_point
from tests.fitting.corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

RANDWRITE_NJ = "r28_spdk517_optane-p4800x-libaio_4k-randwrite_qd32_numjobs"
SEQWRITE = "r28_spdk517_optane-p4800x-libaio_4k-seqwrite_31jobs_iodepth"
CRIMSON_READ = "r28_crimsonbench_ceph-classic-bluestore-3osd-1nvme-vm-virtio-scsi-librbd_4k-randread-nj1_qd"
CRIMSON_WRITE = "r28_crimsonbench_ceph-classic-bluestore-3osd-1nvme-vm-virtio-scsi-librbd_4k-randwrite-nj1_qd"
PM1643A = "r28_thejj_samsung-pm1643a-sas-enterprise_4k-osync-write_qd1_numjobs"
VDAWRITE = "r28_here-vdawrite_vda-ext4-512mfile_libaio-direct_randwrite4k_iodepth_repeats"
VDANUMJOBS = "r28_here-vdanumjobs_vda-ext4-512mfile_psync-direct_randread4k_numjobs_repeats"
VDAFSYNC = "r28_here-vdafsync_vda-ext4-32mfile-per-job_psync-buffered-fsync1_randwrite4k_numjobs_repeats"


def _sat(fit, key=()):
    return curve_facts(fit, key).saturation.facts


def _sentence(fit, start="Measured"):
    return next(s for s in fit.explain().split("\n") if s.startswith(start))


# ---- JA / KE: the level from the points after an approach onset point ----------------------------------------------

def test_ja_randwrite_numjobs_level_from_16_to_64_and_4_jobs_near_it():
    fit = fit_case_id(RANDWRITE_NJ)
    s = _sat(fit)
    assert s["onset_x"] == 4.0
    ap = s["approach"]
    assert ap["x"] == 4.0 and ap["x_from"] == 16.0 and ap["points"] == 2
    assert s["plateau"] == pytest.approx(546_300, rel=2e-3)  # not the 537.00 K mean over 4–64
    assert ap["share"] == pytest.approx(518_400 / 546_300, abs=0.003)
    t = fit.explain()
    assert "537.00 K" not in t and "16.11 K" not in t
    assert "546.30 K IOPS" in t and "95% of that level" in t


def test_ke_crimson_randread_level_from_16_and_32_not_the_mean_with_8():
    fit = fit_case_id(CRIMSON_READ)
    s = _sat(fit)
    assert s["onset_x"] == 8.0 and s["approach"]["x_from"] == 16.0
    assert 67_500 < s["plateau"] < 68_300  # 67.6–68.2 K, not 66.42 K
    assert "66.42 K" not in fit.explain()


def test_ja_counter_seqwrite_keeps_its_mean_over_a_level_that_scatters_both_ways():
    fit = fit_case_id(SEQWRITE)
    s = _sat(fit)
    assert s["approach"] is None and s["plateau"] == pytest.approx(544_940, rel=1e-3)
    assert "flattens at 544.94 K IOPS" in fit.explain()


def test_ja_counters_synthetic():
    """Labelled synthetic: no first-point approach; a gap within ×3 the later spread; repeats covering the gap."""
    x = np.array([1, 4, 16, 64.0])
    lv = np.arange(4)
    one = [np.array([v]) for v in (1, 2, 3, 4)]
    assert approach_point(x, [500, 540, 546, 546.5], one, 0, lv) is None  # from the first point: nothing approaches
    assert approach_point(x, [100, 530, 540, 546], one, 1, lv[1:]) is None  # gap 10 < 3 × 6 spread
    runs = [np.array([100.0]), np.array([510, 530, 560.0]), np.array([540, 546, 552.0]), np.array([541, 547, 553.0])]
    assert approach_point(x, [100, 530, 546, 547], runs, 1, lv[1:]) is None  # the runs overlap the gap
    assert approach_point(x, [100, 518, 546, 546.6], one, 1, lv[1:]) is not None


# ---- KD: the three gains judged ---------------------------------------------------------------------------------

def test_kd_crimson_randwrite_names_the_window_and_the_earlier_fall():
    fit = fit_case_id(CRIMSON_WRITE)
    s = _sat(fit)
    assert s["state"] == "rising" and s["last_falls"]
    assert s["earlier_fall"]["from"] == pytest.approx(0.976, abs=0.005)
    assert s["earlier_fall"]["to"] == pytest.approx(0.863, abs=0.005)
    t = _sentence(fit)
    assert "of the last three gains only the last fell by more than 5 points (the earlier fall, +98% → +86%" in t
    assert "— only the last gain fell" not in t


# ---- JF: the last span of about a doubling ----------------------------------------------------------------------

def test_jf_pm1643a_near_saturation_from_7_over_the_last_x229():
    fit = fit_case_id(PM1643A)
    s = _sat(fit)
    assert s["state"] == "near" and s["onset_x"] == 7.0
    ls = s["last_span"]
    assert ls["ratio"] == pytest.approx(16 / 7, rel=1e-6)
    assert ls["gain"] == pytest.approx(0.1003, abs=0.001) and ls["t_ratio"] == pytest.approx(2.04, abs=0.01)
    assert ls["t_kind"] == "little"
    assert 88_000 <= s["plateau"] <= 96_000 and s["plateau_lo"] == pytest.approx(90_436, rel=1e-4)
    t = fit.explain()
    assert "still rises" not in t and "the gains do not shrink" not in t and "bends before they do" not in t
    assert "near saturation from numjobs = 7" in t and "×2.04 (84.2 µs → 172 µs)" in t
    assert "the model bends with them there" in t


def test_jf_counters_synthetic():
    """Labelled synthetic: a last step of a doubling (measured); a last span still paying; the time per I/O flat; the
    gains alternating without a shrink; PM1643a cut at 5 jobs (a short last step with a large gain)."""
    x = np.array([1, 2, 3, 4, 5, 6, 7, 13, 16.0])
    y = np.array([18.55, 33.0, 48.9, 60.1, 67.0, 76.4, 83.2, 90.4, 93.2]) * 1e3
    assert last_span(x, y, out=x) is not None
    assert last_span(x[:5], y[:5], out=x[:5]) is None  # 4 → 5 +11 % for ×1.25: the span 2 → 5 still pays
    xd = np.array([1, 2, 4, 8, 16.0])
    assert last_span(xd, np.array([10, 19, 30, 33, 36.0]), out=xd) is None  # doublings: the last one is measured
    assert last_span(x, y, lat=np.full(x.size, 1e-4)) is None  # time per I/O flat: the rate ∝ load
    ya = y.copy()
    ya[-2:] = y[-3] * np.array([1.35, 1.45])  # the last span still gains ≥ 15 % per doubling
    assert last_span(x, ya, out=x) is None


# ---- MA: the onset by the medians ---------------------------------------------------------------------------------

def test_ma_vdawrite_saturated_from_8_by_the_medians():
    fit = fit_case_id(VDAWRITE)
    s = _sat(fit)
    assert s["state"] == "near" and s["onset_x"] == 8.0
    mo = s["median_onset"]
    assert mo["med_gains"] == pytest.approx([0.093, 0.068], abs=0.003)
    assert mo["lat_steps"] == pytest.approx([1.83, 1.87], abs=0.01)
    assert 58_000 <= s["plateau"] <= 100_000 and mo["top_run"] == pytest.approx(103_650, rel=1e-4)
    t = fit.explain()
    assert "so the level is not read" not in t and "saturates from iodepth = 8 by the medians" in t


def test_ma_counters_vdanumjobs_and_vdafsync_keep_rising():
    for case in (VDANUMJOBS, VDAFSYNC):
        s = _sat(fit_case_id(case))
        assert s["state"] == "rising" and s.get("median_onset") is None


# ---- MG: shrinking gains by the medians ---------------------------------------------------------------------------

def test_mg_vdanumjobs_gains_shrink_by_means_and_medians():
    fit = fit_case_id(VDANUMJOBS)
    b = _sat(fit)["median_bend"]
    assert b["by"] == "medians" and b["medians"] == pytest.approx([0.80, 0.61, 0.36, 0.17], abs=0.01)
    t = _sentence(fit)
    # (round 30 RB: the last doubling, +20 % at ×1.67 the latency with Little at 1.00 after +88 %, is near saturation
    # — the sentence that replaced "the rise slows" there; the shrinking stays in the fact above)
    assert "the gains alone do not show" not in t and "is near saturation from numjobs = 16" in t, t


def test_mg_counters():
    """vdafsync (+46, +24, +40 %) has no bend; labelled synthetic: one run a point, or a fall of 3 points, none."""
    assert _sat(fit_case_id(VDAFSYNC))["median_bend"] is None
    x = np.array([1, 2, 4, 8, 16.0])
    y = np.array([10, 18.8, 28.8, 40.3, 48.4])
    assert median_bend(x, y, y, np.full(5, 3)) is not None
    assert median_bend(x, y, y, np.ones(5)) is None  # one run a point: the noise-free test is steps.bends'
    y2 = y.copy()
    y2[-1] = y2[-2] * 1.38  # +38 % after +40 %: a fall of 2 points
    assert median_bend(x, y2, y2, np.full(5, 3)) is None
