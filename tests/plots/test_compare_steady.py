"""The chart of a comparison and fio's steady-state window on a time series, on the real runs of
tests/data/compare/ and tests/data/steadystate/ (measured here with fio 3.33; their READMEs)."""

import pathlib

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import nvmemodel as nm  # noqa: E402
from nvmemodel import cli  # noqa: E402
from nvmemodel.plots.compare import plot_comparison  # noqa: E402
from nvmemodel.plots.results import plot_fio_log  # noqa: E402

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"


def test_the_comparison_chart_has_a_panel_per_metric_a_row_per_point_and_the_verdict_colours():
    c = nm.compare(DATA / "compare/psync", DATA / "compare/libaio", ignore=["ioengine"], metrics=["iops", "p99"])
    ax = plot_comparison(c, base="psync", new="libaio")
    fig = ax.figure
    panels = [a for a in fig.axes if a.get_title()]
    assert [a.get_title().split("\n")[0] for a in panels] == ["IOPS", "p99 latency"]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "randread 4 KiB QD1 x1 job direct", "randread 4 KiB QD8 x1 job direct", "randread 4 KiB QD32 x1 job direct"]
    assert ax.get_xscale() == "log" and ax.get_ylim()[0] > ax.get_ylim()[1]  # first point on top
    # IOPS: QD1 slower (vermilion, filled), QD8 and QD32 faster (green): the marker colours say the verdicts
    faces = [line.get_markerfacecolor() for line in ax.lines if line.get_marker() == "o"]
    assert faces == ["#D55E00", "#009E73", "#009E73"]
    assert "libaio vs psync: mixed" in fig._suptitle.get_text()
    plt.close(fig)


def test_one_run_a_side_is_drawn_as_a_cross_without_an_interval():
    c = nm.compare(DATA / "compare/psync/rep1", DATA / "compare/psync-again/rep1", metrics=["iops"])
    ax = plot_comparison(c)
    assert [line.get_marker() for line in ax.lines if line.get_marker() not in (None, "None", "")] == ["x"] * 3
    plt.close(ax.figure)


def test_the_steady_state_window_is_the_last_ss_dur_seconds_of_the_run():
    logs = nm.read_fio_logs([DATA / "steadystate/logged/randwrite-qd8_iops.1.log"])
    with pytest.warns(nm.IngestWarning, match="did not reach steady state"):
        run = nm.read_results(DATA / "steadystate/logged/randwrite-qd8.json")
    ax = plot_fio_log(logs, kind="iops", steady_state=run)
    # ends at the run time fio reported for the write direction (20,001 ms), 5 s long (ss_dur)
    assert ax.steady_window == pytest.approx((15.001, 20.001), abs=1e-9)
    labels = ax.get_legend_handles_labels()[1]
    assert any("NOT attained" in t and "measured 14.2%" in t for t in labels)
    assert "the window's mean, as fio reported it" in labels  # 23,511 IOPS (fio's data.iops_mean)
    plt.close(ax.figure)
    assert plot_fio_log(logs, kind="iops").steady_window is None


def test_plot_steady_state_needs_logs_and_a_run_with_the_check(tmp_path, capsys):
    rc = cli.main(["plot", str(DATA / "compare/psync"), "-o", str(tmp_path / "a.png"), "--steady-state",
                   str(DATA / "steadystate/logged/randwrite-qd8.json")])
    assert rc == 2 and "--logs too" in capsys.readouterr().err
    rc = cli.main(["plot", "--logs", str(DATA / "steadystate/logged/randwrite-qd8_iops.1.log"), "-o",
                   str(tmp_path / "b.png"), "--steady-state", str(DATA / "steadystate/loose/precondition/2-fill.json")])
    assert rc == 2 and "no fio steady-state report" in capsys.readouterr().err
