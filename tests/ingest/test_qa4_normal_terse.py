"""QA finding F7: ``--output-format=normal,terse`` files are read from fio's normal report
(run boundaries, iodepth, ioengine, bs from its job lines), never summed as clones of one run,
and fio's normal report is never called "warnings".

Real fio 3.33 outputs: ``tests/data/qa4/appended/normalterse.txt`` (the QA's three appended libaio
runs at iodepth 1, 4, 16), ``tests/data/fio_normalterse/`` (made by its ``generate.py``, with fio's
JSON of the same runs as the reference) and the round-3 ``.combined`` files
(``json,normal,terse``) with their JSON taken out, which is byte for byte what
``--output-format=normal,terse`` writes (fio writes one buffer per form: terse, JSON, normal).
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import re
import warnings

import pytest

from nvmemodel.errors import IngestError
from nvmemodel.ingest import read_file, read_results

DATA = pathlib.Path(__file__).parents[1] / "data"
QA = DATA / "qa4" / "appended" / "normalterse.txt"
NT = DATA / "fio_normalterse"
ROUND3 = DATA / "fio_round3"


def read(path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = read_file(path)
    return rows, [str(w.message) for w in caught]


def docs(path) -> list[dict]:
    text = re.sub(r"(?<=: )-?nan\b", "NaN", path.read_text())
    decoder, pos, out = json.JSONDecoder(), 0, []
    while (start := text.find("{", pos)) >= 0:
        doc, pos = decoder.raw_decode(text, start)
        out.append(doc)
    return out


def _generator():
    """tests/data/fio_normalterse/generate.py as a module (its ``without_json``)."""
    spec = importlib.util.spec_from_file_location("fio_normalterse_generate", NT / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def without_json(text: str) -> str:
    """A json,normal,terse file as normal,terse writes it: the JSON documents taken out."""
    return _generator().without_json(re.sub(r"(?<=: )-?nan\b", lambda m: "NaN".ljust(len(m[0])), text))[0]


def test_qa_three_appended_runs_are_three_runs_with_their_iodepth():
    rows, caught = read(QA)
    assert [r["run"] for r in rows] == [0, 1, 2] and all(r["final"] for r in rows)
    assert [r["iodepth"] for r in rows] == [1, 4, 16]
    assert {(r["ioengine"], r["pattern"], r["block_size_bytes"], r["numjobs"]) for r in rows} == {
        ("libaio", "randread", 4096.0, 1)}
    # I/O counts from fio's 'issued rwts: total=' lines, runtime 1001 ms each
    assert [r["ios"] for r in rows] == [11689, 21026, 67930]
    assert [r["iops"] for r in rows] == pytest.approx([11689 / 1.001, 21026 / 1.001, 67930 / 1.001], rel=1e-12)
    # the terse lines of the same runs say 11677, 21004, 67862 IOPS (fio's completed I/Os, whole IOPS)
    assert [r["iops"] for r in rows] == pytest.approx([11677, 21004, 67862], rel=2e-3)
    assert max(r["iops"] for r in rows) < 70_000  # never the 100.5 K sum of the three
    assert not [m for m in caught if "warnings?" in m or "clones" in m], caught
    assert caught == []


def test_qa_file_fits_by_iodepth_with_three_points():
    from nvmemodel.fitting.curves import measured_points

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = read_results(QA)
    pts = measured_points(df, x="iodepth", y="iops")
    assert list(pts["iodepth"]) == [1, 4, 16] and (pts["n_runs"] == 1).all()


def test_single_normal_terse_run_says_no_warnings_and_has_its_iodepth():
    rows, caught = read(NT / "one.normalterse")
    assert caught == []
    assert len(rows) == 1 and rows[0]["iodepth"] == 8 and rows[0]["ioengine"] == "null"
    assert rows[0]["format"] == "fio-normal" and rows[0]["block_size_bytes"] == 4096.0
    # the terse line of the same run (fio writes terse first, then normal): IOPS within its whole-IOPS rounding
    terse = next(ln for ln in (NT / "one.normalterse").read_text().splitlines() if ln.startswith("3;"))
    assert rows[0]["iops"] == pytest.approx(float(terse.split(";")[7]), abs=1.5)


def test_appended_runs_match_fios_json_of_the_same_runs():
    rows, caught = read(NT / "appended-qd.normalterse")
    assert caught == []
    truth = docs(NT / "appended-qd.json")
    assert len(truth) == 3 and [r["run"] for r in rows] == [0, 1, 2]
    for row, doc in zip(rows, truth):
        job = doc["jobs"][0]
        rd = job["read"]
        assert row["iodepth"] == int(job["job options"]["iodepth"])
        assert row["ioengine"] == job["job options"]["ioengine"] == "libaio"
        assert row["ios"] == rd["total_ios"]
        assert row["iops"] == pytest.approx(rd["iops"], rel=1e-6)
        assert row["bw_bytes_per_s"] == pytest.approx(rd["bw_bytes"], rel=1e-6, abs=1)
        assert row["block_size_bytes"] == rd["io_bytes"] / rd["total_ios"]
        for col in ("lat", "clat", "slat"):
            assert row[f"{col}_mean_s"] == pytest.approx(rd[f"{col}_ns"]["mean"] * 1e-9, rel=5e-3)
    assert [r["iodepth"] for r in rows] == [1, 4, 16]


def test_status_reports_of_clones_match_fios_json():
    rows, caught = read(NT / "status-clones.normalterse")
    assert caught == []
    truth = docs(NT / "status-clones.json")
    final = [r for r in rows if r["final"]]
    last = truth[-1]["jobs"]
    assert len(final) == 2 and [r["job_index"] for r in final] == [0, 1]  # two clones, not two runs
    assert {r["run"] for r in rows} == {0} and {r["numjobs"] for r in final} == {2}
    assert [r["ios"] for r in final] == [j["read"]["total_ios"] for j in last]
    assert len({r["snapshot"] for r in rows}) == len(truth)


CASES = sorted(p.stem for p in ROUND3.glob("*.combined"))


@pytest.mark.parametrize("case", CASES)
def test_round3_runs_as_normal_terse_read_as_their_normal_report(case, tmp_path):
    # every round-3 class (status reports, clones, groups, unified, client mode, failed jobs, …)
    path = tmp_path / f"{case}.txt"
    path.write_text(without_json((ROUND3 / f"{case}.combined").read_text()))
    rows, caught = read(path)
    normal, normal_caught = read(ROUND3 / f"{case}.normal")
    def strip(rs):
        return [{k: v for k, v in r.items() if k != "source_path"} for r in rs]

    assert repr(strip(rows)) == repr(strip(normal))  # (repr: NaN equals NaN)
    assert [m.replace(str(path), "X") for m in caught] == [m.replace(str(ROUND3 / f"{case}.normal"), "X")
                                                           for m in normal_caught]
    assert not [m for m in caught if "warnings?" in m or "clones" in m]


def test_terse_lines_of_other_runs_beside_a_normal_report_are_refused(tmp_path):
    # a terse-only run appended to a normal,terse file: the two parts do not describe the same runs
    path = tmp_path / "mixed.txt"
    path.write_text((NT / "one.normalterse").read_text() + (ROUND3 / "qa" / "appended-same-name.terse").read_text())
    with pytest.raises(IngestError, match=r"mixed\.txt.*terse.*normal report"):
        read_file(path)


def test_other_lines_in_a_terse_file_are_named_not_called_warnings(tmp_path):
    path = tmp_path / "t.txt"
    terse = (ROUND3 / "three-jobs.terse").read_text()
    path.write_text("some text a script printed\n" + terse)
    rows, caught = read(path)
    assert len(rows) == 3
    assert any("1 line(s) that are not terse results ignored" in m and "some text a script printed" in m
               for m in caught), caught
    assert not [m for m in caught if "warnings?" in m]


def _without_result_blocks(text: str) -> str:
    """The QA's file as if fio's normal part were lost after the job headers: only the header,
    version, 'Starting' and terse lines kept."""
    keep = re.compile(r"\S.*: \(g=\d+\): rw=|fio-\d|Starting \d|3;fio-")
    return "".join(ln for ln in text.splitlines(keepends=True) if keep.match(ln))


def test_job_header_lines_alone_still_start_runs_and_give_iodepth(tmp_path):
    # terse lines beside fio's job headers, no normal result block: the headers are run boundaries
    path = tmp_path / "headers.txt"
    path.write_text(_without_result_blocks(QA.read_text()))
    rows, caught = read(path)
    # no "clones", no ignored lines: every line is accounted for (terse's own percentile caveat stays)
    assert [m for m in caught if "percentiles" not in m] == []
    assert [r["run"] for r in rows] == [0, 1, 2] and all(r["final"] for r in rows)
    assert [(r["iodepth"], r["ioengine"], r["pattern"]) for r in rows] == [
        (1, "libaio", "randread"), (4, "libaio", "randread"), (16, "libaio", "randread")]
    assert [r["iops"] for r in rows] == [11677, 21004, 67862]  # the terse lines' own numbers
    assert rows[0]["format"] == "fio-terse-v3" and rows[0]["numjobs"] is None  # not said: not guessed


def test_clones_under_one_header_stay_one_run(tmp_path):
    # numjobs=2 without group_reporting: one header, two terse lines per report
    path = tmp_path / "clones.txt"
    path.write_text(_without_result_blocks((NT / "status-clones.normalterse").read_text()))
    rows, caught = read(path)
    final = [r for r in rows if r["final"]]
    assert {r["run"] for r in rows} == {0} and len(final) == 2
    assert [m for m in caught if "percentiles" not in m] == []
    truth = docs(NT / "status-clones.json")[-1]["jobs"]
    assert [r["iops"] for r in final] == pytest.approx([j["read"]["iops"] for j in truth], abs=1)


def test_echoed_commands_before_normal_terse_runs(tmp_path):
    # a wrapper printing 'Fio command: …' before each normal,terse run: the echo fills filename=
    runs = re.split(r"(?m)^(?=app: \(g=0\))", (NT / "appended-qd.normalterse").read_text())[1:]
    assert len(runs) == 3
    path = tmp_path / "wrapped.txt"
    path.write_text("".join(f"Fio command: fio --name=app --filename=f.bin --ioengine=libaio --iodepth={qd} "
                            f"--output-format=normal,terse\n{run}" for qd, run in zip((1, 4, 16), runs)))
    rows, caught = read(path)
    assert caught == []
    assert [(r["run"], r["iodepth"], r["target_names"]) for r in rows] == [(0, 1, "f.bin"), (1, 4, "f.bin"),
                                                                           (2, 16, "f.bin")]
    assert [r["ios"] for r in rows] == [j["jobs"][0]["read"]["total_ios"] for j in docs(NT / "appended-qd.json")]
