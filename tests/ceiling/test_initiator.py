"""The NVMe-oF initiators' CPU as a component (issue 29 item 4; docs/physics.md §5.1). The kernel NVMe/TCP initiator's
per-core figure is the one Linux commit 40510a639ec0 states: one pinned core, fio io_uring with hipri, 4 KiB reads at
QD32 batch 8 from a RAM-backed nvmet target, 179 K IOPS before the patch and 231 K after (exact). The range's low end is
the i10 evaluation's plain kernel path on one Xeon Gold 6128 core with fio libaio (Figure 1(a), about 138 K, read off
the plot)."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.initiator import INITIATOR_IOPS_PER_CORE
from nvmemodel.ceiling.ranges import cost_ranges, curve_range


def _curve(**over):
    return nm.evaluate(nm.preset("broadcom-stingray"), nm.Workload("randread", "4K", iodepth=128), drives=[1, 4],
                       overrides=over)


def test_the_tcp_initiator_figure_is_the_commits():
    point, low, high, source = INITIATOR_IOPS_PER_CORE["tcp"]
    assert (point, high) == (231e3, 231e3)
    assert "40510a639ec0" in source and "single CPU core (pinned)" in source


# J. Hwang, Q. Cai, M. Vuppalapati, R. Agarwal, "Performance Evaluation of i10 Linux I/O Scheduler" (Cornell;
# github.com/i10-kernel/upstream-linux, i10-evaluation.pdf): "4-socket Intel Xeon Gold 6128 CPU @ 3.4GHz", Linux 5.8 with
# the nvme-tcp optimisations, fio "Block size=4KB", "I/O engine=libaio"; Figure 1(a) "Single core performance ... for
# remote storage access", remote RAM block device, 4KB random read: the plain path ("Noop") plateaus at about 138 K
# IOPS. The number is read off the plot (no figure is printed): +-3 K, the plot's resolution at 2.5 px per K. Below the
# commit's 179 K (libaio with interrupts against io_uring polling), so it is the range's dear end; 3.4 GHz / 138 K =
# 24,600 cycles per I/O at the base clock (fio included).
def test_the_tcp_initiator_range_reaches_the_i10_single_core_libaio_figure():
    point, low, high, source = INITIATOR_IOPS_PER_CORE["tcp"]
    assert low == pytest.approx(138e3, abs=3e3)
    assert low < 179e3 < high  # the commit's before-figure lies inside
    assert "Xeon Gold 6128 CPU @ 3.4GHz" in source and "Figure 1(a)" in source and "read off the plot" in source
    assert 3.4e9 / low == pytest.approx(24_600, rel=0.03)


def test_initiator_cores_bound_an_nvme_tcp_system_and_are_named():
    curve = _curve(**{"fabric.transport": "tcp", "initiator.cores": 8})
    assert curve.binding_at(4) == "initiator_cpu"
    assert curve.iops_at(4) == pytest.approx(8 * 231e3, rel=1e-12)
    assert "the NVMe-oF initiators' CPU" in curve.explain(4)
    r = curve_range(curve)  # over the published figures: the dearest is i10's one libaio core
    assert r.at(4) == pytest.approx((8 * 138e3, 8 * 231e3), rel=1e-12)


def test_an_unknown_initiator_figure_is_not_applied_and_a_users_is():
    # SPDK's NVMe/TCP initiator: no per-core figure found (the kernel's RDMA initiator has one since issue 29's sixth
    # pass, derived from public raw fio runs: tests/ceiling/test_derived_costs_public.py)
    spdk_tcp = _curve(**{"fabric.transport": "tcp", "initiator.cores": 8, "initiator.stack": "spdk"})
    assert np.isinf(spdk_tcp.ceilings["initiator_cpu"]).all()
    mine = _curve(**{"initiator.cores": 2, "initiator.iops_per_core": 500e3})
    assert mine.ceilings["initiator_cpu"][-1] == pytest.approx(1e6)
    assert not any(c.parameter == "initiator.iops_per_core" for c in cost_ranges(mine.parameters, mine.sources))


def test_not_modelled_by_default_and_without_a_fabric():
    assert np.isinf(_curve(**{"fabric.transport": "tcp"}).ceilings["initiator_cpu"]).all()
    local = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[4],
                        overrides={"initiator.cores": 4})
    assert np.isinf(local.ceilings["initiator_cpu"]).all()


# SPDK's user-space initiator over RDMA (initiator.stack = spdk): github.com/spdk/spdk issue 321, J. Kariuki (Intel),
# 2018-06-09: SPDK perf on one core ('-c 0x1', a host of 72 logical CPUs, model not stated), 4 KiB random reads at
# -q 128 against a one-core SPDK target, "almost 1.2 million IOPS on a single core". 'almost': the figure is taken as
# 1.2 M exactly, so the tolerance is the word's: within 5 % of what was said. A rate per core: no clock, no cycles.
def test_the_spdk_rdma_initiator_figure_is_the_issue_threads():
    from nvmemodel.ceiling.initiator import SPDK_INITIATOR_IOPS_PER_CORE

    point, low, high, source = SPDK_INITIATOR_IOPS_PER_CORE["rocev2"]
    assert point == pytest.approx(1.2e6, rel=0.05) and low == high == point
    assert "'almost 1.2 million IOPS on a single core'" in source and "CPU is not stated" in source
    assert SPDK_INITIATOR_IOPS_PER_CORE["infiniband"][0] == point        # RDMA verbs, link layer not stated
    assert np.isnan(SPDK_INITIATOR_IOPS_PER_CORE["tcp"][0])              # none found for SPDK's TCP initiator


def test_an_spdk_initiator_binds_over_rdma_and_is_not_applied_over_tcp():
    curve = _curve(**{"initiator.cores": 2, "initiator.stack": "spdk"})  # the Stingray preset's RoCEv2
    assert curve.ceilings["initiator_cpu"][-1] == pytest.approx(2 * 1.2e6, rel=1e-12)
    assert curve.binding_at(4) == "initiator_cpu"
    # one point, no range: the initiators' figure is not among the ranged costs (the host stack's libaio is)
    assert not any(c.parameter == "initiator.iops_per_core" for c in cost_ranges(curve.parameters, curve.sources))
    tcp = _curve(**{"fabric.transport": "tcp", "initiator.cores": 2, "initiator.stack": "spdk"})
    assert np.isinf(tcp.ceilings["initiator_cpu"]).all()
    kernel = _curve(**{"fabric.transport": "tcp", "initiator.cores": 2, "initiator.stack": "kernel"})
    assert kernel.ceilings["initiator_cpu"][-1] == pytest.approx(2 * 231e3, rel=1e-12)  # the default stack, as before


def test_a_bad_initiator_stack_is_refused_naming_it():
    from nvmemodel.errors import ParameterError

    with pytest.raises(ParameterError, match=r"initiator\.stack"):
        _curve(**{"initiator.cores": 2, "initiator.stack": "windows"})
