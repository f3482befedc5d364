"""A scaling curve as a JSON document (:meth:`ScalingCurve.to_dict <nvmemodel.ceiling.result.ScalingCurve.to_dict>`):
schema ``nvmemodel.ceilings/1``; a curve of several groups (a :class:`~nvmemodel.ceiling.result.MixedCurve`) is
``nvmemodel.mixed/1``, the same document with its groups added at every level (docs/topologies.md)."""

from __future__ import annotations

import numpy as np

__all__ = ["CURVE_SCHEMA", "GROUPS_SCHEMA", "curve_dict"]

CURVE_SCHEMA = "nvmemodel.ceilings/1"
GROUPS_SCHEMA = "nvmemodel.mixed/1"


def curve_dict(curve) -> dict:
    """The curve's document, every text from its parameter vector.

    ``upper_bound`` is null when every host layer's limit is known, else ``note`` and ``unknown_layers`` (and so not
    applied: a program must be able to tell "no such component", a switch that is absent, from "not known"). A curve
    of groups adds ``order``, ``groups`` (name, description, drive and switch model, counts, lanes, socket, own
    parameters, own workload or null) and per point ``binding_group``, ``binding_text`` (``describe_binding_at``),
    ``groups`` (drives, iops, own binding) and per component alone ``binding`` and ``on_groups`` (null: the system
    ceiling alone; else the groups it is taken on, its headroom against what they deliver); its ``upper_bound`` lists
    in ``drive_groups`` the groups whose drive lacks a rating their workload needs. A curve of one drive model adds
    ``cost_range`` (:meth:`~nvmemodel.ceiling.ranges.CurveRange.to_dict`: the ranged costs — the CPU's, and md RAID's
    published per-array ceiling, ``raid.md_iops`` — and the ceiling and binding at every point with them at their
    dearest and cheapest), null where nothing is ranged."""
    from .tree import unknown_host_layers

    grouped = hasattr(curve.topology, "groups")
    note, unknown = curve.upper_bound_note, curve._unknown_drives()
    bound = None if not note else {"note": note, "unknown_layers": list(unknown_host_layers(curve.parameters))
                                   + (["drive"] if unknown else [])}
    if bound and grouped:
        bound["drive_groups"] = [curve.groups[j] for j, _ in unknown]
    out = {"schema": GROUPS_SCHEMA if grouped else CURVE_SCHEMA, "topology": curve.topology.name,
           "description": curve.topology.describe(), "workload": workload_dict(curve.workload),
           "components": list(curve.ceilings), "upper_bound": bound,
           "parameters": parameters_dict(curve.parameters),
           "points": [_point(curve, i, grouped) for i in range(len(curve.drives))]}
    from .md import md_cost_range
    from .ranges import curve_range  # the ceiling over the published range of the CPU's cost (docs/physics.md §4.1)

    # None: not ranged (a cost of one's own; a mirror of groups); md's published per-array range with the costs
    ranged = curve_range(curve, extra=md_cost_range(curve))
    out["cost_range"] = None if ranged is None else ranged.to_dict()
    if grouped:
        out["order"], out["groups"] = _order(curve.topology), _groups(curve)
    return out


def _point(curve, i: int, grouped: bool) -> dict:
    """Point ``i``: the system ceiling, what binds, every component alone (and the groups)."""
    n = int(curve.drives[i])
    point = {"drives": n, "iops": float(curve.iops[i]), "bytes_per_s": float(curve.bytes_per_s[i]),
             "binding": str(curve.binding[i]),
             "ceilings": {c.component: _alone(curve, c, i, grouped) for c in curve.ceilings_at(n)}}
    if grouped:
        point["binding_group"] = str(curve.binding_group[i])
        point["binding_text"] = curve.describe_binding_at(n)
        point["groups"] = [{"name": g, "drives": int(curve.group_drives[j, i]), "iops": float(curve.group_iops[j, i]),
                            "binding": str(curve.group_binding[j, i]) if curve.group_drives[j, i] else None}
                           for j, g in enumerate(curve.groups)]
    return point


def _alone(curve, c, i: int, grouped: bool) -> dict:
    """A component alone; of groups, whether it binds (a group's own limit may) and the groups it is taken on."""
    from ..cli._common import json_number

    entry = {"iops": json_number(c.iops), "bytes_per_s": json_number(c.bytes_per_s),
             "headroom": json_number(c.headroom)}
    if grouped:
        entry["binding"] = c.binding
        entry["on_groups"] = None if not c.scope else [
            g for j, g in enumerate(curve.groups) if curve.group_drives[j, i] > 0
            and np.isfinite(curve.group_ceilings[j][c.component][i])]
    return entry


def _order(topology):
    return topology.order if isinstance(topology.order, str) else list(topology.order)


def _groups(curve) -> list[dict]:
    """Each group: what it is, its own parameters, its own workload (None: the shared ``workload``)."""
    t, own = curve.topology, ("drive.", "switch.", "host.port_lanes")
    return [{"name": g.name, "description": g.describe(t.host), "count": g.count,
             "drive_model": p["drive.model"], "switch_model": p["switch.model"],
             "switch_count": g.switch_count if g.switch is not None else 0,
             "lanes": int(p["host.port_lanes"]) if g.switch is None else None, "socket": g.socket,
             "parameters": parameters_dict({k: v for k, v in p.items() if k.startswith(own)}),
             "workload": (workload_dict(curve.group_workloads[j]) if g.workload is not None
                          and j < len(curve.group_workloads) else None)}
            for j, (g, p) in enumerate(zip(t.groups, curve.group_parameters, strict=True))]


def workload_dict(wl) -> dict:
    """A workload in JSON."""
    return {"pattern": wl.pattern, "block_size_bytes": wl.block_size, "read_fraction": wl.read_fraction,
            "iodepth": wl.iodepth, "numjobs": wl.numjobs, "io_stack": wl.io_stack.value}


def parameters_dict(p: dict) -> dict:
    """A parameter vector in JSON: categorical values by name, numbers by
    :func:`~nvmemodel.cli._common.json_number` (null where not finite)."""
    from ..cli._common import json_number

    return {k: (v if isinstance(v, str) else json_number(float(v))) for k, v in p.items()}
