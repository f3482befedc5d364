"""Counted axes get whole-number ticks (issue 31: "fractional ticks on job and thread axes"): a fit or a results
chart along jobs, or along a label of whole numbers such as threads read from paths, never ticks 1.5 jobs."""

import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import nvmemodel as nm  # noqa: E402
from nvmemodel.plots.results import plot_results  # noqa: E402

NULLJOBS = pathlib.Path(__file__).parents[1] / "data" / "fit" / "local" / "nulljobs"
RUNS = pd.DataFrame({"source_path": [f"nj{i}_{k}.json" for i in (1, 2, 3) for k in range(2)],
                     "numjobs": [1, 1, 2, 2, 3, 3], "iops": [100e3, 101e3, 190e3, 188e3, 200e3, 199e3]})


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _visible_ticks(ax):
    lo, hi = ax.get_xlim()
    return [t for t in ax.get_xticks() if lo <= t <= hi]


def test_fit_along_three_job_counts_ticks_whole_jobs():
    ax = nm.fit(RUNS, x="numjobs", y="iops").plot()
    ticks = _visible_ticks(ax.figure.axes[-1])
    assert ticks == [1, 2, 3]  # matplotlib's default put 1.25, 1.5, … on this range


def test_a_label_of_whole_numbers_ticks_whole_numbers():
    # real fio 3.33 null-engine runs (tests/data/SOURCES.md), 1-3 jobs, the count read from the path as "threads"
    files = sorted(str(p) for p in NULLJOBS.glob("nj[123]_r*.json"))
    table = nm.read_results(files, path_pattern="nj{threads}_r{rep}.json")
    ax = plot_results(table, x="threads", y="iops", little=False, latency=None)
    ticks = _visible_ticks(ax)
    assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks), ticks
