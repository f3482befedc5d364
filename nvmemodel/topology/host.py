"""The host: sockets, cores, clock, PCIe lanes, and CPU cycles per I/O by I/O stack."""

from __future__ import annotations

import dataclasses
import enum

from ..errors import ParameterError
from ..parameters import Source
from ..standards.pcie import Gen
from ._fields import check_fields, export, field_source

__all__ = ["STACK_CYCLES", "Host", "IoStack"]

#: Fields that are parameters (``host.<field>``); ``cycles_per_io`` None = the I/O stack's default.
FIELDS = ("sockets", "cores_per_socket", "clock_hz", "gen", "lanes_per_socket", "reserved_lanes_per_socket",
          "port_lanes", "cpu_utilization_max", "cycles_per_io")


class IoStack(enum.Enum):
    """The software path an I/O takes on the host."""

    LIBAIO = "libaio"
    IO_URING = "io_uring"
    IO_URING_POLLED = "io_uring_polled"
    SPDK = "spdk"
    WINDOWS_STORPORT = "windows_storport"

    @classmethod
    def parse(cls, value: IoStack | str) -> IoStack:
        try:
            return cls(value if isinstance(value, cls) else str(value).lower().replace("-", "_"))
        except ValueError:
            raise ParameterError("io_stack", value, f"one of {', '.join(s.value for s in cls)}") from None


#: Default CPU cycles per I/O (submission + completion + interrupt + application), with sources.
#: These are PARAMETERS TO FIT (docs/physics.md §4, §9.5): kernel, CPU, mitigations and IOMMU move them.
STACK_CYCLES: dict[IoStack, tuple[float, str]] = {
    IoStack.SPDK: (245.0, "spec-derived: SPDK 13.85 M IOPS/core at 3.4 GHz turbo = 245 cycles "
                          "(spdk.io/news/2021/05/06/nvme-80m-iops)"),
    IoStack.IO_URING_POLLED: (490.0, "derived: Axboe 10 M IOPS/core on a Ryzen 9 5950X (Phoronix, Oct 2021) "
                                     "at an ASSUMED ~4.9 GHz"),
    IoStack.IO_URING: (4000.0, "ESTIMATE: ~1 M IOPS per CPU with fio + io_uring on 10 Gen4 SSDs (tanelpoder.com) "
                               "at an assumed ~4 GHz; no primary per-core source for IRQ-driven io_uring"),
    IoStack.LIBAIO: (10000.0, "ESTIMATE: '10,000-20,000 cycles per I/O' for raw O_DIRECT on Haswell/Broadwell-era "
                              "kernels (Floe blog recalling Axboe); fio+libaio 279 K IOPS at 100 % of a core "
                              "(PhotonLibOS docs)"),
    IoStack.WINDOWS_STORPORT: (25000.0, "ESTIMATE: ION (seed ion-nvme) measured 1.2 M IOPS on Windows Server 2012 R2 "
                                        "vs 3 M on Linux on the same server, CPU-bound: libaio cycles x 3/1.2"),
}


@dataclasses.dataclass(frozen=True)
class Host:
    """A server: CPU sockets and cores, and the PCIe lanes its root complex offers.

    Parameters
    ----------
    name : str
    sockets, cores_per_socket : int
    clock_hz : float
        Sustained core clock, Hz.
    gen : Gen
        PCIe generation of the root ports.
    lanes_per_socket : int
        PCIe lanes each socket offers.
    reserved_lanes_per_socket : int
        Lanes used by other devices (NICs, boot drives), not available for NVMe.
    port_lanes : int
        Root-port width given to each directly attached drive.
    cpu_utilization_max : float
        Fraction of the cores the I/O path may use (1.0 = all).
    cycles_per_io : float | None
        Overrides the I/O stack's default cycles per I/O (:data:`STACK_CYCLES`).
    """

    name: str
    sockets: int = 2
    cores_per_socket: int = 32
    clock_hz: float = 2.5e9
    gen: Gen = Gen.GEN4
    lanes_per_socket: int = 128
    reserved_lanes_per_socket: int = 0
    port_lanes: int = 4
    cpu_utilization_max: float = 1.0
    cycles_per_io: float | None = None
    notes: str = dataclasses.field(default="", compare=False)
    provenance: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "gen", Gen.parse(self.gen))
        check_fields(self, "host", FIELDS)
        if self.reserved_lanes_per_socket > self.lanes_per_socket:
            raise ParameterError("host.reserved_lanes_per_socket", self.reserved_lanes_per_socket,
                                 f"at most host.lanes_per_socket = {self.lanes_per_socket}")

    def replace(self, **changes) -> Host:
        return dataclasses.replace(self, **changes)

    @property
    def direct_drive_slots(self) -> int:
        """How many drives fit on the root ports at ``port_lanes`` each."""
        free = self.lanes_per_socket - self.reserved_lanes_per_socket
        return self.sockets * (free // self.port_lanes)

    def cycles_for(self, stack: IoStack) -> float:
        return self.cycles_per_io if self.cycles_per_io is not None else STACK_CYCLES[stack][0]

    def parameters(self, stack: IoStack) -> dict[str, float]:
        """``host.*`` entries of the parameter vector; cycles per I/O resolved for ``stack``."""
        out = export(self, "host", FIELDS)
        out["host.cycles_per_io"] = float(self.cycles_for(IoStack.parse(stack)))
        return out

    def sources(self, stack: IoStack) -> dict[str, Source]:
        """Where each ``host.*`` value comes from."""
        from ..parameters import PARAMETERS

        out = {}
        for f in FIELDS:
            param = PARAMETERS[f"host.{f}"]
            same = param.default is not None and getattr(self, f) == param.default
            fallback = Source.parse(param.source, "default") if same else Source("spec", self.notes or self.name)
            out[f"host.{f}"] = field_source(self.provenance, f, fallback)
        if self.cycles_per_io is None:
            out["host.cycles_per_io"] = Source.parse(STACK_CYCLES[IoStack.parse(stack)][1], "estimate")
        return out

    def cpu_utilization_at(self, iops, stack: IoStack | str = IoStack.LIBAIO):
        """Predicted fraction of all cores busy at ``iops`` (may exceed 1: not reachable)."""
        stack = IoStack.parse(stack)
        return iops * self.cycles_for(stack) / (self.sockets * self.cores_per_socket * self.clock_hz)
