"""The configurations that miss: per family of categorical choices (its combination of drive model, connection,
CPU, I/O stack …), the one that came closest and what it lacks — kept while the planner walks the space, so memory
stays flat; :meth:`nvmemodel.plan.result.Plan.build` writes the reasons."""

from __future__ import annotations

import numpy as np

from ..parameters import PARAMETERS
from .space import CONNECTION, HOST

__all__ = ["family_keys", "record_misses"]


def family_keys(space, shape, codes) -> np.ndarray:
    """Per configuration, the index of its family (its combination of categorical choices)."""
    keys = np.zeros(shape, dtype=np.int64)
    for name in space.categorical_axes:
        keys = keys * len(space.axes[name]) + (codes[name].astype(np.int64) if name in (CONNECTION, HOST)
                                               else _axis_position(space, name, codes[name]))
    return keys


def record_misses(misses, space, shape, families, candidate, row, closest, fractions, lanes_ok, throughput_ok,
                  targets, p0, max_n, lows) -> None:
    """Per family of categorical choices, remember the configuration that came closest (the first of equals).

    ``families``: per configuration (flat) its family (:func:`family_keys`); ``closest``: how close it comes, its
    smallest fraction of a target; ``fractions``: per target its fraction, broadcasting to ``shape`` (the target
    missed is the first smallest of them)."""
    sel = np.flatnonzero(~candidate)
    k = families[sel]
    closeness = np.where(lanes_ok[sel], closest[sel], -1.0)
    first, fam, n_fam = _closest_per_family(k, closeness, int(np.prod([len(space.axes[a])
                                                                      for a in space.categorical_axes])))
    counted = dict(zip(fam.tolist(), n_fam.tolist()))
    for j in first:
        i = sel[j]
        best = misses.get(int(k[j]))
        earlier = 0 if best is None else best["count"]
        if best is not None:
            best["count"] = earlier + counted[int(k[j])]
        if best is None or closeness[j] > best["closeness"]:
            at = np.unravel_index(i, shape)
            # meeting every throughput target, it misses a latency one: the first target's binding is kept
            w = 0 if throughput_ok[i] else int(np.argmin([np.broadcast_to(f, shape)[at] for f in fractions]))

            def value(x, at=at):  # x broadcast to the block's shape, at one configuration
                x = np.asarray(x)
                return float(x[tuple(i if d != 1 else 0 for i, d in zip(at[len(at) - x.ndim:], x.shape))])

            latency, latency_low = {}, {}
            if throughput_ok[i]:  # it meets every throughput target: a latency target fails it
                for t in targets:
                    if t.latency_s is None:
                        continue
                    r, low = value(row[f"{t.name}|latency_s"]), value(lows[t.name])
                    if r > t.latency_s:
                        latency[t.name] = r
                    elif np.isnan(r) and low > t.latency_s:  # unknown, yet Little's law's N/X exceeds it
                        latency[t.name], latency_low[t.name] = None, low
            misses[int(k[j])] = {
                "config": int(row["config"][at]), "closeness": float(closeness[j]), "lanes_ok": bool(lanes_ok[i]),
                "throughput_ok": bool(throughput_ok[i]), "workload": w, "latency": latency,
                "latency_low": latency_low,
                "binding": int(value(row[f"{targets[w].name}|binding"])),
                "ceiling_iops": value(row[f"{targets[w].name}|ceiling_iops"]),
                "max_drives": value(max_n), "drives": value(row["drives"]),
                "slots": None if p0 is None else {name: value(p0[name]) for name in _SLOT_PARAMETERS},
                "switched": p0 is not None and bool(value(p0["attach.switch"]) > 0),
                "raid": _raid_at(p0, value),
                "count": earlier + counted[int(k[j])],  # configurations of this family that miss, so far
            }


def _closest_per_family(k: np.ndarray, closeness: np.ndarray, families: int):
    """Per family key present in ``k`` (ascending): the position of its closest configuration — the largest
    closeness, NaN counting least, the first position of equals — with the families and their counts.

    What sorting by (key, −closeness) stably and taking each key's first gives; with few families (``families``
    keys possible) by one pass of per-family maxima instead of a sort."""
    if families > max(4 * k.size, 1 << 16):
        order = np.lexsort((-closeness, k))  # stable: equals keep the order of their flat indices
        fam, n_fam = np.unique(k, return_counts=True)
        return order[np.r_[True, k[order][1:] != k[order][:-1]]], fam, n_fam
    counts = np.bincount(k, minlength=families)
    fam = np.flatnonzero(counts)
    best = np.full(families, np.nan)
    np.fmax.at(best, k, closeness)  # NaN only where every closeness of the family is NaN
    top = best[k]
    hit = np.flatnonzero((closeness == top) | np.isnan(top))
    firsts = np.full(families, k.size, dtype=np.intp)
    np.minimum.at(firsts, k[hit], hit)
    return firsts[fam], fam, counts[fam]


#: The parameters that set how many drives a configuration can attach (named in the reasons).
def _raid_at(p0, value):
    """``(level, width)`` of a configuration whose drives form whole RAID arrays of ``raid.width`` drives (the
    planner counts only those), else None."""
    from ..ceiling.raid import LEVELS

    if p0 is None or "raid.width" not in p0 or "raid.level" not in p0:
        return None
    level = LEVELS[int(value(p0["raid.level"]))]
    return None if level == "none" else (level, int(value(p0["raid.width"])))


_SLOT_PARAMETERS = ("host.sockets", "host.lanes_per_socket", "host.reserved_lanes_per_socket", "host.port_lanes",
                    "switch.count", "switch.ports", "switch.port_lanes", "gpu.count", "gpu.lanes", "gpu.attach")


def _axis_position(space, name, codes) -> np.ndarray:
    """Position of each code among the axis's own choices (for family keys)."""
    param = PARAMETERS[name]
    axis_codes = [param.code(v) for v in space.axes[name]]
    lookup = np.zeros(max(axis_codes) + 1, dtype=np.int64)
    lookup[axis_codes] = np.arange(len(axis_codes))
    return lookup[codes.astype(np.int64)]
