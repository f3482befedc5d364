"""The host as a tree: sockets → root complexes → (switches →) drives; DMA per socket; the inter-socket link.

Drives are placed over ``M = sockets × tree.complexes_per_socket`` root complexes (docs/physics.md §12.1):

* ``round_robin``: drive ``i`` on position ``i mod M``; positions alternate sockets (position ``j`` on
  socket ``j mod sockets``), as a BIOS that interleaves root ports over both CPUs;
* ``fill_first``: ``tree.slots_per_complex`` drives on complex 0, then complex 1 …, socket 0's complexes
  first (position ``j`` on socket ``j // complexes_per_socket``); drives beyond the last slot go to the
  last complex.

Switches, where present, are spread as evenly as possible over the complexes (with fewer switches than
complexes, only ``m`` complexes hold drives, one switch each) and the drives of a complex round-robin over
its switches. With ``k_j`` drives on complex ``j``::

    L_j     = Σ_its switches min(G, k·d)        (k_j·d without switches)
    X(n)    = min( Σ_sockets min(Sock, Σ_{j on it} min(C, L_j)),  system limits )

``C`` is the complex's limit (:data:`ROOT_COMPLEX`), ``Sock`` the socket's DMA limit
(:data:`SOCKET_DMA`: a share of its memory or I/O-die bandwidth), both per drive-side I/O and divided
by the RAID amplification like every drive-side limit. The inter-socket link (:data:`INTER_SOCKET`) is a socket
limit too, ``B / (ρ·a·S_d)`` per socket (``B`` per direction; each socket's remote bytes within it), composed with
``Sock`` as the tighter of the two. X(n) is non-decreasing in ``n`` for both
placements (a new drive adds to one complex), so the planner's bisection still holds.
"""

from __future__ import annotations

import math

import numpy as np

from . import ops
from .components import Component, Limit, everywhere, register
from .gpu import data_path

__all__ = ["INTER_SOCKET", "ROOT_COMPLEX", "SOCKET_DMA", "complex_loads", "complexes_in_use", "dma_bytes_per_host_io",
           "loads", "place_group", "place_switches", "placement_starts", "switches_on"]

_FILL_FIRST = 1  # code of "fill_first" in tree.placement


def complexes_in_use(p, switches=None):
    """Root complexes that can hold drives: all ``sockets × complexes_per_socket``, or, behind ``switches``
    switches, at most one complex per switch (a complex without a switch has no drive behind it)."""
    M = ops.to_float(p["host.sockets"]) * ops.to_float(p["tree.complexes_per_socket"])
    return M if switches is None else ops.fmin(M, switches)


def switches_on(j, m, M):
    """Switches on complex position ``j`` when ``m`` switches are spread as evenly as possible over ``M``."""
    q = np.floor(m / M)
    return q + (j < m - q * M)


def complex_loads(n, p, M=None):
    """Per root-complex position ``j``: ``(k_j, socket_j)`` — drives on it and its socket, vectorized.

    ``M``: the complexes in use (default all, :func:`complexes_in_use`). Yields ``max(M)`` pairs;
    positions beyond a configuration's own ``M`` hold no drives.
    """
    n = np.asarray(n, dtype=float)
    sockets = np.asarray(p["host.sockets"], dtype=float)
    cps = np.asarray(p["tree.complexes_per_socket"], dtype=float)
    slots = np.asarray(p["tree.slots_per_complex"], dtype=float)
    fill = np.asarray(p["tree.placement"]) == _FILL_FIRST
    M = sockets * cps if M is None else np.asarray(M, dtype=float)
    q = np.floor(n / M)
    r = n - q * M
    for j in range(int(np.max(M))):
        rr = q + (j < r)
        ff = np.where(j == M - 1, np.fmax(n - j * slots, 0.0), np.clip(n - j * slots, 0.0, slots))
        k = np.where(j < M, np.where(fill, ff, rr), 0.0)
        yield k, np.where(fill, np.floor(j / cps), np.mod(j, sockets))


_PLACEMENT = ("host.sockets", "tree.complexes_per_socket", "tree.slots_per_complex", "tree.placement")


def loads(n, p, M):
    """:func:`complex_loads`, in Python floats where the drive count and every placement
    parameter are one number (a sweep's column, one configuration's drive count): the same arithmetic, without a
    numpy call per complex. ``k`` and the socket come out as ``numpy.float64``."""
    keys = _PLACEMENT
    if not ops.scalar(n, M, *(p[k] for k in keys)):
        placement = p["tree.placement"]
        if not (ops.scalar(placement) and placement != _FILL_FIRST):
            yield from complex_loads(n, p, M)
            return
        # round-robin everywhere, arrays: complex_loads' round-robin branch alone (its other branch is not taken)
        n = np.asarray(n, dtype=float)
        M = np.asarray(M, dtype=float)
        sockets = p["host.sockets"]
        q = np.floor(n / M)
        r = n - q * M
        everywhere_m = M.ndim == 0
        for j in range(int(np.max(M))):
            k = q + (j < r)
            yield (k if everywhere_m else np.where(j < M, k, 0.0)), np.mod(j, sockets)
        return
    n, M = float(n), float(M)
    sockets, cps, slots, placement = (float(p[k]) for k in keys)
    fill = placement == _FILL_FIRST
    q = math.floor(n / M)
    r = n - q * M
    f64 = np.float64
    for j in range(int(M)):
        if fill:
            left = n - j * slots
            k = max(left, 0.0) if j == M - 1 else min(max(left, 0.0), slots)
            yield f64(k), f64(math.floor(j / cps))
        else:
            yield f64(q + (j < r)), f64(j % sockets)


def place_group(k, p, switches=None, *, start=0.0, pin=None):
    """One group's drives over the host's root complexes, for any number of groups under one host (§12.7).

    Yields per complex position in use ``(key, socket, k_j, switches on it)``: ``key`` = (socket, index on the
    socket) identifies a complex across groups; the switches ``max(switches_on, 1)``, or None for a direct-attached
    group (``switches`` None). The placement of :func:`complex_loads` (the host's rule); ``pin`` puts the group on
    that socket's complexes; ``start`` (:func:`placement_starts`) is where the groups before it stopped:
    round-robin, the position its first drive (or switch) takes; fill_first, the slots already taken. With
    ``start`` 0 and no pin, the single-model placement of :class:`~nvmemodel.ceiling.system.Levels`.
    """
    if pin is not None:
        p = {**p, "host.sockets": 1.0}
    sockets, cps = float(p["host.sockets"]), float(p["tree.complexes_per_socket"])
    total = sockets * cps
    fill = int(p["tree.placement"]) == _FILL_FIRST
    M = complexes_in_use(p, switches)
    shift = 0.0
    if fill and switches is None and start:  # continuing in the slots: what its drives add to those before it
        pairs = ((k1 - k0, s1) for (k1, s1), (k0, _) in zip(loads(start + k, p, M), loads(start, p, M)))
    else:
        pairs = loads(k, p, M)
        shift = -(-start // float(p["tree.slots_per_complex"])) if fill else start  # fill_first: the next free complex
    for j, (kj, sj) in enumerate(pairs):
        s, where = int(sj), (j % cps) if fill else (j // sockets)
        if shift:
            pos = (j + shift) % total
            s, where = (int(pos // cps), pos % cps) if fill else (int(pos % sockets), pos // sockets)
        s = s if pin is None else pin
        yield (s, where), s, kj, (None if switches is None else np.fmax(switches_on(j, switches, M), 1.0))


def place_switches(count: int, p, *, start=0.0, pin=None):
    """The ``count`` switches of a set that several groups share, over the root complexes: ``(key, socket)`` per
    switch, switch ``s`` on the owner's ``s``-th position (round-robin from where the owner starts; fill_first
    from its first free complex), as :func:`place_group` places the owner's."""
    if pin is not None:
        p = {**p, "host.sockets": 1.0}
    sockets, cps = float(p["host.sockets"]), float(p["tree.complexes_per_socket"])
    total = sockets * cps
    fill = int(p["tree.placement"]) == _FILL_FIRST
    shift = -(-start // float(p["tree.slots_per_complex"])) if fill else start
    M = float(complexes_in_use(p, count))
    for sw in range(count):
        pos = (sw % M + shift) % total
        s, where = (int(pos // cps), pos % cps) if fill else (int(pos % sockets), pos // sockets)
        s = s if pin is None else pin
        yield (s, where), s


def placement_starts(groups, p) -> list[float]:
    """Where each group's placement starts: where the groups before it on the same complexes stopped (all unpinned
    groups share one sequence, the groups pinned to a socket one per socket). ``groups``: per group ``(pin, drives,
    switches or None, index of the group whose switches it shares or None)``. Round-robin counts positions: a
    direct group takes one per drive, a switched group one per switch; fill_first counts slots: a direct group
    takes one per drive, a switched group every slot of the complexes its switches sit on. Every group holds
    its full count (its slots are taken whether or not a curve has reached them)."""
    fill = int(p["tree.placement"]) == _FILL_FIRST
    slots = float(p["tree.slots_per_complex"])
    cps, sockets = float(p["tree.complexes_per_socket"]), float(p["host.sockets"])
    at: dict = {}
    out: list[float] = []
    for pin, count, switches, shares in groups:
        start = at.get(pin, 0.0)
        out.append(start)
        if shares is not None:  # on another group's switches: no position of its own
            out[-1] = out[shares]
            continue
        if switches is None:
            at[pin] = start + count
        elif fill:
            total = cps * (1.0 if pin is not None else sockets)
            at[pin] = (-(-start // slots) + min(switches, total)) * slots
        else:
            at[pin] = start + switches
    return out


def dma_bytes_per_host_io(p):
    """Bytes DMA moves between the drives and memory per host I/O: every drive read and write of the RAID
    layer (:func:`~nvmemodel.ceiling.raid.drive_bytes_per_host_io`: degraded arrays counted by bytes, not by
    the busiest member's load), else ``S``. A rebuild's own traffic is not counted."""
    from .raid import drive_bytes_per_host_io

    b = drive_bytes_per_host_io(p)
    return np.asarray(p["workload.block_size"], dtype=float) if b is None else b


def _absent(x) -> bool:
    return everywhere(x, np.inf)


def _complex(p) -> Limit:
    """A complex's rate is per direction (PCIe and the fabric port are full duplex; the catalog's values say so):
    reads move ``f·S`` towards memory, writes ``(1 − f)·S`` from it, so the busier direction binds."""
    c = p["tree.complex_bytes_per_s"]
    if _absent(c):
        return Limit()
    f = p["workload.read_fraction"]
    x = c / (p["workload.block_size"] * ops.fmax(f, 1.0 - f))
    path = data_path(p)  # GPUs behind the drives' switches: the data turn there, none reach a complex (§12.10)
    return Limit(complex=x if path is None or not np.any(path[1]) else _not_where(path[1], x))


def _socket(p) -> Limit:
    peak = p["memory.peak_bytes_per_s"]
    if _absent(peak):
        return Limit()
    x = peak * p["memory.dma_fraction"] / p["workload.block_size"]
    path = data_path(p)  # GPUs placed on the tree take the data peer-to-peer: none reach host memory (§12.10)
    return Limit(socket=x if path is None else _not_where(path[0] | path[1], x))


def _not_where(mask, x):
    """``x``, or inf (not charged) where ``mask``: a level the data do not cross."""
    if np.all(mask):
        return np.inf
    return x if not np.any(mask) else np.where(mask, np.inf, x)


def _inter_socket(p) -> Limit:
    """A socket-level limit (docs/physics.md §12.1): each socket's remote DMA bytes, both directions together, within
    ``B``, the links' rate per direction — ``X_s ≤ B / (ρ·a·S_d)`` per socket, in host I/Os (bytes counted by
    :func:`dma_bytes_per_host_io`; the kernel takes this value per host I/O, not divided by the RAID amplification).

    Each socket's remote bytes are spread evenly over the other sockets; socket ``s`` sends its remote reads and the
    others' remote writes out, and receives the reverse. With every socket within ``B`` of remote bytes, each direction
    of each socket's links carries at most ``B``: ``f·B + (1 − f)·B``. Exact for reads only or writes only (one direction
    per socket: ``Σ_s min(x_s, B')``, twice the former system limit with drives on both sockets), and for mixes where every
    socket is at the cap; conservative, by at most ``1 / max(f, 1 − f)`` (≤ 2×), for a read/write mix where a socket
    brings less than the cap (all drives on one socket: the other socket's direction idles)."""
    remote, link = p["tree.remote_fraction"], p["tree.inter_socket_bytes_per_s"]
    path = data_path(p)
    if path is not None:  # GPUs on root ports: their data's remote share; behind the drives' switches: none (§12.10)
        on_port, under = path
        remote = np.where(on_port, p["gpu.remote_fraction"], np.where(under, 0.0, remote))
    if everywhere(remote, 0.0) or _absent(link):
        return Limit()
    remote = np.asarray(remote)
    with np.errstate(divide="ignore"):
        return Limit(socket=np.where(remote > 0, link / (np.where(remote > 0, remote, 1.0)
                                                          * dma_bytes_per_host_io(p)), np.inf))


ROOT_COMPLEX = register(Component(
    "root_complex", "a PCIe root complex (I/O-die quadrant or PCIe stack) shared by the drives placed on it", 52, _complex,
    parameters=("tree.complex_bytes_per_s", "tree.complexes_per_socket", "tree.placement", "tree.slots_per_complex",
                "gpu.attach"),
    summary="a root complex's bandwidth, shared by the drives placed on it", color="#e7298a"))

SOCKET_DMA = register(Component(
    "socket_dma", "DMA bandwidth of a socket (its memory or I/O die)", 54, _socket,
    parameters=("memory.peak_bytes_per_s", "memory.dma_fraction", "host.sockets", "gpu.attach"),
    summary="a socket's DMA bandwidth: a share of its memory / I/O-die bandwidth", color="#64b5cd"))

INTER_SOCKET = register(Component(
    "inter_socket", "the inter-socket link (xGMI/UPI) carrying DMA to the far socket's memory", 56, _inter_socket,
    parameters=("tree.inter_socket_bytes_per_s", "tree.remote_fraction", "gpu.attach", "gpu.remote_fraction"),
    summary="the inter-socket link, for DMA that lands on the far socket's memory", color="#ccb974"))


#: Host layers above the links whose limit may be unknown (inf) for a host, with the parameter that sets it.
_HOST_LAYERS = (("root_complex", "tree.complex_bytes_per_s", "root complexes"),
                ("socket_dma", "memory.peak_bytes_per_s", "socket DMA / memory"),
                ("inter_socket", "tree.inter_socket_bytes_per_s", "inter-socket link"))


def unknown_host_layers(p) -> tuple[str, ...]:
    """Components above the links whose limit is unknown for this host (not applied): the curve is then an
    upper bound in those layers. The inter-socket link counts only with more than one socket."""
    out = []
    for component, name, _ in _HOST_LAYERS:
        if name not in p or not _absent(p[name]):
            continue
        if component == "inter_socket" and everywhere(p.get("host.sockets", 1.0), 1.0):
            continue
        out.append(component)
    return tuple(out)


def upper_bound_note(p) -> str | None:
    """One sentence for texts and tables where a host limit is unknown, else None.

    >>> print(upper_bound_note({"tree.complex_bytes_per_s": float("inf"), "memory.peak_bytes_per_s": 2e11,
    ...                         "tree.inter_socket_bytes_per_s": float("inf"), "host.sockets": 2.0}))
    upper bound: no limit is known for this host's root complexes, inter-socket link (not applied)
    """
    unknown = unknown_host_layers(p)
    if not unknown:
        return None
    words = {c: w for c, _, w in _HOST_LAYERS}
    return "upper bound: no limit is known for this host's " + ", ".join(words[c] for c in unknown) + " (not applied)"


def raid_cost_uncharged(p) -> bool:
    """A software RAID level is set and its CPU cost per I/O is 0: the result is an upper bound in the CPU."""
    return str(p.get("raid.level", "none")) not in ("none", "0", "0.0") and everywhere(p.get("raid.cycles_per_io", 1.0),
                                                                                     0.0)


def upper_bound_text(p) -> str | None:
    """The sentence saying a result is an upper bound, else None: the host layers whose limit is unknown
    (:func:`~nvmemodel.ceiling.tree.upper_bound_note`) and the drive's spec-sheet limits this workload needs but the
    catalog does not know (:func:`~nvmemodel.ceiling.drive.unknown_drive_fields`)."""
    from .drive import unknown_drive_fields

    host = upper_bound_note(p)
    fields = unknown_drive_fields(p)
    parts = []
    if fields:
        parts.append(f"the drive's {' and '.join(fields)} {'is' if len(fields) == 1 else 'are'} not known (not applied)")
    if raid_cost_uncharged(p):
        # software RAID costs CPU per I/O; charged only where given (one public measurement: raid.MD_CYCLES_PER_IO)
        parts.append("the software RAID layer's CPU cost is not charged (raid.cycles_per_io = 0; Linux MD RAID-0 was "
                     "measured at about 27,700 cycles per I/O)")
    if not parts:
        return host
    return "; ".join([host, *parts]) if host else "upper bound: " + "; ".join(parts)
