"""fio's disk statistics in terse lines (issue 28): device names and the devices' read and write requests, the
``devices``, ``device_count``, ``disk_read_ios`` and ``disk_write_ios`` that fio's JSON fills, read from every terse
version and fio release that writes them, graded against fio's JSON of the same run.

Real runs: ``tests/data/fio_terse_disks`` (two loop devices over /dev/shm, 14 releases 2.1.11-3.42; its README) and
``tests/data/fio_versions`` (files on the build machine's virtio disk, 15 releases). What fio writes, from its source
(stat.c/diskutil.c of each tag): per device ``;name;read_ios;write_ios;read_merges;write_merges;read_ticks;
write_ticks;in_queue;util%`` after the latency buckets of a v3, v4 or v5 line; never in v2; fio 2.1 only from a
server backend (``if (is_backend) show_disk_util(1, NULL);``), so its terse lines name no device."""

from __future__ import annotations

import gzip
import json
import pathlib
import re
import warnings

import pytest

import nvmemodel as nm
from nvmemodel.errors import IngestError

DATA = pathlib.Path(__file__).parents[1] / "data"
DISKS = DATA / "fio_terse_disks"
VERSIONS = DATA / "fio_versions"
_TERSE = re.compile(r"^[2-5];.*$", re.MULTILINE)
_DOC_START = re.compile(r'\{\s*"fio version"')
COLS = ["devices", "device_count", "disk_read_ios", "disk_write_ios"]


def _text(path: pathlib.Path) -> str:
    return gzip.decompress(path.read_bytes()).decode()


def _json_docs(text: str) -> list[dict]:
    out, pos, dec = [], 0, json.JSONDecoder()
    while (m := _DOC_START.search(text, pos)) is not None:
        doc, end = dec.raw_decode(text[m.start():])
        out.append(doc)
        pos = m.start() + end
    return out


def _expected(doc: dict) -> list:
    """The four columns as fio's JSON document gives them (every entry of its disk list, summed)."""
    du = doc.get("disk_util") or []
    if not du:
        return [None, None, None, None]
    return [";".join(u["name"] for u in du), len(du), sum(u["read_ios"] for u in du), sum(u["write_ios"] for u in du)]


def _read_terse(tmp_path, text: str, name: str = "t.terse") -> list[dict]:
    f = tmp_path / name
    f.write_text("\n".join(_TERSE.findall(text)) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (percentile-kind and other warnings are other tests')
        df = nm.read_results(f, errors="raise")
    return df.to_dict("records")


def _got(row: dict) -> list:
    import pandas as pd

    return [None if pd.isna(v) else v if isinstance(v, str) else int(v) for v in (row[c] for c in COLS)]


def _files(folder: pathlib.Path, pattern: str) -> list[pathlib.Path]:
    return sorted(folder.glob(pattern)) if folder.is_dir() else []


@pytest.mark.parametrize("path", _files(DISKS, "*.json-terse*.out.gz")
                         + [p for p in _files(DISKS, "*.extras.out.gz") if not p.name.startswith("2.")],
                         ids=lambda p: p.name.removesuffix(".out.gz"))
def test_terse_disk_statistics_are_those_of_the_json_of_the_same_run(tmp_path, path):
    text = _text(path)
    docs = _json_docs(text)
    (doc,) = docs
    want = _expected(doc)
    assert want[1] == 2 and want[2] > 0 and want[3] > 0  # (two loop devices that both read and wrote)
    rows = _read_terse(tmp_path, text)
    assert rows and all(_got(r) == want for r in rows), (path.name, [_got(r) for r in rows], want)


@pytest.mark.parametrize("form", ["terse3", "terse4", "extras"])
def test_fio_22_terse_names_the_devices_of_its_json(tmp_path, form):
    """fio 2.2 writes one form per run: the devices are the JSON run's; the counts are this run's own, whole and > 0."""
    path = DISKS / f"2.2.10.{form}.out.gz"
    if not path.exists():
        pytest.skip(f"{path.name} is not in the corpus")
    (doc,) = _json_docs(_text(DISKS / "2.2.10.json.out.gz"))
    want = _expected(doc)
    rows = _read_terse(tmp_path, _text(path))
    assert {r["direction"] for r in rows} == {"read", "write"}
    for got in map(_got, rows):
        assert got[:2] == want[:2] and got[2] > 0 and got[3] > 0


@pytest.mark.parametrize("form", ["terse3", "terse4", "extras"])
def test_fio_21_terse_names_no_device(tmp_path, form):
    """fio 2.1.11 ran on the same two loop devices (its JSON names them) but writes no disk statistics in terse."""
    path = DISKS / f"2.1.11.{form}.out.gz"
    if not path.exists():
        pytest.skip(f"{path.name} is not in the corpus")
    (doc,) = _json_docs(_text(DISKS / "2.1.11.json.out.gz"))
    assert _expected(doc)[1] == 2
    rows = _read_terse(tmp_path, _text(path))
    assert len(rows) == 2 and all(_got(r) == [None, None, None, None] for r in rows)


def _versions_terse_files() -> list[pathlib.Path]:
    return [p for p in _files(VERSIONS, "*/*.json-terse*.out.gz")
            if p.name.split(".", 1)[0] in ("aio-randrw", "status")]


@pytest.mark.parametrize("path", _versions_terse_files(),
                         ids=lambda p: f"{p.parent.name}-{p.name.removesuffix('.out.gz')}")
def test_every_report_of_fio_versions_terse_matches_its_json(tmp_path, path):
    """A file on the build machine's disk (vda), each report (--status-interval: one JSON document and one terse
    line per report, in order) against its own JSON document."""
    text = _text(path)
    docs = _json_docs(text)
    rows = [r for r in _read_terse(tmp_path, text) if r["direction"] != "trim"]
    snaps = sorted({r["snapshot"] for r in rows})
    assert len(snaps) == len(docs)
    for snap, doc in zip(snaps, docs):
        want = _expected(doc)
        assert want[0], f"{path}: fio's JSON names no device"
        assert all(_got(r) == want for r in rows if r["snapshot"] == snap), (path.name, snap, want)


def test_terse_v2_has_no_disk_statistics(tmp_path):
    for path in _files(VERSIONS, "*/aio-randrw.json-normal-terse2.out.gz"):
        (doc,) = _json_docs(_text(path))
        assert _expected(doc)[0]  # (the run had a device; v2 has no fields for it)
        assert all(_got(r) == [None, None, None, None] for r in _read_terse(tmp_path, _text(path)))


def _line(path: pathlib.Path) -> str:
    (line,) = _TERSE.findall(_text(path))
    return line


def test_a_device_with_slaves_counts_the_device_not_the_slaves_average(tmp_path):
    """No device-mapper or md device could be made here: a real 3.42 line edited by fio's format (diskutil.c/stat.c
    print_disk_util then show_agg_stats: ``;slaves;`` and 8 averages of the slaves after the master's 9 fields; the
    slaves follow as devices of their own, as in fio's JSON disk list)."""
    path = DISKS / "3.42.json-terse3.out.gz"
    if not path.exists():
        pytest.skip("fio 3.42's file is not in the corpus")
    line = _line(path)
    m = re.search(r";(loop\d+);(\d+);(\d+);.*$", line)
    master = ";dm-0;100;40;0;0;5;6;11;50.00%;slaves;7;3;0;0;2;1;3;20.00%"
    rows = _read_terse(tmp_path, line[:m.start()] + master + line[m.start():])
    (doc,) = _json_docs(_text(path))
    want = _expected(doc)
    assert len(rows) == 2 and all(_got(r) == [f"dm-0;{want[0]}", 3, want[2] + 100, want[3] + 40] for r in rows)


@pytest.mark.parametrize("field, bad, named", [(2, "12x", "read_ios"), (3, "-4", "write_ios"), (8, "1.5", "in_queue"),
                                               (9, "lots%", "util %")])
def test_a_bad_disk_field_is_refused_naming_file_line_field_and_device(tmp_path, field, bad, named):
    path = DISKS / "3.42.json-terse4.out.gz"
    if not path.exists():
        pytest.skip("fio 3.42's file is not in the corpus")
    fields = _line(path).split(";")
    at = fields.index("loop1") if "loop1" in fields else next(i for i, f in enumerate(fields) if f.startswith("loop"))
    fields[at + field - 1] = bad
    f = tmp_path / "bad.terse"
    f.write_text("\n".join(["", ";".join(fields)]) + "\n")
    with pytest.raises(IngestError) as exc:
        nm.read_results(f, errors="raise")
    msg = str(exc.value)
    assert "bad.terse" in msg and "line 2" in msg and f"field {at + field}" in msg
    assert f"disk {fields[at]} {named}" in msg and repr(bad) in msg
