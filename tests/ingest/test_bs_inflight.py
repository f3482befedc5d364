"""fio's BW= and IOPS= differ by the I/Os in flight (real fio 3.28 run, tests/data/fio_bs_inflight): within the
job header's printed size (bs=(R) 1024KiB) that slack is the size's uncertainty, so the block size is the header's
1 MiB, not BW / IOPS rounded to a multiple of 1,000 B (1,049,000 B before the fix)."""

import pathlib
import re

from nvmemodel.ingest import read_results

DATA = pathlib.Path(__file__).parents[1] / "data" / "fio_bs_inflight"


def test_block_size_is_the_headers_despite_in_flight_slack():
    path = DATA / "fio-3.28_iouring-buffered_qd16_bs1m.normal"
    text = path.read_text()
    iops, bw_mib = (float(v) for v in re.search(r"IOPS=(\d+), BW=(\d+)MiB/s", text).groups())
    assert abs(bw_mib * 2**20 / iops - 2**20) > 2**20 * (0.5 / iops + 0.5 / bw_mib)  # the slack is in the file
    (row,) = read_results(path).to_dict("records")
    assert row["block_size_bytes"] == 2**20
    assert row["io_bytes"] == row["ios"] * 2**20
