"""NVMe over Fabrics: the network between initiators and the storage target."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ..errors import ParameterError
from ..parameters import PARAMETERS, Source
from ..standards import ethernet as eth
from ..standards.ethernet import Transport
from ._fields import check_fields, export, field_source

__all__ = ["Fabric"]

#: Fields that are parameters (``fabric.<field>``); ``roce_mtu`` None is exported as 0 ("largest that fits").
FIELDS = ("transport", "line_rate_bits_per_s", "ports", "initiator_bits_per_s", "eth_mtu", "roce_mtu", "vlan",
          "ipv6", "header_digest", "data_digest", "ack_per_command", "added_latency_s", "loss", "rtt", "paths")
#: Fields whose default is not a property of the fabric named (the parameter table's source is theirs until set).
_DEFAULTED = ("loss", "rtt", "paths")


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
    loss, rtt : float
        NVMe/TCP: fraction of segments lost on each path (0: off) and its round-trip time, seconds (NaN: unknown);
        with ``paths`` TCP connections or MPTCP subflows they bound the fabric at each path's TCP throughput
        (Mathis et al. 1997; :mod:`nvmemodel.ceiling.tcp_loss`, docs/physics.md §5.3).
    paths : int
        TCP connections or subflows carrying the I/O, each with its own congestion window.
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
    loss: float = 0.0
    rtt: float = math.nan
    paths: int = 1
    notes: str = dataclasses.field(default="", compare=False)
    provenance: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "transport", Transport(self.transport))
        if self.roce_mtu == 0:
            object.__setattr__(self, "roce_mtu", None)
        check_fields(self, "fabric", [f for f in FIELDS if f != "transport"])
        if self.roce_mtu is not None:
            if self.transport is Transport.ROCE_V2 and self.roce_mtu > self._max_roce_mtu():
                raise ParameterError("fabric.roce_mtu", self.roce_mtu,
                                     f"at most {self._max_roce_mtu()} at Ethernet MTU {self.eth_mtu}")

    def replace(self, **changes: Any) -> Fabric:
        return dataclasses.replace(self, **changes)

    def _max_roce_mtu(self) -> int:
        return int(eth.max_roce_mtu(self.eth_mtu, self.ipv6))

    def _geometry(self) -> tuple[float, float]:
        payload, overhead = eth.packet_geometry(self.transport is Transport.NVME_TCP,
                                                self.transport is Transport.INFINIBAND,
                                                self.eth_mtu, self.roce_mtu or 0, self.ipv6, self.vlan)
        return float(payload), float(overhead)

    @property
    def payload_per_packet_bytes(self) -> float:
        """Data bytes per packet: the RoCE path MTU, the TCP MSS, or the IB MTU (4096)."""
        return self._geometry()[0]

    @property
    def packet_overhead_bytes(self) -> float:
        """Wire bytes per packet besides the data (docs/physics.md §5: 82 B for RoCEv2/IPv4, no VLAN)."""
        return self._geometry()[1]

    def parameters(self) -> dict:
        """``fabric.*`` entries of the parameter vector (transport by name; roce_mtu 0 = largest that fits)."""
        out = export(self, "fabric", [f for f in FIELDS if f != "roce_mtu"])
        out["fabric.roce_mtu"] = float(self.roce_mtu or 0)
        return out

    def sources(self) -> dict[str, Source]:
        fallback = Source("spec", self.notes or self.name)
        out = {f"fabric.{f}": field_source(self.provenance, f, fallback) for f in FIELDS}
        for f in _DEFAULTED:  # not set on this fabric: the parameter table's default and its source
            if f not in (self.provenance or {}):
                out[f"fabric.{f}"] = Source.parse(PARAMETERS[f"fabric.{f}"].source, "default")
        return out
