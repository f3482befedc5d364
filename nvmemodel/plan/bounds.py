"""The upper-bound sentence of each planned configuration (:func:`~nvmemodel.ceiling.tree.upper_bound_text`):
below :mod:`~nvmemodel.plan.result` and :mod:`~nvmemodel.plan.rank`, which both need it."""

from __future__ import annotations

__all__ = ["upper_bound_notes"]


def _key(value):
    """An axis value as the parameter vector holds it: a name stays a name, a number becomes a float."""
    return value if isinstance(value, str) else float(value)


def upper_bound_notes(space, targets, values: dict, n: int) -> list[str]:
    """Per configuration, the sentence saying its result is an upper bound (:func:`~nvmemodel.ceiling.result.
    upper_bound_text`): a host layer above the links whose limit is unknown for its host (root complexes, socket DMA,
    inter-socket link), or a drive limit a target's workload needs that its catalog entry lacks; "" where none."""
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
    known, out, said = {}, [], {}
    varied = [k for k in keys if k in values]
    for i in range(n):
        host = str(values[HOST][i]) if HOST in values else None
        drive = str(values["drive.model"][i]) if "drive.model" in values else None
        same = (host, drive, *(_key(values[k][i]) for k in varied))  # what the sentence depends on (comparisons
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
            note = upper_bound_text(p)
            if note and note not in notes:
                notes.append(note)
        said[same] = "; ".join(notes)
        out.append(said[same])
    return out
