"""A user-space storage daemon as a server-side cost per I/O: a Ceph OSD serving RBD (issue 29 item 4;
docs/physics.md §12.4.1). The figures are recomputed from the sentence they come from: M. Nelson, "Ceph OSD CPU
Scaling - Part 1" (ceph.io, 2022-11-08), 60 OSDs on 10 x EPYC 7742 (2.25 GHz base, 3.4 GHz boost), Pacific, 3x
replication: "around 7500 IOPS per core used" for 4K random reads, "around 3500 IOPS per core used" for writes
per OSD. Tolerance: exact arithmetic (1e-9)."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.ceiling.ranges import cost_ranges
from nvmemodel.ceiling.sharing import PROTOCOL_RANGES, PROTOCOLS, WRITE_CYCLES

LOCAL = 8200.0  # libaio's default: the server's local path, charged by the CPU ceiling itself
READ, WRITE = 2.25e9 / 7500, 3 * 2.25e9 / 3500   # per client read; per client write (3 OSD writes)


def test_the_osd_cost_is_the_measured_iops_per_core_at_the_base_clock():
    assert PROTOCOLS["ceph_rbd"][0] + LOCAL == pytest.approx(READ, rel=1e-9)       # 300,000 cycles per read
    assert WRITE_CYCLES["ceph_rbd"] + LOCAL == pytest.approx(WRITE, rel=1e-9)      # 1,928,571 per client write
    (r_lo, r_hi), (w_lo, w_hi), _ = PROTOCOL_RANGES["ceph_rbd"]
    assert (r_lo + LOCAL, r_hi + LOCAL) == pytest.approx((READ, 3.4e9 / 7500), rel=1e-9)   # base .. boost
    assert (w_lo + LOCAL, w_hi + LOCAL) == pytest.approx((WRITE, 3 * 3.4e9 / 3500), rel=1e-9)


def _node(pattern, read_fraction=None):
    host = nm.Host(name="1 x EPYC 7742 (by hand)", sockets=1, cores_per_socket=64, clock_hz=2.25e9, gen=4,
                   lanes_per_socket=128)
    topo = nm.Topology(name="ceph node", host=host, drive=nm.get_drive("samsung-pm983-3.84tb"))
    wl = nm.Workload(pattern, "4K", read_fraction=read_fraction)
    return nm.evaluate(topo, wl, drives=[6], overrides={"share.protocol": "ceph_rbd"})


@pytest.mark.parametrize("pattern, rf, cycles", [("randread", None, READ), ("randwrite", None, WRITE),
                                                  ("randrw", 0.7, 0.7 * READ + 0.3 * WRITE)])
def test_a_ceph_node_is_bound_by_its_osd_cpu(pattern, rf, cycles):
    curve = _node(pattern, rf)
    assert curve.binding_at(6) == "share_server_cpu"
    assert curve.iops_at(6) == pytest.approx(64 * 2.25e9 / cycles, rel=1e-9)   # 480 K reads, 74.7 K writes
    assert "share.cycles_per_io" in curve.explain(6) and "a Ceph OSD (Pacific 16.2.9" in curve.explain(6)  # cited


def test_the_osd_cost_is_ranged_over_the_clock_the_source_leaves_open():
    curve = _node("randread")
    ranged = {c.parameter: c for c in cost_ranges(curve.parameters, curve.sources)}
    c = ranged["share.cycles_per_io"]
    assert (c.low + LOCAL, c.high + LOCAL) == pytest.approx((READ, 3.4e9 / 7500), rel=1e-9)
    assert "ceph_rbd 291.8–445.1 K cycles per I/O" in curve.explain(6)


def test_a_cost_set_by_the_user_replaces_the_daemons_and_is_not_ranged():
    host = nm.Host(name="h", sockets=1, cores_per_socket=64, clock_hz=2.25e9, gen=4, lanes_per_socket=128)
    topo = nm.Topology(name="ceph node", host=host, drive=nm.get_drive("samsung-pm983-3.84tb"))
    curve = nm.evaluate(topo, nm.Workload("randread", "4K"), drives=[6],
                        overrides={"share.protocol": "ceph_rbd", "share.cycles_per_io": 100000.0})
    assert curve.iops_at(6) == pytest.approx(64 * 2.25e9 / (100000.0 + LOCAL), rel=1e-9)
    assert not any(c.parameter == "share.cycles_per_io" for c in cost_ranges(curve.parameters, curve.sources))
