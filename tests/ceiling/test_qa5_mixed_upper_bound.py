"""QA round 5, G7: a mixed curve says "upper bound" where a group's drive lacks a rating its workload needs.

The Raspberry Pi SSD's catalog entry has no sequential-write rating, so its 128K-write ceiling is its 4K IOPS stretched
to 128 KiB (an upper bound); the Samsung PM981 has no 4K random-read IOPS. ``nvmemodel sweep`` names "the pi drives'"
per group; the mixed curve (table, explanation, JSON) must say the same, per group and with each group's workload.
"""

import json

import pytest

import nvmemodel as nm
from nvmemodel.cli import main

ARGS = ["ceilings", "--preset", "dell-r7525", "--pattern", "write", "--bs", "128K", "--drives", "2,8", "--order",
        "interleaved", "--group", "drive=samsung-pm981-1tb,count=4,name=cli",
        "--group", "drive=raspberry-pi-ssd-512gb,count=4,name=pi"]

QD1 = "QD1 latency (Little's law at this queue depth may bind)"  # QA s25 H39


def _mixed(wa=None, wb=None):
    dell = nm.preset("dell-r7525")
    return nm.MixedTopology("x", dell.host, (
        nm.DriveGroup("samsung-pm981-1tb", 4, name="cli", workload=wa),
        nm.DriveGroup("raspberry-pi-ssd-512gb", 4, name="pi", workload=wb)), order="interleaved")


def test_curve_names_the_group_whose_write_rating_is_unknown():
    c = nm.evaluate(_mixed(), nm.Workload("write", "128K"), drives=[2, 8])
    assert c.upper_bound_note == "upper bound: the pi drives' sequential write bandwidth is not known (not applied)"
    text = c.explain(8)
    assert "Upper bound: the pi drives' sequential write bandwidth is not known" in text
    pi = next(line for line in text.splitlines() if line.startswith("  pi: "))
    assert "drive +225.0% (at most: its sequential write bandwidth not known)" in pi
    cli = next(line for line in text.splitlines() if line.startswith("  cli: "))
    assert "at most" not in cli  # the PM981 has its write ratings
    assert "An upper bound: the pi drives'" in c.explain()


def test_reads_name_the_other_group():
    """4K random reads: the PM981's read IOPS is unknown, the pi's known; the note follows the workload."""
    c = nm.evaluate(_mixed(), nm.Workload("randread", "4K"), drives=[8])
    # and its QD1 latency (QA s25 H39: 32 / 115 us = 278 K < the PM981's 3.2 GB/s / 4 KiB); the pi's 50 K is below 278 K
    assert c.upper_bound_note == f"upper bound: the cli drives' 4K random-read IOPS and {QD1} are not known (not applied)"
    assert f"own limit drive 2.93 M IOPS (at most: its 4K random-read IOPS and {QD1} not known)" in c.explain(8)


def test_each_group_judged_with_its_own_workload():
    """The shared workload reads 128K: the PM981 has its sequential read rating, the pi has none; a pi group running
    its own 4K random reads (rated: 50 K IOPS) is not named."""
    shared = nm.Workload("read", "128K")
    c = nm.evaluate(_mixed(), shared, drives=[8])
    assert c.upper_bound_note == "upper bound: the pi drives' sequential read bandwidth is not known (not applied)"
    c = nm.evaluate(_mixed(wb=nm.Workload("randread", "4K")), shared, drives=[8])
    assert c.upper_bound_note is None
    assert c.to_dict()["upper_bound"] is None
    c = nm.evaluate(_mixed(wa=nm.Workload("randread", "4K"), wb=nm.Workload("randread", "4K")), shared, drives=[8])
    assert c.upper_bound_note == f"upper bound: the cli drives' 4K random-read IOPS and {QD1} are not known (not applied)"


def test_a_group_without_drives_yet_is_not_named_at_that_point():
    t = _mixed().replace(order="sequential")
    c = nm.evaluate(t, nm.Workload("write", "128K"), drives=[4, 8])
    assert "Upper bound" not in c.explain(4)  # only the cli drives are installed
    assert "the pi drives'" in c.explain(8)


def test_cli_table_and_json(capsys):
    assert main(ARGS) == 0
    out = capsys.readouterr().out
    assert "  (upper bound: the pi drives' sequential write bandwidth is not known (not applied))" in out
    assert main([*ARGS, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "nvmemodel.mixed/1"
    assert doc["upper_bound"] == {
        "note": "upper bound: the pi drives' sequential write bandwidth is not known (not applied)",
        "unknown_layers": ["drive"], "drive_groups": ["pi"]}


def test_known_ratings_stay_unmarked():
    dell = nm.preset("dell-r7525")
    t = nm.MixedTopology("k", dell.host, (nm.DriveGroup("samsung-pm1733-u2", 4, name="a"),
                                          nm.DriveGroup("intel-p3700-800gb", 4, name="b")))
    c = nm.evaluate(t, nm.Workload("read", "128K"), drives=[8])
    assert c.upper_bound_note is None
    assert c.to_dict()["upper_bound"] is None


@pytest.mark.parametrize("pattern", ["write", "randread"])
def test_agrees_with_sweep(pattern, capsys):
    """The sweep's per-group sentence and the curve's are the same text."""
    args = [a if a != "write" else pattern for a in ARGS]
    args = [a if a != "128K" else ("4K" if pattern == "randread" else "128K") for a in args]
    assert main([*args, "--json"]) == 0
    note = json.loads(capsys.readouterr().out)["upper_bound"]["note"]
    sweep = ["sweep", *args[1:]]
    sweep[sweep.index("--drives") + 1] = "8"
    assert main(sweep) == 0
    assert note in capsys.readouterr().out
