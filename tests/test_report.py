"""nvmemodel.report (what notebooks write, the paper-vs-model table, the index page) and nvmemodel.tables
(the teaching tables), with the source of every expected value."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel import report, tables
from nvmemodel.errors import ParameterError, UnknownNameError


# ---------------------------------------------------------------- paper vs model
def test_measurement_above_a_ceiling_is_flagged_never_reproduced():
    # docs/physics.md §7.1: Dell measured 80.41 GiB/s, the MPS-256 ceiling is 80.20 GiB/s (+0.26 %).
    sr = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=[12])
    table = report.compare_to_paper([("dell-measured-128k-sr-12", sr.bandwidth_at(12), "measurement")])
    row = table.iloc[0]
    assert row.unit == "GiB/s" and row.paper == 80.41
    assert row.model == pytest.approx(80.20, abs=0.005)  # shown in the anchor's own unit
    assert row.diff_pct == pytest.approx(-0.26, abs=0.01)
    assert "ABOVE" in row.verdict and "+0.26%" in row.verdict and "reproduc" not in row.verdict
    assert report.above_ceiling(table) == ["dell-measured-128k-sr-12"]


def test_measurement_below_a_ceiling_and_bounds():
    # docs/physics.md §7.3: 2,811 K measured = 96.5 % of the 2,912 K ceiling
    table = report.compare_to_paper([("broadcom-rr-4k", 2912.4e3, "measurement"),
                                     ("lenovo-810-rr-cap", 1.3e6 * 1.01, "upper_bound"),
                                     ("dell-theoretical-128k-sr", 94.523e9, "ceiling", "after encoding"),
                                     ("snia-lanes-per-socket", None, "ceiling", "a platform fact")])
    assert list(table.verdict.str.slice(0, 16)) == ["measured at 96.5", "model EXCEEDS th", "model matches (+",
                                                     "not a model outp"]
    assert math.isnan(table.model.iloc[3]) and table.note.iloc[2] == "after encoding"
    text = report.format_comparison(table)
    assert "paper 94.5 GB/s | model 94.52 GB/s (+0.02 %)" in text and "note: a platform fact" in text
    assert "-0.00" not in report.format_comparison(report.compare_to_paper([("dell-rr-4k-12", 17e6 * (1 - 1e-9),
                                                                              "ceiling")]))


def test_bad_anchor_or_kind():
    with pytest.raises(UnknownNameError, match="unknown anchor 'dell-x'"):
        report.compare_to_paper([("dell-x", 1.0, "measurement")])
    with pytest.raises(ParameterError, match="kind='guess'"):
        report.compare_to_paper([("dell-rr-4k-12", 1.0, "guess")])


# ---------------------------------------------------------------- files and the index page
def test_report_writes_figure_files_manifest_and_plain_json(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd
    from PIL import Image

    rep = report.Report(tmp_path / "nb", notebook="99_test")
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([1, 2, 3], [1, 4, 9])
    data = pd.DataFrame({"x": [1, 2, 3], "y": [1, 4, 9]})
    png = rep.figure(fig, "square", caption="y = x squared (synthetic, for this test)", data=data)
    plt.close(fig)
    with Image.open(png) as im:
        assert im.size == (4 * report.FIGURE_DPI, 3 * report.FIGURE_DPI)
    manifest = json.loads((tmp_path / "nb" / report.MANIFEST).read_text())
    assert manifest["figures"][0] | {"caption": ""} == {"name": "square", "caption": "", "png": "square.png",
                                                        "svg": "square.svg", "csv": "square.csv",
                                                        "width_px": 400, "height_px": 300}
    assert (tmp_path / "nb" / "square.csv").read_text().splitlines() == ["x,y", "1,1", "2,4", "3,9"]
    key = rep.key_numbers({"a": np.float64(1.5), "b": np.arange(3), "c": {"d": np.int64(2)}, "e": float("nan")})
    assert key == {"a": 1.5, "b": [0, 1, 2], "c": {"d": 2}, "e": None}
    assert "np.float64" not in (tmp_path / "nb" / "key_numbers.json").read_text()
    with pytest.raises(ParameterError, match="caption"):
        rep.figure(fig, "x", caption=" ", data=data)
    with pytest.raises(ParameterError, match="data"):
        rep.figure(fig, "x", caption="a caption", data=data.iloc[:0])

    (tmp_path / "nb" / "99_test.ipynb").write_text(json.dumps({"cells": [
        {"cell_type": "markdown", "source": ["# A <test> title\n", "\n", "**For** testers & readers.\n", "text"]}]}))
    page = report.write_index(tmp_path).read_text()
    assert "nb: A &lt;test&gt; title" in page  # escaped
    assert "<p>For testers &amp; readers.</p>" in page
    assert "src='nb/square.png' width='400' height='300'" in page
    for link in ("nb/square.svg", "nb/square.csv", "nb/99_test.ipynb", "nb/key_numbers.json", "#nb"):
        assert f"href='{link}'" in page


def test_index_of_an_empty_folder_is_an_error(tmp_path):
    with pytest.raises(nm.NvmeModelError, match="no notebook output folders"):
        report.write_index(tmp_path)


def test_user_results_checked_before_any_fit(tmp_path):
    with pytest.raises(ParameterError, match="results='/nonexistent/runs'"):
        report.read_user_results(["/nonexistent/runs"], x="iodepth")
    (tmp_path / "notes.txt").write_text("not a benchmark result\n")
    with pytest.raises(ParameterError, match="readable benchmark result"):
        report.read_user_results([str(tmp_path)], x="iodepth")
    data = "../tests/data/fit/local/qd"
    with pytest.raises(ParameterError, match="x='qd'.*iodepth"):
        report.read_user_results([data], x="qd")
    with pytest.raises(ParameterError, match="y='iopz'"):
        report.read_user_results([data], x="iodepth", y="iopz")
    with pytest.raises(UnknownNameError, match="unknown preset"):
        report.read_user_results([data], x="iodepth", preset="dell-r7526")
    with pytest.raises(UnknownNameError, match="unknown free parameter 'switch.eficiency'"):
        report.read_user_results([data], x="drives", preset="lenovo-sr850-810-4p", free=["switch.eficiency"])
    table, topo = report.read_user_results([data + "/qd1_*.json"], x="iodepth")
    assert len(table) == 3 and topo is None  # a glob, relative to the notebooks' folder


# ---------------------------------------------------------------- teaching tables
def test_waterfall_losses_name_and_size_each_step():
    # docs/physics.md §1-3: Gen4 x4, 128K reads, MPS 256: 8 GB/s signalling, 7.877 after 128b/130b (-1.54 %),
    # 7.176 delivered (89.7 % of signalling)
    w = tables.waterfall_losses(4, 4, nm.Workload("read", "128K"))
    assert w.bytes_per_s.iloc[0] == 8e9
    assert w.loss_pct.iloc[1] == pytest.approx(100 * 2 / 130, rel=1e-9)
    assert w.bytes_per_s.iloc[-1] / 1e9 == pytest.approx(7.176, abs=1e-3)
    # the losses add up: signalling minus every loss is the delivered rate
    assert w.bytes_per_s.iloc[0] - w.loss_bytes_per_s.sum() == pytest.approx(w.bytes_per_s.iloc[-1], rel=1e-12)
    assert w.loss_pct.idxmax() == 3  # TLP headers and framing: the largest loss at MPS 256


def test_generation_rates_and_mps_effect():
    g = tables.generation_rates(4, nm.Workload("read", "128K")).set_index("gen")
    # 8b/10b at Gen1-2 (80 %), 128b/130b at Gen3-5 (PCIe base spec; docs/physics.md §1)
    assert g.encoded_bytes_per_s["Gen1"] / g.signalling_bytes_per_s["Gen1"] == pytest.approx(0.8)
    assert g.encoded_bytes_per_s["Gen5"] / g.signalling_bytes_per_s["Gen5"] == pytest.approx(128 / 130)
    eff = tables.efficiency_by_block_size(4, 4, [4096, 131072], [128, 256, 512])
    pct = eff.set_index(["mps_bytes", "block_size_bytes"]).pct_of_encoded
    # bigger TLPs amortize the header: efficiency rises with MPS at every block size
    assert pct[128, 131072] < pct[256, 131072] < pct[512, 131072]
    assert pct[256, 4096] < pct[256, 131072]  # the fixed command cost weighs more on small blocks
    assert pct[256, 131072] == pytest.approx(91.11, abs=0.01)  # docs/physics.md §7.1 (91.1 %)


def test_command_traffic_matches_the_physics_table():
    # docs/physics.md §3: a 4 KiB read at Gen4 moves 4568 B up and 140 B down
    t = tables.command_traffic(4, [4096]).set_index("direction")
    assert (t.device_to_host_bytes["read"], t.host_to_device_bytes["read"]) == (4568.0, 140.0)
    assert t.overhead_bytes["read"] == 4568 + 140 - 4096


def test_queue_depth_curve_follows_littles_law():
    topo = nm.preset("dell-r7525").replace(drive=nm.get_drive("samsung-mzwll800hehp"))
    q = tables.queue_depth_curve(topo, nm.Workload("randread", "4K"), range(1, 257))
    x_max = 800e3  # catalog: Samsung MZWLL800HEHP, 800,000 IOPS (Broadcom Stingray paper's table)
    r0 = q.latency_s.iloc[0]
    assert r0 == pytest.approx(90e-6, rel=1e-12)  # catalog latency 90 µs; a local drive has no fabric adder
    below = q.iodepth < x_max * r0
    np.testing.assert_allclose(q.iops[below], q.iodepth[below] / r0, rtol=1e-9)
    np.testing.assert_allclose(q.iops[~below], x_max, rtol=1e-9)
    assert q.knee_iodepth.iloc[0] == pytest.approx(x_max * r0, rel=1e-9)


def test_assumptions_allowing_the_dell_measurement():
    # docs/physics.md §7.1: MPS 512 83.80 GiB/s and no SKP 80.42 GiB/s allow 80.41; MPS 128 73.88 does not
    measured = 80.41 * 2**30
    f = tables.assumptions_allowing(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=12, measured=measured)
    allows = {(r.parameter, r.value): r.allows_measurement for r in f.itertuples()}
    assert allows[("pcie.mps", "512")] and allows[("pcie.skp", "0")]
    assert not allows[("pcie.mps", "256")] and not allows[("pcie.mps", "128")]
    text = tables.explain_allowing(f, measured=measured)
    assert "pcie.mps = 512" in text and "+0.26%" in text and "one of them is wrong" in text
    with pytest.raises(ParameterError, match="choices='pcie.mpz'"):
        tables.assumptions_allowing(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=12,
                                    measured=measured, choices={"pcie.mpz": [512]})


def test_fabric_tables():
    s = nm.preset("broadcom-stingray")
    wl = nm.Workload("randread", "4K", iodepth=128, io_stack="spdk")
    c = tables.fabric_ceilings(s, {"4K": wl}, ["none", "rocev2"], drives=4).set_index("transport")
    assert c.binding["rocev2"] == "fabric" and c.iops["rocev2"] == pytest.approx(2.912e6, rel=1e-3)  # §7.3
    assert c.iops["local (no fabric)"] > c.iops["rocev2"]
    m = tables.mtu_curve(s, wl, ["rocev2"], [1500, 4200], drives=4)
    assert m.iops.tolist() == pytest.approx([2.755e6, 2.912e6], rel=1e-3)  # §7.3: RoCE MTU 1024 vs 4096


def test_stack_cycles_table_has_a_source_for_every_stack():
    t = tables.stack_cycles_table()
    assert set(t.io_stack) == set(nm.PARAMETERS["workload.io_stack"].choices)
    assert (t.cycles_per_io > 0).all() and t.source.str.len().min() > 20
