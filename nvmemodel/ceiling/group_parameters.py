"""The parameter values of groups under one host: which every group shares, which are a group's own, which its
switches'.

Each group of a :class:`~nvmemodel.topology.mixed.MixedTopology` is evaluated on the parameters of its single-model
topology (:meth:`~nvmemodel.topology.mixed.MixedTopology.group_topology`). Values given for the whole topology —
``nm.evaluate``'s ``overrides``, ``nm.sweep``'s grid, a fit's free parameters — set what the groups share (host,
tree, memory, the layers above the links, the workload) on every group, and a switch's own settings
(:data:`SWITCH_SHARED`) on the groups behind switches; a group's own drive, switch model and lanes
(:data:`GROUP_OWNED`) are set on its :class:`~nvmemodel.topology.mixed.DriveGroup` and refused here
(docs/topologies.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any
import numpy as np

from ..errors import ParameterError
from ..topology.mixed import DriveGroup, MixedTopology
from ..topology.topology import Topology
from ..topology.workload import Workload

__all__ = ["GROUP_OWNED", "SWITCH_SHARED", "each_group", "shared_parameters", "shared_values", "switch_settings",
           "with_parameters"]

#: Parameter prefixes a group sets itself (on its DriveGroup); overriding them for all groups at once is refused.
GROUP_OWNED = ("drive.", "switch.", "host.port_lanes")

#: A switch's own settings that an override (a fit's free parameter) may set on a mixed topology's switches.
SWITCH_SHARED = ("switch.efficiency", "switch.per_command_s", "switch.per_tlp_s")


def with_parameters(topology: MixedTopology, values: Mapping[str, object], workload: Workload
                    ) -> tuple[MixedTopology, Workload, list[Topology], list[Workload]]:
    """:meth:`Topology.with_parameters <nvmemodel.topology.topology.Topology.with_parameters>` for every group of
    ``topology``: shared parameters (host, tree, memory, layers above the links, workload) set on each, and a
    switch's own settings (:data:`SWITCH_SHARED`) on the groups behind a switch.

    Returns the topology as changed (the host still holding the groups), the workload as evaluated, and each
    group's single-model topology and workload (its own workload where its DriveGroup carries one). A group's own
    drive, switch model and lanes are set on its DriveGroup: values for them are refused (:func:`shared_values`).
    """
    switch = shared_values(topology, values)
    topos, wls, wl = [], [], workload
    if values and all(g.workload is not None for g in topology.groups):
        wl = topology.group_topology(0).with_parameters(values, workload)[1]
    for group, t, gw, mine in each_group(topology, workload, values, switch):
        if values:
            t, gw = t.with_parameters(mine, gw)
            if group.workload is None:
                wl = gw
        topos.append(t)
        wls.append(gw)
    if not values:
        return topology, wl, topos, wls
    t0 = topos[0]  # the topology describes what is evaluated
    groups = tuple(dataclasses.replace(g, switch=t.switch) if switch and g.switch is not None else g
                   for g, t in zip(topology.groups, topos, strict=True))
    return topology.replace(host=t0.host.replace(port_lanes=topology.host.port_lanes), fabric=t0.fabric,
                            pcie=t0.pcie, nvme=t0.nvme, extras=dict(t0.extras), extras_sources=dict(t0.extras_sources),
                            groups=groups), wl, topos, wls


def each_group(topology: MixedTopology, workload: Workload, values: Mapping, switch_values: Mapping
               ) -> Iterator[tuple[DriveGroup, Topology, Workload, Mapping]]:
    """Per group of ``topology``: the group, its single-model topology, its workload (its own, else ``workload``)
    and the ``values`` it takes (a switch's own settings, ``switch_values``, on the groups behind a switch only)."""
    for i, group in enumerate(topology.groups):
        t = topology.group_topology(i)
        mine = values if t.switch is not None else {k: v for k, v in values.items() if k not in switch_values}
        yield group, t, (workload if group.workload is None else group.workload), mine


def shared_values(topology: MixedTopology, values: Mapping[str, object], *, grid: bool = False) -> dict:
    """Check that ``values`` (overrides, or a sweep's ``grid``) set only what every group of ``topology`` shares: a
    group's own drive, switch model and lanes (:data:`GROUP_OWNED`) are refused, a switch's own settings
    (:data:`SWITCH_SHARED`, :func:`switch_settings`) taken. Returns those switch settings. The one check of
    :func:`with_parameters` (``nm.evaluate``'s overrides) and ``nm.sweep``'s grid, whatever the number of groups."""
    switch = switch_settings(topology, values)
    if any(k in values for k in _GPU_PLACED):  # GPUs behind switches: one group's switches, ports they take (§12.10)
        _check_gpus(topology, values)
    for name in values:
        if name.startswith(GROUP_OWNED) and name not in switch:
            raise ParameterError(name, "(grid)" if grid else values[name], "a shared parameter, or a switch's "
                                 + ", ".join(SWITCH_SHARED) + ": set a group's drive, switch model and lanes on "
                                 "its DriveGroup" + (" (sweep one group with nm.sweep(mixed.group_topology(i), "
                                                     "...))" if grid else ""))
    return switch


#: The parameters that say how many downstream switch ports GPUs take, and whether they sit behind the switches.
_GPU_PLACED = ("gpu.attach", "gpu.count", "gpu.lanes")


def _check_gpus(topology: MixedTopology, values: Mapping[str, object]) -> None:
    """:func:`~nvmemodel.topology.mixed.check_gpu_switches` for every distinct placement, count and width of GPUs
    ``values`` give (overrides: one; a sweep's grid: one per configuration, the topology's extras where the grid has
    none): the groups on the GPUs' switches must fit the ports left, whichever of these the grid varies."""
    from ..topology.mixed import check_gpu_switches

    def column(name: str, default: object) -> list:
        """The values of ``name``: a grid's column as a list, one value (an override, the extras') as a list of it."""
        v: Any = values.get(name, topology.extras.get(name, default))
        if isinstance(v, np.ndarray):
            return v.ravel().tolist()
        return list(v) if isinstance(v, (list, tuple)) else [v]

    cols = [column("gpu.attach", "unplaced"), column("gpu.count", 0.0), column("gpu.lanes", 16.0)]
    size = max(len(c) for c in cols)
    rows = zip(*(c * size if len(c) == 1 else c for c in cols))
    for attach, count, lanes in dict.fromkeys((str(a), float(c), float(n)) for a, c, n in rows):
        try:
            check_gpu_switches(topology.groups, attach, {"gpu.count": count, "gpu.lanes": lanes})
        except ParameterError as exc:
            if size == 1 or exc.parameter != "group.count":
                raise
            raise ParameterError("gpu.count", f"{count:g} (x{lanes:g}, in the grid)", f"GPUs whose ports leave room "
                                 f"for the groups' drives: {exc.allowed}") from exc


def switch_settings(topology: MixedTopology, values: Mapping[str, object]) -> dict:
    """The values of a switch's own settings (:data:`SWITCH_SHARED`): they set every group's switches, so the
    groups of ``topology`` behind switches must hold one switch model (else the value would mean two things);
    groups without a switch do not take them."""
    over = {k: v for k, v in values.items() if k in SWITCH_SHARED}
    if not over:
        return over
    models = {sw.name for i, g in enumerate(topology.groups)
              if (g.switch is not None or g.switch_with is not None)
              and (sw := topology.group_topology(i).switch) is not None}
    if len(models) != 1:
        name = next(iter(over))
        raise ParameterError(name, over[name], "a mixed topology whose groups behind switches hold one switch "
                             f"model (this one: {', '.join(sorted(models)) or 'no switch'}); set a group's own on "
                             "its DriveGroup's Switch")
    return over


def shared_parameters(topology: Topology | MixedTopology, workload: Workload) -> dict:
    """The parameter vector every group of ``topology`` has in common (host, tree, memory, layers above the links,
    PCIe/NVMe, workload): a :class:`~nvmemodel.topology.topology.Topology`'s (one group) whole vector. A mixed
    topology's groups' own (``drive.*``, ``switch.*``, port lanes) are ``topology.group_topology(i).parameters(
    workload)``."""
    if isinstance(topology, Topology):
        return topology.parameters(workload)
    own = ("drive.", "switch.", "attach.", "host.port_lanes")
    return {k: v for k, v in topology.group_topology(0).parameters(workload).items() if not k.startswith(own)}
