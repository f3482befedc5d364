"""Round 27's caps along block size at one fixed depth (``_blind_rounds/round27_hand_read_part2.md`` HA, HD, HE;
``round27_hand_read_part1.md`` GD), by the session rule "a cause only with its proof" (issue 28).

- HA: IOPS flat at one deep queue (≥ 16 outstanding, Little's law holding) while fio's mean latency stays the same
  over ≥ ×4 the size: a per-I/O limit, measured — not "the rate at that depth, not shown to be a cap".
- GD: bytes/s flat at one depth where the bytes in flight grew ≥ ×16 and the files give no latency: a byte cap,
  measured, each I/O's time from the rates (round 16 WB's rule without a latency column).
- HD: IOPS flat from the first size to a crossover lead with that shape, not "fall from the first to the last size".
- HE: "no bandwidth ceiling reached" at the largest size → "none shown up to that rate".

Round 27 is spent; each rule has a counter-case (spent real or seeded synthetic) where it must not fire.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.fitting.corpus_score import CORPUS
from tests.fitting.test_size_r11 import _fit, _fit_df, _sizes, _texts

pytestmark = pytest.mark.filterwarnings("ignore")

GP3_4K = "r27_miztiik_aws-ebs-gp3-4000iops-1000mibs_randwrite_qd16x16_bs"
GP3_16K = "r27_miztiik_aws-ebs-gp3-16000iops-1000mibs_randwrite_qd16x16_bs"
ROCMXIO = "r27_rocmxio_gpu-initiated-nvme-sn850x_read_qd8x4jobs_bs"
ACSWIN_QD1 = "r27_acswin_sabrent-rocket4plus-windows-fio-buffered_seqread_qd1_bs"


def _points(case):
    return pd.read_csv(CORPUS / case / "points.csv").sort_values("block_size_bytes")


def _iops_flat(n_sizes=6, *, iops=10_000.0, depth=32, runs=3, sd=0.005, seed=5) -> pd.DataFrame:
    """One job along block size (4 KiB doubling) at a flat ``iops``, Little's law holding (lat = depth ÷ IOPS)."""
    return _sizes([iops * 4096 * 2 ** k for k in range(n_sizes)], runs=runs, depth=depth, sd=sd, seed=seed)


# ------------------------------------------------------------------ HA: a per-I/O limit at one deep queue
@pytest.mark.parametrize("case", [GP3_4K, GP3_16K])
def test_ha_r27_ebs_flat_iops_at_256_outstanding_is_a_measured_per_io_limit(case):
    fit = _fit(case)
    cap = [t for t in _texts(fit, "cap") if "IOPS are flat" in t]
    assert cap, _texts(fit)
    p = _points(case)
    iops, lat = p["iops"].to_numpy(float), p["lat_mean_s"].to_numpy(float)
    flat = iops >= 0.9 * iops[0]  # the flat stretch from 4 KiB (to 256 KiB on gp3-4000, 64 KiB on gp3-16000)
    level = float(np.median(iops[flat]))  # the flat sizes' median, not the 4 KiB first run's (HD)
    assert level < 0.96 * iops[0]
    from nvmemodel.fitting.wording import fmt_y

    assert f"all at 256 I/Os outstanding: an IOPS limit of {fmt_y(level, '1/s')} (their median), measured" in cap[0]
    assert f"= {fmt_y(256 / level, 's')}" in cap[0]  # 61.5 ms (gp3-4000), 15.4 ms (gp3-16000)
    assert f"{fmt_y(lat[flat].min(), 's')}–{fmt_y(lat[flat].max(), 's')}" in cap[0]
    assert "not for their transfer" in cap[0] and "not shown to be a cap" not in cap[0].split("; bandwidth")[0]


def test_ha_synthetic_flat_iops_at_qd32_with_flat_latency_fires():
    cap = [t for t in _texts(_fit_df(_iops_flat(), y="iops"), "cap") if "IOPS are flat" in t]
    assert cap and "all at 32 I/Os outstanding: an IOPS limit of" in cap[0], cap


def test_ha_counter_a_shallow_queue_keeps_the_depth_words():
    # the same flat IOPS at QD4 (round 13 QC: a QD4 level the same drive's deeper jobs still raised)
    cap = [t for t in _texts(_fit_df(_iops_flat(depth=4), y="iops"), "cap") if "IOPS are flat" in t]
    assert cap and "the rate at that depth, not shown to be a cap" in cap[0] and "IOPS limit of" not in cap[0]


def test_ha_counter_little_below_09_keeps_the_depth_words():
    # QD32 but fio's latency says 3 I/Os were in flight (Little 0.1): the submitter, not the device, held the rate
    df = _iops_flat()
    df["lat_mean_s"] = 3 / 10_000.0
    cap = [t for t in _texts(_fit_df(df, y="iops"), "cap") if "IOPS are flat" in t]
    assert cap and "IOPS limit of" not in cap[0] and "per-I/O turn" not in cap[0], cap


def test_ha_counter_latency_growing_with_size_is_no_per_io_limit():
    # QD32, IOPS within ±10 % (10.5 K → 9.5 K) while the latency grows ×1.5 (Little ≈ 1 at the ends only if the
    # rate had fallen as much): a per-byte part in each I/O's time — not a per-I/O limit
    df = _iops_flat()
    k = np.log2(df["block_size_bytes"] / 4096)
    df["lat_mean_s"] = 32 / 10_000.0 * (1 + 0.1 * k)
    cap = [t for t in _texts(_fit_df(df, y="iops"), "cap") if "IOPS are flat" in t]
    assert cap and "IOPS limit of" not in cap[0], cap


def test_ha_counter_one_io_outstanding_qd1_bs_real():
    # r27 acswin QD1 along block size: one stream, its latency the unloaded service time — no per-I/O limit
    fit = _fit(ACSWIN_QD1)
    assert not any("IOPS limit of" in t or "per-I/O turn" in t for t in _texts(fit)), _texts(fit)


def test_ha_counter_paced_series_says_the_pace():
    from tests.fitting.test_qa_findings import ADV
    import nvmemodel as nm

    text = nm.fit(nm.read_results(ADV / "bsrate"), x="block_size_bytes", y="iops").explain()
    assert "IOPS limit of" not in text and "per-I/O turn" not in text


# ------------------------------------------------------------------ GD: bytes in flight grew, no latency column
def test_gd_r27_rocmxio_byte_level_without_latency_is_a_measured_byte_cap():
    fit = _fit(ROCMXIO)
    cap = [t for t in _texts(fit, "cap") if "bandwidth is flat" in t]
    assert cap, _texts(fit)
    p = _points(ROCMXIO)
    b, iops = p["block_size_bytes"].to_numpy(float), p["iops"].to_numpy(float)
    assert p["lat_mean_s"].isna().all()
    assert f"the bytes in flight grew ×{b[-1] / b[0]:.3g} (128 KiB → 16 MiB)" in cap[0]  # 32 × 4 KiB → 32 × 512 KiB
    from nvmemodel.fitting.wording import fmt_y

    assert f"{fmt_y(32 / iops[0], 's')} → {fmt_y(32 / iops[-1], 's')}" in cap[0]  # 168 µs → 21.3 ms
    assert "a byte cap of 0.818 GB/s" in cap[0] and "deeper queue" not in cap[0]


def test_gd_counter_small_growth_without_latency_keeps_the_depth_words():
    # flat bytes over ×8 the size at QD32 with no latency column: Little's law cannot be checked, growth < ×16
    df = _sizes([2.0e9, 2.02e9, 2.01e9, 2.03e9], depth=32)
    df["lat_mean_s"] = np.nan
    cap = [t for t in _texts(_fit_df(df), "cap") if "bandwidth is flat" in t]
    assert cap and "the byte rate at that depth, not shown to be a cap" in cap[0] and "byte cap of" not in cap[0]


def test_gd_counter_one_io_outstanding_without_latency_is_no_queue():
    df = _sizes([2.0e9, 2.02e9, 2.01e9, 2.03e9, 2.0e9, 2.02e9], depth=1)
    df["lat_mean_s"] = np.nan
    cap = [t for t in _texts(_fit_df(df), "cap") if "bandwidth is flat" in t]
    assert cap and "bytes in flight" not in cap[0] and "byte cap of" not in cap[0], cap


# ------------------------------------------------------------------ HD, HE: the block-size lead sentence
def test_hd_r27_gp3_16000_iops_hold_then_fall():
    text = _texts(_fit(GP3_16K), "block size")[0]
    assert text.startswith("Measured IOPS hold at 16.60 K IOPS–17.58 K IOPS from 4 KiB to 64 KiB; only past it they "
                           "fall from 16.74 K IOPS at 64 KiB to 4.18 K IOPS at 256 KiB"), text


def test_hd_counter_a_fall_from_the_first_size_keeps_fall_words():
    # bandwidth ×1.4 a doubling: IOPS fall 30 % a step from 4 KiB, no flat stretch
    df = _sizes([1e8 * 1.4 ** k for k in range(7)], depth=32)
    text = _texts(_fit_df(df, y="iops"), "block size")[0]
    assert text.startswith("Measured IOPS fall from") and "hold at" not in text, text


def test_he_r27_gp3_4000_no_byte_ceiling_shown_up_to_the_largest_size():
    text = _texts(_fit(GP3_4K), "block size")[0]
    assert "to 1.09 GB/s (1.02 GiB/s) at 256 KiB, the largest size: no bandwidth ceiling is shown up to that rate" \
        in text and "ceiling reached" not in text, text


def test_ha_counter_a_busy_job_keeps_the_cpu_words_and_the_iops_level():
    # r10 980pro io_uring on one core, QD128: flat IOPS with the job 99 % busy — the CPU words stay, and the roofline
    # names an IOPS level, not a cap
    text = " ".join(_texts(_fit("r10_icpe24sched_980pro_randread_iouring-1core_qd128_bs"), "cap"))
    assert "more jobs, not a deeper queue, would tell" in text and "IOPS limit of" not in text
    assert "The IOPS level and the byte cap cross" in text, text
