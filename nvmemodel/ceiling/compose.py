"""The one composition of groups under a host: drives and switches per group, then the levels above them.

A topology is a host holding one or more groups (docs/physics.md §12.7): each group is evaluated by the registered
components on its own single-model parameters (:class:`~nvmemodel.ceiling.system.Levels`: per drive ``d_g``, per
switch ``G_g`` over ``m_g`` switches), laid over the host's root complexes by the host tree's placement
(:func:`~nvmemodel.ceiling.tree.place_group`, continuing where the groups before it stopped), and composed with
the levels above the groups — root complexes, sockets (:func:`~nvmemodel.ceiling.system.above_the_groups`), the
shared system limits — and the binding pick (:func:`~nvmemodel.ceiling.system.pick`) that the single-model kernel
uses too::

    L_g,j   = Σ_{g's switches on complex j} min(G_g, k·d_g)        (k_g,j·d_g without switches)
    X(n)    = min( Σ_sockets min(Sock, Σ_{j on it} min(C, Σ_g L_g,j)),  X_sys )

:func:`compose` takes any number of groups, and it is the one place where groups' levels become a curve or a sweep's
columns: ``nm.evaluate`` and ``nm.sweep`` of a :class:`~nvmemodel.topology.topology.Topology` (one group) and of a
:class:`~nvmemodel.topology.mixed.MixedTopology` call it (:func:`sweep_groups` chunks a sweep's configurations for
it). One group, unpinned, on switches of its own, is the single-model topology: where only the system's numbers are
asked (not each group's share), :func:`compose` computes it with the single-model fast paths of
:class:`~nvmemodel.ceiling.system.Levels` (:meth:`~nvmemodel.ceiling.system.Levels.total_and_binding`,
:meth:`~nvmemodel.ceiling.system.Levels.fill`: the same functions, in place, with Python scalars for the placement),
and the general composition gives the same numbers and names (tests/ceiling/test_mixed.py, test_mixed_properties.py
over random topologies, rtol 1e-12: summed in another order at most).

A shared system limit counts each I/O once: where the groups' values differ (Little's law on the drives' latencies)
it is their harmonic mean weighted by each group's share of the I/O, ``1/X_sys = Σ_g w_g / X_sys,g``. Groups may
share switches (their limit shared by load fraction) and run their own workloads (complexes and sockets then full
when the groups' load fractions add to one — a complex's per direction, reads towards memory and writes from it,
so a read group and a write group on one complex each have a direction: :func:`_complex_factors`).

Binding: each group's own component (its drives' or its switches'), the one holding the groups (the largest share
where they differ), the complex and socket candidates and the shared system limit; the smallest wins, ties to the
component nearest the drive.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, overload

import functools

import numpy as np

from .derive import prepare
from .system import ComplexSums, Levels, Work, above_the_groups, alone_above, pick, switched_local, switches_alone
from .tree import place_group, place_switches

__all__ = ["binding_groups", "compose", "evaluate_parameters", "evaluate_prepared", "sweep_chunks", "sweep_groups"]

_INF = float("inf")

#: Configurations per chunk of a sweep of one group: as large as keeps every temporary per configuration (8 B each,
#: 128,000 B) under malloc's 128 KiB mmap threshold, where it is served from the free lists; above that each temporary
#: maps fresh pages from the kernel, and on a VM the page faults cost about 10 ns per element, ten times the
#: arithmetic (fewer, larger chunks: less per-chunk overhead; measured 8192 / 12500 / 16000: best 6.5 / 6.0 / 5.3 ms
#: for 1.2 M points). The per-point scratch of :meth:`Levels.fill` is allocated once per sweep.
_CHUNK_CONFIGS = 16000
#: Configurations per chunk of a sweep of several groups (its temporaries are configurations x drive counts x groups).
_CHUNK_GROUPS = 4096


def _single(levels, pins, starts, sets) -> bool:
    """One group, unpinned, placed from the first position, on switches of its own: the single-model topology."""
    return len(levels) == 1 and not sets and (pins is None or pins[0] is None) and (starts is None or not starts[0])


@overload
def compose(levels: Sequence[Levels], k: np.ndarray, pins: list | None = None, starts: list | None = None,
            sets: dict | None = None, *, alone: bool = True, groups: bool = True, out: None = None,
            work: Work | None = None, parts: tuple | None = None, below: tuple | None = None) -> dict[str, Any]: ...


@overload
def compose(levels: Sequence[Levels], k: np.ndarray, pins: list | None = None, starts: list | None = None,
            sets: dict | None = None, *, alone: bool = True, groups: bool = True, out: tuple,
            work: Work | None = None, parts: tuple | None = None, below: tuple | None = None) -> None: ...


def compose(levels: Sequence[Levels], k: np.ndarray, pins: list | None = None, starts: list | None = None,
            sets: dict | None = None, *, alone: bool = True, groups: bool = True, out: tuple | None = None,
            work: Work | None = None, parts: tuple | None = None, below: tuple | None = None) -> dict[str, Any] | None:
    """The composition of groups under a host, for any number of groups: what ``nm.evaluate`` and ``nm.sweep`` of
    every topology compute.

    Parameters
    ----------
    levels : list of Levels
        Each group's levels (:class:`~nvmemodel.ceiling.system.Levels`) on its own single-model parameters: one
        configuration (scalars), or a sweep's chunk of configurations (with ``groups=False`` and one single-model
        group 1-D arrays, else ``(configurations, 1)`` columns).
    k : ndarray, shape (groups, points)
        Drives per group at each point (floats); for one group also its drive counts alone, shape (points,).
        With ``groups=False`` and one single-model group, ``k[0]`` may have any shape broadcasting with the
        levels' arrays (the planner: one drive count per configuration of a block, ``(1, *block shape)``).
    pins, starts, sets
        Each group's socket or None, where its placement starts (:func:`~nvmemodel.ceiling.placement.starts`) and
        the groups sharing switches (:func:`~nvmemodel.ceiling.placement.switch_sets`); default: unpinned groups from
        position 0, no shared switches.
    alone : bool
        Also each component alone (``"ceilings"``; with ``groups=False`` ``"alone"``, a function giving them).
    groups : bool
        Also each group's share, binding and ceilings and the host's part (``"group_iops"`` …). Without them one
        single-model group takes :class:`~nvmemodel.ceiling.system.Levels`' own fast paths.
    out : (iops, binding), optional
        Arrays ``(configurations, points)`` (float64, int8) a sweep's chunk is written into (``alone`` and
        ``groups`` False); None is returned then. ``work``: :meth:`Levels.fill`'s scratch for one group.
    parts : tuple, optional
        One single-model group without ``out``: its host tree's sums at ``k[0]``
        (:meth:`~nvmemodel.ceiling.system.Levels.parts`) where the caller has them (the planner takes them at a
        block's two candidate counts and selects per configuration); ``below``: with them, the pick among the levels
        under the system limit (:meth:`~nvmemodel.ceiling.system.Levels.below_system`) at ``k[0]``.

    Returns
    -------
    dict
        ``iops`` and ``binding`` (int8 codes into the components) per point; ``per_drive`` (the drives' own mean
        rate before shared limits) and, as asked, the parts above.
    """
    if not groups and len(levels) == 1 and not sets and (pins is None or pins[0] is None) and (
            starts is None or not starts[0]):  # one single-model group (:func:`_single`): the kernel's fast paths
        lv, n = levels[0], (k if k.ndim <= 1 else k[0])  # (0-d: one drive count given as a number)
        if out is not None:
            for j, nj in enumerate(n):  # one drive count at a time: its placement in Python scalars
                lv.fill(nj, out[0][:, j], out[1][:, j], work)
            return None
        total, binding = lv.total_and_binding(n, parts=parts, below=below)
        return {"iops": total, "binding": binding, "per_drive": lv.drive, "alone": functools.partial(lv.alone, n)}
    G = len(levels)
    k = k.reshape(G, -1)
    with np.errstate(invalid="ignore"):  # 0 drives x an absent (inf) limit: masked where a group has no drives
        res = _compose(levels, k, [None] * G if pins is None else pins, [0.0] * G if starts is None else starts,
                       sets, alone=alone or groups)
    if out is not None:
        out[0][...] = res["iops"]
        out[1][...] = res["binding"]
        return None
    if alone or groups:
        res["per_drive"] = res["linear"] / np.sum(k, axis=0)
        ceilings = res["ceilings"]
        res["alone"] = lambda: ceilings
    return res


def sweep_groups(params: list, configs: int, k: np.ndarray, pins: list | None = None, starts: list | None = None,
                 sets: dict | None = None, *, chunk_points: int = 1 << 18) -> tuple:
    """A sweep's ``(iops, binding, component names)``: each group's parameters (:func:`~nvmemodel.ceiling.grid.
    sweep_parameters`: values per configuration as 1-D arrays of length ``configs``) composed (:func:`compose`) at
    every point of ``k`` (drives per group, ``(groups, points)``), chunk by chunk (:func:`sweep_chunks`); arrays
    ``(configs, points)``, column-major (one drive count's results over a chunk contiguous).

    One single-model group runs one drive count at a time over a chunk of at most ``chunk_points`` points (and
    :data:`_CHUNK_CONFIGS` configurations), its configurations as 1-D arrays: the round-robin placement (drives
    per switch, complex, socket) is then a scalar per column, and every temporary is one chunk long, small enough
    to stay in cache and on malloc's free lists. Several groups: every drive count at once over chunks of
    :data:`_CHUNK_GROUPS` configurations as ``(configurations, 1)`` columns."""
    N = k.shape[1]
    single = _single(params, pins, starts, sets)
    if single:
        step = max(1, min(configs, _CHUNK_CONFIGS, max(chunk_points // max(N, 1), 1)))
        work = Work(step)
    else:
        step, work = _CHUNK_GROUPS, None

    def run(chunk, iops, binding):
        levels = [Levels(pc) for pc in chunk]
        compose(levels, k, pins, starts, sets, alone=False, groups=False, out=(iops, binding), work=work)
        return levels[0].components

    return sweep_chunks(params, configs, N, run, step=step, columns=not single)


def sweep_chunks(params: list, configs: int, points: int, run, *, step: int = _CHUNK_GROUPS,
                 columns: bool = True) -> tuple:
    """The one chunk loop of every sweep (:func:`sweep_groups`, a mirror spanning groups:
    :func:`~nvmemodel.ceiling.mirror.sweep_mirror`): ``(iops, binding, component names)``, arrays
    ``(configs, points)`` (float64, int8; column-major). Each group's parameters ``params`` hold their values per
    configuration as 1-D arrays of length ``configs``; chunk by chunk of ``step`` configurations,
    ``run(chunk, iops, binding)`` gets each group's parameters with those values cut to the chunk (as 1-D arrays,
    or with ``columns`` as ``(configurations, 1)`` columns, the drive counts then a second axis), writes the
    chunk's rows of ``iops`` and ``binding`` and returns the component names its codes index."""
    iops = np.empty((configs, points), order="F")
    binding = np.empty((configs, points), dtype=np.int8, order="F")
    per_config = [[key for key, v in p.items() if np.ndim(v) == 1 and np.shape(v)[0] == configs] for p in params]
    names: tuple = ()
    for start in range(0, configs, step):
        stop = min(start + step, configs)
        chunk = []
        for p, keys in zip(params, per_config, strict=True):
            pc = dict(p)
            pc.update({key: p[key][start:stop, None] for key in keys} if columns else
                      {key: p[key][start:stop] for key in keys})
            chunk.append(pc)
        names = run(chunk, iops[start:stop], binding[start:stop])
    return iops, binding, names


def place(lv: Levels, k, pin=None, start=0.0):
    """``k`` of group ``lv``'s drives over the root complexes as the host places them, behind its switches where it
    has any (:func:`~nvmemodel.ceiling.tree.place_group`): ``(key, socket, k_j, switches on it or None)``."""
    return place_group(k, lv.p, None if _all_inf(lv.group) else lv.switches, start=start, pin=pin)


def unit_loads(loads) -> dict:
    """Each unit's load fraction, ``{unit: Σ x}`` over ``(unit, x)`` pairs (a unit: a complex's key or a socket)."""
    u: dict = {}
    for key, x in loads:
        u[key] = u.get(key, 0.0) + x
    return u


def alone_at_load(x, used, load):
    """A complex or socket level alone where its units' load fractions ``load`` (summed over the units holding
    drives, ``used`` of them) are those at throughput ``x``: ``x · used / Σ u`` (inf without load)."""
    return np.where(load > 0, x * used / np.where(load > 0, load, 1.0), _INF)


def _group_complexes(lv: Levels, k, pin, start=0.0):
    """Group ``lv``'s drives over the root complexes (:func:`place`): ``(key, socket, L_j, k_j·d)`` per complex in
    use."""
    d, g = lv.drive, lv.group
    for key, s, kj, on in place(lv, k, pin, start):
        yield key, s, (kj * d if on is None else switched_local(kj, d, g, on)), kj * d


def _set_complexes(lv: Levels, per_switch, pin, start):
    """A group on shared switches over the root complexes: ``(key, socket, L_j, k_j·d)`` per switch of the set
    (:func:`~nvmemodel.ceiling.tree.place_switches`)."""
    for (key, s), local, kd in zip(place_switches(len(per_switch[0]), lv.p, start=start, pin=pin), *per_switch):
        yield key, s, local, kd


def _set_alone(levels, per_set, g, c):
    """Component ``c``'s switch limit alone on group ``g``'s drives of a shared set: on each switch, the drives'
    I/O (``k_gs·d_g``) scaled by ``min(1, 1/u)``, ``u = Σ_h k_hs·d_h / G_h`` with that component's ``G``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        x = 0.0
        for sw in range(len(per_set[g][1])):
            u = sum(per_set[h][1][sw] / levels[h].limits[c].group for h in per_set)
            x = x + per_set[g][1][sw] * np.where(u > 1.0, 1.0 / u, 1.0)
    return x


def _switch_level(lv: Levels, k, socket):
    """A group's switch level at ``k`` of its drives: ``(its candidate for binding, switches holding drives)`` —
    the candidate ``k·d`` minus what full switches take away (:func:`~nvmemodel.ceiling.system.switches_alone`),
    the switches ``min(k, m)`` round-robin; under fill_first the placement's (the first complex's switches fill
    first), as :meth:`Levels._tree` and :meth:`Levels._switches_used` count them for one model."""
    if _all_inf(lv.group) or not bool(np.any(lv._fill_switched)):
        return switches_alone(k, lv.drive, lv.group, lv.switches), np.fmin(k, lv.switches)
    excess, used = lv.placed_switches(k, None if socket is None else {**lv.p, "host.sockets": 1.0})
    return k * lv.drive - excess, used


def _round_robin_on(n, s, m):
    """Drives on switch ``s`` when drives ``0 … n−1`` go round-robin over ``m`` switches."""
    q = np.floor(n / m)
    return q + (s < n - q * m)


def _shared_switches(levels, k, members, shape):
    """Per switch of a shared set: ``{g: (delivered, k_gs·d_g)}`` lists over the switches. Each switch carries the
    drives of several groups; its limit is shared by load fraction — ``u = Σ_g k_gs·d_g / G_g``, each group's
    drives delivering ``k_gs·d_g·min(1, 1/u)`` (with one group: ``min(G, k·d)``)."""
    m = int(np.max(levels[members[0][0]].switches))
    out = {g: ([], []) for g, _ in members}
    with np.errstate(divide="ignore", invalid="ignore"):
        for sw in range(m):
            loads = [(g, (_round_robin_on(off + k[g], sw, m) - _round_robin_on(off, sw, m)) * levels[g].drive)
                     for g, off in members]
            u = sum(x / levels[g].group for g, x in loads)
            f = np.where(u > 1.0, 1.0 / u, 1.0)
            for g, x in loads:
                out[g][0].append(np.broadcast_to(x * f, shape))
                out[g][1].append(np.broadcast_to(x, shape))
    return out


def _compose(levels: Sequence[Levels], k: np.ndarray, pins: list, starts: list,
             sets: dict | None = None, *, alone: bool = True) -> dict:
    """:func:`compose` of any groups: ``k`` is ``(groups, points)`` drives per group; the groups' parameters are one
    configuration (scalars) or ``(configurations, 1)`` columns of a sweep, so every result has the shape
    ``(points,)`` or ``(configurations, points)``. ``sets``: groups sharing switches
    (:func:`~nvmemodel.ceiling.placement.switch_sets`)."""
    G, N = k.shape
    shape = np.broadcast_shapes((N,), *(np.shape(x) for lv in levels
                                                 for x in (lv.drive, lv.group, lv.complex, lv.socket, lv.system)))
    lv0 = levels[0]
    own = np.array([np.broadcast_to(switched_local(k[g], lv.drive, lv.group, lv.switches), shape)
                    for g, lv in enumerate(levels)])
    linear = sum(k[g] * lv.drive for g, lv in enumerate(levels))  # Σ_g k_g·d_g
    # each group's own candidates (its drives, its switches) and binding
    group_best: list[Any] = []
    group_index: Any = []  # a list, then one array
    switch_levels = [_switch_level(lv, k[g], pins[g]) for g, lv in enumerate(levels)]
    shared, in_set = {}, {}
    for owner, members in (sets or {}).items():  # switches shared by several groups: what each delivers through them
        shared[owner] = _shared_switches(levels, k, members, shape)
        for g, _ in members:
            delivered_g, _ = shared[owner][g]
            own[g] = sum(delivered_g)
            in_set[g] = owner
            used = sum(np.asarray(x > 0, dtype=float) for x in shared[owner][g][1])
            switch_levels[g] = (own[g], used)
    for g, lv in enumerate(levels):
        b, i = pick([(k[g] * lv.drive, lv.drive_index), (switch_levels[g][0], lv.group_index)], shape)
        group_best.append(np.where(k[g] > 0, b, 0.0))
        group_index.append(i)
    group_index = np.array([np.broadcast_to(i, shape) for i in group_index])
    local_alone = sum(group_best)
    holds = np.broadcast_to(k.reshape((G,) + (1,) * (len(shape) - 1) + (N,)) > 0, (G, *shape))
    marginal = _held_by(group_index, own, holds)
    # the shared tree: complexes and sockets
    tree: bool | str = any(lv.tree for lv in levels)  # "fraction" where the groups' I/O sizes differ
    C, Sock = lv0.complex, lv0.socket
    candidates = [(local_alone, marginal)]
    used_complexes: Any = None
    used_sockets: Any = None
    if tree:
        per_complex: dict[Any, Any] = {}
        per_complex_d: dict[Any, Any] = {}
        socket_of: dict[Any, Any] = {}
        contrib: list[Any] = []
        kd_of: list[Any] = []
        for g, lv in enumerate(levels):
            items = (_set_complexes(lv, shared[in_set[g]][g], pins[in_set[g]], starts[g]) if g in in_set
                     else _group_complexes(lv, k[g], pins[g], starts[g]))
            for key, s, local, kd in items:
                per_complex[key] = per_complex.get(key, 0.0) + local
                per_complex_d[key] = per_complex_d.get(key, 0.0) + kd
                socket_of[key] = s
                contrib.append((g, key, local))
                kd_of.append(kd)
        if not all(np.array_equal(lv.complex, C) and np.array_equal(lv.socket, Sock) for lv in levels) or (
                not _all_inf(C) and not all(np.array_equal(_directions(lv), _directions(lv0)) for lv in levels)):
            # groups with their own workloads: limits in I/Os of different sizes, shared by load fraction (a
            # complex's per direction: a read group and a write group on one complex use opposite directions)
            out = _tree_by_fraction(levels, contrib, kd_of, socket_of, linear, shape, G)
            local_total, c_alone, s_alone, delivered, used_complexes, used_sockets, after_all = out
            candidates += [(c_alone, lv0.complex_index), (s_alone, lv0.socket_index)]
            tree = "fraction"
    if tree == "fraction":
        pass
    elif tree:
        sums, capped = ComplexSums(_INF if _all_inf(C) else C, {}), {}
        for key, x in per_complex.items():  # the groups' terms on each complex, summed as one group's
            capped[key], cut = sums.terms(x, per_complex_d[key])
            sums.add(socket_of[key], capped[key], per_complex_d[key], cut)
        per_socket, per_socket_d = sums.per_socket, sums.per_socket_d
        local_total, c_alone, s_alone = above_the_groups(per_socket, per_socket_d, sums.cut, linear,
                                                         sums.c, _INF if _all_inf(Sock) else Sock)
        candidates += [(c_alone, lv0.complex_index), (s_alone, lv0.socket_index)]
    if tree and tree != "fraction" and alone:  # each group's delivery and the levels alone (a sweep needs neither)
        used_complexes = sum(np.asarray(x > 0, dtype=float) for x in per_complex_d.values())
        used_sockets = sum(np.asarray(x > 0, dtype=float) for x in per_socket_d.values())
        # a capped complex or socket throttles the groups on it in proportion to what they bring
        group_tree = [np.zeros(shape) for _ in range(G)]
        with np.errstate(invalid="ignore", divide="ignore"):
            for g, key, local in contrib:
                s = socket_of[key]
                fc = np.where(per_complex[key] > 0, capped[key] / per_complex[key], 1.0)
                fs = 1.0 if _all_inf(Sock) else np.where(per_socket[s] > 0, np.fmin(Sock, per_socket[s]) / per_socket[s],
                                                       1.0)
                group_tree[g] = group_tree[g] + local * fc * fs
        delivered = np.array([np.broadcast_to(x, shape) for x in group_tree])  # after the complex and socket caps
    elif not tree:
        local_total = sum(own[g] for g in range(G))
        delivered = own
    # shared system limits: each I/O counted once; differing per-group values combine harmonically
    weights = _Weights(own)
    system_by_component = []
    for c in range(len(lv0.limits)):
        values = [lv.limits[c].system for lv in levels]
        system_by_component.append(_shared(values, weights, shape))
    if all(x is lv0.limits[c].system for c, x in enumerate(system_by_component)):
        S, S_index = lv0.system, lv0.system_index  # one value for every group: the single-model kernel's own pick
    else:
        S, S_index = pick([(x, c) for c, x in enumerate(system_by_component) if not _all_inf(x)], shape)
        if all(_all_inf(x) for x in system_by_component):
            S, S_index = _INF, -1
    candidates.append((S, S_index))
    total = np.fmin(local_total, S)
    best, binding = pick(candidates, shape)
    if not alone:  # a sweep: the system ceiling and the binding component only
        return {"iops": np.broadcast_to(total, shape).astype(float), "binding": binding}
    host_binds = (binding != marginal) | (best != local_alone)  # a shared level's candidate won
    scale = np.where(local_total > 0, total / np.where(local_total > 0, local_total, 1.0), 0.0)
    group_iops = delivered * scale  # a shared system limit throttles every group in proportion
    # each component alone, for the system and for each group's own share
    ceilings: list[Any] = []
    group_ceilings: list[list[Any]] = [[] for _ in range(G)]
    for c in range(len(lv0.limits)):
        parts = []
        for g, lv in enumerate(levels):
            lim = lv.limits[c]
            x = np.full(shape, _INF)
            if not _all_inf(lim.drive):
                x = np.fmin(x, k[g] * lim.drive)
            if not _all_inf(lim.group) and g in in_set:  # shared switches: this component's limit by load fraction
                x = np.fmin(x, _set_alone(levels, shared[in_set[g]], g, c))
            elif not _all_inf(lim.group):
                x = np.fmin(x, switch_levels[g][1] * lim.group)
            group_ceilings[g].append(np.where(k[g] > 0, x, np.nan))
            parts.append(np.where(k[g] > 0, x, 0.0))
        # only this component limiting: a group holding drives that it does not limit is unlimited, so the sum is
        # infinite there (the component is then a limit of some groups only: group_ceilings), as it is with none
        x = sum(parts)
        lim = lv0.limits[c]
        if tree == "fraction":  # limits in I/Os of different sizes: each level alone at the groups' delivered mix
            for level, used in (("complex", used_complexes), ("socket", used_sockets)):
                if not all(_all_inf(getattr(lv.limits[c], level)) for lv in levels):
                    x = np.fmin(x, _alone_by_fraction(levels, after_all, c, level, used))
            x = np.fmin(x, system_by_component[c])
        else:  # as for one group: the complexes and sockets holding drives, the shared system limit
            x = alone_above(x, lim, used_complexes, used_sockets, system_by_component[c])
        ceilings.append(np.broadcast_to(x, shape).astype(float))
    return {"iops": np.broadcast_to(total, shape).astype(float), "binding": binding, "linear": linear,
            "ceilings": tuple(ceilings), "group_iops": group_iops, "group_binding": group_index,
            "group_ceilings": tuple(tuple(c) for c in group_ceilings), "host_binds": host_binds}


def binding_groups(groups, k, out) -> np.ndarray:
    """Per point ``"host"`` where a shared level binds, else the groups (holding drives) whose own binding component
    is the curve's, joined by ", " (:func:`_held_by`: where the groups differ, the one holding the largest share)."""
    gb, b = out["group_binding"], out["binding"]
    named = [", ".join(g for j, g in enumerate(groups) if k[j, i] > 0 and gb[j, i] == b[i]) or "host"
             for i in range(k.shape[1])]
    return np.where(out["host_binds"], "host", np.asarray(named))


def _directions(lv: Levels):
    """A group's I/O per direction of a root complex (docs/physics.md §12.1: reads move ``f·S`` towards memory,
    writes ``(1 − f)·S`` from it; its complex limit ``C_g`` counts the busier one): ``(f, 1 − f) / max(f, 1 − f)``,
    each direction's share of what ``C_g`` counts."""
    f = np.asarray(lv.p["workload.read_fraction"], dtype=float)
    busier = np.fmax(f, 1.0 - f)
    return f / busier, (1.0 - f) / busier


def _complex_factors(levels, loads):
    """Per ``(group, complex)``: how much a complex lets that group's drives deliver. Each direction of complex ``j``
    carries ``u_j,d = Σ_g x_g,j · a_g,d / C_g`` (``a_g,d``: :func:`_directions`, ``x``: the group's I/O on it); a
    group is held by the busiest direction it uses, ``min(1, 1/max_{d used by g} u_j,d)``. With one read share for
    every group this is ``min(1, 1/Σ_g x_g,j / C_g)``; a read group and a write group on one complex are held each
    by its own direction (QA round 5, G2). Capacity a held group leaves in its other direction is not handed on
    (conservative for groups using both directions). Also returns ``{j: max_d u_j,d}``."""
    dirs = [_directions(lv) for lv in levels]
    u = {}
    for g, key, x in loads:
        r, w = u.get(key, (0.0, 0.0))
        load = x / levels[g].complex
        u[key] = (r + load * dirs[g][0], w + load * dirs[g][1])
    out = {}
    for g, key, _ in loads:
        r, w = u[key]
        busiest = np.fmax(np.where(dirs[g][0] > 0, r, 0.0), np.where(dirs[g][1] > 0, w, 0.0))
        out[g, key] = np.where(busiest > 1.0, 1.0 / busiest, 1.0)
    return out, {key: np.fmax(r, w) for key, (r, w) in u.items()}


def _tree_by_fraction(levels, contrib, kd_of, socket_of, linear, shape, G):
    """The complex and socket levels when the groups' limits differ (their own workloads): a complex is full when
    the groups' load fractions add to one in a direction (:func:`_complex_factors`: its rate is per direction), each
    group delivering ``L_g,j`` times its factor; then each socket (memory: both directions together) is full when
    the fractions of what its complexes deliver add to one, ``u_s = Σ x / Sock_g``. ``(total, complex candidate,
    socket candidate, each group's delivery, complexes holding drives, sockets holding drives)``; with equal limits
    and one read share the numbers are those of ``min(C, Σ L)``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        def factors(loads):
            return {key: np.where(v > 1.0, 1.0 / v, 1.0) for key, v in unit_loads(loads).items()}

        fc, _ = _complex_factors(levels, contrib)
        after = [(g, key, local * fc[g, key]) for g, key, local in contrib]
        fs = factors([(socket_of[key], x / levels[g].socket) for g, key, x in after])
        delivered = [np.zeros(shape) for _ in range(G)]
        after_all = [(g, key, socket_of[key], x * fs[socket_of[key]]) for g, key, x in after]
        for g, _, _, x in after_all:
            delivered[g] = delivered[g] + x
        # the levels alone with the drives: what each takes off Σ k·d
        dc, _ = _complex_factors(levels, [(g, key, kd) for (g, key, _), kd in zip(contrib, kd_of)])
        ds = factors([(socket_of[key], kd / levels[g].socket) for (g, key, _), kd in zip(contrib, kd_of)])
        c_cut = sum(kd * (1.0 - dc[g, key]) for (g, key, _), kd in zip(contrib, kd_of))
        s_cut = sum(kd * (1.0 - ds[socket_of[key]]) for (g, key, _), kd in zip(contrib, kd_of))
    c_inf = all(_all_inf(lv.complex) for lv in levels)
    s_inf = all(_all_inf(lv.socket) for lv in levels)
    per_key, per_sock = {}, {}
    for (g, key, _), kd in zip(contrib, kd_of):
        per_key[key] = per_key.get(key, 0.0) + kd
        per_sock[socket_of[key]] = per_sock.get(socket_of[key], 0.0) + kd
    return (sum(delivered), _INF if c_inf else linear - c_cut, _INF if s_inf else linear - s_cut,
            np.array([np.broadcast_to(x, shape) for x in delivered]),
            sum(np.asarray(x > 0, dtype=float) for x in per_key.values()),
            sum(np.asarray(x > 0, dtype=float) for x in per_sock.values()), after_all)


def _alone_by_fraction(levels, after_all, c, level, used):
    """Component ``c``'s complex or socket limit (``level``) alone where the groups' limits differ (their own
    workloads): the units holding drives, each full when its load fractions add to one (a complex's in its busier
    direction, :func:`_complex_factors`), at the mix the groups deliver — ``X · used / Σ_units u``, ``u`` a unit's
    load fraction ``Σ_g x_g,unit / limit_g`` (with one size: ``used × limit``, the single-model value; in bytes: the
    units' capacity in bytes, QA round 4, F16)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        total = sum(x for _, _, _, x in after_all)
        if level == "complex":
            limited = [_ComponentView(lv, c) for lv in levels]
            _, per_unit = _complex_factors(limited, [(g, key, x) for g, key, _, x in after_all])
            u = sum(per_unit.values())
        else:
            u = sum(x / getattr(levels[g].limits[c], level) for g, _, _, x in after_all)
        return alone_at_load(total, used, u)


class _ComponentView:
    """A group's :class:`Levels` seen through component ``c``'s complex limit alone (for :func:`_complex_factors`)."""

    def __init__(self, lv: Levels, c: int) -> None:
        self.p, self.complex = lv.p, lv.limits[c].complex


def _held_by(group_index, own, holds):
    """The component that holds the groups' own candidates: the groups' own binding index where every group holding
    drives has the same one; where they differ, the one holding the largest share of what the groups deliver by
    themselves (``own``), ties to the lower index. ``group_index``, ``own``, ``holds``: ``(groups, *shape)``."""
    G = group_index.shape[0]
    if G == 1:
        return group_index[0].astype(np.int8)
    # each group's component's share: the groups holding drives with the same component, summed (G x G passes)
    best_w = best_i = None
    for g in range(G):
        gi = group_index[g]
        w = 0.0
        for h in range(G):
            w = w + np.where(holds[h] & (group_index[h] == gi), own[h], 0.0)
        if best_w is None:
            best_w, best_i = np.where(holds[g], w, -np.inf), np.where(holds[g], gi, np.int8(127))
            continue
        better = holds[g] & ((w > best_w) | ((w == best_w) & (gi < best_i)))
        best_w, best_i = np.where(better, w, best_w), np.where(better, gi, best_i)
    return best_i.astype(np.int8)


def _all_inf(x) -> bool:
    return bool(np.all(np.asarray(x) == _INF))


class _Weights:
    """Each group's share of the I/O, ``own / Σ own``, computed on first use (only where the groups' values of a
    shared system limit differ)."""

    def __init__(self, own) -> None:
        self.own, self.w = own, None

    def __iter__(self):
        if self.w is None:
            self.w = self.own / np.sum(self.own, axis=0)
        return iter(self.w)


def _shared(values, weights, shape):
    """One system limit shared by the groups: the value itself where all agree, else ``1/Σ_g w_g/X_g``."""
    first = values[0]
    if all(v is first or np.array_equal(np.asarray(v), np.asarray(first)) for v in values[1:]):
        return first
    with np.errstate(divide="ignore"):
        inv = sum(w * np.where(np.asarray(v) == _INF, 0.0, 1.0 / np.asarray(v, dtype=float))
                  for w, v in zip(weights, values, strict=True))
        return np.broadcast_to(np.where(inv > 0, 1.0 / np.where(inv > 0, inv, 1.0), _INF), shape)


def evaluate_parameters(p: Mapping[str, Any], drives: Any, *, alone: bool = True) -> dict[str, Any]:
    """Evaluate the kernel on a flat parameter mapping (:meth:`Topology.parameters`, or arrays of it).

    Returns a dict with ``iops`` (system IOPS ceiling), ``per_drive_iops`` (a drive's own ceiling
    before shared limits), ``binding`` (int8 index into ``components``), ``components`` (the names, in
    tie-break order) and, with ``alone=True``, ``ceilings`` (a tuple in that order of arrays
    broadcastable to the result: each component alone, IOPS).
    """
    return evaluate_prepared(prepare(p), drives, alone=alone)


def evaluate_prepared(p, drives, *, alone: bool = True) -> dict[str, Any]:
    """:func:`evaluate_parameters` on a mapping already passed through :func:`~nvmemodel.ceiling.derive.prepare`:
    the composition of its one group (:func:`compose`, as for every topology; fits call it at every step)."""
    n = np.asarray(drives, dtype=float)
    lv = Levels(p)
    res = compose((lv,), n, groups=False)
    out = {"iops": res["iops"], "per_drive_iops": lv.drive, "binding": res["binding"], "components": lv.components}
    if alone:
        out["ceilings"] = res["alone"]()
    return out
