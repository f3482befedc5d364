"""Issue 30, "hostile input": each class a test that failed before its fix (docs/cli.md, docs/ingest.md).

Tracebacks (a sidecar nested 600 deep, a label value that is a list or mapping, a plan.json nested 100,000 deep, a
fio JSON with ``job_runtime`` 1e308), no answer in bounded time (a fit of 100,000 runs, a path regex that backtracks
catastrophically, a sidecar of 60,000 globs), files written where they must not be (through a planted ``logs`` or
``results`` link), and runs at different paces averaged as repeats (an unpaced run has NA, "not set").

The time-bound tests run under a generous alarm (a hang guard, as tests/cli/test_bad_input.py does): they took
minutes to years before; speed itself is measured in benchmarks/.
"""

import json
import pathlib
import signal
import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.errors import IngestError, ParameterError
from nvmemodel.fitting.curves import measured_points
from nvmemodel.ingest.summary import summarize

FIO_JSON = "tests/data/fio/fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json"


class _Hang(Exception):
    pass


def _within(seconds, fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, or _Hang after ``seconds`` (a generous bound: the fixed code takes a few %)."""
    def hang(*_):
        raise _Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(seconds)
    try:
        return fn(*args, **kwargs)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _copy(tmp_path, name="a.json", **edit):
    doc = json.loads(pathlib.Path(FIO_JSON).read_text())
    for job in doc["jobs"]:
        job.update(edit)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


# --- tracebacks ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, kind", [("[" * 600 + "]" * 600, "a list"),
                                         ("{a: " * 600 + "1" + "}" * 600, "a mapping"),
                                         ("[" * 100_000 + "]" * 100_000, "a list"), ("[1, 2]", "a list"),
                                         ("{a: 1}", "a mapping")], ids=["600-deep-list", "600-deep-map",
                                                                        "100000-deep", "list", "mapping"])
def test_a_sidecar_label_that_is_not_one_value_is_refused_naming_the_line(tmp_path, value, kind):
    _copy(tmp_path)
    side = tmp_path / "labels.yaml"
    side.write_text(f"'*.json':\n  drives: 4\n  iodepth: {value}\n")
    with pytest.raises(IngestError, match=f"labels.yaml: line 3: {kind} where a label value was expected"):
        nm.read_results(tmp_path / "a.json", labels=side)


@pytest.mark.parametrize("value", [[1, 2], {"a": 1}, (1,)])
def test_a_label_mapping_with_a_list_or_mapping_value_is_refused(tmp_path, value):
    path = _copy(tmp_path)
    with pytest.raises(IngestError, match="label drives=.*expected one value"):
        nm.read_results(path, labels={"*.json": {"drives": value}})


def test_a_csv_sidecar_row_longer_than_its_header_is_refused(tmp_path):
    _copy(tmp_path)
    (tmp_path / "labels.csv").write_text("path,drives\n*.json,4,extra\n")
    with pytest.raises(IngestError, match="line 2: 3 fields where the header names 2"):
        nm.read_results(tmp_path / "a.json", labels=tmp_path / "labels.csv")


def test_sidecar_labels_still_apply(tmp_path):
    _copy(tmp_path)
    (tmp_path / "labels.yaml").write_text("common: &c {site: lab}\n'*.json':\n  drives: 4\n  note: a, b\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = nm.read_results(tmp_path / "a.json", labels=tmp_path / "labels.yaml")
    assert (df["drives"] == 4).all() and (df["note"] == "a, b").all()


def test_a_job_runtime_of_1e308_is_a_skipped_file_naming_the_field(tmp_path):
    path = _copy(tmp_path, job_runtime=1e308)
    with pytest.raises(IngestError, match=r"jobs\[0\]\.job_runtime = 1e\+308: expected the jobs' run time in ms"):
        nm.read_results(path, errors="raise")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = nm.read_results(path)
    assert df.empty and "job_runtime" in df.attrs["skipped"][0].reason


def test_a_plan_nested_100000_deep_is_one_error(tmp_path):
    from nvmemodel.jobs import run_plan

    (tmp_path / "plan.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ParameterError, match="plan.json.*nested deeper"):
        run_plan(tmp_path, dry_run=True, progress=None)


# --- bounded time -------------------------------------------------------------------------------------------------

def _runs(n, seed=0):
    """A synthetic table of ``n`` one-row runs (seeded; not a measurement): IOPS rising with iodepth."""
    rng = np.random.default_rng(seed)
    qd = rng.choice([1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0], n)
    iops = 1e5 * qd / (1 + qd / 8) * (1 + 0.02 * rng.standard_normal(n))
    return pd.DataFrame(dict(source_path=[f"r{i}.json" for i in range(n)], run=0, group_id=0, final=True,
                             is_aggregate=False, job_name="j", job_index=0, direction="read", pattern="randread",
                             tool="fio", ioengine="libaio", iodepth=qd, numjobs=1.0, block_size_bytes=4096.0,
                             iops=iops, bw_bytes_per_s=iops * 4096, ios=iops * 10, lat_mean_s=qd / iops,
                             cpu_usr=0.1, cpu_sys=0.2, runtime_s=10.0))


def test_measured_points_of_100000_runs_in_bounded_time():
    t = _runs(100_000)
    pts = _within(120, measured_points, t, x="iodepth", y="iops")  # 4 minutes before (a pandas pass per run)
    assert list(pts["iodepth"]) == [1, 2, 4, 8, 16, 32, 64] and pts["n_runs"].sum() == 100_000
    # the mean of each point is the mean of its runs
    want = t.groupby("iodepth")["iops"].mean().to_numpy()
    assert np.allclose(pts["y"].to_numpy(), want, rtol=1e-12)
    assert np.allclose(pts["little"], 1.0) and np.allclose(pts["cpus"], 0.3)


def test_a_path_regex_that_backtracks_is_refused_in_bounded_time(tmp_path):
    path = _copy(tmp_path, name="a" * 40 + "!.json")
    with pytest.raises(ParameterError, match=r"path_regex='\(a\|aa\)\+\$'.*ran over 1 s"):
        _within(60, nm.read_results, path, path_regex="(a|aa)+$")  # years with Python's re
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = nm.read_results(path, path_regex=r"/(?P<name>a+)!")  # a real one still labels
    assert (df["name"] == "a" * 40).all()


def test_a_sidecar_of_60000_globs_in_bounded_time(tmp_path, monkeypatch):
    import fnmatch

    tried = []
    for name in ("fnmatch", "fnmatchcase"):
        real = getattr(fnmatch, name)
        monkeypatch.setattr(fnmatch, name, lambda *a, real=real: tried.append(a) or real(*a))
    (tmp_path / "r").mkdir()
    for i in (3, 59_998):
        _copy(tmp_path / "r", name=f"f{i:05d}_x.json")
    lines = "".join(f"'r/f{i:05d}_*.json':\n  drives: {i % 24 + 1}\n  conn: x{i}\n" for i in range(60_000))
    (tmp_path / "labels.yaml").write_text(lines)  # 2.8 MB
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = _within(120, nm.read_results, tmp_path / "r", labels=tmp_path / "labels.yaml")  # ~58 s before
    # each file is tried against the globs that can match it, not against all 60,000 (before: 240,000 calls)
    assert len([a for a in tried if str(tmp_path) in str(a[-1])]) <= 20
    assert sorted(df["conn"]) == ["x3", "x59998"] and sorted(df["drives"]) == [3 % 24 + 1, 59_998 % 24 + 1]
    assert any("59998 glob(s) match none" in str(w.message) for w in caught)


def test_later_globs_win_and_both_path_forms_match(tmp_path):
    _copy(tmp_path)
    (tmp_path / "labels.yaml").write_text("'*.json': {drives: 1, a: x}\n'a.json': {drives: 2}\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = nm.read_results(tmp_path / "a.json", labels=tmp_path / "labels.yaml")
    assert (df["drives"] == 2).all() and (df["a"] == "x").all()


# --- files --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("planted", ["logs", "results"])
def test_run_sweep_writes_nothing_through_a_planted_link(tmp_path, planted):
    from nvmemodel.jobs import run_plan, sweep_plan, write_jobs

    plan = sweep_plan([str(tmp_path / "drive.dat")], runtime_s=0.2, ramp_s=0.0, size_bytes=2**20, ioengine="psync",
                      direct=False)
    write_jobs(plan, tmp_path / "sweep")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (tmp_path / "sweep" / planted).symlink_to(foreign)
    fio = tmp_path / "fake-fio"
    fio.write_text("#!/bin/sh\necho ran >&2\n")
    fio.chmod(0o755)
    with pytest.raises(ParameterError, match=f"{planted}.*symbolic link"):
        run_plan(tmp_path / "sweep", fio=str(fio), progress=None)
    assert list(foreign.iterdir()) == []


def test_run_sweep_writes_nothing_through_a_link_below_results(tmp_path):
    from nvmemodel.jobs import run_plan, sweep_plan, write_jobs

    plan = sweep_plan([str(tmp_path / "drive.dat")], runtime_s=0.2, ramp_s=0.0, size_bytes=2**20, ioengine="psync",
                      direct=False)
    write_jobs(plan, tmp_path / "sweep")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (tmp_path / "sweep" / "results").mkdir()
    (tmp_path / "sweep" / "results" / "1drives").symlink_to(foreign)
    fio = tmp_path / "fake-fio"
    fio.write_text("#!/bin/sh\necho ran >&2\n")
    fio.chmod(0o755)
    with pytest.raises(ParameterError, match="1drives.*symbolic link"):
        run_plan(tmp_path / "sweep", fio=str(fio), progress=None)
    assert list(foreign.iterdir()) == []


# --- runs at different paces --------------------------------------------------------------------------------------

def _paced_and_unpaced():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = nm.read_results("tests/data/qa7/rateqd")  # real fio 3.33 runs, each with --rate_iops=20000
    unpaced = t.assign(rate_iops=np.nan, source_path=t["source_path"] + "#unpaced")  # an edited copy: NA, not set
    return t, pd.concat([t, unpaced], ignore_index=True)


def test_an_unpaced_run_is_not_a_repeat_of_a_paced_one():
    real, both = _paced_and_unpaced()
    assert len(measured_points(real, x="iodepth", y="iops")) == 6
    with pytest.raises(ParameterError, match=r"one rate_iops among the runs of a point .*not set in 1 run"):
        measured_points(both, x="iodepth", y="iops")
    with pytest.raises(IngestError, match=r"different rate_iops \(20000, not set\)"):
        summarize(both, x="iodepth")
    # runs without any pace are repeats as before
    unpaced = both[both["rate_iops"].isna()]
    assert measured_points(unpaced, x="iodepth", y="iops")["n_runs"].tolist() == [1] * 6


# --- discover: dumps joined or cut ----------------------------------------------------------------------------------

LSPCI = pathlib.Path("tests/data/lspci/synthetic-skylake-sp-pm983_vvv.txt")


def test_a_dump_describing_one_address_twice_is_refused_naming_it_and_the_line(tmp_path):
    from nvmemodel.discover import discover
    from nvmemodel.discover.lspci import LspciError

    text = LSPCI.read_text()
    (tmp_path / "twice.txt").write_text(text + text)  # two dumps concatenated: the last description was kept
    line = len(text.splitlines()) + 1
    with pytest.raises(LspciError, match=f"line {line}: 0000:5d:00.0 is described a second time \\(first at line 1\\)"):
        discover(tmp_path / "twice.txt")


def test_a_dump_cut_inside_an_nvme_block_is_flagged_and_modelled_at_its_capability(tmp_path):
    from nvmemodel.discover import discover

    lines = LSPCI.read_text().splitlines(keepends=True)
    last_cap = max(i for i, ln in enumerate(lines) if "LnkCap:" in ln)  # in the last NVMe controller's block
    (tmp_path / "cut.txt").write_text("".join(lines[:last_cap + 1]))
    found = discover(tmp_path / "cut.txt", drive="samsung-pm983-3.84tb")
    flag = found.flag("truncated_block")
    assert flag is not None and flag.severity == "warn" and flag.devices == ("0000:d9:00.0",)
    assert "LnkCap" in flag.message and "upper bound" in flag.message
    whole = discover(LSPCI, drive="samsung-pm983-3.84tb")
    assert whole.flag("truncated_block") is None


@pytest.mark.parametrize("edit, expected", [(("Speed 8GT/s, Width x4", "Speed 99999999999GT/s, Width x4"),
                                             "LnkCap speed 1e\\+11 GT/s: expected one of PCIe's 2.5 GT/s"),
                                            (("Width x4", "Width x999999999999999999999"),
                                             "LnkCap width x999999999999999999999: expected one of PCIe's x1")])
def test_a_link_no_pcie_device_has_is_refused(tmp_path, edit, expected):
    from nvmemodel.discover import discover
    from nvmemodel.discover.lspci import LspciError

    (tmp_path / "edited.txt").write_text(LSPCI.read_text().replace(*edit))  # was modelled as that link
    with pytest.raises(LspciError, match=f"0000:5d:00.0 \\(its block at line 1\\): {expected}"):
        discover(tmp_path / "edited.txt")


def test_fio_jobs_writes_no_job_file_through_a_planted_jobs_link(tmp_path):
    from nvmemodel.jobs import sweep_plan, write_jobs

    plan = sweep_plan([str(tmp_path / "drive.dat")], iodepths=(1, 4))
    write_jobs(plan, tmp_path / "sweep")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    import shutil

    shutil.rmtree(tmp_path / "sweep" / "jobs")  # the same plan again writes the missing job files: not through a link
    (tmp_path / "sweep" / "jobs").symlink_to(foreign)
    with pytest.raises(ParameterError, match="jobs.*symbolic link"):
        write_jobs(plan, tmp_path / "sweep")
    assert list(foreign.iterdir()) == []


@pytest.mark.parametrize("sidecar", ['path,"x\ny"\n*.json,1\n', "'*.json':\n  \"x\\ny\": 1\n"], ids=["csv", "yaml"])
def test_a_label_name_with_a_line_break_is_refused(tmp_path, sidecar):
    _copy(tmp_path)
    side = tmp_path / ("labels.csv" if sidecar.startswith("path") else "labels.yaml")
    side.write_text(sidecar)  # it became a column whose name breaks every line that prints it
    with pytest.raises(IngestError, match=r"label name 'x\\ny': expected a name \(printable text"):
        nm.read_results(tmp_path / "a.json", labels=side)
