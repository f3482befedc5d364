"""``fio-jobs --precondition`` and the steady-state check: the job text (every value checked), the refusal to
write a device nobody named, and a real preconditioned run to steady state (fio, a 4 MiB file in tmp_path)."""

import json
import pathlib
import shutil

import pytest

from nvmemodel import cli
from nvmemodel.errors import ParameterError
from nvmemodel.jobs import Plan, job_text, run_plan, sweep_plan, write_jobs
from nvmemodel.jobs.fiooptions import check_steady_state, fio_line
from nvmemodel.jobs.precondition import precondition_notes, precondition_steps
from nvmemodel.jobs.runner import _check_report

FIO = shutil.which("fio")


def _plan(targets, **kw):
    settings = {"runtime_s": 10.0, "ramp_s": 0.0, "size_bytes": 2**22, "ioengine": "psync", "direct": False} | kw
    return sweep_plan(targets, patterns=["randwrite"], iodepths=[1], **settings)


def test_a_file_gets_the_fill_and_the_random_pass_and_no_purge(tmp_path):
    plan = _plan([str(tmp_path / "f")], precondition=True)
    steps = precondition_steps(plan)
    assert [s.name for s in steps] == ["2-fill", "3-randwrite"]
    fill, rand = (s.text.splitlines() for s in steps)
    # SNIA PTS workload-independent preconditioning: the range written twice with 128 KiB sequential writes
    assert {"rw=write", "bs=131072", "loops=2", f"size={2**22}", f"filename={tmp_path / 'f'}"} <= set(fill)
    assert {"rw=randwrite", "bs=4096", "loops=2", "iodepth=1"} <= set(rand)  # psync: one I/O in flight
    assert any("no purge" in n and "cannot be purged" in n for n in precondition_notes(plan))


def test_a_device_gets_a_discard_said_not_to_be_the_pts_purge():
    plan = _plan(["/dev/nvme7n1"], precondition=True, ioengine="libaio", direct=True)
    purge = precondition_steps(plan)[0]
    assert purge.name == "1-purge" and "rw=trim" in purge.text.splitlines() and "iodepth=32" in purge.text
    assert "Not SNIA PTS's purge" in purge.text and "nvme sanitize" in purge.text


def test_preconditioning_a_device_needs_the_write_permission_even_for_read_points(tmp_path):
    plan = sweep_plan(["/dev/nvme7n1"], patterns=["randread"], size_bytes=2**22, precondition=True)
    with pytest.raises(ParameterError, match=r"preconditioning \(--precondition\).*destroys"):
        write_jobs(plan, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    assert write_jobs(plan, tmp_path / "ok", allow_raw_device_writes=True)
    assert (tmp_path / "ok/jobs/precondition/1-purge.fio").read_text() == precondition_steps(plan)[0].text


def test_fio_jobs_refuses_to_precondition_devices_it_found_itself(tmp_path, capsys):
    rc = cli.main(["fio-jobs", "--out", str(tmp_path / "o"), "--targets", "auto", "--precondition"])
    err = capsys.readouterr().err
    assert rc == 2 and "named one by one with --precondition" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("text", ["iops_slope:1%\nexec=/bin/sh", "iops:5%;x", "iops_slope:0%", "latency:1%",
                                  "iops_slope:101%", "iops:${HOME}", " iops:5%", "iops: 5%"])
def test_steady_state_criteria_are_fio_s_and_nothing_else(text):
    with pytest.raises(ParameterError, match="steady_state"):
        check_steady_state(text)


def test_the_measurement_jobs_carry_the_check(tmp_path):
    plan = _plan([str(tmp_path / "f")], steady_state="iops_slope:0.5%", ss_duration_s=6, ss_ramp_s=2)
    lines = job_text(plan, plan.points[0]).splitlines()
    assert {"steadystate=iops_slope:0.5%", "steadystate_duration=6s", "steadystate_ramp_time=2s"} <= set(lines)
    assert fio_line("steadystate_duration", 60) == "steadystate_duration=60s"
    with pytest.raises(ParameterError, match="whole seconds"):
        fio_line("steadystate_duration", 1.5)  # fio samples once a second
    with pytest.raises(ParameterError, match="within the run time"):
        _plan([str(tmp_path / "f")], steady_state="iops:5%", ss_duration_s=9, ss_ramp_s=2)
    with pytest.raises(ParameterError, match="steady_state criterion too"):
        _plan([str(tmp_path / "f")], ss_duration_s=5)


def test_a_plan_without_the_new_options_keeps_its_plan_json_bytes(tmp_path):
    plan = _plan([str(tmp_path / "f")])
    d = plan.to_dict()
    assert not {"steady_state", "ss_duration_s", "ss_ramp_s", "precondition"} & set(d)
    assert Plan.from_dict(json.loads(json.dumps(d))) == plan
    full = _plan([str(tmp_path / "f")], steady_state="iops:5%", ss_duration_s=4, precondition=True)
    assert Plan.from_dict(json.loads(json.dumps(full.to_dict()))) == full


def test_the_default_check_of_precondition_is_pts_slope_rule_per_second(tmp_path, capsys):
    # SNIA PTS: the best-fit line may move by 10 % of the mean over the window; fio's slope limit is per
    # second of the mean (one sample a second): 10 % / (5 - 1) s = 2.5 % for a 5 s window
    out = tmp_path / "o"
    rc = cli.main(["fio-jobs", "--out", str(out), "--targets", str(tmp_path / "f"), "--pattern", "randwrite",
                   "--runtime", "20s", "--size", "4M", "--precondition", "--ss-dur", "5s"])
    assert rc == 0
    plan = Plan.load(out / "plan.json")
    assert plan.steady_state == "iops_slope:2.5%" and plan.ss_duration_s == 5 and plan.precondition
    assert "wrote 4 file(s)" in capsys.readouterr().out  # plan.json, 2 preconditioning steps, 1 point


def test_an_early_end_is_complete_only_when_fio_found_steady_state(tmp_path):
    report = {"jobs": [{"jobname": "j", "job_runtime": 3000, "steadystate": {"attained": 1}}]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report))
    assert _check_report(path, 20.0) == ""
    report["jobs"][0]["steadystate"]["attained"] = 0
    path.write_text(json.dumps(report))
    assert "ran 3000 ms of the planned 20000 ms" in _check_report(path, 20.0)


@pytest.mark.fio
@pytest.mark.skipif(FIO is None, reason="fio is not installed (apt-get install -y fio)")
def test_a_real_preconditioned_run_records_its_steady_state(tmp_path):
    # a loose check fio meets on a 4 MiB file in a few seconds, and one it cannot (0.0001 %)
    plan = _plan([str(tmp_path / "f")], runtime_s=4.0, precondition=True, steady_state="iops_slope:0.0001%",
                 ss_duration_s=2)
    write_jobs(plan, tmp_path / "sweep")
    lines = []
    report = run_plan(tmp_path / "sweep", progress=lines.append)
    assert report.preconditioned == ("2-fill", "3-randwrite") and report.complete
    assert (tmp_path / "sweep/precondition/2-fill.json").is_file()
    assert report.steady_state == (("1drives/randwrite-bs4096-qd1-nj1.json", False),)
    assert any("steady state NOT reached" in line for line in lines)
    again = run_plan(tmp_path / "sweep", progress=lines.append)  # resumed: nothing redone
    assert again.preconditioned == () and again.skipped == report.ran


def test_a_real_loop_device_was_preconditioned_with_a_discard_first():
    # tests/data/steadystate/loop: fio 3.33 on a 32 MiB loop device (README): the purge step is a trim of the range
    import nvmemodel as nm

    loop = pathlib.Path(__file__).resolve().parents[1] / "data" / "steadystate" / "loop"
    plan = Plan.load(loop / "plan.json")
    assert [s.name for s in precondition_steps(plan)] == ["1-purge", "2-fill", "3-randwrite"]
    steps = nm.read_results(loop / "precondition")
    purge = steps[steps["source_path"].str.endswith("1-purge.json")]
    assert list(purge["direction"]) == ["trim"] and purge["io_bytes"].iloc[0] == 32 * 2**20  # the whole range
    fill = steps[steps["source_path"].str.endswith("2-fill.json")]
    assert fill["io_bytes"].iloc[0] == 2 * 32 * 2**20  # twice the range
    point = nm.read_results(loop / "results")
    assert point["ss_attained"].iloc[0] == True and point["runtime_s"].iloc[0] < 15 * 0.9  # noqa: E712
