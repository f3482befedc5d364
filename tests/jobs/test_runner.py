"""The runner: real fio on small temp files (each point ≤ 0.2 s of I/O), resume, never overwrite, failures.

Points run fio's ``psync`` engine on 1 MiB files in ``tmp_path`` with ``direct=0`` (tmp may be a
file system without O_DIRECT); nothing here touches a device.
"""

import shutil
import stat

import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.errors import ParameterError
from nvmemodel.jobs import PATH_PATTERN, run_plan, sweep_plan, write_jobs

FIO = shutil.which("fio")
needs_fio = [pytest.mark.fio, pytest.mark.skipif(FIO is None, reason="fio is not installed (apt-get install -y fio)")]
SMALL = {"runtime_s": 0.2, "ramp_s": 0.0, "size_bytes": 2**20, "ioengine": "psync", "direct": False}


def _plan(tmp_path, drives=(1, 2), iodepths=(1, 4)):
    targets = [str(tmp_path / f"drive{i}.dat") for i in range(1, max(drives) + 1)]
    plan = sweep_plan(targets, drives=drives, iodepths=iodepths, **SMALL)
    write_jobs(plan, tmp_path / "sweep")
    return plan, tmp_path / "sweep"


def _fake_fio(tmp_path, body: str):
    script = tmp_path / "fake-fio"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


pytestmark = needs_fio


def test_run_resume_and_ingest(tmp_path):
    plan, folder = _plan(tmp_path)
    lines = []
    first = run_plan(folder, fio=FIO, limit=2, progress=lines.append)
    assert len(first.ran) == 2 and not first.failed and not first.complete
    assert lines[0].startswith("[1/4] 1 drive(s), randread 4K, QD1")
    done = {p: (folder / "results" / p).stat().st_mtime_ns for p in first.ran}
    second = run_plan(folder, fio=FIO, progress=None)
    assert set(second.skipped) == set(first.ran) and len(second.ran) == 2 and second.complete
    assert {p: (folder / "results" / p).stat().st_mtime_ns for p in first.ran} == done  # not rerun, not rewritten
    assert not list((folder / "results").rglob(".*.partial"))

    df = nm.read_results(folder / "results", path_pattern=PATH_PATTERN)
    assert df.attrs["skipped"] == []
    # one row per drive per point: 1-drive points give 1 row each, 2-drive points 2 rows each
    assert len(df) == 2 * 1 + 2 * 2
    assert sorted(df["drives"].astype(int).unique()) == [1, 2]
    assert set(df["iodepth"]) == {1, 4} and (df["pattern"] == "randread").all()
    assert (df["block_size_bytes"] == 4096).all() and (df["error"] == 0).all() and (df["iops"] > 0).all()
    two = df[df["drives"].astype(int) == 2]
    assert set(two["target_names"]) == {plan.targets[0], plan.targets[1]} and (two["targets"] == 2).all()


def test_existing_result_is_never_overwritten(tmp_path):
    plan, folder = _plan(tmp_path, drives=(1,), iodepths=(1,))
    final = folder / "results" / plan.points[0].result_path
    final.parent.mkdir(parents=True)
    final.write_text("an earlier result, kept as it is\n")
    report = run_plan(folder, fio=FIO, progress=None)
    assert report.skipped == (plan.points[0].result_path,) and report.ran == ()
    assert final.read_text() == "an earlier result, kept as it is\n"


def test_interrupted_point_is_redone(tmp_path):
    plan, folder = _plan(tmp_path, drives=(1,), iodepths=(1, 4))
    # a first run "killed" mid-point: fio had written half its JSON when it died
    dying = _fake_fio(tmp_path, 'for a in "$@"; do case "$a" in --output=*) printf "{\\"jobs\\": [" > '
                                '"${a#--output=}";; esac; done\nexit 130\n')
    broken = run_plan(folder, fio=dying, limit=1, progress=None)
    assert len(broken.failed) == 1 and "status 130" in broken.failed[0][1]
    assert not (folder / "results" / plan.points[0].result_path).exists()
    again = run_plan(folder, fio=FIO, progress=None)
    assert set(again.ran) == {p.result_path for p in plan.points} and again.complete
    assert not list((folder / "results").rglob(".*.partial"))


def test_fio_failure_names_the_log(tmp_path):
    _, folder = _plan(tmp_path, drives=(1,), iodepths=(1,))
    failing = _fake_fio(tmp_path, 'echo "fio: pretend the file system is full" >&2\nexit 1\n')
    report = run_plan(folder, fio=failing, progress=None)
    (path, why), = report.failed
    assert "pretend the file system is full" in why and "logs/1drives" in why
    assert not (folder / "results" / path).exists()


def test_dry_run_runs_nothing(tmp_path):
    _, folder = _plan(tmp_path)
    lines = []
    report = run_plan(folder, fio=FIO, dry_run=True, progress=lines.append)
    assert report.ran == () and len(lines) == 4 and "would run" in lines[0] and "--output-format=json" in lines[0]
    assert not (folder / "results").exists()


def test_missing_fio_is_one_clear_error(tmp_path):
    _, folder = _plan(tmp_path, drives=(1,), iodepths=(1,))
    with pytest.raises(ParameterError, match="--fio"):
        run_plan(folder, fio=str(tmp_path / "no-such-fio"), progress=None)


def test_cli_fio_jobs_and_run_sweep(tmp_path, capsys):
    out = tmp_path / "cli"
    targets = ",".join(str(tmp_path / f"t{i}") for i in (1, 2))
    argv = ["fio-jobs", "--out", str(out), "--targets", targets, "--iodepth", "1,2", "--runtime", "200ms",
            "--ramp", "0", "--size", "1M", "--ioengine", "psync", "--no-direct"]
    assert cli.main([*argv, "--dry-run"]) == 0
    assert "(dry run: nothing written)" in capsys.readouterr().out and not out.exists()
    assert cli.main(argv) == 0
    assert cli.main(["run-sweep", str(out), "--fio", FIO, "--limit", "1"]) == 0
    assert "1 run now, 0 done earlier, 0 failed, 3 left" in capsys.readouterr().out
    assert cli.main(["run-sweep", str(out), "--fio", FIO]) == 0
    text = capsys.readouterr().out
    assert "3 run now, 1 done earlier, 0 failed, 0 left" in text and "all points done" in text
    assert f"fit: nvmemodel fit {out}/results --x drives --by iodepth --path-pattern" in text


def test_one_run_sweep_per_folder(tmp_path):
    import fcntl

    _, folder = _plan(tmp_path, drives=(1,), iodepths=(1,))
    with open(folder / ".run-sweep.lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as another run-sweep would
        with pytest.raises(ParameterError, match="one at a time"):
            run_plan(folder, fio=FIO, progress=None)
        assert run_plan(folder, fio=FIO, dry_run=True, progress=None).ran == ()  # a dry run reads only
    assert run_plan(folder, fio=FIO, progress=None).complete  # released: it runs


def test_ctrl_c_keeps_no_half_result(tmp_path, capsys):
    _, folder = _plan(tmp_path, drives=(1,), iodepths=(1, 4))
    # a "fio" that writes a complete-looking report, then the user presses Ctrl-C (SIGINT to the runner)
    ctrl_c = _fake_fio(tmp_path, 'for a in "$@"; do case "$a" in --output=*) echo \'{"jobs": [{}]}\' > '
                                 '"${a#--output=}";; esac; done\nkill -INT $PPID\nsleep 5\n')
    assert cli.main(["run-sweep", str(folder), "--fio", ctrl_c]) == 130
    assert "interrupted; no result kept for it" in capsys.readouterr().out
    assert not list((folder / "results").rglob("*.json*")) and not list((folder / "results").rglob(".*"))
    assert run_plan(folder, fio=FIO, progress=None).complete  # the next run does every point


def test_a_short_report_is_not_a_result(tmp_path):
    _, folder = _plan(tmp_path, drives=(1,), iodepths=(1,))  # planned: 200 ms per point
    # exit status 0 but a job that ran 50 ms: what a wrapper that hides fio's interrupted status would give
    short = _fake_fio(tmp_path, 'for a in "$@"; do case "$a" in --output=*) echo \'{"jobs": [{"jobname": "drive1", '
                                '"job_runtime": 50}]}\' > "${a#--output=}";; esac; done\nexit 0\n')
    (path, why), = run_plan(folder, fio=short, progress=None).failed
    assert "ran 50 ms of the planned 200 ms" in why and not (folder / "results" / path).exists()


def test_a_job_file_edited_after_fio_jobs_is_never_run(tmp_path):
    """run-sweep runs only job files identical to what fio-jobs writes for the plan: an added line
    (exec=…, include …) is refused before fio starts, and nothing is written."""
    plan = sweep_plan([str(tmp_path / "f")])
    write_jobs(plan, tmp_path / "sweep")
    job = tmp_path / "sweep/jobs" / plan.points[0].job_path
    job.write_text(job.read_text() + "exec=/bin/sh\n")
    before = sorted(p.name for p in (tmp_path / "sweep").rglob("*"))
    with pytest.raises(ParameterError, match="differs from its point"):
        run_plan(tmp_path / "sweep", fio="/bin/false", progress=None)
    assert sorted(p.name for p in (tmp_path / "sweep").rglob("*")) == before


@pytest.mark.parametrize("plant", ["symlink", "fifo"])
def test_a_planted_log_is_refused_not_followed(tmp_path, plant):
    """logs/<point>.log is opened without following links (a link would truncate the file it names)
    and without waiting on a FIFO."""
    import os

    plan = sweep_plan([str(tmp_path / "f")], runtime_s=1, ramp_s=0, size_bytes=65536)
    write_jobs(plan, tmp_path / "sweep")
    log = tmp_path / "sweep/logs" / (plan.points[0].result_path[:-len(".json")] + ".log")
    log.parent.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    if plant == "symlink":
        log.symlink_to(victim)
    else:
        os.mkfifo(log)
    with pytest.raises(ParameterError, match="log file"):
        run_plan(tmp_path / "sweep", fio=shutil.which("fio") or "/bin/true", progress=None)
    assert victim.read_text() == "keep me\n"
