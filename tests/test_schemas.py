"""Every JSON document nvmemodel writes validates against the JSON Schema (draft 2020-12) it names, shipped in
``nvmemodel/schemas`` (issue 32): real outputs of each command over several inputs, the listings' ``--json``
beside their ``--csv``, and documents edited to break their schema, which must fail.

The commands are enumerated from the argparse registry: a command with a ``--json`` option that no case below
runs fails :func:`test_every_json_command_is_covered`."""

import argparse
import copy
import csv
import io
import json
import pathlib
import tomllib

import pytest

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra: pip install -e '.[test]'")

from nvmemodel import cli, schemas  # noqa: E402

ROOT = pathlib.Path(__file__).parents[1]
DATA = ROOT / "tests" / "data"

#: (command line, schema the output names). Inputs: presets and catalog parts of several shapes; measured
#: series from tests/data (each folder's provenance in tests/data/SOURCES.md).
CASES = [
    (["ceilings", "--preset", "dell-r7525"], "nvmemodel.ceilings/1"),
    (["ceilings", "--preset", "lenovo-sr850-810-4p", "--pattern", "read", "--bs", "128K", "--drives", "1,2,4"],
     "nvmemodel.ceilings/1"),
    (["ceilings", "--preset", "broadcom-stingray"], "nvmemodel.ceilings/1"),  # fabric, the paper's defaults
    (["ceilings", "--preset", "dell-r7525", "--host", "amd-epyc-9654:2", "--drive", "samsung-pm1743"],
     "nvmemodel.ceilings/1"),
    (["ceilings", "--preset", "ion-sr71mach5-windows-smb3"], "nvmemodel.ceilings/1"),  # file sharing
    (["ceilings", "--preset", "ion-sr71mach5-linux"], "nvmemodel.ceilings/1"),  # RAID
    (["ceilings", "--preset", "dell-r7525", "--pattern", "read", "--bs", "128K", "--group",
      "drive=samsung-pm1733-u2,count=8", "--group", "drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,"
      "switches=2"], "nvmemodel.mixed/1"),
    (["sweep", "--grid", "host.clock_hz=2GHz,3GHz", "--grid", "workload.block_size=4K,128K", "--json"],
     "nvmemodel.sweep/1"),
    (["sweep", "--preset", "lenovo-sr850-810-4p", "--grid", "pcie.mps=128,256", "--drives", "1-4", "--json"],
     "nvmemodel.sweep/1"),
    (["plan", "--iops", "10M", "--read-bw", "60GB/s", "--gen", "4,5", "--sockets", "1,2", "--drive",
      "samsung-pm1743,samsung-pm1733-u2", "--max-drives", "24"], "nvmemodel.capacity-plan/2"),
    (["plan", "--iops", "10M", "--read-bw", "60GB/s", "--latency", "200us", "--drive",
      "intel-p5800x-800gb,samsung-pm1733-u2", "--max-drives", "24", "--rank", "cost", "--price",
      "drive.intel-p5800x-800gb=2400", "--price", "drive.samsung-pm1733-u2=1100"], "nvmemodel.capacity-plan/2"),
    (["plan", "--preset", "lenovo-sr850-direct", "--read-bw", "12GB/s", "--iops", "2.4M", "--connection",
      "direct-x4,direct-x2,lenovo-1610-4p,lenovo-810-4p", "--max-drives", "4"], "nvmemodel.capacity-plan/2"),
    (["plan", "--iops", "2M", "--latency", "50us", "--group", "drive=intel-p3700-800gb,count=8"],
     "nvmemodel.capacity-plan/2"),
    (["discover", "--lspci", str(DATA / "lspci" / "synthetic-switched-gen4_vvv.txt")], "nvmemodel.discover/1"),
    (["discover", "--lspci", str(DATA / "lspci" / "hwloc-dell-xeon-e5-2s-p3600_vvv.txt")], "nvmemodel.discover/1"),
    (["discover", "--lspci", str(DATA / "lspci" / "vm-debian12-pciutils-3.9.0_vvv.txt")], "nvmemodel.discover/1"),
    (["fit", str(DATA / "fio_sweep"), "--x", "iodepth", "--y", "iops"], "nvmemodel.fit/1"),
    (["fit", str(DATA / "fit" / "local" / "nulljobs"), "--x", "numjobs", "--y", "iops"], "nvmemodel.fit/1"),
    (["fit", str(DATA / "fit" / "local" / "qd"), "--x", "iodepth", "--y", "iops", "--preset", "dell-r7525"],
     "nvmemodel.fit/1"),
    (["fit", str(DATA / "fit" / "adv" / "grid"), "--x", "iodepth", "--y", "iops", "--by", "numjobs"],
     "nvmemodel.fit/1"),
    (["fit", str(DATA / "fit" / "local" / "bs"), "--x", "block_size_bytes", "--y", "bytes_per_s"], "nvmemodel.fit/1"),
    (["drives"], "nvmemodel.drives/1"),
    (["drives", "--gen", "5"], "nvmemodel.drives/1"),
    (["switches"], "nvmemodel.switches/1"),
    (["hosts"], "nvmemodel.hosts/1"),
    (["hosts", "--vendor", "intel"], "nvmemodel.hosts/1"),
    (["presets"], "nvmemodel.presets/1"),
    (["parameters"], "nvmemodel.parameters/1"),
    (["parameters", "--preset", "broadcom-stingray", "--pattern", "read", "--bs", "128K"], "nvmemodel.parameters/1"),
    # two sweeps of the same settings (exit 0: no point slower); tests/test_compare.py has the others
    (["compare", str(DATA / "compare" / "psync"), str(DATA / "compare" / "psync-again")], "nvmemodel.compare/1"),
    (["compare", str(DATA / "compare" / "psync" / "rep1"), str(DATA / "compare" / "libaio" / "rep1"), "--ignore",
      "ioengine", "--metrics", "iops,p99"], "nvmemodel.compare/1"),
]


def _run(argv, capsys):
    argv = argv if "--json" in argv else [*argv, "--json"]
    assert cli.main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def outputs():
    """Each case's document, made once (several tests read them)."""
    return {}


def _document(i, capsys, outputs):
    if i not in outputs:
        outputs[i] = _run(CASES[i][0], capsys)
    return copy.deepcopy(outputs[i])


def test_schemas_are_valid_2020_12_and_shipped():
    files = sorted(p.name for p in (ROOT / "nvmemodel" / "schemas").glob("*.json"))
    assert files == sorted(schemas.file_name(n) for n in schemas.NAMES)
    for name in schemas.NAMES:
        s = schemas.schema(name)
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema", name
        jsonschema.Draft202012Validator.check_schema(s)
        assert s["$id"] == "urn:" + name.replace(".", ":", 1) and s["properties"]["schema"] == {
            "const": name, "description": "this document's schema: name/version"}
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "schemas/*.json" in package_data["nvmemodel"]


@pytest.mark.parametrize("i", range(len(CASES)), ids=[" ".join(a[:3]).replace(str(DATA), "data") for a, _ in CASES])
def test_every_output_validates_against_the_schema_it_names(i, capsys, outputs):
    doc = _document(i, capsys, outputs)
    assert doc["schema"] == CASES[i][1]
    schemas.validate(doc)


def test_every_json_command_is_covered():
    parser = cli._build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    with_json = {name for name, p in sub.choices.items() if any("--json" in a.option_strings for a in p._actions)}
    assert with_json == {argv[0] for argv, _ in CASES}
    # the files calibrate and ingest --costs-out write are not --json outputs: tests/hostcal/test_file_schemas.py
    assert {s for _, s in CASES} == set(schemas.NAMES) - set(schemas.FILES)


@pytest.mark.parametrize("i, edit, where", [
    (0, lambda d: d.pop("points"), "points"),
    (0, lambda d: d["points"][0].__setitem__("iops", "fast"), "iops"),
    (0, lambda d: d["points"][0]["ceilings"]["drive"].__setitem__("headroom", [1]), "headroom"),
    (0, lambda d: d["workload"].__setitem__("pattern", "sideways"), "pattern"),
    (0, lambda d: d.__setitem__("schema", "nvmemodel.mixed/1"), "binding"),  # a curve of one model is no mixed one
    (6, lambda d: d["points"][0]["groups"][0].pop("drives"), "drives"),
    (7, lambda d: d["rows"][0].__setitem__("iops", [1.0]), "iops"),
    (9, lambda d: d["configurations"][0].__setitem__("status", "maybe"), "status"),
    (13, lambda d: d["flags"].append({"code": "x", "severity": "fatal", "message": "", "devices": []}), "severity"),
    (17, lambda d: d["params"][0].pop("value"), "value"),
    (17, lambda d: d["compare"][0].__setitem__("chosen", "yes"), "chosen"),
    (21, lambda d: d["rows"][0].__setitem__("gen", "four"), "gen"),
    (26, lambda d: d["rows"][0].__setitem__("extra", 1), "extra"),
    (27, lambda d: d["rows"][0].__setitem__("name", "no dot"), "name"),
])
def test_a_document_that_breaks_its_schema_is_refused(i, edit, where, capsys, outputs):
    doc = _document(i, capsys, outputs)
    edit(doc)
    with pytest.raises(jsonschema.ValidationError) as caught:
        schemas.validate(doc)
    assert where in (str(list(caught.value.absolute_path)) + caught.value.message), caught.value


def test_a_document_naming_no_schema_is_refused():
    from nvmemodel.errors import ParameterError

    with pytest.raises(ParameterError, match="'schema'"):
        schemas.validate({"schema": "nvmemodel.nothing/1"})


@pytest.mark.parametrize("argv", [["drives"], ["drives", "--gen", "4"], ["switches"], ["hosts", "--vendor", "amd"],
                                  ["presets"], ["parameters", "--preset", "lenovo-sr850-810-4p"]])
def test_a_listings_csv_has_the_rows_and_columns_of_its_json(argv, capsys):
    doc = _run(argv, capsys)
    assert cli.main([*argv, "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == len(doc["rows"]) > 0
    assert list(rows[0]) == list(doc["rows"][0])
    for got, want in zip(rows, doc["rows"], strict=True):
        for k, v in want.items():  # the same value: numbers as numbers, null as an empty cell or a non-finite one
            if v is None:
                assert got[k] in ("", "inf", "-inf"), (k, got[k])
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                assert float(got[k]) == pytest.approx(v, rel=1e-12), k
            else:
                assert got[k] == str(v), k


def test_listing_values_are_si(capsys):
    # The catalog's CSV states MB/s and µs (nvmemodel/catalog/README.md); the listing converts at the edge.
    drives = {r["key"]: r for r in _run(["drives"], capsys)["rows"]}
    with (ROOT / "nvmemodel" / "catalog" / "drives.csv").open(encoding="utf-8") as fh:
        row = next(r for r in csv.DictReader(fh) if r["key"] == "samsung-pm1733-u2")
    assert drives["samsung-pm1733-u2"]["seq_read_bytes_per_s"] == float(row["seq_read_MB_per_s"]) * 1e6
    switches = {r["key"]: r for r in _run(["switches"], capsys)["rows"]}
    assert switches["lenovo-1610-4p"]["per_command_s"] == pytest.approx(549.45e-9)  # switches.csv: 549.45 ns


def test_parameters_format_json_is_the_json_document(capsys):
    assert cli.main(["parameters", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc == _run(["parameters"], capsys)
