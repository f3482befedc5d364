"""Round 23's buffered-I/O classes (tests/data/explain_corpus/_blind_rounds/round23_hand_read_part1.md ZA, ZF), read
before the rules these tests hold were set (docs/fitting.md names them): each rule on the spent r23 cases that showed
it and on counter-cases where it must not fire. The assertions recompute from the case's table what the words claim.

ZA: buffered libaio whose I/O completed inside io_submit (slat × a job's IOPS ≥ SUBMIT_SHARE) is one I/O at a time per
job (:mod:`nvmemodel.fitting.submit_inline`). ZF: buffered reads without ctx, faster than MEMORY_LATENCY with the job
≥ 90 % on CPU, were served from memory (:func:`nvmemodel.fitting.buffered._memory_latency`).
"""

from __future__ import annotations

import pathlib

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.buffered import JOB_BUSY, MEMORY_LATENCY, buffered_fact
from nvmemodel.fitting.curves import measured_points, one_in_flight
from nvmemodel.fitting.submit_inline import SUBMIT_SHARE

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "explain_corpus"
E_QD = "r23_ericfan_nvme-buffered_4k-randread_libaio_qd"
E_BS = "r23_ericfan_nvme-buffered_randread_qd32_bs"
E_W = "r23_ericfan_nvme-buffered-pagecache_4k-randwrite_libaio_qd"  # buffered writes: slat × IOPS ≈ 0.5
J2 = "r23_j2pcnotes_devtmpfs-file-not-nvme_4k-read_sync-buffered_iodepth"
NERDST = "r20_nerdst_nvme-p7_4k-randread_qd"  # direct=1 libaio along iodepth: I/O in flight at the device
GB10 = "r23_gb10gate0_esl01tb-nvme_1712k-read_iouring_qd"  # direct io_uring along iodepth


def _table(case):
    return pd.read_csv(CORPUS / case / "points.csv")


def _share(case):
    t = _table(case)
    return (t["slat_mean_s"] * t["iops"] / t["numjobs"].fillna(1)).to_numpy(float)


def test_za_share_recomputed_and_above_threshold():
    # the hand read: 0.965–0.966 at every iodepth; 0.904–0.966 along bs
    assert np.allclose(_share(E_QD), 0.966, atol=0.002)
    assert (_share(E_BS) >= SUBMIT_SHARE).all()
    pts = measured_points(_table(E_QD), x="iodepth", y="iops")
    flight = one_in_flight(pts)
    assert flight is not None and flight["engine"] == "" and flight["inline"] == pytest.approx(0.965, abs=0.002)


def test_za_randread_qd_words():
    text = fit_case_id(E_QD).explain()
    assert "The limit is reached at or below the smallest load measured, 16 I/Os outstanding" not in text
    assert "consistent (fio kept the I/O asked for outstanding)" not in text
    assert "iodepth had no effect: each I/O completed inside its submission call" in text
    assert "one I/O at a time at the device whatever iodepth says" in text
    assert "consistent as fio's bookkeeping" in text
    # slat and the per-I/O time said are the table's: 97.5 µs of 101 µs
    t = _table(E_QD)
    slat_us, cycle_us = t["slat_mean_s"].mean() * 1e6, (1 / t["iops"]).mean() * 1e6
    assert f"fio's slat {slat_us:.1f} µs of a {cycle_us:.0f} µs cycle" in text


def test_za_bs_fit_intercept_not_a_deeper_queue():
    text = fit_case_id(E_BS).explain()
    assert "a deeper queue may raise it" not in text
    assert "an IOPS ceiling of" not in text
    assert "10.70 K IOPS at small blocks as 1 ÷ that fixed time" in text
    assert "a deeper queue is not more I/O at the device" in text


@pytest.mark.parametrize("case", [E_W, NERDST, GB10])
def test_za_counter_cases_do_not_fire(case):
    t = _table(case)
    pts = measured_points(t, x="iodepth", y="iops" if case != GB10 else "bytes_per_s")
    assert one_in_flight(pts) is None
    text = fit_case_id(case).explain()
    assert "completed inside its submission call" not in text


def test_za_direct_one_with_high_share_does_not_fire():
    # synthetic: a CPU-bound direct=1 libaio job, slat 1.5 µs × 600 K IOPS = 0.9 — its I/O still in flight at the device
    t = _table(E_QD).assign(direct=1, slat_mean_s=1.5e-6, iops=600e3)
    assert one_in_flight(measured_points(t, x="iodepth", y="iops")) is None


def test_za_share_just_below_threshold_does_not_fire():
    # synthetic: the same buffered runs with slat cut so that slat × IOPS = 0.7 < SUBMIT_SHARE
    t = _table(E_QD)
    t = t.assign(slat_mean_s=0.7 / t["iops"])
    assert one_in_flight(measured_points(t, x="iodepth", y="iops")) is None


def test_zf_memory_latency_words():
    t = _table(J2)
    f = buffered_fact(t)
    assert f["served"] == "memory" and f["ctx"]["lat_lo"] == pytest.approx(1.31e-6)
    assert f["ctx"]["lat_hi"] < MEMORY_LATENCY and f["ctx"]["cpu_lo"] >= JOB_BUSY
    text = fit_case_id(J2).explain()
    assert "is unknown here; a limit below may be either's" not in text
    assert "memory (the page cache or a RAM file system) served the reads" in text
    assert "a read took 1.31 µs–1.72 µs" in text  # 1.31 µs measured; 1 ÷ 580.1 K IOPS where no latency is given


def test_zf_counter_device_range_latency_or_idle_job():
    t = _table(J2)
    # synthetic: the same runs at a device's read time (100 µs, the ericfan drive's): unknown stays
    slow = t.assign(lat_mean_s=100e-6, clat_mean_s=100e-6, iops=9.9e3)
    assert buffered_fact(slow)["served"] == "unknown"
    # synthetic: fast reads but a job that waited (50 % of a CPU)
    idle = t.assign(cpu_usr=0.1, cpu_sys=0.4)
    assert buffered_fact(idle)["served"] == "unknown"
    # the ericfan randread series (buffered, 100 µs, device reads = fio reads) is not called memory
    e = buffered_fact(_table(E_QD))
    assert e["served"] != "memory"


# ZB: buffered writes counted against the device's write requests; a mix of two layers (write_cache)
from nvmemodel.fitting.write_cache import READS_REACHED, WRITES_HELD, device_writes  # noqa: E402

E_RW = "r23_ericfan_nvme-buffered_4k-randrw_qd32_readshare"
OSYNC = "r11_here-osync_loop_psync_randwrite_numjobs_repeats"  # O_SYNC writes: each reached loop0
DIO_MIX = "r18_here-rwmixdio_loop-dio-on_libaio_randrw_qd8_readshare_repeats"  # direct=1 mix
AIALRA_MIX = "aialra0_nvme_4k-randrw_qd32_readshare_repeats"  # a drive's mix


def test_zb_write_counts_recomputed():
    t = _table(E_W)
    ratio = (t["disk_write_ios"] / t["ios"]).to_numpy(float)
    w = device_writes(t)
    assert w is not None and w["lo"] == pytest.approx(ratio.min()) and w["hi"] == pytest.approx(ratio.max())
    assert ratio.max() <= WRITES_HELD and ratio.min() == pytest.approx(0.0118, abs=0.0005)


def test_zb_randwrite_names_the_page_cache():
    r = fit_case_id(E_W)
    text = r.explain()
    assert "0.012–0.035 write requests on nvme0n1 per fio write" in text
    assert "the page cache took the writes — at least 96 % of them" in text
    layers = [c for c in r.claims() if c["kind"] == "layer"] if isinstance(r.claims()[0], dict) else \
        [c for c in r.claims() if c.kind == "layer"]
    assert layers


def test_zb_mix_shares_the_jobs_time():
    text = fit_case_id(E_RW).explain()
    assert "sharing the device's time" not in text
    assert "the threads fio does not count would tell" not in text
    assert "sharing the one job's time, not the device's" in text
    t = _table(E_RW)
    pure_r = t[t["read_fraction"] == 1].iloc[0]
    assert pure_r["disk_read_ios"] / pure_r["ios"] >= READS_REACHED
    assert f"({pure_r['disk_read_ios'] / pure_r['ios']:.3f} read requests per fio read)" in text
    assert "the CPU per I/O is the layers' cost" in text


def test_zb_counter_sequential_or_per_write_requests():
    # synthetic: the same writes, sequential: write-back merges them, the count is not read
    assert device_writes(_table(E_W).assign(pattern="write")) is None
    # synthetic: one device request per write (direct or O_SYNC-like): not taken by the page cache
    t = _table(E_W)
    assert device_writes(t.assign(disk_write_ios=t["ios"])) is None


@pytest.mark.parametrize("case", [DIO_MIX, AIALRA_MIX])
def test_zb_counter_direct_mixes_keep_the_device(case):
    text = fit_case_id(case).explain()
    assert "the one job's time" not in text
    assert "page cache took the writes" not in text


def test_zb_counter_osync_writes_not_page_cache():
    text = fit_case_id(OSYNC).explain()
    assert "page cache took the writes" not in text


def test_zb_counter_uncounted_device():
    # r19_lsvdrbd: nvme1n3 (NVMe-oF) counted 0 writes for every run: no count, not the page cache (19 ms writes)
    case = "r19_lsvdrbd_nvmetcp-spdk-rbd-3ssd_4k-randwrite_iouring_qd"
    assert device_writes(_table(case)) is None
    assert "page cache took the writes" not in fit_case_id(case).explain()


def test_za_counter_queue_full_wait():
    # r5_jxsheng nvme-tcp: direct=1 (the job file; no direct column in the table) libaio, 8 jobs × QD128 = 1024
    # outstanding: slat × IOPS 0.90–0.93 is a wait for a free tag with the queue full, I/O in flight at the device
    case = "r5_jxsheng_nvmetcp_4k-randrw_8jobs_readshare"
    t = _table(case)
    share = (t.groupby("source_path").apply(lambda g: (g["slat_mean_s"] * g["iops"]).sum() / g["numjobs"].iloc[0]))
    assert (share >= SUBMIT_SHARE).all()  # the share alone would fire
    text = fit_case_id(case).explain()
    assert "completed inside its submission call" not in text
    assert "consistent (fio kept the I/O asked for outstanding)" in text
