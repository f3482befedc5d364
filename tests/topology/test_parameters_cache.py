"""What ``Topology.parameters`` and ``prepare`` keep between calls never changes what they return."""

from __future__ import annotations

import math

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling import derive
from nvmemodel.ceiling.components import Component, Limit, registered
from nvmemodel.parameters import Parameter

WL = nm.Workload("randread", "4K")


@pytest.mark.parametrize("preset", ["dell-r7525", "lenovo-sr850-810-4p", "broadcom-stingray"])
def test_parameters_are_a_new_dict_equal_to_a_fresh_computation(preset):
    topo = nm.preset(preset)
    first = topo.parameters(WL)
    first["workload.block_size"] = 1.0  # the caller's copy: the next call is not affected
    again = topo.parameters(WL)
    assert again is not first and again == topo._parameters(WL)
    assert again["workload.block_size"] == 4096.0
    other = nm.Workload("randrw", "128K", read_fraction=0.7)
    assert topo.parameters(other) == topo._parameters(other)  # one entry per workload
    assert topo.parameters(other)["workload.block_size"] == 131072.0


def test_a_parameter_declared_later_appears_in_the_next_vector():
    topo = nm.preset("dell-r7525")
    assert "speedtest.cap" not in topo.parameters(WL)
    cap = Parameter("speedtest.cap", "1/s", "continuous", "a test cap", lo=0, inf_ok=True, default=5e5)
    comp = Component("speedtest", "a test component", 99, lambda p: Limit(system=p["speedtest.cap"]), declares=(cap,))
    with registered(comp):
        assert topo.parameters(WL)["speedtest.cap"] == 5e5
        assert nm.evaluate(topo, WL, drives=[24]).binding_at(24) == "speedtest"
    assert "speedtest.cap" not in topo.parameters(WL)


def test_extras_and_the_sign_of_zero_are_part_of_the_entry():
    topo = nm.preset("dell-r7525")
    before = topo.parameters(WL)["tree.complex_bytes_per_s"]
    topo.extras["tree.complex_bytes_per_s"] = 1e9  # a mapping changed in place (not the way to do it, but seen)
    try:
        assert topo.parameters(WL)["tree.complex_bytes_per_s"] == 1e9
    finally:
        del topo.extras["tree.complex_bytes_per_s"]
    assert topo.parameters(WL)["tree.complex_bytes_per_s"] == before
    plus, minus = nm.Workload("randrw", "4K", read_fraction=0.0), nm.Workload("randrw", "4K", read_fraction=-0.0)
    assert plus == minus  # equal workloads, yet each vector keeps its own zero
    assert math.copysign(1, topo.parameters(plus)["workload.read_fraction"]) == 1
    assert math.copysign(1, topo.parameters(minus)["workload.read_fraction"]) == -1


def test_prepare_gives_a_new_mapping_each_time_and_the_same_bits_as_computing_it():
    params = nm.preset("broadcom-stingray").parameters(WL)
    a, b = derive.prepare(params), derive.prepare(params)
    assert a is not b
    assert a.keys() == derive._prepare(params).keys()
    assert all(np.array_equal(a[k], v) or (np.isnan(a[k]) and np.isnan(v)) for k, v in derive._prepare(params).items())
    a["workload.iodepth"] = np.float64(np.inf)  # outstanding_knee does this to its copy
    assert derive.prepare(params)["workload.iodepth"] == 32.0
    # equal values that are other objects (here a zero of the other sign) are computed, not taken from the last call
    zero = dict(params, **{"host.cycles_per_io": 0.0})
    minus = dict(params, **{"host.cycles_per_io": -0.0})
    assert math.copysign(1, derive.prepare(zero)["host.cycles_per_io"]) == 1
    assert math.copysign(1, derive.prepare(minus)["host.cycles_per_io"]) == -1


def test_prepare_of_arrays_is_computed_each_time():
    params = dict(nm.preset("dell-r7525").parameters(WL))
    params["workload.block_size"] = np.array([4096.0, 8192.0])
    assert derive.prepare(params)["workload.block_size"].tolist() == [4096.0, 8192.0]
    params["workload.block_size"][1] = 16384.0  # changed in place: a kept result would be stale
    assert derive.prepare(params)["workload.block_size"].tolist() == [4096.0, 16384.0]
