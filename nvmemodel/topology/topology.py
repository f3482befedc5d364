"""A storage topology: host → root ports → (switches →) drives, optionally → fabric → initiators."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from .. import _check
from ..errors import ParameterError
from ..parameters import PARAMETERS, PRESENCE, Source, get
from .config import NvmeConfig, PcieConfig
from .drive import Drive, get_drive
from .drive import model_key as drive_model_key
from .fabric import FIELDS as FABRIC_FIELDS
from .fabric import Fabric
from .host import Host
from .switch import FIELDS as SWITCH_FIELDS
from .switch import LINK_FIELDS, Switch, get_switch
from .switch import model_key as switch_model_key
from .workload import Workload

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Topology", "drive_slots_text"]


def drive_slots_text(*, sockets: float, lanes_per_socket: float, reserved_lanes_per_socket: float, port_lanes: float,
                     switched: bool = False, switch_count: float = 1, switch_ports: float = 0,
                     gpu_ports: float = 0) -> str:
    """How many drives a configuration can attach, with the parameters that set it, e.g.
    ``24 = host.sockets 2 × ⌊(host.lanes_per_socket 80 − host.reserved_lanes_per_socket 32) / host.port_lanes 4⌋``;
    behind switches less the ``gpu_ports`` of each that GPUs take (:meth:`Topology.gpu_ports_per_switch`).

    >>> drive_slots_text(sockets=1, lanes_per_socket=128, reserved_lanes_per_socket=32, port_lanes=4,
    ...                  switched=True, switch_count=2, switch_ports=4)
    '8 = switch.count 2 × switch.ports 4'
    >>> drive_slots_text(sockets=1, lanes_per_socket=128, reserved_lanes_per_socket=32, port_lanes=4,
    ...                  switched=True, switch_count=1, switch_ports=8, gpu_ports=4)
    '4 = switch.count 1 × (switch.ports 8 − 4 taken by the GPUs behind each switch)'
    """
    if switched and gpu_ports:
        return (f"{int(switch_count * max(switch_ports - gpu_ports, 0))} = switch.count {switch_count:g} × "
                f"(switch.ports {switch_ports:g} − {gpu_ports:g} taken by the GPUs behind each switch)")
    if switched:
        return f"{int(switch_count * switch_ports)} = switch.count {switch_count:g} × switch.ports {switch_ports:g}"
    slots = int(sockets) * int((lanes_per_socket - reserved_lanes_per_socket) // port_lanes)
    return (f"{slots} = host.sockets {sockets:g} × ⌊(host.lanes_per_socket {lanes_per_socket:g} − "
            f"host.reserved_lanes_per_socket {reserved_lanes_per_socket:g}) / host.port_lanes {port_lanes:g}⌋")

# Valid stand-ins for the parameters of absent parts, so a vectorized sweep can switch them on by name.
_NO_SWITCH = Switch(name="(none)")
_NO_FABRIC = Fabric(name="(none)")
#: Prefixes whose parameters the dataclasses hold; any other declared parameter is a registered
#: component's, taken from :attr:`Topology.extras` or its table default.
_BUILTIN_PREFIXES = ("workload", "pcie", "nvme", "drive", "host", "switch", "fabric")


@dataclasses.dataclass(frozen=True)
class Topology:
    """How drives attach to a host, and optionally how the host is reached over a fabric.

    Drives are identical and spread round-robin over the switches (or root ports).

    Parameters
    ----------
    name : str
    host : Host
    drive : Drive
    switch : Switch | None
        None: every drive has its own root port (direct attach).
    switch_count : int
        Number of identical switches the drives are spread over.
    fabric : Fabric | None
        The NVMe-oF network in front of this storage target.
    pcie, nvme : PcieConfig, NvmeConfig
        Link and driver settings used on every PCIe link.
    default_drives : tuple of int, optional
        Drive counts a curve evaluates by default (a paper's measured points);
        None: ``1 … max_drives``.
    notes : str
        Provenance: what the preset was built from, which parameters were calibrated on what.
    extras : mapping of parameter name → value
        Values of parameters declared by registered components beyond the built-in ones
        (:func:`nvmemodel.ceiling.components.register`, or the layers above the PCIe links: ``tree.*``,
        ``memory.*``, ``cpu.*``, ``raid.*``, ``share.*``); missing ones take the table default.
        Categorical ones by name.
    extras_sources : mapping of parameter name → ``"status: citation"``
        Where a preset's extras come from (else they read "user: set in the topology").
    """

    name: str
    host: Host
    drive: Drive
    switch: Switch | None = None
    switch_count: int = 1
    fabric: Fabric | None = None
    pcie: PcieConfig = PcieConfig()
    nvme: NvmeConfig = NvmeConfig()
    default_drives: tuple[int, ...] | None = None
    notes: str = dataclasses.field(default="", compare=False)
    extras: Mapping[str, float | str] = dataclasses.field(default_factory=dict, compare=False, hash=False)
    extras_sources: Mapping[str, str] = dataclasses.field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        PARAMETERS["switch.count"].check(self.switch_count)
        for name, value in self.extras.items():
            get(name).check(value)
        if self.switch is not None and self.gpu_ports_per_switch() >= self.switch.ports:
            per = math.ceil(self._gpu_lanes() / self.switch.port_lanes)
            raise ParameterError("gpu.count", self.extras.get("gpu.count"),
                                 f"at most {(self.switch.ports - 1) // per * self.switch_count} GPUs behind "
                                 f"{self.switch_count} x {self.switch.name} with gpu.attach=switch ({self.switch.ports} "
                                 f"x{self.switch.port_lanes} ports each, a GPU taking {per}, a port left for drives)")
        if self.default_drives is not None:
            self.check_drives(self.default_drives)
        if self.switch is not None:
            free = self.host.sockets * (self.host.lanes_per_socket - self.host.reserved_lanes_per_socket)
            if self.switch_count * self.switch.up_lanes > free:
                raise ParameterError("switch_count", self.switch_count,
                                     f"at most {free // self.switch.up_lanes} x{self.switch.up_lanes} "
                                     f"switch uplinks on {free} free host lanes")

    def replace(self, **changes: Any) -> Topology:
        """A copy with some parts changed, e.g. ``t.replace(drive=other)``."""
        return dataclasses.replace(self, **changes)

    @property
    def max_drives(self) -> int:
        """Most drives this topology can attach: switch ports (less those GPUs behind the switches take), or root-port
        lane budget."""
        if self.switch is not None:
            return self.switch_count * (self.switch.ports - self.gpu_ports_per_switch())
        return self.host.direct_drive_slots

    def gpu_ports_per_switch(self) -> int:
        """Downstream ports of each switch that GPUs behind the drives' switches take (``gpu.attach=switch`` in
        :attr:`extras`, docs/physics.md §12.10): ``⌈gpu.count / switch.count⌉ × ⌈gpu.lanes / switch.port_lanes⌉``
        (a x16 GPU on x4 ports takes four); 0 otherwise."""
        if self.switch is None or str(self.extras.get("gpu.attach", "unplaced")).strip().lower() not in ("switch",
                                                                                                        "2", "2.0"):
            return 0
        count = float(self.extras.get("gpu.count", 0.0))
        return int(math.ceil(count / self.switch_count) * math.ceil(self._gpu_lanes() / self.switch.port_lanes))

    def _gpu_lanes(self) -> float:
        """``gpu.lanes`` of :attr:`extras`, else 16 (the parameter's default, ``ceiling/gpu.py``)."""
        return float(self.extras.get("gpu.lanes", 16.0))

    def max_drives_text(self) -> str:
        """:attr:`max_drives` with the parameters that set it (:func:`drive_slots_text`)."""
        h = self.host
        return drive_slots_text(sockets=h.sockets, lanes_per_socket=h.lanes_per_socket,
                                reserved_lanes_per_socket=h.reserved_lanes_per_socket, port_lanes=h.port_lanes,
                                switched=self.switch is not None, switch_count=self.switch_count,
                                switch_ports=self.switch.ports if self.switch is not None else 0,
                                gpu_ports=self.gpu_ports_per_switch())

    def check_drives(self, drives: Any) -> np.ndarray:
        """Validate drive counts: integers from 1 to :attr:`max_drives`, at least one of them; the error names
        the parameters that set the most drives."""
        if np.size(drives) == 0:
            raise ParameterError("drives", "[] (none)", f"at least one drive count from 1 to {self.max_drives}")
        if type(drives) is np.ndarray and drives.dtype.kind in "iu" and drives.min() >= 1 \
                and drives.max() <= self.max_drives:  # integers in range: what the general check returns
            return drives.astype(float)
        try:
            return _check.number("drives", drives, lo=1, hi=self.max_drives, integer=True)
        except ParameterError as exc:
            if not (isinstance(exc.value, int | float) and exc.value > self.max_drives):
                raise
            raise ParameterError("drives", exc.value,
                                 f"an integer >= 1 and <= {self.max_drives}, the most drives {self.name} can attach: "
                                 f"{self.max_drives_text()} (change those parameters, e.g. with --set, to attach "
                                 f"more)") from exc

    def parameters(self, workload: Workload) -> dict[str, float | str]:
        """The flat parameter vector: every name of :data:`nvmemodel.parameters.PARAMETERS` with its value.

        SI values; categorical parameters by name (``"workload.io_stack": "libaio"``,
        ``"switch.model": "none"``). Any entry can be overridden in :func:`nvmemodel.evaluate`,
        swept in :func:`nvmemodel.sweep` or freed in a fit. Parameters of an absent switch or
        fabric hold valid stand-ins and are ignored while ``switch.model`` / ``fabric.transport``
        is ``none``.

        Kept per topology object and workload (a new dict each call): the parts are frozen, and the entry is
        used only while the parameter table, :attr:`extras` and the host's catalog limits are what they were.
        """
        read_fraction = workload.read_fraction
        assert read_fraction is not None  # (Workload.__post_init__ sets it, from the pattern where not given)
        key = (workload, math.copysign(1.0, read_fraction), len(PARAMETERS))
        cache = self.__dict__.get("_parameters_cache")
        if cache is None:
            cache = {}
            object.__setattr__(self, "_parameters_cache", cache)  # not a field: replace(), ==, repr ignore it
        entry = cache.get(key)
        if entry is not None and entry[1] is _last_parameter() and entry[2] == self.extras \
                and entry[3] == self.host.platform:
            return dict(entry[0])
        params = self._parameters(workload)
        if len(cache) >= 16:
            cache.clear()
        cache[key] = (params, _last_parameter(), dict(self.extras), dict(self.host.platform))
        return dict(params)

    def _parameters(self, workload: Workload) -> dict[str, float | str]:
        """:meth:`parameters`, computed."""
        params: dict[str, float | str] = {}
        params.update(workload.parameters())
        params.update(self.pcie.parameters())
        params.update(self.nvme.parameters())
        params["drive.model"] = drive_model_key(self.drive)
        params.update(self.drive.parameters())
        params.update(self.host.parameters(workload.io_stack))
        params["switch.model"] = switch_model_key(self.switch)
        params["switch.count"] = float(self.switch_count)
        params.update((self.switch or _NO_SWITCH).parameters())
        if self.fabric is None:
            params.update(_NO_FABRIC.parameters())
            params["fabric.transport"] = "none"
        else:
            params.update(self.fabric.parameters())
        platform = self.host.platform  # a catalog host's tree/memory limits, unless the topology sets them
        for name, param in PARAMETERS.items():
            if name.split(".", 1)[0] not in _BUILTIN_PREFIXES:
                params[name] = _extra_value(param, self.extras.get(name, platform.get(name, param.default)))
        return params

    def sources(self, workload: Workload) -> dict[str, Source]:
        """Where each value of :meth:`parameters` comes from (status and citation)."""
        out: dict[str, Source] = {}
        for name, value in {**workload.parameters(), **self.pcie.parameters(), **self.nvme.parameters()}.items():
            param = PARAMETERS[name]
            prefix, field = name.split(".", 1)
            given = {"pcie": self.pcie.provenance, "nvme": self.nvme.provenance}.get(prefix, {}).get(field)
            same = param.default is None or value == param.default
            out[name] = Source.parse(given) if given else (
                Source.parse(param.source, "default") if same else Source("user", "set in the topology"))
        for name in ("workload.block_size", "workload.read_fraction", "workload.random", "workload.iodepth",
                     "workload.numjobs", "workload.per_drive", "workload.io_stack"):
            out[name] = Source("user", f"the workload ({workload.describe()})")
        out["drive.model"] = Source("spec", f"{self.drive.name} (catalog: {drive_model_key(self.drive)})")
        out.update(self.drive.sources())
        out.update(self.host.sources(workload.io_stack))
        sw = self.switch
        out["switch.model"] = Source("spec", sw.name if sw else "direct attach (no switch)")
        out["switch.count"] = Source("spec", self.notes or self.name)
        out.update(sw.sources() if sw else {f"switch.{f}": Source("default", "no switch") for f in SWITCH_FIELDS})
        if self.fabric is None:
            out.update({f"fabric.{f}": Source("default", "no fabric (local storage)") for f in FABRIC_FIELDS})
        else:
            out.update(self.fabric.sources())
        for name, param in PARAMETERS.items():
            if name.split(".", 1)[0] not in _BUILTIN_PREFIXES:
                if name in self.extras_sources:
                    out[name] = Source.parse(self.extras_sources[name])
                elif name not in self.extras and name in self.host.platform_sources:
                    out[name] = Source.parse(self.host.platform_sources[name])
                else:
                    out[name] = Source("user", "set in the topology") if name in self.extras else \
                        Source.parse(param.source, "default")
        return out

    def parameter_table(self, workload: Workload) -> pd.DataFrame:
        """Every parameter with its value, unit, kind, range, meaning and source, as a DataFrame.

        Columns: ``name``, ``value`` (SI, categorical by name), ``shown`` (value with unit), ``unit``,
        ``kind``, ``lo``, ``hi``, ``choices``, ``range``, ``meaning``, ``status``, ``source``.
        """
        import pandas as pd

        values, sources = self.parameters(workload), self.sources(workload)
        rows = []
        for name, param in PARAMETERS.items():
            value = values[name]
            src = sources.get(name, Source("default"))
            rows.append({"name": name, "value": value, "shown": param.format(value), "unit": param.unit,
                         "kind": param.kind, "lo": param.lo, "hi": param.hi,
                         "choices": ", ".join(map(str, param.allowed_choices())) if param.kind in (
                             "choice", "categorical") else "",
                         "range": param.describe_range(), "meaning": param.meaning, "status": src.status,
                         "source": src.text})
        return pd.DataFrame(rows)

    def with_parameters(self, values: Mapping[str, object], workload: Workload) -> tuple[Topology, Workload]:
        """The topology and workload with some parameters changed, checked by the parameter table.

        ``values`` maps parameter names to values (categorical ones by name). ``drive.model`` and
        ``switch.model`` replace the whole drive or switch by a catalog entry (``switch.model='none'``:
        direct attach) before their other fields are applied; ``fabric.transport='none'`` removes the
        fabric. Setting a parameter of a switch or fabric the topology does not have is an error.
        """
        for name, value in values.items():
            get(name).check(value)
        groups: dict[str, dict[str, object]] = {}
        for name, value in values.items():
            prefix, field = name.split(".", 1)
            groups.setdefault(prefix, {})[field] = value
        topo, wl = self, workload

        def typed(prefix, fields):
            out = {}
            for field, value in fields.items():
                param = PARAMETERS[f"{prefix}.{field}"]
                if param.kind == "categorical":
                    out[field] = param.name_of(param.code(value))
                elif param.kind == "flag":
                    out[field] = bool(float(value))
                elif param.kind in ("integer", "choice"):
                    out[field] = int(float(value))
                else:
                    out[field] = float(value)
            return out

        if "workload" in groups:
            p = {**wl.parameters(), **{f"workload.{k}": v for k, v in typed("workload", groups["workload"]).items()}}
            wl = Workload.from_parameters(p)
        if "pcie" in groups:
            topo = topo.replace(pcie=dataclasses.replace(topo.pcie, **typed("pcie", groups["pcie"])))
        if "nvme" in groups:
            topo = topo.replace(nvme=dataclasses.replace(topo.nvme, **typed("nvme", groups["nvme"])))
        if "drive" in groups:
            fields = typed("drive", groups["drive"])
            model = fields.pop("model", None)
            drive = topo.drive if model in (None, "custom") else get_drive(model)
            if fields:
                drive = drive.replace(**fields, provenance={**drive.provenance,
                                                            **{f: "user: override" for f in fields}})
            topo = topo.replace(drive=drive)
        if "host" in groups:
            fields = typed("host", groups["host"])
            if "cycles_per_io" in fields:  # a value given is the value on every stack (as nm.sweep's grid takes it),
                fields["cycles_stack"] = ""  # not a calibration to scale by the stack ratio (30,000 became 896)
            topo = _replace_keeping_drives(topo, host=topo.host.replace(
                **fields, provenance={**topo.host.provenance, **{f: "user: override" for f in fields}}))
        if "switch" in groups:
            fields = typed("switch", groups["switch"])
            model = fields.pop("model", None)
            count = fields.pop("count", None)
            switch = topo.switch if model in (None, "custom") else (None if model == "none" else get_switch(model))
            if model == "custom" and switch is None:  # a switch from its spec alone, on the host's and drive's gens
                switch = Switch.spec_only(up_gen=topo.host.gen, port_gen=topo.drive.gen, provenance={
                    "up": "assumption: the host's generation and x16 unless switch.up_* are set",
                    "ports": "assumption: the drive's generation, 4 ports of x4 unless switch.port*_ are set"})
            elif model == "custom" and switch is not None and (switch_model_key(switch) != "custom"
                                                               or switch.calibrated_fields()):
                # a catalog or calibrated switch: custom keeps its links and ports, from the spec alone
                kept = f"kept from {switch.name}"
                switch = Switch.spec_only(**{f: getattr(switch, f) for f in (*LINK_FIELDS, "ports")},
                                          provenance={"up": kept, "ports": kept})
            if fields:
                if switch is None:
                    self._absent("switch", fields)
                # a changed link drops the calibration measured on the old one, where the link it negotiates changes
                switch = switch.with_changes(**fields, host_gen=topo.host.gen, drive_gen=topo.drive.gen)
            topo = _replace_keeping_drives(topo, switch=switch,
                                           switch_count=topo.switch_count if count is None else count)
        if "fabric" in groups:
            fields = typed("fabric", groups["fabric"])
            transport = fields.pop("transport", None)
            fabric = topo.fabric
            if transport == "none":
                fabric = None
            elif transport is not None:
                fabric = (fabric or Fabric(name="NVMe-oF (what-if)")).replace(transport=transport)
            if fields:
                if fabric is None:
                    self._absent("fabric", fields)
                if fields.get("roce_mtu") == 0:
                    fields["roce_mtu"] = None
                fabric = fabric.replace(**fields, provenance={**fabric.provenance,
                                                              **{f: "user: override" for f in fields}})
            if fabric is not None and topo.fabric is not None:
                fabric = fabric.replace(name=_fabric_name(topo.fabric, fabric))
            topo = topo.replace(fabric=fabric)
        extras = {k: _extra_value(PARAMETERS[k], v) for k, v in values.items()
                  if k.split(".", 1)[0] not in _BUILTIN_PREFIXES}
        if extras:
            topo = topo.replace(extras={**topo.extras, **extras},
                                extras_sources={k: v for k, v in topo.extras_sources.items() if k not in extras})
        return topo, wl

    def _absent(self, part: str, fields) -> NoReturn:
        selector, none = PRESENCE[part]
        name = f"{part}.{next(iter(fields))}"
        how = ("set switch.model=custom (a switch from the switch.* values alone) or a catalog key (`nvmemodel "
               "switches`) in the same call" if part == "switch" else f"set {selector} in the same call")
        raise ParameterError(name, fields[next(iter(fields))],
                             f"a topology with a {part}: {self.name!r} has none ({selector} is {none!r}); {how}")

    def describe(self) -> str:
        h, d = self.host, self.drive
        sw = self.switch
        trains = (f", trains Gen{int(h.gen)} with the Gen{int(h.gen)} host" if sw is not None and int(h.gen) < int(sw.up_gen)
                  else "")
        via = (f"{self.switch_count} x {sw.name} ({sw.uplink_words()}{trains}, ".replace("(, ", "(")
               + f"{sw.ports} ports)" if sw else f"direct Gen{int(h.gen)} x{h.port_lanes} root ports")
        fab = f", over {self.fabric.name} ({self.fabric.transport.value}, " \
              f"{self.fabric.ports} x {self.fabric.line_rate_bits_per_s / 1e9:g} Gb/s)" if self.fabric else ""
        lanes = str(h.provenance.get("lanes_per_socket", ""))
        assumed = (f" if each socket has {h.lanes_per_socket} lanes (assumed)"
                   if sw is None and lanes.startswith("assumption: lanes per socket not discovered") else "")
        return f"{self.name}: {h.name}, {d.name} (Gen{int(d.gen)} x{d.lanes}) via {via}{fab}; " \
               f"up to {self.max_drives} drives{assumed}"


def _fabric_words(fabric: Fabric) -> str:
    """How a fabric's name starts when it states its line rate and transport ("100 GbE RoCEv2")."""
    rate = f"{fabric.line_rate_bits_per_s / 1e9:g}"
    label = {"rocev2": "RoCEv2", "tcp": "NVMe/TCP", "infiniband": "InfiniBand"}[fabric.transport.value]
    return f"{rate} Gb/s {label}" if fabric.transport.value == "infiniband" else f"{rate} GbE {label}"


def _fabric_name(old: Fabric, new: Fabric) -> str:
    """``new``'s name: a name that states ``old``'s line rate and transport ("100 GbE RoCEv2, single initiator")
    states ``new``'s ("100 GbE NVMe/TCP, single initiator" after ``fabric.transport=tcp``); other names are kept.

    >>> old = Fabric(name="100 GbE RoCEv2, single initiator")
    >>> _fabric_name(old, old.replace(transport="tcp", line_rate_bits_per_s=25e9))
    '25 GbE NVMe/TCP, single initiator'
    """
    words = _fabric_words(old)
    return _fabric_words(new) + old.name[len(words):] if old.name.startswith(words) else old.name


def _last_parameter():
    """The parameter declared last: with the table's size, what tells a changed table (a component registered or
    removed) from the one a cached parameter vector was built with."""
    return PARAMETERS[next(reversed(PARAMETERS))] if PARAMETERS else None


def _extra_value(param, value):
    """An extra parameter's value as the vector holds it: categorical by its canonical name, else a float."""
    if param.kind == "categorical":
        return param.name_of(param.code(value))
    return float(value)


def _replace_keeping_drives(topo: Topology, **changes) -> Topology:
    """``dataclasses.replace`` that trims the default drive counts to what the changed topology can hold."""
    t = dataclasses.replace(topo, default_drives=None, **changes)
    if topo.default_drives is None:
        return t
    keep = tuple(d for d in topo.default_drives if d <= t.max_drives)
    return dataclasses.replace(t, default_drives=keep or None)
