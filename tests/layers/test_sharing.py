"""File sharing (docs/physics.md §12.4) and CPU per byte (§12.6): server CPU, network, clients."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.sharing import PROTOCOLS
from nvmemodel.standards import ethernet as eth

DELL = nm.preset("dell-r7525")
CYCLES_PER_S = 2 * 64 * 2.25e9  # the Dell preset's (assumed) CPU


def at(n, workload, **overrides):
    c = nm.evaluate(DELL, workload, drives=[n], overrides=overrides)
    return c.iops_at(n), c.binding_at(n), c


def test_server_cpu_adds_protocol_cycles_per_io_and_per_byte():
    x, binding, c = at(24, nm.Workload("randread", "4K"), **{"share.protocol": "nfs3", "share.cycles_per_io": 90000,
                                                             "share.cycles_per_byte": 2.0})
    assert binding == "share_server_cpu"
    assert x == pytest.approx(CYCLES_PER_S / (10000 + 90000 + 2.0 * 4096), rel=1e-12)
    assert c.ceilings["host_cpu"][0] == pytest.approx(CYCLES_PER_S / 10000)  # the same CPU without the protocol


def test_protocol_defaults_follow_the_protocol_in_a_sweep():
    protocols = list(PROTOCOLS)
    wl = nm.Workload("randread", "64K")
    res = nm.sweep(DELL, wl, drives=[24], grid={"share.protocol": protocols})
    for i, proto in enumerate(protocols):
        one = nm.evaluate(DELL, wl, drives=[24], overrides={"share.protocol": proto})
        assert res.iops[i, 0] == pytest.approx(one.iops_at(24), rel=1e-12)
        cyc, cpb = PROTOCOLS[proto][:2]
        if proto != "none":
            assert one.iops_at(24) <= CYCLES_PER_S / (10000 + cyc + cpb * 65536) * (1 + 1e-12)
    # SMB Direct copies nothing: above SMB3 over TCP at 64K
    assert res.iops[protocols.index("smb3_rdma"), 0] > res.iops[protocols.index("smb3"), 0]


def test_network_headers_and_packets():
    # 25 Gb/s, NFS over TCP at MTU 1500: 64 KiB reads carry 64 KiB + 110 B (READ reply) in 1448-byte segments
    # with 78 B of Ethernet/IP/TCP each (docs/physics.md §5 packet geometry).
    payload, overhead = (float(v) for v in eth.packet_geometry(True, False, 1500, 0, 0, 0))
    x, binding, _ = at(24, nm.Workload("randread", "64K"), **{"share.protocol": "nfs3", "share.cycles_per_io": 0,
                                                              "share.cycles_per_byte": 0,
                                                              "share.link_bits_per_s": 25e9})
    wire = (65536 + 110) * (1 + overhead / payload)
    assert binding == "share_network" and x == pytest.approx(25e9 / 8 / wire, rel=1e-12)
    assert 0.93 < x * 65536 * 8 / 25e9 < 0.96  # ~95 % of the line rate is data
    jumbo, _, _ = at(24, nm.Workload("randread", "64K"), **{"share.protocol": "nfs3", "share.cycles_per_io": 0,
                                                           "share.cycles_per_byte": 0, "share.link_bits_per_s": 25e9,
                                                           "share.eth_mtu": 9000})
    assert jumbo > x


def test_client_connections():
    x, binding, _ = at(24, nm.Workload("randread", "4K"), **{"share.protocol": "nfs4", "share.connections": 8,
                                                             "share.connection_iops": 50e3})
    assert binding == "share_client" and x == pytest.approx(400e3)


def test_no_protocol_no_sharing_limits():
    c = nm.evaluate(DELL, nm.Workload("randread", "4K"), overrides={"share.link_bits_per_s": 1e9,
                                                                     "share.connection_iops": 1.0})
    base = nm.evaluate(DELL, nm.Workload("randread", "4K"))
    np.testing.assert_array_equal(c.iops, base.iops)


def test_cpu_per_byte_makes_large_blocks_cpu_bound():
    # a copying stack at 2 cycles/byte: 128K reads cost 10,000 + 262,144 cycles each
    x, binding, _ = at(24, nm.Workload("read", "128K"), **{"cpu.cycles_per_byte": 2.0})
    assert binding == "host_cpu" and x == pytest.approx(CYCLES_PER_S / (10000 + 2 * 131072), rel=1e-12)
    _, small_binding, _ = at(8, nm.Workload("randread", "4K"), **{"cpu.cycles_per_byte": 2.0})
    assert small_binding == "drive"  # 4K: 18,192 cycles, the CPU still carries 8 drives


def test_cpu_per_byte_as_dells_bend_would_stop_4k_reads_at_12_drives():
    # docs/physics.md §12.5: a per-byte cost that bends 128K reads to 1.9x from 12 to 24 drives makes
    # 4K random reads CPU-bound already at 12 drives and flat from 12 to 24 (the paper: linear to 12,
    # "stop scaling linearly" at 24 with the CPU at 90 %).
    sr12 = nm.evaluate(DELL, nm.Workload("read", "128K"), drives=[12]).iops_at(12)
    bend = (CYCLES_PER_S / (1.9 * sr12) - 10000) / 131072
    sr = nm.evaluate(DELL, nm.Workload("read", "128K"), drives=[12, 24],
                     overrides={"cpu.cycles_per_byte": bend, "memory.dma_fraction": 1.0})
    assert sr.iops_at(24) / sr.iops_at(12) == pytest.approx(1.9) and sr.binding_at(24) == "host_cpu"
    rr = nm.evaluate(DELL, nm.Workload("randread", "4K"), drives=[12, 24], overrides={"cpu.cycles_per_byte": bend})
    assert rr.binding_at(12) == "host_cpu" and rr.iops_at(24) == rr.iops_at(12)
