"""QA5 G10: the planner's "N drives is the most it can attach … (reserved lanes: …)" quotes the reserved-lanes source
of that row's host — re-derived by ``with_host`` for a catalog CPU (the R7525's 96 drive lanes over two 64-lane
Xeon 8380 sockets leave 16 each; over one socket, none) — not the base preset's sentence for its 80-lane sockets."""
import nvmemodel as nm
from nvmemodel.plan import STANDARD_WORKLOADS as W
from nvmemodel.topology.host import host_from_text, with_host

X2, X1 = "intel-xeon-platinum-8380:2", "intel-xeon-platinum-8380:1"


def _source(host):
    topo = with_host(nm.preset("dell-r7525"), host_from_text(host))
    return topo.host.reserved_lanes_per_socket, topo.host.sources("libaio")["host.reserved_lanes_per_socket"]


def test_reserved_lanes_quote_the_rows_host():
    space = nm.DesignSpace("dell-r7525", {"host": [X2, X1]}, max_drives=24)
    p = nm.plan(nm.Target(W["4k-randread"], iops=200e6), space)
    rej = p.rejected.set_index(p.rejected["host"].astype(str))
    for host, reserved in ((X2, 16), (X1, 0)):
        value, src = _source(host)
        assert value == reserved
        reason = rej.loc[host, "reason"]
        assert f"host.reserved_lanes_per_socket {reserved})" in reason
        assert f"(reserved lanes: {src.status}, {src.text})" in reason, reason
    assert "over 2 socket(s) of 64 lanes" in rej.loc[X2, "reason"]
    assert "over 1 socket(s) of 64 lanes" in rej.loc[X1, "reason"]


def test_the_base_host_keeps_its_own_sentence():
    p = nm.plan(nm.Target(W["4k-randread"], iops=200e6), nm.DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1743"]},
                                                                          max_drives=24))
    src = nm.preset("dell-r7525").host.sources("libaio")["host.reserved_lanes_per_socket"]
    assert f"(reserved lanes: {src.status}, {src.text[:120]}" in p.rejected.iloc[0]["reason"]
