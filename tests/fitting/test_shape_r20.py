"""Round 20's shape classes (``_blind_rounds/round20_hand_read_part1.md`` SD, SE, SF, SG; ``part2.md`` RE, RF): the
shape of a curve told by one step or one end of it. Rules (``nvmemodel/fitting/steps.py``, ``facts._saturation``,
``facts.one_stream``):

- SF/RF: a still-rising curve carries every step's gain per doubling and its first value; "approaching a ceiling"
  only where the gains shrink step over step beyond the noise (``steps.bends``).
- RE: the rise up to an onset is said from the first point, step by step (≤ 4 steps; a longer one names where it began).
- SE: a peak, one step down beyond the runs, then a lower level held to the last point: where and the level.
- SD: an earlier point the runs' onset test passes, held back by the means over overlapping runs: said as decided.
- SG: the one-serial-stream line where its per-I/O term is shown beyond its own misses though the bend lies below the
  sizes measured; the measured bytes/s band at the largest sizes and the size below it.

Round 20 is spent; counters are seeded tables and other spent cases.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.steps import bends, doubling_gains, last_falls, level_after_fall, term_shown
from tests.fitting.corpus_score import CORPUS, fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

GB10 = "r20_gb10notes_phison-e27t-dramless-nvme_19mb-scattered-read_qd"
HDD = "r20_tutsunom_sdb-hdd-deadline_4k-randread_qd1_numjobs_repeats"
NVME = "r20_tutsunom_nvme0n1_4k-randread_32jobs_qd_repeats"
SDF = "r20_tutsunom_sdf-sata-deadline_4k-randread_32jobs_qd_repeats"
SEQ = "r20_here-devcount_loops_libaio_seqread128k_qd4-per-dev_devcount_repeats"
RAND = "r20_here-devcount_loops_libaio_randread_qd8-per-dev_devcount_repeats"
ISCSI = "r20_jherskovic_iscsi-truenas-lan_seqread-qd1_bs"
VERIFY = "r20_here-verify_loop_psync_md5-verify_randread_qd1_bs_repeats"


def _sat(fit) -> dict:
    (c,) = [c for c in fit.claims() if c["kind"] == "saturation"]
    return c


def _points(case):
    return pd.read_csv(CORPUS / case / "points.csv")


def _seeded(rows, x="numjobs", y="iops"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=x, y=y)


# ------------------------------------------------------------------ SF: every step of a still-rising curve
def test_sf_gb10_every_step_and_the_bend_are_said():
    p = _points(GB10).sort_values("iodepth")
    x, y = p["iodepth"].to_numpy(float), p["bw_bytes_per_s"].to_numpy(float)
    g = doubling_gains(x, y)
    assert [round(v, 2) for v in g] == [0.75, 0.35, 0.13]  # 0.80 → 2.44 → 3.29 → 3.73 GB/s at QD 1/4/8/16
    c = _sat(fit_case_id(GB10))
    t = c["text"]
    assert "still rises at the largest iodepth" in t
    assert ("from 0.8 GB/s (0.745 GiB/s) at iodepth = 1: +75% (1 → 4: +205% for ×4), +35% (4 → 8), +13% (8 → 16) "
            "per doubling") in t
    # (one run a point: no noise entered the test, so none is named — round 25 DE, test_falls_r25.py)
    assert "the last two gains each smaller than the one before (by more than 5 points): the rise " \
        "slows" in t and c["facts"]["bend"]["gains"] == pytest.approx(list(g))


# ------------------------------------------------------------------ RF: a steady gain approaches no ceiling
def test_rf_hdd_steady_gain_is_not_approaching_a_ceiling():
    c = _sat(fit_case_id(HDD))
    t = c["text"]
    assert "approaching a ceiling" not in t and c["facts"]["slowing"] is False and c["facts"]["bend"] is None
    assert "still rises at the largest numjobs" in t  # the verdict stays (each doubling still pays ≥ 10 %)
    assert "+23% (2 → 4), +21% (4 → 8), +21% (8 → 16), +20% (16 → 32) per doubling of numjobs" in t
    assert "the gains do not shrink step over step (by more than 5 points and the noise), so no approach to a " \
        "ceiling is shown" in t


def test_rf_counter_seeded_shrinking_gains_with_queueing_still_approach():
    # +60 %, +35 %, +18 % per doubling, latency growing faster than the rate: a bend, one run a point
    iops = [1000.0, 1600.0, 2160.0, 2550.0]
    rows = [{"numjobs": n, "iodepth": 1, "iops": v, "lat_mean_s": n / v} for n, v in zip((1, 2, 4, 8), iops)]
    c = _sat(_seeded(rows))
    assert c["facts"]["slowing"] is True and "approaching a ceiling" in c["text"], c["text"]
    assert "+60% (1 → 2), +35% (2 → 4), +18% (4 → 8)" in c["text"]


def test_rf_bends_needs_each_fall_beyond_the_repeats_noise():
    x = np.array([1, 2, 4, 8.0])
    y = np.array([100, 150, 200, 240.0])  # +50 %, +33 %, +20 %
    assert bends(x, y) is not None  # one run a point: falls of 17 and 13 points > 5
    assert bends(x, y, sd=y * 0.01, reps=np.full(4, 3.0)) is not None  # tight runs
    assert bends(x, y, sd=y * 0.15, reps=np.full(4, 3.0)) is None  # runs ±15 %: the falls are inside their noise
    assert bends(x, np.array([100, 121, 146, 176.0])) is None  # +21 % a doubling each: steady
    # +100 %, +100 %, +32 % (r2_tratori p5800x drives, runs within ±1 %): one fall, no bend — and a fall of 1 point in
    # tight runs is no fall (+97, +96, +89 %: the 2 → 4 step did not shrink by GAIN_STEP)
    assert bends(x, np.array([1, 2, 4, 5.28]), sd=np.full(4, 0.005), reps=np.full(4, 5.0)) is None
    assert bends(x, np.array([1, 1.97, 3.861, 7.297]), sd=np.full(4, 0.001), reps=np.full(4, 5.0)) is None
    assert last_falls(x, np.array([1, 2, 4, 5.28]), sd=np.full(4, 0.005), reps=np.full(4, 5.0))


# ------------------------------------------------------------------ RE: the rise from the first point
def test_re_tutsunom_nvme_first_point_and_its_step_are_said():
    p = _points(NVME)
    m = p.groupby("iodepth")["iops"].mean()
    t = _sat(fit_case_id(NVME))["text"]
    assert "saturated from iodepth = 4" in t
    assert f"from {m.loc[1] / 1e3:.2f} K IOPS at iodepth = 1: +60% (1 → 2) per doubling" in t
    assert "gained only +10% (2 → 4) per doubling of iodepth" in t  # ×1.82 the latency: waited (round 29 OA)


def test_re_counter_a_long_rise_keeps_its_last_step_and_names_its_start():
    t = _sat(fit_case_id("r5_plaid_30x-p44pro_4m-read_devices"))["text"]
    assert "+4% for ×1.06 the device_count, +75% per doubling from" in t and "The rise began at 7.13 GB/s" in t


# ------------------------------------------------------------------ SE: one step down, then a lower level
def test_se_seqread_fall_in_one_step_then_a_level():
    c = _sat(fit_case_id(SEQ))
    one = c["facts"]["falls"]["one_step"]
    p = _points(SEQ)
    m = p.groupby("device_count")["bw_bytes_per_s"].mean()
    assert one["x_from"] == 3 and one["x_to"] == 6 and one["points"] == 3
    assert one["lo"] == pytest.approx(m.loc[[3, 4, 6]].min(), rel=1e-6)
    assert one["hi"] == pytest.approx(m.loc[[3, 4, 6]].max(), rel=1e-6)
    r3, r2 = p[p["device_count"] == 3]["bw_bytes_per_s"], p[p["device_count"] == 2]["bw_bytes_per_s"]
    assert r3.max() < r2.min()  # the premise: every run at 3 below every run at 2
    assert one["runs_lo"] == pytest.approx(p[p["device_count"] >= 3]["bw_bytes_per_s"].min(), rel=1e-6)
    t = c["text"]
    assert "falls in one step to device_count = 3 (-28%, every run at 3 below every run at 2)" in t
    assert "then holds a lower level to 6: 4.74 GB/s" in t and "36.18 K IOPS" in t and "falls 33%" not in t


def test_se_counter_a_fall_spread_over_steps_has_no_one_step():
    # sdf: −0.3, −0.8, −4.0, −6.1, −6.7 % per step: no one step down beyond the runs then a level
    c = _sat(fit_case_id(SDF))
    assert c["facts"]["falls"] is not None and c["facts"]["falls"]["one_step"] is None


def test_se_level_after_fall_needs_the_runs_apart_and_a_level():
    x = np.array([1, 2, 3, 4, 6.0])
    y = np.array([4.3, 7.1, 5.1, 4.9, 4.7])
    lo, hi = y * 0.97, y * 1.03
    assert level_after_fall(x, y, lo, hi, 1) is not None
    assert level_after_fall(x, y, y * 0.7, y * 1.3, 1) is None  # runs overlap at the step
    y2 = np.array([4.3, 7.1, 6.2, 5.2, 4.3])  # a slide, not one step
    assert level_after_fall(x, y2, y2 * 0.99, y2 * 1.01, 1) is None


# ------------------------------------------------------------------ SD: an onset held back, said as decided
def test_sd_devcount_randread_onset_by_the_measured_doubling_not_held_back():
    """Round 20 SD held 3 back by the means' +17 % per doubling from 3 to 4 (+7 % for ×1.33, raised to a doubling);
    since round 29 ND (last_doubling.measured_doubling) the measured doubling 3 → 6 decides: +8.6 % by the means,
    under 10 %, so the onset is 3 (inside the gatherer's [2, 4]) and nothing is held back."""
    c = _sat(fit_case_id(RAND))
    f = c["facts"]
    p = _points(RAND)
    m = p.groupby("device_count")["iops"].mean()
    assert f["onset_x"] == 3 and f.get("held_back") is None
    od = f["onset_doubling"]
    assert od["x1"] == 6 and od["step"] == pytest.approx(m.loc[6] / m.loc[3] - 1, rel=1e-3) and od["step"] < 0.10
    assert od["short_x"] == 4 and od["short_step"] == pytest.approx(m.loc[4] / m.loc[3] - 1, rel=1e-3)
    r = {k: p[p["device_count"] == k]["iops"] for k in (2, 3, 4)}
    assert r[3].min() > r[2].max() and r[4].max() > r[3].min()  # 3's runs above 2's; 3's and 4's overlap
    t = c["text"]
    assert "saturated from device_count = 3" in t
    assert "the means gained +8.6% over the doubling to device_count = 6 (the shorter step to 4, +6.8% for ×1.33" in t
    assert "+17% per doubling" not in t


def test_sd_counter_an_onset_not_held_back_says_nothing_more():
    f = _sat(fit_case_id("r20_here-verify_loop_libaio_md5-verify_randread16k_iodepth_repeats"))["facts"]
    assert f["onset_x"] == 2 and f.get("held_back") is None


# ------------------------------------------------------------------ SG: one serial stream, the measured band
def test_sg_iscsi_qd1_bs_is_one_stream_with_its_band_and_the_point_below():
    fit = fit_case_id(ISCSI)
    s = curve_facts(fit, next(iter(fit.fits))).one_stream
    assert s is not None
    p = _points(ISCSI).sort_values("block_size_bytes")
    b, iops = p["block_size_bytes"].to_numpy(float), p["iops"].to_numpy(float)
    a, B = s.facts["per_io_s"], s.facts["bytes_per_s"]
    assert np.abs((a + b / B) * iops - 1).max() < 0.005  # within 0.35 % at every size
    assert a < b[0] / B  # the bend lies below the smallest size: the old rule refused it
    band = s.facts["band"]
    assert band["x"] == (1048576.0, 8388608.0) and band["below_x"] == 262144.0
    assert band["below_share"] == pytest.approx(a * iops[0], rel=0.005)  # (÷ the line's time: within its miss)
    claims = fit.claims()
    assert claims[0]["kind"] == "one stream"
    t = claims[0]["text"]
    assert "415 µs per I/O + the size ÷ 98.5 MB/s" in t and "below it 85.3 MB/s (81.3 MiB/s) at 256 KiB" in t
    assert "The flat stretch from 1 MiB (the next sentence) is the line's level" in t  # named, not repeated
    assert claims[1]["kind"] == "cap" and "94.5 MB/s (90.1 MiB/s)–98.1 MB/s (93.6 MiB/s) from 1 MiB to 8 MiB" in \
        claims[1]["text"]


def test_sg_verify_bs_measured_byte_level_is_said_with_its_runs():
    fit = fit_case_id(VERIFY)
    t = [c["text"] for c in fit.claims() if c["kind"] == "one stream"][0]
    p = _points(VERIFY)
    top = p[p["block_size_bytes"] >= 262144]["bw_bytes_per_s"]
    assert "0.425 GB/s (0.396 GiB/s)–0.443 GB/s (0.413 GiB/s) over 256 KiB to 1 MiB" in t
    assert f"the runs {top.min() / 1e9:.3g} GB/s" in t and f"to {top.max() / 1e9:.3g} GB/s" in t
    assert "below it 0.383 GB/s (0.357 GiB/s) at 64 KiB" in t and "rising from 0.164 GB/s" in t


def test_sg_counter_a_noisy_flat_band_shows_no_per_io_term():
    # QD1 bytes/s flat at 100 MB/s ± 3 % over 1–8 MiB: the line's per-I/O term is not told from the scatter
    rng = np.random.default_rng(20)
    b = np.array([1, 2, 4, 8.0]) * 2 ** 20
    bw = 100e6 * (1 + 0.03 * rng.standard_normal(4))
    iops = bw / b
    t, w = 1 / iops, iops ** 2
    X = np.stack([np.ones_like(b), b], 1)
    a, _ = np.linalg.solve(X.T @ (w[:, None] * X), X.T @ (w * t))
    assert not term_shown(b, t, w, a)
    rows = [{"block_size_bytes": s, "iodepth": 1, "numjobs": 1, "bw_bytes_per_s": v, "iops": v / s}
            for s, v in zip(b, bw)]
    fit = _seeded(rows, x="block_size_bytes", y="bw_bytes_per_s")
    assert curve_facts(fit, next(iter(fit.fits))).one_stream is None


def test_sg_counter_a_line_missing_a_size_stays_refused():
    # r2_here_pagecache_write_bs: its bend lies below the sizes too, but the line misses a size by 20 %
    fit = fit_case_id("r2_here_pagecache_write_bs")
    assert curve_facts(fit, next(iter(fit.fits))).one_stream is None


def test_sg_counter_no_band_where_the_line_still_rises_over_it():
    # hothanh7 QD1 seqread: 2.78 → 2.92 GB/s at 128 → 256 KiB, but the per-I/O time is still 23 % of 128 KiB's time:
    # the line rises there, no level of it is said (its B, 3.48 GB/s, is said as extrapolated)
    fit = fit_case_id("hothanh7_consumer-nvme_seqread_qd1_bs")
    s = curve_facts(fit, next(iter(fit.fits))).one_stream
    assert s is not None and s.facts["band"] is None
    t = [c["text"] for c in fit.claims() if c["kind"] == "one stream"][0]
    assert "Measured bytes/s" not in t and "extrapolated" in t
