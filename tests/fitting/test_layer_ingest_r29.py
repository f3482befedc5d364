"""Round 29 OE and round 28 ME (issue 28): the device's requests per fio I/O in the layer sentence, the hypervisor
named only as the files allow, and fio's end_fsync / fsync_on_close read at ingest and said where it is inside the
measured time. Each rule with the spent case that showed the class and counter-cases where it must not fire."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.end_flush import end_flush
from tests.fitting.corpus_score import CORPUS, fit_case_id, load_case, load_table

pytestmark = pytest.mark.filterwarnings("ignore")

DSYNC = "r29_here-vdadsync_vda-ext4-64mfile-per-job_psync-direct-odsync_randwrite4k_numjobs_repeats"
MMAP = "r29_here-vdammap_vda-ext4-512mfile-memcg32m_mmap_randread4k_numjobs_repeats"
URING = "r29_here-uringvda_vda-ext4-512mfile_iouring-direct_randread4k_iodepth_repeats"
BTRFS = ("r28_here-btrfszstd_btrfs-compress-force-zstd3-on-loop-tmpfs_psync-buffered-endfsync_seqwrite128k-compress50"
         "_numjobs_repeats")
FSYNC1 = "r28_here-vdafsync_vda-ext4-32mfile-per-job_psync-buffered-fsync1_randwrite4k_numjobs_repeats"
XFS = "r27_here-xfsunwritten_xfs-on-loop-tmpfs-fallocated4g_libaio-direct_randwrite4k_iodepth_repeats"
MEMCG = "r22_here-memcg_loop-buffered-memcg32m_psync_randread_numjobs_repeats"


def _text(case, kind):
    return " ".join(c["text"] for c in fit_case_id(case).claims() if c["kind"] == kind)


# ------------------------------------------------------------------ OE: device writes per fio write (direct I/O)
def test_oe_direct_dsync_writes_say_device_writes_per_fio_write():
    text = _text(DSYNC, "layer")
    assert "2.1–3.47 writes on vda per fio write" in text
    assert "covers any ramp time" in text


@pytest.mark.parametrize("case", [XFS, URING])
def test_oe_counter_no_write_ratio_below_1_5_or_for_reads(case):
    assert "per fio write" not in _text(case, "layer")


# ------------------------------------------------------------------ OE: a page-read ratio the ramp may explain
def test_oe_page_reads_ratio_within_the_ramp_is_not_extra_requests():
    text = _text(MMAP, "layer")
    assert "1.13–1.19 requests per fio read of one page (the device's count also covers any ramp_time" in text


def test_oe_counter_page_reads_ratio_beyond_the_ramp_keeps_its_words():
    text = _text(MEMCG, "layer")
    assert "1.18–2.07 requests per fio read of one page —" in text
    assert "ramp_time" not in text


# ------------------------------------------------------------------ OE: no hypervisor the files do not name
def test_oe_virtio_cpu_words_name_no_qemu():
    text = _text(DSYNC, "cpu")
    assert "the hypervisor's threads" in text
    assert "QEMU" not in text and "vhost" not in text


# ------------------------------------------------------------------ ME: end_fsync read at ingest and said
def _raw_doc(case):
    return json.loads(sorted((CORPUS / case / "raw").glob("*.json"))[0].read_text())


@pytest.mark.parametrize("opts, want", [({"end_fsync": "1"}, 1), ({"fsync_on_close": "1"}, 1),
                                        ({"end_fsync": "0"}, 0), ({}, None)])
def test_me_ingest_reads_end_fsync_and_fsync_on_close(tmp_path, opts, want):
    doc = _raw_doc(BTRFS)
    job = doc["jobs"][0]["job options"]
    job.pop("end_fsync", None)
    job.update(opts)
    (tmp_path / "r.json").write_text(json.dumps(doc))
    got = nm.read_results([tmp_path / "r.json"])["end_fsync"]
    assert (got.isna().all() if want is None else got.eq(want).all())


def test_me_ingest_corpus_raw_files():
    assert nm.read_results([CORPUS / BTRFS / "raw"])["end_fsync"].eq(1).all()
    assert nm.read_results([CORPUS / DSYNC / "raw"])["end_fsync"].isna().all()


def test_me_buffered_end_fsync_says_the_flush_is_in_the_measured_time():
    text = _text(BTRFS, "layer")
    assert "Every run ended with a flush of all it had written (end_fsync or fsync_on_close" in text
    assert "which fio counts in the job's time" in text


@pytest.mark.parametrize("case", [FSYNC1, DSYNC, MMAP])
def test_me_counter_no_end_flush_words_without_it(case):
    assert "end_fsync or fsync_on_close" not in _text(case, "layer")


def test_me_counter_direct_io_with_end_fsync_has_nothing_dirty():
    rows = load_table(CORPUS / BTRFS, load_case(CORPUS / BTRFS))
    assert end_flush(rows)
    assert not end_flush(rows.assign(direct=True))
    assert not end_flush(rows.assign(direction="read"))
    assert not end_flush(rows.assign(end_fsync=pd.array([1] * (len(rows) - 1) + [pd.NA], dtype="Int64")))
