"""Charts of measured results draw what was measured (matplotlib, Agg backend).

Expected values are computed here independently from fio's JSON (standard json module), on
the real runs in tests/data/fio_sweep and tests/data/fio_corpus (see tests/data/SOURCES.md)."""

import json
import pathlib
import warnings

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.plots.results import plot_fio_log, plot_latency_histogram, plot_results, si_format

DATA = pathlib.Path(__file__).parents[1] / "data"
SWEEP = DATA / "fio_sweep"
DEPTHS = (1, 2, 4, 8, 16, 32)


@pytest.fixture(scope="module")
def sweep():
    return nm.read_results([SWEEP / f"qd{q}" for q in DEPTHS], path_pattern="qd{qd}/run{run}.json")


def fio_json(path):
    return json.loads(pathlib.Path(path).read_text())["jobs"][0]


def expected_total_iops(qd):
    runs = [fio_json(p) for p in sorted((SWEEP / f"qd{qd}").glob("*.json"))]
    per_run = [j["read"]["iops"] + j["write"]["iops"] for j in runs]
    return np.mean(per_run), np.std(per_run, ddof=1)


def lines_by_label(ax):
    # seaborn draws the curves (issue 32): ax.curves names each measured line; the hand-drawn errorbar containers this
    # looked up by label are gone
    return ax.curves


def error_bar_tops(ax):
    """The upper ends of the drawn ±1 s.d. bars (seaborn's errorbar containers), sorted."""
    tops = []
    for c in ax.containers:
        for seg in c.lines[2][0].get_segments():
            tops.append(max(seg[:, 1]))
    return sorted(tops)


def test_total_iops_mean_and_error_bars(sweep):
    ax = plot_results(sweep, x="iodepth", y="iops")
    total = ax.summary[ax.summary.direction == "total"].sort_values("iodepth")
    assert list(total.iodepth) == list(DEPTHS) and set(total.n) == {2}
    for qd, mean, std in zip(total.iodepth, total["mean"], total["std"]):
        m, s = expected_total_iops(qd)
        assert mean == pytest.approx(m, rel=1e-12) and std == pytest.approx(s, rel=1e-9)
    line = lines_by_label(ax)["total"]
    np.testing.assert_allclose(np.asarray(line.get_ydata(), dtype=float), total["mean"].to_numpy(dtype=float))
    # seaborn's errorbar="sd" from the runs is the summary's ±1 s.d. (ddof 1): each total's mean + s.d. is a bar's top
    tops = error_bar_tops(ax)
    for top in (total["mean"] + total["std"]):
        assert min(abs(t - top) for t in tops) <= 1e-9 * top
    assert {"read", "write", "total"} <= set(lines_by_label(ax))
    assert ax.get_xscale() == "log" and list(ax.get_xticks()) == list(DEPTHS)  # log2, a tick per depth
    note = " ".join(t.get_text() for t in ax.texts)  # the line under the title: what was run, how many runs
    assert "±1 s.d." in note and "12 measured run(s)" in note and "2 runs per point" in note


def test_littles_law_line(sweep):
    ax = plot_results(sweep, x="iodepth", y="iops")
    little = ax.little["total"]  # (seaborn draws the lines; the legend's "Little's law check" entry is a key only)
    expected = []
    for qd in DEPTHS:  # N / R per run, R the I/O-weighted mean total latency of reads and writes
        vals = []
        for p in sorted((SWEEP / f"qd{qd}").glob("*.json")):
            j = fio_json(p)
            ios = [j[d]["total_ios"] for d in ("read", "write")]
            lat = sum(j[d]["lat_ns"]["mean"] * 1e-9 * n for d, n in zip(("read", "write"), ios)) / sum(ios)
            vals.append(qd / lat)
        expected.append(np.mean(vals))
    np.testing.assert_allclose(np.asarray(little.get_ydata(), dtype=float), expected, rtol=1e-9)
    # fio keeps its queue full: measured IOPS within 5 % of N/R (a check, not an identity: slat and
    # the ramp at start and end make them differ a little)
    total = ax.summary[ax.summary.direction == "total"].sort_values("iodepth")["mean"].to_numpy()
    np.testing.assert_allclose(total, expected, rtol=0.05)


def test_percentiles_have_no_total_and_latency_ticks(sweep):
    ax = plot_results(sweep, x="iodepth", y="latency")
    assert set(ax.summary.direction) == {"read", "write"}  # a p99 of all I/Os is not max(p99 read, write)
    assert ax.get_ylabel() == "p99 completion latency"
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert any(t.endswith((" ms", " µs")) for t in labels)


def test_summary_is_sorted_by_the_swept_variable(sweep):
    ax = plot_results(sweep, x="qd", y="bw", directions=["total"])
    assert list(ax.summary["qd"]) == sorted(ax.summary["qd"])
    assert ax.summary["qd"].dtype.kind == "i"  # path labels are numbers: 2 < 16
    with pytest.raises(nm.IngestError, match="y='speed'"):
        plot_results(sweep, x="qd", y="speed")


def test_several_folders_compared(sweep):
    a = nm.read_results([SWEEP / f"qd{q}" for q in (1, 2, 4)])
    b = nm.read_results([SWEEP / f"qd{q}" for q in (8, 16, 32)])
    ax = plot_results({"small": a, "large": b}, x="iodepth", y="iops", directions=["total"], little=False)
    assert set(lines_by_label(ax)) == {"dataset=small", "dataset=large"}
    assert set(ax.summary.dataset) == {"small", "large"}


@pytest.mark.parametrize("value, unit, text", [
    (1.2e6, "", "1.2 M"), (250e3, "", "250 K"), (2.5e-4, "s", "250 µs"), (3.2e9, "B/s", "3.2 GB/s"),
    (0, "", "0"), (999.96, "", "1 K"),
])
def test_si_format(value, unit, text):
    assert si_format(value, unit) == text


def test_block_size_ticks():
    assert [si_format(v, binary_sizes=True) for v in (512, 4096, 131072, 2**20, 1_000_000)] == \
        ["512", "4K", "128K", "1M", "1,000,000"]


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_png_and_svg(sweep, tmp_path, suffix, magic):
    ax = plot_results(sweep, x="iodepth", y="iops")
    out = tmp_path / f"chart{suffix}"
    ax.figure.savefig(out)
    assert out.read_bytes().startswith(magic)


def test_latency_histogram_from_json_plus():
    path = DATA / "fio_corpus" / "json-plus.jsonplus"
    read = json.loads(path.read_text())["jobs"][0]["read"]
    ax = plot_latency_histogram(path)
    heights = np.array([p.get_height() for p in ax.patches])
    assert len(heights) == len(read["clat_ns"]["bins"]) and heights.sum() == pytest.approx(1.0)
    p99 = next(l for l in ax.get_lines() if l.get_label().startswith("p99 "))
    assert p99.get_xdata()[0] == pytest.approx(read["clat_ns"]["percentile"]["99.000000"] * 1e-9)
    # a plain JSON file (no clat_ns.bins) is no longer refused: its coarse buckets are drawn (test below)
    assert "coarse" in plot_latency_histogram(DATA / "fio_corpus" / "bs-1m.json").get_title()


def test_latency_histogram_from_plain_json_draws_fios_coarse_buckets():
    # a real fio 3.33 randrw run (tests/data/fio_sweep, SOURCES.md): plain JSON carries latency_ns/us/ms, the % of the
    # job's I/Os per coarse bucket, reads and writes together (fio io_u.c io_u_mark_latency, stat.c stat_calc_lat)
    path = SWEEP / "qd8" / "run1.json"
    job = fio_json(path)
    ax = plot_latency_histogram(path)
    b = ax.buckets.set_index("key")
    expected = {f"{f}.{k}": v for f in ("latency_ns", "latency_us", "latency_ms") for k, v in job[f].items()}
    assert set(b.index) == set(expected)
    np.testing.assert_allclose(b.loc[list(expected), "percent"], list(expected.values()), rtol=0)
    # honest edges: the key is the exclusive upper edge, the key before it the lower one; the µs and ms units start
    # at 1 of theirs; >=2000 ms is open above
    assert (b.loc["latency_us.250", "lo_s"], b.loc["latency_us.250", "hi_s"]) == pytest.approx((100e-6, 250e-6))
    assert (b.loc["latency_us.2", "lo_s"], b.loc["latency_ms.2", "lo_s"]) == pytest.approx((1e-6, 1e-3))
    assert b.loc["latency_ns.2", "lo_s"] == 0 and b.loc["latency_ms.>=2000", "hi_s"] == np.inf
    # the bars drawn: one per bucket from the first to the last with I/Os, each over its bucket's edges
    used = [(p.get_x(), p.get_x() + p.get_width(), p.get_height()) for p in ax.patches if np.isfinite(p.get_height())]
    assert (4e-6 - 2e-6, 4e-6, 0.07202) in [(round(hi - lo, 12), round(hi, 12), h) for lo, hi, h in used]
    assert sum(h for _, _, h in used) == pytest.approx(sum(expected.values()))
    assert "coarse" in ax.get_title() and "reads and writes together" in ax.get_title()
    # fio's percentiles sit in the buckets they belong to (read p50 228 us in 100-250 us, which holds 41.8 %)
    p50 = next(ln for ln in ax.get_lines() if ln.get_label().startswith("read p50"))
    assert 100e-6 <= p50.get_xdata()[0] < 250e-6 and b.loc["latency_us.250", "percent"] == pytest.approx(41.843716)


def test_latency_histogram_without_any_buckets_is_refused(tmp_path):
    # fio measured no completion latency (every bucket 0): said, not an empty chart
    doc = json.loads((SWEEP / "qd8" / "run1.json").read_text())
    for f in ("latency_ns", "latency_us", "latency_ms"):
        doc["jobs"][0][f] = {k: 0.0 for k in doc["jobs"][0][f]}
    path = tmp_path / "nolat.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(nm.IngestError, match="no latency buckets"):
        plot_latency_histogram(path)


def test_time_series_from_fio_logs():
    logs = nm.read_fio_logs(sorted((DATA / "fio").glob("fioplot_*_iops.1.log")))
    ax = plot_fio_log(logs, kind="iops")
    merged = nm.merge_fio_logs(logs)
    (stairs,) = [a for a in ax.patches]
    np.testing.assert_allclose(stairs.get_data().values, merged["value"])
    assert ax.get_xlabel() == "time since job start (s)"


def test_import_stays_light():
    import subprocess
    import sys

    code = "import sys, nvmemodel; print(any(m.startswith('matplotlib') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "False"


def test_no_warnings_escape(sweep):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plot_results(sweep, x="outstanding", y="lat_mean_s")


def test_runs_without_the_swept_variable_are_named_not_plotted():
    # terse output never says iodepth: those runs are left out with a warning, not drawn at NaN
    table = nm.read_results([DATA / "fio_corpus" / "bs-1m.terse", DATA / "fio_corpus" / "bs-1m.json"])
    with pytest.warns(nm.IngestWarning, match=r"1 file\(s\) do not say their iodepth.*bs-1m.terse"):
        ax = plot_results(table, x="iodepth", y="iops")
    assert list(ax.summary.iodepth) == [1]
    with pytest.raises(nm.IngestError, match="no run says its iodepth"), pytest.warns(nm.IngestWarning):
        plot_results(nm.read_results(DATA / "fio_corpus" / "bs-1m.terse"), x="iodepth")


# --- what a storage engineer expects on a chart of measured data (issue 21) ---------------------------------

QD_RUNS = DATA / "fit" / "local" / "qd"  # real fio 3.33 runs: 8 queue depths x 3 repeats (tests/data/fit/generate.py)


def test_provenance_line_says_what_was_run():
    table = nm.read_results(QD_RUNS)
    ax = plot_results(table, x="iodepth", y="iops")
    # every value read from the runs' own JSON: fio-3.33, randread, bs=4k, iodepth 1..128, numjobs 1, libaio, one file
    assert ax.provenance == ("fio-3.33 · randread · bs 4K · iodepth 1–128 (swept) × numjobs 1 · libaio · 1 target"
                             " · 3 runs per point")
    assert any(ax.provenance in t.get_text() for t in ax.texts)
    assert ax.get_title() and "/" not in ax.get_title()  # a title that says what, not a file path


def test_iops_with_latency_on_a_second_axis_and_the_unit_in_the_label():
    table = nm.read_results(QD_RUNS)
    ax = plot_results(table, x="iodepth", y="iops")
    assert ax.get_ylabel() == "K IOPS"  # never "iops (K IOPS)"
    lat = ax.latency_axis
    (line,) = [ln for ln in lat.get_lines() if len(ln.get_xdata())]  # (the other: the legend's key, no data)
    expected = table.groupby("iodepth")["lat_mean_s"].mean().sort_index()  # one job per run: the run's own mean
    np.testing.assert_allclose(np.asarray(line.get_ydata(), dtype=float), expected.to_numpy(), rtol=1e-12)
    assert lat.get_ylim()[0] == 0 and "latency" in lat.get_ylabel()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert labels == ["1", "2", "4", "8", "16", "32", "64", "128"]


def test_latency_percentiles_against_the_swept_variable():
    from nvmemodel.plots.results import plot_percentiles

    table = nm.read_results(QD_RUNS)
    ax = plot_percentiles(table, x="iodepth")
    got = ax.curves  # seaborn draws the lines (issue 32): named in ax.curves, not by their matplotlib labels
    assert set(got) == {"p50 read", "p99 read", "p99.9 read"}
    p999 = table.groupby("iodepth")["clat_p99_9_s"].mean().sort_index()
    np.testing.assert_allclose(np.asarray(got["p99.9 read"].get_ydata(), dtype=float), p999.to_numpy(), rtol=1e-12)
    assert ax.get_yscale() == "log"
    # the tail above the median at every depth (a property of percentiles that wrong columns would break)
    assert (np.asarray(got["p99.9 read"].get_ydata()) > np.asarray(got["p50 read"].get_ydata())).all()


def test_model_overlay_with_binding_strip():
    table = nm.read_results(QD_RUNS)
    topo = nm.preset("dell-r7525").replace(drive=nm.get_drive("samsung-mzwll800hehp"))
    ax = plot_results(table, x="iodepth", y="iops", topology=topo)
    model = ax.model
    # the primer's drive (90 µs, 800 K IOPS): QD / 90 µs below the knee (Little's law), 800 K above it
    np.testing.assert_allclose(model.loc[model.iodepth <= 64, "value"], model.loc[model.iodepth <= 64, "iodepth"] / 90e-6,
                               rtol=1e-9)
    assert model.loc[model.iodepth == 128, "value"].iloc[0] == pytest.approx(800e3)
    assert list(model.binding) == ["queue_depth"] * 7 + ["drive"]
    line = next(ln for ln in ax.get_lines() if ln.get_label().startswith("model ceiling"))
    np.testing.assert_allclose(np.asarray(line.get_ydata(), dtype=float), model["value"])


def test_time_series_does_not_drop_to_zero_and_has_stats_and_latency():
    # iops, bw and clat logs of one fio-3.1 run (ns; its folder also holds fio 2.x JSON, so the unit is given)
    logs = nm.read_fio_logs(sorted((DATA / "fio").glob("fioplot_*.log")), latency_unit="ns")
    ax = plot_fio_log(logs, kind="iops")
    (stairs,) = ax.patches
    assert stairs.get_data().baseline is None  # no vertical drop to zero at the first and last bin
    merged = nm.merge_fio_logs(logs[logs.kind == "iops"])
    assert ax.stats["mean"].iloc[0] == pytest.approx(merged["value"].mean())
    assert ax.stats["cv_pct"].iloc[0] == pytest.approx(100 * merged["value"].std() / merged["value"].mean())
    assert ax.get_ylim()[0] == 0 and ax.get_title().startswith("IOPS over time")
    assert ax.latency_axis is not None and "completion latency" in ax.latency_axis.get_ylabel()


def test_edge_bins_not_reached_by_every_job_are_left_out():
    import pandas as pd

    from nvmemodel.plots.results import _full_bins

    merged = pd.DataFrame({"kind": "iops", "direction": "read", "time_s": [0.0, 1.0, 2.0, 3.0],
                           "value": [5.0, 100.0, 102.0, 40.0], "jobs": [1, 2, 2, 1]})
    kept, dropped = _full_bins(merged)
    assert list(kept.time_s) == [1.0, 2.0] and dropped == 2


def test_cli_plots_the_csv_ingest_writes(tmp_path, capsys):
    from nvmemodel.cli import main

    table = tmp_path / "table.csv"
    assert main(["ingest", str(QD_RUNS), "-o", str(table)]) == 0
    out = tmp_path / "iops.png"
    assert main(["plot", str(table), "--x", "iodepth", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    printed = capsys.readouterr().out
    # the same 8 means as straight from the result files
    direct = nm.read_results(QD_RUNS).groupby("iodepth")["iops"].mean()
    rows = [line.split() for line in printed.splitlines() if line.strip() and line.split()[0].isdigit()]
    assert [int(r[0]) for r in rows] == list(direct.index)
    np.testing.assert_allclose([float(r[2]) for r in rows], direct.to_numpy(), rtol=1e-5)


def test_cli_percentiles_and_preset(tmp_path, capsys):
    from nvmemodel.cli import main

    assert main(["plot", str(QD_RUNS), "--x", "iodepth", "--percentiles", "-o", str(tmp_path / "p.png")]) == 0
    assert main(["plot", str(QD_RUNS), "--x", "iodepth", "--preset", "dell-r7525", "-o", str(tmp_path / "m.svg")]) == 0
    assert "model:" in capsys.readouterr().out
    assert main(["plot", str(QD_RUNS), "--x", "iodepth", "--set", "host.clock_hz=3GHz", "-o", str(tmp_path / "x.png")]) == 2
    assert "--preset too" in capsys.readouterr().err
    # a model overlay the chart cannot draw is refused, not left out
    assert main(["plot", str(QD_RUNS), "--x", "iodepth", "--y", "latency", "--preset", "dell-r7525",
                 "-o", str(tmp_path / "y.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error:") and "throughput ceilings" in err and "Traceback" not in err


def test_histogram_and_time_series_titles_say_what_not_where():
    hist = plot_latency_histogram(DATA / "fio_corpus" / "json-plus.jsonplus")
    logs = plot_fio_log(nm.read_fio_logs(sorted((DATA / "fio").glob("fioplot_*_iops.1.log"))), kind="iops")
    for ax in (hist, logs):
        title = ax.get_title()
        assert title and "/" not in title and ".json" not in title and ".log" not in title
    assert "completion latency" in hist.get_title() and "1 job log(s) merged" in logs.get_title()


def test_runs_on_x_get_whole_number_ticks():
    # three runs appended in one normal,terse file (real fio 3.33, tests/data/qa4): no tick at run 0.25
    table = nm.read_results(pathlib.Path(__file__).parents[1] / "data" / "qa4" / "appended" / "normalterse.txt")
    ax = plot_results(table, x="run", y="iops")
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks)
