"""QA round 5, G2: groups with their own workloads are charged on a root complex per direction (docs/physics.md §12.1:
reads move f·S towards memory, writes (1 − f)·S from it, each direction within C).

A read group and a write group on one complex (C = 20 GB/s per direction) were composed by adding their load
fractions whatever their direction: 20.00 GB/s, half of what the same 8 drives give as one group running rw 50 %
(40.00 GB/s). Reads and writes of 128 KiB each split the bytes 50/50, so the two must agree."""

import pytest

import nvmemodel as nm

OV = {"tree.complex_bytes_per_s": 20e9, "tree.complexes_per_socket": 1}
READ, WRITE = nm.Workload("read", "128K"), nm.Workload("write", "128K")
RW50 = nm.Workload("rw", "128K", read_fraction=0.5)


def _groups(wa, wb, shared=READ, drives=(8,), order="sequential"):
    dell = nm.preset("dell-r7525")
    t = nm.MixedTopology("x", dell.host, (
        nm.DriveGroup("samsung-pm1743", 4, name="a", socket=0, workload=wa),
        nm.DriveGroup("samsung-pm1743", 4, name="b", socket=0, workload=wb)), extras=dict(dell.extras), order=order)
    return nm.evaluate(t, shared, drives=list(drives), overrides=OV)


def _one_group(wl):
    dell = nm.preset("dell-r7525")
    t = nm.MixedTopology("u", dell.host, (nm.DriveGroup("samsung-pm1743", 8, name="a", socket=0),),
                         extras=dict(dell.extras))
    return nm.evaluate(t, wl, drives=[8], overrides=OV)


def test_a_read_group_and_a_write_group_equal_one_group_at_half_reads():
    two, one = _groups(READ, WRITE), _one_group(RW50)
    assert one.bandwidth_at(8) == pytest.approx(40e9, rel=1e-9)  # each direction full: 2 x 20 GB/s
    assert two.bandwidth_at(8) == pytest.approx(one.bandwidth_at(8), rel=1e-9)
    assert two.iops_at(8) == pytest.approx(one.iops_at(8), rel=1e-9)
    assert two.describe_binding_at(8) == one.describe_binding_at(8) == "host: root_complex"
    # the complex alone: both directions of one 20 GB/s complex
    assert two.ceilings["root_complex"][0] * 131072 == pytest.approx(40e9, rel=1e-9)
    # each group gets its direction: 20 GB/s of reads, 20 GB/s of writes
    assert two.group_iops[:, 0] * 131072 == pytest.approx([20e9, 20e9], rel=1e-9)


def test_the_order_of_the_groups_does_not_matter():
    assert _groups(WRITE, READ).bandwidth_at(8) == pytest.approx(40e9, rel=1e-9)


def test_groups_in_one_direction_still_share_it():
    """Two read groups (or two write groups) on one complex: one direction, 20 GB/s, as before."""
    assert _groups(READ, READ).bandwidth_at(8) == pytest.approx(20e9, rel=1e-9)
    assert _groups(WRITE, WRITE).bandwidth_at(8) == pytest.approx(20e9, rel=1e-9)
    assert _groups(RW50, RW50).bandwidth_at(8) == pytest.approx(40e9, rel=1e-9)  # = one group at 50 %
    assert _groups(None, RW50, shared=RW50).bandwidth_at(8) == pytest.approx(40e9, rel=1e-9)


def test_a_read_group_beside_a_mixed_group():
    """4 reads beside 4 drives at 50 % reads: the read direction carries a's reads and half of b's bytes; the
    write direction only b's other half, so the read direction binds both groups (b uses it too) in proportion:
    u = (L_a + L_b / 2) / 20 GB/s, each group ×1/u."""
    c = _groups(READ, RW50)
    la, lb = (float(c.group_ceilings[j][c.group_binding[j, 0]][0]) * 131072 for j in range(2))
    u = (la + lb / 2) / 20e9
    assert u > 1
    assert c.bandwidth_at(8) == pytest.approx((la + lb) / u, rel=1e-9)
    reads = c.group_iops[0, 0] * 131072 + c.group_iops[1, 0] * 131072 / 2
    assert reads == pytest.approx(20e9, rel=1e-9)  # the read direction exactly full
