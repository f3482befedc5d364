"""Inputs to nm.fit that blind round 5's gatherers wrote the way a user would (issue 28, round 5).

Eight of round 5's 39 case files asked for ``y="bw_bytes_per_s"`` — the column name the results table and
``nvmemodel plot`` use — and nm.fit refused it with a list of 60 names; three asked it to fit fio's time-series logs
along ``time_s`` and got "one value per run" with no word on why.
"""
from pathlib import Path

import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError

from .conftest import table

QA5 = Path(__file__).resolve().parents[1] / "data" / "qa5"
LOGS = Path(__file__).resolve().parents[1] / "data" / "steadystate" / "logged"


def test_the_tables_own_bandwidth_column_is_taken_as_bytes_per_s():
    t = nm.read_results(QA5 / "normal" / "appended_bs.txt")
    a = nm.fit(t, x="block_size_bytes", y="bytes_per_s")
    b = nm.fit(t, x="block_size_bytes", y="bw_bytes_per_s")
    assert b.y == "bytes_per_s"
    assert [c["text"] for c in b.claims()] == [c["text"] for c in a.claims()]
    assert a.points["y"].tolist() == b.points["y"].tolist()


def test_a_time_series_is_refused_with_the_reason_and_where_to_look():
    # fio's log of one run, as a table with the iops column (merge_fio_logs' values, one row an interval)
    logs = nm.merge_fio_logs(nm.read_fio_logs([LOGS / "randwrite-qd8_iops.1.log"], latency_unit="ns"))
    t = table("time_s", logs["time_s"].tolist(), logs["value"].tolist())
    t["source_path"], t["run"] = "randwrite-qd8_iops.1.log", 0
    with pytest.raises(ParameterError) as e:
        nm.fit(t, x="time_s", y="iops")
    msg = str(e.value)
    assert "time series within one run" in msg and "plot --logs" in msg
