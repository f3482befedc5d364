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
