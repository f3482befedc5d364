"""``nvmemodel sweep``: every row is what nm.evaluate gives for that configuration and drive count, and what
nm.sweep gives for the grid — uniform presets and ``--group`` mixed topologies; --out writes only a new file.
(Hostile input: tests/cli/test_bad_input.py.)"""

import io
import itertools
import json

import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.cli.mixed import mixed_from


def _run(argv, capsys) -> str:
    assert cli.main(argv) == 0
    return capsys.readouterr().out


def _csv(argv, capsys) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(_run(argv, capsys)), keep_default_na=False)  # upper_bound "": no NaN


def test_uniform_rows_equal_evaluate_for_each_configuration(capsys):
    # 4K random reads on the R7525: the configurations differ in IOPS and binding at 24 drives (the CPU binds for
    # some: libaio at 2 GHz), so a row given another configuration's values would show the wrong ones; the I/O
    # stack is a categorical axis, given by name.
    df = _csv(["sweep", "--grid", "workload.io_stack=libaio,spdk", "--grid", "host.clock_hz=2GHz,3GHz",
               "--drives", "4,12,24"], capsys)
    assert list(df.columns) == ["workload.io_stack", "host.clock_hz", "drives", "iops", "bytes_per_s", "binding",
                                "upper_bound"]
    combos = list(itertools.product(["libaio", "spdk"], [2e9, 3e9], [4, 12, 24]))
    assert [(r["workload.io_stack"], r["host.clock_hz"], r["drives"]) for _, r in df.iterrows()] == combos
    topo, wl = nm.preset("dell-r7525"), nm.Workload("randread", "4K")
    for (stack, clock, n), (_, row) in zip(combos, df.iterrows(), strict=True):
        curve = nm.evaluate(topo, wl, drives=[n], overrides={"workload.io_stack": stack, "host.clock_hz": clock})
        assert row["iops"] == pytest.approx(curve.iops_at(n), rel=1e-12)
        assert row["bytes_per_s"] == pytest.approx(curve.bandwidth_at(n), rel=1e-12)
        assert row["bytes_per_s"] == pytest.approx(row["iops"] * 4096, rel=1e-12)  # SI bytes/s of 4 KiB I/Os
        assert row["binding"] == curve.binding_at(n)
    assert set(df["binding"]) == {"drive", "host_cpu"}
    assert df["iops"].nunique() > 3


def test_uniform_rows_equal_nm_sweep(capsys):
    df = _csv(["sweep", "--pattern", "read", "--bs", "128K", "--grid", "pcie.mps=128,256,512",
               "--grid", "switch.model=none", "--drives", "1-24"], capsys)
    res = nm.sweep(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=range(1, 25),
                   grid={"pcie.mps": [128.0, 256.0, 512.0], "switch.model": ["none"] * 3})
    assert len(df) == res.size == 72
    assert df["iops"].tolist() == pytest.approx(res.iops.ravel().tolist(), rel=1e-12)
    assert df["binding"].tolist() == res.binding.ravel().tolist()
    assert df["pcie.mps"].tolist() == [128] * 24 + [256] * 24 + [512] * 24  # whole numbers as written


def test_drive_set_and_workload_options_apply_as_in_ceilings(capsys):
    # --drive, --set and the workload options are those of 'ceilings'; at QD1..4 the drive's latency (Little's
    # law) sets its IOPS, so a --set latency that were dropped would change every row.
    argv = ["--drive", "samsung-pm1743", "--set", "drive.read_latency_s=80us", "--iodepth", "2", "--drives", "1,8"]
    df = _csv(["sweep", *argv, "--grid", "workload.iodepth=1,4"], capsys)
    topo, wl = nm.preset("dell-r7525"), nm.Workload("randread", "4K", iodepth=2)
    for _, row in df.iterrows():
        curve = nm.evaluate(topo, wl, drives=[row["drives"]], overrides={
            "drive.model": "samsung-pm1743", "drive.read_latency_s": 80e-6, "workload.iodepth": row["workload.iodepth"]})
        assert row["iops"] == pytest.approx(curve.iops_at(row["drives"]), rel=1e-12)
    assert df["iops"].iloc[0] == pytest.approx(1 / 80e-6, rel=1e-9)  # QD1, one drive: 1 / latency


def test_no_grid_is_the_ceilings_curve(capsys):
    df = _csv(["sweep", "--pattern", "read", "--bs", "128K"], capsys)
    curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"))
    assert df["drives"].tolist() == curve.drives.tolist()
    assert df["iops"].tolist() == pytest.approx(curve.iops.tolist(), rel=1e-12)
    assert df["binding"].tolist() == curve.binding.tolist()


GROUPS = ["--group", "drive=samsung-pm1733-u2,count=8,name=new",
          "--group", "drive=intel-p3700-800gb,count=16,name=old,switch=broadcom-pex9797,switches=2"]


@pytest.mark.parametrize("order", ["sequential", "interleaved"])
def test_mixed_rows_equal_evaluate_and_sweep(capsys, order):
    df = _csv(["sweep", *GROUPS, "--order", order, "--grid", "host.cycles_per_io=4000,40000",
               "--drives", "4,8,16,24"], capsys)
    assert list(df.columns) == ["host.cycles_per_io", "drives", "drives.new", "drives.old", "iops", "bytes_per_s",
                                "binding", "upper_bound"]
    mixed = mixed_from(nm.preset("dell-r7525"), GROUPS[1::2], order=order)
    wl = nm.Workload("randread", "4K")
    for cycles, rows in df.groupby("host.cycles_per_io", sort=False):
        curve = nm.evaluate(mixed, wl, drives=[4, 8, 16, 24], overrides={"host.cycles_per_io": float(cycles)})
        assert rows["iops"].tolist() == pytest.approx(curve.iops.tolist(), rel=1e-12)
        assert rows["bytes_per_s"].tolist() == pytest.approx(curve.bytes_per_s.tolist(), rel=1e-12)
        assert rows["binding"].tolist() == curve.binding.tolist()
        assert rows["drives.new"].tolist() == curve.group_drives[0].tolist()
        assert rows["drives.old"].tolist() == curve.group_drives[1].tolist()
    res = nm.sweep(mixed, wl, drives=[4, 8, 16, 24], grid={"host.cycles_per_io": [4000.0, 40000.0]})
    assert df["iops"].tolist() == pytest.approx(res.iops.ravel().tolist(), rel=1e-12)
    # at 40,000 cycles per I/O the CPU binds (2 x 64 cores x 2.25 GHz / 40,000 = 7.2 M IOPS) from 8 drives on (4 give
    # 4 x 1.45 M = 5.8 M); at 4,000 it never does
    cpu = df["binding"] == "host_cpu"
    assert cpu.tolist() == ((df["host.cycles_per_io"] == 40000) & (df["drives"] >= 8)).tolist()
    assert df["iops"][cpu].tolist() == pytest.approx([7.2e6] * 3, rel=1e-12)
    first = [4, 0] if order == "sequential" else [2, 2]
    assert [df["drives.new"][0], df["drives.old"][0]] == first


def test_json_has_the_csv_values_and_names_units(capsys):
    argv = ["sweep", "--grid", "host.clock_hz=2GHz,3GHz", "--drives", "2,24", "--set", "host.cycles_per_io=20000"]
    table = _csv(argv, capsys)
    doc = json.loads(_run([*argv, "--json"], capsys))
    assert doc["schema"] == "nvmemodel.sweep/1"
    assert doc["settings"] == {"host.cycles_per_io": 20000} and doc["grid"] == {"host.clock_hz": [2e9, 3e9]}
    assert doc["units"]["bytes_per_s"].startswith("bytes per second") and doc["units"]["host.clock_hz"] == "Hz"
    assert pd.DataFrame(doc["rows"]).equals(table)
    # 2 x 64 cores x 2 GHz / 20,000 cycles = 12.8 M IOPS at most: the CPU (the --set) binds at 24 drives, not at 2
    assert [r["binding"] for r in doc["rows"]][:2] == ["drive", "host_cpu"]


def test_out_writes_a_new_file_and_never_overwrites(tmp_path, capsys):
    out = tmp_path / "grid.csv"
    argv = ["sweep", "--grid", "host.clock_hz=2GHz,3GHz", "--drives", "24"]
    printed = _run(argv, capsys)
    assert cli.main([*argv, "--out", str(out)]) == 0
    assert out.read_text() == printed and capsys.readouterr().out == ""
    assert cli.main([*argv, "--grid", "workload.io_stack=spdk", "--out", str(out)]) == 2
    assert "it exists" in capsys.readouterr().err and out.read_text() == printed
    link = tmp_path / "link.csv"
    link.symlink_to(tmp_path / "target.csv")  # a dangling link: writing would create its target
    assert cli.main([*argv, "--out", str(link)]) == 2
    assert not (tmp_path / "target.csv").exists()


def test_max_points_guards_and_raises(capsys):
    argv = ["sweep", "--grid", "host.clock_hz=2GHz,2.5GHz,3GHz", "--drives", "1-24"]  # 72 points
    assert cli.main([*argv, "--max-points", "71"]) == 2
    err = capsys.readouterr().err
    assert "this grid has 72" in err and "raise --max-points" in err
    assert len(_csv([*argv, "--max-points", "72"], capsys)) == 72


def test_mirror_across_groups_rows_equal_evaluate(capsys):
    # --group mirror= (an md RAID-10 of one NVMe and one older drive per pair; raid.level moves into the topology)
    groups = ["drive=samsung-pm1733-u2,count=4,name=a,mirror=b", "drive=intel-p3700-800gb,count=4,name=b"]
    argv = ["sweep", "--preset", "ion-sr71mach5-linux", "--set", "raid.level=raid10",
            "--grid", "host.cycles_per_io=4000,40000", "--drives", "2,8"]
    df = _csv([*argv, *(x for g in groups for x in ("--group", g))], capsys)
    overrides = {"raid.level": "raid10"}
    mixed = mixed_from(nm.preset("ion-sr71mach5-linux"), groups, overrides=overrides)
    assert overrides == {} and mixed.mirror
    for cycles, rows in df.groupby("host.cycles_per_io", sort=False):
        curve = nm.evaluate(mixed, nm.Workload("randread", "4K"), drives=[2, 8],
                            overrides={"host.cycles_per_io": float(cycles)})
        assert rows["iops"].tolist() == pytest.approx(curve.iops.tolist(), rel=1e-12)
        assert rows["binding"].tolist() == curve.binding.tolist()
    assert df["drives.a"].tolist() == df["drives.b"].tolist() == [1, 4, 1, 4]  # pairs: one drive of each


def test_a_failed_write_leaves_no_file(tmp_path):
    from nvmemodel.cli.sweep import write_new

    def fail(fh):
        fh.write("half a table\n")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_new(str(tmp_path / "t.csv"), fail)
    assert list(tmp_path.iterdir()) == []


def test_the_help_examples_run(tmp_path, monkeypatch, capsys):
    import shlex

    from nvmemodel.cli.sweep import _EXAMPLES

    text = _EXAMPLES.split("\ncolumns:")[0].replace("\\\n", " ")
    commands = [shlex.split(line)[1:] for line in text.splitlines() if line.startswith("  nvmemodel sweep")]
    assert len(commands) == 4
    monkeypatch.chdir(tmp_path)  # one example writes --out clock-by-size.csv
    for argv in commands:
        assert cli.main(argv) == 0, argv
    capsys.readouterr()
    assert len(pd.read_csv(tmp_path / "clock-by-size.csv")) == 3 * 3 * 24


def test_drive_counts_are_checked_against_each_configurations_bays(capsys):
    # x8 root ports leave 12 bays on the R7525 (2 x (80 - 32) / 8): 24 drives there are refused, not evaluated;
    # 128 lanes per socket leave 48, so 48 drives are allowed when every configuration holds them
    assert cli.main(["sweep", "--grid", "host.port_lanes=4,8", "--drives", "12,24"]) == 2
    assert "at most 12 for the grid's host.port_lanes=8" in capsys.readouterr().err
    df = _csv(["sweep", "--grid", "host.lanes_per_socket=128,160", "--drives", "24,48"], capsys)
    for _, row in df.iterrows():
        curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload(), drives=[row["drives"]],
                            overrides={"host.lanes_per_socket": row["host.lanes_per_socket"]})
        assert row["iops"] == pytest.approx(curve.iops_at(row["drives"]), rel=1e-12)
