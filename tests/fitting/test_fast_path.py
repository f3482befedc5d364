"""The fit's vectorized model evaluation equals nm.evaluate with the same overrides, on every x axis."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.fitting.ceiling import _evaluate_public, _evaluate_vector

CASES = [
    ("lenovo-sr850-810-4p", nm.Workload("read", "256K"), "drives", [1, 2, 3, 4, 4, 2], {"switch.efficiency": 0.7}),
    ("lenovo-sr850-1610-4p", nm.Workload("randread", "4K"), "drives", [1, 2, 3, 4], {"switch.per_command_s": 6e-7}),
    ("dell-r7525", nm.Workload("read", "128K"), "drives", [1, 2, 4, 8, 12, 24], {"pcie.mps": 512}),
    ("dell-r7525", nm.Workload("randread", "4K"), "drives", [1, 12, 24], {"host.cycles_per_io": 7000.0}),
    ("broadcom-stingray", nm.Workload("randread", "4K"), "iodepth", [1, 2, 4, 8, 16, 32],
     {"drive.read_latency_s": 80e-6}),
    ("broadcom-stingray", nm.Workload("randread", "4K"), "outstanding", [1, 4, 16, 64], {"fabric.eth_mtu": 9000}),
    ("ion-sr71mach5-linux", nm.Workload("randread", "4K"), "numjobs", [1, 2, 4], {"host.clock_hz": 3e9}),
    ("dell-r7525", nm.Workload("read", "4K"), "block_size_bytes", [4096, 65536, 131072], {}),
]


@pytest.mark.parametrize("preset, wl, x, values, overrides", CASES)
def test_vector_path_equals_public_path(preset, wl, x, values, overrides):
    topo = nm.preset(preset)
    fast = _evaluate_vector(topo, wl, x, np.asarray(values, float), overrides, 4, None)
    slow = _evaluate_public(topo, wl, x, np.asarray(values, float), overrides, 4)
    np.testing.assert_allclose(fast[0], slow[0], rtol=1e-12)
    assert list(fast[2]) == list(slow[2])
    assert set(fast[1]) == set(slow[1])
    for k in slow[1]:
        np.testing.assert_allclose(fast[1][k], slow[1][k], rtol=1e-12)
    np.testing.assert_allclose(fast[3], slow[3])
