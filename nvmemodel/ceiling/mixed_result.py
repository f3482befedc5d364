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

    def _bytes_alone(self, name: str, x: float, i: int, holding: list, sizes: list) -> float:
        """A component alone (``x`` IOPS of mixed sizes) in bytes/s: where its limits on the groups' drives and
        switches set it, each group's part at its own size; else (a root complex, socket or shared system limit,
        taken at the groups' delivered mix) ``x`` times the bytes per I/O delivered."""
        parts = [float(self.group_ceilings[j][name][i]) for j in holding]
        if all(np.isfinite(v) for v in parts) and np.isclose(sum(parts), x, rtol=1e-12, atol=0.0):
            return float(sum(v * sizes[j] for v, j in zip(parts, holding, strict=True)))
        return x * float(self.bytes_per_s[i]) / float(self.iops[i])

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

