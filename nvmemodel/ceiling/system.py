"""Compose the registered components' ceilings over a topology into a scaling curve (the kernel).

For ``n`` identical drives spread round-robin over ``m`` switches (or root ports)::

    d      = min over components of their per-drive limit      (drive, PCIe link, Little's law …)
    G      = min over components of their per-switch limit     (uplink × efficiency, processing …)
    local  = Σ_switches min(G, k_j · d)          (k_j drives on switch j; Σ k_j = n)
    X(n)   = min(local, every system-wide limit)                (host CPU, fabric …)

Each component is also reported *alone* as a system ceiling, ``min(n·drive, min(n, m)·group,
system)``; the binding component is the smallest of those, ties going to the component nearest
the drive (registry order). Every argument broadcasts, so one call evaluates whole curves and
configuration grids. The components are those of :mod:`nvmemodel.ceiling.components`.

Above the switches (docs/physics.md §12): where a root-complex or socket limit is set, the drives are
placed over root complexes and sockets (:mod:`nvmemodel.ceiling.tree`) and
``X(n) = min(Σ_sockets min(Sock, Σ_complexes min(C, L_j)), system)``; such a level competes for
"binding" with ``Σ_j min(C, k_j·d)`` (resp. per socket), the drives plus that level alone, and is
reported alone as (complexes or sockets holding drives) × its limit. Where a
software RAID level is set, every drive-side limit is evaluated on the drives' own I/O (size and
read/write mix, :func:`nvmemodel.ceiling.raid.raid_transform`) and divided by the drive I/Os per host
I/O. Topologies without these layers take exactly the single-level path above, at its old cost.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from . import ops
from .components import COMPONENT_LABELS, COMPONENTS, Limit, components, everywhere, names
from .derive import prepare
from .raid import drive_side, raid_transform
from .tree import _FILL_FIRST, _PLACEMENT, complex_loads, complexes_in_use, switches_on
from .tree import loads as _loads

__all__ = ["COMPONENTS", "COMPONENT_LABELS", "ComplexSums", "Levels", "above_the_groups", "alone_above", "levels_of", "pick",
           "switched_local"]


def _is_inf(x) -> bool:
    return isinstance(x, float) and x == _INF


_INF = np.inf  # the very object Limit's fields default to (identity is the cheap test)
_INDEX_NAMES = tuple(f"{level}_index" for level in Limit._fields)
#: components whose limits are computed per host I/O on the host's parameters (with RAID: not on the drives' I/O ÷ a):
#: the inter-socket link's per-socket limit counts the bytes DMA moves per host I/O (tree.dma_bytes_per_host_io); md's
#: per-array ceiling is given per host I/O as each member's share (ceiling/md.py)
_PER_HOST_IO = ("inter_socket", "md_raid")


class Levels:
    """Per configuration, the tightest limit at each level and which component sets it.

    Independent of the drive count, so it is computed once per configuration: ``drive`` (per drive),
    ``group`` (per switch), ``complex`` (per root complex), ``socket`` (per socket) and ``system``,
    each with the index of its component (``*_index``, int8; ``-1`` where no component limits that
    level). ``tree`` is True where a complex or socket limit is set or drives fill switches first
    (drive placement matters);
    ``amplification`` the drive I/Os per host I/O of a RAID level (1 without RAID).
    """

    __slots__ = ("_bounds", "_fill_switched", "_flat", "_group_finite", "_placed", "amplification", "complex", "complex_index", "components", "drive", "drive_index",
                 "group",
                 "group_index", "limits", "one", "p", "socket", "socket_index", "switches", "system", "system_index",
                 "tree")

    # set in __init__ by name, over Limit's fields: each level's tightest limit (a float, or an array over the
    # configurations) and the index of the component that sets it (an int, or an int8 array)
    drive: Any
    group: Any
    complex: Any
    socket: Any
    system: Any
    drive_index: Any
    group_index: Any
    complex_index: Any
    socket_index: Any
    system_index: Any

    def __init__(self, p: Mapping[str, np.ndarray]) -> None:
        comps = components()
        self.components = names()
        self.p = p
        transform = raid_transform(p)
        if transform is None:
            self.limits = [c.limit(p) for c in comps]
            self.amplification = 1.0
        else:  # drive-side limits on the drives' own I/O, per host I/O; system limits on host I/O
            a = transform[0]
            pd = drive_side(p, transform)
            self.amplification = a
            self.limits = []
            for c in comps:
                host, dev = c.limit(p), c.limit(pd)
                if c.name in _PER_HOST_IO:  # already per host I/O (the bytes it moves counted): not divided by a
                    self.limits.append(host)
                    continue
                self.limits.append(Limit(
                    **{lv: (x if _is_inf(x) else x / a) for lv in ("drive", "group", "complex", "socket")
                       for x in (getattr(dev, lv),)}, system=host.system))
        self.switches = p["switch.count"]
        best: list[Any] = [_INF] * len(Limit._fields)
        index: list[Any] = [-1] * len(Limit._fields)
        for k, lim in enumerate(self.limits):
            if lim[0] is _INF and lim[1] is _INF and lim[2] is _INF and lim[3] is _INF and lim[4] is _INF:
                continue  # an absent component: every field the very default object (identity, no comparison)
            for j, x in enumerate(lim):  # the levels, in Limit's field order
                if x is _INF or (isinstance(x, float) and x == _INF):  # `is`: Limit's default, the usual case
                    continue
                b = best[j]
                if isinstance(b, float) and b == _INF:
                    best[j], index[j] = x, k
                else:  # strict: of equal limits the component nearer the drive (lower index) keeps it
                    lower = x < b
                    index[j] = (k if lower else index[j]) if ops.scalar(lower, index[j]) else np.where(lower, k, index[j])
                    best[j] = ops.fmin(b, x)
        for level, name, b, i in zip(Limit._fields, _INDEX_NAMES, best, index):
            setattr(self, level, b)
            setattr(self, name, i)
        self.one = all(type(i) is int for i in index)  # no index is an array (one configuration, or one winner)
        # placement matters where a complex or socket limit is set, and — whatever the limits — where fill_first
        # decides which switch the drives land on (else a huge but finite complex limit would change the result)
        placement, g = p.get("tree.placement", 0.0), self.group
        if ops.scalar(placement, g):  # one configuration: Python arithmetic
            self._fill_switched = placement == _FILL_FIRST and not math.isinf(g)
            self._group_finite = not (math.isinf(g) or math.isnan(g))
        else:
            self._fill_switched = (np.asarray(placement) == _FILL_FIRST) & ~np.isinf(g)
            self._group_finite = ops.all_(np.isfinite(g))
        self.tree = not (_is_inf(self.complex) and _is_inf(self.socket)) or ops.any_(self._fill_switched)
        # configurations evaluated beside tree ones without a tree level or fill_first switches (False: none)
        flat = False
        if self.tree and not ops.scalar(self.complex, self.socket, self._fill_switched):
            flat = np.isinf(self.complex) & np.isinf(self.socket) & ~self._fill_switched
        self._flat = flat if ops.any_(flat) else False
        self._bounds = {level: _bounds(i) for level, i in zip(Limit._fields, index)}
        self._placed: _Placement | None = None  # the host tree's placement (:meth:`_placement`), at the first drive count

    def _socket_only(self) -> bool:
        """A host tree of sockets alone, drives round-robin (no switch or complex level): :meth:`fill`'s fast case."""
        return _is_inf(self.group) and _is_inf(self.complex) and everywhere(self.p["tree.placement"], 0.0)

    def local(self, n):
        """What the drives and switches deliver together: ``Σ_switches min(G, k_j · d)``, round-robin
        (with a host tree: also each root complex and socket, :mod:`nvmemodel.ceiling.tree`)."""
        if self.tree:
            return self._tree(n)[0]
        return switched_local(n, self.drive, self.group, self.switches)

    def _tree(self, n):
        """``(X_local, Σ_j min(C, k_j·d), Σ_s min(Sock, Σ_j∈s k_j·d), Σ_j Σ_its switches min(G, k·d))``: the
        tree's total and the "this level alone (with the drives)" candidates of its complex, socket and switch
        levels (the switches' under the placement: fill_first loads the first complex's switches first)."""
        p, d, g, c, sk = self.p, self.drive, self.group, self.complex, self.socket
        n = ops.to_float(n)  # one drive count stays a scalar (its placement is computed in Python floats)
        if _is_inf(g) and everywhere(p["tree.placement"], 0.0) and (_is_inf(c) or _is_inf(sk)):
            # round-robin, one tree level, no switches: the switch formula over sockets (or complexes)
            if _is_inf(c):
                x = _capped(n, d, sk, p["host.sockets"])
                return x, _INF, x, _INF
            x = _capped(n, d, c, p["host.sockets"] * p["tree.complexes_per_socket"])
            return x, x, _INF, _INF
        placed = self._placed if self._placed is not None else self._placement()
        switched = placed.switched
        if type(n) is np.ndarray and placed.matrix is not None:
            # one configuration, many drive counts: every complex at once, (complexes x drive counts)
            per_socket, per_socket_d, complex_alone, group_alone = self._tree_matrix(n, placed.matrix)
        else:
            stack = self._tree_stack(n, placed.M, placed.sockets, switched) if type(n) is np.ndarray else None
            per_socket, per_socket_d, complex_alone, group_alone = (
                stack if stack is not None else self._tree_loop(n, placed.M, placed.sockets, switched))
        nd = n * d
        total, complex_alone, socket_alone = above_the_groups(per_socket, per_socket_d, complex_alone, nd, c, sk)
        if switched:  # direct-attached configurations among switched ones have no switch candidate
            group_alone = nd - group_alone
            group_alone = group_alone if self._group_finite else np.where(np.isfinite(g), group_alone, _INF)
        else:
            group_alone = _INF
        out = (total, complex_alone, socket_alone, group_alone)
        # evaluated beside tree configurations, but without a tree level or a fill_first switch placement itself:
        # what it gives alone (switches round-robin, no level candidates), not the tree sums
        flat = self._flat
        if flat is not False:
            out = tuple(np.where(flat, alone, x) for x, alone in zip(out, (
                switched_local(n, d, g, self.switches), _INF, _INF, switches_alone(n, d, g, self.switches))))
        return out

    def _tree_loop(self, n, M, sockets, switched):
        """:meth:`_tree`'s sums complex by complex: ``(Σ_j∈s min(C, L_j) per socket, Σ_j∈s k_j·d per socket,
        Σ_j max(k_j·d − C, 0), Σ_j what full switches take away)``, each summed in complex order."""
        p, d, g, c = self.p, self.drive, self.group, self.complex
        sums = ComplexSums(c, dict.fromkeys(range(sockets), 0.0))
        group_alone = 0.0
        seen = {}  # one drive count (scalar loads): complexes with the same load and switches give the same terms
        for j, (k, sock) in enumerate(_loads(n, p, M)):
            on_j = np.fmax(switches_on(j, self.switches, M), 1.0) if switched else None
            key = (float(k), float(on_j) if switched else 0.0) if k.ndim == 0 and (on_j is None or
                                                                                    np.ndim(on_j) == 0) else None
            if key is not None and key[0] == 0.0:  # no drive on it: every term below is an exact 0
                continue
            if key is None and not k.any():  # no drive on it in any configuration (the same exact zeros)
                continue
            terms = seen.get(key) if key is not None else None
            if terms is None:
                kd = k * d
                if switched and key is not None:  # one load: both round-robin sums from shared products
                    local_j, excess = _round_robin(k, kd, d, g, on_j)
                elif switched:  # what full switches leave, and take away (exactly 0 where none is full)
                    local_j, excess = _round_robin_arrays(k, d, g, on_j, direct=False)  # (fixed just below)
                else:
                    local_j, excess = kd, None
                if switched and not self._group_finite:  # direct-attached configurations among switched ones
                    local_j = np.where(np.isfinite(g), local_j, kd)
                terms = (kd, excess, *sums.terms(local_j, kd))
                if key is not None:
                    seen[key] = terms
            kd, excess, capped, cut = terms
            if switched:
                group_alone = _add(group_alone, excess)
            sums.add(sock, capped, kd, cut)
        return sums.per_socket, sums.per_socket_d, sums.cut, group_alone

    def _tree_stack(self, n, M, sockets, switched):
        """:meth:`_tree_loop` with the complexes on a new first axis: each term computed for every complex in one
        numpy call, each sum a reduction over the complexes in their order (complexes without a drive at any count
        left out, as the loop skips them), so the same numbers bit for bit in a handful of calls instead of some
        fifteen per complex — the planner's host-tree sums at every drive count (``n`` of shape ``(counts, 1, …)``)
        spent most of their time in the loop's Python. ``None`` (the loop then) where an operand has more axes than
        ``n`` (the complexes' axis would not stay first)."""
        p, d, g, c, m = self.p, self.drive, self.group, self.complex, self.switches
        nd = n.ndim
        operands = (M, d, c, *(p[k] for k in _PLACEMENT), *((g, m) if switched else ()))
        if nd == 0 or any(np.ndim(x) > nd for x in operands):
            return None
        J = int(np.max(M))
        j = np.arange(float(J)).reshape((J,) + (1,) * nd)
        k, sock = _stacked_loads(n, p, M, j)
        used = np.flatnonzero(k.reshape(J, -1).any(axis=1))  # a complex without a drive anywhere: exact zeros
        per_socket = dict.fromkeys(range(sockets), 0.0)
        per_socket_d = dict(per_socket)
        if used.size == 0:
            return per_socket, per_socket_d, 0.0, 0.0
        if used.size < J:
            k, j = k[used], j[used]
            sock = sock[used] if sock.shape[0] == J else sock
        # every operand laid out on the terms' whole shape once: an operand broadcast along the inner axes (the drive's
        # rate, on the drive model's) makes each of the dozen passes below run a few elements at a time
        on = np.fmax(switches_on(j, m, M), 1.0) if switched else None
        shape = np.broadcast_shapes(k.shape, np.shape(d), *((np.shape(g), on.shape) if switched else ()))
        k, d = _whole(k, shape), _whole(d, shape)
        kd = k * d
        group_alone: Any = 0.0
        local = kd
        if switched:  # what full switches leave, and take away (exactly 0 where none is full)
            g, on = _whole(g, shape), _whole(on, shape)
            local, excess = _round_robin_arrays(k, d, g, on, direct=False)
            if not self._group_finite:  # direct-attached configurations among switched ones
                local = np.where(np.isfinite(g), local, kd)
            group_alone = _in_order(excess)
        cut: Any = 0.0
        capped = local
        if not _is_inf(c):
            capped = np.fmin(c, local)
            cut = _in_order(np.fmax(kd - c, 0.0))
        if sock.size == sock.shape[0]:  # each complex on one socket everywhere: its socket's sums in complex order
            of = sock.reshape(-1)
            for s_ in dict.fromkeys(of.tolist()):
                rows = np.flatnonzero(of == s_)
                s_ = int(s_)
                per_socket[s_], per_socket_d[s_] = _in_order(capped[rows]), _in_order(kd[rows])
        else:  # a complex's socket varies with the configuration: its terms masked per socket (as the loop adds them)
            for s_ in per_socket:
                on_s = sock == s_
                per_socket[s_] = _in_order(np.where(on_s, capped, 0.0))
                per_socket_d[s_] = _in_order(np.where(on_s, kd, 0.0))
        return per_socket, per_socket_d, cut, group_alone

    def _placement(self) -> _Placement:
        """What the host tree's placement needs that no drive count changes, worked out at the first drive count
        and kept (the sweep's columns, a curve evaluated again)."""
        p, d, g, c, sk = self.p, self.drive, self.group, self.complex, self.socket
        sockets: Any = p["host.sockets"]
        sockets = int(sockets) if ops.scalar(sockets) else int(np.max(sockets))
        switched = not _is_inf(g)
        M = complexes_in_use(p, self._tree_switches())
        matrix = None
        if self.one and ops.scalar(d, g, c, sk, M, *(p[k] for k in _PLACEMENT)):
            # one configuration: complex j's position, its switches and each socket's complexes (rows)
            j = np.arange(int(M), dtype=float)[:, None]
            fill = p["tree.placement"] == _FILL_FIRST
            slots = p["tree.slots_per_complex"]
            on = np.fmax(switches_on(j, self.switches, M), 1.0) if switched else None
            m, cps = int(M), int(p["tree.complexes_per_socket"])
            rows = []
            for s_ in range(sockets):  # the socket's complexes in order (a socket without any adds exact zeros)
                held = slice(s_ * cps, min((s_ + 1) * cps, m)) if fill else slice(s_, m, sockets)
                count = len(range(m)[held])
                if count:  # one complex: its row itself (a sum of one term is that term)
                    rows.append((s_, held.start if count == 1 else held))
            # one switch on each complex (q = k, r = 0): what _round_robin computes for it, without the terms
            # a factor 0 or 1 leaves unchanged (the loop's sums, bit for bit)
            single = on is not None and bool(np.all(on == 1.0))
            matrix = (M, j, fill, slots, j * slots if fill else None, j == M - 1 if fill else None, on, single,
                      tuple(rows))
        placed = self._placed = _Placement(sockets, switched, M, matrix)
        return placed

    def _tree_matrix(self, n, matrix):
        """:meth:`_tree_loop` for one configuration (scalars) at many drive counts: loads, terms and sums as
        (complexes x drive counts) arrays, each sum a reduction over the complexes in their order (a complex
        without drives adds exact zeros, a socket without complexes is left out: :func:`_sum` skips its zeros), so
        the numbers are the loop's bit for bit. ``matrix``: the placement's parts (:meth:`_placement`)."""
        d, g, c = self.drive, self.group, self.complex
        M, j, fill, slots, j_slots, last, on, single, rows = matrix
        if M == 1.0:  # one complex holds every drive (either placement gives k = n exactly), (1 x drive counts)
            k = n.reshape(1, -1)
        elif fill:  # complex j on socket ⌊j / complexes per socket⌋
            left = n - j_slots
            k = np.where(last, np.fmax(left, 0.0), np.clip(left, 0.0, slots))
        else:  # complex j on socket j mod sockets
            q = np.floor(n / M)
            k = q + (j < n - q * M)
        kd = k * d
        complex_alone = group_alone = 0.0
        local = kd
        if on is not None:  # switched: what full switches leave, and take away
            if single and self._group_finite:  # one switch per complex: min(G, k·d) and max(k·d − G, 0)
                local, excess = np.fmin(g, kd), np.fmax(kd - g, 0.0)
            else:
                local, excess = _round_robin_arrays(k, d, g, on)
            group_alone = np.add.reduce(excess, axis=0)
        capped = local
        if not _is_inf(c):
            capped = np.fmin(c, local)
            complex_alone = np.add.reduce(np.fmax(kd - c, 0.0), axis=0)
        per_socket, per_socket_d = {}, {}
        for s_, held in rows:
            if type(held) is int:
                per_socket[s_], per_socket_d[s_] = capped[held], kd[held]
            else:
                per_socket[s_], per_socket_d[s_] = np.add.reduce(capped[held], axis=0), np.add.reduce(kd[held], axis=0)
        return per_socket, per_socket_d, complex_alone, group_alone

    def total(self, n):
        """The system ceiling at ``n`` drives."""
        local = self.local(n)
        return local if _is_inf(self.system) else np.fmin(local, self.system)

    def binding(self, n, _alone=None) -> np.ndarray:
        """Index of the binding component at ``n`` drives: the smallest of the three level candidates
        ``n·d``, ``min(n, m)·G``, ``S`` (each the best of its level), ties to the lower index."""
        c_alone = s_alone = _INF
        g_alone = None
        if self.tree:
            c_alone, s_alone, g_alone = _alone if _alone is not None else self._tree(n)[1:]
        candidates = [(lambda: n * self.drive, self.drive_index),
                      (lambda: switches_alone(n, self.drive, self.group, self.switches) if g_alone is None else g_alone,
                       self.group_index)]
        if self.tree:
            candidates += [(lambda: c_alone, self.complex_index), (lambda: s_alone, self.socket_index)]
        candidates.append((lambda: self.system, self.system_index))
        if self.one:
            index = _first_smallest([(k, value()) for value, k in candidates if k >= 0], np.shape(n), (0, _INF))
            if index is not None:
                return index
        shape = np.broadcast(n, self.drive, self.group, self.system, c_alone, s_alone).shape
        return pick(((value(), k) for value, k in candidates if not np.all(np.asarray(k) < 0)), shape)[1]

    def parts(self, n) -> tuple:
        """``(local, complex alone, socket alone, switches alone)`` at ``n`` drives: :meth:`local` and, with a host
        tree, the candidates its levels put up for "binding" (``inf`` without one; switches alone ``None``:
        ``min(n, m)·G``). What :meth:`total_and_binding`
        needs besides the system limit, so a caller may evaluate it at fewer points and select."""
        if self.tree:
            return self._tree(n)
        return self.local(n), _INF, _INF, None

    def below_system(self, n, parts) -> tuple | None:
        """The binding pick among the levels under the system limit (drives, switches, root complexes, sockets) at
        drive counts ``n`` from :meth:`parts` there: ``(value, index)`` on the shape they broadcast to — or ``None``
        (no host tree, one configuration, or a component index varying on axes the sums do not).

        :meth:`binding` takes the smallest ``(value, index)`` pair of a set (NaN never taken), so picking the system
        limit against this pair afterwards (:meth:`total_and_binding`'s ``below``) gives the same index bit for bit.
        The system limit depends on no drive count: the planner, holding a tree's sums at every count on a block's
        few axes, picks these four there once and gathers the pair per configuration (was: four candidates
        gathered and compared over the whole block, per target)."""
        if not self.tree or self.one:
            return None
        local, c_alone, s_alone, g_alone = parts
        if g_alone is None:
            return None
        candidates = [(n * self.drive, self.drive_index), (g_alone, self.group_index),
                      (c_alone, self.complex_index), (s_alone, self.socket_index)]
        shape = np.broadcast_shapes(*(np.shape(x) for x, _ in candidates))
        if not shape or any(np.broadcast_shapes(shape, np.shape(k)) != shape for _, k in candidates):
            return None
        return pick(candidates, shape)

    def total_and_binding(self, n, parts=None, below=None) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`total` and :meth:`binding` together, sharing ``n·d`` (the sweep's inner loop).

        ``parts``: :meth:`parts` at ``n`` when the caller has it (a host tree only); ``below``:
        :meth:`below_system`'s pair at ``n`` where it has that too (then only ``parts[0]`` is read)."""
        if self.tree:
            local, c_alone, s_alone, g_alone = self._tree(n) if parts is None else parts
            total = local if _is_inf(self.system) else np.fmin(local, self.system)
            if below is not None:
                shape = np.broadcast_shapes(np.shape(below[0]), np.shape(below[1]), np.shape(self.system))
                return total, np.asarray(pick((below, (self.system, self.system_index)), shape)[1], dtype=np.int8)
            return total, np.asarray(self.binding(n, _alone=(c_alone, s_alone, g_alone)), dtype=np.int8)
        nd = n * self.drive
        has_group = not _is_inf(self.group)
        local = self.local(n) if has_group else nd
        total = local if _is_inf(self.system) else np.fmin(local, self.system)
        if self.one:
            cands = [(self.drive_index, nd)]
            if has_group:
                cands.append((self.group_index, switches_alone(n, self.drive, self.group, self.switches)))
            if not _is_inf(self.system):
                cands.append((self.system_index, self.system))
            index = _first_smallest(cands, np.shape(n))
            if index is not None:
                return total, index
        index = np.broadcast_to(np.asarray(self.drive_index, dtype=np.int8), np.shape(total))
        best = nd
        if has_group:
            g_alone = switches_alone(n, self.drive, self.group, self.switches)
            better = (g_alone < best) | ((g_alone == best) & (np.asarray(self.group_index) < index))
            index = np.where(better, np.int8(0) + np.asarray(self.group_index, dtype=np.int8), index)
            best = np.where(better, g_alone, best)
        if not _is_inf(self.system):
            ties = np.asarray(self.system_index) < index
            better = (self.system < best) | ((self.system == best) & ties)
            index = np.where(better, np.asarray(self.system_index, dtype=np.int8), index)
        return total, np.asarray(index, dtype=np.int8)

    def _tree_switches(self):
        """Switches that hold the drives, for :func:`~nvmemodel.ceiling.tree.complexes_in_use`: ``None`` without a
        switch anywhere, ``inf`` (no bound) for the direct-attached configurations among switched ones."""
        if _is_inf(self.group):
            return None
        return self.switches if self._group_finite else np.where(np.isfinite(self.group), self.switches, np.inf)

    def fill(self, n, total_out: np.ndarray, binding_out: np.ndarray, work: Work | None = None) -> None:
        """:meth:`total_and_binding` at one drive count ``n`` (a scalar) written into ``total_out`` and
        ``binding_out`` (1-D, one entry per configuration) — the sweep's inner loop, the same numbers bit for bit.

        Without a host tree (or with round-robin sockets alone) it runs in place in ``work``'s buffers: ``n·d``,
        the round-robin sums over the switches computed once for the total and the switches' candidate (the
        placement ``q = ⌊n/m⌋``, ``r = n − q·m`` is a scalar per drive count; a term with ``r = 0`` or a factor 1
        is skipped, which changes no bit), then one comparison per level for the binding component."""
        w = work if work is not None else Work(total_out.shape[0])
        w = w.view(total_out.shape[0])
        if self.tree and not self._socket_only():
            self._fill_tree(n, total_out, binding_out, w)
            return
        nd = np.multiply(n, self.drive, out=w.f[0])
        index, bounds = self.drive_index, self._bounds["drive"]
        if self.tree:  # round-robin over sockets: Σ_s min(Sock, k_s·d), which is also the socket's candidate
            best = _capped(n, self.drive, self.socket, self.p["host.sockets"])
            local = best
            index, bounds = self._better(nd, index, bounds, best, self.socket_index, self._bounds["socket"],
                                         binding_out, w)
        elif _is_inf(self.group):
            local = best = nd
        else:
            local, alone = self._switched(n, nd, w)
            index, bounds = self._better(nd, index, bounds, alone, self.group_index, self._bounds["group"],
                                         binding_out, w)
            best = alone if self._group_finite else np.fmin(nd, alone)  # alone <= n·d where a switch is
        if _is_inf(self.system):
            total_out[...] = local
        else:
            np.fmin(local, self.system, out=total_out)
            index, bounds = self._better(best, index, bounds, self.system, self.system_index, self._bounds["system"],
                                         binding_out, w)
        if index is not binding_out:
            binding_out[...] = index

    def _fill_tree(self, n, total_out, binding_out, w) -> None:
        """:meth:`fill` with a host tree: :meth:`_tree`'s sums, then the levels' candidates in order, as
        :meth:`binding` compares them (a level absent everywhere, ``inf``, can never win and is skipped)."""
        local, c_alone, s_alone, g_alone = self._tree(n)
        if _is_inf(self.system):
            total_out[...] = local
        else:
            np.fmin(local, self.system, out=total_out)
        best = np.multiply(n, self.drive, out=w.f[0])
        index, bounds = self.drive_index, self._bounds["drive"]
        for level, x in (("group", g_alone), ("complex", c_alone), ("socket", s_alone), ("system", self.system)):
            xi = getattr(self, f"{level}_index")
            if _is_inf(x) or (type(xi) is int and xi < 0):
                continue
            index, bounds = self._better(best, index, bounds, x, xi, self._bounds[level], binding_out, w)
            if level != "system":
                best = np.fmin(best, x, out=w.f[1])
        if index is not binding_out:
            binding_out[...] = index

    def _switched(self, n, nd, w):
        """``(Σ_switches min(G, k_j·d), n·d − what full switches take away)`` at one drive count: what
        :func:`switched_local` and :func:`switches_alone` give, sharing the products (a switch count per
        configuration: those functions themselves)."""
        d, g, m = self.drive, self.group, self.switches
        if not ops.scalar(m):
            return switched_local(n, d, g, m), switches_alone(n, d, g, m)
        q = np.floor(n / m)
        r = n - q * m
        k = m - r
        qd = nd if q == n else np.multiply(q, d, out=w.f[1])
        local = np.fmin(g, qd, out=w.f[2])
        excess = np.subtract(qd, g, out=w.f[3])
        np.fmax(excess, 0.0, out=excess)
        if k != 1.0:
            np.multiply(k, local, out=local)
            np.multiply(k, excess, out=excess)
        if r != 0.0:  # drives beyond q per switch on r of them
            a = np.multiply(q + 1, d, out=w.f[1])
            la = np.fmin(g, a, out=w.f[4])
            np.multiply(r, la, out=la)
            np.add(la, local, out=local)
            np.subtract(a, g, out=a)
            np.fmax(a, 0.0, out=a)
            np.multiply(r, a, out=a)
            np.add(a, excess, out=excess)
        alone = np.subtract(nd, excess, out=excess)
        if not self._group_finite:  # direct-attached configurations among switched ones
            fin = np.isfinite(g)
            return np.where(fin, local, nd), np.where(fin, alone, _INF)
        return local, alone

    def _better(self, best, index, bounds, x, xi, xbounds, out, w):
        """The binding index after candidate ``x`` (component index ``xi``) meets the best so far (``best``, index
        ``index``): ``xi`` where ``x < best``, or ``x == best`` and ``xi < index`` (ties to the component nearer
        the drive). ``bounds``/``xbounds``: the smallest and largest index each may hold. Written into ``out``
        (int8) unless both indices are one number; ``index`` may be ``out``. Returns ``(index, its bounds)``."""
        if xbounds[0] > bounds[1]:  # ties stay with the current
            wins = np.less(x, best, out=w.b[0])
        elif xbounds[1] < bounds[0]:
            wins = np.less_equal(x, best, out=w.b[0])
        else:
            wins = np.less(x, best) | (np.equal(x, best) & (np.asarray(xi) < index))
        merged = (min(bounds[0], xbounds[0]), max(bounds[1], xbounds[1]))
        if type(xi) is int and type(index) is int:
            if xi == index:
                return index, merged
            delta = np.int8(xi - index)
        else:
            delta = np.subtract(xi, index, dtype=np.int8, out=w.i[0])
        step = np.multiply(wins.view(np.int8), delta, out=w.i[1])
        np.add(index, step, out=out)
        return out, merged

    def alone(self, n) -> tuple:
        """Each component alone as a system ceiling: ``min(n·drive, m_used·group, system)``; ``m_used`` the
        switches holding drives: ``min(n, m)`` round-robin, fewer where fill_first loads one switch first."""
        used = self._switches_used(n)
        levels: tuple[Any, Any] | None = None  # complexes and sockets holding drives, where a component limits them
        out = []
        for lim in self.limits:
            x = _INF
            if lim[0] is _INF and lim[1] is _INF and lim[2] is _INF and lim[3] is _INF and lim[4] is _INF:
                out.append(x)  # an absent component (see __init__)
                continue
            if not _is_inf(lim.drive):
                x = n * lim.drive
            if not _is_inf(lim.group):
                x = np.fmin(x, used * lim.group)
            if levels is None and not (_is_inf(lim.complex) and _is_inf(lim.socket)):
                levels = self._levels_used(n)
            used_complexes, used_sockets = levels if levels is not None else (None, None)
            out.append(alone_above(x, lim, used_complexes, used_sockets, lim.system))
        return tuple(out)

    def _switches_used(self, n):
        """Switches holding at least one drive at ``n`` drives: ``min(n, m)``, or under fill_first placement
        ``Σ_j min(k_j, switches on complex j)``."""
        used = np.fmin(n, self.switches)
        if not ops.any_(self._fill_switched):
            return used
        return np.where(self._fill_switched, self.placed_switches(n)[1], used)

    def placed_switches(self, n, p=None) -> tuple:
        """``(what full switches take away from n·d, switches holding drives)`` with the drives placed over the
        root complexes (:func:`~nvmemodel.ceiling.tree.complex_loads`) and round-robin over each complex's
        switches; ``p``: the parameters to place by (default this configuration's; a mixed group pinned to one
        socket passes its own)."""
        p = self.p if p is None else p
        M = complexes_in_use(p, self._tree_switches())
        excess, used = 0.0, 0.0
        for j, (k, _) in enumerate(complex_loads(n, p, M)):
            on = np.fmax(switches_on(j, self.switches, M), 1.0)
            excess = excess + _excess(k, self.drive, self.group, on)
            used = used + np.fmin(k, on)
        return excess, used

    def _levels_used(self, n) -> tuple[Any, Any]:
        """``(complexes holding drives, sockets holding drives)`` at ``n`` drives, for a root-complex or socket
        limit alone (:func:`alone_above`), like ``min(n, m)`` switches; drive placement decides how many."""
        p = self.p
        if everywhere(p["tree.placement"], 0.0):  # round-robin: min(n, M) complexes, min(n, sockets) sockets
            M = complexes_in_use(p, self._tree_switches())
            return np.fmin(n, M), np.fmin(np.fmin(n, M), p["host.sockets"])
        used_complexes: Any = 0.0
        used: dict[Any, Any] = {}
        for k, sock in complex_loads(n, p, complexes_in_use(p, self._tree_switches())):
            used_complexes = used_complexes + (k > 0)
            for s in range(int(np.max(p["host.sockets"]))):
                used[s] = used.get(s, False) | ((sock == s) & (k > 0))
        return used_complexes, sum(np.asarray(u, dtype=float) for u in used.values())


class _Placement(NamedTuple):
    """A host tree's placement, for :meth:`Levels._tree`: the sockets, whether switches hold the drives, the root
    complexes in use and, for one configuration, :meth:`Levels._tree_matrix`'s parts (else None)."""

    sockets: int
    switched: bool
    M: object
    matrix: tuple | None


class ComplexSums:
    """The root-complex level summed complex by complex, for one group of drives or several (docs/physics.md §12.1,
    §12.7): one loop for :class:`Levels` and :func:`~nvmemodel.ceiling.compose.compose`. Each complex in use
    brings ``L_j`` (what its drives and switches deliver; several groups' summed by the caller) and ``k_j·d`` (its
    drives' own rate): :meth:`terms` caps ``L_j`` at ``c`` and says what the cap takes off ``k_j·d``; :meth:`add`
    adds them to the complex's socket. ``per_socket``/``per_socket_d`` (the sums :func:`above_the_groups` takes)
    and ``cut`` then hold, in complex order, each running sum's first term taken as it is (:func:`_add`)."""

    __slots__ = ("c", "cut", "per_socket", "per_socket_d")

    def __init__(self, c, per_socket: dict) -> None:
        self.c = c
        self.per_socket, self.per_socket_d = per_socket, dict(per_socket)
        self.cut = 0.0

    def terms(self, local, kd) -> tuple:
        """``(min(c, L_j), max(k_j·d − c, 0))``, the second ``None`` without a complex limit."""
        c = self.c
        if _is_inf(c):
            return local, None
        return np.fmin(c, local), np.fmax(kd - c, 0.0)  # n·d minus the cut is exactly n·d where it takes nothing

    def add(self, sock, capped, kd, cut) -> None:
        """Complex terms on socket ``sock`` (an int; or an array per configuration or drive count)."""
        if cut is not None:
            self.cut = _add(self.cut, cut)
        per_socket, per_socket_d = self.per_socket, self.per_socket_d
        if np.ndim(sock) == 0:  # one socket for every configuration and drive count
            s_ = int(sock)
            per_socket[s_] = _add(per_socket.get(s_, 0.0), capped)
            per_socket_d[s_] = _add(per_socket_d.get(s_, 0.0), kd)
            return
        for s_ in per_socket:
            on = sock == s_
            per_socket[s_] = per_socket[s_] + np.where(on, capped, 0.0)
            per_socket_d[s_] = per_socket_d[s_] + np.where(on, kd, 0.0)


def above_the_groups(per_socket: dict, per_socket_d: dict, complex_cut, nd, c, sk) -> tuple:
    """The levels above the groups — root complexes and sockets — for one group of drives or several
    (docs/physics.md §12.1, §12.7): one composition for :class:`Levels` and :mod:`nvmemodel.ceiling.compose`.

    ``per_socket``: per socket what its complexes deliver, each complex's drives and switches capped at its limit
    ``c``; ``per_socket_d``: per socket the drives' own rate, Σ k·d; ``complex_cut``: what the complex caps take off
    ``nd`` = Σ k·d over every complex. Returns ``(Σ_s min(Sock, x_s), complex candidate nd − cut, socket candidate
    nd − Σ_s max(x_s_d − Sock, 0))``, a candidate ``inf`` where its level is absent (``c``/``sk`` inf). Sums in
    socket order, exact zeros skipped (:func:`_sum`)."""
    if _is_inf(sk):
        total = _sum(per_socket.values())
        socket_alone = _INF
    else:
        # a socket without drives (an exact scalar 0.0) adds min(Sock, 0) = 0 and max(0 − Sock, 0) = 0: skipped, not
        # computed as arrays of zeros (the Lenovo's 4 sockets hold drives on one: 15 of ~40 passes a fill)
        total = _sum(np.fmin(sk, x) for x in per_socket.values() if not _zero(x))
        socket_alone = nd - _sum(np.fmax(x - sk, 0.0) for x in per_socket_d.values() if not _zero(x))
    return total, (_INF if _is_inf(c) else nd - complex_cut), socket_alone


def alone_above(x, lim: Limit, used_complexes, used_sockets, system):
    """A component alone above the groups, for one group or several: its ceiling alone on the drives and switches
    ``x``, then its root-complex and socket limits times the complexes and sockets holding drives, then its system
    limit ``system`` (shared by the groups). ``lim``: its :class:`~nvmemodel.ceiling.components.Limit`."""
    if not _is_inf(lim.complex):
        x = np.fmin(x, used_complexes * lim.complex)
    if not _is_inf(lim.socket):
        x = np.fmin(x, used_sockets * lim.socket)
    if not _is_inf(system):
        x = np.fmin(x, system)
    return x


def pick(candidates, shape) -> tuple[np.ndarray, np.ndarray]:
    """The binding pick, for one group or several: ``(value, index)`` of the smallest ``(value, component index)``
    candidate, ties to the lower index (the component nearer the drive); candidates whose index is ``-1``
    everywhere (no component at that level) are left out."""
    return lexicographic_min(((x, k) for x, k in candidates if not np.all(np.asarray(k) < 0)), shape)


def lexicographic_min(candidates, shape) -> tuple[np.ndarray, np.ndarray]:
    """``(value, index)``: the smallest of ``(value, component index)`` pairs, ties to the lower index (the
    component nearer the drive); indices are int8. Pairs whose index is ``-1`` everywhere should be left out.

    Where every pair broadcasts to ``shape`` (the usual case) the comparisons and selections are made in place, in
    buffers of that shape, and the tie test is left out where it cannot hold: ``k < index`` is false everywhere when
    ``k`` is at least 0 and every index taken so far (the levels come in component order, drive first) — the
    planner's blocks spent a fifth of their time here. The same selections, so the same bits."""
    best = np.full(shape, _INF)
    index = np.zeros(shape, dtype=np.int8)
    candidates = list(candidates)
    shapes = [np.shape(x) for x, _ in candidates] + [np.shape(k) for _, k in candidates]
    if shape and np.broadcast_shapes(shape, *shapes) == tuple(shape):
        better = np.empty(shape, dtype=bool)
        tie = lower = None
        top = 0  # the largest index taken so far (0: the initial one)
        for x, k in candidates:
            k = k if type(k) is int else np.asarray(k).astype(np.int8)  # as the astype(int8) below did
            lo, hi = (k, k) if type(k) is int else (int(k.min()), int(k.max()))
            np.less(x, best, out=better)
            if lo < top or lo < 0:  # (x == best) & (k < index) may hold somewhere
                if tie is None:
                    tie, lower = np.empty(shape, dtype=bool), np.empty(shape, dtype=bool)
                np.equal(x, best, out=tie)
                np.less(k, index, out=lower)
                tie &= lower
                better |= tie
            top = max(top, hi)
            np.copyto(index, k, casting="unsafe", where=better)
            np.copyto(best, x, where=better)
        return best, index
    for x, k in candidates:
        better = (x < best) | ((x == best) & (k < index))
        index = np.where(better, k, index).astype(np.int8)
        best = np.where(better, x, best)
    return best, index


def _first_smallest(candidates, shape, start=None):
    """Binding index for one configuration: the component index of the smallest candidate value, ties to the
    lower index — what the candidate-by-candidate comparisons compute, in one ``argmin`` over the candidates
    sorted by index (its first occurrence wins). ``shape``: the drive counts' (one configuration's values are
    scalars or of that shape; others are broadcast). ``start``: an ``(index, value)`` that holds until a candidate beats it, placed
    first. ``None`` where a value is NaN (the comparisons never pick a NaN; ``argmin`` would).
    """
    candidates = sorted(candidates, key=_first)
    if start is not None:
        candidates.insert(0, start)
    if any(type(x) is np.ndarray and x.shape != shape for _, x in candidates):  # configurations as arrays
        shape = np.broadcast(*(x for _, x in candidates)).shape
    values = np.empty((len(candidates), *shape))
    for i, (_, x) in enumerate(candidates):
        values[i] = x
    if math.isnan(values.sum()):  # NaN iff a value is (the values are >= 0 or inf: no inf − inf)
        return None
    index = np.array([k for k, _ in candidates], dtype=np.int8)[values.argmin(axis=0)]
    return index if shape else np.asarray(index)


def _first(pair):
    return pair[0]


class Work:
    """Scratch buffers for :meth:`Levels.fill`: five float, one bool and two int8 arrays of one chunk's length
    (allocated once per sweep; :meth:`view` gives the first ``k`` entries of each for a shorter chunk)."""

    __slots__ = ("b", "f", "i", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.f = [np.empty(size) for _ in range(5)]
        self.b = [np.empty(size, dtype=bool)]
        self.i = [np.empty(size, dtype=np.int8) for _ in range(2)]

    def view(self, k: int) -> Work:
        if k == self.size:
            return self
        w = Work.__new__(Work)
        w.size, w.f, w.b, w.i = k, [a[:k] for a in self.f], [a[:k] for a in self.b], [a[:k] for a in self.i]
        return w


def _bounds(index) -> tuple[int, int]:
    """Smallest and largest component index of a level (an int, or an int8 array per configuration)."""
    if type(index) is int:
        return index, index
    index = np.asarray(index)
    return int(index.min()), int(index.max())


def _round_robin(k, kd, d, g, m):
    """``(switched_local(k, d, g, m), _excess(k, d, g, m))`` for one load ``k`` over ``m`` switches (scalars) and
    per-configuration ``d``, ``g``: the same sums bit for bit, sharing ``q·d`` and ``(q+1)·d`` (``kd`` when
    ``q = k``) and skipping the terms a factor 0 or 1 leaves unchanged."""
    q = math.floor(k / m)
    r = k - q * m
    qd = kd if q == k else q * d
    local, excess = np.fmin(g, qd), np.fmax(qd - g, 0.0)
    if m - r != 1.0:
        local, excess = (m - r) * local, (m - r) * excess
    if r:
        a = (q + 1) * d
        local, excess = r * np.fmin(g, a) + local, r * np.fmax(a - g, 0.0) + excess
    return local, excess


def _round_robin_arrays(k, d, g, m, *, direct: bool = True):
    """``(switched_local(k, d, g, m), _excess(k, d, g, m))`` with ``q``, ``r`` and the products computed once
    (the same expressions, so the same bits; where ``g`` is not finite the first is ``k·d``). ``direct=False``: the
    caller puts ``k·d`` where ``g`` is not finite itself (the check left out: two numpy calls a complex)."""
    q = np.floor(k / m)
    r = k - q * m
    a, b = (q + 1) * d, q * d
    rest = m - r
    local = r * np.fmin(g, a) + rest * np.fmin(g, b)
    excess = r * np.fmax(a - g, 0.0) + rest * np.fmax(b - g, 0.0)
    if direct and not ops.all_(np.isfinite(g)):
        local = np.where(np.isfinite(g), local, k * d)
    return local, excess


def _stacked_loads(n, p, M, j):
    """:func:`~nvmemodel.ceiling.tree.loads` (array drive counts) for every complex position at once, ``j`` the positions
    on a new first axis: ``(k, socket)`` with that axis first (the socket's of length 1 along the configurations
    where it depends on the position alone) — the same expressions element by element, so the same loads."""
    n = np.asarray(n, dtype=float)
    M = np.asarray(M, dtype=float)
    sockets = np.asarray(p["host.sockets"], dtype=float)
    placement = p["tree.placement"]
    q = np.floor(n / M)
    r = q * M
    r = n - r
    if ops.scalar(placement) and placement != _FILL_FIRST:  # round-robin everywhere (loads' own branch)
        k = q + (j < r)
        if M.ndim:
            k = np.where(j < M, k, 0.0)
        return k, np.mod(j, sockets)
    cps = np.asarray(p["tree.complexes_per_socket"], dtype=float)
    slots = np.asarray(p["tree.slots_per_complex"], dtype=float)
    fill = np.asarray(placement) == _FILL_FIRST
    rr = q + (j < r)
    left = n - j * slots
    ff = np.where(j == M - 1, np.fmax(left, 0.0), np.clip(left, 0.0, slots))
    k = np.where(j < M, np.where(fill, ff, rr), 0.0)
    return k, np.where(fill, np.floor(j / cps), np.mod(j, sockets))


def _whole(x, shape):
    """``x`` as a contiguous array of ``shape`` (a number stays one), the same values."""
    if type(x) is not np.ndarray or (x.shape == shape and x.flags.c_contiguous):
        return x
    return np.ascontiguousarray(np.broadcast_to(x, shape))


def _in_order(x):
    """The sum over the first axis of ``x``, term after term in that order (one term: itself), as a running sum adds."""
    if x.shape[0] == 1:
        return x[0]
    return np.add.reduce(x.reshape(x.shape[0], -1), axis=0).reshape(x.shape[1:])


def _add(total, x):
    """``total + x`` for a running sum that starts at the Python float 0.0: the first term is taken as it is
    (``0.0 + x`` is ``x``, bit for bit, for the non-negative terms summed here), the others added."""
    return x if type(total) is float and total == 0.0 else total + x


def _zero(x) -> bool:
    return (type(x) is float or type(x) is np.float64) and x == 0.0


def _sum(terms):
    """``sum(terms)`` of non-negative terms without its ``0 + first`` copy and without adding exact scalar
    zeros (a socket without drives): the same number bit for bit."""
    total = 0.0
    for x in terms:
        if (type(x) is float or type(x) is np.float64) and x == 0.0:
            continue
        total = _add(total, x)
    return total


def _capped(n, d, cap, m):
    """``Σ_j min(cap, k_j · d)`` over ``m`` round-robin groups, written as ``n·d`` minus what the caps take
    away, so that it equals ``n·d`` exactly (a tie, not a rounding) wherever no cap binds."""
    if ops.scalar(d, cap, m) and (math.floor((n.max() if type(n) is np.ndarray else n) / m) + 1) * d - cap <= 0:
        return n * d  # one configuration whose groups never fill: what the formula gives, n·d − 0
    return n * d - _excess(n, d, cap, m)


def _excess(n, d, cap, m):
    """What ``m`` caps take away from ``n·d`` with the drives round-robin over them: exactly 0 where none binds."""
    q = np.floor(n / m)
    r = n - q * m
    return r * np.fmax((q + 1) * d - cap, 0.0) + (m - r) * np.fmax(q * d - cap, 0.0)


def switches_alone(n, d, g, m):
    """The switch level's candidate for "binding" at ``n`` drives round-robin over ``m`` switches: what drives
    and switches deliver together, ``n·d`` minus what the full switches take away — below ``n·d`` exactly
    when a switch is full (then the next drive, landing on it, adds less than ``d``), equal to it (a tie,
    which the drive wins) when none is; ``inf`` without a switch."""
    if _is_inf(g):
        return _INF
    x = n * d - _excess(n, d, g, m)
    return x if ops.all_(np.isfinite(g)) else np.where(np.isfinite(g), x, _INF)


def switched_local(n, d, g, m):
    """``Σ_switches min(G, k_j · d)`` with ``n`` drives round-robin over ``m`` switches (``n·d`` without)."""
    if _is_inf(g):
        return n * d
    q = np.floor(n / m)
    r = n - q * m
    x = r * np.fmin(g, (q + 1) * d) + (m - r) * np.fmin(g, q * d)
    # direct-attached configurations among switched ones: exactly n·d, as they give alone (the sum rounds)
    return x if ops.all_(np.isfinite(g)) else np.where(np.isfinite(g), x, n * d)


#: One configuration's :class:`Levels` by the hash of its parameter mapping's (names, values) → (names, values,
#: registry, Levels); see :func:`levels_of`.
_KEPT: dict[int, tuple] = {}
_KEPT_TYPES = frozenset({float, int, bool, str})


def levels_of(params: Mapping[str, object]) -> Levels:
    """:class:`Levels` of one configuration's parameter mapping (:meth:`Topology.parameters`: numbers and names),
    prepared (:func:`~nvmemodel.ceiling.derive.prepare`) and computed — or kept from an earlier call for the very
    same value objects under the same component registry (equal is not enough: ``-0.0 == 0.0``). Everything it
    holds is independent of the drive count, so a topology evaluated again (a plot, a notebook, a loop over drive
    counts) neither prepares nor composes the limits again; :class:`Levels` is never changed after it is built."""
    names, values = tuple(params), tuple(params.values())
    comps = components()
    try:
        key = hash((names, values))
    except TypeError:
        key = None
    hit = _KEPT.get(key) if key is not None else None
    if hit is not None and hit[2] is comps and hit[0] == names and all(map(operator.is_, values, hit[1])):
        return hit[3]
    lv = Levels(prepare(params))
    if key is not None and _KEPT_TYPES.issuperset(map(type, values)):
        if len(_KEPT) >= 64:
            _KEPT.clear()
        _KEPT[key] = (names, values, comps, lv)
    return lv


