"""The planner: every configuration of a design space against every target, chunk by chunk.

Per configuration and workload the kernel's drive-count-independent limits are computed once
(:class:`~nvmemodel.ceiling.system.Levels`: per drive ``d``, per switch ``G``, system ``S``); the
smallest drive count meeting a target then follows without evaluating every count — in closed form
``⌈T / d⌉`` for direct attach, by bisection over the (monotone) round-robin switch formula otherwise.
Each chunk keeps only the best feasible configurations and, per family of categorical choices, the
closest miss, so memory stays flat in the number of configurations.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import numpy as np

from ..ceiling.derive import catalog_members, prepare, stack_cycles
from ..ceiling.host import qd1_latency_s
from ..ceiling.raid import min_drives as raid_min_drives
from ..ceiling.system import Levels
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


def _total(d, g, s, m, n):
    """X(n) = min(Σ_switches min(G, k_j·d), S) with round-robin k_j — :meth:`Levels.total` on plain arrays."""
    q = np.floor(n / m)
    r = n - q * m
    return np.fmin(r * np.fmin(g, (q + 1) * d) + (m - r) * np.fmin(g, q * d), s)


def _min_drives(lv: Levels, need: float, max_n, size: int):
    """Smallest n in [1, max_n] with X(n) ≥ need (NaN where even max_n falls short), and X(max_n).

    Direct attach (no per-switch limit) has the closed form ``⌈need / d⌉``; configurations behind
    switches are solved by bisection over the monotone round-robin formula, on that subset only.
    """
    max_n = np.broadcast_to(np.asarray(max_n, dtype=float), (size,))
    if lv.tree:  # root complexes / sockets: placement decides k_j; bisection on the monotone X(n) itself
        return _min_drives_tree(lv, need, max_n, size)
    d, g, s, m = (np.broadcast_to(np.asarray(x, dtype=float), (size,)) for x in
                  (lv.drive, lv.group, lv.system, lv.switches))
    cap = _total(d, g, s, m, max_n)
    with np.errstate(divide="ignore", invalid="ignore"):
        n = np.fmax(np.ceil(need / d), 1.0)
    n = np.where(_total(d, g, s, m, n) >= need, n, n + 1)  # the last ulp of the division
    sw = np.flatnonzero(np.isfinite(g) & (cap >= need))
    if sw.size:  # behind switches: bisection on the subset
        dd, gg, ss, mm = d[sw], g[sw], s[sw], m[sw]
        lo, hi = np.ones(sw.size), max_n[sw].copy()
        while np.any(lo < hi):
            mid = np.floor((lo + hi) / 2)
            good = _total(dd, gg, ss, mm, mid) >= need
            hi = np.where(good, mid, hi)
            lo = np.where(good, lo, mid + 1)
        n = n.copy()
        n[sw] = lo
    return np.where(cap >= need, np.fmin(n, max_n), np.nan), cap


def _min_drives_tree(lv: Levels, need: float, max_n, size: int):
    """:func:`_min_drives` for a host tree (docs/physics.md §12.1): X(n) is non-decreasing for both
    placements, so a bisection over all configurations of the chunk at once finds the smallest n."""
    cap = np.broadcast_to(lv.total(max_n), (size,))
    lo, hi = np.ones(size), max_n.copy()
    while np.any(lo < hi):
        mid = np.floor((lo + hi) / 2)
        good = np.broadcast_to(lv.total(mid), (size,)) >= need
        hi = np.where(good, mid, hi)
        lo = np.where(good, lo, mid + 1)
    return np.where(cap >= need, np.fmin(lo, max_n), np.nan), cap


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
    for index, codes in space.chunks(chunk):
        evaluated += index.size
        common = _chunk_common(space, codes, base)
        ps = [_chunk_parameters(space, codes, common, t) for t in targets]
        max_n, lanes_ok, switched = (np.broadcast_to(x, index.shape)
                                     for x in _constraints(ps[0], space.max_drives))
        levels = [Levels(p) for p in ps]
        n_need, caps = [], []
        for lv, need in zip(levels, needs):
            n, cap = _min_drives(lv, need * (1 + margin), max_n, index.size)
            n_need.append(n)
            caps.append(cap)
        n_min = np.fmax.reduce(np.vstack(n_need), axis=0)
        all_ok = lanes_ok & ~np.any(np.isnan(np.vstack(n_need)), axis=0)
        if "raid.level" in ps[0]:  # a RAID level needs its fewest drives (RAID-5: 3), whatever the targets
            fewest = np.broadcast_to(raid_min_drives(ps[0]["raid.level"]), index.shape)
            n_min = np.fmax(n_min, fewest)
            all_ok = all_ok & (fewest <= max_n)
        latency_ok = np.ones(index.size, dtype=bool)
        latency_unknown = np.zeros(index.size, dtype=bool)
        for p, t in zip(ps, targets):
            if t.latency_s is None:
                continue
            r0 = np.broadcast_to(qd1_latency_s(p["workload.block_size"], p["workload.read_fraction"], p), index.shape)
            latency_unknown |= np.isnan(r0)
            latency_ok &= np.isnan(r0) | (r0 <= t.latency_s)
        feasible = all_ok & latency_ok
        feasible_count += int(feasible.sum())

        n_eval = np.where(feasible, n_min, max_n)
        row = {"config": index, "drives": n_eval, "max_drives": max_n, "feasible": feasible,
               "lanes": np.where(switched, ps[0]["switch.count"] * ps[0]["switch.up_lanes"],
                                 n_eval * ps[0]["host.port_lanes"]) * np.ones(index.size),
               "latency_checked": ~latency_unknown}
        fractions = []
        for k, (lv, t, need) in enumerate(zip(levels, targets, needs)):
            x = np.broadcast_to(lv.total(n_eval), index.shape)
            b = np.broadcast_to(lv.binding(n_eval), index.shape)
            row[f"{t.name}|ceiling_iops"] = x
            row[f"{t.name}|binding"] = b
            with np.errstate(divide="ignore", invalid="ignore"):
                row[f"{t.name}|headroom"] = x / need - 1 if need > 0 else np.full(index.shape, np.inf)
                fractions.append(np.broadcast_to(caps[k], index.shape) / need if need > 0
                                 else np.full(index.shape, np.inf))
        heads = np.vstack([row[f"{t.name}|headroom"] for t in targets])
        row["min_headroom"] = heads.min(axis=0)
        if prices:
            p0 = ps[0]
            row["cost"] = (n_eval * _price(prices, "drive", p0["drive.model"], "drive.model")
                           + np.where(switched, p0["switch.count"] * _price(prices, "switch", p0["switch.model"],
                                                                              "switch.model"), 0.0)
                           + p0["host.sockets"] * float(prices.get("socket", 0.0))) * np.ones(index.size)
        if feasible.any():
            kept.append(_best({k: np.asarray(v)[feasible] for k, v in row.items()}, rank, keep))
        if (~feasible).any():
            frac = np.vstack(fractions)
            worst = frac.argmin(axis=0)
            _record_misses(misses, space, index, codes, feasible, row, frac, worst, lanes_ok, latency_ok, targets)
    return Plan.build(space=space, targets=targets, rank=rank, margin=margin, kept=kept, misses=misses,
                      keep=keep, evaluated=evaluated, feasible=feasible_count,
                      seconds=time.perf_counter() - started, components=levels[0].components, prices=prices)


def _best(row: dict, rank: str, keep: int) -> dict:
    cols, asc = RANKS[rank]
    keys = [np.asarray(row[c]) if a else -np.asarray(row[c]) for c, a in zip(cols, asc)]
    order = np.lexsort(keys[::-1])[:keep]
    return {k: np.asarray(v)[order] for k, v in row.items()}


def _record_misses(misses, space, index, codes, feasible, row, frac, worst, lanes_ok, latency_ok, targets) -> None:
    """Per family of categorical choices, remember the configuration that came closest."""
    fam_axes = space.categorical_axes
    keys = np.zeros(index.size, dtype=np.int64)
    for name in fam_axes:
        keys = keys * len(space.axes[name]) + (codes[name].astype(np.int64) if name == CONNECTION
                                               else _axis_position(space, name, codes[name]))
    closeness = np.where(lanes_ok, frac.min(axis=0), -1.0)
    for key in np.unique(keys[~feasible]):
        sel = np.flatnonzero((keys == key) & ~feasible)
        i = sel[np.argmax(closeness[sel])]
        best = misses.get(int(key))
        if best is None or closeness[i] > best["closeness"]:
            w = int(worst[i])
            misses[int(key)] = {
                "config": int(index[i]), "closeness": float(closeness[i]), "lanes_ok": bool(lanes_ok[i]),
                "latency_ok": bool(latency_ok[i]), "workload": w,
                "binding": int(row[f"{targets[w].name}|binding"][i]),
                "ceiling_iops": float(row[f"{targets[w].name}|ceiling_iops"][i]),
                "max_drives": float(row["max_drives"][i]),
            }


def _axis_position(space, name, codes) -> np.ndarray:
    """Position of each code among the axis's own choices (for family keys)."""
    param = PARAMETERS[name]
    axis_codes = [param.code(v) for v in space.axes[name]]
    lookup = np.zeros(max(axis_codes) + 1, dtype=np.int64)
    lookup[axis_codes] = np.arange(len(axis_codes))
    return lookup[codes.astype(np.int64)]
