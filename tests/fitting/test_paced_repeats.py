"""Runs at different paces are not repeats of one point (the pacing columns of QA s27 INGEST-1 in WORKLOAD).

tests/data/qa7/rateqd is real fio 3.33 output, every run with ``--rate_iops=20000``. Its table is joined here with
a copy whose ``rate_iops`` is set to 10,000 (an edited copy, not a measurement): before, ``summarize`` and ``fit``
averaged the pairs as repeats (a mean never measured, a spread that is a sweep's); now both refuse, naming the column.
"""

import warnings

import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.errors import IngestError, ParameterError
from nvmemodel.ingest.summary import summarize


def _tables():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = nm.read_results("tests/data/qa7/rateqd")
    edited = t.assign(rate_iops=10000.0, source_path=t["source_path"] + "#edited")
    return t, pd.concat([t, edited], ignore_index=True)


def test_runs_at_different_rates_are_not_averaged():
    real, both = _tables()
    assert set(real["rate_iops"]) == {20000.0}
    assert len(summarize(real, x="iodepth")) == 6
    with pytest.raises(IngestError, match="different rate_iops"):
        summarize(both, x="iodepth")
    with pytest.raises(ParameterError, match="one rate_iops among the runs of a point"):
        nm.fit(both, x="iodepth", y="iops")
    # a curve per rate is what was measured
    assert set(summarize(both, x="iodepth", hue="rate_iops")["rate_iops"]) == {10000.0, 20000.0}
