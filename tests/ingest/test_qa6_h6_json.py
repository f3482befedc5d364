"""QA s25 H6 addendum: fio 2.1.4 JSON has no ``total_ios`` and writes ``iops`` as an integer (1000 × I/Os ÷
runtime, truncated: stat.c), so I/Os estimated as ``iops × runtime`` made block sizes no job used
(525,775.34 B for PKB's 512k job, 4,102.34 B for its 4k jobs). The count within that rounding that makes the
bytes whole blocks of a round size is the count (tests/data/fio/pkb_fio-2.1.4_sample-result.json, real)."""

from __future__ import annotations

import json
import math
import pathlib
import warnings

import pytest

import nvmemodel as nm
from nvmemodel.ingest.fio_json import _count_from_iops

PKB = pathlib.Path(__file__).resolve().parents[1] / "data" / "fio" / "pkb_fio-2.1.4_sample-result.json"


def test_fio_2_1_4_block_sizes_are_the_jobs_512k_and_4k():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = nm.read_results(PKB)
    doc = json.loads(PKB.read_text())
    assert list(t["block_size_bytes"]) == [524288.0, 524288.0, 4096.0, 4096.0, 4096.0]
    # sequential_read: io_bytes 361984 KiB in 2788 ms, iops 253 -> 707 I/Os of 512 KiB (was 705: 525,775.34 B)
    read = t[t["job_name"] == "sequential_read"].iloc[0]
    assert read["ios"] == 707 and read["iops"] == pytest.approx(707 / 2.788)
    assert math.floor(read["iops"]) == doc["jobs"][1]["read"]["iops"] == 253  # fio's truncated integer
    for _, row in t.iterrows():
        assert row["io_bytes"] == row["ios"] * row["block_size_bytes"]


def test_no_round_count_in_the_rounding_keeps_the_estimate():
    # 1,000,001 bytes: no count in [iops - 1/2, iops + 1] x runtime divides it into 512-byte multiples
    assert _count_from_iops(1_000_001.0, 100.0, 1000.0) == (100.0, 100.0)
    # a float iops (fio >= 2.2 writes total_ios anyway): the estimate
    assert _count_from_iops(409600.0, 99.5, 1000.0) == (100.0, 99.5)
    assert _count_from_iops(409600.0, 99.0, 1000.0) == (100.0, 100.0)  # 100 I/Os of 4096 B in 1 s
