"""A storage topology: host → root ports → (switches →) drives, optionally → fabric → initiators."""

from __future__ import annotations

import dataclasses

import numpy as np

from .. import _check
from ..errors import ParameterError
from .config import NvmeConfig, PcieConfig
from .drive import Drive
from .fabric import NO_FABRIC_PARAMETERS, Fabric
from .host import Host
from .switch import Switch
from .workload import Workload

__all__ = ["Topology"]

# Valid stand-ins for the switch parameters of a topology without switches, so the
# vectorized kernel can evaluate every branch; ``attach.switch = 0`` discards them.
_NO_SWITCH = Switch(name="(none)").parameters()


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

    def __post_init__(self) -> None:
        if self.default_drives is not None:
            self.check_drives(self.default_drives)
        _check.number("switch_count", self.switch_count, lo=1, hi=4096, integer=True)
        if self.switch is not None:
            free = self.host.sockets * (self.host.lanes_per_socket - self.host.reserved_lanes_per_socket)
            if self.switch_count * self.switch.up_lanes > free:
                raise ParameterError("switch_count", self.switch_count,
                                     f"at most {free // self.switch.up_lanes} x{self.switch.up_lanes} "
                                     f"switch uplinks on {free} free host lanes")

    def replace(self, **changes) -> "Topology":
        """A copy with some parts changed, e.g. ``t.replace(drive=other)``."""
        return dataclasses.replace(self, **changes)

    @property
    def max_drives(self) -> int:
        """Most drives this topology can attach: switch ports, or root-port lane budget."""
        if self.switch is not None:
            return self.switch_count * self.switch.ports
        return self.host.direct_drive_slots

    def check_drives(self, drives) -> np.ndarray:
        """Validate drive counts: integers from 1 to :attr:`max_drives`."""
        return _check.number("drives", drives, lo=1, hi=self.max_drives, integer=True)

    def parameters(self, workload: Workload) -> dict[str, float]:
        """The flat parameter vector the ceiling kernel evaluates.

        Names are dotted (``"drive.rand_read_iops"``, ``"switch.efficiency"``,
        ``"host.cycles_per_io"``, ``"pcie.mps"`` …). Any of them can be overridden with
        an array in :func:`nvmemodel.sweep` or freed in a fit.
        """
        params: dict[str, float] = {}
        params.update(workload.parameters())
        params.update(self.pcie.parameters())
        params.update(self.nvme.parameters())
        params.update(self.drive.parameters())
        params.update(self.host.parameters(workload.io_stack))
        if self.switch is None:
            params.update(_NO_SWITCH)
            params["attach.switch"] = 0.0
        else:
            params.update(self.switch.parameters())
            params["attach.switch"] = 1.0
        params["switch.count"] = float(self.switch_count)
        params.update(self.fabric.parameters() if self.fabric is not None else NO_FABRIC_PARAMETERS)
        return params

    def describe(self) -> str:
        h, d = self.host, self.drive
        via = (f"{self.switch_count} x {self.switch.name} (Gen{int(self.switch.up_gen)} x{self.switch.up_lanes} uplink, "
               f"{self.switch.ports} ports)" if self.switch else f"direct Gen{int(h.gen)} x{h.port_lanes} root ports")
        fab = f", over {self.fabric.name}" if self.fabric else ""
        return f"{self.name}: {h.name}, {d.name} via {via}{fab}; up to {self.max_drives} drives"
