"""The IOMMU's mode as a host parameter (docs/physics.md §12.11): passthrough, lazy or strict DMA-unmap invalidation.

With ``iommu.mode = strict`` every DMA unmap waits for an IOTLB invalidation; in the one published test at hand this
capped a socket's drives far below what the same drives did in passthrough or lazy mode (NVIDIA Grace, SMMUv3: 8
PM1743-class SSDs, 4 per socket behind one root port each, 4 KiB random reads: passthrough 16.5 M, lazy 16.4 M,
strict 2.8 M IOPS; github.com/NVIDIA/NV-Kernels pull 182, 2025). The component ``iommu`` is that cap per socket,
``iommu.strict_iops_per_socket`` (the test's 2.8 M over its 2 sockets = 1.4 M by default: measured on Grace only,
carried to every platform untested — x86 VT-d and AMD-Vi invalidate differently; set or fit yours). ``passthrough``
and ``lazy`` charge nothing (lazy was within 0.6 % of passthrough there); ``none`` (the default) does not model the
IOMMU, as before.
"""

from __future__ import annotations

import numpy as np

from ..parameters import Parameter
from .components import Component, Limit, everywhere, register

__all__ = ["IOMMU", "MODES"]

#: ``iommu.mode`` choices, in code order.
MODES = ("none", "passthrough", "lazy", "strict")
_STRICT = MODES.index("strict")
_GRACE = ("measured: NVIDIA Grace (2 sockets, SMMUv3), 4 SSDs per socket behind one root port, 4 KiB random reads: "
          "'passthrough 16.5', 'lazy invalidations 16.4', 'strict invalidations 2.8' M IOPS (github.com/NVIDIA/"
          "NV-Kernels pull 182, 2025-08, from NVIDIA bug 5432475): 2.8 M / 2 sockets = 1.4 M per socket; measured on "
          "Grace only, carried to other platforms untested (docs/physics.md §12.11)")


def _iommu(p) -> Limit:
    if "iommu.mode" not in p or not np.any(np.asarray(p["iommu.mode"]) == _STRICT):
        return Limit()
    strict = np.asarray(p["iommu.mode"]) == _STRICT
    cap = p["iommu.strict_iops_per_socket"]
    return Limit(socket=cap if everywhere(p["iommu.mode"], float(_STRICT)) else np.where(strict, cap, np.inf))


IOMMU = register(Component(
    "iommu", "the IOMMU's strict-mode invalidations (per socket)", 53, _iommu,
    parameters=("iommu.mode", "iommu.strict_iops_per_socket"),
    summary="the IOMMU in strict mode: an IOTLB invalidation per DMA unmap caps each socket's I/O rate",
    color="#999999",
    declares=(
        Parameter("iommu.mode", "", "categorical", "the IOMMU's DMA mode: none (not modelled), passthrough (iommu=pt), "
                  "lazy (deferred invalidation, iommu.strict=0) or strict (an invalidation per unmap, iommu.strict=1)",
                  choices=MODES, default="none", source="default: not modelled (the IOMMU charged nothing)",
                  aliases={"pt": "passthrough", "off": "none", "deferred": "lazy"}),
        Parameter("iommu.strict_iops_per_socket", "1/s", "continuous", "I/Os one socket's drives sustain with the "
                  "IOMMU in strict mode (the invalidation rate)", lo=0, lo_open=True, default=1.4e6, source=_GRACE),
    )))
