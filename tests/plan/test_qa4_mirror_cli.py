"""QA round 4, F13: a mirror across groups is planned from the command line with a one-value
``--axis raid.level=raid10`` (its RAID level, fixed), and a missing or several-valued level is one error that names
what the user typed (it named the preset's level, which the user never gave)."""
import json

import pytest

from nvmemodel import cli

GROUPS = ["--group", "drive=samsung-pm1733-u2,count=4,name=a", "--group", "drive=intel-p3700-800gb,count=4,mirror=a"]


def test_a_one_value_raid_level_axis_is_the_mirrors_level(capsys):
    argv = ["plan", "--preset", "ion-sr71mach5-linux", "--write-iops", "300K", *GROUPS, "--axis", "raid.level=raid10"]
    assert cli.main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    best = doc["configurations"][0]
    # each host write reaches both members of its pair: 4 pairs (8 drives) carry 4 x the P3700-800GB's 90 K writes
    assert best["drives"] == 8 and best["4K randwrite|binding"] == "drive"
    assert "raid.level" not in best  # fixed in the topology, not an axis


@pytest.mark.parametrize("extra, typed", [([], "(not given)"), (["--axis", "raid.level=raid1,raid10"], "raid1,raid10"),
                                          (["--axis", "raid.level=raid5"], "raid5")])
def test_a_mirror_without_one_level_is_one_error_naming_what_was_typed(capsys, extra, typed):
    argv = ["plan", "--preset", "ion-sr71mach5-linux", "--write-iops", "300K", *GROUPS, *extra]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("nvmemodel: error: --axis raid.level=")
    assert repr(typed) in err and "--axis raid.level=raid10" in err
