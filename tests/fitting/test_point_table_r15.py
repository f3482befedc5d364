"""One point table for the saturation claim (round 15 UA, UC, UE; docs/fitting.md, "set after round 15 was read"):
each point's level is the median of its kept runs (facts.point_levels, stalled runs out), its latency fio's mean
latency over the kept runs; a step pays only where the kept runs' median and mean both gain 10 % per doubling; a
plateau's value and range never come from a point whose kept runs split in two. Each rule on the spent r15 case it
was read on and on a counter-case where it must not fire."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting import facts as F

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")


def _sat(case_id):
    res = fit_case_id(case_id)
    (t,) = [c["text"] for c in res.claims() if c["kind"] == "saturation"]
    return res, F.curve_facts(res, ()), t


def test_onset_not_read_from_a_mean_a_stalled_run_drags():
    # UC: QD2's runs 110.1 / 12.9 (stalled: mean latency ×18 its fastest run's, p50 as fast) / 56.9 K averaged to
    # 59.97 K, "+106 % per doubling" to QD4; with the stalls out the levels are 88, 84, 111, 93, 79, 100 K
    res, cf, t = _sat("r15_here-newfio_fio342_loop_iouring-nonvectored_randread_iodepth_repeats")
    assert "59.97 K" not in t and "+106%" not in t, t
    assert "saturated from the first point" in t, t
    lv = F.point_levels(res, cf.points)
    assert [len(d["stalled"]) for d in lv][:2] == [1, 1]
    assert np.allclose(cf.points["level"], [d["median"] for d in lv])


def test_a_median_alone_does_not_make_a_rise():
    # counter: no run stalled; the medians gain +11 % from 1 to 2 jobs (runs 138–256 K and 198–232 K), the means +9.8 %:
    # no step pays, the onset stays at the first point (read right by hand in round 15)
    res, cf, t = _sat("r15_here-newfio_fio338-jsonplus_loop_iouring-registerfiles_randread_qd4_numjobs_repeats")
    assert F.stalled_runs(res, cf.points) is None
    assert "It saturates from numjobs = 1" in t and "still paid" not in t, t


def test_plateau_range_never_from_a_split_point():
    # UA: "54.54 K IOPS to 98.96 K IOPS" were the medians of QD32 and QD8, the two points said to have no single level
    res = fit_case_id("r15_here-ext4_ext4-on-loop_libaio_randread_iodepth_repeats")
    cf = F.curve_facts(res, ())
    s = cf.saturation.facts
    whole = [d["median"] for d in F.point_levels(res, cf.points)
             if s["onset_x"] <= d["x"] <= s["plateau_x_to"] and not d["split"]]
    assert any(d["split"] for d in F.point_levels(res, cf.points))
    assert s["plateau_lo"] == min(whole) and s["plateau_hi"] == max(whole)
    assert round(s["plateau_lo"], -1) == 77650 and round(s["plateau_hi"], -1) == 90230 and s["onset_x"] == 4
    # (54.54 K is a run; onset 4: every QD4 run above every QD1 run, read right by hand). The level is said over QD4
    # and QD16 only, QD8 and QD32, whose run groups (40.8 K and 99–110 K; 38–55 K and 111 K) none lie at it, named
    # apart (the review of round 25's fixes, split_level.py; round 24's review had the pass drop the whole sentence)
    (sat,) = [c for c in res.claims() if c["kind"] == "saturation"]
    assert "over iodepth = 4 and 16, 2 points" in sat["text"] and "dropped from explain()" not in res.summary()


def test_latency_growth_from_the_kept_runs():
    # UE: "×2.36, 33.2 µs → 78.3 µs" held a 115 µs stalled run at 8 jobs; the kept runs give ×1.89, as Little's law does
    _, _, t = _sat("r15_here-ext4_ext4-on-loop_psync_nrfiles32_randread_numjobs_repeats")
    assert "×2.36" not in t and "grows ×1.89 over it, 33.1 µs → 62.6 µs" in t, t


def _series(one_run_at_8: bool):
    """SYNTHETIC: 3 runs at each of 4 depths near 20 K IOPS, one run at depth 2 stalled (4 K IOPS, mean latency ×5
    with its median as fast, half the CPU); with ``one_run_at_8`` depth 8 has one run only."""
    rows = []
    for x in (1, 2, 4, 8):
        for r in range(1 if (one_run_at_8 and x == 8) else 3):
            slow = x == 2 and r == 1
            iops = 4e3 if slow else 20e3 * (1 + 0.01 * r)
            rows.append({"source_path": f"synthetic/qd{x}_r{r}.json", "iodepth": x, "iops": iops, "lat_mean_s": x / iops,
                         "clat_p50_s": 0.8 * x / (20e3 if slow else iops), "cpu_usr": 0.05 if slow else 0.1,
                         "cpu_sys": 0.05 if slow else 0.1, "direction": "read", "numjobs": 1, "ioengine": "libaio"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")


@pytest.mark.parametrize("one_run_at_8", [False, True])
def test_a_point_without_repeats_stops_no_other_points_stall_test(one_run_at_8):
    # a point whose runs cannot be told apart (one run) used to void the stall test for the whole series
    res = _series(one_run_at_8)
    st = F.stalled_runs(res, F.curve_facts(res, ()).points)
    assert st is not None and [a for a, _ in st["left"]] == [2.0]


def test_the_noise_test_reads_the_kept_means_not_the_medians():
    # set after round 16 was scored (spent r11 case): medians 41.6 → 90.8 K from 1 to 2 jobs (+118 %, runs 27–73 K and
    # 34–91 K) made every run spread look smaller than a step, and the last step was "near saturation"; by the means
    # (no run stalled) the runs at 4 and 8 jobs (78–91 K, 73–110 K) overlap while the mean gains +16 %: cannot tell
    res, cf, t = _sat("r11_here-fio31_loop_psync_randread_normal_numjobs_repeats")
    assert F.stalled_runs(res, cf.points) is None
    assert cf.saturation.facts["state"] == "overlap", t
    assert "cannot tell a rise from a level" in t and "near saturation" not in t, t


def test_no_pooled_level_over_a_split_point():
    # set after round 16 was scored (spent r10 case): "flattens at 161.16 K IOPS (sd 56.77 K over 12 runs)" pooled
    # QD8's split runs (81.7 K beside 165–224 K), below every unsplit point's level, and the verification pass dropped
    # the whole sentence; the plateau from the unsplit points' medians is said instead
    res, cf, t = _sat("r10_here-fio2111_loop_libaio_randread_terse_iodepth_repeats")
    assert [d["split"] for d in F.point_levels(res, cf.points)][3] is True
    assert "flattens at" not in t and "saturates from iodepth = 4" in t, t
    # said over the unsplit points, QD8 named apart with its groups (the review of round 25's fixes, split_level.py)
    assert "Plateau 192.13 K IOPS: 182.50 K IOPS to 210.37 K IOPS over iodepth = 4, 16 and 32, 3 points" in t, t
    assert "At iodepth = 8 the runs split into two groups more than ×2 apart — 81.73 K IOPS and " \
           "165.17 K IOPS–223.84 K IOPS — the higher at that level: no level is read there" in t, t


def test_a_pooled_level_without_a_split_point_stays():
    # counter: no split point in the level (r15 ext4 psync nrfiles32 numjobs): the pooled words of the noise test stay
    _, cf, t = _sat("r15_here-ext4_ext4-on-loop_psync_nrfiles32_randread_numjobs_repeats")
    assert not cf.points["split"].any()
    assert "flattens at 115.93 K IOPS (sd" in t, t
