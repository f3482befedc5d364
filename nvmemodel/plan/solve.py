"""The planner: every configuration of a design space against every target, block by block.

The space is walked in sub-grids (:meth:`~nvmemodel.plan.space.DesignSpace.blocks`) whose axes arrive as
arrays broadcastable to the block's shape, so each limit is computed once per combination of the axes it
depends on (a PCIe link on generation × connection × drive, not on the CPU axes). Per configuration and
workload the kernel's drive-count-independent limits come from
:class:`~nvmemodel.ceiling.system.Levels` (per drive ``d``, per switch ``G``, per complex and socket, system
``S``); as ``X(n) = min(local(n), S)``, the smallest drive count meeting a target follows from the
drive-side levels alone — in closed form ``⌈T / d⌉`` for direct attach, by bisection over the monotone
``local(n)`` behind switches or with a host tree — and ``S ≥ T`` decides the rest. Each block keeps only
the best feasible configurations and, per family of categorical choices, the closest miss, so memory
stays flat in the number of configurations.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping, Sequence

import numpy as np

from ..ceiling.derive import catalog_members, prepare, stack_cycles
from ..ceiling.host import qd1_latency_s
from ..ceiling.raid import min_drives as raid_min_drives
from ..ceiling.system import Levels, switched_local
from ..errors import ParameterError
from ..parameters import PARAMETERS, encode
from .space import CONNECTION, DesignSpace
from .targets import Target

__all__ = ["plan", "RANKS"]

#: Ranking criteria: name → (sort columns, ascending flags).
RANKS = {
    "drives": (["drives", "lanes", "min_headroom"], [True, True, False]),
    "lanes": (["lanes", "drives", "min_headroom"], [True, True, False]),
    "headroom": (["min_headroom", "drives"], [False, True]),
    "cost": (["cost", "drives", "min_headroom"], [True, True, False]),
}


def _chunk_common(space: DesignSpace, codes: Mapping[str, np.ndarray], base) -> dict:
    """The encoded (not yet prepared) parameters of one chunk of configurations: axes, connection, the
    fields of catalog models — everything but the workload."""
    p = dict(base)
    for name, arr in codes.items():
        if name == CONNECTION:
            model, lanes = space.connection_parts(arr)
            p["switch.model"] = model
            p["host.port_lanes"] = np.where(np.isnan(lanes), base["host.port_lanes"], lanes)
        else:
            p[name] = arr
    for prefix in ("drive", "switch"):
        if np.ndim(p[f"{prefix}.model"]) > 0:
            members = catalog_members(prefix, p[f"{prefix}.model"], base)
            p.update({k: v for k, v in members.items() if k not in codes})
    return p


def _chunk_parameters(space: DesignSpace, codes: Mapping[str, np.ndarray], common, target: Target):
    """The prepared kernel mapping of one chunk under one target's workload (axes win over the workload)."""
    p = dict(common)
    p.update({k: v for k, v in encode(target.workload.parameters()).items() if k not in codes})
    if space.base.host.cycles_per_io is None and "host.cycles_per_io" not in codes:
        p["host.cycles_per_io"] = stack_cycles(p["workload.io_stack"])
    return prepare(p)


def _constraints(p, max_bays):
    """Most drives each configuration can attach, and whether its switches fit the host lanes."""
    free_per_socket = p["host.lanes_per_socket"] - p["host.reserved_lanes_per_socket"]
    free = p["host.sockets"] * free_per_socket
    switched = np.asarray(p["attach.switch"]) > 0
    direct_max = p["host.sockets"] * np.floor(free_per_socket / p["host.port_lanes"])
    switch_max = p["switch.count"] * p["switch.ports"]
    max_n = np.where(switched, switch_max, direct_max)
    if max_bays is not None:
        max_n = np.fmin(max_n, max_bays)
    lanes_ok = ~switched | (p["switch.count"] * p["switch.up_lanes"] <= free)
    return max_n, lanes_ok, switched


def _min_drives(lv: Levels, need: float, max_n):
    """Smallest n in [1, max_n] at which the drives, switches and host tree deliver ``need`` (NaN where even
    max_n falls short), and what they deliver at max_n.

    The system-wide limits ``S`` do not depend on n (``X(n) = min(local(n), S)``): the caller compares them
    with ``need`` apart, so this works on the few axes the per-drive, per-switch and tree limits depend on.
    Direct attach has the closed form ``⌈need / d⌉``; behind switches or with a host tree, X(n) is
    non-decreasing in n and a bisection on the subset that can meet ``need`` finds the smallest n.
    """
    cap = lv.local(max_n)
    shape = np.broadcast_shapes(np.shape(cap), np.shape(lv.drive), np.shape(max_n))
    cap, mx = (np.broadcast_to(np.asarray(x, dtype=float), shape) for x in (cap, max_n))
    reach = cap >= need
    if lv.tree:  # placement decides k_j: bisection on the monotone local(n) itself
        lo, hi = np.ones(shape), mx.copy()
        while np.any(lo < hi):
            mid = np.floor((lo + hi) / 2)
            good = lv.local(mid) >= need
            hi = np.where(good, mid, hi)
            lo = np.where(good, lo, mid + 1)
        return np.where(reach, np.fmin(lo, mx), np.nan), cap
    d, g, m = (np.broadcast_to(np.asarray(x, dtype=float), shape).ravel() for x in (lv.drive, lv.group, lv.switches))
    with np.errstate(divide="ignore", invalid="ignore"):
        n = np.fmax(np.ceil(need / d), 1.0)
    n = np.where(switched_local(n, d, g, m) >= need, n, n + 1)  # the last ulp of the division
    sw = np.flatnonzero(np.isfinite(g) & reach.ravel())
    if sw.size:  # behind switches: bisection on the subset
        dd, gg, mm = d[sw], g[sw], m[sw]
        lo, hi = np.ones(sw.size), mx.ravel()[sw]
        while np.any(lo < hi):
            mid = np.floor((lo + hi) / 2)
            good = switched_local(mid, dd, gg, mm) >= need
            hi = np.where(good, mid, hi)
            lo = np.where(good, lo, mid + 1)
        n[sw] = lo
    return np.where(reach, np.fmin(n.reshape(shape), mx), np.nan), cap


def _at(lv: Levels, feasible, n_eval, n_min, max_n):
    """``(X, binding)`` at ``n_eval`` = ``n_min`` where feasible, else ``max_n``; a host tree's placement sums
    are taken at those two counts (on their own few axes) and selected, not recomputed per configuration."""
    if not lv.tree:
        return lv.total_and_binding(n_eval)
    parts = tuple(np.where(feasible, a, b) for a, b in zip(lv.parts(n_min), lv.parts(max_n)))
    return lv.total_and_binding(n_eval, parts=parts)


def _is_inf(x) -> bool:
    return isinstance(x, float) and x == np.inf


def _price(prices, key, codes, param_name):
    """Price per item for each configuration from a scalar or a {model: price} mapping."""
    value = prices.get(key, 0.0)
    if isinstance(value, Mapping):
        param = PARAMETERS[param_name]
        table = np.array([float(value.get(c, np.nan)) for c in param.allowed_choices()])
        return table[np.asarray(codes, dtype=int)]
    return float(value)


def plan(targets: Sequence[Target] | Target, space: DesignSpace, *, rank: str = "drives", margin: float = 0.0,
         prices: Mapping | None = None, keep: int = 1000, chunk: int = 1 << 16):
    """Configurations of ``space`` that meet every target, ranked, with the reasons the others fail.

    Parameters
    ----------
    targets : Target or sequence of Target
        One per workload (IOPS and/or bytes/s, optionally a latency bound).
    space : DesignSpace
        Base topology and axes of choices.
    rank : {"drives", "lanes", "headroom", "cost"}
        Order of the feasible configurations: fewest drives, fewest PCIe lanes, most headroom (the
        smallest over the targets), or lowest cost (needs ``prices``).
    margin : float
        Headroom required above every target (0.2 = 20 %).
    prices : mapping, optional
        ``{"drive": price or {model: price}, "switch": price or {model: price}, "socket": price}``.
    keep : int
        Feasible configurations kept (the best by ``rank``).
    chunk : int
        Configurations evaluated per chunk (memory is bounded by it).

    Returns
    -------
    Plan
    """
    from .result import Plan

    started = time.perf_counter()
    targets = [targets] if isinstance(targets, Target) else list(targets)
    if not targets:
        raise ParameterError("targets", targets, "at least one Target")
    if rank not in RANKS:
        raise ParameterError("rank", rank, f"one of {', '.join(RANKS)}")
    if rank == "cost" and not prices:
        raise ParameterError("rank", rank, "prices for rank='cost' (e.g. {'drive': 900, 'socket': 4000})")
    if not (0 <= margin < 10):
        raise ParameterError("margin", margin, "a fraction >= 0, e.g. 0.2 for 20 % headroom")
    if space.size == 0:
        raise ParameterError("space", space.axes, "a non-empty design space")
    seen: dict[str, Target] = {}
    for t in targets:
        if t.name in seen and seen[t.name] != t:
            raise ParameterError("targets", t.name, f"one target per workload; {t.name} is asked twice, differently "
                                 f"({seen[t.name].describe()} and {t.describe()})")
        seen[t.name] = t
    prices = dict(prices or {})
    base = encode(space.base.parameters(targets[0].workload))
    needs = [t.iops_needed for t in targets]

    kept, misses = [], {}
    evaluated = feasible_count = 0
    for index, shape, codes in space.blocks(chunk):
        # every array below broadcasts to `shape` and depends only on the axes it needs (space.blocks)
        evaluated += index.size
        common = _chunk_common(space, codes, base)
        ps = [_chunk_parameters(space, codes, common, t) for t in targets]
        max_n, lanes_ok, switched = _constraints(ps[0], space.max_drives)
        levels = [Levels(p) for p in ps]
        n_need, caps, all_ok = [], [], lanes_ok
        for lv, need in zip(levels, needs):
            n, local_cap = _min_drives(lv, need * (1 + margin), max_n)
            n_need.append(n)
            caps.append(local_cap if _is_inf(lv.system) else np.fmin(local_cap, lv.system))
            all_ok = all_ok & ~np.isnan(n) & (lv.system >= need * (1 + margin))
        n_min = functools.reduce(np.fmax, n_need)  # NaN where no workload is met; such rows are not feasible
        if "raid.level" in ps[0]:  # a RAID level needs its fewest drives (RAID-5: 3), whatever the targets
            fewest = raid_min_drives(ps[0]["raid.level"])
            n_min = np.fmax(n_min, fewest)
            all_ok = all_ok & (fewest <= max_n)
        n_min = np.fmin(n_min, max_n)
        latency_ok, latency_unknown = True, False
        for p, t in zip(ps, targets):
            if t.latency_s is None:
                continue
            r0 = qd1_latency_s(p["workload.block_size"], p["workload.read_fraction"], p)
            latency_unknown = latency_unknown | np.isnan(r0)
            latency_ok = latency_ok & (np.isnan(r0) | (r0 <= t.latency_s))
        feasible = np.broadcast_to(all_ok & latency_ok, shape)
        feasible_count += int(np.count_nonzero(feasible))

        n_eval = np.where(feasible, n_min, max_n)
        row = {"config": index.reshape(shape), "drives": n_eval, "max_drives": max_n, "feasible": feasible,
               "lanes": np.where(switched, ps[0]["switch.count"] * ps[0]["switch.up_lanes"],
                                 n_eval * ps[0]["host.port_lanes"]),
               "latency_checked": ~np.asarray(latency_unknown)}
        fractions = []
        for k, (lv, t, need) in enumerate(zip(levels, targets, needs)):
            x, b = _at(lv, feasible, n_eval, n_min, max_n)
            row[f"{t.name}|ceiling_iops"] = x
            row[f"{t.name}|binding"] = b
            with np.errstate(divide="ignore", invalid="ignore"):
                row[f"{t.name}|headroom"] = x / need - 1 if need > 0 else np.inf
                fractions.append(caps[k] / need if need > 0 else np.inf)
        row["min_headroom"] = functools.reduce(np.fmin, (row[f"{t.name}|headroom"] for t in targets))
        if prices:
            p0 = ps[0]
            row["cost"] = (n_eval * _price(prices, "drive", p0["drive.model"], "drive.model")
                           + np.where(switched, p0["switch.count"] * _price(prices, "switch", p0["switch.model"],
                                                                              "switch.model"), 0.0)
                           + p0["host.sockets"] * float(prices.get("socket", 0.0)))
        feasible = np.ascontiguousarray(feasible)
        if feasible.any():  # boolean indexing of the broadcast views: only the feasible rows are materialized
            kept.append(_best({k: np.broadcast_to(v, shape)[feasible] for k, v in row.items()}, rank, keep))
            if sum(part["config"].size for part in kept) > 4 * keep:  # the best `keep` so far: memory stays flat
                kept = [_best({k: np.concatenate([part[k] for part in kept]) for k in kept[0]}, rank, keep)]
        if not feasible.all():
            frac = np.stack([np.broadcast_to(f, shape).ravel() for f in fractions])
            _record_misses(misses, space, shape, codes, feasible.ravel(), row, frac,
                           np.broadcast_to(lanes_ok, shape).ravel(), np.broadcast_to(latency_ok, shape).ravel(),
                           targets)
    return Plan.build(space=space, targets=targets, rank=rank, margin=margin, kept=kept, misses=misses,
                      keep=keep, evaluated=evaluated, feasible=feasible_count,
                      seconds=time.perf_counter() - started, components=levels[0].components, prices=prices)


def _best(row: dict, rank: str, keep: int) -> dict:
    cols, asc = RANKS[rank]
    keys = [np.asarray(row[c]) if a else -np.asarray(row[c]) for c, a in zip(cols, asc)]
    order = np.lexsort(keys[::-1])[:keep]
    return {k: np.asarray(v)[order] for k, v in row.items()}


def _record_misses(misses, space, shape, codes, feasible, row, frac, lanes_ok, latency_ok, targets) -> None:
    """Per family of categorical choices, remember the configuration that came closest (the first of equals)."""
    keys = np.zeros(shape, dtype=np.int64)
    for name in space.categorical_axes:
        keys = keys * len(space.axes[name]) + (codes[name].astype(np.int64) if name == CONNECTION
                                               else _axis_position(space, name, codes[name]))
    sel = np.flatnonzero(~feasible)
    k = keys.ravel()[sel]
    closeness = np.where(lanes_ok[sel], frac[:, sel].min(axis=0), -1.0)
    order = np.lexsort((-closeness, k))  # stable: equals keep the order of their flat indices
    first = order[np.r_[True, k[order][1:] != k[order][:-1]]]
    for j in first:
        i = sel[j]
        best = misses.get(int(k[j]))
        if best is None or closeness[j] > best["closeness"]:
            w = int(frac[:, i].argmin())
            at = np.unravel_index(i, shape)
            misses[int(k[j])] = {
                "config": int(row["config"][at]), "closeness": float(closeness[j]), "lanes_ok": bool(lanes_ok[i]),
                "latency_ok": bool(latency_ok[i]), "workload": w,
                "binding": int(np.broadcast_to(row[f"{targets[w].name}|binding"], shape)[at]),
                "ceiling_iops": float(np.broadcast_to(row[f"{targets[w].name}|ceiling_iops"], shape)[at]),
                "max_drives": float(np.broadcast_to(row["max_drives"], shape)[at]),
            }


def _axis_position(space, name, codes) -> np.ndarray:
    """Position of each code among the axis's own choices (for family keys)."""
    param = PARAMETERS[name]
    axis_codes = [param.code(v) for v in space.axes[name]]
    lookup = np.zeros(max(axis_codes) + 1, dtype=np.int64)
    lookup[axis_codes] = np.arange(len(axis_codes))
    return lookup[codes.astype(np.int64)]
