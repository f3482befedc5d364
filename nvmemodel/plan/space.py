"""A design space: a base topology and axes of choices, walked in chunks of configurations.

Axes are parameter names from the table (``"drive.model"``, ``"host.gen"``, ``"host.sockets"``,
``"workload.io_stack"``, ``"fabric.transport"`` …; categorical ones by name) plus one convenience axis,
``"connection"``: ``"direct-x4"``, ``"direct-x2"``, ``"direct-x8"``, ``"direct-x16"`` (a root port of that
width per drive) or a switch catalog key (drives behind ``switch.count`` such adapters); and ``"host"``:
host-catalog CPUs (``"amd-epyc-7742"``, or ``"amd-epyc-7742:1"`` for one socket; ``nvmemodel hosts``), each
replacing the base's host as :func:`nvmemodel.with_host` does (cores, clock, sockets, lanes, generation and the
platform's root-complex and memory limits; an explicit axis such as ``host.sockets`` wins over it). The space is the
Cartesian product of the axes; it is never materialized: :meth:`DesignSpace.chunks` yields the value
arrays of consecutive configurations, so memory stays flat whatever the size.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Mapping, Sequence

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


def _host_fields(base: Topology, values) -> dict[str, np.ndarray]:
    """Per ``host`` axis choice, the encoded parameters its host sets that differ from the base's, as arrays
    indexed by the choice's position (the base's root-port width, CPU share and cycles override are kept)."""
    from ..parameters import encode
    from ..topology.host import host_from_text, with_host
    from ..topology.workload import Workload

    wl = Workload()
    before = encode(base.parameters(wl))
    rows = [encode(with_host(base, host_from_text(v)).parameters(wl)) for v in values]
    skip = ("host.cycles_per_io",)
    fields = [k for k in before if k.split(".", 1)[0] in ("host", "tree", "memory") and k not in skip
              and any(not np.array_equal(r[k], before[k], equal_nan=True) for r in rows)]
    return {k: np.array([float(r[k]) for r in rows]) for k in fields}


def _connection_choices() -> tuple[str, ...]:
    from ..topology.switch import switch_catalog

    return (*_DIRECT, *switch_catalog())


@dataclasses.dataclass(frozen=True)
class DesignSpace:
    """The configurations a planner may choose from.

    Parameters
    ----------
    base : Topology or str
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

    base: Topology | str = "dell-r7525"
    axes: Mapping[str, Sequence] = dataclasses.field(default_factory=dict)
    max_drives: int | None = None

    def __post_init__(self) -> None:
        topo = preset(self.base) if isinstance(self.base, str) else self.base
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
