"""PCIe switches and switch adapters: a shared uplink, downstream ports, a processing cap."""

from __future__ import annotations

from typing import Any

import dataclasses
import functools

from ..parameters import Source
from ..standards.pcie import Gen
from ._catalog import lookup, number, read_catalog
from ._fields import check_fields, export, field_source

__all__ = ["SPEC_ONLY", "Switch", "calibrations_to_drop", "catalog_keys_with_none", "get_switch", "identify_switch",
           "switch_catalog"]

#: Fields that are parameters (``switch.<field>``).
FIELDS = ("up_gen", "up_lanes", "ports", "port_gen", "port_lanes", "efficiency", "per_command_s", "per_tlp_s")

#: The links a calibration was measured on: changing one of them voids the calibrated processing fields.
LINK_FIELDS = ("up_gen", "up_lanes", "port_gen", "port_lanes")
#: Processing fields that a catalog row may carry as calibrated/measured values (provenance keys in brackets).
PROCESSING_FIELDS = {"efficiency": "efficiency", "per_command_s": "per_command", "per_tlp_s": "per_tlp"}
#: What a switch known from its spec alone assumes about processing (no measurement, no cap).
SPEC_ONLY = "spec only: no measured processing cap"


@dataclasses.dataclass(frozen=True)
class Switch:
    """A PCIe switch (or an adapter built on one) between root port and drives.

    Parameters
    ----------
    name : str
    up_gen, up_lanes : Gen, int
        Upstream link to the root port; all downstream drives share it.
    ports : int
        Downstream ports, one drive each.
    port_gen, port_lanes : Gen, int
        Downstream port link.
    efficiency : float
        Fraction of the uplink's TLP capacity the switch sustains (store-and-forward,
        credit limits). 1.0 = none lost. Usually fitted (docs/physics.md §9.3).
    per_command_s : float
        Processing time per NVMe command through the switch, seconds; caps IOPS at
        ``1/per_command_s`` for all its drives together. 0 = no cap.
    per_tlp_s : float
        Processing time per upstream TLP, seconds (alternative to per-command cost).
    provenance : dict
        Per parameter: ``"spec: …"``, ``"calibrated: …"`` or ``"fit: …"``.
    kind, chip, total_lanes, pci_id, match
        Catalog facts that are not model parameters: ``"chip"`` or ``"adapter"``, the switch chip, its
        lane count, the PCI ``vendor:device`` of its ports (how ``lspci`` shows it), and a regular
        expression over the port's lspci text (device and subsystem) that names this adapter.
    """

    name: str
    up_gen: Gen | int = Gen.GEN3  # a generation number is taken as its Gen
    up_lanes: int = 16
    ports: int = 4
    port_gen: Gen | int = Gen.GEN3  # a generation number is taken as its Gen
    port_lanes: int = 4
    efficiency: float = 1.0
    per_command_s: float = 0.0
    per_tlp_s: float = 0.0
    provenance: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)
    kind: str = dataclasses.field(default="", compare=False)
    chip: str = dataclasses.field(default="", compare=False)
    total_lanes: int | None = dataclasses.field(default=None, compare=False)
    pci_id: str = dataclasses.field(default="", compare=False)
    match: str = dataclasses.field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "up_gen", Gen.parse(self.up_gen))
        object.__setattr__(self, "port_gen", Gen.parse(self.port_gen))
        check_fields(self, "switch", FIELDS)

    def replace(self, **changes: Any) -> Switch:
        return dataclasses.replace(self, **changes)

    @classmethod
    def spec_only(cls, name: str = "custom switch", **fields) -> Switch:
        """A switch known from its spec alone: links and ports as given, no loss (efficiency 1), no
        per-command or per-TLP cost, every processing field labelled ``spec only: no measured processing cap``.

        >>> sw = Switch.spec_only(up_gen=4, up_lanes=8)
        >>> (int(sw.up_gen), sw.up_lanes, sw.efficiency, sw.per_command_s, sw.sources()["switch.efficiency"].status)
        (4, 8, 1.0, 0.0, 'assumption')
        """
        prov = {"efficiency": f"assumption: {SPEC_ONLY} (efficiency 1.0, no loss)",
                "per_command": f"assumption: {SPEC_ONLY} (no per-command cost)",
                "per_tlp": f"assumption: {SPEC_ONLY} (no per-TLP cost)",
                "up": "user: set", "ports": "user: set", **fields.pop("provenance", {})}
        return cls(name=f"{name} ({SPEC_ONLY})", efficiency=1.0, per_command_s=0.0, per_tlp_s=0.0,
                   provenance=prov, **fields)

    def calibrated_fields(self) -> tuple[str, ...]:
        """Processing fields whose value was calibrated or measured (on this switch's own links)."""
        return tuple(f for f, key in PROCESSING_FIELDS.items()
                     if field_source(self.provenance, key, Source("spec")).status in ("calibrated", "measured"))

    def with_changes(self, *, host_gen: Gen | int | None = None, drive_gen: Gen | int | None = None,
                     **fields: Any) -> Switch:
        """A copy with some ``switch.*`` fields changed (each marked ``user: override``).

        Changing a link (``up_gen``, ``up_lanes``, ``port_gen``, ``port_lanes``) of a switch whose
        processing fields are calibrated drops those calibrations — they were measured on the old links —
        unless the same call sets them: efficiency back to 1, no per-command/per-TLP cost, each labelled
        with what was dropped, and the name says so (it no longer is the catalog entry). With ``host_gen``
        (``drive_gen``) a generation counts as changed only where the link it negotiates with the host (the
        drives) changes: a Gen3 adapter set to Gen4 in a Gen3 host still trains Gen3, on the links its
        calibration was measured on.

        >>> sw = get_switch("lenovo-810-4p").with_changes(up_gen=4)
        >>> sw.efficiency, sw.per_command_s, sw.sources()["switch.per_command_s"].status
        (1.0, 0.0, 'assumption')
        >>> sw.name
        'Lenovo ThinkSystem 810-4P NVMe Switch Adapter at Gen4 x8 (calibration dropped: spec only: no measured processing cap)'
        """
        prov = {**self.provenance, **{f: "user: override" for f in fields}}
        peer = {"up_gen": host_gen, "port_gen": drive_gen}

        def trained(f, value):  # the generation a link negotiates with its other end, where that end is known
            return min(int(value), int(peer[f])) if peer.get(f) is not None else int(value)

        changed = [f for f in LINK_FIELDS if f in fields and trained(f, fields[f]) != trained(f, getattr(self, f))]
        drop = [f for f in self.calibrated_fields() if f not in fields] if changed else []
        if not drop:
            return dataclasses.replace(self, **fields, provenance=prov)
        what = ", ".join(f"switch.{f}" for f in changed)
        was = ", ".join(f"{f}={getattr(self, f):g}" for f in drop)
        for f in drop:
            prov[PROCESSING_FIELDS[f]] = (f"assumption: {SPEC_ONLY}; the calibration of {self.name} ({was}) was "
                                          f"dropped because {what} changed: it was measured on its own links")
        zero: dict[str, Any] = {"efficiency": 1.0, "per_command_s": 0.0, "per_tlp_s": 0.0}
        new = dataclasses.replace(self, **fields, **{f: zero[f] for f in drop}, provenance=prov)
        name = (f"{self.name} at Gen{int(new.up_gen)} x{new.up_lanes}" +
                (f" (ports Gen{int(new.port_gen)} x{new.port_lanes})" if any(
                    f in changed for f in ("port_gen", "port_lanes")) else "") +
                f" (calibration dropped: {SPEC_ONLY})")
        return dataclasses.replace(new, name=name)

    def uplink_words(self) -> str:
        """"Gen3 x8 uplink" for a description beside the name; "" where the name already says it (a catalog part
        set to other links is named "… at Gen3 x16 (calibration dropped …)": the link is not said twice)."""
        link = f"Gen{int(self.up_gen)} x{self.up_lanes}"
        return "" if f" at {link}" in self.name else f"{link} uplink"

    def parameters(self) -> dict[str, float]:
        """``switch.*`` entries of the parameter vector (SI)."""
        return export(self, "switch", FIELDS)

    def sources(self) -> dict[str, Source]:
        """Where each ``switch.*`` value comes from (the catalog's ``*_status`` columns)."""
        fallback = Source("spec", self.name)
        key = {"up_gen": "up", "up_lanes": "up", "port_gen": "ports", "port_lanes": "ports",
               "per_command_s": "per_command", "per_tlp_s": "per_tlp"}
        return {f"switch.{f}": field_source(self.provenance, f if f in self.provenance else key.get(f, f), fallback)
                for f in FIELDS}


def switch_catalog() -> dict[str, Switch]:
    """Every switch in ``catalog/switches.csv``, keyed by its short key."""
    return dict(_catalog())


def catalog_keys_with_none() -> tuple[str, ...]:
    """Choices of ``switch.model``: ``none`` (direct attach), ``custom`` (the topology's own), catalog keys."""
    return ("none", "custom", *_catalog())


def model_key(switch: Switch | None) -> str:
    if switch is None:
        return "none"
    for key, entry in _catalog().items():
        if entry.name == switch.name:
            return key
    return "custom"


@functools.cache
def _catalog() -> dict[str, Switch]:
    fn = "switches.csv"
    out = {}
    for row in read_catalog(fn):
        prov = {k[: -len("_status")]: row[k] for k in row if k.endswith("_status") and row[k]}
        if row.get("kind") == "chip" and prov.get("chip", "").startswith("spec"):  # a chip's generation is its spec
            prov.setdefault("up_gen", prov["chip"])
            prov.setdefault("port_gen", prov["chip"])
        out[row["key"]] = Switch(
            name=row["name"], up_gen=int(row["up_gen"]), up_lanes=int(row["up_lanes"]),
            ports=int(row["ports"]), port_gen=int(row["port_gen"]), port_lanes=int(row["port_lanes"]),
            efficiency=number(row, "efficiency", filename=fn),
            per_command_s=number(row, "per_command_ns", 1e-9, filename=fn),
            per_tlp_s=number(row, "per_tlp_ns", 1e-9, filename=fn),
            provenance=prov, kind=row.get("kind", ""), chip=row.get("chip", ""),
            total_lanes=int(row["total_lanes"]) if row.get("total_lanes") else None, pci_id=row.get("pci_id", ""),
            match=row.get("match", ""),
        )
    return out


def calibrations_to_drop(grid, base: Switch | None, *, host_gen=None, drive_gen=None) -> dict:
    """For a sweep grid: the processing values a changed link voids, per configuration (vectorized
    :meth:`Switch.with_changes`).

    ``grid`` maps ``switch.*`` parameter names to 1-D arrays (``switch.model`` as names or codes); ``base``
    is the topology's own switch (the ``custom`` model). Where a configuration sets a link
    (``switch.up_gen`` …) to a value other than its switch model's, the model's calibrated or measured
    efficiency / per-command / per-TLP values that the grid does not set are returned as 1.0 / 0.0 —
    ``{"switch.efficiency": array, …}``, the other configurations keeping the model's values; ``{}`` where
    the grid changes no link. The sweep applies them after the catalog's values
    (``nvmemodel.ceiling.evaluate.sweep``). ``host_gen`` / ``drive_gen`` (scalars or arrays per configuration):
    a generation counts as changed only where the link it trains with the host / the drives changes, as in
    :meth:`Switch.with_changes`.

    >>> out = calibrations_to_drop({"switch.up_gen": [3, 4]}, get_switch("lenovo-810-4p"))
    >>> out["switch.efficiency"].round(4).tolist(), (out["switch.per_command_s"] * 1e9).round(3).tolist()
    ([0.8636, 1.0], [769.231, 0.0])
    """
    import numpy as np

    from ..parameters import PARAMETERS

    links = [f for f in LINK_FIELDS if f"switch.{f}" in grid]
    model = grid.get("switch.model")
    # ``custom`` on a catalog or calibrated base switch is that switch from its spec alone (as with_overrides)
    spec_custom = base is not None and (model_key(base) != "custom" or bool(base.calibrated_fields()))
    if not links and not (model is not None and spec_custom):
        return {}
    n = len(np.asarray(grid[f"switch.{links[0]}"] if links else model).ravel())
    entries = [None, base, *_catalog().values()]  # codes of switch.model: none, custom, catalog keys
    if model is None:
        codes = np.full(n, 1)
    else:
        codes = PARAMETERS["switch.model"].check(np.asarray(model, dtype=object).ravel()).astype(int)
    ref = {f: np.array([np.nan if e is None else float(int(getattr(e, f))) for e in entries])[codes] for f in links}
    peer = {"up_gen": host_gen, "port_gen": drive_gen}
    changed = np.zeros(n, dtype=bool)
    for f in links:
        new, old = np.asarray(grid[f"switch.{f}"], dtype=float).ravel(), ref[f]
        if peer.get(f) is not None:  # the generation the link trains with its other end
            other = np.broadcast_to(np.asarray(peer[f], dtype=float).ravel(), (n,)) if np.size(peer[f]) > 1 \
                else float(np.asarray(peer[f]).ravel()[0])
            new, old = np.fmin(new, other), np.fmin(old, other)
        changed |= new != old
    custom = (codes == 1) & (model is not None) & spec_custom
    out = {}
    neutral = {"efficiency": 1.0, "per_command_s": 0.0, "per_tlp_s": 0.0}
    for f in PROCESSING_FIELDS:
        if f"switch.{f}" in grid:
            continue
        cal = np.array([e is not None and f in e.calibrated_fields() for e in entries])[codes]
        drop = (changed & cal) | custom
        if not drop.any():
            continue
        value = np.array([neutral[f] if e is None else float(getattr(e, f)) for e in entries])[codes]
        out[f"switch.{f}"] = np.where(drop, neutral[f], value)
    return out


def identify_switch(text: str) -> str | None:
    """The catalog key of the adapter a switch port's lspci text (device and subsystem) names, else None.

    >>> identify_switch("PLX Technology, Inc. PEX 9733 … (Lenovo ThinkSystem 810-4P NVMe Switch Adapter)")
    'lenovo-810-4p'
    """
    import re

    hits = [k for k, s in _catalog().items() if s.match and re.search(s.match, text or "", re.IGNORECASE)]
    return hits[0] if len(hits) == 1 else None


def get_switch(name: str) -> Switch:
    """Look a switch up by key (``"lenovo-810-4p"``) or display name, case-insensitively."""
    return lookup(switch_catalog(), name, "switch")
