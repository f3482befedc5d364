"""The host: sockets, cores, clock, PCIe lanes, and CPU cycles per I/O by I/O stack."""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import ParameterError
from ..parameters import Source
from ..standards.pcie import Gen
from ._fields import check_fields, export, field_source

if TYPE_CHECKING:
    import pandas as pd

    from .topology import Topology

__all__ = ["SPDK_SMALL_IO", "STACK_CYCLES", "STACK_CYCLES_RANGE", "Host", "IoStack", "get_host", "host_catalog", "host_from_text", "host_keys",
           "keep_drive_lanes", "platform_of", "with_host", "with_sockets"]

#: Fields that are parameters (``host.<field>``); ``cycles_per_io`` None = the I/O stack's default.
FIELDS = ("sockets", "cores_per_socket", "clock_hz", "gen", "lanes_per_socket", "reserved_lanes_per_socket",
          "port_lanes", "cpu_utilization_max", "cycles_per_io")
#: Parameter prefixes a host's platform may set (the layers above the links that belong to the CPU).
_PLATFORM_PREFIXES = ("tree", "memory")


class IoStack(enum.Enum):
    """The software path an I/O takes on the host."""

    LIBAIO = "libaio"
    IO_URING = "io_uring"
    IO_URING_POLLED = "io_uring_polled"
    SPDK = "spdk"
    WINDOWS_STORPORT = "windows_storport"
    IO_URING_SQPOLL = "io_uring_sqpoll"
    PSYNC = "psync"

    @classmethod
    def parse(cls, value: IoStack | str) -> IoStack:
        try:
            return cls(value if isinstance(value, cls) else str(value).lower().replace("-", "_"))
        except ValueError:
            raise ParameterError("io_stack", value, f"one of {', '.join(s.value for s in cls)}") from None


#: Default CPU cycles per I/O by I/O stack — the stack's own path *and* the benchmark's (fio's) per-I/O
#: work — with sources and how each was normalised by the clock it ran at (docs/physics.md §4, §12.8).
#: These are PARAMETERS TO FIT (§9.5): kernel, CPU generation, batching, mitigations and the IOMMU move them.
#: [RT23] = Ren & Trivedi, "Performance Characterization of Modern Storage Stacks: POSIX I/O, libaio, SPDK, and
#: io_uring" (CHEOPS '23), artifacts github.com/ZebinRen/Performance-Characterization-Storage-Stacks,
#: example_results/6-micro_arch_s_point: fio 3.32, one thread, 4 KiB random reads over 7 Optane SSDs, CPU-bound
#: at 100 % of a core; `perf stat -a -e cycles` over 10 x 5 s (median) divided by fio's IOPS — cycles counted,
#: so no clock is assumed (the busy core ran at 2.41 G cycles/s).
_RT23 = ("Ren & Trivedi CHEOPS'23 artifacts (ZebinRen/Performance-Characterization-Storage-Stacks, "
         "example_results/6-micro_arch_s_point): fio 3.32, 1 thread, 4K randread over 7 Optane SSDs at 100 % of one "
         "core, perf stat system-wide cycles / fio IOPS")
STACK_CYCLES: dict[IoStack, tuple[float, str]] = {
    IoStack.SPDK: (269.0, "derived: 269 cycles at 4 KiB, 245 at 512 B and below, linear between (SPDK_SMALL_IO): "
                          "SPDK's own perf tool (SPDK 20.10), random reads at QD128 per drive on one thread of a Xeon "
                          "Platinum 8380 at 3.4 GHz turbo, 12.62 M IOPS at 4 KiB and 13.85 M at 512 B (spdk.io/news/"
                          "2021/05/06/nvme-80m-iops); fio's SPDK plugin adds fio's own per-I/O work: measured 2,315 "
                          "cycles per I/O with the plugin (" + _RT23 + ", 1.04 M IOPS), i.e. about 2,050 for fio"),
    IoStack.IO_URING_POLLED: (7230.0, "measured: fio io_uring with hipri (polled completions), 7,230 cycles per I/O "
                                      "(334 K IOPS, QD8; " + _RT23 + "). A purpose-built tool on a tuned 5.16+ kernel "
                                      "costs far less: Axboe's t/io_uring, 10 M IOPS per core on a Ryzen 9 5950X "
                                      "(Phoronix, Oct 2021), about 490 cycles at an assumed 4.9 GHz (fixed buffers, "
                                      "registered files, batches of 32, no per-I/O statistics)"),
    IoStack.IO_URING: (7550.0, "measured: fio io_uring, interrupt-driven, 7,550 cycles per I/O (320 K IOPS, QD8; "
                               + _RT23 + "); 8 % below libaio's 8,200 on the same machine (the 128-deep per-thread "
                               "runs of the same artifacts: 315 K vs 293 K IOPS per core, +7 %)"),
    IoStack.LIBAIO: (8200.0, "measured: fio libaio, 8,200 cycles per I/O (294 K IOPS, QD8; " + _RT23 + "; the "
                             "process-only count gives 8,198); agrees with fio+libaio 279 K IOPS at 100 % of one core "
                             "(PhotonLibOS docs, clock not stated) at ~2.3 GHz"),
    IoStack.WINDOWS_STORPORT: (20500.0, "estimate: libaio's 8,200 x 3/1.2 = 20,500: ION (seed ion-nvme) measured "
                                        "1.2 M IOPS on Windows Server 2012 R2 vs 3 M on Linux on the same server, "
                                        "CPU-bound; no per-core Windows figure with a stated clock was found"),
    IoStack.IO_URING_SQPOLL: (8490.0, "measured: fio io_uring with sqthread_poll, 8,490 cycles per I/O counted over "
                                      "both cores it keeps busy, the fio thread's and the kernel SQ thread's "
                                      "(568 K IOPS at 4.82 G cycles/s system-wide, QD64; " + _RT23 + ")"),
    IoStack.PSYNC: (17300.0, "derived: fio psync, 1024 threads at iodepth 1 on 16 NVMe namespaces, 9.41 M IOPS with "
                             "fio's CPU at 14.48 % per thread = 148 of 176 logical CPUs busy (0.84) on 4 x Xeon "
                             "E7-8880 v4 (88 cores, 2.2 GHz base, kernel 4.8; oberstet/scratchbox cruncher/"
                             "sync-engines/sector-size-4096/individual-nvmes-psync-1024.log): 0.84 x 88 x 2.2 GHz / "
                             "9.41 M = 17,300 cycles at base clock (2048 threads: 17,400)"),
}

#: SPDK's cost per I/O below 4 KiB, as a share of its 4 KiB cost (:data:`STACK_CYCLES`): the same [SPDK21] run
#: measured 13.85 M 512 B and 12.62 M 4 KiB random reads on one core (3.4 GHz turbo): 245 and 269 cycles, a ratio
#: of 0.911 at 512 B. The CPU ceiling (``ceiling.host.cpu_iops``) scales SPDK's cycles per I/O by it at 512 B and
#: below, linearly in the transfer size between 512 B and 4 KiB (an interpolation: no per-core figure between the
#: two was published); from 4 KiB up the 4 KiB cost is kept (no per-core figure above 4 KiB either, and SPDK's CPU
#: ceiling is far above the links there). Every other stack's default is a 4 KiB figure with no size term.
SPDK_SMALL_IO: tuple[float, float, str] = (
    512.0, 12.62 / 13.85,
    "derived: SPDK perf on one Xeon Platinum 8380 core at 3.4 GHz turbo, 13.85 M IOPS at 512 B vs 12.62 M at 4 KiB "
    "(spdk.io/news/2021/05/06/nvme-80m-iops): 512 B costs 12.62 / 13.85 = 0.911 of the 4 KiB cycles")

# The spread of one stack's cost over platforms, from the published fio io_uring plateaus with a CPU at 100 %: the
# lowest, one Ice Lake core ([FIO1206]: 638 K IOPS at the assumed 8380's 3.4 GHz boost = 5,330 cycles), and the
# highest, a Threadripper PRO 3995WX job reading 16 KiB ([PLAID]: 400-443 K IOPS per job at 92-93 % of a CPU, median
# 415.6 K, at 0.925 x the 4.2 GHz boost = 9,350 cycles; at the 2.7 GHz base 6,010: which clock ran is not stated), as
# shares of [RT23]'s 7,550: 0.706 and 1.238. Stacks with one published per-core point take this spread (inferred).
_IO_URING_LOW, _IO_URING_HIGH = 3.4e9 / 638e3, 0.925 * 4.2e9 / 415.6e3
_SPREAD = (_IO_URING_LOW / 7550.0, _IO_URING_HIGH / 7550.0)
_SPREAD_TEXT = ("inferred: this stack's one per-core point x the platform spread of fio io_uring's published "
                "plateaus, 0.706-1.238 of [RT23]'s 7,550 (one Ice Lake core at 3.4 GHz boost, 638 K IOPS, "
                "github.com/axboe/fio/issues/1206; a Threadripper PRO 3995WX job at 92.5 % of a 4.2 GHz boost core, "
                "415.6 K 16 KiB IOPS, github.com/ParAlg/PLAID); docs/physics.md §4.1")


def _spread(point: float) -> tuple[float, float]:
    return round(point * _SPREAD[0], -1), round(point * _SPREAD[1], -1)


#: The range of each stack's cycles per I/O that its published per-core points imply (low, high, source): the point
#: of :data:`STACK_CYCLES` lies inside. The CPU ceilings are worked out at the point; explanations, the JSON and the
#: planner say what the ceiling is over the range (``nvmemodel.ceiling.ranges``; docs/physics.md §4.1 lists every
#: point, and which held-out checks of §12.8 were seen before a range was set).
STACK_CYCLES_RANGE: dict[IoStack, tuple[float, float, str]] = {
    IoStack.IO_URING: (round(_IO_URING_LOW, -1), round(_IO_URING_HIGH, -1),
                       "measured points: fio io_uring on one Ice Lake core, 638 K IOPS at 100 % (github.com/axboe/fio/"
                       "issues/1206), 5,330 cycles at the 3.4 GHz boost; [RT23]'s Xeon 7,550 (counted); a Threadripper "
                       "PRO 3995WX fio job, 415.6 K 16 KiB IOPS at 92.5 % of a CPU (github.com/ParAlg/PLAID), 6,010 at "
                       "the 2.7 GHz base to 9,350 at the 4.2 GHz boost; docs/physics.md §4.1"),
    IoStack.LIBAIO: (*_spread(8200.0), _SPREAD_TEXT),
    IoStack.IO_URING_POLLED: (4300.0, _spread(7230.0)[1],
                              "low: fio with poll queues reached about 10 M IOPS on 10 CPUs of a Threadripper PRO "
                              "3955WX (up to 4.3 GHz), drive-bound, so at most 10 x 4.3 GHz / 10 M = 4,300 cycles "
                              "(T. Poder, 'Achieving 11M IOPS & 66 GiB/s IO on a Single ThreadRipper Workstation', "
                              "2021); high: " + _SPREAD_TEXT),
    IoStack.IO_URING_SQPOLL: (*_spread(8490.0), _SPREAD_TEXT),
    IoStack.PSYNC: (_spread(17300.0)[0], round(17300.0 * 3.3 / 2.2, -1),
                    "low: " + _SPREAD_TEXT + "; high: the 17,300 of 4 x Xeon E7-8880 v4 counted at its 3.3 GHz turbo "
                    "instead of the 2.2 GHz base (oberstet/scratchbox: the clock that ran is not stated)"),
    IoStack.SPDK: (269.0, round(4.0e9 / 10.32e6, -1),
                   "measured points of SPDK's perf tool, 4 KiB random reads on one core: 269 cycles (Xeon 8380 at "
                   "3.4 GHz, 12.62 M IOPS, SPDK 20.10, spdk.io/news/2021/05/06/nvme-80m-iops), 304 (Xeon 8480+ at "
                   "3.8 GHz, 12.51 M, SPDK 22.05, spdk.io/news/2023/02/01/nvme-120m-iops), 388 (Xeon 8280L at 4.0 GHz, "
                   "10.32 M, spdk.io/news/2019/05/06/nvme); docs/physics.md §4.1"),
    IoStack.WINDOWS_STORPORT: (*_spread(20500.0), "inferred: the estimate 20,500 (libaio's 8,200 x ION's Linux/Windows "
                                                  "ratio 3 / 1.2) x the platform spread of fio io_uring's plateaus, "
                                                  "0.706-1.238; docs/physics.md §4.1"),
}
assert set(STACK_CYCLES_RANGE) == set(STACK_CYCLES)
assert all(lo <= STACK_CYCLES[s][0] <= hi for s, (lo, hi, _) in STACK_CYCLES_RANGE.items())


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
    cycles_stack : str
        The I/O stack ``cycles_per_io`` was calibrated on ("" = it applies to every stack). A workload on
        another stack gets that stack's default: a calibration of one stack is never charged to another.
    stack_costs : tuple of (stack, cycles per I/O, source text)
        Costs per I/O measured on the user's machine, per I/O stack (``nvmemodel.hostcal``: ``--costs`` from fio
        runs, ``--profile`` from ``nvmemodel calibrate``). A stack listed here is charged its measured cycles before
        ``cycles_per_io`` or the stack's default; the source text says where each came from.
    platform : mapping of parameter name → value
        The platform's limits above the links (``tree.*``, ``memory.*``: root complexes, their DMA, a
        socket's memory, the inter-socket link) that a :class:`~nvmemodel.Topology` on this host uses
        unless its own ``extras`` set them. Catalog hosts (:func:`get_host`) fill them with sources.
    platform_sources : mapping of parameter name → ``"status: citation"``
    key : str
        The catalog key (``amd-epyc-7742``), or "" for a host built by hand.
    """

    name: str
    sockets: int = 2
    cores_per_socket: int = 32
    clock_hz: float = 2.5e9
    gen: Gen | int = Gen.GEN4  # a generation number is taken as its Gen
    lanes_per_socket: int = 128
    reserved_lanes_per_socket: int = 0
    port_lanes: int = 4
    cpu_utilization_max: float = 1.0
    cycles_per_io: float | None = None
    cycles_stack: str = ""
    stack_costs: tuple = ()
    notes: str = dataclasses.field(default="", compare=False)
    provenance: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)
    platform: Mapping[str, float] = dataclasses.field(default_factory=dict, compare=False, hash=False)
    platform_sources: Mapping[str, str] = dataclasses.field(default_factory=dict, compare=False, hash=False)
    key: str = dataclasses.field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "gen", Gen.parse(self.gen))
        check_fields(self, "host", FIELDS)
        from ..parameters import get

        for name, value in self.platform.items():
            if name.split(".", 1)[0] not in _PLATFORM_PREFIXES:
                raise ParameterError("host.platform", name, "a tree.* or memory.* parameter")
            get(name).check(value)
        if self.reserved_lanes_per_socket > self.lanes_per_socket:
            raise ParameterError("host.reserved_lanes_per_socket", self.reserved_lanes_per_socket,
                                 f"at most host.lanes_per_socket = {self.lanes_per_socket}")
        if self.stack_costs:
            if not isinstance(self.stack_costs, tuple):
                raise ParameterError("host.stack_costs", type(self.stack_costs).__name__,
                                     "a tuple of (stack, cycles per I/O, source) entries")
            for entry in self.stack_costs:
                if not (isinstance(entry, tuple) and len(entry) == 3 and isinstance(entry[2], str)):
                    raise ParameterError("host.stack_costs", entry, "(stack, cycles per I/O, source text)")
                IoStack.parse(entry[0])
                get("host.cycles_per_io").check(entry[1])

    def replace(self, **changes: Any) -> Host:
        return dataclasses.replace(self, **changes)

    @property
    def direct_drive_slots(self) -> int:
        """How many drives fit on the root ports at ``port_lanes`` each."""
        free = self.lanes_per_socket - self.reserved_lanes_per_socket
        return self.sockets * (free // self.port_lanes)

    def measured_cost(self, stack: IoStack | str) -> tuple[float, str] | None:
        """``(cycles per I/O, source text)`` measured on the user's machine for ``stack`` (:attr:`stack_costs`), or
        None."""
        name = IoStack.parse(stack).value
        for entry_stack, cycles, text in self.stack_costs:
            if entry_stack == name:
                return float(cycles), str(text)
        return None

    def pins_cycles(self, stack: IoStack) -> bool:
        """Whether this host's own ``cycles_per_io`` applies to ``stack`` (else the stack's default does)."""
        return self.cycles_per_io is not None and (not self.cycles_stack or IoStack.parse(self.cycles_stack) is stack)

    def cycles_for(self, stack: IoStack) -> float:
        """Cycles per I/O on ``stack``: the host's own value where it applies; for another stack of a host calibrated
        on one, that stack's default scaled by the calibration's ratio to its own stack's default (the platform's
        cost travels with it: QA round 5, G11 — a calibration compared with a generic figure of another stack made
        io_uring look 32 % cheaper than libaio where the measurements give 8 %); else the stack's default."""
        measured = self.measured_cost(stack) if self.stack_costs else None
        if measured is not None:
            return measured[0]
        if self.cycles_per_io is not None and self.pins_cycles(stack):
            return self.cycles_per_io
        if self.cycles_per_io is not None and self.cycles_stack:
            return STACK_CYCLES[stack][0] * self.cycles_per_io / STACK_CYCLES[IoStack.parse(self.cycles_stack)][0]
        return STACK_CYCLES[stack][0]

    def cycles_by_stack(self, codes: Any) -> Any:
        """``host.cycles_per_io`` for an array of ``workload.io_stack`` codes (a grid's axis), or None where the
        host's own value applies to every stack (the caller keeps it)."""
        if self.cycles_per_io is not None and not self.cycles_stack and not self.stack_costs:
            return None
        import numpy as np

        from ..parameters import PARAMETERS

        choices = PARAMETERS["workload.io_stack"].choices
        table = np.array([self.cycles_for(IoStack(s)) for s in choices])
        return table[np.asarray(codes, dtype=int)]

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
        stack = IoStack.parse(stack)
        measured = self.measured_cost(stack) if self.stack_costs else None
        if measured is not None:
            out["host.cycles_per_io"] = Source.parse(measured[1], "measured")
        elif not self.pins_cycles(stack) and self.cycles_per_io is None:
            out["host.cycles_per_io"] = Source.parse(STACK_CYCLES[stack][1], "estimate")
        elif not self.pins_cycles(stack):  # another stack of a host calibrated on one: scaled, an estimate
            base = STACK_CYCLES[IoStack.parse(self.cycles_stack)][0]
            out["host.cycles_per_io"] = Source(
                "estimate", f"{stack.value}'s default {STACK_CYCLES[stack][0]:,.0f} x this host's calibration on "
                f"{self.cycles_stack}, {self.cycles_per_io:,.0f} / {base:,.0f} (calibrated on {self.cycles_stack}) = "
                f"{self.cycles_for(stack):,.0f}; the default: {STACK_CYCLES[stack][1]}")
        return out

    def cpu_utilization_at(self, iops: Any, stack: IoStack | str = IoStack.LIBAIO, *,
                           block_size: float = 4096.0) -> Any:
        """Predicted fraction of all cores busy at ``iops`` of ``block_size``-byte I/Os (may exceed 1: not reachable).
        SPDK below 4 KiB costs less per I/O (:data:`SPDK_SMALL_IO`), as in the CPU ceiling."""
        stack = IoStack.parse(stack)
        cycles = self.cycles_for(stack)
        if stack is IoStack.SPDK:
            small, ratio, _ = SPDK_SMALL_IO
            cycles *= 1.0 - (1.0 - ratio) * min(max((4096.0 - block_size) / (4096.0 - small), 0.0), 1.0)
        return iops * cycles / (self.sockets * self.cores_per_socket * self.clock_hz)


# --- the host-platform catalog (catalog/hosts.csv: CPU models; catalog/host_platforms.csv: their platforms)

#: The platform parameters a catalog host sets, in table order.
PLATFORM_PARAMETERS = ("tree.complexes_per_socket", "tree.complex_bytes_per_s", "memory.peak_bytes_per_s",
                       "memory.dma_fraction", "tree.inter_socket_bytes_per_s", "tree.iommu_units_per_socket")


#: hosts.csv columns that hold a value (``recalled`` may name them: those values were not re-verified)
HOST_VALUE_COLUMNS = ("cores", "base_clock_GHz", "boost_clock_GHz", "sockets_max", "pcie_gen", "lanes_1p",
                      "lanes_per_socket_2p", "memory_channels", "memory_MT_per_s")


@functools.cache
def _platforms() -> dict[str, dict[str, str]]:
    from ._catalog import read_catalog

    return {row["key"]: row for row in read_catalog("host_platforms.csv")}


@functools.cache
def _host_rows() -> dict[str, dict[str, str]]:
    from ..errors import NvmeModelError
    from ._catalog import read_catalog

    rows = {row["key"]: row for row in read_catalog("hosts.csv")}
    for key, row in rows.items():
        if row["platform"] not in _platforms():
            raise NvmeModelError(f"hosts.csv: row {key!r}, column 'platform': expected a key of host_platforms.csv, "
                                 f"got {row['platform']!r}")
        unknown = [c for c in (row.get("recalled") or "").split() if c not in HOST_VALUE_COLUMNS]
        if unknown:
            raise NvmeModelError(f"hosts.csv: row {key!r}, column 'recalled': {unknown} are not value columns "
                                 f"(expected some of {', '.join(HOST_VALUE_COLUMNS)})")
    return rows


def host_keys() -> tuple[str, ...]:
    """Keys of the host-platform catalog (``catalog/hosts.csv``), in file order."""
    return tuple(_host_rows())


def platform_of(name: str) -> dict[str, str]:
    """The platform row (``catalog/host_platforms.csv``) of a catalog host, by host key or display name."""
    return dict(_platforms()[_host_rows()[_resolve(name)]["platform"]])


def _resolve(name: str) -> str:
    from ..errors import UnknownNameError

    needle = str(name).strip().lower()
    for key, row in _host_rows().items():
        if needle in (key, row["name"].lower()):
            return key
    raise UnknownNameError("host", name, list(_host_rows()))


def get_host(name: str, *, sockets: int | None = None, cores: int | None = None) -> Host:
    """A catalog host by key (``"amd-epyc-7742"``) or display name, with its platform limits and sources.

    ``sockets``: how many of the CPU the server holds (default 2 for a part that allows more than one,
    else 1). The lanes per socket follow (a 2P EPYC gives 64 of its 128 lanes to the inter-socket links).

    ``cores``: how many cores per socket the I/O path uses (default: all of them). Its clock is the base clock,
    except for ONE busy core, which runs at the part's maximum boost: the vendors define that figure as the
    single-core frequency (Intel ARK: "Max Turbo Frequency is the maximum single core frequency at which the
    processor is capable of operating using Intel Turbo Boost Technology"; AMD: "Max Boost Clock", the
    maximum frequency a single core reaches). How far several busy cores boost is not in the catalog, so
    they keep the base clock (docs/physics.md §4).

    >>> h = get_host("intel-xeon-platinum-8380", sockets=1, cores=1)
    >>> h.cores_per_socket, h.clock_hz / 1e9
    (1, 3.4)

    >>> h = get_host("amd-epyc-7742")
    >>> h.sockets, h.cores_per_socket, h.clock_hz / 1e9, h.lanes_per_socket
    (2, 64, 2.25, 64)
    >>> round(h.platform["memory.peak_bytes_per_s"] / 1e9, 1)   # 8 x DDR4-3200 x 8 B
    204.8
    """
    from ..units import GB

    key = _resolve(name)
    row, fn = _host_rows()[key], "hosts.csv"
    plat = _platforms()[row["platform"]]
    most = int(row["sockets_max"])
    n = (2 if most > 1 else 1) if sockets is None else int(sockets)
    if not 1 <= n <= most:
        raise ParameterError("sockets", sockets, f"1 to {most} for {row['name']}" if most > 1
                             else f"1: {row['name']} is a single-socket part")
    lanes_2p = _num(row, "lanes_per_socket_2p", fn)
    lanes = int(_num(row, "lanes_1p", fn)) if n == 1 or math.isnan(lanes_2p) else int(lanes_2p)
    recalled = set((row.get("recalled") or "").split())
    every = int(row["cores"])
    busy = every if cores is None else int(cores)
    if cores is not None and not 1 <= busy <= every:
        raise ParameterError("cores", cores, f"1 to {every} (the cores of one {row['name']})")

    def cite(*columns: str) -> str:  # a value's status: `recalled` where the row lists its column there
        return f"{'recalled' if recalled & set(columns) else row['status']}: {row['source']}"

    channels, rate = _num(row, "memory_channels", fn), _num(row, "memory_MT_per_s", fn)
    links, per_link = _num(plat, "inter_socket_links", "host_platforms.csv"), \
        _num(plat, "inter_socket_GB_per_s_per_link", "host_platforms.csv")
    platform = {"tree.complexes_per_socket": _num(plat, "complexes_per_socket", "host_platforms.csv"),
                "tree.complex_bytes_per_s": _num(plat, "complex_GB_per_s", "host_platforms.csv") * GB,
                "memory.peak_bytes_per_s": channels * rate * 1e6 * 8.0,
                "memory.dma_fraction": _num(plat, "dma_fraction", "host_platforms.csv")}
    sources = {"tree.complexes_per_socket": f"{plat['complex_status']}: {plat['name']}: "
                                            f"{plat['complex_source']}",
               "tree.complex_bytes_per_s": f"{plat['complex_status']}: {plat['complex_source']}",
               "memory.peak_bytes_per_s": f"{cite('memory_channels', 'memory_MT_per_s').split(':')[0]}: "
                                          f"{channels:g} channels x {rate:g} MT/s x 8 B ({row['source']})",
               "memory.dma_fraction": f"{plat['dma_status']}: {plat['dma_source']}"}
    units = _num(plat, "iommu_units_per_socket", "host_platforms.csv")
    if not math.isnan(units):  # where a source lists them (docs/physics.md §12.11); else the IOMMU is one per socket
        platform["tree.iommu_units_per_socket"] = units
        sources["tree.iommu_units_per_socket"] = f"{plat['iommu_status']}: {plat['iommu_source']}"
    if n > 1:
        platform["tree.inter_socket_bytes_per_s"] = links * per_link * GB
        sources["tree.inter_socket_bytes_per_s"] = (f"{plat['inter_socket_status']}: {links:g} links x "
                                                   f"{per_link:g} GB/s per direction; {plat['inter_socket_source']}")
    spec = {"cores_per_socket": cite("cores"), "gen": cite("pcie_gen"),
            "lanes_per_socket": cite("lanes_1p" if n == 1 or math.isnan(lanes_2p) else "lanes_per_socket_2p")}
    if busy == 1:  # one busy core: the vendor's maximum boost is defined as the single-core frequency
        spec["clock_hz"] = (f"{cite('boost_clock_GHz').split(':')[0]}: maximum boost, one busy core (the vendor's "
                            f"single-core frequency; base {row['base_clock_GHz']} GHz); {row['source']}")
    else:
        spec["clock_hz"] = (f"{cite('base_clock_GHz').split(':')[0]}: base clock (boost {row['boost_clock_GHz']} GHz"
                            f"{' for one busy core' if busy < every else ''}); {row['source']}")
    if cores is not None:
        spec["cores_per_socket"] = f"user: {busy} of the {every} cores per socket busy; {spec['cores_per_socket']}"
    spec["sockets"] = (f"assumption: {n} socket(s) of {row['name']} (the part allows up to {most})" if sockets is None
                       else f"user: {n} socket(s)")
    clock = float(row["boost_clock_GHz"] if busy == 1 else row["base_clock_GHz"]) * 1e9
    label = row["name"] if n == 1 else f"{n} x {row['name']}"
    return Host(name=label if busy == every else f"{label} ({busy} core{'s' if busy > 1 else ''} busy)", sockets=n,
                cores_per_socket=busy, clock_hz=clock,
                gen=int(row["pcie_gen"]), lanes_per_socket=lanes, notes=f"catalog host {key} ({plat['name']})",
                provenance=spec, platform=platform, platform_sources=sources, key=key)


def _num(row, column, filename) -> float:
    from ._catalog import number

    return number(row, column, filename=filename)


def host_catalog() -> pd.DataFrame:
    """The host-platform catalog as a table: one row per CPU model, spec values and the derived limits.

    Columns: ``key``, ``name``, ``platform``, ``cores``, ``base_clock_hz``, ``boost_clock_hz``,
    ``sockets_max``, ``gen``, ``lanes_1p``, ``lanes_per_socket_2p``, ``complexes_per_socket``,
    ``complex_bytes_per_s``, ``memory_peak_bytes_per_s`` (one socket), ``dma_fraction``,
    ``socket_dma_bytes_per_s`` (their product), ``inter_socket_bytes_per_s`` (2P, one direction),
    ``cpu_iops_libaio`` (all cores of the default socket count at the base clock, :data:`STACK_CYCLES`),
    and a ``status`` per derived value (``spec_status``: the row's, ``+recalled`` where some of its values were not
    re-verified; ``complex_status``, ``dma_status``,
    ``inter_socket_status``). SI units.
    """
    import pandas as pd

    rows = []
    for key in host_keys():
        row, plat, h = _host_rows()[key], _platforms()[_host_rows()[key]["platform"]], get_host(key)
        p = h.platform
        rows.append({
            "key": key, "name": row["name"], "platform": row["platform"], "cores": h.cores_per_socket,
            "base_clock_hz": h.clock_hz, "boost_clock_hz": float(row["boost_clock_GHz"]) * 1e9,
            "sockets_max": int(row["sockets_max"]), "gen": int(h.gen), "lanes_1p": int(row["lanes_1p"]),
            "lanes_per_socket_2p": _num(row, "lanes_per_socket_2p", "hosts.csv"),
            "complexes_per_socket": int(p["tree.complexes_per_socket"]),
            "complex_bytes_per_s": p["tree.complex_bytes_per_s"],
            "memory_peak_bytes_per_s": p["memory.peak_bytes_per_s"], "dma_fraction": p["memory.dma_fraction"],
            "socket_dma_bytes_per_s": p["memory.peak_bytes_per_s"] * p["memory.dma_fraction"],
            "inter_socket_bytes_per_s": p.get("tree.inter_socket_bytes_per_s", math.nan),
            "cpu_iops_libaio": h.sockets * h.cores_per_socket * h.clock_hz / STACK_CYCLES[IoStack.LIBAIO][0],
            "spec_status": row["status"] + ("+recalled" if row.get("recalled") else ""), "complex_status": plat["complex_status"],
            "dma_status": plat["dma_status"], "inter_socket_status": plat["inter_socket_status"],
        })
    return pd.DataFrame(rows)


def with_host(topology: Topology, host: Host | str, *, sockets: int | None = None) -> Topology:
    """``topology`` on another host: the host's CPU, lanes and platform limits replace the old host's.

    The topology's own ``tree.*``/``memory.*`` settings described the old host and are dropped (the new
    host's platform values apply); its other layers (RAID, file sharing, fabric) are kept, and so are the
    old host's root-port width, CPU share and cycles override. Where the old host reserves lanes (a
    chassis with a fixed number of drive bays, lanes for NICs and boot devices), the new host keeps the
    same lanes for drives as far as its own lanes reach (:func:`keep_drive_lanes`); else all its lanes are
    free for drives. Drive counts beyond the new host's slots are dropped from ``default_drives``.
    ``host``: a :class:`Host` or a catalog name (:func:`get_host`).

    >>> import nvmemodel as nm
    >>> t = with_host(nm.preset("dell-r7525"), "intel-xeon-platinum-8380")   # the R7525's 24 bays stay 24
    >>> t.host.name, t.max_drives, t.host.reserved_lanes_per_socket, t.default_drives
    ('2 x Intel Xeon Platinum 8380', 24, 16, (1, 2, 4, 8, 12, 24))
    """
    new = get_host(host, sockets=sockets) if isinstance(host, str) else host
    keep = {k: v for k, v in topology.extras.items() if k.split(".", 1)[0] not in _PLATFORM_PREFIXES}
    keep_src = {k: v for k, v in topology.extras_sources.items() if k in keep}
    old = topology.host
    # the fields kept from the old host keep their own status and source (the catalog has no cycles per I/O:
    # a calibration or a stack's measured cost is not a spec value of the new CPU)
    was = old.sources(IoStack.LIBAIO)
    # a calibration of cycles per I/O describes the CPU it was made on: kept for that CPU (or a host built by hand),
    # not carried to another one, which takes the stacks' defaults (QA round 5, G16)
    carry = old.cycles_per_io is not None and (not old.key or old.key == new.key)
    kept = {f: f"{was[f'host.{f}'].status}: {was[f'host.{f}'].text} (kept from {topology.name})"
            for f in ("port_lanes", "cpu_utilization_max", "cycles_per_io") if carry or f != "cycles_per_io"}
    new = keep_drive_lanes(old, new.replace(port_lanes=old.port_lanes, cpu_utilization_max=old.cpu_utilization_max,
                                            cycles_per_io=old.cycles_per_io if carry else None,
                                            cycles_stack=old.cycles_stack if carry else "",
                                            stack_costs=old.stack_costs,  # the user's measured costs: theirs to apply
                                            provenance={**new.provenance, **kept}),
                           what=topology.name)
    changes: dict[str, Any] = {"host": new, "extras": keep, "extras_sources": keep_src}
    defaults = getattr(topology, "default_drives", None)
    if defaults is not None:
        cap = topology.replace(**changes, default_drives=None).max_drives
        changes["default_drives"] = tuple(n for n in defaults if n <= cap) or None
    return topology.replace(**changes)


def keep_drive_lanes(old: Host, new: Host, *, what: str = "") -> Host:
    """``new`` with the drive lanes of ``old``: a chassis keeps its bays when its CPU or socket count changes.

    ``old``'s lanes for drives are ``old.sockets × (lanes_per_socket − reserved_lanes_per_socket)``. Where
    ``old`` reserves none, its lanes were the limit and ``new`` is returned as it is. Else ``new`` reserves
    what it has beyond the same total spread over its sockets (never more lanes than it has), with a
    provenance that says so.

    >>> old = Host("r7525", sockets=2, lanes_per_socket=80, reserved_lanes_per_socket=32)   # 96 lanes: 24 bays at x4
    >>> keep_drive_lanes(old, old.replace(sockets=1, lanes_per_socket=128)).reserved_lanes_per_socket
    32
    """
    if old.reserved_lanes_per_socket <= 0:
        return new
    total = old.sockets * (old.lanes_per_socket - old.reserved_lanes_per_socket)
    per = min(new.lanes_per_socket, -(-total // new.sockets))
    why = old.provenance.get("reserved_lanes_per_socket", "")
    return new.replace(reserved_lanes_per_socket=new.lanes_per_socket - per, provenance={
        **new.provenance, "reserved_lanes_per_socket": f"assumption: the chassis's drive lanes, kept from "
                                                       f"{what or old.name}: {total} lanes for drives "
                                                       f"({old.sockets} x ({old.lanes_per_socket} - "
                                                       f"{old.reserved_lanes_per_socket}); {why or 'its reserve'}) "
                                                       f"over {new.sockets} socket(s) of {new.lanes_per_socket} lanes"})


def with_sockets(host: Host, sockets: int) -> Host:
    """``host`` with another socket count: a catalog CPU's lanes per socket follow (a 2P EPYC gives 64 of its
    128 lanes to the inter-socket links; one socket has them all), and its drive lanes are kept
    (:func:`keep_drive_lanes`). A host built by hand keeps its lanes per socket.

    >>> import nvmemodel as nm
    >>> h = with_sockets(nm.preset("dell-r7525").host, 1)
    >>> h.lanes_per_socket, h.reserved_lanes_per_socket, h.direct_drive_slots
    (128, 32, 24)
    """
    sockets = int(sockets)
    if sockets == host.sockets:
        return host
    lanes, prov = host.lanes_per_socket, dict(host.provenance)
    if host.key:
        try:
            cat = get_host(host.key, sockets=sockets)
        except ParameterError:
            cat = None  # more sockets than the part allows: the model's own check reports it
        if cat is not None:
            lanes = cat.lanes_per_socket
            prov["lanes_per_socket"] = cat.provenance["lanes_per_socket"]
    prov["sockets"] = f"user: {sockets} socket(s)"
    name = host.name.replace(f"{host.sockets} x ", f"{sockets} x ", 1)  # "2 x AMD EPYC 7742" → "1 x …"
    return keep_drive_lanes(host, host.replace(sockets=sockets, lanes_per_socket=lanes, provenance=prov, name=name))


def host_from_text(text: str) -> Host:
    """A catalog host from command-line text: ``NAME`` or ``NAME:SOCKETS`` (``amd-epyc-7742:1``).

    >>> host_from_text("intel-xeon-platinum-8380:1").sockets
    1
    """
    name, colon, count = str(text).strip().partition(":")
    if (colon and not count.strip().isdigit()) or not name.strip():  # 'NAME:' is a typo, not NAME
        raise ParameterError("--host", text, "NAME or NAME:SOCKETS with SOCKETS a whole number (e.g. amd-epyc-7742:1)")
    return get_host(name, sockets=int(count) if count else None)
