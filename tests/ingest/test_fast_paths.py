"""The ingest's fast paths (issue 20: ingest within 2x of the orjson parse-only floor) give
exactly what the general code gives: one-pass fio JSON directions against the fully checked
reader of every field, and the column-wise table against from_records + astype."""

from __future__ import annotations

import json
import math
import pathlib
import warnings

import pandas as pd
import pytest

from nvmemodel.errors import IngestError, IngestWarning
from nvmemodel.ingest import fio_json
from nvmemodel.ingest.api import read_file
from nvmemodel.ingest.schema import COLUMNS, to_frame

DATA = pathlib.Path(__file__).parents[1] / "data"
JSON_FILES = sorted(p for d in ("fio", "fio_corpus", "fio_round3", "fio_sweep") for p in (DATA / d).rglob("*.json*"))


def _directions():
    for path in JSON_FILES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                docs, _ = fio_json._decode_documents(path.read_text(), path)
            except IngestError:
                continue
        for doc in docs:
            for job in doc.get("client_stats", doc.get("jobs", [])):
                for d in ("read", "write", "trim", "mixed"):
                    if isinstance(job.get(d), dict):
                        yield path, d, job[d]


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return a.keys() == b.keys() and all(
        (isinstance(a[k], float) and math.isnan(a[k]) and math.isnan(b[k])) or a[k] == b[k] for k in a)


def test_fast_direction_reader_equals_the_checked_one():
    n = fast = total_percentiles = 0
    for path, d, block in _directions():
        n += 1
        got = fio_json._direction_fast(block, d)
        if got is fio_json._SLOW:
            # (total-latency percentiles, lat_percentiles=1: the checked reader reads them)
            total_percentiles += "percentile" in block.get("lat_ns", {})
            continue
        fast += 1
        assert _same(got, fio_json._direction_rows(block, d, path, d)), (path.name, d)
    # every real direction takes the fast path but the one run with total-latency percentiles
    assert n > 300 and total_percentiles == 1 and fast == n - total_percentiles


@pytest.mark.parametrize("field, value", [("runtime", -1), ("iops", float("inf")), ("total_ios", 2**63),
                                          ("io_bytes", "12"), ("bw_bytes", float("nan"))])
def test_fast_path_leaves_bad_values_to_the_checked_reader(field, value):
    # a bad value is never read by the fast path; the checked reader names it
    doc = json.loads((DATA / "fio_round3" / "three-jobs.json").read_text())
    block = doc["jobs"][0]["read"]
    block[field] = value
    assert fio_json._direction_fast(block, "read") is fio_json._SLOW
    with pytest.raises(IngestError, match=field):
        fio_json._direction_rows(block, "read", "x.json", "jobs[0].read")


@pytest.mark.parametrize("value", [True, 2**63, -3, "100", 1e306])
def test_fast_path_checks_a_fio2_kib_bandwidth_before_scaling_it(value):
    # fio < 3.2 writes only "bw" (KiB/s): a value the checked reader refuses (a bool, an integer
    # beyond 2**63, a float that is infinite once multiplied by 1024) must not become an acceptable
    # number; the packed reader leaves the document to the general one
    from nvmemodel.ingest.fio_json_packed import packed_rows

    doc = json.loads((DATA / "fio" / "pkb_fio-2.1.4_sample-result.json").read_text())
    block = doc["jobs"][1]["read"]  # 361,984 KiB read
    assert "bw_bytes" not in block and fio_json._direction_fast(block, "read")["bw_bytes_per_s"] == 129836 * 1024
    assert packed_rows(doc, "x.json")[1][list(COLUMNS).index("bw_bytes_per_s")] == 129836 * 1024
    block["bw"] = value
    assert fio_json._direction_fast(block, "read") is fio_json._SLOW
    assert packed_rows(doc, "x.json") is None
    with pytest.raises(IngestError, match="bw"):
        fio_json._direction_rows(block, "read", "x.json", "jobs[0].read")


def test_fast_path_refuses_fio2_kib_bytes_that_scaling_makes_infinite():
    from nvmemodel.ingest.fio_json_packed import packed_rows

    doc = json.loads((DATA / "fio" / "pkb_fio-2.1.4_sample-result.json").read_text())
    block = doc["jobs"][1]["read"]
    block["io_bytes"] = 1e306  # KiB: finite as written, infinite in bytes
    assert fio_json._direction_fast(block, "read") is fio_json._SLOW and packed_rows(doc, "x.json") is None
    with pytest.raises(IngestError, match="io_bytes"):
        fio_json._direction_rows(block, "read", "x.json", "jobs[1].read")


def _reference_frame(rows, labels):
    columns = list(COLUMNS) + [c for c in labels if c not in COLUMNS]
    df = pd.DataFrame.from_records(rows, columns=columns)
    for name, (dtype, _, _) in COLUMNS.items():
        df[name] = df[name].astype(dtype)
    return df


def test_column_wise_table_equals_from_records():
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path in sorted((DATA / "fio_round3").iterdir()):
            if path.is_file() and (path.suffix not in (".py", ".txt") or path.name.startswith("appended")):
                rows += read_file(path)
    rows[0]["drives"], rows[1]["drives"] = 4, 8  # a label on some rows only
    pd.testing.assert_frame_equal(to_frame(rows, ["drives"]), _reference_frame(rows, ["drives"]))
    del rows[2]["pattern"]  # a row without every column still builds
    pd.testing.assert_frame_equal(to_frame(rows), _reference_frame(rows, []))


@pytest.mark.parametrize("values", [[1, None, 16], [2**53 + 1, None, 3], [-(2**62), None, 0], [None, None, None],
                                    [2**63 + 5, None, 1], [2**63 + 5, 1, 2], [2**62, 1, 2]])
def test_typed_integer_and_boolean_columns_equal_pd_array(values):
    # integer columns with NA go through float64 where that is exact (below 2**53), else through objects
    from nvmemodel.ingest.schema import new_row

    flags = [None if v is None else bool(i % 2) for i, v in enumerate(values)]
    rows = [new_row(iodepth=v, direct=f, tool="fio") for v, f in zip(values, flags)]
    try:
        expected = pd.array(values, dtype="Int64")
    except (TypeError, ValueError, OverflowError):  # beyond Int64: the typed table raises as pandas does
        with pytest.raises((TypeError, ValueError, OverflowError)):
            to_frame(rows)
        return
    df = to_frame(rows)
    pd.testing.assert_extension_array_equal(df["iodepth"].array, expected)
    pd.testing.assert_extension_array_equal(df["direct"].array, pd.array(flags, dtype="boolean"))


# -- the bytes path, the usual direction, the option cache, the folder walk (issue 20, ingest speed) --

def _text_path_rows(path):
    """What read_file gives through the text path (decode, detect, read every run), as before the bytes path."""
    from nvmemodel.ingest import api
    from nvmemodel.ingest.files import decode, read_bytes

    text = decode(read_bytes(path), path)
    fmt = api.detect_format(text)
    rows = api._read_runs(path, text, fmt)
    api._mark_verify_reads(rows)
    return rows


def _same_rows(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert list(x) == list(y)
        assert all(_same({"v": x[k]}, {"v": y[k]}) for k in x), {k: (x[k], y[k]) for k in x if x[k] != y[k]}


def test_bytes_path_equals_text_path_on_every_json_fixture():
    # a file that is one fio JSON document from its first byte is parsed from its bytes; the rows
    # (and warnings) are the text path's, on every real JSON file of the test data
    from nvmemodel.ingest.fio_json import one_fio_document

    n = 0
    for path in JSON_FILES:
        with warnings.catch_warnings(record=True) as w_text:
            warnings.simplefilter("always")
            try:
                text_rows = _text_path_rows(path)
            except IngestError as exc:
                text_rows = exc
        with warnings.catch_warnings(record=True) as w_bytes:
            warnings.simplefilter("always")
            try:
                rows = read_file(path)
            except IngestError as exc:
                rows = exc
        assert [str(x.message) for x in w_bytes] == [str(x.message) for x in w_text], path.name
        if isinstance(text_rows, IngestError):
            assert str(rows) == str(text_rows)
            continue
        _same_rows(rows, text_rows)
        n += one_fio_document(path.read_bytes()) is not None
    assert n > 30  # most of them take the bytes path


@pytest.mark.parametrize("content", [
    b'\xef\xbb\xbf{"fio version": "fio-3.36", "jobs": []}',  # a UTF-8 BOM: the text path
    b'{"fio version": "fio-3.36", "jobs": [{"jobname": "caf\xe9"}]}',  # not UTF-8 (cp1252): the text path
    b'{"fio version": "fio-3.36", "jobs": []}\n{"fio version": "fio-3.36", "jobs": []}',  # two documents
    b'{"fio version": "fio-3.36", "x": -nan}',  # fio's nan: the text path
    b'{"not": "fio"}',
    b'{"fio version": "fio-3.36",\x00 "jobs": []}',
])
def test_bytes_path_declines_what_the_text_path_must_read(content):
    from nvmemodel.ingest.fio_json import one_fio_document

    assert one_fio_document(content) is None


def _blocks(d):
    return [d[k] for k in ("lat_ns", "clat_ns", "slat_ns", "lat", "clat", "slat") if isinstance(d.get(k), dict)]


@pytest.mark.parametrize("change", ["no percentile", "one percentile missing", "slat without samples",
                                    "lat without samples", "percentile a string", "N a float"])
def test_general_direction_path_equals_the_checked_reader(change):
    # directions the one-check path declines (a block without samples, percentiles missing or odd)
    # are read by the general fast path or the checked reader, with the same numbers
    n = 0
    for path, d, block in _directions():
        block = json.loads(json.dumps(block))
        lat, clat, slat = _blocks(block)[:3]
        if change == "no percentile":
            clat.pop("percentile", None)
        elif change == "one percentile missing" and isinstance(clat.get("percentile"), dict):
            clat["percentile"].pop("99.000000", None)
        elif change == "slat without samples":
            slat["N"] = 0
        elif change == "lat without samples":
            lat["N"] = 0
        elif change == "percentile a string" and isinstance(clat.get("percentile"), dict):
            clat["percentile"]["50.000000"] = "12"
        elif change == "N a float":
            clat["N"] = 3.0
        try:
            checked = fio_json._direction_rows(block, d, path, d)
        except IngestError:
            assert fio_json._direction_fast(block, d) is fio_json._SLOW
            continue
        got = fio_json._direction_fast(block, d)
        if got is not fio_json._SLOW:
            n += 1
            assert _same(got, checked), (path.name, d, change)
    assert n > 100 or change in ("percentile a string", "N a float")


def test_option_cache_does_not_confuse_equal_numbers_of_other_types(tmp_path):
    # 1, 1.0 and True are equal dict keys; an option set of numbers and one of booleans (hand-edited
    # JSON) must each be read from its own text: iodepth=true is not an integer
    doc = json.loads((DATA / "fio_round3" / "three-jobs.json").read_text())
    for job in doc["jobs"]:
        job["job options"] = {"rw": "randread", "iodepth": 1}
    (tmp_path / "a.json").write_text(json.dumps(doc))
    for job in doc["jobs"]:
        job["job options"] = {"rw": "randread", "iodepth": True}
    (tmp_path / "b.json").write_text(json.dumps(doc))
    assert read_file(tmp_path / "a.json")[0]["iodepth"] == 1
    with pytest.raises(IngestError, match=r"b\.json: option iodepth='True': expected an integer"):
        read_file(tmp_path / "b.json")


def _walk_reference(top):
    """The folder walk as it was written before (os.walk, pathlib names), to hold the scandir walk to."""
    import os

    from nvmemodel.ingest.files import _SKIP_DIRS, Skipped
    from nvmemodel.userfiles import kernel_state

    files, passed, seen = [], [], {os.path.realpath(top)}
    for root, dirs, names in os.walk(top, onerror=lambda e: passed.append(Skipped(str(e.filename), "x")),
                                      followlinks=True):
        keep = []
        for d in sorted(dirs):
            full, real = os.path.join(root, d), os.path.realpath(os.path.join(root, d))
            if d in _SKIP_DIRS or kernel_state(full, folders=True) or real in seen:
                passed.append(full)
            else:
                seen.add(real)
                keep.append(d)
        dirs[:] = keep
        for n in sorted(names):
            full = pathlib.Path(root) / n
            if n.startswith(".") or (os.path.islink(full) and kernel_state(full)):
                passed.append(str(full))
            else:
                files.append(str(full))
    return files, passed


def test_folder_walk_equals_os_walk(tmp_path, monkeypatch):
    import os

    from nvmemodel.ingest.files import expand

    src = DATA / "fio" / "pkb_fio-2.1.4_sample-result.json"
    for sub in ("b/c", "a", ".git", "z/y"):
        (tmp_path / sub).mkdir(parents=True)
    for name in ("b/2.json", "b/10.json", "b/c/x.json", "a/.hidden.json", "a/A.json", "z/y/q.json", ".top.json"):
        (tmp_path / name).write_bytes(src.read_bytes())
    (tmp_path / "a" / "same.json").symlink_to(tmp_path / "b" / "2.json")
    os.link(tmp_path / "b" / "10.json", tmp_path / "z" / "hard.json")
    (tmp_path / "z" / "up").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / "a" / "gone.json").symlink_to(tmp_path / "nowhere")
    (tmp_path / "b" / "proc.json").symlink_to("/proc/self/status")
    os.mkfifo(tmp_path / "b" / "pipe.json")
    for top in (tmp_path, tmp_path / "b", tmp_path / "z" / "up"):
        files, passed, stats = expand(top)
        ref_files, ref_passed = _walk_reference(top)
        listed = files + [s.path for s in passed if "given more than once" in s.reason]
        assert sorted(listed) == sorted(ref_files)
        assert [f for f in ref_files if f in files] == files  # same order
        assert [s.path for s in passed if "given more than once" not in s.reason] == ref_passed
        assert len(stats) == len(files)
    monkeypatch.chdir(tmp_path)  # names as pathlib spells them: "b/10.json", not "./b/10.json"
    files, passed, _ = expand(".")
    ref_files, ref_passed = _walk_reference(".")
    assert [f for f in ref_files if f in files] == files and "b/10.json" in files
    assert [s.path for s in passed if "given more than once" not in s.reason] == ref_passed


def test_listed_files_are_read_without_a_status_and_hard_links_once(tmp_path):
    # a folder of regular files: the walk takes no status (the listing's file type and inode number),
    # hard links are still read once, and a file over one read (64 KiB) or over the limit reads as before
    import os

    from nvmemodel.ingest.files import Listed, expand, read_bytes

    src = DATA / "fio" / "pkb_fio-2.1.4_sample-result.json"
    (tmp_path / "a.json").write_bytes(src.read_bytes())
    os.link(tmp_path / "a.json", tmp_path / "b.json")
    big = b'{"fio version": "fio-3.36", "jobs": []}' + b" " * 200_000
    (tmp_path / "c.json").write_bytes(big)
    files, passed, stats = expand(tmp_path)
    assert [pathlib.Path(f).name for f in files] == ["a.json", "c.json"] and all(type(s) is Listed for s in stats)
    assert [s.reason for s in passed] == [f"given more than once (the same file as {files[0]}): read once"]
    assert read_bytes(files[0], None, stats[0]) == src.read_bytes()
    assert read_bytes(files[1], None, stats[1]) == big
    for limit in (100, 70_000):
        with pytest.raises(IngestError, match=f"{len(big):,} bytes: larger than the {limit:,}-byte limit"):
            read_bytes(files[1], limit, stats[1])
    (tmp_path / "d.json").write_bytes(b"  \n")
    with pytest.raises(IngestError, match="empty file"):
        read_bytes(tmp_path / "d.json", None, Listed(0, 0))
    # a symlink beside them: every file's status is taken, and the link to a.json is not read twice
    (tmp_path / "e.json").symlink_to(tmp_path / "a.json")
    files, passed, stats = expand(tmp_path)
    assert not any(type(s) is Listed for s in stats) and [pathlib.Path(f).name for f in files] == ["a.json", "c.json",
                                                                                                   "d.json"]


# -- the whole table, fast paths against the slow ones, on every JSON fixture of the test data --

def _distinct(paths):
    """The first of every set of byte-identical files: ``read_results`` reads a copy of a run once (with a warning),
    the file-by-file slow path would read it twice (tests/data/explain_corpus holds one JSON file copied into two
    cases, a read and a write series of the same fio run)."""
    import hashlib

    seen, out = set(), []
    for p in paths:
        digest = hashlib.sha256(p.read_bytes()).hexdigest()
        if digest not in seen:
            seen.add(digest)
            out.append(p)
    return out


ALL_JSON = _distinct(sorted(p for p in DATA.rglob("*.json") if p.is_file()))


def _table(paths, slow: bool, monkeypatch):
    """The table of ``paths`` read file by file (errors kept as text), fast or with every slow path:
    the text path, the checked reader of every direction, from_records + astype for the table. A file whose jobs did
    no I/O (read_file: no rows, each job warned about) is kept as read_results keeps it: a skip with its reason
    (the first such fixture: a fio cpuio neighbour's report beside a measured series)."""
    from nvmemodel.ingest import api

    with monkeypatch.context() as m:
        if slow:
            m.setattr(api, "one_fio_document", lambda data: None)
            m.setattr(fio_json, "_direction_fast", lambda d, direction, row=None: fio_json._SLOW)
        rows, errors, messages = [], [], []
        for path in paths:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                try:
                    got = read_file(path)
                    if not got:
                        raise IngestError(path, "no rows: no job in the file did any I/O")
                    rows += got
                except IngestError as exc:
                    errors.append(str(exc))
            messages += [str(x.message) for x in w]
        table = _reference_frame(rows, []) if slow else to_frame(rows)
    return table, errors, messages


def test_whole_table_equals_the_slow_paths_on_every_json_fixture(monkeypatch):
    # every column and dtype, every error and warning: the fast paths change nothing
    assert len(ALL_JSON) > 300
    fast, fast_errors, fast_messages = _table(ALL_JSON, False, monkeypatch)
    slow, slow_errors, slow_messages = _table(ALL_JSON, True, monkeypatch)
    assert fast_errors == slow_errors and fast_messages == slow_messages
    assert len(fast) > 400 and list(fast.columns) == list(COLUMNS)
    pd.testing.assert_frame_equal(fast, slow)
    assert (fast.dtypes == pd.Series({c: t for c, (t, _, _) in COLUMNS.items()})).all()


@pytest.mark.parametrize("path_regex", [None, r"qa4/(?P<study>[a-z]+)\d*/"])
def test_read_results_table_equals_the_slow_paths(path_regex, monkeypatch):
    # read_results packs each file's rows (values in column order) when the file has no labels; with a
    # pattern that labels some files only, packed and labelled rows meet in one table
    from nvmemodel.ingest import read_results

    slow, slow_errors, _ = _table(ALL_JSON, True, monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = read_results(ALL_JSON, path_regex=path_regex)
    assert [s.reason for s in fast.attrs["skipped"]] == [e.split(": ", 1)[1] for e in slow_errors]
    if path_regex:
        study = fast.pop("study")
        assert 0 < study.notna().sum() < len(fast) and set(study.dropna()) == {"psyncqd", "ratenj", "rwqd", "uringbs",
                                                                                "uringnj", "wqd"}
    pd.testing.assert_frame_equal(fast, slow)


# -- the usual report read straight into packed rows (fio_json_packed) against the general reader --

def _same_values(packed: tuple, row: dict) -> bool:
    return len(packed) == len(COLUMNS) and all(
        (isinstance(a, float) and math.isnan(a) and isinstance(b, float) and math.isnan(b))
        or (a == b and type(a) is type(b)) for a, b in zip(packed, (row[c] for c in COLUMNS)))


def test_packed_rows_equal_the_general_reader_on_every_json_fixture():
    # every JSON file of the test data: where the packed reader answers, its rows are the general
    # reader's values in column order (same types) and the general reader warned about nothing
    from nvmemodel.ingest.fio_json import one_fio_document
    from nvmemodel.ingest.fio_json_packed import packed_rows

    taken = declined = 0
    for path in ALL_JSON:
        doc = one_fio_document(path.read_bytes())
        if doc is None:
            continue
        packed = packed_rows(doc, str(path))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                rows = read_file(path)
            except IngestError:
                rows = None
        if packed is None:
            declined += 1
            continue
        taken += 1
        assert rows is not None and not w, path
        assert len(packed) == len(rows) and all(map(_same_values, packed, rows)), path
    assert taken > 150 and declined > 20, (taken, declined)


def _doc(name="three-jobs.json"):
    return json.loads((DATA / "fio_round3" / name).read_text())


@pytest.mark.parametrize("change", [
    "unknown job key", "unknown top-level key", "failed job", "json+ bins", "client_stats", "idle job",
    "negative runtime", "a string iops", "a bool total_ios", "infinite percentile", "groupid negative",
    "lat without its mean", "job options a list", "mixed block", "NaN lat mean",
])
def test_packed_rows_decline_what_the_general_reader_must_read(change):
    # anything the general reader warns about, refuses or reads another way leaves the packed reader
    from nvmemodel.ingest.fio_json_packed import packed_rows

    doc = _doc()
    assert packed_rows(json.loads(json.dumps(doc)), "x.json") is not None
    job, read = doc["jobs"][0], doc["jobs"][0]["read"]
    if change == "unknown job key":
        job["surprise"] = 1
    elif change == "unknown top-level key":
        doc["surprise"] = 1
    elif change == "failed job":
        job["error"] = 5
    elif change == "json+ bins":
        read["clat_ns"]["bins"] = {"1000": 3}
    elif change == "client_stats":
        doc["client_stats"] = doc.pop("jobs")
    elif change == "idle job":
        for d in ("read", "write", "trim"):
            job[d]["io_bytes"], job[d]["total_ios"] = 0, 0
    elif change == "negative runtime":
        read["runtime"] = -1
    elif change == "a string iops":
        read["iops"] = "12"
    elif change == "a bool total_ios":
        read["total_ios"] = True
    elif change == "infinite percentile":
        read["clat_ns"]["percentile"]["99.000000"] = float("inf")
    elif change == "groupid negative":
        job["groupid"] = -1
    elif change == "lat without its mean":
        del read["lat_ns"]["mean"]
    elif change == "job options a list":
        job["job options"] = ["rw=read"]
    elif change == "mixed block":
        job["mixed"] = dict(read)
    elif change == "NaN lat mean":
        read["lat_ns"]["mean"] = float("nan")
    assert packed_rows(doc, "x.json") is None


@pytest.mark.parametrize("folder", ["fio", "fio_corpus", "fio_round3", "qa4"])
def test_folder_read_equals_the_files_named_one_by_one(folder):
    # a folder's files are read from the listing (files.Listed: no status taken); named one by one, each
    # with its status: the same table, the same files skipped for the same reasons
    from nvmemodel.ingest import read_results
    from nvmemodel.ingest.files import Listed, expand

    files, _, stats = expand(DATA / folder)
    assert any(type(s) is Listed for s in stats) or any(pathlib.Path(f).is_symlink() for f in files)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        walked = read_results(DATA / folder)
        named = read_results(files)
    assert [(s.path, s.reason) for s in walked.attrs["skipped"]] == [(s.path, s.reason) for s in named.attrs["skipped"]]
    pd.testing.assert_frame_equal(walked, named)


# -- the typed decode (msgspec structs straight from the bytes): the packed reader's rows, or None --

try:
    import msgspec  # noqa: F401 - (the typed decode's only requirement)
    import orjson
except ImportError:  # pragma: no cover - the fast extra is not installed
    orjson = None
needs_fast = pytest.mark.skipif(orjson is None, reason="msgspec and orjson not installed (pip install -e '.[fast]')")


def _same_packed(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return len(a) == len(b) and all(
        len(x) == len(y) and all(type(u) is type(v) and (u == v or (isinstance(u, float) and math.isnan(u)
                                                                    and math.isnan(v))) for u, v in zip(x, y))
        for x, y in zip(a, b))


@needs_fast
def test_typed_rows_equal_the_packed_rows_on_every_json_file():
    # every JSON file of the test data (the adversarial ones included): the typed decode gives the packed
    # reader's rows value for value and type for type, or declines (then the file is read as before)
    from nvmemodel.ingest.fio_json_packed import packed_rows
    from nvmemodel.ingest.fio_json_typed import typed_rows

    typed = packed = 0
    for path in sorted(p for p in DATA.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if data[:1] != b"{":
            continue
        rows = typed_rows(data, str(path))
        try:
            expected = packed_rows(orjson.loads(data), str(path))
        except orjson.JSONDecodeError:
            expected = None
        if rows is not None:
            assert _same_packed(rows, expected), path
        typed += rows is not None
        packed += expected is not None and data.isascii()
    # it reads every ASCII file the packed reader reads (what it declines: below); runs whose options pace them
    # (rate, rate_iops, thinktime, fsync) or turn latency off (gtod_reduce) are the general reader's
    assert typed == packed > 350


def _fixture(name="fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json") -> bytes:
    return (DATA / "fio" / name).read_bytes()


@needs_fast
@pytest.mark.parametrize("edit", [
    (b'"jobname" : "', b'"jobname" : "caf\xc3\xa9 '),  # not ASCII: orjson checks UTF-8 where msgspec skips
    (b'"eta" : ', b'"not_a_fio_key" : 1, "eta" : '),  # an unknown job key: the general reader warns
    (b'"timestamp" : ', b'"zzz" : 1, "timestamp" : '),  # an unknown top-level key
    (b'"error" : 0', b'"error" : 5'),  # a failed job
    (b'"usr_cpu" : 17.116667', b'"usr_cpu" : 17'),  # an integer where fio writes a float
    (b'"runtime" : 60001', b'"runtime" : -60001'),  # a negative number
    (b'"io_bytes" : ', b'"io_bytes" : 1e999, "x" : '),  # beyond a double
    (b'"iops" : ', b'"iops" : "12", "x" : '),  # a string for a number
    (b'"50.000000" : ', b'"50.000000" : null, "x" : '),  # null for a number
    (b'"jobs" : [', b'"client_stats" : [], "jobs" : ['),  # client/server
])
def test_typed_rows_decline(edit):
    # what the typed decode cannot read as the packed reader would: None (the file is read as before)
    from nvmemodel.ingest.fio_json_typed import typed_rows

    data = _fixture()
    assert typed_rows(data, "x.json") is not None
    edited = data.replace(*edit, 1)
    assert edited != data
    assert typed_rows(edited, "x.json") is None


@needs_fast
def test_typed_rows_skip_unread_fields_as_read_results_did():
    # a number beyond a double in a field the table does not read: orjson refuses the file, which the text
    # path then reads (Python's json takes it as inf); the typed decode skips it: the same rows either way
    import re

    from nvmemodel.ingest.fio_json_packed import packed_rows
    from nvmemodel.ingest.fio_json_typed import typed_rows

    data = re.sub(rb'"majf" : \d+', b'"majf" : 1e999', _fixture(), count=1)  # (ctx is read: majf is not)
    with pytest.raises(orjson.JSONDecodeError):
        orjson.loads(data)
    rows = typed_rows(data, "x.json")
    assert rows is not None and _same_packed(rows, packed_rows(json.loads(data), "x.json"))
    assert _same_packed(rows, typed_rows(_fixture(), "x.json"))


#: values a mutated field takes: edges of every range the readers check, other JSON types
_MUTANTS = [0, 1, -1, 0.0, -0.0, 1.5, 2**63, 2**63 - 1, 2**31, 2**31 + 1, 2**64 + 3, 1e308, True, False, None, "1", "",
            [], {}, 4096, 0.5, 100.0]
_READ_KEYS = {"io_bytes", "runtime", "iops", "bw", "bw_bytes", "total_ios", "io_kbytes", "N", "mean", "max",
              "percentile", "50.000000", "99.990000", "jobname", "groupid", "error", "job options", "global options",
              "usr_cpu", "sys_cpu", "hostname", "job_runtime", "disk_util", "name", "fio version", "jobs", "read",
              "write", "trim", "lat_ns", "clat_ns", "slat_ns", "lat", "clat", "slat", "numjobs", "bs", "rw",
              "group_reporting", "verify", "filename", "iodepth", "rwmixread", "ctx", "hipri", "sqthread_poll",
              "iodepth_low", "iodepth_batch", "iodepth_batch_complete_min", "cpus_allowed", "ioengine"}


def _keys(node, prefix=()):
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        yield (*prefix, k)
        yield from _keys(v, (*prefix, k))


@needs_fast
def test_typed_rows_equal_the_packed_rows_on_mutated_reports():
    # seeded mutations of the fixtures (a field read by the table set to an edge value or another type, deleted,
    # or a key added beside it): wherever the typed decode reads a file, its rows are the packed reader's
    import random

    from nvmemodel.ingest.fio_json_packed import packed_rows
    from nvmemodel.ingest.fio_json_typed import typed_rows

    docs = [orjson.loads((DATA / d / n).read_bytes()) for d, n in (
        ("fio", "fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json"), ("fio", "pkb_fio-2.1.4_sample-result.json"),
        ("fio", "pkb_fio-2.17_gce-pd_16k-randread_hist-run.json"), ("fio_round3", "three-jobs.json"),
        ("fio_round3", "no-slat.json"), ("fio_corpus", "numjobs-3-group.json"), ("fio_round3", "verify-write.json"))]
    rng = random.Random(20)
    read = 0
    for _ in range(600):
        doc = orjson.loads(orjson.dumps(rng.choice(docs)))
        keys = [k for k in _keys(doc) if k[-1] in _READ_KEYS]
        for _ in range(rng.choice((1, 1, 2))):
            *where, key = rng.choice(keys)
            try:  # (an earlier mutation may have replaced or deleted the path)
                parent = doc
                for k in where:
                    parent = parent[k]
                parent[key]
            except (KeyError, IndexError, TypeError):
                continue
            action = rng.random()
            if action < 0.7 or isinstance(parent, list):
                parent[key] = rng.choice(_MUTANTS)
            elif action < 0.85:
                del parent[key]
            else:
                parent[f"{key}_x"] = rng.choice(_MUTANTS)
        data = json.dumps(doc).encode()  # (integers beyond 64 bits too)
        rows = typed_rows(data, "x.json")
        if rows is not None:
            read += 1
            assert _same_packed(rows, packed_rows(orjson.loads(data), "x.json")), (where, key)
    assert read > 100  # (most mutants are declined by both)


def test_msgspec_is_imported_at_the_first_folder_read_not_with_nvmemodel():
    # msgspec takes about 10 ms to import: `import nvmemodel` stays light (benchmarks/bench_startup.py)
    import subprocess
    import sys

    code = ("import sys, nvmemodel; before = 'msgspec' in sys.modules; "
            f"nvmemodel.read_results({str(DATA / 'fio' / 'pkb_fio-2.1.4_sample-result.json')!r}); "
            "print(before, 'msgspec' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    import importlib.util

    assert out == ["False", str(importlib.util.find_spec("msgspec") is not None)]


@needs_fast
def test_an_integer_of_thousands_of_digits_in_an_unread_field_no_longer_refuses_the_file(tmp_path):
    # Python's json refuses integer text over 4,300 digits (sys.get_int_max_str_digits): a file with one in a
    # field the table does not read was skipped as malformed; the typed decode skips the field and reads the file
    import re

    from nvmemodel.ingest import read_results

    data = re.sub(rb'"majf" : \d+', b'"majf" : ' + b"7" * 5000, _fixture(), count=1)  # (ctx is read: majf is not)
    (tmp_path / "long.json").write_bytes(data)
    (tmp_path / "usual.json").write_bytes(_fixture())
    with pytest.warns(IngestWarning, match="copies of runs"):  # (the same run twice)
        df = read_results(tmp_path)
    assert df.attrs["skipped"] == [] and df.attrs["files_read"] == 2 and len(df) == 1
