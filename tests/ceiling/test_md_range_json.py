"""md RAID's published per-array range in the ``--json`` range block (issue 29): ``nvmemodel ceilings --json``'s
``cost_range`` and ``nvmemodel plan --json``'s per-answer ``ranges`` carry ``raid.md_iops`` beside the CPU's costs,
evaluated with every ranged figure at its dearest and at its cheapest end.

The figures are the catalog's (nvmemodel/catalog/md_raid.csv, docs/physics.md §12.3.1): md RAID-6 4 KiB random reads
before the 5.14 lockless-read series, four md-bound measurements from 1.071 M to 2.00 M IOPS per array, median
1.4315 M charged (the md_cell doctest). One array of 8 is one array's figure; 16 drives are two arrays."""

from __future__ import annotations

import json

import pytest

import nvmemodel as nm
from nvmemodel import cli, schemas
from nvmemodel.ceiling.md import md_cost_range
from nvmemodel.ceiling.ranges import curve_range, range_lines

jsonschema = pytest.importorskip("jsonschema", reason="schemas are validated with jsonschema (the test extra)")

MD = ["--set", "raid.level=raid6", "--set", "raid.width=8", "--set", "raid.md_kernel=5.10"]


def _json(argv, capsys) -> dict:
    assert cli.main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    schemas.validate(doc)
    return doc


def test_ceilings_json_carries_md_range_per_array(capsys):
    doc = _json(["ceilings", "--drives", "8,16", *MD, "--json"], capsys)
    block = doc["cost_range"]
    (md,) = [c for c in block["costs"] if c["parameter"] == "raid.md_iops"]
    assert (md["point"], md["low"], md["high"]) == (1431500.0, 1071000.0, 2000000.0)
    assert md["unit"] == "I/Os per second per array" and md["dear_is_high"] is False
    assert "finlayson21_s0_before" in md["source"] and "kernel < 5.14" in md["source"]
    # the ceiling at each end: arrays (drives / 8) x the per-array figure, md binding at both
    assert block["dearest"]["iops"] == pytest.approx([1.071e6, 2.142e6], rel=1e-12)
    assert block["cheapest"]["iops"] == pytest.approx([2.0e6, 4.0e6], rel=1e-12)
    assert block["dearest"]["binding"] == ["md_raid", "md_raid"] == block["cheapest"]["binding"]
    assert [p["iops"] for p in doc["points"]] == pytest.approx([1.4315e6, 2.863e6], rel=1e-12)


def test_md_and_cpu_ranged_together_bracket_the_point(capsys):
    # io_uring on a catalog host: its stack's cost is ranged too; both ends move together
    doc = _json(["ceilings", "--host", "amd-epyc-9654:1", "--io-stack", "io_uring", "--drives", "8,16,24", *MD,
                 "--json"], capsys)
    params = {c["parameter"] for c in doc["cost_range"]["costs"]}
    assert params == {"host.cycles_per_io", "raid.md_iops"}
    points = [p["iops"] for p in doc["points"]]
    for low, point, high in zip(doc["cost_range"]["dearest"]["iops"], points, doc["cost_range"]["cheapest"]["iops"],
                                strict=True):
        assert low < point < high


def test_an_md_figure_of_ones_own_or_one_measurement_is_not_ranged():
    wl = nm.Workload("randread", "4K")
    own = nm.evaluate(nm.preset("dell-r7525"), wl, drives=[8], overrides={"raid.level": "raid6", "raid.width": 8,
                                                                           "raid.md_iops": 1.5e6})
    assert md_cost_range(own) == []
    none = nm.evaluate(nm.preset("dell-r7525"), wl, drives=[8])
    assert md_cost_range(none) == []


def test_python_api_and_sentences():
    wl = nm.Workload("randread", "4K")
    c = nm.evaluate(nm.preset("dell-r7525"), wl, drives=[16], overrides={"raid.level": "raid6", "raid.width": 8,
                                                                         "raid.md_kernel": "5.10"})
    assert c.to_dict()["cost_range"]["dearest"]["iops"] == pytest.approx([2.142e6])
    assert curve_range(c, extra=md_cost_range(c)).at(16) == pytest.approx((2.142e6, 4.0e6))
    # the sentences keep md's range apart (md_range_lines): the CPU's range sentence does not take it
    assert curve_range(c) is None or "raid.md_iops" not in {x.parameter for x in curve_range(c).costs}
    assert not any("md RAID" in line for line in range_lines(c, 16))


def test_plan_json_each_answer_carries_its_ranges(capsys):
    doc = _json(["plan", "--iops", "3M", "--axis", "raid.level=raid6", "--axis", "raid.width=8", "--axis",
                 "raid.md_kernel=5.10", "--max-drives", "24", "--json"], capsys)
    best = doc["configurations"][0]
    assert best["drives"] == 24
    (r,) = best["ranges"]
    assert r["target"] == "4K randread" and r["iops_needed"] == 3e6
    assert [c["parameter"] for c in r["costs"]] == ["raid.md_iops"]
    # 3 arrays x 1.071 M = 3.213 M (+7.1 % over 3 M) and 3 x 2.0 M = 6.0 M (+100 %): the explain text's 3.21–6.00 M
    assert r["dearest"]["iops"] == pytest.approx(3.213e6) and r["dearest"]["headroom"] == pytest.approx(0.071)
    assert r["cheapest"]["iops"] == pytest.approx(6.0e6) and r["cheapest"]["headroom"] == pytest.approx(1.0)


def test_groups_carry_md_range_as_one_drive_model_does(capsys):
    # two groups of 8 PM1733 (sequential order: the first 8 drives are group a's): at 8 and 16 drives the arrays are
    # the same as one model's 8 and 16 PM1733, so the range block must match the single-model one figure for figure
    groups = ["--group", "drive=samsung-pm1733-u2,count=8,name=a", "--group", "drive=samsung-pm1733-u2,count=8,name=b"]
    doc = _json(["ceilings", "--drives", "8,16", *MD, *groups, "--json"], capsys)
    single = _json(["ceilings", "--drives", "8,16", *MD, "--set", "drive.model=samsung-pm1733-u2", "--json"], capsys)
    assert doc["schema"] == "nvmemodel.mixed/1"
    (md,) = [c for c in doc["cost_range"]["costs"] if c["parameter"] == "raid.md_iops"]
    assert (md["point"], md["low"], md["high"]) == (1431500.0, 1071000.0, 2000000.0)  # was absent for groups
    assert doc["cost_range"]["dearest"]["iops"] == pytest.approx([1.071e6, 2.142e6], rel=1e-12)
    assert doc["cost_range"]["cheapest"]["iops"] == pytest.approx([2.0e6, 4.0e6], rel=1e-12)
    for end in ("dearest", "cheapest"):
        assert doc["cost_range"][end] == single["cost_range"][end]


def test_groups_of_other_drives_range_md_per_group_composition():
    # RAID-5 (kernel >= 5.14: 4.00-5.89 M per array at 4 KiB random reads) over 8 PM1733 then 8 P3700: at 16 drives the
    # P3700 arrays are bound by their drives at both ends (4 x 460 K = 1.84 M < 4.00 M), the PM1733 arrays by md at
    # the dearest end (4.00 M) and by their drives at the cheapest (4 x 1.45 M = 5.80 M < 5.89 M)
    host = nm.get_host("amd-epyc-9654")
    m = nm.MixedTopology("two", host, (nm.DriveGroup("samsung-pm1733-u2", 8), nm.DriveGroup("intel-p3700-800gb", 8)))
    c = nm.evaluate(m, nm.Workload("randread", "4K"), drives=[4, 16], overrides={"raid.level": "raid5"})
    (md,) = md_cost_range(c)
    assert (md.point, md.low, md.high) == (5332000.0, 4000000.0, 5892000.0)
    r = curve_range(c, extra=[md])
    assert r.at(4) == pytest.approx((4.0e6, 5.8e6), rel=1e-12)
    assert r.at(16) == pytest.approx((2 * 4.0e6 + 2 * 1.84e6, 2 * 5.8e6 + 2 * 1.84e6), rel=1e-12)
    # a mirror spanning the groups is not ranged (md's read balancing), as curve_range says of every cost
    pairs = nm.MixedTopology("pairs", host, (nm.DriveGroup("samsung-pm1733-u2", 4),
                                             nm.DriveGroup("intel-p3700-800gb", 4)),
                             mirror=True, order="interleaved", extras={"raid.level": "raid10"})
    assert md_cost_range(nm.evaluate(pairs, nm.Workload("randread", "4K"), drives=[8])) == []
    # a group with a workload of its own (another size: another md figure) is not ranged with one figure
    big = nm.Workload("randread", "128K")
    own = nm.MixedTopology("own", host, (nm.DriveGroup("samsung-pm1733-u2", 8),
                                         nm.DriveGroup("intel-p3700-800gb", 8, workload=big)))
    assert md_cost_range(nm.evaluate(own, nm.Workload("randread", "4K"), drives=[16],
                                     overrides={"raid.level": "raid5"})) == []
