"""Round 22's layer and CPU-per-byte classes (tests/data/explain_corpus/_blind_rounds/round22_hand_read_part1.md XB,
XD), read before the rules these tests hold were set (docs/fitting.md names them): each rule on the spent
r22 cases that showed it and on counter-cases where it must not fire. The assertions recompute from the case's table
what the words claim.

XB: loop0 read requests per fio read of one page decide hits vs misses (:mod:`nvmemodel.fitting.page_reads`). XD: CPU
per I/O that is a constant per byte over the top sizes, and runs whose rate moved with the job's CPU
(:mod:`nvmemodel.fitting.cpu_bytes`). (Part 2's YF — direct reads that never reached the device — was tried and
taken out: at 0.87–0.91 device reads per fio read it spoke of reads "answered above" a virtio disk in the QA runs.)
"""

from __future__ import annotations

import functools
import pathlib
import re

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.cpu_bytes import FOLLOW_TOL, PER_BYTE_TOL, follows_cpu, per_byte_top
from nvmemodel.fitting.page_reads import HITS_MAX, MISSED_MIN, page_reads

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "explain_corpus"
M_BS = "r22_here-memcg_loop-buffered-memcg32m_psync_randread_bs_repeats"
M_NJ = "r22_here-memcg_loop-buffered-memcg32m_psync_randread_numjobs_repeats"
M_SEQ = "r22_here-memcg_loop-buffered-memcg32m_psync_seqread_bs_repeats"
V_QD = "r22_vsalvaggio_wsl2-loop-image_4k-randread_libaio_qd_repeats"
V_RW = "r22_vsalvaggio_wsl2-loop-image_4k-randrw_qd32_readshare"
LOOP_DIO = "r12_here-loopdio_loop-dio-on_libaio_randread_iodepth_repeats"  # direct=1, ~1 loop read a read
NERDST = "r20_nerdst_nvme-p7_4k-randread_qd"  # a drive, ~1 device read a read
U_SEQBS = "r21_here-uringbuf_loop-pagecache_iouring_buffered_seqread_qd4_bs_repeats"  # direct not recorded


@functools.lru_cache(maxsize=None)
def _fit(case_id):
    return fit_case_id(case_id)


def _points(case_id) -> pd.DataFrame:
    return pd.read_csv(CORPUS / case_id / "points.csv")


def _kind(case_id, kind) -> list[dict]:
    return [c for c in _fit(case_id).claims() if c["kind"] == kind]


def _ratio(p: pd.DataFrame, size: float | None = None) -> np.ndarray:
    r = p[p["direction"] == "read"]
    if size is not None:
        r = r[r["block_size_bytes"] == size]
    g = r.groupby("source_path").agg(dev=("disk_read_ios", "first"), ios=("ios", "sum"))
    return (g["dev"] / g["ios"]).to_numpy(float)


# ---------------------------------------------------------------------------------------------- XB
def test_memcg_random_page_reads_missed_the_cache():
    for case in (M_BS, M_NJ):
        r = _ratio(_points(case), 4096.0)
        assert r.min() >= MISSED_MIN  # every run's requests ≥ its reads: the rule's premise, from the table
        (layer,) = _kind(case, "layer")
        text = layer["text"]
        assert f"{r.min():.2f}–{r.max():.2f} requests per fio read of one page" in text
        assert "missed the page cache and went to loop0" in text
        assert "which served it is not shown" not in text
        assert layer["facts"]["layer"] == "loop"  # the tag follows the words: not "page_cache"
    # bs: above a page the words keep their hedge, said of those sizes only
    text = _kind(M_BS, "layer")[0]["text"]
    assert "at 4 KiB" in text and "above a page fio counts requests, not bytes" in text
    # numjobs: every point is one page, so no hedge is left
    assert "requests, not bytes" not in _kind(M_NJ, "layer")[0]["text"]


def test_no_not_shown_beside_the_layer_sentence():
    every = " ".join(c["text"] for c in _fit(M_BS).claims())
    assert "which served it is not shown" not in every
    assert re.search(r"loop0 beneath the page cache \(buffered I/O: every page-sized read missed", every)


def test_memcg_seqread_hits_bound_from_below():
    p = _points(M_SEQ)
    r = _ratio(p, 4096.0)
    assert r.max() <= HITS_MAX
    (layer,) = _kind(M_SEQ, "layer")
    text = layer["text"]
    assert f"at least {int(np.floor(100 * (1 - r.max())))} % of fio's reads at 4 KiB were page-cache hits" in text
    assert "readahead" in text  # a sequential series
    assert layer["facts"]["layer"] == "page_cache"  # hits: the tag stays


def test_page_reads_counters():
    # between the two bounds nothing is said
    rows = pd.DataFrame({"source_path": ["a", "b"], "direction": "read", "ios": [1000, 1000],
                         "disk_read_ios": [700, 900], "block_size_bytes": 4096, "pattern": "randread"})
    assert page_reads(rows) is None
    # no page-sized run: nothing (the old hedge stands)
    rows2 = rows.assign(block_size_bytes=65536, disk_read_ios=[3000, 3000])
    assert page_reads(rows2) is None
    # one run below a miss a read: not every read missed
    rows3 = rows.assign(disk_read_ios=[1500, 990])
    assert page_reads(rows3) is None
    # a write series is not read
    assert page_reads(rows.assign(direction="write", disk_read_ios=[2000, 2000])) is None
    # a spent buffered series whose direct was not recorded (cache_hits.py's) keeps its own words
    assert "requests per fio read of one page" not in " ".join(c["text"] for c in _kind(U_SEQBS, "layer"))


# ---------------------------------------------------------------------------------------------- XD
def test_memcg_bs_cost_per_byte_from_64k():
    (cpu,) = [c for c in _kind(M_BS, "cpu") if "per byte" in c["text"]]
    text = cpu["text"]
    assert "from 64 KiB on about a constant per byte" in text
    assert "never per byte across sizes" not in text
    assert "compared per I/O below 64 KiB, per byte from it" in text
    p = _points(M_BS)
    g = p.assign(cpu=p["cpu_usr"] + p["cpu_sys"]).groupby("block_size_bytes")
    for size in (262144.0, 1048576.0):
        r = g.get_group(size)
        per = (r["bw_bytes_per_s"] / r["cpu"]).to_numpy(float) / 1e9
        assert np.all(np.abs(per / np.median(per) - 1) <= FOLLOW_TOL)
        assert f"{per.min():.3g}–{per.max():.3g} GB per CPU-second" in text
    assert "what held its CPU time below a whole CPU its figures do not show" in text
    assert "what held the rate its CPU figures do not show" not in text


def test_per_byte_counters():
    xs = np.array([4096, 16384, 65536, 262144, 1048576], float)
    # a cost per I/O (flat): no per-byte run
    assert per_byte_top(xs, np.full(5, 10e-6), range(5)) is None
    # per byte everywhere: the cost line's own words apply
    assert per_byte_top(xs, xs * 0.5e-9, range(5)) is None
    # a top that drifts more than PER_BYTE_TOL per byte: none
    drift = xs * 0.5e-9 * np.array([9, 5, 1.0, 1 + 2.5 * PER_BYTE_TOL, 1.0])
    assert per_byte_top(xs, drift, range(5)) is None
    # memcg bs's 16 KiB runs differ ×6.8 in rate but not with the CPU: where any such size fails, nothing is said
    p = _points(M_BS)
    assert follows_cpu(p, "block_size_bytes", [16384.0]) == []
    assert len(follows_cpu(p, "block_size_bytes", [262144.0, 1048576.0])) == 2
    # several jobs: one job's share of one CPU is not the group's
    assert follows_cpu(p.assign(numjobs=2), "block_size_bytes", [1048576.0]) == []

