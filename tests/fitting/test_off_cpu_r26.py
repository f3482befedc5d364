"""Round 26's CPU classes FB, FC and FD (``_blind_rounds/round26_hand_read.md``):

- FB: a job below 90 % of one CPU with nothing else to explain its rate was told "what held the rate its CPU figures
  do not show" where its figures show most of it: its share of its time on a CPU, and what its context switches say
  of the rest — about one an I/O: it slept per I/O (a wait for its I/O, or once woken for a CPU); almost none under a
  synchronous engine: runnable, waiting for a CPU — and, at the lightest load, the CPU inside a synchronous call
  against the call's own latency (``off_cpu``).
- FC: ``in_thread`` refused a job with nothing beneath that never slept per I/O because its runs' cost varied or its
  faster run had no more CPU; it is CPU-bound on a shared CPU whatever its cost did.
- FD: a buffered sentence named loop0 "the device beneath" without saying it is a loop device over an image file.

Round 26 is spent. Counters: jobs that slept per I/O on a real device (their words must not become CPU-bound), a job
whose switches are neither (the old words stay), a memory device whose faster run had more CPU, the null engine, and a
core count given by a topology.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.in_thread import CTX_PER_IO, CTX_PER_S
from nvmemodel.fitting.off_cpu import IN_CALL, SLEPT_PER_IO
from nvmemodel.ingest.context_switches import run_switches
from tests.fitting.corpus_score import CORPUS, fit_case_id, fit_kwargs, load_case, load_table

pytestmark = pytest.mark.filterwarnings("ignore")

OPENFILES = "r26_here-openfiles1_tmpfs-64files_psync_randread4k_openfiles1_numjobs_repeats"
SQUASHFS = "r26_here-squashfs_squashfs-gzip-on-loop-memcg32m_psync_randread4k_numjobs_repeats"
REFILL = "r26_here-refill_loop-tmpfs_psync_seqwrite_refill-buffers_bs_repeats"
ZRAMINCOMP = "r26_here-zramincomp_zram-lz4-incompressible_psync_randwrite4k_numjobs_repeats"
MEMCGMMAP = "r24_here-memcgmmap_loop-memcg32m_mmap_randread_numjobs_repeats"
CPUSPLIT = "r23_here-cpusplit_loop_libaio_cpus-split_randread_qd4_numjobs_repeats"
UNKNOWN = "what held the rate its CPU figures do not show"


def _cpu(fit) -> str:
    return " ".join(c["text"] for c in fit.claims() if c["kind"] == "cpu")


def _table(case_id):
    d = CORPUS / case_id
    return load_table(d, load_case(d))


# --- FB ---------------------------------------------------------------------------------------------------------

def test_fb_squashfs_slept_per_read_and_its_cpu_is_in_the_call():
    t = _cpu(fit_case_id(SQUASHFS))
    assert UNKNOWN not in t
    assert "each job was on a CPU 15%–17% of its time there (its 3 runs' usr+sys per job)" in t
    assert "slept for its I/Os (0.92–1.03 context switches an I/O in every run, 359–2,537 a second a job)" in t
    assert "the rest of its time was a wait for its I/O, or, once woken, for a CPU" in t
    assert ("at numjobs = 1 its CPU per I/O (299 µs–306 µs) less its time outside the call was 0.41–0.78 of the I/O's "
            "own mean latency (382 µs–736 µs; fio's latency of a synchronous psync call covers its kernel work): at "
            "least that share of each I/O was CPU work inside its call") in t
    assert "most of each I/O" not in t  # (one run at 0.41: not "most")
    assert "CPU-bound" not in t  # it slept per read: no CPU-bound reading
    assert "no CPU-saturation claim for the host" in t


def test_fb_squashfs_figures_from_the_runs():
    """The numbers the sentence gives, from the runs themselves: switches per read, CPU per read and its share of
    the mean latency at 1 job (a lower bound: CPU per read less the time outside the call)."""
    tb = _table(SQUASHFS)
    sw = run_switches(tb)
    assert sw["per_io"].min() == pytest.approx(0.924, abs=0.001) and sw["per_io"].max() == pytest.approx(1.030, abs=0.001)
    assert (sw["per_io"] >= SLEPT_PER_IO).all() and (sw["per_job_s"] > CTX_PER_S).all()
    one = tb[tb["numjobs"] == 1]
    cost = (one["cpu_usr"] + one["cpu_sys"]) * one["runtime_s"] / one["ios"]
    outside = np.clip(1 / one["iops"] - one["lat_mean_s"], 0, None)
    share = (cost - outside) / one["lat_mean_s"]
    assert share.min() == pytest.approx(0.41, abs=0.005) and share.max() == pytest.approx(0.78, abs=0.005)
    assert share.median() >= IN_CALL


def test_fb_refill_slept_per_write_no_in_call_reading():
    """refill: one psync job on loop0, its CPU 20–40 % of its time at 4 KiB, one switch a write; its CPU inside the
    call at 4 KiB is at most 0.16–0.35 of a write's latency (its refill work lies between writes): no in-call words."""
    t = _cpu(fit_case_id(REFILL))
    assert UNKNOWN not in t
    assert "the job was on a CPU 20%–40% of its time there" in t
    assert "slept for its I/Os (1.00–1.04 context switches an I/O in every run" in t
    assert "inside its call" not in t and "CPU-bound" not in t


def _on_sda(direction: str = "read"):
    """A labelled synthetic table: r26 openfiles1's runs (psync, buffered, jobs that never slept) as if their files lay
    on sda with no request reaching it (page-cache hits), optionally as writes: in_thread does not read them (a real
    device), so the last branch of the CPU sentence does."""
    import nvmemodel as nm

    d = CORPUS / OPENFILES
    case = load_case(d)
    t = load_table(d, case).copy()
    t["devices"], t["device_count"], t["disk_read_ios"], t["disk_write_ios"] = "sda", 1, 0, 0
    t["disk_util_pct"], t["target_names"] = 0.0, "/mnt/data/of"
    if direction == "write":
        t["direction"], t["pattern"], t["read_fraction"] = "write", "randwrite", 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(t, **fit_kwargs(case))


def test_fb_never_slept_on_a_device_is_runnable_synthetic():
    t = _cpu(_on_sda())
    assert UNKNOWN not in t and "CPU-bound on a shared CPU" not in t  # (not in_thread's: a device is named)
    assert "each job was on a CPU 32%–33% of its time there (its 3 runs' usr+sys per job)" in t
    assert "never slept per I/O (at most 0.00099 context switches an I/O in every run" in t
    assert "the rest of its time it was runnable, waiting for a CPU" in t
    assert "wait for its I/O" not in t and "device" not in t.split("no CPU-saturation")[0]


def test_fb_counter_buffered_writes_onto_a_device_not_runnable_synthetic():
    """The same runs as buffered writes onto sda: the kernel may hold such a writer in a few long sleeps (dirty-page
    throttling), so almost no switches prove no sleep per I/O: the counts are said and the old words stay."""
    t = _cpu(_on_sda("write"))
    assert "runnable" not in t and "never slept" not in t
    assert "it switched at most 0.00099 times an I/O in every run, but the kernel may hold buffered writes" in t
    assert UNKNOWN in t


# --- FC ---------------------------------------------------------------------------------------------------------

def test_fc_openfiles1_cpu_bound_on_a_shared_cpu_with_a_cost_range():
    t = _cpu(fit_case_id(OPENFILES))
    assert UNKNOWN not in t
    assert "with no block device (fio's disk statistics name none: the pages were in memory)" in t
    assert "CPU-bound on a shared CPU" in t
    assert "each I/O cost 2.51 µs–3.38 µs of each job's CPU (usr+sys, in all 12 runs)" in t
    assert "each run's rate is its share ÷ its cost" in t and "that share ÷ that cost" not in t
    assert ("at numjobs = 8 its faster run had the cheaper I/Os, not more CPU (602.28 K IOPS at 2.64 µs an I/O and "
            "0.199 of a CPU, 477.30 K IOPS at 3.32 µs and 0.198)") in t
    assert "its runs with more CPU ran faster" not in t


def test_fc_openfiles1_runs_never_slept():
    tb = _table(OPENFILES)
    sw = run_switches(tb)
    assert (sw["per_io"] <= CTX_PER_IO).all() and sw["per_io"].max() < 0.001
    assert (tb[["disk_read_ios", "disk_write_ios"]].fillna(0).to_numpy() == 0).all()


def test_fc_counter_zram_faster_run_had_more_cpu():
    """Counter: zram at one cost (6.12–6.64 µs, within ±10 %): the faster run had more CPU, said as before."""
    t = _cpu(fit_case_id(ZRAMINCOMP))
    assert "its runs with more CPU ran faster (101.72 K IOPS at 0.637 of a CPU, 81.83 K IOPS at 0.519)" in t
    assert "so the rate is that share ÷ that cost" in t and "cheaper" not in t


# --- FD ---------------------------------------------------------------------------------------------------------

def test_fd_loop_device_beneath_said_as_a_loop_device():
    t = fit_case_id(SQUASHFS).explain()
    assert ("the device beneath, a loop device (an image file: its I/O may be served by the page cache of the host or "
            "VM), served reads in every run") in t


# --- counters ---------------------------------------------------------------------------------------------------

def test_counter_mmap_on_loop_slept_per_read_not_cpu_bound():
    """r24 memcgmmap: mmap reads through loop0 in a 32 MiB memcg slept once a read: a wait, never CPU-bound, and no
    "inside its call" for mmap (its I/O is a memory copy, not a call)."""
    t = _cpu(fit_case_id(MEMCGMMAP))
    assert "slept for its I/Os" in t
    assert "CPU-bound" not in t and "never slept" not in t and "inside its call" not in t


def test_counter_loop_batching_keeps_the_old_words():
    """r23 cpusplit: libaio on loop0 at 0.15–0.31 switches a read is neither reading: an asynchronous engine's
    switches count no wait per I/O, the old words stay, and the pinned CPUs' share is still said."""
    t = _cpu(fit_case_id(CPUSPLIT))
    assert UNKNOWN in t and "an asynchronous engine sleeps once for many I/Os (0.15–0.31 context switches an I/O" in t
    assert "slept for its" not in t and "never slept" not in t
    assert "of the 2 CPUs fio's jobs were pinned to (cpus_allowed=0-1)" in t


@pytest.mark.parametrize("case", ["here_null_numjobs", "r4_here_null_numjobs_repeats"])
def test_counter_null_engine(case):
    t = _cpu(fit_case_id(case))
    assert "null engine does no I/O" in t
    assert "of its time there" not in t and "slept" not in t


def test_counter_core_count_given():
    """With a topology's core count the host clause is the cores' share, the job's own words stay the job's."""
    import nvmemodel as nm

    d = CORPUS / SQUASHFS
    case = load_case(d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = nm.fit(load_table(d, case), **fit_kwargs(case), topology=nm.preset("dell-r7525"))
    t = _cpu(fit)
    assert "slept for its I/Os" in t
    assert "of the 128 cores assumed for this host" in t
    assert "needs its core count" not in t


def test_counter_one_switch_an_io_at_tick_rates_is_no_sleep():
    """r11 trim on loop0: 1.00–1.01 switches a trim in every run, but its slowest runs switched 219 and 322 times a
    second, no more than the scheduler's ticks may give a job: no sleep per I/O is read."""
    t = _cpu(fit_case_id("r11_here-trim_loop_psync_randtrim_bs_repeats"))
    assert "it switched 1.00–1.01 times an I/O in every run, but 219 a second in its slowest run" in t
    assert "slept for its" not in t and UNKNOWN in t


def test_counter_one_file_of_many_points_gives_no_share():
    """r8 usbflash: one fio JSON holds every point's job: no per-run share or count (its share would read 119 %)."""
    t = _cpu(fit_case_id("r8_whitepau_usbflash_4k-seqwrite_qd"))
    assert "of its time there" not in t and UNKNOWN in t


def test_fc_counter_runs_within_tolerance_say_nothing_of_cheaper():
    """r24 zramzero: 796 K and 774 K (2.8 % apart, inside RUN_COST_TOL) at one cost: no faster-run clause."""
    t = _cpu(fit_case_id("r24_here-zramzero_zram-lz4-same-filled_psync_zero-randwrite_numjobs_repeats"))
    assert "CPU-bound on a shared CPU" in t and "cheaper" not in t and "ran faster" not in t


def test_counter_writes_onto_device_rule():
    from nvmemodel.fitting.off_cpu import _writes_onto_device

    rows = pd.DataFrame({"direction": ["write"], "devices": ["sda"]})
    assert _writes_onto_device(rows, {"buffered": True})
    assert not _writes_onto_device(rows, {"buffered": False})
    assert not _writes_onto_device(rows.assign(direction="read"), {"buffered": True})
