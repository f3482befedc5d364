"""The shared figure style: human tick labels, throughput units, distinct series, the binding strip."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from nvmemodel.plots import style  # noqa: E402


def _labels(axis, fig):
    fig.canvas.draw()
    return [t.get_text() for t in axis.get_ticklabels() if t.get_text()]


@pytest.mark.parametrize(("value", "text"), [(512, "512"), (4096, "4K"), (131072, "128K"), (1 << 20, "1M"),
                                              (1_000_000, "1,000,000"), (3 << 30, "3G")])
def test_block_size_labels_are_binary_multiples(value, text):
    assert style.block_size_label(value) == text


def test_log2_size_axis_reads_4k_to_1m():
    fig, ax = plt.subplots()
    sizes = [2**k for k in range(12, 21)]
    ax.plot(sizes, np.ones(len(sizes)))
    style.log2_axis(ax, sizes, kind="size")
    assert _labels(ax.xaxis, fig) == ["4K", "8K", "16K", "32K", "64K", "128K", "256K", "512K", "1M"]
    plt.close(fig)


def test_log2_count_axis_without_values_labels_powers_of_two():
    fig, ax = plt.subplots()
    ax.plot([1, 256], [1, 2])
    style.log2_axis(ax, kind="count")
    labels = _labels(ax.xaxis, fig)
    assert {"1", "2", "4", "8", "16", "256"} <= set(labels)
    assert not any("^" in t for t in labels)
    plt.close(fig)


@pytest.mark.parametrize(("values", "kind", "unit"), [([2.5e6], "iops", "M IOPS"), ([850e3], "iops", "K IOPS"),
                                                      ([3.1e9], "bytes", "GB/s"), ([600e6], "bytes", "MB/s")])
def test_throughput_unit_reads_between_1_and_1000(values, kind, unit):
    got, size = style.throughput_unit(values, kind=kind)
    assert got == unit and 1 <= values[0] / size < 1000


def test_throughput_axis_puts_the_unit_in_the_label_once():
    fig, ax = plt.subplots()
    ax.plot([1, 2], [0.5e6, 2.5e6])
    style.throughput_axis(ax, [2.5e6], kind="iops", quantity="4K random read")
    assert ax.get_ylabel() == "4K random read (M IOPS)"
    assert ax.get_ylim()[0] == 0
    assert "2.5" in _labels(ax.yaxis, fig) or "2" in _labels(ax.yaxis, fig)
    plt.close(fig)


def test_series_styles_differ_in_colour_and_marker_and_avoid_binding_colours():
    styles = [style.series_style(i, n=4) for i in range(4)]
    assert len({s["color"] for s in styles}) == 4 and len({s["marker"] for s in styles}) == 4
    from nvmemodel.ceiling.components import color, names

    assert not {color(n).lower() for n in names()} & {c.lower() for c in style.PALETTE}


def test_binding_strip_spans_follow_the_binding_runs():
    fig, ax = plt.subplots(layout="constrained")
    x = np.arange(1, 9)
    ax.plot(x, x)
    strip = style.binding_strip(ax, {"a": (x, ["drive"] * 5 + ["switch_uplink"] * 3)})
    assert [(s[1], s[2], s[3]) for s in strip.spans] == [("drive", 0.5, 5.5), ("switch_uplink", 5.5, 8.5)]
    plt.close(fig)
