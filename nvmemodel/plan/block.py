"""What one block of configurations gives the planner's walk (:func:`nvmemodel.plan.solve.plan`), whichever way its
fewest drives were found (:func:`~nvmemodel.plan.solve._levels_block` for one drive model,
:class:`~nvmemodel.plan.groups.MixedSearch` for a mixed topology's groups)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

__all__ = ["Block"]


class Block(NamedTuple):
    """One block's results, each broadcastable to the block's shape: the answer ``row`` (drives, lanes, per target
    ceiling, binding, headroom, latency; cost), which meet every throughput target and which fail or cannot check a
    latency bound, per target the fraction of it the most drives reach (``fractions``) and of a latency bound
    (``latency_frac``), and what a miss's reason needs (``lanes_ok``, ``slots``: the parameters setting how many
    drives fit, None for a mixed base; ``max_n``; ``lows``: Little's-law bounds)."""

    row: dict
    throughput_ok: np.ndarray
    latency_fail: Any  # a scalar or an array broadcastable to the block
    latency_known: Any  # a scalar or an array broadcastable to the block
    fractions: list
    latency_frac: Any  # a scalar or an array broadcastable to the block
    lanes_ok: Any  # a scalar or an array broadcastable to the block
    slots: Mapping | None
    max_n: Any  # a scalar or an array broadcastable to the block
    lows: dict
    components: tuple
