"""Groups sharing a switch (DriveGroup(switch_with=...), docs/physics.md §12.7): each switch's limit is shared by
the drives of every group on it, by load fraction. Synthetic round numbers of tests/ceiling/test_mixed.py: switch
processing 1 µs per command = 1.0 M IOPS per switch, drive A 500 K, drive B 400 K (4K random reads)."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError

from .test_mixed import DRIVE_A, DRIVE_B, HOST, READ_4K, SWITCH


def _topo(switches, sharers, **kw):
    return nm.MixedTopology("shared switch", HOST, (
        nm.DriveGroup(DRIVE_B, 2, switch=SWITCH, switch_count=switches, name="owner"),
        nm.DriveGroup(DRIVE_A, sharers, switch_with="owner", name="sharer")), **kw)


@pytest.mark.parametrize(("switches", "sharers", "expected", "binding"), [
    # one switch: 2 x 400 K + 2 x 500 K = 1.8 M through one 1.0 M switch
    (1, 2, 1.0e6, "switch_processing"),
    # two switches: owner one drive each; the sharer continues at position 2 -> switches 0, 1: 0.9 M each, no cap
    (2, 2, 1.8e6, "drive"),
    # three sharer drives: switches 0, 1, 0 -> switch 0 holds 400 K + 1.0 M (capped 1.0 M), switch 1 0.9 M
    (2, 3, 1.9e6, "switch_processing"),
])
def test_a_shared_switch_carries_both_groups(switches, sharers, expected, binding):
    topo = _topo(switches, sharers)
    n = topo.max_drives
    curve = nm.evaluate_mixed(topo, READ_4K, drives=[n])
    assert curve.iops_at(n) == pytest.approx(expected, rel=1e-12)
    assert curve.binding_at(n) == binding
    assert sum(curve.group_iops_at(n).values()) == pytest.approx(expected, rel=1e-12)
    # the binding component alone is the ceiling itself (no "spread unevenly" where nothing is)
    assert curve.ceilings[binding][-1] == pytest.approx(expected, rel=1e-12)


def test_the_sharer_uses_no_host_lanes_and_the_ports_count_both():
    topo = _topo(1, 2)
    assert topo.groups[1].host_lanes(topo.host) == 0
    with pytest.raises(ParameterError, match="sharers included"):
        _topo(1, 3)  # 2 + 3 drives on one 4-port switch


@pytest.mark.parametrize(("groups", "match"), [
    ((nm.DriveGroup(DRIVE_A, 2, name="a"), nm.DriveGroup(DRIVE_B, 2, switch_with="a")), "switches of its own"),
    ((nm.DriveGroup(DRIVE_A, 2, switch_with="b", name="a"), nm.DriveGroup(DRIVE_B, 2, switch=SWITCH, name="b")),
     "an earlier group"),
])
def test_bad_sharing_is_one_clear_error(groups, match):
    with pytest.raises(ParameterError, match=match):
        nm.MixedTopology("bad", HOST, groups)


def test_shared_switch_sweeps_like_evaluate():
    topo = _topo(2, 3, extras={"tree.complexes_per_socket": 2, "tree.complex_bytes_per_s": 1.2e6 * 4096})
    grid = {"host.cycles_per_io": [2500.0, 5000.0]}
    res = nm.sweep(topo, READ_4K, drives=range(1, 6), grid=grid)
    for i, cycles in enumerate(grid["host.cycles_per_io"]):
        curve = nm.evaluate_mixed(topo, READ_4K, overrides={"host.cycles_per_io": cycles})
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12)
        np.testing.assert_array_equal(res.binding[i], curve.binding)
