"""A design space: a base topology and axes of choices, walked in chunks of configurations.

Axes are parameter names from the table (``"drive.model"``, ``"host.gen"``, ``"host.sockets"``,
``"workload.io_stack"``, ``"fabric.transport"`` …; categorical ones by name) plus one convenience axis,
``"connection"``: ``"direct-x4"``, ``"direct-x2"``, ``"direct-x8"``, ``"direct-x16"`` (a root port of that
width per drive) or a switch catalog key (drives behind ``switch.count`` such adapters); and ``"host"``:
host-catalog CPUs (``"amd-epyc-7742"``, or ``"amd-epyc-7742:1"`` for one socket; ``nvmemodel hosts``), each
replacing the base's host as :func:`nvmemodel.with_host` does (cores, clock, sockets, lanes, generation and the
platform's root-complex and memory limits; an explicit axis such as ``connection`` wins over it, while ``host.sockets``
is folded into it and a ``host.gen`` above a CPU's own is dropped: :attr:`DesignSpace.notes`). The space is the
Cartesian product of the axes; it is never materialized: :meth:`DesignSpace.chunks` yields the value
arrays of consecutive configurations, so memory stays flat whatever the size.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import ParameterError, UnknownNameError
from ..parameters import PARAMETERS, get
from ..topology.presets import preset
from ..topology.topology import Topology

__all__ = ["CONNECTION", "HOST", "DesignSpace", "is_categorical"]

CONNECTION = "connection"
HOST = "host"
#: Axes that are not parameters of the table: both categorical, coded by their position in the axis.
SPECIAL = (CONNECTION, HOST)
_DIRECT = {"direct-x1": 1, "direct-x2": 2, "direct-x4": 4, "direct-x8": 8, "direct-x16": 16}


def is_categorical(name: str) -> bool:
    """Whether an axis takes names (``connection``, ``host``, categorical parameters) rather than numbers."""
    return name in SPECIAL or PARAMETERS[name].kind == "categorical"


def _host_fields(base: Any, values) -> dict[str, np.ndarray]:
    """Per ``host`` axis choice, the encoded parameters its host sets that differ from the base's, as arrays
    indexed by the choice's position (the base's root-port width, CPU share and cycles override are kept)."""
    from ..ceiling.group_parameters import shared_parameters
    from ..parameters import encode
    from ..topology.host import host_from_text, with_host
    from ..topology.workload import Workload

    wl = Workload()
    before = encode(shared_parameters(base, wl))  # a mixed base's: what its groups share
    rows = [encode(shared_parameters(with_host(base, host_from_text(v)), wl)) for v in values]
    skip = ("host.cycles_per_io",)
    fields = [k for k in before if k.split(".", 1)[0] in ("host", "tree", "memory") and k not in skip
              and any(not np.array_equal(r[k], before[k], equal_nan=True) for r in rows)]
    return {k: np.array([float(r[k]) for r in rows]) for k in fields}


def _fit_sockets(base: Any, axes: dict, notes: list[str]) -> dict:
    """A ``host.sockets`` axis fitted to catalog CPUs (QA F27): with a ``host`` axis it is folded into it (each CPU
    named without a count becomes ``NAME:N`` per count it allows, its lanes per socket those of N sockets, as
    ``--host NAME:N``), so an answer names one socket count; on a catalog base host, counts above what the part
    allows are dropped. Each drop is said in ``notes``; nothing left is one error."""
    from ..topology.host import get_host

    counts = axes["host.sockets"]
    for s in counts:
        if float(s) != int(s):
            raise ParameterError("host.sockets", s, "a whole number of sockets")

    def allows(name: str, n: int) -> str:  # "" where the part allows n sockets, else what it allows
        try:
            get_host(name, sockets=n)
        except ParameterError as err:
            return err.allowed
        return ""

    if HOST not in axes:
        if not base.host.key:
            return axes
        dropped: dict[Any, Any] = {int(s): allows(base.host.key, int(s)) for s in counts}
        kept = tuple(s for s in counts if not dropped[int(s)])
        bad = [n for n, why in dropped.items() if why]
        if not kept:
            raise ParameterError("host.sockets", [int(s) for s in counts], f"sockets {dropped[bad[0]]} (the base "
                                 "host's CPU)")
        if bad:
            notes.append(f"host.sockets {', '.join(map(str, bad))} dropped: sockets {dropped[bad[0]]} "
                         f"({base.name}'s CPU, {base.host.key}).")
        return {**axes, "host.sockets": kept}
    hosts, dropped, pinned = [], {}, []
    for h in axes[HOST]:
        name, _, count = str(h).partition(":")
        if count:  # the user named its count: kept as it is
            pinned.append(str(h))
            hosts.append(str(h))
            continue
        for s in counts:
            why = allows(name, int(s))
            if why:
                dropped.setdefault(name, (why, []))[1].append(int(s))
            else:
                hosts.append(f"{name}:{int(s)}")
    hosts = list(dict.fromkeys(hosts))
    if not hosts:
        raise ParameterError("host.sockets", [int(s) for s in counts], "a socket count the CPUs of the host axis "
                             "allow: sockets " + "; ".join(why for why, _ in dropped.values()))
    notes.append("host.sockets is folded into host (one socket count per CPU, its lanes per socket for that count): "
                 + ", ".join(hosts) + ".")
    for name, (why, bad) in dropped.items():
        notes.append(f"{name} with host.sockets {', '.join(map(str, bad))} dropped: sockets {why}.")
    if pinned:
        notes.append(f"{', '.join(pinned)} keep{'s' * (len(pinned) == 1)} the socket count named; host.sockets "
                     "applies to CPUs named without one.")
    return {k: (tuple(hosts) if k == HOST else v) for k, v in axes.items() if k != "host.sockets"}


def _fit_gen(base: Any, axes: dict, notes: list[str]):
    """A ``host.gen`` axis fitted to catalog CPUs (QA F28): with a ``host`` axis, a generation above a CPU's own PCIe
    generation is dropped for that CPU (a Gen5 link to a Gen4 root port trains at Gen4: that machine is its Gen4
    configuration; lower generations are kept, links train down) — a table (host × generation) of what is allowed, or
    None where all is; on a catalog base host a note says such configurations describe a hypothetical host."""
    from ..topology.host import host_from_text

    gens = [int(g) for g in axes["host.gen"]]
    if HOST not in axes:
        own: Any = int(base.host.gen) if base.host.key else None
        above = [g for g in gens if own is not None and g > own]
        if above:
            notes.append(f"host.gen {', '.join(f'Gen{g}' for g in above)} is above the PCIe generation of "
                         f"{base.name}'s CPU ({base.host.key}, Gen{own}): those configurations are a hypothetical host, not that CPU "
                         "(a host axis, --host, plans catalog CPUs at their own generation).")
        return None
    table = np.ones((len(axes[HOST]), len(gens)), dtype=bool)
    dropped: dict[str, list[str]] = {}
    for i, h in enumerate(axes[HOST]):
        own = int(host_from_text(h).gen)
        for j, g in enumerate(gens):
            if g > own:
                table[i, j] = False
                dropped.setdefault(f"Gen{own}", []).append(f"{h} with Gen{g}")
    if not table.any():
        raise ParameterError("host.gen", gens, "a generation the CPUs of the host axis have (each is "
                             + ", ".join(sorted(dropped)) + "; a link above its root port's generation trains down)")
    for own, combos in dropped.items():
        notes.append(f"Dropped {', '.join(combos)}: a {own} CPU (its links train down to {own}: that machine is its "
                     f"{own} configuration).")
    return None if table.all() else table


def _connection_choices() -> tuple[str, ...]:
    from ..topology.switch import switch_catalog

    return (*_DIRECT, *switch_catalog())


@dataclasses.dataclass(frozen=True)
class DesignSpace:
    """The configurations a planner may choose from.

    Parameters
    ----------
    base : Topology, MixedTopology or str
        The starting system (a preset name or a topology); every parameter not on an axis keeps its value.
    axes : mapping of name → sequence
        Choices per axis (parameter names, or ``"connection"``).
    max_drives : int, optional
        Drive bays: no configuration uses more drives, whatever its lanes or switch ports allow.

    Examples
    --------
    >>> space = DesignSpace("dell-r7525", {"host.gen": [4, 5], "drive.model": ["samsung-pm1743"],
    ...                                    "connection": ["direct-x4", "direct-x2"]}, max_drives=24)
    >>> space.size
    4
    """

    base: Any = "dell-r7525"  # Topology, MixedTopology or a preset name; a topology after __post_init__
    axes: Mapping[str, Sequence] = dataclasses.field(default_factory=dict)
    max_drives: int | None = None
    #: Lines saying how the axes were fitted to the CPUs (socket counts folded into ``host``, combinations a
    #: part does not allow dropped, generations above a CPU's own): printed with the plan.
    notes: tuple[str, ...] = dataclasses.field(default=(), init=False, compare=False)
    #: With a ``host`` axis (set by __post_init__, absent otherwise): per choice, the parameters its host sets
    #: (:func:`_host_fields`), read by :meth:`host_parts`.
    _host_table: dict[str, np.ndarray] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        from ..topology.mixed import MixedTopology

        topo = preset(self.base) if isinstance(self.base, str) else self.base
        if not isinstance(topo, Topology | MixedTopology):
            raise ParameterError("base", type(topo).__name__, "a topology (nm.preset(...), a MixedTopology) or a "
                                 "preset name")
        object.__setattr__(self, "base", topo)
        axes = {}
        for name, values in dict(self.axes).items():
            values = list(values) if not isinstance(values, (str, bytes)) else [values]
            if not values:
                raise ParameterError(name, values, "at least one choice (the design space is empty)")
            if name == CONNECTION:
                choices = _connection_choices()
                for v in values:
                    if v not in choices:
                        raise UnknownNameError("connection", str(v), list(choices))
            elif name == HOST:
                from ..topology.host import host_from_text

                for v in values:
                    host_from_text(v)  # an unknown CPU or socket count: one clear error here
            elif name not in PARAMETERS:
                raise UnknownNameError("parameter or axis", name, [*PARAMETERS, *SPECIAL])
            else:  # text with units ("3GHz") is parsed; anything else is checked as it is
                param = get(name)
                values = [param.parse(v) if isinstance(v, str) and param.kind != "categorical" else v
                          for v in values]
                param.check(np.asarray(values, dtype=object if param.kind == "categorical" else float))
            if len(set(map(str, values))) != len(values):
                raise ParameterError(name, values, "distinct choices (no value twice)")
            axes[name] = tuple(values)
        if CONNECTION in axes and "switch.model" in axes:
            raise ParameterError("axes", sorted(axes), "either 'connection' or 'switch.model', not both")
        notes: list[str] = []
        if "host.sockets" in axes:
            axes = _fit_sockets(topo, axes, notes)
        if "host.gen" in axes:
            object.__setattr__(self, "_gen_allowed", _fit_gen(topo, axes, notes))
        object.__setattr__(self, "notes", tuple(notes))
        object.__setattr__(self, "axes", axes)
        if HOST in axes:
            object.__setattr__(self, "_host_table", _host_fields(topo, axes[HOST]))
        if self.max_drives is not None and (isinstance(self.max_drives, bool) or not isinstance(
                self.max_drives, (int, np.integer)) or self.max_drives < 1):
            raise ParameterError("max_drives", self.max_drives, "a whole number >= 1 (the drive bays)")

    @property
    def size(self) -> int:
        """Number of configurations (the product of the axis lengths)."""
        return math.prod(len(v) for v in self.axes.values())

    @property
    def categorical_axes(self) -> list[str]:
        return [a for a in self.axes if is_categorical(a)]

    def values_at(self, index: np.ndarray) -> dict[str, np.ndarray]:
        """The axis values (categorical ones as names) of configurations ``index`` (flat indices)."""
        shape = [len(v) for v in self.axes.values()]
        idx = np.unravel_index(index, shape) if shape else ()
        out = {}
        for (name, values), i in zip(self.axes.items(), idx):
            arr = np.asarray(values, dtype=object)
            out[name] = arr[i]
        return out

    def _coded(self) -> dict[str, np.ndarray]:
        """Each axis's choices as the kernel reads them: codes of the parameter table for categorical axes
        (``connection`` as its position in the axis), floats for numeric ones."""
        coded = {}
        for name, values in self.axes.items():
            if name in SPECIAL:
                coded[name] = np.arange(len(values), dtype=float)
            else:
                coded[name] = get(name).check(np.asarray(values, dtype=object if get(name).kind == "categorical"
                                                        else float))
        return coded

    def chunks(self, size: int = 1 << 16) -> Iterator[tuple[np.ndarray, dict[str, np.ndarray]]]:
        """``(flat indices, {axis: codes or values})`` for consecutive blocks of configurations.

        Categorical axes come as codes of the parameter table (``connection`` as its position in the
        axis); numeric axes as floats.
        """
        shape = [len(v) for v in self.axes.values()]
        coded = self._coded()
        total = self.size
        for start in range(0, total, size):
            index = np.arange(start, min(start + size, total))
            idx = np.unravel_index(index, shape) if shape else ()
            yield index, {name: coded[name][i] for name, i in zip(self.axes, idx)}

    def blocks(self, size: int = 1 << 16) -> Iterator[tuple[np.ndarray, tuple[int, ...], dict[str, np.ndarray]]]:
        """``(flat indices, shape, {axis: codes or values})``: the space as consecutive sub-grids of at most
        ``size`` configurations (at least one configuration each), never materialized.

        The trailing axes whose product fits in ``size`` form the inner grid; a block is a run of
        combinations of the leading axes (its first dimension) × that grid. Each axis comes as an array
        *broadcastable* to ``shape`` — a leading axis of shape ``(B, 1, …)``, an inner one ``(1, …, len, …)``
        — so that a quantity depending on a few axes is computed once per combination of those axes, and
        ``np.broadcast_to(x, shape).ravel()`` lists it in the order of ``flat indices``.
        """
        lengths = [len(v) for v in self.axes.values()]
        names = list(self.axes)
        coded = self._coded()
        k, inner = len(lengths), 1
        while k > 0 and inner * lengths[k - 1] <= size:
            k -= 1
            inner *= lengths[k]
        outer_shape, n_outer = lengths[:k], math.prod(lengths[:k])
        batch = max(1, size // inner)
        ones = (1,) * (len(lengths) - k)
        for start in range(0, n_outer, batch):
            o = np.arange(start, min(start + batch, n_outer))
            shape = (o.size, *lengths[k:])
            oidx = np.unravel_index(o, outer_shape) if k else ()
            codes = {name: coded[name][i].reshape(o.size, *ones) for name, i in zip(names[:k], oidx)}
            for j, name in enumerate(names[k:]):
                dims = [1] * len(shape)
                dims[1 + j] = lengths[k + j]
                codes[name] = coded[name].reshape(dims)
            index = (o[:, None] * inner + np.arange(inner)).ravel()
            yield index, shape, codes

    def allowed(self, codes: Mapping[str, np.ndarray]) -> np.ndarray | None:
        """Which configurations of a block (``codes`` as :meth:`blocks` gives them) may exist: False where a
        ``host.gen`` choice is above the PCIe generation of the ``host`` choice's CPU (dropped, :attr:`notes`);
        None where every one may."""
        table = getattr(self, "_gen_allowed", None)
        if table is None:
            return None
        gens = np.asarray(self.axes["host.gen"], dtype=float)
        g = np.searchsorted(np.sort(gens), codes["host.gen"])
        return table[codes[HOST].astype(int), np.argsort(gens)[g]]

    def host_parts(self, codes: np.ndarray) -> dict[str, np.ndarray]:
        """For ``host`` codes: the parameters their hosts set (``host.*``, ``tree.*``, ``memory.*``)."""
        c = codes.astype(int)
        return {k: v[c] for k, v in self._host_table.items()}

    def connection_parts(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For ``connection`` codes: (``switch.model`` codes, ``host.port_lanes``; NaN where a switch)."""
        values = self.axes[CONNECTION]
        sw = PARAMETERS["switch.model"]
        model = np.array([sw.code("none") if v in _DIRECT else sw.code(v) for v in values], dtype=float)
        lanes = np.array([_DIRECT.get(v, np.nan) for v in values], dtype=float)
        c = codes.astype(int)
        return model[c], lanes[c]
