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
