"""Properties of mixed topologies with shared switches and placement across groups (docs/physics.md §12.7), over
random groups, orders and host trees (tests/ceiling/test_mixed_properties.py's hosts, drives and trees):

* the curve never decreases as drives are added, never lies above any component's ceiling, and the groups'
  shares add up to it (one workload for all: with groups of different block sizes only bytes/s need not fall);
* a sweep over the CPU cost is evaluate_mixed at each value (rtol 1e-12, binding too).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import nvmemodel as nm

from .test_mixed_properties import DRIVES, HOST, TREES, WORKLOADS


@st.composite
def shared_groups(draw):
    switch = draw(st.sampled_from(["lenovo-1610-4p", "lenovo-810-4p", "broadcom-pex9797"]))
    ports = nm.get_switch(switch).ports
    m = draw(st.integers(1, 2))
    own = draw(st.integers(1, m * ports - 1))
    out = [nm.DriveGroup(draw(st.sampled_from(DRIVES)), own, switch=switch, switch_count=m, name="owner")]
    if draw(st.booleans()):
        out.insert(0, nm.DriveGroup(draw(st.sampled_from(DRIVES)), draw(st.integers(1, 4)), name="direct"))
    out.append(nm.DriveGroup(draw(st.sampled_from(DRIVES)), draw(st.integers(1, m * ports - own)),
                             switch_with="owner", name="sharer"))
    return tuple(out)


@settings(max_examples=50, deadline=None)
@given(gs=shared_groups(), order=st.sampled_from(["sequential", "interleaved"]), wl=st.sampled_from(WORKLOADS),
       tree=st.sampled_from(TREES))
def test_shared_switch_curve_is_monotone_and_below_every_ceiling(gs, order, wl, tree):
    extras = {k: v for k, v in tree.items() if not k.startswith("host.")}
    host = HOST.replace(cycles_per_io=tree.get("host.cycles_per_io"))
    topo = nm.MixedTopology("p", host, gs, extras=extras, order=order)
    curve = nm.evaluate_mixed(topo, wl)
    x = curve.iops
    assert np.all(np.diff(x) >= -1e-9 * x[1:])
    for name, c in curve.ceilings.items():
        assert np.all(x <= c * (1 + 1e-9)), name
    np.testing.assert_allclose(curve.group_iops.sum(axis=0), x, rtol=1e-12)
    cycles = [3000.0, 30000.0]
    res = nm.sweep(topo, wl, drives=curve.drives, grid={"host.cycles_per_io": cycles})
    for i, c in enumerate(cycles):
        one = nm.evaluate_mixed(topo, wl, overrides={"host.cycles_per_io": c})
        np.testing.assert_allclose(res.iops[i], one.iops, rtol=1e-12)
        np.testing.assert_array_equal(res.binding[i], one.binding)
