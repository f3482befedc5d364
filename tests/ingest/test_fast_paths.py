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

from nvmemodel.errors import IngestError
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
    n = fast = 0
    for path, d, block in _directions():
        n += 1
        got = fio_json._direction_fast(block, d)
        if got is fio_json._SLOW:
            continue
        fast += 1
        assert _same(got, fio_json._direction_rows(block, d, path, d)), (path.name, d)
    assert n > 300 and fast == n  # every real direction takes the fast path


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


@pytest.mark.parametrize("value", [True, 2**63, -3, "100"])
def test_fast_path_checks_a_fio2_kib_bandwidth_before_scaling_it(value):
    # fio < 3.2 writes only "bw" (KiB/s): a value the checked reader refuses (a bool, an integer
    # beyond 2**63) must not become an acceptable float once multiplied by 1024
    doc = json.loads((DATA / "fio" / "pkb_fio-2.1.4_sample-result.json").read_text())
    block = doc["jobs"][1]["read"]  # 361,984 KiB read
    assert "bw_bytes" not in block and fio_json._direction_fast(block, "read")["bw_bytes_per_s"] == 129836 * 1024
    block["bw"] = value
    assert fio_json._direction_fast(block, "read") is fio_json._SLOW
    with pytest.raises(IngestError, match="bw"):
        fio_json._direction_rows(block, "read", "x.json", "jobs[0].read")


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
