"""The notebooks' figures draw what their frames say: every model line at every x, measured points as markers
(never lines), ceilings dashed and named, units on the axes, every line in the legend (matplotlib, Agg)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel import tables
from nvmemodel.plots import whitepapers as wp
from nvmemodel.plots.style import tick_labels


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _lenovo():
    wl = nm.Workload("read", "256K", iodepth=64)
    return {c: nm.evaluate(nm.preset(f"lenovo-sr850-{c}"), wl, drives=range(1, 5)) for c in ("direct", "810-4p")}


def test_scaling_vs_paper_lines_markers_ceilings_and_legend():
    curves = _lenovo()
    model = wp.curves_frame(curves, bandwidth=True)
    assert list(model.columns) == ["series", "drives", "value", "binding"] and len(model) == 8
    measured = pd.DataFrame({"series": "810-4p", "drives": [3, 4], "value": 6.2e9, "label": "LP0865 text: 6,200 MB/s",
                             "calibration": True})
    ceilings = wp.ceilings_frame(curves["810-4p"], ["switch_uplink"], bandwidth=True, prefix="810-4P: ", series="810-4p")
    ax = wp.plot_scaling_vs_paper(model, unit="MB/s", measured=measured, ceilings=ceilings)
    lines = [ln for ln in ax.get_lines() if ln.get_label().startswith("model: ")]
    # one model line per series, through every drive count, in MB/s (LP0865: 6,200 MB/s from 2 drives)
    assert [ln.get_label() for ln in lines] == ["model: direct", "model: 810-4p"]
    np.testing.assert_allclose(lines[1].get_xdata(), [1, 2, 3, 4])
    np.testing.assert_allclose(lines[1].get_ydata(), curves["810-4p"].bytes_per_s / 1e6)
    # series differ in colour and marker (not only in width)
    assert lines[0].get_color() != lines[1].get_color() and lines[0].get_marker() != lines[1].get_marker()
    dashed = [ln for ln in ax.get_lines() if ln.get_label().startswith("ceiling: ")]
    assert len(dashed) == 1 and dashed[0].get_linestyle() == "--" and dashed[0].get_label().startswith("ceiling: 810-4P: ")
    assert dashed[0].get_label().endswith("[switch_uplink]") and dashed[0].get_color() == lines[1].get_color()
    np.testing.assert_allclose(dashed[0].get_ydata()[1:], 6200, rtol=1e-3)
    # measured points are a scatter (markers only); a calibration input says so and is filled
    labels = ax.get_legend_handles_labels()[1]
    assert "LP0865 text: 6,200 MB/s — calibration input" in labels and ax.calibration_shown
    offsets = next(c.get_offsets() for c in ax.collections if c.get_label().startswith("LP0865 text"))
    np.testing.assert_allclose(offsets, [[3, 6200], [4, 6200]])
    assert ax.get_ylabel() == "bandwidth (MB/s)" and ax.get_xlabel() == "drives"
    assert set(labels) >= {ln.get_label() for ln in ax.get_lines()}  # every line is in the legend
    # the binding component: a strip under the axes, not re-coloured series markers
    assert not any(lbl.startswith("model binds") for lbl in labels)
    spans = [(row, comp) for row, comp, *_ in ax.binding_strip.spans]
    assert spans == [("direct", "drive"), ("810-4p", "drive"), ("810-4p", "switch_uplink")]


def test_identical_series_are_named_as_such():
    curves = _lenovo()
    curves["direct again"] = curves["direct"]
    ax = wp.plot_scaling_vs_paper(wp.curves_frame(curves, bandwidth=True), unit="MB/s")
    labels = [ln.get_label() for ln in ax.get_lines()]
    assert "model: direct again (same values as direct)" in labels and "model: 810-4p" in labels


def test_iops_units_and_upper_bound_marker():
    curve = nm.evaluate(nm.preset("lenovo-sr850-810-4p"), nm.Workload("randread", "4K", iodepth=256, numjobs=8),
                        drives=range(1, 5))
    model = wp.curves_frame({"810-4p": curve}, bandwidth=False)
    bound = pd.DataFrame({"series": "810-4p", "drives": [4], "value": [1.3e6], "marker": "v", "label": "< 1.3 M"})
    ax = wp.plot_scaling_vs_paper(model, unit="MIOPS", measured=bound, quantity="4K random read")
    assert ax.get_ylabel() == "4K random read (M IOPS)"  # the unit once, in the label; never "MIOPS"
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), curve.iops / 1e6)
    assert ax.get_ylim()[1] >= 1.3  # the stated point is inside the axes
    assert not ax.calibration_shown  # no calibration column: a check, drawn hollow


def test_waterfall_labels_each_loss():
    frame = tables.waterfall_losses(4, 4, nm.Workload("read", "128K"))
    ax = wp.plot_waterfall_losses(frame, unit="GB/s")
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 5 and texts[0].startswith(" 7.176 (89.7 % of signalling; lost 0.08 % to NVMe command")
    assert "lost 8.57 % to data TLP headers and framing" in texts[1]
    assert "of raw" not in " ".join(texts)  # one reference only: the signalling rate
    assert ax.get_xlabel() == "payload-equivalent rate (GB/s)"


def test_bars_lines_and_points():
    frame = pd.DataFrame({"case": ["4 drives"] * 2, "transport": ["local", "rocev2"], "MIOPS": [3.27, 2.91]})
    pts = pd.DataFrame({"case": ["4 drives"], "transport": ["rocev2"], "MIOPS": [2.811], "label": ["measured"]})
    ax = wp.plot_bars(frame, category="case", group="transport", value="MIOPS", ylabel="M IOPS", points=pts)
    heights = [p.get_height() for p in ax.patches]
    assert heights == [3.27, 2.91]
    bar = ax.patches[1]
    offsets = ax.collections[0].get_offsets()
    assert offsets[0][0] == pytest.approx(bar.get_x() + bar.get_width() / 2) and offsets[0][1] == 2.811
    lines = pd.DataFrame({"qd": [1, 2, 4], "k": [1.0, 2.0, 2.0], "drive": "d"})
    ax = wp.plot_lines(lines, x="qd", y="k", series="drive", xlabel="queue depth", ylabel="K IOPS", log2x=True,
                       hlines={"ceiling: 2 K": 2.0})
    assert ax.get_xscale() == "log" and [ln.get_label() for ln in ax.get_lines()] == ["d", "ceiling: 2 K"]
    assert tick_labels(ax) == ["1", "2", "4"]  # never 2^0, 2^1


def test_block_size_axis_reads_4k_to_1m():
    eff = tables.efficiency_by_block_size(4, 4, [512, 4096, 65536, 1 << 20], [256])
    ax = wp.plot_lines(eff, x="block_size_bytes", y="pct_of_encoded", series="mps_bytes", xlabel="block size",
                       ylabel="%", log2x=True)
    labels = tick_labels(ax)
    assert labels[0] == "512" and "4K" in labels and labels[-1] == "1M"


def test_a_single_category_is_not_a_grouped_bar_chart():
    frame = pd.DataFrame({"case": ["4 drives"] * 3, "transport": ["local", "rocev2", "tcp"], "MIOPS": [3.27, 2.91, 2.95]})
    ax = wp.plot_bars(frame, category="case", group="transport", value="MIOPS", ylabel="M IOPS",
                      hatch={"tcp": "//"}, notes={"tcp": "CPU cost not modelled"})
    ax.figure.canvas.draw()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["local", "rocev2", "tcp"]
    assert ax.patches[2].get_hatch() == "//" and ax.get_legend() is None
    assert any("CPU cost not modelled" in t.get_text() for t in ax.texts)


def test_scale_units():
    assert wp.scale([1e9], "GB/s")[0] == 1.0
    assert wp.scale([2**30], "GiB/s")[0] == 1.0
    assert wp.scale([1e9], "Gb/s")[0] == 8.0
    assert wp.scale([2.5e6], "MIOPS")[0] == 2.5 and wp.scale([7.0], "IOPS")[0] == 7.0


def test_waterfall_controls_degrade_without_widgets(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_widgets(name, *a, **k):
        if name == "ipywidgets":
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_widgets)
    assert wp.waterfall_controls(lambda **k: None, generation=4, lanes=4, mps=256, block_size="128K") is None


def test_a_panel_says_when_its_model_is_an_upper_bound():
    # QA F23's figure part: the LP0865 256K-write panel drew PCIe-link lines for a drive with no write rating
    import pandas as pd

    from nvmemodel.plots import whitepapers as wp

    curve = nm.evaluate(nm.preset("lenovo-sr850-direct"), nm.Workload("write", "256K"), drives=[1, 2])
    model = wp.curves_frame({"direct": curve}, bandwidth=True)
    ax = wp.plot_scaling_vs_paper(model, unit="GB/s", note=curve.upper_bound_note)
    texts = [t.get_text().replace("\n", " ") for t in ax.texts]
    assert ax.upper_bound == curve.upper_bound_note
    assert any("sequential write bandwidth is not known" in t for t in texts)
    assert isinstance(model, pd.DataFrame)


def test_waterfall_controls_reach_gen7_and_set_their_figure():
    """The waterfall's controls go to Gen7 (the model knows PCIe 7.0) and show the figure by setting their Output
    widget's outputs, never by capturing (the cause of the headless hang: tests/test_notebook_runs_headless.py)."""
    pytest.importorskip("ipywidgets")
    import nvmemodel as nm
    from nvmemodel import tables

    drawn = []

    def draw(gen, lanes, mps, bs):
        drawn.append(gen)
        return wp.plot_waterfall_losses(tables.waterfall_losses(gen, lanes, nm.Workload("read", bs),
                                                                pcie=nm.PcieConfig(mps=mps)))

    controls = wp.waterfall_controls(draw, generation=4, lanes=4, mps=256, block_size="128K")
    gen = controls.children[0]
    assert (gen.min, gen.max) == (1, 7)
    gen.value = 7
    assert drawn == [4, 7]
    assert [o["output_type"] for o in controls.children[-1].outputs] == ["display_data"]
