"""A curve of groups is a :class:`ScalingCurve` that carries its groups (issue 22: ``MixedCurve`` and
``GroupCeiling`` live in ``ceiling/result.py``): one group of a preset's drive gives the uniform curve's listing,
JSON and upper-bound sentence, with the groups added; a curve pickled when the classes lived in
``ceiling/mixed_result.py`` still loads."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.result import Ceiling, GroupCeiling, MixedCurve, ScalingCurve

DELL = nm.preset("dell-r7525")
DRIVES = [1, 12, 24]
GROUP_KEYS = {"binding_group", "binding_text", "groups"}


@pytest.fixture(scope="module", params=[nm.Workload("randread", "4K"), nm.Workload("read", "128K")],
                ids=["4K", "128K"])
def pair(request):
    """The uniform curve and the curve of its one group (same numbers: tests/ceiling/test_mixed.py)."""
    wl = request.param
    return (nm.evaluate(DELL, wl, drives=DRIVES),
            nm.evaluate(nm.MixedTopology.from_topology(DELL), wl, drives=DRIVES))


def test_a_curve_of_groups_is_a_scaling_curve(pair):
    uniform, mixed = pair
    assert type(uniform) is ScalingCurve and isinstance(mixed, ScalingCurve) and isinstance(mixed, nm.MixedCurve)
    assert nm.MixedCurve is MixedCurve and not isinstance(uniform, MixedCurve)


def test_one_group_lists_every_component_as_the_uniform_curve(pair):
    """Same components, order, values, headroom, binding and citations at every point; the group's listing is of
    GroupCeiling (no scope, no 'binding in': one group holds every drive), so its lines read the same."""
    uniform, mixed = pair
    for n in DRIVES:
        a, b = uniform.ceilings_at(n), mixed.ceilings_at(n)
        assert [c.component for c in b] == [c.component for c in a]
        assert all(type(c) is Ceiling for c in a) and all(type(c) is GroupCeiling for c in b)
        for x, y in zip(a, b, strict=True):
            # rtol 1e-12: the same formulas, summed in another order at most (test_mixed._assert_same)
            assert y.iops == pytest.approx(x.iops, rel=1e-12) or (np.isinf(x.iops) and np.isinf(y.iops))
            assert bool(y.binding) == bool(x.binding) and not y.scope and not y.binds_in
            assert y.sources == x.sources and repr(y) == repr(x)


def test_the_groups_json_is_the_uniform_document_with_the_groups(pair):
    """nvmemodel.mixed/1 is nvmemodel.ceilings/1 plus order, groups and per point/component the group fields: every
    key the uniform document has, with its value (the shared parameters are those of the uniform vector)."""
    uniform, mixed = pair
    a, b = uniform.to_dict(), mixed.to_dict()
    assert (a["schema"], b["schema"]) == ("nvmemodel.ceilings/1", "nvmemodel.mixed/1")
    assert set(b) == set(a) | {"order", "groups"}
    assert b["components"] == a["components"] and b["workload"] == a["workload"]
    if a["upper_bound"] is None:  # 128K reads: the PM1733's sequential read rating is known
        assert b["upper_bound"] is None
    else:  # 4K: the drive's QD1 latency is not known; the group whose drive it is named
        assert a["upper_bound"]["unknown_layers"] == ["drive"] and "QD1 latency" in a["upper_bound"]["note"]
        assert b["upper_bound"] == {**a["upper_bound"], "drive_groups": ["group 0"]}
    assert all(a["parameters"][k] == v for k, v in b["parameters"].items())
    assert "drive.model" in a["parameters"] and "drive.model" not in b["parameters"]  # the group's own
    assert b["groups"][0]["drive_model"] == a["parameters"]["drive.model"]
    for p, q in zip(a["points"], b["points"], strict=True):
        assert set(q) == set(p) | GROUP_KEYS and q["drives"] == p["drives"] and q["binding"] == p["binding"]
        assert q["iops"] == pytest.approx(p["iops"], rel=1e-12)
        assert q["groups"] == [{"name": "group 0", "drives": p["drives"], "iops": pytest.approx(p["iops"], rel=1e-12),
                                "binding": q["groups"][0]["binding"]}]
        for name, entry in p["ceilings"].items():
            assert set(q["ceilings"][name]) == set(entry) | {"binding", "on_groups"}
            assert q["ceilings"][name]["on_groups"] is None and q["ceilings"][name]["binding"] == (name == p["binding"])


def test_the_frame_of_groups_adds_their_columns(pair):
    uniform, mixed = pair
    a, b = uniform.to_frame(), mixed.to_frame()
    assert list(b.columns) == [*a.columns, "binding_group", "group 0_drives", "group 0_iops", "group 0_binding"]
    assert b["group 0_drives"].tolist() == DRIVES and b.attrs == a.attrs


def test_a_mixed_curve_pickled_under_its_old_module_still_loads():
    """A pickle names a class by module: one made before the fold says nvmemodel.ceiling.mixed_result (written
    here by renaming the module in a protocol-0 pickle, whose names are plain text)."""
    groups = (nm.DriveGroup("samsung-pm1733-u2", 8, name="gen4"),
              nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797", switch_count=2, name="gen3"))
    curve = nm.evaluate(nm.MixedTopology("two", DELL.host, groups, extras=dict(DELL.extras)),
                        nm.Workload("read", "128K"), drives=[8, 24])
    listing = curve.ceilings_at(24)
    data = pickle.dumps((curve, listing), protocol=0)
    for name in (b"MixedCurve", b"GroupCeiling"):
        assert b"cnvmemodel.ceiling.result\n" + name in data
        data = data.replace(b"cnvmemodel.ceiling.result\n" + name, b"cnvmemodel.ceiling.mixed_result\n" + name)
    back, old_listing = pickle.loads(data)
    assert type(back) is MixedCurve and type(old_listing[0]) is GroupCeiling
    assert repr(back) == repr(curve) and repr(old_listing) == repr(listing)
    assert back.describe_binding_at(24) == "gen4: drive; gen3: switch_uplink"
