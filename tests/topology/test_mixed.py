"""MixedTopology / DriveGroup: what a mixed host may hold, and one clear error for what it may not (§12.7 of
docs/physics.md)."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.placement import drives_per_group, last_group, sequence
from nvmemodel.errors import ParameterError, UnknownNameError

DELL = nm.preset("dell-r7525")  # 2 sockets x (80 - 32 reserved) = 96 free Gen4 lanes (preset notes: assumption)


def test_catalog_names_resolve_and_groups_get_names():
    t = nm.MixedTopology("m", DELL.host, (nm.DriveGroup("samsung-pm1733-u2", 8),
                                          nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797",
                                                        switch_count=2)))
    assert t.groups[0].drive == nm.get_drive("samsung-pm1733-u2")
    assert t.groups[1].switch == nm.get_switch("broadcom-pex9797")
    assert [g.name for g in t.groups] == ["group 0", "group 1"]
    assert t.max_drives == 24
    assert "8 x Samsung PM1733 (U.2) (Gen4 x4) via direct Gen4 x4" in t.describe()
    assert "2 x Broadcom PEX9797" in t.describe()


def test_group_topology_is_the_single_model_on_the_shared_host():
    t = nm.MixedTopology("m", DELL.host, (nm.DriveGroup("samsung-pm1733-u2", 4, lanes=8),
                                          nm.DriveGroup("intel-p3700-800gb", 4, switch="lenovo-1610-4p")),
                         extras=dict(DELL.extras))
    g0, g1 = t.group_topology(0), t.group_topology(1)
    assert g0.host.port_lanes == 8 and g0.switch is None and g0.extras == DELL.extras
    assert g1.host == DELL.host and g1.switch.name.startswith("Lenovo ThinkSystem 1610-4P")


@pytest.mark.parametrize(("order", "expected"), [
    ("sequential", [0, 0, 0, 1, 1]),
    ("interleaved", [0, 1, 0, 1, 0]),
    ((1, 0, 0, 1, 0), [1, 0, 0, 1, 0]),
])
def test_orders(order, expected):
    t = nm.MixedTopology("m", DELL.host, (nm.DriveGroup("samsung-pm1733-u2", 3),
                                          nm.DriveGroup("intel-p3700-800gb", 2)), order=order)
    np.testing.assert_array_equal(sequence(t), expected)
    counts = drives_per_group(t, range(1, 6))
    np.testing.assert_array_equal(counts.sum(axis=0), range(1, 6))
    np.testing.assert_array_equal(last_group(t, range(1, 6)), expected)


def test_from_topology_is_one_group_with_every_shared_part():
    t = nm.MixedTopology.from_topology(nm.preset("lenovo-sr850-810-4p"))
    assert len(t.groups) == 1 and t.groups[0].count == 4 and t.groups[0].switch_count == 1
    assert t.group_topology(0).parameters(nm.Workload()) == nm.preset("lenovo-sr850-810-4p").parameters(nm.Workload())


@pytest.mark.parametrize(("build", "error", "match"), [
    (lambda: nm.MixedTopology("m", DELL.host, ()), ParameterError, "groups=.*at least one DriveGroup"),
    (lambda: nm.MixedTopology("m", DELL.host, ("samsung-pm1733-u2",)), ParameterError, r"groups\[0\]"),
    (lambda: nm.DriveGroup("samsung-pm1773", 4), UnknownNameError, "unknown drive 'samsung-pm1773'.*did you mean"),
    (lambda: nm.DriveGroup("samsung-pm1733-u2", 4, switch="no-such-switch"), UnknownNameError, "unknown switch"),
    (lambda: nm.DriveGroup("samsung-pm1733-u2", 0), ParameterError, "group.count=0.*integer >= 1"),
    (lambda: nm.DriveGroup("samsung-pm1733-u2", 2.5), ParameterError, "group.count=2.5"),
    (lambda: nm.DriveGroup("samsung-pm1733-u2", 9, switch="lenovo-810-4p", switch_count=2), ParameterError,
     r"group.count=9.*at most 8 drives on 2 x Lenovo ThinkSystem 810-4P"),
    (lambda: nm.DriveGroup("samsung-pm1733-u2", 4, switch_count=2), ParameterError, "group.switch_count=2.*without"),
    (lambda: nm.DriveGroup("samsung-pm1733-u2", 4, lanes=3), ParameterError, "group.lanes=3.*one of 1, 2, 4"),
    (lambda: nm.DriveGroup("samsung-pm1733-u2", 4, switch="lenovo-810-4p", lanes=4), ParameterError,
     "group.lanes=4.*behind a switch"),
    (lambda: nm.DriveGroup("samsung-pm1733-u2", 4, socket=-1), ParameterError, "group.socket=-1"),
    (lambda: nm.MixedTopology("m", DELL.host, (nm.DriveGroup("samsung-pm1733-u2", 4, socket=2),)), ParameterError,
     "socket=2.*0..1"),
    # 25 x4 drives = 100 lanes > 96 free
    (lambda: nm.MixedTopology("m", DELL.host, (nm.DriveGroup("samsung-pm1733-u2", 20),
                                               nm.DriveGroup("intel-p3700-800gb", 5))), ParameterError,
     r"host lanes=100.*at most 96 free lanes.*group 0 80, group 1 20"),
    # 13 x4 drives pinned to socket 0 = 52 lanes > 48 free there
    (lambda: nm.MixedTopology("m", DELL.host, (nm.DriveGroup("samsung-pm1733-u2", 13, socket=0),)), ParameterError,
     "socket 0 lanes=52.*at most 48 free lanes on socket 0"),
    (lambda: nm.MixedTopology("m", DELL.host, (nm.DriveGroup("samsung-pm1733-u2", 2, name="x"),
                                               nm.DriveGroup("intel-p3700-800gb", 2, name="x"))), ParameterError,
     "groups='x'.*unique"),
    (lambda: nm.MixedTopology("m", DELL.host, (nm.DriveGroup("samsung-pm1733-u2", 2),), order="random"),
     ParameterError, "order='random'"),
    (lambda: nm.MixedTopology("m", DELL.host, (nm.DriveGroup("samsung-pm1733-u2", 2),
                                               nm.DriveGroup("intel-p3700-800gb", 1)), order=(0, 1, 1)),
     ParameterError, r"order=\(0, 1, 1\).*each group i exactly its count times \(\[2, 1\]\)"),
    (lambda: nm.MixedTopology("m", DELL.host, (nm.DriveGroup("samsung-pm1733-u2", 2),),
                              extras={"raid.level": "raid9"}), ParameterError, "raid.level"),
])
def test_bad_input_one_clear_error(build, error, match):
    with pytest.raises(error, match=match):
        build()


def test_inputs_are_not_modified():
    groups = [nm.DriveGroup("samsung-pm1733-u2", 2), nm.DriveGroup("intel-p3700-800gb", 2, name="gen3")]
    extras = {"memory.dma_fraction": 0.3}
    t = nm.MixedTopology("m", DELL.host, groups, extras=extras)
    assert groups[0].name == "" and extras == {"memory.dma_fraction": 0.3}
    assert isinstance(t.groups, tuple) and t.groups[1].name == "gen3"
