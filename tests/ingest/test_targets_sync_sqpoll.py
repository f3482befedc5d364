"""targets under group_reporting and directory=, fio's sync block, and latencies that contradict each other.

Every file under tests/data/fio_targets_sync/ was measured here with fio 3.33 by its gen.sh (README.md there).
"""

from __future__ import annotations

import json
import math
import re
import warnings

import pytest

from nvmemodel import read_results
from nvmemodel.errors import IngestWarning
from nvmemodel.ingest.fio_json import latency_inconsistency
from nvmemodel.ingest.fio_json_packed import packed_rows
from nvmemodel.ingest.fio_options import directory_files
from nvmemodel.ingest.schema import COLUMNS, MEASUREMENTS

from ..conftest import ROOT

DATA = ROOT / "tests" / "data" / "fio_targets_sync"


def quiet(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IngestWarning)
        return read_results(path)


def fio_json(name: str) -> dict:
    return json.loads((DATA / name).read_text())


# --- 1. targets -----------------------------------------------------------------------------------------------

def test_one_section_per_device_without_group_reporting_counts_every_device():
    df = read_results(DATA / "sections_nogroup.json")
    assert list(df["target_names"]) == ["/dev/loop0", "/dev/loop1", "/dev/loop2"]
    assert (df["targets"] == 3).all() and (df["device_count"] == 3).all()


def test_a_group_of_sections_with_their_own_filename_has_no_targets_rather_than_the_last_device():
    # fio 3.33 echoed only the last section's filename (/dev/loop2) under the first section's name, d0
    assert fio_json("sections_group.json")["jobs"][0]["job options"] == {"filename": "/dev/loop2"}
    with pytest.warns(IngestWarning, match=r"sections_group\.json: jobs\[0\] \('d0'\) is a group_reporting sum of 3 "
                                           r"jobs whose sections set their own filename=.*filename=/dev/loop2.*"
                                           r"target_names and targets are NA.*3 device\(s\).*loop0, loop1, loop2"), \
            pytest.warns(IngestWarning, match=r"sections_group\.json: jobs\[0\] \('d0'\) is a group_reporting sum of 3 "
                                              r"jobs that set their own options.*iodepth not set.*iodepth is not tabulated"):
        df = read_results(DATA / "sections_group.json")
    assert len(df) == 1 and df["level"].iloc[0] == "group" and df["numjobs"].iloc[0] == 3
    assert df["targets"].isna().all() and df["target_names"].isna().all()  # was 1 and /dev/loop2
    assert df["device_count"].iloc[0] == 3 and df["devices"].iloc[0] == "loop0;loop1;loop2"
    assert packed_rows(fio_json("sections_group.json"), "x") is None  # (the fast path leaves it to this reader)


def test_the_job_file_echoed_before_a_group_gives_every_sections_files():
    df = quiet(DATA / "sections_group_echoed.txt")
    assert len(df) == 1 and df["level"].iloc[0] == "group"
    assert df["target_names"].iloc[0] == "/dev/loop0;/dev/loop1;/dev/loop2" and df["targets"].iloc[0] == 3


def _made_by_fio() -> set[str]:
    """The files fio created in the runs' directories (`ls -R` after the runs, directory_files.txt)."""
    made, folder = set(), None
    for line in (DATA / "directory_files.txt").read_text().splitlines():
        if line.endswith(":"):
            folder = line[:-1]
        elif line.strip():
            made.add(f"{folder}/{line.strip()}")
    return made


def test_directory_jobs_name_the_files_fio_made():
    df = read_results(DATA / "directory.json")  # numjobs=2, nrfiles=2: four files, two per clone
    names = [n.split(";") for n in df["target_names"]]
    assert [[p.rsplit("/", 1)[1] for p in n] for n in names] == [["dj.0.0", "dj.0.1"], ["dj.1.0", "dj.1.1"]]
    assert (df["targets"] == 4).all()
    assert {p for n in names for p in n} <= _made_by_fio()


def test_a_directory_job_reported_as_a_group_names_all_its_clones_files():
    df = read_results(DATA / "directory_group.json")
    assert len(df) == 1 and df["targets"].iloc[0] == 4
    assert set(df["target_names"].iloc[0].split(";")) <= _made_by_fio()


def test_two_directories_take_the_clones_in_turn():
    df = read_results(DATA / "directory_two.json")  # directory=dirA:dirB, numjobs=2
    assert [n.split("/")[-2:] for n in df["target_names"]] == [["dirA", "dk.0.0"], ["dirB", "dk.1.0"]]
    assert (df["targets"] == 2).all() and set(df["target_names"]) <= _made_by_fio()


def test_a_filename_under_directory_is_the_first_directorys_file():
    df = read_results(DATA / "directory_filename.json")  # directory=dirC:dirD filename=rel.dat numjobs=2
    listing = (DATA / "directory_filename_files.txt").read_text().split("\n\n")
    made = [block.splitlines()[0][:-1] + "/" + name for block in listing for name in block.splitlines()[1:]]
    assert made[0].endswith("/dirC/rel.dat") and len(made) == 1  # fio made one file, for both clones
    assert list(df["target_names"]) == made * 2 and (df["targets"] == 1).all()


@pytest.mark.parametrize(("extra", "said"), [({"filename_format": "f.$jobnum"}, "filename_format"),
                                             ({"opendir": "/data"}, "opendir"),
                                             ({"nrfiles": "9999"}, "9999 files")])
def test_directory_jobs_whose_files_the_output_cannot_name_have_no_targets(tmp_path, extra, said):
    doc = fio_json("directory.json")  # (a copy of the measured report with one option added to each job)
    for job in doc["jobs"]:
        job["job options"].update(extra)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        df = read_results(path)
    said_ = [str(w.message) for w in record]
    assert len(said_) == 2 and all(re.search(rf"edited\.json: jobs\[[01]\] \('dj'\) writes under directory=.*{said}.*"
                                             r"target_names and targets are NA", m) for m in said_), said_
    assert df["targets"].isna().all() and df["target_names"].isna().all()


def test_directory_files_follow_fios_names():
    assert directory_files({"directory": "/a:/b", "nrfiles": "2"}, "j", 3) == \
        ["/a/j.0.0", "/a/j.0.1", "/b/j.1.0", "/b/j.1.1", "/a/j.2.0", "/a/j.2.1"]
    assert directory_files({"directory": "/a"}, "j", 4, clone=3) == ["/a/j.3.0"]
    assert "may itself be a file" in directory_files({"directory": "/a"}, "/dev/nvme0n1", 1)


# --- 2. fio's sync block ------------------------------------------------------------------------------------

def test_fsync_latency_is_tabulated_on_the_write_row():
    sync = fio_json("fsync.json")["jobs"][0]["sync"]
    df = read_results(DATA / "fsync.json")
    row = df.iloc[0]
    assert len(df) == 1 and row["direction"] == "write" and row["fsync_every"] == 8
    assert row["sync_ios"] == sync["lat_ns"]["N"] == sync["total_ios"] == 135  # 1080 writes / 8
    assert row["sync_lat_mean_s"] == pytest.approx(sync["lat_ns"]["mean"] * 1e-9, rel=1e-12)
    assert row["sync_lat_max_s"] == pytest.approx(sync["lat_ns"]["max"] * 1e-9, rel=1e-12)
    assert row["sync_lat_p99_s"] == pytest.approx(sync["lat_ns"]["percentile"]["99.000000"] * 1e-9, rel=1e-12)


@pytest.mark.parametrize("name", ["fsync.json", "fdatasync.json"])
def test_littles_law_needs_the_sync_time(name):
    # psync at depth 1: the job is busy in a write or a sync all the time. The writes' own latency is under 1 % of
    # the runtime (lat_mean_s excludes the syncs); writes plus syncs are the runtime (measured 0.9988 and 0.9981)
    row = read_results(DATA / name).iloc[0]
    writes = row["ios"] * row["lat_mean_s"] / row["runtime_s"]
    both = (row["ios"] * row["lat_mean_s"] + row["sync_ios"] * row["sync_lat_mean_s"]) / row["runtime_s"]
    assert writes < 0.01
    assert both == pytest.approx(1.0, abs=0.01)  # (the job's set-up time is outside the direction's runtime)


def test_fdatasync_calls_are_counted_from_the_latency_samples():
    sync = fio_json("fdatasync.json")["jobs"][0]["sync"]
    assert sync["total_ios"] == 0 and sync["lat_ns"]["N"] == 127  # fio counts only fsync calls in total_ios
    row = read_results(DATA / "fdatasync.json").iloc[0]
    assert row["sync_ios"] == 127 and row["fdatasync_every"] == 16


def test_jobs_without_syncs_have_no_sync_numbers():
    df = read_results(DATA / "sections_nogroup.json")  # sync block: total_ios 0, N 0
    assert df[[c for c in COLUMNS if c.startswith("sync_")]].isna().all().all()


def test_sync_columns_are_schema_measurements():
    cols = [c for c in COLUMNS if c.startswith("sync_")]
    assert cols == ["sync_ios", "sync_lat_mean_s", "sync_lat_max_s", "sync_lat_p50_s", "sync_lat_p90_s",
                    "sync_lat_p95_s", "sync_lat_p99_s", "sync_lat_p99_9_s", "sync_lat_p99_99_s"]
    assert all(COLUMNS[c][1] == "s" for c in cols[1:]) and set(cols) <= set(MEASUREMENTS)


# --- 3. latencies that contradict each other -----------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:.*above the row's largest latency:nvmemodel.errors.IngestWarning")  # (its own test)
def test_sqpoll_completion_latency_above_the_largest_latency_is_warned_and_kept():
    read = fio_json("sqpoll.json")["jobs"][0]["read"]
    assert read["clat_ns"]["mean"] > read["lat_ns"]["max"]  # 1.226 s against 0.066 s: fio 3.33's record
    with pytest.warns(IngestWarning, match=r"sqpoll\.json: jobs\[0\] \('sq'\): read\.clat_ns\.mean = 1\.22592 s is "
                                           r"more than read\.lat_ns\.max = 0\.0662893 s: an internally inconsistent "
                                           r"fio record \(the job ran io_uring with sqthread_poll.*c011bf1.*kept as "
                                           r"written"):
        df = read_results(DATA / "sqpoll.json")
    assert df["clat_mean_s"].iloc[0] == pytest.approx(read["clat_ns"]["mean"] * 1e-9, rel=1e-12)  # not corrected
    assert df["lat_mean_s"].iloc[0] == pytest.approx(read["lat_ns"]["mean"] * 1e-9, rel=1e-12)


@pytest.mark.filterwarnings("ignore:.*above the row's largest latency:nvmemodel.errors.IngestWarning")
def test_the_terse_line_of_an_sqpoll_run_is_warned_about_too():
    with pytest.warns(IngestWarning, match=r"sqpoll\.terse: line 1 \('sq'\) read: clat_mean_s 1\.20076 s is more than "
                                           r"lat_max_s 0\.020005 s: an internally inconsistent fio record.*sqthread_poll"):
        df = read_results(DATA / "sqpoll.terse")
    assert df["clat_mean_s"].iloc[0] == pytest.approx(1200759.223729e-6, rel=1e-12)  # terse µs, kept


def test_terse_maxima_cut_to_whole_microseconds_are_not_inconsistent():
    # fio 3.33 terse of one 12,484 ns read: max printed 12 (µs, cut down), mean 12.484: not a contradiction
    path = ROOT / "tests" / "data" / "fio_corpus" / "failed-verify.terse"
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        read_results(path)
    assert not [w for w in record if "internally inconsistent" in str(w.message)]


def test_an_edited_record_is_warned_about_without_the_sqpoll_reason(tmp_path):
    doc = fio_json("sections_nogroup.json")
    doc["jobs"][1]["read"]["clat_ns"]["mean"] = doc["jobs"][1]["read"]["lat_ns"]["mean"] * 1.5  # (edited copy)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    with pytest.warns(IngestWarning, match=r"jobs\[1\] \('d1'\): read\.clat_ns\.mean = .* is more than "
                                           r"read\.lat_ns\.mean = .*\(an edited or corrupt file, or a fio bug\)"):
        read_results(path)


@pytest.mark.parametrize(("values", "broken"), [
    ((1e-4, 9e-5, 1e-5, 2e-3), None),
    ((1e-4, 9e-5, math.nan, 2e-3), None),  # not measured breaks nothing
    ((3.4e-2, 1.23, math.nan, 6.6e-2), ("clat_mean_s", "lat_max_s")),  # the sqpoll record
    ((3e-3, 9e-5, 1e-5, 2e-3), ("lat_mean_s", "lat_max_s")),
    ((1e-4, 1.01e-4, 1e-5, 2e-3), ("clat_mean_s", "lat_mean_s")),
    ((1e-4, 1.0000001e-4, 1e-5, 2e-3), None),  # (within fio's rounding of its means)
    ((1e-4, 9e-5, 2e-4, 2e-3), ("slat_mean_s", "lat_mean_s")),
])
def test_latency_relations(values, broken):
    assert latency_inconsistency(*values) == broken


def test_no_other_real_fio_json_of_the_test_data_breaks_the_relations(tmp_path):
    # every fio JSON report under tests/data but the blind explain corpus: the check warns only where fio's record
    # itself is wrong (this folder's sqpoll run)
    said = []
    for path in sorted((ROOT / "tests" / "data").rglob("*.json")):
        if "explain_corpus" in path.parts or path.name == "sqpoll.json":
            continue
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            try:
                read_results(path)
            except Exception:  # noqa: BLE001 - files that are not fio results, refused elsewhere
                continue
        said += [f"{path}: {w.message}" for w in record if "internally inconsistent" in str(w.message)]
    assert said == []
