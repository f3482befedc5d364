"""Properties the planner relies on (docs/physics.md §12.1): with a host tree, software RAID or file sharing,
X(n) never decreases with the drive count, and the binding component's level explains the total."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import nvmemodel as nm

DELL = nm.preset("dell-r7525")
LENOVO = nm.preset("lenovo-sr850-810-4p").replace(switch_count=4)


@settings(max_examples=60, deadline=None)
@given(placement=st.sampled_from(["round_robin", "fill_first"]), sockets=st.integers(1, 2),
       cps=st.integers(1, 4), slots=st.integers(1, 8), complex_gbps=st.floats(2.0, 40.0),
       socket_gbps=st.one_of(st.just(float("inf")), st.floats(5.0, 80.0)),
       level=st.sampled_from(["none", "raid0", "raid5", "raid6", "raid10"]),
       pattern=st.sampled_from([("read", "128K"), ("randwrite", "4K"), ("randrw", "16K")]),
       switched=st.booleans())
def test_total_never_decreases_with_drives(placement, sockets, cps, slots, complex_gbps, socket_gbps, level, pattern,
                                           switched):
    topo = LENOVO if switched else DELL
    over = {"host.sockets": sockets, "tree.complexes_per_socket": cps, "tree.slots_per_complex": slots,
            "tree.placement": placement, "tree.complex_bytes_per_s": complex_gbps * 1e9,
            "memory.peak_bytes_per_s": socket_gbps * 1e9, "memory.dma_fraction": 1.0, "raid.level": level}
    if switched:
        over.pop("host.sockets")  # the 810-4P preset's four uplinks need its four sockets' lanes
    wl = nm.Workload(pattern[0], pattern[1], **({"read_fraction": 0.5} if pattern[0] == "randrw" else {}))
    curve = nm.evaluate(topo, wl, drives=range(1, 13), overrides=over)  # 12 fit every variant
    assert np.all(np.diff(curve.iops) >= -1e-9 * curve.iops[1:])
    # the total never exceeds any component alone, nor the drives alone
    for name, alone in curve.ceilings.items():
        assert np.all(curve.iops <= alone * (1 + 1e-12)), name
    # and the sweep computes the same curve (one configuration)
    res = nm.sweep(topo, wl, drives=curve.drives, grid={k: [v] for k, v in over.items()})
    np.testing.assert_allclose(res.iops[0], curve.iops, rtol=1e-12)
