"""QA s25 H24: the same fio run read twice (a results folder and its copy; the same output appended twice)
is one measurement, not two zero-spread repeats ("beyond the repeat noise", a lack-of-fit p = 1.6e-08 made by
the copying). Runs that only look alike (the same job, another measurement) stay two runs."""

from __future__ import annotations

import pathlib
import shutil
import warnings

import nvmemodel as nm
from nvmemodel.errors import IngestWarning

QA6 = pathlib.Path(__file__).parents[1] / "data" / "qa6"


def _read(paths, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = nm.read_results(paths, **kw)
    return table, [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]


def _copies(tmp_path, names, folder="grid"):
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        for name in names:
            shutil.copy(QA6 / folder / name, tmp_path / sub / name)


def test_a_folder_and_its_copy_are_read_once_with_a_warning_naming_both(tmp_path):
    names = ["nj4_qd1.json", "nj4_qd4.json", "nj4_qd16.json", "nj4_qd64.json"]
    _copies(tmp_path, names)
    table, said = _read(tmp_path)
    assert sorted(table["source_path"]) == sorted(str(tmp_path / "a" / n) for n in names)
    assert len(table) == 4
    (copy,) = [s for s in said if "copies" in s]
    assert f"{tmp_path / 'b' / 'nj4_qd16.json'} is a copy of {tmp_path / 'a' / 'nj4_qd16.json'}" in copy
    # the fit sees one measurement per point: no repeat noise made of copies
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = nm.fit(tmp_path, x="iodepth", y="iops").explain()
    assert "repeat noise" not in text
    assert "One run a point" in text  # issue 28: the noise words say there are no repeats


def test_real_repeats_of_one_job_are_two_runs(tmp_path):
    # bs/: the same job run twice (r1, r2): another measurement each time, both kept, no warning
    table, said = _read([QA6 / "bs" / "bs4k_r1.json", QA6 / "bs" / "bs4k_r2.json"])
    assert len(table) == 2 and table["job_name"].nunique() == 1
    assert not any("cop" in s for s in said), said


def test_the_same_output_appended_twice_is_one_run(tmp_path):
    text = (QA6 / "errapp" / "appended.normal").read_text()
    first = text[: text.index("ea: (g=0)", 1)]  # the iodepth-1 run (header … Disk stats)
    path = tmp_path / "twice.normal"
    path.write_text(first + first)
    table, said = _read(path)
    assert list(table["run"]) == [0] and table["ios"].iloc[0] == 11535
    assert any(f"{path} (run 1) is a copy of {path} (run 0)" in s for s in said), said


def test_copies_given_different_labels_are_not_merged(tmp_path):
    _copies(tmp_path, ["nj1_qd1.json"])
    table, _ = _read(tmp_path, path_pattern="{side}/*.json")
    assert sorted(table["side"]) == ["a", "b"]


def test_failed_runs_are_never_taken_for_copies(tmp_path):
    _copies(tmp_path, ["qd8.json"], folder="errs")  # fio error 1: no measurement in it
    table, said = _read(tmp_path)
    assert len(table) == 2 and table["iops"].isna().all()
    assert not any("copies" in s for s in said), said
