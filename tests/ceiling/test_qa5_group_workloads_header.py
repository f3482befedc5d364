"""QA round 5, G3: where groups carry their own workloads, the explanation names each group's, not evaluate()'s.

Both groups of Samsung PM1743 write 128K while ``evaluate`` is given 128K reads: the header said "x, 128K read, …: at
most 152.59 K IOPS = 20.00 GB/s" beside group lines whose "own limit drive 26.40 GB/s" is 4 x the drive's 6.6 GB/s
sequential WRITE rating (spec sheet)."""

import pytest

import nvmemodel as nm

READ, WRITE = nm.Workload("read", "128K"), nm.Workload("write", "128K")


def _mixed(wa, wb):
    dell = nm.preset("dell-r7525")
    return nm.MixedTopology("x", dell.host, (
        nm.DriveGroup("samsung-pm1743", 4, name="a", socket=0, workload=wa),
        nm.DriveGroup("samsung-pm1743", 4, name="b", socket=0, workload=wb)), extras=dict(dell.extras))


def test_every_group_writes_and_the_header_says_so():
    c = nm.evaluate(_mixed(WRITE, WRITE), READ, drives=[8])
    w = WRITE.describe()
    words = f"each group's workload (a: {w}; b: {w})"
    assert c.describe_workload() == words
    point = c.explain(8).splitlines()
    assert point[0].startswith(f"x, {words}, 8 drive(s): at most ")
    assert "128K read" not in c.explain(8)
    assert c.explain().splitlines()[0].startswith(f"x, {words} (drives added")
    assert words in repr(c)
    groups = c.to_dict()["groups"]
    assert [g["workload"]["pattern"] for g in groups] == ["write", "write"]
    # the group lines are of writes: 4 x 6.6 GB/s (PM1743 sequential write, spec sheet)
    assert c.group_ceilings[0]["drive"][0] * 128 * 1024 == pytest.approx(4 * 6.6e9, rel=1e-9)


def test_the_shared_workload_is_named_for_groups_without_their_own():
    c = nm.evaluate(_mixed(None, WRITE), READ, drives=[8])
    assert c.describe_workload() == f"each group's workload (a: {READ.describe()}; b: {WRITE.describe()})"
    groups = c.to_dict()["groups"]
    assert groups[0]["workload"] is None and groups[1]["workload"]["pattern"] == "write"


def test_without_own_workloads_the_header_is_unchanged():
    c = nm.evaluate(_mixed(None, None), READ, drives=[8])
    assert c.describe_workload() == READ.describe()
    assert c.explain(8).startswith(f"x, {READ.describe()}, 8 drive(s): at most ")


def test_overrides_reach_the_named_workloads():
    """A shared override (the I/O stack) is applied to each group's own workload, and the header says so."""
    c = nm.evaluate(_mixed(WRITE, None), READ, drives=[8], overrides={"workload.io_stack": "io_uring"})
    text = c.describe_workload()
    assert text.count("io_uring") == 2 and "libaio" not in text
