"""Round-3 fio output classes (issue 17 items 1-10) on real fio 3.33 runs of this machine
(tests/data/fio_round3, made by its generate.py): every form of each run (JSON or json+,
normal, terse v2-v5 as the case sets it, and the combined ``--output-format=json,normal,terse``
file) compared with fio's own JSON of the same run, read here with the stdlib ``json`` module
independently of the reader.

Tolerances are fio's printed precision in each form (see test_corpus.py): JSON exact; normal
I/O counts exact, runtime whole ms, latencies 2 decimals in their unit; terse whole IOPS, whole
KiB/s, latencies in µs with 6 decimals.
"""

from __future__ import annotations

import json
import math
import pathlib
import re
import shlex
import shutil
import subprocess
import warnings

import pytest

from nvmemodel.errors import IngestWarning
from nvmemodel.ingest import read_file, read_results

DATA = pathlib.Path(__file__).parents[1] / "data" / "fio_round3"
CASES = sorted(p.stem for p in DATA.glob("*.json*"))
FORMS = ["json", "normal", "terse", "combined"]
#: cases whose group entries merge jobs of different block sizes (normal: mean size from BW=)
MEAN_SIZE = {"mixed-bs-group"}


def fio_docs(case: str) -> list[dict]:
    """fio's JSON documents of the run, fio's '-nan' read as NaN."""
    text = next(DATA.glob(f"{case}.json*")).read_text()
    text = re.sub(r"(?<=: )-?nan\b", "NaN", text)
    decoder, pos, docs = json.JSONDecoder(), 0, []
    while (start := text.find("{", pos)) >= 0:
        doc, pos = decoder.raw_decode(text, start)
        docs.append(doc)
    return docs


def fio_truth(case: str) -> dict:
    """{(snapshot, job name, direction, occurrence): fio's numbers} for every direction that moved bytes."""
    docs = fio_docs(case)
    out = {}
    for snap, doc in enumerate(docs):
        seen: dict = {}
        for job in doc.get("client_stats", doc.get("jobs")):
            for d in ("read", "write", "trim", "mixed"):
                r = job.get(d)
                if not isinstance(r, dict) or r["io_bytes"] <= 0:
                    continue
                k = (snap, job["jobname"], d)
                seen[k] = seen.get(k, -1) + 1
                lat = {b: r[f"{b}_ns"]["mean"] * 1e-9 if r[f"{b}_ns"]["N"] else math.nan for b in ("lat", "clat", "slat")}
                out[(*k, seen[k])] = dict(final=snap == len(docs) - 1, iops=r["iops"], bw=r["bw_bytes"],
                                          ios=r["total_ios"], size=r["io_bytes"] / r["total_ios"], job=job, **lat)
    return out


def read(case: str, form: str):
    path = next(DATA.glob(f"{case}.json*")) if form == "json" else DATA / f"{case}.{form}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = read_file(path)
    seen: dict = {}
    keyed = {}
    for r in rows:
        # a write job's verify reads (direction 'verify' here) are fio's 'read' block
        k = (r["snapshot"], r["job_name"], "read" if r["direction"] == "verify" else r["direction"])
        seen[k] = seen.get(k, -1) + 1
        keyed[(*k, seen[k])] = r
    return keyed, [str(w.message) for w in caught]


def test_round3_fixtures_are_there():
    assert len(CASES) >= 17
    assert all((DATA / f"{c}.{f}").exists() for c in CASES for f in ("normal", "terse", "combined"))


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", CASES)
def test_every_form_gives_fio_numbers(case, form):
    truth = fio_truth(case)
    rows, _ = read(case, form)
    if form == "terse" and case == "two-ios-slow":
        pytest.skip("terse prints IOPS below 1 as 0: tested in test_terse_ios_below_one_iops_are_unknown")
    assert sorted(rows, key=str) == sorted(truth, key=str)
    for key, t in truth.items():
        row = rows[key]
        assert row["final"] == t["final"], key
        if form in ("json", "combined"):
            for col, ref in (("iops", t["iops"]), ("bw_bytes_per_s", t["bw"]), ("ios", t["ios"]),
                             ("lat_mean_s", t["lat"]), ("clat_mean_s", t["clat"]), ("slat_mean_s", t["slat"])):
                assert row[col] == pytest.approx(ref, rel=1e-12, nan_ok=True), (key, col)
            # the real I/O size (io_bytes / total_ios); interim reports count I/Os still in flight
            assert row["block_size_bytes"] == pytest.approx(t["size"], rel=1e-9 if t["final"] else 0.01), key
        elif form == "normal":
            assert row["ios"] == t["ios"]
            assert row["iops"] == pytest.approx(t["iops"], rel=1e-6)
            rel = 5e-3 if case in MEAN_SIZE else 1e-6 if t["final"] else 0.01  # interim: issued ahead of bytes
            assert row["bw_bytes_per_s"] == pytest.approx(t["bw"], rel=rel, abs=1), key  # fio's bw_bytes: whole B/s
            assert row["block_size_bytes"] == pytest.approx(t["size"], rel=rel), key
            for col in ("lat", "clat", "slat"):
                assert row[f"{col}_mean_s"] == pytest.approx(t[col], rel=5e-3, nan_ok=True), (key, col)
        else:
            assert 0 <= t["iops"] - row["iops"] < 1  # whole IOPS, truncated
            assert row["bw_bytes_per_s"] == pytest.approx(t["bw"], abs=1024)
            for col in ("lat", "clat", "slat"):  # never 0 where fio measured nothing
                assert row[f"{col}_mean_s"] == pytest.approx(t[col], abs=1e-12, nan_ok=True), (key, col)


# 1. clones without group_reporting whose runtimes differ are one report, not status reports
@pytest.mark.parametrize("form", FORMS)
def test_many_clones_are_one_final_report(form):
    rows, _ = read("terse-clones", form)
    times = sorted(r["runtime_s"] for r in rows.values())
    assert times[-1] / times[0] > 1.05  # the case the old runtime rule took for new reports
    assert len(rows) == 32 and {(r["snapshot"], r["final"], r["run"]) for r in rows.values()} == {(0, True, 0)}
    assert sorted(r["job_index"] for r in rows.values()) == list(range(32))


# 2. a group of a 4 KiB and a 64 KiB job: bandwidth is fio's BW=, the size the measured mean
def test_mixed_block_sizes_in_a_group():
    (t,) = fio_truth("mixed-bs-group").values()
    for form in FORMS:
        (row,) = read("mixed-bs-group", form)[0].values()
        assert 4096 < t["size"] < 65536
        assert row["block_size_bytes"] == pytest.approx(t["size"], rel=5e-3), form
        assert row["bw_bytes_per_s"] == pytest.approx(t["bw"], rel=5e-3), form


# 3. status reports with stonewalled groups: only the last report is final, with the full runtimes
@pytest.mark.parametrize("case", ["status-stonewall", "status-stonewall-plus"])
@pytest.mark.parametrize("form", FORMS)
def test_status_reports_with_stonewall(case, form):
    rows, _ = read(case, form)
    final = [r for r in rows.values() if r["final"]]
    assert sorted(r["job_name"] for r in final) == ["first", "second"]
    assert all(r["runtime_s"] == pytest.approx(1.0, abs=0.01) for r in final)
    assert len({r["snapshot"] for r in rows.values()}) == len(fio_docs(case)) > 2
    assert {r["run"] for r in rows.values()} == {0}


# 4. client/server mode: the jobs are final rows, "All clients" their aggregate
@pytest.mark.parametrize("form", FORMS)
def test_client_mode(form):
    rows, _ = read("client", form)
    jobs = [r for r in rows.values() if r["job_name"] == "cj"]
    (total,) = [r for r in rows.values() if r["job_name"] == "All clients"]
    assert len(jobs) == 2 and all(r["final"] and not r["is_aggregate"] for r in jobs)
    assert total["is_aggregate"] and total["level"] == "all-clients" and total["final"]
    assert total["ios"] == pytest.approx(sum(r["ios"] for r in jobs), rel=1e-5)
    if form == "normal":
        assert all(r["numjobs"] == 1 for r in jobs)


def test_client_mode_normal_output_with_host_prefixes():
    # --output-format=normal alone: each server's lines begin with <hostname> (no JSON of this run: checked
    # against itself and against the combined run's structure)
    rows = read_file(DATA / "client-prefixed.normal")
    jobs = [r for r in rows if r["job_name"] == "cj"]
    (total,) = [r for r in rows if r["job_name"] == "All clients"]
    assert len(jobs) == 2 and all(r["final"] and r["hostname"] and r["iodepth"] == 2 for r in jobs)
    assert total["is_aggregate"] and total["hostname"] is None
    assert total["ios"] == sum(r["ios"] for r in jobs)
    assert total["bw_bytes_per_s"] == pytest.approx(sum(r["bw_bytes_per_s"] for r in jobs), rel=0.02)


# 5. unified_rw_reporting: 'both' has an aggregate mixed row (terse v3 too); 'mixed' 70/30 is not read 1.0
@pytest.mark.parametrize("form", FORMS)
def test_unified_rw_reporting(form):
    rows, _ = read("unified-both", form)
    by_dir = {r["direction"]: r for r in rows.values()}
    assert set(by_dir) == {"read", "write", "mixed"}
    assert by_dir["mixed"]["is_aggregate"] and not by_dir["read"]["is_aggregate"]
    assert by_dir["mixed"]["ios"] == pytest.approx(by_dir["read"]["ios"] + by_dir["write"]["ios"], rel=1e-5)
    (mixed,) = read("unified-mixed-70", form)[0].values()
    assert mixed["direction"] == "mixed" and mixed["read_fraction"] != 1.0
    if form in ("json", "combined"):
        assert mixed["read_fraction"] == 0.7  # from the echoed rwmixread
    else:
        assert math.isnan(mixed["read_fraction"])  # not in the output: unknown, not guessed


# 6. fio's own -nan (steadystate slope of one sample) is NaN, not a malformed file
def test_fio_nan_in_json():
    assert "-nan" in (DATA / "steadystate-nan.json").read_text()
    (row,) = read("steadystate-nan", "json")[0].values()
    (t,) = fio_truth("steadystate-nan").values()
    assert row["iops"] == t["iops"] > 0


# 7. terse 0 where fio measured nothing: NaN, as in the JSON of the same run
@pytest.mark.parametrize("case, unmeasured", [("gtod-reduce", ("lat", "clat", "slat")), ("no-slat", ("slat",)),
                                              ("null-qd1-no-slat", ("slat",))])
def test_unmeasured_latency_is_nan(case, unmeasured):
    (t,) = fio_truth(case).values()
    (row,) = read(case, "terse")[0].values()
    for col in ("lat", "clat", "slat"):
        assert math.isnan(t[col]) == (col in unmeasured)
        assert math.isnan(row[f"{col}_mean_s"]) == (col in unmeasured), col
    if case == "gtod-reduce":
        assert all(math.isnan(row[c]) for c in ("clat_p50_s", "clat_p99_s", "lat_max_s"))


# 8. a group of a reader and a writer: no row claims the writer's pattern for the reads
@pytest.mark.parametrize("form", FORMS)
def test_reader_and_writer_in_one_group(form):
    truth = fio_truth("reader-writer-group")
    reads = sum(t["ios"] for k, t in truth.items() if k[2] == "read")
    writes = sum(t["ios"] for k, t in truth.items() if k[2] == "write")
    rows = list(read("reader-writer-group", form)[0].values())
    assert {r["direction"] for r in rows} == {"read", "write"}
    for r in rows:
        assert r["pattern"] is None
        if form != "terse":  # terse echoes no options: all unknown
            assert r["read_fraction"] == pytest.approx(reads / (reads + writes), rel=1e-9)


# 9. normal output cut right after a complete job block
def test_cut_normal_output_warns():
    with pytest.warns(IngestWarning, match=r"started 3 job\(s\) but the output holds results of 2"):
        rows = read_file(DATA / "cut-normal.normal")
    assert len(rows) == 2


# 10. lesser classes
def test_percentage_random():
    (row,) = read("percentage-random-50", "json")[0].values()
    assert row["random_fraction"] == 0.5
    (normal,) = read("percentage-random-50", "normal")[0].values()
    # never echoed in normal output: unknown (QA F5: it was fio's default 100 % assumed, 1.0 for a 0.5 run)
    assert math.isnan(normal["random_fraction"]) and "random_fraction" not in (normal["defaulted"] or "")
    df = read_results(DATA / "appended-normal.txt")  # a sequential pattern says it: 0
    assert (df["random_fraction"] == 0.0).all()


def test_terse_ios_below_one_iops_are_unknown():
    (t,) = fio_truth("two-ios-slow").values()
    (row,) = read("two-ios-slow", "terse")[0].values()
    assert t["ios"] == 2 and t["iops"] < 1 and row["io_bytes"] == 8192
    assert math.isnan(row["ios"]) and math.isnan(row["iops"])  # not 0 beside 8192 bytes


@pytest.mark.parametrize("case, name, why", [("cpuio-beside-io", "burn", "cpuio"),
                                             ("create-only-beside-io", "make", "create_only")])
@pytest.mark.parametrize("form", FORMS)
def test_jobs_without_io_are_warned_about(case, name, why, form):
    rows, messages = read(case, form)
    assert [r["job_name"] for r in rows.values()] == ["io"]
    said = [m for m in messages if repr(name) in m or f"['{name}']" in m]
    assert said, messages
    if form in ("json", "combined") or (form == "normal" and why == "create_only"):
        assert any(why in m for m in said), said


def test_long_job_name_in_normal_output():
    (row,) = read("long-name", "normal")[0].values()
    assert row["job_name"] == "n" * 127  # as fio's JSON has it: fio keeps 127 characters of a job name
    assert (row["pattern"], row["iodepth"], row["block_size_bytes"]) == ("randwrite", 2, 8192)


# issue 16 item 1: several runs in one file are one point each
APPENDED = {"appended-normal": 8, "appended-json": 6, "appended-terse": 5, "appended-jobfile": 5}


@pytest.mark.parametrize("name, runs", APPENDED.items())
def test_appended_runs_are_runs(name, runs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # echoed commands are not "non-terse lines"
        df = read_results(DATA / f"{name}.txt")
    assert list(df["run"]) == list(range(runs)) and df["final"].all()
    assert list(df["targets"]) == list(range(1, runs + 1))  # --filename=t0:…:t(k-1)
    assert list(df["target_names"].str.count(";") + 1) == list(range(1, runs + 1))
    assert (df["numjobs"] == 4).all() and (df["iodepth"] == 2).all() and (df["pattern"] == "read").all()
    assert (df["block_size_bytes"] == 131072).all() and (df["level"] == "group").all()


def test_appended_runs_fit_by_targets(tmp_path, capsys):
    from nvmemodel.cli import main
    from nvmemodel.fitting.curves import measured_points

    df = read_results(DATA / "appended-normal.txt")
    pts = measured_points(df, x="targets", y="bytes_per_s")
    assert list(pts["targets"]) == list(range(1, 9)) and (pts["n_runs"] == 1).all()
    assert list(pts["y"]) == pytest.approx(list(df["bw_bytes_per_s"]), rel=1e-12)
    copy = tmp_path / "ssd_scaling.txt"
    copy.write_text((DATA / "appended-normal.txt").read_text())
    assert main(["fit", str(copy), "--x", "targets", "--y", "bytes_per_s"]) in (0, None)
    assert "targets" in capsys.readouterr().out


def test_a_run_label_numbers_one_run_files_only(tmp_path):
    df = read_results(DATA / "three-jobs.json", labels={"*": {"run": "3"}})
    assert (df["run"] == 3).all()
    with pytest.warns(IngestWarning, match="holds 8 runs"):
        df = read_results(DATA / "appended-normal.txt", labels={"*": {"run": "3"}})
    assert len(df) == 0


FIO = shutil.which("fio")


@pytest.mark.fio
@pytest.mark.skipif(FIO is None, reason="fio is not installed (apt-get install -y fio)")
@pytest.mark.parametrize("form", ["normal", "terse"])
def test_live_wrapper_loop_against_each_runs_json(tmp_path, form):
    """A wrapper loop run here: 5 runs appended to one file, each preceded by its command line;
    fio's JSON of each same run (written beside it with --output-format=json,<form>) is the reference."""
    appended, truth = tmp_path / "ssd_scaling.txt", []
    for k in range(1, 6):
        args = ["--name=w", "--ioengine=null", "--size=16M", f"--filename={':'.join(f'f{i}' for i in range(k))}",
                "--bs=64k", "--rw=read", "--numjobs=2", "--runtime=150ms", "--time_based", "--group_reporting"]
        out = tmp_path / f"run{k}.txt"
        subprocess.run([FIO, *args, f"--output-format=json,{form}", f"--output={out}"], cwd=tmp_path, check=True,
                       timeout=60, capture_output=True)
        text = out.read_text()
        doc, end = json.JSONDecoder().raw_decode(text, text.index("{"))
        truth.append(doc["jobs"][0]["read"])
        with appended.open("a") as fh:
            fh.write(f"Fio command: fio {shlex.join(args)} --output-format={form}\n{text[:text.index('{')]}"
                     f"{text[end:].lstrip()}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = read_results(appended)
    assert list(df["run"]) == [0, 1, 2, 3, 4] and list(df["targets"]) == [1, 2, 3, 4, 5]
    assert (df["numjobs"] == 2).all() and (df["level"] == "group").all() and df["final"].all()
    for (_, row), t in zip(df.iterrows(), truth):
        if form == "normal":
            assert row["ios"] == t["total_ios"] and row["iops"] == pytest.approx(t["iops"], rel=1e-6)
        else:
            assert 0 <= t["iops"] - row["iops"] < 1
        assert row["bw_bytes_per_s"] == pytest.approx(t["bw_bytes"], rel=1e-3)
