"""Ceilings: pure vectorized functions per component, composed over a topology in :mod:`.system`."""

from .evaluate import ceilings_at, evaluate, outstanding_knee, pcie_waterfall, sweep
from .result import Ceiling, ScalingCurve, SweepResult
from .system import COMPONENT_LABELS, COMPONENTS, evaluate_parameters

__all__ = ["COMPONENTS", "COMPONENT_LABELS", "Ceiling", "ScalingCurve", "SweepResult", "ceilings_at",
           "evaluate", "evaluate_parameters", "outstanding_knee", "pcie_waterfall", "sweep"]
