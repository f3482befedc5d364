"""Round 22's hand reading, classes YE, XC, XF, XG (``_blind_rounds/round22_hand_read_part*.md``): the shape of a
curve said from its own numbers — along numjobs no single job's CPU named the ceiling and a slower submission not
called a queue (YE), a shrinking list of gains never "do not shrink" and a last doubling that mostly waited an
approach to a limit (XC), a last rise along block size under 10 % per doubling with IOPS falling nearly ∝ 1/size
nearly a byte limit (XF), and no knee placed past an onset whose latency fell below the lighter loads' (XG). The
round-22 cases are spent; the counters are other spent series and synthetic tables where the rules must not fire."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting import steps
from nvmemodel.fitting.knee import unqueued_onset
from tests.fitting.corpus_score import fit_case_id

ZRAM_NJ = "r22_remoteswap_android-zram_4k-randwrite_libaio_qd1_numjobs"
MEMCG_NJ = "r22_here-memcg_loop-buffered-memcg32m_psync_randread_numjobs_repeats"
OPENSEARCH = "r22_opensearch18873_mnt-remote-volume_randread_qd64_bs"
P41_LIBAIO = "r22_p41plusengine_p41plus-qlc_4k-randwrite_libaio_qd"
P41_URING = "r22_p41plusengine_p41plus-qlc_4k-randwrite_iouring_qd"
HDD_NJ = "r20_tutsunom_sdb-hdd-deadline_4k-randread_qd1_numjobs_repeats"  # r20 RF: steady +20 % a doubling
ZNS_NJ = "r19_silentzns_femu-zns-direct_16k-seqread-sync_zone-per-job_numjobs"  # r19 TB: a knee past an unqueued onset


def _text(case: str) -> str:
    return fit_case_id(case).explain()


# ------------------------------------------------------------------------------------------------ YE
def test_ye_zram_numjobs_no_job_cpu_ceiling_and_submission_not_queue():
    t = _text(ZRAM_NJ)
    assert "the ceiling the curve approaches" not in t  # beside "no approach to a ceiling is shown"
    assert "more jobs can" not in t  # said of numjobs itself
    assert "part of the added load queued" not in t  # slat carries the growth, clat < 0.5 µs
    assert "no one job's CPU is the curve's ceiling" in t
    # CPU per I/O 16.8 µs at 1 job → 35.9 µs at 8 jobs: ×2.14 (the case's cpu figures)
    assert "CPU per I/O rose ×2.14 from numjobs = 1 to 8 (16.8 µs → 35.9 µs)" in t
    # lat 14.37 → 20.45 µs; slat 13.89 → 19.78 µs; clat 0.344 → 0.484 µs
    assert "in submission (slat 13.9 µs → 19.8 µs; completion latency 0.344 µs → 0.484 µs)" in t
    assert "+42% per doubling" in t


def test_ye_submit_carried_counter_completion_growth():
    p = pd.DataFrame({"slat_mean": [10e-6, 11e-6], "clat_mean": [50e-6, 120e-6]})
    assert steps.submit_carried(p, 0) is None  # clat carries +70 of +71 µs: a queue may be said
    p = pd.DataFrame({"slat_mean": [10e-6, 40e-6], "clat_mean": [50e-6, 52e-6]})
    d = steps.submit_carried(p, 0)
    assert d is not None and d["slat"] == (10e-6, 40e-6)
    assert steps.submit_carried(pd.DataFrame({"clat_mean": [1e-6, 2e-6]}), 0) is None  # no slat: says nothing


# ------------------------------------------------------------------------------------------------ XC
def test_xc_memcg_numjobs_shrinking_gains_and_waiting_last_doubling():
    t = _text(MEMCG_NJ)
    assert "the gains do not shrink" not in t  # beside +457 %, +29 %, +18 % (medians where 2 jobs' runs differ ×2.51)
    assert "+457% by the medians (1 → 2; every run at 2 above every run at 1)" in t
    assert "+29% by the medians (2 → 4; the runs at 2 and 4 overlap), +18% (4 → 8)" in t
    # every gain falls by more than 5 points by the means and the medians: the shrink is read whatever the 2-job
    # point's ×2.51 runs (round 28 MG, median_bend.py)
    assert "every gain below the one before by more than 5 points, by the means and by the medians" in t
    # means 58.71 → 69.26 K (+18 %) while the mean latency went 68 → 115 µs (+69 %) at Little 0.99–1.00
    assert "fio's mean latency grew +69% per doubling (68.1 µs → 115 µs)" in t
    assert "Little's law 0.99–1.00" in t
    assert "towards a limit it has not reached within the data" in t  # (the verdict leads since round 29 OD)
    assert "no ceiling is reached within the data" not in t


def test_xc_counter_steady_gains_not_an_approach():
    # r20 RF: +13, +23, +21, +21, +20 % a doubling at Little 1.00 — latency +67 % a doubling, but nothing bends
    t = _text(HDD_NJ)
    assert "the gains do not shrink step over step" in t
    assert "approaching a limit" not in t and "approaching a ceiling" not in t


def test_xc_rules_on_synthetic_tables():
    x = np.array([1, 2, 4, 8.0])
    assert steps.shrinking(x, [1, 2, 3, 3.5]) is not None
    assert steps.shrinking(x, [1, 1.2, 1.44, 1.728]) is None  # +20 % every step: steady
    assert steps.shrinking(x, [1, 1.5, 2.6, 3.0]) is None  # +50, +73, +15: not every step below the one before
    base = dict(x=x, lat=[100e-6, 100e-6, 110e-6, 180e-6])
    full = pd.DataFrame(dict(base, little=[1.0, 1.0, 0.99, 1.0]))
    assert steps.latency_took(full, 2) is not None  # ×1.64 the latency for ×2 the load at Little 1
    half = pd.DataFrame(dict(base, little=[0.6, 0.6, 0.6, 0.6]))
    assert steps.latency_took(half, 2) is None  # fewer I/Os in flight than asked for: the latency says no wait
    mild = pd.DataFrame(dict(x=x, lat=[100e-6, 100e-6, 110e-6, 140e-6], little=[1.0] * 4))
    assert steps.latency_took(mild, 2) is None  # ×1.27 for ×2: log share 0.35 < LAT_SHARE


# ------------------------------------------------------------------------------------------------ XF
def test_xf_opensearch_bs_nearly_a_byte_limit():
    t = _text(OPENSEARCH)
    assert "the data do not reach a ceiling" not in t
    # 1.236 → 1.490 GB/s over ×8 the size: (1.490/1.236)^(1/3) − 1 = +6.4 %; IOPS 9,430 → 1,421 = ×0.151
    assert "+6.4% per doubling of the size, while IOPS fell ×0.151 for ×8 the size (a byte limit alone gives ×0.125)" in t
    assert "nearly a byte limit, above the largest size's bytes/s; its value is not measured." in t


def test_xf_counters_on_synthetic_steps():
    KiB = 1024.0
    # +15 % a doubling: still rising, no byte limit said
    assert steps.near_byte_limit(128 * KiB, 256 * KiB, 1e9, 1.15e9, 1e9 / 131072, 1.15e9 / 262144) is None
    # IOPS held (a per-I/O bound: bytes/s ∝ size would rise far more; here +6 % bytes with IOPS ×0.53 of ×0.5 cap)
    assert steps.near_byte_limit(4 * KiB, 8 * KiB, 1e8, 1.06e8, 24414, 12939) is not None
    assert steps.near_byte_limit(4 * KiB, 32 * KiB, 1e8, 1.2e8, 24414, 24000) is None  # IOPS flat: not a byte limit
    assert steps.near_byte_limit(4 * KiB, 8 * KiB, 1e8, 0.9e8, 24414, 11000) is None  # a fall is no rise


# ------------------------------------------------------------------------------------------------ XG
def test_xg_p41_libaio_onset_by_qd4():
    r = fit_case_id(P41_LIBAIO)
    t = r.explain()
    assert "saturated from iodepth = 4" in t
    assert "knee lies between" not in t and "between iodepth = 4 and 16" not in t
    assert "had not risen beyond" not in t  # 21.8 µs at QD4 against 29.5 µs at QD1: the latency fell
    # the sibling with the same shape keeps its words
    assert "saturated from iodepth = 4" in _text(P41_URING)


def test_xg_counter_knee_kept_where_latency_flat():
    t = _text(ZNS_NJ)  # r19 TB: 91.1 µs at 6 jobs = the lighter loads' 90.1–90.4 µs, 105 µs at 7
    assert "the knee lies between numjobs = 6 and 7" in t


def test_xg_unqueued_onset_synthetic():
    x = np.array([1, 2, 4, 8, 16.0])
    little = np.ones(5)
    flat = np.array([100e-6, 100e-6, 102e-6, 150e-6, 300e-6])
    assert unqueued_onset(x, flat, little, 2, 4, 0.2) is not None
    fell = flat.copy()
    fell[:2] = [160e-6, 150e-6]  # the lighter loads 150–160 µs, the onset 102 µs: the latency fell into it
    assert unqueued_onset(x, fell, little, 2, 4, 0.2) is None
    # one slow first point further back is what the median absorbs (round 19): the knee stays
    slow_first = np.array([300e-6, 100e-6, 102e-6, 150e-6, 300e-6])
    assert unqueued_onset(x, slow_first, little, 2, 4, 0.2) is not None
