"""fio's size suffixes and its filename splitting, as fio's own code reads them (round 6 ingest faults).

Size values: what fio 3.33 did with ``--ioengine=null --bs=<form> [--kb_base=1000]`` (io_bytes / total_ios of
its JSON output, measured here), which is what ``parse.c`` ``__get_mult_bytes`` says: a suffix is matched by its
start, ``kib``… is the unit opposite to ``kb_base``, any other ``k``… is ``kb_base`` (so ``4Ki`` is 4096 under the
default, though fio's HOWTO lists it as 4 KiB only under ``kb_base=1000``). Filenames: ``options.c``
``get_next_str`` splits at every unescaped ``:``, a Windows drive letter's too (fio issue #1912).
"""

from __future__ import annotations

import json
import pathlib
import warnings

import pytest

from nvmemodel import IngestError, IngestWarning
from nvmemodel.ingest import read_results
from nvmemodel.ingest.fio_options import drive_letter_split, parse_fio_size, split_filenames

DATA = pathlib.Path(__file__).parents[1] / "data"
ZNS = DATA / "explain_corpus" / "r6_znsstudy_optane_4k-randread_1job_qd1-1024" / "raw"

# (form, fio 3.33's block size with kb_base=1024, with kb_base=1000), measured here (see module docstring)
MEASURED = [
    ("4k", 4096, 4000), ("4K", 4096, 4000), ("4kb", 4096, 4000), ("4KB", 4096, 4000), ("4Ki", 4096, 4000),
    ("4ki", 4096, 4000), ("4kilo", 4096, 4000), ("4KiB", 4000, 4096), ("4kib", 4000, 4096), ("4Kib", 4000, 4096),
    ("4kibibytes", 4000, 4096), ("1m", 2**20, 10**6), ("1mi", 2**20, 10**6), ("1MB", 2**20, 10**6),
    ("1MiB", 10**6, 2**20), ("1g", 2**30, 10**9), ("1gi", 2**30, 10**9), ("4096b", 4096, 4096),
    ("4096B", 4096, 4096), ("4096bytes", 4096, 4096), ("0x1000", 4096, 4096), ("4k ", 4096, 4000),
]


@pytest.mark.parametrize("form, at_1024, at_1000", MEASURED)
def test_size_suffixes_are_what_fio_did(form, at_1024, at_1000):
    assert parse_fio_size(form) == at_1024
    assert parse_fio_size(form, kb_base=1024) == at_1024
    assert parse_fio_size(form, kb_base=1000) == at_1000


def test_larger_units_follow_the_same_rule():
    assert parse_fio_size("1t") == 2**40 and parse_fio_size("1TiB") == 10**12
    assert parse_fio_size("1p", kb_base=1000) == 10**15 and parse_fio_size("1PiB", kb_base=1000) == 2**50


# fio 3.33 read these as 1, 4, 4, 4 and 4 bytes: the letter, fraction or blank is dropped, never what was written
@pytest.mark.parametrize("form", ["1.5k", "4e", "4x", "4 k", " 4k", "10%", "k", ""])
def test_forms_fio_reads_otherwise_than_written_are_refused(form):
    with pytest.raises(ValueError):
        parse_fio_size(form)


def test_a_refused_rate_names_the_option(tmp_path):
    doc = json.loads((ZNS / "nvme1n1p2_randread_4Ki_queue-depth-1.json").read_text())
    doc["jobs"][0]["job options"]["rate"] = "1.5m"
    path = tmp_path / "rate.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(IngestError, match=r"rate='1\.5m'"):
        read_results([path], errors="raise")


def test_zns_study_4Ki_files_are_read_at_fios_block_size():
    paths = sorted(ZNS.glob("*.json"))
    assert len(paths) == 11
    with warnings.catch_warnings():
        warnings.simplefilter("error", IngestWarning)
        table = read_results(paths)
    assert len(table) == 11
    for path in paths:
        job = json.loads(path.read_text())["jobs"][0]
        assert job["job options"]["bs"] == "4Ki"
        (row,) = table[table["source_path"].astype(str) == str(path)].to_dict("records")
        assert row["block_size_bytes"] == 4096
        # fio's own mean agrees to within the I/Os in flight (io_bytes counts those still in flight at the end)
        depth = int(job["job options"]["iodepth"])
        assert 0 <= job["read"]["io_bytes"] - 4096 * job["read"]["total_ios"] <= 4096 * depth
        assert row["iops"] == job["read"]["iops"] and row["iodepth"] == int(job["job options"]["iodepth"])


@pytest.mark.parametrize("value, names", [
    ("E:\\validation\\f", ["E", "\\validation\\f"]),  # fio issue #1912: a file 'E' in fio's working directory
    ("E\\:\\validation\\f", ["E:\\validation\\f"]),  # fio HOWTO "filename": F\:\filename
    (":/dev/sda::/dev/sdb:", ["/dev/sda", "/dev/sdb"]),  # get_next_str skips a leading or doubled colon
    ("/dev/dsk/foo@3,0\\:c", ["/dev/dsk/foo@3,0:c"]),
])
def test_filenames_split_as_fio_splits_them(value, names):
    assert split_filenames(value) == names


def _windows_run(tmp_path, filename):
    doc = json.loads((ZNS / "nvme1n1p2_randread_4Ki_queue-depth-1.json").read_text())
    doc["jobs"][0]["job options"]["filename"] = filename
    path = tmp_path / "win.json"
    path.write_text(json.dumps(doc))
    return path


def test_unescaped_drive_letter_counts_fios_two_files_and_says_so(tmp_path):
    path = _windows_run(tmp_path, "E:\\validation\\ssd_lab_fio_testfile")
    for _ in range(2):  # the second read hits the reader's option cache and must say it again
        with pytest.warns(IngestWarning, match=r"unescaped drive letter 'E'.*#1912"):
            (row,) = read_results([path]).to_dict("records")
        assert row["targets"] == 2 and row["target_names"] == "E;\\validation\\ssd_lab_fio_testfile"


def test_escaped_drive_letter_is_one_file_without_warning(tmp_path):
    path = _windows_run(tmp_path, "E\\:\\validation\\ssd_lab_fio_testfile")
    with warnings.catch_warnings():
        warnings.simplefilter("error", IngestWarning)
        (row,) = read_results([path]).to_dict("records")
    assert row["targets"] == 1 and row["target_names"] == "E:\\validation\\ssd_lab_fio_testfile"


@pytest.mark.parametrize("value", ["/dev/sda:/dev/sdb", "E\\:\\x", "\\\\.\\PhysicalDrive0", "ab:\\x", "E:/x"])
def test_no_drive_letter_warning_where_there_is_none(value):
    assert drive_letter_split(value) is None
