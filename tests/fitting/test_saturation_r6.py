"""Round 6's hand reading (tests/data/explain_corpus/_blind_rounds/round6_hand_read_part{1,2}.md), saturation,
level and onset classes, each checked on the spent r6 case it was read on (fixtures now), with controls the old
rules got right. The rules are general (docs/fitting.md's claims table names round 6 as the round read before each)."""

from __future__ import annotations

import pytest

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")


def _text(case_id: str, split: str | None = None) -> str:
    return fit_case_id(case_id, split=split).explain()


def test_a_fall_in_two_steps_is_not_one_step():
    # BA (contradicted): 5.61 → 4.89 → 4.29 → 4.24 GB/s: −12.9 % then −12.4 %: no "level" holding a 12 % step
    t = _text("r6_femu_emulated-nvme_128k-seqread_qd32_numjobs")
    assert "is that one step" not in t and "after one higher point" not in t
    assert "Step by step: -12.9% (numjobs = 2 → 4), -12.4% (numjobs = 4 → 8), -1.0% (numjobs = 8 → 16)" in t


def test_one_spike_then_a_tight_level_kept():
    # control (blind3 Q's rule): a single high point, then a level whose steps are all small, stays "one step"
    from nvmemodel.fitting.facts import _level_after
    import numpy as np

    x = np.array([1, 2, 4, 8, 16], float)
    y = np.array([50, 97, 84, 86, 85], float)
    assert _level_after(x, y, np.full(5, np.nan), 1)["points"] == 3
    y2 = np.array([50, 97, 89, 80, 79], float)  # a −10 % step inside, near the −8 % step into it: steps
    assert _level_after(x, y2, np.full(5, np.nan), 1) is None


def test_onset_needs_latency_grown_at_it():
    # BD: latency 2.39, 2.19, 2.05, 7.08 ms at 1, 4, 16, 64 jobs: at 16 still unloaded; only 64 is on the cap
    t = _text("r6_cubefs_1client_128k-seqwrite_psync_numjobs")
    assert "saturates from numjobs = 16" not in t and "Plateau 1.09 GB/s" not in t
    assert "reaches its level between numjobs = 16 and 64" in t
    assert "The level, 1.18 GB/s" in t and "+18% for ×4 the numjobs" in t


def test_onset_with_latency_grown_kept():
    # control: the same client's reads, latency ×4 from 16 to 64 and +80 % into 16: onset 16 as before
    t = _text("r6_cubefs_1client_128k-seqread_psync_numjobs")
    assert "saturated from numjobs = 16" in t and "reaches its level between" not in t


def test_runs_apart_are_read_despite_one_noisy_point():
    # BE (part 1): ×9 at QD4, yet every QD32 run is above every QD1–2 run: the rise and the level are read
    t = _text("r6_here_loop_libaio_ureap_iodepth_repeats")
    assert "no onset, level or fall can be read" not in t
    # round 9 GA (read before the overlap rule): 16 → 32 gains +23 % on the means and +28 % on the medians while the
    # runs overlap (116–198 K and 185–197 K): no onset at 16 and no 172.63 K plateau (the mean of two points that no
    # point measured); the runs cannot tell a rise from a level there
    assert "saturated from iodepth = 16" not in t and "172.63 K IOPS" not in t
    assert "From iodepth = 16 to 32 the mean IOPS gained +23% per doubling" in t
    assert "the median +28%, but the runs of the two overlap" in t and "cannot tell a rise from a level" in t


@pytest.mark.parametrize("case_id", ["r5_here_loop_posixaio_iodepth_repeats", "r5_here_ext4_fsync_numjobs_repeats"])
def test_runs_overlapping_everywhere_stay_silent(case_id):
    # control (round 5 AB/AE): every point's runs overlap every other's: still nothing read
    t = _text(case_id)
    assert "no onset, level or fall can be read" in t and "saturate" not in t


def test_no_flat_words_beside_an_onset():
    # BE (part 2): "+40 % per doubling" to the onset, then "No shape is claimed for flat data": never both
    t = _text("r6_here_null_pin1cpu_numjobs_repeats")
    assert "saturates from numjobs = 2" in t and "+40% per doubling" in t
    assert "No shape is claimed for flat data" not in t


def test_two_targets_are_not_one_serial_path():
    # BC: filename=/dev/loop0:/dev/loop1 — two devices side by side, not a stack, not one service time
    t = _text("r6_here_blkio_wiops_2dev_pvsync2_numjobs_repeats")
    assert "one serial path whose service time" not in t and "loop0 over loop1" not in t
    assert "over 2 targets side by side" in t and "loop0 and loop1, the job's targets side by side" in t


def test_one_target_keeps_its_service_time():
    # control: one tmpfs file, one I/O per job in flight — the limit at the first point, 1 ÷ latency; since round 7
    # (part 2 CE) no "one serial path" without a fact that proves one: a cap would look the same
    t = _text("r6_here_tmpfs_psync_sharedfile_randwrite_numjobs_repeats")
    assert "1 ÷ 3.04 µs = 329.00 K IOPS: a limit reached at the first point" in t  # (the kept runs' latency)
    assert "one serial path whose service time is that latency;" not in t


def test_a_stack_is_still_over():
    # control (round 5): dm-0 over a VM's vda stays a stack
    from nvmemodel.fitting.devices import side_by_side
    import pandas as pd

    rows = pd.DataFrame({"devices": ["dm-0;vda"], "target_names": ["/dev/dm-0"]})
    assert side_by_side(rows) == []
    rows = pd.DataFrame({"devices": ["loop0;loop1"], "target_names": ["/dev/loop0;/dev/loop1"]})
    assert side_by_side(rows) == ["loop0", "loop1"]


def test_queue_asked_is_not_queue_in_flight():
    # BI: 32 asked, 72 % in flight at 4 KiB: no "a deeper queue may raise it"
    t = _text("r6_ysj_sandisk-usb_randread_qd32_bs_repeats")
    assert "a deeper queue may raise it" not in t
    # (round 8: bandwidth nearly level at the largest sizes is a level the cap fact states: the model sentence that
    # carried "only 72% were in flight by Little's law" is not said beside it)
    assert "a deeper queue" not in t
