"""How the presets' calibrated parameters were derived — recomputable, so they are not magic numbers.

Each function inverts the ceiling model at one sentence of a seed paper and returns the
parameter value stored in ``catalog/switches.csv``; ``tests/test_calibration.py`` checks that
the catalog holds what these functions compute. They sit on top of the model (they evaluate
ceilings), like the fits that will generalise them.
"""

from __future__ import annotations


from .ceiling.derive import prepare
from .ceiling.evaluate import evaluate
from .ceiling.pcie import link_iops
from .topology.config import NvmeConfig, PcieConfig
from .topology.workload import Workload

__all__ = ["lenovo_810_efficiency", "lenovo_810_per_command_s", "lenovo_1610_per_command_s"]


def lenovo_810_efficiency(cap_bytes_per_s: float = 6200e6, *, block_size: float = 262144.0,
                          pcie: PcieConfig = PcieConfig(), nvme: NvmeConfig = NvmeConfig()) -> float:
    """Switch efficiency that makes the 810-4P's Gen3 x8 uplink carry ``cap_bytes_per_s`` of reads.

    LP0865, Figure 4 text: "bandwidth is capped to 6,200 MB/s once more than two disks are
    attached" (Table 1: 256 KB sequential reads). Efficiency = cap / model uplink ceiling.
    """
    p = prepare({**pcie.parameters(), **nvme.parameters()})
    return float(cap_bytes_per_s / (link_iops(3, 8, block_size, 1.0, p) * block_size))


def lenovo_810_per_command_s(cap_iops: float = 1.3e6) -> float:
    """Per-command cost of the 810-4P from LP0865 Figure 6 text: "capped below 1.3 million IOPS"."""
    return 1.0 / cap_iops


def lenovo_1610_per_command_s(loss: float = 0.30, *, drives: int = 4) -> float:
    """Per-command cost of the 1610-4P from LP0865's conclusion: "A performance impact of up to
    30% may be incurred by the processing overhead of the switch adapter" — the cap is
    ``(1 − loss)`` × the direct-cable 4K random read of ``drives`` drives (the largest loss
    is at the most drives)."""
    from .topology.presets import preset

    direct = evaluate(preset("lenovo-sr850-direct"), Workload("randread", "4K"), drives=[drives])
    return 1.0 / ((1.0 - loss) * direct.iops_at(drives))
