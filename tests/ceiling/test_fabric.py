"""NVMe-oF network ceilings against docs/physics.md §5 (100 GbE table, derived from header sizes)."""

import pytest

from nvmemodel import Fabric, Transport
from nvmemodel.ceiling.fabric import fabric_iops, fabric_wire_bytes


def _p(**kw):
    from nvmemodel.ceiling.derive import prepare

    return prepare(Fabric(name="t", **kw).parameters())


def test_roce_packet_overhead_is_82_bytes():
    # docs/physics.md §5: "Per RoCE packet on the wire: 82 B (no VLAN; 86 B with VLAN)".
    assert Fabric(name="a").packet_overhead_bytes == 82
    assert Fabric(name="b", vlan=True).packet_overhead_bytes == 86


@pytest.mark.parametrize("eth_mtu, roce_mtu", [(1500, 1024), (4200, 4096), (9000, 4096), (2500, 2048)])
def test_roce_mtu_follows_ethernet_mtu(eth_mtu, roce_mtu):
    # IBM RoCE Express docs: 1024 at Ethernet MTU 1500; 4096 needs ~4200 or more (docs/physics.md §5).
    assert Fabric(name="x", eth_mtu=eth_mtu).payload_per_packet_bytes == roce_mtu


# docs/physics.md §5 table, 100 GbE reads: 4 KiB max IOPS (M) and 128 KiB goodput (Gb/s), printed to
# 3-4 significant digits.
@pytest.mark.parametrize("kw, iops_4k_m, gbps_128k", [
    (dict(transport=Transport.ROCE_V2, eth_mtu=1500, roce_mtu=1024), 2.755, 92.51),
    (dict(transport=Transport.ROCE_V2, eth_mtu=4200, roce_mtu=2048), 2.858, 96.07),
    (dict(transport=Transport.ROCE_V2, eth_mtu=4200, roce_mtu=4096), 2.912, 97.95),
    (dict(transport=Transport.NVME_TCP, eth_mtu=1500), 2.840, 94.11),
    (dict(transport=Transport.NVME_TCP, eth_mtu=9000), 2.986, 98.97),
])
def test_100gbe_read_table(kw, iops_4k_m, gbps_128k):
    p = _p(line_rate_bits_per_s=100e9, **kw)
    assert float(fabric_iops(4096, 1.0, p)) / 1e6 == pytest.approx(iops_4k_m, abs=5e-4)
    assert float(fabric_iops(131072, 1.0, p)) * 131072 * 8 / 1e9 == pytest.approx(gbps_128k, abs=5e-3)


def test_reverse_direction_is_146_bytes_per_read():
    # docs/physics.md §5: "The reverse direction (commands) costs 146 B per I/O with RoCE".
    _, h2t = fabric_wire_bytes(4096, 1.0, _p())
    assert float(h2t) == 146.0


def test_writes_carry_data_host_to_target():
    t2h, h2t = fabric_wire_bytes(131072, 0.0, _p(eth_mtu=4200))
    assert float(h2t) > 131072 > float(t2h)


def test_digests_cost_bytes():
    base = fabric_wire_bytes(4096, 1.0, _p(transport=Transport.NVME_TCP))[0]
    dig = fabric_wire_bytes(4096, 1.0, _p(transport=Transport.NVME_TCP, header_digest=True, data_digest=True))[0]
    assert float(dig) > float(base)


def test_initiators_can_bind():
    one = float(fabric_iops(4096, 1.0, _p(line_rate_bits_per_s=100e9, initiator_bits_per_s=25e9)))
    four = float(fabric_iops(4096, 1.0, _p(line_rate_bits_per_s=100e9)))
    assert one == pytest.approx(four / 4)
