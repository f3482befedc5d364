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
    assert labels == ["810-4p", "binds: drive", "binds: switch_uplink"]


def test_plot_waterfall_bars():
    wf = nm.pcie_waterfall(4, 4, nm.Workload("read", "128K"))
    ax = plot_waterfall(wf, unit="GB/s")
    widths = sorted(p.get_width() for p in ax.patches)
    np.testing.assert_allclose(widths, sorted(wf.bytes_per_s / 1e9))
