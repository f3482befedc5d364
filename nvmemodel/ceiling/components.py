"""The component registry: what can bind, each declared once with its ceiling function.

A :class:`Component` names a limit of the system (``"pcie_link"``, ``"host_cpu"`` …), says in
plain language what it is, which parameters set it (their sources travel into explanations),
and gives a vectorized function from the parameter mapping to a :class:`Limit`: an IOPS ceiling
per drive, per switch (shared by the drives behind it) and/or for the whole system.
:mod:`nvmemodel.ceiling.system` composes every registered component; the CLI's help, the JSON
schema, the plot colours and the explanations enumerate the registry. Adding a component is
one module that calls :func:`register` (and declares its parameters), plus its tests.

>>> from nvmemodel.ceiling.components import names
>>> names()[:3]
('drive', 'pcie_link', 'queue_depth')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from ..parameters import PARAMETERS, Parameter, declare

__all__ = [
    "CLASS",
    "CLASSES",
    "COMPONENTS",
    "COMPONENT_LABELS",
    "Component",
    "GridClasses",
    "Limit",
    "color",
    "components",
    "everywhere",
    "get_component",
    "label_for",
    "labeler",
    "labels_for",
    "names",
    "register",
    "registered",
    "unregister",
]

_INF = np.inf


def everywhere(x, value) -> bool:
    """True where every configuration holds ``value`` (fast for the scalars of a single curve):
    how an absent layer is recognised so that it costs nothing."""
    if type(x) in (float, np.float64, int):
        return x == value
    return bool(np.all(np.asarray(x) == value))


class Limit(NamedTuple):
    """A component's IOPS ceiling by where it applies; ``inf`` where it does not.

    ``drive``: each drive alone (the system gets at most ``n ×`` it); ``group``: each switch,
    shared by the drives behind it (at most ``min(n, switches) ×`` it); ``complex``: each PCIe root
    complex and ``socket``: each CPU socket, shared by the drives placed on it (see
    :mod:`nvmemodel.ceiling.tree`); ``system``: the whole system. (An immutable named tuple: built
    for every component at every evaluation, it costs a tenth of a frozen dataclass.)
    """

    drive: float | np.ndarray = _INF  # IOPS: one value, or one per configuration
    group: float | np.ndarray = _INF
    system: float | np.ndarray = _INF
    complex: float | np.ndarray = _INF
    socket: float | np.ndarray = _INF


@dataclasses.dataclass(frozen=True)
class Component:
    """One thing that can limit the system.

    Parameters
    ----------
    name : str
        Identifier used in results, JSON and the CLI (``"switch_uplink"``).
    label : str
        Plain-language name for explanations (``"the PCIe switch uplink shared by its drives"``).
    order : float
        Tie-break position: of two components with the same ceiling, the lower order (nearer the
        drive) is named as binding.
    limit : callable
        ``limit(p) -> Limit`` on the prepared parameter mapping (numpy arrays; categorical codes).
    parameters : tuple of str
        Parameter names that set this ceiling; their values and sources are quoted in explanations.
    summary : str
        One line for ``nvmemodel ceilings --help``.
    color : str
        Plot colour (a matplotlib colour); empty: one is assigned from a palette.
    declares : tuple of Parameter
        New parameters this component introduces (added to the parameter table on registration).
    label_of : callable, optional
        ``label_of(parameters) -> str | None``: the label for one configuration's public parameter values where what
        binds depends on them (md RAID names its level, kernel generation and published range); None: ``label``.
    """

    name: str
    label: str
    order: float
    limit: Callable[[Mapping[str, np.ndarray]], Limit]
    parameters: tuple[str, ...] = ()
    summary: str = ""
    color: str = ""
    declares: tuple[Parameter, ...] = ()
    label_of: Callable[[Mapping], str | None] | None = None


_REGISTRY: dict[str, Component] = {}
# the registry in tie-break order and its names, cached until it changes (every evaluation asks for them)
_ORDERED: dict[str, tuple] = {}
_PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c", "#ccb974",
            "#64b5cd", "#1b9e77", "#e7298a")


def register(component: Component) -> Component:
    """Add a component (and the parameters it declares) to the model."""
    if component.name in _REGISTRY:
        raise ValueError(f"component {component.name!r} is already registered")
    for param in component.declares:
        declare(param)
    _REGISTRY[component.name] = component
    _ORDERED.clear()
    return component


def unregister(name: str) -> None:
    """Remove a component and the parameters it declared (tests of extension components use this)."""
    component = _REGISTRY.pop(name)
    _ORDERED.clear()
    for param in component.declares:
        PARAMETERS.pop(param.name, None)


class registered:
    """Context manager: a component registered for the duration of a ``with`` block."""

    def __init__(self, component: Component) -> None:
        self.component = component

    def __enter__(self) -> Component:
        return register(self.component)

    def __exit__(self, *exc) -> None:
        unregister(self.component.name)


def components() -> tuple[Component, ...]:
    """Registered components in tie-break order (nearest the drive first).

    Each one's ``limit`` as the kernel calls it: on a sweep's chunk whose grid has few distinct rows
    (:class:`GridClasses`), computed once per distinct row and gathered; otherwise the component's own function."""
    if not _ORDERED:
        ordered = tuple(sorted(_REGISTRY.values(), key=lambda c: c.order))
        _ORDERED.update(components=tuple(dataclasses.replace(c, limit=_by_class(c.limit)) for c in ordered),
                        names=tuple(c.name for c in ordered))
    return _ORDERED["components"]


#: The keys a sweep's prepared mapping holds its grid's classes under (:class:`GridClasses`): the class of each
#: configuration (an int array, sliced with the others per chunk), and the classes themselves.
CLASS, CLASSES = "_grid.class", "_grid.classes"


def _by_class(limit: Callable[[Mapping[str, np.ndarray]], Limit]):
    """``limit`` taken from the sweep's classes where the mapping is one of its chunks, else computed."""

    def limit_by_class(p):
        classes = p.get(CLASSES)
        if classes is None or not classes.applies(p):
            return limit(p)
        return classes.limit(limit, p)

    setattr(limit_by_class, "__wrapped__", limit)  # (inspect.unwrap finds the limit; a function's own attribute)
    return limit_by_class


class GridClasses:
    """A sweep grid's configurations in classes of identical grid values, so that a component's limit is computed
    once per class present in a chunk (one row each) and gathered for the chunk's configurations with ``take``.

    Every entry of a sweep's prepared mapping that differs between configurations is a function of its grid
    values, and every limit is elementwise in the configurations, so a class's row gives each of its
    configurations' numbers bit for bit; where a limit could have answered a chunk differently in form (a number
    for a part absent from it), it is computed on that chunk's classes alone (:meth:`limit`;
    ``tests/test_grid_classes.py``).

    Used only for a mapping that is one of the sweep's chunks: every per-configuration entry the same rows of the
    sweep's own arrays as the class array, every other entry the sweep's own object (a mapping derived from it —
    e.g. a RAID layer's drive-side copy — is computed directly).
    """

    def __init__(self, p: dict, cls: np.ndarray, rep: np.ndarray) -> None:
        configs = cls.shape[0]
        self.per = frozenset(k for k, v in p.items() if type(v) is np.ndarray and v.ndim == 1 and v.shape[0] == configs)
        self.count = rep.shape[0]
        #: One row per class: the per-configuration entries at a representative configuration, the rest as they are.
        self.distinct = {k: (v[rep] if k in self.per else v) for k, v in p.items()}
        p[CLASS] = cls
        self.per = self.per | {CLASS}
        self.full = dict(p)
        self.full[CLASSES] = self
        self._at = {k: (p[k], p[k].base if p[k].base is not None else p[k], _address(p[k])) for k in self.per}
        self._every: dict = {}  # limits on every class's row
        self._last: Mapping | None = None  # the chunk last found to be one of the sweep's
        self._local: np.ndarray | None = None  # each configuration's row among _rows'
        self._rows: _Rows | None = None  # the rows of the classes the chunk holds

    def applies(self, p) -> bool:
        """True where ``p`` is one of the sweep's chunks (checked once per mapping)."""
        if p is self._last:
            return True
        cls = p.get(CLASS)
        if type(cls) is not np.ndarray or len(p) != len(self.full):
            return False
        row = self._row(CLASS, cls)
        if row is None:
            return False
        for k, v in p.items():
            if k in self.per:
                if type(v) is not np.ndarray or v.shape != cls.shape or self._row(k, v) != row:
                    return False
            elif v is not self.full.get(k, self):
                return False
        self._rows = None  # the rows of the classes the chunk holds, worked out if needed (see limit)
        self._last = p
        return True

    def _row(self, key: str, v: np.ndarray):
        """The first configuration ``v`` holds, where it is rows of the sweep's array ``key`` (else None)."""
        full, owner, address = self._at[key]
        if v is not full and v.base is not owner or v.strides[0] != full.strides[0]:
            return None
        return (_address(v) - address) // full.strides[0]

    def limit(self, limit, p) -> Limit:
        """``limit`` of the chunk ``p`` (for which :meth:`applies` is True).

        Computed once on every class's row and gathered, unless a gathered field holds one value throughout the
        chunk (a part absent from it, say; or NaN, unless two different numbers are seen beside it): there the chunk's own computation might have given that
        value as a number rather than an array — the other way the kernel reads it —, so the limit is computed
        on the rows of the classes the chunk holds, whose values are the chunk's own. (Where a field varies
        within the chunk, its computation gives an array, and the same numbers: the limits' decisions over all
        configurations take the same value whatever rows are given — "any", "all", a range — or choose between
        ways of computing the same numbers, which ``tests/ceiling/test_fast_paths.py`` holds them to.)"""
        lim = self._every.get(limit)
        if lim is None:
            lim = self._every[limit] = limit(self.distinct)
        cls = p[CLASS]
        out = []
        for x in lim:
            if type(x) is np.ndarray and x.ndim == 1 and x.shape[0] == self.count:
                x = x.take(cls)
                if not _varies(x):
                    return self._chunk_limit(limit, cls)
            out.append(x)
        return type(lim)(*out)

    def _chunk_limit(self, limit, cls) -> Limit:
        """``limit`` computed on the rows of the classes the chunk (class array ``cls``) holds, gathered."""
        chunk, local = self._rows, self._local
        if chunk is None or local is None:  # (set together: once per chunk)
            present = np.zeros(self.count, dtype=bool)
            present[cls] = True
            rank = np.cumsum(present, dtype=np.intp) - 1
            local, chunk = rank.take(cls), _Rows(self.distinct, self.per, np.flatnonzero(present))
            self._local, self._rows = local, chunk
        lim = limit(chunk)
        rows = chunk.size
        return type(lim)(*(x.take(local) if type(x) is np.ndarray and x.ndim == 1 and x.shape[0] == rows else x
                           for x in lim))


class _Rows(Mapping):
    """Some classes' rows of :attr:`GridClasses.distinct`: each per-configuration entry taken when first read."""

    def __init__(self, distinct: dict, per, rows: np.ndarray) -> None:
        self._distinct, self._per, self._rows = distinct, per, rows
        self._taken: dict = {}  # the per-configuration entries taken so far
        self.size = rows.shape[0]

    def __getitem__(self, key):
        v = self._taken.get(key)
        if v is None:
            v = self._distinct[key]
            if key in self._per:
                v = self._taken[key] = v.take(self._rows)
        return v

    def __contains__(self, key) -> bool:
        return key in self._distinct

    def __iter__(self):
        return iter(self._distinct)

    def __len__(self) -> int:
        return len(self._distinct)


def _varies(x: np.ndarray) -> bool:
    """True where ``x`` holds two different numbers: seen at a few positions (a chunk's gathered field usually
    varies from its first entries on), else ``min < max`` over all of it (False for NaN, as before)."""
    if not x.size:
        return False
    first = x[0]
    for i in (1, 2, 3, x.size // 2, x.size - 1):
        if i < x.size and (x[i] < first or x[i] > first):
            return True
    return bool(x.min() < x.max())


def _address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def names() -> tuple[str, ...]:
    """Names of the registered components in tie-break order."""
    components()
    return _ORDERED["names"]


def get_component(name: str) -> Component:
    try:
        return _REGISTRY[name]
    except KeyError:
        from ..errors import UnknownNameError

        raise UnknownNameError("component", name, list(_REGISTRY)) from None


#: How a label that says "(spec sheet)" names the status of the values that set it where they are not from one
#: (QA s25 H34: a rating recalled for a drive discover only assumed was called a spec sheet's)
_STATUS_WORDS = {"spec": "spec sheet", "measured": "measured", "inferred": "inferred",
                 "calibrated": "calibrated", "derived": "derived", "assumption": "assumed", "estimate": "estimate",
                 "recalled": "rating recalled, not re-verified", "default": "default", "user": "set by the user",
                 "fit": "fitted"}
_SPEC = "(spec sheet)"


def _setting(component: Component, parameters: Mapping) -> list[str]:
    """The component's parameters that set its value with these ``parameters`` (a workload's): those whose doubling
    changes its limit (a drive's 4K read IOPS for 4K reads, its read bandwidth for 128K reads); all that are known
    where none alone does (a tie)."""
    known = [k for k in component.parameters if k in parameters
             and np.all(np.isfinite(np.asarray(parameters[k], dtype=float)))]
    try:
        base = component.limit(parameters)
        moved = [k for k in known if not all(
            np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True) for a, b in zip(
                base, component.limit({**parameters, k: np.asarray(parameters[k], dtype=float) * 2.0}), strict=True))]
    except (KeyError, TypeError, ValueError):  # a mapping the limit cannot take: every known parameter
        return known
    return moved or known


def label_for(name: str, parameters: Mapping | None = None, sources: Mapping | None = None) -> str:
    """The component's label, honest about the status of the values that set it: a label that says "(spec sheet)"
    says the values' statuses instead where, for these ``parameters`` (a workload's), they are not all ``spec``
    ("the drives' own limit (rating recalled, not re-verified)"); otherwise the label as registered.

    >>> import nvmemodel as nm
    >>> topo, wl = nm.preset("dell-r7525"), nm.Workload("randread", "4K")
    >>> label_for("drive", topo.parameters(wl), topo.sources(wl))
    "the drives' own limit (spec sheet)"
    >>> wl = nm.Workload("read", "128K")   # the PM1733's read bandwidth: calibrated on Dell's measurement
    >>> label_for("drive", topo.parameters(wl), topo.sources(wl))
    "the drives' own limit (calibrated)"
    """
    component = get_component(name)
    label = component.label
    if component.label_of is not None and parameters is not None:
        return component.label_of(parameters) or label
    if _SPEC not in label or parameters is None or sources is None:
        return label
    statuses = {getattr(sources.get(k), "status", "spec") for k in _setting(component, parameters)}
    if statuses <= {"spec"}:
        return label
    from ..parameters import STATUSES

    words = [_STATUS_WORDS.get(s, s) for s in sorted(statuses, key=lambda s: STATUSES.index(s) if s in STATUSES
                                                          else len(STATUSES))]
    return label.replace(_SPEC, f"({'; '.join(words)})")


def labeler(topology, workload, values: Mapping | None = None):
    """``name → label``: :func:`label_for` of ``topology`` under ``workload`` with ``values`` set (parameter name →
    value, as ``topology.with_parameters`` takes them); a name that is no registered component as it is. A topology
    of groups (one too) gives the registered labels, as its curve does. The parameter vector is worked out on the
    first label that could state a status (one that says "(spec sheet)"), once: a planner's misses and a fit's
    explanation ask for a few labels, mostly of components whose label has none."""
    if hasattr(topology, "groups"):
        # (not .get: an unknown name raises UnknownNameError, a LookupError that Mapping.get does not catch)
        return lambda name: COMPONENT_LABELS[name] if name in COMPONENT_LABELS else name  # noqa: SIM401
    held: list[tuple] = []

    def label(name: str) -> str:
        if name not in COMPONENT_LABELS:
            return name
        if _SPEC not in COMPONENT_LABELS[name] and get_component(name).label_of is None:
            return COMPONENT_LABELS[name]
        if not held:
            topo, wl = topology.with_parameters(values, workload) if values else (topology, workload)
            held.append((topo.parameters(wl), topo.sources(wl)))
        return label_for(name, *held[0])

    return label


def labels_for(names: Sequence[str], parameters: Mapping, sources: Mapping) -> dict[str, str]:
    """:func:`label_for` of each component named (a curve's ``labels``)."""
    return {name: label_for(name, parameters, sources) for name in names}


def color(name: str) -> str:
    """The component's plot colour (its own, else a palette colour by position)."""
    c = _REGISTRY.get(name)
    if c is not None and c.color:
        return c.color
    order = names()
    i = order.index(name) if name in order else len(order)
    return _PALETTE[i % len(_PALETTE)]


class _Names(Sequence):
    """A live, read-only view of the registered component names (so ``COMPONENTS`` never goes stale)."""

    def __getitem__(self, i):
        return names()[i]

    def __len__(self) -> int:
        return len(_REGISTRY)

    def __repr__(self) -> str:
        return repr(names())

    def __eq__(self, other) -> bool:
        return tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a list is (typeshed types object.__hash__ a method)


class _Labels(Mapping):
    def __getitem__(self, name):
        return get_component(name).label

    def __iter__(self):
        return iter(names())

    def __len__(self) -> int:
        return len(_REGISTRY)


#: Names of the registered components, in tie-break order (a live view).
COMPONENTS = _Names()
#: Component name → plain-language label (a live view).
COMPONENT_LABELS = _Labels()
