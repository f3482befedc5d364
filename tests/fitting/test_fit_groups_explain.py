"""A ceiling fit on a topology of groups is explained, listed and serialised like one on a Topology.

Found by the differential QA of session 27 (D1): ``nm.fit(..., model="ceiling", topology=<MixedTopology>)`` fitted,
but its ``explain()``, ``claims()`` and ``to_dict()`` raised (the component labels and the "set by" values were read
with methods only a single-model Topology has). The series is synthetic: the model's own curve with cycles per I/O
set to 14,000, times seeded 1 % noise.
"""

import json

import numpy as np
import pytest

import nvmemodel as nm

from .conftest import table

W = nm.Workload("randread", "4K")


def _groups(one: bool):
    host = nm.preset("dell-r7525").host
    groups = [nm.DriveGroup("samsung-pm1733-u2", 8)]
    if not one:
        groups.append(nm.DriveGroup("intel-p3700-800gb", 8, switch="broadcom-pex9797"))
    return nm.MixedTopology("groups", host, tuple(groups))


def _table(topo, cycles=14000.0):
    n = np.arange(1, topo.max_drives + 1)
    truth = nm.evaluate(topo, W, drives=n, overrides={"host.cycles_per_io": cycles}).iops
    y = truth * (1 + 0.01 * np.random.default_rng(3).standard_normal(n.size))
    return table("drives", n.astype(float), y)


@pytest.mark.parametrize("one", [True, False], ids=["one group", "two groups"])
def test_a_ceiling_fit_of_groups_explains_itself(one):
    topo = _groups(one)
    r = nm.fit(_table(topo), x="drives", y="iops", model="ceiling", topology=topo, workload=W,
               free=["host.cycles_per_io"])
    text = r.explain()
    assert "ceiling fits" in text and "binds" in text
    # the binding component is named with its registered label, as the curve of groups names it
    assert "the drives' own limit" in text
    claims = r.claims()
    assert claims and all(c["text"] for c in claims)
    json.dumps(r.to_dict(), default=str)
