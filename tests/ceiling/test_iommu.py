"""The IOMMU's mode as a host parameter (issue 29 item 5; docs/physics.md §12.11). The strict-mode cap is the one
published test at hand: NVIDIA Grace, 2 sockets x 4 SSDs, 4 KiB random reads, passthrough 16.5 M, lazy 16.4 M, strict
2.8 M IOPS (github.com/NVIDIA/NV-Kernels pull 182): 1.4 M per socket (exact). Found after issue 29's own IOMMU case
(one device, up to 9x) was read in the issue, and not that case."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.iommu import MODES
from nvmemodel.parameters import PARAMETERS
from nvmemodel.topology.host import with_host


def _curve(mode, drives=(1, 2, 8, 16), **over):
    topo = with_host(nm.preset("dell-r7525"), nm.get_host("amd-epyc-9654"))
    return nm.evaluate(topo, nm.Workload("randread", "4K", io_stack="io_uring"), drives=list(drives),
                       overrides={"drive.model": "samsung-pm1743", "iommu.mode": mode, **over})


def test_the_strict_cap_is_the_grace_tests_per_socket_rate():
    assert PARAMETERS["iommu.strict_iops_per_socket"].default == pytest.approx(2.8e6 / 2)
    assert "'strict invalidations 2.8'" in PARAMETERS["iommu.strict_iops_per_socket"].source


@pytest.mark.parametrize("mode", ["none", "passthrough", "lazy"])
def test_only_strict_mode_is_charged(mode):
    curve = _curve(mode)
    assert np.isinf(curve.ceilings["iommu"]).all() and "iommu" not in set(curve.binding)


def test_strict_mode_caps_each_socket_with_drives():
    curve = _curve("strict")
    assert curve.iops_at(1) == pytest.approx(1.4e6)            # one drive, one socket: below the drive's 2.5 M
    assert curve.iops_at(16) == pytest.approx(2 * 1.4e6)       # drives on both sockets
    assert curve.binding_at(16) == "iommu" and "IOMMU's strict-mode" in curve.explain(16)
    mine = _curve("strict", drives=(16,), **{"iommu.strict_iops_per_socket": 5e6})
    assert mine.iops_at(16) == pytest.approx(10e6)


def test_modes_are_named_and_refused_otherwise():
    assert MODES == PARAMETERS["iommu.mode"].choices
    with pytest.raises(nm.errors.ParameterError):
        _curve("paranoid")
