"""QA s25 H14: terse output prints one kind of percentile for every direction of a job line (fio stat.c:
``lat_percentiles`` is one option of the job). Data: tests/data/qa6/tersever (fio 3.33, randrw 70/30, libaio,
iodepth 4, terse v2–v5; the same runs' JSON in vN.txt says the percentiles are of completion latency)."""

from __future__ import annotations

import pathlib
import warnings

import pytest

from nvmemodel.errors import IngestWarning
from nvmemodel.ingest import read_results
from nvmemodel.ingest.fio_terse import _PCT_FIELD, _anchor, _layout

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "qa6"


def _read(path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = read_results(path)
    return df, [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]


@pytest.mark.parametrize("version", [2, 3, 4])
def test_the_warning_names_the_direction_dropped_and_why_the_other_is_kept(version):
    df, said = _read(DATA / "tersever" / f"v{version}.terse")
    read, write = (df[df["direction"] == d].iloc[0] for d in ("read", "write"))
    # the read's submission latency (~6 µs) is over 5 % of its completion latency (~100 µs): the kind matters
    assert read["slat_mean_s"] > 0.05 * read["clat_mean_s"] and pytest.approx(0) != read["slat_mean_s"]
    assert pytest.approx(0) != write["slat_mean_s"]  # the write has a submission latency too
    assert read[["clat_p50_s", "clat_p99_s"]].isna().all() and write["clat_p99_s"] > 0
    (note,) = [s for s in said if "percentiles" in s]
    assert "the read percentiles of 1 row(s) (line 1) are not tabulated" in note
    assert "the write percentiles of the same line(s) are tabulated as completion latency" in note
    assert "row(s) with submission latency" not in note and "clearly of completion" not in note


def test_one_direction_surely_of_completion_latency_makes_the_whole_line_so(tmp_path):
    # v3.terse's line with the write's minimum total latency raised above its 1st percentile (a total-latency
    # percentile cannot lie below the smallest total latency: so the write's are completion-latency percentiles,
    # and lat_percentiles being one option of the job, the read's too)
    line = (DATA / "tersever" / "v3.terse").read_text().strip()
    fields = line.split(";")
    shift, names = _anchor(fields, 3)
    nh, per_dir, _ = _layout(3)
    o = nh + shift + per_dir * names.index("write")
    first_pct = float(fields[o + _PCT_FIELD].partition("%=")[2])
    fields[o + 32] = f"{first_pct * 1.1:.0f}"  # lat min (µs)
    path = tmp_path / "surely.terse"
    path.write_text(";".join(fields) + "\n")
    df, said = _read(path)
    read = df[df["direction"] == "read"].iloc[0]
    pct = dict(f.split("%=") for f in fields[nh + shift + _PCT_FIELD:nh + shift + _PCT_FIELD + 20])  # read block
    assert read["clat_p99_s"] == pytest.approx(int(pct["99.000000"]) * 1e-6) and read["clat_p99_s"] > 0
    assert read["clat_p50_s"] == pytest.approx(int(pct["50.000000"]) * 1e-6) and read["clat_p50_s"] > 0
    assert not any("percentiles" in s for s in said), said


def test_appended_runs_name_the_line_dropped():
    _, said = _read(DATA / "tersapp" / "qd_appended.terse")
    (note,) = [s for s in said if "percentiles" in s]
    assert "the read percentiles of 1 row(s) (line 3) are not tabulated" in note
