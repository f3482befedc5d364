"""NVMe/TCP under packet loss: the TCP congestion-avoidance ceiling of each path (docs/physics.md §5.3).

A TCP connection that loses a fraction ``p`` of its segments and runs congestion avoidance (no timeouts, enough
receive window and data to send) carries at most

``BW = MSS · C / (RTT · √p)``,  ``C = √(3/2)``

bytes per second — M. Mathis, J. Semke, J. Mahdavi, T. Ott, "The Macroscopic Behavior of the TCP Congestion
Avoidance Algorithm", ACM SIGCOMM Computer Communication Review 27(3), July 1997 (``C = √(3/2)`` for periodic loss
with every segment acknowledged; delayed ACKs make ``C`` smaller, not modelled: an upper bound there). One system
ceiling for an NVMe/TCP fabric (``fabric.transport = tcp``):

``tcp_loss = fabric.paths × BW / max(stream bytes per I/O target→host, host→target)``

with ``MSS`` the fabric's TCP payload per segment (``fabric.eth_mtu`` − IP − TCP − timestamps; docs/physics.md
§5),
``RTT`` = ``fabric.rtt`` (s), ``p`` = ``fabric.loss`` (0, the default: off) and the stream bytes the NVMe/TCP PDUs of
one I/O (data, capsule, response, R2T, digests; the Ethernet/IP/TCP headers are not stream bytes). Each path — a TCP
connection, or an MPTCP subflow — is taken to see the same loss and RTT and to keep its own congestion window; the
paths' windows add. NVMe/TCP opens one connection per I/O queue (``nvme connect -i``), so ``fabric.paths`` is those
connections where the loss is on every one of them.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ..errors import ParameterError
from ..parameters import PARAMETERS
from .components import Component, Limit, everywhere, register
from .fabric import fabric_wire_bytes

__all__ = ["MATHIS_C", "TCP_LOSS", "mathis_bytes_per_s"]

#: Mathis et al. 1997's constant for periodic loss with an ACK per segment: √(3/2) ≈ 1.22.
MATHIS_C = math.sqrt(1.5)
_TCP = float(PARAMETERS["fabric.transport"].choices.index("tcp"))


def mathis_bytes_per_s(mss_bytes: ArrayLike, rtt_s: ArrayLike, loss: ArrayLike, c: float = MATHIS_C) -> np.ndarray:
    """TCP's congestion-avoidance throughput bound ``MSS · C / (RTT · √p)`` in bytes per second (Mathis et al.,
    CCR 27(3), 1997); ``inf`` where ``loss`` is 0 (no loss: not this bound).

    >>> round(float(mathis_bytes_per_s(1448, 1e-3, 1e-4)) / 1e6, 1)  # MSS 1448 B, 1 ms, one loss in 10,000: MB/s
    177.3
    """
    p = np.asarray(loss, dtype=float)
    with np.errstate(divide="ignore"):
        out = np.asarray(mss_bytes, dtype=float) * c / (np.asarray(rtt_s, dtype=float) * np.sqrt(p))
    return np.where(p > 0, out, np.inf)


def _tcp_loss(p) -> Limit:
    if "fabric.loss" not in p or everywhere(p["fabric.loss"], 0.0) or everywhere(p["fabric.present"], 0.0):
        return Limit()
    on = (np.asarray(p["fabric.loss"]) > 0) & (np.asarray(p["fabric.present"]) > 0) & \
        (np.asarray(p["fabric.transport"]) == _TCP)
    if not np.any(on):
        return Limit()
    rtt = np.asarray(p["fabric.rtt"], dtype=float)
    if np.any(on & np.isnan(rtt)):
        raise ParameterError("fabric.rtt", math.nan, "a round-trip time in seconds > 0 where fabric.loss > 0 on an "
                                                     "NVMe/TCP fabric (the TCP loss ceiling needs both)")
    mss = p["fabric.payload_per_packet_bytes"]
    seg = 1.0 + p["fabric.packet_overhead_bytes"] / mss  # fabric_wire_bytes charges this per stream byte
    t2h, h2t = fabric_wire_bytes(p["workload.block_size"], p["workload.read_fraction"], p)
    stream = np.fmax(t2h, h2t) / seg
    x = p["fabric.paths"] * mathis_bytes_per_s(mss, np.where(np.isnan(rtt), 1.0, rtt), p["fabric.loss"]) / stream
    return Limit(system=np.where(on, x, np.inf))


TCP_LOSS = register(Component(
    "tcp_loss", "TCP under packet loss (Mathis et al. 1997: MSS x 1.22 / (RTT x sqrt(loss)) per path, x paths)", 71,
    _tcp_loss,
    parameters=("fabric.loss", "fabric.rtt", "fabric.paths", "fabric.eth_mtu", "fabric.transport"),
    summary="NVMe/TCP under loss: each path's TCP congestion-avoidance throughput MSS*C/(RTT*sqrt(p)) x paths",
    color="#e7298a"))
