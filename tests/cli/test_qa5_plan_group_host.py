"""QA round 5, G19 (/work/coord/findings2.md): ``nvmemodel plan --group …`` with several hosts or socket counts
is refused in the CLI's words (the options typed, what to run instead), not the library's (``axes='host'``,
``DriveGroup``, ``(grid)``, "sweep"); one host (``--host NAME[:SOCKETS]``) is planned under the groups as
``ceilings --host NAME --group …`` evaluates them."""

import json

import pytest

from nvmemodel import cli

GROUPS = ["--preset", "dell-r7525", "--group", "drive=samsung-pm1733-u2,count=8,name=g4",
          "--group", "drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,switches=2,name=g3"]
LIBRARY_WORDS = ("axes=", "DriveGroup", "(grid)", "sweep", "vectorized")


def _error(argv, capsys) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert not any(w in err for w in LIBRARY_WORDS), err
    return err


def test_several_hosts_with_groups_are_refused_saying_run_one_plan_per_host(capsys):
    err = _error(["plan", "--read-bw", "60GB/s", *GROUPS, "--host", "amd-epyc-7742:1,intel-xeon-platinum-8380:1"],
                 capsys)
    assert "--host='amd-epyc-7742:1,intel-xeon-platinum-8380:1'" in err
    assert "one host" in err and "--host NAME" in err


@pytest.mark.parametrize("option", [["--sockets", "1,2"], ["--axis", "host.sockets=1,2"]])
def test_several_socket_counts_with_groups_are_refused_naming_the_option(capsys, option):
    err = _error(["plan", "--read-bw", "60GB/s", *GROUPS, *option], capsys)
    assert f"{option[0]}=" in err and "one socket count" in err


def test_a_group_owned_axis_is_refused_naming_the_group_key(capsys):
    err = _error(["plan", "--read-bw", "60GB/s", *GROUPS, "--drive", "samsung-pm1743"], capsys)
    assert "--drive='samsung-pm1743'" in err and "drive=" in err


def test_one_host_with_groups_is_planned_on_that_cpu(capsys):
    def plan(extra):
        assert cli.main(["plan", "--iops", "12M", *GROUPS, *extra, "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    # the groups' host is the CPU given, as 'ceilings --host NAME --group …' evaluates it: at 4K random reads one
    # EPYC 7742 socket's CPU holds 14.4 M IOPS, one Xeon 8380 socket's 11.2 M (64 x 2.25 GHz and 40 x 2.3 GHz at
    # the preset's 10,000 cycles per I/O; ceilings at 24 drives) — 12 M is met on the first, not the second
    assert plan(["--host", "amd-epyc-7742:1"])["feasible"] == 1
    assert plan(["--host", "intel-xeon-platinum-8380:1"])["feasible"] == 0
    # and the answer names it
    assert cli.main(["plan", "--iops", "12M", *GROUPS, "--host", "amd-epyc-7742:1"]) == 0
    assert "dell-r7525 with amd-epyc-7742:1 (mixed)" in capsys.readouterr().out
