"""Round 19's class TF (``_blind_rounds/round19_hand_read_part2.md``): fio's disk statistics named the device under test
with every count 0 ("nvme1n3: ios=0/0 … util=0.00%") while fio did thousands of I/Os, and nothing was said. Rule
(``disk_counts.uncounted``): a device named in every run with 0 reads and 0 writes while fio's own count is above 0 —
reads or writes, no run stating buffered I/O — is said as "did not pass a block device whose counters fio could read",
naming the kinds that give it and none of them as the cause. Counters: trims (fio's counts leave them out), a series
whose device counted its I/O, and buffered runs (the page cache can absorb every I/O). Round 19 is spent.
"""

from __future__ import annotations

import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.disk_counts import uncounted
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore")

LSVD = ["r19_lsvdrbd_nvmetcp-spdk-rbd-3hdd_4k-randread_iouring_qd", "r19_lsvdrbd_nvmetcp-spdk-rbd-3ssd_4k-randwrite_iouring_qd",
        "r19_lsvdrbd_nvmetcp-spdk-brd-ramdisk_4k-randread_iouring_qd"]
TRIM = "r11_here-trim_loop_psync_randtrim_bs_repeats"
MMAP = "r19_here-mmapw_ext4-on-loop_mmap_randwrite_numjobs_repeats"


def _layer(fit):
    return [c for c in fit.claims() if c["kind"] == "layer"]


@pytest.mark.parametrize("case_id", LSVD)
def test_tf_empty_counters_of_the_device_under_test_are_said(case_id):
    fit = cs.fit_case_id(case_id, "blind19")
    t = fit.table
    ios = t.groupby("source_path")["ios"].sum()
    assert (t["disk_read_ios"] == 0).all() and (t["disk_write_ios"] == 0).all() and (ios > 0).all()
    said = [c for c in _layer(fit) if "count no I/O" in c["text"]]
    assert len(said) == 1, [c["text"] for c in fit.claims()]
    text, f = said[0]["text"], said[0]["facts"]
    dev = t["devices"].iloc[0]
    assert f"fio's disk statistics name {dev} but count no I/O on it in every one of the {len(ios)} runs" in text
    assert list(f["uncounted"]["fio_ios"]) == [ios.min(), ios.max()]
    assert "did not pass a block device whose counters fio could read" in text and "do not say which" in text
    # never a guess: no layer named in the facts, no Ceph or RBD in the words (only the case's file name says so)
    assert f["layer"] is None and "rbd" not in text.lower() and "ceph" not in text.lower()
    # fio's normal output states no direct: the page cache is left open, as the files leave it
    assert "direct is not recorded" in text


def test_tf_counter_trims_are_not_in_fio_s_read_and_write_counts():
    fit = cs.fit_case_id(TRIM, "blind11")
    t = fit.table
    assert (t["direction"] == "trim").all() and (t["disk_read_ios"] == 0).all() and (t["disk_write_ios"] == 0).all()
    assert not any("count no I/O" in c["text"] for c in fit.claims())


def test_tf_counter_a_device_that_counted_its_i_o():
    fit = cs.fit_case_id(MMAP, "blind19")
    assert (fit.table["disk_read_ios"].fillna(0) + fit.table["disk_write_ios"].fillna(0) > 0).all()
    assert not any("count no I/O" in c["text"] for c in fit.claims())


def _rows(direct):
    return pd.DataFrame({"source_path": [f"qd{q}.json" for q in (1, 2, 4, 8)], "iodepth": [1, 2, 4, 8],
                         "numjobs": 1, "direction": "read", "ios": [1e4, 2e4, 4e4, 5e4], "devices": "nvme0n1",
                         "disk_read_ios": 0, "disk_write_ios": 0, "direct": direct,
                         "iops": [1e4, 2e4, 4e4, 5e4], "lat_mean_s": [100e-6, 100e-6, 100e-6, 160e-6]})


def test_tf_direct_io_with_empty_counters_says_so_without_the_page_cache():
    rows = _rows(True)
    u = uncounted(rows)
    assert u == {"devices": ["nvme0n1"], "runs": 4, "fio_ios": (1e4, 5e4), "direct": True}
    text = " ".join(c["text"] for c in nm.fit(rows, x="iodepth", y="iops").claims() if c["kind"] == "layer")
    assert "count no I/O on it" in text and "page cache" not in text, text


def test_tf_counter_buffered_runs_say_nothing():
    # direct=0: a read the page cache served never reaches the device: empty counts prove no bypass
    assert uncounted(_rows(False)) is None
    text = " ".join(c["text"] for c in nm.fit(_rows(False), x="iodepth", y="iops").claims())
    assert "count no I/O" not in text
