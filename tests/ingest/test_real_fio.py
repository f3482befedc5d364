"""Real fio on this machine: small jobs (null engine, a temp file; about a second each) in several
output forms, ingested and checked against what fio itself reported.

Skipped, saying why, when the fio binary is absent (``.ci/run`` installs Debian's fio)."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time

import pytest

from nvmemodel.ingest import read_file, read_results
from nvmemodel.ingest.fio_json import read_fio_json
from nvmemodel.ingest.fio_normal import read_fio_normal
from nvmemodel.ingest.fio_terse import read_fio_terse

FIO = shutil.which("fio")
pytestmark = [pytest.mark.fio, pytest.mark.skipif(FIO is None, reason="fio is not installed (apt-get install -y fio)")]


def run_fio(tmp_path, *args, output="out.txt", timeout=60):
    out = tmp_path / output
    subprocess.run([FIO, *args, f"--output={out}"], check=True, cwd=tmp_path, timeout=timeout,
                   capture_output=True)
    return out


NULL_JOB = ["--name=nulljob", "--ioengine=null", "--size=1G", "--bs=4k", "--rw=randread", "--iodepth=8",
            "--runtime=1", "--time_based"]


@pytest.fixture(scope="module")
def multi(tmp_path_factory):
    """One run written as normal, JSON and terse output at once, split into three files."""
    tmp = tmp_path_factory.mktemp("multi")
    out = run_fio(tmp, *NULL_JOB, "--output-format=normal,json,terse")
    text = out.read_text()
    start = text.index("{\n")
    depth, end = 0, start
    for i, ch in enumerate(text[start:], start):  # the JSON object's closing brace
        depth += ch == "{"
        depth -= ch == "}"
        if depth == 0:
            end = i + 1
            break
    terse = "\n".join(ln for ln in text.splitlines() if ln.startswith("3;"))
    normal = "\n".join(ln for ln in (text[:start] + text[end:]).splitlines() if not ln.startswith("3;"))
    parts = {"json": text[start:end], "terse": terse, "normal": normal}
    for name, body in parts.items():
        (tmp / f"run.{name}").write_text(body)
    return tmp, json.loads(parts["json"])


def test_json_matches_fio_own_numbers(multi):
    tmp, doc = multi
    (row,) = read_fio_json(tmp / "run.json")
    r = doc["jobs"][0]["read"]
    # IOPS = total I/Os / runtime (fio's own definition), to fio's printed precision
    assert row["iops"] == pytest.approx(r["total_ios"] / (r["runtime"] / 1000), rel=1e-6)
    assert row["iops"] == pytest.approx(r["iops"], rel=1e-9)
    # bytes/s consistent with bs x IOPS (4 KiB blocks)
    assert row["bw_bytes_per_s"] == pytest.approx(4096 * row["iops"], rel=1e-3)
    assert row["block_size_bytes"] == 4096 and row["iodepth"] == 8 and row["pattern"] == "randread"
    assert row["ioengine"] == "null" and "ioengine" not in (row["defaulted"] or "")
    assert row["defaulted"] == "numjobs;direct"


@pytest.mark.parametrize("form, reader, rel", [
    # terse prints integer IOPS and KiB: agreement to 1e-5; normal output is recomputed from the
    # exact issued count and msec runtime: 1e-9
    ("terse", read_fio_terse, 1e-5), ("normal", read_fio_normal, 1e-9),
])
def test_cross_format_agreement(multi, form, reader, rel):
    tmp, _ = multi
    (ref,) = read_fio_json(tmp / "run.json")
    (row,) = reader(tmp / f"run.{form}")
    for col in ("iops", "bw_bytes_per_s", "runtime_s", "block_size_bytes"):
        assert row[col] == pytest.approx(ref[col], rel=rel), col
    # latencies: JSON ns vs terse/normal µs or ns with 2 decimals
    assert row["clat_mean_s"] == pytest.approx(ref["clat_mean_s"], abs=1e-8)
    assert row["direction"] == ref["direction"] == "read"
    assert row["cpu_usr"] == pytest.approx(ref["cpu_usr"], abs=1e-4)


def test_folder_ingest_of_the_three_forms(multi):
    tmp, _ = multi
    df = read_results([tmp / "run.json", tmp / "run.terse", tmp / "run.normal"])
    assert list(df["format"]) == ["fio-json", "fio-terse-v3", "fio-normal"]
    assert df["iops"].max() / df["iops"].min() < 1 + 1e-5


@pytest.mark.parametrize("version", [2, 3, 4, 5])
def test_terse_versions(tmp_path, version):
    out = run_fio(tmp_path, *NULL_JOB, "--output-format=terse", f"--terse-version={version}")
    (row,) = read_fio_terse(out)
    assert row["format"] == f"fio-terse-v{version}"
    assert row["block_size_bytes"] == 4096
    assert row["bw_bytes_per_s"] == pytest.approx(4096 * row["iops"], rel=1e-3)
    assert (row["tool_version"] is None) == (version == 2)  # v2 has no fio version field


def test_json_plus_and_two_jobs_without_group_reporting(tmp_path):
    out = run_fio(tmp_path, *NULL_JOB, "--numjobs=2", "--output-format=json+")
    rows = read_fio_json(out)
    assert len(rows) == 2 and {r["format"] for r in rows} == {"fio-json+"}
    assert [r["job_index"] for r in rows] == [0, 1] and {r["level"] for r in rows} == {"job"}
    assert all(r["numjobs"] == 2 for r in rows)


def test_group_reporting_is_one_group_row(tmp_path):
    out = run_fio(tmp_path, *NULL_JOB, "--numjobs=3", "--group_reporting", "--output-format=json")
    (row,) = read_fio_json(out)
    assert row["level"] == "group" and row["numjobs"] == 3 and not row["is_aggregate"]


def test_status_interval_snapshots(tmp_path):
    out = run_fio(tmp_path, *NULL_JOB[:-2], "--runtime=2", "--time_based", "--status-interval=1",
                  "--output-format=json")
    rows = read_fio_json(out)
    assert len(rows) >= 2
    assert [r["snapshot"] for r in rows] == list(range(len(rows)))
    assert [r["final"] for r in rows] == [False] * (len(rows) - 1) + [True]


def test_mixed_rw_on_a_temp_file(tmp_path):
    out = run_fio(tmp_path, "--name=mix", "--filename=data.bin", "--size=16M", "--bs=8k", "--rw=randrw",
                  "--rwmixread=70", "--ioengine=psync", "--runtime=1", "--time_based", "--output-format=json")
    rows = read_fio_json(out)
    assert [r["direction"] for r in rows] == ["read", "write"]
    assert all(r["read_fraction"] == 0.7 and r["block_size_bytes"] == 8192 for r in rows)
    assert rows[0]["target_names"] == "data.bin" and rows[0]["targets"] == 1
    reads, writes = rows[0]["ios"], rows[1]["ios"]
    assert reads / (reads + writes) == pytest.approx(0.7, abs=0.05)  # fio honours the mix


def test_warnings_before_json_are_skipped(tmp_path):
    out = run_fio(tmp_path, *NULL_JOB, "--output-format=json")
    noisy = tmp_path / "noisy.json"
    noisy.write_text("fio: this platform does not support sync_file_range\nnote: both iodepth >= 1\n"
                     + out.read_text())
    (row,) = read_file(noisy)
    (clean,) = read_file(out)
    assert row["iops"] == clean["iops"]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_client_server_all_clients(tmp_path):
    job = tmp_path / "job.fio"
    job.write_text("[global]\nioengine=null\nsize=256M\nbs=4k\nruntime=1\ntime_based\n[a]\nrw=randread\niodepth=4\n")
    servers = []
    try:
        args, ports = [], []
        for _ in range(2):
            port = _free_port()
            ports.append(port)
            servers.append(subprocess.Popen([FIO, f"--server=ip:127.0.0.1,{port}"], stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL))
            args += [f"--client=ip:127.0.0.1,{port}", str(job)]
        for port in ports:  # wait (bounded) until each server listens on loopback
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        pytest.fail(f"fio --server on port {port} did not start within 10 s")
                    time.sleep(0.05)
        out = run_fio(tmp_path, *args, "--output-format=json", output="cs.json")
    finally:
        for s in servers:
            s.terminate()
            s.wait(timeout=10)
    rows = read_fio_json(out)
    clients = [r for r in rows if not r["is_aggregate"]]
    (total,) = [r for r in rows if r["is_aggregate"]]
    assert len(clients) == 2 and total["level"] == "all-clients" and total["hostname"] == "127.0.0.1"
    assert total["ios"] == sum(r["ios"] for r in clients)
    assert all(r["pattern"] == "randread" for r in clients) and total["pattern"] is None


def test_json_normal_mix_in_one_file(multi):
    tmp, doc = multi
    # the file fio wrote with --output-format=normal,json,terse: the JSON document is found in it
    mixed = next(tmp.glob("out.txt"))
    (row,) = read_file(mixed)
    assert row["format"] == "fio-json" and row["ios"] == doc["jobs"][0]["read"]["total_ios"]


@pytest.mark.parametrize("avg_msec", [None, 100])
def test_logs_merge_to_the_json_rate(tmp_path, avg_msec):
    from nvmemodel import merge_fio_logs, read_fio_logs

    extra = [f"--log_avg_msec={avg_msec}"] if avg_msec else []
    out = run_fio(tmp_path, "--name=lg", "--ioengine=null", "--size=64M", "--bs=4k", "--rw=randread",
                  "--numjobs=2", "--runtime=1", "--time_based", "--rate_iops=2000", "--write_iops_log=lg",
                  "--write_bw_log=lg", *extra, "--output-format=json")
    rows = read_fio_json(out)
    logs = read_fio_logs(sorted(tmp_path.glob("lg_*.log")))
    assert set(logs.job) == {1, 2} and set(logs.kind) == {"iops", "bw"}
    if avg_msec:
        merged = merge_fio_logs(logs)
        iops = merged[merged.kind == "iops"]
        # two rate-limited jobs of 2000 IOPS: the merged series sits at ~4000 (±15 %: first/last bins)
        assert iops.value.median() == pytest.approx(sum(r["iops"] for r in rows), rel=0.15)
        assert set(iops.jobs) <= {1, 2} and iops.jobs.max() == 2
    else:
        # one line per I/O: the log holds every I/O fio counted (±1 % for I/Os in flight at the end)
        per_io = logs[logs.kind == "iops"]
        assert len(per_io) == pytest.approx(sum(r["ios"] for r in rows), rel=0.01)
        assert set(per_io.block_size_bytes) == {4096.0}


@pytest.mark.parametrize("per_job_logs", [1, 0])
def test_per_io_logs_merge_to_the_rate(tmp_path, per_job_logs):
    # without log_avg_msec each line is one I/O (value 1 in the IOPS log): merging counts them per bin.
    # Two jobs rate-limited to 2000 IOPS each; per_job_logs=0 writes one shared file (lg_iops.log).
    from nvmemodel import merge_fio_logs, read_fio_logs

    out = run_fio(tmp_path, "--name=lg", "--ioengine=null", "--size=64M", "--bs=4k", "--rw=randread",
                  "--numjobs=2", "--runtime=1", "--time_based", "--rate_iops=2000", "--write_iops_log=lg",
                  "--write_bw_log=lg", f"--per_job_logs={per_job_logs}", "--output-format=json")
    rows = read_fio_json(out)
    files = sorted(tmp_path.glob("lg_*.log"))
    assert len(files) == (4 if per_job_logs else 2)
    merged = merge_fio_logs(read_fio_logs(files))
    iops = merged[merged.kind == "iops"]
    # 0.1 s bins over the 1 s run; the median bin sits at the sum of fio's rates (±15 %: bin edges)
    assert iops.value.median() == pytest.approx(sum(r["iops"] for r in rows), rel=0.15)
    bw = merged[merged.kind == "bw"]
    assert bw.value.median() == pytest.approx(4096 * sum(r["iops"] for r in rows), rel=0.15)


def test_read_fio_logs_kind_for_any_name(tmp_path):
    from nvmemodel import read_fio_logs

    run_fio(tmp_path, "--name=k", "--ioengine=null", "--size=16M", "--bs=4k", "--rw=read", "--runtime=1",
            "--time_based", "--rate_iops=500", "--write_iops_log=k", "--log_avg_msec=100", "--output-format=json")
    renamed = tmp_path / "my-iops-series.txt"
    (tmp_path / "k_iops.1.log").rename(renamed)
    logs = read_fio_logs([renamed], kind="iops")
    assert set(logs.kind) == {"iops"} and logs.value.median() == pytest.approx(500, rel=0.1)
