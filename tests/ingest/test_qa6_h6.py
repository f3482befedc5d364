"""QA s25 H6: fio 2.1.11 normal output whose rounded ``bw=`` gave a block size of 8189.68 bytes for writes
whose job header says ``bs=8K-8K/8K-8K/8K-8K``; ``io=`` ÷ issued is exact to its printed digits (8192.0 B)."""

from __future__ import annotations

import math

import pytest

import nvmemodel as nm
from nvmemodel.ingest.fio_normal import _block_size

NAME = "data/real/fio_normal/oberstet_fio-2.1.11_16nvme-p3608_8k_randread-randwrite-randrw7030.txt"


@pytest.mark.shared
def test_fio_2_1_11_block_size_is_the_headers_8k_and_bandwidth_is_io_over_runtime(shared_dir):
    t = nm.read_results(shared_dir / NAME)
    assert list(t["block_size_bytes"]) == [8192.0] * 4
    w = t[(t["job_name"] == "randreadwrite7030") & (t["direction"] == "write")].iloc[0]
    # the block: "write: io=363326MB, bw=3026.1MB/s, iops=387450, runt=120030msec", issued w=46505664
    assert w["ios"] == 46505664
    assert w["bw_bytes_per_s"] == pytest.approx(363326 * 2**20 / 120.030, rel=2e-6)  # 3026.97 MiB/s, not 3026.1
    assert w["iops"] == pytest.approx(46505664 / 120.030, rel=1e-12)


def _d(bw_text_rate, io_total, rt=120.0):
    return {"runtime_s": rt, "rates": [bw_text_rate], "io_text": io_total, "binary_kb": True, "path": "x", "job": "j"}


def test_a_rounded_header_size_is_returned_where_no_round_size_fits_the_estimates():
    # 8K header (7680..8704 B); a rate that says 8100 B per I/O with an error too small to reach 8192,
    # and an io= total too coarse to help: the header's size, never 8100
    ios = 1_000_000.0
    d = _d((8100.0 * ios / 120.0, 1.0), "8GB", 120.0)
    assert _block_size((7680.0, 8704.0), d, ios) == 8192.0
    # with no header the estimate stays what was measured
    assert _block_size(None, d, ios) == pytest.approx(8100.0, rel=1e-9)
    assert not math.isnan(_block_size(None, d, ios))
