"""Round 20's word classes (``_blind_rounds/round20_hand_read_part2.md`` RA, RB, RI; ``_part1.md`` SB, SI), each fixed
by a rule on the facts, not on the case:

- RA: noise words state only what the run-count and fit facts say (``run_noise``): "repeats at 2 of 6 points only"
  where some points were repeated, "the fit … leaves 2 degrees of freedom" where a fit describes the points but is too
  close to them to estimate a noise — never "one run a point" or "no fit that describes them" against the series.
- RB: a one-run point is given the widest run spread measured in the series; a fall to it, or a level of it, needs
  more than that, and the peak's own runs are read whatever other points have (no cap below a measured run).
- SB: one verdict on the last step (``run_noise.last_step_within``), read by the still-rising and the model sentence
  alike; the rise is then read over the last doubling whose runs separate, rates and latency from one statistic.
- SI: a synchronous engine (psync) is not said to "reap completions late"; the figures name their statistic.
- RI: a per-I/O term is a time per I/O ("1.91 µs"), never "1/522.86 K IOPS"; no caution about its value where the
  smallest block's time is mostly that term and the fit describes every point.

Round 20 is spent; the counter-cases are spent cases of earlier rounds or seeded synthetic tables.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.evidence import Evidence
from nvmemodel.fitting.fact_claims import noise_phrase
from nvmemodel.fitting.run_noise import band_not_noise, last_step_within, noise_floor, runs_words, why_no_noise

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")


def _texts(fit, kind=None) -> list[str]:
    return [c["text"] for c in fit.claims() if kind is None or c["kind"] == kind]


def _ev(**basis) -> Evidence:
    return Evidence(x=np.arange(6.0), y=np.ones(6), se=np.ones(6), noise_source="residuals", rising=None, falls=None,
                    plateau=None, maximum={}, noise_basis=basis)


# ------------------------------------------------------------------------------------------ RA: noise words
def test_ra_nerdst_randread_bs_names_the_repeats_it_has():
    fit = fit_case_id("r20_nerdst_nvme-p7_randread_qd1_bs", "blind20")
    (rising,) = _texts(fit, "rising")
    assert "+111%" in rising and "one run a point" not in rising
    assert "repeats at 2 of 6 points only: 1–2 runs a point" in rising


def test_ra_zram_lz4_rpi4_says_why_the_fit_gives_no_noise():
    fit = fit_case_id("r20_xeome_zram-lz4-rpi4_read_bs", "blind20")
    (rising,) = _texts(fit, "rising")
    assert "no fit that describes them" not in rising
    assert "the per_io_byte fit describes them (R² = 0.9993) but leaves 2 degrees of freedom" in rising
    assert "one run a point" in rising  # 4 points of one run each (typed from a note)


def test_ra_run_words_from_counts():
    assert runs_words({"points": 6, "repeated": 2, "runs": (1, 2), "widest": None}) == \
        "repeats at 2 of 6 points only: 1–2 runs a point"
    assert runs_words({"points": 4, "repeated": 0, "runs": (1, 1), "widest": None}) == "one run a point"
    assert runs_words({"points": 4, "repeated": 4, "runs": (3, 3), "widest": None}) == "3 runs a point"


def test_ra_counter_a_fit_that_does_not_describe_is_still_named_so():
    b = {"points": 5, "repeated": 0, "runs": (1, 1), "widest": None, "fit": "usl", "fit_df": 2, "fit_r2": 0.3,
         "fit_describes": False}
    assert why_no_noise(b) == "no fit that describes them"
    assert why_no_noise({**b, "fit": None}) == "no fit to estimate it from"
    ev = dataclass_replace(_ev(**b), noise_known=False, noise_fit_describes=False)
    assert noise_phrase(ev, 0.5) == ("an assumed noise (one run a point, and no fit that describes them: the real "
                                     "noise is not known)")


def test_ra_counter_one_run_series_with_a_describing_fit_keeps_its_scatter():
    b = {"points": 6, "repeated": 0, "runs": (1, 1), "widest": None, "fit": "usl", "fit_df": 3, "fit_r2": 0.99,
         "fit_describes": True}
    assert noise_phrase(_ev(**b), 0.5) == "the scatter about the fit"
    bad = dataclass_replace(_ev(**{**b, "fit_describes": False}), noise_fit_describes=False)
    assert noise_phrase(bad, 0.5) == "the ±10% a level is read within, one run a point"


def dataclass_replace(ev, **kw):
    import dataclasses

    return dataclasses.replace(ev, **kw)


# --------------------------------------------------------------------- RB: the widest spread for one-run points
def test_rb_floor_gives_one_run_points_the_widest_spread():
    y = np.array([100.0, 200.0, 300.0])
    sd = np.array([27.0, np.nan, np.nan])
    n = np.array([2.0, 1.0, 1.0])
    f = noise_floor(y, sd, n)
    assert f is not None and f[0] == pytest.approx(27 / np.sqrt(2)) and f[2] == pytest.approx(0.27 * 300)
    assert noise_floor(y, np.array([1.0, 2.0, 3.0]), np.full(3, 3.0)) is None  # every point repeated: their own rule
    assert noise_floor(y, np.full(3, np.nan), np.ones(3)) is None  # no repeats: the fit's scatter
    assert band_not_noise({"widest": {"cv": 0.27}}) and not band_not_noise({"widest": {"cv": 0.05}})


def test_rb_nerdst_seqread_no_cap_below_a_measured_run():
    fit = fit_case_id("r20_nerdst_nvme-p7_seqread_qd1_bs", "blind20")
    joined = " ".join(_texts(fit))
    # the 128 KiB runs made 1.16 and 1.70 GB/s: no "byte cap of 1.43", no fall to the one 256 KiB run past ±10 %
    assert "byte cap" not in joined and "falls 45%" not in joined and "±10%" not in joined
    assert "flattens" not in joined  # no level of 1.43 (2 runs) and 0.794 GB/s (1 run)
    (top,) = _texts(fit, "maximum")
    assert "the mean of 2 runs, 1.16 GB/s (1.08 GiB/s)–1.7 GB/s (1.58 GiB/s)" in top


def _sizes_mixed(bw, runs, sd, seed=20) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for k, (b, nr) in enumerate(zip(bw, runs)):
        bs = 4096 * 2 ** k
        for r in range(nr):
            v = b * (1 + sd * rng.standard_normal())
            rows.append({"block_size_bytes": bs, "bw_bytes_per_s": v, "iops": v / bs, "iodepth": 32, "numjobs": 1,
                         "lat_mean_s": 32 * bs / v, "run": r, "source_path": f"bs{bs}-r{r}.json",
                         "ioengine": "libaio", "direction": "read"})
    return pd.DataFrame(rows)


def test_rb_counter_tight_repeats_keep_the_fall_and_its_cap():
    # seeded: repeats at 2 of 6 sizes within ±1 %, a 40 % fall to a one-run last size: beyond the widest spread
    df = _sizes_mixed([0.3e9, 0.8e9, 1.3e9, 1.7e9, 2.0e9, 1.2e9], [2, 1, 1, 1, 2, 1], 0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = nm.fit(df, x="block_size_bytes", y="bw_bytes_per_s")
    joined = " ".join(_texts(fit))
    assert "peaks at 1.99 GB/s" in joined and "falls 40%" in joined and "a byte cap of 1.99 GB/s" in joined


# ---------------------------------------------------------------------------------- SB: one verdict a step
def test_sb_devcount_psync_one_verdict_on_the_last_step():
    fit = fit_case_id("r20_here-devcount_loops_psync_randwrite_qd1-per-dev_devcount_repeats", "blind20")
    (sat,) = _texts(fit, "saturation")
    assert "the last doubling of device_count added +27% by the means (126.80 K IOPS at device_count = 3" in sat
    assert "every run at 6 above every run at 3" in sat
    assert "the last step alone (4 → 6, +12%) is within its runs' noise" in sat
    assert "the last step added +21%" not in sat
    (model,) = _texts(fit, "model")
    assert "is within the repeats' noise" in model  # the same verdict on the same step


def test_sb_counter_a_last_step_beyond_its_runs_is_read_as_before():
    # seeded numjobs 1–8, 3 runs ±1 %, still rising +30 % per doubling at the end: no "alone", the last step read
    rng = np.random.default_rng(7)
    rows = []
    for n, v in zip((1, 2, 4, 8), (10e3, 16e3, 22e3, 28.6e3)):
        for r in range(3):
            x = v * (1 + 0.01 * rng.standard_normal())
            rows.append({"numjobs": n, "iodepth": 1, "iops": x, "lat_mean_s": n / x, "run": r, "ioengine": "psync",
                         "direction": "read", "block_size_bytes": 4096, "source_path": f"nj{n}-r{r}.json"})
    df = pd.DataFrame(rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = nm.fit(df, x="numjobs", y="iops")
    sat = " ".join(_texts(fit, "saturation"))
    assert "still rises" in sat and "alone" not in sat and "the last step added" in sat


def test_sb_last_step_within_needs_runs_at_both_points():
    p = pd.DataFrame({"y": [100.0, 104.0], "y_std": [5.0, 5.0], "n_runs": [3.0, 3.0]})
    assert last_step_within(p) is True
    assert last_step_within(p.assign(y=[100.0, 130.0])) is False
    assert last_step_within(p.assign(n_runs=[1.0, 3.0], y_std=[np.nan, 5.0])) is None


# -------------------------------------------------------------------------------------------- SI: wording
def test_si_psync_is_not_said_to_reap_late():
    fit = fit_case_id("r20_here-verify_loop_psync_md5-verify_randread_qd1_bs_repeats", "blind20")
    (cpu,) = _texts(fit, "cpu")
    assert "reaps completions late" not in cpu
    assert "1.68 K IOPS (the mean of its runs)" in cpu and "525 µs of the job thread's CPU per I/O, usr+sys ÷ I/Os, the runs' median" in cpu
    assert "the work of the loop device's worker is not in it" in cpu  # the loop worker's copy is off fio's thread


def test_si_counter_an_async_engine_keeps_the_reaping_words():
    fit = fit_case_id("r6_kangeek_p3600_4k-randread_iodepth_by-numjobs", "blind6")
    assert any("reaps completions late" in t for t in _texts(fit, "cpu"))


def test_si_one_run_words_are_not_garbled():
    fit = fit_case_id("r20_gb10notes_phison-e27t-dramless-nvme_19mb-scattered-read_qd", "blind20")
    (sat,) = _texts(fit, "saturation")
    assert "no repeats give a noise" not in sat and "One run a point, so no repeats to measure a noise" in sat


# ------------------------------------------------------------------------------------ RI: per-I/O term words
def test_ri_zram_lz4_rpi4_term_as_a_time_and_measured():
    fit = fit_case_id("r20_xeome_zram-lz4-rpi4_read_bs", "blind20")
    (model,) = _texts(fit, "model")
    assert "1/522" not in model and "Each I/O costs 1.91 µs of the binding resource plus its size ÷ 4.13 GB/s" in model
    assert "rests on the model's shape" not in model
    assert "At 4 KiB the per-I/O term is 65% of each I/O's time" in model


def test_ri_counter_a_term_far_from_the_data_keeps_its_caution():
    fit = fit_case_id("r13_cephpr27392_bluestore-ramdisk-iouring_randwrite_qd16_bs", "blind13")
    assert any("rests on the model's shape beyond the data" in t for t in _texts(fit, "model"))


def test_rb_a_scattered_peak_is_read_by_its_own_runs_whatever_other_points_have():
    # seeded: the 64 KiB peak's 2 runs 2.0 and 2.6 GB/s, one run elsewhere, a fall to 0.8 GB/s beyond any spread:
    # the fall is said, and no byte cap below the 2.6 GB/s run (the scattered-peak test, round 20 RB)
    df = _sizes_mixed([0.3e9, 0.8e9, 1.3e9, 1.7e9, 2.3e9, 0.8e9], [1, 1, 1, 1, 2, 1], 0.0)
    df.loc[df["block_size_bytes"] == 65536, "bw_bytes_per_s"] = [2.0e9, 2.6e9]
    df["iops"] = df["bw_bytes_per_s"] / df["block_size_bytes"]
    df["lat_mean_s"] = 32 * df["block_size_bytes"] / df["bw_bytes_per_s"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = nm.fit(df, x="block_size_bytes", y="bw_bytes_per_s")
    joined = " ".join(_texts(fit))
    assert "falls 65%" in joined and "byte cap" not in joined
    assert "spread 2 GB/s (1.86 GiB/s)–2.6 GB/s (2.42 GiB/s)" in joined and "no byte limit is read from them" in joined
