"""Round 15's block-size class UB (``_blind_rounds/round15_hand_read_part2.md``), by the session rule "a cause only
with its proof" (issue 28): along block size, "within the repeat noise" and "falls …" agree with the kept runs.

- "+33 % per doubling … within the repeat noise" where every 256 KiB run lay above every 128 KiB run
  (r15 fio336 terse pvsync2 randwrite along size): the words name the runs' order instead.
- "falls 65 % … a byte cap of 2.4 GB/s" resting on a 46-IOPS stalled run at 1 MiB while another 1 MiB run lay above
  a 256 KiB one (r15 ext4-on-loop libaio seqwrite along size): no fall, no cap.

Round 15 is spent; the counter-cases are seeded synthetics where the rules must not fire. No blind round has tested
these rules.
"""

from __future__ import annotations

import pytest

from tests.fitting.test_size_r11 import _fit, _fit_df, _sizes, _texts

pytestmark = pytest.mark.filterwarnings("ignore")


def test_ub_r15_pvsync2_climb_is_not_called_noise():
    fit = _fit("r15_here-newfio_fio336-terse_loop_pvsync2_randwrite_bs_repeats")
    t = " ".join(_texts(fit))
    assert "+33% per doubling" in t and "within the repeat noise" not in t
    assert "every run at 256 KiB above every run at 128 KiB" in t


def test_ub_r15_fall_on_a_stalled_run_is_no_fall():
    fit = _fit("r15_here-ext4_ext4-on-loop_libaio_seqwrite_qd4_bs_repeats")
    t = " ".join(_texts(fit))
    assert "falls 65%" not in t and "byte cap" not in t and not _texts(fit, "falls")


def test_ub_counter_climb_inside_overlapping_runs_stays_noise():
    # the runs of the last two sizes overlap (sd 25 %): the climb is the noise's, said so
    bw = [0.5e9, 1e9, 2e9, 2.0e9, 2.1e9, 2.5e9]
    fit = _fit_df(_sizes(bw, sd=0.25, seed=4))
    creep = [t for t in _texts(fit) if "its means still rise" in t]
    assert creep and "within the repeat noise" in creep[0] and "every run at" not in creep[0]


def test_ub_counter_fall_beyond_every_run_is_still_said():
    # a clean fall: every run at the largest size below every run at the peak — the fall stays
    bw = [0.5e9, 1.0e9, 2.0e9, 3.0e9, 3.05e9, 1.5e9]
    fit = _fit_df(_sizes(bw, sd=0.01))
    falls = _texts(fit, "falls")
    assert falls and "falls" in falls[0]


# ------------------------------------------------ round 14 SF / round 15 TF: one rule for byte and IOPS levels
def test_sf_r14_ra128k_byte_level_at_one_depth_is_stated():
    # buffered psync QD1 through loop0: kept-run medians 0.56–0.66 GB/s over 8–256 KiB, runs overlapping at every size
    fit = _fit("r14_here-ra_loop-ra128k_psync_buffered_seqread_bs_repeats")
    cap = [t for t in _texts(fit, "cap") if "bandwidth is flat" in t]
    assert cap and "all at 1 I/O outstanding: the byte rate at that depth, not shown to be a cap" in cap[0]
    assert "byte cap of" not in cap[0]


def test_sf_counter_runs_that_do_not_overlap_are_no_level():
    # r15 pvsync2: medians 1.57 and 1.89 GB/s at 128/256 KiB lie within their runs' ×1.2 spread, but every 256 KiB run
    # is above every 128 KiB run: no level, no "nearly level"
    fit = _fit("r15_here-newfio_fio336-terse_loop_pvsync2_randwrite_bs_repeats")
    t = " ".join(_texts(fit))
    assert "nearly level" not in t and "bandwidth is flat" not in t


def test_sf_counter_a_byte_cap_over_several_depths_keeps_its_words():
    # the large sizes at three depths: no one depth's rate, so the flat bandwidth keeps "a byte cap of … measured"
    df = _sizes([0.25e9, 0.5e9, 1e9, 2.0e9, 2.02e9, 2.01e9, 2.03e9])
    sizes = sorted(df["block_size_bytes"].unique())
    df["iodepth"] = df["block_size_bytes"].map({b: 8 * (1 + k % 3) for k, b in enumerate(sizes)})
    df["lat_mean_s"] = df["iodepth"] * df["block_size_bytes"] / df["bw_bytes_per_s"]
    fit = _fit_df(df)
    cap = [t for t in _texts(fit, "cap") if "bandwidth is flat" in t]
    assert cap and "a byte cap of" in cap[0] and "byte rate at that depth" not in cap[0]


def test_tf_peak_at_a_large_block_gives_iops_beside_bytes():
    bw = [0.5e9, 1.0e9, 2.0e9, 3.0e9, 3.05e9, 1.5e9]  # peak at 64 KiB
    fit = _fit_df(_sizes(bw, sd=0.01))
    falls = _texts(fit, "falls")
    import re

    m = re.search(r"peaks at ([\d.]+) GB/s \([^)]*\), ([\d.]+) K IOPS, at 64 KiB", falls[0]) if falls else None
    assert m, falls
    assert abs(float(m[1]) * 1e9 / 65536 / (float(m[2]) * 1e3) - 1) < 0.01  # the same level in the other unit


def test_tf_counter_peak_at_a_small_block_stays_in_bytes():
    bw = [0.5e9, 3.0e9, 3.05e9, 1.5e9, 1.4e9, 1.3e9]  # peak at 16 KiB
    fit = _fit_df(_sizes(bw, sd=0.01))
    falls = _texts(fit, "falls")
    assert falls and "IOPS)" not in falls[0].split(" and falls")[0], falls
