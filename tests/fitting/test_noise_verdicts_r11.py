"""Round 11's hand reading (tests/data/explain_corpus/_blind_rounds/round11_hand_read_part1.md classes KC and KF,
part2.md class LA): a level from a later point on is read with the noise of the points it covers (wide runs below it
are the rise's); the means gaining ≥ 10 % on each of several doublings at a flat latency are "still rising" whatever
the last pair's runs; a QD1 run without fio's latency is not "no run at one outstanding I/O". Each rule on the spent
r11 case it was read on and on a spent or seeded synthetic counter-case where it must not fire. docs/fitting.md's
claims table names round 11 as the round read before these rules."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import nvmemodel as nm

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")


def _said(res, kind) -> list[str]:
    return [c["text"] for c in res.claims() if c["kind"] == kind]


def _runs(x, runs, lats, *, xname="numjobs"):
    """SYNTHETIC: the given runs a point (IOPS) and fio's mean latency per point (one value for its runs)."""
    rows = [{"source_path": f"synthetic/{xname}{xv}_r{r}.json", xname: xv, "iops": v, "lat_mean_s": lat,
             "direction": "write"} for xv, vs, lat in zip(x, runs, lats) for r, v in enumerate(vs)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=xname, y="iops")


# ------------------------------------------ KC: wide runs below the level do not withhold it
def test_a_level_from_a_later_point_with_the_wide_runs_below_it():
    # runs 16.4–44.0 K at 1 job (×2.68); means 39.4, 41.3, 42.1 K at 2–8 jobs, latency 52 → 189 µs, Little 0.98–0.99
    res = fit_case_id("r11_here-osync_loop_psync_randwrite_numjobs_repeats")
    (t,) = _said(res, "saturation")
    assert "no onset, level or fall can be read" not in t
    assert "holds a level from numjobs = 2 on" in t and "over numjobs = 2–8" in t, t
    assert "grew ×4.09" in t and "for ×4 the numjobs" in t  # (the kept runs' median latency)
    assert "The runs at numjobs = 1 differ by ×2.68" in t and "whether the level starts there is not told" in t
    (f,) = [c["facts"] for c in res.claims() if c["kind"] == "saturation"]
    assert f["onset_x"] == 2 and 38e3 <= f["plateau"] <= 47e3


def test_the_level_from_the_first_point_is_unchanged():
    # counter (spent, round 10 HB): the level holds from QD1, said as before
    (t,) = _said(fit_case_id("r10_here-fio37_loop_libaio_randwrite_jsonplus_iodepth_repeats"), "saturation")
    assert "saturated from the first point" in t and "differ by up to ×2.79 (at iodepth = 1)" in t


def test_wide_runs_on_the_level_itself_stay_unread():
    # counter (SYNTHETIC): every point's runs overlap and from 2 jobs on the means are level with latency ∝ load, but
    # the runs at 4 jobs lie ×4 apart: the level's own points are too noisy to bound it
    x = [1, 2, 4, 8, 16]
    runs = [[10e3, 45e3, 25e3], [40e3, 42e3, 41e3], [15e3, 60e3, 48e3], [40e3, 43e3, 42e3], [41e3, 44e3, 42e3]]
    lats = [xv / (sum(r) / 3) for xv, r in zip(x, runs)]
    (t,) = _said(_runs(x, runs, lats), "saturation")
    assert "holds a level" not in t and "no onset, level or fall can be read" in t, t


# ------------------------------------------ KF: a consistent rise at flat latency is still rising
def test_a_rise_on_every_doubling_at_flat_latency_is_still_rising():
    # means 1.27, 2.27, 3.97, 6.83 K (+78 %, +75 %, +72 %), latency 1.46, 2.07, 1.77, 1.18 ms, Little 0.99–1.00
    (t,) = _said(fit_case_id("r11_here-trim_loop_psync_randtrim_numjobs_64k_repeats"), "saturation")
    assert "do not tell a last rise from a level" not in t
    assert "still rises at the largest numjobs" in t and "+78%, +75%, +72%" in t, t
    assert "at 8 (1.18 ms) was no higher than at 1 (1.46 ms)" in t
    assert "no ceiling is reached" in t


def test_a_last_gain_in_the_noise_with_latency_growing_still_cannot_tell():
    # counter (SYNTHETIC): the means rise +20 % per doubling with runs overlapping at the last pair, but fio's latency
    # grew ×1.6 with the load (part of it queued): the trend rule must not fire
    x = [1, 2, 4, 8]
    runs = [[10e3, 14e3, 12e3], [12e3, 17.6e3, 13.6e3], [12e3, 23e3, 17e3], [13e3, 26e3, 22e3]]
    lats = [xv / (sum(r) / 3) for xv, r in zip(x, runs)]
    (t,) = _said(_runs(x, runs, lats), "saturation")
    assert "was paid for, not queued" not in t, t


# ------------------------------------------ LA: a QD1 run without fio's latency
def test_a_qd1_run_without_latency_is_not_no_run():
    # 195.47 IOPS at iodepth 1, no latency column: Little's law gives 1 ÷ 195.47 = 5.12 ms per I/O
    said = " ".join(_said(fit_case_id("r11_lisa-pr74_azure-vm-disk_4k-randwrite_qd"), "model"))
    assert "no run had one outstanding" not in said
    # round 18 (branch rise, 1af7b90d): the series still rises at its largest iodepth, so no fit line and no r0
    # sentence (the model's latency at one outstanding I/O is a fitted parameter a still-rising fit cannot read)
    assert "r0" not in said and "fitted parameter" not in said, said
    assert "The data still rise at the largest iodepth" in said and "none is estimated from the fit" in said, said


def test_a_qd1_run_with_latency_quotes_fio():
    # counter (SYNTHETIC): fio's latency is there at QD1: it is quoted, nothing derived
    x = [1, 2, 4, 8, 16, 32]
    iops = [200.0, 410.0, 860.0, 1800.0, 3600.0, 5500.0]
    rows = [{"source_path": f"synthetic/qd{q}.json", "iodepth": q, "iops": v, "lat_mean_s": q / v * 0.98,
             "direction": "write"} for q, v in zip(x, iops)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")
    said = " ".join(_said(res, "model"))
    assert "fio's latency is not in the files" not in said and "no run had one outstanding" not in said
