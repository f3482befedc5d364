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
from collections.abc import Mapping

import numpy as np

from . import ops
from .components import COMPONENT_LABELS, COMPONENTS, Limit, components, everywhere, names
from .derive import prepare
from .raid import drive_side, raid_transform
from .tree import _FILL_FIRST, complex_loads, complexes_in_use, switches_on

__all__ = ["COMPONENTS", "COMPONENT_LABELS", "Levels", "evaluate_parameters", "evaluate_prepared", "switched_local"]


def evaluate_parameters(p: Mapping[str, object], drives, *, alone: bool = True) -> dict[str, object]:
    """Evaluate the kernel on a flat parameter mapping (:meth:`Topology.parameters`, or arrays of it).

    Returns a dict with ``iops`` (system IOPS ceiling), ``per_drive_iops`` (a drive's own ceiling
    before shared limits), ``binding`` (int8 index into ``components``), ``components`` (the names, in
    tie-break order) and, with ``alone=True``, ``ceilings`` (a tuple in that order of arrays
    broadcastable to the result: each component alone, IOPS).
    """
    return evaluate_prepared(prepare(p), drives, alone=alone)


def _is_inf(x) -> bool:
    return isinstance(x, float) and x == _INF


_INF = np.inf  # the very object Limit's fields default to (identity is the cheap test)
_INDEX_NAMES = tuple(f"{level}_index" for level in Limit._fields)


class Levels:
    """Per configuration, the tightest limit at each level and which component sets it.

    Independent of the drive count, so it is computed once per configuration: ``drive`` (per drive),
    ``group`` (per switch), ``complex`` (per root complex), ``socket`` (per socket) and ``system``,
    each with the index of its component (``*_index``, int8; ``-1`` where no component limits that
    level). ``tree`` is True where a complex or socket limit is set or drives fill switches first
    (drive placement matters);
    ``amplification`` the drive I/Os per host I/O of a RAID level (1 without RAID).
    """

    __slots__ = ("_fill_switched", "amplification", "complex", "complex_index", "components", "drive", "drive_index",
                 "group",
                 "group_index", "limits", "one", "p", "socket", "socket_index", "switches", "system", "system_index",
                 "tree")

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
                self.limits.append(Limit(
                    **{lv: (x if _is_inf(x) else x / a) for lv in ("drive", "group", "complex", "socket")
                       for x in (getattr(dev, lv),)}, system=host.system))
        self.switches = p["switch.count"]
        best, index = [_INF] * len(Limit._fields), [-1] * len(Limit._fields)
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
        self._fill_switched = (np.asarray(p.get("tree.placement", 0.0)) == _FILL_FIRST) & ~np.isinf(self.group)
        self.tree = not (_is_inf(self.complex) and _is_inf(self.socket)) or ops.any_(self._fill_switched)

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
        n = np.asarray(n, dtype=float)
        if _is_inf(g) and everywhere(p["tree.placement"], 0.0) and (_is_inf(c) or _is_inf(sk)):
            # round-robin, one tree level, no switches: the switch formula over sockets (or complexes)
            if _is_inf(c):
                x = _capped(n, d, sk, p["host.sockets"])
                return x, _INF, x, _INF
            x = _capped(n, d, c, p["host.sockets"] * p["tree.complexes_per_socket"])
            return x, x, _INF, _INF
        per_socket, per_socket_d = {}, {}
        complex_alone = 0.0
        group_alone = 0.0
        switched = not _is_inf(g)
        M = complexes_in_use(p, self._tree_switches())
        for j, (k, sock) in enumerate(complex_loads(n, p, M)):
            kd = k * d
            local_j = switched_local(k, d, g, np.fmax(switches_on(j, self.switches, M), 1.0)) if switched else kd
            if switched and not ops.all_(np.isfinite(g)):  # direct-attached configurations among switched ones
                local_j = np.where(np.isfinite(g), local_j, kd)
            if switched:  # what full switches take away on this complex (exactly 0 where none is full)
                group_alone = group_alone + _excess(k, d, g, np.fmax(switches_on(j, self.switches, M), 1.0))
            capped = local_j if _is_inf(c) else np.fmin(c, local_j)
            if not _is_inf(c):  # what the cap takes away: n·d minus it is exactly n·d where it takes nothing
                complex_alone = complex_alone + np.fmax(kd - c, 0.0)
            for s in range(int(np.max(p["host.sockets"]))):
                on = sock == s
                per_socket[s] = per_socket.get(s, 0.0) + np.where(on, capped, 0.0)
                per_socket_d[s] = per_socket_d.get(s, 0.0) + np.where(on, kd, 0.0)
        nd = n * d
        if _is_inf(sk):
            total = sum(per_socket.values())
            socket_alone = _INF
        else:
            total = sum(np.fmin(sk, x) for x in per_socket.values())
            socket_alone = nd - sum(np.fmax(x - sk, 0.0) for x in per_socket_d.values())
        if switched:  # direct-attached configurations among switched ones have no switch candidate
            group_alone = nd - group_alone
            group_alone = group_alone if ops.all_(np.isfinite(g)) else np.where(np.isfinite(g), group_alone, _INF)
        else:
            group_alone = _INF
        out = (total, (_INF if _is_inf(c) else nd - complex_alone), socket_alone, group_alone)
        # evaluated beside tree configurations, but without a tree level or a fill_first switch placement itself:
        # what it gives alone (switches round-robin, no level candidates), not the tree sums
        flat = np.isinf(c) & np.isinf(sk) & ~self._fill_switched
        if ops.any_(flat):
            out = tuple(np.where(flat, alone, x) for x, alone in zip(out, (
                switched_local(n, d, g, self.switches), _INF, _INF, switches_alone(n, d, g, self.switches))))
        return out

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
        return lexicographic_min(((value(), k) for value, k in candidates if not np.all(np.asarray(k) < 0)),
                                 shape)[1]

    def parts(self, n) -> tuple:
        """``(local, complex alone, socket alone, switches alone)`` at ``n`` drives: :meth:`local` and, with a host
        tree, the candidates its levels put up for "binding" (``inf`` without one; switches alone ``None``:
        ``min(n, m)·G``). What :meth:`total_and_binding`
        needs besides the system limit, so a caller may evaluate it at fewer points and select."""
        if self.tree:
            return self._tree(n)
        return self.local(n), _INF, _INF, None

    def total_and_binding(self, n, parts=None) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`total` and :meth:`binding` together, sharing ``n·d`` (the sweep's inner loop).

        ``parts``: :meth:`parts` at ``n`` when the caller has it (a host tree only)."""
        if self.tree:
            local, c_alone, s_alone, g_alone = self._tree(n) if parts is None else parts
            total = local if _is_inf(self.system) else np.fmin(local, self.system)
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
        return self.switches if ops.all_(np.isfinite(self.group)) else np.where(np.isfinite(self.group),
                                                                                  self.switches, np.inf)

    def fill(self, n, total_out: np.ndarray, binding_out: np.ndarray, scratch=None) -> None:
        """:meth:`total_and_binding` written into preallocated arrays, in place where the topology allows
        (no switch level: ``n·d`` then one comparison with the system limit) — the sweep's inner loop.
        ``scratch``: a bool and an int8 array of the outputs' shape to work in (else allocated)."""
        socket_only = self.tree and _is_inf(self.group) and _is_inf(self.complex) and \
            everywhere(self.p["tree.placement"], 0.0)
        if not _is_inf(self.group) or (self.tree and not socket_only):
            total_out[...], binding_out[...] = self.total_and_binding(n)
            return
        np.multiply(n, self.drive, out=total_out)
        current = self.drive_index
        if socket_only:  # round-robin over sockets: Σ_s min(Sock, k_s·d), which is also the socket's candidate
            _take(total_out, binding_out, _capped(n, self.drive, self.socket, self.p["host.sockets"]),
                  self.socket_index, current, scratch)
            current = binding_out
        if not _is_inf(self.system):
            _take(total_out, binding_out, self.system, self.system_index, current, scratch)
        elif current is not binding_out:
            binding_out[...] = current

    def alone(self, n) -> tuple:
        """Each component alone as a system ceiling: ``min(n·drive, m_used·group, system)``; ``m_used`` the
        switches holding drives: ``min(n, m)`` round-robin, fewer where fill_first loads one switch first."""
        used = self._switches_used(n)
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
            if not (_is_inf(lim.complex) and _is_inf(lim.socket)):
                x = np.fmin(x, self._level_alone(n, lim))
            if not _is_inf(lim.system):
                x = np.fmin(x, lim.system)
            out.append(x)
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

    def _level_alone(self, n, lim):
        """A root-complex or socket limit alone: the complexes (sockets) holding drives × its limit, like
        ``min(n, m) · G`` for switches; drive placement decides how many hold drives."""
        p = self.p
        if everywhere(p["tree.placement"], 0.0):  # round-robin: min(n, M) complexes, min(n, sockets) sockets
            M = complexes_in_use(p, self._tree_switches())
            x = _INF if _is_inf(lim.complex) else np.fmin(n, M) * lim.complex
            if not _is_inf(lim.socket):
                x = np.fmin(x, np.fmin(np.fmin(n, M), p["host.sockets"]) * lim.socket)
            return x
        used_complexes, used = 0.0, {}
        for k, sock in complex_loads(n, p, complexes_in_use(p, self._tree_switches())):
            used_complexes = used_complexes + (k > 0)
            for s in range(int(np.max(p["host.sockets"]))):
                used[s] = used.get(s, False) | ((sock == s) & (k > 0))
        x = _INF if _is_inf(lim.complex) else used_complexes * lim.complex
        if not _is_inf(lim.socket):
            x = np.fmin(x, sum(np.asarray(u, dtype=float) for u in used.values()) * lim.socket)
        return x


def lexicographic_min(candidates, shape) -> tuple[np.ndarray, np.ndarray]:
    """``(value, index)``: the smallest of ``(value, component index)`` pairs, ties to the lower index (the
    component nearer the drive); indices are int8. Pairs whose index is ``-1`` everywhere should be left out."""
    best = np.full(shape, _INF)
    index = np.zeros(shape, dtype=np.int8)
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


def _take(total_out, binding_out, x, xi, current, scratch=None) -> None:
    """Where candidate ``x`` (component index ``xi``) beats ``total_out`` — strictly, or on a tie with a lower
    index than the current binding — write its index into ``binding_out``; ``total_out`` becomes the smaller."""
    xi, ci = np.asarray(xi, dtype=np.int8), np.asarray(current, dtype=np.int8)
    on_current = current is binding_out
    if on_current:  # the current binding is per point: work beside it
        wins, work = scratch if scratch is not None else (np.empty(total_out.shape, dtype=bool),
                                                          np.empty(total_out.shape, dtype=np.int8))
    else:  # per configuration: the comparison goes straight into the output (0/1), no scratch to touch
        wins = binding_out.view(np.bool_)
    if np.all(xi > ci):  # ties stay with the level nearer the drive
        np.less(x, total_out, out=wins)
    elif np.all(xi < ci):
        np.less_equal(x, total_out, out=wins)
    else:
        np.logical_or(np.less(x, total_out), np.equal(x, total_out) & (xi < ci), out=wins)
    # binding = current + wins·(xi − current) in int8 passes: a masked copy (np.copyto where=) is ~10x slower
    if on_current:
        np.subtract(xi, ci, out=work)
        np.multiply(wins.view(np.int8), work, out=work)
        np.add(binding_out, work, out=binding_out)
    else:
        np.multiply(binding_out, np.subtract(xi, ci, dtype=np.int8), out=binding_out)
        np.add(binding_out, ci, out=binding_out)
    np.fmin(total_out, x, out=total_out)


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


def evaluate_prepared(p: Mapping[str, np.ndarray], drives, *, alone: bool = True) -> dict[str, object]:
    """:func:`evaluate_parameters` on a mapping already passed through :func:`~nvmemodel.ceiling.derive.prepare`."""
    n = np.asarray(drives, dtype=float)
    lv = Levels(p)
    total, binding = lv.total_and_binding(n)
    out = {"iops": total, "per_drive_iops": lv.drive, "binding": binding, "components": lv.components}
    if alone:
        out["ceilings"] = lv.alone(n)
    return out
