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
    assert main.get_ylabel() == "throughput (GB/s)" and resid.get_ylabel() == "fitted ÷ measured − 1 (%)"
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
    assert fig.axes[0].get_xscale() == "log" and fig.axes[0].get_ylabel() == "K IOPS"
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


def test_fit_figure_title_ticks_plateau_and_ceilings(tmp_path):
    # a QD sweep of one drive on the Dell preset: the title says what was measured (never a file path), the x
    # ticks read 1 2 4 … 64, the measured level is drawn with its band, the preset's component ceilings too
    from nvmemodel.plots.style import tick_labels

    x = np.array([1, 2, 4, 8, 16, 32, 64.0])
    xs = np.repeat(x, 3)
    y = np.repeat(shapes.littles_hard(x, 1.4e6, 2e-5), 3) * (1 + 0.01 * np.random.default_rng(0).standard_normal(21))
    r = nm.fit(table("iodepth", xs, y, extra={"tool_version": "fio-3.33", "ioengine": "libaio", "numjobs": 1}),
               x="iodepth", y="iops", topology=nm.preset("dell-r7525"))
    fig = r.plot(tmp_path / "qd.png")
    main = fig.axes[0]
    title = main.get_title()
    assert title.startswith("4K random read IOPS vs queue depth") and "fio-3.33 · libaio" in title
    assert "/" not in title.split("\n")[0] and ".json" not in title
    assert tick_labels(main.figure.axes[1]) == ["1", "2", "4", "8", "16", "32", "64"]
    labels = main.get_legend_handles_labels()[1]
    # a level the facts state: the measured level the text states, with its points' range, no fitted cap beside it
    assert any(lbl.startswith("measured level 1.40 M IOPS (points ") for lbl in labels)
    assert not any(lbl.startswith("cap x_max") for lbl in labels)
    assert "ceiling: drive (model, no free parameter)" in labels


def test_block_size_fit_figure_has_human_ticks_and_both_ceilings(tmp_path):
    from nvmemodel.plots.style import tick_labels

    # a seeded per-I/O + per-byte series still rising at its largest size: no level is stated, the fit's two
    # ceilings are read in the text and drawn
    bs = np.array([4096, 8192, 16384, 32768, 65536.0])
    y = shapes.per_io_byte_bytes(bs, 4e5, 3e9) * (1 + 0.01 * np.sin(bs))
    r = nm.fit(table("block_size_bytes", bs, y, y="bytes_per_s"), x="block_size_bytes", y="bytes_per_s")
    fig = r.plot(tmp_path / "bs.png")
    assert tick_labels(fig.axes[1]) == ["4K", "8K", "16K", "32K", "64K"]
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert any(lbl.startswith("IOPS ceiling") for lbl in labels) and any(lbl.startswith("bandwidth ceiling")
                                                                         for lbl in labels)


def test_block_size_fit_figure_draws_no_fitted_ceiling_beside_a_level_the_data_state(tmp_path):
    """Where the bandwidth levels at the largest sizes (a byte limit the facts state), explain() reads no fitted
    ceiling (round 8's rule: the model is not the story) and the figure draws none either (the notebook-06 block-size
    figure drew "IOPS ceiling 43.99 K IOPS (fitted)" beside a text that states only the measured byte limit)."""
    bs = np.array([4096, 16384, 65536, 262144, 1048576.0])
    y = shapes.per_io_byte_bytes(bs, 4e5, 3e9) * (1 + 0.01 * np.sin(bs))
    r = nm.fit(table("block_size_bytes", bs, y, y="bytes_per_s"), x="block_size_bytes", y="bytes_per_s")
    assert "ceiling" not in r.explain()
    labels = r.plot(tmp_path / "bs.png").axes[0].get_legend_handles_labels()[1]
    assert not any("ceiling" in lbl or "crossover" in lbl for lbl in labels)


def test_step_is_shaded(tmp_path):
    x = np.arange(1, 13, dtype=float)
    y0 = np.where(x <= 6, x, np.where(x <= 7, 6.0, 6.0 + 0.9 * (x - 7))) * 3e9
    xs = np.repeat(x, 3)
    y = np.repeat(y0, 3) * (1 + 0.01 * np.random.default_rng(5).standard_normal(xs.size))
    fig = nm.fit(table("targets", xs, y, y="bytes_per_s"), x="targets", y="bytes_per_s").plot(tmp_path / "s.png")
    assert any(lbl.startswith("second regime?") for lbl in fig.axes[0].get_legend_handles_labels()[1])


FIT_DATA = __import__("pathlib").Path(__file__).parents[1] / "data" / "fit"


def _band_top(fig):
    band = next(c for c in fig.axes[0].collections if c.get_label().startswith("95 % band"))
    return max(p.vertices[:, 1].max() for p in band.get_paths())


def test_the_band_is_shown_up_to_twice_the_largest_measurement(tmp_path):
    # heldout/rising: a 3-point QD sweep (9.9 / 21.4 / 35.7 K IOPS); the linear fit's band reaches 47.7 K IOPS at
    # QD 4, above 1.15 × the largest drawn value (40.0 K, the QD-4 error bar): the axis was cut at 46.0 K
    fig = nm.fit(nm.read_results(FIT_DATA / "heldout" / "rising"), x="iodepth", y="iops").plot(tmp_path / "r.png")
    ax = fig.axes[0]
    assert ax.get_ylim()[1] >= _band_top(fig) > 46.0
    assert not [t for t in ax.texts if "continues above" in t.get_text()]  # all of it is in view: nothing to say


def test_a_band_cut_at_twice_the_largest_measurement_is_said_to_continue(tmp_path):
    # adv/rate (rate_iops-limited, flat at 19.7 K IOPS from QD 4) forced onto a line: its band reaches ~64 K IOPS
    # at QD 32, more than 2 × the largest measurement + sd (20.6 K): the axis stops there and the figure says so
    from nvmemodel.fitting.wording import fmt_y

    r = nm.fit(nm.read_results(FIT_DATA / "adv" / "rate"), x="iodepth", y="iops", model="linear")
    fig = r.plot(tmp_path / "lin.png")
    ax = fig.axes[0]
    data_top = float((r.points["y"] + r.points["y_std"].fillna(0)).max())
    top = ax.get_ylim()[1] * 1e3
    assert top == pytest.approx(2 * data_top, rel=1e-9) and _band_top(fig) * 1e3 > top
    band_hi = float(r.fit_of().band(np.array([32.0]))[1][0])
    notes = [t.get_text() for t in ax.texts if "continues above" in t.get_text()]
    assert notes == [f"band continues above ↑ (to {fmt_y(band_hi, '1/s')})"]


def test_ceilings_above_the_chart_are_named_with_their_values(tmp_path):
    # QA F36: adv/qd (≤ 58.7 K IOPS) on the dell-r7525 preset: every component ceiling is ≥ 1.45 M IOPS (the
    # drive's spec-sheet 4K random read), none is drawn — the figure names each with its value instead
    from nvmemodel.fitting.ceiling import ceiling_profile

    r = nm.fit(nm.read_results(FIT_DATA / "adv" / "qd"), x="iodepth", y="iops", topology=nm.preset("dell-r7525"))
    fig = r.plot(tmp_path / "dell.png")
    ax = fig.axes[0]
    labels = ax.get_legend_handles_labels()[1]
    assert not [lbl for lbl in labels if lbl.startswith("ceiling:")]
    notes = [lbl for lbl in labels if lbl.startswith("ceilings above the chart:")]
    assert len(notes) == 1 and notes[0].endswith(" M IOPS")
    note = " ".join(notes[0].split())
    prof = ceiling_profile(*r.setup(()), x="iodepth", values=np.arange(1, 65.0), drives=r.drives, y_unit="1/s")
    comps = [c for c in prof.columns if c not in ("x", "ceiling", "binding") and np.isfinite(prof[c]).all()]
    assert {"drive", "pcie_link", "host_cpu"} <= set(comps)
    for c in comps:  # each named with its value in M IOPS (constant along iodepth here), lowest first
        assert f" {c} {prof[c].min() / 1e6:.3g}" in note
    assert "drive 1.45," in note and note.index("drive") < note.index("pcie_link") < note.index("host_cpu")


def test_ceilings_above_the_chart_per_curve(tmp_path):
    # two curves (by=host): one entry per component when both topologies give it the same value, one per curve
    # (named, each with its own unit prefix) when they differ — one curve's ceiling never stands for another's
    import pandas as pd

    from ..fitting.conftest import table

    x = np.repeat([1, 2, 4, 8, 16, 32.0], 2)
    a = table("iodepth", x, shapes.littles_hard(x, 6e4, 1e-4) * (1 + 0.01 * np.sin(np.arange(12))),
              extra={"host": "a"})
    b = table("iodepth", x, shapes.littles_hard(x, 9e4, 1e-4) * (1 + 0.01 * np.cos(np.arange(12))),
              extra={"host": "b"}).assign(source_path=[f"b{i}.json" for i in range(12)])
    df = pd.concat([a, b], ignore_index=True)

    def note(topology):
        fig = nm.fit(df, x="iodepth", y="iops", by="host", topology=topology).plot()
        (text,) = [lbl for lbl in fig.axes[0].get_legend_handles_labels()[1] if lbl.startswith("ceilings above")]
        return " ".join(text.split())

    same = note(nm.preset("dell-r7525"))
    assert "(host=" not in same and same.count("drive ") == 1 and "drive 1.45," in same
    two = note({"a": nm.preset("dell-r7525"), "b": nm.preset("lenovo-sr850-direct")})
    assert "drive (host=a) 1.45 M IOPS," in two and "drive (host=b) " in two and " drive 1.45" not in two


def test_a_synchronous_iodepth_sweep_is_drawn_as_a_level_not_a_load_curve(tmp_path):
    # QA4 F8: psync, iodepth 1-32 (real fio 3.33 runs, tests/data/qa4/psyncqd): only the level is fitted and drawn
    import pathlib

    res = nm.fit(nm.read_results(pathlib.Path(__file__).parents[1] / "data" / "qa4" / "psyncqd"), x="iodepth",
                 y="iops")
    fig = plot_fit(res, path=tmp_path / "psync.png")
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert "level (fitted constant: iodepth is not a load here)" in labels
    assert not any(lbl.startswith(("usl", "amdahl", "littles", "mva", "linear")) for lbl in labels)


def test_block_size_figure_draws_the_level_the_explanation_states(tmp_path):
    """Along block size the level drawn is the cap fact's (the sizes and values the text names), not a second plateau
    over other sizes: notebook 06's fio 3.33 series (tests/data/fit/local/bs, made here) drew "measured plateau
    0.966 GB/s" from 64 KiB beside a text stating a byte limit near 1.1 GB/s at the two largest sizes."""
    import pathlib

    sizes = nm.read_results(pathlib.Path(__file__).parents[1] / "data" / "fit" / "local" / "bs")
    r = nm.fit(sizes, x="block_size_bytes", y="bytes_per_s")
    assert "a byte limit near 1.1 GB/s" in r.explain()
    ax = r.plot(tmp_path / "bs.png").axes[0]
    handles, labels = ax.get_legend_handles_labels()
    assert not any(lbl.startswith("measured plateau") for lbl in labels)
    (line,) = [h for h, lbl in zip(handles, labels) if lbl.startswith("measured byte level")]
    assert list(line.get_xdata()) == [262144.0, 1048576.0]
    assert line.get_ydata()[0] == pytest.approx(1.099, rel=2e-3)  # GB/s drawn, the cap the text states


def test_load_axis_fit_figure_draws_no_fitted_cap_beside_a_level_the_data_state(tmp_path):
    """Along a load axis, where the facts state a level, explain() reads no cap, knee or latency floor from a
    Little's-law fit (round 8's rule) and the figure draws none either: notebook 06's fio 3.33 null-engine jobs sweep
    (tests/data/fit/local/nulljobs, made here) drew "cap x_max = 4.94 M IOPS (fitted; below the largest measurement)"
    and the n / r0 line beside a text stating only the measured level from 2 jobs. The level drawn is the one stated,
    its band the lowest to the highest point over the jobs it covers."""
    import pathlib

    from nvmemodel.fitting.facts import curve_facts

    jobs = nm.read_results(pathlib.Path(__file__).parents[1] / "data" / "fit" / "local" / "nulljobs")
    r = nm.fit(jobs, x="numjobs", y="iops")
    assert r.chosen[()] in ("littles", "littles_soft", "mva")
    text = r.explain()
    assert "saturated from numjobs = 2" in text and "x_max" not in text and "latency floor" not in text
    ax = r.plot(tmp_path / "nulljobs.png").axes[0]
    handles, labels = ax.get_legend_handles_labels()
    assert not any(lbl.startswith("cap x_max") or "n / r0" in lbl for lbl in labels), labels
    s = curve_facts(r, ()).saturation.facts
    (line,) = [h for h, lbl in zip(handles, labels) if lbl.startswith("measured level")]
    assert list(line.get_xdata()) == [s["onset_x"], s["plateau_x_to"]] == [2.0, 8.0]
    assert line.get_ydata()[0] == pytest.approx(s["plateau"] / 1e6)  # M IOPS drawn, the level the text states


def test_load_axis_fit_figure_keeps_the_fitted_lines_of_a_still_rising_series(tmp_path):
    """A seeded Little's-law series still rising at its largest queue depth (no level stated): the fitted cap and the
    n / r0 line stay, the cap labelled as the model's."""
    x = np.repeat(np.array([1, 2, 4, 8, 16.0]), 3)
    rng = np.random.default_rng(7)
    y = shapes.littles_hard(x, 2e6, 2e-5) * (1 + 0.01 * rng.standard_normal(x.size))  # knee at 40: beyond the data
    r = nm.fit(table("iodepth", x, y), x="iodepth", y="iops", model="littles")
    assert "still rises" in r.explain()
    labels = r.plot(tmp_path / "rising.png").axes[0].get_legend_handles_labels()[1]
    assert any(lbl.startswith("cap x_max") and "(fitted" in lbl for lbl in labels), labels
    assert "Little's law n / r0 (fitted latency floor)" in labels
    assert not any(lbl.startswith("measured level") for lbl in labels)


def test_load_axis_plateau_drawn_is_the_number_the_explanation_states(tmp_path):
    """The dotted plateau's value is the one explain() states: notebook 06's fio 3.33 libaio QD sweep
    (tests/data/fit/local/qd, made here) said "flattens at 50.24 K IOPS" (the mean of the 12 runs from the onset)
    while the legend read "measured plateau 50.86 K IOPS" (the points' level) — two numbers for one plateau."""
    import pathlib
    import re

    qd = nm.read_results(pathlib.Path(__file__).parents[1] / "data" / "fit" / "local" / "qd")
    r = nm.fit(qd, x="iodepth", y="iops")
    said = re.search(r"flattens at ([0-9.]+) K IOPS", r.explain())
    assert said is not None
    ax = r.plot(tmp_path / "qd.png").axes[0]
    handles, labels = ax.get_legend_handles_labels()
    (line,) = [h for h, lbl in zip(handles, labels) if lbl.startswith("measured plateau")]
    (label,) = [lbl for lbl in labels if lbl.startswith("measured plateau")]
    assert f"measured plateau {said.group(1)} K IOPS" in label
    assert line.get_ydata()[0] == pytest.approx(float(said.group(1)), abs=0.006)  # K IOPS drawn
    assert line.get_xdata()[0] == 16.0  # from the onset the text names


def _step_down_along_size():
    # two measured byte levels along block size, 1.25–1.29 GB/s to 2 MiB then 1.02–1.03 GB/s from 4 MiB (the shape of
    # round 21's tiered dm volume, here synthetic): no per-I/O + per-byte curve describes a step down
    sizes = [2.0 ** k * 1024 for k in range(7, 15)]
    ys = [1.246e9, 1.290e9, 1.254e9, 1.282e9, 1.270e9, 1.024e9, 1.016e9, 1.028e9]
    return table("block_size_bytes", sizes, ys, pattern="write", y="bytes_per_s",
                 extra={"iodepth": 32, "numjobs": 4, "ioengine": "io_uring"})


def test_a_chosen_fit_the_words_do_not_read_is_drawn_faint_without_a_band(tmp_path):
    r = nm.fit(_step_down_along_size(), x="block_size_bytes", y="bytes_per_s")
    assert not r.requested and r.fit_of().stats["r2"] < 0.9
    fig = r.plot(tmp_path / "step.png")
    ax = fig.axes[0]
    labels = ax.get_legend_handles_labels()[1]
    fit_line = next(ln for ln in ax.get_lines() if " fit " in ln.get_label() or ln.get_label().endswith(" fit"))
    assert "does not describe the points, not read" in fit_line.get_label()
    assert fit_line.get_linestyle() == ":" and fit_line.get_linewidth() < 1.5
    assert not [lbl for lbl in labels if lbl.startswith("95 % band")]
    # both levels the words state are drawn, each over its own sizes
    levels = [ln for ln in ax.get_lines() if ln.get_label().startswith("measured byte level")]
    assert len(levels) == 2
    spans = sorted((float(min(ln.get_xdata())), float(max(ln.get_xdata()))) for ln in levels)
    assert spans == [(128 * 1024.0, 2 * 1024.0 ** 2), (4 * 1024.0 ** 2, 16 * 1024.0 ** 2)]
    assert "R² -0" not in " ".join(labels)


def test_a_model_the_caller_named_keeps_its_line_and_band(tmp_path):
    r = nm.fit(_step_down_along_size(), x="block_size_bytes", y="bytes_per_s", model="per_io_byte")
    assert r.requested and r.to_dict()["model_requested"] is True
    fig = r.plot(tmp_path / "asked.png")
    ax = fig.axes[0]
    fit_line = next(ln for ln in ax.get_lines() if ln.get_label().startswith("per_io_byte fit"))
    assert fit_line.get_linestyle() == "-" and "not read" not in fit_line.get_label()
    assert [lbl for lbl in ax.get_legend_handles_labels()[1] if lbl.startswith("95 % band")]
