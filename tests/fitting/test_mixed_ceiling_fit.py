"""The ceiling model of a mixed topology is fittable (nvmemodel/fitting/ceiling.py via nm.evaluate of the groups'
composition). Synthetic data: the model's own curve at a known CPU cost, recovered by the fit."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm

from .conftest import table


def test_fit_recovers_the_cpu_cost_of_a_mixed_topology():
    dell = nm.preset("dell-r7525")
    host = dell.host.replace(cores_per_socket=8)  # a small CPU, so that the CPU binds from the fit's start on
    mixed = nm.MixedTopology("gen4 + gen3", host, (
        nm.DriveGroup("samsung-pm1733-u2", 8, name="gen4"),
        nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797", switch_count=2, name="gen3")),
        extras=dict(dell.extras))
    wl = nm.Workload("randread", "4K")
    n = np.arange(2.0, 25.0, 2.0)
    # synthetic truth: 15,000 cycles per I/O -> 2 x 8 x 2.25 GHz / 15,000 = 2.4 M IOPS once enough drives are in
    y = nm.evaluate(mixed, wl, drives=n.astype(int), overrides={"host.cycles_per_io": 15000.0}).iops
    assert y[-1] == pytest.approx(2.4e6, rel=1e-12)
    r = nm.fit(table("drives", n, y), x="drives", y="iops", model="ceiling", topology=mixed, workload=wl,
               free=["host.cycles_per_io"])
    assert r.params.set_index("name").loc["host.cycles_per_io", "value"] == pytest.approx(15000.0, rel=1e-3)
