"""QA7 (s27) ingest findings on real fio 3.33 runs (tests/data/qa7/README.md gives how each was made)."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import pytest

from nvmemodel import read_results
from nvmemodel.errors import IngestWarning

QA7 = Path(__file__).resolve().parents[1] / "data" / "qa7"


def quiet(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IngestWarning)
        return read_results(path, **kw)


# INGEST-4: a group_reporting sum of jobs rr (QD8), rw (QD8), sr (QD4): fio's JSON echoes sr's options
# (iodepth 4) under the name rr, so the group's iodepth is not 4 and must not be written as 4
def test_group_of_jobs_with_their_own_iodepth_is_not_the_last_jobs():
    path = QA7 / "multi" / "three_jobs_grouped.json"
    # (the sections set their own filename= too: which files the group used is not in the output either)
    with pytest.warns(IngestWarning, match=r"three_jobs_grouped\.json: jobs\[0\] \('rr'\) is a group_reporting sum "
                                           r"of 3 jobs .*job 'sr': iodepth=4.* iodepth and ioengine are not tabulated"), \
            pytest.warns(IngestWarning, match=r"jobs\[0\] \('rr'\) is a group_reporting sum of 3 jobs whose sections "
                                              r"set their own filename=.*target_names and targets are NA"):
        df = read_results(path)
    assert len(df) == 2 and df["iodepth"].isna().all() and df["targets"].isna().all()
    assert (df["numjobs"] == 3).all() and (df["level"] == "group").all()
    assert df["defaulted"].isna().all()  # NA is not fio's default either


def test_ungrouped_jobs_keep_their_own_iodepth():
    df = quiet(QA7 / "multi" / "three_jobs.json")
    assert dict(zip(df["job_name"], df["iodepth"])) == {"rr": 8, "rw": 8, "sr": 4}


# INGEST-3: --gtod_reduce=1: fio measured no latency (its lat/clat/slat blocks have N 0): NaN, and said
def test_gtod_reduce_runs_say_fio_measured_no_latency():
    with pytest.warns(IngestWarning) as record:
        df = read_results(QA7 / "gtod")
    said = [str(w.message) for w in record if "did not measure latency" in str(w.message)]
    assert len(said) == 3 and all("(gtod_reduce=1 turns its latency measurement off)" in m for m in said)
    assert {m.split(":")[0].rsplit("/", 1)[-1] for m in said} == {"qd1.json", "qd4.json", "qd16.json"}
    assert df["lat_mean_s"].isna().all() and df["clat_p99_s"].isna().all() and (df["iops"] > 0).all()


def test_runs_that_measured_latency_do_not_say_so():
    with warnings.catch_warnings():
        warnings.simplefilter("error", IngestWarning)
        df = read_results(QA7 / "rateqd")
    assert df["lat_mean_s"].notna().all()


# INGEST-2: --lat_percentiles=1 --clat_percentiles=0: fio writes read.lat_ns.percentile (total latency) only
def test_total_latency_percentiles_are_tabulated():
    (row,) = quiet(QA7 / "latpct" / "lat_qd8.json").to_dict("records")
    assert row["lat_p99_s"] == pytest.approx(2179072e-9, rel=1e-12)  # fio: read.lat_ns.percentile["99.000000"]
    assert row["lat_p50_s"] == pytest.approx(130560e-9, rel=1e-12) and row["lat_p99_99_s"] == pytest.approx(8454144e-9)
    assert math.isnan(row["clat_p99_s"])  # fio measured no completion-latency percentiles in this run


def test_completion_percentiles_leave_total_ones_empty():
    (row,) = quiet(QA7 / "latpct" / "clat_qd8.json").to_dict("records")
    assert row["clat_p99_s"] > 0 and math.isnan(row["lat_p99_s"])


def test_total_latency_percentiles_from_normal_output_agree_with_json():
    corpus = QA7.parent / "fio_corpus"
    (js,) = quiet(corpus / "libaio-lat-percentiles.json").to_dict("records")
    (normal,) = quiet(corpus / "libaio-lat-percentiles.normal").to_dict("records")
    for col in ("lat_p50_s", "lat_p99_s", "lat_p99_9_s"):
        assert normal[col] == pytest.approx(js[col], rel=2e-3), col  # normal output prints 3-4 digits (usec)


# INGEST-5: --status-interval=1 over 3 s: 3 interim reports and the final one, 4 rows; the summary says which
def test_ingest_summary_counts_interim_reports(capsys):
    from nvmemodel.cli import main

    assert main(["ingest", str(QA7 / "status" / "qd4.json")]) == 0
    err = capsys.readouterr().err
    assert "read 1 file(s), 4 row(s) (3 of them interim --status-interval reports, not final)" in err
    assert main(["ingest", str(QA7 / "rateqd" / "qd1.json")]) == 0
    assert "interim" not in capsys.readouterr().err


# INGEST-1: the options that pace a run are columns (SI): the fit can name the cap from them
def test_rate_and_think_time_options_are_columns():
    rate = quiet(QA7 / "rateqd")
    assert len(rate) == 6 and rate["rate_iops"].eq(20000).all() and rate["rate_bytes_per_s"].isna().all()
    assert quiet(QA7 / "ratenj")["rate_iops"].eq(50000).all()  # per job, as fio applies it
    assert quiet(QA7 / "ratebw")["rate_bytes_per_s"].eq(20 * 2**20).all()  # --rate=20m with kb_base 1024
    think = quiet(QA7 / "think")
    assert think["thinktime_s"].eq(500e-6).all() and think["rate_iops"].isna().all()  # --thinktime=500 (µs)
    fsync = quiet(QA7 / "fsync")
    assert fsync["fsync_every"].eq(1).all() and fsync["fdatasync_every"].isna().all()
    assert quiet(QA7 / "nullqd")[["rate_iops", "thinktime_s", "fsync_every"]].isna().all().all()  # not set: NA


def test_pacing_values_per_direction_and_units():
    from nvmemodel.ingest.fio_options import pacing_fields

    got = pacing_fields({"rate": "1m,500k", "rate_iops": "500,", "thinktime": "2ms", "fdatasync": "8"}, "x")
    assert got["read"]["rate_bytes_per_s"] == 2**20 and got["write"]["rate_bytes_per_s"] == 500 * 1024
    assert got["trim"]["rate_bytes_per_s"] == 500 * 1024  # a missing value repeats the last given (as bs=)
    assert got["read"]["rate_iops"] == 500 and "rate_iops" not in got["write"]  # "500,": reads only
    assert got["write"]["thinktime_s"] == pytest.approx(2e-3) and got["write"]["fdatasync_every"] == 8
    assert "rate_bytes_per_s" not in got["mixed"] and got["mixed"]["thinktime_s"] == pytest.approx(2e-3)
    with pytest.raises(ValueError, match=r"thinktime='soon'"):
        pacing_fields({"thinktime": "soon"}, "x")


def test_pacing_from_an_echoed_command():
    # normal output echoes no rate; the 'Fio command:' line before each run does (--rate_iops=3000 … 9000)
    df = quiet(QA7.parent / "fit" / "adv" / "targets.txt")
    assert df.sort_values("run")["rate_iops"].tolist() == [3000, 6000, 9000, 9000, 9000, 9000]


def test_a_group_of_jobs_with_their_own_rate_leaves_it_unknown(tmp_path):
    import json

    doc = json.loads((QA7 / "multi" / "three_jobs_grouped.json").read_text())
    doc["jobs"][0]["job options"]["rate_iops"] = "1000"  # the last job's own cap: the others' are not in the file
    doc["global options"] = {"thinktime": "100"}  # every job's
    path = tmp_path / "grouped.json"
    path.write_text(json.dumps(doc))
    df = quiet(path)
    assert df["rate_iops"].isna().all() and df["thinktime_s"].eq(100e-6).all()


# O2: a --write_hist_log file given as a time-series log: say what it is, with or without a kind
@pytest.mark.parametrize("kind", [None, "clat"])
def test_histogram_log_is_named_as_such(kind, tmp_path):
    from nvmemodel.errors import IngestError
    from nvmemodel.ingest.fio_log import read_fio_log

    path = QA7 / "histlog" / "hl_qd1_clat_hist.1.log"
    with pytest.raises(IngestError, match=r"hl_qd1_clat_hist\.1\.log: a fio histogram log \(--write_hist_log\).*"
                                          r"nvmemodel plot --histogram run\.json"):
        read_fio_log(path, kind=kind)
    renamed = tmp_path / "run_clat.1.log"  # the content tells too
    renamed.write_bytes(path.read_bytes())
    with pytest.raises(IngestError, match="a fio histogram log"):
        read_fio_log(renamed)


def test_plot_of_a_histogram_log_is_one_error_line(capsys, tmp_path):
    from nvmemodel.cli import main

    try:
        code = main(["plot", "--logs", str(QA7 / "histlog" / "hl_qd1_clat_hist.1.log"), "--kind", "clat",
                     "-o", str(tmp_path / "hist.png")])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("nvmemodel: error: ") \
        and "a fio histogram log (--write_hist_log)" in err[0]
    assert not (tmp_path / "hist.png").exists()


# O3: along read_fraction the total line has its ends: a pure-write (0) and a pure-read (1) run are their own totals
def test_total_of_a_mix_sweep_includes_the_single_direction_runs():
    from nvmemodel.ingest.summary import summarize

    s = summarize(quiet(QA7 / "mix"), x="read_fraction", y="iops")
    total = s[s["direction"] == "total"].set_index("read_fraction")["mean"]
    assert total.index.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert total[0.0] == pytest.approx(s[(s.direction == "write") & (s.read_fraction == 0.0)]["mean"].item())
    assert total[1.0] == pytest.approx(s[(s.direction == "read") & (s.read_fraction == 1.0)]["mean"].item())
    assert 77_000 < total[0.0] < 78_000 and 72_500 < total[1.0] < 73_500  # fio's write.iops / read.iops


def test_a_sweep_of_one_direction_has_no_total_line():
    from nvmemodel.ingest.summary import summarize

    assert set(summarize(quiet(QA7 / "rateqd"), x="iodepth", y="iops")["direction"]) == {"read"}
