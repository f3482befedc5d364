"""What ``nm.evaluate`` keeps between calls (a topology's :class:`Levels`) and works out only when read (each
component alone, the sources) never changes what a curve says: the numbers are those of the kernel computed afresh
(:func:`evaluate_prepared` on a newly prepared mapping), bit for bit, at the first call and at the next."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.components import Component, Limit, registered
from nvmemodel.ceiling.compose import evaluate_prepared
from nvmemodel.ceiling.derive import _prepare
from nvmemodel.ceiling.system import Levels, levels_of
from nvmemodel.parameters import Parameter
from nvmemodel.topology.presets import PRESETS as ALL_PRESETS

from .test_fast_paths import _cases, _mixed_attach_cases  # seeded random host trees, switches, RAID

PRESETS = ("dell-r7525", "lenovo-sr850-810-4p", "broadcom-stingray")
WORKLOADS = (nm.Workload("randread", "4K"), nm.Workload("read", "128K"), nm.Workload("randrw", "16K", read_fraction=0.7))


def _fresh(topo, wl, drives):
    """The kernel on a mapping prepared anew (nothing kept), every drive count at once."""
    return evaluate_prepared(_prepare(topo.parameters(wl)), np.asarray(drives, dtype=float))


@pytest.mark.parametrize("wl", WORKLOADS, ids=lambda w: w.describe())
@pytest.mark.parametrize("preset", PRESETS)
def test_a_curve_evaluated_again_is_the_kernel_computed_afresh(preset, wl):
    topo = nm.preset(preset)
    drives = np.arange(1, topo.max_drives + 1)
    ref = _fresh(topo, wl, drives)
    for _ in range(2):  # twice: the second call takes the levels kept by the first
        curve = nm.evaluate(topo, wl, drives=drives)
        np.testing.assert_array_equal(curve.iops, np.broadcast_to(ref["iops"], drives.shape))
        assert list(curve.binding) == [ref["components"][i] for i in np.broadcast_to(ref["binding"], drives.shape)]
        assert list(curve.ceilings) == list(ref["components"])
        for name, alone in zip(ref["components"], ref["ceilings"], strict=True):
            np.testing.assert_array_equal(curve.ceilings[name], np.broadcast_to(alone, drives.shape), err_msg=name)
        np.testing.assert_array_equal(curve.per_drive_iops, np.full(drives.shape, float(ref["per_drive_iops"])))


def test_the_levels_are_kept_for_the_same_values_only():
    topo, wl = nm.preset("dell-r7525"), WORKLOADS[0]
    lv = levels_of(topo.parameters(wl))
    assert isinstance(lv, Levels) and levels_of(topo.parameters(wl)) is lv  # the very same values: kept
    equal = dict(topo.parameters(wl))
    equal["drive.rand_read_iops"] = float(str(equal["drive.rand_read_iops"]))  # equal, another object
    assert levels_of(equal) is not lv
    other = topo.parameters(wl)
    other["drive.rand_read_iops"] = 1e5
    assert levels_of(other).drive != lv.drive
    assert nm.evaluate(topo, wl, drives=[1]).iops_at(1) == lv.drive  # and the topology's own is still the kept one


def test_a_component_registered_later_is_composed_at_the_next_call():
    topo, wl = nm.preset("broadcom-stingray"), WORKLOADS[0]
    before = nm.evaluate(topo, wl, drives=[4])
    cap = Parameter("speedtest.kept_cap", "1/s", "continuous", "a test cap", lo=0, inf_ok=True, default=5e4)
    comp = Component("speedtest_kept", "a test component", 99, lambda p: Limit(system=p["speedtest.kept_cap"]),
                     declares=(cap,))
    with registered(comp):
        during = nm.evaluate(topo, wl, drives=[4])
        assert during.binding_at(4) == "speedtest_kept" and during.iops_at(4) == 5e4
        assert during.labels["speedtest_kept"] == "a test component"
    after = nm.evaluate(topo, wl, drives=[4])
    assert "speedtest_kept" not in after.ceilings and after.iops_at(4) == before.iops_at(4)
    assert "speedtest_kept" not in after.labels


def test_lazy_parts_read_like_dicts_and_pickle_as_dicts():
    curve = nm.evaluate(nm.preset("lenovo-sr850-810-4p"), WORKLOADS[1], drives=[1, 2, 4])
    assert set(curve.ceilings) == set(curve.labels) and len(curve.ceilings) == len(curve.labels)
    assert dict(curve.ceilings.items())["host_cpu"].shape == (3,)
    assert curve.sources["drive.model"] == nm.preset("lenovo-sr850-810-4p").sources(WORKLOADS[1])["drive.model"]
    back = pickle.loads(pickle.dumps(curve.ceilings))
    assert type(back) is dict and back.keys() == curve.ceilings.keys()
    np.testing.assert_array_equal(back["pcie_link"], curve.ceilings["pcie_link"])
    curve.labels["drive"] = "changed"  # a curve's labels are its own
    assert nm.evaluate(nm.preset("lenovo-sr850-810-4p"), WORKLOADS[1], drives=[1]).labels["drive"] != "changed"


@pytest.mark.parametrize("name", [*ALL_PRESETS, "mixed-attach"])
def test_every_drive_count_at_once_is_each_alone_bit_for_bit(name):
    """A curve (the host tree as complexes x drive counts, its placement kept) gives, at each drive count, the very
    bits the kernel gives for that drive count alone (the complex-by-complex loop a sweep runs), binding included."""
    cases = list(_cases(name, 10)) if name in ALL_PRESETS else list(_mixed_attach_cases(12))
    for i, (topo, wl) in enumerate(cases):
        drives = np.arange(1, topo.max_drives + 1)
        curve = nm.evaluate(topo, wl, drives=drives)
        p = _prepare(topo.parameters(wl))
        for k in drives:
            one = evaluate_prepared(p, float(k), alone=False)
            assert np.asarray(one["iops"]).tobytes() == curve.iops[k - 1:k].tobytes(), (name, i, k)
            assert one["components"][int(np.ravel(one["binding"])[0])] == curve.binding_at(k), (name, i, k)


@pytest.mark.parametrize("preset", PRESETS)
def test_one_drive_count_as_a_number_or_an_array(preset):
    """outstanding_knee and the fits pass one drive count as a number: the same value as an array of one."""
    p = _prepare(nm.preset(preset).parameters(WORKLOADS[0]))
    for k in (1, 3):
        as_number, as_array = evaluate_prepared(p, k), evaluate_prepared(p, [k])
        assert np.ravel(as_number["iops"]).tobytes() == np.ravel(as_array["iops"]).tobytes()
    assert np.isnan(nm.outstanding_knee(nm.preset(preset), WORKLOADS[0])) or nm.outstanding_knee(
        nm.preset(preset), WORKLOADS[0]) > 0
