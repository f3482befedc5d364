"""Fit figures draw what the fit says: points, curve, band, labelled ceilings, residuals, binding strip."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.fitting import shapes
from nvmemodel.plots.fit import plot_fit, y_scale

from ..fitting.conftest import table


@pytest.fixture(scope="module")
def lenovo_fit():
    # 256K reads on the 810-4P x8 switch: drives bind up to 2, the uplink from 3 (LP0865); repeats give error bars
    ys = [3.0e9, 3.1e9, 6.0e9, 6.1e9, 6.2e9, 6.15e9, 6.2e9, 6.1e9]
    df = table("drives", [1, 1, 2, 2, 3, 3, 4, 4], ys, pattern="read", bs=262144, y="bytes_per_s")
    return nm.fit(df, x="drives", y="bytes_per_s", model="ceiling", topology=nm.preset("lenovo-sr850-810-4p"),
                  free=["switch.efficiency", "drive.seq_read_bytes_per_s"])


def test_ceiling_fit_figure(lenovo_fit, tmp_path):
    path = tmp_path / "fit.png"
    fig = plot_fit(lenovo_fit, path=path)
    assert path.stat().st_size > 10_000 and path.with_suffix(".svg").stat().st_size > 10_000
    main, resid, strip = fig.axes[:3]
    labels = main.get_legend_handles_labels()[1]
    # every drawn line is in the legend
    drawn = [ln.get_label() for ln in main.get_lines() if not ln.get_label().startswith("_")]
    assert set(drawn) <= set(labels)
    assert {"ceiling: switch_uplink", "ceiling: drive"} <= set(labels)
    assert any(lbl.startswith("measured") for lbl in labels) and any("95 % band" in lbl for lbl in labels)
    assert main.get_ylabel() == "bytes_per_s (GB/s)" and resid.get_ylabel() == "residual (%)"
    assert [t.get_text() for t in strip.get_legend().get_texts()] == ["binds: drive", "binds: switch_uplink"]
    # the fitted curve is evaluated at every integer drive count, not joined between measurements
    curve = next(ln for ln in main.get_lines() if ln.get_label().startswith("ceiling fit"))
    assert curve.get_xdata().tolist() == [1.0, 2.0, 3.0, 4.0]
    np.testing.assert_allclose(curve.get_ydata(), lenovo_fit.fit_of().eval([1, 2, 3, 4]) / 1e9)
    # no horizontal line at a measured value: ceilings come from the model, not from a measurement
    for ln in main.get_lines():
        y = np.asarray(ln.get_ydata(), float)
        if y.size > 1 and np.ptp(y) == 0:
            assert not np.any(np.isclose(y[0], lenovo_fit.points["y"] / 1e9, rtol=1e-9))


def test_queueing_figure_log2_axis(tmp_path):
    x = [1, 2, 4, 8, 16, 32, 64, 128]
    y = shapes.mva(np.array(x, float), 3e5, 5e-5) * (1 + 0.01 * np.sin(np.arange(8)))
    r = nm.fit(table("iodepth", x, y), x="iodepth", y="iops", model="mva")
    fig = r.plot(tmp_path / "qd.svg")
    assert fig.axes[0].get_xscale() == "log" and fig.axes[0].get_ylabel() == "iops (K IOPS)"
    assert (tmp_path / "qd.svg").exists() and len(fig.axes) == 2  # no binding strip without a ceiling model


def test_y_scale_units():
    assert y_scale([2.5e6], "1/s") == (1e6, "M IOPS")
    assert y_scale([6.2e9], "B/s") == (1e9, "GB/s")   # decimal GB, never GiB on this axis
    assert y_scale([400e-6], "s") == (1e-6, "µs")


def test_points_above_the_ceiling_are_marked(tmp_path):
    # 4 drives measured at 9 GB/s on the 810-4P: above its x8 uplink whatever the efficiency (≤ 1) — marked
    df = table("drives", [1, 2, 3, 4], [3.0e9, 6.0e9, 9.0e9, 9.0e9], pattern="read", bs=262144, y="bytes_per_s")
    r = nm.fit(df, x="drives", y="bytes_per_s", model="ceiling", topology=nm.preset("lenovo-sr850-810-4p"),
               free=["switch.efficiency"])
    fig = plot_fit(r)
    marks = [c for c in fig.axes[0].collections if c.get_label().startswith("above the model's ceiling")]
    assert len(marks) == 1
    np.testing.assert_allclose(marks[0].get_offsets()[:, 0], [3.0, 4.0])
