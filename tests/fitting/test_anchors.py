"""The whitepaper anchors (data/whitepapers/anchors.csv): a ceiling-model fit to each paper's stated points
names the paper's bottleneck, and a stated measurement above the model's ceiling is reported as a
falsified assumption, never as reproduced."""

import csv
import pathlib

import numpy as np
import pytest

import nvmemodel as nm

from .conftest import table

with open(pathlib.Path(__file__).parents[2] / "data/whitepapers/anchors.csv", encoding="utf-8") as _f:
    ANCHORS = {r["id"]: r for r in csv.DictReader(_f)}


def _si(anchor_id):
    return float(ANCHORS[anchor_id]["value_si"])


def test_lp0865_x8_uplink_caps_sequential_reads():
    # "capped to 6,200 MB/s once more than two disks are attached" → stated points at 3 and 4 drives
    cap = _si("lenovo-810-sr-cap")
    r = nm.fit(table("drives", [3, 4], [cap, cap], pattern="read", bs=262144, y="bytes_per_s"), x="drives",
               y="bytes_per_s", model="ceiling", topology=nm.preset("lenovo-sr850-810-4p"), free=["switch.efficiency"])
    assert set(r.ceilings([3, 4])["binding"]) == {"switch_uplink"}
    text = r.explain()
    assert "switch uplink" in text and "FALSIFIED" not in text
    # 2 drives give 2 x 3.1 GB/s = the uplink's 6.2 exactly; the third is the first that adds nothing
    assert "leaves linear scaling at 3 drives" in text and "each further drive adds nothing" in text
    assert "12.4 GB/s" in text   # lifting the uplink: the four drives' 4 x 3.1 GB/s (LP0865's x16 case)
    pts = r.explain_points()
    assert pts["binding"].tolist() == ["switch_uplink"] * 2 and np.allclose(pts["efficiency"], 1.0)
    # 3 and 4 drives at 3.1 GB/s each could give 9.3 and 12.4 GB/s: +50 % and +100 % above the uplink's 6.2
    assert pts["drive_headroom"].tolist() == pytest.approx([0.5, 1.0], rel=1e-3)


def test_lp0865_switch_processing_caps_random_reads():
    # "random read IOPS of 810-4P x8 adapter is capped below 1.3 million IOPS"
    cap = _si("lenovo-810-rr-cap")
    r = nm.fit(table("drives", [3, 4], [cap, cap]), x="drives", y="iops", model="ceiling",
               topology=nm.preset("lenovo-sr850-810-4p"), free=["switch.per_command_s"])
    assert set(r.ceilings([3, 4])["binding"]) == {"switch_processing"}
    assert r.params.set_index("name").loc["switch.per_command_s", "value"] == pytest.approx(1 / cap, rel=1e-3)


def test_r7525_drives_then_cpu():
    # "17M 4KiB RR IOPS" at 12 drives: the drives bind there; the model's CPU binds by 24 drives
    r = nm.fit(table("drives", [12], [_si("dell-rr-4k-12")]), x="drives", y="iops", model="ceiling",
               topology=nm.preset("dell-r7525"), free=["drive.rand_read_iops"])
    prof = r.ceilings([12, 24])
    assert prof["binding"].tolist() == ["drive", "host_cpu"]
    assert r.params.set_index("name").loc["drive.rand_read_iops", "value"] == pytest.approx(17e6 / 12, rel=1e-3)
    assert "solved exactly" in r.summary()


def test_r7525_measurement_above_the_link_ceiling_is_a_finding():
    # "80.41GiBs at 128KiB" with 12 drives: 0.3 % above the MPS-256 PCIe-link ceiling of the model
    r = nm.fit(table("drives", [12], [_si("dell-measured-128k-sr-12")], pattern="read", bs=131072, y="bytes_per_s"),
               x="drives", y="bytes_per_s", model="ceiling", topology=nm.preset("dell-r7525"),
               free=["drive.seq_read_bytes_per_s"])
    (finding,) = r.findings[()]
    assert finding["binding"] == "pcie_link" and finding["excess"] == pytest.approx(0.0025, abs=0.001)
    assert any(fix.startswith("pcie.mps = 512") for fix in finding["reconcile"])
    text = r.explain()
    assert "FALSIFIED" in text and "not reproduced" in text


def test_stingray_network_binds():
    # Stingray: 4K random read 2811 KIOPS and 128K random read 91.16 Gb/s from 4 drives over 100GbE
    stingray = nm.preset("broadcom-stingray")
    r = nm.fit(table("drives", [4], [_si("broadcom-rr-128k")], bs=131072, y="bytes_per_s"), x="drives",
               y="bytes_per_s", model="ceiling", topology=stingray, free=["drive.rand_read_iops"])
    assert r.ceilings([4])["binding"].tolist() == ["fabric"]


def test_repeats_within_their_noise_above_a_ceiling_are_not_a_finding():
    # two runs per point around LP0865's x8 cap (6.2 GB/s, the uplink binds from 3 drives): means 1 % above it
    # with a ±2 % spread are noise (within 2 standard errors), means 1 % above with a ±0.1 % spread are not
    cap = _si("lenovo-810-sr-cap")
    topo = nm.preset("lenovo-sr850-810-4p")

    def fit(spread):
        ys = [cap * (1.01 + spread), cap * (1.01 - spread)] * 2
        return nm.fit(table("drives", [3, 3, 4, 4], ys, pattern="read", bs=262144, y="bytes_per_s"), x="drives",
                      y="bytes_per_s", model="ceiling", topology=topo, free=["drive.seq_read_bytes_per_s"])

    assert fit(0.02).findings[()] == []
    (finding,) = fit(0.001).findings[()]
    assert finding["binding"] == "switch_uplink" and finding["excess"] == pytest.approx(0.01, abs=2e-3)
