"""The IOMMU's mode as a host parameter (docs/physics.md §12.11): passthrough, lazy or strict DMA-unmap invalidation.

Published tests of one NVMe host in each mode (``nvmemodel/catalog/iommu.csv``, :func:`published`):

* NVIDIA Grace, SMMUv3, 2 sockets x 4 PM1743-class SSDs behind one root port each, 4 KiB random reads: passthrough
  16.5 M, lazy 16.4 M, strict 2.8 M IOPS (github.com/NVIDIA/NV-Kernels pull 182, 2025);
* one Intel Optane drive (the CPU, and so the IOMMU, not named: x86 likely, not stated), fio's t/io_uring with
  per-I/O DMA mapping: passthrough 5.01 M, lazy 1.93 M, strict 570 K IOPS (A. Gupta, linux-nvme, 24 Nov 2025).

An IOMMU unit serialises its invalidations: Linux queues each one and waits for it under the unit's own lock (Intel
VT-d: ``qi_submit_sync`` under ``qi->q_lock`` of the DMAR unit, drivers/iommu/intel/dmar.c; AMD-Vi:
``iommu_completion_wait`` under ``iommu->lock`` of the ``amd_iommu``, drivers/iommu/amd/iommu.c; SMMUv3: one command
queue per SMMU), so the strict-mode rate is a rate **per unit**. Both published tests ran one unit per socket (Grace:
"All 4 SSDs in a socket connected to the same PCIe root port"; the Optane test: one device), so their figures are per
unit as they stand. Where the catalog knows a platform's units per socket (``tree.iommu_units_per_socket``,
``catalog/host_platforms.csv``: AMD EPYC 7002/7003, one per root complex) and they are as many as its root complexes,
the cap applies per root complex, each complex's drives sharing their unit; where they are known but differ from the
complexes, per socket at ``units ×`` the rate (the drives spread over them: an upper bound); where they are not known
(the default, and every other platform: no public listing found), per socket, as one unit — the parameters keep their
``_per_socket`` names for that case.

The component ``iommu`` caps each socket's (or unit's) drives: in strict mode at ``iommu.strict_iops_per_socket`` (Grace's 2.8 M
over its 2 sockets = 1.4 M by default; the Optane test's one socket reached 570 K: the published range is
:data:`STRICT_IOPS_PER_SOCKET_RANGE`, 0.57–1.4 M, the default its high end, not tuned to either), in lazy mode at
``iommu.lazy_iops_per_socket`` (not charged by default: lazy was within 0.6 % of passthrough on Grace's many cores; the
Optane test's few-core run reached 1.93 M, 0.39 of passthrough — set it where few cores drive many I/Os). Passthrough
charges nothing; ``none`` (the default) does not model the IOMMU. A stack that maps its buffers once — SPDK registers
its hugepage memory with VFIO when it is allocated, 2 MiB at a time (spdk ``lib/env_dpdk/vtophys.c``
``vtophys_iommu_map_dma``) — makes no map or unmap per I/O, so no mode is charged on it.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..parameters import PARAMETERS, Parameter
from .components import Component, Limit, everywhere, register

__all__ = ["IOMMU", "MODES", "STRICT_IOPS_PER_SOCKET_RANGE", "iommu_range_lines", "per_unit", "published"]

#: ``iommu.mode`` choices, in code order.
MODES = ("none", "passthrough", "lazy", "strict")
_LAZY, _STRICT = MODES.index("lazy"), MODES.index("strict")
_SPDK = PARAMETERS["workload.io_stack"].choices.index("spdk")
_GRACE = ("measured: NVIDIA Grace (2 sockets, SMMUv3), 4 SSDs per socket behind one root port, 4 KiB random reads: "
          "'passthrough 16.5', 'lazy invalidations 16.4', 'strict invalidations 2.8' M IOPS (github.com/NVIDIA/"
          "NV-Kernels pull 182, 2025-08, from NVIDIA bug 5432475): 2.8 M / 2 sockets = 1.4 M per socket, one IOMMU unit "
          "each ('All 4 SSDs in a socket connected to the same PCIe root port'); the other "
          "published test, one Intel Optane drive on one socket (A. Gupta, linux-nvme, 2025-11-24), reached 570 K in "
          "strict mode: 0.57-1.4 M per socket, each test one unit (docs/physics.md §12.11)")
_LAZY_SOURCE = ("default: not charged (NVIDIA Grace: 'lazy invalidations 16.4' against 'passthrough 16.5' M IOPS, "
                "github.com/NVIDIA/NV-Kernels pull 182); where few cores drive the I/O lazy mode costs CPU per I/O: one "
                "Intel Optane drive with fio's t/io_uring, 'LAZY: before = 1.93 MIOPS' against 'PASSTHROUGH: before = "
                "5.01 MIOPS' (A. Gupta, linux-nvme, 2025-11-24)")

#: ``(low, high, source)`` of the published strict-mode rate of one socket's drives (I/Os per second): one Intel Optane
#: drive on one socket, 570 K (A. Gupta, linux-nvme, 2025-11-24; few cores, CPU and thread count not stated); NVIDIA
#: Grace, 2.8 M over 2 sockets = 1.4 M (NV-Kernels pull 182). The default is the high end.
STRICT_IOPS_PER_SOCKET_RANGE = (0.57e6, 1.4e6, "strict IOMMU: 570 K (one Intel Optane drive, t/io_uring, A. Gupta, "
                                "linux-nvme 2025-11-24) to 1.4 M per socket (NVIDIA Grace, 4 SSDs a socket, NV-Kernels "
                                "pull 182)")


@functools.cache
def published() -> tuple[dict, ...]:
    """The published tests of one host in each IOMMU mode (``nvmemodel/catalog/iommu.csv``): one dict per row, ``iops``
    a float, every row with its ``source`` and the ``quote`` its number is read from."""
    import csv
    from importlib import resources

    text = resources.files("nvmemodel").joinpath("catalog/iommu.csv").read_text(encoding="utf-8")
    return tuple({**row, "iops": float(row["iops"])} for row in csv.DictReader(text.splitlines()))


def iommu_range_lines(curve, drives: int | None = None) -> list[str]:
    """The sentence of strict mode's published range, where it changes the answer: the curve evaluated again with
    ``iommu.strict_iops_per_socket`` at each end of :data:`STRICT_IOPS_PER_SOCKET_RANGE` (the same kernel,
    :func:`~nvmemodel.ceiling.system.levels_of` + :func:`~nvmemodel.ceiling.compose.compose`), at ``drives`` or, along
    the curve, at its last drive count. [] unless the mode is strict on a stack that maps per I/O, the rate is the
    default (not one's own), and the range moves the ceiling; a topology of groups is not ranged."""
    if hasattr(curve.topology, "groups"):
        return []
    p = curve.parameters
    if p.get("iommu.mode", "none") not in ("strict", float(_STRICT)) or p.get("workload.io_stack") in ("spdk", _SPDK):
        return []
    low, high, _ = STRICT_IOPS_PER_SOCKET_RANGE
    charged = float(p.get("iommu.strict_iops_per_socket", high))
    if charged != PARAMETERS["iommu.strict_iops_per_socket"].default:
        return []  # a rate of one's own has no published range
    from .compose import compose
    from .ranges import iops_span
    from .system import levels_of

    n = int(drives) if drives is not None else int(np.max(curve.drives))
    ends = []
    for value in (low, high):
        lv = levels_of({**p, "iommu.strict_iops_per_socket": value})
        ends.append(float(np.asarray(compose((lv,), np.asarray([float(n)]), groups=False)["iops"], dtype=float).ravel()[0]))
    if ends[1] <= ends[0] * 1.0005:
        return []
    head = "  " if drives is None else ""
    where = "per IOMMU unit (one per root complex)" if per_unit(p) else "per socket"
    return [f"{head}The IOMMU's strict-mode rate is a published range ({iops_span(low, high)} {where}, "
            f"{iops_span(charged, charged).split('–')[-1]} charged; docs/physics.md §12.11): at {n} "
            f"drive{'s' if n != 1 else ''} the ceiling lies in {iops_span(*ends)}."]


def _iommu(p) -> Limit:
    if "iommu.mode" not in p:
        return Limit()
    mode = np.asarray(p["iommu.mode"])
    strict, lazy = mode == _STRICT, mode == _LAZY
    lazy_cap = p.get("iommu.lazy_iops_per_socket", np.inf)
    lazy = lazy & np.isfinite(lazy_cap)
    if not (np.any(strict) or np.any(lazy)):
        return Limit()
    if "workload.io_stack" in p:  # buffers mapped once (SPDK/VFIO): no unmap, no invalidation per I/O
        mapped_once = np.asarray(p["workload.io_stack"]) == _SPDK
        strict, lazy = strict & ~mapped_once, lazy & ~mapped_once
        if not (np.any(strict) or np.any(lazy)):
            return Limit()
    if everywhere(p["iommu.mode"], float(_STRICT)) and bool(np.all(strict)):
        cap = p["iommu.strict_iops_per_socket"]
    else:
        cap = np.where(strict, p["iommu.strict_iops_per_socket"], np.where(lazy, lazy_cap, np.inf))
    units = p.get("tree.iommu_units_per_socket", np.nan)
    if bool(np.all(np.isnan(np.asarray(units, dtype=float)))):
        return Limit(socket=cap)  # units not known: one per socket
    units = np.asarray(units, dtype=float)
    per_complex = units == np.asarray(p["tree.complexes_per_socket"], dtype=float)  # one unit per root complex
    if np.all(per_complex):
        return Limit(complex=cap)
    return Limit(complex=np.where(per_complex, cap, np.inf),
                 socket=np.where(per_complex, np.inf, np.where(np.isnan(units), cap, cap * units)))


def per_unit(parameters) -> bool:
    """True where one configuration's (public) parameters charge the IOMMU per root complex: its units per socket are
    known and as many as its root complexes (the label and the explanations say "per IOMMU unit")."""
    units = float(parameters.get("tree.iommu_units_per_socket", math.nan))
    return not math.isnan(units) and units == float(parameters.get("tree.complexes_per_socket", 1.0))


def _label(params) -> str | None:
    """The component's name for one configuration: lazy mode's, or strict mode's per IOMMU unit; None (the registered
    label) otherwise."""
    where = "per IOMMU unit: one per root complex" if per_unit(params) else "per socket"
    mode = params.get("iommu.mode")
    if mode in ("lazy", float(_LAZY)):
        return f"the IOMMU in lazy mode: each I/O's DMA map and unmap ({where})"
    if mode in ("strict", float(_STRICT)) and where != "per socket":
        return f"the IOMMU's strict-mode invalidations ({where})"
    return None


IOMMU = register(Component(
    "iommu", "the IOMMU's strict-mode invalidations (per socket)", 53, _iommu,
    parameters=("iommu.mode", "iommu.strict_iops_per_socket", "iommu.lazy_iops_per_socket",
                "tree.iommu_units_per_socket"),
    summary="the IOMMU in strict mode: an IOTLB invalidation per DMA unmap caps each socket's I/O rate",
    color="#999999",
    label_of=_label,
    declares=(
        Parameter("iommu.mode", "", "categorical", "the IOMMU's DMA mode: none (not modelled), passthrough (iommu=pt), "
                  "lazy (deferred invalidation, iommu.strict=0) or strict (an invalidation per unmap, iommu.strict=1)",
                  choices=MODES, default="none", source="default: not modelled (the IOMMU charged nothing)",
                  aliases={"pt": "passthrough", "off": "none", "deferred": "lazy"}),
        Parameter("iommu.strict_iops_per_socket", "1/s", "continuous", "I/Os one IOMMU unit's drives sustain with "
                  "the IOMMU in strict mode (the invalidation rate); one unit per socket unless "
                  "tree.iommu_units_per_socket is known", lo=0, lo_open=True, default=1.4e6, source=_GRACE),
        Parameter("iommu.lazy_iops_per_socket", "1/s", "continuous", "I/Os one IOMMU unit's drives sustain with the "
                  "IOMMU in lazy mode (inf: not charged); one unit per socket unless tree.iommu_units_per_socket is "
                  "known", lo=0, lo_open=True, default=math.inf, inf_ok=True, source=_LAZY_SOURCE),
        Parameter("tree.iommu_units_per_socket", "units", "continuous", "IOMMU units per socket (NaN: not known, the "
                  "IOMMU charged per socket as one unit); as many as tree.complexes_per_socket: one per root complex, "
                  "the IOMMU cap charged per complex", lo=1, hi=64, unknown_ok=True, default=math.nan,
                  source="default: not known (one unit per socket); a catalog host sets it where a source lists its "
                         "platform's units (catalog/host_platforms.csv, docs/physics.md §12.11)"),
    )))
