"""Properties: ceilings are monotone in lanes, generation and drive count; efficiencies < 1."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nvmemodel as nm
from nvmemodel.ceiling.pcie import link_iops

from .conftest import default_params

block_sizes = st.sampled_from([512, 4096, 8192, 16384, 65536, 131072, 262144, 1048576])
fractions = st.floats(0, 1)
mps = st.sampled_from([128, 256, 512, 1024])
dllp = st.sampled_from([0.0, 1.0, 2.0])


@settings(max_examples=200, deadline=None)
@given(bs=block_sizes, f=fractions, mps=mps, dllp=dllp, gen=st.integers(1, 7))
def test_link_ceiling_monotone_in_lanes(bs, f, mps, dllp, gen):
    p = default_params(**{"pcie.mps": float(mps), "pcie.dllp": dllp})
    x = [float(link_iops(gen, w, bs, f, p)) for w in (1, 2, 4, 8, 16)]
    assert all(b > a for a, b in zip(x, x[1:]))


@settings(max_examples=200, deadline=None)
@given(bs=block_sizes, f=fractions, mps=mps, dllp=dllp, lanes=st.sampled_from([1, 2, 4, 8, 16]))
def test_link_ceiling_monotone_in_generation(bs, f, mps, dllp, lanes):
    p = default_params(**{"pcie.mps": float(mps), "pcie.dllp": dllp})
    x = [float(link_iops(g, lanes, bs, f, p)) for g in range(1, 8)]
    assert all(b > a for a, b in zip(x, x[1:]))


@settings(max_examples=200, deadline=None)
@given(bs=block_sizes, f=fractions, mps=mps, dllp=dllp, gen=st.integers(1, 7), lanes=st.sampled_from([1, 4, 16]))
def test_payload_efficiency_below_one(bs, f, mps, dllp, gen, lanes):
    p = default_params(**{"pcie.mps": float(mps), "pcie.dllp": dllp})
    payload = float(link_iops(gen, lanes, bs, f, p)) * bs
    raw = float(nm.standards.pcie.raw_bytes_per_s(gen, lanes, flit=nm.FlitConvention.LINUX_KERNEL))
    # full duplex: reads fill the upstream direction, writes the downstream one
    assert payload > 0 and f * payload / raw < 1 and (1 - f) * payload / raw < 1


@pytest.mark.parametrize("name", list(nm.PRESETS))
@pytest.mark.parametrize("pattern, bs", [("randread", "4K"), ("randwrite", "4K"), ("read", "128K"),
                                         ("write", "1M"), ("randrw", "16K")])
def test_curves_monotone_in_drive_count(name, pattern, bs):
    topo = nm.preset(name)
    wl = nm.Workload(pattern, bs, read_fraction=0.7 if pattern == "randrw" else None)
    curve = nm.evaluate(topo, wl, drives=np.arange(1, topo.max_drives + 1))
    assert np.all(np.diff(curve.iops) >= -1e-6 * curve.iops[1:])
    # the system never exceeds any component alone
    for name_, alone in curve.ceilings.items():
        assert np.all(curve.iops <= alone * (1 + 1e-12)), name_


@settings(max_examples=100, deadline=None)
@given(gen=st.integers(3, 5), lanes=st.sampled_from([4, 8, 16]), n=st.integers(1, 8))
def test_switch_uplink_more_lanes_never_hurts(gen, lanes, n):
    base = nm.preset("lenovo-sr850-810-4p")
    wl = nm.Workload("read", "128K")
    narrow = base.replace(switch=base.switch.replace(up_lanes=lanes, up_gen=gen, ports=8))
    wide = base.replace(switch=base.switch.replace(up_lanes=16, up_gen=gen, ports=8))
    a = nm.evaluate(narrow, wl, drives=[n]).iops_at(n)
    b = nm.evaluate(wide, wl, drives=[n]).iops_at(n)
    assert b >= a * (1 - 1e-12)


def test_mixed_drive_limit_is_harmonic():
    d = nm.Drive(name="d", rand_read_iops=1e6, rand_write_iops=2e5, seq_read_bytes_per_s=7e9, seq_write_bytes_per_s=3e9)
    assert float(d.iops_at(4096, 0.5)) == pytest.approx(1 / (0.5 / 1e6 + 0.5 / 2e5))
    # large blocks: the bandwidth limit binds
    assert float(d.iops_at(131072, 1.0)) == pytest.approx(7e9 / 131072)
