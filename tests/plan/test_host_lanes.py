"""A preset's drive lanes (its bays) survive a change of CPU or socket count (QA findings F11, F20)."""

import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.plan import DesignSpace, Target, plan

RR4K = nm.Workload("randread", "4K")


def test_another_cpu_keeps_the_chassis_bays():
    # dell-r7525: 24 bays at x4 = 96 drive lanes (2 x (80 - 32)); a Xeon 8380 has 64 lanes per socket
    t = nm.with_host(nm.preset("dell-r7525"), "intel-xeon-platinum-8380")
    assert t.max_drives == 24 and t.host.reserved_lanes_per_socket == 64 - 48
    assert "kept from dell-r7525: 96 lanes for drives" in t.host.provenance["reserved_lanes_per_socket"]
    # a host without a reserve: its lanes were the limit, the new host's lanes are all free
    bare = nm.Topology("bare", host=nm.Host("bare", sockets=1, lanes_per_socket=32), drive=nm.get_drive("samsung-pm1733-u2"))
    assert nm.with_host(bare, "amd-epyc-7742").host.reserved_lanes_per_socket == 0


def test_fewer_lanes_than_the_bays_need_limit_the_drives():
    t = nm.with_host(nm.preset("dell-r7525"), "intel-xeon-gold-6148")  # 48 lanes per socket: 2 x 12 drives
    assert t.host.lanes_per_socket == 48 and t.host.reserved_lanes_per_socket == 0 and t.max_drives == 24
    # one socket of it: 48 lanes, fewer than the 96 the bays need
    assert nm.with_sockets(t.host, 1).direct_drive_slots == 12


def test_cli_ceilings_with_host_keeps_24_bays(capsys):
    assert cli.main(["ceilings", "--preset", "dell-r7525", "--host", "intel-xeon-platinum-8380", "--drives", "25"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "<= 24" in err and "host.reserved_lanes_per_socket 16" in err


def test_one_socket_has_all_its_lanes():
    h = nm.with_sockets(nm.preset("dell-r7525").host, 1)
    assert (h.lanes_per_socket, h.reserved_lanes_per_socket, h.direct_drive_slots) == (128, 32, 24)
    assert nm.with_sockets(nm.preset("dell-r7525").host, 2) == nm.preset("dell-r7525").host


@pytest.mark.parametrize("sockets, most", [(1, 24), (2, 24)])
def test_planner_sockets_axis_follows_the_cpu(sockets, most):
    p = plan(Target(RR4K, iops=100e6), DesignSpace("dell-r7525", {"host.sockets": [sockets]}))
    reason = p.rejected["reason"][0]
    lanes = 128 if sockets == 1 else 80
    assert f"{most} = host.sockets {sockets} × ⌊(host.lanes_per_socket {lanes} − host.reserved_lanes_per_socket 32)" \
        in reason


def test_planner_host_axis_keeps_the_bays():
    p = plan(Target(RR4K, iops=100e6), DesignSpace("dell-r7525", {"host": ["intel-xeon-platinum-8380"]}))
    assert "24 = host.sockets 2 × ⌊(host.lanes_per_socket 64 − host.reserved_lanes_per_socket 16)" in \
        p.rejected["reason"][0]
