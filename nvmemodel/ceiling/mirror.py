"""A software mirror whose members come from two groups: md RAID-1/10 of one NVMe and one SATA-class SSD per pair.

The array of a :class:`~nvmemodel.topology.mixed.MixedTopology` with ``mirror=True`` pairs drive ``i`` of group 0
with drive ``i`` of group 1 (md RAID-10's ``near=2`` layout puts a chunk's two copies on adjacent devices, so
``--raid-devices`` listed as a0 b0 a1 b1 … gives exactly these pairs; RAID-1 is one pair). A host write goes to
both members; a host read to one, chosen by md's read balancing (docs/physics.md §12.9):

* Linux ``drivers/md/raid1.c`` ``read_balance()`` → ``choose_best_rdev()`` (the 2024 refactor by Yu Kuai, Linux
  6.9; the policy dates from commit 9dedf60313fa "md/raid1: read balance chooses idlest disk for SSD", 2012):
  a member marked ``WriteMostly`` is skipped (``rdev_readable``) unless no other can read; a random read goes
  to an idle member if there is one, else — when any member is non-rotational — to the member with the fewest
  I/Os in flight (``nr_pending``); a sequential read stays on the member it started on until it exceeds that
  member's optimal I/O size (``should_choose_next``).
* ``drivers/md/raid10.c`` ``read_balance()``: the same rule among a chunk's copies (commit "md/raid10: read
  balance chooses idlest disk for SSD", Guoqing Jiang, 2019: the copy on a non-rotational device with the
  fewest pending I/Os).

Least-pending dispatch is work-conserving: with reads queued on both members each stays busy, so at saturation
the array serves reads at what both members can deliver together, the split following their speed (the known
trap is latency, not this ceiling: a read sent to the slow member waits for it). With host read fraction ``f``,
per-pair read and write capacities ``R_a, W_a, R_b, W_b`` (each member's drive and switch limits on the drives'
own I/O of ``S_d`` bytes) and a share ``s`` of the reads on ``a``, each member must fit
``X (f s_i / R_i + (1 − f) / W_i) ≤ 1``; the largest ``X`` over ``s`` is::

    X = min( (R_a + R_b) / (f + (1 − f) (R_a / W_a + R_b / W_b)),  W_a / (1 − f),  W_b / (1 − f) )

and with ``b`` write-mostly (``mdadm --write-mostly``: every read on ``a``)
``X = min( 1 / (f / R_a + (1 − f) / W_a),  W_b / (1 − f) )``. RAID-10 stripes ``S / S_d`` chunks evenly over the
pairs, so the host ceiling is ``X / (S / S_d)`` over all pairs together; shared system limits (CPU with the RAID
layer's cycles, the RAID layer's own rate, fabric) then apply to host I/O as everywhere. A pair counts once both
members are installed (the curve adds drives interleaved: a0, b0, a1, b1, …). Root complexes and sockets: each
member's I/O at ``X`` is known, so each unit is checked and listed alone (:func:`_host_levels`, with the
composition's placement and load arithmetic); one that would bind is refused (md would move reads away from it).
Broadcasts over a sweep's configurations (``(configurations, 1)``
columns of shared parameters).
"""

from __future__ import annotations

import functools

import numpy as np

from ..errors import ParameterError
from .components import COMPONENT_LABELS
from .derive import prepare
from .system import Levels, switched_local

__all__ = ["describe_mirror", "mirror_curve", "mirror_iops", "read_share", "sweep_mirror"]

_INF = float("inf")


def mirror_iops(Ra, Wa, Rb, Wb, f, *, write_mostly_b: bool = False):
    """Host I/Os per second a pair set (members ``a``, ``b``) serves under md's read balancing (formula above).

    ``Ra``, ``Wa``, ``Rb``, ``Wb``: read and write capacities of each side, drive I/Os per second; ``f`` the
    host read fraction. Broadcasts.

    >>> mirror_iops(1e6, 2e5, 1e5, 5e4, 1.0)      # reads only: both members, 1.0 M + 0.1 M
    1100000.0
    >>> mirror_iops(1e6, 2e5, 1e5, 5e4, 0.0)      # writes only: each write on both, the slower sets it
    50000.0
    >>> mirror_iops(1e6, 2e5, 1e5, 5e4, 1.0, write_mostly_b=True)   # b write-mostly: reads on a alone
    1000000.0
    """
    ra, wa, rb, wb, fr = (np.asarray(x, dtype=float) for x in (Ra, Wa, Rb, Wb, f))
    balanced, cap_a, cap_b = _terms(ra, wa, rb, wb, fr, write_mostly_b)
    x = np.fmin(balanced, np.fmin(cap_a, cap_b))
    return x if x.ndim else float(x)


def _terms(Ra, Wa, Rb, Wb, f, write_mostly_b: bool):
    """The three terms of :func:`mirror_iops`: the balanced one (reads on both sides, or on ``a`` alone with ``b``
    write-mostly) and each side's writes alone, ``W / (1 − f)`` (``inf`` without writes; ``a``'s also with ``b``
    write-mostly, where it is inside the balanced term)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        w = 1.0 - f
        cap_a, cap_b = np.where(w > 0, Wa / w, _INF), np.where(w > 0, Wb / w, _INF)
        if write_mostly_b:
            return 1.0 / (f / Ra + w / Wa), np.full(np.shape(cap_a), _INF), cap_b
        return (Ra + Rb) / (f + w * (Ra / Wa + Rb / Wb)), cap_a, cap_b


def read_share(Ra, Wa, Rb, Wb, f, x, *, write_mostly_b: bool = False):
    """The share of the reads on side ``a`` at the throughput ``x`` (drive I/Os per second per pair set) where
    :func:`mirror_iops` is reached: both sides busy, ``s = R_a (1/x − (1 − f)/W_a) / f`` (1 with ``b``
    write-mostly; 0.5 without reads or throughput)."""
    if write_mostly_b:
        return np.ones(np.shape(x)) if np.ndim(x) else 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.clip(Ra * (1.0 / x - (1.0 - f) / Wa) / f, 0.0, 1.0)
    return np.where(np.isfinite(s) & (np.asarray(x) > 0) & (f > 0), s, 0.5)


def describe_mirror(topology, params, split=None) -> str:
    """One sentence on a mirror spanning two groups, for explanations; ``split``: the host reads per second each
    side serves at the point explained (the sentence then says what the split is: QA round 4, F3)."""
    a, b = topology.groups
    level = str(params.get("raid.level", "raid10")).upper().replace("RAID", "RAID-")
    reads = (f"every read on {a.name} ({b.name} is write-mostly)" if b.write_mostly else
             "reads balanced by md onto the member with the fewest I/Os in flight")
    if split is not None and not b.write_mostly:
        ra, rb = (max(float(x), 0.0) for x in split)
        if ra + rb <= 0:
            reads += " (this workload has no reads)"
        elif min(ra, rb) <= 1e-6 * (ra + rb):  # one side spends all its time on the writes
            busy, other = (b.name, a.name) if rb <= ra else (a.name, b.name)
            reads = (f"reads balanced by md onto the member with the fewest I/Os in flight: {busy} is saturated by "
                     f"the writes, so every read goes to {other}")
        else:
            reads += (f": both serve reads at saturation, {a.name} {ra / (ra + rb):.0%} of them, "
                      f"{b.name} {rb / (ra + rb):.0%}")
    return (f"Software {level} across the groups: drive i of {a.name} mirrors drive i of {b.name}; every write "
            f"goes to both members, {reads} (docs/physics.md §12.9).")


def check_mirror(topology, p) -> None:
    """What a spanning mirror needs: RAID-1 (one pair) or RAID-10, two groups of equal count, interleaved order,
    a healthy array (root-complex and socket limits: :func:`_host_levels`)."""
    from .raid import LEVELS

    level = LEVELS[int(p["raid.level"])]
    if level not in ("raid1", "raid10"):
        raise ParameterError("raid.level", level, "raid1 or raid10 for a mirror spanning groups (mirror=True)")
    a, b = topology.groups
    if level == "raid1" and a.count != 1:
        raise ParameterError("groups", f"{a.count} + {b.count}", "one drive per group for RAID-1 across groups "
                             "(md RAID-1 of more members keeps more copies; use raid10 for several pairs)")
    if float(p.get("raid.degraded", 0.0)) > 0:
        raise ParameterError("raid.degraded", p["raid.degraded"], "0 for a mirror spanning groups (healthy pairs)")


def evaluate_mirror(topology, workload, params: list, n: np.ndarray):
    """The curve of a spanning mirror (two groups' parameter mappings ``params``, encoded, raid extras set)."""
    p0 = prepare(dict(params[0]))
    check_mirror(topology, p0)
    level_lv = [Levels(prepare(dict(p))) for p in params]  # with the RAID layer: shared system limits, names
    S = np.asarray(p0["workload.block_size"], dtype=float)  # one configuration, or a sweep's (configurations, 1)
    f = np.asarray(p0["workload.read_fraction"], dtype=float)
    from .raid import LEVELS

    striped = LEVELS[int(p0["raid.level"])] == "raid10"
    S_d = np.fmin(S, np.asarray(p0["raid.chunk_bytes"], dtype=float)) if striped else S
    pieces = S / S_d
    pairs = np.floor(n / 2.0)
    names = level_lv[0].components
    # each side's read-only and write-only capacity on the drives' own I/O, per component and all together
    side, side_lv = [], []
    for p in params:
        caps, lvs = {}, {}
        for mode, frac in (("read", 1.0), ("write", 0.0)):
            q = prepare({**p, "raid.level": 0.0, "workload.block_size": S_d, "workload.read_fraction": frac})
            lv = lvs[mode] = Levels(q)
            caps[mode] = (switched_local(pairs, lv.drive, lv.group, lv.switches), lv.limits, lv.switches,
                          lv.drive_index, lv.group_index, lv.drive, lv.group)
        side.append(caps)
        side_lv.append(lvs)
    wm = topology.groups[1].write_mostly

    def x_of(ra, wa, rb, wb):
        with np.errstate(invalid="ignore"):
            return np.where(pairs > 0, mirror_iops(ra, wa, rb, wb, f, write_mostly_b=wm), 0.0) / pieces

    local = x_of(side[0]["read"][0], side[0]["write"][0], side[1]["read"][0], side[1]["write"][0])
    # a shared system limit: the smaller of the two sides' values (equal unless it depends on the drive, as a
    # host-wide queue depth's Little's law does: then the slower side's, a conservative choice)
    system = [functools.reduce(np.fmin, [np.asarray(lv.limits[c].system, dtype=float) for lv in level_lv])
              for c in range(len(names))]
    S_sys = functools.reduce(np.fmin, system)
    total = np.fmin(local, S_sys)
    # a sweep's configurations, (configurations, 1), even where a gridded value (the socket DMA's share, the remote
    # fraction) moves no side's capacity and no shared system limit: it still sets a host level below (DIFFQA P3)
    configs = [np.shape(v) for p in params for v in p.values() if isinstance(v, np.ndarray)]
    shape = np.broadcast_shapes(np.shape(total), np.shape(n), *configs)
    total = np.broadcast_to(total, shape).astype(float)
    local = np.broadcast_to(local, shape)
    ceilings = {}
    for c, name in enumerate(names):
        alone = []  # each side's and mode's ceiling of this component
        for s in side:
            for mode in ("read", "write"):
                lim = s[mode][1][c]
                used = np.fmin(pairs, s[mode][2])
                with np.errstate(invalid="ignore"):  # no pair yet x an absent (inf) limit: 0 IOPS below anyway
                    alone.append(np.fmin(pairs * lim.drive, used * lim.group))
        x = x_of(*alone) if any(np.any(np.isfinite(v)) for v in alone) else np.full(n.shape, _INF)
        ceilings[name] = np.broadcast_to(np.fmin(x, system[c]), shape).astype(float)
    # a shared limit binds: the smallest component alone (that limit), ties to the component nearer the drive
    table = np.nan_to_num(np.array([ceilings[name] for name in names]), nan=_INF)
    smallest = np.argmin(table, axis=0)
    host = total < local
    Ra, Wa, Rb, Wb = (side[g][m][0] for g in (0, 1) for m in ("read", "write"))
    s = read_share(Ra, Wa, Rb, Wb, f, local * pieces, write_mostly_b=wm)
    # host I/Os per second reaching each group's members: its share of the reads, every write
    per_group = np.array([total * (f * s + (1 - f)), total * (f * (1 - s) + (1 - f))])
    # the root complexes and sockets the members sit on: checked at the array's throughput, listed alone
    for name, x in _host_levels(topology, side_lv, pairs, total, pieces, f, s, n, p0).items():
        ceilings[name] = np.broadcast_to(np.fmin(ceilings[name], x), shape).astype(float)
    # else what holds each side's capacities in the term that sets the array's (docs/topologies.md "What binds"):
    # one component for every active capacity binds; different ones are named per side, the side with the larger
    # share of the I/O first
    held = _held_sides(side, pairs, f, wm, shape)
    one = np.all([(h < 0) | (h == held[0][0]) for hs in held for h in hs], axis=0)
    share_a = per_group[0] >= per_group[1]
    # a side's own: the component of the capacity its members spend more of their time on (reads s_g·f/R_g against
    # writes (1 − f)/W_g), among those in the setting term
    with np.errstate(divide="ignore", invalid="ignore"):
        busy = [(f * s / Ra, (1 - f) / Wa), (f * (1 - s) / Rb, (1 - f) / Wb)]
    first = [np.where((hs[0] >= 0) & ((hs[1] < 0) | (np.nan_to_num(b[0]) >= np.nan_to_num(b[1]))), hs[0], hs[1])
             for hs, b in zip(held, busy, strict=True)]
    local_pick = np.where(one, np.where(held[0][0] >= 0, held[0][0], held[1][0]),
                          np.where(share_a & (first[0] >= 0), first[0], first[1]))
    index = np.where(host | (local_pick < 0), smallest, local_pick)
    binding = np.asarray(names)[np.broadcast_to(index, shape)]
    side_binding = np.array([np.asarray(names)[np.broadcast_to(np.where(h >= 0, h, smallest), shape)] for h in first])
    return (total, binding, ceilings, local, host, {name: COMPONENT_LABELS[name] for name in names}, per_group,
            side_binding)


def check_pairs(n) -> None:
    """Whole pairs only: a spanning mirror's total drive counts are even."""
    if np.any(n % 2):
        raise ParameterError("drives", n.tolist(), "even total drive counts with mirror=True (complete pairs: 2, 4, …)")


def mirror_curve(topology, workload, params: list, n: np.ndarray) -> dict:
    """What ``nm.evaluate`` of a mixed topology with ``mirror=True`` puts in its curve besides what every mixed
    curve holds (:func:`evaluate_mirror` on the groups' parameter mappings ``params``, at total drive counts ``n``):
    the system ceiling, binding component, each component alone, what reaches each group, and per point whether a
    shared (``"host"``) or the array's own limit (``"array"``) holds it."""
    from ..parameters import encode

    check_pairs(n)
    total, binding, ceilings, local, host, labels, per_group, sides = evaluate_mirror(topology, workload,
                                                                               [encode(p) for p in params], n)
    return {"iops": total, "bytes_per_s": total * float(params[0]["workload.block_size"]), "binding": binding,
            "ceilings": ceilings, "per_drive_iops": np.where(n > 0, local / n, np.nan), "labels": labels,
            "group_iops": per_group, "group_binding": sides,
            "group_ceilings": tuple(dict(ceilings) for _ in topology.groups),
            "binding_group": np.where(host, "host", "array")}


def sweep_mirror(topology, workload, n: np.ndarray, grid: dict, check: bool) -> tuple:
    """``nm.sweep`` of a mirror spanning the groups: ``(iops, binding codes, component names, the grid's arrays,
    first group's parameters)``, :func:`evaluate_mirror` over the configurations as ``(configurations, 1)``
    columns, chunk by chunk (:func:`~nvmemodel.ceiling.compose.sweep_chunks`, the loop of every sweep). Shared
    parameters only; the RAID geometry and the placement one value."""
    from ..parameters import encode
    from .compose import sweep_chunks
    from .grid import sweep_parameters
    from .group_parameters import GROUP_OWNED
    from .tree import _PLACEMENT

    check_pairs(n)
    for name in grid:
        if name.startswith(("raid.", *GROUP_OWNED)) or name in _PLACEMENT:
            raise ParameterError(name, "(grid)", "a shared parameter other than the RAID geometry for a mirror "
                                 "spanning groups (set raid.* and the groups on the topology)")
    encoded = []
    arrays: dict = {}
    configs = 1
    for i in range(len(topology.groups)):
        t = topology.group_topology(i)
        p, arrays, configs = sweep_parameters(t, workload, grid, check=check)
        base = encode(t.parameters(workload))
        base.update({k: p[k] for k in ("host.cycles_per_io",) if "workload.io_stack" in arrays and k not in arrays})
        base.update(arrays)
        encoded.append(base)
    counts = n.astype(float)

    def run(columns, iops, binding):
        total, bound, ceilings, *_ = evaluate_mirror(topology, workload, columns, counts)
        names = tuple(ceilings)
        iops[...] = total
        binding[...] = _codes(names, bound)
        return names

    iops, binding, names = sweep_chunks(encoded, configs, n.size, run)
    return iops, binding, names, arrays, encoded[0]


def _codes(names, binding) -> np.ndarray:
    """Component names → their index in ``names`` (int8)."""
    lookup = {name: i for i, name in enumerate(names)}
    return np.vectorize(lookup.__getitem__, otypes=[np.int8])(binding)


class MirrorLimitError(ParameterError):
    """A root-complex or socket limit would bind a mirror spanning groups (not composed yet)."""

    def __init__(self, message: str) -> None:
        ValueError.__init__(self, message)

    def __str__(self) -> str:
        return str(self.args[0])


_HOST_LEVELS = (("complex", "tree.complex_bytes_per_s", "root complex"),
                ("socket", "memory.peak_bytes_per_s", "socket"))


def _host_levels(topology, side_lv, pairs, total, pieces, f, s, n, p0) -> dict:
    """The root complexes and sockets under a spanning mirror (QA round 4, F3). Per pair both members' I/O is known
    at the array's throughput (``total`` host I/Os per second, ``pieces`` drive I/Os per host I/O; side ``a`` serves the share
    ``s`` of the reads, both every write), and each group's members sit where the host's placement puts them
    (:func:`~nvmemodel.ceiling.compose.place`, continuing where the group before stopped). A unit's load
    fraction is ``Σ_members (reads / its read limit + writes / its write limit)`` (the limits in the drives' own
    I/O, from the same components). Where every unit stays within its limit, the levels do not change the answer
    and each is listed alone (:func:`~nvmemodel.ceiling.compose.alone_at_load`, as for groups of different sizes);
    where one would exceed it, md's read balancing would move reads away from it — not modelled yet: refused in one
    sentence."""
    from .compose import alone_at_load, place, unit_loads
    from .placement import starts

    out: dict = {}
    names = side_lv[0]["read"].components
    begin = starts(topology, side_lv[0]["read"].p)
    placed = [[(key, sock, kj) for key, sock, kj, _ in place(side_lv[g]["read"], pairs, group.socket, begin[g])]
              for g, group in enumerate(topology.groups)]
    with np.errstate(divide="ignore", invalid="ignore"):
        per_pair = np.where(pairs > 0, total * pieces / np.where(pairs > 0, pairs, 1.0), 0.0)
        reads = (f * s, f * (1.0 - s))
        for c, name in enumerate(names):
            for level, field, unit in _HOST_LEVELS:
                limits = [(getattr(lv["read"].limits[c], level), getattr(lv["write"].limits[c], level))
                          for lv in side_lv]
                if all(np.all(np.asarray(x) == _INF) for pair in limits for x in pair):
                    continue
                member = [per_pair * (reads[g] / r + (1.0 - f) / w) for g, (r, w) in enumerate(limits)]
                loads = unit_loads((key if level == "complex" else sock, kj * member[g])
                                   for g, units in enumerate(placed) for key, sock, kj in units)
                shape = np.broadcast_shapes(*(np.shape(v) for v in loads.values()))
                u = np.array([np.broadcast_to(x, shape) for x in loads.values()])
                if np.any(u > 1.0 + 1e-9):
                    _refuse(u, level, field, unit, n, p0, name)
                x = alone_at_load(total, np.sum(u > 0, axis=0), np.sum(u, axis=0))  # host I/Os scale with the drives'
                out[name] = x if name not in out else np.fmin(out[name], x)
    return out


def _refuse(u, level, field, unit, n, p0, name="socket_dma"):
    """One sentence: the busiest unit's load and its limit, in bytes/s, and why the mirror is not composed with it.
    A socket held by the inter-socket link (not its memory DMA) is said as the link's share of its limit: its load
    is the socket's remote traffic, not every byte through the socket (DIFFQA P3: '124.3 GB/s through one socket,
    above its 77.82 GB/s' for 2 drives behind a 1 GB/s link)."""
    from ..parameters import PARAMETERS

    k = np.unravel_index(int(np.argmax(u)), u.shape)
    drives = int(np.asarray(n).reshape(-1)[k[-1]]) if np.ndim(n) else int(n)
    if level == "socket" and name == "inter_socket":
        link = "tree.inter_socket_bytes_per_s"
        raise MirrorLimitError(
            f"a mirror spanning groups cannot yet be composed with an inter-socket link limit that binds: at {drives} "
            f"drives its members' remote traffic would need {float(u[k]):.0%} of the link "
            f"({link} = {PARAMETERS[link].format(float(np.max(np.asarray(p0[link], dtype=float))))}), and md "
            "would shift reads away from it, which the model does not follow")
    limit = float(np.max(np.asarray(p0[field], dtype=float)))
    if level == "socket":
        limit *= float(np.max(np.asarray(p0["memory.dma_fraction"], dtype=float)))
    fmt = PARAMETERS[field].format
    raise MirrorLimitError(
        f"a mirror spanning groups cannot yet be composed with a {unit} limit that binds: at {drives} "
        f"drives its members would move {fmt(float(u[k]) * limit)} through one {unit}, above its "
        f"{fmt(limit)} ({field}{' x memory.dma_fraction' if level == 'socket' else ''}), and md "
        "would shift reads away from it, which the model does not follow")


def _held_sides(side, pairs, f, write_mostly_b, shape):
    """Per side ``[read component, write component]`` (index, ``-1`` where that capacity is not in the term that sets
    the array's throughput): each capacity held by its drive level or its switches (the smaller candidate, ties to
    the drive, :func:`~nvmemodel.ceiling.system.pick`). Writes reach both sides; reads a side that is not
    write-mostly. Where one side's write capacity alone sets the array (``W/(1 − f)``), only it is active."""
    from .system import pick, switches_alone

    out = []
    for mode_caps in side:
        row = []
        for mode in ("read", "write"):
            _, _, m, di, gi, d, g = mode_caps[mode]
            row.append(np.broadcast_to(pick([(pairs * d, di), (switches_alone(pairs, d, g, m), gi)], shape)[1],
                                       shape).astype(np.int16))
        out.append(row)
    Ra, Wa, Rb, Wb = (side[g][m][0] for g in (0, 1) for m in ("read", "write"))
    w = 1.0 - np.asarray(f, dtype=float)
    balanced, cap_a, cap_b = _terms(Ra, Wa, Rb, Wb, f, write_mostly_b)
    by_b = (cap_b <= balanced) & (cap_b <= cap_a)
    by_a = ~by_b & (cap_a <= balanced)
    reads = np.asarray(f) > 0
    writes = w > 0
    none = np.int16(-1)
    balance = ~by_a & ~by_b  # the balanced term: both sides' reads (a's alone if b is write-mostly), their writes
    active = {(0, "read"): balance & reads, (0, "write"): writes & ~by_b,
              (1, "read"): balance & reads & (not write_mostly_b),
              (1, "write"): writes & (by_b | (balance & (not write_mostly_b)))}
    for g in (0, 1):
        for k, mode in enumerate(("read", "write")):
            out[g][k] = np.broadcast_to(np.where(np.broadcast_to(active[(g, mode)], shape), out[g][k], none), shape)
    return out
