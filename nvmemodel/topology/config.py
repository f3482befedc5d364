"""Link-level and driver-level settings: PCIe (MPS, MRRS, RCB, DLLP policy) and NVMe queueing."""

from __future__ import annotations

import dataclasses

from .. import _check
from ..standards import nvme, pcie
from ..standards.pcie import DllpPolicy, FlitConvention

__all__ = ["PcieConfig", "NvmeConfig"]

_DLLP_CODE = {DllpPolicy.NONE: 0, DllpPolicy.WIDTH_SCALED: 1, DllpPolicy.PCIE_MODEL: 2}


@dataclasses.dataclass(frozen=True)
class PcieConfig:
    """PCIe transaction-layer settings shared by every link of a topology.

    Parameters
    ----------
    mps : int
        Max Payload Size, bytes (128..4096). Default 256: the Dell R7525 check
        reproduces the measurement to 0.3 % with it (docs/physics.md §7.1).
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

    def __post_init__(self) -> None:
        _check.choice("mps", self.mps, pcie.MPS_CHOICES)
        _check.choice("mrrs", self.mrrs, pcie.MRRS_CHOICES)
        _check.choice("rcb", self.rcb, pcie.RCB_CHOICES)
        object.__setattr__(self, "dllp", DllpPolicy(self.dllp))
        object.__setattr__(self, "flit", FlitConvention(self.flit))

    def parameters(self) -> dict[str, float]:
        return {
            "pcie.mps": float(self.mps), "pcie.mrrs": float(self.mrrs), "pcie.rcb": float(self.rcb),
            "pcie.rcb_chunks": float(self.rcb_chunks), "pcie.addr64": float(self.addr64),
            "pcie.ecrc": float(self.ecrc), "pcie.dllp": float(_DLLP_CODE[self.dllp]),
            "pcie.skp": float(self.skp), "pcie.flit_tlp_fraction": pcie.FLIT_TLP_FRACTION[self.flit],
        }


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

    def __post_init__(self) -> None:
        for name in ("sq_doorbells_per_io", "cq_doorbells_per_io", "msix_per_io"):
            _check.number(name, getattr(self, name), lo=0.0)
        _check.number("sqes_per_fetch", self.sqes_per_fetch, lo=1.0)
        _check.number("cqes_per_write", self.cqes_per_write, lo=1.0)
        _check.positive("sgl_threshold_bytes", self.sgl_threshold_bytes)

    def parameters(self) -> dict[str, float]:
        return {
            "nvme.sq_doorbells_per_io": float(self.sq_doorbells_per_io),
            "nvme.cq_doorbells_per_io": float(self.cq_doorbells_per_io),
            "nvme.sqes_per_fetch": float(self.sqes_per_fetch),
            "nvme.cqes_per_write": float(self.cqes_per_write),
            "nvme.msix_per_io": float(self.msix_per_io),
            "nvme.sgl": float(self.sgl),
            "nvme.sgl_threshold_bytes": float(self.sgl_threshold_bytes),
            "nvme.bar_above_4g": float(self.bar_above_4g),
        }
