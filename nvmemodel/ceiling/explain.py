"""Plain-language accounts of what limits a scaling curve, point by point."""

from __future__ import annotations

import numpy as np

from ..units import format_iops


def _gbps(x: float) -> str:
    return f"{x / 1e9:.2f} GB/s ({x / 2**30:.2f} GiB/s)"


def _short(source, limit: int = 90) -> str:
    """``status: first sentence of the citation`` cut to ``limit`` characters."""
    text = str(source)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def one_cost_sentence(host, io_stack) -> str:
    """Where the host charges one CPU cost per I/O for every I/O stack (a cost measured on one OS and stack, e.g.
    ION's Windows StorPort), the sentence saying so — the stack a workload names is not what is charged; "" for a
    host whose cost is a stack's (scaled to the stack named) or that has none. ``nvmemodel ceilings`` prints it
    under its header and a fit's explanation ends with it, from here."""
    if host.cycles_per_io is None or host.cycles_stack:
        return ""
    src = host.sources(io_stack)["host.cycles_per_io"]
    return (f"the host CPU is charged this host's {host.cycles_per_io:,.0f} cycles per I/O whatever the stack: "
            f"{src.status}: {src.text[:90]}{'…' * (len(src.text) > 90)}")


def explain_point(curve, drives: int) -> str:
    """Why the system reaches what it reaches at one drive count. A topology of several groups (a
    :class:`~nvmemodel.topology.mixed.MixedTopology`) is said with the same lines, plus where the binding limit sits
    (``Where:``, docs/topologies.md "What binds") and what holds each group (:func:`_group_lines`)."""
    grouped = hasattr(curve.topology, "groups")
    i = curve._index(drives)
    cs = curve.ceilings_at(drives)
    top = cs[0]
    mixed = grouped and curve._mixed_sizes(i)  # the groups' I/Os differ in size: their IOPS add, but say so
    workload = curve.describe_workload() if grouped else curve.workload.describe()
    reach = f"{format_iops(curve.iops_at(drives))}{' of mixed sizes' if mixed else ''} = {_gbps(curve.bandwidth_at(drives))}"
    lines = [f"{curve.topology.name}, {workload}, {drives} drive(s): at most {reach}.",
             f"Binding: {top.label} [{top.component}]."]
    held: set[str] = set()  # components holding groups
    exclude: set[str] = set()  # and those not said again below
    if grouped:
        where, held, exclude = _where(curve, i, drives)
        lines.append(f"Where: {where}.")
    if top.sources:
        lines.append("Set by: " + "; ".join(f"{name} = {value} ({_short(src)})" for name, value, src in top.sources)
                     + ".")
    from .raid import describe_raid

    raid: str | None
    if getattr(curve.topology, "mirror", False):  # a mirror spanning groups: md's read balancing, not a divisor
        from .mirror import describe_mirror

        writes = (1.0 - float(curve.parameters.get("workload.read_fraction", 1.0))) * float(curve.iops[i])
        split = (curve.group_iops[0, i] - writes, curve.group_iops[1, i] - writes)  # how md splits the reads here
        raid = describe_mirror(curve.topology, curve.parameters, split)
    else:
        raid = describe_raid(curve.parameters, drives)
    if raid:
        lines.append(raid)
    if top.component == "inter_socket":  # QA round 4, F24: where the per-socket model is conservative, say by how much
        caveat = _inter_socket_caveat(curve, drives)
        if caveat:
            lines.append(caveat)
    if curve.iops_at(drives) < 0.999 * top.iops:
        uneven = _uneven_levels(curve, drives)
        if grouped:  # QA round 5, G21: the composition's placement, said
            placed = curve.shared_level_at(drives)
            if placed:
                lines.append(placed)
        elif uneven:
            lines.append(f"At {drives} drive(s) the drives are not spread evenly over " + " and ".join(uneven)
                         + ", so a limit there caps the busier ones while the others have room: the total lies "
                         "below every single component's ceiling.")
    from .drive import unknown_drive_fields
    from .tree import raid_cost_uncharged, unknown_host_layers, upper_bound_text

    p = curve.parameters
    missing = unknown_drive_fields(p)
    groups_unknown = curve._unknown_drives(i) if grouped else []  # a group's drive rating its workload needs
    at_most = (f" (at most: its {' and '.join(missing)} not known)" if missing else "") + (
        " (at most: " + "; ".join(f"the {curve.groups[j]} drives' {' and '.join(f)} not known"
                                  for j, f in groups_unknown) + ")" if groups_unknown else "")
    finite = [c for c in cs[1:] if np.isfinite(c.iops) and c.component not in exclude]
    if finite:
        lines.append("Headroom of the others: " + "; ".join(
            f"{c.component} +{c.headroom:.1%}" + (at_most if c.component == "drive" else "") for c in finite) + ".")
    host_unknown = unknown_host_layers(p)
    from .gpu import uncrossed

    not_crossed, gpu_words = uncrossed(p)  # GPUs placed on the tree: levels the data skip, said once (§12.10)
    unknown = [c.component for c in cs[1:] if not np.isfinite(c.iops) and c.component not in host_unknown
               and c.component not in held and c.component not in not_crossed]
    if unknown:
        lines.append("Not limiting or not known for this configuration: " + ", ".join(unknown) + ".")
    tcp_target = _nvme_tcp_target_unmodelled(curve, drives)
    if tcp_target:
        lines.append(tcp_target)
    if gpu_words:
        lines.append(gpu_words)
    from .ranges import littles_law_need, range_lines

    lines += range_lines(curve, drives)  # the ceiling over the published range of the CPU's cost (§4.1)
    from .md import md_range_lines

    lines += md_range_lines(curve, drives)  # and over md's published per-array range (§12.3.1)
    from .iommu import iommu_range_lines

    lines += iommu_range_lines(curve, drives)  # and over the IOMMU's published strict-mode range (§12.11)
    need = littles_law_need(curve, drives)  # the latency per I/O the ceiling needs at this queue depth (§6)
    if need:
        lines.append(need)
    note = upper_bound_text(p)
    fixes = []  # one way out per unknown part (QA round 5, G1: a RAID cost was sent to the drive fields)
    if host_unknown:
        catalog = bool(getattr(getattr(curve.topology, "host", None), "key", ""))
        fixes.append("set the host layers (this catalog host has values for them: an override removed them)"
                     if catalog else "set the host layers, or use a catalog host: nvmemodel hosts")
    if missing:
        fixes.append("set the drive's rating with --set drive.<field>, or choose a catalog drive whose sheet gives it")
    if raid_cost_uncharged(p):
        fixes.append("set raid.cycles_per_io (or fit it to your runs: nvmemodel fit)")
    if groups_unknown:  # the groups' drives, not the shared parameters' (QA round 5, G7)
        fixes.append("choose a catalog drive whose sheet gives it (nvmemodel drives), or give the group a drive "
                     "with that rating")
        note = curve._upper_bound(i)
    if note:
        lines.append(note[0].upper() + note[1:] + f": the result may be lower ({'; '.join(fixes)}).")
    if grouped:
        lines += _group_lines(curve, i)
    return "\n".join(lines)


def _nvme_tcp_target_unmodelled(curve, drives: int) -> str:
    """Where the host serves NVMe/TCP (``share.protocol = nvme_tcp``, or a ``tcp`` fabric with ``target.stack`` set) and
    the target's CPU is not charged (``target.stack`` none, the default: the published nvmet-tcp and SPDK TCP figures
    apply only once it is set), the sentence saying the answer does not charge it and how to (docs/physics.md §5.2,
    §12.4); "" otherwise."""
    from .target import served_transport

    p = curve.parameters
    if served_transport(p) != "tcp" or "target_cpu" not in curve.ceilings:
        return ""
    if str(p.get("share.protocol", "none")) != "nvme_tcp" and str(p.get("target.stack", "none")) == "none":
        return ""
    if np.isfinite(curve.ceilings["target_cpu"][curve._index(drives)]):
        return ""
    return ("The NVMe/TCP target's CPU is not modelled, so only the host's local I/O path is charged (host_cpu) and "
            "the answer is an upper bound there: set target.stack (kernel or spdk) for the published figures (SPDK's "
            "NVMe-oF TCP report 24.05: Linux nvmet-tcp about 15,200 cycles per I/O, SPDK's TCP target about 5,700), "
            "or target.cycles_per_io or target.iops_per_core for your own.")


def _where(curve, i: int, drives: int) -> tuple[str, set, set]:
    """Where the binding limit of a topology of groups sits, in words; the components holding a mirror's sides (not
    listed as "not limiting"), and those holding groups where different components hold different groups (their
    headroom is not said as if they were the system's)."""
    group, binding = curve.binding_group_at(drives), curve.binding_at(drives)
    held = curve.held_by_at(drives)
    if group == "host":
        return "shared by all groups", set(), set()
    if group == "array":
        sides = curve._sides_differ(i)
        return ("the mirror's members" + (f", each side held by its own limit ({curve.describe_binding_at(drives)})"
                                          if sides else ""), set(held.values()), set())
    if len(set(held.values())) == 1:
        return f"in {group}" + (" (every group holding drives)" if len(held) > 1 else ""), set(), set()
    where = (f"in {group}; the groups are held by different limits ({curve.describe_binding_at(drives)}), "
             f"{binding} holding the largest share")
    return where, set(), set(held.values())


def _group_lines(curve, i: int) -> list[str]:
    """Per group (a mirror's: per side) its drives, its share of the ceiling and what holds it."""
    mirror = getattr(curve.topology, "mirror", False)
    lines = ["Sides (drives, host I/O reaching the side's members, what holds the side):" if mirror else
             "Groups (drives, share of the ceiling, own binding limit and its headroom within the group):"]
    sizes = curve._sizes()
    missing_of = dict(curve._unknown_drives(i))
    for j, g in enumerate(curve.groups):
        k = int(curve.group_drives[j, i])
        if k == 0:
            lines.append(f"  {g}: no drives yet")
            continue
        own = {c: float(v[i]) for c, v in curve.group_ceilings[j].items() if np.isfinite(v[i])}
        b = str(curve.group_binding[j, i])
        size = sizes[j]
        if b not in own or mirror:  # a mirror's side: what holds it (its group_ceilings are the array's, not the
            # side's own, so no value is given as the side's)
            lines.append(f"  {g}: {k} drive(s), {curve._fmt(curve.group_iops[j, i], size)}, held by {b}")
            continue
        others = sorted((v / own[b] - 1, c) for c, v in own.items() if c != b)
        missing = missing_of.get(j, ())  # a rating its workload needs, unknown: at most
        most = f" (at most: its {' and '.join(missing)} not known)" if missing else ""
        head = "; next: " + ", ".join(f"{c} +{h:.1%}" + (most if c == "drive" else "")
                                      for h, c in others[:2]) if others else ""
        lines.append(f"  {g}: {k} drive(s), {curve._fmt(curve.group_iops[j, i], size)}, own limit {b} "
                     f"{curve._fmt(own[b], size)}{most if b == 'drive' else ''}{head}")
    return lines


def _inter_socket_caveat(curve, n: int) -> str | None:
    """Where the inter-socket link binds on a read/write mix and a socket's drives bring less than the link allows a
    socket, the sentence saying the model (each socket's remote bytes, both directions together, within one direction's
    rate; docs/physics.md §12.1) is conservative there; None where it is exact (reads only, writes only, or every socket
    at the link's cap). For several drive groups, each socket's drives as the composition places them, where the
    groups holding drives run one read fraction at one I/O size (QA round 5, G17); else None."""
    from .derive import prepare
    from .raid import raid_transform
    from .tree import INTER_SOCKET

    def read_fraction(p) -> float:
        transform = raid_transform(p)
        return float(p["workload.read_fraction"] if transform is None else transform[2])

    # each socket's drives as the composition places them (a curve of one drive model: its one group); said only where
    # the groups holding drives share one read fraction and one I/O size (QA round 5, G17)
    g = curve if hasattr(curve.topology, "groups") else curve._one_group
    i = g._index(n)
    placed = g.socket_drives_at(n)
    held = [j for j in range(len(g.groups)) if g.group_drives[j, i] > 0]
    if placed is None or not held or g._mixed_sizes(i):
        return None
    from .system import Levels

    levels = {j: Levels(prepare(g.group_parameters[j])) for j in held}
    fractions = {read_fraction(levels[j].p) for j in held}
    if len(fractions) != 1:
        return None
    f = fractions.pop()
    p = levels[held[0]].p
    sockets = {s: float(sum(gs.values())) for s, gs in placed.items()}
    bring = [sum(c * float(levels[j].drive) for j, c in gs.items()) for gs in placed.values()]  # a socket's drives
    if not 0.0 < f < 1.0:
        return None
    cap = float(INTER_SOCKET.limit(p).socket)  # host I/Os a socket's remote bytes may carry
    if min(bring) >= cap:  # every socket at the cap: each direction full, exact
        return None
    h = max(f, 1.0 - f)
    return (f"The model keeps each socket's remote bytes, both directions together, within one direction's link rate; "
            f"with {f:.0%} reads and drives per socket {', '.join(f'{int(v)}' for v in sockets.values())}, a socket "
            f"below that cap leaves link capacity unused in each direction, so this is conservative: the link's real "
            f"ceiling may be up to {1 / h:.2g}x higher (docs/physics.md §12.1).")


def _uneven_levels(curve, n: int) -> list[str]:
    """The levels whose units (switches, root complexes, sockets) carry different numbers of drives at ``n``,
    among those whose limit is set, each with its loads ("the root complexes (2, 1, 1, 1)"); [] for several drive
    groups (their drives differ: :meth:`~nvmemodel.ceiling.result.MixedCurve.shared_level_at` says how the
    composition placed them; QA round 5, G21) or where no level is uneven."""
    if hasattr(curve.topology, "groups"):
        return []
    from .tree import complex_loads

    p, out = curve.parameters, []

    def loads_text(loads) -> str | None:
        used = [int(k) for k in loads if k > 0]
        return ", ".join(map(str, used)) if len(set(used)) > 1 else None

    if str(p.get("switch.model", "none")) != "none":
        m = int(p["switch.count"])
        text = loads_text([n // m + (j < n % m) for j in range(m)])
        if text:
            out.append(f"the switches ({text})")
    per_complex = [(float(k), float(s)) for k, s in complex_loads(n, p)] if "tree.complexes_per_socket" in p else []
    if per_complex and np.isfinite(float(p.get("tree.complex_bytes_per_s", np.inf))):
        text = loads_text([k for k, _ in per_complex])
        if text:
            out.append(f"the root complexes ({text})")
    if per_complex and (np.isfinite(float(p.get("memory.peak_bytes_per_s", np.inf)))
                        or np.isfinite(float(p.get("tree.inter_socket_bytes_per_s", np.inf)))):
        sockets: dict = {}  # socket → its drives
        for k, s in per_complex:
            sockets[s] = sockets.get(s, 0.0) + k
        text = loads_text([sockets[s] for s in sorted(sockets)])
        if text:
            out.append(f"the sockets ({text})")
    return out


def explain_curve(curve) -> str:
    """Segments of the curve with one binding component each (for several groups: one binding statement,
    :meth:`~nvmemodel.ceiling.result.MixedCurve.describe_binding_at`), and how the curve grows there."""
    if hasattr(curve.topology, "groups"):
        lines = [f"{curve.topology.name}, {curve.describe_workload()} (drives added {curve.topology._order_text()}):"]
        key = [curve.describe_binding_at(int(n)) for n in curve.drives]
        fmt_at = curve._fmt_at
    else:
        lines = [f"{curve.topology.name}, {curve.workload.describe()}:"]
        key = [str(b) for b in curve.binding]

        def fmt_at(i: int) -> str:  # bandwidth workloads in bytes/s, small blocks in IOPS
            return curve._fmt(curve.iops[i])

    start = 0
    for i in range(1, len(key) + 1):
        if i == len(key) or key[i] != key[start]:
            lo, hi = int(curve.drives[start]), int(curve.drives[i - 1])
            x0, x1 = curve.iops[start], curve.iops[i - 1]
            if hi == lo:
                shape = fmt_at(start)
            elif x1 <= x0 * 1.001:
                shape = f"flat at {fmt_at(i - 1)}"
            else:
                shape = f"{fmt_at(start)} → {fmt_at(i - 1)}"
            span = f"{lo} drive(s)" if lo == hi else f"{lo}–{hi} drives"
            b = str(curve.binding[start])
            # groups held by different limits: the prose names none of them alone, the bracket says which holds
            # which (QA s25 H23: "bound by the drives' own limit [g4: drive; g3: switch_uplink]")
            held = set(curve.held_by_at(lo).values()) if hasattr(curve.topology, "groups") else {b}
            what = curve.labels.get(b, b) if len(held) <= 1 else "different limits per group"
            lines.append(f"  {span}: bound by {what} [{key[start]}]; {shape}")
            start = i
    if len(curve.drives) > 1:  # one drive count says nothing of how the curve scales
        words = curve.knee_words()
        lines.append("  Scales linearly throughout." if words == "linear throughout"
                     else f"  Stops scaling linearly {words.removeprefix('bends ')}.")
    from .ranges import range_lines

    lines += range_lines(curve)  # where the CPU binds over the published range of its cost (docs/physics.md §4.1)
    from .md import md_range_lines

    lines += md_range_lines(curve)  # md's published per-array range, where it moves the answer (§12.3.1)
    from .iommu import iommu_range_lines

    lines += iommu_range_lines(curve)  # the IOMMU's published strict-mode range, where it moves the answer (§12.11)
    note = curve.upper_bound_note  # host layers (and drive ratings) without a known limit (ceiling/tree.py)
    if note:
        lines.append(f"  An {note}.")
    return "\n".join(lines)
