"""Mixed drive and switch models under one host: :class:`DriveGroup` and :class:`MixedTopology`.

A :class:`~nvmemodel.topology.topology.Topology` holds one drive model behind one kind of attach. A
:class:`MixedTopology` holds several *groups* of drives under one host — e.g. 8 Gen4 drives on direct x4
root ports plus 16 Gen3 drives behind two x16 switches — sharing the host (CPU, sockets, root complexes,
memory), the layers above it (RAID level, file sharing, fabric) and the PCIe / NVMe settings. Each group
is evaluated as the single-model topology :meth:`MixedTopology.group_topology` builds for it, so no
physics is written twice; :func:`nvmemodel.ceiling.evaluate.evaluate` combines the groups
(docs/physics.md §12.7).

This module holds the groups and their checks only. Which group each added drive joins is counted by
:mod:`nvmemodel.ceiling.placement`; which parameter values every group shares, and which are a group's own or its
switches', by :mod:`nvmemodel.ceiling.group_parameters`; the composition by :mod:`nvmemodel.ceiling.compose`.
"""

from __future__ import annotations

from typing import Any

import dataclasses
import math
from collections.abc import Mapping, Sequence

import numpy as np

from ..errors import ParameterError
from ..parameters import get
from ..standards.pcie import LINK_WIDTHS
from .config import NvmeConfig, PcieConfig
from .drive import Drive, get_drive
from .fabric import Fabric
from .host import Host
from .switch import Switch, get_switch
from .topology import Topology
from .workload import Workload

__all__ = ["ORDERS", "DriveGroup", "MixedTopology"]

#: Built-in orders in which a scaling curve adds drives over the groups.
ORDERS = ("sequential", "interleaved")


@dataclasses.dataclass(frozen=True)
class DriveGroup:
    """Identical drives attached the same way: directly on root ports, or behind identical switches.

    Parameters
    ----------
    drive : Drive or str
        The drive model, or its catalog key / name (``"samsung-pm1733-u2"``).
    count : int
        Drives in the group (at least 1).
    switch : Switch, str or None
        None: each drive on its own root port of ``lanes`` lanes. Else the switch model (or its catalog
        key) the group's drives sit behind, round-robin over ``switch_count`` of them.
    switch_count : int
        Identical switches of this group (only with a switch).
    lanes : int, optional
        Root-port lanes per directly attached drive (default: the host's ``port_lanes``). Not allowed
        with a switch (the switch's downstream ports set the drive's link).
    socket : int, optional
        Pin the group to one CPU socket (its root complexes, its DMA); None: spread over the sockets
        like the host's own placement (``tree.placement``), continuing where the groups before it stopped.
    name : str
        Label in results (default: ``"group i"`` by position).
    switch_with : str, optional
        The name of an earlier group with a switch whose switches this group's drives share (its downstream
        ports): no switch or lanes of its own; its drives continue round-robin over those switches after that
        group's drives, and each switch's limit is shared by the drives of both (docs/physics.md §12.7).
    workload : Workload, optional
        This group's own workload (block size, read/write mix, queue depth …); None: the one evaluated. Its I/Os
        share the host's limits by load fraction (docs/physics.md §12.7).
    write_mostly : bool
        In a mirror spanning groups (``MixedTopology(mirror=True)``): md's ``--write-mostly`` on this group's
        members — reads go to the other group (docs/physics.md §12.9).
    """

    drive: Any  # a Drive or a catalog key: a Drive after __post_init__
    count: int
    switch: Any = None  # a Switch, a catalog key or None: a Switch or None after __post_init__
    switch_count: int = 1
    lanes: int | None = None
    socket: int | None = None
    name: str = ""
    write_mostly: bool = False
    switch_with: str | None = None
    workload: Workload | None = None

    def __post_init__(self) -> None:
        drive = get_drive(self.drive) if isinstance(self.drive, str) else self.drive
        if not isinstance(drive, Drive):
            raise ParameterError("group.drive", self.drive, "a Drive or a drive catalog name ('nvmemodel drives')")
        object.__setattr__(self, "drive", drive)
        switch = get_switch(self.switch) if isinstance(self.switch, str) else self.switch
        if switch is not None and not isinstance(switch, Switch):
            raise ParameterError("group.switch", self.switch, "None, a Switch or a switch catalog name")
        object.__setattr__(self, "switch", switch)
        _integer("group.count", self.count, 1)
        _integer("group.switch_count", self.switch_count, 1)
        if self.switch_with is not None and (switch is not None or self.lanes is not None or self.socket is not None):
            raise ParameterError("group.switch_with", self.switch_with, "no switch, lanes or socket of its own for a "
                                 "group sharing another group's switches")
        if switch is None:
            if self.switch_count != 1:
                raise ParameterError("group.switch_count", self.switch_count, "1 for a group without a switch")
            if self.lanes is not None and self.lanes not in LINK_WIDTHS:
                raise ParameterError("group.lanes", self.lanes, f"one of {', '.join(map(str, LINK_WIDTHS))}")
        else:
            if self.lanes is not None:
                raise ParameterError("group.lanes", self.lanes, "None for a group behind a switch (its downstream "
                                     f"ports are x{switch.port_lanes})")
            slots = self.switch_count * switch.ports
            if self.count > slots:
                raise ParameterError("group.count", self.count, f"at most {slots} drives on {self.switch_count} x "
                                     f"{switch.name} ({switch.ports} ports each)")
        if self.socket is not None:
            _integer("group.socket", self.socket, 0)
        if self.workload is not None and not isinstance(self.workload, Workload):
            raise ParameterError("group.workload", self.workload, "None or a Workload")

    def describe(self, host: Host) -> str:
        d = self.drive
        if self.switch_with is not None:
            via = f"the switches of {self.switch_with}"
        elif self.switch is None:
            via = f"direct Gen{int(host.gen)} x{self.lanes or host.port_lanes}"
        else:
            sw = self.switch
            via = f"{self.switch_count} x {sw.name}" + (f" ({sw.uplink_words()})" if sw.uplink_words() else "")
        where = "" if self.socket is None else f", socket {self.socket}"
        own = "" if self.workload is None else f", running {self.workload.describe()}"
        return f"{self.count} x {d.name} (Gen{int(d.gen)} x{d.lanes}) via {via}{where}{own}"

    def host_lanes(self, host: Host) -> int:
        """Host PCIe lanes the group takes: its root ports, or its switches' uplinks (none: another group's)."""
        if self.switch_with is not None:
            return 0
        if self.switch is None:
            return self.count * (self.lanes or host.port_lanes)
        return self.switch_count * self.switch.up_lanes


@dataclasses.dataclass(frozen=True)
class MixedTopology:
    """Several :class:`DriveGroup` under one host, sharing everything above the drives' attach.

    Parameters
    ----------
    name : str
    host : Host
        The shared host: CPU (cycles per I/O count every group's I/O once), sockets, lanes.
    groups : sequence of DriveGroup
        At least one group; group names must be unique.
    fabric, pcie, nvme, extras, extras_sources
        As in :class:`~nvmemodel.topology.topology.Topology`, shared by every group (``tree.*``,
        ``memory.*``, ``cpu.*``, ``raid.*``, ``share.*``). A RAID level applies within each group
        (arrays do not span groups) unless ``mirror``.
    order : str or sequence of int
        The order in which a scaling curve adds drives: ``"sequential"`` (group 0 full, then group 1 …),
        ``"interleaved"`` (one drive per group in turn, skipping full groups), or one group index per
        drive (length = :attr:`max_drives`, each group index exactly ``count`` times).
    notes : str
        Provenance.
    mirror : bool
        The RAID level (``raid.level`` raid1 or raid10 in ``extras``) spans the two groups: drive ``i`` of group 0
        and drive ``i`` of group 1 are a mirrored pair (e.g. one NVMe and one SATA SSD), reads balanced by md's
        rule (:mod:`nvmemodel.ceiling.mirror`). Needs two groups of equal count and ``order="interleaved"``.
    """

    name: str
    host: Host
    groups: tuple[DriveGroup, ...]
    fabric: Fabric | None = None
    pcie: PcieConfig = PcieConfig()  # noqa: RUF009 (frozen, as in Topology)
    nvme: NvmeConfig = NvmeConfig()  # noqa: RUF009
    extras: Mapping[str, float | str] = dataclasses.field(default_factory=dict, compare=False, hash=False)
    extras_sources: Mapping[str, str] = dataclasses.field(default_factory=dict, compare=False, hash=False)
    order: str | tuple[int, ...] = "sequential"
    notes: str = dataclasses.field(default="", compare=False)
    mirror: bool = False

    def __post_init__(self) -> None:
        groups = tuple(self.groups) if isinstance(self.groups, Sequence) else self.groups
        if not isinstance(groups, tuple) or not groups:
            raise ParameterError("groups", self.groups, "at least one DriveGroup")
        for i, g in enumerate(groups):
            if not isinstance(g, DriveGroup):
                raise ParameterError(f"groups[{i}]", g, "a DriveGroup")
        named = tuple(g if g.name else dataclasses.replace(g, name=f"group {i}") for i, g in enumerate(groups))
        object.__setattr__(self, "groups", named)
        names = [g.name for g in named]
        dup = next((n for n in names if names.count(n) > 1), None)
        if dup is not None:
            raise ParameterError("groups", dup, "unique group names")
        for name, value in self.extras.items():
            get(name).check(value)
        self._check_shared_switches(named)
        check_gpu_switches(named, self.extras.get("gpu.attach", "unplaced"), self.extras)
        self._check_sockets_and_lanes()
        if not isinstance(self.order, str):
            object.__setattr__(self, "order", tuple(self.order))
        self._check_order()
        if self.mirror:
            if len(named) != 2 or named[0].count != named[1].count:
                raise ParameterError("mirror", True, "two groups of equal count (drive i of each is a mirrored pair); "
                                     "got " + " + ".join(str(g.count) for g in named))
            if self.order != "interleaved":
                raise ParameterError("order", self.order, "'interleaved' with mirror=True (a pair counts once both "
                                     "members are installed)")
            if self.extras.get("raid.level") not in ("raid1", "raid10", "1", "10"):
                raise ParameterError("raid.level", self.extras.get("raid.level", "none"), "raid1 or raid10 for a mirror "
                                     "spanning groups (drive i of each group mirrors drive i of the other)")
            if any(g.workload is not None for g in named):
                raise ParameterError("workload", "per group", "one workload for a mirror spanning groups (each host "
                                     "I/O reaches both)")
        elif any(g.write_mostly for g in named):
            raise ParameterError("write_mostly", True, "only in a mirror spanning groups (mirror=True)")

    def _check_shared_switches(self, groups) -> None:
        names = [g.name for g in groups]
        for i, g in enumerate(groups):
            if g.switch_with is None:
                continue
            j = names.index(g.switch_with) if g.switch_with in names[:i] else -1
            if j < 0 or groups[j].switch is None or groups[j].switch_with is not None:
                raise ParameterError(f"{g.name}: switch_with", g.switch_with, "the name of an earlier group with "
                                     "switches of its own (" + ", ".join(h.name for h in groups[:i] if h.switch) + ")")
            host = groups[j]
            on = host.count + sum(h.count for h in groups if h.switch_with == host.name)
            slots = host.switch_count * host.switch.ports
            if on > slots:
                raise ParameterError("group.count", on, f"at most {slots} drives on the switches of {host.name} "
                                     f"({host.switch_count} x {host.switch.ports} ports), sharers included")

    def _check_order(self) -> None:
        """``order``: one of :data:`ORDERS`, or one group index per drive, each group's ``count`` times (the drives'
        order itself: :func:`nvmemodel.ceiling.placement.sequence`)."""
        if isinstance(self.order, str):
            if self.order not in ORDERS:
                raise ParameterError("order", self.order, f"one of {', '.join(ORDERS)} or one group index per drive")
            return
        counts = [g.count for g in self.groups]
        seq = np.asarray(self.order)
        ok = seq.ndim == 1 and seq.size == sum(counts) and np.issubdtype(seq.dtype, np.integer) and all(
            int(np.sum(seq == i)) == c for i, c in enumerate(counts))
        if not ok:
            raise ParameterError("order", self.order, f"{ORDERS} or a sequence of {sum(counts)} group indices "
                                 f"holding each group i exactly its count times ({counts})")

    def _check_sockets_and_lanes(self) -> None:
        h = self.host
        free = h.lanes_per_socket - h.reserved_lanes_per_socket
        pinned = [0] * h.sockets
        for g in self.groups:
            if g.socket is not None:
                if g.socket >= h.sockets:
                    raise ParameterError(f"{g.name}: socket", g.socket, f"a socket index 0..{h.sockets - 1} "
                                         f"({h.name} has {h.sockets} socket(s))")
                pinned[g.socket] += g.host_lanes(h)
        for s, used in enumerate(pinned):
            if used > free:
                raise ParameterError(f"socket {s} lanes", used, f"at most {free} free lanes on socket {s} of "
                                     f"{h.name} (groups pinned there: " + ", ".join(
                                         f"{g.name} {g.host_lanes(h)}" for g in self.groups if g.socket == s) + ")")
        total = sum(g.host_lanes(h) for g in self.groups)
        if total > free * h.sockets:
            raise ParameterError("host lanes", total, f"at most {free * h.sockets} free lanes on {h.name} "
                                 f"({h.sockets} x {free}); the groups take " + ", ".join(
                                     f"{g.name} {g.host_lanes(h)}" for g in self.groups))

    @property
    def max_drives(self) -> int:
        """All drives of all groups."""
        return sum(g.count for g in self.groups)

    def replace(self, **changes: Any) -> MixedTopology:
        return dataclasses.replace(self, **changes)

    def group_topology(self, i: int) -> Topology:
        """Group ``i`` as a single-model topology on the shared host: what the existing components evaluate.

        Kept per topology object (it is frozen) while ``extras`` is what it was, so that the group's parameter vector
        (:meth:`Topology.parameters <nvmemodel.topology.topology.Topology.parameters>`) and its levels
        (:func:`~nvmemodel.ceiling.system.levels_of`) are kept too: a mixed topology evaluated again composes the
        groups' kept levels."""
        cache = self.__dict__.get("_group_cache")
        if cache is None:
            cache = {}
            object.__setattr__(self, "_group_cache", cache)  # not a field: replace(), ==, repr ignore it
        hit = cache.get(i)
        if hit is not None and hit.extras == self.extras and hit.extras_sources == self.extras_sources:
            return hit
        cache[i] = t = self._group_topology(i)
        return t

    def _group_topology(self, i: int) -> Topology:
        """:meth:`group_topology`, built."""
        g = self.groups[i]
        host = self.host if g.switch is not None or g.lanes is None else self.host.replace(port_lanes=g.lanes)
        switch, switch_count = g.switch, g.switch_count
        if g.switch_with is not None:  # behind the other group's switches: their downstream ports, their limits
            owner = next(h for h in self.groups if h.name == g.switch_with)
            switch, switch_count = owner.switch, owner.switch_count
        return Topology(name=f"{self.name} [{g.name}]", host=host, drive=g.drive, switch=switch,
                        switch_count=switch_count, fabric=self.fabric, pcie=self.pcie, nvme=self.nvme,
                        notes=self.notes, extras=dict(self.extras), extras_sources=dict(self.extras_sources))

    @classmethod
    def from_topology(cls, topology: Topology, count: int | None = None, *, name: str = "") -> MixedTopology:
        """A single-model topology as a mixed one of one group (``count`` drives, default its maximum)."""
        group = DriveGroup(topology.drive, count or topology.max_drives, switch=topology.switch,
                           switch_count=topology.switch_count if topology.switch else 1, name=name)
        return cls(name=topology.name, host=topology.host, groups=(group,), fabric=topology.fabric,
                   pcie=topology.pcie, nvme=topology.nvme, extras=dict(topology.extras),
                   extras_sources=dict(topology.extras_sources), notes=topology.notes)

    def describe(self) -> str:
        fab = f", over {self.fabric.name}" if self.fabric else ""
        groups = "; ".join(f"{g.name}: {g.describe(self.host)}" for g in self.groups)
        return f"{self.name}: {self.host.name}{fab}; {groups}; up to {self.max_drives} drives, added {self._order_text()}"

    def _order_text(self) -> str:
        return self.order if isinstance(self.order, str) else "in a given order"


def check_gpu_switches(groups, attach, extras=None) -> None:
    """GPUs behind the drives' switches (``gpu.attach=switch``, docs/physics.md §12.10) in a topology of groups: at most
    one group with switches of its own (``gpu.count / switch.count`` GPUs under each of its switches; groups on its
    switches share them). Several would each spread ``gpu.count`` over their own switches, counting GPUs twice. Every
    group sits on those switches (its own or shared with ``switch_with``): a group on root ports would send its data to
    GPUs behind another group's switch, through that switch's uplink, which is not modelled. With ``extras`` (the
    topology's ``gpu.count`` and ``gpu.lanes``) the downstream ports the GPUs take are counted: the drives of the group
    and of the groups sharing its switches must fit in the ports left (as a single-model topology's
    :meth:`~nvmemodel.topology.topology.Topology.max_drives`)."""
    if str(attach).strip().lower() not in ("switch", "2", "2.0"):
        return
    own = [g for g in groups if g.switch is not None]
    if len(own) > 1:
        raise ParameterError("gpu.attach", "switch", "GPUs behind the switches of one group only (here "
                             f"{', '.join(g.name for g in own)} have switches of their own; the others may share "
                             "them with switch_with), or gpu.attach=root_port")
    direct = [g.name for g in groups if g.switch is None and g.switch_with is None]
    if direct:
        raise ParameterError("gpu.attach", "switch", "every group behind the switches the GPUs sit under (switch_with="
                             f"{own[0].name if own else '…'}); {', '.join(direct)} on root ports would send its data "
                             "through another group's switch uplink to the GPUs (not modelled): gpu.attach=root_port")
    if not own or extras is None:
        return
    g = own[0]
    count = float(extras.get("gpu.count", 0.0))
    lanes = float(extras.get("gpu.lanes", 16.0))
    per_switch = int(math.ceil(count / g.switch_count) * math.ceil(lanes / g.switch.port_lanes))
    on = g.count + sum(h.count for h in groups if h.switch_with == g.name)
    free = g.switch_count * (g.switch.ports - per_switch)
    if per_switch and on > free:
        raise ParameterError("group.count", on, f"at most {max(free, 0)} drives on the switches of {g.name} "
                             f"({g.switch_count} x {g.switch.name}, {g.switch.ports} x{g.switch.port_lanes} ports "
                             f"each, {per_switch} taken by the {count:g} GPU(s) of x{lanes:g} behind each switch with "
                             "gpu.attach=switch), sharers included")


def _integer(name: str, value, lo: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
        raise ParameterError(name, value, f"an integer >= {lo}")
