"""Round 22's classes XA and XE (``_blind_rounds/round22_hand_read_part1.md``):

- XA: at a point whose runs had each job inside its I/O ≥ 95 % of its time the pace had no slack left; its rate is
  the path's (outstanding ÷ latency), not fio's pace (``pace_slack``); a fit of paced points reproduces the pace, not
  Little's law.
- XE: a read-share sweep whose pure runs were fio's paces per direction is not read against the harmonic mix of those
  paces (``paced_mix``); the realised read share is said, and shortfalls of single runs are not a point's limit.

Round 22 is spent; counters are other spent cases (unpaced sweeps, paced series with slack).
"""

from __future__ import annotations

import numpy as np
import pytest

from nvmemodel.fitting.pace_slack import PATH_OCCUPANCY, path_bound_runs
from tests.fitting.corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

R8K = "r22_here-fio310rate_loop_psync_rateiops8k-perjob_randread_numjobs_repeats"
R128K = "r22_here-fio310rate_loop_psync_rate200m-perjob_randread128k_numjobs_repeats"
RW = "r22_here-fio310rate_loop_psync_rateiops4k-1k_randrw_qd1_readshare_repeats"


def _text(case: str) -> str:
    return fit_case_id(case).explain()


def test_xa_8k_top_point_is_the_paths():
    fit = fit_case_id(R8K)
    t = fit.explain()
    assert "fio's pacing per job at numjobs = 1, 2, 4, 8, not a limit" in t
    assert ("at numjobs = 16, every run had each job inside an I/O 98.6%–99.6% of its time (fio's mean latency "
            "128 µs–139 µs, at or above the pace's interval of 125 µs") in t
    assert "outstanding I/O ÷ latency (115.16 K IOPS–125.33 K IOPS; measured 114.65 K IOPS–123.82 K IOPS)" in t
    assert "Little's law fits the rise" not in t
    assert "The fit reproduces fio's pace" in t
    # the Little check names the pace its runs were kept to, not a list of candidates (XH)
    assert ("far below 1: fewer I/Os were in flight than asked for, and the runs' options show why — fio paced them "
            "(--rate_iops=8000 per job)") in t
    assert "a rate limit or a per-job limit" not in t
    runs = path_bound_runs(fit, ())
    occ = [float(np.median(p["occ"])) for p in runs]
    assert occ[-1] >= PATH_OCCUPANCY > max(occ[:-1])  # 16 jobs only
    assert np.allclose(runs[-1]["interval"], 125e-6)


def test_xa_128k_one_run_path_bound_the_others_paced():
    t = _text(R128K)
    assert "every point is at its own total" in t and "every run is at its own total" not in t  # XH: 1 run short
    assert "fio's pacing per job, not a limit" in t  # two of the three 16-job runs were still paced
    assert "at numjobs = 16, 1 of 3 runs had each job inside an I/O 98.2% of its time (fio's mean latency 692 µs" in t
    assert "3.03 GB/s (2.82 GiB/s); measured 2.98 GB/s" in t


@pytest.mark.parametrize("case", ["r6_here_loop_rate50m_perjob_numjobs_128k_repeats", "r2_here_rateiops_numjobs",
                                  "r6_here_null_rateiops800k_pin1cpu_numjobs_repeats"])
def test_xa_counter_paced_with_slack(case):
    t = _text(case)
    assert "had each job inside an I/O" not in t


def test_xe_paced_mix_not_harmonic():
    t = _text(RW)
    assert "took less time" not in t
    assert "so these are fio's paces, not the time an I/O took, and no harmonic mix" in t
    assert "a mix is allowed up to the paces' sum (5.00 K IOPS)" in t
    assert "realised a read share of 0.76–0.80 at read_fraction = 0.25, 0.5, 0.75 alike" in t
    assert "grows with read_fraction" not in t and "changes with read_fraction" in t
    assert "another limit than fio's pace binds" not in t
    assert "single runs fell short at read_fraction = 0.25, 0.5, 0.75 alike (4 of 15 runs, at 82.7%–92.9%" in t


@pytest.mark.parametrize("case", ["r2_marcm24_sn750se-pagecache_32k-randrw_qd1_readshare",
                                  "r17_mmn0001_wsl2-vdisk_4k-randrw_qd1_readshare"])
def test_xe_counter_unpaced_mix_keeps_harmonic(case):
    t = _text(case)
    assert "1/X = r/R + (1 − r)/W (the harmonic mix)" in t and "took less time" in t
    assert "fio's paces" not in t


def test_xe_counter_throttled_mix_is_no_fio_pace():
    # a blkio throttle is no fio pace: the table's rate_iops/rate say nothing, the harmonic mix is read as before
    t = _text("r2_here_blkio_rbps_rwmix_64k_repeats")
    assert "(the harmonic mix)" in t and "no harmonic mix" not in t
