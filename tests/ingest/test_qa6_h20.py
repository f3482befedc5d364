"""QA s25 H20: three fio runs appended into one normal-output file (iodepth 1, 8, 16), the iodepth-8 run failed
(fio printed its header, an error line and an empty "Run status group 0"). Its header must not be given the next
run's result: the 44.1 K IOPS block follows the iodepth-16 header (tests/data/qa6/errapp, measured with fio 3.33)."""

from __future__ import annotations

import pathlib
import warnings

import pytest

import nvmemodel as nm
from nvmemodel.errors import IngestWarning

APPENDED = pathlib.Path(__file__).parents[1] / "data" / "qa6" / "errapp" / "appended.normal"


def _read(path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = nm.read_results(path)
    return table, [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]


def _check(table, said):
    ok = table[table["error"] == 0].sort_values("iodepth")
    assert list(ok["iodepth"]) == [1, 16]
    assert list(ok["ios"]) == [11535, 44465]  # "issued rwts: total=11535" / "total=44465"
    assert ok["iops"].iloc[1] == pytest.approx(44465 / 1.008)  # 44.1 K IOPS, at iodepth 16 (was tabulated at 8)
    assert ok["run"].nunique() == 2
    failed = table[table["error"].fillna(-1) != 0]  # (error NA: fio's error code is not in the file)
    assert len(failed) == 1 and failed["iodepth"].iloc[0] == 8 and failed["iops"].isna().all()
    assert not set(failed["run"]) & set(ok["run"])  # a run of its own
    assert any("run 1: iodepth 8" in s and "no results" in s for s in said), said
    assert not any("cut off" in s for s in said), said  # nothing was cut off


def test_a_failed_run_between_appended_runs_is_its_own_run_with_an_error_row():
    table, said = _read(APPENDED)
    _check(table, said)
    assert table.loc[table["iodepth"] == 8, "error"].iloc[0] == 1  # "fio: pid=0, err=1/file:filesetup.c:150 …"


def test_the_same_without_fios_error_line(tmp_path):
    # stderr not redirected: the file holds only the header, "Starting 1 process" and the empty status line
    text = APPENDED.read_text()
    assert "fio: pid=0, err=1/" in text
    path = tmp_path / "appended.normal"
    path.write_text("".join(line for line in text.splitlines(keepends=True) if not line.startswith("fio: pid=")))
    table, said = _read(path)
    _check(table, said)

