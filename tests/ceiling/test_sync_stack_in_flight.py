"""A synchronous stack keeps one I/O in flight per job whatever iodepth says (QA round 5, G4: psync at the CLI's
default QD32 was modelled with 32 in flight: 400 K IOPS where one psync job at 80 us does 12.5 K)."""
import numpy as np
import pytest

import nvmemodel as nm

LAT = {"drive.read_latency_s": 80e-6}


def _iops(stack, iodepth, numjobs=1):
    wl = nm.Workload("randread", "4K", iodepth=iodepth, numjobs=numjobs, io_stack=stack)
    return float(nm.evaluate(nm.preset("dell-r7525"), wl, drives=[1], overrides=LAT).iops_at(1))


def test_psync_at_qd32_is_psync_at_qd1():
    assert _iops("psync", 32) == _iops("psync", 1) == pytest.approx(_iops("libaio", 1))


def test_psync_jobs_are_what_is_in_flight():
    assert _iops("psync", 32, numjobs=4) == pytest.approx(4 * _iops("psync", 1))


def test_an_asynchronous_stack_keeps_its_depth():
    assert _iops("libaio", 32) > 10 * _iops("libaio", 1)


def test_a_sweep_over_stacks_agrees():
    s = nm.sweep(nm.preset("dell-r7525"), nm.Workload("randread", "4K", iodepth=32), drives=[1],
                 grid={"workload.io_stack": ["libaio", "psync"], "drive.read_latency_s": [80e-6, 80e-6]})
    np.testing.assert_allclose(np.asarray(s.iops)[:, 0], [_iops("libaio", 32), _iops("psync", 32)])


def test_the_workload_says_so():
    assert "psync is synchronous: 1 in flight per job" in nm.Workload("randread", "4K", iodepth=32,
                                                                       io_stack="psync").describe()
