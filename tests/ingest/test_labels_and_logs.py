"""Experiment labels (sidecar YAML/CSV, path regex) and fio time-series logs."""

from __future__ import annotations

import pathlib
import shutil

import numpy as np
import pytest

from nvmemodel import IngestError, IngestWarning, merge_fio_logs, read_fio_logs
from nvmemodel.ingest import read_fio_log, read_results

DATA = pathlib.Path(__file__).parents[1] / "data" / "fio"
JSON = DATA / "fioplot_fio-3.1_sata-d3s4610_4k-randread_qd16_nj1.json"


@pytest.fixture
def tree(tmp_path):
    for drives in (1, 2):
        for conn in ("direct", "810-4p"):
            d = tmp_path / f"{drives}drives" / conn
            d.mkdir(parents=True)
            shutil.copy(JSON, d / "run.json")
    return tmp_path


def test_path_regex_labels(tree):
    df = read_results(tree, path_regex=r"(?P<drives>\d+)drives/(?P<connection>[^/]+)/")
    assert sorted(zip(df.drives.astype(int), df.connection)) == [(1, "810-4p"), (1, "direct"), (2, "810-4p"),
                                                                 (2, "direct")]


def test_yaml_sidecar(tree):
    (tree / "labels.yaml").write_text("'1drives/*/run.json': {drives: 1}\n'2drives/*/run.json': {drives: 2}\n"
                                      "'*/810-4p/*': {adapter: x8}\n")
    with pytest.warns(IngestWarning, match="skipped 1"):  # the sidecar itself is not a result
        df = read_results(tree, labels=tree / "labels.yaml")
    assert set(df.drives) == {1, 2}
    assert df.groupby("adapter", dropna=False).size().to_dict() == {"x8": 2} or df.adapter.notna().sum() == 2


def test_csv_sidecar_fills_unknown_schema_columns(tmp_path):
    # fio 2.1.4 JSON echoes no options: iodepth and pattern are unknown until a label supplies them.
    shutil.copy(DATA / "pkb_fio-2.1.4_sample-result.json", tmp_path / "old.json")
    (tmp_path / "labels.csv").write_text("path,iodepth,pattern,host\nold.json,4,randread,vm-7\n")
    df = read_results(tmp_path / "old.json", labels=tmp_path / "labels.csv")
    assert set(df.iodepth) == {4} and set(df.pattern) == {"randread"} and set(df.host) == {"vm-7"}


def test_label_conflicting_with_file_is_an_error(tmp_path):
    shutil.copy(JSON, tmp_path / "qd16.json")
    with pytest.raises(IngestError, match=r"label iodepth=32 contradicts the file's own iodepth=16"):
        read_results(tmp_path / "qd16.json", labels={str(tmp_path / "*.json"): {"iodepth": 32}}, errors="raise")


def test_regex_that_matches_nothing_warns(tmp_path):
    shutil.copy(JSON, tmp_path / "a.json")
    with pytest.warns(IngestWarning, match="the path pattern matched none of 1"):
        df = read_results(tmp_path / "a.json", path_regex=r"(?P<drives>\d+)drives")
    assert "drives" not in df or df.drives.isna().all()


def test_bad_sidecar(tmp_path):
    (tmp_path / "l.yaml").write_text("- just\n- a list\n")
    with pytest.raises(IngestError, match="l.yaml: expected a mapping of file globs"):
        read_results(JSON, labels=tmp_path / "l.yaml")


# ---- fio logs -----------------------------------------------------------------------------

LOGS = sorted(DATA.glob("fioplot_*_*.1.log"))


def test_read_logs_units():
    # (the fixture's folder also holds fio 2.x JSON files: the unit is not implied, so it is given; fio-3.1 ran it)
    df = read_fio_logs(LOGS, latency_unit="ns")
    assert set(df.kind) == {"bw", "iops", "clat"}
    bw = df[df.kind == "bw"].value.mean()
    iops = df[df.kind == "iops"].value.mean()
    # the companion JSON says 60.8 k IOPS of 4 KiB: the logs must agree (±2 %, interval noise)
    assert iops == pytest.approx(60.8e3, rel=0.02)
    assert bw == pytest.approx(4096 * iops, rel=0.02)
    clat = df[df.kind == "clat"].value.mean()
    assert clat == pytest.approx(254e-6, rel=0.05)  # JSON clat mean 254 µs; the log is in ns


def test_merge_sums_jobs(tmp_path):
    bw = next(p for p in LOGS if p.name.endswith("_bw.1.log"))
    shutil.copy(bw, tmp_path / "x_bw.1.log")
    shutil.copy(bw, tmp_path / "x_bw.2.log")
    merged = merge_fio_logs(read_fio_logs(sorted(tmp_path.glob("*.log"))))
    single = merge_fio_logs(read_fio_log(bw))
    assert set(merged.jobs) == {2}
    np.testing.assert_allclose(merged.value.to_numpy(), 2 * single.value.to_numpy())
    assert merged.time_s.diff().median() == pytest.approx(0.25)  # log_avg_msec=250


def test_log_errors(tmp_path):
    (tmp_path / "what.log").write_text("0, 1, 0, 4096\n")
    with pytest.raises(IngestError, match="cannot tell what this fio log measures"):
        read_fio_log(tmp_path / "what.log")
    (tmp_path / "a_bw.1.log").write_text("0, 1, 7, 4096\n")
    with pytest.raises(IngestError, match="direction 7: expected 0, 1 or 2"):
        read_fio_log(tmp_path / "a_bw.1.log")
    assert read_fio_log(tmp_path / "what.log", kind="iops").value.iloc[0] == 1.0


def test_path_pattern_fields(tree):
    df = read_results(tree, path_pattern="{drives}drives/{connection}/*.json")
    assert sorted(zip(df.drives.astype(int), df.connection)) == [(1, "810-4p"), (1, "direct"), (2, "810-4p"),
                                                                 (2, "direct")]
    with pytest.raises(IngestError, match="not both"):
        read_results(tree, path_pattern="{a}", path_regex="x")
    with pytest.raises(IngestError, match="not a valid pattern"):
        read_results(tree, path_regex="(?P<x")
