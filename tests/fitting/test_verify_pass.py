"""The verification pass (nvmemodel.fitting.verify; set after round 13 was read, design direction 3 of
tests/data/explain_corpus/_blind_rounds/round13_hand_read_part2.md's notes): a stated level, plateau or cap that a
point's kept runs lie outside of is dropped, and of two claims about one curve that contradict each other the one
the kept runs do not support goes; each drop is said in summary(). Seeded synthetic curves that would have produced
each contradiction, and counter-cases (synthetic and spent real) where the pass must drop nothing."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.claim import Claim
from nvmemodel.fitting.claims import curve_claims
from nvmemodel.fitting.verify import ROUNDING, checked, dropped_words

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")


def _fit(x, runs, *, xname="iodepth"):
    """SYNTHETIC: the given runs a point (IOPS), one fio file each, fio's mean latency by Little's law."""
    rows = [{"source_path": f"synthetic/{xname}{xv}_r{r}.json", xname: xv, "iops": v, "lat_mean_s": xv / v,
             "direction": "read"} for xv, vs in zip(x, runs) for r, v in enumerate(vs)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=xname, y="iops")


def _seeded(x, means, spread=0.01, seed=13):
    rng = np.random.default_rng(seed)
    return [list(m * (1 + spread * rng.standard_normal(3))) for m in means]


def _level(x_from, x_to, lo, hi):
    return Claim("saturation", "Measured IOPS holds a level …", {"state": "onset", "onset_x": x_from,
                                                                 "plateau_x_to": x_to, "plateau_lo": lo,
                                                                 "plateau_hi": hi, "unit": "1/s"})


X = [1, 2, 4, 8, 16]


def test_a_level_a_point_lies_outside_of_is_dropped_and_said_in_summary():
    runs = _seeded(X, [20e3, 38e3, 50e3, 51e3, 62e3])  # the point at 16 sits 22 % above the stated 50–51 K
    res = _fit(X, runs)
    (key,) = res.chosen
    stated = _level(4, 16, 50e3 * 0.99, 51e3 * 1.01)
    assert checked(res, key, [stated]) == []
    (why,) = dropped_words(res, key, curve_claims)
    top = min(runs[-1])
    assert "iodepth = 16" in why and top > 51e3 * 1.01 * (1 + ROUNDING), why
    assert "dropped from explain()" in res.summary()


def test_a_level_every_point_reaches_is_kept():
    # counter: the same stated level over points whose runs straddle it
    runs = _seeded(X, [20e3, 38e3, 50e3, 51e3, 50.5e3])
    res = _fit(X, runs)
    (key,) = res.chosen
    lo, hi = min(min(r) for r in runs[2:]), max(max(r) for r in runs[2:])
    stated = _level(4, 16, lo, hi)
    assert checked(res, key, [stated]) == [stated]
    assert dropped_words(res, key, curve_claims) == []


def test_a_cap_below_a_measured_point_is_dropped():
    runs = _seeded(X, [20e3, 38e3, 50e3, 51e3, 58e3])
    res = _fit(X, runs)
    (key,) = res.chosen
    cap = Claim("cap", "Measured IOPS is flat at … a cap of 51 K IOPS", {"iops_cap": 51e3, "iops_flat": (4.0, 8.0),
                                                                      "iops_range": (49e3, 52e3)})
    assert checked(res, key, [cap]) == []
    assert "the cap 5.1e+04" in dropped_words(res, key, curve_claims)[0]
    # counter: a cap the largest point's runs reach but do not pass
    held = Claim("cap", "…", {"iops_cap": max(max(r) for r in runs), "iops_flat": (4.0, 16.0),
                              "iops_range": (min(min(r) for r in runs[2:]), max(max(r) for r in runs))})
    assert checked(res, key, [held]) == [held]


@pytest.mark.parametrize("last, loser", [(80e3, "saturation"), (51.5e3, "rising")])
def test_still_rising_beside_a_level_keeps_what_the_last_doubling_shows(last, loser):
    # a curve that gains +57 % on its last doubling is still rising; one that gains +1 % is level there
    runs = _seeded(X, [20e3, 38e3, 50e3, 51e3, last])
    res = _fit(X, runs)
    (key,) = res.chosen
    lvl = _level(4, 16, 0.0, np.inf)  # the range itself is not what is tested here
    rising = Claim("rising", "Measured IOPS still rises at the largest iodepth …")
    kept = checked(res, key, [lvl, rising])
    assert [c.kind for c in kept] == [k for k in ("saturation", "rising") if k != loser]
    (why,) = dropped_words(res, key, curve_claims)
    gain = float(np.median(runs[-1]) / np.median(runs[-2]) - 1)
    assert f"{gain:+.0%} per doubling" in why


def test_flat_beside_a_rise_keeps_what_the_medians_span():
    runs = _seeded(X, [40e3, 41e3, 40.5e3, 41.5e3, 41e3])
    res = _fit(X, runs)
    (key,) = res.chosen
    flat, rises = Claim("flat", "Measured IOPS does not change …"), Claim("rises", "Measured IOPS is 30% higher …")
    assert [c.kind for c in checked(res, key, [flat, rises])] == ["flat"]


def test_a_clean_spent_case_loses_nothing():
    # counter (spent, round 7 CA: 16 of 18 runs at 5.99–6.19 K, two a slowed host left out of the level)
    res = fit_case_id("r7_here_blkio_riops_iodepth_low1_repeats")
    for key in res.chosen:
        assert dropped_words(res, key, curve_claims) == []
    assert "dropped from explain()" not in res.summary()


def test_a_level_over_split_runs_is_said_over_the_unsplit_points_on_the_spent_kyber_case():
    # spent, round 12 NA: runs at QD16–32 form two groups (23–34 K and 122 K; 42–43 K and 114 K); "flattens at 79.04 K"
    # described no run group, and a level of QD4–8's medians (87.66–99.26 K) said over QD4–32 describes neither group
    # at QD16 (set after the review of round 23's fixes; verify._off_level). Since the review of round 25's fixes the
    # fact reads the level over the points whose runs do not split and names the split ones apart (split_level.py):
    # the sentence is kept, its level over QD4–8 only
    res = fit_case_id("r12_here-sched_loop-kyber_libaio_randwrite_iodepth_repeats")
    (key,) = res.chosen
    (sat,) = [c for c in res.claims() if c["kind"] == "saturation"]
    assert "Plateau 93.46 K IOPS: 87.66 K IOPS to 99.26 K IOPS over iodepth = 4–8, 2 points." in sat["text"]
    assert sat["facts"]["split_level"]["apart"] and "dropped from explain()" not in res.summary()
    # the pass keeps its drop as the last guard: the same level stated over QD4–32 with no split point set apart
    stated = _level(4, 32, 87.66e3, 99.26e3)
    assert checked(res, key, [stated]) == []
    (why,) = dropped_words(res, key, curve_claims)
    assert "the level 8.766e+04–9.926e+04 1/s is contradicted by the kept runs at iodepth = 16 " \
           "(2.331e+04–3.412e+04 and 1.223e+05 1/s, groups none of which is at the level)" in why, why


def test_a_level_one_group_of_a_split_point_sits_at_is_kept():
    # counter (SYNTHETIC, seeded): the point at 16 splits (two runs at the level, one ×3 below): a group sits at the
    # level, so the level is not contradicted there (the split point is said as such, not dropped)
    runs = _seeded(X, [20e3, 38e3, 50e3, 51e3, 50.5e3])
    runs[-1][0] = 16e3
    res = _fit(X, runs)
    (key,) = res.chosen
    lo, hi = 49e3, 52e3
    stated = _level(4, 16, lo, hi)
    assert sorted(runs[-1])[1] / sorted(runs[-1])[0] > 2  # the point does split
    assert checked(res, key, [stated]) == [stated]
    # and the same point with its upper group 20 % above the level: no group at it, dropped
    runs[-1] = [16e3, 62e3, 63e3]
    res = _fit(X, runs)
    (key,) = res.chosen
    assert checked(res, key, [stated]) == []
    assert "groups none of which is at the level" in dropped_words(res, key, curve_claims)[0]


def test_a_level_said_as_the_runs_range_describes_the_split_groups_inside_it():
    # counter (spent, round 11): "saturated from the first point, at a level its runs put anywhere from 51.09 K IOPS to
    # 176.65 K IOPS" — the 1-job point's runs split (51–62 K and 136 K), but both groups lie inside the range the words
    # give, so the level is kept
    res = fit_case_id("r11_here-pin_loop_libaio_1cpu_randread_numjobs_repeats")
    (sat,) = [c for c in res.claims() if c["kind"] == "saturation"]
    assert sat["facts"]["within_noise"] and sat["facts"]["runs_lo"] < 52e3 and sat["facts"]["runs_hi"] > 176e3
    assert "dropped from explain()" not in res.summary()
