"""Cost per I/O from the user's own fio runs (issue 29 item 1): ``nm.io_costs``, ``ingest --costs``, ``--costs``.

The figures are checked against fio's own numbers read straight from its JSON (usr_cpu + sys_cpu, % of one CPU,
times job_runtime, over the I/Os), on runs made on this machine (tests/data/fit/local, tests/data/qa7: their
provenance is in tests/data/SOURCES.md) and on fresh null-engine runs (skipped without fio).
"""

from __future__ import annotations

import json
import pathlib
import re
import shutil
import subprocess

import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.cli import main
from nvmemodel.hostcal.costs import io_costs, run_costs

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
QD = DATA / "fit" / "local" / "qd"
FIO = shutil.which("fio")
needs_fio = pytest.mark.skipif(FIO is None, reason="fio is not installed (apt-get install fio)")


def _fio_figure(path: pathlib.Path) -> float:
    """CPU seconds per I/O as fio's JSON states it: (usr + sys) % of one CPU x job_runtime / total I/Os."""
    job = json.loads(path.read_text())["jobs"][0]
    ios = sum(job[d]["total_ios"] for d in ("read", "write", "trim"))
    return (job["usr_cpu"] + job["sys_cpu"]) / 100 * job["job_runtime"] / 1000 / ios


def test_run_costs_agree_with_fios_own_figures():
    runs = run_costs(nm.read_results(str(QD)), clock_hz="2.1GHz")
    assert len(runs) == 24 and runs["use"].all()
    for r in runs.itertuples():
        # the table's runtime is the read direction's (fio's job_runtime adds the job's set-up: under 1 %)
        assert r.cpu_s_per_io == pytest.approx(_fio_figure(pathlib.Path(r.source_path)), rel=0.01)
        assert r.cycles_per_io == pytest.approx(r.cpu_s_per_io * 2.1e9)


def test_io_costs_groups_by_queue_depth_with_the_spread():
    costs = io_costs(nm.read_results(str(QD)), clock_hz=2.1e9)
    qd128 = costs[costs["iodepth"] == 128].iloc[0]
    figures = sorted(_fio_figure(QD / f"qd128_r{i}.json") for i in (1, 2, 3))
    assert qd128["runs"] == 3 and qd128["stack"] == "libaio" and qd128["use"]
    assert qd128["cpu_s_per_io"] == pytest.approx(figures[1], rel=0.01)
    assert qd128["cpu_s_per_io_lo"] == pytest.approx(figures[0], rel=0.01)
    assert qd128["cpu_s_per_io_hi"] == pytest.approx(figures[2], rel=0.01)
    assert set(qd128["files"].split(";")) == {str(QD / f"qd128_r{i}.json") for i in (1, 2, 3)}
    qd1 = costs[costs["iodepth"] == 1].iloc[0]
    assert qd1["cycles_per_io"] > 3 * qd128["cycles_per_io"]  # at QD1 each I/O pays a sleep and a wake-up


def test_paced_runs_are_flagged_and_not_used():
    costs = run_costs(nm.read_results(str(DATA / "qa7" / "rateqd")))
    assert len(costs) and not costs["use"].any()
    assert costs["note"].str.contains("paced (rate_iops=20000)", regex=False).all()


def test_a_catalog_host_gives_the_clock():
    costs = io_costs(nm.read_results(str(QD)), host="intel-xeon-platinum-8380")
    assert costs.attrs["clock_hz"] == nm.get_host("intel-xeon-platinum-8380").clock_hz
    with pytest.raises(nm.ParameterError, match="either host= or clock_hz="):
        io_costs(nm.read_results(str(QD)), host="intel-xeon-platinum-8380", clock_hz=2e9)


def test_costs_file_to_ceilings_labelled_with_its_files(tmp_path, capsys):
    out = tmp_path / "costs.json"
    assert main(["ingest", str(QD), "--costs", "--clock", "2.1GHz", "--costs-out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["schema"] == "nvmemodel.io-costs/1"
    capsys.readouterr()
    assert main(["ceilings", "--preset", "dell-r7525", "--drives", "24", "--costs", str(out)]) == 0
    text = capsys.readouterr().out
    median = sorted(_fio_figure(QD / f"qd128_r{i}.json") for i in (1, 2, 3))[1] * 2.1e9
    shown = re.search(r"libaio: ([\d,]+) cycles per I/O \(measured: here, fio libaio 4 KiB read at iodepth 128", text)
    assert shown and float(shown[1].replace(",", "")) == pytest.approx(median, rel=0.01)
    assert "qd128_r1.json" in text
    topo = nm.with_costs(nm.preset("dell-r7525"), costs=str(out))
    curve = nm.evaluate(topo, nm.Workload("randread", "4K"), drives=[24])
    assert curve.sources["host.cycles_per_io"].status == "measured"
    # the CPU ceiling is the measured cost's: 2 sockets x 64 cores x 2.25 GHz / cycles
    assert curve.ceilings_at(24)[0].component == "host_cpu"
    assert float(curve.iops_at(24)) == pytest.approx(128 * 2.25e9 / median, rel=0.011)
    assert main(["ingest", str(QD), "--costs-out", str(out)]) == 2  # never overwritten


@needs_fio
def test_a_real_null_engine_run_and_a_group(tmp_path):
    """fio's null engine, one job and a group_reporting pair, made now: fio's own work per I/O is positive and
    plausible (hundreds to a few thousand cycles on any CPU of the last decade), and a group row counts its jobs."""
    for name, extra in (("one", []), ("group", ["--numjobs=2", "--group_reporting"])):
        subprocess.run([FIO, f"--name={name}", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=1g",
                        "--time_based", "--runtime=300ms", "--output-format=json",
                        f"--output={tmp_path / (name + '.json')}", *extra], check=True, capture_output=True,
                       timeout=60)
    runs = run_costs(nm.read_results(str(tmp_path)), clock_hz=2e9)
    assert set(runs["ioengine"]) == {"null"} and not runs["use"].any()
    for r in runs.itertuples():
        assert 50 < r.cycles_per_io < 50_000, r
        assert r.cpu_s_per_io == pytest.approx(_fio_figure(pathlib.Path(r.source_path)), rel=0.05)
    assert runs.set_index("job_name").loc["group", "jobs"] == 2


def test_an_output_without_its_engine_or_direct_flag_is_not_guessed():
    """fio's terse output echoes no ioengine: no stack is charged from it; normal output does not say direct=."""
    terse = run_costs(nm.read_results(str(DATA / "fio_corpus" / "bs-4kb.terse")))
    assert not terse["use"].any() and terse["note"].str.contains("ioengine not in this output").all()
    table = nm.read_results(str(DATA / "fit" / "local" / "qd" / "qd8_r1.json"))
    table["direct"] = pd.array([None] * len(table), dtype="boolean")  # as a form that does not echo direct=
    unknown = run_costs(table)
    assert unknown["use"].all() and unknown["note"].str.contains("direct= not in this output").all()


def test_a_job_with_a_verify_phase_is_not_used():
    runs = run_costs(nm.read_results(str(DATA / "qa7" / "verify" / "disk_randwrite_verify_qd8.json")))
    assert len(runs) == 1 and not runs["use"].any() and "a verify phase" in runs["note"].iloc[0]


@needs_fio
def test_a_run_fio_names_no_disk_under_is_said(tmp_path):
    """libaio with O_DIRECT on a file in /dev/shm (tmpfs, held in memory; Linux 6.6+ takes O_DIRECT there): fio's
    JSON names no disk, and the cost says to check that a device was read."""
    import os
    import uuid

    if not os.path.isdir("/dev/shm") or not os.access("/dev/shm", os.W_OK):
        pytest.skip("no writable /dev/shm here")
    target = pathlib.Path("/dev/shm") / f"nvmemodel-test-{uuid.uuid4().hex}.dat"
    try:
        target.write_bytes(os.urandom(1 << 20))
        done = subprocess.run([FIO, "--name=shm", "--ioengine=libaio", "--direct=1", f"--filename={target}",
                               "--rw=randread", "--bs=4k", "--iodepth=4", "--time_based", "--runtime=200ms",
                               "--output-format=json", f"--output={tmp_path / 'shm.json'}"], capture_output=True,
                              timeout=60)
    finally:
        target.unlink(missing_ok=True)
    if done.returncode != 0:
        pytest.skip(f"this kernel's tmpfs refuses O_DIRECT: {done.stderr.decode(errors='replace')[:120]}")
    runs = run_costs(nm.read_results(str(tmp_path / "shm.json")))
    assert runs["note"].str.contains("fio named no disk under this run", regex=False).all()
