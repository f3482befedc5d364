"""Ranges, not points, where a software cost is uncertain (docs/physics.md §4.1, §6).

The CPU ceilings are worked out at one cost per I/O — the I/O stack's default (``topology.host.STACK_CYCLES``).
Its published per-core points spread over platforms by tens of percent (``STACK_CYCLES_RANGE``), so a curve whose
CPU could bind is evaluated again at both ends of its stack's range: :func:`cost_ranges` says which costs are
ranged and from what, :func:`curve_range` gives the system ceiling at every drive count over the range and where the
CPU binds at each end, and :func:`littles_law_need` the mean latency per I/O a ceiling needs at the queue depth asked
(Little's law, ``N / X``) beside the drive's own QD1 latency.

A cost the user set (``--set host.cycles_per_io``), calibrated on a preset's paper or fitted is the user's own and
gets no published range; a host calibrated on one stack and run on another scales the stack's range by the same
ratio as its point. A topology of several drive groups is composed again as
:func:`~nvmemodel.ceiling.evaluate.evaluate` composes it; a mirror spanning two groups is not ranged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from ..parameters import PARAMETERS
from ..units import format_iops
from .compose import compose
from .system import levels_of

_NO_FABRIC = float(PARAMETERS["fabric.transport"].choices.index("none"))  # the code of "none", if given as a code

__all__ = ["CostRange", "CurveRange", "cost_ranges", "curve_range", "iops_span", "littles_law_need", "range_lines"]


@dataclasses.dataclass(frozen=True)
class CostRange:
    """One ranged cost: the parameter, the value charged, the low and high ends and where they come from."""

    parameter: str
    what: str
    point: float
    low: float
    high: float
    source: str
    unit: str = "cycles per I/O"
    #: True where the high value is the dearest (a cost); False for a rate (I/Os per core: the low one is)
    dear_is_high: bool = True

    def words(self) -> str:
        """``"io_uring 5.3–9.3 K cycles per I/O, 7,550 charged"``."""
        return f"{self.what} {_k(self.low)}–{_k(self.high)} K {self.unit}, {self.point:,.0f} charged"

    def dearest(self) -> float:
        return self.high if self.dear_is_high else self.low

    def cheapest(self) -> float:
        return self.low if self.dear_is_high else self.high

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def _k(x: float) -> str:
    return f"{x / 1e3:.2g}" if x < 1e3 else f"{x / 1e3:.1f}".rstrip("0").rstrip(".")


def cost_ranges(parameters, sources) -> list[CostRange]:
    """The ranged costs of one parameter vector (a curve's; of groups, the shared one): ``host.cycles_per_io`` where it is its
    stack's default (or a catalog host's calibration scaled to another stack), and ``share.cycles_per_io`` where it
    is its protocol's default and the protocol's source leaves a range (``sharing.PROTOCOL_RANGES``: a Ceph OSD's), the
    NVMe-oF initiators' and target's published per-core figures where they leave one; none where the value is the
    user's, calibrated or fitted (a point of one's own has no published range)."""
    return (_stack_range(parameters, sources) + _share_range(parameters) + _initiator_range(parameters)
            + _target_range(parameters))


def _target_range(parameters) -> list[CostRange]:
    """The NVMe-oF target's cycles per I/O, where it is modelled (``target.stack`` set, a fabric) at its stack's
    published figure for the transport and that figure has a range (``target.TARGET_CYCLES``: the clock that ran)."""
    from .target import TARGET_CYCLES, TARGET_IOPS_PER_CORE, served_transport

    stack = parameters.get("target.stack", "none")
    transport = served_transport(parameters)  # share.protocol = nvme_tcp: an NVMe/TCP target
    cycles = float(parameters.get("target.cycles_per_io", np.nan))
    rate = float(parameters.get("target.iops_per_core", np.nan))
    if (stack, transport) not in TARGET_CYCLES or not np.isnan(cycles) or not np.isnan(rate):
        return []  # not modelled, no fabric, or the user's own figure
    point, low, high, why = TARGET_CYCLES[(stack, transport)]
    if not np.isnan(point):
        return [] if low == high else [CostRange("target.cycles_per_io", f"{stack} {transport} target", point, low,
                                                 high, why)]
    if (stack, transport) not in TARGET_IOPS_PER_CORE:
        return []
    read, write, r_low, r_high, why = TARGET_IOPS_PER_CORE[(stack, transport)]
    if r_low == r_high:
        return []
    f = float(parameters.get("workload.read_fraction", 1.0))
    mix = 1.0 / (f / read + (1.0 - f) / write)  # the charged rate; the reads' spread scales it
    return [CostRange("target.iops_per_core", f"{stack} {transport} target", mix, mix * r_low / read,
                      mix * r_high / read, why, unit="I/Os per core", dear_is_high=False)]


def _initiator_range(parameters) -> list[CostRange]:
    """The NVMe-oF initiators' I/Os per core, where they are modelled (``initiator.cores`` > 0) at their transport's
    published figure and that figure has a range (``initiator.INITIATOR_IOPS_PER_CORE``)."""
    from .initiator import INITIATOR_IOPS_PER_CORE, SPDK_INITIATOR_IOPS_PER_CORE

    cores = float(parameters.get("initiator.cores", 0.0))
    transport = parameters.get("fabric.transport", "none")
    value = float(parameters.get("initiator.iops_per_core", np.nan))
    stack = parameters.get("initiator.stack", "kernel")
    table = SPDK_INITIATOR_IOPS_PER_CORE if stack in ("spdk", 1, 1.0) else INITIATOR_IOPS_PER_CORE
    if cores <= 0 or not isinstance(transport, str) or transport not in table or not np.isnan(value):
        return []
    point, low, high, why = table[transport]
    if np.isnan(point) or low == high:
        return []
    who = "SPDK " if table is SPDK_INITIATOR_IOPS_PER_CORE else ""
    return [CostRange("initiator.iops_per_core", f"{who}{transport} initiator", point, low, high, why,
                      unit="I/Os per core", dear_is_high=False)]


def _share_range(parameters) -> list[CostRange]:
    from .sharing import PROTOCOL_RANGES, protocol_defaults

    name = parameters.get("share.protocol", "none")
    value = parameters.get("share.cycles_per_io", np.nan)
    if not isinstance(name, str) or name not in PROTOCOL_RANGES or not np.isnan(float(value)):
        return []  # no protocol, one without a sourced range, or a cost set by the user
    (r_lo, r_hi), (w_lo, w_hi), why = PROTOCOL_RANGES[name]
    f = float(parameters.get("workload.read_fraction", 1.0))
    point = float(protocol_defaults(PARAMETERS["share.protocol"].code(name), f)[0])
    return [CostRange("share.cycles_per_io", name, point, f * r_lo + (1 - f) * w_lo, f * r_hi + (1 - f) * w_hi, why)]


def _stack_range(parameters, sources) -> list[CostRange]:
    """``host.cycles_per_io``'s range, where it is its stack's default (or scaled from a calibration on another)."""
    from ..topology.host import STACK_CYCLES, STACK_CYCLES_RANGE, IoStack

    if "host.cycles_per_io" not in parameters or "workload.io_stack" not in parameters:
        return []
    stack = parameters["workload.io_stack"]
    if not isinstance(stack, str):
        return []
    stack = IoStack.parse(stack)
    point, text = STACK_CYCLES[stack]
    value = float(parameters["host.cycles_per_io"])
    source = sources.get("host.cycles_per_io") if sources is not None else None
    if source is not None and getattr(source, "status", "") == "estimate" \
            and source.text.startswith(f"{stack.value}'s default"):
        ratio = value / point  # a host calibrated on another stack: its ratio to that stack's default travels
    elif source is None or text in str(source):  # the stack's default (a preset may say whose default it keeps)
        ratio = 1.0
    else:
        return []
    if value != point * ratio or _calibrated_total(parameters, sources):
        return []
    low, high, why = STACK_CYCLES_RANGE[stack]
    scaled = "" if ratio == 1.0 else f" (x {ratio:.3g}: this host's calibration on another stack)"
    return [CostRange("host.cycles_per_io", stack.value, value, low * ratio, high * ratio, why + scaled)]


def _calibrated_total(parameters, sources) -> bool:
    """True where a RAID layer's cost was calibrated as the rest of a measured total (the ION presets: the stack's
    default + a calibrated remainder = what the paper measured): ranging the stack's part would unsettle a total
    that was measured."""
    level = parameters.get("raid.level", "none")
    source = sources.get("raid.cycles_per_io") if sources is not None else None
    return level not in ("none", 0, 0.0) and getattr(source, "status", "") == "calibrated"


@dataclasses.dataclass(frozen=True)
class CurveRange:
    """A curve's ceiling over its ranged costs: ``iops_low`` with every ranged cost at its high end (dearest),
    ``iops_high`` at its low end (cheapest); ``binding_low`` / ``binding_high`` what binds there;
    ``cpu_alone_low`` / ``cpu_alone_high`` each component charged these costs alone (IOPS per drive count)."""

    costs: tuple
    drives: np.ndarray
    iops_low: np.ndarray
    iops_high: np.ndarray
    binding_low: np.ndarray
    binding_high: np.ndarray
    cpu_components: tuple
    cpu_alone_low: dict = dataclasses.field(default_factory=dict)
    cpu_alone_high: dict = dataclasses.field(default_factory=dict)

    def cpu_alone_at(self, drives: int) -> dict[str, tuple[float, float]]:
        """Each CPU-charged component alone at ``drives``: (at the dearest cost, at the cheapest)."""
        i = int(np.flatnonzero(self.drives == drives)[0])
        return {k: (float(self.cpu_alone_low[k][i]), float(self.cpu_alone_high[k][i])) for k in self.cpu_alone_low}

    def cpu_binds_from(self, binding) -> int | None:
        """First drive count at which a component charged these costs binds, or None."""
        hits = np.flatnonzero(np.isin(np.asarray(binding).astype(str), self.cpu_components))
        return int(self.drives[hits[0]]) if hits.size else None

    def at(self, drives: int) -> tuple[float, float]:
        i = int(np.flatnonzero(self.drives == drives)[0])
        return float(self.iops_low[i]), float(self.iops_high[i])

    def to_dict(self) -> dict:
        return {"costs": [c.to_dict() for c in self.costs], "cpu_components": list(self.cpu_components),
                "dearest": {"iops": self.iops_low.tolist(), "binding": self.binding_low.astype(str).tolist(),
                            "cpu_binds_from": self.cpu_binds_from(self.binding_low)},
                "cheapest": {"iops": self.iops_high.tolist(), "binding": self.binding_high.astype(str).tolist(),
                             "cpu_binds_from": self.cpu_binds_from(self.binding_high)}}


def _cpu_components(names) -> tuple[str, ...]:
    from .components import get_component

    ranged = {"host.cycles_per_io", "share.cycles_per_io", "initiator.iops_per_core", "target.cycles_per_io",
              "target.iops_per_core"}
    return tuple(n for n in names if ranged & set(get_component(n).parameters))


def curve_range(curve, *, extra: Sequence[CostRange] = ()) -> CurveRange | None:
    """The curve evaluated again at both ends of its ranged costs (:func:`cost_ranges`; the same kernel, ``levels_of``
    + ``compose``, one mechanism); None where none is ranged or the topology is a mirror spanning two groups (md's read
    balancing: :mod:`~nvmemodel.ceiling.mirror`). A topology of groups is composed as
    :func:`~nvmemodel.ceiling.evaluate.evaluate` composes it: each group's levels on its own parameters, placed and
    shared as there. ``extra``: more ranged figures evaluated with the costs, every figure at its dearest end together
    and at its cheapest together — md RAID's published per-array range (:func:`~nvmemodel.ceiling.md.md_cost_range`)
    in the ``--json`` range block; the sentences say md's range on its own
    (:func:`~nvmemodel.ceiling.md.md_range_lines`)."""
    grouped = hasattr(curve.topology, "groups")
    if grouped and getattr(curve.topology, "mirror", False):
        return None
    costs = cost_ranges(curve.parameters, curve.sources) + list(extra)
    if not costs:
        return None
    drives = np.asarray(curve.drives)
    out = []
    for end in ("dearest", "cheapest"):  # the dearest cost gives the lowest ceiling
        values = {c.parameter: float(getattr(c, end)()) for c in costs}
        if grouped:
            out.append(_grouped_at(curve, values, drives))
            continue
        lv = levels_of({**curve.parameters, **values})
        res = compose((lv,), drives.astype(float), groups=False)
        iops = np.broadcast_to(np.asarray(res["iops"], dtype=float), drives.shape).copy()
        binding = np.asarray(lv.components)[np.broadcast_to(res["binding"], drives.shape)]
        cpu = _cpu_components(lv.components)
        alone = dict(zip(lv.components, res["alone"](), strict=True))
        out.append((iops, binding, cpu, {k: np.broadcast_to(np.asarray(alone[k], dtype=float), drives.shape).copy()
                                         for k in cpu}))
    (lo, b_lo, cpu, a_lo), (hi, b_hi, _, a_hi) = out
    return CurveRange(tuple(costs), drives, lo, hi, b_lo, b_hi, cpu, a_lo, a_hi)


def _grouped_at(curve, values: dict, drives: np.ndarray) -> tuple:
    """A topology of groups at the ranged ``values``: ``(iops, binding, cpu components, each alone)``."""
    from .placement import starts, switch_sets

    topology = curve.topology
    levels = [levels_of({**p, **values}) for p in curve.group_parameters]
    k = np.asarray(curve.group_drives, dtype=float)
    res = compose(levels, k, [g.socket for g in topology.groups], starts(topology, levels[0].p), switch_sets(topology))
    names = levels[0].components
    iops = np.broadcast_to(np.asarray(res["iops"], dtype=float), drives.shape).copy()
    binding = np.asarray(names)[np.broadcast_to(res["binding"], drives.shape)]
    cpu = _cpu_components(names)
    alone = dict(zip(names, res["ceilings"], strict=True))
    return iops, binding, cpu, {c: np.broadcast_to(np.asarray(alone[c], dtype=float), drives.shape).copy()
                                for c in cpu}


def range_lines(curve, drives: int | None = None) -> list[str]:
    """The sentences of a curve's ranged costs: along the curve (``drives`` None) where the CPU binds at each end;
    at one drive count the ceiling's range. [] where nothing is ranged or the range changes nothing."""
    r = curve_range(curve)
    if r is None:
        return []
    costs = "; ".join(c.words() for c in r.costs)
    if drives is not None:
        low, high = r.at(drives)
        point = curve.iops_at(drives)
        if high <= low * 1.0005:
            return []
        cpu = r.cpu_alone_at(drives)
        alone = "; ".join(f"{name} alone {iops_span(a, b)} (headroom {a / point - 1:+.1%} … {b / point - 1:+.1%})"
                          for name, (a, b) in cpu.items() if np.isfinite(b))
        return [f"Over the published range of the CPU's cost ({costs}; docs/physics.md §4.1) this ceiling lies in "
                f"{iops_span(low, high)} (at the charged cost {format_iops(point)})" + (f"; {alone}" if alone else "")
                + "."]
    first, last = int(r.drives.min()), int(r.drives.max())
    span = f"{first}–{last}" if first != last else f"{first}"
    at = {"the dearest": r.cpu_binds_from(r.binding_low), "the charged cost": r.cpu_binds_from(curve.binding),
          "the cheapest": r.cpu_binds_from(r.binding_high)}
    if at["the dearest"] is None:
        return []  # the CPU binds nowhere, even at its dearest: the range changes nothing said
    by_count: dict = {}
    for k, n in at.items():  # ends at which the CPU binds from the same count, said once
        by_count.setdefault(n, []).append(k)
    said = "; ".join(f"from {n} drive{'s' if n != 1 else ''} at {' and '.join(ks)}"
                     for n, ks in by_count.items() if n is not None)
    if None in by_count:
        said += f"; not within {span} drives at {' and '.join(by_count[None])}"
    low, high = r.at(last)
    return [f"  The CPU's cost per I/O is a range ({costs}; docs/physics.md §4.1): the CPU binds {said}; "
            f"at {last} drive{'s' if last != 1 else ''} the ceiling lies in {iops_span(low, high)}."]


def iops_span(low: float, high: float) -> str:
    """``"49.28–60.00 M IOPS"`` (one unit where both ends share it)."""
    a, b = format_iops(low), format_iops(high)
    unit_a, unit_b = a.split(" ", 1)[1], b.split(" ", 1)[1]
    return f"{a.split(' ', 1)[0]}–{b}" if unit_a == unit_b else f"{a} – {b}"


def littles_law_need(curve, drives: int, iops: float | None = None) -> str | None:
    """The mean latency per I/O the ceiling at ``drives`` (or a target's ``iops``) needs at the queue depth asked
    (Little's law: I/Os in flight / IOPS), beside the drive's QD1 latency (the model's R₀:
    ``ceiling.host.qd1_latency_s``); None for a topology of groups."""
    if hasattr(curve.topology, "groups"):
        return None
    from .host import qd1_latency_s

    p = curve.parameters
    x = curve.iops_at(drives) if iops is None else float(iops)
    if not np.isfinite(x) or x <= 0:
        return None
    per_drive = float(p.get("workload.per_drive", 1.0)) > 0
    depth, jobs = float(p["workload.iodepth"]), float(p["workload.numjobs"])
    n = depth * jobs * (drives if per_drive else 1)
    need = n / x
    f = float(p["workload.read_fraction"])
    fabric = 0.0 if p.get("fabric.transport", "none") in ("none", _NO_FABRIC) else 1.0  # as the kernel reads it
    r0 = float(qd1_latency_s(p["workload.block_size"], f, {**p, "fabric.present": fabric}))
    field = "read" if f >= 0.5 else "write"
    how = (f"{drives} drive{'s' if drives != 1 else ''} x QD{depth:g} x {jobs:g} job{'s' if jobs != 1 else ''}"
           + (" each" if drives != 1 else "") if per_drive else f"QD{depth:g} x {jobs:g} job{'s' if jobs != 1 else ''}")
    head = (f"Little's law: {how} = {n:,.0f} I/Os in flight {'reach' if iops is None else 'give'} {format_iops(x)} "
            f"only at a mean latency of at most {_time(need)} per I/O")
    if np.isnan(r0):
        return head + f"; the drive's QD1 {field} latency is not known, so whether it can is not checked."
    src = curve.sources.get(f"drive.{field}_latency_s") if curve.sources is not None else None
    status = f" ({src.status})" if src is not None and getattr(src, "status", None) else ""
    if need < r0 * (1 - 1e-9):
        return head + f"; the drive's QD1 {field} latency is {_time(r0)}{status}, above it: not reachable here."
    return head + (f"; the drive's QD1 {field} latency is {_time(r0)}{status}, so queueing may add at most "
                   f"{_time(max(need - r0, 0.0))} per I/O.")


def _time(seconds: float) -> str:
    """``"12.8 µs"``, ``"1.17 ms"``: three significant digits in the unit that keeps them short."""
    return f"{seconds * 1e3:.3g} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.3g} µs"
