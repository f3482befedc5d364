"""A group_reporting group whose jobs set different iodepth / ioengine (real fio 3.33 runs made here,
tests/data/fio_group_mixed, see its gen.sh): neither fio's JSON (it echoes the last job's options under the first
job's name) nor its normal text (one header per job, the result block under the first job's name) gives one
iodepth or ioengine for the group, so both are NA, never the first or last job's value; a group of clones of one
section keeps its options."""

from __future__ import annotations

import gzip
import json
import pathlib
import warnings

import pytest

from nvmemodel.errors import IngestWarning
from nvmemodel.ingest import read_results

DATA = pathlib.Path(__file__).parents[1] / "data" / "fio_group_mixed"


def _forms(tmp_path, name):
    """(json file, normal file) of one combined ``--output-format=json,normal`` run, and fio's JSON document."""
    text = gzip.decompress((DATA / f"{name}.json-normal.out.gz").read_bytes()).decode()
    doc, end = json.JSONDecoder().raw_decode(text, text.index("{"))
    (j := tmp_path / f"{name}.json").write_text(text[:end])
    (n := tmp_path / f"{name}.normal").write_text(text[end:].lstrip("\n"))
    return j, n, doc


@pytest.mark.parametrize("form", ["json", "normal"])
def test_mixed_group_depth_and_engine_are_na(tmp_path, form):
    j, n, doc = _forms(tmp_path, "group")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        t = read_results([j if form == "json" else n])
    job = doc["jobs"][0]
    assert len(t) == 2 and set(t["direction"]) == {"read", "write"}
    assert (t["numjobs"] == 3).all() and (t["level"] == "group").all()
    assert t["iodepth"].isna().all() and t["ioengine"].isna().all()
    assert not t["defaulted"].fillna("").str.contains("iodepth|ioengine").any()
    # the I/O counts are fio's own, whatever the options
    for d in ("read", "write"):
        assert t.loc[t["direction"] == d, "ios"].item() == job[d]["total_ios"]
    if form == "json":
        msgs = [str(w.message) for w in seen if issubclass(w.category, IngestWarning)]
        assert any("iodepth and ioengine are not tabulated" in m and "psync_read" in m for m in msgs), msgs


@pytest.mark.parametrize("form", ["json", "normal"])
def test_clone_group_keeps_its_options(tmp_path, form):
    j, n, doc = _forms(tmp_path, "clones")
    with warnings.catch_warnings():
        warnings.simplefilter("error", IngestWarning)
        t = read_results([j if form == "json" else n])
    assert (t["numjobs"] == 2).all()
    assert (t["iodepth"] == 4).all() and (t["ioengine"] == "null").all()
