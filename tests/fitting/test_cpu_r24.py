"""Round 24's CPU and shared-time classes (tests/data/explain_corpus/_blind_rounds/round24_hand_read_part1.md BA, BC;
part2.md CA, CB, CE), read before the rules these tests hold were set (docs/fitting.md names them): each rule on the
spent r24 cases that showed it and on counter-cases where it must not fire. The assertions recompute from the case's
table what the words claim.

BA: a mix's shortfall against the harmonic line judged by the means' standard error too (``mix_facts.shortfall_by_se``).
BC: a net engine's CPU level is one end of each transfer (``peer_cpu``). CA: in-thread work without a device and more
jobs at one cost (``in_thread``, ``busy_jobs.SPREAD_GROWTH``). CB: a mean that grew under a flat median
(``p50_flat``). CE: what a mix shares where no device served it (``shared_time``).
"""

from __future__ import annotations

import pathlib

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.busy_jobs import ONE_COST, SPREAD_GROWTH, SPREAD_GROWTH_AWAKE, spread
from nvmemodel.fitting.evidence import Z
from nvmemodel.fitting.in_thread import CTX_PER_IO
from nvmemodel.fitting.mix_facts import shortfall_by_se
from nvmemodel.fitting.p50_flat import MEAN_GROWN, median_flat

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "explain_corpus"
RAND = "r24_fiorbd2016_ceph-librbd_4k-rand_qd16_readshare_repeats"
SEQ = "r24_fiorbd2016_ceph-librbd_4k-seq_qd16_readshare_repeats"
OLDFIO = "r13_here-oldfio_fio313-jsonplus_loop_libaio_randrw_qd4_readshare_repeats"  # stalls: inside the scatter
NETNJ = "r24_here-netnj_tcp-loopback_net_write64k_numjobs_repeats"
ZRAM16 = "r16_here-zram_zram-lzorle_psync_randwrite_numjobs_repeats"  # busy jobs: its own CPU-bound sentence
SPLICENJ = "r24_here-splicenj_tmpfs_splice_randread64k_numjobs_repeats"
ZRAMLZO = "r24_here-zramlzo_zram-lzo-comp50_psync_randread_numjobs_repeats"
ZRAMZERO = "r24_here-zramzero_zram-lz4-same-filled_psync_zero-randwrite_numjobs_repeats"
MEMCGMMAP = "r24_here-memcgmmap_loop-memcg32m_mmap_randread_numjobs_repeats"  # slept per read (ctx ≈ 1)
POSIXAIO = "r24_here-posixaio_loop_posixaio_randread_qd8_numjobs_repeats"  # glibc's threads: nothing either way
ZRAMURING = "r24_here-zramuring_zram-lz4-comp50_iouring_randread_iodepth_repeats"  # io-wq worker: uncounted
SPLICERW = "r24_here-splicerw_tmpfs_splice_randrw64k_qd1_readshare_repeats"
ZRAMRW = "r23_here-zramlz4_zram-lz4-comp50_psync_randrw_qd1_readshare_repeats"
RWMIXDIO = "r18_here-rwmixdio_loop-dio-on_libaio_randrw_qd8_readshare_repeats"  # a loop device: its time
ERICFAN = "r23_ericfan_nvme-buffered_4k-randrw_qd32_readshare"  # two layers (round 23 ZB)


def _table(case):
    return pd.read_csv(CORPUS / case / "points.csv")


def _runs(case, share):
    """Each run's total IOPS at one read share (both directions' rows summed)."""
    t = _table(case)
    t = t[np.isclose(t["read_fraction"], share)]
    return t.groupby("source_path")["iops"].sum().to_numpy(float)


# BA -------------------------------------------------------------------------------------------------------------


def test_ba_shortfall_recomputed_from_the_runs():
    mix, r, w = _runs(RAND, 0.5), _runs(RAND, 1.0), _runs(RAND, 0.0)
    assert mix.mean() == pytest.approx(444.3, abs=0.5)  # the hand read's mean of five mixes
    sf = shortfall_by_se(0.5, r, w, mix)
    assert sf["line"] == pytest.approx(538.6, abs=1.0)  # the harmonic of the pure means
    # the line's own uncertainty widens the hand read's t = 2.88 (line fixed) to about 2.5: still beyond Z
    assert Z < sf["t"] < 2.88


def test_ba_words_say_the_shortfall_and_each_directions_latency():
    fit = fit_case_id(RAND)
    t = fit.explain()
    assert "no shortfall beyond the runs' own scatter" not in t
    assert "Mixes fall below it, by up to 24%" in t and "a shortfall beyond the runs' scatter" in t
    assert "444 IOPS (5 runs)" in t
    # the reads paid: 12.9–23.4 ms in the mix against 1.86–1.95 ms alone (fio's per-direction rows)
    assert "the reads took 12.9 ms–23.4 ms" in t and "1.86 ms–1.95 ms alone" in t
    mix = [c for c in fit.claims() if c["kind"] == "mix"]
    assert mix and mix[0]["facts"]["below_harmonic"] is True and mix[0]["facts"]["by_se"]["runs"] == 5


def test_ba_counter_seq_within_and_stalled_runs_within():
    t = fit_case_id(SEQ).explain()
    assert "The mixes lie 1% below (within 10%)" in t and "shortfall beyond" not in t
    # r13 oldfio: the stalled runs left out, the rest still reach the line — its in-noise words stay
    assert "no shortfall beyond the runs' own scatter" in fit_case_id(OLDFIO).explain()


def test_ba_synthetic_wide_runs_are_no_shortfall():
    # synthetic: a mix 15 % below the line whose runs spread ±40 %: the standard error swallows it
    rng = np.random.default_rng(24)
    r, w = 1000 + rng.normal(0, 10, 5), 100 + rng.normal(0, 1, 5)
    line = 1 / (0.5 / 1000 + 0.5 / 100)
    wide = line * 0.85 * (1 + np.array([-0.4, -0.2, 0.0, 0.2, 0.4]))
    assert shortfall_by_se(0.5, r, w, wide)["t"] < Z
    tight = line * 0.85 * (1 + np.array([-0.02, -0.01, 0.0, 0.01, 0.02]))
    assert shortfall_by_se(0.5, r, w, tight)["t"] > Z
    assert shortfall_by_se(0.5, r, w, tight[:1]) is None  # one run: no scatter known
    above = line * 1.2 * np.ones(3) + np.array([-1.0, 0.0, 1.0])
    assert shortfall_by_se(0.5, r, w, above)["t"] < 0


# CE -------------------------------------------------------------------------------------------------------------


def test_ce_tmpfs_mix_shares_the_jobs_cpu_time():
    t = fit_case_id(SPLICERW).explain()
    assert "the device's time" not in t
    assert "sharing the job's CPU time, not a device's: no block device served the I/O" in t
    # the costs recomputed: a read 12.3–12.7 µs, a write 15.0–15.2 µs (pure runs; the hand read)
    tb = _table(SPLICERW)
    pure = tb[tb["read_fraction"].isin([0.0, 1.0])]
    cost = (pure["cpu_usr"] + pure["cpu_sys"]) * pure["runtime_s"] * pure["numjobs"] / pure["ios"]
    rd, wr = cost[pure["read_fraction"] == 1.0].median(), cost[pure["read_fraction"] == 0.0].median()
    assert 12.0e-6 < rd < 13.0e-6 and 14.8e-6 < wr < 15.4e-6
    assert "a read 12.6 µs of CPU and a write 15" in t
    assert (tb["ctx"] / tb.groupby("source_path")["ios"].transform("sum")).max() <= CTX_PER_IO


def test_ce_zram_mix_shares_the_jobs_cpu_time():
    t = fit_case_id(ZRAMRW).explain()
    assert "sharing the job's CPU time, not a device's: zram1 (a memory device" in t


def test_ce_counters_keep_device_and_layers():
    assert "little interference beyond sharing the device's time" in fit_case_id(RWMIXDIO).explain()  # loop0
    assert "the pure ends are two layers" in fit_case_id(ERICFAN).explain()


# BC -------------------------------------------------------------------------------------------------------------


def test_bc_net_engine_level_reads_no_core_count():
    t = fit_case_id(NETNJ).explain()
    assert "if this host has about" not in t
    assert "a level 1.02 CPUs" in t and "one end of each transfer" in t
    assert "no core count is read from 1.02 CPUs alone" in t
    # the receivers of the same runs used CPU too (the rows the case's select leaves out): 0.5–0.8 at 8 and 16 pairs
    tb = _table(NETNJ)
    rx = tb[(tb["job_name"] == "rx") & (tb["numjobs"] >= 8)]
    rx_cpus = (rx["cpu_usr"] + rx["cpu_sys"]) * rx["numjobs"]
    assert 0.45 < rx_cpus.min() and rx_cpus.max() < 0.8


def test_bc_counter_other_engines_keep_their_level_words():
    t = fit_case_id(ZRAM16).explain()
    assert "one end of each transfer" not in t and "every job was busy at 2" in t


# CA -------------------------------------------------------------------------------------------------------------


def test_ca_spread_threshold_is_beyond_the_cost_tolerance():
    assert SPREAD_GROWTH_AWAKE == pytest.approx(1 + ONE_COST) and SPREAD_GROWTH == 1.5
    # zramlzo 1 → 2 jobs: 0.955 → 1.333 CPUs at 3.24 → 3.35 µs (the hand read), jobs that never slept
    assert spread(0.955, 1.333, 3.24e-6, 3.35e-6, 294.6e3, 397.8e3, awake=True)
    assert not spread(0.955, 1.333, 3.24e-6, 3.35e-6, 294.6e3, 397.8e3)  # jobs that may have slept: 1.5 stays
    assert not spread(0.955, 1.05, 3.24e-6, 3.35e-6, 294.6e3, 313e3, awake=True)  # 10 % more CPU: the cost's noise
    assert not spread(0.955, 1.9, 3.24e-6, 6.0e-6, 294.6e3, 316e3, awake=True)  # the cost grew: no one cost


def test_ca_counter_jobs_that_slept_keep_lifted():
    # r2 budisc optane libaio QD128: 0.998 → 1.5 CPUs at 2 jobs, each 75 % busy, the jobs slept on the device
    t = fit_case_id("budisc_optane-p4800x_4k-randread_qd128_numjobs").explain()
    assert "more jobs lifted that limit" in t


@pytest.mark.parametrize("case", [SPLICENJ, ZRAMLZO])
def test_ca_no_limit_lifted(case):
    t = fit_case_id(case).explain()
    assert "lifted that limit" not in t
    assert "more jobs spread the work over more CPUs" in t


def test_ca_tmpfs_splice_is_in_thread_at_the_maximum():
    t = fit_case_id(SPLICENJ).explain()
    assert "what held the rate its CPU figures do not show" not in t
    assert "with no block device" in t and "the job never slept per I/O" in t
    tb = _table(SPLICENJ)
    assert (tb["ctx"] / tb["ios"]).max() <= 0.0032  # the hand read's 0.0005–0.0031


def test_ca_zramzero_is_in_thread():
    t = fit_case_id(ZRAMZERO).explain()
    assert "what held the rate its CPU figures do not show" not in t
    assert "on zram1 (a memory device" in t and "1.8 µs–1.86 µs" in t
    tb = _table(ZRAMZERO)
    cost = (tb["cpu_usr"] + tb["cpu_sys"]) * tb["runtime_s"] * tb["numjobs"] / tb["ios"]
    assert cost.min() > 1.79e-6 and cost.max() < 1.87e-6  # all 12 runs 1.80–1.86 µs


def test_ca_counters_jobs_that_slept_or_worked_elsewhere():
    tb = _table(MEMCGMMAP)
    assert (tb["ctx"] / tb["ios"]).min() > 0.9  # every read slept
    t = fit_case_id(MEMCGMMAP).explain()  # since round 26 (FB) what its switches show is said: a sleep per read
    assert "slept for its I/Os" in t and "CPU-bound on a shared CPU" not in t
    assert "says nothing of a CPU limit either way" in fit_case_id(POSIXAIO).explain()
    assert "what held the rate its CPU figures do not show" in fit_case_id(ZRAMURING).explain()


# CB -------------------------------------------------------------------------------------------------------------


def test_cb_flat_median_is_no_queue():
    for case in (ZRAMLZO, ZRAMZERO, SPLICENJ):
        t = fit_case_id(case).explain()
        assert "added load queued" not in t, case
        assert "fio's median latency did not grow" in t
    t = fit_case_id(ZRAMLZO).explain()
    assert "3 µs–3.08 µs at every point" in t


def test_cb_counter_growing_median_keeps_queued():
    # memcgmmap: p50 24 → 44 µs, the median grew with the mean — "queued" stays (its word by the share that waited,
    # round 30 RH: +26 % a doubling, 74 % waited: "most")
    assert "most of the added load queued: 74% of it waited" in fit_case_id(MEMCGMMAP).explain()
    p = pd.DataFrame({"p50": [10e-6, 11e-6, 14e-6, 20e-6], "lat": [12e-6, 15e-6, 22e-6, 40e-6]})
    assert median_flat(p) is None  # synthetic: the median doubled
    p = pd.DataFrame({"p50": [10e-6, 10e-6, 11e-6, 10e-6], "lat": [12e-6, 15e-6, 18e-6, 20e-6]})
    assert median_flat(p) is None  # synthetic: the mean grew under MEAN_GROWN
    p["lat"] = [12e-6, 15e-6, 22e-6, 12e-6 * MEAN_GROWN * 1.1]
    assert median_flat(p) is not None
