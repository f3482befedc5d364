"""``nvmemodel reproduce -p NAME VALUE`` (issue 31): papermill's parameter syntax, each value given to the chosen
notebooks whose parameters cell declares NAME; a name none declares is one line, exit 2, before anything runs."""

from __future__ import annotations

import json

import pytest

from nvmemodel import reproduce
from nvmemodel.cli import main

pytest.importorskip("papermill")


def test_values_are_parsed_as_papermill_parses_them():
    # papermill's -p: True/False/None, an int, a float, else the text (papermill/cli.py _resolve_type)
    assert [reproduce.parse_parameter(v) for v in ("512", "True", "None", "0.5", "4K", "1e3")] == \
        [512, True, None, 0.5, "4K", 1000.0]


def test_a_parameter_goes_to_the_notebooks_that_declare_it():
    chosen = reproduce.select("1,2,3")
    given = reproduce.assign_parameters(chosen, [("mps", "512"), ("iodepth", "64")])
    declared = {p.stem[:2]: reproduce.declared_parameters(p) for p in chosen}
    for path in chosen:
        expected = {k: v for k, v in {"mps": 512, "iodepth": 64}.items() if k in declared[path.stem[:2]]}
        assert given[path] == expected
    assert given[chosen[0]] == {"mps": 512, "iodepth": 64}  # the primer declares both
    assert "iodepth" not in given[chosen[1]]  # LP0865's notebook has no queue depth


def test_unknown_name_is_one_line_listing_the_names(tmp_path, capsys):
    assert main(["reproduce", "--only", "1", "-p", "iodeph", "8", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("nvmemodel: error: -p='iodeph'")
    assert "did you mean iodepth" in err and "latency_us" in err  # the names notebook 01 declares
    assert not (tmp_path / "out").exists()  # nothing ran


def test_a_name_of_a_notebook_not_chosen_says_which(tmp_path, capsys):
    assert main(["reproduce", "--only", "2", "-p", "iodepth", "8", "--out", str(tmp_path / "out")]) == 2
    assert "notebook 01 declares iodepth: add it to --only" in capsys.readouterr().err


@pytest.mark.parametrize("argv, words", [
    (["-p", "quick", "True"], "use --quick"),
    (["-p", "output_dir", "x"], "use --out"),
    (["-p", "mps", "512", "-p", "mps", "256"], "each parameter once"),
    (["-p", "mps", "512", "--refresh"], "no -p with --refresh"),
])
def test_parameters_reproduce_sets_or_cannot_take_are_refused(tmp_path, capsys, argv, words):
    assert main(["reproduce", "--only", "1", *argv, "--out", str(tmp_path / "out")]) == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.notebook
def test_reproduce_runs_a_notebook_with_the_parameter(tmp_path):
    assert main(["reproduce", "--quick", "--only", "2", "-p", "mps", "512", "--out", str(tmp_path / "out")]) == 0
    key = json.loads((tmp_path / "out" / "02_lenovo_lp0865" / "key_numbers.json").read_text())
    assert key["mps"] == 512  # the notebook ran with it (its default is 256)
