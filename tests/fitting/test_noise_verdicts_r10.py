"""Round 10's hand reading (tests/data/explain_corpus/_blind_rounds/round10_hand_read_part{1,2}.md, classes HB and
JB): "cannot tell" only where no reading survives the means — a median alone (one run of three) does not make the
runs "overlap while the level gains", and runs wider than every step still bound a level where fio's latency grew
with the load over the whole axis (Little's law holding); a fall after a peak is judged per regime, each level read
from its own points, never averaged with the rise into one "plateau". Each rule on the spent r10 case it was read on
and on a spent or seeded synthetic counter-case where it must not fire. docs/fitting.md's claims table names round 10
as the round read before these rules."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")


def _sat(res) -> list[str]:
    return [c["text"] for c in res.claims() if c["kind"] == "saturation"]


def _sat_facts(res) -> dict:
    (f,) = [c["facts"] for c in res.claims() if c["kind"] == "saturation"]
    return f


def _runs(x, runs, *, lat_scale=1.0, xname="iodepth"):
    """SYNTHETIC: the given runs a point (IOPS), fio's latency by Little's law (outstanding ÷ rate) × ``lat_scale``."""
    rows = []
    for xv, vs in zip(x, runs):
        for r, v in enumerate(vs):
            rows.append({"source_path": f"synthetic/{xname}{xv}_r{r}.json", xname: xv, "iops": v,
                         "lat_mean_s": lat_scale * xv / v if lat_scale != 0 else 20e-6, "direction": "read"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=xname, y="iops")


# ------------------------------------------ HB (#4): a median alone does not make "cannot tell"
def test_a_median_gain_alone_is_no_overlap():
    # QD16 runs 198.3/137.5/182.5 K, QD32 210.4/113.3/212.6 K: means +3.5 %, median +15 %, latency ×2.07 for ×2
    (t,) = _sat(fit_case_id("r10_here-fio2111_loop_libaio_randread_terse_iodepth_repeats"))
    assert "cannot tell" not in t and "the median +15%" not in t
    # (since the point table: QD8's split runs give no pooled level, the onset reads the unsplit points)
    assert "saturates from iodepth = 4" in t and "Plateau 192.13 K IOPS" in t, t


def test_a_mean_gain_with_overlapping_runs_still_cannot_tell():
    # counter (spent, round 9 GA): 8 → 16 jobs, means +10.3 %, runs overlapping: still "cannot tell"
    (t,) = _sat(fit_case_id("r9_here-fio221_libaio_loop_numjobs16_repeats"))
    # (since the point table the last-step words say it: the runs overlap, no level read)
    assert "199.21 K IOPS at numjobs = 8 → 219.75 K IOPS at 16" in t and "+10% per doubling" in t
    assert "The runs of the last two points overlap" in t and "the level is not read from them" in t


# ------------------------------------------ HB (#5): runs wider than every step, latency ∝ load: a level
def test_runs_wider_than_every_step_with_latency_growing_with_the_load_are_a_level():
    # runs 26.5–111.4 K over QD 1–32 (×2.79 at QD1), means 47.1–72.8 K, latency ×18.8 for ×32, Little 0.96–1.00 by run
    res = fit_case_id("r10_here-fio37_loop_libaio_randwrite_jsonplus_iodepth_repeats")
    (t,) = _sat(res)
    assert "no onset, level or fall can be read" not in t
    assert "saturated from the first point, at a level its runs put anywhere from 26.49 K IOPS to 111.38 K IOPS" in t
    assert "the mean of the 18 runs kept 61.52 K IOPS" in t and "fio's mean latency grew ×18" in t, t
    # Little's law over the runs (round 18 ZF a: the lowest and highest run, not the points' means 0.98–1.00); no run
    # is set aside here (18 kept of 18), so every run's IOPS × mean latency ÷ outstanding (one job, one row a file)
    tbl = res.table
    run = (tbl["iops"] * tbl["lat_mean_s"] / (tbl["iodepth"] * tbl["numjobs"])).to_numpy(float)
    lo, hi = f"{run.min():.2f}", f"{run.max():.2f}"
    assert lo != hi and f"{lo}–{hi} by Little's law" in t and "differ by up to ×2.79 (at iodepth = 1)" in t, t
    f = _sat_facts(res)
    assert f["state"] == "from_first" and f["within_noise"]


@pytest.mark.parametrize("case", ["r5_here_loop_posixaio_iodepth_repeats", "r5_here_ext4_fsync_numjobs_repeats"])
def test_runs_far_wider_stay_unread(case):
    # counter (spent, round 5 AE): runs ×10.5 / ×125 apart at one point bound no level
    (t,) = _sat(fit_case_id(case))
    assert "no onset, level or fall can be read from these runs" in t


def test_wide_runs_whose_latency_did_not_grow_are_no_level():
    # counter (SYNTHETIC): runs ×2.5 apart at every point, means level, fio's latency flat: the I/O asked for was
    # not in flight (Little's law far from 1 at most points), so nothing says the added load queued
    runs = [[40e3, 100e3, 70e3], [45e3, 95e3, 60e3], [42e3, 105e3, 75e3], [38e3, 98e3, 66e3], [41e3, 99e3, 71e3]]
    (t,) = _sat(_runs([1, 2, 4, 8, 16], runs, lat_scale=0))
    assert "at a level its runs put anywhere" not in t


# ------------------------------------------ JB: a fall after the peak, a level per regime
def test_a_fall_one_run_a_point_is_two_levels_not_one_plateau():
    # 294 K (2), 309.9, 309.3, 315.3 K (3–5), 301.3 K (6), then 269.5–276.7 K at 7–15: −13 %
    (t,) = _sat(fit_case_id("r10_icpe24sched_980pro_4k-randread_qd128_sched-bfq_numjobs"))
    assert "Plateau 284.94 K" not in t
    assert "steps down between two levels: 311.50 K IOPS (309.30 K IOPS to 315.26 K IOPS over numjobs = 3–5" in t, t
    assert "then 273.29 K IOPS (269.52 K IOPS to 276.72 K IOPS over numjobs = 7–15, 9 points)" in t


def test_the_round5_two_levels_keep_their_points():
    # counter (spent, round 5 AA): 327 K and 336 K at QD4–8, then 116–139 K over QD16–64 — three points stay whole
    (t,) = _sat(fit_case_id("r5_samyaple_rkt4p_4k-randwrite_1job_qd"))
    assert "331.41 K IOPS (326.99 K IOPS to 335.84 K IOPS over iodepth = 4–8, 2 points)" in t
    # (round 21 WA: the three points after the step fall every step — said with each of them, not as a level)
    assert ("to 138.72 K IOPS at iodepth = 16, then falls a further 16.3% to 116.15 K IOPS at iodepth = 64, every step "
            "down (-6.1% 16 → 32, -10.9% 32 → 64)") in t


def test_a_steady_decline_is_no_pair_of_levels():
    # counter (SYNTHETIC): one run a point, a level to 8 jobs, then −3 … −4 % at every step: a decline, no two levels
    x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    y = [200e3, 300e3, 305e3, 310e3, 306e3, 296e3, 286e3, 276e3, 266e3, 257e3, 248e3, 240e3]
    (t,) = _sat(_runs(x, [[v] for v in y], xname="numjobs"))
    assert "two levels" not in t, t
    assert "falls" in t
