"""The command line: a readable table, a documented JSON schema, clean errors."""

import json

import pytest

from nvmemodel import cli


def test_ceilings_table(capsys):
    assert cli.main(["ceilings", "--preset", "lenovo-sr850-810-4p", "--pattern", "read", "--bs", "256K"]) == 0
    out = capsys.readouterr().out
    assert "switch_uplink" in out and "6.200" in out


def test_ceilings_json_schema(capsys):
    assert cli.main(["ceilings", "--preset", "dell-r7525", "--pattern", "read", "--bs", "128K",
                     "--drives", "12", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == cli.JSON_SCHEMA_ID
    (point,) = doc["points"]
    assert point["drives"] == 12 and point["binding"] == "pcie_link"
    assert point["bytes_per_s"] / 2**30 == pytest.approx(80.41, rel=0.02)
    assert set(point["ceilings"]) == {"drive", "pcie_link", "queue_depth", "switch_uplink", "switch_processing",
                                      "host_cpu", "fabric"}
    assert point["ceilings"]["fabric"]["iops"] is None  # no fabric: JSON null, not Infinity


@pytest.mark.parametrize("argv, match", [
    (["ceilings", "--bs", "0"], "block_size"),
    (["ceilings", "--preset", "nope"], "unknown preset"),
    (["ceilings", "--drives", "1-x"], "--drives"),
    (["ceilings", "--preset", "lenovo-sr850-810-4p", "--drives", "9"], "drives=9"),
    (["ceilings", "--mps", "300"], "mps=300"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, match):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error:") and match in err and "Traceback" not in err


def test_help_explains_components(capsys):
    with pytest.raises(SystemExit):
        cli.main(["ceilings", "--help"])
    out = capsys.readouterr().out
    assert "switch_uplink" in out and "examples:" in out


def test_presets_and_drives_listings(capsys):
    assert cli.main(["presets"]) == 0 and "dell-r7525" in capsys.readouterr().out
    assert cli.main(["drives"]) == 0 and "samsung-pm1733-u2" in capsys.readouterr().out


def test_explain_flag(capsys):
    assert cli.main(["ceilings", "--preset", "lenovo-sr850-810-4p", "--explain"]) == 0
    assert "Binding:" in capsys.readouterr().out
