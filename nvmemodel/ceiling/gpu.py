"""A GPU as the data's sink or source on the PCIe tree (GPUDirect Storage, peer-to-peer DMA) — docs/physics.md §12.10.

With ``gpu.count`` GPUs taking the data (``0``: the data goes to host memory, no GPU), a read's payload lands in GPU
memory through each GPU's own PCIe link and a write's payload leaves from it, spread evenly over the GPUs; the
NVMe command traffic (SQE fetches, CQEs, doorbells, interrupts) still goes to the host. One ceiling, for the whole
system: ``gpu_link = gpu.count × gpu.efficiency × peer_link_iops(gpu.gen, gpu.lanes)``
(:func:`~nvmemodel.ceiling.pcie.peer_link_iops`: the link's capacity after encoding, SKP and DLLPs over the data TLPs
of one I/O). Every term is the PCIe specification's (as for each drive's link, docs/physics.md §1–2); nothing is
fitted. Not modelled: where the GPU sits (behind the drives' switch, or across a root complex), so the root
complexes, socket DMA and memory are still charged as if the data landed in host memory (an under-estimate only
where one of those binds before the GPU link; said in docs/physics.md §12.10).
"""

from __future__ import annotations

import math

import numpy as np

from ..parameters import Parameter
from ..standards import pcie as sp
from .components import Component, Limit, everywhere, register
from .pcie import peer_link_iops

__all__ = ["GPU_LINK"]

_GENS = tuple(int(g) for g in sp.Gen)


def _gpu_link(p) -> Limit:
    if "gpu.count" not in p or everywhere(p["gpu.count"], 0.0):
        return Limit()
    count = np.asarray(p["gpu.count"], dtype=float)
    x = count * p["gpu.efficiency"] * peer_link_iops(p["gpu.gen"], p["gpu.lanes"], p["workload.block_size"],
                                                      p["workload.read_fraction"], p)
    return Limit(system=np.where(count > 0, x, np.inf))


GPU_LINK = register(Component(
    "gpu_link", "the GPUs' own PCIe links (the data's sink or source: GPUDirect Storage, peer-to-peer)", 58, _gpu_link,
    parameters=("gpu.count", "gpu.gen", "gpu.lanes", "gpu.efficiency", "pcie.mps"),
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
    )))
assert not math.isnan(GPU_LINK.order)
