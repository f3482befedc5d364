"""Round 7's hand reading (tests/data/explain_corpus/_blind_rounds/round7_hand_read_part{1,2}.md), the saturation
fact and its words: each rule checked on the spent r7 case it was read on and on a counter-case where the old
wording must stay (a hand-made series, or an earlier round's case). The rules are general; docs/fitting.md's claims
table names round 7 as the round read before each."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import nvmemodel as nm

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")


def _claims(case_id: str, kind: str = "saturation") -> list[str]:
    return [c["text"] for c in fit_case_id(case_id).claims() if c["kind"] == kind]


def _fit(rows, x, y="iops"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=x, y=y)


# ------------------------------------------ (1) part 1 CA: the measured latency ratio, never the threshold
def test_a_wide_step_says_its_own_reason_with_the_measured_ratio():
    # 3.4 µs at QD1, 6.9 µs at QD16 (×2.03), then ×8 the depth to QD128 for +25 %: not "unloaded (at most 1.1×)"
    (t,) = _claims("r7_axboe_optane2_512b-randread_iouring-poll_qd")
    assert "at most 1.1×" not in t and "still the unloaded one" not in t
    assert "reaches its level between iodepth = 16 and 128" in t
    assert "the step from 16 spans ×8 the iodepth and still added +25%" in t
    assert "6.9 µs, was ×2.03 the 3.4 µs of lighter loads" in t


def test_an_unloaded_point_keeps_the_unloaded_words_with_its_ratio():
    # counter (round 6 BD): 2.39, 2.19, 2.05 ms at 1, 4, 16 jobs — at 16 still the unloaded latency (×0.936)
    (t,) = _claims("r6_cubefs_1client_128k-seqwrite_psync_numjobs")
    assert "reaches its level between numjobs = 16 and 64" in t
    assert "was ×0.937 the 2.19 ms of lighter loads, still the unloaded one" in t and "at most" not in t


# ------------------------------------------ (2) part 1 CF: a collapse of the gain, said with its steps
def test_a_collapsed_last_gain_is_said_with_its_steps():
    # 670 K → 1.33 M (×1.99) → 1.50 M (+13 % for twice the targets). Round 7 read it "near saturation"; round 25 (ED)
    # set that a last doubling still gaining ≥ 10 % leads with "still rises", each gain named by its step, and the
    # level only bounded from below (test_falls_r25.py)
    (t,) = _claims("r7_fioissue694_nvmeof-rdma_4k-randread_targets")
    assert "no ceiling is reached" not in t and "Little's law" not in t  # (no latency in these files)
    assert "still rises at the largest device_count: +13% per doubling in the last step" in t
    assert "down from +99% in the step before (1 → 2)" in t
    assert "×1.75 the outstanding I/O" in t
    assert "a level, if any, is at or above 1.50 M IOPS, the last point, not measured" in t
    assert "near saturation" not in t
    (c,) = [c for c in fit_case_id("r7_fioissue694_nvmeof-rdma_4k-randread_targets").claims() if c["kind"] == "saturation"]
    assert c["facts"]["state"] == "rising" and c["facts"]["collapsed_from"] == pytest.approx(0.985, abs=0.01)


def test_a_last_gain_a_third_of_the_one_before_still_rises():
    # counter (dev): an md RAID-0 QD sweep, +86 % then +25 % per doubling: still rising, more slowly
    (t,) = _claims("fioplot_mdraid0-4ssd_4k-randread_qd")
    assert "near saturation between" not in t
    assert "still rises at the largest iodepth" in t and "Little's law" in t


# ------------------------------------------ (3) part 2 CB: no plateau while the last doublings still pay
def test_last_doublings_that_pay_are_no_plateau():
    # 35.9, 33.1, 33.0, 39.1, 45.3, 54.4 K over QD4–128: +18.5 %, +15.9 %, +20.1 % — not "saturates … Plateau 38.62 K"
    (t,) = _claims("r7_zorrozou_virtio-cloud-hdd_4k-seqwrite_qd_repeats")
    assert "saturates" not in t and "Plateau" not in t and "38.62 K" not in t
    assert "still rises at the largest iodepth: the last step added +20% per doubling" in t


def _dip_rows(y):
    x = [1, 2, 4, 8, 16, 32][:len(y)]
    # a server at about 200 K IOPS: latency = outstanding ÷ rate (Little's law)
    return [{"iodepth": q, "iops": v, "lat_mean_s": q / v} for q, v in zip(x, y)]


def test_a_dip_and_a_recovery_to_the_level_stays_a_level():
    # counter (hand-made): 100, 200, 160, 180, 202 K — the last two steps pay +12 % each, but only back to the
    # level of the onset (202 vs 200 K): saturated from iodepth = 2, as before — said since round 19 TB as between 2 and
    # 4 (QD2 at QD1's 10 µs: nothing had queued there)
    res = _fit(_dip_rows([100e3, 200e3, 160e3, 180e3, 202e3]), "iodepth")
    (t,) = [c["text"] for c in res.claims() if c["kind"] == "saturation"]
    assert "saturated between iodepth = 2 and 4" in t and "still rises" not in t
    # and the same shape climbing past the level is still rising
    res = _fit(_dip_rows([100e3, 200e3, 160e3, 200e3, 250e3]), "iodepth")
    (t,) = [c["text"] for c in res.claims() if c["kind"] == "saturation"]
    assert "still rises at the largest iodepth" in t and "Plateau" not in t


# ------------------------------------------ (4) part 2 CA: a level from repeats with disturbed runs
@pytest.mark.parametrize("case_id, said", [
    ("r7_here_blkio_riops_iodepth_low1_repeats",
     "Plateau 6.03 K IOPS, the mean of 16 of the 18 runs over iodepth = 1–32 (5.99 K IOPS to 6.19 K IOPS); 2 runs "
     "more than 20% below the median of the level's runs (6.00 K IOPS) and below the fastest run of their point (3.64 K IOPS "
     "at 2, 3.61 K IOPS at 4) left out"),
    ("r7_here_blkio_wbps_randrw9010_iodepth_repeats",
     "Plateau 10.29 K IOPS, the mean of 15 of the 18 runs over iodepth = 1–32 (9.98 K IOPS to 10.50 K IOPS)"),
])
def test_disturbed_runs_are_left_out_of_the_level_and_said(case_id, said):
    (t,) = _claims(case_id)
    assert said in t, t
    assert "5.76 K" not in t and "9.70 K" not in t


def test_tight_repeats_keep_the_mean_of_every_run():
    # counter (r7 spent, no run apart): 2.91–3.00 K IOPS at every depth — nothing left out; the plateau's ends are the
    # points' own levels (facts.point_levels, the kept runs' medians: round 12 NB), not the means
    from nvmemodel.fitting.facts import curve_facts, point_levels
    from nvmemodel.fitting.wording import fmt_y

    res = fit_case_id("r7_here_loop_over_capped_loop_randread_iodepth_repeats")
    (t,) = _claims("r7_here_loop_over_capped_loop_randread_iodepth_repeats")
    (key,) = res.chosen
    med = [d["median"] for d in point_levels(res, curve_facts(res, key).points)]
    assert f": {fmt_y(min(med), '1/s')} to {fmt_y(max(med), '1/s')} over iodepth = 1–32, 6 points." in t, t
    assert "left out" not in t


def test_runs_that_scatter_anyway_are_not_disturbed_runs():
    # counter (round 2): io_uring on a loop device, runs 47.65–149.66 K IOPS over QD8–32: leaving the lowest out
    # would leave 60–150 K, no level either — the mean of every run, as before
    t = " ".join(c["text"] for c in fit_case_id("r2_here_loop_iouring_libaio_iodepth").claims())
    assert "left out" not in t and "saturates from iodepth = 8" in t  # (no pooled level over QD32's split runs)


def test_runs_that_scatter_past_the_steps_are_not_disturbed_runs():
    # counter (round 6 BE): runs ×9 apart at one depth are the series' own scatter, read on the runs as before
    (t,) = _claims("r6_here_loop_libaio_ureap_iodepth_repeats")
    assert "left out" not in t and "cannot tell a rise from a level" in t  # (round 9 GA: no level is read)


# ------------------------------------------ (5) part 1 CE: an axis that is not a load gives repeats of one load
def test_points_along_a_non_load_are_runs_of_one_load():
    t = " ".join(c["text"] for c in fit_case_id("r7_cissieab_daos-dfuse_4k-randread_pvsync_16jobs_iodepth").claims())
    assert "cannot tell a plateau from noise" not in t and "not known whether" not in t
    assert "Its 7 points are 7 runs of one load: 46.75 K IOPS, sd 3.29 K IOPS (7%), 42.53 K IOPS to 52.58 K IOPS." in t


def test_a_level_that_changes_beyond_its_repeats_is_still_said():
    # counter (hand-made): psync, 2 runs a point, 40 K at iodepth 1–2 and 20 K at 8–16, each run within ±1 %:
    # beyond the noise, so "something else changed with iodepth", not "runs of one load"
    rows = [{"iodepth": q, "run": r, "ioengine": "psync", "numjobs": 4, "iops": (40e3 if q < 4 else 20e3) * (1 + 0.01 * r),
             "lat_mean_s": 4 / (40e3 if q < 4 else 20e3)} for q in (1, 2, 8, 16) for r in (0, 1)]
    t = _fit(rows, "iodepth").explain()
    assert "runs of one load" not in t
    assert "not one level beyond their noise" in t or "had no effect" not in t


def test_a_trend_along_a_non_load_is_not_runs_of_one_load():
    # counter (hand-made, one run a point): psync, 40 K falling to 20 K along iodepth (R² 0.97 on log2 iodepth):
    # a trend, not scatter — the old words stay (as qa7's nullqd, 4.47 M then 2.64–2.88 M, R² 0.59)
    rows = [{"iodepth": q, "ioengine": "psync", "numjobs": 4, "iops": v, "lat_mean_s": 4 / v}
            for q, v in zip((1, 2, 4, 8, 16), (40e3, 31e3, 26e3, 22e3, 20e3))]
    t = _fit(rows, "iodepth").explain()
    assert "runs of one load" not in t and "not known whether iodepth changed the level" in t, t


# ------------------------------------------ (6) part 2 CF: "the drop of that step" from that step's two points
def test_the_drop_of_one_step_is_that_steps_own():
    # 796 IOPS at QD1, 739 at QD2 (−7.2 %); 711 at QD128 was the old "11 %"
    (t,) = _claims("r7_zorrozou_virtio-cloud-hdd_4k-randwrite_qd")
    assert "the drop of 11%" not in t
    assert "the drop of 7.2% to 739 IOPS at 2 is that one step" in t


def test_the_drop_of_one_step_equal_to_the_fall_keeps_its_number():
    # counter (hand-made): 50, 97, 84, 86, 85 K — the step 97 → 84 K is −13.4 %, the fall to the last point −12.4 %
    rows = [{"iodepth": q, "iops": v, "lat_mean_s": q / v} for q, v in zip((1, 2, 4, 8, 16), (50e3, 97e3, 84e3, 86e3, 85e3))]
    (t,) = [c["text"] for c in _fit(rows, "iodepth").claims() if c["kind"] == "saturation"]
    assert "the drop of 13.4% to 84.00 K IOPS at 4 is that one step" in t, t


# ------------------------------------------ (7) part 2 CE: a limit at the first point is not "one serial path"
@pytest.mark.parametrize("case_id, rate", [("r7_here_blkio_riops_iodepth_low1_repeats", "1 ÷ 166 µs = 6.02 K IOPS"),
                                           ("r7_here_loop_over_capped_loop_randread_iodepth_repeats",
                                            "1 ÷ 333 µs = 3.01 K IOPS")])
def test_a_rate_cap_is_not_called_one_serial_path(case_id, rate):
    (t,) = _claims(case_id)
    assert "one serial path" not in t
    assert f"{rate}: a limit reached at the first point" in t
    assert "a rate cap or one serial server whose service time is that latency would both look like this" in t


def test_several_targets_keep_their_side_by_side_words():
    # counter (round 6 BC): two targets are still said side by side, the one-path words still absent
    (t,) = _claims("r6_here_blkio_wiops_2dev_pvsync2_numjobs_repeats")
    assert "over 2 targets side by side" in t and "a limit reached at the first point" not in t


def test_littles_law_stays_in_the_noise_words_where_latency_exists():
    # counter for (2)'s wording: a series with fio's latencies still reads its steps with Little's law
    (t,) = _claims("r7_axboe_optane2_512b-randread_iouring-poll_qd")
    assert "read from the size of the steps and Little's law" in t
