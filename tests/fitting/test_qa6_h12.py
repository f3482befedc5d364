"""QA s25 H12: a point whose job fio saw at ≥ 90 % of one CPU is named CPU-bound, and no Little's-law knee
is narrated from a rise that starts there.

Data: budisc's Optane P4800X (../shared/data/real/fio_normal, fio 3.35 normal output): 4 KiB randread at
iodepth 128, numjobs 1 / 2 / 10. At numjobs 1 fio printed ``cpu : usr=24.75%, sys=75.03%`` (388 K IOPS);
at 2 jobs 507 K IOPS with 1.4954 CPUs; at 10 jobs 507 K with 2.462 CPUs (SOURCES.md: "388k IOPS (1 job,
CPU-bound) → 507k (2 jobs) → 507k (10 jobs): drive ceiling")."""

import glob

import pytest

import nvmemodel as nm


@pytest.mark.shared
def test_the_cpu_bound_job_is_named_and_no_knee_rests_on_it(shared_dir):
    files = sorted(glob.glob(str(shared_dir / "data/real/fio_normal/budisc_optane-p4800x_*")))
    assert len(files) == 3
    r = nm.fit(files, x="numjobs", y="iops")
    text = r.explain()
    # the one point fio saw at 99.8 % of a CPU (usr 24.75 + sys 75.03) is named CPU-bound
    assert "fio's CPU accounting: at numjobs = 1 the job used 99.8 % of a CPU (usr+sys): CPU-bound there" in text
    # the step to 2 jobs: each at 74.8 % (1.4954 / 2), IOPS ×1.31 (507.42 K / 388.36 K)
    assert "at numjobs = 2 each job used 74.8 % of a CPU and IOPS rose ×1.31 (to 507.42 K IOPS)" in text
    # no Little's-law knee narrated from that rise; the fitted knee (1.31) named as not read
    assert "Little's law up to" not in text
    # round 8: the level from numjobs = 2 is the facts'; no knee (nor "the fit's knee is not read") beside it
    assert "flattens at 507.45 K IOPS" in text and "knee" not in text
    # the maximum's sentence is still there, with its own (not CPU-bound) share
    assert "fio's CPU accounting at the maximum (numjobs = 10): the jobs used 2.46 CPUs (usr+sys), 25% of one CPU" in text


def test_no_cpu_bound_point_no_cpu_bound_words():
    # qa6/psyncnj: psync randread numjobs 1..8, each job at most a few % of a CPU (fio's usr+sys)
    r = nm.fit("tests/data/qa6/psyncnj", x="numjobs", y="iops")
    text = r.explain()
    assert (r.points["cpus"] / r.points["jobs"]).max() < 0.9
    assert "CPU-bound" not in text
    assert "fio's CPU accounting at the maximum (numjobs = 8)" in text
