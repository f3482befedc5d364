"""NVMe-oF network ceilings: wire bytes per I/O in each direction (docs/physics.md §5).

RoCEv2 / InfiniBand (RDMA): a read is the host's SEND of the 64 B command, the
target's RDMA WRITE of the data (RETH on the first packet) and its SEND of the 16 B
completion. A write is the command SEND, the target's RDMA READ request (RETH), the
host's read-response packets (AETH) and the completion SEND.

NVMe/TCP: PDUs on a byte stream; segments are assumed full (a streaming stream), so
the per-segment header cost is charged as the fraction ``overhead / MSS`` of every byte.
"""

from __future__ import annotations

import numpy as np

from ..standards import ethernet as eth
from ..standards import nvme
from . import ops
from .components import Component, Limit, register

__all__ = ["FABRIC", "fabric_iops", "fabric_wire_bytes"]


def fabric_wire_bytes(block_size, read_fraction, p):
    """Wire bytes per I/O ``(target→host, host→target)`` averaged over the read/write mix."""
    S = ops.to_float(block_size)
    P, O = p["fabric.payload_per_packet_bytes"], p["fabric.packet_overhead_bytes"]
    ack = p["fabric.ack_per_command"] * (O + eth.ROCE_AETH_BYTES)

    # RDMA (RoCEv2, InfiniBand)
    cmd = nvme.SQE_BYTES + O
    resp = nvme.CQE_BYTES + O
    data = S + ops.ceil(S / P) * O
    r_t2h = data + eth.ROCE_RETH_BYTES + resp
    r_h2t = cmd + ack
    w_h2t = cmd + data + eth.ROCE_AETH_BYTES
    w_t2h = O + eth.ROCE_RETH_BYTES + resp + ack

    # NVMe/TCP: digests are 4 B each where enabled
    hd = p["fabric.header_digest"] * eth.NVME_TCP_DIGEST_BYTES
    dd = p["fabric.data_digest"] * eth.NVME_TCP_DIGEST_BYTES
    seg = 1.0 + O / P
    t_r_t2h = (S + eth.NVME_TCP_DATA_PDU_HDR_BYTES + hd + dd + eth.NVME_TCP_RESP_PDU_BYTES + hd) * seg
    t_r_h2t = (eth.NVME_TCP_CMD_PDU_BYTES + hd) * seg
    t_w_h2t = (eth.NVME_TCP_CMD_PDU_BYTES + hd + eth.NVME_TCP_DATA_PDU_HDR_BYTES + hd + S + dd) * seg
    t_w_t2h = (eth.NVME_TCP_DATA_PDU_HDR_BYTES + hd + eth.NVME_TCP_RESP_PDU_BYTES + hd) * seg  # R2T + resp

    tcp = p["fabric.transport"] == 1
    f = ops.to_float(read_fraction)
    t2h = ops.where(tcp, f * t_r_t2h + (1 - f) * t_w_t2h, f * r_t2h + (1 - f) * w_t2h)
    h2t = ops.where(tcp, f * t_r_h2t + (1 - f) * t_w_h2t, f * r_h2t + (1 - f) * w_h2t)
    return t2h, h2t


def fabric_iops(block_size, read_fraction, p):
    """IOPS ceiling of the network: target ports and initiators, each direction separately."""
    present = p["fabric.present"] > 0
    if not ops.any_(present):
        return np.inf
    t2h, h2t = fabric_wire_bytes(block_size, read_fraction, p)
    line = ops.fmin(p["fabric.line_bytes_per_s"], p["fabric.initiator_bytes_per_s"])
    iops = line / ops.fmax(t2h, h2t)
    return iops if ops.all_(present) else np.where(present, iops, np.inf)


FABRIC = register(Component(
    "fabric", "the network (NVMe-oF)", 70,
    lambda p: Limit(system=fabric_iops(p["workload.block_size"], p["workload.read_fraction"], p)),
    parameters=("fabric.transport", "fabric.line_rate_bits_per_s", "fabric.ports", "fabric.initiator_bits_per_s",
                "fabric.eth_mtu", "fabric.roce_mtu"),
    summary="the NVMe-oF network (line rate minus per-packet overhead)", color="#da8bc3"))
