"""Cited, immutable facts: PCIe (:mod:`.pcie`), NVMe (:mod:`.nvme`), networks (:mod:`.ethernet`)."""

from . import ethernet, nvme, pcie

__all__ = ["ethernet", "nvme", "pcie"]
