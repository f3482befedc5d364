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

__all__ = ["COMPONENTS", "COMPONENT_LABELS", "Levels", "evaluate_parameters", "evaluate_prepared"]


def evaluate_parameters(p: Mapping[str, object], drives, *, alone: bool = True) -> dict[str, object]:
    """Evaluate the kernel on a flat parameter mapping (:meth:`Topology.parameters`, or arrays of it).

    Returns a dict with ``iops`` (system IOPS ceiling), ``per_drive_iops`` (a drive's own ceiling
    before shared limits), ``binding`` (int8 index into ``components``), ``components`` (the names, in
    tie-break order) and, with ``alone=True``, ``ceilings`` (a tuple in that order of arrays
    broadcastable to the result: each component alone, IOPS).
    """
    return evaluate_prepared(prepare(p), drives, alone=alone)


def _is_inf(x) -> bool:
    return isinstance(x, float) and x == _INF


_INF = float("inf")


class Levels:
    """Per configuration, the tightest limit at each level and which component sets it.

    Independent of the drive count, so it is computed once per configuration: ``drive`` (per drive),
    ``group`` (per switch) and ``system``, each with the index of its component (``*_index``, int8;
    ``-1`` where no component limits that level).
    """

    __slots__ = ("components", "limits", "drive", "drive_index", "group", "group_index", "system",
                 "system_index", "switches")

    def __init__(self, p: Mapping[str, np.ndarray]) -> None:
        comps = components()
        self.components = tuple(c.name for c in comps)
        self.limits = [c.limit(p) for c in comps]
        self.switches = p["switch.count"]
        for level in ("drive", "group", "system"):
            best, index = _INF, -1
            for k, lim in enumerate(self.limits):
                x = getattr(lim, level)
                if _is_inf(x):
                    continue
                if _is_inf(best):
                    best, index = x, k
                else:  # strict: of equal limits the component nearer the drive (lower index) keeps it
                    lower = x < best
                    index = np.where(lower, k, index)
                    best = np.fmin(best, x)
            setattr(self, level, best)
            setattr(self, f"{level}_index", index)

    def local(self, n):
        """What the drives and switches deliver together: ``Σ_switches min(G, k_j · d)``, round-robin."""
        d, g = self.drive, self.group
        if _is_inf(g):
            return n * d
        m = self.switches
        q = np.floor(n / m)
        r = n - q * m
        return r * np.fmin(g, (q + 1) * d) + (m - r) * np.fmin(g, q * d)

    def total(self, n):
        """The system ceiling at ``n`` drives."""
        local = self.local(n)
        return local if _is_inf(self.system) else np.fmin(local, self.system)

    def binding(self, n) -> np.ndarray:
        """Index of the binding component at ``n`` drives: the smallest of the three level candidates
        ``n·d``, ``min(n, m)·G``, ``S`` (each the best of its level), ties to the lower index."""
        shape = np.broadcast_shapes(np.shape(n), np.shape(self.drive), np.shape(self.group), np.shape(self.system))
        best = np.full(shape, _INF)
        index = np.zeros(shape, dtype=np.int8)
        for value, k in ((lambda: n * self.drive, self.drive_index),
                         (lambda: np.fmin(n, self.switches) * self.group, self.group_index),
                         (lambda: self.system, self.system_index)):
            if np.all(np.asarray(k) < 0):
                continue
            x = value()
            better = (x < best) | ((x == best) & (k < index))
            index = np.where(better, k, index).astype(np.int8)
            best = np.where(better, x, best)
        return index

    def total_and_binding(self, n) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`total` and :meth:`binding` together, sharing ``n·d`` (the sweep's inner loop)."""
        nd = n * self.drive
        has_group = not _is_inf(self.group)
        local = self.local(n) if has_group else nd
        total = local if _is_inf(self.system) else np.fmin(local, self.system)
        index = np.broadcast_to(np.asarray(self.drive_index, dtype=np.int8), np.shape(total))
        best = nd
        if has_group:
            g_alone = np.fmin(n, self.switches) * self.group
            better = (g_alone < best) | ((g_alone == best) & (np.asarray(self.group_index) < index))
            index = np.where(better, np.int8(0) + np.asarray(self.group_index, dtype=np.int8), index)
            best = np.where(better, g_alone, best)
        if not _is_inf(self.system):
            ties = np.asarray(self.system_index) < index
            better = (self.system < best) | ((self.system == best) & ties)
            index = np.where(better, np.asarray(self.system_index, dtype=np.int8), index)
        return total, np.asarray(index, dtype=np.int8)

    def fill(self, n, total_out: np.ndarray, binding_out: np.ndarray) -> None:
        """:meth:`total_and_binding` written into preallocated arrays, in place where the topology allows
        (no switch level: ``n·d`` then one comparison with the system limit) — the sweep's inner loop."""
        if not _is_inf(self.group):
            total_out[...], binding_out[...] = self.total_and_binding(n)
            return
        np.multiply(n, self.drive, out=total_out)
        binding_out[...] = self.drive_index
        if _is_inf(self.system):
            return
        si, di = np.asarray(self.system_index), np.asarray(self.drive_index)
        if np.all(si > di):  # ties go to the drive level: the system binds only strictly below n·d
            wins = np.less(self.system, total_out)
        elif np.all(si < di):
            wins = np.less_equal(self.system, total_out)
        else:
            wins = np.less(self.system, total_out) | (np.equal(self.system, total_out) & (si < di))
        np.copyto(binding_out, np.broadcast_to(si, binding_out.shape).astype(np.int8, copy=False), where=wins)
        np.fmin(total_out, self.system, out=total_out)

    def alone(self, n) -> tuple:
        """Each component alone as a system ceiling: ``min(n·drive, min(n, m)·group, system)``."""
        used = np.fmin(n, self.switches)
        out = []
        for lim in self.limits:
            x = _INF
            if not _is_inf(lim.drive):
                x = n * lim.drive
            if not _is_inf(lim.group):
                x = np.fmin(x, used * lim.group)
            if not _is_inf(lim.system):
                x = np.fmin(x, lim.system)
            out.append(x)
        return tuple(out)


def evaluate_prepared(p: Mapping[str, np.ndarray], drives, *, alone: bool = True) -> dict[str, object]:
    """:func:`evaluate_parameters` on a mapping already passed through :func:`~nvmemodel.ceiling.derive.prepare`."""
    n = np.asarray(drives, dtype=float)
    lv = Levels(p)
    total, binding = lv.total_and_binding(n)
    out = {"iops": total, "per_drive_iops": lv.drive, "binding": binding, "components": lv.components}
    if alone:
        out["ceilings"] = lv.alone(n)
    return out
