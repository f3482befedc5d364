"""Compose the registered components' ceilings over a topology into a scaling curve (the kernel).

For ``n`` identical drives spread round-robin over ``m`` switches (or root ports)::

    d      = min over components of their per-drive limit      (drive, PCIe link, Little's law …)
    G      = min over components of their per-switch limit     (uplink × efficiency, processing …)
    local  = Σ_switches min(G, k_j · d)          (k_j drives on switch j; Σ k_j = n)
    X(n)   = min(local, every system-wide limit)                (host CPU, fabric …)

Each component is also reported *alone* as a system ceiling, ``min(n·drive, min(n, m)·group,
system)``; the binding component is the smallest of those, ties going to the component nearest
the drive (registry order). Every argument broadcasts, so one call evaluates whole curves and
configuration grids. The components are those of :mod:`nvmemodel.ceiling.components`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .components import COMPONENT_LABELS, COMPONENTS, components
from .derive import prepare

__all__ = ["COMPONENTS", "COMPONENT_LABELS", "evaluate_parameters", "evaluate_prepared"]


def evaluate_parameters(p: Mapping[str, object], drives) -> dict[str, object]:
    """Evaluate the kernel on a flat parameter mapping (:meth:`Topology.parameters`, or arrays of it).

    Returns a dict with ``iops`` (system IOPS ceiling), ``per_drive_iops`` (a drive's own ceiling
    before shared limits), ``ceilings`` (a tuple in :data:`COMPONENTS` order of arrays broadcastable
    to the result: each component alone, IOPS), ``binding`` (int8 index into :data:`COMPONENTS`)
    and ``components`` (the names, in that order).
    """
    return evaluate_prepared(prepare(p), drives)


def _is_inf(x) -> bool:
    return np.ndim(x) == 0 and np.isinf(x)


def evaluate_prepared(p: Mapping[str, np.ndarray], drives) -> dict[str, object]:
    """:func:`evaluate_parameters` on a mapping already passed through :func:`~nvmemodel.ceiling.derive.prepare`."""
    n = np.asarray(drives, dtype=float)
    comps = components()
    limits = [c.limit(p) for c in comps]
    inf = np.inf

    d = g = s = inf
    for lim in limits:
        if not _is_inf(lim.drive):
            d = np.fmin(d, lim.drive)
        if not _is_inf(lim.group):
            g = np.fmin(g, lim.group)
        if not _is_inf(lim.system):
            s = np.fmin(s, lim.system)
    m = p["switch.count"]
    if _is_inf(g):
        local = n * d
    else:  # round-robin: r switches carry q+1 drives, m−r carry q
        q = np.floor(n / m)
        r = n - q * m
        local = r * np.fmin(g, (q + 1) * d) + (m - r) * np.fmin(g, q * d)
    total = local if _is_inf(s) else np.fmin(local, s)

    used = None
    alone = []
    for lim in limits:
        x = inf
        if not _is_inf(lim.drive):
            x = n * lim.drive
        if not _is_inf(lim.group):
            used = np.fmin(n, m) if used is None else used
            x = np.fmin(x, used * lim.group)
        if not _is_inf(lim.system):
            x = np.fmin(x, lim.system)
        alone.append(x)
    return {
        "iops": total,
        "per_drive_iops": d,
        "ceilings": tuple(alone),
        "binding": _argmin(alone),
        "components": tuple(c.name for c in comps),
    }


def _argmin(arrays) -> np.ndarray:
    """Index of the smallest array, elementwise; first wins ties. Faster than stacking + argmin."""
    shape = np.broadcast_shapes(*(np.shape(a) for a in arrays))
    best = np.broadcast_to(arrays[0], shape)
    index = np.zeros(shape, dtype=np.int8)
    for k, a in enumerate(arrays[1:], start=1):
        if np.ndim(a) == 0 and not np.isfinite(a):
            continue  # an absent component never binds
        lower = a < best
        if lower.any():
            index[lower] = k
            best = np.where(lower, a, best)
    return index
