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
    # issue 28: at 4 KiB the rate is what 4 I/Os outstanding give at fio's latency (Little's law within 10 %), so the
    # per-I/O + per-byte form is the time of one I/O, not two device ceilings: no IOPS ceiling, no crossing, no interval
    assert "4 I/Os outstanding ÷ 9.82 µs mean latency = 407.33 K IOPS (measured 393.41 K IOPS)" in text, text
    assert "the per-I/O + per-byte form is the time of one I/O: 1.59 µs fixed plus the size ÷ 6.42 GB/s" in text, text
    assert "IOPS ceiling of 628" not in text and "crossing at" not in text and "95 % CI" not in text, text
    assert "(sd 48.7 MB/s (46.4 MiB/s) over 2 points of one run each at block_size_bytes = 64 KiB–256 KiB)" in text, text
    assert "over 2 runs" not in text
    # the model's own table keeps the interval (summary(), params): only the explanation withholds it
    assert "1.407e+05" in r.summary()


def test_one_run_per_load_is_not_called_repeat_runs_on_a_jobs_sweep():
    text = nm.fit(nm.read_results(QA5 / "ntnj" / "appended_nj.txt"), x="numjobs", y="iops").explain()
    assert "(sd 16.51 K IOPS over 2 points of one run each at numjobs = 2–4)" in text, text
    assert "One run a point" in text and "over 2 runs" not in text
