"""Drives that differ in model or trained link are modelled as found, one group each (QA findings F7, F8).

The fixtures are synthetic config spaces decoded by the real ``lspci`` (tests/data/lspci/make_synthetic.py):
a Zen 2 host with a PM173X at Gen4 x4 and an Intel P4510 (capable Gen3 x4) trained 2.5 GT/s x1.
"""

import pathlib

import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.discover import discover

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "lspci"
RANDREAD = nm.Workload("randread", "4K")
#: a 2.5 GT/s x1 link carries at most 250 MB/s of data per direction after 8b/10b (PCIe Base Specification)
GEN1_X1 = 2.5e9 * 8 / 10 / 8


def test_a_degraded_link_and_a_second_model_are_modelled_as_found():
    found = discover(str(DATA / "synthetic-zen2-mixed-degraded_vvv.txt"))
    assert found.flag("tree_not_uniform").severity == "warn"
    assert "which is NOT this tree" in found.flag("tree_not_uniform").message
    groups = {(g.drive.name, int(g.drive.gen), g.drive.lanes, g.count) for g in found.mixed.groups}
    assert groups == {("Samsung PM1733 (U.2)", 4, 4, 1), ("Intel SSD DC P4510 2.0TB", 1, 1, 1)}
    as_found = nm.evaluate_mixed(found.mixed, RANDREAD, drives=[2]).iops_at(2)
    # the same machine written by hand: the discovered groups are the drives and links of the fixture
    by_hand = nm.MixedTopology("by hand", found.topology.host, (
        nm.DriveGroup("samsung-pm1733-u2", 1, lanes=4),
        nm.DriveGroup(nm.get_drive("intel-p4510-2tb").replace(gen=1, lanes=1), 1, lanes=4)), pcie=found.topology.pcie)
    assert as_found == pytest.approx(nm.evaluate_mixed(by_hand, RANDREAD, drives=[2]).iops_at(2), rel=1e-12)
    # at most the PM1733's own 1.45 M IOPS plus what a Gen1 x1 link can carry in 4 KiB reads
    assert as_found <= 1.45e6 + GEN1_X1 / 4096
    single = nm.evaluate(found.topology, RANDREAD, drives=[2]).iops_at(2)
    assert as_found < 0.6 * single  # the single-model topology (2 x PM1733 at Gen4 x4) is not this machine


def test_one_model_with_one_degraded_link_is_modelled_as_found():
    found = discover(str(DATA / "synthetic-zen2-pm173x-degraded_vvv.txt"))
    links = sorted((int(g.drive.gen), g.drive.lanes) for g in found.mixed.groups)
    assert links == [(1, 1), (4, 4)]
    assert nm.evaluate_mixed(found.mixed, RANDREAD, drives=[2]).iops_at(2) <= 1.45e6 + GEN1_X1 / 4096


def test_identical_drives_stay_one_topology():
    found = discover(str(DATA / "synthetic-direct-gen4_vvv.txt"))
    assert found.mixed is None and found.flag("tree_not_uniform") is None


def test_discover_prints_the_drives_as_found(capsys):
    assert cli.main(["discover", "--lspci", str(DATA / "synthetic-zen2-mixed-degraded_vvv.txt")]) == 0
    out = capsys.readouterr().out
    assert "modelled as found" in out and "1 x Intel SSD DC P4510 2.0TB at Gen1 x1" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("2 ") and "pcie_link" in line)
    iops = float(row.split()[1].replace(",", ""))
    assert 1.45e6 <= iops <= 1.45e6 + GEN1_X1 / 4096
    assert "2,900,000" not in out


def test_lspci_tv_names_the_unidentified_drive_and_its_family_link(capsys):
    # -tv carries no links and no subsystem: the Intel controller fits P4500/P4510/P4610, all Gen3 x4 in the catalog
    found = discover(str(DATA / "synthetic-zen2-mixed-degraded_tv.txt"))
    intel = next(g for g in found.mixed.groups if "Beta Rock" in g.drive.name)
    assert (int(intel.drive.gen), intel.drive.lanes) == (3, 4) and "link assumed" in intel.name
    assert cli.main(["discover", "--lspci", str(DATA / "synthetic-zen2-mixed-degraded_tv.txt")]) == 0
    out = capsys.readouterr().out
    assert "drive(s) not identified (drive_ambiguous: 0000:02:00.0): the ceilings below assume these drives" in out
    assert "drive: not identified" not in out


def test_fit_refuses_a_topology_whose_drives_differ(capsys, tmp_path):
    # fit models identical drives: a tree that is not one model and link is refused, not silently simplified
    import json

    res = tmp_path / "r.json"
    res.write_text(json.dumps({"fio version": "fio-3.33", "jobs": [{"jobname": "j", "groupid": 0, "error": 0,
                   "job options": {"rw": "randread", "bs": "4k", "iodepth": "1"},
                   "read": {"io_bytes": 4096, "bw_bytes": 4096, "iops": 1.0, "runtime": 1000,
                            "lat_ns": {"mean": 1000.0}, "total_ios": 1},
                   "write": {"io_bytes": 0, "bw_bytes": 0, "iops": 0.0, "runtime": 0, "lat_ns": {"mean": 0.0},
                             "total_ios": 0}}]}))
    assert cli.main(["fit", str(res), "--x", "iodepth", "--topology",
                     str(DATA / "synthetic-zen2-mixed-degraded_vvv.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "1 x Intel SSD DC P4510 2.0TB at Gen1 x1" in err
