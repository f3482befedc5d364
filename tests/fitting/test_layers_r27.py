"""Round 27's classes HB and HC (``_blind_rounds/round27_hand_read_part2.md``), read before the rules these tests
hold were set (docs/fitting.md names them). Round 27 is spent: its cases are fitted here.

- HB: md0's 0 % in fio's disk_util, a counter md does not keep, was read as "idle part of every run" while fio kept
  255 of 256 writes outstanding through it and its members were 96–98 % busy (stacked_busy.py). Counter-cases: a loop
  device keeps the counter (r26 refill, 38–60 % busy, still "idle part of every run"); a stacked device whose members
  are at 0 % too, or (alone) whose I/O counts are 0 — no I/O through it: no rule.
- HC: a fall over several steps, then a level over 8–160 outstanding while latency grows with the load, worded "falls
  56 % to 3.24 K at 160" (fall_level.py). Counter-cases: zfs5019 still falls at every step; a one-point tail; a tail
  within the peak's band; a tail whose latency does not grow with the load.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.devices import device_busy
from nvmemodel.fitting.fall_level import slide_level
from nvmemodel.fitting.stacked_busy import unaccounted
from tests.fitting.corpus_score import CORPUS, fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

MDRAID = "r27_miztiik_aws-ebs-mdraid0-2x-gp3_randwrite_qd16x16_bs"
REFILL = "r26_here-refill_loop-tmpfs_psync_seqwrite_refill-buffers_bs_repeats"
ZFS6207 = "r27_zfs6207_zvol-zfs0658_4k-randwrite_orion_outstanding"
ZFS5019 = "r27_zfs5019_4zvols-zfs0657_4k-randwrite_orion-raid0sim_outstanding"
STACK = [("md0", "md"), ("nvme3n1", None), ("nvme2n1", None)]


def _text(case, kind, split=None):
    r = fit_case_id(case, split)
    return [c["text"] for c in r.claims() if c["kind"] == kind]


def _unacc(rows, names=("md0",), stack=STACK):
    last = float(rows["block_size_bytes"].max())
    busy = device_busy(rows, list(names), "block_size_bytes", last)
    return unaccounted(rows, list(names), stack, busy, lambda ns: device_busy(rows, ns, "block_size_bytes", last))


# ------------------------------------------------------------------ HB: a stacked device's 0 % is no counter
def test_md0_zero_busy_is_not_idle_and_members_busy_are_said():
    (text,) = _text(MDRAID, "layer", "blind27")
    assert "idle part of every run" not in text
    assert "md0 keeps no busy time of its own" in text and "not idleness" in text
    pts = pd.read_csv(CORPUS / MDRAID / "points.csv")
    u = pts["disk_util_pct"].astype(str).str.split(";", expand=True).astype(float)
    assert (u[0] == 0).all()  # the premise: md0 0 % in every run, members busy
    lo, hi = u[[1, 2]].min().min(), u[[1, 2]].max().max()
    assert f"its members nvme3n1 and nvme2n1 were {lo:.0f}–{hi:.0f} % busy a run" in text  # 96–99
    assert "at least 90% in every run" in text and lo >= 90
    little = pts["iops"] * pts["lat_mean_s"] / (pts["iodepth"] * pts["numjobs"])
    assert (little > 0.99).all()  # 255 of 256 in flight: never idle


def test_md0_rule_needs_io_through_it():
    rows = pd.read_csv(CORPUS / MDRAID / "points.csv")
    assert _unacc(rows)["members"] == ["nvme3n1", "nvme2n1"]
    idle = rows.assign(disk_util_pct="0;0;0")  # members at 0 % too: no I/O shown through the layer
    assert _unacc(idle) is None
    alone = rows.assign(devices="md0", disk_util_pct="0", disk_read_ios=0, disk_write_ios=0)
    assert _unacc(alone, stack=[("md0", "md")]) is None  # md0 alone, no request counted
    counted = alone.assign(disk_write_ios=1000)
    u = _unacc(counted, stack=[("md0", "md")])
    assert u is not None and u["busy"] is None and not u["members"]  # its own count: no busy figure, none said
    some = rows.assign(disk_util_pct="40;98;97")  # md that does account: its own share stands
    assert _unacc(some) is None


def test_loop_device_keeps_its_counter():
    (text, *_) = _text(REFILL, "layer", "blind26")
    assert "loop0 38–60 % busy a run" in text and "idle part of every run" in text
    assert "keeps no busy time" not in text


# ------------------------------------------------------------------ HC: a fall over steps, then a level
def test_zfs6207_states_the_level_after_the_fall_and_its_onset():
    (text,) = _text(ZFS6207, "saturation", "blind27")
    pts = pd.read_csv(CORPUS / ZFS6207 / "points.csv").sort_values("iodepth")
    tail = pts[pts["iodepth"] >= 7]["iops"]
    assert (abs(tail / tail.mean() - 1) <= 0.10).all()
    assert pts["iops"].iloc[5] / pts["iops"].iloc[-1] > 1.10  # from 6 on the tail still drifts down beyond the band
    assert "falls 56% over the steps to iodepth = 7, then levels at 3.26 K IOPS" in text
    assert f"{tail.median() / 1e3:.2f}" == "3.26"
    assert "3.16 K IOPS to 3.37 K IOPS over iodepth = 7–160, 21 points" in text
    assert "falls 56% to 3.24 K IOPS at iodepth = 160" not in text
    assert "(iodepth = 6 → 7)." in text and "(iodepth = 8 → 16)" not in text  # steps listed only to the onset
    assert "×23.7 (2.08 ms → 49.4 ms) for ×22.9 the iodepth" in text


def test_zfs5019_still_falling_gets_no_level():
    (text,) = _text(ZFS5019, "saturation", "blind27")
    assert "levels at" not in text and "falls 87% to 461 IOPS at iodepth = 88" in text


def _slide(y, lat=None, x=None):
    x = np.arange(1, len(y) + 1, dtype=float) * 8 if x is None else np.asarray(x, float)
    return slide_level(x, np.asarray(y, float), lat, int(np.argmax(y)))


def test_slide_level_counter_cases():
    rng = np.random.default_rng(27)  # seeded: a synthetic fall, then a level with ±2 % scatter
    x = np.array([1, 2, 4, 8, 16, 32, 64, 128], float)
    lvl = 1000 * (1 + rng.uniform(-0.02, 0.02, 5))
    y = np.r_[3000, 1800, 1200, lvl]
    lat = x / y  # Little's law at the measured rate
    got = _slide(y, lat, x)
    assert got is not None and got["x_from"] == 8 and got["points"] == 5
    assert _slide(y, np.full_like(y, 1e-3), x) is None  # latency flat while the load grows ×16: not a queue
    assert _slide(np.r_[3000, 1800, 1200, 1000, 990], None, x[:5]) is None  # a two-point tail is no level
    assert _slide(np.r_[1050, 1000, 990, 1010, 1000, 995], None, x[:6]) is None  # within the peak's band
    still = 3000 * 0.9 ** np.arange(8)  # falls 10 % a step: no level anywhere
    assert _slide(still, x / still, x) is None


def test_one_step_fall_to_a_level_is_said_in_one_step():
    # r15 spdk kernel-initiator: 23.1 GB/s at QD4, then 13.0–13.4 GB/s over QD 8–32 (round 15 TB's reading)
    (text,) = _text("r15_spdk-iopacing_nvmf-rdma-16nvme_128k-randread_kernel-initiator-8jobs_qd", "saturation",
                    "blind15")
    assert "falls 43% in one step to iodepth = 8, then levels at 13.1 GB/s" in text
    assert "over iodepth = 8–32, 3 points" in text and "over the steps" not in text
