"""QA s25 H19 (+ the H1 addendum): ``nm.fit(free=…)`` refuses an unknown parameter and free parameters
without a topology with the same message as ``nvmemodel fit --free`` (one check, in the library); the
``--json`` of a fit over files names the runs that failed (ingest's warnings), as stderr does.

Data: tests/data/qa6/grid (io_uring 4 KiB randread, numjobs {1,2,4} x iodepth {1,4,16,64}) and
tests/data/qa6/errs (libaio randread iodepth 1..16 whose iodepth-8 run failed with fio error 1, and a run
of two jobs whose second job failed); see tests/data/qa6/README.md."""

import json

import pytest

import nvmemodel as nm
from nvmemodel.cli import main
from nvmemodel.errors import IngestWarning, NvmeModelError

GRID = "tests/data/qa6/grid"
ERRS = "tests/data/qa6/errs"


def _cli_error(argv, capsys) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nvmemodel: error: ")
    return err[0].removeprefix("nvmemodel: error: ")


def test_unknown_free_parameter_refused_by_the_library_as_by_the_cli(capsys):
    with pytest.raises(NvmeModelError) as exc:
        nm.fit(GRID, x="iodepth", by="numjobs", topology=nm.preset("dell-r7525"), free=["drive.rand_read_iop"])
    assert "unknown free parameter" in str(exc.value) and "'drive.rand_read_iops'" in str(exc.value)  # did you mean
    cli = _cli_error(["fit", GRID, "--x", "iodepth", "--by", "numjobs", "--preset", "dell-r7525",
                      "--free", "drive.rand_read_iop"], capsys)
    assert cli == str(exc.value)


def test_free_without_topology_refused_by_the_library_as_by_the_cli(capsys):
    with pytest.raises(NvmeModelError) as exc:
        nm.fit(GRID, x="iodepth", by="numjobs", free=["drive.rand_read_iops"])
    assert str(exc.value).startswith("free=['drive.rand_read_iops'] is not allowed: expected a topology too")
    assert "--preset or --topology" in str(exc.value)
    cli = _cli_error(["fit", GRID, "--x", "iodepth", "--by", "numjobs", "--free", "drive.rand_read_iops"], capsys)
    assert cli == str(exc.value)


def test_an_empty_list_or_a_non_name_is_refused():
    topo = nm.preset("dell-r7525")
    with pytest.raises(NvmeModelError, match=r"free=\[\] is not allowed"):
        nm.fit(GRID, x="iodepth", by="numjobs", topology=topo, free=[])
    with pytest.raises(NvmeModelError, match="free=1 is not allowed: expected parameter names as text"):
        nm.fit(GRID, x="iodepth", by="numjobs", topology=topo, free=[1])


def test_the_cli_takes_a_discrete_free_parameter_as_the_library_does(capsys):
    # pcie.mps is tried value by value by nm.fit; the CLI refused it ("a numeric model parameter") before
    assert main(["fit", GRID, "--x", "iodepth", "--by", "numjobs", "--preset", "dell-r7525", "--free", "pcie.mps",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["chosen"]


def test_fit_json_names_the_failed_runs(capsys):
    assert main(["fit", ERRS, "--x", "iodepth", "--y", "iops", "--json"]) == 0
    out, err = capsys.readouterr()
    ingest = json.loads(out)["warnings"]["ingest"]
    assert any(w.startswith(f"{ERRS}/qd8.json: jobs[0] ('eq') failed with fio error 1") for w in ingest)
    assert any(w.startswith(f"{ERRS}/two_jobs_one_fails.json: jobs[1] ('bad') failed with fio error 1")
               for w in ingest)
    assert all(w in err for w in ingest)  # stderr says the same


def test_the_python_result_keeps_what_ingest_warned_of():
    with pytest.warns(IngestWarning) as issued:  # still issued to the caller
        r = nm.fit(ERRS, x="iodepth", y="iops")
    assert [str(w.message) for w in issued] == r.ingest_warnings
    assert sum("failed with fio error 1" in w for w in r.ingest_warnings) == 2
    assert nm.fit(r.table, x="iodepth", y="iops").ingest_warnings == []  # a table given: nothing was read
