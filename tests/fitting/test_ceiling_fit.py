"""The ceiling model as a fit: discrete free parameters, the smooth variant, axes other than drives."""

import numpy as np
import pytest

import nvmemodel as nm

from .conftest import table


def test_dell_mps_as_a_choice():
    # Dell DfD: 80.41 GiB/s at 12 drives (128K read) is above the MPS-256 ceiling; freeing pcie.mps as a
    # choice picks the smallest MPS whose ceiling allows the measurement: 512 (a larger MPS lifts it further)
    r = nm.fit(table("drives", [12], [80.41 * 2**30], pattern="read", bs=131072, y="bytes_per_s"), x="drives",
               y="bytes_per_s", model="ceiling", topology=nm.preset("dell-r7525"), free=["pcie.mps"])
    p = r.params.set_index("name")
    assert p.loc["pcie.mps", "value"] == 512 and p.loc["pcie.mps", "status"] == "free"
    assert r.findings[()] == []                       # with MPS 512 nothing is above the ceiling
    assert r.ceilings([12])["ceiling"].iloc[0] >= 80.41 * 2**30
    assert "pcie.mps = 512" in r.explain()


def test_indistinguishable_choice_is_flagged():
    r = nm.fit(table("drives", [1, 2, 3, 4], [3.0e9, 6.05e9, 6.2e9, 6.15e9], pattern="read", bs=262144,
                     y="bytes_per_s"), x="drives", y="bytes_per_s", model="ceiling",
               topology=nm.preset("lenovo-sr850-810-4p"), free=["switch.efficiency", "pcie.dllp"])
    assert "pcie.dllp is not identifiable" in r.summary()   # the fitted efficiency absorbs any DLLP charge


def test_smooth_ceiling_recovers_a_gradual_bend():
    # synthetic: the Lenovo 810-4P 4K random-read curve with its knee softened (generalized mean, p = 6)
    lenovo = nm.preset("lenovo-sr850-810-4p")
    wl = nm.Workload("randread", "4K")
    from nvmemodel.fitting.ceiling import ceiling_shape

    shape = ceiling_shape(lenovo, wl, x="drives", y_unit="1/s", free=["switch.per_command_s"], smooth=True)
    x = np.array([1.0, 2, 3, 4])
    truth = {"switch__per_command_s": 7.6923e-7, "sharpness": 6.0}
    y = shape.func(x, **truth)
    r = nm.fit(table("drives", x, y), x="drives", y="iops", model=["ceiling", "ceiling_smooth"], topology=lenovo,
               workload=wl, free=["switch.per_command_s"])
    smooth = r.fit_of(model="ceiling_smooth")
    assert smooth.values["sharpness"] == pytest.approx(6.0, rel=0.05)
    assert smooth.stats["rss"] < r.fit_of(model="ceiling").stats["rss"]


def test_queue_depth_axis_uses_the_same_model():
    # along iodepth the ceiling model's Little's-law term binds at low depth: X = QD / R0 per drive
    dell = nm.preset("dell-r7525")
    wl = nm.Workload("randread", "4K")
    qd = np.array([1.0, 2, 4, 8, 16, 32, 64, 128, 256])
    truth = {"drive.read_latency_s": 80e-6}
    y = [nm.evaluate(dell, wl, drives=[1], overrides={**truth, "workload.iodepth": q}).iops[0] for q in qd]
    r = nm.fit(table("iodepth", qd, y), x="iodepth", y="iops", model="ceiling", topology=dell, workload=wl,
               free=["drive.read_latency_s"], drives=1)
    assert r.params.set_index("name").loc["drive.read_latency_s", "value"] == pytest.approx(80e-6, rel=1e-3)
    # 256 / 80 µs = 3.2 M > the drive's 1.45 M IOPS: the drive binds there
    assert r.ceilings([1, 256])["binding"].tolist() == ["queue_depth", "drive"]


def test_block_size_axis():
    lenovo = nm.preset("lenovo-sr850-810-4p")
    wl = nm.Workload("read", "4K")
    bs = np.array([4096.0, 16384, 65536, 262144])
    y = [nm.evaluate(lenovo, wl, drives=[4], overrides={"workload.block_size": b}).bytes_per_s[0] for b in bs]
    r = nm.fit(table("block_size_bytes", bs, y, pattern="read", y="bytes_per_s"), x="block_size_bytes", y="bytes_per_s",
               model="ceiling", topology=lenovo, workload=wl, free=["switch.efficiency"], drives=4)
    assert r.fit_of().stats["r2"] > 0.9999
    assert r.ceilings([4096, 262144])["binding"].tolist() == ["switch_processing", "switch_uplink"]


def test_ceiling_knee_with_interval():
    # synthetic 256K reads on the 810-4P with 1 % noise, 2 repeats: the knee is at 3 drives (2 x 3.1 = 6.2 GB/s)
    lenovo = nm.preset("lenovo-sr850-810-4p")
    x = np.repeat([1.0, 2, 3, 4], 2)
    y = np.array([3.1e9, 6.2e9, 6.2e9, 6.2e9]).repeat(2) * (1 + 0.01 * np.random.default_rng(5).standard_normal(8))
    r = nm.fit(table("drives", x, y, pattern="read", bs=262144, y="bytes_per_s"), x="drives", y="bytes_per_s",
               model="ceiling", topology=lenovo, free=["switch.efficiency", "drive.seq_read_bytes_per_s"])
    knee = r.derived().set_index("name").loc["knee_n"]
    assert knee["value"] == 3 and knee["ci_low"] <= 3 <= knee["ci_high"]
    assert "Knee at drives = 3" in r.explain()
