"""A preset's calibrated CPU cost belongs to the I/O stack it was calibrated on (QA round 4, F10).

The R7525 preset calibrates host.cycles_per_io = 10,000 on the paper's 4K reads (its stack: libaio in the
model). Asked for another stack, the model must charge that stack's own cost — before this fix every stack got
10,000 while the header printed the requested stack's name.
"""
import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.topology.host import STACK_CYCLES, IoStack, with_host

DELL_CYCLES_S = 2 * 64 * 2.25e9  # 2 x EPYC 7742 (assumed by the preset) at base clock


def _cpu(stack, topology=None):
    t = topology or nm.preset("dell-r7525")
    c = nm.evaluate(t, nm.Workload("randread", "4K", io_stack=stack), drives=[24])
    return float(np.ravel(c.ceilings["host_cpu"])[0]), c


@pytest.mark.parametrize("stack", ["spdk", "psync", "io_uring", "io_uring_polled", "windows_storport"])
def test_other_stacks_are_charged_their_own_cost(stack):
    # each stack's own measured cost, scaled by this platform's calibration over libaio's default (QA round 5, G11:
    # a calibration beside another stack's generic figure made io_uring look 32 % cheaper than libaio)
    iops, curve = _cpu(stack)
    ratio = 10_000 / STACK_CYCLES[IoStack.LIBAIO][0]
    expected = DELL_CYCLES_S / (STACK_CYCLES[IoStack(stack)][0] * ratio)
    assert iops == pytest.approx(expected, rel=1e-9)
    src = curve.sources["host.cycles_per_io"]
    assert src.status == "estimate" and "calibrated on libaio" in src.text


def test_the_calibrated_stack_keeps_its_calibration():
    iops, curve = _cpu("libaio")
    assert iops == pytest.approx(DELL_CYCLES_S / 10_000, rel=1e-9)  # 28.8 M
    assert str(curve.sources["host.cycles_per_io"]).startswith("calibrated")


def test_sweep_over_stacks_equals_evaluate_per_stack():
    dell = nm.preset("dell-r7525")
    stacks = ["libaio", "spdk", "psync"]
    s = nm.sweep(dell, nm.Workload("randread", "4K"), drives=[12, 24], grid={"workload.io_stack": stacks})
    for i, stack in enumerate(stacks):
        c = nm.evaluate(dell, nm.Workload("randread", "4K", io_stack=stack), drives=[12, 24])
        np.testing.assert_array_equal(np.asarray(s.iops)[i], np.asarray(c.iops))
    assert len({tuple(np.asarray(s.iops)[i]) for i in range(3)}) == 3  # three stacks, three curves


def test_a_catalog_host_swap_keeps_the_calibrations_stack():
    t = with_host(nm.preset("dell-r7525"), "amd-epyc-7742")
    assert t.host.cycles_stack == "libaio"
    iops, _ = _cpu("spdk", t)
    # SPDK's 269 cycles at 4 KiB x the calibration's 10,000 / 8,200 = 328: the CPU is nowhere near binding
    assert iops == pytest.approx(2 * 64 * 2.25e9 / (269 * 10_000 / 8_200), rel=1e-9) and iops > 0.8e9


def test_a_host_charging_one_cost_for_every_stack_says_so_beside_the_stack(capsys):
    # QA round 4, F10 remainder: ION's Windows host is calibrated on StorPort for every workload
    from nvmemodel.cli import main

    assert main(["ceilings", "--preset", "ion-sr71mach5-windows", "--io-stack", "spdk", "--drives", "8"]) == 0
    out = capsys.readouterr().out
    assert "spdk" in out and "charged this host's 20,500 cycles per I/O whatever the stack" in out
