"""Small leftovers of earlier issues, each held here: a planted ``precondition`` link refused before run-sweep
reads it; implausible fio IOPS refused or recomputed at ingest; ``compare a a`` saying it compares a file with
itself; a fit on a table warning about steady state as ingest does for files."""

from __future__ import annotations

import pathlib
import re

import pytest

from nvmemodel.errors import ParameterError


# --- run-sweep: precondition/ is the sweep's own folder ------------------------------------------------------------

def test_run_sweep_refuses_a_planted_precondition_link_before_taking_steps_as_done(tmp_path):
    from nvmemodel.jobs import run_plan, sweep_plan, write_jobs
    from nvmemodel.jobs.precondition import precondition_steps

    plan = sweep_plan([str(tmp_path / "drive.dat")], runtime_s=0.2, ramp_s=0.0, size_bytes=2**20, ioengine="psync",
                      direct=False, precondition=True)
    write_jobs(plan, tmp_path / "sweep")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    # a folder holding reports named like the steps': before, every step was 'done earlier' through the link and
    # the points ran on a drive never preconditioned
    for step in precondition_steps(plan):
        (foreign / step.result_path.split("/")[-1]).write_text("{}")
    before = sorted(p.name for p in foreign.iterdir())
    (tmp_path / "sweep" / "precondition").symlink_to(foreign)
    fio = tmp_path / "fake-fio"
    fio.write_text("#!/bin/sh\necho ran >&2\nexit 1\n")
    fio.chmod(0o755)
    said = []
    with pytest.raises(ParameterError, match=r"precondition.*symbolic link"):
        run_plan(tmp_path / "sweep", fio=str(fio), progress=said.append)
    assert said == []  # refused before any step or point was looked at
    assert sorted(p.name for p in foreign.iterdir()) == before
    assert not (tmp_path / "sweep" / "results").exists() or not any((tmp_path / "sweep" / "results").rglob("*.json"))


# --- fio JSON: an iops or total_ios fio could not have written ------------------------------------------------------

_FIO3 = "tests/data/fio/fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json"  # real fio 3.1 (SOURCES.md)
_FIO21 = "tests/data/fio/pkb_fio-2.1.4_sample-result.json"  # real fio 2.1.4: no total_ios, iops the only count


def _edited(tmp_path, source, edit):
    import json

    doc = json.loads(pathlib.Path(source).read_text(encoding="utf-8"))
    edit(doc["jobs"][0]["read"] if "total_ios" in doc["jobs"][0]["read"] else doc["jobs"][0]["write"])
    out = tmp_path / "edited.json"
    out.write_text(json.dumps(doc))
    return out


def _read(path):
    import warnings

    import nvmemodel as nm
    from nvmemodel.errors import IngestWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = nm.read_results(path)
    return df, [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]


def test_an_iops_that_disagrees_with_total_ios_is_recomputed_saying_so(tmp_path):
    df0, said0 = _read(_FIO3)
    assert not [s for s in said0 if "iops" in s]
    row0 = df0[df0["direction"] == "read"].iloc[0]
    # fio 3.1 wrote iops = 60764.80392 = 1000 x 3,645,949 I/Os / 60,001 ms: held, not recomputed
    assert row0["iops"] == pytest.approx(60764.80392, rel=1e-12)
    for bad in (1e308, 6e4):  # absurd, and merely wrong (1.3 % low): both not fio's 1000 x total_ios / runtime
        df, said = _read(_edited(tmp_path, _FIO3, lambda r, bad=bad: r.update(iops=bad)))
        row = df[df["direction"] == "read"].iloc[0]
        assert row["iops"] == pytest.approx(3645949 * 1000 / 60001, rel=1e-12)
        assert row["ios"] == 3645949
        notes = [s for s in said if "jobs[0].read.iops" in s]
        assert len(notes) == 1 and "edited.json" in notes[0] and "total_ios / runtime (60764.8 IOPS)" in notes[0]


def test_a_total_ios_of_more_ios_than_bytes_with_an_iops_that_disagrees_is_refused(tmp_path):
    from nvmemodel.errors import IngestError

    from nvmemodel.ingest.fio_json import read_fio_json

    path = _edited(tmp_path, _FIO3, lambda r: r.update(total_ios=10**30))
    refusal = (r"edited\.json.*jobs\[0\]\.read\.iops = 60764\.80392 disagrees.*jobs\[0\]\.read\.total_ios = "
               r"(1e\+30|1000000000000000000000000000000) is more I/Os than the 1\.49338e\+10 bytes moved")
    with pytest.raises(IngestError, match=refusal):
        read_fio_json(path)
    df, said = _read(path)  # a folder's reader skips the file, saying why
    assert len(df) == 0 and any(re.search("skipped 1 of 1 file.*" + refusal, s) for s in said)


def test_a_fio21_iops_of_more_ios_than_bytes_is_refused(tmp_path):
    from nvmemodel.errors import IngestError

    df, _ = _read(_FIO21)  # the real file reads (its iops are fio's integer division: within 1 of the count)
    assert len(df) > 0
    from nvmemodel.ingest.fio_json import read_fio_json

    path = _edited(tmp_path, _FIO21, lambda r: r.update(iops=1e300))
    with pytest.raises(IngestError, match=r"edited\.json.*jobs\[0\]\.write\.iops = 1e\+300 over "
                                          r"jobs\[0\]\.write\.runtime = 5314 ms is 5\.314e\+300 I/Os, more than the "
                                          r"3\.70672e\+08 bytes moved \(jobs\[0\]\.write\.io_bytes = 361984 KiB\)"):
        read_fio_json(path)


# --- compare: a file with itself --------------------------------------------------------------------------------

_PSYNC = pathlib.Path("tests/data/compare/psync")  # real fio runs (tests/data/compare/README.md)


def _compare_notes(base, new):
    import warnings

    import nvmemodel as nm

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.compare(base, new).notes


def test_compare_says_when_base_and_new_are_one_file(tmp_path, capsys):
    from nvmemodel import cli

    one = sorted(_PSYNC.rglob("*.json"))[0]
    rc = cli.main(["compare", str(one), str(one)])
    out = capsys.readouterr().out
    assert rc == 0 and f"note: base and new are the same file ({one}): the results are compared with themselves" in out
    link = tmp_path / "link.json"
    link.symlink_to(one.resolve())  # another name of the same file
    assert _compare_notes(one, link)[0].startswith("base and new are the same file")
    copy = tmp_path / "copy.json"
    copy.write_bytes(one.read_bytes())
    assert _compare_notes(one, copy)[0].startswith("base and new hold the same content (1 file(s) a side, identical "
                                                   "by SHA-256)")


def test_compare_says_when_base_and_new_are_one_folder_or_table():
    import warnings

    import nvmemodel as nm

    assert _compare_notes(_PSYNC, str(_PSYNC) + "/")[0].startswith("base and new are the same folder")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = nm.read_results(_PSYNC)
    assert _compare_notes(table, table)[0].startswith("base and new are the same table")


def test_compare_of_two_measurements_says_nothing_of_the_kind():
    # psync-again: the same settings measured a second time (gen.sh): two measurements, not one
    for notes in (_compare_notes(_PSYNC, _PSYNC.parent / "psync-again"),
                  _compare_notes(*sorted(_PSYNC.rglob("*qd1-*.json"))[:2])):  # rep1 and rep2 of one point
        assert not [n for n in notes if "compared with themselves" in n]


# --- fit on a table: the steady-state warning ingest gives for files ---------------------------------------------

_STRICT = pathlib.Path("tests/data/steadystate/strict")  # real fio 3.33 runs, ss= check not reached (its README)


def _fit_warnings(table, **kw):
    import warnings

    import nvmemodel as nm
    from nvmemodel.errors import IngestWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = nm.fit(table, x="iodepth", model="linear", **kw)
    return result, [str(w.message) for w in caught if issubclass(w.category, IngestWarning)
                    and "did not reach steady state" in str(w.message)]


def test_fit_on_a_table_warns_of_runs_that_missed_steady_state_as_ingest_does_for_files(tmp_path):
    import warnings

    import nvmemodel as nm

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = nm.read_results(_STRICT)
    said_by_ingest = [str(w.message) for w in caught if "did not reach steady state" in str(w.message)]
    assert len(said_by_ingest) == 1 and said_by_ingest[0].startswith("2 run(s) did not reach steady state")
    result, said = _fit_warnings(table)  # before: silent
    assert said == said_by_ingest
    assert result.ingest_warnings == said  # and the fit carries it (its JSON: warnings.ingest)
    table.to_csv(tmp_path / "t.csv", index=False)
    assert _fit_warnings(str(tmp_path / "t.csv"))[1] == said_by_ingest
    assert _fit_warnings(_STRICT)[1] == said_by_ingest  # files: said once, by ingest, not twice
    steady = table.assign(ss_attained=True)
    assert _fit_warnings(steady)[1] == []


def test_fit_command_on_a_table_says_it_once(tmp_path, capsys):
    import warnings

    import nvmemodel as nm
    from nvmemodel import cli

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nm.read_results(_STRICT).to_csv(tmp_path / "t.csv", index=False)
    cli.main(["fit", str(tmp_path / "t.csv"), "--x", "iodepth", "--model", "linear"])
    err = capsys.readouterr().err
    assert err.count("did not reach steady state") == 1
