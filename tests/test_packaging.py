"""Packaging and data hygiene: one dependency list, provenance everywhere."""

import csv
import pathlib
import re
import tomllib

import nvmemodel as nm

ROOT = pathlib.Path(__file__).parents[1]


def _names(specs):
    return {re.split(r"[<>=!\[ ]", s.strip(), maxsplit=1)[0].lower() for s in specs}


def test_environment_yml_lists_the_same_dependencies():
    import yaml

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = _names(project["dependencies"]) | _names(project["optional-dependencies"]["notebooks"]) \
        | _names(project["optional-dependencies"]["test"])
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = _names(d for d in env["dependencies"] if isinstance(d, str)) - {"python", "pip"}
    assert conda == wanted


def test_every_data_folder_has_provenance():
    for folder in (ROOT / "data").iterdir():
        if folder.is_dir():
            assert any((folder / n).exists() for n in ("README.md", "SOURCES.md")), folder


def test_catalog_rows_carry_sources():
    for name in ("drives.csv", "switches.csv"):
        with (ROOT / "nvmemodel" / "catalog" / name).open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        assert rows
        for row in rows:
            if name == "drives.csv":
                assert row["status"] in {"spec", "inferred", "recalled", "calibrated"}, row["key"]
                assert len(row["source"]) > 30, row["key"]
            else:
                assert all(row[k] for k in row if k.endswith("_status")), row["key"]


def test_seed_drives_are_in_the_catalog():
    # Issue 2: every drive named in the seeds.
    names = " ".join(d.name for d in nm.drive_catalog().values())
    for model in ("PX04PMB", "PM1733", "SN200", "900P", "MZWLL800HEHP", "P3700"):
        assert model in names, model
    assert any(int(d.gen) >= 5 for d in nm.drive_catalog().values())


def test_anchor_si_values_follow_from_printed_values():
    from nvmemodel import units

    with (ROOT / "data" / "whitepapers" / "anchors.csv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            value, unit = float(row["value"]), row["unit"]
            if "/s" in unit:
                si = units.parse_bandwidth(f"{value} {unit}")
            elif unit.endswith("IOPS"):
                si = units.parse_count(f"{value} {unit.replace(' IOPS', '')}")
            elif unit in ("µs",):
                si = units.parse_time(f"{value} {unit}")
            elif unit == "%":
                si = value / 100
            else:
                si = value
            assert si == float(row["value_si"]) or abs(si / float(row["value_si"]) - 1) < 1e-12, row["id"]


def test_core_import_is_light():
    import subprocess
    import sys

    code = "import sys, nvmemodel; print(','.join(m for m in ('pandas', 'matplotlib', 'scipy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_ingest_page_documents_every_ingest_column():
    from nvmemodel.ingest import schema_table

    assert schema_table() in (ROOT / "docs" / "ingest.md").read_text()


def test_readme_python_example_runs(capsys):
    import re

    text = (ROOT / "README.md").read_text()
    section = text.split("## Ten lines of Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("80.2") and out[1] == "pcie_link" and out[-1] == "12"
