"""The result of a mixed topology: a :class:`~nvmemodel.ceiling.result.ScalingCurve` that also knows its groups."""

from __future__ import annotations

import dataclasses

import numpy as np

from ..units import format_iops
from .result import Ceiling, ScalingCurve

__all__ = ["GroupCeiling", "MixedCurve"]

JSON_SCHEMA = "nvmemodel.mixed/1"


@dataclasses.dataclass(frozen=True, repr=False)
class GroupCeiling(Ceiling):
    """A component alone in a mixed topology: ``scope`` says on which groups' drives when it does not limit every
    group holding drives (``"on gen3 only"``; its headroom is then against what those groups deliver);
    ``binds_in`` names the groups it holds where the groups are held by different components."""

    scope: str = ""
    binds_in: str = ""

    def __repr__(self) -> str:
        if self.binding and self.binds_in and not np.isfinite(self.iops):  # a mirror's side held by it: no array
            return (f"*{self.component:<17} {'-':>14} {'-':>9}       binding in {self.binds_in} (its members; "
                    "alone it puts no ceiling on the array)")
        text = super().__repr__()
        if self.binding and self.binds_in:
            text = text.replace("binding", f"binding in {self.binds_in}" + (
                f" (on every group +{self.headroom:.1%})" if np.isfinite(self.headroom) and self.headroom > 5e-4
                and not self.scope else ""), 1) if "binding" in text[20:] else text
        return f"{text}  ({self.scope})" if self.scope else text


@dataclasses.dataclass(frozen=True, repr=False)
class MixedCurve(ScalingCurve):
    """System ceiling versus total drive count for a :class:`~nvmemodel.topology.mixed.MixedTopology`.

    Everything a :class:`ScalingCurve` holds (``binding`` names the component; ``per_drive_iops`` is the
    average own limit of the drives installed, so that ``knee()`` compares with ``Σ_g k_g d_g``), plus:

    Attributes
    ----------
    groups : tuple of str
        Group names, in the topology's order.
    group_drives : ndarray of int, shape (groups, points)
        Drives of each group at each point.
    group_iops : ndarray, shape (groups, points)
        Each group's share of the system ceiling (shared limits throttle the groups in proportion).
    group_binding : ndarray of str, shape (groups, points)
        Each group's own binding component (its drives' or its switches' limit).
    group_ceilings : tuple of dict
        Per group, each component alone on that group's drives (IOPS; NaN where the group has none yet).
    binding_group : ndarray of str
        The groups (holding drives) held by ``binding`` at each point, joined by ", ", or ``"host"`` where a shared
        limit binds; with a mirror spanning the groups, ``"array"`` where its members bind. Where different
        components hold different groups, ``binding`` is the one holding the largest share and
        :meth:`describe_binding_at` names each (docs/topologies.md, "What binds").
    group_parameters, group_sources : tuple of dict
        Each group's evaluated parameter vector and sources; ``parameters`` holds the shared ones.
    group_workloads : tuple of Workload
        Each group's evaluated workload (its own where its DriveGroup carries one, else ``workload``).
    """

    groups: tuple = ()
    group_drives: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 0), dtype=int))
    group_iops: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 0)))
    group_binding: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 0), dtype=str))
    group_ceilings: tuple = ()
    binding_group: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, dtype=str))
    group_parameters: tuple = ()
    group_sources: tuple = ()
    group_workloads: tuple = ()

    @property
    def upper_bound_note(self) -> str | None:
        """The sentence saying the curve is an upper bound, else None: the host layers whose limit is unknown and,
        group by group, a drive rating that group's workload needs but its drive's catalog entry lacks
        (:func:`~nvmemodel.ceiling.tree.upper_bound_text`; QA round 5, G7)."""
        return self._upper_bound(None)

    def _unknown_drives(self, i: int | None = None) -> list[tuple[int, tuple]]:
        """The groups (holding drives at point ``i``, or anywhere) whose drive lacks a rating their workload needs:
        (group index, the ratings' names) (:func:`~nvmemodel.ceiling.drive.unknown_drive_fields`)."""
        from .drive import unknown_drive_fields

        out = []
        for j, p in enumerate(self.group_parameters):
            held = self.group_drives[j] > 0 if i is None else self.group_drives[j, i] > 0
            if np.any(held) and (fields := unknown_drive_fields(p)):
                out.append((j, fields))
        return out

    def _upper_bound(self, i: int | None) -> str | None:
        """:attr:`upper_bound_note` over the groups holding drives at point ``i`` (None: anywhere on the curve)."""
        from .tree import upper_bound_text

        host = upper_bound_text(self.parameters)  # the shared parameters: host layers, RAID cost (no drive's)
        unknown = self._unknown_drives(i)
        if len(self.groups) == 1:
            drives = [f"the drive's {' and '.join(f)} {'is' if len(f) == 1 else 'are'} not known (not applied)"
                      for _, f in unknown]
        else:
            drives = [f"the {self.groups[j]} drives' {' and '.join(f)} {'is' if len(f) == 1 else 'are'} not known "
                      "(not applied)" for j, f in unknown]
        if not drives:
            return host
        return "; ".join([host, *drives]) if host else "upper bound: " + "; ".join(drives)

    def placed_at(self, drives: int) -> list | None:
        """The root complexes holding drives at one point, as the composition places the groups
        (:func:`~nvmemodel.ceiling.tree.place_group` from :func:`~nvmemodel.ceiling.compose.starts`): per complex
        ``(socket, {group index: drives on it})``, in the order first met. None where groups share switches (their
        switches are placed as a set) or for a mirror: no per-complex count is said there."""
        t = self.topology
        if getattr(t, "mirror", False) or len(self.group_parameters) != len(self.groups):
            return None
        from .compose import starts, switch_sets
        from .derive import prepare
        from .system import Levels
        from .tree import place_group

        if switch_sets(t):
            return None
        i = self._index(drives)
        levels = [Levels(prepare(p)) for p in self.group_parameters]
        begin = starts(t, levels[0].p)
        out: dict = {}
        for j, (g, lv) in enumerate(zip(t.groups, levels, strict=True)):
            k = float(self.group_drives[j, i])
            if k <= 0:
                continue
            switched = bool(np.any(np.isfinite(lv.group)))
            for key, s, kj, _ in place_group(k, lv.p, lv.switches if switched else None, start=begin[j],
                                             pin=g.socket):
                if float(kj) > 0:
                    entry = out.setdefault(key, (int(s), {}))
                    entry[1][j] = entry[1].get(j, 0) + round(float(kj))
        return list(out.values())

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
        from .derive import prepare
        from .system import Levels

        held = [j for j in range(len(self.groups)) if self.group_drives[j, i] > 0]
        levels = {j: Levels(prepare(self.group_parameters[j])) for j in held}
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

    def binding_group_at(self, drives: int) -> str:
        """The groups the binding component holds with ``drives`` drives (``"gen3"``, ``"a, b"``), or ``"host"``
        where a shared level binds (``"array"``: the members of a mirror spanning the groups)."""
        return str(self.binding_group[self._index(drives)])

    def group_iops_at(self, drives: int) -> dict[str, float]:
        """Each group's share of the system ceiling, IOPS."""
        i = self._index(drives)
        return {g: float(self.group_iops[j, i]) for j, g in enumerate(self.groups)}

    def held_by_at(self, drives: int) -> dict[str, str]:
        """What holds each group holding drives: its own binding component, or ``"host: <component>"`` for every
        group where a shared level binds."""
        i = self._index(drives)
        shared = self.binding_group[i] == "host"
        return {g: (f"host: {self.binding[i]}" if shared else str(self.group_binding[j, i]))
                for j, g in enumerate(self.groups) if self.group_drives[j, i] > 0}

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

    def ceilings_at(self, drives: int) -> list[Ceiling]:
        """Every component alone at one point, binding first (docs/topologies.md, "What binds").

        A component alone is the system ceiling with only that component limiting. A component that does not
        limit every group holding drives would leave the others unlimited (no system ceiling alone): it is
        listed alone on the groups it limits (``scope``), its headroom against what those groups deliver. Where
        the groups are held by different components each is marked binding, with the groups it holds."""
        i = self._index(drives)
        total = float(self.iops[i])
        group, binding = str(self.binding_group[i]), str(self.binding[i])
        per_group = group not in ("host", "array") or (group == "array" and self._sides_differ(i))
        holding = [j for j in range(len(self.groups)) if self.group_drives[j, i] > 0]
        sizes = self._sizes()
        mixed = self._mixed_sizes(i)
        out = []
        for name in self.ceilings:
            x = float(self.ceilings[name][i])
            reach = [j for j in holding if j < len(self.group_ceilings) and name in self.group_ceilings[j]
                     and np.isfinite(self.group_ceilings[j][name][i])]
            holds = [j for j in holding if per_group and str(self.group_binding[j, i]) == name]
            scope, headroom, nbytes = "", np.inf, x * self.block_size
            if np.isfinite(x):
                headroom = x / total - 1
                if mixed:  # each group's I/Os at its own size; the headroom of the bytes (QA round 4, F16)
                    nbytes = self._bytes_alone(name, x, i, holding, sizes)
                    headroom = nbytes / float(self.bytes_per_s[i]) - 1
            elif reach and len(holding) > 1:  # a limit of some groups only: alone on those
                x = float(sum(self.group_ceilings[j][name][i] for j in reach))
                share = float(sum(self.group_iops[j, i] for j in reach))
                headroom = x / share - 1 if share > 0 else np.inf
                nbytes = float(sum(self.group_ceilings[j][name][i] * sizes[j] for j in reach))
                if mixed and share > 0:
                    headroom = nbytes / float(sum(self.group_iops[j, i] * sizes[j] for j in reach)) - 1
                scope = ("alone on the groups it holds" if reach == holds else
                         "on " + ", ".join(self.groups[j] for j in reach) + " only")
            is_binding = bool(holds) if per_group else name == binding
            where = ", ".join(self.groups[j] for j in holds) if per_group and len(holding) > 1 else ""
            sources = (self._cited(name, self.group_parameters[holds[0]], self.group_sources[holds[0]]) if holds
                       else self._cited(name))
            out.append(GroupCeiling(name, x, nbytes, headroom, is_binding,
                                    self.labels.get(name) or name, sources, scope=scope, binds_in=where))
        return sorted(out, key=lambda c: (c.component != binding, not c.binding, c.headroom))

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

    def _bytes_alone(self, name: str, x: float, i: int, holding: list, sizes: list) -> float:
        """A component alone (``x`` IOPS of mixed sizes) in bytes/s: where its limits on the groups' drives and
        switches set it, each group's part at its own size; else (a root complex, socket or shared system limit,
        taken at the groups' delivered mix) ``x`` times the bytes per I/O delivered."""
        parts = [float(self.group_ceilings[j][name][i]) for j in holding]
        if all(np.isfinite(v) for v in parts) and np.isclose(sum(parts), x, rtol=1e-12, atol=0.0):
            return float(sum(v * sizes[j] for v, j in zip(parts, holding, strict=True)))
        return x * float(self.bytes_per_s[i]) / float(self.iops[i])

    def _fmt_at(self, i: int) -> str:
        """The ceiling at point ``i``: in bytes/s with its IOPS said to be of mixed sizes where the groups holding
        drives run different block sizes (QA round 4, F16), else as :meth:`_fmt`."""
        if self._mixed_sizes(i):
            return f"{self.bytes_per_s[i] / 1e9:.2f} GB/s ({format_iops(self.iops[i])} of mixed sizes)"
        return self._fmt(self.iops[i], self._sizes()[next((j for j in range(len(self.groups))
                                                           if self.group_drives[j, i] > 0), 0)])

    def _fmt(self, iops: float, size: float | None = None) -> str:
        size = self.block_size if size is None else size
        return f"{iops * size / 1e9:.2f} GB/s" if size >= 65536 else format_iops(iops)

    def to_frame(self):
        """One row per drive count: the single-model columns plus ``binding_group`` and, per group,
        ``<group>_drives``, ``<group>_iops``, ``<group>_binding``."""
        df = super().to_frame()
        df["binding_group"] = self.binding_group
        for j, g in enumerate(self.groups):
            df[f"{g}_drives"] = self.group_drives[j]
            df[f"{g}_iops"] = self.group_iops[j]
            df[f"{g}_binding"] = self.group_binding[j]
        return df

    def to_dict(self) -> dict:
        """JSON-ready, schema ``nvmemodel.mixed/1``: the fields of ``nvmemodel.ceilings/1`` plus ``order``,
        ``groups`` (name, description, drive and switch model, counts, lanes, socket, own parameters, own workload or
        null) and per
        point ``binding_group``, ``binding_text`` (:meth:`describe_binding_at`), ``groups`` (drives, iops, own
        binding) and per component alone ``binding`` and ``on_groups`` (null: the system ceiling alone; else the
        groups it is taken on, its headroom against what they deliver); ``upper_bound`` also lists in
        ``drive_groups`` the groups whose drive lacks a rating their workload needs."""
        from ..cli._common import json_number

        out = super().to_dict()
        out["schema"] = JSON_SCHEMA
        if self.upper_bound_note:  # each group's drive with its own workload (the shared parameters have no drive)
            from .tree import unknown_host_layers

            unknown = self._unknown_drives()
            out["upper_bound"] = {"note": self.upper_bound_note,
                                  "unknown_layers": list(unknown_host_layers(self.parameters))
                                  + (["drive"] if unknown else []),
                                  "drive_groups": [self.groups[j] for j, _ in unknown]}
        t = self.topology
        out["order"] = t.order if isinstance(t.order, str) else list(t.order)
        own = ("drive.", "switch.", "host.port_lanes")
        out["groups"] = [{
            "name": g.name, "description": g.describe(t.host), "count": g.count,
            "drive_model": self.group_parameters[j]["drive.model"], "switch_model": self.group_parameters[j]["switch.model"],
            "switch_count": g.switch_count if g.switch is not None else 0,
            "lanes": int(self.group_parameters[j]["host.port_lanes"]) if g.switch is None else None, "socket": g.socket,
            "parameters": {k: (v if isinstance(v, str) else json_number(float(v)))
                           for k, v in self.group_parameters[j].items() if k.startswith(own)},
        } for j, g in enumerate(t.groups)]
        for j, g in enumerate(t.groups):  # a group's own workload (None: the shared "workload")
            w = self.group_workloads[j] if g.workload is not None and j < len(self.group_workloads) else None
            out["groups"][j]["workload"] = None if w is None else {
                "pattern": w.pattern, "block_size_bytes": w.block_size, "read_fraction": w.read_fraction,
                "iodepth": w.iodepth, "numjobs": w.numjobs, "io_stack": w.io_stack.value}
        for i, point in enumerate(out["points"]):
            n = int(self.drives[i])
            point["binding_group"] = str(self.binding_group[i])
            point["binding_text"] = self.describe_binding_at(n)
            point["groups"] = [{"name": g, "drives": int(self.group_drives[j, i]), "iops": float(self.group_iops[j, i]),
                                "binding": str(self.group_binding[j, i]) if self.group_drives[j, i] else None}
                               for j, g in enumerate(self.groups)]
            for c in self.ceilings_at(n):  # a component alone on some groups only says on which; binding rows say so
                entry = point["ceilings"][c.component]
                entry["binding"] = c.binding
                entry["on_groups"] = self._scope_groups(c, i)
        return out

    def _scope_groups(self, c, i) -> list | None:
        """The groups a ceiling alone is taken on (None: the system, every group)."""
        if not c.scope:
            return None
        return [g for j, g in enumerate(self.groups) if self.group_drives[j, i] > 0
                and np.isfinite(self.group_ceilings[j][c.component][i])]

    def __repr__(self) -> str:
        last = int(self.drives[-1])
        return (f"<MixedCurve {self.topology.name} | {len(self.groups)} groups | {self.describe_workload()} | "
                f"drives {self.drives[0]}..{last}: {format_iops(self.iops[-1])}"
                f"{' of mixed sizes' if self._mixed_sizes(len(self.drives) - 1) else ''} at the end "
                f"({self.describe_binding_at(last)}), "
                f"{self.knee_words()}"
                f"{'; ' + self.upper_bound_note if self.upper_bound_note else ''}>")

