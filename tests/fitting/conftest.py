"""Helpers for the fit tests: small results tables built the way read_results builds them."""

import pandas as pd


def table(x_name, xs, ys, *, pattern="randread", bs=4096.0, y="iops", repeats=None, extra=None):
    """A minimal results table: one final, non-aggregate read row per (x, repeat); ``ys`` in IOPS or bytes/s."""
    rows = []
    for i, (x, v) in enumerate(zip(xs, ys)):
        bs_row = float(x) if x_name == "block_size_bytes" else bs
        iops = v if y == "iops" else v / bs_row
        rows.append(dict(source_path=f"run{i}.json", group_id=0, final=True, is_aggregate=False, job_name="j",
                         direction="read", pattern=pattern, iops=iops, bw_bytes_per_s=iops * bs_row, ios=iops * 10,
                         **{"block_size_bytes": bs_row, x_name: x}, **(extra or {})))
    return pd.DataFrame(rows)
