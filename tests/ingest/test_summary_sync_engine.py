"""Little's-law check of a synchronous engine: one I/O in flight per job whatever iodepth says (QA round 4, F8:
`nvmemodel plot` drew iodepth x jobs / latency for a psync sweep, up to 30x the measured IOPS)."""
import pathlib

import pytest

import nvmemodel as nm
from nvmemodel.ingest.summary import summarize

PSYNC = pathlib.Path(__file__).parents[1] / "data" / "qa4" / "psyncqd"  # real fio 3.33 psync runs, iodepth 1-32


def test_psync_little_rate_is_one_per_job_over_the_latency():
    table = nm.read_results(PSYNC)
    s = summarize(table, x="iodepth", y="iops")
    ratio = (s["little"] / s["mean"]).to_numpy()
    assert ratio == pytest.approx(1.0, abs=0.05)  # X = N / R with N = numjobs = 1, at every iodepth
