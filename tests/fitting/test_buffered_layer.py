"""Buffered I/O (direct=0): the layer sentence says what the files show served it — the device (busy at its limit,
or every write flushed), no local device (fio lists none under the files), or unknown — never a bare "may have
served" (round 2's hand reading, class J: prakashsurya's ZFS O_SYNC writes with the disk 94–96 % busy)."""

from __future__ import annotations

import pandas as pd
import pytest

from nvmemodel.fitting.buffered import buffered_fact, buffered_sentence
from tests.fitting import corpus_score as cs


def _layer(case_id):
    fit = cs.fit_case_id(case_id)
    said = [c for c in fit.claims() if c["kind"] == "layer"]
    assert len(said) == 1, said
    return said[0]


def test_zfs_one_ssd_busy_at_its_limit_served_by_the_device():
    """points.csv's disk_busy_pct (iostat %b, transcribed from the post) runs 32 % (1 thread) to 96 %."""
    c = _layer("r2_prakashsurya_zfs-1ssd_8k-osync-write_numjobs")
    assert "32%–96% busy (disk_busy_pct in these files)" in c["text"]
    assert "the device served the I/O" in c["text"]
    assert "may have served" not in c["text"]
    assert c["facts"]["layer"] == "buffered_device"


def test_zfs_eight_ssd_pool_busy_short_of_its_limit():
    """The 8-SSD pool's disks are at most 38 % busy: the device worked; how much memory served is not shown."""
    c = _layer("r2_prakashsurya_zfs-8ssd_8k-osync-write_numjobs")
    assert "5%–38% busy" in c["text"] and "short of their limit" in c["text"]
    assert "the device served" not in c["text"]
    assert c["facts"]["served"] == "unknown"


def test_tmpfs_no_block_device_under_the_files():
    """fio's JSON lists no disk under /dev/shm: fio names no disk under btrfs, ZFS or overlayfs either (round 10, JE),
    but /dev/shm is tmpfs by where it is, so memory served the files (round 24 CF, tmpfs_paths)."""
    c = _layer("here_tmpfs_pagecache_bs")
    assert c["facts"]["served"] == "no_device" and c["facts"]["layer"] == "page_cache"
    assert c["facts"]["tmpfs"] == "/dev/shm"
    assert "no block device beneath them" in c["text"] and "served from memory (tmpfs pages)" in c["text"]
    assert "unknown from these files" not in c["text"]
    assert "no local drive" not in c["text"] and "network file system served" not in c["text"]


def test_no_evidence_is_unknown():
    """A transcribed table with direct=0 and no disk statistics: unknown, said as unknown."""
    c = _layer("r2_marcm24_sn750se-pagecache_32k-randrw5050_qd")
    assert "is unknown here" in c["text"] and "may have served" not in c["text"]
    assert c["facts"]["layer"] == "page_cache"  # the runs were buffered: the layer stays named for the reader


@pytest.mark.parametrize("fsync, served", [(1, "device"), (8, "unknown"), (None, "unknown")])
def test_every_write_flushed_is_the_device(fsync, served):
    """fsync=1 on every write run: each write waited for the device; fsync=8 does not say so."""
    rows = pd.DataFrame({"direction": ["write", "write"], "fdatasync_every": [0, 0], "devices": [None, None],
                         "fsync_every": pd.array([fsync, fsync], dtype="Int64")})  # the table's dtype: NA not echoed
    f = buffered_fact(rows)
    assert f["served"] == served
    if served == "device":
        assert "every write was flushed" in buffered_sentence(f)


def test_busy_column_as_a_share_or_percent():
    """disk_util (a share) and disk_busy_pct (percent) read alike: 0.95 and 95 are both at the limit."""
    share = buffered_fact(pd.DataFrame({"direction": ["read"], "disk_util": [0.95]}))
    pct = buffered_fact(pd.DataFrame({"direction": ["read"], "disk_busy_pct": [95.0]}))
    assert share["served"] == pct["served"] == "device"
    assert buffered_fact(pd.DataFrame({"direction": ["read"], "disk_busy_pct": [85.0]}))["served"] == "unknown"


def test_fsync_on_tmpfs_waits_for_no_device():
    """fsync=1 onto a file in /dev/shm (fio's JSON lists no disk under it): no device was waited for."""
    rows = pd.DataFrame({"direction": ["write"], "fsync_every": pd.array([1], dtype="Int64"), "format": ["fio-json"],
                         "devices": [None], "target_names": ["/dev/shm/f"]})
    assert buffered_fact(rows)["served"] == "no_device"


@pytest.mark.parametrize("case_id", ["r2_here_pagecache_write_bs", "r2_here_pagecache_write_numjobs_repeats"])
def test_page_cache_writes_without_fsync_are_not_called_flushed(case_id):
    """Buffered writes to /dev/shm with fsync not echoed (NA): not "every write was flushed" (an NA counted as 1 said
    so of both before this test), but no local device beneath (spent round 2 cases)."""
    c = _layer(case_id)
    assert "flushed" not in c["text"] and c["facts"]["served"] == "no_device"
