"""Properties of mixed topologies (docs/physics.md §12.7), over random groups, orders and host trees.

* the curve never decreases as drives are added (any order), except where a host-wide queue depth is shared
  by drives of different latency (Little's law with a fixed N: a slower drive may lower the ceiling), which
  these examples leave out;
* it never lies above any component's ceiling, and the groups' shares add up to it;
* the one-group case of random single-model topologies equals nm.evaluate (rtol 1e-12, binding too).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import nvmemodel as nm

HOST = nm.Host("property host", sockets=2, cores_per_socket=32, clock_hz=2.5e9, gen=4, lanes_per_socket=128)
DRIVES = ["samsung-pm1733-u2", "intel-p3700-800gb", "samsung-pm1743", "toshiba-px04pmb-960gb", "hgst-sn200-1600gb"]
SWITCHES = [None, "lenovo-1610-4p", "lenovo-810-4p", "broadcom-pex9797"]
WORKLOADS = [nm.Workload("read", "128K"), nm.Workload("randread", "4K"), nm.Workload("randwrite", "4K"),
             nm.Workload("randrw", "16K", read_fraction=0.7)]
TREES = [{}, {"memory.peak_bytes_per_s": 100e9, "memory.dma_fraction": 0.3},
         {"tree.complexes_per_socket": 2, "tree.complex_bytes_per_s": 14e9, "tree.placement": "fill_first",
          "tree.slots_per_complex": 3},
         {"tree.complexes_per_socket": 4, "tree.complex_bytes_per_s": 10e9, "memory.peak_bytes_per_s": 80e9,
          "memory.dma_fraction": 0.4},
         {"tree.remote_fraction": 0.3, "tree.inter_socket_bytes_per_s": 40e9, "host.cycles_per_io": 20000}]


@st.composite
def groups(draw):
    out = []
    for i in range(draw(st.integers(1, 3))):
        switch = draw(st.sampled_from(SWITCHES))
        count = draw(st.integers(1, 6))
        socket = draw(st.sampled_from([None, 0, 1]))
        if switch is None:
            out.append(nm.DriveGroup(draw(st.sampled_from(DRIVES)), count, socket=socket, name=f"g{i}"))
        else:
            ports = nm.get_switch(switch).ports
            out.append(nm.DriveGroup(draw(st.sampled_from(DRIVES)), count, switch=switch, socket=socket,
                                     switch_count=-(-count // ports) + draw(st.integers(0, 1)), name=f"g{i}"))
    return tuple(out)


@settings(max_examples=60, deadline=None)
@given(gs=groups(), order=st.sampled_from(["sequential", "interleaved"]), wl=st.sampled_from(WORKLOADS),
       tree=st.sampled_from(TREES))
def test_mixed_curve_is_monotone_and_below_every_ceiling(gs, order, wl, tree):
    extras = {k: v for k, v in tree.items() if not k.startswith("host.")}
    host = HOST.replace(cycles_per_io=tree.get("host.cycles_per_io"))
    curve = nm.evaluate_mixed(nm.MixedTopology("p", host, gs, extras=extras, order=order), wl)
    x = curve.iops
    assert np.all(np.diff(x) >= -1e-9 * x[1:])
    for name, c in curve.ceilings.items():
        assert np.all(x <= c * (1 + 1e-12)), name
    np.testing.assert_allclose(curve.group_iops.sum(axis=0), x, rtol=1e-12)
    np.testing.assert_array_equal(curve.group_drives.sum(axis=0), curve.drives)
    assert {g for text in curve.binding_group for g in text.split(", ")} <= {*curve.groups, "host"}


@settings(max_examples=40, deadline=None)
@given(drive=st.sampled_from(DRIVES), switch=st.sampled_from(SWITCHES), extra=st.integers(0, 1),
       wl=st.sampled_from(WORKLOADS), tree=st.sampled_from(TREES))
def test_one_random_group_is_nm_evaluate(drive, switch, extra, wl, tree):
    sw = None if switch is None else nm.get_switch(switch)
    topo = nm.Topology("p", HOST, nm.get_drive(drive), switch=sw, switch_count=1 + extra if sw else 1)
    topo, wl = topo.with_parameters(tree, wl) if tree else (topo, wl)
    drives = range(1, min(topo.max_drives, 24) + 1)
    single = nm.evaluate(topo, wl, drives=drives)
    mixed = nm.evaluate_mixed(nm.MixedTopology.from_topology(topo, len(drives)), wl, drives=drives)
    np.testing.assert_allclose(mixed.iops, single.iops, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(mixed.binding, single.binding)
    for name in single.ceilings:
        np.testing.assert_allclose(mixed.ceilings[name], single.ceilings[name], rtol=1e-12, atol=0, err_msg=name)
