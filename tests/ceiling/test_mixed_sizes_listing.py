"""Groups with their own block sizes (QA round 4, F16): every component alone is listed in bytes with each group's
I/Os at its own size, its headroom from its own load (bytes: a root complex or socket is full when its groups' load
fractions add to one, docs/physics.md §12.7), and the IOPS total says it adds I/Os of mixed sizes.

The case is docs/topologies.md's "Own workloads" on the Dell R7525 (catalog host EPYC 7742: 4 root complexes of
46.9 GB/s per socket, socket DMA 0.38 x 204.8 GB/s): 4 PM1733 on 4K random writes (260 K IOPS each, Samsung's
launch figures) beside 20 PM1733 on 128K reads (6.4 GB/s each); the drives bind."""

from __future__ import annotations

import pytest

import nvmemodel as nm

KIB = 1024


@pytest.fixture(scope="module")
def curve():
    dell = nm.preset("dell-r7525")
    m = nm.MixedTopology("log+data", dell.host, (
        nm.DriveGroup("samsung-pm1733-u2", 4, name="log", workload=nm.Workload("randwrite", "4K")),
        nm.DriveGroup("samsung-pm1733-u2", 20, name="data")), extras=dict(dell.extras))
    return nm.evaluate(m, nm.Workload("read", "128K"), drives=[24])


def test_delivered_bytes_add_each_groups_size(curve):
    delivered = 4 * 260e3 * 4 * KIB + 20 * 6.4e9  # 132.26 GB/s
    assert curve.bandwidth_at(24) == pytest.approx(delivered, rel=1e-9)
    assert curve.binding_at(24) == "drive"


def test_root_complexes_and_sockets_have_their_own_headroom(curve):
    """8 complexes x 46.9 GB/s per direction carry the 128 GB/s of reads towards memory, the 4.26 GB/s of writes
    the other way (QA round 5, G2: per direction, §12.1): at this mix they carry 8 x 46.9 x 132.26 / 128 =
    387.7 GB/s, +193.1 %; 2 sockets x 77.8 GB/s (memory: both directions) carry 66.1 GB/s each: +17.7 % (it said
    +0.0 % for both, the drives' own candidate)."""
    delivered = 4 * 260e3 * 4 * KIB + 20 * 6.4e9
    rows = {c.component: c for c in curve.ceilings_at(24)}
    rc, dma = rows["root_complex"], rows["socket_dma"]
    assert rc.bytes_per_s == pytest.approx(8 * 46.9e9 * delivered / (20 * 6.4e9), rel=1e-9)
    assert rc.headroom == pytest.approx(8 * 46.9e9 / (20 * 6.4e9) - 1, rel=1e-9)  # +193.1 %
    assert dma.bytes_per_s == pytest.approx(2 * 0.38 * 204.8e9, rel=1e-9)
    assert dma.headroom == pytest.approx(2 * 0.38 * 204.8e9 / delivered - 1, rel=1e-9)  # +17.7 %
    assert not rc.binding and not dma.binding
    text = curve.explain(24)
    assert "root_complex +193.1%" in text and "socket_dma +17.7%" in text and "+0.0%" not in text


def test_the_link_listing_converts_each_group_at_its_size(curve):
    """The link alone: each group's drives at their link's limit for their own I/O, in bytes at their own size —
    above what is delivered (it said 32.7 GB/s, every I/O at 4 KiB, while 132 GB/s was delivered)."""
    delivered = 4 * 260e3 * 4 * KIB + 20 * 6.4e9
    log, data = (c["pcie_link"][0] for c in curve.group_ceilings)
    link = {c.component: c for c in curve.ceilings_at(24)}["pcie_link"]
    expected = log * 4 * KIB + data * 128 * KIB
    assert link.bytes_per_s == pytest.approx(expected, rel=1e-12)
    assert link.bytes_per_s > delivered
    assert link.headroom == pytest.approx(expected / delivered - 1, rel=1e-12)
    # within the data group (128K reads only) the link is 12.1 % above the drives: 6.4 GB/s x 1.121
    assert data * 128 * KIB / 20 == pytest.approx(6.4e9 * 1.121, rel=2e-3)


def test_iops_of_mixed_sizes_are_said_to_be(curve):
    assert "IOPS of mixed sizes" in repr(curve)
    first = curve.explain(24).splitlines()[0]
    assert "IOPS of mixed sizes = 132.26 GB/s" in first
    along = nm.evaluate(curve.topology, curve.workload, drives=[2, 24]).explain()
    assert "520.00 K IOPS" in along  # 2 drives: log alone, 2 x 260 K 4K writes
    assert "132.26 GB/s (2.02 M IOPS of mixed sizes)" in along
    groups = curve.explain(24).split("Groups (")[1]
    assert "data: 20 drive(s), 128.00 GB/s" in groups  # each group in its own unit (128K: bytes/s)


def test_one_size_keeps_its_listing():
    """Groups on one workload: the listing is the IOPS ratio as before (bytes = IOPS x the one block size)."""
    dell = nm.preset("dell-r7525")
    m = nm.MixedTopology("two", dell.host, (nm.DriveGroup("samsung-pm1733-u2", 4, name="a"),
                                             nm.DriveGroup("intel-p3700-800gb", 4, name="b")), extras=dict(dell.extras))
    c = nm.evaluate(m, nm.Workload("read", "128K"), drives=[8])
    for row in c.ceilings_at(8):
        if row.iops != float("inf"):
            assert row.bytes_per_s == pytest.approx(row.iops * 128 * KIB, rel=1e-12)
    assert "mixed sizes" not in repr(c) and "mixed sizes" not in c.explain(8)
