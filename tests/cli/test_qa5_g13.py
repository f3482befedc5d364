"""QA round 5, G13 (/work/coord/findings2.md): ``--group`` errors speak the options' words — the key the user typed
(share=, count=, lanes=, --set raid.level, --drives), the value they typed (count=40, not the 44 on the switches),
no Python (DriveGroup, switch_with, mirror=True, extras, None, reprs) — one ``nvmemodel: error:`` line, exit 2;
and ``ceilings --help`` lists the mirror and write_mostly keys docs/topologies.md documents."""

import re

import pytest

from nvmemodel import cli

A = "drive=samsung-pm1733-u2,count=4,name=a"
B = "drive=intel-p3700-800gb,count=4,name=b"
PYTHON = ("DriveGroup", "switch_with", "mirror=True", "extras", "None", "array(", "group.", "[")


def _error(argv, capsys) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert not any(w in err for w in PYTHON), err
    return err


def test_share_names_the_share_key_and_the_groups_that_have_switches(capsys):
    err = _error(["ceilings", "--group", A, "--group", "drive=intel-p3700-800gb,count=4,share=a"], capsys)
    assert "--group share='a' is not allowed" in err and "no earlier --group has a switch=" in err, err
    err = _error(["ceilings", "--group", A + ",switch=broadcom-pex9797", "--group", B,
                  "--group", "drive=intel-p3700-800gb,count=2,share=b"], capsys)
    assert "--group share='b'" in err and "(name=a)" in err, err


def test_a_sharer_too_many_names_the_count_typed_and_the_room_left(capsys):
    err = _error(["ceilings", "--group", A + ",switch=broadcom-pex9797",
                  "--group", "drive=intel-p3700-800gb,count=40,share=a"], capsys)
    assert "--group count=40 is not allowed" in err and "44" not in err, err
    assert re.search(r"at most 4 drives sharing a's switches \(1 x .*, 8 ports; 4 already on them\)", err), err


def test_a_group_key_error_names_the_key_not_the_field(capsys):
    err = _error(["ceilings", "--group", A + ",switch=broadcom-pex9797,lanes=4"], capsys)
    assert "--group lanes=4 is not allowed: expected no lanes= for a group behind a switch" in err, err
    err = _error(["ceilings", "--group", A + ",switches=2"], capsys)
    assert "--group switches=2 is not allowed" in err, err


@pytest.mark.parametrize("argv, words", [
    (["--set", "raid.level=raid5"], "--set raid.level='raid5' is not allowed: expected raid1 or raid10 for a mirror"),
    (["--set", "raid.level=raid10", "--drives", "1,3"], "--drives='1,3' is not allowed: expected even drive counts"),
])
def test_a_mirror_error_names_the_option(argv, words, capsys):
    err = _error(["ceilings", "--group", A + ",mirror=b", "--group", B + ",mirror=a", *argv], capsys)
    assert words in err, err


def test_unequal_mirror_groups_and_a_lone_write_mostly(capsys):
    err = _error(["ceilings", "--group", A + ",mirror=b", "--group", B.replace("count=4", "count=6") + ",mirror=a",
                  "--set", "raid.level=raid10"], capsys)
    assert "--group count='4 and 6' is not allowed: expected the same count= in both mirrored groups" in err, err
    err = _error(["ceilings", "--group", A + ",write_mostly=yes"], capsys)
    assert "--group write_mostly='yes' is not allowed: expected a mirror" in err, err


def test_ceilings_help_lists_the_mirror_keys(capsys):
    with pytest.raises(SystemExit):
        cli.main(["ceilings", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    group = text.split("--group KEY=VALUE,... a group of identical drives")[1].split("--order")[0]
    assert "mirror (the other of two groups' name" in group and "write_mostly (yes:" in group, group


def test_sweep_names_a_mirrors_raid_level_without_python_words(capsys):
    # sweep builds the groups through the same path; the level's sentence itself has no extras / mirror=True
    err = _error(["sweep", "--preset", "dell-r7525", "--group", A + ",mirror=b", "--group", B + ",mirror=a",
                  "--set", "raid.level=raid5", "--drives", "2"], capsys)
    assert "raid.level='raid5' is not allowed: expected raid1 or raid10 for a mirror spanning groups" in err, err
