"""Result types: one component's :class:`Ceiling`, a :class:`ScalingCurve`, a :class:`SweepResult`."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from ..parameters import PARAMETERS, decode
from ..units import format_iops
from .components import COMPONENT_LABELS
from .groups import GroupAnswers

__all__ = ["Ceiling", "ScalingCurve", "SweepResult"]


class Lazy(Mapping):
    """A read-only mapping worked out on first use, ``compute(*args)``: a curve carries where every parameter comes
    from (``topology.sources(workload)``), each component's ceiling alone and the components' labels, but most
    callers (fits evaluating thousands of curves, a plot or a table of the system ceiling) never read them, and each
    costs about as much as the curve itself. A curve never hands it out: its field gives a plain ``dict`` on first
    read (:class:`_Worked`), so ``pd.DataFrame(curve.ceilings)``, ``json.dumps``, ``dataclasses.asdict`` and
    assignment behave as they do for a dict (DIFFQA D1, D2). Pickled as a dict."""

    __slots__ = ("_args", "_data")

    def __init__(self, compute, *args) -> None:
        self._args, self._data = (compute, *args), None

    def _get(self) -> dict:
        if self._data is None:
            compute, *args = self._args
            self._data, self._args = compute(*args), None
        return self._data

    def __getitem__(self, name):
        return self._get()[name]

    def __iter__(self):
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __reduce__(self):
        return dict, (self._get(),)


class _Worked:
    """A curve's field that may hold a :class:`Lazy`: stored as given, handed out as a plain ``dict`` worked out on
    first read (then kept). A data descriptor, so a frozen dataclass's ``__init__`` stores through it."""

    def __init__(self, name: str) -> None:
        self.name, self.slot = name, "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.__dict__[self.slot]
        if type(value) is Lazy:
            value = obj.__dict__[self.slot] = dict(value._get())
        return value

    def __set__(self, obj, value) -> None:
        obj.__dict__[self.slot] = value


@dataclasses.dataclass(frozen=True)
class Ceiling:
    """One component's ceiling for the whole system at one point.

    ``iops`` and ``bytes_per_s`` are what the system could reach if only this
    component limited it; ``headroom`` is how far above the system's ceiling it lies
    (0 for the binding component). ``sources`` quotes the parameters that set this ceiling:
    ``(name, value with unit, Source)`` triples.
    """

    component: str
    iops: float
    bytes_per_s: float
    headroom: float
    binding: bool
    label: str
    sources: tuple = ()

    def cite(self) -> str:
        """The parameters behind this ceiling, e.g. ``"host.cycles_per_io = 10,000 cycles (estimate: …)"``."""
        return "; ".join(f"{name} = {value} ({source})" for name, value, source in self.sources)

    def __repr__(self) -> str:
        mark = "*" if self.binding else " "
        if not np.isfinite(self.iops):
            return f"{mark}{self.component:<17} {'-':>14} {'-':>9}       not limiting / not known"
        head = "binding" if self.binding else f"+{self.headroom:.1%}"
        return f"{mark}{self.component:<17} {format_iops(self.iops):>14} {self.bytes_per_s / 1e9:9.3f} GB/s  {head}"


@dataclasses.dataclass(frozen=True, repr=False)
class ScalingCurve(GroupAnswers):
    """System ceiling versus drive count for one topology and workload.

    A topology of one drive model is one group: :class:`~nvmemodel.ceiling.groups.GroupAnswers` says what holds it
    (``held_by_at``, ``describe_binding_at``, ``binding_group_at``, ``group_iops_at``, ``placed_at``) as for the
    groups of a :class:`~nvmemodel.ceiling.mixed_result.MixedCurve`.

    Attributes
    ----------
    drives : ndarray of int
    iops, bytes_per_s : ndarray
        The system ceiling (I/O per second, bytes per second).
    binding : ndarray of str
        The binding component at each point (a name from :data:`COMPONENTS`).
    ceilings : dict[str, ndarray]
        Each component alone, IOPS (keys in tie-break order).
    parameters : dict
        The parameter vector evaluated (SI; categorical by name) — every text is derived from it.
    sources : dict[str, Source]
        Where each parameter's value comes from.
    labels : dict[str, str]
        Plain-language names of the components evaluated.
    """

    topology: object
    workload: object
    drives: np.ndarray
    iops: np.ndarray
    bytes_per_s: np.ndarray
    binding: np.ndarray
    ceilings: dict
    per_drive_iops: np.ndarray
    parameters: dict = dataclasses.field(default_factory=dict)
    sources: dict = dataclasses.field(default_factory=dict)
    labels: dict = dataclasses.field(default_factory=dict)

    @property
    def block_size(self) -> float:
        """Bytes per I/O of the evaluated vector."""
        return float(self.parameters["workload.block_size"])

    def _index(self, drives: int) -> int:
        hits = np.flatnonzero(self.drives == drives)
        if hits.size == 0:
            from ..errors import ParameterError
            raise ParameterError("drives", drives, f"one of the evaluated counts {self.drives.tolist()}")
        return int(hits[0])

    def iops_at(self, drives: int) -> float:
        """System IOPS ceiling with ``drives`` drives."""
        return float(self.iops[self._index(drives)])

    def bandwidth_at(self, drives: int) -> float:
        """System bandwidth ceiling with ``drives`` drives, bytes/s."""
        return float(self.bytes_per_s[self._index(drives)])

    def binding_at(self, drives: int) -> str:
        """Name of the binding component with ``drives`` drives."""
        return str(self.binding[self._index(drives)])

    def ceilings_at(self, drives: int) -> list[Ceiling]:
        """Every component's ceiling at one point, binding one first, then by headroom."""
        i = self._index(drives)
        total = self.iops[i]
        out = []
        for name in self.ceilings:
            x = float(self.ceilings[name][i])
            out.append(Ceiling(name, x, x * self.block_size, x / total - 1 if np.isfinite(x) else np.inf,
                               name == self.binding[i], self.labels.get(name) or COMPONENT_LABELS[name],
                               self._cited(name)))
        return sorted(out, key=lambda c: (not c.binding, c.headroom))

    def _cited(self, component: str, parameters: dict | None = None, sources=None) -> tuple:
        """The parameters that set ``component``'s ceiling, with their values and sources (a group's own
        ``parameters`` and ``sources`` where given: a MixedCurve's component held by some groups)."""
        from .components import _REGISTRY

        comp = _REGISTRY.get(component)
        names = comp.parameters if comp is not None else ()
        p = self.parameters if parameters is None else parameters
        sources = self.sources if sources is None else sources
        out = []
        for name in names:
            if name not in p or name not in PARAMETERS:
                continue
            if name.startswith("switch.") and p.get("switch.model") == "none":
                continue
            if name.startswith("fabric.") and p.get("fabric.transport") == "none":
                continue
            value = p[name]
            if isinstance(value, float) and np.isnan(value):
                continue
            out.append((name, PARAMETERS[name].format(decode(name, value)), sources.get(name, "")))
        return tuple(out)

    def cpu_utilization_at(self, drives: int) -> float:
        """Predicted fraction of all host cores busy at the ceiling with ``drives`` drives."""
        i = self._index(drives)
        cpu_alone = self.ceilings["host_cpu"][i]
        umax = float(self.parameters["host.cpu_utilization_max"])
        return float(self.iops[i] / cpu_alone * umax) if np.isfinite(cpu_alone) else 0.0

    def knee(self) -> int | None:
        """First drive count at which the curve stops scaling linearly (< 99.9 % of n × per-drive), or None."""
        linear = self.drives * self.per_drive_iops
        below = np.flatnonzero(self.iops < 0.999 * linear)
        return int(self.drives[below[0]]) if below.size else None

    def knee_words(self) -> str:
        """Where the curve stops scaling linearly, in words true of the evaluated counts only: "at 13 drives"
        when 12 was evaluated too, "between 12 and 24 drives" when nothing in between was, "linear throughout"."""
        knee = self.knee()
        if knee is None:
            return "linear throughout"
        before = self.drives[self.drives < knee]
        if before.size and int(before[-1]) < knee - 1:
            return f"bends between {int(before[-1])} and {knee} drives"
        return f"bends at {knee} drives"

    def explain(self, drives: int | None = None) -> str:
        """A plain-language account of what limits the system (at one point, or along the curve)."""
        from .explain import explain_curve, explain_point
        return explain_point(self, drives) if drives is not None else explain_curve(self)

    @property
    def upper_bound_note(self) -> str | None:
        """Which host layers have no known limit for this host (the curve is an upper bound there), else None
        (:func:`~nvmemodel.ceiling.tree.upper_bound_note`)."""
        from .tree import upper_bound_text

        return upper_bound_text(self.parameters)

    def to_frame(self):
        """Tidy table: one row per drive count, ceilings in IOPS and bytes/s, binding and headroom.
        ``attrs["note"]`` says where the host's limits are unknown (an upper bound)."""
        import pandas as pd

        df = pd.DataFrame({"drives": self.drives, "iops": self.iops, "bytes_per_s": self.bytes_per_s,
                           "binding": pd.Categorical(self.binding, categories=list(self.ceilings))})
        for name in self.ceilings:
            df[f"{name}_iops"] = self.ceilings[name]
        if self.upper_bound_note:
            df.attrs["note"] = self.upper_bound_note
        return df

    def to_dict(self) -> dict:
        """JSON-ready: schema ``nvmemodel.ceilings/1`` (see the README), every text from the vector."""
        from ..cli._common import json_number
        from .drive import unknown_drive_fields
        from .tree import unknown_host_layers

        points = []
        for n in self.drives:
            cs = self.ceilings_at(int(n))
            points.append({
                "drives": int(n), "iops": float(self.iops_at(int(n))), "bytes_per_s": float(self.bandwidth_at(int(n))),
                "binding": self.binding_at(int(n)),
                "ceilings": {c.component: {"iops": json_number(c.iops), "bytes_per_s": json_number(c.bytes_per_s),
                                           "headroom": json_number(c.headroom)} for c in cs},
            })
        wl = self.workload
        return {"schema": "nvmemodel.ceilings/1", "topology": self.topology.name,
                "description": self.topology.describe(),
                "workload": {"pattern": wl.pattern, "block_size_bytes": wl.block_size, "read_fraction": wl.read_fraction,
                             "iodepth": wl.iodepth, "numjobs": wl.numjobs, "io_stack": wl.io_stack.value},
                "components": list(self.ceilings),
                # null when every host layer's limit is known; else which are not (and so not applied): a program
                # must be able to tell "no such component" (a switch that is absent) from "not known"
                "upper_bound": ({"note": self.upper_bound_note, "unknown_layers": list(unknown_host_layers(self.parameters))
                                 + (["drive"] if unknown_drive_fields(self.parameters) else [])}
                                if self.upper_bound_note else None),
                "parameters": {k: (v if isinstance(v, str) else json_number(float(v)))
                               for k, v in self.parameters.items()},
                "points": points}

    def __repr__(self) -> str:
        return (f"<ScalingCurve {getattr(self.topology, 'name', '?')} | {self.workload.describe()} | "
                f"drives {self.drives[0]}..{self.drives[-1]}: {format_iops(self.iops[-1])} at the end, "
                f"{self.knee_words()}"
                f"{'; ' + self.upper_bound_note if self.upper_bound_note else ''}>")

    def _repr_html_(self) -> str:
        return f"<p><code>{self!r}</code></p>" + self.to_frame().to_html(index=False, float_format="{:.4g}".format)


for _name in ("ceilings", "sources", "labels"):  # may be given as Lazy: a plain dict once read (_Worked)
    setattr(ScalingCurve, _name, _Worked(_name))


@dataclasses.dataclass(frozen=True, repr=False)
class SweepResult:
    """A grid of configurations × drive counts, as arrays of shape ``(configs, drives)``."""

    grid: dict
    drives: np.ndarray
    iops: np.ndarray
    binding_index: np.ndarray
    components: tuple = ()
    block_size: object = 4096.0  # bytes per I/O: a scalar, or one value per configuration

    @property
    def bytes_per_s(self) -> np.ndarray:
        """System bandwidth ceiling, bytes/s (computed on demand: IOPS × each configuration's block size)."""
        bs = np.asarray(self.block_size, dtype=float)
        return self.iops * (bs[:, None] if bs.ndim == 1 else bs)

    @property
    def binding(self) -> np.ndarray:
        """Binding component names, same shape as :attr:`iops` (prefer :attr:`binding_index` for big sweeps)."""
        return np.asarray(self.components)[self.binding_index]

    @property
    def size(self) -> int:
        return int(self.iops.size)

    def first_binding(self, component: str) -> np.ndarray:
        """Per configuration, the smallest drive count at which ``component`` binds (NaN: never in range).

        >>> import nvmemodel as nm
        >>> res = nm.sweep(nm.preset("dell-r7525"), nm.Workload(), drives=range(1, 25),
        ...                grid={"workload.io_stack": ["libaio", "spdk"]})
        >>> res.first_binding("host_cpu").tolist()
        [20.0, nan]
        """
        if component not in self.components:
            from ..errors import UnknownNameError

            raise UnknownNameError("component", component, list(self.components))
        hit = np.asarray(self.binding_index) == self.components.index(component)
        first = np.argmax(hit, axis=1)
        return np.where(hit.any(axis=1), self.drives[first].astype(float), np.nan)

    def to_frame(self):
        """Long table: one row per (configuration, drive count)."""
        import pandas as pd

        c, n = self.iops.shape
        cols = {}
        for k, v in self.grid.items():
            v = np.repeat(np.broadcast_to(v, (c,)), n)
            param = PARAMETERS.get(k)
            if param is not None and param.kind == "categorical":
                v = pd.Categorical.from_codes(v.astype(int), categories=list(param.allowed_choices()))
            cols[k] = v
        df = pd.DataFrame(cols)
        df["drives"] = np.tile(self.drives, c)
        df["iops"] = self.iops.ravel()
        df["bytes_per_s"] = self.bytes_per_s.ravel()
        df["binding"] = pd.Categorical.from_codes(np.asarray(self.binding_index).ravel().astype(int),
                                                  categories=list(self.components))
        return df

    def __repr__(self) -> str:
        return f"<SweepResult {self.iops.shape[0]} configurations x {self.iops.shape[1]} drive counts>"

