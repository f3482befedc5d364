"""Network facts for NVMe-oF: line rates, frame and header sizes (docs/physics.md §5).

Sources: pcie-bench/pcie-model ``model/eth.py`` (Ethernet framing), Linux ``rxe_hdr.h``
(RoCEv2 headers), Linux ``include/linux/nvme-tcp.h`` (NVMe/TCP PDUs), IBM RoCE Express
and NVIDIA WinOF docs (RoCE MTU choice). InfiniBand header sizes are from the IBA
specification's packet format (LRH 8, BTH 12, ICRC 4, VCRC 2) — not re-verified here.
"""

from __future__ import annotations

import enum

__all__ = [
    "Transport", "ETHERNET_LINE_RATES_BITS_PER_S", "INFINIBAND_LINE_RATES_BITS_PER_S",
    "ETH_PREAMBLE_SFD_IFG_BYTES", "ETH_HEADER_FCS_BYTES", "VLAN_TAG_BYTES",
    "IPV4_HEADER_BYTES", "IPV6_HEADER_BYTES", "UDP_HEADER_BYTES", "ROCE_BTH_BYTES",
    "ROCE_RETH_BYTES", "ROCE_AETH_BYTES", "ROCE_ICRC_BYTES", "ROCE_MTU_CHOICES",
    "TCP_HEADER_BYTES", "TCP_TIMESTAMP_BYTES", "NVME_TCP_CMD_PDU_BYTES", "NVME_TCP_RESP_PDU_BYTES",
    "NVME_TCP_DATA_PDU_HDR_BYTES", "NVME_TCP_DIGEST_BYTES", "IB_PACKET_OVERHEAD_BYTES", "max_roce_mtu",
    "packet_geometry",
]


class Transport(enum.Enum):
    """NVMe-oF transport."""

    ROCE_V2 = "rocev2"
    NVME_TCP = "tcp"
    INFINIBAND = "infiniband"


#: Ethernet MAC data rates, bits/s; the MAC rate equals the nominal rate (IEEE 802.3).
ETHERNET_LINE_RATES_BITS_PER_S = {f"{g}GbE": g * 1e9 for g in (1, 10, 25, 40, 50, 100, 200, 400, 800)}
#: InfiniBand 4x data rates, bits/s (after 64b/66b): EDR 100, HDR 200, NDR 400 (IBTA roadmap).
INFINIBAND_LINE_RATES_BITS_PER_S = {"EDR": 100e9, "HDR": 200e9, "NDR": 400e9}

#: Preamble 7 + SFD 1 + inter-frame gap 12 (pcie-model eth.py).
ETH_PREAMBLE_SFD_IFG_BYTES = 20
#: MAC header 14 + FCS 4 (pcie-model eth.py).
ETH_HEADER_FCS_BYTES = 18
#: One 802.1Q tag.
VLAN_TAG_BYTES = 4
IPV4_HEADER_BYTES = 20
IPV6_HEADER_BYTES = 40
UDP_HEADER_BYTES = 8
#: RoCEv2 transport headers (Linux rxe: ``struct rxe_bth`` 12 B, RETH 16, AETH 4, ``RXE_ICRC_SIZE`` 4).
ROCE_BTH_BYTES = 12
ROCE_RETH_BYTES = 16
ROCE_AETH_BYTES = 4
ROCE_ICRC_BYTES = 4
#: RoCE path MTU choices (IB MTUs), bytes.
ROCE_MTU_CHOICES = (256, 512, 1024, 2048, 4096)
#: TCP header and the 12 B timestamp option Linux enables by default.
TCP_HEADER_BYTES = 20
TCP_TIMESTAMP_BYTES = 12
#: NVMe/TCP PDUs (Linux nvme-tcp.h): CapsuleCmd 8 + 64, CapsuleResp 8 + 16, C2H/H2C/R2T 24.
NVME_TCP_CMD_PDU_BYTES = 72
NVME_TCP_RESP_PDU_BYTES = 24
NVME_TCP_DATA_PDU_HDR_BYTES = 24
#: HDGST / DDGST (CRC32C) when enabled.
NVME_TCP_DIGEST_BYTES = 4
#: InfiniBand per packet: LRH 8 + BTH 12 + ICRC 4 + VCRC 2 (IBA spec; no GRH on a subnet).
IB_PACKET_OVERHEAD_BYTES = 26


def max_roce_mtu(eth_mtu, ipv6):
    """Largest RoCE path MTU whose packet fits the Ethernet MTU (IP + UDP + BTH + RETH + ICRC headers).

    Vectorized. 1500 → 1024, 4200 → 4096 (IBM RoCE Express docs; docs/physics.md §5).
    """
    import numpy as np

    ip = np.where(np.asarray(ipv6) > 0, IPV6_HEADER_BYTES, IPV4_HEADER_BYTES)
    room = np.asarray(eth_mtu, dtype=float) - ip - UDP_HEADER_BYTES - ROCE_BTH_BYTES - ROCE_RETH_BYTES \
        - ROCE_ICRC_BYTES
    best = np.full(np.shape(room), float(ROCE_MTU_CHOICES[0]))
    for m in ROCE_MTU_CHOICES[1:]:
        best = np.where(room >= m, float(m), best)
    return best


def packet_geometry(is_tcp, is_ib, eth_mtu, roce_mtu, ipv6, vlan):
    """``(payload bytes per packet, overhead bytes per packet)`` of an NVMe-oF transport, vectorized.

    Payload: the RoCE path MTU (``roce_mtu``; 0 = the largest that fits), the TCP MSS, or the
    IB MTU 4096. Overhead: preamble/SFD/IFG + MAC header/FCS (+ VLAN) + IP + UDP/BTH/ICRC for
    RoCEv2, + TCP with timestamps for NVMe/TCP, LRH/BTH/ICRC/VCRC for InfiniBand
    (docs/physics.md §5: 82 B for RoCEv2 over IPv4 without VLAN).
    """
    import numpy as np

    ip = np.where(np.asarray(ipv6) > 0, IPV6_HEADER_BYTES, IPV4_HEADER_BYTES)
    roce = np.where(np.asarray(roce_mtu) > 0, roce_mtu, max_roce_mtu(eth_mtu, ipv6))
    mss = np.asarray(eth_mtu, dtype=float) - ip - TCP_HEADER_BYTES - TCP_TIMESTAMP_BYTES
    payload = np.where(is_ib, 4096.0, np.where(is_tcp, mss, roce))
    frame = ETH_PREAMBLE_SFD_IFG_BYTES + ETH_HEADER_FCS_BYTES + np.where(np.asarray(vlan) > 0, VLAN_TAG_BYTES, 0)
    over_roce = frame + ip + UDP_HEADER_BYTES + ROCE_BTH_BYTES + ROCE_ICRC_BYTES
    over_tcp = frame + ip + TCP_HEADER_BYTES + TCP_TIMESTAMP_BYTES
    overhead = np.where(is_ib, float(IB_PACKET_OVERHEAD_BYTES), np.where(is_tcp, over_tcp, over_roce))
    return payload.astype(float), overhead.astype(float)
