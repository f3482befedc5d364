"""Small leftovers of earlier issues, each held here: a planted ``precondition`` link refused before run-sweep
reads it; implausible fio IOPS refused or recomputed at ingest; ``compare a a`` saying it compares a file with
itself; a fit on a table warning about steady state as ingest does for files."""

from __future__ import annotations

import pytest

from nvmemodel.errors import ParameterError


# --- run-sweep: precondition/ is the sweep's own folder ------------------------------------------------------------

def test_run_sweep_refuses_a_planted_precondition_link_before_taking_steps_as_done(tmp_path):
    from nvmemodel.jobs import run_plan, sweep_plan, write_jobs
    from nvmemodel.jobs.precondition import precondition_steps

    plan = sweep_plan([str(tmp_path / "drive.dat")], runtime_s=0.2, ramp_s=0.0, size_bytes=2**20, ioengine="psync",
                      direct=False, precondition=True)
    write_jobs(plan, tmp_path / "sweep")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    # a folder holding reports named like the steps': before, every step was 'done earlier' through the link and
    # the points ran on a drive never preconditioned
    for step in precondition_steps(plan):
        (foreign / step.result_path.split("/")[-1]).write_text("{}")
    before = sorted(p.name for p in foreign.iterdir())
    (tmp_path / "sweep" / "precondition").symlink_to(foreign)
    fio = tmp_path / "fake-fio"
    fio.write_text("#!/bin/sh\necho ran >&2\nexit 1\n")
    fio.chmod(0o755)
    said = []
    with pytest.raises(ParameterError, match=r"precondition.*symbolic link"):
        run_plan(tmp_path / "sweep", fio=str(fio), progress=said.append)
    assert said == []  # refused before any step or point was looked at
    assert sorted(p.name for p in foreign.iterdir()) == before
    assert not (tmp_path / "sweep" / "results").exists() or not any((tmp_path / "sweep" / "results").rglob("*.json"))

