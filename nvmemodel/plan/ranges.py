"""What an answer of the planner rests on where software sets it (docs/physics.md §4.1, §6; docs/planning.md):
per target, the CPU's ceiling over the published range of its cost per I/O against the target, and the mean latency
per I/O the target needs at the queue depth asked (Little's law) beside the drive's QD1 latency.

:func:`answer_range_doc` gives the same per target as data (``nvmemodel plan --json``: each answer's ``ranges``):
every ranged figure — the CPU's costs and md RAID's published per-array ceiling — and the ceiling at its dearest and
cheapest ends.

Worked out for the answers shown only (each is one evaluation of its configuration at its drive count per target),
so the planner's walk over the space is not slowed. A mixed base is not ranged (``nvmemodel.ceiling.ranges``).
"""

from __future__ import annotations

import numpy as np

from ..errors import NvmeModelError
from ..parameters import PARAMETERS

__all__ = ["answer_range_doc", "answer_ranges", "configuration"]


def configuration(space, row):
    """The topology and parameter overrides of one planned answer (a row of :attr:`Plan.frame`): the base, its host
    replaced by the ``host`` axis's CPU, the ``connection`` axis as ``switch.model`` / ``host.port_lanes``, every other
    axis as an override. None for a mixed base."""
    from ..topology.host import host_from_text, with_host
    from .space import CONNECTION, HOST

    if hasattr(space.base, "groups"):
        return None
    topo = space.base
    if HOST in space.axes and HOST in row.index:
        topo = with_host(topo, host_from_text(str(row[HOST])))
    over = {}
    for name in space.axes:
        if name not in row.index:
            continue
        value = row[name]
        if name == CONNECTION:
            value = str(value)
            if value.startswith("direct-x"):
                over.update({"switch.model": "none", "host.port_lanes": float(value.removeprefix("direct-x"))})
            else:
                over["switch.model"] = value
        elif name in PARAMETERS:
            over[name] = value if PARAMETERS[name].kind == "categorical" else float(value)
    return topo, over


def answer_ranges(space, targets, row, choices: dict | None = None) -> list[str]:
    """The sentences for one answer: per target where the CPU could bind over its cost's range, the CPU's ceiling
    over that range and its headroom over the target; md's published per-array range where it moves the ceiling
    (docs/physics.md §12.3.1); and Little's law's latency per I/O for the target. A merged
    answer (``choices``: every value it stands for per axis) is said for each I/O stack and drive it stands for.
    [] where nothing applies (a mixed base, a cost of one's own)."""
    import itertools

    from ..ceiling.evaluate import evaluate
    from ..ceiling.md import md_range_lines
    from ..ceiling.ranges import curve_range, iops_span, littles_law_need

    made = configuration(space, row)
    if made is None:
        return []
    topo, over = made
    n = int(row["drives"])
    varied = {k: list(v) for k, v in (choices or {}).items()
              if k in ("workload.io_stack", "drive.model") and len(v) > 1}
    out: list[str] = []
    for t in targets:
        need = float(t.iops_needed) if t.iops_needed > 0 else None
        if not need:
            continue
        for combo in itertools.product(*varied.values()):
            values = {**over, **dict(zip(varied, combo, strict=True))}
            try:
                curve = evaluate(topo, t.workload, drives=[n], overrides=values)
            except NvmeModelError:  # a value only the planner's axes take: nothing said rather than a wrong sentence
                continue
            which = f" ({', '.join(str(v) for v in combo)})" if combo else ""
            r = curve_range(curve)
            for name, (low, high) in (r.cpu_alone_at(n).items() if r is not None else ()):
                if np.isfinite(high) and r is not None:  # (r is not None: the loop runs only then)
                    costs = "; ".join(c.words() for c in r.costs)
                    out.append(f"{t.name}: {name} alone {iops_span(low, high)} over {costs} (docs/physics.md §4.1): "
                               f"headroom over the target {low / need - 1:+.0%} … {high / need - 1:+.0%}")
            for line in md_range_lines(curve, n):  # md's published per-array range, where it moves the ceiling
                said = f"{t.name}: {line.strip()}"
                if said not in out:
                    out.append(said)
            text = littles_law_need(curve, n, need)
            if text:
                line = f"{t.name}{which if 'drive.model' in varied else ''}: {text}"
                if line not in out:
                    out.append(line)
    return out


def answer_range_doc(space, targets, row) -> list[dict]:
    """Per target (with an IOPS need) of one answer (a row of :attr:`Plan.frame`), its ceiling over every ranged
    figure at the answer's drive count: ``{"target", "drives", "iops_needed", "costs"`` (each a
    :meth:`~nvmemodel.ceiling.ranges.CostRange.to_dict`: the CPU's costs, md RAID's per-array ceiling ``raid.md_iops``)
    ``, "dearest", "cheapest"}``, each end ``{"iops", "binding", "headroom"}`` (headroom over the target). For the
    configuration the row names (a merged row: its representative values); [] for a mixed base, where nothing is
    ranged, or a target given as bytes per second alone."""
    from ..ceiling.evaluate import evaluate
    from ..ceiling.md import md_cost_range
    from ..ceiling.ranges import curve_range

    made = configuration(space, row)
    if made is None:
        return []
    topo, over = made
    n = int(row["drives"])
    out: list[dict] = []
    for t in targets:
        need = float(t.iops_needed) if t.iops_needed > 0 else None
        if not need:
            continue
        try:
            curve = evaluate(topo, t.workload, drives=[n], overrides=over)
        except NvmeModelError:  # a value only the planner's axes take: nothing said rather than a wrong figure
            continue
        r = curve_range(curve, extra=md_cost_range(curve))
        if r is None:
            continue
        low, high = r.at(n)
        i = int(np.flatnonzero(r.drives == n)[0])
        out.append({"target": t.name, "drives": n, "iops_needed": need, "costs": [c.to_dict() for c in r.costs],
                    "dearest": {"iops": low, "binding": str(r.binding_low[i]), "headroom": low / need - 1},
                    "cheapest": {"iops": high, "binding": str(r.binding_high[i]), "headroom": high / need - 1}})
    return out
