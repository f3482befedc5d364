"""The entries of a mixed topology behind ``nm.evaluate`` and ``nm.sweep`` (docs/topologies.md).

A :class:`~nvmemodel.topology.mixed.MixedTopology` takes its overrides group by group
(:meth:`~nvmemodel.topology.mixed.MixedTopology.with_parameters`); its groups are composed under the host by
:func:`~nvmemodel.ceiling.compose.compose` (docs/physics.md §12.7: placement, shared levels, binding), a mirror
spanning two groups by :mod:`~nvmemodel.ceiling.mirror` (§12.9); the curve adds drives in the topology's ``order``
and is a :class:`~nvmemodel.ceiling.mixed_result.MixedCurve` (a sweep over shared parameters a
:class:`~nvmemodel.ceiling.result.SweepResult`). Each component alone is the system ceiling with only it limiting
(``inf`` where it leaves a group holding drives unlimited: the curve then lists it on the groups it limits). With one
group every number and name is the single-model kernel's.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .. import _check
from ..errors import ParameterError
from ..topology.mixed import GROUP_OWNED, MixedTopology
from ..topology.workload import Workload
from .components import COMPONENT_LABELS
from .compose import binding_groups, compose, starts, sweep_groups, switch_sets
from .grid import sweep_parameters
from .mixed_result import MixedCurve
from .result import SweepResult
from .system import levels_of
from .tree import _PLACEMENT  # placing the drives over sockets and complexes: one value per mixed sweep

__all__ = ["evaluate_mixed", "sweep_mixed"]


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
    topology, wl, topos, wls = topology.with_parameters(overrides or {}, workload)
    if drives is None:
        drives = np.arange(2 if topology.mirror else 1, topology.max_drives + 1, 2 if topology.mirror else 1)
    n = np.atleast_1d(_check.number("drives", drives, lo=1, hi=topology.max_drives, integer=True)).astype(int)
    if n.ndim != 1 or n.size == 0:  # an empty curve broke its repr; a 2-D one the kernel (raw ValueError)
        raise ParameterError("drives", drives, "one or more total drive counts (an int or a 1-D sequence)")
    params = [t.parameters(w) for t, w in zip(topos, wls, strict=True)]
    levels = [levels_of(p) for p in params]  # kept per parameter vector, as nm.evaluate's
    k = topology.drives_per_group(n).astype(float)
    if topology.mirror:  # one array over both groups: md's read balancing
        return _mirror_curve(topology, wl, n, k, topos, params, wls)
    out = compose(levels, k, [g.socket for g in topology.groups], starts(topology, levels[0].p), switch_sets(topology))
    names = levels[0].components
    sizes = [float(p["workload.block_size"]) for p in params]
    bytes_per_s = out["iops"] * sizes[0]
    if any(x != sizes[0] for x in sizes):  # groups with their own block sizes: each group's I/Os at its size
        bytes_per_s = sum(out["group_iops"][g] * sizes[g] for g in range(len(sizes)))
    return _curve(topology, wl, n, k, topos, params, wls, iops=out["iops"], bytes_per_s=bytes_per_s,
                  binding=np.asarray(names)[out["binding"]], ceilings=dict(zip(names, out["ceilings"], strict=True)),
                  per_drive_iops=out["per_drive"], labels={name: COMPONENT_LABELS[name] for name in names},
                  group_iops=out["group_iops"], group_binding=np.asarray(names)[out["group_binding"]],
                  group_ceilings=tuple(dict(zip(names, c, strict=True)) for c in out["group_ceilings"]),
                  binding_group=binding_groups([g.name for g in topology.groups], k, out))


def _curve(topology, wl, n, k, topos, params, wls, **fields) -> MixedCurve:
    """The curve of a mixed topology: what every one holds (the shared parameters, the groups' own) and ``fields``."""
    shared = {key: v for key, v in params[0].items() if not key.startswith(GROUP_OWNED)}
    return MixedCurve(topology=topology, workload=wl, drives=n, parameters=shared, sources=topos[0].sources(wl),
                      groups=tuple(g.name for g in topology.groups), group_drives=k.astype(int),
                      group_parameters=tuple(params), group_workloads=tuple(wls),
                      group_sources=tuple(t.sources(w) for t, w in zip(topos, wls, strict=True)), **fields)


def sweep_mixed(topology: MixedTopology, workload: Workload, *, drives, grid: Mapping[str, object] | None = None,
                check: bool = True, chunk_points: int = 1 << 18) -> SweepResult:
    """:func:`~nvmemodel.ceiling.evaluate.sweep` of a mixed topology: many configurations x total drive counts.

    The grid varies shared parameters (host, CPU, I/O stack, tree, layers above the links, workload) for every
    group at once; a group's own drive, switch and lanes are set on its
    :class:`~nvmemodel.topology.mixed.DriveGroup`, and with several groups (or one pinned to a socket) the
    placement parameters (sockets, complexes per socket, slots, placement rule) are one value for the sweep. Each
    configuration is what :func:`evaluate_mixed` gives with those values as overrides (the same composition,
    :func:`~nvmemodel.ceiling.compose.sweep_groups`, the configurations as a second axis; one unpinned group the
    single-model sweep's own numbers).
    """
    n = _check.number("drives", drives, lo=1, hi=topology.max_drives, integer=True).astype(int).ravel()
    grid = dict(grid or {})
    if topology.mirror:
        return _sweep_mirror(topology, workload, n, grid, check)
    switch_grid = topology.shared_values(grid, grid=True)
    if len(topology.groups) > 1 or topology.groups[0].socket is not None:
        for name in grid:
            if name in _PLACEMENT:
                raise ParameterError(name, "(grid)", "one value for a mixed sweep (set it on the host); the placement "
                                     "of several groups is computed per placement, not vectorized")
    prepared = []
    arrays, configs = {}, 1
    for _, t, gw, mine in topology.each_group(workload, grid, switch_grid):
        p, got, count = sweep_parameters(t, gw, mine, check=check)
        if len(got) >= len(arrays):  # the grid as given (a direct group's lacks the switch's settings)
            arrays, configs = got, count
        prepared.append(p)
    sizes = {float(np.max(p["workload.block_size"])) for p in prepared} | {
        float(np.min(p["workload.block_size"])) for p in prepared}
    if len(sizes) > 1 and len(topology.groups) > 1 and any(g.workload is not None for g in topology.groups):
        raise ParameterError("workload", "per group", "one block size over the groups in a sweep (its bytes/s are "
                             "IOPS x one size); evaluate a topology whose groups' workloads differ in size with "
                             "nm.evaluate")
    k = topology.drives_per_group(n).astype(float)
    iops, binding, names = sweep_groups(prepared, configs, k, [g.socket for g in topology.groups],
                                        starts(topology, prepared[0]), switch_sets(topology), chunk_points=chunk_points)
    return _result(prepared[0], arrays, n, iops, binding, names)


def _result(p, arrays, n, iops, binding, names) -> SweepResult:
    bs = np.asarray(p["workload.block_size"], dtype=float)
    return SweepResult(grid=arrays, drives=n, iops=iops, binding_index=binding, components=names,
                       block_size=bs.reshape(-1) if bs.ndim else float(bs))


#: Configurations per chunk of a mirror's sweep (its temporaries are configurations x drive counts x groups).
_CHUNK = 4096


def _chunked(params: list, configs: int, arrays: dict, n: np.ndarray, run) -> SweepResult:
    """A mirror's sweep over its configurations in chunks: ``run(columns)`` (each group's parameters, a chunk's values
    as ``(configurations, 1)`` columns) gives the chunk's IOPS, binding codes and component names."""
    iops = np.empty((configs, n.size))
    binding = np.empty((configs, n.size), dtype=np.int8)
    names: tuple = ()
    for start in range(0, configs, _CHUNK):
        stop = min(start + _CHUNK, configs)
        columns = [{key: (v[start:stop, None] if np.ndim(v) == 1 and np.shape(v)[0] == configs else v)
                    for key, v in p.items()} for p in params]
        iops[start:stop], binding[start:stop], names = run(columns)
    return _result(params[0], arrays, n, iops, binding, names)


def _mirror_curve(topology, wl, n, k, topos, params, wls) -> MixedCurve:
    """:func:`evaluate_mixed` for a mirror spanning the two groups (:mod:`nvmemodel.ceiling.mirror`)."""
    from ..parameters import encode
    from .mirror import evaluate_mirror

    _check_pairs(n)
    total, binding, ceilings, local, host, labels, per_group, sides = evaluate_mirror(topology, wl,
                                                                               [encode(p) for p in params], n)
    return _curve(topology, wl, n, k, topos, params, wls, iops=total,
                  bytes_per_s=total * float(params[0]["workload.block_size"]), binding=binding, ceilings=ceilings,
                  per_drive_iops=np.where(n > 0, local / n, np.nan), labels=labels, group_iops=per_group,
                  group_binding=sides, group_ceilings=tuple(dict(ceilings) for _ in topology.groups),
                  binding_group=np.where(host, "host", "array"))


def _check_pairs(n) -> None:
    if np.any(n % 2):
        raise ParameterError("drives", n.tolist(), "even total drive counts with mirror=True (complete pairs: 2, 4, …)")


def _sweep_mirror(topology, workload, n, grid, check) -> SweepResult:
    """:func:`sweep_mixed` of a mirror spanning the groups: :mod:`~nvmemodel.ceiling.mirror` with the configurations
    as ``(configurations, 1)`` columns (shared parameters only; the RAID geometry one value)."""
    from ..parameters import encode
    from .mirror import evaluate_mirror

    _check_pairs(n)
    for name in grid:
        if name.startswith(("raid.", *GROUP_OWNED)) or name in _PLACEMENT:
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

    def run(columns):
        total, binding, ceilings, *_ = evaluate_mirror(topology, workload, columns, n.astype(float))
        return total, _codes(tuple(ceilings), binding), tuple(ceilings)

    return _chunked(encoded, configs, arrays, n, run)


def _codes(names, binding) -> np.ndarray:
    """Component names → their index in ``names`` (int8)."""
    lookup = {name: i for i, name in enumerate(names)}
    return np.vectorize(lookup.__getitem__, otypes=[np.int8])(binding)

