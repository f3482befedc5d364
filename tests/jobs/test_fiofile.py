"""Job files, the raw-device guard, and a folder that is never overwritten."""

import json

import pytest

from nvmemodel import cli
from nvmemodel.errors import ParameterError
from nvmemodel.jobs import check_targets, is_raw_device, job_text, sweep_plan, write_jobs


def test_job_text_has_one_section_per_drive():
    plan = sweep_plan(["/data/a", "/data/b", "/data/c"], drives=[2], patterns=["randrw"], read_fraction=0.7,
                      block_sizes=[131072], iodepths=[16], numjobs=[4], runtime_s=30, ramp_s=2)
    text = job_text(plan, plan.points[0])
    for line in ("rw=randrw", "rwmixread=70", "bs=131072", "iodepth=16", "numjobs=4", "runtime=30000ms",
                 "ramp_time=2000ms", "direct=1", "[drive1]", "filename=/data/a", "[drive2]", "filename=/data/b"):
        assert line in text.splitlines()
    assert "/data/c" not in text


def test_raw_devices_are_recognised(tmp_path):
    assert is_raw_device("/dev/null")  # a character device here
    assert is_raw_device("/dev/nvme9n9")  # absent here, but a device name where the plan may run
    assert not is_raw_device("/dev/shm/nvmemodel-test-file") and not is_raw_device(str(tmp_path / "f"))


def test_writing_to_a_raw_device_is_refused_without_the_flag():
    plan = sweep_plan(["/dev/nvme0n1", "/dev/nvme1n1"], patterns=["randread", "randwrite"])
    with pytest.raises(ParameterError, match="allow-raw-device-writes") as info:
        check_targets(plan)
    assert "/dev/nvme0n1" in str(info.value) and "randwrite" in str(info.value)
    assert check_targets(plan, allow_raw_device_writes=True) == ["/dev/nvme0n1", "/dev/nvme1n1"]
    reads = sweep_plan(["/dev/nvme0n1"], patterns=["read", "randread"])
    assert check_targets(reads) == ["/dev/nvme0n1"]  # reading a device is allowed, and reported


def test_write_jobs_is_idempotent_and_never_overwrites(tmp_path):
    plan = sweep_plan([str(tmp_path / "f")], iodepths=[1, 4])
    first = write_jobs(plan, tmp_path / "out")
    assert len(first) == 3 and (tmp_path / "out" / "plan.json").exists()
    assert write_jobs(plan, tmp_path / "out") == []  # the same plan again: nothing to write
    other = sweep_plan([str(tmp_path / "f")], iodepths=[1, 8])
    with pytest.raises(ParameterError, match="differs"):
        write_jobs(other, tmp_path / "out")
    assert "iodepth=4" in (tmp_path / "out/jobs/1drives/randread-bs4096-qd4-nj1.fio").read_text()


def test_cli_refuses_raw_device_writes(capsys):
    assert cli.main(["fio-jobs", "--out", "/nonexistent/never-written", "--targets", "/dev/nvme0n1",
                     "--pattern", "randwrite", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "allow-raw-device-writes" in err and "/dev/nvme0n1" in err


def test_numa_nodes_pin_each_drive():
    plan = sweep_plan(["/data/a", "/data/b"], drives=[2], numa_nodes=(0, 1))
    text = job_text(plan, plan.points[0]).split("[drive2]")[1]
    assert "numa_cpu_nodes=1" in text and "numa_mem_policy=bind:1" in text
    with pytest.raises(ParameterError, match="one NUMA node number"):
        sweep_plan(["/data/a", "/data/b"], numa_nodes=(0,))


def _nvme_sys(root):
    """Two controllers (NUMA 0 and 1); the second with native multipath naming (nvme1c1n1)."""
    for ctrl, ns, node in (("nvme0", "nvme0n1", 0), ("nvme1", "nvme1c1n1", 1)):
        d = root / "sys/class/nvme" / ctrl
        (d / ns).mkdir(parents=True)
        (d / "numa_node").write_text(f"{node}\n")
    return root


def test_targets_auto_lists_namespaces_with_their_nodes(tmp_path, capsys):
    from nvmemodel.discover import nvme_namespaces

    root = _nvme_sys(tmp_path)
    assert nvme_namespaces(root) == [("/dev/nvme0n1", 0), ("/dev/nvme1n1", 1)]
    argv = ["fio-jobs", "--out", str(tmp_path / "o"), "--targets", "auto", "--sysfs-root", f"{root}/",
            "--pattern", "randread", "--dry-run"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "targets: /dev/nvme0n1 (NUMA 0), /dev/nvme1n1 (NUMA 1)" in out
    assert "raw devices: /dev/nvme0n1, /dev/nvme1n1 (read patterns only)" in out
    assert "numa_cpu_nodes=0" in out  # the job file shown pins drive 1 to its node
    assert cli.main([*argv[:-3], "--pattern", "randwrite", "--dry-run"]) == 2  # writing to devices: refused
    assert "allow-raw-device-writes" in capsys.readouterr().err


def test_targets_auto_without_nvme_is_one_clear_error(tmp_path, capsys):
    argv = ["fio-jobs", "--out", str(tmp_path / "o"), "--targets", "auto", "--sysfs-root", f"{tmp_path}/", "--dry-run"]
    assert cli.main(argv) == 2  # no sys/ at all: not a sysfs root
    assert "a folder holding sys/" in capsys.readouterr().err
    (tmp_path / "sys").mkdir()  # a sysfs without NVMe controllers
    assert cli.main(argv) == 2
    assert "NVMe namespaces" in capsys.readouterr().err


def _tree(root):
    """Every path under root with its bytes (files) — to show that a refusal wrote nothing."""
    return {p: (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


@pytest.mark.parametrize("make", ["file", "results", "unrelated"])
def test_write_jobs_refuses_a_folder_that_is_not_new_and_not_this_plan(tmp_path, make):
    """Issue 17 item 14: only a new (absent or empty) folder, or one holding this very plan."""
    out = tmp_path / "out"
    if make == "file":
        out.write_text("an existing file\n")
        match = "not a folder"
    elif make == "results":  # an existing results folder (fio JSON, no plan.json)
        (out / "4drives").mkdir(parents=True)
        (out / "4drives/randread-bs4096-qd32-nj1.json").write_text('{"jobs": []}\n')
        match = "no plan.json"
    else:
        out.mkdir()
        (out / "notes.txt").write_text("mine\n")
        match = "holds 1 other entry"
    before = _tree(tmp_path)
    with pytest.raises(ParameterError, match=match):
        write_jobs(sweep_plan([str(tmp_path / "f")]), out)
    assert _tree(tmp_path) == before


def test_write_jobs_refuses_dev_null(tmp_path):
    with pytest.raises(ParameterError, match="not a folder"):
        write_jobs(sweep_plan([str(tmp_path / "f")]), "/dev/null")


def test_this_very_plan_means_the_same_plan_json_bytes(tmp_path):
    """A folder holds 'this very plan' when its plan.json has exactly the bytes (the SHA-256) of the plan's
    plan_json(); then only missing job files are written, and an edited one is refused."""
    import hashlib

    from nvmemodel.jobs import plan_json

    plan = sweep_plan([str(tmp_path / "f")], iodepths=[1, 4])
    out = tmp_path / "out"
    out.mkdir()  # an empty folder counts as new
    assert len(write_jobs(plan, out)) == 3
    assert hashlib.sha256((out / "plan.json").read_bytes()).hexdigest() == \
        hashlib.sha256(plan_json(plan).encode()).hexdigest()
    (out / "results/1drives").mkdir(parents=True)  # what run-sweep adds does not make the folder foreign
    job = out / "jobs" / plan.points[1].job_path
    job.unlink()
    assert write_jobs(plan, out) == [job]  # the missing job file only
    job.write_text(job.read_text().replace("iodepth=4", "iodepth=8"))
    with pytest.raises(ParameterError, match="differs"):
        write_jobs(plan, out)
    # the same plan, formatted differently, is not "this very plan": refused, never merged
    doc = json.loads((out / "plan.json").read_text())
    (out / "plan.json").write_text(json.dumps(doc))
    with pytest.raises(ParameterError, match="plan.json differs"):
        write_jobs(plan, out)


@pytest.mark.parametrize("argv_out, match", [("exists.txt", "not a folder"), ("/dev/null", "not a folder"),
                                             ("results", "no plan.json")])
def test_cli_fio_jobs_out_is_one_error_line(tmp_path, monkeypatch, capsys, argv_out, match):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exists.txt").write_text("x\n")
    (tmp_path / "results").mkdir()
    (tmp_path / "results/run.json").write_text("{}\n")
    before = _tree(tmp_path)
    assert cli.main(["fio-jobs", "--out", argv_out, "--targets", str(tmp_path / "f")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: out=") and match in err and err.count("\n") == 1
    assert _tree(tmp_path) == before
