"""The fewest drives of a mixed topology's groups, for the planner's walk (:func:`nvmemodel.plan.solve.plan`).

A design space whose base is a :class:`~nvmemodel.topology.mixed.MixedTopology` is planned by the same walk,
ranking, merging and record of misses as one drive model; only a block's search differs: each target's curve over
every total drive count in the topology's ``order`` (:func:`nvmemodel.sweep`), the first count meeting every target,
and for a latency bound each group's Little's-law latency at the I/O it delivers (:func:`nvmemodel.evaluate`'s
``group_iops``), averaged over the I/Os (docs/planning.md, "Mixed topologies").
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import numpy as np

from ..ceiling.derive import prepare
from ..ceiling.group_parameters import GROUP_OWNED
from ..ceiling.placement import drives_per_group, switch_host
from ..ceiling.tree import _PLACEMENT
from ..errors import ParameterError
from ..parameters import encode
from .block import Block
from .latency import latency_at, outstanding
from .prices import check_prices
from .space import CONNECTION, HOST, DesignSpace
from .targets import Target

__all__ = ["MixedSearch"]



class MixedSearch:
    """A design space whose base is a :class:`~nvmemodel.topology.mixed.MixedTopology`: its groups (drive models,
    counts, switches, sockets) kept, shared parameters on the axes. Per configuration the groups' composition is
    swept over every total drive count ``1 … max_drives`` in the topology's ``order`` (:func:`nvmemodel.sweep`, the
    kernel of :func:`nvmemodel.evaluate`; a mirror: complete pairs), and the answer is the first count at which every
    target is met — it exists because the curve is non-decreasing in that order. ``drives`` counts the drives of all
    groups, ``lanes`` the host lanes the groups installed by then take (root ports, or the uplinks of the switches
    that hold a drive), ``cost`` each group's drives at its model's price and those switches."""

    def __init__(self, space: DesignSpace, targets, prices) -> None:
        topo = self.topo = space.base
        for name in space.axes:
            if name == CONNECTION or name.startswith(GROUP_OWNED):
                raise ParameterError("axes", name, "a shared parameter for a mixed topology (its groups set their "
                                     "drive, switch and lanes; change them on the DriveGroup)")
            if name == HOST or name in _PLACEMENT:
                raise ParameterError("axes", name, "a parameter other than the host and the placement of the groups "
                                     f"({', '.join(_PLACEMENT)}) for a mixed topology: one host and placement per "
                                     "plan (build the MixedTopology on each, e.g. on nm.get_host(NAME), and plan each)")
        if any(g.workload is not None for g in topo.groups):
            raise ParameterError("space.base", topo.name, "groups without workloads of their own (a target states "
                                 "the workload every drive runs)")
        for t in targets:
            if t.latency_s is not None and topo.mirror:
                raise ParameterError("targets", t.describe(), "throughput targets only with a mirror across groups "
                                     "(no latency bound: md's read balancing sets which member a read waits for)")
            if t.latency_s is not None and not t.workload.per_drive:
                raise ParameterError("targets", t.describe(), "a latency bound on per-drive queues with a mixed "
                                     "topology (workload per_drive=True: how one system-wide queue splits over the "
                                     "groups is not modelled)")
        self.space, self.targets = space, targets
        self.max_n = topo.max_drives if space.max_drives is None else min(space.max_drives, topo.max_drives)
        self.n = np.arange(2, self.max_n + 1, 2) if topo.mirror else np.arange(1, self.max_n + 1)
        if not self.n.size:
            raise ParameterError("max_drives", space.max_drives, "at least 2 for a mirror across groups (its drives "
                                 "come in complete pairs)")
        self.max_n = int(self.n[-1])  # a mirror: the most drives in complete pairs
        k = drives_per_group(topo, self.n)
        used = self._switches_used(k)
        self.lanes = np.zeros(self.n.size)
        for g, group in enumerate(topo.groups):
            if group.switch is None:
                self.lanes += k[g] * (group.lanes or topo.host.port_lanes)
            else:
                self.lanes += np.where(used[g], group.host_lanes(topo.host), 0)
        wl = targets[0].workload
        drives = [topo.group_topology(g).parameters(wl)["drive.model"] for g in range(len(topo.groups))]
        switches = [None if group.switch is None else topo.group_topology(g).parameters(wl)["switch.model"]
                    for g, group in enumerate(topo.groups)]
        self.prices = check_prices(dict(prices or {}), space, {}, models={
            "drive": list(dict.fromkeys(drives)), "switch": list(dict.fromkeys(s for s in switches if s))})
        self.cost = {}
        if self.prices:
            def price(kind, model):  # checked: a mapping prices every model used
                value = self.prices.get(kind, 0.0)
                return value[model] if isinstance(value, Mapping) else value

            self.cost["cost.drives"] = sum(k[g] * price("drive", m) for g, m in enumerate(drives))
            self.cost["cost.switches"] = np.zeros(self.n.size) + sum(
                np.where(used[g], group.switch_count * price("switch", switches[g]), 0.0)
                for g, group in enumerate(topo.groups) if group.switch is not None)
            self.cost["cost.sockets"] = np.full(self.n.size, topo.host.sockets * float(self.prices.get("socket", 0.0)))
            self.cost["cost"] = self.cost["cost.drives"] + self.cost["cost.switches"] + self.cost["cost.sockets"]

    def _switches_used(self, k: np.ndarray) -> np.ndarray:
        """Per group and drive count: whether the group's own switches hold a drive (its or a sharing group's)."""
        used = k > 0
        for g in range(len(self.topo.groups)):
            owner = switch_host(self.topo, g)
            if owner is not None:
                used[owner] |= k[g] > 0
        return used

    def block(self, index, shape, allowed, margin) -> Block:
        """One block of configurations: every target's curve over the drive counts, the first count meeting all."""
        from ..ceiling.evaluate import sweep

        n, configs, rows = self.n, index.size, np.arange(index.size)
        grid = {k: list(v) for k, v in self.space.values_at(index).items()}
        row = {"config": index}
        fractions, curves, components = [], [], ()
        for t in self.targets:
            s = sweep(self.topo, t.workload, drives=n, grid=grid)
            curves.append((np.broadcast_to(s.iops, (configs, n.size)), np.broadcast_to(s.binding_index, (configs, n.size))))
            components = s.components
        needs = [t.iops_needed for t in self.targets]  # headroom is over the target; the margin is asked of it
        ok = [x >= need * (1 + margin) for (x, _), need in zip(curves, needs)]
        reach = np.logical_and.reduce([o.any(axis=1) for o in ok])
        first = np.max([np.where(o.any(axis=1), np.argmax(o, axis=1), n.size - 1) for o in ok], axis=0)
        at = np.where(reach, first, n.size - 1)  # the fewest drives meeting every target, else all of them
        latency = {t.name: self._latency(t, grid, np.flatnonzero(reach), x) for t, (x, _) in zip(self.targets, curves)
                   if t.latency_s is not None}  # where every throughput target can be met (else a miss by those)
        latency_fail, latency_known, latency_frac, lows = False, True, np.inf, {}
        if latency:  # the fewest drives meeting the throughput targets and no latency bound failed (met or unknown)
            fail = np.logical_or.reduce([(low > t.latency_s) | (r > t.latency_s) for t in self.targets
                                         if t.name in latency for r, low in [latency[t.name]]])
            good = np.logical_and.reduce(ok) & ~fail
            at = np.where(good.any(axis=1), np.argmax(good, axis=1), at)
            latency_fail = reach & ~good.any(axis=1)
            latency_known = np.logical_and.reduce([~np.isnan(r[rows, at]) for r, _ in latency.values()])
        row.update({"drives": n[at].astype(float), "lanes": self.lanes[at]})
        for t, (x, b), need in zip(self.targets, curves, needs):
            row[f"{t.name}|ceiling_iops"] = x[rows, at]
            row[f"{t.name}|binding"] = b[rows, at].astype(float)
            with np.errstate(divide="ignore", invalid="ignore"):
                row[f"{t.name}|headroom"] = x[rows, at] / need - 1 if need > 0 else np.full(configs, np.inf)
                fractions.append(x[:, -1] / need if need > 0 else np.full(configs, np.inf))
            if t.name in latency:
                r, low = (v[rows, at] for v in latency[t.name])
                row[f"{t.name}|latency_s"], lows[t.name] = r, low.reshape(shape)
                with np.errstate(divide="ignore"):  # (0 where not computed: a throughput miss, not read)
                    latency_frac = np.fmin(latency_frac, t.latency_s / np.fmax(r, low))  # < 1 where it fails
        row["min_headroom"] = functools.reduce(np.fmin, (row[f"{t.name}|headroom"] for t in self.targets))
        row.update({c: v[at] for c, v in self.cost.items()})
        throughput_ok = reach.reshape(shape) if allowed is None else reach.reshape(shape) & allowed
        return Block({c: v.reshape(shape) for c, v in row.items()}, throughput_ok, np.reshape(latency_fail, shape)
                      if latency else False, np.reshape(latency_known, shape) if latency else True,
                      [f.reshape(shape) for f in fractions], np.reshape(latency_frac, shape) if latency else np.inf,
                      True, None, float(self.max_n), lows, components)

    def _latency(self, target: Target, grid: dict, configs, x: np.ndarray):
        """``(R, N/X)`` of ``target`` at configurations ``configs`` (positions in the block; NaN and 0 elsewhere) and
        every drive count (arrays like ``x``, the curves' IOPS): each
        group's own Little's-law latency ``R_g = max(R0_g, N_g / X_g)`` (:func:`~nvmemodel.plan.latency.latency_at`
        with its drives' queues ``N_g`` and the I/O it delivers ``X_g``, :attr:`MixedCurve.group_iops`), averaged over
        the I/Os, ``R = Σ_g X_g R_g / X``; NaN where a group holding drives has no known QD1 latency. With one group
        this is the single-model planner's ``max(R0, N / X)``."""
        from ..ceiling.evaluate import evaluate

        n, topo = self.n, self.topo
        if "host.cycles_per_io" in grid:  # an axis's cycles per I/O hold on every stack, as in nm.sweep (a host
            topo = topo.replace(host=topo.host.replace(cycles_stack=""))  # calibrated on one would scale them)
        k = drives_per_group(topo, n)
        num, queued, known = np.zeros(x.shape), np.zeros(x.shape), np.ones(x.shape, dtype=bool)
        for i in configs:  # each configuration's split of the I/O over the groups (its curve)
            over = {name: v[i] for name, v in grid.items()}
            group_iops = evaluate(topo, target.workload, drives=n, overrides=over).group_iops
            for g in range(len(topo.groups)):
                t, wl = topo.group_topology(g).with_parameters(over, target.workload)
                p = prepare(encode(t.parameters(wl)))
                with np.errstate(divide="ignore", invalid="ignore"):
                    r, _ = latency_at(p, k[g], group_iops[g])
                used = k[g] > 0
                num[i] += np.where(used, group_iops[g] * np.where(np.isnan(r), 0.0, r), 0.0)
                queued[i] += outstanding(p, k[g])
                known[i] &= ~(used & np.isnan(r))
        known[np.setdiff1d(np.arange(x.shape[0]), configs)] = False
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(known, num / x, np.nan), queued / x
