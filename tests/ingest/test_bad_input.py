"""Bad input: a clear error or warning naming the file and what was wrong; never a traceback of
another kind, never a silently dropped row; inputs never modified. Includes property-based
mutations of real fixtures (hypothesis)."""

from __future__ import annotations

import copy
import hashlib
import json
import math
import pathlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nvmemodel import IngestError, IngestWarning
from nvmemodel.ingest import read_file, read_results
from nvmemodel.ingest.fio_json import rows_from_document

DATA = pathlib.Path(__file__).parents[1] / "data" / "fio"
DATA_ROUND3 = pathlib.Path(__file__).parents[1] / "data" / "fio_round3"
JSON_FIXTURES = sorted(DATA.glob("*.json"))


def write(tmp_path, name, content):
    p = tmp_path / name
    (p.write_bytes if isinstance(content, bytes) else p.write_text)(content)
    return p


@pytest.mark.parametrize("name, content, match", [
    ("empty.json", "", "empty file"),
    ("blank.txt", "  \n\n", "empty file"),
    ("binary.bin", b"\x00\x01\x02\xff" * 100, "binary file"),
    ("latin.txt", b"\xfa\x81 not utf8 \x81", "not UTF-8 text"),
    ("other.json", '{"name": "not fio", "values": [1, 2]}', "JSON document that is not fio"),
    ("list.json", "[1, 2, 3]", "JSON document that is not fio"),
    ("other.csv", "a,b,c\n1,2,3\n", "CSV that is not an IOmeter"),
    ("prose.txt", "hello world\n", "not a recognised benchmark result"),
])
def test_not_a_result(tmp_path, name, content, match):
    with pytest.raises(IngestError, match=match) as info:
        read_file(write(tmp_path, name, content))
    assert name in str(info.value)


def test_truncated_json(tmp_path):
    text = (DATA / "fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json").read_text()
    with pytest.raises(IngestError, match="truncated or malformed fio JSON"):
        read_file(write(tmp_path, "cut.json", text[: len(text) // 2]))


@pytest.mark.parametrize("mutate, match", [
    (lambda d: d["jobs"][0]["read"].__setitem__("iops", "fast"), r"jobs\[0\]\.read\.iops = 'fast': expected a number"),
    (lambda d: d["jobs"][0]["read"].__setitem__("iops", -5.0), r"jobs\[0\]\.read\.iops = -5\.0: expected a non-negative"),
    (lambda d: d["jobs"][0]["read"].pop("runtime"), r"jobs\[0\]\.read: missing field 'runtime'"),
    (lambda d: d.__setitem__("jobs", {"a": 1}), r"field 'jobs': expected a list"),
    (lambda d: d["jobs"][0]["job options"].__setitem__("bs", "huge"), r"option bs='huge'"),
    (lambda d: d["jobs"][0]["job options"].__setitem__("iodepth", "deep"), r"option iodepth='deep'"),
    (lambda d: d["jobs"][0]["job options"].__setitem__("rw", "sideways"), r"option rw='sideways'"),
])
def test_bad_values_name_file_and_field(tmp_path, mutate, match):
    doc = json.loads((DATA / "fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json").read_text())
    mutate(doc)
    p = write(tmp_path, "bad.json", json.dumps(doc))
    with pytest.raises(IngestError, match=match) as info:
        read_file(p)
    assert str(p) in str(info.value)


def test_nan_is_rejected(tmp_path):
    text = (DATA / "fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json").read_text()
    p = write(tmp_path, "nan.json", text.replace('"iops" : 60764.803920', '"iops" : NaN', 1))
    with pytest.raises(IngestError, match="iops is nan: expected a finite number"):
        read_file(p)


def test_unknown_future_keys_warn_but_read(tmp_path):
    doc = json.loads((DATA / "fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json").read_text())
    doc["quantum_stats"] = {}
    doc["jobs"][0]["energy_joules"] = 12
    p = write(tmp_path, "future.json", json.dumps(doc))
    with pytest.warns(IngestWarning, match=r"unknown (top-level fio|fio job) keys ignored") as rec:
        rows = read_file(p)
    assert len(rows) == 1 and rows[0]["iops"] > 0
    assert any("energy_joules" in str(w.message) for w in rec)


def test_folder_reports_skipped_and_returns_the_rest(tmp_path):
    good = write(tmp_path, "good.json", (DATA / "fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json").read_text())
    write(tmp_path, "empty.json", "")
    (tmp_path / "sub").mkdir()
    write(tmp_path, "sub/readme.txt", "just notes\n")
    with pytest.warns(IngestWarning, match="skipped 2 of 3"):
        df = read_results(tmp_path)
    assert len(df) == 1 and df.source_path.iloc[0] == str(good)
    assert {pathlib.Path(s.path).name for s in df.attrs["skipped"]} == {"empty.json", "readme.txt"}
    with pytest.raises(IngestError, match="empty file"):
        read_results(tmp_path, errors="raise")


def test_inputs_are_never_modified(tmp_path):
    import shutil

    for f in DATA.iterdir():
        shutil.copy(f, tmp_path / f.name)
    before = {p.name: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    with pytest.warns(IngestWarning):
        read_results(tmp_path)
    after = {p.name: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    assert before == after


# ---- property-based mutations of real fixtures ------------------------------------------

def _paths(obj, prefix=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))
    yield prefix


BAD_VALUES = st.sampled_from([None, "x", -1, -1.5, math.nan, math.inf, [], {}, True, 0, 1e300, "4k"])


def _check_rows(rows):
    for r in rows:
        for col in ("iops", "bw_bytes_per_s", "runtime_s", "io_bytes", "ios"):
            v = r[col]
            assert isinstance(v, float) and v >= 0 and not math.isinf(v), (col, v)
        assert r["direction"] in ("read", "write", "trim")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_json_parses_correctly_or_raises_ingest_error(data):
    path = data.draw(st.sampled_from(JSON_FIXTURES))
    doc = json.loads(path.read_text())
    original = copy.deepcopy(doc)
    target = data.draw(st.sampled_from([p for p in _paths(doc) if p]))
    parent = doc
    for key in target[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()):
        parent[target[-1]] = data.draw(BAD_VALUES)
    elif isinstance(parent, dict):
        del parent[target[-1]]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IngestWarning)
        try:
            rows = rows_from_document(doc, "mutated.json", snapshot=0, final=True)
        except IngestError as exc:
            assert str(exc).startswith("mutated.json: ")
            return
    _check_rows(rows)
    assert doc != original or rows


@settings(max_examples=200, deadline=None)
@given(cut=st.floats(0.0, 1.0), path=st.sampled_from(JSON_FIXTURES))
def test_truncated_fixture_parses_or_raises(tmp_path_factory, cut, path):
    text = path.read_text()
    p = tmp_path_factory.mktemp("cut") / "cut.json"
    p.write_text(text[: int(len(text) * cut)])
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IngestWarning)
        try:
            rows = read_file(p)
        except IngestError:
            return
    _check_rows(rows)


REAL = pathlib.Path(__file__).parents[3] / "shared" / "data" / "real"
TEXT_FIXTURES = sorted(DATA.glob("*.json")) + (
    sorted(REAL.glob("fio_terse/*.out"))[:2] + sorted(REAL.glob("fio_normal/*"))[:4]
    + sorted(REAL.glob("iometer_csv/*instant*")) if REAL.is_dir() else [])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_text_parses_or_raises(tmp_path, data):
    """Delete a line, or overwrite a few characters, of any fixture (terse, normal, IOmeter,
    JSON): the reader returns valid rows or raises IngestError — nothing else."""
    path = data.draw(st.sampled_from(TEXT_FIXTURES))
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    if data.draw(st.booleans()):
        del lines[i]
    else:
        line = lines[i]
        j = data.draw(st.integers(0, max(len(line) - 1, 0)))
        junk = data.draw(st.sampled_from(["-1", "x", ";", ",", "nan", "%", "999999999999", ""]))
        lines[i] = line[:j] + junk + line[j + 3:]
    p = tmp_path / f"m_{path.name}"
    p.write_text("\n".join(lines))
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IngestWarning)
        try:
            rows = read_file(p)
        except IngestError as exc:
            assert str(p) in str(exc)
            return
    for r in rows:
        for col in ("iops", "bw_bytes_per_s", "runtime_s"):
            assert not (r[col] < 0) and not math.isinf(r[col]), (col, r[col])


# A minimal IOmeter-format results file written by the test (columns named as IOmeter 1.1.0
# names them; numbers made up for the parser, not a measurement).
IOMETER = """'Test Type,Test Description
0,4K Random Read
'Version
1.1.0
'Access specifications
'size,% of size,% reads,% random,delay,burst,align,reply
4096,100,100,100,0,1,0,0,
'End access specifications
'Results
'Target Type,Target Name,Access Specification Name,# Managers,# Workers,# Disks,IOps,Read IOps,Write IOps,MiBps (Binary),Read MiBps (Binary),Write MiBps (Binary),Average Read Response Time,Bytes Read,Bytes Written,Read I/Os,Write I/Os,Total Raw Run Time,Processor Speed,Queue Depth
ALL,All,spec,1,1,1,1000,{iops},0,3.90625,3.90625,0,1.0,40960000,0,10000,0,100000000,10000000,8
"""


def test_iometer_minimal_parses(tmp_path):
    (row,) = read_file(write(tmp_path, "io.csv", IOMETER.format(iops="1000")))
    assert row["iops"] == 1000 and row["runtime_s"] == 10 and row["bw_bytes_per_s"] == 4096000
    assert row["iodepth"] == 8 and row["block_size_bytes"] == 4096 and row["lat_mean_s"] == 1e-3


@pytest.mark.parametrize("iops, match", [("fast", "column 'Read IOps' = 'fast': expected a number"),
                                         ("-5", "column 'Read IOps' = '-5': expected a finite number >= 0"),
                                         ("nan", "column 'Read IOps' = 'nan'")])
def test_iometer_bad_cells_are_named(tmp_path, iops, match):
    p = write(tmp_path, "io.csv", IOMETER.format(iops=iops))
    with pytest.raises(IngestError, match=match) as info:
        read_file(p)
    assert "test 0, ALL row 'All'" in str(info.value)


def test_iometer_truncated_block(tmp_path):
    text = IOMETER.format(iops="1000")
    p = write(tmp_path, "io.csv", text[: text.index("'Results")])
    with pytest.raises(IngestError, match="no result rows"):
        read_file(p)


def test_fio_3_30_prios_are_accepted_silently(tmp_path):
    # fio >= 3.30 adds a per-priority "prios" list inside each direction; it is known, not tabulated.
    import warnings

    doc = json.loads((DATA / "fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json").read_text())
    doc["fio version"] = "fio-3.30"
    doc["jobs"][0]["read"]["prios"] = [{"prioclass": 0, "prio": 4, "clat_ns": {"mean": 1.0}}]
    p = write(tmp_path, "prios.json", json.dumps(doc))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (row,) = read_file(p)
    assert row["tool_version"] == "fio-3.30" and row["iops"] > 0


def test_links_into_kernel_state_are_not_walked(tmp_path):
    # a link to /proc (or /) inside a results folder made a folder ingest walk kernel state for ever
    import os

    (tmp_path / "r.json").write_text((DATA_ROUND3 / "three-jobs.json").read_text())
    os.symlink("/proc", tmp_path / "proc_link")
    os.symlink("/", tmp_path / "root_link")
    os.symlink("/proc/self/status", tmp_path / "status_link")
    with pytest.warns(IngestWarning, match="skipped 3"):
        df = read_results(tmp_path)
    assert len(df) == 3
    reasons = {pathlib.Path(s.path).name: s.reason for s in df.attrs["skipped"]}
    assert set(reasons) == {"proc_link", "root_link", "status_link"}
    assert all("kernel state" in r for r in reasons.values())
    with pytest.raises(IngestError, match="kernel state"):
        read_results("/proc/self", errors="raise")
