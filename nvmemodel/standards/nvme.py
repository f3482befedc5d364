"""NVMe facts: queue-entry sizes, doorbells, PRP/SGL, Linux driver defaults (docs/physics.md §3)."""

from __future__ import annotations

__all__ = [
    "SQE_BYTES", "CQE_BYTES", "DOORBELL_BYTES", "PRP_ENTRY_BYTES", "SGL_DESCRIPTOR_BYTES",
    "MSIX_DATA_BYTES", "MSIX_HDR_BYTES", "HOST_PAGE_BYTES", "LINUX_SGL_THRESHOLD_BYTES",
    "LINUX_IO_QUEUE_DEPTH",
]

#: Submission-queue entry, bytes (NVMe Base spec §4.2).
SQE_BYTES = 64
#: Completion-queue entry, bytes (NVMe Base spec §4.6).
CQE_BYTES = 16
#: SQ tail / CQ head doorbells are 32-bit MMIO registers (NVMe spec via Microsoft ``nvme.h`` docs).
DOORBELL_BYTES = 4
#: PRP entry, bytes; PRP1 covers the first page, PRP2 the second, more pages need a PRP list.
PRP_ENTRY_BYTES = 8
#: SGL descriptor, bytes (NVMe Base spec).
SGL_DESCRIPTOR_BYTES = 16
#: MSI-X message: a 4-byte MWr to 0xFEEx_xxxx on x86, below 4 GB, hence a 3 DW header
#: (pcie-model ``MSI_SIZE = 4``; x86 MSI address format).
MSIX_DATA_BYTES = 4
MSIX_HDR_BYTES = 12
#: Memory page assumed for PRP entries (the x86 and Linux default, CC.MPS = 0 → 4 KiB).
HOST_PAGE_BYTES = 4096
#: Linux uses SGLs only for average segments >= 32 KiB (``drivers/nvme/host/pci.c`` ``sgl_threshold``).
LINUX_SGL_THRESHOLD_BYTES = 32 * 1024
#: Linux ``io_queue_depth`` module-parameter default (``drivers/nvme/host/pci.c``).
LINUX_IO_QUEUE_DEPTH = 1024
