"""A notebook whose kernel answers nothing is run again, not waited for for ever (nvmemodel/reproduce.py).

Seen on this 2-core machine: with two notebooks at work, now and then a kernel sat idle while its client waited
for a reply that never came, and ``nvmemodel reproduce`` (the README's main command) hung. Each cell now has a
time limit; a timeout runs the notebook again, three times at most, then says so in one line.
"""

from __future__ import annotations

import pathlib

import pytest

from nvmemodel import reproduce

pm = pytest.importorskip("papermill")


def _fake(outcomes, calls):
    def execute_notebook(*args, **kwargs):
        calls.append(kwargs)
        outcome = outcomes.pop(0)
        if outcome is not None:
            raise outcome
    return execute_notebook


def test_a_lost_cell_runs_the_notebook_again(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(pm, "execute_notebook", _fake([TimeoutError("Cell execution timed out"), None], calls))
    assert reproduce._execute(pathlib.Path("notebooks/01_pcie_nvme_primer.ipynb"), tmp_path, True) is None
    assert len(calls) == 2
    assert all(c["execution_timeout"] == reproduce.CELL_TIMEOUT_S for c in calls)


def test_three_lost_runs_are_one_message(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(pm, "execute_notebook", _fake([TimeoutError("timed out")] * 3, calls))
    problem = reproduce._execute(pathlib.Path("notebooks/01_pcie_nvme_primer.ipynb"), tmp_path, True)
    assert len(calls) == 3
    assert problem.startswith("01_pcie_nvme_primer.ipynb: a cell gave no answer for 60 s, three times")
