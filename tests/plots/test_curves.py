"""Plots draw what the curve says (matplotlib, Agg backend)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

import nvmemodel as nm  # noqa: E402
from nvmemodel.plots import plot_scaling, plot_waterfall  # noqa: E402


def test_plot_scaling_values_and_legend():
    curve = nm.evaluate(nm.preset("lenovo-sr850-810-4p"), nm.Workload("read", "256K"))
    ax = plot_scaling(curve, unit="MB/s", label="810-4p")
    line = ax.get_lines()[0]
    np.testing.assert_allclose(line.get_ydata(), curve.bytes_per_s / 1e6)
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["810-4p"]
    # the binding component: named in the strip under the axes, one span per run (not re-coloured markers)
    assert [(row, comp) for row, comp, *_ in ax.binding_strip.spans] == [("810-4p", "drive"), ("810-4p", "switch_uplink")]
    assert ax.get_ylabel() == "bandwidth (MB/s)"


def test_plot_scaling_adds_series_with_their_own_style_and_strip_row():
    wl = nm.Workload("read", "256K")
    ax = plot_scaling(nm.evaluate(nm.preset("lenovo-sr850-direct"), wl), unit="MB/s", label="direct")
    ax = plot_scaling(nm.evaluate(nm.preset("lenovo-sr850-810-4p"), wl), unit="MB/s", label="810-4p", ax=ax)
    a, b = ax.get_lines()[:2]
    assert a.get_color() != b.get_color() and a.get_marker() != b.get_marker()
    assert sorted({row for row, *_ in ax.binding_strip.spans}) == ["810-4p", "direct"]


def test_plot_waterfall_bars():
    wf = nm.pcie_waterfall(4, 4, nm.Workload("read", "128K"))
    ax = plot_waterfall(wf, unit="GB/s")
    widths = sorted(p.get_width() for p in ax.patches)
    np.testing.assert_allclose(widths, sorted(wf.bytes_per_s / 1e9))
