"""What a scaling curve says of its groups (docs/topologies.md "What binds"): the binding component named with the
groups it holds, what holds each group, each group's share, where the composition placed the drives.

A topology is a host holding one or more groups; a :class:`~nvmemodel.topology.mixed.MixedTopology`'s curve (a
:class:`~nvmemodel.ceiling.result.MixedCurve`) holds its groups' arrays, and a curve of one drive model is the
one group of :meth:`MixedTopology.from_topology <nvmemodel.topology.mixed.MixedTopology.from_topology>` ("group 0"),
composed when first asked (the same numbers and names, tests/ceiling/test_mixed.py): :class:`GroupAnswers`, mixed
into :class:`~nvmemodel.ceiling.result.ScalingCurve`, answers the same questions for both.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..units import format_iops

__all__ = ["GroupAnswers"]


def _of_groups(method):
    """A question of groups: a curve of one drive model asks it of itself as the one group of a mixed topology."""

    @functools.wraps(method)
    def ask(self, *args, **kwargs):
        if not hasattr(self.topology, "groups"):
            return getattr(self._one_group, method.__name__)(*args, **kwargs)
        return method(self, *args, **kwargs)

    return ask


class GroupAnswers:
    """The questions of groups, for :class:`~nvmemodel.ceiling.result.ScalingCurve` and its
    :class:`~nvmemodel.ceiling.result.MixedCurve` (whose fields ``groups``, ``group_drives``, ``group_iops``,
    ``group_binding``, ``binding_group``, ``group_ceilings``, ``group_parameters``, ``group_workloads`` they read)."""

    # what the curve that mixes this in provides (ScalingCurve's fields; a MixedCurve's group arrays)
    topology: Any
    workload: Any
    parameters: Any
    drives: Any
    iops: Any
    bytes_per_s: Any
    binding: Any
    block_size: Any
    groups: Any
    group_drives: Any
    group_iops: Any
    group_binding: Any
    binding_group: Any
    group_ceilings: Any
    group_parameters: Any
    group_workloads: Any
    _index: Any

    @functools.cached_property
    def _one_group(self):
        """This curve as the one group of a mixed topology, composed when first asked on its own parameters
        (nothing is added to ``nm.evaluate``'s own work): the composition's per-group arrays, the rest the curve's."""
        from ..topology.mixed import MixedTopology
        from .compose import binding_groups, compose
        from .system import levels_of

        topology = MixedTopology.from_topology(self.topology)
        k = np.asarray(self.drives, dtype=float)[None, :]
        lv = levels_of(self.parameters)  # nm.evaluate's own, kept
        with np.errstate(invalid="ignore"):  # as evaluate_mixed composes it
            out = compose([lv], k, [None], [0.0])
        names, groups = np.asarray(lv.components), tuple(g.name for g in topology.groups)
        return _OneGroup(self, topology=topology, groups=groups, group_drives=k.astype(int),
                         group_iops=out["group_iops"], group_binding=names[out["group_binding"]],
                         binding_group=binding_groups(groups, k, out), group_parameters=(self.parameters,),
                         group_workloads=(self.workload,),
                         group_ceilings=(dict(zip(names, out["group_ceilings"][0], strict=True)),))

    def _unknown_drives(self, i: int | None = None) -> list[tuple[int, tuple]]:
        """The groups (holding drives at point ``i``, or anywhere) whose drive lacks a rating their workload needs:
        (group index, the ratings' names) (:func:`~nvmemodel.ceiling.drive.unknown_drive_fields`). A curve of one
        drive model: its drive, on its own parameters."""
        from .drive import unknown_drive_fields

        if not hasattr(self.topology, "groups"):
            fields = unknown_drive_fields(self.parameters)
            return [(0, fields)] if fields else []
        out = []
        for j, p in enumerate(self.group_parameters):
            held = self.group_drives[j] > 0 if i is None else self.group_drives[j, i] > 0
            if np.any(held) and (fields := unknown_drive_fields(p)):
                out.append((j, fields))
        return out

    @_of_groups
    def placed_at(self, drives: int) -> list | None:
        """The root complexes holding drives at one point, as the composition places the groups
        (:func:`~nvmemodel.ceiling.compose.place` from :func:`~nvmemodel.ceiling.placement.starts`): per complex
        ``(socket, {group index: drives on it})``, in the order first met. None where groups share switches (their
        switches are placed as a set) or for a mirror: no per-complex count is said there."""
        t = self.topology
        if getattr(t, "mirror", False) or len(self.group_parameters) != len(self.groups):
            return None
        from .compose import place
        from .placement import starts, switch_sets
        from .system import levels_of

        if switch_sets(t):
            return None
        i = self._index(drives)
        levels = [levels_of(p) for p in self.group_parameters]
        begin = starts(t, levels[0].p)
        out: dict = {}
        for j, (g, lv) in enumerate(zip(t.groups, levels, strict=True)):
            k = float(self.group_drives[j, i])
            if k <= 0:
                continue
            for key, s, kj, _ in place(lv, k, g.socket, begin[j]):
                if float(kj) > 0:
                    entry = out.setdefault(key, (int(s), {}))
                    entry[1][j] = entry[1].get(j, 0) + round(float(kj))
        return list(out.values())

    @_of_groups
    def shared_level_at(self, drives: int) -> str | None:
        """Where a root complex or socket limit binds for every group (``binding_group`` "host"), the sentence saying
        how the composition placed the drives on that level (QA round 5, G21): the drives each unit in use holds,
        the busiest units' groups and, for root complexes, which are at their limit and which below it (what the
        drives on it bring, as a share of its limit; said only where the groups holding drives run one workload and
        none is behind a switch): ``"At 5 drive(s) the root complexes in use hold 2, 1, 1, 1 drives (a complex on
        socket 0 holds 2: a, b); 3 are at their limit, 1 below it (a complex on socket 1 holding b: its drives bring
        56% of its limit), so the total lies below the root complexes' ceiling alone."`` None where the placement is
        not said (:meth:`placed_at`) or there is nothing to say."""
        i = self._index(drives)
        binding = str(self.binding[i])
        if str(self.binding_group[i]) != "host" or binding not in ("root_complex", "socket_dma", "inter_socket"):
            return None
        placed = self.placed_at(drives)
        if not placed:
            return None

        def held(groups: dict) -> str:
            return ", ".join(f"{self.groups[j]}" + (f" ×{c}" if c > 1 else "") for j, c in sorted(groups.items()))

        def busiest(units, noun) -> str:
            counts = [sum(gs.values()) for _, gs in units]
            top = max(counts)
            which = "; ".join(f"{noun(s)} holds {top}: {held(gs)}" for (s, gs), c in zip(units, counts, strict=True)
                              if c == top)
            return ", ".join(map(str, counts)) + " drives" + (f" ({which})" if len(set(counts)) > 1 else "")

        if binding != "root_complex":
            units = sorted(self.socket_drives_at(drives).items())
            text = f"At {drives} drive(s) the sockets hold {busiest(units, lambda s: f'socket {s}')}"
            room = self._room(i, placed, units) if binding == "socket_dma" else None
            noun, level = "socket", "the sockets' DMA"
        else:
            units = placed
            text = (f"At {drives} drive(s) the root complexes in use hold "
                    f"{busiest(placed, lambda s: f'a complex on socket {s}')}")
            room = self._room(i, placed)
            noun, level = "a complex on socket", "the root complexes'"
        if room is not None:
            below = [(s, gs, u) for (s, gs), u in zip(units, room, strict=True) if u < 1.0 - 1e-9]
            if below and len(below) < len(units):
                full = len(units) - len(below)
                text += (f"; {full} {'is' if full == 1 else 'are'} at the limit, {len(below)} below it (" + "; ".join(
                    f"{noun} {s}" + (f" holding {held(gs)}: its drives bring" if gs else ": no drives,")
                    + f" {u:.0%} of the limit" for s, gs, u in below)
                    + f"), so the total lies below {level} ceiling alone")
        return None if text.endswith(" drives") else text + "."

    def _room(self, i: int, placed: list, sockets: list | None = None) -> list | None:
        """What each unit's drives bring as a share of its limit, each drive at its own limit: per complex of
        :meth:`placed_at` ``Σ_g k_g·d_g / C``, or with ``sockets`` (``[(socket, {group: drives})]``) per socket what
        its complexes pass, ``Σ_j min(Σ_g k_g·d_g, C) / Sock``. None where a group holding drives is behind a switch
        or the groups run different read fractions or I/O sizes (their limits then count different I/Os)."""
        from .system import levels_of

        held = [j for j in range(len(self.groups)) if self.group_drives[j, i] > 0]
        levels = {j: levels_of(self.group_parameters[j]) for j in held}
        if any(np.any(np.isfinite(lv.group)) for lv in levels.values()):
            return None
        if len({(float(lv.p["workload.read_fraction"]), float(lv.p["workload.block_size"]))
                for lv in levels.values()}) != 1:
            return None
        lv0 = levels[held[0]]
        C, Sock = float(lv0.complex), float(lv0.socket)
        bring = [sum(c * float(levels[j].drive) for j, c in gs.items()) for _, gs in placed]
        if sockets is None:
            return [x / C for x in bring]
        passed: dict = {}
        for (s, _), x in zip(placed, bring, strict=True):
            passed[s] = passed.get(s, 0.0) + min(x, C)
        return [passed.get(s, 0.0) / Sock for s, _ in sockets]

    @_of_groups
    def socket_drives_at(self, drives: int) -> dict | None:
        """Per socket ``{group index: drives}`` at one point (:meth:`placed_at`); None where not said."""
        placed = self.placed_at(drives)
        if placed is None:
            return None
        out: dict = {s: {} for s in range(int(float(self.parameters.get("host.sockets", 1))))}
        for s, gs in placed:
            for j, c in gs.items():
                out.setdefault(s, {})[j] = out.setdefault(s, {}).get(j, 0) + c
        return out

    def describe_workload(self) -> str:
        """The workload as evaluated: ``workload``'s description, or where groups carry their own workloads each
        group's (the shared one for those without their own; QA round 5, G3):
        ``"each group's workload (a: 128K read, …; b: 128K write, …)"``."""
        own = [g.workload is not None for g in getattr(self.topology, "groups", ())]
        if not any(own) or len(self.group_workloads) != len(self.groups):
            return self.workload.describe()
        return "each group's workload (" + "; ".join(
            f"{g}: {w.describe()}" for g, w in zip(self.groups, self.group_workloads, strict=True)) + ")"

    @_of_groups
    def binding_group_at(self, drives: int) -> str:
        """The groups the binding component holds with ``drives`` drives (``"gen3"``, ``"a, b"``), or ``"host"``
        where a shared level binds (``"array"``: the members of a mirror spanning the groups)."""
        return str(self.binding_group[self._index(drives)])

    @_of_groups
    def group_iops_at(self, drives: int) -> dict[str, float]:
        """Each group's share of the system ceiling, IOPS."""
        i = self._index(drives)
        return {g: float(self.group_iops[j, i]) for j, g in enumerate(self.groups)}

    @_of_groups
    def held_by_at(self, drives: int) -> dict[str, str]:
        """What holds each group holding drives: its own binding component, or ``"host: <component>"`` for every
        group where a shared level binds."""
        i = self._index(drives)
        shared = self.binding_group[i] == "host"
        return {g: (f"host: {self.binding[i]}" if shared else str(self.group_binding[j, i]))
                for j, g in enumerate(self.groups) if self.group_drives[j, i] > 0}

    @_of_groups
    def describe_binding_at(self, drives: int) -> str:
        """What binds, naming the groups: ``"host: host_cpu"`` (a shared level), ``"gen3: switch_uplink"`` (every
        group holding drives held by one component), or, where the groups are held by different components, each
        with its groups, the curve's binding component first: ``"switched: switch_processing; direct: drive"``."""
        i = self._index(drives)
        group, binding = str(self.binding_group[i]), str(self.binding[i])
        if group == "host" or (group == "array" and not self._sides_differ(i)):
            return f"{group}: {binding}"
        if group == "array":  # a mirror whose sides are held by different components: each side named
            group = ", ".join(g for j, g in enumerate(self.groups) if str(self.group_binding[j, i]) == binding)
            return "array: " + self._per_group(i, binding, group)
        return self._per_group(i, binding, group)

    def _sides_differ(self, i: int) -> bool:
        return len({str(self.group_binding[j, i]) for j in range(len(self.groups)) if self.group_drives[j, i]}) > 1

    def _per_group(self, i: int, binding: str, group: str) -> str:
        parts = {binding: group}
        for j, g in enumerate(self.groups):
            c = str(self.group_binding[j, i])
            if self.group_drives[j, i] > 0 and c != binding:
                parts[c] = f"{parts[c]}, {g}" if c in parts else g
        return "; ".join(f"{gs}: {c}" for c, gs in parts.items())

    def _sizes(self) -> list[float]:
        """Each group's bytes per I/O (its own workload's block size, else the curve's)."""
        return [float(p.get("workload.block_size", self.block_size)) for p in self.group_parameters] or [
            self.block_size] * len(self.groups)

    def _mixed_sizes(self, i: int | None = None) -> bool:
        """Whether the groups holding drives (at point ``i``, or anywhere) run I/Os of different sizes."""
        sizes = self._sizes()
        held = [j for j in range(len(sizes)) if (self.group_drives[j] > 0).any()] if i is None else [
            j for j in range(len(sizes)) if self.group_drives[j, i] > 0]
        return len({sizes[j] for j in held}) > 1

    def _fmt_at(self, i: int) -> str:
        """The ceiling at point ``i``: in bytes/s with its IOPS said to be of mixed sizes where the groups holding
        drives run different block sizes (QA round 4, F16), else as :meth:`_fmt`."""
        if self._mixed_sizes(i):
            return f"{self.bytes_per_s[i] / 1e9:.2f} GB/s ({format_iops(self.iops[i])} of mixed sizes)"
        return self._fmt(self.iops[i], self._sizes()[next((j for j in range(len(self.groups))
                                                           if self.group_drives[j, i] > 0), 0)])

    def _fmt(self, iops: float, size: float | None = None) -> str:
        """A rate for explanations: bandwidth workloads (I/Os of 64 KiB and more) in bytes/s, smaller ones in IOPS."""
        size = self.block_size if size is None else size
        return f"{iops * size / 1e9:.2f} GB/s" if size >= 65536 else format_iops(iops)


class _OneGroup(GroupAnswers):
    """A curve of one drive model seen as the one group of a mixed topology: the group's arrays and topology given,
    everything else the curve's own."""

    def __init__(self, curve, **fields) -> None:
        self.__dict__.update(fields, _curve=curve)

    def __getattr__(self, name: str):
        curve = self.__dict__.get("_curve")
        if curve is None or name.startswith("__"):  # being copied or unpickled: no curve yet
            raise AttributeError(name)
        return getattr(curve, name)
