"""Result types: one component's :class:`Ceiling` (a :class:`GroupCeiling` where it limits some groups only), a
:class:`ScalingCurve` (a :class:`MixedCurve` for several groups under one host), a :class:`SweepResult`."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..parameters import PARAMETERS, decode
from ..units import format_iops
from .components import COMPONENT_LABELS
from .groups import GroupAnswers
from .lazy import Lazy, _Worked  # noqa: F401 (Lazy: the type a curve's parts may be given as)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Ceiling", "GroupCeiling", "MixedCurve", "ScalingCurve", "SweepResult"]


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


def _protocol_default(name: str, p) -> tuple[float, object]:
    """A ``share.cycles_per_*`` left to its protocol (NaN): the protocol's default at the workload's read fraction,
    with the protocol's source (``ceiling.sharing.PROTOCOLS``)."""
    from ..parameters import Source
    from .sharing import PROTOCOLS, protocol_defaults

    protocol = str(p["share.protocol"])
    cycles, per_byte, _, _ = protocol_defaults(PARAMETERS["share.protocol"].code(protocol),
                                               float(p.get("workload.read_fraction", 1.0)))
    value = float(cycles if name == "share.cycles_per_io" else per_byte)
    return value, Source.parse(PROTOCOLS[protocol][4], "estimate")


def _fabric_cpu_default(name: str, p) -> tuple[float, object] | None:
    """``target.cycles_per_io`` / ``initiator.iops_per_core`` left NaN: the stack's published figure for the fabric's
    transport with its source (``ceiling.target.TARGET_CYCLES``, ``ceiling.initiator``), or None where none is known."""
    from ..parameters import Source

    transport = str(p.get("fabric.transport", "none"))
    if name in ("target.cycles_per_io", "target.iops_per_core"):
        from .target import served_transport

        transport = served_transport(p)  # share.protocol = nvme_tcp serves over tcp
    if name == "target.cycles_per_io":
        from .target import TARGET_CYCLES

        row = TARGET_CYCLES.get((str(p.get("target.stack", "none")), transport))
    elif name == "target.iops_per_core":
        from .target import TARGET_CYCLES, TARGET_IOPS_PER_CORE

        key = (str(p.get("target.stack", "none")), transport)
        cycles = TARGET_CYCLES.get(key, (np.nan,))[0]
        if not np.isnan(cycles) or not np.isnan(float(p.get("target.cycles_per_io", np.nan))):
            return None  # a cycles figure applies: the rate is not used
        rates = TARGET_IOPS_PER_CORE.get(key)
        if rates is None:
            return None
        f = float(p.get("workload.read_fraction", 1.0))
        row = (1.0 / (f / rates[0] + (1.0 - f) / rates[1]), 0.0, 0.0, rates[4])
    elif name == "initiator.iops_per_core":
        from .initiator import INITIATOR_IOPS_PER_CORE, SPDK_INITIATOR_IOPS_PER_CORE

        table = SPDK_INITIATOR_IOPS_PER_CORE if str(p.get("initiator.stack", "kernel")) == "spdk" \
            else INITIATOR_IOPS_PER_CORE
        row = table.get(transport) if float(p.get("initiator.cores", 0.0)) > 0 else None
    else:
        return None
    if row is None or np.isnan(row[0]):
        return None
    return float(row[0]), Source.parse(row[3], "measured")


@dataclasses.dataclass(frozen=True, repr=False)
class ScalingCurve(GroupAnswers):
    """System ceiling versus drive count for one topology and workload.

    A topology of one drive model is one group: :class:`~nvmemodel.ceiling.groups.GroupAnswers` says what holds it
    (``held_by_at``, ``describe_binding_at``, ``binding_group_at``, ``group_iops_at``, ``placed_at``) as for the
    groups of a :class:`MixedCurve` (a curve that carries its groups: one class of answers for both).

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

    topology: Any  # a Topology (a MixedTopology for a MixedCurve)
    workload: Any  # a Workload
    drives: np.ndarray
    iops: np.ndarray
    bytes_per_s: np.ndarray
    binding: np.ndarray
    ceilings: Mapping[str, Any]  # given as a Lazy mapping, read as a dict
    per_drive_iops: np.ndarray
    parameters: dict = dataclasses.field(default_factory=dict)
    sources: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    labels: Mapping[str, Any] = dataclasses.field(default_factory=dict)

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
        """Every component alone at one point (the system ceiling with only that component limiting), the binding
        one first, then by headroom (docs/topologies.md, "What binds"; of several groups :meth:`MixedCurve._alone_at`
        says how a component that limits some groups only is taken)."""
        i = self._index(drives)
        binding = str(self.binding[i])
        out = [self._alone_at(name, i) for name in self.ceilings]
        return sorted(out, key=lambda c: (c.component != binding, not c.binding, c.headroom))

    def _alone_at(self, name: str, i: int) -> Ceiling:
        """``name`` alone at point ``i``: the one group holds every drive."""
        x = float(self.ceilings[name][i])
        return Ceiling(name, x, x * self.block_size, x / self.iops[i] - 1 if np.isfinite(x) else np.inf,
                       name == self.binding[i], self.labels.get(name) or COMPONENT_LABELS[name], self._cited(name))

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
            source = sources.get(name, "")
            if isinstance(value, float) and np.isnan(value):
                if name.startswith("share.cycles_per") and p.get("share.protocol", "none") != "none":
                    value, source = _protocol_default(name, p)  # the protocol's own cost, cited with its source
                elif (published := _fabric_cpu_default(name, p)) is not None:
                    value, source = published  # the NVMe-oF target's or initiators' published figure
                else:
                    continue
            out.append((name, PARAMETERS[name].format(decode(name, value)), source))
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
        """The sentence saying the curve is an upper bound, else None: the host layers whose limit is unknown, a drive
        rating the workload needs but the drive's catalog entry lacks, a software RAID cost not charged
        (:func:`~nvmemodel.ceiling.tree.upper_bound_text`); of several groups, group by group (QA round 5, G7)."""
        return self._upper_bound(None)

    def _upper_bound(self, i: int | None) -> str | None:
        """:attr:`upper_bound_note` over the groups holding drives at point ``i`` (None: anywhere on the curve)."""
        from .tree import upper_bound_text

        host = upper_bound_text(self.parameters)  # of one drive model with its drive; of groups the shared parameters
        if "drive.model" in self.parameters:
            return host
        one = len(self.groups) == 1
        drives = [("the drive's" if one else f"the {self.groups[j]} drives'")  # each group's drive, its own workload
                  + f" {' and '.join(f)} {'is' if len(f) == 1 else 'are'} not known (not applied)"
                  for j, f in self._unknown_drives(i)]
        if not drives:
            return host
        return "; ".join([host, *drives]) if host else "upper bound: " + "; ".join(drives)

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: one row per drive count, ceilings in IOPS and bytes/s, binding and headroom; of several groups
        also ``binding_group`` and per group ``<group>_drives``, ``<group>_iops``, ``<group>_binding``.
        ``attrs["note"]`` says where the host's limits are unknown (an upper bound)."""
        import pandas as pd

        df = pd.DataFrame({"drives": self.drives, "iops": self.iops, "bytes_per_s": self.bytes_per_s,
                           "binding": pd.Categorical(self.binding, categories=list(self.ceilings))})
        for name in self.ceilings:
            df[f"{name}_iops"] = self.ceilings[name]
        if hasattr(self.topology, "groups"):
            df["binding_group"] = self.binding_group
            for j, g in enumerate(self.groups):
                df[f"{g}_drives"], df[f"{g}_iops"], df[f"{g}_binding"] = (
                    self.group_drives[j], self.group_iops[j], self.group_binding[j])
        if self.upper_bound_note:
            df.attrs["note"] = self.upper_bound_note
        return df

    def to_dict(self) -> dict:
        """JSON-ready: schema ``nvmemodel.ceilings/1`` (docs/ceilings.md), every text from the vector; of several
        groups ``nvmemodel.mixed/1``, the same with the groups (:func:`~nvmemodel.ceiling.curve_json.curve_dict`)."""
        from .curve_json import curve_dict

        return curve_dict(self)

    def __repr__(self) -> str:
        last = int(self.drives[-1])
        grouped = hasattr(self.topology, "groups")  # several groups: how many, and what binds at the end
        end = (f"{' of mixed sizes' if self._mixed_sizes(len(self.drives) - 1) else ''} at the end "
               f"({self.describe_binding_at(last)})" if grouped else " at the end")
        return (f"<{type(self).__name__} {getattr(self.topology, 'name', '?')} | "
                f"{f'{len(self.groups)} groups | ' if grouped else ''}{self.describe_workload()} | "
                f"drives {self.drives[0]}..{last}: {format_iops(self.iops[-1])}{end}, {self.knee_words()}"
                f"{'; ' + self.upper_bound_note if self.upper_bound_note else ''}>")

    def _repr_html_(self) -> str:
        return f"<p><code>{self!r}</code></p>" + self.to_frame().to_html(index=False, float_format="{:.4g}".format)


for _name in ("ceilings", "sources", "labels"):  # may be given as Lazy: a plain dict once read (_Worked)
    setattr(ScalingCurve, _name, _Worked(_name))


@dataclasses.dataclass(frozen=True, repr=False)
class GroupCeiling(Ceiling):
    """A component alone in a topology of groups: ``scope`` says on which groups' drives when it does not limit every
    group holding drives (``"on gen3 only"``; its headroom is then against what those groups deliver);
    ``binds_in`` names the groups it holds where the groups are held by different components."""

    scope: str = ""
    binds_in: str = ""

    def __repr__(self) -> str:
        if self.binding and self.binds_in and not np.isfinite(self.iops):  # a mirror's side held by it: no array
            return (f"*{self.component:<17} {'-':>14} {'-':>9}       binding in {self.binds_in} (its members; "
                    "alone it puts no ceiling on the array)")
        text = super().__repr__()
        if self.binding and self.binds_in:
            text = text.replace("binding", f"binding in {self.binds_in}" + (
                f" (on every group +{self.headroom:.1%})" if np.isfinite(self.headroom) and self.headroom > 5e-4
                and not self.scope else ""), 1) if "binding" in text[20:] else text
        return f"{text}  ({self.scope})" if self.scope else text


@dataclasses.dataclass(frozen=True, repr=False)
class MixedCurve(ScalingCurve):
    """System ceiling versus total drive count for a :class:`~nvmemodel.topology.mixed.MixedTopology`: a
    :class:`ScalingCurve` that carries its groups' arrays (a curve of one drive model is one group, composed when asked:
    :class:`~nvmemodel.ceiling.groups.GroupAnswers`).

    Everything a :class:`ScalingCurve` holds (``binding`` names the component; ``per_drive_iops`` is the
    average own limit of the drives installed, so that ``knee()`` compares with ``Σ_g k_g d_g``; ``parameters`` the
    shared ones), plus:

    Attributes
    ----------
    groups : tuple of str
        Group names, in the topology's order.
    group_drives : ndarray of int, shape (groups, points)
        Drives of each group at each point.
    group_iops : ndarray, shape (groups, points)
        Each group's share of the system ceiling (shared limits throttle the groups in proportion).
    group_binding : ndarray of str, shape (groups, points)
        Each group's own binding component (its drives' or its switches' limit).
    group_ceilings : tuple of dict
        Per group, each component alone on that group's drives (IOPS; NaN where the group has none yet).
    binding_group : ndarray of str
        The groups (holding drives) held by ``binding`` at each point, joined by ", ", or ``"host"`` where a shared
        limit binds; with a mirror spanning the groups, ``"array"`` where its members bind. Where different
        components hold different groups, ``binding`` is the one holding the largest share and
        :meth:`describe_binding_at` names each (docs/topologies.md, "What binds").
    group_parameters, group_sources : tuple of dict
        Each group's evaluated parameter vector and sources.
    group_workloads : tuple of Workload
        Each group's evaluated workload (its own where its DriveGroup carries one, else ``workload``).
    """

    groups: tuple = ()
    group_drives: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 0), dtype=int))
    group_iops: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 0)))
    group_binding: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 0), dtype=str))
    group_ceilings: tuple = ()
    binding_group: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, dtype=str))
    group_parameters: tuple = ()
    group_sources: tuple = ()
    group_workloads: tuple = ()

    def _alone_at(self, name: str, i: int) -> GroupCeiling:
        """``name`` alone at point ``i``. A component that does not limit every group holding drives would leave the
        others unlimited (no system ceiling alone): it is taken alone on the groups it limits (``scope``), its
        headroom against what those groups deliver. Where the groups are held by different components each is
        marked binding, with the groups it holds (``binds_in``). Groups of different I/O sizes: headroom in bytes."""
        group, binding = str(self.binding_group[i]), str(self.binding[i])
        per_group = group not in ("host", "array") or (group == "array" and self._sides_differ(i))
        holding = [j for j in range(len(self.groups)) if self.group_drives[j, i] > 0]
        sizes = self._sizes()
        x = float(self.ceilings[name][i])
        reach = [j for j in holding if j < len(self.group_ceilings) and name in self.group_ceilings[j]
                 and np.isfinite(self.group_ceilings[j][name][i])]
        holds = [j for j in holding if per_group and str(self.group_binding[j, i]) == name]
        scope, headroom, nbytes = "", np.inf, x * self.block_size
        if np.isfinite(x):
            headroom = x / float(self.iops[i]) - 1
            if self._mixed_sizes(i):  # each group's I/Os at its own size; the headroom of the bytes (QA round 4, F16)
                nbytes = self._bytes_alone(name, x, i, holding, sizes)
                headroom = nbytes / float(self.bytes_per_s[i]) - 1
        elif reach and len(holding) > 1:  # a limit of some groups only: alone on those
            x = float(sum(self.group_ceilings[j][name][i] for j in reach))
            share = float(sum(self.group_iops[j, i] for j in reach))
            headroom = x / share - 1 if share > 0 else np.inf
            nbytes = float(sum(self.group_ceilings[j][name][i] * sizes[j] for j in reach))
            if self._mixed_sizes(i) and share > 0:
                headroom = nbytes / float(sum(self.group_iops[j, i] * sizes[j] for j in reach)) - 1
            scope = ("alone on the groups it holds" if reach == holds else
                     "on " + ", ".join(self.groups[j] for j in reach) + " only")
        where = ", ".join(self.groups[j] for j in holds) if per_group and len(holding) > 1 else ""
        # cited on a group's own parameters (drive, switch, lanes) where it holds groups or limits one group only
        own = holds[0] if holds else reach[0] if len(reach) == 1 else None
        sources = (self._cited(name) if own is None else
                   self._cited(name, self.group_parameters[own], self.group_sources[own]))
        return GroupCeiling(name, x, nbytes, headroom, bool(holds) if per_group else name == binding,
                            self.labels.get(name) or name, sources, scope=scope, binds_in=where)

    def _bytes_alone(self, name: str, x: float, i: int, holding: list, sizes: list) -> float:
        """A component alone (``x`` IOPS of mixed sizes) in bytes/s: where its limits on the groups' drives and
        switches set it, each group's part at its own size; else (a root complex, socket or shared system limit,
        taken at the groups' delivered mix) ``x`` times the bytes per I/O delivered."""
        parts = [float(self.group_ceilings[j][name][i]) for j in holding]
        if all(np.isfinite(v) for v in parts) and np.isclose(sum(parts), x, rtol=1e-12, atol=0.0):
            return float(sum(v * sizes[j] for v, j in zip(parts, holding, strict=True)))
        return x * float(self.bytes_per_s[i]) / float(self.iops[i])


# pickles made before MixedCurve and GroupCeiling moved here (s27) name the module they lived in
sys.modules.setdefault(__name__.rpartition(".")[0] + ".mixed_result", sys.modules[__name__])


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

    def to_frame(self) -> pd.DataFrame:
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

