"""Planning a mixed topology: the fewest drives, added in its order, that meet every target (docs/topologies.md).

A :class:`~nvmemodel.plan.space.DesignSpace` whose base is a :class:`~nvmemodel.topology.mixed.MixedTopology`
keeps its groups (drive models, counts, switches, sockets) and varies shared parameters on its axes (I/O stack,
CPU, host tree, layers above the links …). Per configuration the groups' composition is swept over every total
drive count, ``1 … max_drives`` in the topology's ``order`` (:func:`nvmemodel.sweep` of the groups' composition, the
same kernel as :func:`nvmemodel.evaluate`); the answer is the first count at which every target is met, which
exists because the curve is non-decreasing in that order. The result is a :class:`~nvmemodel.plan.result.Plan`
like the single-model planner's: ``drives`` counts drives of all groups, ``lanes`` the host lanes the groups
installed by then take (root ports, or the switches' uplinks of a group holding drives).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence

import numpy as np

from ..errors import ParameterError
from .rank import keep_best
from .result import Plan, _fmt
from .space import SPECIAL, DesignSpace, is_categorical
from .targets import Target

__all__ = ["plan_mixed"]

#: Axes a mixed base refuses: each group sets its own drive, switch and lanes; placement is one value.
_GROUP_OWNED = ("drive.", "switch.", "host.port_lanes")


def plan_mixed(targets: Sequence[Target], space: DesignSpace, *, rank: str = "drives", margin: float = 0.0,
               keep: int = 1000, merge_identical: bool = True, chunk: int = 4096) -> Plan:
    """:func:`nvmemodel.plan` for a design space whose base is a mixed topology (its groups are kept).

    Examples
    --------
    >>> import nvmemodel as nm
    >>> dell = nm.preset("dell-r7525")
    >>> mixed = nm.MixedTopology("two models", dell.host, (nm.DriveGroup("samsung-pm1733-u2", 8),
    ...     nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797", switch_count=2)),
    ...     extras=dict(dell.extras))
    >>> space = nm.DesignSpace(mixed, {"workload.io_stack": ["libaio", "spdk"]})
    >>> best = nm.plan(nm.Target(nm.Workload("read", "128K"), bytes_per_s=40e9), space).best
    >>> int(best["drives"]), best["128K read|binding"], round(float(best["128K read|ceiling"]) / 1e9, 1)
    (7, 'drive', 44.8)
    """
    from ..ceiling.evaluate import sweep

    started = time.perf_counter()
    topo = space.base
    for name in space.axes:
        if name in SPECIAL or name.startswith(_GROUP_OWNED):
            raise ParameterError("axes", name, "a shared parameter for a mixed topology (its groups set their "
                                 "drive, switch and lanes; change them on the DriveGroup)")
    if any(g.workload is not None for g in topo.groups):
        raise ParameterError("space.base", topo.name, "groups without workloads of their own (a target states the "
                             "workload every drive runs)")
    max_n = topo.max_drives if space.max_drives is None else min(space.max_drives, topo.max_drives)
    n = np.arange(2, max_n + 1, 2) if topo.mirror else np.arange(1, max_n + 1)  # a mirror: complete pairs
    lanes_at = _lanes(topo, n)
    lengths = [len(v) for v in space.axes.values()]
    needs = [t.iops_needed * (1 + margin) for t in targets]
    met, misses = [], {}
    evaluated = feasible = 0
    components: tuple = ()
    for index, _ in space.chunks(chunk):
        values = space.values_at(index)
        grid = {k: list(v) for k, v in values.items()}
        sweeps = [sweep(topo, t.workload, drives=n, grid=grid) for t in targets]
        components = sweeps[0].components
        configs = index.size
        evaluated += configs
        ok = [np.broadcast_to(s.iops, (configs, n.size)) >= need for s, need in zip(sweeps, needs)]
        reach = np.logical_and.reduce([o.any(axis=1) for o in ok])
        first = np.max([np.where(o.any(axis=1), np.argmax(o, axis=1), n.size - 1) for o in ok], axis=0)
        at = np.where(reach, first, n.size - 1)
        rows = np.arange(configs)
        row = {"config": index, "drives": n[at].astype(float), "lanes": lanes_at[at].astype(float)}
        fractions = []
        for t, s, need in zip(targets, sweeps, needs):
            x = np.broadcast_to(s.iops, (configs, n.size))[rows, at]
            row[f"{t.name}|ceiling_iops"] = x
            row[f"{t.name}|binding"] = s.binding_index[rows, at].astype(float)
            with np.errstate(divide="ignore", invalid="ignore"):
                row[f"{t.name}|headroom"] = x / need - 1 if need > 0 else np.full(configs, np.inf)
                fractions.append(np.broadcast_to(s.iops, (configs, n.size))[:, -1] / need if need > 0
                                 else np.full(configs, np.inf))
        row["min_headroom"] = np.min([row[f"{t.name}|headroom"] for t in targets], axis=0)
        feasible += int(reach.sum())
        if reach.any():
            met.append({k: np.asarray(v)[reach] for k, v in row.items()})
        for i in np.flatnonzero(~reach):
            frac = [f[i] for f in fractions]
            w = int(np.argmin(frac))
            key = _family(space, values, i)
            if key not in misses or frac[w] > misses[key][1]:
                misses[key] = (int(index[i]), float(frac[w]), w, float(row[f"{targets[w].name}|ceiling_iops"][i]),
                               int(row[f"{targets[w].name}|binding"][i]))
    rec = None
    if met:
        rec = {k: np.concatenate([m[k] for m in met]) for k in met[0]}
        rec = keep_best([rec], rank, keep, lengths, merged=merge_identical)
    plan = Plan.build(space=space, targets=targets, rank=rank, margin=margin, kept={"met": rec, "unverified": None},
                      misses={}, keep=keep, evaluated=evaluated, feasible=feasible, unverified=0,
                      seconds=time.perf_counter() - started, components=components, prices={},
                      merged=merge_identical)
    return dataclasses.replace(plan, rejected=_rejected(misses, space, targets, components, margin, max_n, topo))


def check_options(targets: Sequence[Target], prices: Mapping | None) -> None:
    """What the mixed planner does not take (yet): one clear error each."""
    if prices:
        raise ParameterError("prices", dict(prices), "no prices with a mixed topology (its drives and switches are "
                             "fixed by its groups)")
    for t in targets:
        if t.latency_s is not None:
            raise ParameterError("targets", t.describe(), "throughput targets only with a mixed topology (no "
                                 "latency bound)")


def _lanes(topo, n) -> np.ndarray:
    """Host PCIe lanes the groups take with ``n`` drives installed: a direct group's root ports per drive, a
    switched group's uplinks once it holds a drive."""
    k = topo.drives_per_group(n)
    out = np.zeros(n.size)
    for g, group in enumerate(topo.groups):
        if group.switch is None:
            out += k[g] * (group.lanes or topo.host.port_lanes)
        else:
            out += np.where(k[g] > 0, group.host_lanes(topo.host), 0)
    return out


def _family(space: DesignSpace, values: dict, i: int) -> tuple:
    return tuple(str(values[name][i]) for name in space.axes if is_categorical(name))


def _rejected(misses: dict, space, targets, components, margin, max_n, topo):
    """Per family of categorical choices that meets no target: the closest configuration and why it fails."""
    import pandas as pd

    from ..ceiling.components import COMPONENT_LABELS

    rows = []
    for config, frac, w, x, b in misses.values():
        t = targets[w]
        values = space.values_at(np.array([config]))
        row = {k: v[0] for k, v in values.items()}
        comp = components[b]
        reason = (f"{t.name} reaches at most {_fmt(t, x)} with all {max_n} drives of {topo.name!r} "
                  f"({COMPONENT_LABELS.get(comp, comp)} [{comp}] binds)" + (f"; the target has a {margin:.0%} margin"
                                                                              if margin else ""))
        row.update({"closest_fraction": frac, "missed": t.name, "reason": reason})
        rows.append(row)
    out = pd.DataFrame(rows)
    if len(out):
        out = out.sort_values("closest_fraction", ascending=False, kind="stable").reset_index(drop=True)
    return out
