"""Ceilings: pure vectorized functions per component, composed over a topology in :mod:`.system`.

The built-in components register themselves on import, in :mod:`.drive`, :mod:`.pcie`,
:mod:`.host` (queue depth, CPU), :mod:`.switch`, :mod:`.fabric`, and above the PCIe links :mod:`.tree`
(root complexes, socket DMA, inter-socket link), :mod:`.raid`, :mod:`.sharing`, :mod:`.gpu` (a GPU as the data's sink)
and :mod:`.initiator` (the NVMe-oF initiators' CPU), :mod:`.target` (the NVMe-oF target's CPU), :mod:`.iommu` (the
IOMMU's strict mode); see :mod:`.components`.
"""

from . import drive, fabric, gpu, host, initiator, iommu, md, pcie, raid, sharing, switch, target, tcp_loss, tree  # noqa: F401  (registers the built-in components)
from .components import Component, Limit, register, registered, unregister
from .compose import evaluate_parameters
from .evaluate import ceilings_at, evaluate, outstanding_knee, pcie_waterfall, sweep
from .result import Ceiling, ScalingCurve, SweepResult
from .system import COMPONENT_LABELS, COMPONENTS

__all__ = ["COMPONENTS", "COMPONENT_LABELS", "Ceiling", "Component", "Limit", "ScalingCurve", "SweepResult",
           "ceilings_at", "evaluate", "evaluate_parameters", "outstanding_knee", "pcie_waterfall", "register",
           "registered", "sweep", "unregister"]
