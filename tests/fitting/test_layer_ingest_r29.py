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


# ------------------------------------------------------------------ OE: CPU per I/O on every axis, and whose total
def test_oe_cpu_per_io_said_where_the_band_leaves_the_cost_line_out():
    text = _text(MMAP, "cpu")
    assert "fio's CPU per I/O (usr+sys CPU-seconds ÷ I/Os, per job) was 19.1 µs–30.1 µs at numjobs = 1–8" in text
    assert "so this cost is no limit these rates came near" in text and "one CPU sustains" not in text
    dsync = _text(DSYNC, "cpu")
    assert "at numjobs = 1, 4, 8; at the other points a job used below 5% of a CPU" in dsync
    assert "the jobs used 0.413 CPUs (usr+sys, the median of the point's runs)" in dsync


def test_oe_counter_cost_said_once_where_other_words_give_it():
    text = _text(URING, "cpu")
    assert text.count("CPU per I/O") == 1


@pytest.mark.parametrize("case", ["r13_here-meta_tmpfs_filecreate_numjobs_repeats",  # CPU-starved: share ÷ cost
                                  "r9_here-think_libaio_tt1ms_iodepth_repeats"])  # paced: fio's per-second floor
def test_oe_counter_no_short_cost_where_the_cost_is_the_limit_or_the_run_paced(case):
    assert "so this cost is no limit these rates came near" not in _text(case, "cpu")


def test_oe_short_cost_leaves_out_the_maximum_called_nearly_idle():
    text = _text("r3_here_blkio_iops_iodepth_64k_repeats", "cpu")
    assert "nearly idle" in text and "was 4.63 µs–8 µs at iodepth = 1–16; at the other points" in text


# ------------------------------------------------------------------ IG: the step list without the runs set aside
FILESTAT = "r27_here-filestat_tmpfs-64files_filestat-stat_numjobs_repeats"


def test_ig_step_list_leaves_out_the_run_the_plateau_left_out():
    text = _text(FILESTAT, "saturation")
    assert "(732.34 K IOPS at 2) left out" in text
    assert "+98% per doubling from 523.89 K IOPS at numjobs = 1" in text and "+78%" not in text


def test_ig_counter_no_run_left_out_keeps_the_list():
    text = _text(XFS, "saturation")  # no run set aside: its list is the kept-run means, as before
    assert "+55% (1 → 2), +51% (2 → 4), -6% (4 → 8), +29% (8 → 16)" in text


def test_ig_without_left_unit():
    from nvmemodel.fitting.kept_steps import without_left

    p = pd.DataFrame({"x": [1.0, 2.0], "runs_kept": [[10.0, 10.0, 10.0], [20.0, 20.0, 8.0]]})
    ys = [10.0, 16.0]
    assert list(without_left(p, ys, [])) == ys
    assert list(without_left(p, ys, [(2.0, 8.0)])) == [10.0, 20.0]
    assert list(without_left(p, ys, [(2.0, 9.0)])) == ys  # a value no run has: nothing taken out
