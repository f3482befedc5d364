"""QA5 G14 (real data, tests/data/qa5/normal/appended_bs.txt: fio 3.33 libaio sequential read, iodepth 4, bs 4/16/64/256
KiB, ``--output-format=normal`` appended, on tmpfs): per_io_byte's IOPS ceiling lies beyond the smallest block
measured (63 % of it), so by the no-interval rule (docs/fitting.md, commit 91b2012) it and the crossing block size
that depends on it are written without a 95 % interval; and the plateau's spread is of two block sizes with one run
each, not of "2 runs"."""
from pathlib import Path

import nvmemodel as nm

QA5 = Path(__file__).resolve().parents[1] / "data" / "qa5"
from tests.fitting.test_models_after_facts_r8 import assert_no_model_level



def test_an_extrapolated_iops_ceiling_and_its_crossing_get_no_interval_and_one_run_points_are_not_runs():
    r = nm.fit(nm.read_results(QA5 / "normal" / "appended_bs.txt"), x="block_size_bytes", y="bytes_per_s")
    text = r.explain()
    assert r.chosen[()] == "per_io_byte", r.chosen
    # blind4: 628 K is 1.6× the 393 K measured, an extrapolation. Round 8: bandwidth nearly level at the two largest
    # sizes is a level the cap fact states, so no model term, ceiling or crossing is said beside it (the 6.42 GB/s
    # bandwidth term, above every measurement, was)
    assert "628.13" not in text and "140.73 K" not in text and "1.12 M IOPS" not in text, text
    assert "crossing at a block size" not in text and "(95 % CI 5 KiB" not in text and "6.42 GB/s" not in text, text
    assert_no_model_level(r)
    # the two largest sizes are named one by one (issue 28), never "2 runs"
    assert "(5.85 GB/s (5.45 GiB/s) at 64 KiB, 5.92 GB/s (5.51 GiB/s) at 256 KiB)" in text, text
    assert "over 2 runs" not in text
    # the model's own table keeps the interval (summary(), params): only the explanation withholds it
    assert "1.407e+05" in r.summary()


def test_one_run_per_load_is_not_called_repeat_runs_on_a_jobs_sweep():
    text = nm.fit(nm.read_results(QA5 / "ntnj" / "appended_nj.txt"), x="numjobs", y="iops").explain()
    assert "(sd 16.51 K IOPS over 2 points of one run each at numjobs = 2–4)" in text, text
    assert "One run a point" in text and "over 2 runs" not in text
