"""Nothing typed by a user can add an option to a fio job file: every value is checked against what fio
accepts for its option, through the CLI and through the Python API alike (issue 17 item 13)."""

import json
import shutil
import subprocess

import pytest

from nvmemodel import cli
from nvmemodel.errors import ParameterError
from nvmemodel.jobs import FIO_ENGINES, REFUSED_ENGINES, Plan, SweepPoint, job_text, sweep_plan, write_jobs
from nvmemodel.jobs.fiooptions import fio_line

INJECTIONS = ["libaio\nexec=/bin/sh", "libaio\rexec=/bin/sh", "libaio;rm -rf /", "libaio#x", "libaio ",
              "libaio direct=0", "libaio=1", "${HOME}", "$ncpus", "external:/tmp/evil.so", "exec", "cpuio", "",
              "LIBAIO"]


@pytest.mark.parametrize("engine", INJECTIONS)
def test_api_refuses_any_engine_fio_does_not_name(engine, tmp_path):
    with pytest.raises(ParameterError, match="ioengine"):
        sweep_plan([str(tmp_path / "f")], ioengine=engine)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("target, why", [
    ("/tmp/f\nexec=/bin/sh", "line break"), ("/tmp/f\r[evil]", "line break"), ("/tmp/f;x", "';'"),
    ("/tmp/f#x", "'#'"), ("/tmp/${HOME}", "'\\$'"), ("/tmp/a=b", "'='"), ("/tmp/a\\b", "escape"),
    ("/tmp/f\x00", "printable"), ("/tmp/f\t", "printable"), (" /tmp/f", "blanks"), ("-", "stdin"), ("", "path"),
])
def test_api_refuses_targets_fio_would_read_as_syntax(target, why, tmp_path):
    with pytest.raises(ParameterError, match=why):
        sweep_plan([target])


def test_every_line_is_one_known_option_and_colons_are_escaped():
    """fio's filename= separates files with ':' (HOWTO 'filename': escape each colon with '\\')."""
    plan = sweep_plan(["/dev/disk/by-path/pci-0000:01:00.0-nvme-1", "/data/b"], drives=[2], patterns=["randrw"],
                      read_fraction=0.7, numa_nodes=(0, 1))
    lines = job_text(plan, plan.points[0]).splitlines()
    assert "filename=/dev/disk/by-path/pci-0000\\:01\\:00.0-nvme-1" in lines
    options = [ln.split("=", 1)[0] for ln in lines if ln and not ln.startswith(("#", "["))]
    assert set(options) == {"ioengine", "direct", "time_based", "runtime", "ramp_time", "size", "rw", "bs", "iodepth",
                            "numjobs", "group_reporting", "norandommap", "randrepeat", "rwmixread", "filename",
                            "numa_cpu_nodes", "numa_mem_policy"}
    assert all(ln.count("=") == 1 for ln in lines if ln and not ln.startswith(("#", "[")))


@pytest.mark.parametrize("option, value, match", [
    ("exec", "/bin/sh", "an fio option nvmemodel writes"), ("iodepth", 0, "1 to"), ("iodepth", 2**32, "1 to"),
    ("numjobs", 4097, "4,096"), ("bs", 1.5, "whole number"), ("size", True, "whole number"),
    ("runtime", float("inf"), "finite"), ("runtime", float("nan"), "finite"), ("runtime", 0.0001, "from 1 ms"),
    ("ramp_time", -1, "from 0 ms"), ("rwmixread", 101, "0 to 100"), ("rw", "randread\nexec=x", "rw= values"),
    ("numa_mem_policy", -1, "from 0"),
])
def test_each_option_has_fios_range(option, value, match):
    with pytest.raises(ParameterError, match=match):
        fio_line(option, value)


def test_plan_numbers_are_checked_where_the_plan_is_made(tmp_path):
    target = str(tmp_path / "f")
    with pytest.raises(ParameterError, match="size"):
        sweep_plan([target], size_bytes=0)  # fio size=0 is "the whole file or device": never what was typed
    with pytest.raises(ParameterError, match="largest block size"):
        sweep_plan([target], size_bytes=4096, block_sizes=[131072])
    with pytest.raises(ParameterError, match="finite"):
        sweep_plan([target], runtime_s=float("inf"))
    with pytest.raises(ParameterError, match="4096 fio jobs"):
        sweep_plan([target] * 1 + [f"{target}{i}" for i in range(1, 8)], drives=[8], numjobs=[600])
    with pytest.raises(ParameterError, match="True or False"):
        sweep_plan([target], direct="yes")
    with pytest.raises(ParameterError, match="each file or device once"):
        sweep_plan([target, target])


def test_an_edited_plan_json_is_checked_when_loaded(tmp_path):
    """run-sweep loads plan.json: a hand-edited engine or target is refused the same way."""
    plan = sweep_plan([str(tmp_path / "f")])
    write_jobs(plan, tmp_path / "out")
    doc = json.loads((tmp_path / "out/plan.json").read_text())
    doc["ioengine"] = "libaio\nexec=/bin/sh"
    (tmp_path / "out/plan.json").write_text(json.dumps(doc))
    with pytest.raises(ParameterError, match="ioengine"):
        Plan.load(tmp_path / "out/plan.json")


def test_engine_list_is_fios_own():
    # names from fio 3.42 options.c (ioengine posval) and engines/*.c
    assert {"libaio", "io_uring", "psync", "sync", "pvsync2", "mmap", "null", "posixaio", "sg", "xnvme",
            "io_uring_cmd", "dev-dax"} <= FIO_ENGINES
    assert set(REFUSED_ENGINES) <= FIO_ENGINES  # refused although fio knows them, each with a reason
    assert all(REFUSED_ENGINES.values())


def test_cli_injection_is_one_error_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    for engine in ("libaio\nexec=/bin/sh", "libaio;rm -rf /"):
        assert cli.main(["fio-jobs", "--out", str(out), "--targets", str(tmp_path / "f"), "--ioengine", engine]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("nvmemodel: error: ioengine=") and "Traceback" not in err
    assert cli.main(["fio-jobs", "--out", str(out), "--targets", f"{tmp_path}/f\nexec=/bin/sh"]) == 2
    assert "line break" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed (apt-get install -y fio)")
def test_real_fio_reads_an_escaped_colon_as_one_file(tmp_path):
    """fio itself reads the written job file: a target path with colons is one file, created as named."""
    target = tmp_path / "a:b:c.dat"
    plan = Plan((str(target),), (SweepPoint(1, "write", 4096, 1, 1),), runtime_s=0.2, ramp_s=0, size_bytes=65536,
                ioengine="psync", direct=False)
    write_jobs(plan, tmp_path / "sweep")
    job = tmp_path / "sweep/jobs" / plan.points[0].job_path
    run = subprocess.run(["fio", "--output-format=json", str(job)], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout[run.stdout.index("{"):])
    assert target.is_file() and target.stat().st_size == 65536
    assert not (tmp_path / "a").exists()  # not split into the files "a", "b", "c.dat"
    assert doc["jobs"][0]["job options"]["filename"] == str(target).replace(":", "\\:")
