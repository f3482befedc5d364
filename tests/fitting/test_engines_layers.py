"""Engines and layers (round 10's hand reading, classes HA, HE, HF and JE): a synchronous engine keeps one I/O in
flight per job whatever iodepth says; an engine that touches no storage is said so once, with no drive words; no
disk in fio's statistics proves no layer. Each rule on a spent real case and on a counter-case where it must not
fire."""

from __future__ import annotations

import re

import pytest

from nvmemodel.jobs.fiooptions import FIO_ENGINES, NO_STORAGE_ENGINES, SYNC_ENGINES
from tests.fitting import corpus_score as cs

NET = "r10_dgfiobench_native-loopback-tcp_net-pingpong-sender_bs"  # fio net engine, iodepth=8, ping-pong


def _claims(case_id):
    return cs.fit_case_id(case_id).claims()


def _layer(claims):
    return [c for c in claims if c["kind"] == "layer"]


def test_the_engine_lists_are_fio_names_and_exclude_the_two_conditional_ones():
    # every name is an engine fio knows; sg queues asynchronously on /dev/sg with direct=0 and null is synchronous only
    # at iodepth=1 (engines/sg.c, engines/null.c), so neither may be read as one I/O in flight per job
    assert SYNC_ENGINES <= FIO_ENGINES and NO_STORAGE_ENGINES <= FIO_ENGINES
    assert {"net", "netsplice", "splice", "psync", "mmap"} <= SYNC_ENGINES
    assert not {"sg", "null", "libaio", "io_uring", "posixaio"} & SYNC_ENGINES
    # nbd, nfs, rbd … reach storage fio cannot see as a local disk: they are not "no storage"
    assert not {"nbd", "nfs", "rbd", "rados", "libiscsi", "xnvme"} & NO_STORAGE_ENGINES


def test_net_engine_outstanding_is_the_jobs_not_iodepth():
    # HA: IOPS × mean latency is 0.95–0.96 of one message; read at iodepth=8 it printed "12%–12% of the cycle"
    cf = cs.fit_case_id(NET)
    assert (cf.points["outstanding"] == 1).all()
    text = " ".join(c["text"] for c in cf.claims())
    assert "12%" not in text and "spent the rest on its own work" not in text, text


def test_async_engine_outstanding_stays_iodepth():
    # counter-case: libaio at iodepth 8–128 keeps its depth in flight (Little's law 0.98–1.00 per run)
    pts = cs.fit_case_id("r10_swissknife_lvm-nvme-ext4_4k-randrw5050_qd").points
    assert sorted(pts["outstanding"].unique()) == sorted(pts["iodepth"].unique())
    assert pts["outstanding"].max() > 1


@pytest.mark.parametrize("case_id", [NET, "r10_dgfiobench_palacios-guest-loopback-tcp_net-pingpong-receiver_bs"])
def test_net_engine_says_no_storage_once_and_no_drive_words(case_id):
    # HF: the layer is "none", said once; no sentence names a device or a deeper queue
    claims = _claims(case_id)
    said = _layer(claims)
    assert len(said) == 1 and said[0]["facts"]["layer"] == "none", said
    assert "touches no storage" in said[0]["text"]
    text = " ".join(c["text"] for c in claims)
    assert not re.search(r"\b(device|drive's limits|deeper queue|page cache \(memory)", text.replace(
        "no drive, file system or page cache", "")), text


def test_null_engine_no_storage_stays_in_its_cpu_sentence():
    # counter-case: the null engine's "no device is involved" is the CPU sentence's; no layer sentence repeats it
    claims = _claims("r6_here_null_pin1cpu_numjobs_repeats")
    assert not _layer(claims)
    assert sum("no device is involved" in c["text"] for c in claims) == 1


def test_no_disk_in_fio_stats_proves_no_layer():
    # JE: btrfs on dm-3 over nvme1n1 — fio names no disk under btrfs; the layer is unknown, named as none
    said = _layer(_claims("r10_swissknife_lvm-nvme-btrfs_4k-randrw5050_qd"))
    assert len(said) == 1 and said[0]["facts"]["layer"] is None, said
    assert "unknown" in said[0]["text"] and "network or memory" not in said[0]["text"]


def test_a_named_device_is_still_named():
    # counter-case: the ext4 run on the same volume names dm-3 over nvme1n1
    said = _layer(_claims("r10_swissknife_lvm-nvme-ext4_4k-randrw5050_qd"))
    assert said and said[0]["facts"]["layer"] == "dm" and "dm-3" in said[0]["text"]


def test_several_hosts_on_one_path_still_read_as_a_network_file_system():
    # counter-case: elbencho from 4 hosts against one namespace proves a shared file system (unchanged by JE)
    said = _layer(_claims("elbencho_vast-nfs_1m-write_threads"))
    assert said and said[0]["facts"]["layer"] == "network_fs"


def test_buffered_io_with_no_disk_keeps_only_what_direct0_proves():
    # JE: direct=0 proves the page cache was in the path; no disk named proves nothing below it — but a file under
    # /dev/shm is on tmpfs by where it is (round 24 CF, tmpfs_paths): memory served it
    said = _layer(_claims("r9_here-mmap_tmpfs_randread_bs_repeats"))
    assert len(said) == 1
    assert "through the page cache" in said[0]["text"] and "served from memory (tmpfs pages)" in said[0]["text"]
    assert "network file system served" not in said[0]["text"] and "no local drive" not in said[0]["text"]


def test_a_rate_the_cpu_share_holds_gets_no_outstanding_sentence_beside_it():
    # HE: splice (synchronous) at 4 KiB — the CPU sentence proves the rate follows the CPU share at every point;
    # "1 outstanding ÷ latency … a deeper queue would tell" beside it was a second story and a remedy that does not exist
    claims = _claims("r10_here-splice_tmpfs_seqread_bs_repeats")
    assert not [c for c in claims if c["kind"] == "outstanding"]
    assert any(c["kind"] == "cpu" and "one cost" in c["text"] for c in claims)


def test_outstanding_sentence_stays_where_no_cpu_share_holds_the_rate():
    # counter-case: a drive at QD1 (libaio) — 1 ÷ 51.3 µs gives the 4 KiB rate, and no CPU claim covers it
    claims = _claims("hothanh7_consumer-nvme_randread_qd1_bs")
    said = [c for c in claims if c["kind"] == "outstanding"]
    assert len(said) == 1 and "a deeper queue would tell" in said[0]["text"]
