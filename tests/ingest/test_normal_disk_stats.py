"""fio's disk statistics in normal text ("Disk stats (read/write):" lines, issue 28): device names and the devices'
read and write requests, the ``devices``, ``device_count``, ``disk_read_ios`` and ``disk_write_ios`` that fio's JSON
and terse lines fill, so a series read from normal text gets the same cache/device verdicts as its JSON would.

Real runs: ``tests/data/fio_normal_disks`` (two loop devices over /dev/shm, 14 releases 2.1.11-3.42; its gen.sh).
fio >= 2.21 wrote JSON and normal text of one run (``--output-format=json,normal``): the normal text's counts are
graded against the JSON's ``disk_util`` of the same run. What fio writes (diskutil.c ``print_disk_util``): per device
``  name: ios=<read>/<write>, [sectors=…, ]merge=…, ticks=…, in_queue=…, util=…%``."""

from __future__ import annotations

import gzip
import json
import pathlib
import re
import warnings

import pytest

import nvmemodel as nm

DISKS = pathlib.Path(__file__).parents[1] / "data" / "fio_normal_disks"
COLS = ["devices", "device_count", "disk_read_ios", "disk_write_ios"]
_DOC_START = re.compile(r'^\{\s*"fio version"', re.MULTILINE)


def _files(pattern: str) -> list[pathlib.Path]:
    return sorted(DISKS.glob(pattern)) if DISKS.is_dir() else []


def _split(text: str) -> tuple[dict, str]:
    """(the JSON document, the normal text without it) of one json,normal file."""
    m = _DOC_START.search(text)
    assert m, "no JSON document in a json,normal file"
    doc, end = json.JSONDecoder().raw_decode(text[m.start():])
    return doc, text[:m.start()] + text[m.start() + end:]


def _read(tmp_path, text: str) -> list[dict]:
    f = tmp_path / "run.normal"
    f.write_text(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (percentile-kind and other warnings are other tests')
        df = nm.read_results(f, errors="raise")
    assert set(df["format"]) == {"fio-normal"}
    return df.to_dict("records")


def _got(row: dict) -> list:
    import pandas as pd

    return [None if pd.isna(v) else v if isinstance(v, str) else int(v) for v in (row[c] for c in COLS)]


@pytest.mark.parametrize("path", _files("*.json-normal.out.gz"), ids=lambda p: p.name.removesuffix(".out.gz"))
def test_normal_disk_statistics_are_those_of_the_json_of_the_same_run(tmp_path, path):
    doc, normal = _split(gzip.decompress(path.read_bytes()).decode())
    du = doc["disk_util"]
    want = [";".join(u["name"] for u in du), len(du), sum(u["read_ios"] for u in du), sum(u["write_ios"] for u in du)]
    assert want[1] == 2 and want[2] > want[3] > 0  # two loop devices, 70/30 reads/writes
    rows = _read(tmp_path, normal)
    assert {r["direction"] for r in rows} == {"read", "write"}
    for row in rows:  # one count per report: every row of the run carries it
        assert _got(row) == want


@pytest.mark.parametrize("path", _files("2.*.normal.out.gz"), ids=lambda p: p.name.removesuffix(".out.gz"))
def test_fio2_normal_text_names_both_loop_devices_and_their_requests(tmp_path, path):
    # fio 2.1/2.2 cannot write JSON beside normal text: the counts are checked against the text's own lines, read
    # independently of the reader's pattern
    text = gzip.decompress(path.read_bytes()).decode()
    lines = text[text.index("Disk stats"):].splitlines()[1:3]
    counts = [tuple(int(x) for x in ln.split("ios=")[1].split(",")[0].split("/")) for ln in lines]
    rows = _read(tmp_path, text)
    names = [ln.split(":")[0].strip() for ln in lines]
    assert all(re.fullmatch(r"loop\d+", n) for n in names)
    for row in rows:
        assert _got(row) == [";".join(names), 2, sum(c[0] for c in counts), sum(c[1] for c in counts)]
        assert row["disk_read_ios"] > row["disk_write_ios"] > 0


def test_normal_text_without_disk_stats_has_no_counts(tmp_path):
    # a report whose disk statistics are absent (fio on a file share, or --disk_util=0) says nothing of devices
    path = next(iter(_files("3.42.json-normal.out.gz")), None)
    if path is None:
        pytest.skip("tests/data/fio_normal_disks not present")
    _, normal = _split(gzip.decompress(path.read_bytes()).decode())
    cut = normal[:normal.index("Disk stats")]
    for row in _read(tmp_path, cut):
        assert _got(row) == [None, None, None, None]
