"""Topology discovery: a machine's PCIe tree → an nvmemodel topology and the flags a planner must know.

Read the tree from saved ``lspci -vvv`` / ``lspci -tv`` text (:func:`read_lspci`, :func:`parse_lspci`,
:func:`parse_lspci_tree`) or, on the machine itself, from sysfs (:func:`read_sysfs`); keep it whole
(:class:`PciTree` of :class:`PciDevice`); reduce it to the closest single-level
:class:`~nvmemodel.Topology` with :func:`build_topology`, which returns a :class:`Discovery` holding the
tree, the topology and the :class:`Flag` list (drive trained below its capability, a slot that limits
the drive, an oversubscribed switch uplink, drives on several NUMA nodes, MaxPayload 128, and every
simplification the single-level model makes).

>>> from nvmemodel.discover import parse_lspci_tree
>>> t = parse_lspci_tree("-[0000:00]-+-00.0  Host\\n           \\\\-01.0-[01]----00.0  NVMe drive\\n")
>>> [(d.bdf, d.parent) for d in t]
[('0000:00:00.0', None), ('0000:00:01.0', None), ('0000:01:00.0', '0000:00:01.0')]
"""

from __future__ import annotations

import os
from typing import Any

from .build import Discovery, DriveMatch, Flag, GpuFound, build_topology, identify_drive, match_drive
from .lspci import LspciError, parse_lspci, parse_lspci_tree, read_lspci
from .sysfs import nvme_namespaces, read_host, read_sysfs
from .tree import PciDevice, PciTree

__all__ = ["Discovery", "DriveMatch", "Flag", "GpuFound", "LspciError", "PciDevice", "PciTree", "build_topology", "discover", "identify_drive", "match_drive",
           "nvme_namespaces", "parse_lspci", "parse_lspci_tree", "read_host", "read_lspci", "read_sysfs"]


def discover(lspci: str | os.PathLike | None = None, *, lspci_tree: str | os.PathLike | None = None,
             sysfs_root: str | os.PathLike = "/", host: Any = None, drive: Any = None) -> Discovery:
    """Discover a machine: from a saved ``lspci -vvv`` file (and optionally its ``-tv`` file), else from
    the sysfs of the machine this runs on, whose CPU (sockets, cores, clock) is read too
    (:func:`read_host`). See :func:`build_topology` for ``host`` and ``drive`` (a catalog drive key where
    the tree does not tell the model)."""
    if lspci is not None:
        return build_topology(read_lspci(lspci, lspci_tree), host=host, drive=drive)
    return build_topology(read_sysfs(sysfs_root), host=host if host is not None else read_host(sysfs_root),
                          drive=drive)
