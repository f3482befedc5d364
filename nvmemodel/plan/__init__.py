"""Capacity planning: from targets to configurations (:func:`plan`), over a :class:`DesignSpace`."""

from .result import Plan
from .solve import RANKS, plan
from .space import DesignSpace
from .targets import STANDARD_WORKLOADS, Target, parse_iops, parse_latency, parse_rate

__all__ = ["RANKS", "STANDARD_WORKLOADS", "DesignSpace", "Plan", "Target", "parse_iops", "parse_latency",
           "parse_rate", "plan"]
