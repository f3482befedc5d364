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
                                      "host_cpu", "fabric",
                                      # issue 11: the layers above the PCIe links
                                      "root_complex", "socket_dma", "inter_socket", "raid_layer", "share_server_cpu",
                                      "share_network", "share_client",
                                      "gpu_link",  # issue 29: a GPU as the data's sink (null: no GPU)
                                      "initiator_cpu",  # issue 29: the NVMe-oF initiators' CPU (null: not modelled)
                                      "md_raid",  # issue 29: md RAID's own per-array ceiling (null: no RAID)
                                      "iommu",  # issue 29: the IOMMU's strict mode (null: not modelled)
                                      "target_cpu",  # issue 29: the NVMe-oF target's CPU (null: not modelled)
                                      "tcp_loss"}  # issue 29: NVMe/TCP under loss (null: no loss set)
    assert point["ceilings"]["gpu_link"]["iops"] is None
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


DATA = __import__("pathlib").Path(__file__).parent / "data"


def test_ingest_to_csv_with_summary(tmp_path, capsys):
    import pandas as pd

    (tmp_path / "in").mkdir()
    for f in (DATA / "fio").glob("*.json"):
        (tmp_path / "in" / f.name).write_bytes(f.read_bytes())
    (tmp_path / "in" / "notes.txt").write_text("not a result\n")
    out = tmp_path / "table.csv"
    assert cli.main(["ingest", str(tmp_path / "in"), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "read 3 file(s), 8 row(s); skipped 1" in err and "notes.txt" in err
    df = pd.read_csv(out)
    assert len(df) == 8 and {"iops", "bw_bytes_per_s", "clat_p99_s", "defaulted"} <= set(df.columns)


def test_ingest_parquet_or_clear_error(tmp_path, capsys):
    out = tmp_path / "t.parquet"
    rc = cli.main(["ingest", str(DATA / "diskspd"), "-o", str(out)])
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        assert rc == 2 and "pyarrow" in capsys.readouterr().err
    else:
        import pandas as pd

        assert rc == 0 and len(pd.read_parquet(out)) == 3


def test_ingest_strict_and_bad_output(tmp_path, capsys):
    (tmp_path / "empty.json").write_text("")
    assert cli.main(["ingest", str(tmp_path), "--strict"]) == 2
    assert "empty.json: empty file" in capsys.readouterr().err
    assert cli.main(["ingest", str(DATA / "diskspd"), "-o", "x.xlsx"]) == 2
    assert "--output='x.xlsx'" in capsys.readouterr().err


def test_ingest_schema(capsys):
    assert cli.main(["ingest", "--schema"]) == 0
    assert "| `bw_bytes_per_s` | float64 | B/s |" in capsys.readouterr().out


def test_set_overrides_any_parameter(capsys):
    argv = ["ceilings", "--preset", "dell-r7525", "--drives", "24", "--json"]
    assert cli.main(argv) == 0
    base = json.loads(capsys.readouterr().out)["points"][0]
    assert base["binding"] == "host_cpu"
    assert cli.main(argv + ["--set", "host.cycles_per_io=4000"]) == 0
    faster = json.loads(capsys.readouterr().out)["points"][0]
    assert faster["binding"] == "drive" and faster["iops"] == pytest.approx(24 * 1.45e6)


@pytest.mark.parametrize("item, match", [("host.cycles_per_io", "NAME=VALUE"), ("nope=1", "unknown parameter 'nope'"),
                                         ("host.gen=9", "host.gen=9")])
def test_set_errors(capsys, item, match):
    assert cli.main(["ceilings", "--set", item]) == 2
    assert match in capsys.readouterr().err


def test_parameters_listing(capsys):
    assert cli.main(["parameters", "--preset", "lenovo-sr850-810-4p"]) == 0
    out = capsys.readouterr().out
    assert "switch.efficiency" in out and "0.8636" in out
