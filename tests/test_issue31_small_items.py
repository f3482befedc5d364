"""Issue 31's smaller items, each as a newcomer met it: a misspelt --x, a block size in bits, a plan target in the
wrong unit, a switch's uplink said twice, a dominated planner answer, and the host CPU sentence the Python
explanation lacked."""

from __future__ import annotations

import pathlib

import pytest

import nvmemodel as nm
from nvmemodel.cli import main

QD = str(pathlib.Path(__file__).parent / "data" / "fit" / "local" / "qd")  # real fio 3.33 QD sweep (SOURCES.md)


def test_a_misspelt_x_gets_a_did_you_mean(capsys):
    assert main(["fit", QD, "--x", "iodeph"]) == 2
    err = capsys.readouterr().err
    assert "expected a column of the table — did you mean iodepth" in err and err.count("\n") == 1


@pytest.mark.parametrize("bs, words", [
    ("4kb", "a lower-case 'b' means bits (4kb = 4 kilobits); did you mean 4KB or 4K (bytes)?"),
    ("4Kib", "(4Kib = 4 kibibits); did you mean 4KiB or 4K (bytes)?"),
    ("128Mb", "(128Mb = 128 megabits); did you mean 128MB or 128M (bytes)?"),
])
def test_a_block_size_in_bits_says_why(capsys, bs, words):
    assert main(["ceilings", "--bs", bs]) == 2
    assert words in capsys.readouterr().err


def test_an_implausible_plan_target_gets_a_note(capsys):
    assert main(["plan", "--read-bw", "4KB/s"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Note: --read-bw 4KB/s is 4,000 bytes/s: implausibly small for NVMe storage")
    assert main(["plan", "--read-bw", "60GB/s"]) == 0
    assert "Note:" not in capsys.readouterr().out  # a plausible target: no note
    assert main(["plan", "--iops", "10M", "--latency", "1ns"]) == 0
    assert "--latency 1ns is 1e-09 s: implausibly small" in capsys.readouterr().out


def test_a_switch_set_to_other_links_names_its_uplink_once(capsys):
    assert main(["ceilings", "--preset", "lenovo-sr850-810-4p", "--set", "switch.up_lanes=16"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.count("Gen3 x16") == 1 and "at Gen3 x16 (calibration dropped" in header and "(4 ports)" in header
    assert main(["ceilings", "--preset", "lenovo-sr850-810-4p"]) == 0
    assert "(Gen3 x8 uplink, 4 ports)" in capsys.readouterr().out.splitlines()[0]  # the catalog part: as before


def test_a_dominated_planner_answer_is_marked():
    from nvmemodel.plan import STANDARD_WORKLOADS as W
    from nvmemodel.plan import DesignSpace, Target, plan

    # prices are the test's own (a user's): the P3700 answer needs 11 drives for 4,400 where the PM1733 needs 4 for
    # 3,600 with more headroom (catalog: 450 K and 1.45 M 4K random-read IOPS)
    space = DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1733-u2", "samsung-pm1743", "intel-p3700-800gb"]})
    r = plan([Target(W["4k-randread"], iops=5e6)], space, rank="drives",
             prices={"drive": {"samsung-pm1733-u2": 900, "samsung-pm1743": 1500, "intel-p3700-800gb": 400}})
    lines = [ln for ln in r.explain(top=3).splitlines() if ln.startswith("  drive.model=")]
    assert [ln.split(":")[0].strip() for ln in lines] == ["drive.model=samsung-pm1743", "drive.model=samsung-pm1733-u2",
                                                         "drive.model=intel-p3700-800gb"]
    assert "dominated" not in lines[0] + lines[1]  # 3 drives at 4,500 and 4 drives at 3,600: neither beats the other
    assert lines[2].endswith("[dominated by answer 2 above: more drives, more lanes, a higher cost, less headroom, "
                             "and better on nothing]")


def test_fit_explanation_says_the_host_cpu_is_charged_one_cost():
    # ION's Windows preset charges StorPort's 20,500 cycles per I/O whatever the stack ('nvmemodel ceilings' said so,
    # the Python explanation did not)
    text = nm.fit(QD, x="iodepth", topology=nm.preset("ion-sr71mach5-windows")).explain()
    assert "The host CPU is charged this host's 20,500 cycles per I/O whatever the stack" in text
    # a host whose cost is scaled to the stack named (the R7525 preset: libaio's) has no such sentence
    assert "whatever the stack" not in nm.fit(QD, x="iodepth", topology=nm.preset("dell-r7525")).explain()
