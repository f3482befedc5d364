"""Round 32's block-size classes WA, WB, VB, UC and VC (``_blind_rounds/round32_hand_read_part{1,2,3}.md``), read
before the rules these tests hold were set (docs/fitting.md names them). Round 32 is spent: its cases are fitted
here, with earlier spent cases and labelled synthetic tables as counter-cases.

- WA: one I/O outstanding (iodepth × numjobs = 1, both stated) and no latency: 1 ÷ IOPS is one request's time, read by
  the one-depth guard, not "an IOPS cap … measured". Counter: r27 EBS QD16×16 (a per-I/O limit at 256 outstanding),
  fio's pace (here_rateiops_loop_bs), numjobs missing (the outstanding count unknown).
- WB: "still rises" kept beside an IOPS stretch at the small sizes. Counter: an IOPS level flat to the last size.
- VB: a one-size dip beyond the ±25 % a one-run step allows, back at the next size. Counter: a fall that does not
  recover; a step inside ±25 %.
- UC: a one-run fall of bytes/s along block size read from the steps. Counter: a smooth rise; a small dip.
- VC: the fixed time per request at one outstanding beside a byte level.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.size_dip import one_size_dips
from nvmemodel.fitting.size_regime import regime_fall
from tests.fitting.corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

RANDREAD = "r32_ssdinternal_multipass-mac-vda-ext4_sync-direct-randread_bs"
SEQREAD = "r32_ssdinternal_multipass-mac-vda-ext4_sync-direct-seqread_bs"
HDD_W = "r32_bian-perc-hdd_psync-direct-1job_seqwrite_bs"
HDD_R = "r32_bian-perc-hdd_psync-direct-1job_seqread_bs"
OPTANE = "r32_optanestudy8_optane-dcpmm-6x-interleaved_lattester-randread_access-size"
EBS = "r27_miztiik_aws-ebs-gp3-16000iops-1000mibs_randwrite_qd16x16_bs"
PACED = "here_rateiops_loop_bs"

_CACHE: dict = {}
K = 1024
SIZES = [4 * K * 2 ** k for k in range(9)]
RAND_IOPS = [2170, 2050, 2057, 1874, 1678, 1228, 973, 591, 613]  # labelled: C's shape, one sync job


def _claims(case):
    if case not in _CACHE:
        _CACHE[case] = fit_case_id(case).claims()
    return _CACHE[case]


def _kind(claims, kind):
    (c,) = [c for c in claims if c["kind"] == kind]
    return c["text"]


def _fit(rows, y="bw_bytes_per_s"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x="block_size_bytes", y=y).claims()


def _rows(iops, **kw):
    return [{"block_size_bytes": b, "iops": i, "bw_bytes_per_s": i * b, **kw} for b, i in zip(SIZES, iops)]


# ---------------------------------------------------------------------------------------------------------- WA
def test_one_request_time_not_a_cap_r32():
    text = _kind(_claims(RANDREAD), "cap")
    assert "an IOPS cap" not in text, text
    assert "all at 1 I/O outstanding: one request at a time took 460 µs–488 µs (1 ÷ IOPS" in text, text
    assert "not shown to be a cap" in text and "that time holds over" not in text, text  # ×4 the size only


def test_one_request_time_wide_span_is_per_io_time():
    iops = [2170, 2050, 2100, 2080, 2120, 2000, 973, 591, 613]  # flat over 4–128 KiB, ×32 the size
    text = _kind(_fit(_rows(iops, iodepth=1, numjobs=1, ioengine="sync")), "cap")
    assert "that time holds over ×32 the size: a per-I/O time the bytes do not add to" in text, text


def test_one_request_time_needs_numjobs_stated():
    text = _kind(_fit(_rows(RAND_IOPS, iodepth=1, ioengine="sync")), "cap")
    assert "one request at a time" not in text, text


@pytest.mark.parametrize("case, words", [(EBS, "an IOPS limit of 16.65 K IOPS"), (PACED, "fio's pace, not a cap")])
def test_one_request_time_counter_cases(case, words):
    text = _kind(_claims(case), "cap")
    assert words in text and "one request at a time" not in text, text


# ---------------------------------------------------------------------------------------------------------- WB
def test_still_rises_kept_beside_small_size_iops_stretch_r32():
    text = _kind(_claims(RANDREAD), "rising")
    assert "0.31 GB/s (0.289 GiB/s) at 512 KiB → 0.643 GB/s (0.599 GiB/s) at 1 MiB (+107%" in text, text


def test_no_still_rises_where_iops_flat_to_the_last_size():
    claims = _fit(_rows([5000, 5050, 4980, 5020, 4990, 5010, 5000, 4970, 5030], iodepth=32, numjobs=1))
    assert not [c for c in claims if c["kind"] == "rising"], claims
    assert "from 4 KiB to 1 MiB" in _kind(claims, "cap")


# ---------------------------------------------------------------------------------------------------------- VB
def test_one_size_dip_named_r32():
    w = _kind(_claims(HDD_W), "cap")
    assert "Bandwidth dips 26% at 4 MiB (0.105 GB/s (0.0977 GiB/s) at 1 MiB → 77.3 MB/s (73.7 MiB/s) → 98.4 MB/s" in w, w
    r = _kind(_claims(HDD_R), "cap")
    assert "Bandwidth dips 40% at 4 MiB (99.5 MB/s (94.9 MiB/s) at 1 MiB → 60 MB/s" in r, r
    assert "reaches it between 16 MiB and 32 MiB" in r, r  # the level's start stays (1 MiB is 85 % of it)


def test_one_size_dip_counter_cases():
    b = np.array(SIZES, float)
    one = [0] * b.size
    no_back = [1e8, 1.8e8, 3e8, 4.5e8, 6e8, 6.2e8, 3e8, 2.9e8, 3.05e8]  # falls and holds: no dip
    small = [1e8, 1.8e8, 3e8, 4.5e8, 6e8, 5.5e8, 6.2e8, 6.4e8, 6.5e8]  # −8 %: inside a one-run step
    assert one_size_dips(b, no_back, one) == [] and one_size_dips(b, small, one) == []
    dip = [1e8, 1.8e8, 3e8, 4.5e8, 6e8, 4e8, 6.1e8, 6.4e8, 6.5e8]
    (d,) = one_size_dips(b, dip, one)
    assert d["x"] == 128 * K and d["fall"] == pytest.approx(-1 / 3)
    assert one_size_dips(b, dip, [3] * b.size) == []  # repeats tell the noise: other rules speak


# ---------------------------------------------------------------------------------------------------------- UC
def test_one_run_fall_read_from_the_steps_r32():
    claims = _claims(OPTANE)
    assert not [c for c in claims if c["kind"] == "unknown noise"], claims
    text = _kind(claims, "falls")
    assert "34.5 GB/s (32.2 GiB/s)–35 GB/s (32.6 GiB/s) from 256 B to 512 B" in text, text
    assert "then drops 51% in one step to 17 GB/s (15.8 GiB/s) at 1 KiB" in text, text
    assert "climbs back to 32.5 GB/s (30.3 GiB/s) at 16 KiB, 7% under" in text, text


def test_one_run_fall_counter_cases():
    b = np.array(SIZES, float)
    assert regime_fall(b, [1e8, 1.8e8, 3e8, 4.5e8, 6e8, 7e8, 7.6e8, 8e8, 8.3e8]) is None  # smooth rise
    assert regime_fall(b, [1e8, 1.8e8, 3e8, 4.5e8, 6e8, 5.5e8, 6.2e8, 6.4e8, 6.5e8]) is None  # −8 %
    claims = _fit([{"block_size_bytes": x, "bw_bytes_per_s": v}
                   for x, v in zip(SIZES, [1e8, 1.8e8, 3e8, 4.5e8, 6e8, 7e8, 7.6e8, 8e8, 8.3e8])])
    assert not [c for c in claims if c["kind"] == "falls"], claims


# ---------------------------------------------------------------------------------------------------------- VC
def test_fixed_time_per_request_at_one_outstanding_r32():
    r = _kind(_claims(HDD_R), "cap")
    assert "beyond its bytes at 0.117 GB/s (0.109 GiB/s) (the level's top) is at most 2.57 ms, 0.9% of it" in r, r
    w = _kind(_claims(HDD_W), "cap")
    assert "is at most 58.6 ms, 5.6% of it" in w, w


def test_no_fixed_time_at_depth():
    claims = _fit(_rows([50000, 49000, 50500, 30000, 15000, 7600, 3800, 1900, 950], iodepth=32, numjobs=1))
    assert "beyond its bytes" not in _kind(claims, "cap")


@pytest.mark.parametrize("case", ["r6_here_tmpfs_psync_zipf_bs_repeats", "r2_here_pagecache_write_bs"])
def test_no_fixed_time_for_a_memory_copy_level(case):
    assert not [c for c in _claims(case) if "beyond its bytes" in c["text"]]
