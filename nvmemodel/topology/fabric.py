"""NVMe over Fabrics: the network between initiators and the storage target."""

from __future__ import annotations

import dataclasses
import math

from .. import _check
from ..errors import ParameterError
from ..standards import ethernet as eth
from ..standards.ethernet import Transport

__all__ = ["Fabric"]

_TRANSPORT_CODE = {Transport.ROCE_V2: 0.0, Transport.NVME_TCP: 1.0, Transport.INFINIBAND: 2.0}


@dataclasses.dataclass(frozen=True)
class Fabric:
    """The network path of NVMe-oF, as seen from the storage target.

    Parameters
    ----------
    name : str
    transport : Transport
        RoCEv2, NVMe/TCP or InfiniBand.
    line_rate_bits_per_s : float
        MAC data rate of one target port, bits/s (100 GbE → 100e9).
    ports : int
        Target ports in use.
    initiator_bits_per_s : float
        Total line rate of all initiators, bits/s (inf = not limiting).
    eth_mtu : int
        Ethernet MTU, bytes.
    roce_mtu : int | None
        RoCE path MTU (256..4096). None: the largest that fits ``eth_mtu``
        (1024 at 1500, 4096 at jumbo frames; IBM RoCE Express docs).
    vlan, ipv6 : bool
        Add an 802.1Q tag / use IPv6 headers.
    header_digest, data_digest : bool
        NVMe/TCP HDGST / DDGST.
    ack_per_command : bool
        Charge one RoCE ACK packet per command (RC transport coalesces ACKs; off by default).
    added_latency_s : float
        Latency the fabric adds per I/O, seconds (NIC + switch + target software);
        10 µs default: Broadcom Stingray paper, "NVMe-oF latency of ~10 µs".
    """

    name: str
    transport: Transport = Transport.ROCE_V2
    line_rate_bits_per_s: float = 100e9
    ports: int = 1
    initiator_bits_per_s: float = math.inf
    eth_mtu: int = 1500
    roce_mtu: int | None = None
    vlan: bool = False
    ipv6: bool = False
    header_digest: bool = False
    data_digest: bool = False
    ack_per_command: bool = False
    added_latency_s: float = 10e-6
    notes: str = dataclasses.field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "transport", Transport(self.transport))
        _check.positive("fabric.line_rate_bits_per_s", self.line_rate_bits_per_s, unit="bit/s")
        _check.number("fabric.ports", self.ports, lo=1, hi=1024, integer=True)
        _check.number("fabric.initiator_bits_per_s", self.initiator_bits_per_s, lo=0, lo_open=True) \
            if math.isfinite(self.initiator_bits_per_s) else None
        _check.number("fabric.eth_mtu", self.eth_mtu, lo=576, hi=9216, integer=True, unit="bytes")
        _check.number("fabric.added_latency_s", self.added_latency_s, lo=0, unit="s")
        if self.roce_mtu is not None:
            _check.choice("fabric.roce_mtu", self.roce_mtu, eth.ROCE_MTU_CHOICES)
            if self.transport is Transport.ROCE_V2 and self.roce_mtu > self._max_roce_mtu():
                raise ParameterError("fabric.roce_mtu", self.roce_mtu,
                                     f"at most {self._max_roce_mtu()} at Ethernet MTU {self.eth_mtu}")

    def replace(self, **changes) -> "Fabric":
        return dataclasses.replace(self, **changes)

    @property
    def _ip_bytes(self) -> int:
        return eth.IPV6_HEADER_BYTES if self.ipv6 else eth.IPV4_HEADER_BYTES

    def _max_roce_mtu(self) -> int:
        room = self.eth_mtu - self._ip_bytes - eth.UDP_HEADER_BYTES - eth.ROCE_BTH_BYTES \
            - eth.ROCE_RETH_BYTES - eth.ROCE_ICRC_BYTES
        fits = [m for m in eth.ROCE_MTU_CHOICES if m <= room]
        return fits[-1] if fits else eth.ROCE_MTU_CHOICES[0]

    @property
    def payload_per_packet_bytes(self) -> float:
        """Data bytes per packet: the RoCE path MTU, the TCP MSS, or the IB MTU (4096)."""
        if self.transport is Transport.ROCE_V2:
            return float(self.roce_mtu or self._max_roce_mtu())
        if self.transport is Transport.NVME_TCP:
            return float(self.eth_mtu - self._ip_bytes - eth.TCP_HEADER_BYTES - eth.TCP_TIMESTAMP_BYTES)
        return 4096.0

    @property
    def packet_overhead_bytes(self) -> float:
        """Wire bytes per packet besides the data (docs/physics.md §5: 82 B for RoCEv2/IPv4, no VLAN)."""
        if self.transport is Transport.INFINIBAND:
            return float(eth.IB_PACKET_OVERHEAD_BYTES)
        frame = eth.ETH_PREAMBLE_SFD_IFG_BYTES + eth.ETH_HEADER_FCS_BYTES + (eth.VLAN_TAG_BYTES if self.vlan else 0)
        if self.transport is Transport.ROCE_V2:
            return float(frame + self._ip_bytes + eth.UDP_HEADER_BYTES + eth.ROCE_BTH_BYTES + eth.ROCE_ICRC_BYTES)
        return float(frame + self._ip_bytes + eth.TCP_HEADER_BYTES + eth.TCP_TIMESTAMP_BYTES)

    def parameters(self) -> dict[str, float]:
        return {
            "fabric.present": 1.0,
            "fabric.transport": _TRANSPORT_CODE[self.transport],
            "fabric.line_bytes_per_s": self.ports * self.line_rate_bits_per_s / 8.0,
            "fabric.initiator_bytes_per_s": self.initiator_bits_per_s / 8.0,
            "fabric.payload_per_packet_bytes": self.payload_per_packet_bytes,
            "fabric.packet_overhead_bytes": self.packet_overhead_bytes,
            "fabric.header_digest": float(self.header_digest),
            "fabric.data_digest": float(self.data_digest),
            "fabric.ack_per_command": float(self.ack_per_command),
            "fabric.added_latency_s": float(self.added_latency_s),
        }


NO_FABRIC_PARAMETERS = {
    "fabric.present": 0.0, "fabric.transport": 0.0, "fabric.line_bytes_per_s": math.inf,
    "fabric.initiator_bytes_per_s": math.inf, "fabric.payload_per_packet_bytes": 4096.0,
    "fabric.packet_overhead_bytes": 0.0, "fabric.header_digest": 0.0, "fabric.data_digest": 0.0,
    "fabric.ack_per_command": 0.0, "fabric.added_latency_s": 0.0,
}
