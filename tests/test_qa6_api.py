"""QA s25 H32 (plot_results / read_fio_logs parts), H33 and H34: the Python entry points answer a wrong argument
with one error naming it, and a component's wording says where its value is not from a spec sheet."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError


# ---------------------------------------------------------------- H33: nm.plan(target, topology)
def _target():
    return nm.Target(nm.Workload("read", "128K"), bytes_per_s=60e9)


def _mixed():
    dell = nm.preset("dell-r7525")
    return nm.MixedTopology("p3700 then optane", dell.host, (nm.DriveGroup("intel-p3700-800gb", 8, name="p3700"),
                            nm.DriveGroup("intel-p5800x-800gb", 8, name="optane")), extras=dict(dell.extras))


@pytest.mark.parametrize("space", [lambda: nm.preset("dell-r7525"), lambda: "dell-r7525"], ids=["topology", "name"])
def test_h33_a_topology_or_preset_name_is_the_space_without_axes(space):
    # was AttributeError: 'Topology' object has no attribute 'size' ('str' ...) from inside the planner
    got = nm.plan(_target(), space())
    want = nm.plan(_target(), nm.DesignSpace("dell-r7525", {}))
    assert got.evaluated == want.evaluated == 1
    assert int(got.best["drives"]) == int(want.best["drives"]) == 9   # 9 x 7.2 GB/s Gen4 x4 links > 60 GB/s
    assert got.best["128K read|binding"] == "pcie_link"
    assert got.table().equals(want.table())


def test_h33_a_mixed_topology_is_the_space_without_axes():
    target = nm.Target(nm.Workload("randread", "4K"), iops=2e6)
    mixed = _mixed()
    got = nm.plan(target, mixed)
    want = nm.plan(target, nm.DesignSpace(mixed, {}))
    assert int(got.best["drives"]) == int(want.best["drives"]) == 5   # 5 P3700s x 460 K >= 2 M
    assert got.table().equals(want.table())


@pytest.mark.parametrize("bad", [24, None, {"host.gen": [4]}])
def test_h33_anything_else_is_one_error_naming_space(bad):
    with pytest.raises(ParameterError) as err:
        nm.plan(_target(), bad)
    assert err.value.parameter == "space"
    assert "expected a DesignSpace" in str(err.value) and "preset name" in str(err.value)


def test_h33_a_design_space_of_no_topology_is_one_error_naming_base():
    with pytest.raises(ParameterError) as err:
        nm.DesignSpace(24, {})
    assert err.value.parameter == "base"
    assert "expected a topology" in str(err.value)


# ---------------------------------------------------------------- H32: plot_results / read_fio_logs
pd = pytest.importorskip("pandas")
DATA = __import__("pathlib").Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def results():
    return nm.read_results(DATA / "qa6" / "grid")


def _plot(table, **kw):
    import matplotlib

    matplotlib.use("Agg")
    return nm.plot_results(table, x="iodepth", **kw)


def test_h32_plot_results_of_an_empty_table_names_the_table():
    # was KeyError: 'direction'
    with pytest.raises(ParameterError) as err:
        _plot(pd.DataFrame())
    assert err.value.parameter == "table"
    assert str(err.value) == ("table='a DataFrame with no columns' is not allowed: expected a results table from "
                              "nm.read_results (`nvmemodel ingest --schema` lists its columns)")


def test_h32_plot_results_of_a_table_with_two_iodepth_columns_names_them(results):
    # was TypeError: arg must be a list, tuple, 1-d array, or Series (from pandas)
    twice = pd.concat([results, results[["iodepth"]]], axis=1)
    with pytest.raises(ParameterError, match=r"several iodepth columns.*each column once"):
        _plot(twice)


def test_h32_plot_results_names_a_missing_column_and_a_wrong_type(results):
    with pytest.raises(ParameterError, match=r"table='a DataFrame with no column iops'"):
        _plot(results.drop(columns=["iops"]))
    with pytest.raises(ParameterError, match=r"table='int' is not allowed: expected a results table"):
        _plot(5)
    with pytest.raises(ParameterError, match=r"table\['b'\]='a DataFrame with no columns'"):
        _plot({"a": results, "b": pd.DataFrame()}, hue="dataset")
    # a results table still draws (one numjobs, so one point per iodepth)
    ax = _plot(results[results["numjobs"] == 1])
    assert sorted(ax.summary["iodepth"]) == sorted(results.loc[results["numjobs"] == 1, "iodepth"].unique())


def test_h32_read_fio_logs_of_empty_logs_names_them(tmp_path):
    from nvmemodel.errors import IngestError, IngestWarning

    empty = tmp_path / "e_iops.1.log"
    empty.write_text("")
    with pytest.raises(IngestError) as err:  # was an empty DataFrame without a word
        nm.read_fio_logs([empty])
    assert err.value.path == str(empty) and err.value.problem.startswith("no samples: an empty log")
    slat = tmp_path / "e_slat.1.log"
    slat.write_text("")
    with pytest.raises(IngestError, match=r"and 1 more log\(s\), all empty"):
        nm.read_fio_logs([empty, slat])
    good = tmp_path / "g_iops.1.log"
    good.write_text("100, 500, 0, 0\n200, 510, 0, 0\n")
    with pytest.warns(IngestWarning, match=r"1 fio log\(s\) with no samples left out: .*e_slat\.1\.log"):
        logs = nm.read_fio_logs([slat, good])
    assert list(logs["value"]) == [500.0, 510.0] and set(logs["source_path"]) == {str(good)}


# ---------------------------------------------------------------- H34: "(spec sheet)" only for spec values
LSPCI = DATA / "lspci" / "hwloc-dell-xeon-e5-2s-p3600_vvv.txt"


def _drive_label(topology, workload):
    from nvmemodel.ceiling.components import label_for

    return label_for("drive", topology.parameters(workload), topology.sources(workload))


def test_h34_a_recalled_rating_of_an_assumed_drive_is_not_called_a_spec_sheet():
    from nvmemodel.cli.fit import _discovered

    topo = _discovered(str(LSPCI))  # discover reads the P3600 as catalog intel-p3600-1600gb: ratings recalled
    wl = nm.Workload("randread", "4K")
    assert topo.sources(wl)["drive.rand_read_iops"].status == "recalled"
    assert _drive_label(topo, wl) == "the drives' own limit (rating recalled, not re-verified)"


def test_h34_spec_values_keep_the_registered_label_byte_for_byte():
    from nvmemodel.ceiling.components import COMPONENT_LABELS, label_for

    dell = nm.preset("dell-r7525")
    for wl in (nm.Workload("randread", "4K"), nm.Workload("randwrite", "4K"), nm.Workload("write", "128K")):
        assert _drive_label(dell, wl) == COMPONENT_LABELS["drive"] == "the drives' own limit (spec sheet)"
    # a label without "(spec sheet)" is the registered one whatever the statuses
    wl = nm.Workload("read", "128K")
    assert label_for("pcie_link", dell.parameters(wl), dell.sources(wl)) == COMPONENT_LABELS["pcie_link"]
    assert label_for("drive") == COMPONENT_LABELS["drive"]   # no parameters: the registered label


def test_h34_the_status_of_the_field_that_sets_the_limit_is_named():
    dell = nm.preset("dell-r7525")
    # 128K reads: the PM1733's read bandwidth sets it, calibrated on Dell's measurement (its 4K IOPS are spec)
    wl = nm.Workload("read", "128K")
    assert dell.sources(wl)["drive.seq_read_bytes_per_s"].status == "calibrated"
    assert _drive_label(dell, wl) == "the drives' own limit (calibrated)"
    # Lenovo LP0865: the drive's read limits are inferred from the paper, its write limits calibrated on it
    lenovo = nm.preset("lenovo-sr850-direct")
    assert _drive_label(lenovo, nm.Workload("randread", "4K")) == "the drives' own limit (inferred)"
    assert _drive_label(lenovo, nm.Workload("randwrite", "4K")) == "the drives' own limit (calibrated)"


def test_h34_a_plans_miss_names_the_status_of_the_configurations_drive_ratings():
    space = nm.DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1733-u2", "intel-p3600-1600gb"]}, max_drives=2)
    p = nm.plan(nm.Target(nm.Workload("randread", "4K"), iops=1e9), space)
    reasons = dict(zip(p.rejected["drive.model"], p.rejected["reason"], strict=True))
    # 2 x 1.45 M (spec) and 2 x 450 K (the P3600's catalog rating: recalled)
    assert reasons["samsung-pm1733-u2"].startswith(
        "4K randread reaches at most 2.90 M IOPS with 2 drives (the drives' own limit (spec sheet) [drive] binds)")
    assert reasons["intel-p3600-1600gb"].startswith("4K randread reaches at most 900.00 K IOPS with 2 drives (the "
                                                    "drives' own limit (rating recalled, not re-verified) [drive] binds)")


# ---------------------------------------------------------------- found here: whole RAID arrays in few bays
def test_a_plan_whose_bays_hold_no_whole_raid_array_says_so():
    # ION's RAID-5 arrays are 4 drives wide: 2 bays hold none (was "reaches at most 0 IOPS with 0 drives (the drives'
    # own limit … binds) …; 2 drives is the bays' limit" and "reaching 0.0043% of the target" — at 2 drives' rate)
    target = nm.Target(nm.Workload("read", "128K"), iops=1e9)
    p = nm.plan(target, nm.DesignSpace("ion-sr71mach5-linux", {}, max_drives=2))
    assert p.rejected["reason"][0] == ("128K read has no drives: only whole raid5 arrays of 4 drives (raid.width) "
                                       "count, and 2 drive bays (max_drives) hold none")
    assert p.rejected["closest_fraction"][0] == 0
    # 6 bays: one array of 4; how close it comes is at those 4 drives (85.45 K IOPS), not at 6
    p = nm.plan(target, nm.DesignSpace("ion-sr71mach5-linux", {}, max_drives=6))
    reason = p.rejected["reason"][0]
    assert reason.startswith("128K read reaches at most 85.45 K IOPS with 4 drives")
    assert reason.endswith("4 drives: only whole raid5 arrays of 4 drives (raid.width) count, and 6 drive bays "
                           "(max_drives) hold 1")
    assert p.rejected["closest_fraction"][0] == pytest.approx(85.45e3 / 1e9, rel=1e-3)
    four = nm.plan(target, nm.DesignSpace("ion-sr71mach5-linux", {}, max_drives=4))
    assert p.rejected["closest_fraction"][0] == four.rejected["closest_fraction"][0]
