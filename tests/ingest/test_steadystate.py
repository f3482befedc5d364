"""fio's steady-state report (``ss=``) in the results table, on real fio 3.33 runs made here
(tests/data/steadystate/: README and gen.sh), and the runs that did not reach it named."""

import json
import math
import pathlib
import warnings

import pytest

import nvmemodel as nm
from nvmemodel.errors import IngestError
from nvmemodel.ingest.schema import COLUMNS
from nvmemodel.ingest.steadystate import not_steady, steady_state_note

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "steadystate"
COLS = ["ss_criterion", "ss_attained", "ss_duration_s", "ss_criterion_value", "ss_iops", "ss_bw_bytes_per_s"]


def test_the_columns_are_in_the_schema_with_units():
    assert all(c in COLUMNS for c in COLS)
    assert COLUMNS["ss_attained"][0] == "boolean" and COLUMNS["ss_duration_s"][1] == "s"
    assert COLUMNS["ss_iops"][1] == "1/s" and COLUMNS["ss_bw_bytes_per_s"][1] == "B/s"


def _read(*paths):
    with pytest.warns(nm.errors.IngestWarning, match="did not reach steady state") as caught:
        df = nm.read_results(list(paths))
    return df, str(caught[0].message)


def test_a_preconditioned_sweep_one_point_in_steady_state_one_not():
    df, said = _read(DATA / "loose" / "results")
    assert said.startswith("1 run(s) did not reach steady state") and "qd8" in said and "qd1" not in said
    df = df.sort_values("iodepth")
    qd1, qd8 = df.iloc[0], df.iloc[1]
    # fio 3.33's own words in these files: "attained": 1, "criterion": "-2.285156%", "duration": 5
    assert qd1["ss_attained"] is True or qd1["ss_attained"] == True  # noqa: E712 (pandas' boolean)
    assert qd1["ss_criterion"] == "iops_slope:2.500000%"
    assert qd1["ss_criterion_value"] == pytest.approx(-0.02285156, abs=1e-9)  # a falling slope: signed
    assert qd1["ss_duration_s"] == 5.0
    assert qd1["runtime_s"] < 20 * 0.9  # fio ended the point early, once the check held
    assert not qd8["ss_attained"] and qd8["ss_criterion_value"] == pytest.approx(-0.29947668, abs=1e-9)
    assert qd8["runtime_s"] == pytest.approx(20.0, abs=0.1)  # not attained: the whole run time
    raw = json.loads((DATA / "loose/results/1drives/randwrite-bs4096-qd8-nj1.json").read_text())
    assert qd8["ss_iops"] == raw["jobs"][0]["steadystate"]["data"]["iops_mean"]
    assert qd8["ss_bw_bytes_per_s"] == raw["jobs"][0]["steadystate"]["data"]["bw_mean"]


def test_runs_without_the_check_have_na_not_false():
    df = nm.read_results(DATA / "loose" / "precondition")  # the preconditioning steps: no ss= check
    assert len(df) == 2 and df["ss_attained"].isna().all() and df["ss_criterion"].isna().all()
    assert df["ss_duration_s"].isna().all()
    assert not_steady(df) == []


def test_the_runs_that_missed_steady_state_are_named():
    df, said = _read(DATA / "loose" / "results", DATA / "strict" / "results")
    missed = not_steady(df)
    assert len(missed) == 3 and all("qd8" in m or "strict" in m for m in missed)
    assert not any("loose" in m and "qd1" in m for m in missed)
    note = steady_state_note(df)
    assert note.startswith("3 run(s) did not reach steady state") and "strict" in note


def test_the_fast_readers_decline_a_steady_state_report_and_agree_with_the_general_one():
    from nvmemodel.ingest.fio_json_packed import packed_rows
    from nvmemodel.ingest.fio_json_typed import typed_rows

    path = DATA / "strict/results/1drives/randwrite-bs4096-qd1-nj1.json"
    doc = json.loads(path.read_text())
    assert packed_rows(doc, str(path)) is None and typed_rows(path.read_bytes(), str(path)) is None
    plain = json.loads(path.read_text())
    del plain["jobs"][0]["steadystate"]
    rows = packed_rows(plain, str(path))
    assert rows is not None and rows[0][-6:][:2] == (None, None) and all(math.isnan(v) for v in rows[0][-4:])


@pytest.mark.parametrize("field, value, match", [("attained", 2, "attained"), ("criterion", "fast", "criterion"),
                                                 ("duration", -1, "duration"), ("ss", "", ".ss")])
def test_a_steady_state_block_fio_would_not_write_is_refused_naming_the_field(tmp_path, field, value, match):
    doc = json.loads((DATA / "strict/results/1drives/randwrite-bs4096-qd1-nj1.json").read_text())
    doc["jobs"][0]["steadystate"][field] = value
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(IngestError, match=rf"jobs\[0\]\.steadystate.*{match}"):
        nm.read_results(bad, errors="raise")
    with pytest.warns(nm.errors.IngestWarning, match=rf"skipped 1 of 1 file.*steadystate.*{match}"):
        assert nm.read_results(bad).empty  # a folder read skips it, naming the field


def test_the_logged_run_reads_with_its_logs():
    df, _ = _read(DATA / "logged" / "randwrite-qd8.json")
    assert df["ss_duration_s"].iloc[0] == 5.0 and df["ss_attained"].iloc[0] == False  # noqa: E712
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        logs = nm.read_fio_logs(sorted((DATA / "logged").glob("*.log")))
    assert set(logs["kind"]) == {"iops", "bw"}


def test_fit_and_plot_of_an_ingested_table_name_the_runs_too(tmp_path, capsys):
    from nvmemodel import cli

    table = tmp_path / "ss.csv"
    assert cli.main(["ingest", str(DATA / "loose" / "results"), str(DATA / "strict" / "results"), "-o",
                     str(table)]) == 0
    assert "warning: 3 run(s) did not reach steady state" in capsys.readouterr().err  # ingest says it
    assert cli.main(["fit", str(table), "--x", "iodepth"]) == 0
    assert "warning: 3 run(s) did not reach steady state" in capsys.readouterr().err
    assert cli.main(["plot", str(table), "--x", "iodepth", "-o", str(tmp_path / "p.png")]) == 0
    assert "3 run(s) did not reach steady state" in capsys.readouterr().err
