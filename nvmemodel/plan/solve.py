"""The planner: every configuration of a design space against every target, block by block — for one drive model
or a mixed topology's groups alike (only how a block's fewest drives are found differs: :func:`_levels_block`,
:class:`~nvmemodel.plan.groups.MixedSearch`).

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
from typing import Any

import numpy as np

from ..ceiling.compose import compose
from ..ceiling.derive import catalog_members, prepare
from ..ceiling.gpu import switch_ports as gpu_switch_ports
from ..ceiling.raid import LEVELS as _RAID_LEVELS
from ..ceiling.raid import min_drives as raid_min_drives
from ..ceiling.system import Levels, pick, switched_local
from ..ceiling.tree import _PLACEMENT
from ..errors import ParameterError
from ..parameters import PARAMETERS, encode
from .block import Block
from .groups import MixedSearch
from .latency import latency_at
from .misses import _closest_per_family, family_keys, record_misses  # noqa: F401 (tests read solve's)
from .prices import check_prices, item_price, socket_price
from .rank import RANKS, evidence_codes, keep_best
from .result import Plan
from .space import CONNECTION, HOST, DesignSpace
from .targets import Target

_RAID_NONE = _RAID_LEVELS.index("none")

#: Configurations per block by default (:func:`plan`'s ``chunk``): each block costs a few milliseconds of Python per
#: target whatever its size, so fewer, larger blocks are faster (1.3 M configurations x 5 workloads: 27 blocks of
#: 65,536 took 15 % more CPU than 14 of 131,072), at the price of a block's temporaries (peak traced 18 → 35 MiB).
CHUNK = 1 << 17

__all__ = ["RANKS", "plan"]


def _chunk_common(space: DesignSpace, codes: Mapping[str, np.ndarray], base) -> dict:
    """The encoded (not yet prepared) parameters of one chunk of configurations: axes, connection, the
    fields of catalog models — everything but the workload."""
    p = dict(base)
    if HOST in codes:  # first: any other axis (host.sockets, connection's port width …) wins over the host's value
        p.update({k: v for k, v in space.host_parts(codes[HOST]).items() if k not in codes})
    for name, arr in codes.items():
        if name == HOST:
            continue
        if name == CONNECTION:
            model, lanes = space.connection_parts(arr)
            p["switch.model"] = model
            p["host.port_lanes"] = np.where(np.isnan(lanes), base["host.port_lanes"], lanes)
        else:
            p[name] = arr
    if "host.sockets" in codes and HOST not in codes:  # the base host's lanes follow its socket count (with_sockets)
        p.update({k: v for k, v in _socket_lanes(space.base.host, codes["host.sockets"]).items() if k not in codes})
    for prefix in ("drive", "switch"):
        if np.ndim(p[f"{prefix}.model"]) > 0:
            members = catalog_members(prefix, p[f"{prefix}.model"], base)
            p.update({k: v for k, v in members.items() if k not in codes})
    return p


def _socket_lanes(host, sockets: np.ndarray) -> dict[str, np.ndarray]:
    """``host.lanes_per_socket`` and ``host.reserved_lanes_per_socket`` of ``host`` at each socket count: a
    catalog CPU's lanes follow the count, the chassis' drive lanes stay (:func:`nvmemodel.topology.host.with_sockets`)."""
    from ..topology.host import with_sockets

    arr = np.asarray(sockets, dtype=float)
    lanes, reserved = np.empty_like(arr), np.empty_like(arr)
    for s in np.unique(arr):
        h = with_sockets(host, int(s))
        lanes[arr == s], reserved[arr == s] = h.lanes_per_socket, h.reserved_lanes_per_socket
    return {"host.lanes_per_socket": lanes, "host.reserved_lanes_per_socket": reserved}


def _chunk_parameters(space: DesignSpace, codes: Mapping[str, np.ndarray], common, target: Target):
    """The prepared kernel mapping of one chunk under one target's workload (axes win over the workload)."""
    p = dict(common)
    p.update({k: v for k, v in encode(target.workload.parameters()).items() if k not in codes})
    if "host.cycles_per_io" in codes:
        return prepare(p)
    if HOST in codes:  # each CPU's own cycles per I/O by stack (with_host keeps a calibration only for its own CPU)
        table = _host_cycles(space)
        p["host.cycles_per_io"] = table[np.asarray(codes[HOST], dtype=int), np.asarray(p["workload.io_stack"], dtype=int)]
    elif (cycles := space.base.host.cycles_by_stack(p["workload.io_stack"])) is not None:
        p["host.cycles_per_io"] = cycles
    return prepare(p)


def _host_cycles(space: DesignSpace) -> np.ndarray:
    """(host choice × I/O stack code) → cycles per I/O of that CPU on that stack, kept on the space."""
    table = getattr(space, "_host_cycles", None)
    if table is None:
        from ..topology.host import IoStack, host_from_text, with_host

        stacks = [IoStack(s) for s in PARAMETERS["workload.io_stack"].choices]
        hosts = [with_host(space.base, host_from_text(v)).host for v in space.axes[HOST]]
        table = np.array([[h.cycles_for(s) for s in stacks] for h in hosts])
        object.__setattr__(space, "_host_cycles", table)
    return table


def _constraints(p, max_bays):
    """Most drives each configuration can attach, and whether its switches fit the host lanes."""
    free_per_socket = p["host.lanes_per_socket"] - p["host.reserved_lanes_per_socket"]
    free = p["host.sockets"] * free_per_socket
    switched = np.asarray(p["attach.switch"]) > 0
    direct_max = p["host.sockets"] * np.floor(free_per_socket / p["host.port_lanes"])
    # GPUs behind the switches take downstream ports (gpu.attach=switch): as Topology.max_drives counts them
    switch_max = p["switch.count"] * np.fmax(p["switch.ports"] - gpu_switch_ports(p), 0.0)
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
    non-decreasing in n and a bisection on the subset that can meet ``need`` finds the smallest n (with a host
    tree on few configurations: the first of the sums at every drive count, :func:`_stacked_parts`, which are
    returned too; else None).
    """
    stacked = _stacked_parts(lv, max_n) if lv.tree else None
    if stacked is not None:  # every drive count at once (0, 1, …): the first that meets the need
        shape = np.broadcast_shapes(stacked[0].shape[1:], np.shape(lv.drive), np.shape(max_n))
        local = np.broadcast_to(stacked[0], (stacked[0].shape[0], *shape))
        mx = _expand(np.asarray(max_n, dtype=float), shape)
        cap = _gather((local,), mx)[0]
        # the first count that meets the need, on the sums' own few axes (and the need's), broadcast after
        first = (stacked[0][1:] >= need).argmax(axis=0) + 1.0
        return np.where(cap >= need, np.fmin(first, mx), np.nan), cap, stacked
    cap = lv.local(max_n)
    shape = np.broadcast_shapes(np.shape(cap), np.shape(lv.drive), np.shape(max_n))
    cap, mx = (np.broadcast_to(np.asarray(x, dtype=float), shape) for x in (cap, max_n))
    reach = cap >= need
    flat_need: Any = need if np.ndim(need) == 0 else np.broadcast_to(need, shape).ravel()  # (a float or an array)
    lo: np.ndarray  # the bisection's lower ends
    if lv.tree:  # placement decides k_j: bisection on the monotone local(n) itself
        lo, hi = np.ones(shape), mx.copy()
        while np.any(lo < hi):
            mid = np.floor((lo + hi) / 2)
            good = lv.local(mid) >= need
            hi = np.where(good, mid, hi)
            lo = np.where(good, lo, mid + 1)
        return np.where(reach, np.fmin(lo, mx), np.nan), cap, None
    d, g, m = (np.broadcast_to(np.asarray(x, dtype=float), shape).ravel() for x in (lv.drive, lv.group, lv.switches))
    with np.errstate(divide="ignore", invalid="ignore"):
        n = np.fmax(np.ceil(flat_need / d), 1.0)
    n = np.where(switched_local(n, d, g, m) >= flat_need, n, n + 1)  # the last ulp of the division
    sw = np.flatnonzero(np.isfinite(g) & reach.ravel())
    if sw.size:  # behind switches: bisection on the subset
        dd, gg, mm = d[sw], g[sw], m[sw]
        nn = flat_need if np.ndim(flat_need) == 0 else flat_need[sw]
        lo, hi = np.ones(sw.size), mx.ravel()[sw]
        while np.any(lo < hi):
            mid = np.floor((lo + hi) / 2)
            good = switched_local(mid, dd, gg, mm) >= nn
            hi = np.where(good, mid, hi)
            lo = np.where(good, lo, mid + 1)
        n[sw] = lo
    return np.where(reach, np.fmin(n.reshape(shape), mx), np.nan), cap, None


def _at(lv: Levels, feasible, n_eval, n_min, max_n, stacked=None, index: dict | None = None):
    """``(X, binding)`` at ``n_eval`` = ``n_min`` where feasible, else ``max_n``: the composition of the block's one
    group (:func:`~nvmemodel.ceiling.compose.compose`, as for every topology), one drive count per configuration; a
    host tree's placement sums are taken at those two counts (on their own few axes) and selected, not recomputed
    per configuration. Where the sums are ``stacked`` at every count, the levels under the system limit are also
    picked there (:meth:`~nvmemodel.ceiling.system.Levels.below_system`) and only the tree's total and that pick
    gathered per configuration — and where one component sets the system limit everywhere, the pick against it as a
    threshold made there too (:func:`_system_threshold`); ``index``: :func:`_gather`'s flat indices, shared by a
    block's targets."""
    parts = below = None
    if not lv.tree:
        pass
    elif stacked is not None:  # taken from the sums at every drive count (_min_drives), at n_eval: the same
        n = np.broadcast_to(n_eval, np.shape(feasible))  # elements as selecting per configuration
        counts = np.arange(0.0, stacked[0].shape[0]).reshape((-1,) + (1,) * (stacked[0].ndim - 1))
        picked = lv.below_system(counts, stacked)
        if picked is None:
            parts = _gather(stacked, n, index)
        elif (threshold := _system_threshold(lv, picked)) is not None:
            local, below_at, code = _gather((stacked[0], *threshold), n, index)
            total = local if _is_inf(lv.system) else np.fmin(local, lv.system)
            np.copyto(code, lv.system_index, where=np.less(lv.system, below_at))
            return total, code
        else:  # the levels under the system limit picked at every count on the sums' few axes, then gathered
            local, value, code = _gather((stacked[0], *picked), n, index)
            parts, below = (local, None, None, None), (value, code)
    else:
        parts = tuple(np.where(feasible, a, b) for a, b in zip(lv.parts(n_min), lv.parts(max_n)))
    out = compose((lv,), _one_group(n_eval), groups=False, parts=parts, below=below)
    return out["iops"], out["binding"]


def _system_threshold(lv: Levels, picked: tuple) -> tuple | None:
    """:meth:`~nvmemodel.ceiling.system.Levels.total_and_binding`'s pick of the system limit against the levels
    under it (``picked``, at every drive count on the sums' few axes), made there as a threshold: ``(t, index)`` such
    that per configuration the binding is the system's component where ``system < t``, else ``index`` — the same
    index bit for bit as the pick over the whole block (one comparison and one copy per configuration in place of a
    dozen). ``None`` where the system's component varies over the configurations (or is absent), or a tie at an
    infinite level would need ``<=``.

    The pick (:func:`~nvmemodel.ceiling.system.pick`) takes ``(value, index)`` pairs in order, the first from
    ``(inf, 0)``: the levels' pair becomes ``(b, i)``, then the system wins where ``S < b``, or ``S == b`` with its
    index ``s < i``; for finite ``b`` that is ``S < nextafter(b, inf)`` where ``s < i``, ``S < b`` elsewhere (a NaN
    ``S`` never wins either way)."""
    s = lv.system_index
    if type(s) is not int or s < 0:
        return None
    b, i = pick(((picked[0], picked[1]),), np.broadcast_shapes(np.shape(picked[0]), np.shape(picked[1])))
    tie_wins = s < i
    if np.any(tie_wins & np.isinf(b)):
        return None
    return np.where(tie_wins, np.nextafter(b, np.inf), b), i


def _one_group(n) -> np.ndarray:
    """Drive counts of any shape (one per configuration) as :func:`~nvmemodel.ceiling.compose.compose`'s ``k`` of
    one group: ``(1, *shape)``, a single count as it is."""
    n = np.asarray(n, dtype=float)
    return n[None] if n.ndim else n


#: Most points (drive counts x configurations) a block's host-tree sums are taken at all at once (:func:`_stacked_parts`).
_STACKED_POINTS = 1 << 15


def _stacked_parts(lv: Levels, max_n) -> tuple | None:
    """:meth:`Levels.parts` at every drive count ``0 … max(mx)`` at once, the counts on a new first axis and each
    broadcast to ``(counts, *shape)`` — where that is at most :data:`_STACKED_POINTS` points (a block whose
    tree limits depend on few axes: one call in place of a bisection's half dozen and two more for :func:`_at`,
    each costing its Python overhead); ``None`` otherwise. The kernel computes each point with the same array
    expressions whatever the shape of the drive counts, so the sums are the bisection's bit for bit."""
    mx = np.asarray(max_n, dtype=float)
    if mx.size == 0 or not np.all((mx >= 0) & (mx == np.floor(mx))):
        return None
    top = int(np.max(mx))
    shape = np.broadcast_shapes(*(np.shape(x) for x in (mx, lv.drive, lv.group, lv.complex, lv.socket)),
                                *(np.shape(v) for k, v in lv.p.items() if k.startswith(("tree.", "host.sockets"))))
    if all(np.ndim(x) == 0 for x in (lv.drive, lv.group, lv.complex, lv.socket, lv.switches,
                                     *(lv.p[k] for k in _PLACEMENT))):
        # one host tree for every configuration (QA F26): its sums depend on the drive count alone; taken on a 1-D
        # count axis (Levels' "one configuration at many counts" path reads a count array as 1-D, so neither this
        # nor a bisection may pass it the block's shape), whatever the block's size: top + 1 points
        ones = (1,) * len(shape)
        return tuple(x if np.ndim(x) == 0 else np.reshape(x, (top + 1, *ones))
                     for x in lv.parts(np.arange(0.0, top + 1.0)))
    if (top + 1) * int(np.prod(shape)) > _STACKED_POINTS:
        return None
    n = np.arange(0.0, top + 1.0).reshape((top + 1,) + (1,) * len(shape))
    return tuple(x if np.ndim(x) == 0 else np.broadcast_to(x, (top + 1, *np.shape(x)[1:])) for x in lv.parts(n))


def _gather(xs: tuple, n, index: dict | None = None) -> tuple:
    """Each of ``xs`` (drive counts on its first axis, :func:`_stacked_parts`; a number as it is) at ``n`` drives per
    configuration, on the shape they and ``n`` broadcast to. ``index``: a dict kept by the caller across calls with
    the same ``n`` (a block's targets all read their sums at its one ``n_eval``), so each flat index is made once."""
    arrays = [x for x in xs if np.ndim(x)]
    if not arrays:
        return xs
    shape = np.broadcast_shapes(*(x.shape[1:] for x in arrays), np.shape(n))
    index = {} if index is None else index  # per shape of x's configuration axes (and the result's): each
    counts = index.get(shape)               # configuration's place in x's flat order at its count
    if counts is None:
        counts = index[shape] = np.broadcast_to(n, shape).astype(np.intp)
    for x in arrays:  # (one host tree: axes all of length 1, the counts alone)
        inner = x.shape[1:]
        if (inner, shape) not in index:
            size = int(np.prod(inner))
            flat = counts
            if size > 1:
                flat = counts * size
                flat += np.broadcast_to(np.arange(size).reshape(inner), shape)
            index[inner, shape] = flat
    return tuple(np.ascontiguousarray(x).reshape(-1).take(index[x.shape[1:], shape]) if np.ndim(x) else x for x in xs)


def _expand(x, shape: tuple):
    """``x`` (broadcastable to ``shape``) as a contiguous array of that shape, the same values: by repeats along its
    length-1 axes. A whole-block operation with an operand broadcast along inner axes runs numpy's inner loop a few
    elements at a time (the Dell space's system limit: up to 8x a contiguous operand's instructions); a number
    stays one."""
    shape = tuple(shape)
    if type(x) is not np.ndarray or x.shape == shape or np.broadcast_shapes(x.shape, shape) != shape:
        return x  # (not broadcastable to ``shape`` alone: left to the operation's own broadcasting)
    x = x.reshape((1,) * (len(shape) - x.ndim) + x.shape)
    for axis, (have, want) in enumerate(zip(x.shape, shape)):
        if have != want:
            x = np.repeat(x, want, axis=axis)
    return x


def _is_inf(x) -> bool:
    return isinstance(x, float) and x == np.inf


def _as_space(space) -> DesignSpace:
    """``space`` as a design space: a topology (single-model or mixed) or a preset name is one without axes (QA s25
    H33: was an AttributeError from inside the planner); anything else is one error naming the argument."""
    from ..topology.mixed import MixedTopology
    from ..topology.topology import Topology

    if isinstance(space, DesignSpace):
        return space
    if isinstance(space, str | Topology | MixedTopology):
        return DesignSpace(space, {})
    raise ParameterError("space", type(space).__name__, "a DesignSpace (nm.DesignSpace(topology, axes)), a "
                         "topology (nm.preset(...), a MixedTopology) or a preset name")


def plan(targets: Sequence[Target] | Target, space: DesignSpace | str, *, rank: str = "drives", margin: float = 0.0,
         prices: Mapping | None = None, keep: int = 1000, chunk: int = CHUNK, merge_identical: bool = True,
         costs: Any = None, profile: Any = None) -> Plan:
    """Configurations of ``space`` that meet every target, ranked, with the reasons the others fail.

    Parameters
    ----------
    targets : Target or sequence of Target
        One per workload (IOPS and/or bytes/s, optionally a latency bound).
    space : DesignSpace, Topology, MixedTopology or str
        Base topology and axes of choices. A :class:`~nvmemodel.topology.mixed.MixedTopology` base keeps its groups
        (the axes vary what they share; one host and placement) and each answer is the fewest drives added in its
        ``order`` that meet every target (docs/planning.md, "Mixed topologies"). A topology or a preset name
        is the space without axes, ``DesignSpace(space, {})``: the fewest drives of that system that meet them.
    rank : {"drives", "lanes", "headroom", "cost"}
        Order of the feasible configurations: fewest drives, fewest PCIe lanes, most headroom (the
        smallest over the targets), or lowest cost (needs ``prices``).
    margin : float
        Headroom required above every throughput target (0.2 = 20 %).
    prices : mapping, optional
        ``{"drive": price or {model: price}, "switch": price or {model: price}, "socket": price}``; the cost
        of a configuration is drives × drive price + switches × switch price (switched configurations) +
        sockets × socket price. A ``{model: price}`` mapping must price every model the space uses.
    keep : int
        Answers kept (the best by ``rank``; each a group of configurations with identical results).
    chunk : int
        Configurations evaluated per block (memory is bounded by it: about 35 MiB traced at the default
        :data:`CHUNK`, 131,072, for the 1.3 M-configuration space of ``benchmarks/bench_plan.py``).
    merge_identical : bool
        Merge configurations whose results (drives, lanes, cost, and per target the ceiling, binding and
        latency) are identical into one row listing the alternatives (default); False: one row each.
    costs, profile : optional
        CPU costs per I/O measured on the user's machine, charged to the base's host per I/O stack (and kept by a
        ``host`` axis): :func:`nvmemodel.hostcal.with_costs` (docs/hosts.md).

    Returns
    -------
    Plan
        ``frame``: the configurations that meet every target, latency included where a target bounds it;
        ``unverified``: those that meet every throughput target but whose latency cannot be computed (the
        drive's QD1 latency is unknown) — never counted as meeting the targets; ``rejected``: per family
        of categorical choices with neither, the closest configuration and why it fails.
    """
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
    if not (isinstance(keep, int | np.integer) and keep >= 1):
        raise ParameterError("keep", keep, "an integer >= 1")
    space = _as_space(space)
    if costs is not None or profile is not None:  # the base's host charged what was measured
        import dataclasses

        from ..hostcal.apply import with_costs
        from ..topology.presets import preset

        from ..hostcal.apply import describe_costs

        base = preset(space.base) if isinstance(space.base, str) else space.base
        space = dataclasses.replace(space, base=with_costs(base, costs=costs, profile=profile))
        object.__setattr__(space, "notes", (*space.notes, *(f"host CPU cost per I/O measured on your machine: {line}"
                                                            for line in describe_costs(space.base.host))))
    if space.size == 0:
        raise ParameterError("space", space.axes, "a non-empty design space")
    seen: dict[str, Target] = {}
    for t in targets:
        if t.name in seen and seen[t.name] != t:
            raise ParameterError("targets", t.name, f"one target per workload; {t.name} is asked twice, differently "
                                 f"({seen[t.name].describe()} and {t.describe()})")
        seen[t.name] = t
    from ..topology.mixed import MixedTopology

    mixed = MixedSearch(space, targets, prices) if isinstance(space.base, MixedTopology) else None  # its groups kept
    if mixed is None:
        raw = space.base.parameters(targets[0].workload)
        prices = check_prices(dict(prices or {}), space, raw)
        base = encode(raw)
    else:
        prices = mixed.prices
    lengths = [len(v) for v in space.axes.values()]
    evidence_key = evidence_codes(space, targets) if merge_identical else None  # answers resting on other evidence

    pools: dict[str, list] = {"met": [], "unverified": []}
    misses: dict = {}
    families_ok: set[int] = set()
    evaluated = feasible_count = unverified_count = 0
    for index, shape, codes in space.blocks(chunk):
        # every array below broadcasts to `shape` and depends only on the axes it needs (space.blocks)
        allowed = space.allowed(codes)  # False: a combination no CPU has (Gen5 on a Gen4 part), dropped (space.notes)
        evaluated += index.size if allowed is None else int(np.count_nonzero(np.broadcast_to(allowed, shape)))
        if mixed is None:
            blk = _levels_block(space, targets, index, shape, codes, base, allowed, margin, prices, evidence_key)
        else:
            blk = mixed.block(index, shape, allowed, margin)
        row, throughput_ok = blk.row, blk.throughput_ok
        candidate = throughput_ok & ~np.broadcast_to(blk.latency_fail, shape)
        met = np.ascontiguousarray(candidate & np.broadcast_to(blk.latency_known, shape))
        unverified = np.ascontiguousarray(candidate & ~met)
        feasible_count += int(np.count_nonzero(met))
        unverified_count += int(np.count_nonzero(unverified))
        for status, sel in (("met", met), ("unverified", unverified)):
            if sel.any():  # boolean indexing of the broadcast views: only the selected rows are materialized
                at = np.flatnonzero(sel)  # (whole-block columns: taken at the places found once, the same order)
                rows = {k: v.reshape(-1).take(at) if type(v) is np.ndarray and v.shape == shape and v.flags.c_contiguous
                        else np.broadcast_to(v, shape)[sel] for k, v in row.items()}
                pools[status].append(keep_best([rows], rank, keep if merge_identical else None, lengths,
                                               merged=merge_identical))
                if sum(part["config"].size for part in pools[status]) > 4 * keep:  # memory stays flat
                    pools[status] = [keep_best(pools[status], rank, keep, lengths, merged=merge_identical)]
        done = candidate if allowed is None else candidate | ~np.broadcast_to(allowed, shape)  # dropped: no miss
        answers = bool(space.categorical_axes) and candidate.any()
        if answers or not done.all():  # once a block, for the families answered and those that miss
            families = family_keys(space, shape, codes).ravel()
        if answers:
            families_ok.update(np.unique(families[candidate.ravel()]).tolist())
        if not done.all():
            # how close each configuration comes: its worst target's fraction, or, meeting every throughput target,
            # its latency's (reduced pairwise: a stack of every target's would be the block's size times theirs)
            closest = np.where(throughput_ok, np.broadcast_to(blk.latency_frac, shape),
                               functools.reduce(np.minimum, [np.broadcast_to(f, shape) for f in blk.fractions]))
            record_misses(misses, space, shape, families, done.ravel(), row, closest.ravel(), blk.fractions,
                          np.broadcast_to(blk.lanes_ok, shape).ravel(), throughput_ok.ravel(), targets, blk.slots,
                          blk.max_n, blk.lows)
        components = blk.components
        del blk, row  # not alive while the next block is computed (memory stays one block's)
    answered = feasible_count + unverified_count > 0
    # families with an answer still hold configurations that miss (one adapter where two meet it): their closest
    partial = {k: v for k, v in misses.items() if k in families_ok or (answered and not space.categorical_axes)}
    misses = {k: v for k, v in misses.items() if k not in partial}
    kept = {status: keep_best(parts, rank, keep, lengths, merged=merge_identical) if parts else None
            for status, parts in pools.items()}
    return Plan.build(space=space, targets=targets, rank=rank, margin=margin, kept=kept, misses=misses, partial=partial,
                      keep=keep, evaluated=evaluated, feasible=feasible_count, unverified=unverified_count,
                      seconds=time.perf_counter() - started, components=components, prices=prices,
                      merged=merge_identical, alone=None if mixed else functools.partial(_alone_at, space, targets, base))


def _levels_block(space, targets, index, shape, codes, base, allowed, margin, prices, evidence_key) -> Block:
    """A block of a single-model space: the fewest drives from the kernel's drive-count-independent limits
    (:func:`_min_drives`), then every target's ceiling, binding and latency there."""
    common = _chunk_common(space, codes, base)
    ps = [_chunk_parameters(space, codes, common, t) for t in targets]
    max_n, lanes_ok, switched = _constraints(ps[0], space.max_drives)
    levels = [Levels(p) for p in ps]
    for lv in levels:  # the system limit takes part in several whole-block operations: on the block's shape once
        lv.system = _expand(lv.system, shape)
    needs = [t.iops_needed for t in targets]
    n_need, caps, all_ok, system_ok, stacked = [], [], lanes_ok, True, []
    for lv, p, t, need in zip(levels, ps, targets, needs):
        need = need * (1 + margin)
        if t.latency_s is not None and not np.all(np.asarray(p["workload.per_drive"]) > 0):
            # a system-wide queue: R = N / X falls as drives are added; X >= N / L is one more IOPS need
            need = np.where(np.asarray(p["workload.per_drive"]) > 0, need,
                            np.fmax(need, p["workload.iodepth"] * p["workload.numjobs"] / t.latency_s))
        n, local_cap, sums = _min_drives(lv, need, max_n)
        stacked.append(sums)
        n_need.append(n)
        # (broadcast as it is: laying the drive side's cap out on the block first, _expand, took 4x as long)
        caps.append(local_cap if _is_inf(lv.system) else np.fmin(local_cap, lv.system))
        all_ok = all_ok & ~np.isnan(n)  # on the few axes of the drive side; the system's below, on the block's
        system_ok = system_ok & (lv.system >= need)
    all_ok = _expand(all_ok, np.shape(system_ok)) & system_ok
    n_min = functools.reduce(np.fmax, n_need)  # NaN where no workload is met; such rows are not feasible
    max_n = _expand(max_n, shape)  # (after the searches above, whose way depends on its axes)
    if "raid.level" in ps[0]:  # a RAID level needs its fewest drives (RAID-5: 3), whatever the targets
        fewest = raid_min_drives(ps[0]["raid.level"])
        n_min = np.fmax(n_min, fewest)
        all_ok = all_ok & (fewest <= max_n)
        # arrays of raid.width drives: only whole arrays exist (QA round 4, F31: "3 drives" of a RAID-5 of 4)
        has = (np.asarray(ps[0]["raid.level"]) != _RAID_NONE) & ("raid.width" in ps[0])
        if np.any(has):
            width = np.where(has, np.asarray(ps[0]["raid.width"], dtype=float), 1.0)
            n_min = np.where(has, np.ceil(n_min / width) * width, n_min)
            max_n = np.where(has, np.floor(max_n / width) * width, max_n)
            all_ok = all_ok & (~has | ((width >= fewest) & (n_min <= max_n)))
            # how close a miss comes: at the whole arrays' drives (none fitting: 0), not at the bays' count
            caps = [np.where(has, np.where(max_n > 0, np.fmin(lv.local(np.fmax(max_n, 1.0)), lv.system), 0.0), cap)
                    for lv, cap in zip(levels, caps)]
    n_min = np.fmin(n_min, max_n)
    throughput_ok = np.broadcast_to(all_ok if allowed is None else all_ok & allowed, shape)
    n_eval = np.where(throughput_ok, n_min, max_n)
    row = {"config": index.reshape(shape), "drives": n_eval,
           "lanes": np.where(switched, ps[0]["switch.count"] * ps[0]["switch.up_lanes"],
                             n_eval * ps[0]["host.port_lanes"])}
    if evidence_key is not None:  # not merged with an identical answer that rests on other evidence (QA5 G6)
        row["evidence"] = evidence_key(codes)
    fractions, lows = [], {}
    latency_fail, latency_known, latency_frac = False, True, np.inf
    flat: dict = {}  # the flat indices of n_eval in the tree's sums, made for the first target (_gather)
    for k, (lv, p, t, need) in enumerate(zip(levels, ps, targets, needs)):
        x, b = _at(lv, throughput_ok, n_eval, n_min, max_n, stacked[k], flat)
        row[f"{t.name}|ceiling_iops"] = x
        row[f"{t.name}|binding"] = b
        with np.errstate(divide="ignore", invalid="ignore"):
            if need > 0:
                headroom = x / need
                headroom -= 1  # (in place: one array less per target)
                row[f"{t.name}|headroom"] = headroom
            else:
                row[f"{t.name}|headroom"] = np.inf
            fractions.append(caps[k] / need if need > 0 else np.inf)
        if t.latency_s is not None:  # at the fewest drives (per-drive queues: the latency only grows after)
            r, low = latency_at(p, n_eval, x)
            row[f"{t.name}|latency_s"] = r
            lows[t.name] = low
            latency_frac = np.fmin(latency_frac, t.latency_s / np.fmax(r, low))  # < 1 where it fails
            latency_fail = latency_fail | (low > t.latency_s) | (r > t.latency_s)
            latency_known = latency_known & ~np.isnan(r)
    row["min_headroom"] = functools.reduce(np.fmin, (row[f"{t.name}|headroom"] for t in targets))
    if prices:
        p0 = ps[0]
        row["cost.drives"] = n_eval * item_price(prices, "drive", p0["drive.model"], "drive.model")
        row["cost.switches"] = np.where(switched, p0["switch.count"] * item_price(prices, "switch", p0["switch.model"],
                                                                                  "switch.model"), 0.0)
        row["cost.sockets"] = p0["host.sockets"] * socket_price(prices, space, codes)
        row["cost"] = row["cost.drives"] + row["cost.switches"] + row["cost.sockets"]
    return Block(row, throughput_ok, latency_fail, latency_known, fractions, latency_frac, lanes_ok, ps[0], max_n,
                  lows, levels[0].components)


def _alone_at(space: DesignSpace, targets, base, config, drives) -> list[tuple]:
    """Per target, every component alone (IOPS, :func:`~nvmemodel.ceiling.compose.compose`'s) at configurations ``config`` (flat indices) with
    ``drives`` drives each: what an answer's limits that do not bind leave (the planner's estimates, plan/evidence)."""
    lengths = [len(v) for v in space.axes.values()]
    coded = space._coded()
    idx = np.unravel_index(np.asarray(config, dtype=np.int64), lengths) if lengths else ()
    codes = {name: coded[name][i] for name, i in zip(space.axes, idx)}
    common = _chunk_common(space, codes, base)
    n = np.asarray(drives, dtype=float)
    return [tuple(np.broadcast_to(np.asarray(x, dtype=float), n.shape)
                  for x in compose((Levels(_chunk_parameters(space, codes, common, t)),), _one_group(n),
                                   groups=False)["alone"]()) for t in targets]
