"""QA findings on ingest (F6, F16, F17, F18, F27), on real fio 3.33 runs of this machine
(tests/data/fio_round3/qa and verify-write.*, made by tests/data/fio_round3/generate.py); fio's
own JSON of the same runs, read here with the stdlib ``json`` module, is the reference."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import warnings

import pytest

from nvmemodel.errors import IngestWarning
from nvmemodel.ingest import read_results

DATA = pathlib.Path(__file__).parents[1] / "data" / "fio_round3"
QA = DATA / "qa"


def fio_docs(path: pathlib.Path) -> list[dict]:
    text, decoder, pos, docs = path.read_text(), json.JSONDecoder(), 0, []
    while (start := text.find("{", pos)) >= 0:
        doc, pos = decoder.raw_decode(text, start)
        docs.append(doc)
    return docs


def quiet_read(path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return read_results(path)


# F17: normal outputs of one job name appended with >> (no wrapper line): each run its own header
def test_appended_normal_runs_of_one_job_name_keep_their_own_options():
    truth = [doc["jobs"][0] for doc in fio_docs(QA / "appended-same-name.json")]
    df = quiet_read(QA / "appended-same-name.normal")
    assert list(df["run"]) == [0, 1, 2] and df["final"].all()
    assert list(df["iodepth"]) == [int(t["job options"]["iodepth"]) for t in truth] == [1, 4, 16]
    assert list(df["block_size_bytes"]) == [t["read"]["io_bytes"] / t["read"]["total_ios"] for t in truth]
    for (_, row), t in zip(df.iterrows(), truth):
        assert row["ios"] == t["read"]["total_ios"]
        assert row["io_bytes"] == t["read"]["io_bytes"]
        assert row["bw_bytes_per_s"] == pytest.approx(t["read"]["bw_bytes"], rel=5e-3)  # runtime in whole ms


def test_a_job_header_that_fio_bw_contradicts_is_an_error(tmp_path):
    """The exact size in a header must be the block's: a header from another run is not used silently."""
    text = (QA / "appended-same-name.normal").read_text()
    second = text.index("ap: (g=0)", 1)
    # the 64 KiB run's header replaced by the 4 KiB one: fio's BW= says 64 KiB per I/O
    bad = text[:second] + text[second:].replace("bs=(R) 64.0KiB-64.0KiB", "bs=(R) 4096B-4096B", 1)
    path = tmp_path / "bad.normal"
    path.write_text(bad)
    from nvmemodel.errors import IngestError
    with pytest.raises(IngestError, match="header says bs=4096 B but fio's BW="):
        read_results(path, errors="raise")


# F18: terse lines of one job name: clones (numjobs) or appended runs. These three ran at bs 4k, 64k and
# 1m (commands.txt): clones share a bs, so they are three runs (QA s25 H4; lines that agree stay clones,
# with a warning: tests/ingest/test_qa6_h4.py)
def test_appended_terse_runs_of_one_job_name_with_other_block_sizes_are_runs():
    df = quiet_read(QA / "appended-same-name.terse")
    assert list(df["run"]) == [0, 1, 2] and list(df["block_size_bytes"]) == [4096.0, 65536.0, 1048576.0]
    assert df["numjobs"].isna().all()


def test_terse_clones_with_an_echoed_command_are_not_warned_about(tmp_path):
    lines = (QA / "appended-same-name.terse").read_text().splitlines(keepends=True)
    path = tmp_path / "echoed.txt"
    path.write_text("".join(f"Fio command: fio --name=ap --iodepth={qd} --rw=randread\n{line}"
                            for qd, line in zip((1, 4, 16), lines)))
    df = quiet_read(path)
    assert list(df["run"]) == [0, 1, 2] and list(df["iodepth"]) == [1, 4, 16]


# F16: fio's '\:' (a literal colon in filename=) in an echoed command line
def test_escaped_colons_in_an_echoed_filename_are_one_target():
    truth = [doc["jobs"][0]["job options"]["filename"] for doc in fio_docs(QA / "escaped-colons.json")]
    df = quiet_read(QA / "escaped-colons.txt")
    names = [[n.replace("\\:", ":") for n in f.replace("\\:", "\0").split(":")] for f in truth]
    names = [[n.replace("\0", ":") for n in ns] for ns in names]
    assert list(df["targets"]) == [len(n) for n in names] == [1, 2]
    assert list(df["target_names"]) == [";".join(n) for n in names]
    assert df["target_names"].iloc[1] == "pci-0000:01:00.0;pci-0000:02:00.0"


# F6: a write job's verify reads are a phase of their own, not part of the workload
@pytest.mark.parametrize("form", ["json", "normal"])
def test_verify_reads_of_a_write_job_are_not_summed(form):
    from nvmemodel.fitting.curves import measured_points

    (job,) = fio_docs(DATA / "verify-write.json")[0]["jobs"]
    df = quiet_read(DATA / f"verify-write.{form}")
    assert sorted(df["direction"]) == ["verify", "write"]
    assert (df["pattern"] == "write").all() and (df["numjobs"].isna() | (df["numjobs"] == 1)).all()
    verify = df[df["direction"] == "verify"].iloc[0]
    assert verify["ios"] == job["read"]["total_ios"]  # kept, with fio's numbers
    pts = measured_points(df, x="iodepth", y="iops")
    assert pts["y"].iloc[0] == pytest.approx(job["write"]["iops"], rel=1e-3)  # writes only (JSON: 157,538)


# F27: a file named twice (folder + file, a symlink beside it) is read once
def test_a_file_given_twice_is_read_once(tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    for name in ("three-jobs.json", "long-name.json"):
        shutil.copy(DATA / name, folder / name)
    once = quiet_read(folder)
    with pytest.warns(IngestWarning, match=r"three-jobs.json: given more than once: read once"):
        twice = read_results([folder, folder / "three-jobs.json"])
    assert len(twice) == len(once) and twice["iops"].sum() == pytest.approx(once["iops"].sum(), rel=1e-12)
    os.symlink("three-jobs.json", folder / "latest.json")
    with pytest.warns(IngestWarning, match=r"latest.json: given more than once \(the same file as .*three-jobs.json\)"):
        linked = read_results(folder)
    assert len(linked) == len(once) and linked["iops"].sum() == pytest.approx(once["iops"].sum(), rel=1e-12)
    assert not linked["source_path"].str.endswith("latest.json").any()  # the file read under its own name
