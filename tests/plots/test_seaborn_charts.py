"""The measured-data charts on seaborn (issue 32): the house theme applied locally, many curves readable (legend
beside the axes, every curve named in the line saying what was run), linear axes for counts swept in steps and log2
only for doubling sweeps.

The many-curve table is SYNTHETIC (seeded, generated here): 5 I/O stack names x thread counts 1-20 x 2 repeats, a
USL-shaped rate with 2 % noise, on a real fio 3.33 null-engine row (tests/data/fit/local/nulljobs) as the template."""

import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import nvmemodel as nm  # noqa: E402
from nvmemodel.plots.results import _is_doubling, plot_results  # noqa: E402

DATA = pathlib.Path(__file__).parents[1] / "data"
STACKS = ("libaio", "io_uring", "psync", "posixaio", "sync")


def synthetic_threads(seed=1, threads=range(1, 21), reps=2):
    base = nm.read_results(DATA / "fit" / "local" / "nulljobs" / "nj1_r1.json").iloc[[0]]
    rng = np.random.default_rng(seed)
    rows = []
    for k, stack in enumerate(STACKS):
        for n in threads:
            for r in range(reps):
                rate = 60e3 * (1 + 0.3 * k) * n / (1 + 0.05 * (n - 1) + 0.002 * (k + 1) * n * (n - 1))
                rate *= 1 + 0.02 * rng.standard_normal()
                rows.append(base.assign(ioengine=stack, threads=n, numjobs=n, level="group", iops=rate,
                                        source_path=f"synthetic/{stack}/t{n}_r{r}.json", lat_mean_s=n / rate,
                                        clat_mean_s=n / rate))
    return pd.concat(rows, ignore_index=True)


def test_five_stacks_twenty_threads_read_as_five_curves_on_a_linear_count_axis():
    table = synthetic_threads()
    ax = plot_results(table, x="threads", y="iops", hue="ioengine")
    assert set(ax.curves) == {f"ioengine={s}" for s in STACKS}
    # each curve's line is the mean of its two runs at every thread count (seaborn's estimator on the runs)
    for stack in STACKS:
        want = table[table.ioengine == stack].groupby("threads")["iops"].mean()
        np.testing.assert_allclose(ax.curves[f"ioengine={stack}"].get_ydata(), want.to_numpy(), rtol=1e-12)
    # 1..20 in steps: linear, whole-number ticks (a log2 axis put them at 1, 2, 3, 4, 5, 7, 9, 12, 15, 19)
    assert ax.get_xscale() == "linear"
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert len(ticks) >= 4 and all(float(t).is_integer() for t in ticks)
    # one legend entry per curve + one key for the Little's-law lines + one for the latency lines: 7, above the axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(labels) == 7 and labels[:5] == [f"ioengine={s}" for s in sorted(STACKS)]
    # the line saying what was run names every curve's engine, not the first three and "…"
    assert "io_uring / libaio / posixaio / psync / sync (one per curve)" in ax.provenance


def test_many_legend_entries_go_beside_the_axes():
    table = synthetic_threads(threads=range(1, 5), reps=1)
    table["stack"] = table["ioengine"] + "-" + table["threads"].astype(str)  # 20 curves of one point each
    ax = plot_results(table.assign(threads=1), x="threads", y="iops", hue="stack", latency=None, little=False)
    legend = ax.legend_beside  # a figure legend, right of the axes and of a latency axis's labels
    assert ax.get_legend() is None and legend is ax.figure.legends[0]
    ax.figure.canvas.draw()
    box, axes = legend.get_window_extent(), ax.get_tightbbox()
    assert len(legend.get_texts()) == 20 and box.x0 >= axes.x1  # right of the axes and their labels, over no data


def test_legend_beside_clears_the_latency_axis():
    # two real sweeps (tests/data/fio_sweep randrw, tests/data/fit/local/qd randread): 2 datasets x 3 directions with
    # seaborn's section keys make 9 entries; the legend sits right of the latency axis's tick labels and label
    a = nm.read_results(sorted((DATA / "fio_sweep").glob("qd*")))
    b = nm.read_results(DATA / "fit" / "local" / "qd")
    ax = plot_results({"randrw": a, "randread": b}, x="iodepth", y="iops")
    ax.figure.canvas.draw()
    twin = ax.latency_axis.get_tightbbox()
    assert ax.legend_beside.get_window_extent().x0 >= twin.x1


@pytest.mark.parametrize("values, doubling", [((1, 2, 4, 8, 16, 32, 64, 128), True), ((1, 2, 4), False),
                                              (range(1, 21), False), ((1, 2, 4, 8, 16, 24, 32), False),
                                              ((4096, 16384, 65536), True)])
def test_log2_only_for_a_doubling_sweep(values, doubling):
    assert _is_doubling(values) is doubling


def test_the_theme_is_local():
    before = dict(matplotlib.rcParams)
    ax = plot_results(nm.read_results(DATA / "fit" / "local" / "qd"), x="iodepth", y="iops")
    after = dict(matplotlib.rcParams)
    assert before == after  # nothing left set globally
    # drawn inside it: seaborn's whitegrid light grid and the Okabe-Ito blue of the house palette on the one curve
    from matplotlib.colors import to_hex

    assert to_hex(ax.curves["read"].get_color()) == "#0072b2"
    assert ax.xaxis.get_gridlines()[0].get_visible() and to_hex(ax.xaxis.get_gridlines()[0].get_color()) == "#cccccc"
    plt.close("all")


def test_fit_chart_along_twenty_job_counts_is_linear():
    # issue 32: the fit figure put jobs 1..20 on a log2 axis (ticks 1 2 3 4 5 7 9 12 15 19); a doubling sweep stays log2
    table = synthetic_threads(threads=range(1, 21), reps=2)
    fig = nm.fit(table[table.ioengine == "libaio"], x="numjobs", y="iops", model="usl").plot()
    ax = fig.axes[-1]
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert fig.axes[0].get_xscale() == "linear" and len(ticks) >= 4 and all(float(t).is_integer() for t in ticks)
    doubling = table[(table.ioengine == "libaio") & table.threads.isin([1, 2, 4, 8, 16])]
    assert nm.fit(doubling, x="numjobs", y="iops", model="usl").plot().axes[0].get_xscale() == "log"
    plt.close("all")


def test_runs_without_the_hues_value_are_a_curve_named_not_set():
    # seaborn leaves rows with a missing hue out without a word; the chart names them as a curve of their own
    table = nm.read_results(DATA / "fit" / "local" / "qd")  # real fio 3.33, 8 depths x 3 runs
    table["host"] = np.where(table["source_path"].str.contains("_r1"), None, "vm")
    ax = plot_results(table, x="iodepth", y="iops", hue="host")
    assert set(ax.curves) == {"host=vm", "host=(not set)"}
    unset = table[table["host"].isna()].groupby("iodepth")["iops"].mean()
    np.testing.assert_allclose(ax.curves["host=(not set)"].get_ydata(), unset.to_numpy(), rtol=1e-12)
