"""fio stopped by a signal (real fio 3.33 runs made here, tests/data/fio_signal: SIGINT after about 1 s of a 10 s
time_based job): fio writes "fio: terminating on signal 2" and then a full report of the shortened run. The rows
are kept (they are the run's numbers) and a warning names the file and fio's line; a run that was not stopped gives
no such warning."""

import pathlib
import warnings

import pytest

from nvmemodel.errors import IngestWarning
from nvmemodel.ingest import read_results

DATA = pathlib.Path(__file__).parents[1] / "data" / "fio_signal"


@pytest.mark.parametrize("form", ["json", "normal"])
def test_a_run_stopped_by_a_signal_is_read_and_said(form):
    path = DATA / f"sigint.{form}"
    with pytest.warns(IngestWarning, match=rf"sigint\.{form}: fio was stopped by a signal "
                                           r"\('fio: terminating on signal 2'\)"):
        t = read_results(path)
    (row,) = t.to_dict("records")
    assert 0 < row["runtime_s"] < 5  # the job file asked for 10 s
    assert row["ios"] > 0 and row["iops"] == pytest.approx(row["ios"] / row["runtime_s"])


def test_a_run_not_stopped_has_no_signal_warning():
    path = pathlib.Path(__file__).parents[1] / "data" / "fio_group_mixed" / "clones.json-normal.out.gz"
    import gzip
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        f = pathlib.Path(d) / "clones.out"
        f.write_bytes(gzip.decompress(path.read_bytes()))
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            read_results(f)
    assert not [w for w in seen if "stopped by a signal" in str(w.message)]
