"""The fio output corpus (tests/data/fio_corpus, made by its generate.py with real fio runs):
every output form of each run read and compared with fio's own JSON numbers of the same run.

fio's numbers are taken here straight from the JSON document with the standard ``json``
module, independently of the reader. Tolerances are fio's printed precision in each form:

* JSON: exact (6 printed decimals of IOPS → rel 1e-9 is safe for what we recompute).
* normal: I/O counts exact (``issued``), runtime in whole ms; latency means printed with
  2 decimals in a unit where they are >= 1 (rel 5e-3); percentiles as whole units of the
  table (nsec/usec/msec); the bandwidth with 3-4 significant digits (variable sizes only).
* terse: whole IOPS (±0.5), whole KiB/s (±1024 B/s), latencies in µs with 6 decimals,
  percentiles in whole µs.
"""

from __future__ import annotations

import json
import math
import pathlib
import re
import warnings

import pytest

from nvmemodel.ingest import read_file

CORPUS = pathlib.Path(__file__).parents[1] / "data" / "fio_corpus"
CASES = sorted(p.stem for p in CORPUS.glob("*.json*"))
#: jobs behind each reported entry, from the commands in generate.py (numjobs × job sections)
NUMJOBS = {"numjobs-2": 2, "numjobs-3-group": 3, "group-two-sections": 2}
GROUPED = {"numjobs-3-group", "group-two-sections"}
FAILED = {"failed-open": 1, "failed-verify": 84}
VARIABLE_SIZE = {"bs-and-bssplit", "bsrange"}
_PCT = {"50.000000": "clat_p50_s", "90.000000": "clat_p90_s", "99.000000": "clat_p99_s",
        "99.900000": "clat_p99_9_s"}


def fio_truth(case: str) -> list[dict]:
    """fio's own numbers: one dict per (report, job, direction that did I/O), from the JSON."""
    path = next(CORPUS.glob(f"{case}.json*"))
    text, decoder, pos, docs = path.read_text(), json.JSONDecoder(), 0, []
    while (start := text.find("{", pos)) >= 0:
        doc, pos = decoder.raw_decode(text, start)
        docs.append(doc)
    out = []
    for snap, doc in enumerate(docs):
        for index, job in enumerate(doc["jobs"]):
            dirs = [d for d in ("read", "write", "trim", "mixed") if d in job and job[d]["total_ios"] > 0]
            for d in dirs or [None]:
                r = job[d] if d else {}
                t = {"snapshot": snap, "job_index": index, "direction": d, "final": snap == len(docs) - 1,
                     "error": job["error"], "job_name": job["jobname"], "job_options": job["job options"]}
                if d:
                    t.update(iops=r["iops"], bw_bytes_per_s=r["bw_bytes"], ios=r["total_ios"],
                             size=r["io_bytes"] / r["total_ios"], clat_mean_s=r["clat_ns"]["mean"] * 1e-9,
                             lat_mean_s=r["lat_ns"]["mean"] * 1e-9,
                             **{col: r["clat_ns"]["percentile"][k] * 1e-9 for k, col in _PCT.items()})
                out.append(t)
    return out


def rows_of(case: str, form: str) -> dict:
    path = next(CORPUS.glob(f"{case}.json*")) if form == "json" else CORPUS / f"{case}.{form}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # failed jobs, terse percentile notes: asserted in other tests
        rows = read_file(path)
    return {(r["snapshot"], r["job_index"], r["direction"]): r for r in rows}


def _percentile_unit(case: str) -> float:
    m = re.search(r"clat percentiles \((nsec|usec|msec)\)", (CORPUS / f"{case}.normal").read_text())
    return {"nsec": 1e-9, "usec": 1e-6, "msec": 1e-3}[m[1]] if m else math.nan


def test_corpus_is_there():
    assert len(CASES) >= 20 and all((CORPUS / f"{c}.{f}").exists() for c in CASES for f in ("normal", "terse"))


@pytest.mark.parametrize("form", ["json", "normal", "terse"])
@pytest.mark.parametrize("case", CASES)
def test_every_form_matches_fio_json(case, form):
    truth = fio_truth(case)
    rows = rows_of(case, form)
    assert sorted(rows, key=str) == sorted(((t["snapshot"], t["job_index"], t["direction"]) for t in truth),
                                           key=str)
    inflight = 1
    for t in truth:
        row = rows[(t["snapshot"], t["job_index"], t["direction"])]
        assert row["final"] == t["final"] and row["error"] == t["error"], (row["final"], row["error"])
        assert row["job_name"] == t["job_name"]
        if t["error"]:
            assert t["error"] == FAILED[case]
            assert all(math.isnan(row[c]) for c in ("iops", "bw_bytes_per_s", "ios", "clat_mean_s", "lat_mean_s"))
            continue
        opts = t["job_options"]
        if row["pattern"] is not None or form != "terse":
            assert row["pattern"] == opts.get("rw", "read")
        if form == "json" and row["level"] == "group" and NUMJOBS.get(case, 1) > int(opts.get("numjobs", 1)):
            # a group of several sections: fio's JSON echoes the last section's own options only, so an iodepth
            # outside the global options is not the group's (NA; docs/ingest.md), whatever the normal text says
            assert row["iodepth"] is None
        elif row["iodepth"] is not None or form != "terse":
            inflight = int(opts.get("iodepth", 1))
            assert row["iodepth"] == inflight
        if form != "terse":
            assert row["numjobs"] == NUMJOBS.get(case, 1)
        expected_level = "group" if case in GROUPED else "job"
        assert row["level"] in ((expected_level, None) if form == "terse" else (expected_level,))
        # the real I/O size: what fio did (io_bytes / total_ios); interim reports count I/Os in flight
        size_tol = {"json": 1e-9, "normal": 5e-3 if case in VARIABLE_SIZE else 1e-9, "terse": 2e-4}[form]
        if not t["final"]:  # interim reports count issued I/Os whose bytes are not all done yet
            size_tol = max(size_tol, 0.01)
        assert row["block_size_bytes"] == pytest.approx(t["size"], rel=size_tol), "size"
        if form == "json":
            for col in ("iops", "bw_bytes_per_s", "clat_mean_s", "lat_mean_s", *_PCT.values()):
                assert row[col] == pytest.approx(t[col], rel=1e-12), col
        elif form == "normal":
            assert row["ios"] == t["ios"]
            assert row["iops"] == pytest.approx(t["iops"], rel=1e-6, abs=1e-6)
            bw_tol = 5e-3 if case in VARIABLE_SIZE else 1e-6
            if not t["final"]:  # interim: fio counts issued I/Os (total_ios) ahead of completed bytes
                bw_tol = 0.01
            assert row["bw_bytes_per_s"] == pytest.approx(t["bw_bytes_per_s"], rel=bw_tol), "bw"
            for col in ("clat_mean_s", "lat_mean_s"):
                assert row[col] == pytest.approx(t[col], rel=5e-3, abs=5e-12), col
            unit = _percentile_unit(case)
            for col in _PCT.values():
                assert row[col] == pytest.approx(t[col], abs=unit * 1.0001), col
        else:
            assert 0 <= t["iops"] - row["iops"] < 1  # terse prints IOPS truncated to a whole number
            assert row["bw_bytes_per_s"] == pytest.approx(t["bw_bytes_per_s"], abs=1024)
            for col in ("clat_mean_s", "lat_mean_s"):
                assert row[col] == pytest.approx(t[col], abs=1e-12), col
            for col in _PCT.values():
                if not math.isnan(row[col]):  # left out where they might be total-latency ones
                    assert row[col] == pytest.approx(t[col], abs=1e-6 * 1.0001), col
