"""QA5 G9: terse clones (numjobs=2 without group_reporting) summed into one run carry numjobs = the clone count, so
the fit's Little's-law check counts every clone's iodepth. tests/data/qa5/njqd: fio 3.33, io_uring randread 4 KiB,
--numjobs=2, iodepth 1-16, one terse file per run (commands in tests/data/qa5/commands.txt)."""
import pathlib

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.errors import IngestWarning

NJQD = pathlib.Path(__file__).parents[1] / "data" / "qa5" / "njqd"
PATTERN = "njqd_qd{iodepth}.terse"


def _read():
    with pytest.warns(IngestWarning, match="numjobs"):
        return nm.read_results(NJQD, path_pattern=PATTERN)


def _in_flight(path):
    """Σ over the file's clone lines of read IOPS × mean total latency (terse v3: fields 8 and 40, µs)."""
    total = 0.0
    for line in path.read_text().splitlines():
        f = line.split(";")
        total += float(f[7]) * float(f[39]) * 1e-6
    return total


@pytest.mark.filterwarnings("ignore:.*tabulated as completion latency.*:nvmemodel.errors.IngestWarning")  # issue 30: terse
# cannot say total vs completion percentiles; ingest says so (tests/ingest/test_fio_versions.py holds that warning)
def test_clones_set_numjobs_to_their_count():
    t = _read()
    final = t[t["final"].astype(bool)]
    assert set(final["numjobs"].astype(int)) == {2}


def test_littles_check_counts_every_clone():
    # at iodepth 4 the two clone lines hold 205,872 x 19.19 us + 63,470 x 62.77 us = 7.93 I/Os in flight: 2 jobs x 4
    assert _in_flight(NJQD / "njqd_qd4.terse") / 8 == pytest.approx(0.99, abs=0.02)
    with pytest.warns(IngestWarning):
        r = nm.fit(NJQD, path_pattern=PATTERN, x="iodepth", y="iops")
    little = r.points["little"].to_numpy(float)
    assert np.all((little > 0.9) & (little < 1.05)), little
    assert "far above 1" not in r.explain()


@pytest.mark.filterwarnings("ignore:.*tabulated as completion latency.*:nvmemodel.errors.IngestWarning")  # issue 30: terse
# cannot say total vs completion percentiles; ingest says so (tests/ingest/test_fio_versions.py holds that warning)
def test_the_clone_warning_says_numjobs_was_taken_from_the_clones():
    with pytest.warns(IngestWarning, match="numjobs taken as 2 where the file does not give it"):
        nm.read_results(NJQD, path_pattern=PATTERN)
