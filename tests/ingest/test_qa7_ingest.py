"""QA7 (s27) ingest findings on real fio 3.33 runs (tests/data/qa7/README.md gives how each was made)."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import pytest

from nvmemodel import read_results
from nvmemodel.errors import IngestWarning

QA7 = Path(__file__).resolve().parents[1] / "data" / "qa7"


def quiet(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IngestWarning)
        return read_results(path, **kw)


# INGEST-4: a group_reporting sum of jobs rr (QD8), rw (QD8), sr (QD4): fio's JSON echoes sr's options
# (iodepth 4) under the name rr, so the group's iodepth is not 4 and must not be written as 4
def test_group_of_jobs_with_their_own_iodepth_is_not_the_last_jobs():
    path = QA7 / "multi" / "three_jobs_grouped.json"
    with pytest.warns(IngestWarning, match=r"three_jobs_grouped\.json: jobs\[0\] \('rr'\) is a group_reporting sum "
                                           r"of 3 jobs .*job 'sr', iodepth=4.* iodepth is not tabulated"):
        df = read_results(path)
    assert len(df) == 2 and df["iodepth"].isna().all()
    assert (df["numjobs"] == 3).all() and (df["level"] == "group").all()
    assert df["defaulted"].isna().all()  # NA is not fio's default either


def test_ungrouped_jobs_keep_their_own_iodepth():
    df = quiet(QA7 / "multi" / "three_jobs.json")
    assert dict(zip(df["job_name"], df["iodepth"])) == {"rr": 8, "rw": 8, "sr": 4}
