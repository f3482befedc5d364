"""The job options that say how fio submitted and completed I/O (hipri, sqthread_poll, the depth marks,
cpus_allowed) and fio's context-switch count (ctx), on every reader that has them.

Every file under tests/data/fio_engine_options/ was measured here with fio 3.33 by its gen.sh (README.md there).
"""

from __future__ import annotations

import json
import math
import pathlib
import warnings

import pandas as pd
import pytest

from nvmemodel import read_results
from nvmemodel.errors import IngestError, IngestWarning
from nvmemodel.ingest.fio_json import rows_from_document
from nvmemodel.ingest.fio_json_packed import packed_rows
from nvmemodel.ingest.fio_options import ENGINE_COLUMNS
from nvmemodel.ingest.schema import COLUMNS, schema_table

from ..conftest import ROOT

DATA = ROOT / "tests" / "data" / "fio_engine_options"
OPTIONS = list(ENGINE_COLUMNS)


def quiet(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IngestWarning)
        return read_results(path)


def one(path) -> dict:
    df = quiet(path)
    assert len(df) == 1
    return df.iloc[0].to_dict()


def na(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def test_the_schema_names_each_column_once_with_its_type():
    for name, dtype in (("hipri", "Int64"), ("sqthread_poll", "Int64"), ("iodepth_low", "Int64"),
                        ("iodepth_batch", "Int64"), ("iodepth_batch_complete", "Int64"), ("cpus_allowed", "string"),
                        ("ctx", "float64")):
        assert COLUMNS[name][0] == dtype
        assert f"| `{name}` |" in schema_table()


def test_io_uring_hipri_0_with_its_depth_marks_and_cpus():
    # --hipri=0 --iodepth=4 --iodepth_batch_submit=2 --iodepth_low=2 --iodepth_batch_complete=1 --cpus_allowed=0
    row = one(DATA / "io_uring_hipri0.json")
    assert row["hipri"] == 0
    assert (row["iodepth"], row["iodepth_low"], row["iodepth_batch"], row["iodepth_batch_complete"]) == (4, 2, 2, 1)
    assert row["cpus_allowed"] == "0"
    assert row["ctx"] == 208.0  # the job's "ctx" : 208 in the file


def test_io_uring_sqthread_poll_absent_is_unknown_not_zero():
    # io_uring has the flag; fio's JSON leaves a bare --sqthread_poll out of its job options (pvsync2 below shows
    # the same for --hipri), so its absence proves nothing
    assert na(one(DATA / "io_uring_hipri0.json")["sqthread_poll"])


def test_hipri_1_refused_keeps_the_option_on_the_failed_row():
    # /dev/zero has no poll queues: fio error 95 (EOPNOTSUPP); the row keeps its options, not its numbers
    row = one(DATA / "io_uring_hipri1.json")
    assert row["error"] == 95 and row["hipri"] == 1 and math.isnan(row["ctx"])


def test_a_bare_hipri_is_not_in_fios_json_so_it_stays_unknown():
    bare = DATA / "pvsync2_bare_hipri.json"
    assert "hipri" not in json.loads(bare.read_text())["jobs"][0]["job options"]  # what fio 3.33 wrote
    row = one(bare)
    assert na(row["hipri"]) and row["sqthread_poll"] == 0  # pvsync2 has no sqthread_poll option
    assert one(DATA / "pvsync2_hipri1.json")["hipri"] == 1


def test_sqpoll_and_a_batch_above_iodepth_run_as_fio_runs_them():
    # --sqthread_poll=1 --iodepth=8 --iodepth_batch=16: fio's fixup_options sets a batch above iodepth to iodepth,
    # and iodepth_low (default 0) to iodepth
    row = one(DATA / "sqpoll.json")
    assert row["sqthread_poll"] == 1 and na(row["hipri"])
    assert (row["iodepth_low"], row["iodepth_batch"], row["iodepth_batch_complete"]) == (8, 8, 1)
    assert na(row["cpus_allowed"])
    assert row["ctx"] == 75.0


def test_engines_without_the_options_are_0_and_ctx_sums_over_a_group():
    group = one(DATA / "libaio_group.json")
    assert group["level"] == "group" and (group["hipri"], group["sqthread_poll"]) == (0, 0)
    assert group["ctx"] == 212.0  # fio's sum over the group's 2 jobs
    jobs = quiet(DATA / "libaio_numjobs.json")
    assert list(jobs["ctx"]) == [106.0, 77.0] and list(jobs["iodepth_low"]) == [4, 4]


def test_terse_and_normal_carry_ctx_and_no_options():
    terse = one(DATA / "io_uring.terse")
    assert terse["ctx"] == 142.0 and all(na(terse[c]) for c in OPTIONS)
    normal = one(DATA / "io_uring.normal")  # "cpu : usr=19.50%, sys=17.70%, ctx=127, …"
    assert normal["ctx"] == 127.0 and normal["ioengine"] == "io_uring" and all(na(normal[c]) for c in OPTIONS)


def test_an_echoed_command_gives_the_options_a_bare_flag_included():
    row = one(DATA / "echoed_sqpoll_terse.txt")  # fio … --sqthread_poll --iodepth=8 --iodepth_low=4, then terse
    assert (row["sqthread_poll"], row["hipri"], row["iodepth_low"], row["iodepth_batch"]) == (1, 0, 4, 1)
    assert row["ctx"] == 71.0


def _doc(name: str) -> dict:
    return json.loads((DATA / name).read_text())


@pytest.mark.parametrize(("glob", "own", "expected"), [
    ({"hipri": "1"}, {}, 1), ({"hipri": "1"}, {"hipri": "0"}, 0), ({"hipri": "0"}, {"hipri": "1"}, 1),
    ({"cpus_allowed": "0-1"}, {"cpus_allowed": "1"}, "1"), ({"iodepth_low": "3"}, {}, 3)])
def test_a_jobs_option_overrides_the_global_one(glob, own, expected):
    doc = _doc("io_uring_hipri0.json")
    opts = doc["jobs"][0]["job options"]
    for key in ("hipri", "cpus_allowed", "iodepth_low"):
        opts.pop(key)
    opts.update(own)
    doc["global options"] = glob
    col = next(iter(glob))
    general = rows_from_document(doc, "x.json", snapshot=0, final=True)
    assert general[0][col] == expected
    packed = packed_rows(doc, "x.json")
    assert packed is not None and packed[0][list(COLUMNS).index(col)] == expected


def test_the_packed_reader_gives_the_general_readers_values():
    for name in ("io_uring_hipri0.json", "sqpoll.json", "libaio_numjobs.json", "pvsync2_bare_hipri.json"):
        doc = _doc(name)
        packed = packed_rows(doc, name)
        if packed is None:  # (read by the general reader: nothing to compare)
            continue
        general = rows_from_document(doc, name, snapshot=0, final=True)
        for p, g in zip(packed, general, strict=True):
            for col in (*OPTIONS, "ctx"):
                a, b = p[list(COLUMNS).index(col)], g[col]
                assert a == b or (na(a) and na(b)), (name, col, a, b)


@pytest.mark.parametrize(("key", "value"), [("hipri", "yes"), ("iodepth_batch", "-1"), ("iodepth_low", "x")])
def test_a_value_fio_would_refuse_is_an_error_naming_the_option(key, value):
    doc = _doc("io_uring_hipri0.json")
    doc["jobs"][0]["job options"][key] = value
    with pytest.raises(IngestError, match=f"option {key}="):
        rows_from_document(doc, "x.json", snapshot=0, final=True)


def test_a_ctx_that_is_not_a_count_is_an_error_naming_the_field():
    doc = _doc("io_uring_hipri0.json")
    doc["jobs"][0]["ctx"] = -3
    with pytest.raises(IngestError, match="ctx"):
        rows_from_document(doc, "x.json", snapshot=0, final=True)


def test_a_group_of_sections_keeps_the_global_options_and_not_the_last_jobs_own():
    # fio echoes a group_reporting sum of several sections with the last section's own options: what that section
    # sets itself is not known for the group (NA); the global options are every section's
    doc = json.loads((ROOT / "tests" / "data" / "fio_targets_sync" / "sections_group.json").read_text())
    doc["jobs"][0]["job options"]["cpus_allowed"] = "1"
    doc["global options"]["iodepth_batch"] = "2"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IngestWarning)
        row = rows_from_document(doc, "x.json", snapshot=0, final=True)[0]
    assert row["level"] == "group" and row["numjobs"] == 3
    assert row["cpus_allowed"] is None and row["hipri"] == 0  # (psync: no hipri option)
    assert row["iodepth_batch"] == 1  # 2 above iodepth 1: fio runs 1
    assert row["ctx"] == doc["jobs"][0]["ctx"]  # fio's sum over the 3 jobs, as written


@pytest.mark.parametrize("version", ["2", "3", "4", "5"])
def test_terse_ctx_is_the_json_ctx_of_the_same_run_in_every_terse_version(version, tmp_path):
    # tests/data/qa6/tersever/vN.txt: one run written with --output-format=json,terse --terse-version=N (fio 3.33);
    # every version prints usr %;sys %;ctx;majf;minf (fio stat.c show_thread_status_terse_all)
    text = (ROOT / "tests" / "data" / "qa6" / "tersever" / f"v{version}.txt").read_text()
    start = text.index("{")
    doc, _ = json.JSONDecoder().raw_decode(text, start)
    terse = tmp_path / f"v{version}.terse"
    terse.write_text("\n".join(line for line in text.splitlines() if line.startswith(f"{version};")) + "\n")
    df = quiet(terse)
    assert df["format"].iloc[0] == f"fio-terse-v{version}"
    assert set(df["ctx"]) == {float(doc["jobs"][0]["ctx"])}


def test_normal_ctx_is_the_json_ctx_of_the_same_group(tmp_path):
    # io_uring --numjobs=2 --group_reporting written as json,normal: "ctx" : 311 and "cpu : … ctx=311"
    text = (DATA / "io_uring_group.json_normal.txt").read_text()
    doc, end = json.JSONDecoder().raw_decode(text, text.index("{"))
    normal = tmp_path / "group.normal"
    normal.write_text(text[end:].lstrip("\n"))
    row = one(normal)
    assert row["format"] == "fio-normal" and row["ctx"] == float(doc["jobs"][0]["ctx"]) == 311.0
    json_row = one(DATA / "io_uring_group.json_normal.txt")
    assert json_row["level"] == "group" and json_row["ctx"] == 311.0 and json_row["hipri"] == 0


def test_an_echo_is_not_applied_to_a_pasted_run_whose_output_names_another_engine():
    """A terminal log with one echoed command and a script's output pasted after it (made here by
    tests/data/fio_echo_pasted/gen.sh; the form met in a public log, Ingimarsson/iouring-perf-analysis exp_17): the
    echo's options (iodepth_low=2) belong to the libaio run, not to the psync run whose header says ioengine=psync."""
    import warnings

    import nvmemodel as nm

    path = pathlib.Path(__file__).parents[1] / "data" / "fio_echo_pasted" / "pasted_log.txt"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = nm.read_results(path)
    assert list(t["ioengine"]) == ["libaio", "psync"]
    assert t["iodepth_low"].iloc[0] == 2
    assert pd.isna(t["iodepth_low"].iloc[1])
    assert any("ioengine: output psync, echo libaio" in str(w.message) for w in caught)
