"""Round 16's block-size-at-one-depth classes (``_blind_rounds/round16_hand_read_part1.md`` VB,
``round16_hand_read_part2.md`` WB, WC, WD), by the session rule "a cause only with its proof" (issue 28).

- WB: a byte level flat at QD16 while the bytes in flight (depth × size) grew ×64 and fio's latency grew with them
  (Little's law) is a byte limit, measured — not "not shown to be a cap (a deeper queue would tell)".
- VB: the same level where the job was ≥ 90 % busy on its CPU at every size is the job's CPU: "more jobs", never "a
  deeper queue".
- WD: no IOPS beside bytes/s where the block size is the mean of a bsrange mix (fractional, different per run).

Round 16 is spent; each rule has a counter-case (spent real or seeded synthetic) where it must not fire. No blind
round has tested these rules.
"""

from __future__ import annotations

import pandas as pd
import pytest

from tests.fitting.corpus_score import CORPUS
from tests.fitting.test_size_r11 import _fit, _fit_df, _sizes, _texts

pytestmark = pytest.mark.filterwarnings("ignore")

XNVME = "r16_xnvmebench_nvme0n1_seqwrite_qd16_bs"
ZRAM = "r16_here-zram_zram-lzorle_libaio_seqread_qd1_bs_repeats"
JETSON = "r16_ssdbenchresults_jetson-nvme_seqwrite-128k-10m_qd32_numjobs"


def _flat_bytes(texts):
    return [t for t in texts if "bandwidth is flat" in t or "; it is flat at" in t]  # (after the rise: round 19 UF)


# ------------------------------------------------------------------ WB: bytes in flight grew, the byte rate did not
def test_wb_r16_xnvme_qd16_byte_level_is_a_measured_byte_cap():
    fit = _fit(XNVME)
    cap = _flat_bytes(_texts(fit, "cap"))
    assert cap, _texts(fit)
    p = pd.read_csv(CORPUS / XNVME / "points.csv").sort_values("block_size_bytes")
    flat = p[p["block_size_bytes"] >= 16384]
    lat = flat["lat_mean_s"].to_numpy(float)
    grew = flat["block_size_bytes"].max() / flat["block_size_bytes"].min()
    assert f"bytes in flight grew ×{grew:.3g} (256 KiB → 16 MiB)" in cap[0]
    assert f"×{lat[-1] / lat[0]:.3g}" in cap[0]  # 81.6 µs → 4.99 ms, ×61.1
    top = flat["bw_bytes_per_s"].max()
    assert "a byte cap of 3.39 GB/s" in cap[0] and abs(top / 1e9 - 3.39) < 0.005
    assert "not shown to be a cap" not in cap[0] and "deeper queue" not in cap[0]


def test_wb_counter_latency_that_does_not_follow_the_bytes_is_no_cap():
    # QD16, bandwidth flat over 64 KiB–1 MiB, but fio's latency stays at 1 ms (fewer I/Os really in flight than the
    # depth says: Little's check far from 1): the level stays "not shown to be a cap"
    df = _sizes([0.25e9, 0.5e9, 1e9, 2.0e9, 2.02e9, 2.01e9, 2.03e9, 2.02e9, 2.01e9], depth=16)
    df["lat_mean_s"] = 1e-3
    cap = _flat_bytes(_texts(_fit_df(df), "cap"))
    assert cap and "the byte rate at that depth, not shown to be a cap" in cap[0]
    assert "bytes in flight" not in cap[0] and "byte cap of" not in cap[0]


def test_wb_counter_one_io_outstanding_is_one_transfer_not_a_queue():
    # the same flat bytes at QD1 (latency ∝ size, Little holds): one transfer's time, nothing queued (round 14 SF)
    df = _sizes([0.25e9, 0.5e9, 1e9, 2.0e9, 2.02e9, 2.01e9, 2.03e9, 2.02e9, 2.01e9], depth=1)
    cap = _flat_bytes(_texts(_fit_df(df), "cap"))
    assert cap and "not shown to be a cap" in cap[0] and "bytes in flight" not in cap[0]


# ------------------------------------------------------------------ VB: the job's CPU, not the depth
def test_vb_r16_zram_qd1_byte_level_is_the_jobs_cpu():
    fit = _fit(ZRAM)
    cap = _flat_bytes(_texts(fit, "cap"))
    assert cap, _texts(fit)
    assert "the job's CPU holds the rate; more jobs, not a deeper queue, would tell" in cap[0]
    # the busy shares are the points' own (64 KiB–1 MiB: 0.987, 0.994, 0.985 of a CPU) and slat ≈ lat
    assert "98%–99% busy on its CPU" in cap[0] and "done inside its submission" in cap[0]
    assert not any("a deeper queue would tell" in t for t in _texts(fit)), _texts(fit)


def test_vb_counter_an_idle_job_keeps_the_depth_words():
    # the same QD1 byte level with the job at 30 % of a CPU: nothing shows the CPU held it
    df = _sizes([0.25e9, 0.5e9, 1e9, 2.0e9, 2.02e9, 2.01e9, 2.03e9], depth=1)
    df["cpu_usr"], df["cpu_sys"] = 0.05, 0.25
    cap = _flat_bytes(_texts(_fit_df(df), "cap"))
    assert cap and "not shown to be a cap (a deeper queue would tell)" in cap[0] and "CPU" not in cap[0]


def test_vb_busy_job_at_a_deep_queue_names_the_cpu_before_the_bytes_in_flight():
    # QD16 with the job 97 % busy at every size: the CPU, which the bytes-in-flight reading cannot rule out
    df = _sizes([0.25e9, 0.5e9, 1e9, 2.0e9, 2.02e9, 2.01e9, 2.03e9], depth=16)
    df["cpu_usr"], df["cpu_sys"] = 0.17, 0.80
    cap = _flat_bytes(_texts(_fit_df(df), "cap"))
    assert cap and "the job's CPU holds the rate" in cap[0] and "byte cap of" not in cap[0]


# ------------------------------------------------------------------ WD: no IOPS for a bsrange mix
def test_wd_r16_jetson_bsrange_plateau_has_no_iops():
    fit = _fit(JETSON)
    sat = _texts(fit, "saturation")
    assert sat and "Plateau 4.23 GB/s" in sat[0]
    assert " IOPS" not in sat[0], sat[0]


def test_wd_counter_one_fixed_block_keeps_iops_beside_bytes():
    # 128 KiB every run, numjobs 1–8 flat at 2 GB/s: 15.27 K IOPS beside the bytes
    rows = [{"numjobs": nj, "block_size_bytes": 131072, "bw_bytes_per_s": 2.0e9 * (1 + 0.002 * r), "iodepth": 32,
             "iops": 2.0e9 * (1 + 0.002 * r) / 131072, "lat_mean_s": 32 * nj * 131072 / 2.0e9, "run": r,
             "source_path": f"nj{nj}-r{r}.json", "ioengine": "libaio", "direction": "write"}
            for nj in (1, 2, 4, 8) for r in range(2)]
    import nvmemodel as nm

    fit = nm.fit(pd.DataFrame(rows), x="numjobs", y="bw_bytes_per_s")
    sat = _texts(fit, "saturation")
    assert sat and "2 GB/s (1.86 GiB/s), 15.27 K IOPS" in sat[0], sat
