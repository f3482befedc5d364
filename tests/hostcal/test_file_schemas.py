"""The two files nvmemodel writes and reads back — the host profile of ``nvmemodel calibrate`` (``--profile``) and the
costs file of ``nvmemodel ingest --costs-out`` (``--costs``) — validate against the JSON Schemas (draft 2020-12) they
name, shipped in ``nvmemodel/schemas`` (issue 29 items 1–2): real files made here (fio runs of this machine; the fio
results under tests/data, provenance in tests/data/SOURCES.md), and the same files edited to break the schema, which
must fail at the field edited."""

from __future__ import annotations

import copy
import json
import pathlib

import pytest

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra: pip install -e '.[test]'")

from nvmemodel import schemas  # noqa: E402
from nvmemodel.cli import main  # noqa: E402

DATA = pathlib.Path(__file__).parents[1] / "data"


@pytest.fixture(scope="module")
def costs_files(tmp_path_factory):
    """``ingest --costs-out`` over two folders of fio results, with a clock (cycles) and without (null cycles), and
    one of DiskSpd results."""
    out = tmp_path_factory.mktemp("costs")
    docs = []
    for folder, clock in ((DATA / "fit" / "local" / "qd", ["--clock", "2.1GHz"]), (DATA / "fio_sweep", []),
                          (DATA / "diskspd", ["--clock", "2GHz"])):  # DiskSpd: no engine fio names, no stack
        path = out / f"{folder.name}.json"
        assert main(["ingest", str(folder), "--costs", *clock, "--costs-out", str(path)]) == 0
        docs.append(json.loads(path.read_text()))
    return docs


@pytest.fixture
def profile(calibrated):
    """The host profile of the run's one real calibration (tests/hostcal/conftest.py)."""
    return calibrated[2]


def test_the_schemas_are_shipped_for_the_files():
    assert set(schemas.FILES) <= set(schemas.NAMES)
    for name in schemas.FILES:
        jsonschema.Draft202012Validator.check_schema(schemas.schema(name))


def test_costs_files_validate(costs_files):
    with_clock, without, diskspd = costs_files
    for doc in costs_files:
        assert doc["schema"] == "nvmemodel.io-costs/1"
        schemas.validate(doc)
    assert with_clock["clock_hz"] == 2.1e9 and without["clock_hz"] is None
    assert all(e["cycles_per_io"]["median"] is None for e in without["costs"])
    assert {e["stack"] for e in diskspd["costs"]} == {None}


def test_a_real_profile_validates(profile):
    assert profile["schema"] == "nvmemodel.host-profile/1"
    schemas.validate(profile)
    assert {s["scope"] for s in profile["steps"]} >= {"fio", "no_device", "device"}


@pytest.mark.parametrize("edit, where", [
    (lambda d: d["costs"][0].__setitem__("stack", "aio"), "stack"),
    (lambda d: d["costs"][0].__setitem__("direction", "sideways"), "direction"),
    (lambda d: d["costs"][0].pop("files"), "files"),
    (lambda d: d["costs"][0].__setitem__("runs", 0), "runs"),
    (lambda d: d["costs"][0]["cpu_seconds_per_io"].__setitem__("median", None), "median"),  # a used figure, missing
    (lambda d: d.__setitem__("clock_hz", -1.0), "clock_hz"),
    (lambda d: d.__setitem__("extra", 1), "extra"),
])
def test_a_broken_costs_file_is_refused(costs_files, edit, where):
    doc = copy.deepcopy(costs_files[0])
    assert doc["costs"][0]["use"]
    edit(doc)
    with pytest.raises(jsonschema.ValidationError) as caught:
        schemas.validate(doc)
    assert where in (str(list(caught.value.absolute_path)) + caught.value.message), caught.value


@pytest.mark.parametrize("edit, where", [
    (lambda d: d["steps"][0].__setitem__("scope", "disk"), "scope"),
    (lambda d: d["steps"][1].__setitem__("stack", "aio"), "stack"),
    (lambda d: d["steps"][1]["cycles_per_io"].__setitem__("median", -5.0), "median"),
    (lambda d: d["steps"][0].__setitem__("runs", []), "runs"),
    (lambda d: d.pop("host"), "host"),
    (lambda d: d["host"].__setitem__("load_average", [1.0]), "load_average"),
    (lambda d: d.__setitem__("created", "yesterday"), "created"),
])
def test_a_broken_profile_is_refused(profile, edit, where):
    doc = copy.deepcopy(profile)
    edit(doc)
    with pytest.raises(jsonschema.ValidationError) as caught:
        schemas.validate(doc)
    assert where in (str(list(caught.value.absolute_path)) + caught.value.message), caught.value
