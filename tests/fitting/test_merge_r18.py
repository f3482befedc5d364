"""Round 18's QC: fio's I/Os against the device's I/Os in fio's own disk statistics (nvmemodel.fitting.merges).

r18_msf2fsbench 512lbaf 1zone qd: 95 fio writes per nvme0n2 write from iodepth 256 (merged zone writes), unread
while the explanation read 252 K "IOPS"; r18_msf2fsbench 4klbaf zones-numjobs: 5.29 → 0.97 fio writes per device
write while fio's rate fell 43 %. Counters: here-measured libaio and psync runs with about one fio I/O per device
I/O, buffered reads whose read-ahead gives 36 per device read (the page cache, not the block layer), a stack of
two devices, and QD1 writes at 0.75. The assertions recompute from the table what the words claim; no value is
pinned.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.merges import MERGED, merge_facts

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

ONE_ZONE = "r18_msf2fsbench_zn540-zns-512lbaf_4k-seqwrite_iouring-sqpoll_1zone_qd"
ZONES = "r18_msf2fsbench_zn540-zns-4klbaf_4k-seqwrite_iouring-sqpoll_qd16_zones-numjobs"
QD1 = "r18_msf2fsbench_zn540-zns-512lbaf_4k-seqwrite_iouring-sqpoll_qd1_zones-numjobs"
HERE = ["r18_here-stack2_loop-on-ext4-on-loop_libaio_randread_iodepth_repeats",
        "r18_here-stack2_loop-on-ext4-on-loop_psync_randread_numjobs_repeats"]
BUFFERED = "r14_here-ra_loop-ra128k_psync_buffered_seqread_bs_repeats"


def _fact(r):
    return curve_facts(r, next(iter(r.fits))).merged


def _ratios(table, direction):
    """fio's I/Os ÷ the device's count, per report, straight from the table."""
    t = table[table["direction"] == direction]
    g = t.groupby("source_path")
    return g["ios"].sum() / g[f"disk_{direction}_ios"].first().astype(float)


def test_merged_writes_are_said_with_the_devices_count_size_and_rate():
    r = fit_case_id(ONE_ZONE)
    t = r.table
    ratio = _ratios(t, "write")
    assert ratio.max() > MERGED and ratio.min() < 1  # the premise: merged at depth, not at QD1
    m = _fact(r).facts
    assert np.isclose(max(m["ratio"]), ratio.max()) and m["merged"] == int((ratio > MERGED).sum())
    k = m["most"]
    row = t[np.isclose(t["iodepth"].astype(float), m["x"][k])].iloc[0]
    size = row["io_bytes"] / row["disk_write_ios"]
    rate = row["disk_write_ios"] / row["runtime_s"]
    assert np.isclose(m["device_size_lo"][k], size) and np.isclose(m["device_rate_hi"][k], rate)
    text = r.explain()
    first = t.loc[t["iodepth"].astype(float).idxmin()]
    assert f"fio writes per device write {first['ios'] / first['disk_write_ios']:.3g} at iodepth = 1," in text
    assert f"{ratio.max():.3g} at iodepth = {m['x'][k]:.0f} (the most)" in text
    assert f"at least {size / 1024:.3g} KiB of fio's data each" in text
    assert f"at most {rate / 1e3:.3g} K device writes/s" in text
    assert "the IOPS measured count fio's 4 KiB writes, not the device's" in text
    assert "ramp_time included" in text and "lower bounds" in text  # fio's counters start before the ramp


def test_a_fall_says_whether_the_device_writes_rose_or_fell():
    r = fit_case_id(ZONES)
    t = r.table.sort_values("numjobs")
    peak, last = t.loc[t["iops"].idxmax()], t.iloc[-1]
    dev = (float(peak["disk_write_ios"]), float(last["disk_write_ios"]))
    fio = (float(peak["ios"]), float(last["ios"]))
    assert fio[1] < fio[0] and dev[1] > dev[0]  # the premise: fio's writes fell, the device's rose
    assert peak["runtime_s"] == last["runtime_s"]
    text = r.explain()
    assert (f"fio's writes fell {1 - fio[1] / fio[0]:.0%} a run" in text
            and f"while the device's rose ×{dev[1] / dev[0]:.3g}" in text)
    assert f"fio writes per device write {fio[0] / dev[0]:.3g} → {fio[1] / dev[1]:.3g}" in text
    assert "the fall came with less merging, not with fewer device writes" in text


@pytest.mark.parametrize("case", HERE)
def test_about_one_fio_io_per_device_io_says_nothing(case):
    r = fit_case_id(case)
    ratio = _ratios(r.table, "read")
    assert ratio.between(0.5, 1.1).all()  # the premise: here-measured loop1 runs, ~1 read per device read
    assert _fact(r) is None and "per device read" not in r.explain()


def test_buffered_reads_are_not_read_as_merging():
    r = fit_case_id(BUFFERED)
    assert _ratios(r.table, "read").max() > 10 * MERGED  # read-ahead: many fio reads per device read
    assert (~r.table["direct"].astype(bool)).all()
    assert _fact(r) is None and "per device read" not in r.explain()


def test_qd1_writes_and_a_stack_of_devices_say_nothing():
    r = fit_case_id(QD1)
    assert (_ratios(r.table, "write") < MERGED).all() and _fact(r) is None
    one = fit_case_id(ONE_ZONE)
    cf = curve_facts(one, next(iter(one.fits)))
    rows = one.table.assign(devices="dm-0;nvme0n2")  # each request counted once per layer: no one device
    assert merge_facts(rows, cf.points, "onset") is None
    assert merge_facts(one.table, cf.points, "onset") is not None
    mixed = pd.concat([one.table, one.table.iloc[:1].assign(direction="read")])  # two directions: not compared
    assert merge_facts(mixed, cf.points, "onset") is None
