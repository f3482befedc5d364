"""Round 21's layer classes (tests/data/explain_corpus/_blind_rounds/round21_hand_read_part1.md VC, part 2 WD), read
before the rules these tests hold were set (docs/fitting.md names them): each rule on the spent r21 cases that showed
it and on counter-cases where it must not fire. The assertions recompute from the case's table what the words claim.

VC: loop0 named as the layer whose "rates are that layer's", and "direct I/O not ruled out", while fio's disk
statistics counted 0.04–0.16 loop0 reads per fio read (0.003–0.38 along block size): page-cache hits of buffered
reads (:mod:`nvmemodel.fitting.cache_hits`). WD: a /dev/mapper target with no disk statistics, no layer said
(:func:`nvmemodel.fitting.devices.mapper_targets`).
"""

from __future__ import annotations

import functools
import pathlib

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.cache_hits import RANDOM_FLOOR, REACHED_MAX, reached
from nvmemodel.fitting.devices import mapper_targets

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "explain_corpus"
U_IODEPTH = "r21_here-uringbuf_loop-pagecache_iouring_buffered_randread_iodepth_repeats"
U_NUMJOBS = "r21_here-uringbuf_loop-pagecache_iouring_buffered_randread_qd4_numjobs_repeats"
U_SEQBS = "r21_here-uringbuf_loop-pagecache_iouring_buffered_seqread_qd4_bs_repeats"
TIERED = ("r21_tieredvol_dm-stripe-nvme-2sata_2m-write_1job_qd", "r21_tieredvol_dm-stripe-nvme-2sata_2m-write_4jobs_qd",
          "r21_tieredvol_dm-stripe-nvme-2sata_write_4jobs-qd32_bs")
LOOP_DIO = "r12_here-loopdio_loop-dio-on_libaio_randread_iodepth_repeats"  # direct=1 recorded, ~1 loop read a read
LOOP_NORMAL = "r11_here-fio31_loop_psync_randread_normal_numjobs_repeats"  # direct not recorded, no device counts
NERDST = "r20_nerdst_nvme-p7_4k-randread_qd"  # a drive, ~1 device read a read


@functools.lru_cache(maxsize=None)
def _fit(case_id):
    return fit_case_id(case_id)


def _layer(case_id) -> list[dict]:
    return [c for c in _fit(case_id).claims() if c["kind"] == "layer"]


def _ratios(case_id) -> pd.Series:
    t = pd.read_csv(CORPUS / case_id / "points.csv")
    return t["disk_read_ios"] / t["ios"]


def _pct(v):
    return f"{100 * v:.2g} %" if v < 0.1 else f"{100 * v:.0f} %"


# ------------------------------------------------------------------ VC: reads that never reached the device
@pytest.mark.parametrize("case_id", [U_IODEPTH, U_NUMJOBS])
def test_random_buffered_reads_are_page_cache_hits_not_the_loop_devices(case_id):
    r = _ratios(case_id)
    assert r.max() < RANDOM_FLOOR  # the premise: fewer device reads than random direct reads allow, in every run
    (c,) = _layer(case_id)
    text = c["text"]
    assert f"only {_pct(r.min())}–{_pct(r.max())} of fio's reads reached loop0" in text, text
    assert "direct I/O ruled out" in text and "the rates are the page cache's, not loop0's" in text
    assert "its rates are that layer's" not in text
    assert c["facts"]["layer"] == "page_cache"
    assert "direct I/O not ruled out" not in _fit(case_id).explain()


def test_iodepth_numbers_and_cache_sentence():
    text = _layer(U_IODEPTH)[0]["text"]
    assert "65.5 K device reads a run against fio's 408 K–911 K" in text
    assert "7.2 %–16 %" in text
    assert "the reads buffered (direct I/O ruled out, above)" in _fit(U_IODEPTH).explain()


def test_sequential_reads_ruled_out_only_where_fewer_than_one_in_the_in_flight_reached():
    t = pd.read_csv(CORPUS / U_SEQBS / "points.csv")
    r = t["disk_read_ios"] / t["ios"]
    below = t.loc[r < 1 / (t["iodepth"] * t["numjobs"]), "block_size_bytes"].unique()
    assert sorted(below) == [4096, 16384, 65536, 262144]  # the premise: at 1 MiB 36–38 % reached loop0 (QD 4)
    (c,) = _layer(U_SEQBS)
    text = c["text"]
    assert "at block_size_bytes = 4 KiB, 16 KiB, 64 KiB and 256 KiB fewer than 1 in 4 reached it" in text, text
    top = r[t["block_size_bytes"] == 1048576]
    assert f"at block_size_bytes = 1 MiB {_pct(top.min())}–{_pct(top.max())} reached it" in text
    assert "which merged direct reads could also give" in text
    assert "its rates are that layer's" not in text


@pytest.mark.parametrize("case_id", [LOOP_DIO, LOOP_NORMAL])
def test_loop_devices_with_direct_io_or_no_counts_keep_their_words(case_id):
    (c,) = _layer(case_id)
    assert "reached loop0" not in c["text"] and "its rates are that layer's" in c["text"]
    assert c["facts"].get("hits") is None


def _table(ratio, pattern="randread", iodepth=4, numjobs=1, direct=None, n=4):
    ios = np.full(n, 100_000.0)
    return pd.DataFrame({"source_path": [f"r{i}" for i in range(n)], "direction": "read", "pattern": pattern,
                         "ios": ios, "disk_read_ios": ios * ratio, "devices": "loop0", "direct": direct,
                         "iodepth": iodepth, "numjobs": numjobs, "block_size_bytes": 4096.0,
                         "x": np.arange(n, dtype=float)})


def test_reached_rule_and_its_counters():
    assert reached(_table(0.1))["ruled_out"]  # random, 1 in 10 reached: not direct
    assert reached(_table(0.6)) is None  # above REACHED_MAX: nothing said
    assert REACHED_MAX == 0.5
    assert reached(_table(0.1, direct=True)) is None  # direct recorded: merging is merges.py's
    assert reached(_table(0.1, direct=False)) is None  # buffered recorded: buffered.py's
    assert reached(_table(0.0)) is None  # no read counted: disk_counts.py's (the I/O went another way)
    seq = reached(_table(0.1, pattern="read", iodepth=32))  # 32 in flight could merge into one: not ruled out
    assert seq is not None and not seq["ruled_out"] and seq["ruled_at"] == []
    assert reached(_table(0.01, pattern="read", iodepth=32))["ruled_out"]  # below 1 in 32
    d = pd.read_csv(CORPUS / NERDST / "points.csv")
    assert reached(d) is None  # a drive at one device read a read


# ------------------------------------------------------------------ WD: a device-mapper target with no disk stats
@pytest.mark.parametrize("case_id", TIERED)
def test_mapper_target_named_as_a_device_mapper_volume(case_id):
    t = pd.read_csv(CORPUS / case_id / "points.csv")
    assert (t["target_names"] == "/dev/mapper/testpool").all() and t["devices"].isna().all()  # the premise
    (c,) = _layer(case_id)
    assert c["text"].startswith("The jobs' target /dev/mapper/testpool is a device-mapper volume"), c["text"]
    assert "its members — and which of them held the rate — are not in the files" in c["text"]
    assert c["facts"]["layer"] == "dm"


def test_mapper_targets_counters():
    base = pd.DataFrame({"target_names": ["/dev/mapper/vg-lv", "/dev/dm-3"], "devices": [None, None]})
    assert mapper_targets(base) == ["/dev/mapper/vg-lv", "/dev/dm-3"]
    assert mapper_targets(base.assign(devices=["dm-0;nvme0n1", "dm-0;nvme0n1"])) is None  # named by disk stats
    assert mapper_targets(base.assign(target_names=["/dev/vg0/lv0", "/dev/vg0/lv0"])) is None  # LVM link: not read
    assert mapper_targets(base.assign(target_names=["/dev/nvme0n1", "/dev/dm-3"])) is None  # one target a drive
    assert mapper_targets(base.assign(target_names=["/dev/mapper/x", None])) is None
    assert mapper_targets(base.assign(target_names=["/mnt/data/f", "/mnt/data/f"])) is None
