"""PCIe switches and switch adapters: a shared uplink, downstream ports, a processing cap."""

from __future__ import annotations

import dataclasses
import functools

from ..parameters import Source
from ..standards.pcie import Gen
from ._catalog import lookup, number, read_catalog
from ._fields import check_fields, export, field_source

__all__ = ["Switch", "catalog_keys_with_none", "get_switch", "switch_catalog"]

#: Fields that are parameters (``switch.<field>``).
FIELDS = ("up_gen", "up_lanes", "ports", "port_gen", "port_lanes", "efficiency", "per_command_s", "per_tlp_s")


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
    """

    name: str
    up_gen: Gen = Gen.GEN3
    up_lanes: int = 16
    ports: int = 4
    port_gen: Gen = Gen.GEN3
    port_lanes: int = 4
    efficiency: float = 1.0
    per_command_s: float = 0.0
    per_tlp_s: float = 0.0
    provenance: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "up_gen", Gen.parse(self.up_gen))
        object.__setattr__(self, "port_gen", Gen.parse(self.port_gen))
        check_fields(self, "switch", FIELDS)

    def replace(self, **changes) -> Switch:
        return dataclasses.replace(self, **changes)

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
        out[row["key"]] = Switch(
            name=row["name"], up_gen=int(row["up_gen"]), up_lanes=int(row["up_lanes"]),
            ports=int(row["ports"]), port_gen=int(row["port_gen"]), port_lanes=int(row["port_lanes"]),
            efficiency=number(row, "efficiency", filename=fn),
            per_command_s=number(row, "per_command_ns", 1e-9, filename=fn),
            per_tlp_s=number(row, "per_tlp_ns", 1e-9, filename=fn),
            provenance=prov,
        )
    return out


def get_switch(name: str) -> Switch:
    """Look a switch up by key (``"lenovo-810-4p"``) or display name, case-insensitively."""
    return lookup(switch_catalog(), name, "switch")
