"""A GPU as the data's sink or source on the PCIe tree (GPUDirect Storage, peer-to-peer DMA) — docs/physics.md §12.10.

With ``gpu.count`` GPUs taking the data (``0``: the data goes to host memory, no GPU), a read's payload lands in GPU
memory through each GPU's own PCIe link and a write's payload leaves from it, spread evenly over the GPUs; the
NVMe command traffic (SQE fetches, CQEs, doorbells, interrupts, PRP lists) still goes to the host. Each GPU's link
carries ``gpu.efficiency × peer_link_iops(gpu.gen, gpu.lanes)`` (:func:`~nvmemodel.ceiling.pcie.peer_link_iops`: the
link's capacity after encoding, SKP and DLLPs over the data TLPs of one I/O). Every term is the PCIe specification's
(as for each drive's link, docs/physics.md §1–2); nothing is fitted.

Where the GPUs sit, ``gpu.attach`` (:func:`data_path`):

* ``unplaced`` (the default): not said. One system ceiling, ``gpu.count ×`` a GPU's link; the host layers are charged
  as if the data landed in host memory (as before the GPU had a place).
* ``root_port``: the GPUs on the CPU's root ports. The data cross the drives' links, their switches' uplinks and their
  root complexes (towards the CPU, then out of the GPU's root port), never host memory: the sockets' DMA share of
  memory (``socket_dma``) is not charged for them. Where the GPU is on another socket than the drive (a share
  ``gpu.remote_fraction`` of each socket's data) the data cross the inter-socket link, charged as
  ``tree.remote_fraction`` is for host memory (:data:`~nvmemodel.ceiling.tree.INTER_SOCKET`). One system ceiling,
  ``gpu.count ×`` a GPU's link (every drive reaches every GPU).
* ``switch``: the GPUs behind the drives' own PCIe switches, ``gpu.count / switch.count`` under each (a whole number),
  each switch's drives feeding its own GPUs peer-to-peer: the data turn inside the switch. The switch's uplink carries
  only the commands (:func:`~nvmemodel.ceiling.pcie.command_link_iops`); the root complexes, socket DMA and the
  inter-socket link carry no data (not charged). The GPU links are a per-switch ceiling, ``gpu.count / switch.count ×``
  a GPU's link, shared by the drives behind that switch.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ParameterError
from ..parameters import Parameter
from ..standards import pcie as sp
from .components import Component, Limit, everywhere, register
from .pcie import peer_link_iops

__all__ = ["ATTACH", "GPU_LINK", "data_path", "switch_ports", "uncrossed"]

_GENS = tuple(int(g) for g in sp.Gen)
#: ``gpu.attach`` choices, in code order.
ATTACH = ("unplaced", "root_port", "switch")
_ROOT_PORT, _SWITCH = ATTACH.index("root_port"), ATTACH.index("switch")


def data_path(p):
    """``(through_root_port, under_switch)``: where GPUs take the data, as masks (``False`` where there is no GPU or
    it is unplaced), or None where no configuration places a GPU (the host layers then charged as before)."""
    if "gpu.count" not in p or "gpu.attach" not in p or everywhere(p["gpu.count"], 0.0) \
            or everywhere(p["gpu.attach"], 0.0):
        return None
    present = np.asarray(p["gpu.count"], dtype=float) > 0
    attach = np.asarray(p["gpu.attach"], dtype=float)
    return present & (attach == _ROOT_PORT), present & (attach == _SWITCH)


def switch_ports(p):
    """Downstream ports of each switch the GPUs behind the drives' switches take, per configuration of ``p`` (prepared
    codes: ``gpu.count``, ``gpu.lanes``, ``gpu.attach``, ``switch.count``, ``switch.port_lanes``, ``attach.switch``):
    ``⌈gpu.count / switch.count⌉ × ⌈gpu.lanes / switch.port_lanes⌉`` (a x16 GPU on x4 ports takes four) where GPUs sit
    behind switches (``gpu.attach=switch``), else 0 — as :meth:`~nvmemodel.topology.topology.Topology.max_drives` counts
    them for one topology. A number, or an array broadcastable to ``p``'s configurations."""
    path = data_path(p)
    if path is None or not np.any(path[1]):
        return 0.0
    under = path[1] & (np.asarray(p.get("attach.switch", 0.0), dtype=float) > 0)
    per = (np.ceil(np.asarray(p["gpu.count"], dtype=float) / np.asarray(p["switch.count"], dtype=float))
           * np.ceil(np.asarray(p["gpu.lanes"], dtype=float) / np.asarray(p["switch.port_lanes"], dtype=float)))
    return np.where(under, per, 0.0)


def uncrossed(p) -> tuple[tuple[str, ...], str]:
    """For one configuration's parameters (names or codes): the host levels the data do not cross where GPUs placed on
    the tree take them, and the sentence saying so (``((), "")`` where no GPU is placed). For explanations."""
    from ..parameters import PARAMETERS

    count = float(p.get("gpu.count", 0.0) or 0.0)
    attach = p.get("gpu.attach", "unplaced")
    code = attach if not isinstance(attach, str) else PARAMETERS["gpu.attach"].code(attach)
    if count <= 0 or int(code) == 0:
        return (), ""
    if int(code) == _SWITCH:
        return (("root_complex", "socket_dma", "inter_socket"),
                "The data go peer-to-peer to the GPUs behind the drives' switches: the switches' uplinks carry the "
                "commands alone, and root_complex, socket_dma and inter_socket carry none of the data (not charged; "
                "docs/physics.md §12.10).")
    local = float(p.get("gpu.remote_fraction", 0.0)) == 0.0
    levels = ("socket_dma", "inter_socket") if local else ("socket_dma",)
    return (levels, "The data go peer-to-peer to the GPUs on the CPU's root ports: host memory is not touched, so "
            "socket_dma is not charged" + (" and, each socket's drives feeding its own GPUs, neither is inter_socket"
                                           if local else "") + " (docs/physics.md §12.10).")


def _check_switch(p, under) -> None:
    """GPUs under the drives' switches need switches, and a whole number of GPUs on each."""
    switch = np.asarray(p.get("attach.switch", 0.0), dtype=float) > 0
    if np.any(under & ~switch):
        raise ParameterError("gpu.attach", "switch", "drives behind a PCIe switch (switch.model); with drives on root "
                             "ports, GPUs sit on root ports too: gpu.attach=root_port")
    count, switches = np.asarray(p["gpu.count"], dtype=float), np.asarray(p["switch.count"], dtype=float)
    per = count / switches
    bad = under & (per != np.floor(per))
    if np.any(bad):
        c, m = np.broadcast_to(count, bad.shape)[bad].flat[0], np.broadcast_to(switches, bad.shape)[bad].flat[0]
        raise ParameterError("gpu.count", f"{c:g}", f"a multiple of switch.count ({m:g}) with gpu.attach=switch: the same "
                             "number of GPUs under each switch, each taking its own switch's drives' data")


def _gpu_link(p) -> Limit:
    if "gpu.count" not in p or everywhere(p["gpu.count"], 0.0):
        return Limit()
    count = np.asarray(p["gpu.count"], dtype=float)
    one = p["gpu.efficiency"] * peer_link_iops(p["gpu.gen"], p["gpu.lanes"], p["workload.block_size"],
                                               p["workload.read_fraction"], p)
    system = np.where(count > 0, count * one, np.inf)
    path = data_path(p)
    if path is None or not np.any(path[1]):
        return Limit(system=system)
    under = path[1]
    _check_switch(p, under)
    group = np.where(under, count / p["switch.count"] * one, np.inf)
    return Limit(group=group, system=np.where(under, np.inf, system) if not np.all(under) else np.inf)


GPU_LINK = register(Component(
    "gpu_link", "the GPUs' own PCIe links (the data's sink or source: GPUDirect Storage, peer-to-peer)", 58, _gpu_link,
    parameters=("gpu.count", "gpu.gen", "gpu.lanes", "gpu.efficiency", "gpu.attach", "pcie.mps"),
    summary="the GPUs' own PCIe links where GPUs take or give the data (GPUDirect Storage, P2P)", color="#76b900",
    declares=(
        Parameter("gpu.count", "GPUs", "integer", "GPUs the data goes to (reads) and comes from (writes), spread "
                  "evenly; 0: host memory, no GPU on the data path", lo=0, hi=1024, default=0.0,
                  source="default: no GPU (the data goes to host memory)"),
        Parameter("gpu.gen", "gen", "choice", "PCIe generation of each GPU's link", choices=_GENS, default=4.0,
                  source="spec: the GPU's sheet and its slot's, the lower generation"),
        Parameter("gpu.lanes", "lanes", "choice", "PCIe lanes of each GPU's link", choices=sp.LINK_WIDTHS,
                  default=16.0, source="spec: the GPU's sheet and its slot's, the narrower width"),
        Parameter("gpu.efficiency", "1", "continuous", "fraction of the GPU link's TLP capacity the GPU sustains as a "
                  "DMA peer", lo=0, lo_open=True, hi=1, default=1.0,
                  source="default: no loss (an upper bound; fit it on your own runs)"),
        Parameter("gpu.attach", "", "categorical", "where the GPUs sit on the PCIe tree: unplaced (not said: the host "
                  "layers charged as if the data landed in host memory), root_port (on the CPU's root ports: the data "
                  "cross the drives' root complexes, not memory) or switch (behind the drives' own switches, "
                  "gpu.count / switch.count under each: peer-to-peer inside the switch, nothing above it carries data)",
                  choices=ATTACH, default="unplaced", source="default: unplaced (where the GPUs sit is not said)",
                  aliases={"root": "root_port", "rootport": "root_port", "cpu": "root_port", "none": "unplaced"}),
        Parameter("gpu.remote_fraction", "1", "continuous", "with gpu.attach=root_port: the share of each socket's "
                  "drives' data whose GPU is on another socket (crossing the inter-socket link); 0: every drive's GPU "
                  "on its own socket", lo=0, hi=1, default=0.0,
                  source="default: 0 (each socket's drives feed GPUs on that socket, as GDS is set up to do)"),
    )))
assert not math.isnan(GPU_LINK.order)
