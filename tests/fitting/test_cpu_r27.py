"""Round 27's CPU classes (``_blind_rounds/round27_hand_read_part3.md`` IA, IB, IC), on the spent r27 cases measured
here and seeded, labelled synthetic counter-cases:

- IA: "the busy CPU did not limit the rate there" only where the less-busy point's job made more than its CPU share
  buys at the busy point's cost per I/O (its cost per I/O fell): a job whose rate fell with its CPU at one cost is
  what CPU-bound looks like.
- IB: no device beneath, no job slept per I/O, one job ≥ 90 % of a CPU at the lightest load and every run at one
  cost per I/O: the summed-CPU level is CPU-bound without the host's core count (no "give the host to decide").
- IC: ``lockfile=exclusive`` (fio serialises the jobs on the file) read from the files and named as what held the
  jobs' summed CPU and rate, not "other load on its cores, or more jobs than cores".
"""

import numpy as np
import pandas as pd

import nvmemodel as nm
from tests.fitting import corpus_score as cs

FILESTAT = "r27_here-filestat_tmpfs-64files_filestat-stat_numjobs_repeats"
LOCKFILE = "r27_here-lockfile_tmpfs-1file_psync-lockfile-exclusive_randread4k_numjobs_repeats"


def _cpu_texts(res) -> list[str]:
    return [c["text"] for c in res.claims() if c["kind"] == "cpu"]


def _jobs_table(per_job_iops, shares, *, seed=0, engine="psync", reps=3, **cols):
    """SYNTHETIC (seeded): a numjobs sweep 1, 2, 4 of a buffered psync read on tmpfs (no device), each run's
    usr+sys = jobs × share, ctx ≈ 0.001 an I/O, ±1 % run-to-run noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for nj, r_job, sh in zip((1, 2, 4), per_job_iops, shares):
        for r in range(reps):
            e = 1 + 0.01 * rng.standard_normal()
            iops = nj * r_job * e
            rows.append({"source_path": f"synthetic/nj{nj}_r{r}.json", "numjobs": nj, "iodepth": 1, "direction": "read",
                         "ioengine": engine, "direct": 0, "block_size_bytes": 4096, "iops": iops, "runtime_s": 5.0,
                         "ios": iops * 5.0, "ctx": iops * 5.0 * 0.001, "cpu_usr": 0.2 * sh * e,
                         "cpu_sys": 0.8 * sh * e, "lat_mean_s": nj / iops, "target_names": "/dev/shm/f",
                         **cols})
    return pd.DataFrame(rows)


# --- IA -------------------------------------------------------------------------------------------------------------

def test_ia_rate_that_fell_with_its_cpu_at_one_cost_is_not_called_unlimited():
    """r27 filestat: 98.4 % of a CPU for 523.89 K a job at 1 job, 88.3 % for 467.30 K at 2 — 1.88 and 1.89 µs a
    stat(): round 27 read 'the busy CPU did not limit the rate there' (contradicted, IA)."""
    text = cs.fit_case_id(FILESTAT, "blind27").explain()
    assert "did not limit the rate" not in text, text


def test_ia_counter_cheaper_io_at_less_cpu_still_not_binding():
    """SYNTHETIC counter-case (QA s27 I3's shape): 50 K a job at 99.9 % of a CPU with one job and at 60 % / 39.7 %
    with two and four — the cost per I/O fell ×2.5, so the busy CPU bought no I/O: still said."""
    tbl = _jobs_table([50e3, 50e3, 50e3], [0.999, 0.6, 0.397])
    text = " ".join(_cpu_texts(nm.fit(tbl, x="numjobs", y="iops")))
    assert "did not limit the rate" in text, text


def test_ia_counter_one_cost_not_binding_not_said():
    """SYNTHETIC: the same sweep at one cost per I/O (per job 50 K at 99.9 %, 45 K at 90 % → 40 K at 80 %): every
    job's rate is its CPU ÷ 20 µs: never 'did not limit'."""
    tbl = _jobs_table([50e3, 44.5e3, 40e3], [0.999, 0.89, 0.80])
    text = " ".join(_cpu_texts(nm.fit(tbl, x="numjobs", y="iops")))
    assert "did not limit the rate" not in text, text


# --- IB -------------------------------------------------------------------------------------------------------------

def test_ib_in_thread_level_is_cpu_bound_without_the_host():
    """r27 filestat: one job 95–100 % of a CPU, no device, ≤ 0.0006 switches a stat(), every run 1.85–1.92 µs a
    stat(): round 27 read 'give the host — --host or a topology — to decide' (misleading, IB)."""
    res = cs.fit_case_id(FILESTAT, "blind27")
    texts = _cpu_texts(res)
    text = " ".join(texts)
    assert "give the host" not in text, text
    (own,) = [t for t in texts if "the plateau is CPU-bound" in t]
    # the level from the runs' medians (1.92–1.98 CPUs), not the mean with the disturbed runs (1.86)
    assert "the jobs together used 1.92–1.98 CPUs" in own and "1.95 CPUs ÷ 1.88 µs = 1.04 M IOPS" in own, own
    assert "at numjobs = 1 the job used 100 % of a CPU" in own and "all 12 runs within ±2% of 1.88 µs" in own, own
    cpu = [c for c in res.claims() if c["kind"] == "cpu" and "the plateau is CPU-bound" in c["text"]][0]
    assert cpu["facts"]["cpu_bound"] is True


def _level_table(ctx_per_io, *, costs=(20e-6, 20e-6, 20e-6, 20e-6), first=0.99, **cols):
    """SYNTHETIC (seeded): numjobs 1, 2, 4, 8 on tmpfs (no device), the jobs' summed CPU 0.99 then ~1.9 CPUs
    whatever the job count, each run's rate = its CPUs ÷ its point's cost; one 2-job run got 70 % of its siblings'
    CPU (a disturbed run, as r27 filestat's 1.36 CPUs), so the points' means do not decide it."""
    rng = np.random.default_rng(1)
    rows = []
    for nj, total, cost in zip((1, 2, 4, 8), (first, 1.9, 1.92, 1.91), costs):
        for r in range(3):
            cpus = total * (1 + 0.005 * rng.standard_normal()) * (0.7 if (nj, r) == (2, 1) else 1.0)
            iops = cpus / cost
            rows.append({"source_path": f"synthetic/nj{nj}_r{r}.json", "numjobs": nj, "iodepth": 1,
                         "direction": "read", "ioengine": "psync", "direct": 0, "block_size_bytes": 4096,
                         "iops": iops, "runtime_s": 5.0, "ios": iops * 5.0, "ctx": iops * 5.0 * ctx_per_io,
                         "cpu_usr": 0.2 * cpus / nj, "cpu_sys": 0.8 * cpus / nj, "lat_mean_s": nj / iops,
                         "target_names": "/dev/shm/f", "devices": "", **cols})
    return pd.DataFrame(rows)


def test_ib_counter_synthetic_fires_and_its_counter_cases_do_not():
    """SYNTHETIC: the in-thread level fires on the seeded table (so the counter-cases below test the conditions);
    not where each job sleeps about once an I/O (it waited on something), not where the cost per I/O grows with
    the load (+30 %: lock contention or spinning counted as CPU), not where the lightest load's job was at 60 %."""
    def said(tbl):
        return " ".join(_cpu_texts(nm.fit(tbl, x="numjobs", y="iops")))

    assert "the plateau is CPU-bound — the CPUs the jobs could get" in said(_level_table(0.001))
    for tbl in (_level_table(1.0), _level_table(0.001, costs=(20e-6, 22e-6, 24e-6, 26e-6)),
                _level_table(0.001, first=0.6)):
        assert "the CPUs the jobs could get" not in said(tbl)


# --- IC -------------------------------------------------------------------------------------------------------------

def test_ic_ingest_keeps_fio_serialising_options():
    from nvmemodel.ingest.fio_options import serial_options

    tbl = nm.read_results(cs.CORPUS / LOCKFILE / "raw")
    assert set(tbl["serial_options"].astype(str)) == {"lockfile=exclusive"}
    assert serial_options({}) is None and serial_options({"lockfile": "none"}) is None
    assert serial_options({"serialize_overlap": "0"}) is None
    assert serial_options({"lockfile": "readwrite", "serialize_overlap": "1"}) == "lockfile=readwrite;serialize_overlap=1"


def _lock_fit(option):
    """The r27 lockfile case's table with its ``serial_options`` replaced (None: the column dropped)."""
    d = cs.CORPUS / LOCKFILE
    case = cs.load_case(d)
    tbl = cs.load_table(d, case)
    tbl = tbl.drop(columns="serial_options") if option is None else tbl.assign(serial_options=option)
    return nm.fit(tbl, **cs.fit_kwargs(case))


def test_ic_the_lock_not_the_host_holds_the_jobs_share():
    """r27 lockfile: lockfile=exclusive in every file, the jobs together 0.92–1.04 CPUs (medians) at 2–8 jobs on a
    2-CPU host: round 27 read 'CPU-bound at the share the host gave it (other load on its cores, or more jobs than
    cores …)' (misleading, IC)."""
    text = " ".join(_cpu_texts(cs.fit_case_id(LOCKFILE, "blind27")))
    assert "more jobs than cores" not in text and "other load on its cores" not in text, text
    assert "the runs set lockfile=exclusive, which lets one job at a time do I/O on the file" in text, text
    assert "from numjobs = 2 to 8 the jobs together used 0.922–1.04 CPUs (medians of the runs)" in text, text
    assert "(one CPU ÷ 1.5 µs per I/O = 665.22 K IOPS)" in text, text


def test_ic_counter_no_lock_or_a_readers_lock_keeps_the_host_words():
    """The same runs without the option, or with lockfile=readwrite (readers share it: these jobs only read): the
    host's share stays the reading, no lock is named."""
    for option in (None, "lockfile=readwrite"):
        text = " ".join(_cpu_texts(_lock_fit(option)))
        assert "lockfile" not in text and "other load on its cores, or more jobs than cores" in text, text


def test_ic_counter_a_total_that_grows_names_no_lock():
    """SYNTHETIC from the r27 lockfile runs: the multi-job runs' CPU and I/O scaled ×1.5 (the same cost per I/O, the
    jobs' total 1.38–1.56 CPUs by medians): lockfile=exclusive set, but the jobs did not run one at a time, so the
    lock is not named and the host's share stays the reading."""
    d = cs.CORPUS / LOCKFILE
    case = cs.load_case(d)
    tbl = cs.load_table(d, case).copy()
    multi = tbl["numjobs"].astype(float) >= 2
    for col in ("cpu_usr", "cpu_sys", "iops", "ios", "io_bytes", "bw_bytes_per_s"):
        tbl.loc[multi, col] = tbl.loc[multi, col].astype(float) * 1.5
    texts = _cpu_texts(nm.fit(tbl, **cs.fit_kwargs(case)))
    text = " ".join(texts)
    assert "lockfile" not in text and "other load on its cores, or more jobs than cores" in text, text
