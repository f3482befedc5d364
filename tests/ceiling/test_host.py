"""CPU and concurrency ceilings (docs/physics.md §4, §6)."""

import numpy as np
import pytest

from nvmemodel import Host, IoStack, ParameterError
from nvmemodel.ceiling.host import knee_outstanding, littles_law_iops
from nvmemodel.topology.host import STACK_CYCLES


def test_littles_law_axboe_points():
    # docs/physics.md §6: Axboe's QD128 point, 2.58 M IOPS at 34.9 µs → 90 in flight, not 128.
    assert 2.58e6 * 34.9e-6 == pytest.approx(90, abs=0.1)
    # and the bound itself: N / R0
    assert float(littles_law_iops(128, 34.9e-6)) == pytest.approx(3.667e6, rel=1e-3)


def test_littles_law_spdk_80m():
    # docs/physics.md §6: SPDK 80 M IOPS × 25.54 µs = 2043 ≈ 16 devices × QD128 = 2048 (0.2 % off).
    x = float(littles_law_iops(16 * 128, 25.54e-6))
    assert x == pytest.approx(80e6, rel=3e-3)


def test_knee_example():
    # docs/physics.md §6: a Gen4 drive with R0 = 80 µs and X_max = 1.0 M needs N* = 80.
    assert float(knee_outstanding(1e6, 80e-6)) == pytest.approx(80)


def test_unknown_latency_is_not_a_limit():
    assert np.isinf(littles_law_iops(32, np.nan))


def test_spdk_cycles_reproduce_published_rate():
    # spdk.io 2021, one Xeon 8380 core at 3.4 GHz turbo (docs/physics.md §4): 12.62 M IOPS at 4 KiB = 269 cycles, and
    # 13.85 M at 512 B = 245 cycles through the size factor, each to ±0.5 % (the rounding of 269).
    from nvmemodel.ceiling.host import stack_size_factor

    cycles, source = STACK_CYCLES[IoStack.SPDK]
    assert 3.4e9 / cycles == pytest.approx(12.62e6, rel=5e-3)
    at_512 = cycles * stack_size_factor({"workload.io_stack": "spdk", "workload.block_size": 512})
    assert 3.4e9 / at_512 == pytest.approx(13.85e6, rel=5e-3)
    assert "spdk.io" in source
    # between 512 B and 4 KiB linear in the size; from 4 KiB up, and below 512 B, the end values; other stacks: 1
    sizes = np.array([256.0, 512.0, 2304.0, 4096.0, 131072.0])
    f = stack_size_factor({"workload.io_stack": np.full(5, 3.0), "workload.block_size": sizes})
    assert f == pytest.approx([12.62 / 13.85, 12.62 / 13.85, (1 + 12.62 / 13.85) / 2, 1.0, 1.0])
    assert stack_size_factor({"workload.io_stack": "libaio", "workload.block_size": 512}) == 1.0


def test_cpu_utilization_prediction():
    host = Host(name="h", sockets=1, cores_per_socket=10, clock_hz=3e9, cycles_per_io=3000)
    assert host.cpu_utilization_at(5e6) == pytest.approx(0.5)
    # SPDK at 512 B costs 0.911 of its 4 KiB cycles, as in the CPU ceiling: one 3.4 GHz core at [SPDK21]'s 13.85 M
    one = Host(name="8380 core", sockets=1, cores_per_socket=1, clock_hz=3.4e9)
    assert one.cpu_utilization_at(13.85e6, "spdk", block_size=512) == pytest.approx(1.0, rel=5e-3)
    assert one.cpu_utilization_at(12.62e6, "spdk") == pytest.approx(1.0, rel=5e-3)


def test_every_stack_has_a_sourced_default():
    for stack in IoStack:
        cycles, source = STACK_CYCLES[stack]
        assert cycles > 0 and len(source) > 20


def test_io_stack_parse_error():
    with pytest.raises(ParameterError, match="io_stack.*libaio"):
        IoStack.parse("posix")


def test_outstanding_knee_optane_over_fabric():
    # N* = X_max · R0: a 900P (550 K IOPS at 4K, 10 µs QD1; Broadcom paper's table) behind the
    # Stingray fabric (+10 µs) saturates at 550e3 × 20e-6 = 11 outstanding I/Os.
    import nvmemodel as nm

    topo = nm.preset("broadcom-stingray").replace(drive=nm.get_drive("intel-optane-900p-280gb"))
    assert nm.outstanding_knee(topo, nm.Workload("randread", "4K")) == pytest.approx(11.0)
    # and the curve obeys it: at QD 4 the drive is queue-depth bound, at QD 32 it is not
    low = nm.evaluate(topo, nm.Workload("randread", "4K", iodepth=4), drives=[1])
    assert low.binding_at(1) == "queue_depth" and low.iops_at(1) == pytest.approx(4 / 20e-6)
    high = nm.evaluate(topo, nm.Workload("randread", "4K", iodepth=32), drives=[1])
    assert high.binding_at(1) == "drive"


def test_curve_cpu_utilization():
    import nvmemodel as nm

    curve = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"))
    # 12 drives x 1.45 M IOPS x 10,000 cycles / (128 cores x 2.25 GHz) = 60.4 %
    assert curve.cpu_utilization_at(12) == pytest.approx(17.4e6 * 1e4 / (128 * 2.25e9))
    assert curve.cpu_utilization_at(24) == pytest.approx(1.0)
