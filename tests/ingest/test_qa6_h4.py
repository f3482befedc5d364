"""QA s25 H4: terse runs appended to one file were summed as "clones of one run" although each line's
IO-depth distribution (terse fields "IO depths 1;2;4;8;16;32;>=64") or mean block size says it was
another run. Data: tests/data/qa6/tersapp (fio 3.33, libaio 4 KiB randread at iodepth 1, 2, 4, 8, 16, 32
appended with ``--output-format=terse >>``; and bs 4k then 64k at iodepth 4)."""

from __future__ import annotations

import pathlib
import warnings

import pytest

from nvmemodel.errors import IngestWarning
from nvmemodel.ingest import read_results
from nvmemodel.ingest.fio_terse import _differ

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "qa6" / "tersapp"


def _read(path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = read_results(path)
    return df, [str(w.message) for w in caught]


def test_lines_that_ran_at_other_depths_are_runs_appended_not_clones():
    df, said = _read(DATA / "qd_appended.terse")
    assert list(df["run"]) == [0, 1, 2, 3, 4, 5] and list(df["snapshot"]) == [0, 1, 2, 3, 4, 5]
    assert df["final"].all() and df["level"].isna().all() and df["numjobs"].isna().all()
    # each run's own IOPS (fio's terse field), never their 357.7 K sum
    assert list(df["iops"]) == [15356.0, 25142.0, 39929.0, 65574.0, 96995.0, 114749.0]
    assert not any("clones" in s for s in said)
    # the buckets are ranges (io_u_mark_depth: 2-3, 4-7, …) and a synchronous completion counts as depth 1
    # whatever the iodepth option (tests/data/fio_corpus bs-4K-upper: null engine, iodepth=8, 100 % at 1):
    # the option is not taken from them
    assert df["iodepth"].isna().all()


def test_the_submission_latency_note_counts_the_rows_it_is_about():
    _, said = _read(DATA / "qd_appended.terse")
    note = [s for s in said if "submission latency" in s]
    # (QA s25 H14: named by line; the other 5 lines' are not all 'clearly of completion latency')
    assert len(note) == 1 and "the read percentiles of 1 row(s) (line 3) are not tabulated" in note[0]


def test_lines_of_other_block_sizes_are_runs_appended_not_clones():
    df, said = _read(DATA / "bs_appended.terse")
    assert list(df["run"]) == [0, 1] and list(df["block_size_bytes"]) == [4096.0, 65536.0]
    assert list(df["iops"]) == [42809.0, 14956.0] and df["numjobs"].isna().all()
    assert not any("clones" in s for s in said)


def test_lines_that_agree_are_still_read_as_clones_with_the_warning(tmp_path):
    line = (DATA / "qd_appended.terse").read_text().splitlines()[3]  # the iodepth-8 run
    path = tmp_path / "clones.terse"
    path.write_text(f"{line}\n{line}\n")
    with pytest.warns(IngestWarning, match="2 terse lines of job 'tq' read as clones of one run"):
        df = read_results(path)
    assert list(df["run"]) == [0, 0] and list(df["numjobs"]) == [2, 2] and list(df["level"]) == ["job", "job"]


def test_depth_distributions_that_overlap_are_not_told_apart():
    # clones of one job on a fast device can spread over neighbouring buckets in different shares
    a = (frozenset({3, 4}), {"read": 4096.0})
    assert not _differ(a, (frozenset({4}), {"read": 4096.0}))
    assert _differ(a, (frozenset({5}), {"read": 4096.0}))
    assert not _differ((frozenset(), {}), (frozenset({0}), {}))  # a line with no I/O says nothing
    assert not _differ((frozenset({2}), {"read": 4096.0}), (frozenset({2}), {"read": 5000.0}))  # bsrange clones
    assert _differ((frozenset({2}), {"read": 4096.0}), (frozenset({2}), {"read": 8192.0}))
