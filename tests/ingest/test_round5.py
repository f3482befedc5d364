"""Round 5 ingest findings, first seen on public fio results and shown here by runs made on this machine
(tests/data/fio_round5/, see its README; fio 2.0.13 from tests/data/fio_versions/2.0.13): fio 2.0's
``min=77 , max=937 ,`` latency lines, job names shared by two groups, and the unit of fio 2.x latency logs.
Each test asserts values the file itself prints (or fio's own IO-depth distribution), so a wrong reading
fails."""

from __future__ import annotations

import gzip
import re
import shutil
import warnings

import pytest

import nvmemodel as nm
from nvmemodel.errors import IngestError, IngestWarning
from nvmemodel.ingest.fio_log import read_fio_log

from . import test_fio_versions as fv

DATA = fv.DATA.parent / "fio_round5"
FIO_20 = fv.DATA / "2.0.13" / "aio-randread.normal.out.gz"


def _printed(pattern: str, text: str) -> list[str]:
    m = re.search(pattern, text, re.MULTILINE)
    assert m, pattern
    return list(m.groups())


def test_fio_20_latency_lines_with_a_space_before_each_comma(tmp_path):
    f = tmp_path / "aio-randread.normal"
    f.write_bytes(gzip.decompress(FIO_20.read_bytes()))
    text = f.read_text()
    (row,) = nm.read_results(f, errors="raise").to_dict("records")
    # what fio 2.0.13 printed, e.g. "clat (usec): min=33 , max=5387 , avg=161.19," (2 decimals)
    clat_max, clat_avg = _printed(r"^ +clat \(usec\): min=\d+ , max=(\d+) , avg=\s*([\d.]+),", text)
    lat_max, lat_avg = _printed(r"^ +lat \(usec\): min=\d+ , max=(\d+) , avg=\s*([\d.]+),", text)
    (p99,) = _printed(r" 99\.00th=\[\s*(\d+)\]", text)
    (p9999,) = _printed(r" 99\.99th=\[\s*(\d+)\]", text)
    (ios,) = _printed(r"issued +: total=r=(\d+)/", text)
    (runt,) = _printed(r"runt=\s*(\d+)msec", text)
    (qd,) = _printed(r"^ar: \(g=0\): .*iodepth=(\d+)$", text)
    assert row["tool_version"] == "fio-2.0.13"
    assert row["clat_mean_s"] == pytest.approx(float(clat_avg) * 1e-6, rel=1e-9)
    assert row["lat_mean_s"] == pytest.approx(float(lat_avg) * 1e-6, rel=1e-9)
    assert lat_max != clat_max  # (this run's: 5391 and 5387 µs)
    assert row["lat_max_s"] == pytest.approx(int(lat_max) * 1e-6, rel=1e-9)  # the total latency's maximum, not clat's
    assert row["clat_p99_s"] == pytest.approx(int(p99) * 1e-6, rel=1e-9)
    assert row["clat_p99_99_s"] == pytest.approx(int(p9999) * 1e-6)
    assert row["ios"] == int(ios) and row["iodepth"] == int(qd)
    assert row["iops"] == pytest.approx(int(ios) / (int(runt) / 1000), rel=1e-12)
    assert re.search(r"min=\d+ , max=\d+ ,", text)  # the form this reads


@pytest.mark.parametrize("kind", ["aio-randread", "aio-randrw", "disable-lat", "psync", "stonewall"])
def test_fio_20_normal_output_against_its_printed_numbers(kind, tmp_path):
    # the fio 2.0.13 corpus run (built from its tag here): every slat/clat/lat line of the report is read
    path = fv.DATA / "2.0.13" / f"{kind}.normal.out.gz"
    if not path.exists():
        pytest.skip(f"{path} is not in the corpus")
    g = fv.grade("2.0.13", path, "normal", fv.forms(path)["normal"], tmp_path)
    assert not g.problems, g.problems
    text = fv.gzip.decompress(path.read_bytes()).decode()
    assert re.search(r"min=\d+ , max=\d+ ,", text)  # the form this reads


_UNIT = {"nsec": 1e-9, "usec": 1e-6, "msec": 1e-3}


def test_job_names_shared_by_two_groups_keep_each_groups_iodepth():
    f = DATA / "two-write-groups.normal"
    rows = nm.read_results(f, errors="raise").to_dict("records")
    text = f.read_text()
    # fio's own IO depths line of each result block: the bucket holding most I/Os (1=100.0% at iodepth 1,
    # >=64=96.9% at iodepth 64)
    depths = []
    for line in re.findall(r"^ +IO depths +: (.*)$", text, re.MULTILINE):
        share = {int(d): float(v) for d, v in re.findall(r">?=?(\d+)=([\d.]+)%", line)}
        depths.append(max(share, key=share.get))
    got = [(r["job_name"], r["group_id"], r["iodepth"]) for r in rows]
    assert got == [("read", 0, 1), ("read64", 1, 64), ("write", 2, 1), ("write", 3, 64)]
    assert [r["iodepth"] for r in rows] == depths == [1, 64, 1, 64]
    # each block's own printed mean completion latency (fio picks nsec or usec per line)
    clat = [float(avg) * _UNIT[unit] for unit, avg in
            re.findall(r"^ +clat \((nsec|usec|msec)\): min=[^,]+, max=[^,]+, avg=\s*([\d.]+),", text, re.MULTILINE)]
    assert len(clat) == 4
    assert [r["clat_mean_s"] for r in rows] == pytest.approx(clat, rel=1e-9)


def test_one_job_name_twice_in_one_group_with_different_options_is_refused(tmp_path):
    # (the run's second 'write' header moved into the first's group: its result blocks cannot be told apart)
    text = (DATA / "two-write-groups.normal").read_text()
    assert "write: (g=3)" in text and "write: (groupid=3," in text
    text = text.replace("write: (g=3)", "write: (g=2)").replace("write: (groupid=3,", "write: (groupid=2,")
    f = tmp_path / "same-group.txt"
    f.write_text(text)
    with pytest.raises(IngestError, match=r"same-group\.txt.*'write' appears twice in group 2 .*iodepth=1.*iodepth=64"):
        nm.read_results(f, errors="raise")


CLAT_LOG = DATA / "fio-2.2.10_clat-log" / "randread-4k" / "randread-4k_clat.log"
#: the log's first average as fio 2.2.10 wrote it (µs), e.g. "250, 120, 0, 0"
FIRST = int(CLAT_LOG.read_text().split(",")[1])


def _printed_clat_range_s() -> tuple[float, float]:
    text = (CLAT_LOG.parents[1] / "randread-4k.out").read_text()
    m = re.search(r"clat \(usec\): min=(\d+), max=(\d+)", text)
    return int(m[1]) * 1e-6, int(m[2]) * 1e-6


def test_fio_2_latency_log_unit_from_the_normal_output_beside_its_folder():
    lo, hi = _printed_clat_range_s()  # this run's 28 µs … 1,717 µs
    text = (CLAT_LOG.parents[1] / "randread-4k.out").read_text()
    (runt,) = _printed(r"runt=\s*(\d+)msec", text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        log = nm.read_fio_logs([CLAT_LOG])
    # one 250 ms average per interval of the run (fio's runt=5001msec: 20), each within fio's printed range
    assert len(log) == int(runt) // 250 == len(CLAT_LOG.read_text().splitlines())
    assert ((log.value >= lo) & (log.value <= hi)).all()  # as ns (1000x smaller): below fio's printed min
    assert log.value.iloc[0] == pytest.approx(FIRST * 1e-6)


def test_latency_log_without_evidence_warns_naming_the_file(tmp_path):
    lone = tmp_path / "alone" / "x_clat.log"
    lone.parent.mkdir()
    shutil.copy(CLAT_LOG, lone)
    with pytest.warns(IngestWarning, match=r"x_clat\.log: a latency log does not say its unit.*latency_unit='us'"):
        log = read_fio_log(lone)
    assert log.value.iloc[0] == pytest.approx(FIRST * 1e-9)  # ns assumed, as the warning says
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_fio_log(lone, latency_unit="us").value.iloc[0] == pytest.approx(FIRST * 1e-6)
    # bandwidth and IOPS logs have one unit in every release: no warning
    iops = tmp_path / "alone" / "x_iops.log"
    iops.write_text("250, 17000, 0, 0\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_fio_log(iops)


def test_latency_unit_given_against_the_fio_version_beside_it_warns():
    with pytest.warns(IngestWarning, match=r"latency_unit='ns', but the fio output beside it \(randread-4k\.out: "
                                           r"fio-2\.2\.10\)"):
        log = nm.read_fio_logs([CLAT_LOG], latency_unit="ns")
    assert log.value.iloc[0] == pytest.approx(FIRST * 1e-9)  # as asked


def test_latency_log_unit_from_fio_3_json_beside_it(tmp_path):
    # a fio >= 2.99 result named for the log's run: ns, no warning
    shutil.copy(CLAT_LOG, tmp_path / "run_clat.1.log")
    (tmp_path / "run.json").write_text('{\n  "fio version" : "fio-3.1",\n  "jobs" : []\n}\n')
    (tmp_path / "other.json").write_text('{\n  "fio version" : "fio-2.2.10",\n  "jobs" : []\n}\n')
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        log = nm.read_fio_logs([tmp_path / "run_clat.1.log"])
    assert log.value.iloc[0] == pytest.approx(FIRST * 1e-9)


FIO = shutil.which("fio")


@pytest.mark.skipif(FIO is None, reason="fio is not installed (apt-get install -y fio)")
@pytest.mark.parametrize("form", ["normal", "terse"])
def test_two_groups_of_one_name_measured_here(tmp_path, form):
    # a real run of this machine's fio (3.33 on Debian 12): groups 0 and 1 both named 'write', iodepth 1 and 64,
    # standard output captured as a user captures it; in terse form fio 3.33 prints the first job's header only
    import subprocess

    import pandas as pd

    job = ["--ioengine=null", "--size=1m", "--rw=randwrite"]
    out = subprocess.run([FIO, "--name=write", *job, "--iodepth=1", "--name=write", "--stonewall", *job,
                          "--iodepth=64", f"--output-format={form}"], cwd=tmp_path, capture_output=True, text=True,
                         check=True, timeout=60).stdout
    f = tmp_path / f"two-writes.{form}"
    f.write_text(out)
    rows = nm.read_results(f, errors="raise").to_dict("records")
    assert [r["group_id"] for r in rows] == [0, 1]
    headers = re.findall(r"^write: \(g=(\d)\): .*iodepth=(\d+)$", out, re.MULTILINE)
    said = {int(g): int(qd) for g, qd in headers}
    assert said[0] == 1 and said.get(1, 64) == 64
    for r in rows:  # each row the iodepth of its own group's header; none where fio printed none for its group
        want = said.get(r["group_id"])
        assert (r["iodepth"] == want) if want is not None else pd.isna(r["iodepth"])


def test_cli_plot_logs_latency_unit(capsys, tmp_path):
    from nvmemodel.cli import main

    pytest.importorskip("matplotlib")
    lone = tmp_path / "x_clat.log"
    shutil.copy(CLAT_LOG, lone)
    code = main(["plot", "--logs", str(lone), "--kind", "clat", "-o", str(tmp_path / "a.svg")])
    err = capsys.readouterr().err
    assert code in (0, None) and "does not say its unit" in err and "x_clat.log" in err
    code = main(["plot", "--logs", str(lone), "--kind", "clat", "--latency-unit", "us", "-o", str(tmp_path / "b.svg")])
    err = capsys.readouterr().err
    assert code in (0, None) and "unit" not in err
