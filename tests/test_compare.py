"""``nm.compare`` / ``nvmemodel compare`` on real fio 3.33 runs made here (tests/data/compare/: the same random-read
iodepth sweep with psync, libaio and psync again, 3 interleaved repeats; its README and gen.sh), and the statistics
against scipy and textbook values."""

import json
import math
import pathlib

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.comparison.stats import log_change, pooled_log_sd, repeats_needed
from nvmemodel.errors import ParameterError

DATA = pathlib.Path(__file__).resolve().parent / "data" / "compare"
STEADY = pathlib.Path(__file__).resolve().parent / "data" / "steadystate"
PSYNC, LIBAIO, AGAIN = DATA / "psync", DATA / "libaio", DATA / "psync-again"


def _iops(comparison):
    rows = comparison.changes[comparison.changes["metric"] == "iops"]
    return {int(nm.comparison.points.describe(p)["iodepth"]): r for p, r in zip(rows["point"], rows.to_dict("records"))}


def test_two_sweeps_of_the_same_settings_are_no_change_beyond_noise():
    c = nm.compare(PSYNC, AGAIN)
    assert c.verdict == "no change beyond noise" and c.exit_status == 0
    assert len(c.points) == 3 and not c.unmatched
    assert set(c.changes["verdict"]) == {"no change beyond noise"}
    assert (c.changes["n_base"] == 3).all() and (c.changes["n_new"] == 3).all()
    for r in _iops(c).values():  # every interval holds "no change"
        assert r["low"] < 0 < r["high"]


def test_the_engine_change_is_found_with_its_sign():
    c = nm.compare(PSYNC, LIBAIO, ignore=["ioengine"], metrics=["iops"])
    by_depth = _iops(c)
    # psync keeps one I/O in flight whatever iodepth says; libaio keeps 8 and 32: faster there
    assert by_depth[8]["verdict"] == "faster" and by_depth[8]["low"] > 0
    assert by_depth[32]["verdict"] == "faster" and by_depth[32]["change"] > by_depth[8]["change"]
    # at iodepth 1 libaio's submit-and-reap cost more than psync's one call on this machine: slower, measured
    assert by_depth[1]["verdict"] == "slower" and by_depth[1]["high"] < 0
    assert c.verdict == "mixed" and c.exit_status == 1
    # the change is the geometric means' ratio of the runs' IOPS as ingest reads them
    runs = nm.read_results(LIBAIO).query("iodepth == 32")["iops"].to_numpy()
    base = nm.read_results(PSYNC).query("iodepth == 32")["iops"].to_numpy()
    assert by_depth[32]["change"] == pytest.approx(math.exp(np.log(runs).mean() - np.log(base).mean()) - 1, rel=1e-12)


def test_latency_rises_where_more_i_os_are_in_flight_and_counts_as_slower():
    c = nm.compare(PSYNC, LIBAIO, ignore=["ioengine"], metrics=["lat_mean"])
    rows = {int(nm.comparison.points.describe(p)["iodepth"]): v for p, v in zip(c.changes["point"],
                                                                                c.changes["verdict"])}
    assert rows[32] == "slower"  # Little's law: 32 in flight wait longer each
    assert c.verdict == "slower" and c.exit_status == 1


def test_without_ignore_the_error_names_the_column_that_differs():
    with pytest.raises(ParameterError, match=r"differ in ioengine \(psync in base, libaio in new\).*--ignore ioengine"):
        nm.compare(PSYNC, LIBAIO)


def test_one_run_a_side_cannot_be_told_from_noise_and_says_how_many_runs_would_do():
    one = nm.compare(PSYNC / "rep1", LIBAIO / "rep2", ignore=["ioengine"])
    assert one.verdict == "cannot be told from noise" and one.exit_status == 0
    assert set(one.changes["verdict"]) == {"cannot be told from noise"}
    assert one.changes["low"].isna().all()
    # no repeats to pool a spread from: an assumed CV of 5 %, said so
    assert one.spread["iops_source"].startswith("assumed CV 0.05")
    assert set(one.changes["repeats_needed"]) == {repeats_needed(0.05, math.sqrt(math.log1p(0.05 ** 2)))}
    given = nm.compare(PSYNC / "rep1", LIBAIO / "rep2", ignore=["ioengine"], cv=0.2, detect=0.1)
    assert given.spread["iops_source"] == "assumed CV 0.2 (given)"
    assert set(given.changes["repeats_needed"]) == {repeats_needed(0.1, math.sqrt(math.log1p(0.04)))}


def test_the_spread_for_the_repeats_needed_is_pooled_from_the_points_with_repeats():
    c = nm.compare(PSYNC, AGAIN, metrics=["iops"])
    groups = [nm.read_results(d).query(f"iodepth == {q}")["iops"].to_numpy()
              for d in (PSYNC, AGAIN) for q in (1, 8, 32)]
    sd, dof = pooled_log_sd(groups)
    assert dof == 12 and c.spread["iops_sd_log"] == pytest.approx(sd, rel=1e-12)
    assert "12 degrees of freedom" in c.spread["iops_source"]
    assert set(c.changes["repeats_needed"]) == {repeats_needed(0.05, sd)}


def test_unmatched_points_are_listed_not_dropped():
    table = nm.read_results(LIBAIO)
    c = nm.compare(PSYNC, table[table["iodepth"] < 32], ignore=["ioengine"], metrics=["iops"])
    assert len(c.points) == 2
    assert [(u["side"], u["workload"]["iodepth"]) for u in c.unmatched] == [("base", 32.0)]
    assert any("1 point(s) of one side only" in n for n in c.notes)


def test_an_ignored_column_must_hold_one_value_per_point_on_each_side():
    both = nm.read_results([PSYNC, LIBAIO])
    with pytest.raises(ParameterError, match=r"base has libaio, psync at randread 4 KiB QD1"):
        nm.compare(both, AGAIN, ignore=["ioengine"])


def test_a_change_beyond_noise_but_below_the_threshold_is_not_called_faster_or_slower():
    # psync -> libaio moves IOPS by -35 % to +172 %, each beyond noise; with a 200 % threshold none counts
    c = nm.compare(PSYNC, LIBAIO, ignore=["ioengine"], metrics=["iops"], threshold=2.0)
    assert set(c.changes["verdict"]) == {"change below threshold"}
    assert c.verdict == "change below threshold" and c.exit_status == 0
    assert (c.changes["high"] < 0).sum() + (c.changes["low"] > 0).sum() == 3  # yet every interval excludes 0


def test_points_that_missed_steady_state_are_flagged():
    with pytest.warns(nm.IngestWarning, match="did not reach steady state"):
        c = nm.compare(STEADY / "loose" / "results", STEADY / "strict" / "results", metrics=["iops"])
    missed = {int(nm.comparison.points.describe(p)["iodepth"]): s for p, s in
              zip(c.points["point"], c.points["steady_state_missed"])}
    assert missed == {1: ["new"], 8: ["base", "new"]}
    assert any("did not reach steady state" in n for n in c.notes)


def test_welch_interval_matches_scipy_on_the_log_scale():
    from scipy import stats

    b, n = [100.0, 104.0, 97.0, 101.0], [110.0, 108.0, 115.0]
    res = stats.ttest_ind(np.log(n), np.log(b), equal_var=False)
    ci = res.confidence_interval(0.95)
    got = log_change(b, n)
    assert got["low"] == pytest.approx(math.exp(ci.low)) and got["high"] == pytest.approx(math.exp(ci.high))
    assert got["p_value"] == pytest.approx(res.pvalue)
    assert log_change([5.0], [6.0])["low"] != log_change([5.0], [6.0])["low"]  # NaN: one run a side


def test_repeats_needed_against_the_normal_approximation():
    # two-sample, two-sided 5 %, power 80 %: n ≈ 2 (z.975 + z.8)² σ² / δ² = 15.7 × (σ/δ)²; the t test needs a
    # run or two more (Cohen 1988, Table 2.4.1: d = 1 → 17 a group)
    delta = math.log1p(0.05)
    assert repeats_needed(0.05, delta) == 17
    assert repeats_needed(0.05, delta / 2) in (5, 6)
    assert repeats_needed(0.05, 0.0) is None


def test_the_json_validates_against_its_schema(capsys):
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra")
    from nvmemodel import schemas

    rc = cli.main(["compare", str(PSYNC), str(LIBAIO), "--ignore", "ioengine", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 1 and doc["schema"] == "nvmemodel.compare/1" and doc["exit_status"] == 1
    schemas.validate(doc)
    doc["changes"][0]["verdict"] = "quicker"
    with pytest.raises(jsonschema.ValidationError):
        schemas.validate(doc)
    one = nm.compare(PSYNC / "rep1", AGAIN / "rep1").to_dict()
    schemas.validate(json.loads(json.dumps(one)))  # nulls where one run a side has no interval
    assert one["changes"][0]["low"] is None and one["changes"][0]["repeats_needed"] >= 2


def test_the_command_prints_verdicts_and_exits_for_a_ci(tmp_path, capsys):
    assert cli.main(["compare", str(PSYNC), str(AGAIN)]) == 0
    out = capsys.readouterr().out
    assert "verdict: no change beyond noise" in out and "to see a change of 5%" in out
    chart = tmp_path / "change.png"
    assert cli.main(["compare", str(PSYNC), str(LIBAIO), "--ignore", "ioengine", "--metrics", "iops",
                     "-o", str(chart)]) == 1
    assert chart.stat().st_size > 10_000
    assert "verdict: mixed" in capsys.readouterr().out


@pytest.mark.parametrize("argv, match", [
    (["--threshold", "lots"], "--threshold"), (["--metrics", "iops,,bw"], "--metrics"),
    (["--metrics", "latency"], "metrics"), (["--ignore", "nonsense"], "ignore"),
    (["--confidence", "100%"], "confidence"),
    (["-o", "chart.gif"], "--output")])
def test_bad_options_are_one_error_line(argv, match, capsys):
    rc = cli.main(["compare", str(PSYNC), str(AGAIN), *argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("nvmemodel: error:") and match in err[0]


def test_a_table_from_ingest_compares_as_its_files(tmp_path):
    table = tmp_path / "psync.csv"
    assert cli.main(["ingest", str(PSYNC), "-o", str(table)]) == 0
    a = nm.compare(table, AGAIN, metrics=["iops"])
    b = nm.compare(PSYNC, AGAIN, metrics=["iops"])
    assert list(a.changes["change"]) == pytest.approx(list(b.changes["change"]), rel=1e-9)
    assert a.verdict == b.verdict
