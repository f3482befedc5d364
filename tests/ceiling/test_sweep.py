"""The vectorized sweep agrees with point-by-point evaluation."""

import numpy as np
import pytest

import nvmemodel as nm


def test_sweep_matches_evaluate():
    topo, wl = nm.preset("lenovo-sr850-810-4p"), nm.Workload("randread", "4K")
    mps = np.array([128, 256, 512, 256])
    bs = np.array([4096, 4096, 131072, 262144])
    res = nm.sweep(topo, wl, drives=[1, 2, 3, 4], grid={"pcie.mps": mps, "workload.block_size": bs})
    assert res.iops.shape == (4, 4)
    for i in range(4):
        t = topo.replace(pcie=nm.PcieConfig(mps=int(mps[i])))
        curve = nm.evaluate(t, wl.replace(block_size=float(bs[i])), drives=[1, 2, 3, 4])
        np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12)
        assert list(res.binding[i]) == list(curve.binding)


def test_sweep_to_frame_is_long():
    res = nm.sweep(nm.preset("dell-r7525"), nm.Workload(), drives=[1, 12, 24], grid={"host.gen": [3, 4, 5]})
    df = res.to_frame()
    assert len(df) == 9 and set(df.columns) >= {"host.gen", "drives", "iops", "bytes_per_s", "binding"}
    # more generation never lowers the ceiling
    wide = res.iops
    assert np.all(wide[1] >= wide[0]) and np.all(wide[2] >= wide[1])


def test_sweep_rejects_ragged_grid():
    with pytest.raises(nm.ParameterError, match="grid"):
        nm.sweep(nm.preset("dell-r7525"), nm.Workload(), drives=[1], grid={"host.gen": [3, 4], "pcie.mps": [256]})


def test_curve_api():
    curve = nm.evaluate(nm.preset("lenovo-sr850-810-4p"), nm.Workload("read", "256K"))
    df = curve.to_frame()
    assert list(df["drives"]) == [1, 2, 3, 4] and "switch_uplink_iops" in df
    assert curve.knee() == 3
    cs = curve.ceilings_at(4)
    assert cs[0].binding and cs[0].component == "switch_uplink" and cs[0].headroom == 0
    text = curve.explain()
    assert "3–4 drives: bound by the PCIe switch uplink" in text
    assert "6.20 GB/s" in curve.explain(4)
    assert "bends at 3 drives" in repr(curve)
    assert "<table" in curve._repr_html_()


def test_evaluate_overrides_match_a_rebuilt_topology():
    topo = nm.preset("lenovo-sr850-810-4p")
    wl = nm.Workload("read", "256K")
    a = nm.evaluate(topo, wl, overrides={"switch.efficiency": 1.0, "pcie.mps": 512})
    b = nm.evaluate(topo.replace(switch=topo.switch.replace(efficiency=1.0), pcie=nm.PcieConfig(mps=512)), wl)
    np.testing.assert_allclose(a.iops, b.iops, rtol=1e-12)
    assert a.parameters["switch.efficiency"] == 1.0
    with pytest.raises(nm.UnknownNameError, match="'switch.speed'"):
        nm.evaluate(topo, wl, overrides={"switch.speed": 2})
    with pytest.raises(nm.ParameterError, match="pcie.mps=300"):
        nm.evaluate(topo, wl, overrides={"pcie.mps": 300})


def test_sweep_takes_a_mixed_topology():
    """Was one clear error; a mixed topology is now swept by the groups' composition (tests/ceiling/test_mixed_sweep.py
    checks every configuration against evaluate_mixed)."""
    dell = nm.preset("dell-r7525")
    mixed = nm.MixedTopology("two", dell.host, (nm.DriveGroup(dell.drive, 4), nm.DriveGroup("intel-p3700-800gb", 4)))
    res = nm.sweep(mixed, nm.Workload(), drives=[1, 2])
    np.testing.assert_allclose(res.iops[0], nm.evaluate_mixed(mixed, nm.Workload(), drives=[1, 2]).iops, rtol=1e-12)


def test_the_knee_is_said_only_as_precisely_as_the_counts_evaluated():
    # Dell's 128K read curve leaves linear scaling at 21 drives (socket DMA; notebook 03); evaluated at
    # 1, 2, 4, 8, 12, 24 the first count below linear is 24, and nothing there places the bend: "between 12 and 24".
    dell = nm.preset("dell-r7525")
    sparse = nm.evaluate(dell, nm.Workload("read", "128K"))
    assert sparse.knee() == 24 and sparse.knee_words() == "bends between 12 and 24 drives"
    assert "bends between 12 and 24 drives" in repr(sparse)
    assert "Stops scaling linearly between 12 and 24 drives." in sparse.explain()
    dense = nm.evaluate(dell, nm.Workload("read", "128K"), drives=range(1, 25))
    assert dense.knee_words() == "bends at 21 drives" and "Stops scaling linearly at 21 drives." in dense.explain()
