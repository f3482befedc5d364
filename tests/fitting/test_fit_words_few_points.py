"""What the explanation says of a fit on two points (DOCSQA s27, a real 2-file sweep made here with fio 3.33:
691 K IOPS on one drive, 625 K on two). The table below is synthetic, those two numbers typed in.

* The model kept (linear through the origin, the only one two points allow) describes them worse than their mean:
  "linear fits 2 points with R² = -51" was false of the data.
* With one degree of freedom a one-parameter line misses its points: "the fit interpolates" was false too.
"""

import nvmemodel as nm

from .conftest import table


def _table(y):
    return table("drives", [float(i + 1) for i in range(len(y))], y)


def test_a_model_worse_than_the_mean_is_not_said_to_fit():
    r = nm.fit(_table([691_220.0, 624_830.0]), x="drives", y="iops")
    text = r.explain()
    assert "fits 2 points" not in text
    # two x values: a ratio, no shape — the model kept and its R² are summary()'s (round 7 part 1 CH)
    assert "the model kept" not in text and "R² = -" not in text and "one degree of freedom" not in text
    assert "interpolates" not in text
    # (round 8: the lower second value is the data's fact; the model's ratio sentence repeated it and is gone)
    assert "10% lower at drives = 2 (624.83 K IOPS) than at drives = 1 (691.22 K IOPS)" in text
    assert "R² = -" in r.summary() and "2 points for 1 parameter: one degree of freedom left" in r.summary()


def test_a_model_that_describes_two_points_is_not_read_either():
    r = nm.fit(_table([335_940.0, 649_910.0]), x="drives", y="iops")
    assert "linear fits 2 points" not in r.explain() and "R² = 0.99" in r.summary()


def test_paths_that_give_no_row_are_named_with_why(tmp_path):
    """nm.fit of files that are all skipped: the paths and the reason, not "table='0 rows'" (DOCSQA s27 O4)."""
    import pytest

    from nvmemodel.errors import IngestWarning, ParameterError

    (tmp_path / "notes.txt").write_text("hello\n")
    with pytest.warns(IngestWarning), pytest.raises(ParameterError) as e:
        nm.fit(tmp_path, x="iodepth", y="iops")
    assert str(tmp_path) in str(e.value) and "1 skipped" in str(e.value) and "notes.txt" in str(e.value)
    assert "0 rows'" not in str(e.value)


def test_a_cap_the_largest_measurement_reaches_is_not_called_an_extrapolation(tmp_path):
    """tests/data/fit/adv/sweep1, its iodepth-8 runs (real fio 3.33): 0.320, 0.407, 0.431 GB/s on 1-3 drives; the
    Little's-law cap is fitted at 0.430 GB/s. "The cap is an extrapolation, not a measured ceiling" and the legend's
    "not reached" were false of the last point (DOCSQA s27); the words now say it is at the largest measurement."""
    import pathlib
    import shutil
    import warnings

    src = pathlib.Path(__file__).parents[1] / "data" / "fit" / "adv" / "sweep1" / "results"
    for d in sorted(src.iterdir()):
        (tmp_path / d.name).mkdir()
        shutil.copy(d / "randread-bs4096-qd8-nj1.json", tmp_path / d.name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = nm.fit(tmp_path, path_pattern="{drives}drives/*.json", x="drives", y="bytes_per_s",
                   topology=nm.preset("lenovo-sr850-810-4p"), free=["switch.efficiency"])
        text = r.explain()
        fig = r.plot()
    # no cap number where the cap sits on the last point of a still-rising curve (issue 28: "not an estimate")
    assert "Little's law fits the rise; the data still rise at the largest drives" in text
    assert "no ceiling is reached within the data, so none is estimated from the fit" in text
    assert "cap of 0.43" not in text
    assert "extrapolation" not in text
    legend = [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
    assert any("the data rise to it: not a measured ceiling" in t for t in legend), legend
    assert not any("not reached" in t for t in legend)
