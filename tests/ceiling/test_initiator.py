"""The NVMe-oF initiators' CPU as a component (issue 29 item 4; docs/physics.md §5.1). The kernel NVMe/TCP initiator's
per-core figure is the one Linux commit 40510a639ec0 states: one pinned core, fio io_uring with hipri, 4 KiB reads at
QD32 batch 8 from a RAM-backed nvmet target, 179 K IOPS before the patch and 231 K after (exact)."""

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
    assert (point, low, high) == (231e3, 179e3, 231e3)
    assert "40510a639ec0" in source and "single CPU core (pinned)" in source


def test_initiator_cores_bound_an_nvme_tcp_system_and_are_named():
    curve = _curve(**{"fabric.transport": "tcp", "initiator.cores": 8})
    assert curve.binding_at(4) == "initiator_cpu"
    assert curve.iops_at(4) == pytest.approx(8 * 231e3, rel=1e-12)
    assert "the NVMe-oF initiators' CPU" in curve.explain(4)
    r = curve_range(curve)  # over the commit's two figures: the dearest is the slower one
    assert r.at(4) == pytest.approx((8 * 179e3, 8 * 231e3), rel=1e-12)


def test_an_unknown_initiator_figure_is_not_applied_and_a_users_is():
    rdma = _curve(**{"initiator.cores": 8})   # the preset's RoCEv2: no per-core kernel figure found
    assert np.isinf(rdma.ceilings["initiator_cpu"]).all()
    mine = _curve(**{"initiator.cores": 2, "initiator.iops_per_core": 500e3})
    assert mine.ceilings["initiator_cpu"][-1] == pytest.approx(1e6)
    assert not any(c.parameter == "initiator.iops_per_core" for c in cost_ranges(mine.parameters, mine.sources))


def test_not_modelled_by_default_and_without_a_fabric():
    assert np.isinf(_curve(**{"fabric.transport": "tcp"}).ceilings["initiator_cpu"]).all()
    local = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[4],
                        overrides={"initiator.cores": 4})
    assert np.isinf(local.ceilings["initiator_cpu"]).all()
