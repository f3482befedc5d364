"""The upper-bound sentence of each planned configuration (:func:`~nvmemodel.ceiling.tree.upper_bound_text`):
below :mod:`~nvmemodel.plan.result` and :mod:`~nvmemodel.plan.rank`, which both need it."""

from __future__ import annotations

__all__ = ["upper_bound_notes"]


def _key(value):
    """An axis value as the parameter vector holds it: a name stays a name, a number becomes a float."""
    return value if isinstance(value, str) else float(value)


def upper_bound_notes(space, targets, values: dict, n: int, drives=None) -> list[str]:
    """Per configuration, the sentence saying its result is an upper bound (:func:`~nvmemodel.ceiling.result.
    upper_bound_text`): a host layer above the links whose limit is unknown for its host (root complexes, socket DMA,
    inter-socket link), or a drive limit a target's workload needs that its catalog entry lacks; "" where none.

    On a mixed base, each group's drives holding drives at the configuration's ``drives`` (all groups where not
    given) are checked, named by group, as :attr:`MixedCurve.upper_bound_note` names them."""
    from ..ceiling.placement import drives_per_group
    from ..ceiling.tree import upper_bound_text
    from ..topology.drive import get_drive
    from ..topology.host import host_from_text, with_host
    from .space import HOST

    keys = ("tree.complex_bytes_per_s", "memory.peak_bytes_per_s", "tree.inter_socket_bytes_per_s", "host.sockets",
            "drive.rand_read_iops", "drive.rand_write_iops", "drive.seq_read_bytes_per_s",
            "drive.seq_write_bytes_per_s", "workload.read_fraction", "workload.block_size", "raid.level",
            "raid.cycles_per_io", "drive.read_latency_s", "drive.write_latency_s", "workload.iodepth",
            "workload.numjobs", "workload.per_drive", "workload.io_stack")
    base = space.base.group_topology(0) if hasattr(space.base, "group_topology") else space.base
    groups = getattr(space.base, "groups", ())
    said: dict = {}
    known, out = {}, []
    varied = [k for k in keys if k in values]
    for i in range(n):
        host = str(values[HOST][i]) if HOST in values else None
        drive = str(values["drive.model"][i]) if "drive.model" in values else None
        holding = () if len(groups) < 2 else tuple(range(len(groups))) if drives is None else tuple(
            int(g) for g in (drives_per_group(space.base, [int(drives[i])])[:, 0] > 0).nonzero()[0])
        same = (host, drive, holding, *(_key(values[k][i]) for k in varied))  # what the sentence depends on (comparisons
        if same in said:  # only: -0.0 says what 0.0 does), worked out once per combination (planner speed)
            out.append(said[same])
            continue
        notes = []
        for t in targets:
            if (host, t.name) not in known:
                topo = base if host is None else with_host(base, host_from_text(host))
                known[host, t.name] = {k: v for k, v in topo.parameters(t.workload).items() if k in keys}
            p = dict(known[host, t.name])
            if drive is not None:
                p.update({k: v for k, v in get_drive(drive).parameters().items() if k in keys})
            p.update({k: _key(values[k][i]) for k in keys if k in values})
            note = upper_bound_text(p) if not holding else _groups_text(space.base, t, p, holding, keys, known)
            if note and note not in notes:
                notes.append(note)
        said[same] = "; ".join(notes)
        out.append(said[same])
    return out


def _groups_text(topo, target, p: dict, holding: tuple, keys, known: dict) -> str | None:
    """:func:`upper_bound_text` of a mixed base: the shared layers' sentence (``p`` without the drive's fields), then
    each group holding drives whose drive lacks a limit the target's workload needs, by name."""
    from ..ceiling.drive import unknown_drive_fields
    from ..ceiling.tree import upper_bound_text

    host = upper_bound_text({k: v for k, v in p.items() if not k.startswith("drive.")})
    parts = []
    for j in holding:
        if ("group", j, target.name) not in known:
            own = topo.group_topology(j).parameters(target.workload)
            known["group", j, target.name] = {k: v for k, v in own.items() if k in keys and k.startswith("drive.")}
        fields = unknown_drive_fields({**p, **known["group", j, target.name]})
        if fields:
            name = topo.groups[j].name or f"group {j}"
            parts.append(f"the {name} drives' {' and '.join(fields)} {'is' if len(fields) == 1 else 'are'} not known "
                         "(not applied)")
    if not parts:
        return host
    return "; ".join([host, *parts]) if host else "upper bound: " + "; ".join(parts)
