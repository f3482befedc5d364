"""``nvmemodel discover``: text and JSON on a saved lspci, clean errors."""

import json
import pathlib

import pytest

from nvmemodel import cli

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "lspci"


def test_discover_text(capsys):
    assert cli.main(["discover", "--lspci", str(DATA / "synthetic-switched-gen4_vvv.txt"), "--pattern", "read",
                     "--bs", "128K"]) == 0
    out = capsys.readouterr().out
    assert "switch upstream port: Broadcom / LSI PEX880xx PCIe Gen 4 Switch" in out
    assert "WARN uplink_oversubscribed" in out and "WARN link_below_capability" in out
    # the drives differ (a PM9A3, an x2 and a Gen3 link): modelled as found, one group per model and link (QA F7)
    assert "WARN tree_not_uniform" in out and "modelled as found" in out
    assert "5 x Samsung PM1733 at Gen4 x4 behind a switch" in out and "1 x Samsung PM1733 at Gen3 x4" in out


def test_discover_json(capsys):
    assert cli.main(["discover", "--lspci", str(DATA / "synthetic-direct-gen4_vvv.txt"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "nvmemodel.discover/1"
    assert doc["nvme"] == [f"0000:2{i}:00.0" for i in range(1, 5)]
    assert [p["drives"] for p in doc["ceilings"]["points"]] == [1, 2, 3, 4]
    assert doc["ceilings"]["points"][-1]["binding"] == "drive"
    # platform_ambiguous: the Starship/Matisse root complex is the Zen 2-class I/O die of EPYC 7002 and 7003 (and of
    # Ryzen desktops, ruled out here by 32 root-port lanes) (discover/platform.py)
    assert {f["code"] for f in doc["flags"]} == {"numa_unknown", "host_assumed", "platform_ambiguous",
                                                "drive_assumed"}  # PM173X read as the PM1733 U.2 row


def test_discover_no_nvme_json(capsys):
    assert cli.main(["discover", "--lspci", str(DATA / "vm-debian12-pciutils-3.9.0_vvv.txt"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["topology"] is None and doc["ceilings"] is None and len(doc["devices"]) == 6


def test_discover_bad_file_one_line(tmp_path, capsys):
    bad = tmp_path / "notes.txt"
    bad.write_text("not lspci\n")
    assert cli.main(["discover", "--lspci", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error:") and "notes.txt" in err and "Traceback" not in err


def test_discover_set_overrides_what_pci_does_not_tell(capsys):
    argv = ["discover", "--lspci", str(DATA / "synthetic-direct-gen4_vvv.txt"), "--json"]
    assert cli.main(argv) == 0
    base = json.loads(capsys.readouterr().out)["ceilings"]["points"][-1]
    assert cli.main([*argv, "--set", "drive.rand_read_iops=500K"]) == 0
    point = json.loads(capsys.readouterr().out)["ceilings"]["points"][-1]
    # four drives at the catalog's 1.45 M, then at the overridden 500 K (tolerance: float rounding only)
    assert base["iops"] == pytest.approx(4 * 1_450_000, rel=1e-9)
    assert point["iops"] == pytest.approx(4 * 500_000, rel=1e-9)
    assert cli.main([*argv, "--set", "host.clock_hz=fast"]) == 2
    assert "host.clock_hz" in capsys.readouterr().err


def test_discover_explain_cites_what_was_discovered(capsys):
    assert cli.main(["discover", "--lspci", str(DATA / "synthetic-switched-gen4_vvv.txt"), "--pattern", "read",
                     "--bs", "128K", "--explain"]) == 0
    out = capsys.readouterr().out
    # as found (the drives differ): each group's own binding limit — the switched ones share the x16 uplink
    assert "1 x Samsung PM1733 at Gen4 x2 behind a switch: 1 drive(s), 2.48 GB/s, own limit switch_uplink" in out
    assert "1 x Samsung PM1733 at Gen3 x4: 1 drive(s), 3.31 GB/s, own limit pcie_link" in out
    assert cli.main(["discover", "--lspci", str(DATA / "synthetic-dell-r730-p3700_vvv.txt"), "--pattern", "read",
                     "--bs", "128K", "--explain"]) == 0  # identical drives: the single-level topology cites its links
    out = capsys.readouterr().out
    assert "tree_not_uniform" not in out and "Binding: the drives' own limit (spec sheet) [drive]" in out


def test_discover_drive_option_picks_a_catalog_entry(capsys):
    stem = str(DATA / "synthetic-skylake-sp-pm983_vvv.txt")
    assert cli.main(["discover", "--lspci", stem]) == 0
    out = capsys.readouterr().out
    assert "WARN drive_ambiguous" in out and "the ceilings assume it never limits" in out  # the 'modelled as' line
    # and the line right above the ceilings table
    assert ("drive(s) not identified (drive_ambiguous: 0000:5e:00.0, 0000:5f:00.0, 0000:86:00.0, 0000:87:00.0, "
            "0000:d8:00.0, 0000:d9:00.0): the ceilings below assume these drives never limit") in out
    assert cli.main(["discover", "--lspci", stem, "--drive", "samsung-pm983-3.84tb", "--iodepth", "128"]) == 0
    out = capsys.readouterr().out
    assert "drive_ambiguous" not in out and "INFO drive_given" in out and "drive(s) not identified" not in out
    assert "     1        540,000" in out  # the PM983 data sheet's 540 K binds one drive at QD128
    assert cli.main(["discover", "--lspci", stem, "--drive", "no-such-drive"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: unknown drive 'no-such-drive'") and err.count("\n") == 1
