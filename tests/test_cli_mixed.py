"""``nvmemodel ceilings --group``: mixed drive and switch models from the command line (docs/physics.md §12.7)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel import cli

GEN4 = "drive=samsung-pm1733-u2,count=8,name=gen4"
GEN3 = "drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,switches=2,name=gen3"
ARGS = ["ceilings", "--preset", "dell-r7525", "--pattern", "read", "--bs", "128K", "--group", GEN4, "--group", GEN3]


def test_table_names_component_and_group(capsys):
    assert cli.main([*ARGS, "--drives", "1,9,24", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "gen4: 8 x Samsung PM1733 (U.2)" in out and "2 x Broadcom PEX9797" in out
    rows = [re.match(r"^\s*(\d+)\s+[\d,]+\s+[\d.]+\s+[\d.]+\s", line) for line in out.splitlines()]
    lines = {int(m.group(1)): m.string for m in rows if m}
    assert sorted(lines) == [1, 9, 24]
    assert lines[1].endswith("gen4: drive") and lines[24].endswith("gen4: drive; gen3: switch_uplink")
    assert "Where: in gen4; the groups are held by different limits" in out


def test_json_is_the_python_result(capsys):
    assert cli.main([*ARGS, "--json", "--order", "interleaved"]) == 0
    doc = json.loads(capsys.readouterr().out)
    dell = nm.preset("dell-r7525")
    topo = nm.MixedTopology("x", dell.host, (
        nm.DriveGroup("samsung-pm1733-u2", 8, name="gen4"),
        nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797", switch_count=2, name="gen3")),
        extras=dict(dell.extras), order="interleaved")
    curve = nm.evaluate_mixed(topo, nm.Workload("read", "128K"))
    assert doc["schema"] == "nvmemodel.mixed/1" and doc["order"] == "interleaved"
    np.testing.assert_allclose([p["iops"] for p in doc["points"]], curve.iops, rtol=1e-12)
    assert [p["binding_group"] for p in doc["points"]] == list(curve.binding_group)


@pytest.mark.parametrize(("extra", "match"), [
    (["--group", "drive=samsung-pm1733-u2"], "the keys count as well"),
    (["--group", "drive=samsung-pm1733-u2,count=x"], "--group count='x'"),
    (["--group", "drive=samsung-pm1733-u2,count=2,colour=red"], "keys drive, count, lanes"),
    (["--group", "drive=nope,count=2"], "unknown drive 'nope'"),
    (["--group", "drive=samsung-pm1733-u2,count=30"], "host lanes=120"),
    (["--group", "drive=samsung-pm1733-u2,count=2", "--drive", "samsung-pm1743"], "no --drive with --group"),
    (["--group", "drive=samsung-pm1733-u2,count=2", "--set", "drive.lanes=2"], "set a group's drive"),
    (["--group", "drive=samsung-pm1733-u2,count=2", "--drives", "3"], "drives=3"),
])
def test_bad_group_is_one_line_exit_2(capsys, extra, match):
    assert cli.main(["ceilings", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error:") and match in err and "Traceback" not in err


def test_one_group_prints_the_uniform_table_with_its_drives(capsys):
    """The --group table is the uniform one (cli/_common.print_curve) with a column of each group's drives: the
    preset's own 24 PM1733 as one group give the uniform rows' numbers, the per-group count equals the drives, the
    binding names the group ('group 0: drive', 'host: host_cpu'), and the upper-bound sentence is the same."""
    def table(args):
        assert cli.main(["ceilings", "--preset", "dell-r7525", "--drives", "1,12,24", *args]) == 0
        lines = capsys.readouterr().out.splitlines()
        head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("drives"))
        return lines[head], [line.split() for line in lines[head + 1:head + 4]], lines[head + 4:head + 6]

    head, rows, after = table([])
    ghead, grows, gafter = table(["--group", "drive=samsung-pm1733-u2,count=24"])
    assert head.split() == ["drives", "IOPS", "GB/s", "GiB/s", "binding"]
    assert ghead.split() == ["drives", "IOPS", "GB/s", "GiB/s", "per", "group", "binding"]
    assert ghead.index("binding") - head.index("binding") == len("per group  ")
    for row, grow in zip(rows, grows, strict=True):
        assert grow[:4] == row[:4] and grow[4] == row[0]  # drives, IOPS, GB/s, GiB/s; the group holds them all
        assert " ".join(grow[5:]) == ("host: " if row[-1] == "host_cpu" else "group 0: ") + row[-1]
    assert [r[-1] for r in rows] == ["drive", "drive", "host_cpu"]
    assert gafter == ["  (per group: drives of group 0)", "  " + after[0]] and "QD1 latency" in after[0]
