"""Round 9's hand reading (tests/data/explain_corpus/_blind_rounds/round9_hand_read_part{1,2}.md, classes FA, FB, GA
and GF #9): a saturation, fall or rise verdict is read against the curve's own noise — the largest spread of the runs
at any point, or the largest step down between two points — never the fixed ±10 % band alone; runs that overlap
while the mean or median gains 10 % per doubling are "cannot tell", not "no step". Each rule on the spent r9 case it
was read on and on a seeded synthetic counter-case where the old verdict must stay. docs/fitting.md's claims table
names round 9 as the round read before these rules."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

ZFS = "r9_fiozfsbench_zfs-iscsi-hdd-slog980_4k-syncwrite_numjobs_by-config"


def _sat(res) -> list[str]:
    return [c["text"] for c in res.claims() if c["kind"] == "saturation"]


def _zfs(config: str) -> str:
    (t,) = [c["text"] for c in fit_case_id(ZFS).claims() if c["kind"] == "saturation" and c["curve"] == f"config={config}"]
    return t


def _repeats(x, y, *, reps=3, cv=0.01, seed=0, xname="numjobs"):
    """SYNTHETIC (seeded): ``reps`` runs a point within ±``cv``, latency by Little's law (outstanding ÷ rate)."""
    rng = np.random.default_rng(seed)
    rows = []
    for xv, yv in zip(x, y):
        for r in range(reps):
            v = yv * (1 + cv * rng.uniform(-1, 1))
            rows.append({"source_path": f"synthetic/{xname}{xv}_r{r}.json", xname: xv, "iops": v,
                         "lat_mean_s": xv / v, "direction": "read"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=xname, y="iops")


# ------------------------------------------ GA: overlapping runs, a mean/median gain ≥ 10 %: cannot tell
def test_overlapping_runs_with_a_paying_mean_are_no_onset():
    # 8 jobs 191.2/212.7/193.7 K, 16 jobs 229.9/225.0/204.4 K: +10.3 % mean, +16 % median, runs overlap
    (t,) = _sat(fit_case_id("r9_here-fio221_libaio_loop_numjobs16_repeats"))
    assert "saturated from numjobs = 8" not in t and "209.48 K" not in t and "flattens" not in t
    # (since the point table the last-step words say it: runs overlap, no level read)
    assert "199.21 K IOPS at numjobs = 8 → 219.75 K IOPS at 16" in t
    assert "The runs of the last two points overlap" in t and "the level is not read from them" in t


def test_tight_repeats_that_saturate_keep_their_onset():
    # counter (SYNTHETIC, seeded): runs within ±1 %, 100, 200, 380, 400, 404 K: the level is told from the runs
    (t,) = _sat(_repeats([1, 2, 4, 8, 16], [100e3, 200e3, 380e3, 400e3, 404e3]))
    assert "flattens at 402.50 K IOPS" in t and "saturated from numjobs = 8" in t, t
    assert "cannot tell" not in t


# ------------------------------------------ FA: a fall inside one point's repeat spread is no fall
def test_a_fall_inside_the_repeats_spread_is_no_fall():
    # config=standard: 6.29 K at 16 jobs → 5.49 K at 64 (−13 %) while the runs at 4 jobs are 1,659 and 3,163 IOPS
    t = _zfs("standard")
    assert "falls 13%" not in t and "peaks at" not in t
    assert "inside the spread of this curve's repeats (at numjobs = 4 the lowest run is 48% below the highest)" in t


def test_a_fall_beyond_tight_repeats_is_still_a_fall():
    # counter (SYNTHETIC, seeded): runs within ±1 %, a level at 400 K from 4 jobs, then 300 K at 64 (−25 %)
    (t,) = _sat(_repeats([1, 2, 4, 8, 16, 32, 64], [100e3, 200e3, 390e3, 400e3, 398e3, 360e3, 300e3]))
    # (398 K at 16 jobs repeats the peak within 1 %: held 8–16, the fall from 32 — round 19 UG)
    assert ("holds 400.68 K IOPS from numjobs = 8 to 16 (2 points, each within 1% of it; the lowest 398.32 K IOPS), then "
            "falls from numjobs = 32 on: 26% in all, to 298.50 K IOPS") in t, t
    assert "every run at 64 below every run at 8" in t  # (round 17 XB: the runs apart are the fall's proof)


# ------------------------------------------ FB: "still rises" only above every earlier point beyond noise
def test_a_last_step_that_only_recovers_a_dip_is_no_rise():
    # config=rawdev: 1,623, 3,367, 2,648, 3,871 IOPS (1, 4, 16, 64 jobs): the last +46 % only recovers a −21 % dip
    t = _zfs("rawdev")
    assert "still rises" not in t and "no ceiling is reached" not in t
    assert "saturates from numjobs = 4" in t and "2.65 K IOPS to 3.87 K IOPS" in t


def test_a_monotone_rise_still_rises():
    # counter (spent r9, same case): config=removed, 839 → 1,090 → 1,506 → 1,831, monotone: still rises
    t = _zfs("removed")
    assert "still rises at the largest numjobs" in t


# ------------------------------------------ GF #9: a comparison true of the words it uses
def test_the_steps_a_fall_is_compared_with_are_named():
    # +117 % from QD1 to 4, then 104.5 K over QD4–32 and −13 % to QD1024: "more than every step before it" was false
    (t,) = _sat(fit_case_id("r9_sabrentproj3_rocket4plus-win-buffered_16k-seqread_qd"))
    assert "every step before it" not in t
    assert "falls 13% to 94.30 K IOPS at iodepth = 1024, beyond any step from iodepth = 4 to the peak" in t
