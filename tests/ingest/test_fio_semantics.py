"""What fio's outputs mean, item by item (issue 8, "Wrong or rejected real output"), on the real
runs of tests/data/fio_corpus (fio 3.33, see its generate.py and ../data/SOURCES.md)."""

from __future__ import annotations

import json
import pathlib
import warnings

import pytest

from nvmemodel import IngestError, IngestWarning
from nvmemodel.ingest import read_file, read_results
from nvmemodel.ingest.fio_options import parse_fio_size

CORPUS = pathlib.Path(__file__).parents[1] / "data" / "fio_corpus"


def quiet_rows(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IngestWarning)
        return read_file(path)


def fio_io_size(case):
    doc = json.loads((CORPUS / f"{case}.json").read_text())
    r = doc["jobs"][0]["read"]
    return r["io_bytes"] / r["total_ios"]


@pytest.mark.parametrize("text, kb_base, expected", [
    # fio HOWTO, "kb_base": 1024 is the default compatibility mode (SI letters binary, IEC decimal)
    ("4k", 1024, 4096), ("4K", 1024, 4096), ("4kb", 1024, 4096), ("4KB", 1024, 4096), ("1m", 1024, 2**20),
    ("1g", 1024, 2**30), ("4kib", 1024, 4000), ("128KiB", 1024, 128_000), ("1MiB", 1024, 1_000_000),
    ("4k", 1000, 4000), ("4KiB", 1000, 4096), ("512", 1024, 512), ("512b", 1024, 512),
])
def test_fio_size_rules(text, kb_base, expected):
    assert parse_fio_size(text, kb_base=kb_base) == expected


@pytest.mark.parametrize("case, option_value", [
    ("bs-1m", 2**20), ("bs-4kb", 4096), ("bs-4kib", 4000), ("bs-128KiB", 128_000), ("bs-1MiB", 1_000_000),
    ("kb_base-1000-4k", 4000),
    # kb_base given after bs does not apply to it: the option says 4000, fio did 4096
    ("kb_base-1000-after-bs", 4096),
])
def test_block_size_is_what_fio_did_in_every_form(case, option_value):
    assert fio_io_size(case) == option_value  # fio's own io_bytes / total_ios
    for form in ("json", "normal", "terse"):
        (row,) = quiet_rows(CORPUS / f"{case}.{form}")
        assert row["block_size_bytes"] == option_value, form


def test_bs_with_bssplit_is_the_measured_mean():
    (row,) = quiet_rows(CORPUS / "bs-and-bssplit.json")
    assert row["block_size_bytes"] == pytest.approx(fio_io_size("bs-and-bssplit"), rel=1e-12)
    assert row["block_size_bytes"] > 2 * 4096  # 4k and 128k blocks mixed: not the 4096 of bs=


def test_per_direction_bs():
    rows = quiet_rows(CORPUS / "bs-per-direction.json")
    assert {r["direction"]: r["block_size_bytes"] for r in rows} == {"read": 4096, "write": 16384}


@pytest.mark.parametrize("form", ["json", "normal", "terse"])
def test_unified_rw_reporting_is_one_mixed_row(form):
    with warnings.catch_warnings():
        warnings.simplefilter("error", IngestWarning)  # no false "completed no I/O"
        (row,) = read_file(CORPUS / f"unified-rw-reporting.{form}")
    assert row["direction"] == "mixed" and row["iops"] > 0 and row["block_size_bytes"] == 4096


@pytest.mark.parametrize("case, error", [("failed-open", 1), ("failed-verify", 84)])
@pytest.mark.parametrize("form", ["json", "normal", "terse"])
def test_failed_jobs_are_flagged_never_measurements(case, error, form):
    with pytest.warns(IngestWarning, match="fail"):
        rows = read_file(CORPUS / f"{case}.{form}")
    assert rows, "a failed job is never dropped"
    for row in rows:
        # normal output of a job that never started prints no error code: unknown, not 0
        assert row["error"] == error or (form == "normal" and case == "failed-open" and row["error"] is None)
        assert all(row[c] != row[c] for c in ("iops", "bw_bytes_per_s", "ios", "clat_mean_s"))  # NaN


@pytest.mark.parametrize("form", ["json", "normal", "terse"])
def test_status_interval_only_last_is_final(form):
    rows = quiet_rows(CORPUS / f"status-interval.{form}")
    assert len(rows) >= 3 and [r["snapshot"] for r in rows] == list(range(len(rows)))
    assert [r["final"] for r in rows] == [False] * (len(rows) - 1) + [True]
    # summing only final rows gives fio's rate, not N times it
    assert sum(r["iops"] for r in rows if r["final"]) == pytest.approx(rows[-1]["iops"])


@pytest.mark.parametrize("form", ["json", "normal", "terse"])
def test_two_runs_in_one_file_are_both_final(tmp_path, form):
    a, b = (CORPUS / f"bs-1m.{form}").read_text(), (CORPUS / f"bs-4kb.{form}").read_text()
    p = tmp_path / f"two.{form}"
    p.write_text(a + b)
    rows = quiet_rows(p)
    assert [r["final"] for r in rows] == [True, True]
    si = (CORPUS / f"status-interval.{form}").read_text()
    p.write_text(si + si)
    rows = quiet_rows(p)
    n = len(rows) // 2
    assert [r["final"] for r in rows] == ([False] * (n - 1) + [True]) * 2


@pytest.mark.parametrize("form, cut_at", [("json", '"fio version"'), ("normal", "groupid="), ("terse", "3;")])
def test_killed_run_with_truncated_last_report_has_no_final(tmp_path, form, cut_at):
    text = (CORPUS / f"status-interval.{form}").read_text()
    last = text.rindex(cut_at)
    p = tmp_path / f"killed.{form}"
    p.write_text(text[: last + 60])  # the last report cut off 60 characters in
    with pytest.warns(IngestWarning, match="truncated"):
        rows = read_file(p)
    assert rows and not any(r["final"] for r in rows)


def test_normal_percentiles_are_clat_not_lat_or_sync():
    doc = json.loads((CORPUS / "psync-fsync.json").read_text())
    clat = doc["jobs"][0]["write"]["clat_ns"]["percentile"]["99.000000"] * 1e-9
    (row,) = quiet_rows(CORPUS / "psync-fsync.normal")
    assert row["clat_p99_s"] == pytest.approx(clat, abs=1e-6)  # printed in whole µs
    assert "sync percentiles" in (CORPUS / "psync-fsync.normal").read_text()


def test_terse_total_latency_percentiles_are_not_labelled_clat():
    # lat_percentiles=1 writes total-latency percentiles into terse's percentile fields
    doc = json.loads((CORPUS / "libaio-lat-percentiles.json").read_text())
    r = doc["jobs"][0]["read"]
    if r["slat_ns"]["mean"] <= 0.05 * r["clat_ns"]["mean"]:
        pytest.skip("this run's submission latency is too small to tell clat from lat percentiles")
    with pytest.warns(IngestWarning, match="completion or total latency"):
        (row,) = read_file(CORPUS / "libaio-lat-percentiles.terse")
    assert row["clat_p99_s"] != row["clat_p99_s"]  # NaN, not the total-latency value


def test_terse_job_name_with_semicolons():
    (row,) = quiet_rows(CORPUS / "jobname-semicolon.terse")
    (ref,) = quiet_rows(CORPUS / "jobname-semicolon.json")
    assert row["job_name"] == "x;y;z" and 0 <= ref["iops"] - row["iops"] < 1


def test_group_reporting_over_two_sections():
    for form in ("json", "normal"):
        (row,) = quiet_rows(CORPUS / f"group-two-sections.{form}")
        assert row["level"] == "group" and row["numjobs"] == 2, form


def test_terse_level_is_job_only_where_it_can_tell():
    rows = quiet_rows(CORPUS / "numjobs-2.terse")
    assert [r["level"] for r in rows] == ["job", "job"]  # two lines of one group in one report
    (group,) = quiet_rows(CORPUS / "numjobs-3-group.terse")
    assert group["level"] is None  # one line: a job or a group_reporting sum, terse does not say


def test_sidecar_block_size_with_fio_suffixes(tmp_path):
    import shutil

    shutil.copy(CORPUS / "bs-1m.terse", tmp_path / "run.terse")
    df = read_results(tmp_path / "run.terse", labels={str(tmp_path / "*"): {"block_size_bytes": "1m"}})
    assert df.block_size_bytes.tolist() == [2**20]


def test_path_labels_are_numbers(tmp_path):
    import shutil

    for qd in (1, 16):
        (tmp_path / f"qd{qd}").mkdir()
        shutil.copy(CORPUS / "bs-4kb.json", tmp_path / f"qd{qd}" / "run.json")
    df = read_results(tmp_path, path_pattern="qd{qd}/*.json")
    assert df["qd"].dtype.kind == "i" and sorted(df.qd) == [1, 16]


@pytest.mark.parametrize("label, value, match", [
    ("iodepth", 4.7, "expected a Int64 value"), ("pattern", "sideways", "expected one of"),
    ("read_fraction", 7, "expected a value from 0 to 1"), ("numjobs", 0, "from 1"),
    ("iodepth", 1e30, "from 1 to"), ("block_size_bytes", float("inf"), "expected"),
    ("direct", "maybe", "true or false"),
])
def test_label_values_are_checked(tmp_path, label, value, match):
    import shutil

    shutil.copy(CORPUS / "bs-1m.terse", tmp_path / "run.terse")
    with pytest.raises(IngestError, match=match):
        read_results(tmp_path / "run.terse", labels={str(tmp_path / "*"): {label: value}}, errors="raise")
