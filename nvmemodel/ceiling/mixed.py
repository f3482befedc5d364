"""Mixed drive and switch models under one host: the groups' own limits, then the shared ones (docs/physics.md §12.7).

Each group of a :class:`~nvmemodel.topology.mixed.MixedTopology` is evaluated by the registered components
on its own single-model topology (:class:`~nvmemodel.ceiling.system.Levels`): per drive ``d_g``, per switch
``G_g`` over its ``m_g`` switches. The groups are then combined under the shared host::

    L_g,j   = Σ_{g's switches on complex j} min(G_g, k·d_g)        (k_g,j·d_g without switches)
    X(n)    = min( Σ_sockets min(Sock, Σ_{j on it} min(C, Σ_g L_g,j)),  X_sys )

Every group is laid over the host's root complexes by the host's own placement rule (``tree.placement``;
a group pinned to a socket over that socket's complexes only), continuing where the groups before it stopped
(round-robin: the next position, a drive or a switch each; fill_first: the next free slot, a switch on the next
free complex), so groups share complexes and sockets only where the host's positions run out.
Without a complex or socket limit this is ``Σ_g Σ_switches min(G_g, k·d_g)``. A shared system limit counts
each I/O once: where the groups' values differ (Little's law on the drives' latencies), it is their harmonic
mean weighted by each group's share of the I/O, ``1/X_sys = Σ_g w_g / X_sys,g``; identical values (host CPU,
fabric, RAID layer, file sharing) are used as they are. The curve adds drives in the topology's ``order``.

Binding at ``n`` drives: the smallest of (the groups' own candidates, ``Σ_g min(k_g d_g, min(k_g, m_g) G_g)``,
named by the component that holds the groups — where different components hold different groups, the one holding
the largest share, each group's own in ``group_binding``), the complex and socket candidates (the drives plus that
level alone) and the shared system limit; ties to the component nearest the drive, as in
:mod:`nvmemodel.ceiling.system`. Each component alone is the system ceiling with only it limiting (``inf`` where it
leaves a group holding drives unlimited; :class:`~nvmemodel.ceiling.mixed_result.MixedCurve` then lists it on the
groups it limits). With one group every number and name is the single-model kernel's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from .. import _check
from ..errors import ParameterError
from ..topology.mixed import MixedTopology
from ..topology.workload import Workload
from .components import COMPONENT_LABELS
from .derive import prepare
from .mixed_result import MixedCurve
from .result import SweepResult
from .system import Levels, lexicographic_min, switched_local, switches_alone
from .tree import complex_loads, complexes_in_use, switches_on

__all__ = ["evaluate_mixed", "sweep_mixed"]

_INF = float("inf")
#: Parameter prefixes a group sets itself; overriding them for all groups at once is refused.
_GROUP_OWNED = ("drive.", "switch.", "host.port_lanes")


def evaluate_mixed(topology: MixedTopology, workload: Workload, *, drives=None,
                   overrides: Mapping[str, object] | None = None) -> MixedCurve:
    """The scaling curve of a mixed topology: system ceiling, binding component and group per drive count.

    Parameters
    ----------
    topology : MixedTopology
    workload : Workload
    drives : int or sequence of int, optional
        Total drive counts (default ``1 … max_drives``); the groups fill in ``topology.order``.
    overrides : mapping, optional
        Shared parameters to change for every group (``host.cycles_per_io``, ``workload.io_stack``,
        ``memory.dma_fraction`` …). A group's own drive, switch and port lanes are set on its
        :class:`~nvmemodel.topology.mixed.DriveGroup`.

    Examples
    --------
    >>> import nvmemodel as nm
    >>> t = nm.MixedTopology("two groups", nm.preset("dell-r7525").host, (
    ...     nm.DriveGroup("samsung-pm1733-u2", 8), nm.DriveGroup("intel-p3700-800gb", 8)))
    >>> curve = nm.evaluate_mixed(t, nm.Workload("read", "128K"), drives=[8, 16])
    >>> [curve.describe_binding_at(n) for n in (8, 16)]
    ['group 0: drive', 'group 0, group 1: drive']
    """
    if not isinstance(topology, MixedTopology):
        raise ParameterError("topology", type(topology).__name__, "a MixedTopology (nvmemodel.evaluate takes a "
                             "Topology; MixedTopology.from_topology converts one)")
    overrides = dict(overrides or {})
    switch_over = _switch_overrides(topology, overrides)
    for name in overrides:
        if name.startswith(_GROUP_OWNED) and name not in switch_over:
            raise ParameterError(name, overrides[name], "a shared parameter, or a switch's " + ", ".join(SWITCH_SHARED)
                                 + ": set a group's drive, switch model and lanes on its DriveGroup")
    if drives is None:
        drives = np.arange(2 if topology.mirror else 1, topology.max_drives + 1, 2 if topology.mirror else 1)
    n = np.atleast_1d(_check.number("drives", drives, lo=1, hi=topology.max_drives, integer=True)).astype(int)
    if n.ndim != 1 or n.size == 0:  # an empty curve broke its repr; a 2-D one the kernel (raw ValueError)
        raise ParameterError("drives", drives, "one or more total drive counts (an int or a 1-D sequence)")
    topos, params, levels, wls = [], [], [], []
    wl = workload
    if overrides and all(g.workload is not None for g in topology.groups):
        wl = topology.group_topology(0).with_parameters(overrides, workload)[1]
    for i, group in enumerate(topology.groups):
        t = topology.group_topology(i)
        gw = workload if group.workload is None else group.workload  # a group's own workload
        if overrides:  # the switch's own settings on the groups behind a switch only
            mine = overrides if t.switch is not None else {k: v for k, v in overrides.items() if k not in switch_over}
            t, gw = t.with_parameters(mine, gw)
            if group.workload is None:
                wl = gw
        topos.append(t)
        wls.append(gw)
        params.append(t.parameters(gw))
        levels.append(Levels(prepare(params[-1])))
    if overrides:  # the curve describes what it evaluated, and the host still holds the groups
        t0 = topos[0]
        groups = tuple(dataclasses.replace(g, switch=t.switch) if switch_over and g.switch is not None else g
                       for g, t in zip(topology.groups, topos, strict=True))
        topology = topology.replace(host=t0.host.replace(port_lanes=topology.host.port_lanes), fabric=t0.fabric,
                                    pcie=t0.pcie, nvme=t0.nvme, extras=dict(t0.extras),
                                    extras_sources=dict(t0.extras_sources), groups=groups)
    k = topology.drives_per_group(n).astype(float)
    if topology.mirror:  # one array over both groups: md's read balancing
        return _mirror_curve(topology, wl, n, k, topos, params)
    with np.errstate(invalid="ignore"):  # 0 drives x an absent (inf) limit: masked where a group has no drives
        out = _compose(levels, k, [g.socket for g in topology.groups],
                       _starts(topology, levels[0].p), _switch_sets(topology))
    names = levels[0].components
    groups = [g.name for g in topology.groups]
    sizes = [float(p["workload.block_size"]) for p in params]
    bs = sizes[0]
    bytes_per_s = out["iops"] * bs
    if any(x != bs for x in sizes):  # groups with their own block sizes: each group's I/Os at its size
        bytes_per_s = sum(out["group_iops"][g] * sizes[g] for g in range(len(groups)))
    shared = {key: v for key, v in params[0].items() if not key.startswith(_GROUP_OWNED)}
    return MixedCurve(
        topology=topology, workload=wl, drives=n, iops=out["iops"], bytes_per_s=bytes_per_s,
        binding=np.asarray(names)[out["binding"]], ceilings=dict(zip(names, out["ceilings"], strict=True)),
        per_drive_iops=out["linear"] / n, parameters=shared, sources=topos[0].sources(wl),
        labels={name: COMPONENT_LABELS[name] for name in names},
        groups=tuple(groups), group_drives=k.astype(int), group_iops=out["group_iops"],
        group_binding=np.asarray(names)[out["group_binding"]],
        group_ceilings=tuple(dict(zip(names, c, strict=True)) for c in out["group_ceilings"]),
        binding_group=_binding_groups(groups, k, out),
        group_parameters=tuple(params), group_sources=tuple(t.sources(w) for t, w in zip(topos, wls)),
    )


#: A switch's own settings that an override (a fit's free parameter) may set on a mixed topology's switches.
SWITCH_SHARED = ("switch.efficiency", "switch.per_command_s", "switch.per_tlp_s")


def _switch_overrides(topology: MixedTopology, overrides: Mapping[str, object]) -> dict:
    """The overrides of a switch's own settings (:data:`SWITCH_SHARED`): they set every group's switches, so the
    groups behind switches must hold one switch model (else the value would mean two things); groups without a
    switch do not take them."""
    over = {k: v for k, v in overrides.items() if k in SWITCH_SHARED}
    if not over:
        return over
    models = {topology.group_topology(i).switch.name for i, g in enumerate(topology.groups)
              if g.switch is not None or g.switch_with is not None}
    if len(models) != 1:
        name = next(iter(over))
        raise ParameterError(name, over[name], "a mixed topology whose groups behind switches hold one switch model "
                             f"(this one: {', '.join(sorted(models)) or 'no switch'}); set a group's own on its "
                             "DriveGroup's Switch")
    return over


#: Parameters that place the drives over sockets and root complexes: one value for a whole mixed sweep.
_PLACEMENT = ("host.sockets", "tree.complexes_per_socket", "tree.slots_per_complex", "tree.placement")

#: Configurations per chunk of a mixed sweep (its temporaries are configurations x drive counts x groups).
_CHUNK = 4096


def sweep_mixed(topology: MixedTopology, workload: Workload, *, drives, grid: Mapping[str, object] | None = None,
                check: bool = True) -> SweepResult:
    """:func:`~nvmemodel.ceiling.evaluate.sweep` of a mixed topology: many configurations x total drive counts.

    The grid varies shared parameters (host, CPU, I/O stack, tree, layers above the links, workload) for every
    group at once; a group's own drive, switch and lanes are set on its
    :class:`~nvmemodel.topology.mixed.DriveGroup`, and the placement parameters (sockets, complexes per socket,
    slots, placement rule) are one value for the sweep. Each configuration is what :func:`evaluate_mixed` gives
    with those values as overrides (same kernel, the configurations as a second axis).
    """
    from .grid import sweep_parameters

    n = _check.number("drives", drives, lo=1, hi=topology.max_drives, integer=True).astype(int).ravel()
    grid = dict(grid or {})
    if topology.mirror:
        return _sweep_mirror(topology, workload, n, grid, check)
    for name in grid:
        if name.startswith(_GROUP_OWNED):
            raise ParameterError(name, "(grid)", "a shared parameter: a mixed topology's groups set their drive, "
                                 "switch and lanes on their DriveGroup (sweep one group with "
                                 "nm.sweep(mixed.group_topology(i), ...))")
        if name in _PLACEMENT:
            raise ParameterError(name, "(grid)", "one value for a mixed sweep (set it on the host); the placement "
                                 "of several groups is computed per placement, not vectorized")
    g0 = topology.groups[0]
    if len(topology.groups) == 1 and g0.socket is None:  # one group: the uniform kernel is its composition
        from .evaluate import sweep

        return sweep(topology.group_topology(0), workload if g0.workload is None else g0.workload, drives=n,
                     grid=grid, check=check)
    prepared = []
    arrays, configs = {}, 1
    for i, group in enumerate(topology.groups):
        gw = workload if group.workload is None else group.workload
        p, arrays, configs = sweep_parameters(topology.group_topology(i), gw, grid, check=check)
        prepared.append(p)
    sizes = {float(np.max(p["workload.block_size"])) for p in prepared} | {
        float(np.min(p["workload.block_size"])) for p in prepared}
    if len(sizes) > 1 and len(topology.groups) > 1 and any(g.workload is not None for g in topology.groups):
        raise ParameterError("workload", "per group", "one block size over the groups in a sweep (its bytes/s are "
                             "IOPS x one size); evaluate a topology whose groups' workloads differ in size with "
                             "nm.evaluate")
    k = topology.drives_per_group(n).astype(float)
    pins = [g.socket for g in topology.groups]
    starts = _starts(topology, prepared[0])
    sets = _switch_sets(topology)
    iops = np.empty((configs, n.size))
    binding = np.empty((configs, n.size), dtype=np.int8)
    names: tuple = ()
    for start in range(0, configs, _CHUNK):
        stop = min(start + _CHUNK, configs)
        levels = []
        for p in prepared:
            pc = {key: (v[start:stop, None] if np.ndim(v) == 1 and v.shape[0] == configs else v)
                  for key, v in p.items()}
            levels.append(Levels(pc))
        with np.errstate(invalid="ignore"):
            out = _compose(levels, k, pins, starts, sets, alone=False)
        iops[start:stop] = out["iops"]
        binding[start:stop] = out["binding"]
        names = levels[0].components
    bs = prepared[0]["workload.block_size"]
    return SweepResult(grid=arrays, drives=n, iops=iops, binding_index=binding, components=names,
                       block_size=np.asarray(bs).reshape(-1) if np.ndim(bs) else float(bs))


def _binding_groups(groups, k, out) -> np.ndarray:
    """Per point ``"host"`` where a shared level binds, else the groups (holding drives) whose own binding component
    is the curve's, joined by ", " (:func:`_held_by`: where the groups differ, the one holding the largest share)."""
    gb, b = out["group_binding"], out["binding"]
    named = [", ".join(g for j, g in enumerate(groups) if k[j, i] > 0 and gb[j, i] == b[i]) or "host"
             for i in range(k.shape[1])]
    return np.where(out["host_binds"], "host", np.asarray(named))


def _mirror_curve(topology, wl, n, k, topos, params) -> MixedCurve:
    """:func:`evaluate_mixed` for a mirror spanning the two groups (:mod:`nvmemodel.ceiling.mirror`)."""
    from ..parameters import encode
    from .mirror import evaluate_mirror

    if np.any(n % 2):
        raise ParameterError("drives", n.tolist(), "even total drive counts with mirror=True (complete pairs: 2, 4, …)")
    total, binding, ceilings, local, host, labels, per_group = evaluate_mirror(topology, wl,
                                                                               [encode(p) for p in params], n)
    groups = [g.name for g in topology.groups]
    bs = float(params[0]["workload.block_size"])
    shared = {key: v for key, v in params[0].items() if not key.startswith(_GROUP_OWNED)}
    return MixedCurve(
        topology=topology, workload=wl, drives=n, iops=total, bytes_per_s=total * bs, binding=binding,
        ceilings=ceilings, per_drive_iops=np.where(n > 0, local / n, np.nan), parameters=shared,
        sources=topos[0].sources(wl), labels=labels, groups=tuple(groups), group_drives=k.astype(int),
        group_iops=per_group, group_binding=np.array([binding for _ in groups]),
        group_ceilings=tuple(dict(ceilings) for _ in groups),
        binding_group=np.where(host, "host", "array"), group_parameters=tuple(params),
        group_sources=tuple(t.sources(wl) for t in topos),
    )


def _sweep_mirror(topology, workload, n, grid, check) -> SweepResult:
    """:func:`sweep_mixed` of a mirror spanning the groups: :mod:`~nvmemodel.ceiling.mirror` with the configurations
    as ``(configurations, 1)`` columns (shared parameters only; the RAID geometry one value)."""
    from ..parameters import encode
    from .grid import sweep_parameters
    from .mirror import evaluate_mirror

    if np.any(n % 2):
        raise ParameterError("drives", n.tolist(), "even total drive counts with mirror=True (complete pairs: 2, 4, …)")
    for name in grid:
        if name.startswith(("raid.", *_GROUP_OWNED)) or name in _PLACEMENT:
            raise ParameterError(name, "(grid)", "a shared parameter other than the RAID geometry for a mirror "
                                 "spanning groups (set raid.* and the groups on the topology)")
    encoded = []
    arrays, configs = {}, 1
    for i in range(len(topology.groups)):
        t = topology.group_topology(i)
        p, arrays, configs = sweep_parameters(t, workload, grid, check=check)
        base = encode(t.parameters(workload))
        base.update({k: p[k] for k in ("host.cycles_per_io",) if "workload.io_stack" in arrays and k not in arrays})
        base.update(arrays)
        encoded.append(base)
    iops = np.empty((configs, n.size))
    binding = np.empty((configs, n.size), dtype=np.int8)
    names: tuple = ()
    for start in range(0, configs, _CHUNK):
        stop = min(start + _CHUNK, configs)
        cols = [{k: (v[start:stop, None] if np.ndim(v) == 1 and np.shape(v)[0] == configs else v)
                 for k, v in e.items()} for e in encoded]
        total, bind, ceilings, *_ = evaluate_mirror(topology, workload, cols, n.astype(float))
        names = tuple(ceilings)
        iops[start:stop] = total
        binding[start:stop] = _codes(names, bind)
    bs = np.asarray(encoded[0]["workload.block_size"], dtype=float)
    return SweepResult(grid=arrays, drives=n, iops=iops, binding_index=binding, components=names,
                       block_size=bs.reshape(-1) if bs.ndim else float(bs))


def _codes(names, binding) -> np.ndarray:
    """Component names → their index in ``names`` (int8)."""
    lookup = {name: i for i, name in enumerate(names)}
    return np.vectorize(lookup.__getitem__, otypes=[np.int8])(binding)


def _argmin(candidates, shape):
    """Lexicographic (value, component index) minimum over ``(value, index)`` pairs, as the kernel ties."""
    return lexicographic_min(((x, i) for x, i in candidates if not np.all(np.asarray(i) < 0)), shape)


def _group_complexes(lv: Levels, k, socket, start=0.0):
    """Group ``lv``'s drives over the host's root complexes: ``(key, socket, L_j, k_j·d)`` per complex in use.

    The same placement as :meth:`Levels._tree` for a single-model topology; ``socket`` pins the group to
    that socket's complexes. ``key`` = (socket, index on the socket) identifies a complex across groups.
    ``start``: where the groups placed before it stopped (:func:`_starts`): round-robin, the position (a drive
    or a switch each) its first drive or switch takes; fill_first, the slots already taken.
    """
    p, d, g = lv.p, lv.drive, lv.group
    if socket is not None:
        p = {**p, "host.sockets": 1.0}
    sockets, cps = float(p["host.sockets"]), float(p["tree.complexes_per_socket"])
    total = sockets * cps
    fill = int(p["tree.placement"]) == 1
    switched = not _all_inf(g)
    M = complexes_in_use(p, lv.switches if switched else None)
    shift = 0.0
    if fill and not switched and start:  # continuing in the slots: what its drives add to those before it
        pairs = ((k1 - k0, s1) for (k1, s1), (k0, _) in zip(complex_loads(start + k, p, M), complex_loads(start, p)))
    else:
        pairs = complex_loads(k, p, M)
        shift = -(-start // float(p["tree.slots_per_complex"])) if fill else start  # fill_first: the next free complex
    for j, (kj, sj) in enumerate(pairs):
        s, where = int(sj), (j % cps) if fill else (j // sockets)
        if shift:
            pos = (j + shift) % total
            s, where = (int(pos // cps), pos % cps) if fill else (int(pos % sockets), pos // sockets)
        s = s if socket is None else socket
        local = switched_local(kj, d, g, np.fmax(switches_on(j, lv.switches, M), 1.0)) if switched else kj * d
        yield (s, where), s, local, kj * d


def _set_alone(levels, per_set, g, c):
    """Component ``c``'s switch limit alone on group ``g``'s drives of a shared set: on each switch, the drives'
    I/O (``k_gs·d_g``) scaled by ``min(1, 1/u)``, ``u = Σ_h k_hs·d_h / G_h`` with that component's ``G``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        x = 0.0
        for sw in range(len(per_set[g][1])):
            u = sum(per_set[h][1][sw] / levels[h].limits[c].group for h in per_set)
            x = x + per_set[g][1][sw] * np.where(u > 1.0, 1.0 / u, 1.0)
    return x


def _set_complexes(lv: Levels, per_switch, socket, start):
    """A group on shared switches over the root complexes: ``(key, socket, L_j, k_j·d)`` as
    :func:`_group_complexes`, switch ``s`` of the set on the owner's ``s``-th position (round-robin from where
    the owner starts; fill_first from its first free complex)."""
    p = lv.p if socket is None else {**lv.p, "host.sockets": 1.0}
    sockets, cps = float(p["host.sockets"]), float(p["tree.complexes_per_socket"])
    total = sockets * cps
    fill = int(p["tree.placement"]) == 1
    shift = -(-start // float(p["tree.slots_per_complex"])) if fill else start
    M = float(complexes_in_use(p, len(per_switch[0])))
    for sw, (local, kd) in enumerate(zip(*per_switch)):
        pos = (sw % M + shift) % total
        s, where = (int(pos // cps), pos % cps) if fill else (int(pos % sockets), pos // sockets)
        s = s if socket is None else socket
        yield (s, where), s, local, kd


def _starts(topology: MixedTopology, p) -> list[float]:
    """Where each group's placement starts: where the groups before it on the same complexes stopped (all unpinned
    groups share one sequence, the groups pinned to a socket one per socket). Round-robin counts positions: a
    direct group takes one per drive, a switched group one per switch; fill_first counts slots: a direct group
    takes one per drive, a switched group every slot of the complexes its switches sit on. Every group holds
    its full count (its slots are taken whether or not a curve has reached them)."""
    fill = int(p["tree.placement"]) == 1
    slots = float(p["tree.slots_per_complex"])
    cps, sockets = float(p["tree.complexes_per_socket"]), float(p["host.sockets"])
    at: dict = {}
    out = []
    for i, group in enumerate(topology.groups):
        domain = group.socket
        start = at.get(domain, 0.0)
        out.append(start)
        if group.switch_with is not None:  # on another group's switches: no position of its own
            out[-1] = out[topology.switch_host(i)]
            continue
        if group.switch is None:
            at[domain] = start + group.count
        elif fill:
            total = cps * (1.0 if domain is not None else sockets)
            at[domain] = (-(-start // slots) + min(group.switch_count, total)) * slots
        else:
            at[domain] = start + group.switch_count
    return out


def _switch_level(lv: Levels, k, socket):
    """A group's switch level at ``k`` of its drives: ``(its candidate for binding, switches holding drives)`` —
    the candidate ``k·d`` minus what full switches take away (:func:`~nvmemodel.ceiling.system.switches_alone`),
    the switches ``min(k, m)`` round-robin; under fill_first the placement's (the first complex's switches fill
    first), as :meth:`Levels._tree` and :meth:`Levels._switches_used` count them for one model."""
    if _all_inf(lv.group) or not bool(np.any(lv._fill_switched)):
        return switches_alone(k, lv.drive, lv.group, lv.switches), np.fmin(k, lv.switches)
    excess, used = lv.placed_switches(k, None if socket is None else {**lv.p, "host.sockets": 1.0})
    return k * lv.drive - excess, used


def _switch_sets(topology: MixedTopology) -> dict:
    """Groups sharing switches: ``{owner index: [(group index, first drive position), …]}``, the owner first at 0,
    each sharer after the drives placed before it (full counts); only owners that have sharers."""
    sets: dict = {}
    for i, g in enumerate(topology.groups):
        h = topology.switch_host(i)
        if h is not None:
            members = sets.setdefault(h, [(h, 0.0)])
            members.append((i, float(sum(topology.groups[j].count for j, _ in members))))
    return sets


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


def _compose(levels: list[Levels], k: np.ndarray, pins: list, starts: list,
             sets: dict | None = None, *, alone: bool = True) -> dict:
    """The mixed kernel: ``k`` is ``(groups, points)`` drives per group; the groups' parameters are one
    configuration (scalars) or ``(configurations, 1)`` columns of a sweep, so every result has the shape
    ``(points,)`` or ``(configurations, points)``. ``sets``: groups sharing switches (:func:`_switch_sets`)."""
    G, N = k.shape
    shape = np.broadcast_shapes((N,), *(np.shape(x) for lv in levels
                                                 for x in (lv.drive, lv.group, lv.complex, lv.socket, lv.system)))
    lv0 = levels[0]
    own = np.array([np.broadcast_to(switched_local(k[g], lv.drive, lv.group, lv.switches), shape)
                    for g, lv in enumerate(levels)])
    linear = sum(k[g] * lv.drive for g, lv in enumerate(levels))  # Σ_g k_g·d_g
    # each group's own candidates (its drives, its switches) and binding
    group_best, group_index = [], []
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
        b, i = _argmin([(k[g] * lv.drive, lv.drive_index), (switch_levels[g][0], lv.group_index)], shape)
        group_best.append(np.where(k[g] > 0, b, 0.0))
        group_index.append(i)
    group_index = np.array([np.broadcast_to(i, shape) for i in group_index])
    local_alone = sum(group_best)
    holds = np.broadcast_to(k.reshape((G,) + (1,) * (len(shape) - 1) + (N,)) > 0, (G, *shape))
    marginal = _held_by(group_index, own, holds)
    # the shared tree: complexes and sockets
    tree = any(lv.tree for lv in levels)
    C, Sock = lv0.complex, lv0.socket
    candidates = [(local_alone, marginal)]
    used_complexes = used_sockets = None
    if tree:
        per_complex, per_complex_d, socket_of, contrib, kd_of = {}, {}, {}, [], []
        for g, lv in enumerate(levels):
            items = (_set_complexes(lv, shared[in_set[g]][g], pins[in_set[g]], starts[g]) if g in in_set
                     else _group_complexes(lv, k[g], pins[g], starts[g]))
            for key, s, local, kd in items:
                per_complex[key] = per_complex.get(key, 0.0) + local
                per_complex_d[key] = per_complex_d.get(key, 0.0) + kd
                socket_of[key] = s
                contrib.append((g, key, local))
                kd_of.append(kd)
        if not all(np.array_equal(lv.complex, C) and np.array_equal(lv.socket, Sock) for lv in levels):
            # groups with their own workloads: limits in I/Os of different sizes, shared by load fraction
            out = _tree_by_fraction(levels, contrib, kd_of, socket_of, linear, shape, G)
            local_total, c_alone, s_alone, delivered, used_complexes, used_sockets = out
            candidates += [(c_alone, lv0.complex_index), (s_alone, lv0.socket_index)]
            tree = "fraction"
    if tree == "fraction":
        pass
    elif tree:
        capped = {key: (x if _all_inf(C) else np.fmin(C, x)) for key, x in per_complex.items()}
        per_socket, per_socket_d = {}, {}
        for key, x in capped.items():
            s = socket_of[key]
            per_socket[s] = per_socket.get(s, 0.0) + x
            per_socket_d[s] = per_socket_d.get(s, 0.0) + per_complex_d[key]
        local_total = (sum(per_socket.values()) if _all_inf(Sock) else
                       sum(np.fmin(Sock, x) for x in per_socket.values()))
        c_alone = _INF if _all_inf(C) else linear - sum(np.fmax(x - C, 0.0) for x in per_complex_d.values())
        s_alone = _INF if _all_inf(Sock) else linear - sum(np.fmax(x - Sock, 0.0) for x in per_socket_d.values())
        candidates += [(c_alone, lv0.complex_index), (s_alone, lv0.socket_index)]
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
    else:
        local_total = sum(own[g] for g in range(G))
        delivered = own
    # shared system limits: each I/O counted once; differing per-group values combine harmonically
    weights = own / np.sum(own, axis=0)
    system_by_component = []
    for c in range(len(lv0.limits)):
        values = [lv.limits[c].system for lv in levels]
        system_by_component.append(_shared(values, weights, shape))
    S, S_index = _argmin([(x, c) for c, x in enumerate(system_by_component) if not _all_inf(x)], shape)
    if all(_all_inf(x) for x in system_by_component):
        S, S_index = _INF, -1
    candidates.append((S, S_index))
    total = np.fmin(local_total, S)
    best, binding = _argmin(candidates, shape)
    if not alone:  # a sweep: the system ceiling and the binding component only
        return {"iops": np.broadcast_to(total, shape).astype(float), "binding": binding}
    host_binds = (binding != marginal) | (best != local_alone)  # a shared level's candidate won
    scale = np.where(local_total > 0, total / np.where(local_total > 0, local_total, 1.0), 0.0)
    group_iops = delivered * scale  # a shared system limit throttles every group in proportion
    # each component alone, for the system and for each group's own share
    ceilings, group_ceilings = [], [[] for _ in range(G)]
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
        if tree == "fraction":  # limits in I/Os of different sizes: the level alone with the drives (its candidate)
            if not _all_inf(lim.complex):
                x = np.fmin(x, c_alone)
            if not _all_inf(lim.socket):
                x = np.fmin(x, s_alone)
        else:
            if tree and not _all_inf(lim.complex):
                x = np.fmin(x, used_complexes * lim.complex)
            if tree and not _all_inf(lim.socket):
                x = np.fmin(x, used_sockets * lim.socket)
        x = np.fmin(x, system_by_component[c])
        ceilings.append(np.broadcast_to(x, shape).astype(float))
    return {"iops": np.broadcast_to(total, shape).astype(float), "binding": binding, "linear": linear,
            "ceilings": tuple(ceilings), "group_iops": group_iops, "group_binding": group_index,
            "group_ceilings": tuple(tuple(c) for c in group_ceilings), "host_binds": host_binds}


def _tree_by_fraction(levels, contrib, kd_of, socket_of, linear, shape, G):
    """The complex and socket levels when the groups' limits differ (their own workloads): a complex is full when
    its groups' load fractions add to one, ``u_j = Σ_g L_g,j / C_g``, each group delivering ``L_g,j · min(1, 1/u_j)``;
    then each socket the same on what its complexes deliver. ``(total, complex candidate, socket candidate, each
    group's delivery, complexes holding drives, sockets holding drives)``; with equal limits the numbers are those
    of ``min(C, Σ L)``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        def factors(loads):
            u = {}
            for g, key, x in loads:
                u[key] = u.get(key, 0.0) + x
            return {key: np.where(v > 1.0, 1.0 / v, 1.0) for key, v in u.items()}

        fc = factors([(g, key, local / levels[g].complex) for g, key, local in contrib])
        after = [(g, key, local * fc[key]) for g, key, local in contrib]
        fs = factors([(g, socket_of[key], x / levels[g].socket) for g, key, x in after])
        delivered = [np.zeros(shape) for _ in range(G)]
        for g, key, x in after:
            delivered[g] = delivered[g] + x * fs[socket_of[key]]
        # the levels alone with the drives: what each takes off Σ k·d
        dc = factors([(g, key, kd / levels[g].complex) for (g, key, _), kd in zip(contrib, kd_of)])
        ds = factors([(g, socket_of[key], kd / levels[g].socket) for (g, key, _), kd in zip(contrib, kd_of)])
        c_cut = sum(kd * (1.0 - dc[key]) for (g, key, _), kd in zip(contrib, kd_of))
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
            sum(np.asarray(x > 0, dtype=float) for x in per_sock.values()))


def _held_by(group_index, own, holds):
    """The component that holds the groups' own candidates: the groups' own binding index where every group holding
    drives has the same one; where they differ, the one holding the largest share of what the groups deliver by
    themselves (``own``), ties to the lower index. ``group_index``, ``own``, ``holds``: ``(groups, *shape)``."""
    first = np.max(np.where(holds, group_index, -1), axis=0)  # any group's index holding drives
    same = np.all(~holds | (group_index == first), axis=0)
    if bool(np.all(same)):
        return first.astype(np.int8)
    best_w = np.full(first.shape, -1.0)
    best_i = first.astype(np.int8)
    for c in np.unique(group_index[holds]):
        on = holds & (group_index == c)
        w = np.where(np.any(on, axis=0), np.sum(np.where(on, own, 0.0), axis=0), -1.0)
        better = w > best_w  # unique() is sorted: of equal shares the lower index keeps it
        best_i = np.where(better, np.int8(c), best_i)
        best_w = np.where(better, w, best_w)
    return np.where(same, first, best_i).astype(np.int8)


def _all_inf(x) -> bool:
    return bool(np.all(np.asarray(x) == _INF))


def _shared(values, weights, shape):
    """One system limit shared by the groups: the value itself where all agree, else ``1/Σ_g w_g/X_g``."""
    first = values[0]
    if all(np.array_equal(np.asarray(v), np.asarray(first)) for v in values[1:]):
        return first
    with np.errstate(divide="ignore"):
        inv = sum(w * np.where(np.asarray(v) == _INF, 0.0, 1.0 / np.asarray(v, dtype=float))
                  for w, v in zip(weights, values, strict=True))
        return np.broadcast_to(np.where(inv > 0, 1.0 / np.where(inv > 0, inv, 1.0), _INF), shape)
