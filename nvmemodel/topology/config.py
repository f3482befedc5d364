"""Link-level and driver-level settings: PCIe (MPS, MRRS, RCB, DLLP policy) and NVMe queueing."""

from __future__ import annotations

import dataclasses

from ..standards import nvme
from ..standards.pcie import DllpPolicy, FlitConvention
from ._fields import check_fields, export

__all__ = ["NvmeConfig", "PcieConfig"]

PCIE_FIELDS = ("mps", "mrrs", "rcb", "rcb_chunks", "addr64", "ecrc", "dllp", "skp", "flit")
NVME_FIELDS = ("sq_doorbells_per_io", "cq_doorbells_per_io", "sqes_per_fetch", "cqes_per_write", "msix_per_io",
               "sgl", "sgl_threshold_bytes", "bar_above_4g")


@dataclasses.dataclass(frozen=True)
class PcieConfig:
    """PCIe transaction-layer settings shared by every link of a topology.

    Parameters
    ----------
    mps : int
        Max Payload Size, bytes (128..4096). Default 256: with it the Dell R7525's
        ceiling is 0.26 % below the measurement (docs/physics.md §7.1).
    mrrs : int
        Max Read Request Size, bytes (128..4096).
    rcb : int
        Read Completion Boundary, bytes (64, 128, 256, 512).
    rcb_chunks : bool
        True if the root complex returns read completions in RCB-sized pieces
        (seen on older chipsets); False for MPS-sized completions (best case).
    addr64 : bool
        DMA to host memory above 4 GB (4 DW headers) — the usual case.
    ecrc : bool
        Append a 4-byte ECRC digest to every TLP.
    dllp : DllpPolicy
        How Ack/UpdateFC DLLPs are charged (default: width-scaled, on the reverse direction).
    skp : bool
        Charge SKP ordered sets (≈0.27 % at Gen3-5, an assumption from the spec text).
    flit : FlitConvention
        TLP share of a Gen6/7 FLIT.
    """

    mps: int = 256
    mrrs: int = 512
    rcb: int = 64
    rcb_chunks: bool = False
    addr64: bool = True
    ecrc: bool = False
    dllp: DllpPolicy = DllpPolicy.WIDTH_SCALED
    skp: bool = True
    flit: FlitConvention = FlitConvention.TLP_BYTES
    provenance: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dllp", DllpPolicy(self.dllp))
        object.__setattr__(self, "flit", FlitConvention(self.flit))
        check_fields(self, "pcie", PCIE_FIELDS)

    def parameters(self) -> dict:
        """``pcie.*`` entries of the parameter vector (DLLP policy and FLIT convention by name)."""
        return export(self, "pcie", PCIE_FIELDS)


@dataclasses.dataclass(frozen=True)
class NvmeConfig:
    """How the host driver talks to the controller, as average counts per I/O.

    Defaults are the unbatched worst case of docs/physics.md §3: one SQ and one CQ
    doorbell, one SQE fetch, one CQE write and one MSI-X per I/O. Batching and
    coalescing are fractions below 1; a polled stack has ``msix_per_io = 0``.
    """

    sq_doorbells_per_io: float = 1.0
    cq_doorbells_per_io: float = 1.0
    sqes_per_fetch: float = 1.0
    cqes_per_write: float = 1.0
    msix_per_io: float = 1.0
    sgl: bool = False
    sgl_threshold_bytes: float = nvme.LINUX_SGL_THRESHOLD_BYTES
    bar_above_4g: bool = True
    provenance: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        check_fields(self, "nvme", NVME_FIELDS)

    def parameters(self) -> dict[str, float]:
        """``nvme.*`` entries of the parameter vector."""
        return export(self, "nvme", NVME_FIELDS)
