"""QA findings on ``nvmemodel sweep`` / ``ceilings`` (/work/coord/findings.md F14 rest, F29, F30): every row says
where it is an upper bound, a read-fraction grid is checked against the pattern, a preset runs its paper's workload
where the options are omitted and says so, the header's fabric is the one evaluated."""

import io
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
    return pd.read_csv(io.StringIO(_run(argv, capsys)), keep_default_na=False)


def _error(argv, capsys) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


# ----------------------------------------------------------------------------------------------- F14: upper bounds
def test_rows_on_a_host_with_unknown_layers_say_upper_bound_as_ceilings_does(capsys):
    # ION names no CPU: its root complexes, socket DMA and inter-socket link are unknown; 'ceilings' says so under
    # its table, and every sweep row (CSV and JSON) must say it too
    argv = ["sweep", "--preset", "ion-sr71mach5-linux", "--pattern", "read", "--bs", "128K", "--drives", "4,8",
            "--grid", "host.clock_hz=2GHz,3GHz"]
    df = _csv(argv, capsys)
    note = nm.evaluate(nm.preset("ion-sr71mach5-linux"), nm.Workload("read", "128K"), drives=[4, 8]).upper_bound_note
    assert note and "root complexes" in note
    assert df["upper_bound"].tolist() == [note] * 4
    doc = json.loads(_run([*argv, "--json"], capsys))
    assert [r["upper_bound"] for r in doc["rows"]] == [note] * 4
    assert "upper bound" in doc["units"]["upper_bound"]
    # on the R7525 (a catalog CPU, every layer known) no row says it
    df = _csv(["sweep", "--pattern", "read", "--bs", "128K", "--drives", "4,24", "--grid", "pcie.mps=256,512"], capsys)
    assert df["upper_bound"].tolist() == [""] * 4


@pytest.mark.parametrize("preset, pattern, grid", [
    # a root complex of unknown rate (inf) in some configurations only
    ("dell-r7525", "read", "tree.complex_bytes_per_s=inf,40GB/s"),
    # the Toshiba PX04PMB has no sequential-write rating: needed at 256K, not at 4K (the IOPS rating holds there)
    ("lenovo-sr850-direct", "randwrite", "workload.block_size=4K,256K"),
    # a drive grid: one catalog drive lacks the rating the workload needs, the other has it
    ("dell-r7525", "write", "drive.model=samsung-pm1733-u2,toshiba-px04pmb-960gb"),
])
def test_upper_bound_is_each_configurations_own(capsys, preset, pattern, grid):
    name, values = grid.split("=")
    df = _csv(["sweep", "--preset", preset, "--pattern", pattern, "--bs", "256K", "--drives", "1,4",
               "--grid", grid], capsys)
    assert df["upper_bound"].nunique() == 2 and (df["upper_bound"] == "").sum() == 2
    for value, row in zip([v for v in values.split(",") for _ in (1, 4)], df.itertuples(index=False), strict=True):
        parsed = value if name == "drive.model" else nm.parameters.get(name).parse(value)
        curve = nm.evaluate(nm.preset(preset), nm.Workload(pattern, "256K"), drives=[row.drives],
                            overrides={name: parsed})
        assert row.upper_bound == (curve.upper_bound_note or "")


def test_a_set_rating_is_not_replaced_by_a_grid_drives_catalog_entry(capsys):
    # --set gives the PX04PMB the sequential-write rating its catalog entry lacks: the rows evaluate with it (nm.sweep
    # is given --set values as one-value grid columns), so they are no upper bound
    df = _csv(["sweep", "--pattern", "write", "--bs", "256K", "--drives", "4", "--set", "drive.seq_write_bytes_per_s=1GB/s",
               "--grid", "drive.model=toshiba-px04pmb-960gb,samsung-pm1733-u2"], capsys)
    assert df["upper_bound"].tolist() == ["", ""]
    assert df["bytes_per_s"].tolist() == pytest.approx([4e9, 4e9], rel=1e-9)  # 4 drives x the rating set


def test_mixed_rows_name_the_group_whose_drive_rating_is_unknown_where_it_holds_drives(capsys):
    # 8 PM1733 first, then 8 PX04PMB (no sequential-write rating): at 8 drives no PX04PMB is in use
    df = _csv(["sweep", "--pattern", "write", "--bs", "256K", "--drives", "8,16",
               "--group", "drive=samsung-pm1733-u2,count=8,name=new",
               "--group", "drive=toshiba-px04pmb-960gb,count=8,name=old",
               "--grid", "host.cycles_per_io=4000,8000"], capsys)
    old = "upper bound: the old drives' sequential write bandwidth is not known (not applied)"
    assert df["upper_bound"].tolist() == ["", old] * 2
    # on ION's host the host's layers come first, the drive's clause after
    df = _csv(["sweep", "--preset", "ion-sr71mach5-linux", "--pattern", "write", "--bs", "256K", "--drives", "8",
               "--group", "drive=intel-p3700-800gb,count=4,name=a", "--group", "drive=toshiba-px04pmb-960gb,count=4,name=b",
               "--grid", "host.clock_hz=2GHz,3GHz"], capsys)
    host = mixed_from(nm.preset("ion-sr71mach5-linux"), ["drive=intel-p3700-800gb,count=4,name=a",
                                                         "drive=toshiba-px04pmb-960gb,count=4,name=b"])
    note = nm.evaluate(host, nm.Workload("write", "256K"), drives=[8]).upper_bound_note  # names the b drives too (G7)
    assert note.endswith("inter-socket link (not applied); the b drives' sequential write bandwidth is not known "
                         "(not applied)")
    assert df["upper_bound"].tolist() == [note] * 2


# ------------------------------------------------------------------------------------ F29: read-fraction grid
@pytest.mark.parametrize("pattern", ["read", "randread", "write", "randwrite"])
def test_read_fraction_grid_on_a_pure_pattern_is_refused(capsys, pattern):
    err = _error(["sweep", "--pattern", pattern, "--drives", "4", "--grid", "workload.read_fraction=0,0.5,1"], capsys)
    assert "workload.read_fraction" in err and "randrw or rw" in err and repr(pattern) in err


@pytest.mark.parametrize("pattern", ["randrw", "rw"])
def test_read_fraction_grid_on_a_mix_needs_no_read_fraction_option(capsys, pattern):
    argv = ["sweep", "--pattern", pattern, "--bs", "128K", "--drives", "4,24", "--grid", "workload.read_fraction=0,0.3,1"]
    df = _csv(argv, capsys)
    for row in df.itertuples(index=False):
        f = row[0]
        curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload(pattern, "128K", read_fraction=f), drives=[row.drives])
        assert row.iops == pytest.approx(curve.iops_at(row.drives), rel=1e-12)
    assert df["iops"].nunique() == 6  # the three shares differ at both counts
    doc = json.loads(_run([*argv, "--json"], capsys))
    assert doc["workload"] == f"128K {pattern}, QD32 x 1 job(s), libaio (read share per row: workload.read_fraction)"
    err = _error([*argv, "--read-fraction", "0.5"], capsys)
    assert "--read-fraction" in err and "not both" in err


def test_a_read_fraction_set_on_a_mix_is_its_read_share(capsys):
    out = _run(["ceilings", "--pattern", "randrw", "--set", "workload.read_fraction=0.3", "--drives", "4"], capsys)
    assert "4K randrw 30% read" in out  # was: "read_fraction=None is not allowed" although --set gives it
    doc = json.loads(_run(["sweep", "--pattern", "randread", "--set", "workload.read_fraction=0.3", "--drives", "4",
                           "--json"], capsys))
    assert doc["workload"].startswith("4K randrw 30% read")  # the rows' workload, not 'randread'


# ------------------------------------------------------------------------------ F30: the paper's workload, fabric
def test_stingray_runs_the_papers_spdk_at_qd128_and_says_so(capsys):
    out = _run(["ceilings", "--preset", "broadcom-stingray", "--drives", "4"], capsys)
    workload = out.splitlines()[1]
    assert workload.startswith("workload: 4K randread, QD128 x 1 job(s), spdk (QD128 and spdk are the preset's "
                               "defaults: the paper's target runs SPDK")
    # the numbers are nm.evaluate's with the workload the whitepaper tests use
    curve = nm.evaluate(nm.preset("broadcom-stingray"), nm.Workload("randread", "4K", iodepth=128, io_stack="spdk"),
                        drives=[4])
    assert f"{curve.iops_at(4):,.0f}" in out
    host = curve.ceilings_at(4)
    cpu = next(c for c in host if c.component == "host_cpu")
    assert cpu.iops > 10 * curve.iops_at(4)  # SPDK's cost: the CPU is far from binding (libaio: +0.5 %)
    # an option given replaces its default, and the header names only the one still in use
    out = _run(["ceilings", "--preset", "broadcom-stingray", "--drives", "4", "--iodepth", "32"], capsys)
    assert "QD32 x 1 job(s), spdk (spdk is the preset's default:" in out
    out = _run(["ceilings", "--preset", "broadcom-stingray", "--drives", "4", "--iodepth", "32",
                "--set", "workload.io_stack=libaio"], capsys)
    assert "preset's default" not in out
    # other presets keep the CLI's QD32 / libaio, with no note
    out = _run(["ceilings", "--preset", "dell-r7525", "--drives", "4"], capsys)
    assert out.splitlines()[1] == "workload: 4K randread, QD32 x 1 job(s), libaio"
    doc = json.loads(_run(["ceilings", "--preset", "broadcom-stingray", "--drives", "4", "--json"], capsys))
    assert doc["workload_defaults"].startswith("QD128 and spdk are the preset's defaults")


def test_sweep_uses_and_states_the_presets_workload(capsys):
    argv = ["sweep", "--preset", "broadcom-stingray", "--drives", "4", "--grid", "host.clock_hz=2GHz,3GHz"]
    assert cli.main(argv) == 0
    out, err = capsys.readouterr()
    df = pd.read_csv(io.StringIO(out), keep_default_na=False)
    curve = nm.evaluate(nm.preset("broadcom-stingray"), nm.Workload("randread", "4K", iodepth=128, io_stack="spdk"),
                        drives=[4], overrides={"host.clock_hz": 2e9})
    assert df["iops"][0] == pytest.approx(curve.iops_at(4), rel=1e-12)
    assert "QD128 and spdk are the preset's defaults" in err
    doc = json.loads(_run([*argv, "--json"], capsys))
    assert doc["workload"] == "4K randread, QD128 x 1 job(s), spdk"
    assert doc["workload_defaults"].startswith("QD128 and spdk")
    # a grid of the I/O stack: the stack default is not the rows'
    doc = json.loads(_run([*argv[:-2], "--grid", "workload.io_stack=libaio,spdk", "--json"], capsys))
    assert doc["workload_defaults"].startswith("QD128 is the preset's default")


def test_header_fabric_follows_the_transport_and_line_rate_in_use(capsys):
    out = _run(["ceilings", "--preset", "broadcom-stingray", "--drives", "4", "--set", "fabric.transport=tcp"], capsys)
    head = out.splitlines()[0]
    assert "over 100 GbE NVMe/TCP, single initiator (tcp, 1 x 100 Gb/s)" in head and "RoCE" not in head
    out = _run(["ceilings", "--preset", "broadcom-stingray", "--drives", "4",
                "--set", "fabric.line_rate_bits_per_s=25Gb/s"], capsys)
    assert "over 25 GbE RoCEv2, single initiator (rocev2, 1 x 25 Gb/s)" in out.splitlines()[0]
    out = _run(["ceilings", "--preset", "broadcom-stingray", "--drives", "4"], capsys)
    assert "over 100 GbE RoCEv2, single initiator (rocev2, 1 x 100 Gb/s)" in out.splitlines()[0]


# ------------------------------------------------------------------------------------- F31: whole RAID arrays
def test_ceilings_on_ion_evaluates_whole_raid5_arrays_of_4_only(capsys):
    # ION's drives are "two 4-drive software RAID-5 arrays": 3 drives hold no RAID-5 of 4, 6 are one array and 2
    # drives in none; the preset's default counts 1..8 keep 4 and 8 and say which were left out
    out = _run(["ceilings", "--preset", "ion-sr71mach5-linux", "--pattern", "randwrite"], capsys)
    assert "(drive counts 1, 2, 3, 5, 6, 7 left out: not whole RAID-5 arrays of 4 (raid.width))" in out
    rows = [line.split() for line in out.split("binding\n", 1)[1].split("\n\n", 1)[0].splitlines() if line[:6].strip()]
    assert [r[0] for r in rows if r[0].isdigit()] == ["4", "8"]
    curve = nm.evaluate(nm.preset("ion-sr71mach5-linux"), nm.Workload("randwrite", "4K"), drives=[8])
    assert f"{curve.iops_at(8):,.0f}" in out
    doc = json.loads(_run(["ceilings", "--preset", "ion-sr71mach5-linux", "--json"], capsys))
    assert [p["drives"] for p in doc["points"]] == [4, 8] and "1, 2, 3, 5, 6, 7" in doc["drives_left_out"]
    err = _error(["ceilings", "--preset", "ion-sr71mach5-linux", "--pattern", "randwrite", "--drives", "1,2,3,6"],
                 capsys)
    assert "raid.width=4" in err and "1, 2, 3 drive(s) hold no RAID-5 of 4" in err and "of 6 drives 2 are" in err


@pytest.mark.parametrize("sets, drives, expected", [
    (["raid.level=raid6"], "1,2", "raid.width=4"),                  # a "RAID-6 of 4" on 1 drive
    (["raid.level=raid6", "raid.width=3"], "6", "raid.width=3 is not allowed: expected at least 4 members"),
    (["raid.level=raid5", "raid.width=2"], "4", "raid.width=2 is not allowed: expected at least 3 members"),
    (["raid.level=raid10", "raid.width=4"], "6", "of 6 drives 2 are in no array"),
])
def test_raid_counts_that_are_not_whole_arrays_are_refused(capsys, sets, drives, expected):
    argv = [x for s in sets for x in ("--set", s)]
    assert expected in _error(["ceilings", "--pattern", "randwrite", "--drives", drives, *argv], capsys)
    assert expected in _error(["sweep", "--pattern", "randwrite", "--drives", drives, *argv], capsys)


def test_sweep_on_ion_keeps_whole_arrays_and_checks_each_grid_width(capsys):
    assert cli.main(["sweep", "--preset", "ion-sr71mach5-linux", "--grid", "host.clock_hz=2GHz,3GHz"]) == 0
    out, err = capsys.readouterr()
    df = pd.read_csv(io.StringIO(out), keep_default_na=False)
    assert df["drives"].tolist() == [4, 8, 4, 8]
    assert "drive counts 1, 2, 3, 5, 6, 7 left out" in err
    doc = json.loads(_run(["sweep", "--preset", "ion-sr71mach5-linux", "--json"], capsys))
    assert doc["drives"] == [4, 8] and doc["drives_left_out"].startswith("drive counts 1, 2, 3, 5, 6, 7 left out")
    assert json.loads(_run(["sweep", "--json", "--drives", "4"], capsys))["drives_left_out"] is None
    err = _error(["sweep", "--preset", "ion-sr71mach5-linux", "--grid", "raid.width=3,4", "--drives", "4,8"], capsys)
    assert "raid.width=3" in err and "of 4 drives 1 is in no array" in err
    df = _csv(["sweep", "--preset", "ion-sr71mach5-linux", "--grid", "raid.width=2,4", "--drives", "4,8",
               "--set", "raid.level=raid1"], capsys)
    assert len(df) == 4
    # the model's RAID-10 is mirrored pairs striped (raid.MIN_DRIVES: at least two pairs)
    err = _error(["sweep", "--preset", "ion-sr71mach5-linux", "--grid", "raid.width=2,4", "--drives", "4,8",
                  "--set", "raid.level=raid10"], capsys)
    assert "raid.width=2 is not allowed: expected at least 4 members per array for raid10" in err


def test_the_raid_sentence_counts_the_arrays():
    from nvmemodel.ceiling.raid import describe_raid

    p = nm.evaluate(nm.preset("ion-sr71mach5-linux"), nm.Workload("randwrite", "4K"), drives=[8]).parameters
    assert describe_raid(p, 8).startswith("Software RAID-5, 2 arrays of 4 (a small write = 2 reads + 2 writes)")
    assert describe_raid(p).startswith("Software RAID-5 of 4 (")
