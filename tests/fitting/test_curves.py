"""Results table → measured points: runs, aggregates, repeats, labels, derived x."""

import numpy as np
import pandas as pd
import pytest

from nvmemodel.errors import ParameterError
from nvmemodel.fitting import measured_points

from .conftest import table


def test_aggregate_rows_are_never_added():
    # one run with two jobs (100 + 200 IOPS) and the all-clients sum (300) flagged is_aggregate
    df = table("drives", [1, 1, 1], [100.0, 200.0, 300.0])
    df["source_path"] = "one.json"
    df["job_name"] = ["a", "b", "All clients"]
    df["is_aggregate"] = [False, False, True]
    pts = measured_points(df, x="drives", y="iops")
    assert pts["y"].tolist() == [300.0]  # 100 + 200, not 600


def test_repeats_become_mean_spread_and_weights():
    df = table("drives", [1, 1, 1, 2, 2, 2], [90.0, 100, 110, 190, 200, 210])
    pts = measured_points(df, x="drives", y="iops")
    assert pts["y"].tolist() == [100.0, 200.0]
    assert pts["y_std"].tolist() == pytest.approx([10.0, 10.0])          # sample std, ddof = 1
    # pooled CV over both points: sqrt((2·0.1² + 2·0.05²) / 4) = 0.0791; weight = √3 / (CV · y)
    cv = np.sqrt((2 * 0.1 ** 2 + 2 * 0.05 ** 2) / 4)
    assert pts.attrs["pooled_cv"] == pytest.approx(cv)
    assert pts["weight"].tolist() == pytest.approx([np.sqrt(3) / (cv * 100), np.sqrt(3) / (cv * 200)])
    assert pts.attrs["weighted"] is True


def test_single_runs_are_unweighted():
    pts = measured_points(table("drives", [1, 2, 3], [1.0, 2, 3]), x="drives", y="iops")
    assert pts.attrs["weighted"] is False and (pts["weight"] == 1).all()


def test_path_labels_become_numbers_and_interim_and_failed_rows_drop():
    df = table("drives", ["1", "2", "4", "4"], [10.0, 20, 40, 999])
    df.loc[3, "final"] = False                      # an interim --status-interval snapshot
    df["error"] = [None, None, "0", "5: I/O error"]  # the ingest's error column
    pts = measured_points(df, x="drives", y="iops")
    assert pts["drives"].tolist() == [1.0, 2.0, 4.0] and pts["y"].tolist() == [10.0, 20.0, 40.0]


def test_outstanding_and_directions():
    df = table("iodepth", [4, 4], [100.0, 50.0])
    df["numjobs"] = 2
    df["source_path"] = "mixed.json"
    df["direction"] = ["read", "write"]
    df["job_name"] = ["j", "j"]
    pts = measured_points(df, x="outstanding", y="iops")
    assert pts["outstanding"].tolist() == [8.0] and pts["y"].tolist() == [150.0]
    assert measured_points(df, x="outstanding", y="read_iops")["y"].tolist() == [100.0]
    assert measured_points(df, x="outstanding", y="write_bytes_per_s")["y"].tolist() == [50.0 * 4096]


def test_by_splits_and_stonewalled_groups_are_runs():
    df = table("iodepth", [1, 2, 1, 2], [10.0, 20, 30, 60], extra={"connection": "a"})
    df.loc[2:, "connection"] = "b"
    df["source_path"] = "one-file.json"   # stonewalled jobs: one file, one group each
    df["group_id"] = [0, 1, 2, 3]
    pts = measured_points(df, x="iodepth", y="iops", by="connection")
    assert pts[["connection", "iodepth", "y"]].values.tolist() == [["a", 1.0, 10.0], ["a", 2.0, 20.0],
                                                                    ["b", 1.0, 30.0], ["b", 2.0, 60.0]]


@pytest.mark.parametrize("kwargs, needle", [
    ({"x": "nope", "y": "iops"}, "x='nope'"),
    ({"x": "drives", "y": "nope"}, "y='nope'"),
    ({"x": "drives", "y": "iops", "by": "nope"}, "by='nope'"),
])
def test_unknown_names(kwargs, needle):
    with pytest.raises(ParameterError, match=needle):
        measured_points(table("drives", [1, 2], [1.0, 2.0]), **kwargs)


def test_text_labels_cannot_be_x():
    with pytest.raises(ParameterError, match="labels: use it as by="):
        measured_points(table("drives", ["one", "two"], [1.0, 2.0]), x="drives", y="iops")


def test_nan_and_negative_measurements_are_named():
    df = table("drives", [1, 2], [1.0, np.nan])
    with pytest.raises(ParameterError, match="NaN.*run1.json"):
        measured_points(df, x="drives", y="iops")
    df = table("drives", [1, 2], [1.0, -2.0])
    with pytest.raises(ParameterError, match="non-negative"):
        measured_points(df, x="drives", y="iops")


def test_input_table_is_not_modified():
    df = table("drives", ["1", "2"], [1.0, 2.0])
    before = df.copy()
    measured_points(df, x="drives", y="iops")
    pd.testing.assert_frame_equal(df, before)
