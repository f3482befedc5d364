"""Round 25's hand reading (tests/data/explain_corpus/_blind_rounds/round25_hand_read_part{1,2}.md), classes EA, DB,
ED and DE: a fall read from the runs (fall_runs.py), drift over a series in run order (run_drift.py), "still rises"
before "near saturation" and each per-doubling gain named by its step, and the noise a verdict was tested against
named by its source. Each rule on the spent r25 case it was read on and on a counter-case where it must not fire."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.fall_runs import fall_by_runs

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

FEMU = "r25_femupr40_femu-ocssd-pblk-vm_4k-randread_qd128_numjobs_repeats"
FUSE16 = "r25_juicefsceph_juicefs-fuse_16m-write-libaio_qd_repeats"
RADOS = "r25_juicefsceph_direct-rados-read_256k-vs-4m-objects_qd_by-objsize"
LISA = "r25_lisapr610_azure-12disk-raid0_4k-randread_qd"
FUSE20 = "r25_juicefsceph_juicefs-fuse_20m-read-libaio_qd"


def _sat(case_id: str) -> list[dict]:
    return [c for c in fit_case_id(case_id).claims() if c["kind"] == "saturation"]


# ------------------------------------------------------------------ EA: a fall needs the runs, not a mean
def test_ea_one_run_within_the_runs_spread_is_no_fall():
    # runs 217 K and 269 K at 3 jobs (19.3 % apart), ONE run of 185 K at 4 jobs: 14.7 % below the lower 3-job run
    (c,) = _sat(FEMU)
    t, f = c["text"], c["facts"]
    assert "falls 24%" not in t and "peaks" not in t
    assert f["state"] == "unresolved" and f.get("falls") is None and f.get("plateau") is None
    u = f["fall_unshown"]
    assert u["gap"] == pytest.approx(1 - 185 / 217, abs=1e-6) and u["rel"] == pytest.approx(1 - 217 / 269, abs=1e-6)
    assert not u["shown"] and u["peak_n"] == 2 and u["last_n"] == 1
    assert ("the one run at numjobs = 4, 185.00 K IOPS, lies 15% below the lower of them, less than the runs of one "
            "point differ (at numjobs = 3 the lowest is 19% below the highest): these runs cannot tell a fall from "
            "their spread, nor a level (repeat the runs at numjobs = 4)") in t
    assert "+35% (1 → 2), +97% (2 → 3: +49% for ×1.5)" in t  # the rise before it still said


def test_ea_counter_every_falling_run_far_below_the_peak_still_falls():
    # both QD8 runs (1.035 and 1.075 GB/s) lie 29–31 % below the one QD1 run (1.509 GB/s); run spread 3.7 %
    (c,) = _sat(FUSE16)
    t, f = c["text"], c["facts"]
    assert f["state"] == "falls" and "falls 30% to 1.05 GB/s" in t
    d = f["falls"]["by_runs"]
    assert d["shown"] and d["gap"] == pytest.approx(1 - 1.074864e9 / 1.509058e9, abs=1e-3) and d["rel"] < 0.04
    # DE: the noise named by its source, not "more than the ±10% a level is read within varies"
    assert "lie 29% or more below the one run at iodepth = 1, more than the runs of one point differ (at iodepth = 8 " \
           "the lowest is 3.7% below the highest)" in t
    assert "varies" not in t and "the first point measured" not in t and "the smallest iodepth" in t


def test_ea_the_rule_needs_repeats_somewhere_and_stays_out_of_the_repeat_test():
    assert fall_by_runs(np.array([100.0]), np.array([70.0]), 0.0, np.nan) is None  # no repeats anywhere
    assert fall_by_runs(np.array([100.0, 110.0]), np.array([70.0, 75.0]), 0.09, 1.0) is None  # both repeated
    shown = fall_by_runs(np.array([100.0]), np.array([70.0, 75.0]), 0.2, 2.0)
    assert shown["shown"] and shown["gap"] == pytest.approx(0.25)
    assert not fall_by_runs(np.array([100.0]), np.array([85.0]), 0.2, 2.0)["shown"]


def test_ea_counter_one_run_a_point_falls_read_from_the_steps_as_before():
    # no repeats anywhere: the fall is read from the size of the steps, the rule has nothing to compare
    rows = [{"iodepth": q, "numjobs": 1, "iops": v} for q, v in zip((1, 2, 4, 8, 16), (10e3, 19e3, 36e3, 37e3, 24e3))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")
    (c,) = [c for c in r.claims() if c["kind"] == "saturation"]
    assert c["facts"]["state"] == "falls" and c["facts"]["falls"]["by_runs"] is None
    assert "and falls 35% to 24.00 K IOPS at iodepth = 16, beyond any step from iodepth = 4 to the peak" in c["text"]


# ------------------------------------------------------------------ DB: a bracketing repeat is drift
def test_db_the_qd1_rerun_after_qd32_is_drift_not_noise():
    c256, c4m = _sat(RADOS)
    d = c256["facts"]["drift"]
    assert d["x"] == 1 and d["after_x"] == 32 and not d["others_repeated"]
    assert d["first"] == pytest.approx(0.3226e9, rel=2e-3) and d["last"] == pytest.approx(0.4033e9, rel=2e-3)
    assert d["change"] == pytest.approx(0.25, abs=0.005)
    assert ("but the runs at iodepth = 1 are the first and the last of the series in run order: 0.323 GB/s "
            "(0.3 GiB/s) first, 0.403 GB/s (0.376 GiB/s) after iodepth = 32 (+25%), more than the ±10% band a level "
            "is read within (no other point repeated): the series drifted while it was measured") in c256["text"]
    assert c4m["facts"]["drift"]["change"] == pytest.approx(0.175, abs=0.005) and "(+18%)" in c4m["text"]


def test_db_counters_a_small_bracket_and_no_bracket_say_no_drift():
    # 16m-write: QD8 run first and last, 3.7 % apart (inside the ±10 % band) — no drift words, the fall stands
    (c,) = _sat(FUSE16)
    assert c["facts"]["drift"] is None and "drifted" not in c["text"]
    # femupr40: repeats adjacent in run order (runs 0/1, 2/3, 4/5) — no bracket
    (c,) = _sat(FEMU)
    assert c["facts"]["drift"] is None


def test_db_counter_no_run_order_in_the_files_says_nothing():
    # one file a run (every run ordinal 0): the order is not in the data, whatever the values
    rows = []
    for q, vals in ((1, (100.0, 130.0)), (2, (190.0,)), (4, (360.0,)), (8, (700.0,))):
        for k, v in enumerate(vals):
            rows.append({"iodepth": q, "numjobs": 1, "iops": v * 1e3, "source_path": f"q{q}_{k}.json", "run": 0})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")
    (c,) = [c for c in r.claims() if c["kind"] == "saturation"]
    assert c["facts"]["drift"] is None and "drifted" not in c["text"]


# ------------------------------------------------------------------ ED: still rises before near saturation
def test_ed_a_last_doubling_over_ten_percent_still_rises_and_each_gain_names_its_step():
    (c,) = _sat(LISA)
    t = c["text"]
    assert "near saturation" not in t and "up to iodepth = 64" not in t
    assert t.startswith("Measured IOPS still rises at the largest iodepth: +19% per doubling in the last step "
                        "(23.61 K IOPS at iodepth = 64 → 28.15 K IOPS at 128), down from +87% in the step before "
                        "(32 → 64): the rise slowed sharply, so a level, if any, is at or above 28.15 K IOPS")
    assert c["facts"]["state"] == "rising" and c["facts"].get("plateau") is None


def test_ed_counter_a_collapse_under_ten_percent_keeps_the_saturation_words():
    # +90 % then +6 % per doubling, latency doubling at the last step (one run a point): saturated at the last point
    iops = [10e3, 19e3, 36e3, 68e3, 72e3]
    rows = [{"iodepth": q, "numjobs": 1, "iops": v} for q, v in zip((1, 2, 4, 8, 16), iops)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")
    (c,) = [c for c in r.claims() if c["kind"] == "saturation"]
    assert "still rises" not in c["text"] and c["facts"]["state"] == "onset"
    assert "saturates from iodepth = 8" in c["text"] and "Plateau 70.00 K IOPS" in c["text"]


# ------------------------------------------------------------------ DE: "and the noise" only with a noise
def test_de_no_noise_named_where_one_run_a_point():
    (c,) = _sat(FUSE20)
    t = c["text"]
    assert "(by more than 5 points): the rise slows" in t and "and the noise" not in t
    assert "One run a point" in t
