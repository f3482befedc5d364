"""Round 5's hand reading (tests/data/explain_corpus/_blind_rounds/round5_hand_read_part{1,2}.md), saturation,
level and model-wording classes, each checked on the spent r5 case it was read on (fixtures now) — the rules are
general (docs/fitting.md's claims table names round 5 as the round read before each)."""

from __future__ import annotations

import re

import pytest

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")


def _text(case_id: str) -> str:
    return fit_case_id(case_id, split="blind5").explain()


def test_two_levels_not_one_spike():
    # AA (contradicted): QD4 327 K and QD8 336 K, then 116–139 K over QD16–64: two levels, not "one higher point"
    t = _text("r5_samyaple_rkt4p_4k-randwrite_1job_qd")
    assert "one higher point" not in t
    # (round 21 WA: the lower stretch, 138.7, 130.3, 116.2 K, falls every step, −16 %: no "level", its fall said)
    assert "steps down from 331.41 K IOPS (326.99 K IOPS to 335.84 K IOPS over iodepth = 4–8, 2 points)" in t
    assert "to 138.72 K IOPS at iodepth = 16, then falls a further 16.3%" in t and "not a decline" not in t


@pytest.mark.parametrize("case_id, ratio", [("r5_here_loop_posixaio_iodepth_repeats", "×10.5"),
                                            ("r5_here_ext4_fsync_numjobs_repeats", "×125")])  # (fsync runs: no stall test)
def test_runs_spread_past_every_step(case_id, ratio):
    # AB/AE: repeats ×3–×120 apart at one point: no onset, plateau or "binds from the first point"
    t = _text(case_id)
    assert f"differ by {ratio}" in t and "no onset, level or fall can be read" in t
    for said in ("saturates from", "Plateau", "No shape is claimed for flat data", "binds from there on",
                 "beyond the repeat noise", "lie on one level"):
        assert said not in t, said


def test_tight_repeats_still_read():
    # control: fdatasync runs 1015–1496 at one job (×1.47) keep their onset and plateau
    t = _text("r5_here_blkio_wiops_fdatasync_numjobs_repeats")
    assert "saturates from numjobs = 2" in t and "differ by" not in t


def test_devices_at_a_fixed_load_no_contention():
    # AB (part 2): one fsync=1 job over 1 to 1920 md members; USL's peak at 0.892 lies below the data
    t = _text("r5_linuxraid_md-raid0-brd_4k-randwrite-fsync_devices")
    assert "Contention σ" not in t and "peaks at device_count ≈" not in t and "whose state" not in t
    assert "fsync=1" in t and "1 job at every device_count" in t
    m = re.search(r"≈ ([\d.]+) µs \+ ([\d.]+) µs per device_count", t)
    assert m and 0.26 <= float(m.group(2)) <= 0.34  # the hand reading's 0.26–0.34 µs per member


def test_sync_engine_hint_and_qd1_rate():
    # AD: one psync thread along block size: more jobs or an async engine; the per-byte slope is a QD1 rate
    t = _text("r5_mixdk_nvme_seqwrite_psync_1thread_bs")
    assert "a deeper queue" not in t and "more jobs or an async engine" in t
    assert "transfer rate at 1 I/O outstanding, not a ceiling" in t and "is not measured" not in t


def test_step_gain_before_per_doubling():
    # Gains: 18 → 19 devices is +4 % for ×1.06, said before the +75 % per doubling
    t = _text("r5_plaid_30x-p44pro_4m-read_devices")
    assert "+4% for ×1.06 the device_count, +75% per doubling from" in t and "The rise began at 7.13 GB/s" in t


def test_size_fall_said_once():
    # AF: one fall sentence per curve along block size
    t = _text("r5_nks528_8x-sas-ssd-emul528_seqread_reqsize_pool")
    for part in t.split("\n\n"):
        assert part.count("peaks at 4.09 GB/s") == 1, part


def test_overlapping_stretches_are_one_level():
    # AA's rule on a dev series: 206–219 K over QD4–32 then 192–218 K to QD4096 overlap — one plateau, neither
    # "one higher point" nor two levels
    t = fit_case_id("mcgrof_nvme_4k-randwrite_qd1-4096", split="dev").explain()
    assert "one higher point" not in t and "two levels" not in t
    assert "saturates from iodepth = 4" in t and "192.29 K IOPS to 218.52 K IOPS over iodepth = 4–4096" in t
