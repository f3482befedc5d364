"""QA round 5 on ``nvmemodel sweep`` (/work/coord/findings2.md G12, G18): each row's ``upper_bound`` says what
``nvmemodel ceilings`` says under its table for the same configuration — the software RAID layer's uncharged CPU
cost (G12), a host.gen above a catalog CPU's own (G18) — a catalog CPU's socket counts bound a host.sockets grid,
and an unnamed group's column has no space in its name."""

import io

import pandas as pd

import nvmemodel as nm
from nvmemodel import cli

RAID = "the software RAID layer's CPU cost is not charged (raid.cycles_per_io = 0"
# QA s25 H39: the PM1733's QD1 latency is unknown, and at the default QD32 x 1 job a NAND latency from the catalog
# (up to 115 us) allows 32 / 115 us = 278 K IOPS, below its 1.45 M rating: every default 4K row says so too
QD1 = "the drive's QD1 latency (Little's law at this queue depth may bind) is not known (not applied)"
GROUP0_QD1 = QD1.replace("the drive's", "the group 0 drives'")


def _csv(argv, capsys) -> pd.DataFrame:
    assert cli.main(argv) == 0
    return pd.read_csv(io.StringIO(capsys.readouterr().out), keep_default_na=False)


def _error(argv, capsys) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


# ---------------------------------------------------------------------------------------------- G12: RAID cost
def test_a_raid_level_set_makes_every_row_an_upper_bound_as_ceilings_says(capsys):
    df = _csv(["sweep", "--preset", "dell-r7525", "--set", "raid.level=raid5", "--set", "raid.width=4",
               "--drives", "4,8"], capsys)
    curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K", iodepth=32), drives=[4, 8],
                        overrides={"raid.level": "raid5", "raid.width": 4})
    assert curve.upper_bound_note and RAID in curve.upper_bound_note
    assert df["upper_bound"].tolist() == [curve.upper_bound_note] * 2
    # a CPU cost given: charged, so no row says it
    df = _csv(["sweep", "--preset", "dell-r7525", "--set", "raid.level=raid5", "--set", "raid.cycles_per_io=27700",
               "--drives", "8"], capsys)
    assert df["upper_bound"].tolist() == [f"upper bound: {QD1}"]  # the RAID cost no longer; the drive's latency (H39)


def test_gridded_raid_level_and_cost_say_it_per_row(capsys):
    df = _csv(["sweep", "--preset", "dell-r7525", "--grid", "raid.level=none,raid0,raid5", "--drives", "8"], capsys)
    assert [RAID in t for t in df["upper_bound"]] == [False, True, True]
    df = _csv(["sweep", "--preset", "dell-r7525", "--set", "raid.level=raid0",
               "--grid", "raid.cycles_per_io=0,27700", "--drives", "8"], capsys)
    assert [RAID in t for t in df["upper_bound"]] == [True, False]


def test_a_mirror_of_two_groups_says_the_raid_cost_and_names_its_columns_without_spaces(capsys):
    df = _csv(["sweep", "--preset", "dell-r7525", "--group", "drive=samsung-pm1733-u2,count=2,name=a",
               "--group", "drive=intel-p3700-800gb,count=2,mirror=a", "--set", "raid.level=raid10", "--drives", "4",
               "--pattern", "randrw", "--read-fraction", "0.7"], capsys)
    assert list(df.columns) == ["drives", "drives.a", "drives.group1", "iops", "bytes_per_s", "binding",
                                "upper_bound"]
    said = f"upper bound: {RAID}; Linux MD RAID-0 was measured at about 27,700 cycles per I/O)"
    # QA s25 H39: group a (PM1733) has no QD1 latency: at QD32, 70 % reads, a catalog NAND latency may bind
    said += "; the a drives' QD1 latency (Little's law at this queue depth may bind) is not known (not applied)"
    assert df["upper_bound"].tolist() == [said]  # as 'ceilings' prints it under its table
    df = _csv(["sweep", "--preset", "dell-r7525", "--group", "drive=samsung-pm1733-u2,count=2",
               "--group", "drive=intel-p3700-800gb,count=2", "--drives", "2,4"], capsys)
    assert [c for c in df.columns if c.startswith("drives.")] == ["drives.group0", "drives.group1"]
    # QA s25 H39: group 0 (PM1733, QD1 latency unknown) at 4K, QD32: a catalog NAND latency may bind
    assert df["upper_bound"].tolist() == [f"upper bound: {GROUP0_QD1}"] * 2


def test_a_group_name_that_would_repeat_or_split_a_column_is_refused(capsys):
    err = _error(["sweep", "--preset", "dell-r7525", "--group", "drive=samsung-pm1733-u2,count=2,name=group1",
                  "--group", "drive=intel-p3700-800gb,count=2", "--drives", "2"], capsys)
    assert "drives.group1" in err
    err = _error(["sweep", "--preset", "dell-r7525", "--group", "drive=samsung-pm1733-u2,count=2,name=my disks",
                  "--group", "drive=intel-p3700-800gb,count=2", "--drives", "2"], capsys)
    assert "'my disks'" in err and "space" in err


# ------------------------------------------------------------------------------------ G18: a catalog CPU's limits
HYPOTHETICAL = ("host.gen=Gen5 is above the CPU's own PCIe generation, Gen4 for amd-epyc-7742: a hypothetical host — "
                "real links train down to Gen4")


def test_a_host_gen_above_the_catalog_cpus_own_is_marked_per_row_as_ceilings_says(capsys):
    df = _csv(["sweep", "--preset", "dell-r7525", "--grid", "host.gen=3,4,5", "--drive", "samsung-pm1743",
               "--pattern", "read", "--bs", "128K", "--drives", "4"], capsys)
    assert df["upper_bound"].tolist() == ["", "", HYPOTHETICAL]
    # one value by --set: every row; with --group too (the host is shared)
    df = _csv(["sweep", "--preset", "dell-r7525", "--set", "host.gen=5", "--drives", "4,8"], capsys)
    assert df["upper_bound"].tolist() == [f"upper bound: {QD1}; {HYPOTHETICAL}"] * 2  # 4K at QD32: H39
    df = _csv(["sweep", "--preset", "dell-r7525", "--grid", "host.gen=4,5", "--drives", "2",
               "--group", "drive=samsung-pm1733-u2,count=2", "--group", "drive=intel-p3700-800gb,count=2"], capsys)
    assert df["upper_bound"].tolist() == [f"upper bound: {GROUP0_QD1}", f"upper bound: {GROUP0_QD1}; {HYPOTHETICAL}"]
    # joined to an upper-bound sentence where there is one
    df = _csv(["sweep", "--preset", "dell-r7525", "--set", "raid.level=raid0", "--grid", "host.gen=4,5",
               "--drives", "8"], capsys)
    assert df["upper_bound"][0].startswith("upper bound: ") and HYPOTHETICAL not in df["upper_bound"][0]
    assert df["upper_bound"][1] == f"{df['upper_bound'][0]}; {HYPOTHETICAL}"
    # a preset naming no catalog CPU (ION) has no generation of its own to be above
    df = _csv(["sweep", "--preset", "ion-sr71mach5-linux", "--grid", "host.gen=4,5", "--drives", "4"], capsys)
    assert not any("hypothetical" in t for t in df["upper_bound"])


def test_a_socket_count_the_catalog_cpu_does_not_allow_is_refused_as_ceilings_does(capsys):
    err = _error(["sweep", "--preset", "dell-r7525", "--host", "amd-threadripper-pro-3995wx",
                  "--grid", "host.sockets=1,2", "--drives", "4"], capsys)
    assert "--grid host.sockets=2" in err and "single-socket part" in err
    err = _error(["sweep", "--preset", "dell-r7525", "--grid", "host.sockets=1,3", "--drives", "4"], capsys)
    assert "host.sockets=3" in err and "1 to 2 for AMD EPYC 7742" in err
    # both counts the EPYC 7742 allows: evaluated
    df = _csv(["sweep", "--preset", "dell-r7525", "--grid", "host.sockets=1,2", "--drives", "4"], capsys)
    assert df["host.sockets"].tolist() == [1, 2]


# ------------------------------------------------------------------ G5 in the sweep: the drive's unknown latency


def test_a_queue_depth_where_the_unknown_qd1_latency_may_bind_is_said_per_row_as_ceilings_says(capsys):
    # the PM1733 has no QD1 latency in the catalog: at QD1 Little's law may bind below its 1.45 M rating, and at QD32
    # too (QA s25 H39: 32 / 115 us, the catalog's slowest NAND latency, = 278 K); 128K reads (61 K IOPS) only at QD1
    df = _csv(["sweep", "--preset", "dell-r7525", "--grid", "workload.iodepth=1,32", "--drives", "4"], capsys)
    assert df["upper_bound"].tolist() == [f"upper bound: {QD1}"] * 2
    df = _csv(["sweep", "--preset", "dell-r7525", "--grid", "workload.iodepth=1,32", "--drives", "4",
               "--pattern", "read", "--bs", "128K"], capsys)
    assert df["upper_bound"].tolist() == [f"upper bound: {QD1}", ""]
    df = _csv(["sweep", "--preset", "dell-r7525", "--iodepth", "1", "--drives", "4"], capsys)
    assert df["upper_bound"].tolist() == [f"upper bound: {QD1}"]
    # the P5800X's latency is known (6 us): no row says it
    df = _csv(["sweep", "--preset", "dell-r7525", "--iodepth", "1", "--drives", "4",
               "--grid", "drive.model=samsung-pm1733-u2,intel-p5800x-800gb"], capsys)
    assert df["upper_bound"].tolist() == [f"upper bound: {QD1}", ""]


def test_a_socket_grid_on_a_catalog_cpu_takes_each_counts_lanes_as_set_does(capsys):
    # one EPYC 7742 socket has all 128 lanes (24 drives at x4 after 32 reserved), not the 2-socket split's 80:
    # each grid row equals 'sweep --set host.sockets=N' (= ceilings --set host.sockets=N)
    argv = ["sweep", "--preset", "dell-r7525", "--pattern", "read", "--bs", "128K", "--drives", "8,24"]
    df = _csv([*argv, "--grid", "host.sockets=1,2"], capsys)
    for n in (1, 2):
        one = _csv([*argv, "--set", f"host.sockets={n}"], capsys)
        rows = df[df["host.sockets"] == n]
        assert rows["bytes_per_s"].tolist() == one["bytes_per_s"].tolist()
        assert rows["binding"].tolist() == one["binding"].tolist()
    assert df["bytes_per_s"].tolist()[1] == 77.824e9  # 1 socket at 24 drives: one socket's DMA


def test_a_one_stack_host_says_rows_by_stack_differ_by_name_only(capsys):
    # QA2 G20: a sweep row labelled spdk on ION Windows is StorPort's cost
    from nvmemodel.cli import main

    assert main(["sweep", "--preset", "ion-sr71mach5-windows", "--grid", "workload.io_stack=windows_storport,spdk",
                 "--drives", "8"]) == 0
    assert "charged this host's 20,500 cycles per I/O whatever the workload.io_stack" in capsys.readouterr().err
