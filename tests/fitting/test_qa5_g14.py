"""QA5 G14 (real data, tests/data/qa5/normal/appended_bs.txt: fio 3.33 libaio sequential read, iodepth 4, bs 4/16/64/256
KiB, ``--output-format=normal`` appended, on tmpfs): per_io_byte's IOPS ceiling lies beyond the smallest block
measured (63 % of it), so by the no-interval rule (docs/fitting.md, commit 91b2012) it and the crossing block size
that depends on it are written without a 95 % interval; and the plateau's spread is of two block sizes with one run
each, not of "2 runs"."""
from pathlib import Path

import nvmemodel as nm

QA5 = Path(__file__).resolve().parents[1] / "data" / "qa5"


def test_an_extrapolated_iops_ceiling_and_its_crossing_get_no_interval_and_one_run_points_are_not_runs():
    r = nm.fit(nm.read_results(QA5 / "normal" / "appended_bs.txt"), x="block_size_bytes", y="bytes_per_s")
    text = r.explain()
    assert r.chosen[()] == "per_io_byte", r.chosen
    # blind4: 628 K is 1.6× the 393 K measured, an extrapolation: not stated as a ceiling, nor its crossing
    assert ("a per-I/O term of 1/628.13 K IOPS, 1.6× the most IOPS measured (393.41 K IOPS): an extrapolation, not "
            "stated as an IOPS ceiling (the small-block rate measured at 4 I/Os outstanding: a deeper queue may raise "
            "it)") in text, text  # issue 28: the small-block rate was measured at one depth
    assert "140.73 K" not in text and "1.12 M IOPS" not in text, text
    # the crossing depends on the extrapolated term: not stated, nor an interval
    assert "crossing at a block size" not in text and "(95 % CI 5 KiB" not in text, text
    assert ("reaches 63% of the per-I/O term; neither an interval for it nor a crossing block size, which depends on "
            "it, is stated") in text, text
    # the bandwidth ceiling is reached (the largest block measures 93 % of it): its interval stays
    # (issue 28: written from the largest measurement up — its lower end, 5.08 GB/s, is below the 5.92 GB/s measured)
    assert "6.42 GB/s (5.98 GiB/s) at large ones (between the 5.92 GB/s (5.51 GiB/s) measured and 7.75 GB/s" in text, text
    # the two largest sizes are named one by one (issue 28), never "2 runs"
    assert "(5.85 GB/s (5.45 GiB/s) at 64 KiB, 5.92 GB/s (5.51 GiB/s) at 256 KiB)" in text, text
    assert "over 2 runs" not in text
    # the model's own table keeps the interval (summary(), params): only the explanation withholds it
    assert "1.407e+05" in r.summary()


def test_one_run_per_load_is_not_called_repeat_runs_on_a_jobs_sweep():
    text = nm.fit(nm.read_results(QA5 / "ntnj" / "appended_nj.txt"), x="numjobs", y="iops").explain()
    assert "(sd 16.51 K IOPS over 2 points of one run each at numjobs = 2–4)" in text, text
    assert "One run a point" in text and "over 2 runs" not in text
