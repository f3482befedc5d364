"""Round 28's CPU classes (``_blind_rounds/round28_hand_read_part4.md`` MB, MC, MH, MI; ``_part1.md`` JC), on the
spent r28 cases measured here and seeded, labelled synthetic counter-cases:

- MB: jobs that never slept, on no device, at one CPU cost per I/O and below 90 % of a CPU each: CPU-bound at the CPU
  they could get (the level by run), never "no ceiling is reached".
- MC: a synchronous job's time neither in its call nor on its CPU (≥ 25 %): it waited to run (or flushed), the I/Os'
  latency did not set the rate; a latency tail's "of the N outstanding" says how many were in flight.
- MH: libaio switches at one per iodepth I/Os: one sleep per reap, it waited on its I/O.
- MI: a model limit one run exceeds is not "above every measurement".
- JC: Little's fraction 0.6–0.8 is "below 1", not "far below"; the generic causes only those the options allow.
"""

import numpy as np
import pandas as pd

import nvmemodel as nm
from tests.fitting import corpus_score as cs

OVERLAY = "r28_here-overlaycopyup_overlayfs-tmpfs-256mfile-per-job-fresh-per-run_psync_randwrite4k_numjobs_repeats"
BTRFS = ("r28_here-btrfszstd_btrfs-compress-force-zstd3-on-loop-tmpfs_psync-buffered-endfsync_seqwrite128k-"
         "compress50_numjobs_repeats")
VDAWRITE = "r28_here-vdawrite_vda-ext4-512mfile_libaio-direct_randwrite4k_iodepth_repeats"
VDANUMJOBS = "r28_here-vdanumjobs_vda-ext4-512mfile_psync-direct_randread4k_numjobs_repeats"
VDAFSYNC = "r28_here-vdafsync_vda-ext4-32mfile-per-job_psync-buffered-fsync1_randwrite4k_numjobs_repeats"
SPDK_READ = "r28_spdk517_optane-p4800x-libaio_4k-randread_qd32_numjobs"
FILESTAT = "r27_here-filestat_tmpfs-64files_filestat-stat_numjobs_repeats"
LOCKFILE = "r27_here-lockfile_tmpfs-1file_psync-lockfile-exclusive_randread4k_numjobs_repeats"


def _texts(res, kind) -> list[str]:
    return [c["text"] for c in res.claims() if c["kind"] == kind]


def _fit(case_id, split):
    return cs.fit_case_id(case_id, split)


# --- MB -------------------------------------------------------------------------------------------------------------

def test_mb_cpu_starved_jobs_are_saturated_on_the_cpu_they_got():
    """r28 overlaycopyup: four psync jobs, ≤ 0.0006 switches a write, no device, 2.01–2.17 µs a write in every run,
    each job 40–49 % of a CPU at 4 jobs: round 28 read 'near saturation … the level is not read' and 'no ceiling is
    reached within the data' (misleading, MB)."""
    res = _fit(OVERLAY, "blind28")
    sat, = _texts(res, "saturation")
    assert "the level is not read" not in sat, sat
    assert "for a CPU, not at a device" in sat and "from numjobs = 2" in sat, sat
    assert "667.85 K IOPS–921.50 K IOPS by run at 1.37–1.98 CPUs" in sat, sat
    model, = _texts(res, "model")
    assert "no ceiling is reached" not in model and "held by the CPUs they could get" in model, model
    cpu = " ".join(_texts(res, "cpu"))
    assert "runnable, waiting for a CPU" in cpu and "all 9 runs within ±4% of 2.09 µs" in cpu, cpu
    assert "needs its core count" not in cpu, cpu


def _starved_table(ctx_per_io=0.0005, *, costs=(2e-6, 2e-6, 2e-6), cpus=(0.99, 1.4, 1.8), **cols):
    """SYNTHETIC (seeded): numjobs 1, 2, 4 of a buffered psync write on tmpfs (no device), the jobs' summed CPU
    ``cpus`` (so 99 %, 70 %, 45 % a job), each run's rate its CPUs ÷ its point's cost, ±1 % noise."""
    rng = np.random.default_rng(28)
    rows = []
    for nj, total, cost in zip((1, 2, 4), cpus, costs):
        for r in range(3):
            c = total * (1 + 0.01 * rng.standard_normal())
            iops = c / cost
            rows.append({"source_path": f"synthetic/nj{nj}_r{r}.json", "numjobs": nj, "iodepth": 1,
                         "direction": "write", "ioengine": "psync", "direct": 0, "block_size_bytes": 4096,
                         "iops": iops, "runtime_s": 5.0, "ios": iops * 5.0, "ctx": iops * 5.0 * ctx_per_io,
                         "cpu_usr": 0.2 * c / nj, "cpu_sys": 0.8 * c / nj, "lat_mean_s": 0.9 * nj / iops,
                         "target_names": "/dev/shm/f", "devices": "", **cols})
    return pd.DataFrame(rows)


def test_mb_synthetic_fires_and_its_counter_cases_do_not():
    """SYNTHETIC: the starved reading fires on the seeded table; not where each job sleeps once an I/O (it waited on
    something), not where the cost per I/O grows with the load (+20 % a doubling: contention, not starvation), not
    where each job keeps ≥ 90 % of a CPU (no starvation), not with a lock file serialising the jobs."""
    from nvmemodel.fitting.cpu_starved import cpu_starved
    from nvmemodel.fitting.facts import curve_facts

    def starved(tbl):
        res = nm.fit(tbl, x="numjobs", y="iops")
        return cpu_starved(res, curve_facts(res, ()))

    h = starved(_starved_table())
    assert h is not None and h["x"] == 2 and abs(h["cost"] / 2e-6 - 1) < 0.03, h
    assert starved(_starved_table(1.0)) is None
    assert starved(_starved_table(costs=(2e-6, 2.4e-6, 2.9e-6))) is None
    assert starved(_starved_table(cpus=(0.99, 1.9, 3.7))) is None
    assert starved(_starved_table(serial_options="lockfile=exclusive")) is None


def test_mb_counter_cases_spent():
    """vdanumjobs (one switch a read, 3.7 % a job: waiting on vda), r27 filestat (its own in-thread level), r27
    lockfile (a lock serialises the jobs): no CPU-starved words."""
    for case, split in ((VDANUMJOBS, "blind28"), (FILESTAT, "blind27"), (LOCKFILE, "blind27")):
        text = _fit(case, split).explain()
        assert "for a CPU, not at a device" not in text and "CPU-bound at the CPU the jobs got" not in text, case


# --- MC -------------------------------------------------------------------------------------------------------------

def test_mc_sync_job_time_outside_its_call_read():
    """r28 btrfszstd: psync, in a write 26–33 % and on its CPU 20–24 % of its time at 2 jobs: round 28 read 'what held
    the rate its CPU figures do not show' and 'of the 4 outstanding' (misleading, MC)."""
    res = _fit(BTRFS, "blind28")
    cpu = " ".join(_texts(res, "cpu"))
    assert "its CPU figures do not show" not in cpu, cpu
    assert "inside its I/O call 26 %–33 % of its time" in cpu and "at least 44 %–54 % of its time was neither" in cpu, cpu
    sat, = _texts(res, "saturation")
    assert "of the 4 outstanding" not in sat and "of the 4 asked for, of which" in sat, sat
    assert "only 0.79 in flight" in sat, sat


def test_mc_counter_budget_closed_or_async():
    """vdafsync (write + fsync 0.98–0.99 of the time), vdanumjobs (0.99–1.00 in the read), overlaycopyup (0.91 in the
    write plus fio's own CPU), vdawrite (libaio: in flight is not in the call): no budget words."""
    for case in (VDAFSYNC, VDANUMJOBS, OVERLAY, VDAWRITE):
        text = _fit(case, "blind28").explain()
        assert "of its time was neither" not in text, case


def test_mc_counter_synthetic_thinktime():
    """SYNTHETIC: a psync table whose jobs sit 30 % in the call and 20 % on a CPU — read; the same with thinktime set
    — not (the job's own pause, not a wait to run)."""
    from nvmemodel.fitting.sync_budget import sync_budget

    rows = pd.DataFrame([{"source_path": "s/a.json", "numjobs": 1, "ioengine": "psync", "format": "fio-json",
                          "ios": 10000.0, "lat_mean_s": 0.3 * 5.0 / 10000, "runtime_s": 5.0, "cpu_usr": 0.05,
                          "cpu_sys": 0.15, "direction": "write"}])
    b = sync_budget(rows)
    assert b is not None and abs(b["left"][0] - 0.5) < 1e-9
    assert sync_budget(rows.assign(thinktime_s=0.001)) is None
    assert sync_budget(rows.assign(ioengine="libaio")) is None
    assert sync_budget(rows.assign(cpu_sys=0.5)) is None  # 0.3 + 0.55: 0.15 left, under a quarter


# --- MH -------------------------------------------------------------------------------------------------------------

def test_mh_libaio_one_switch_per_reap():
    """r28 vdawrite: libaio, 1.00, 0.50 … 0.034 switches a write at iodepth 1 … 32 (× iodepth 1.00–1.15 in 17 of 18
    runs): round 28 read 'its switches do not say what it waited for' (mild, MH)."""
    cpu = " ".join(_texts(_fit(VDAWRITE, "blind28"), "cpu"))
    assert "do not say what it waited for" not in cpu, cpu
    assert "slept once per reap of its queue — it waited on its I/O" in cpu, cpu
    assert "in 17 of its 18 runs (switches an I/O × iodepth 1.00–1.15)" in cpu, cpu
    assert "1 run switched up to ×5.7" in cpu and "146.29 K IOPS–185.29 K IOPS" in cpu, cpu


def test_mh_counter_batched_polled_sync():
    """SYNTHETIC: batched reaping (iodepth_batch_complete 8), polled completions (hipri), sqthread_poll, a synchronous
    engine, one outstanding at every point, and switches far above one a reap: no reap reading."""
    from nvmemodel.fitting.reap_sleep import reap_sleep
    from nvmemodel.ingest.context_switches import run_switches

    def tbl(per_reap=1.0, depths=(1, 4, 16), **cols):
        rows = []
        for d in depths:
            for r in range(3):
                ios = 100000.0
                rows.append({"source_path": f"s/qd{d}_r{r}.json", "iodepth": d, "numjobs": 1, "ios": ios,
                             "ctx": ios / d * per_reap, "ioengine": "libaio", "direction": "read",
                             "runtime_s": 5.0, **cols})
        return pd.DataFrame(rows)

    def reap(t):
        return reap_sleep(t, run_switches(t))

    assert reap(tbl()) is not None
    for t in (tbl(iodepth_batch_complete=8), tbl(hipri=1), tbl(sqthread_poll=1), tbl(ioengine="psync"),
              tbl(depths=(1, 1, 1)), tbl(per_reap=3.0), tbl(per_reap=0.3)):
        assert reap(t) is None


# --- MI -------------------------------------------------------------------------------------------------------------

def test_mi_limit_below_a_run_is_not_above_every_measurement():
    """r28 vdawrite: Amdahl's limit 95.2 K beside run 0's 103.65 K at qd32: round 28 read 'above every measurement'
    (mild, MI)."""
    model = " ".join(_texts(_fit(VDAWRITE, "blind28"), "model"))
    assert "has a limit above every measurement" not in model, model
    # (round 28 MA reads vdawrite's level from the medians now, and no model sentence is read beside a stated level;
    # where one is, it names the run beyond its limit)
    assert not model or "1 run went beyond it (up to 103.65 K IOPS at iodepth = 32)" in model, model


# --- JC -------------------------------------------------------------------------------------------------------------

def test_jc_little_below_not_far_below_and_causes_from_options():
    """r28 spdk517 randread numjobs: 0.77 at one point of a transcribed read-only series: round 28 read 'far below 1 …
    --thinktime, an fsync after each write' (mild, JC)."""
    little, = _texts(_fit(SPDK_READ, "blind28"), "little")
    assert "far below" not in little and "below 1 (down to 0.77)" in little, little
    assert "fsync" not in little and "--thinktime (the files do not give it)" in little, little
    assert "if it is the completion latency" in little, little


def test_jc_counter_far_below_and_writes_keep_fsync():
    """Under 0.6 stays "far below 1"; a fio-json write series keeps "an fsync after each write" and no kind hedge;
    thinktime recorded as 0 is dropped."""
    from nvmemodel.fitting.little_candidates import little_candidates
    from nvmemodel.fitting.sentences import _little_verdict

    rows = pd.DataFrame({"direction": ["write"], "format": ["fio-json"], "thinktime_s": [0.0],
                         "clat_mean_s": [1e-4]})
    g = little_candidates(rows)
    assert "an fsync after each write" in g["causes"] and "--thinktime" not in g["causes"] and not g["kind_unknown"]
    assert "far below 1" in _little_verdict(np.array([0.5, 1.0]), generic=g)
    v = _little_verdict(np.array([0.7, 1.0]), generic=g)
    assert "below 1 (down to 0.70)" in v and "far below" not in v, v
    assert "consistent" in _little_verdict(np.array([0.95, 1.0]), generic=g)


# --- JB -------------------------------------------------------------------------------------------------------------

SPDK_WRITE = "r28_spdk517_optane-p4800x-libaio_4k-randwrite_qd32_numjobs"
PM1643A = "r28_thejj_samsung-pm1643a-sas-enterprise_4k-osync-write_qd1_numjobs"


def test_jb_first_point_held_per_job():
    """r28 spdk517 qd32 numjobs: 1 → 4 jobs ×1.99 / ×3.22 the rate at ×1.55 / ×1.19 the latency: round 28 read only
    'Up to it the load still paid, from 233.47 K IOPS at numjobs = 1' (mild, JB)."""
    little, = _texts(_fit(SPDK_READ, "blind28"), "little")
    assert "At numjobs = 1 the shared device had room: ×4 the outstanding I/O" in little, little
    assert "×1.55 the mean latency for ×1.99 the rate" in little and "4.28 µs per I/O of its one thread" in little
    assert "whether that thread was CPU-bound is not measured" in little, little
    little, = _texts(_fit(SPDK_WRITE, "blind28"), "little")
    assert "×1.19 the mean latency for ×3.22 the rate" in little and "6.21 µs per I/O" in little, little


def test_jb_counter_one_io_per_job():
    """r28 PM1643a (one sync write in flight per job), r28 vdanumjobs (psync, one a job): no 'had room' words."""
    for case in (PM1643A, VDANUMJOBS):
        assert "the shared device had room" not in _fit(case, "blind28").explain(), case


def test_ob_r29_interrupt_driven_uring_is_no_spinner():
    """Round 29 OB: io_uring without polling, 1.00 switches a read at QD1 falling as 1/iodepth, CPU per read 23 → 5 µs,
    was told "CPU spent per second, not per I/O (a job that spins or polls …)"."""
    case = "r29_here-uringvda_vda-ext4-512mfile_iouring-direct_randread4k_iodepth_repeats"
    text = " ".join(c["text"] for c in cs.fit_case_id(case).claims() if c["kind"] == "cpu")
    assert text and "spins or polls" not in text and "slept once per reap" in text
