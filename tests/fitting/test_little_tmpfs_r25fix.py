"""Round 24 part 2's CH and CF (tests/data/explain_corpus/_blind_rounds/round24_hand_read_part2.md), fixed after
round 24 was read: Little's law worded as what it proves — fio kept the I/O asked for outstanding — and never as I/O "in flight"
at a device the disk counters show idle (CH); buffered files under /dev/shm or /run with no block device in fio's disk
statistics said to be served from memory (tmpfs pages), not "what lay beneath the page cache is unknown" (CF).
Spent cases assert the new words; counter-cases (a file system mounted under /dev/shm over loop0, a buffered table with
no path, a synthetic /tmp path) assert the rule does not fire."""

from __future__ import annotations

import pandas as pd
import pytest

from nvmemodel.fitting.buffered import buffered_fact, buffered_sentence
from nvmemodel.fitting.tmpfs_paths import tmpfs_dir

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

POSIXAIO = "r24_here-posixaio_loop_posixaio_randread_qd8_numjobs_repeats"
ZRAMURING = "r24_here-zramuring_zram-lz4-comp50_iouring_randread_iodepth_repeats"
SPLICENJ = "r24_here-splicenj_tmpfs_splice_randread64k_numjobs_repeats"
SPLICERW = "r24_here-splicerw_tmpfs_splice_randrw64k_qd1_readshare_repeats"
EXT4_UNDER_SHM = "r15_here-ext4_ext4-on-loop_psync_nrfiles32_randread_numjobs_repeats"


@pytest.mark.parametrize("case", [POSIXAIO, ZRAMURING])
def test_ch_little_says_what_it_proves(case):
    # posixaio: 8 reads outstanding a job (Little 0.99–1.00) with loop0 39–80 % busy; zramuring: reads waiting for one
    # io-wq worker. Little's law proves fio's outstanding count, not the device's queue
    text = fit_case_id(case).explain()
    assert "consistent (fio kept the I/O asked for outstanding)" in text
    assert "the I/O asked for was in flight" not in text
    assert "asked for in flight" not in text


def test_ch_numbers_unchanged_on_posixaio():
    text = fit_case_id(POSIXAIO).explain()
    assert "per run = 0.99–1.00" in text  # the hand read: 0.994–1.004
    assert "loop0 39–80 % busy" in text or "39–80" in text  # the layer sentence keeps the device's idle share


@pytest.mark.parametrize("case", [SPLICENJ, SPLICERW])
def test_cf_dev_shm_files_served_from_memory(case):
    text = fit_case_id(case).explain()
    assert ("the files lie under /dev/shm, which Linux mounts as tmpfs, and fio's disk statistics name no block "
            "device beneath them: served from memory (tmpfs pages)") in text
    assert "what lay beneath the page cache is unknown" not in text


def test_cf_counter_file_system_mounted_under_dev_shm():
    # counter (spent, round 15): ext4 on loop0 mounted at /dev/shm/g14c_mnt.*: the path is under /dev/shm, but fio
    # names loop0 beneath it — the device facts speak, not the path
    text = fit_case_id(EXT4_UNDER_SHM).explain()
    assert "mounts as tmpfs" not in text and "tmpfs pages" not in text
    assert "loop0" in text


def _rows(paths, devices=""):
    """SYNTHETIC: buffered read runs, one file each, no disk statistics."""
    return pd.DataFrame([{"source_path": f"s/r{i}.json", "format": "fio-json", "direction": "read", "direct": False,
                          "devices": devices, "target_names": p, "ios": 1000, "iops": 1e5, "numjobs": 2, "cpu_usr": 0.2,
                          "cpu_sys": 0.3} for i, p in enumerate(paths)])


def test_cf_counter_paths_not_on_tmpfs_keep_unknown():
    # counter (SYNTHETIC): /tmp may be on disk, /srv/run is not /run, and one file off /dev/shm leaves the layer of
    # that one unknown: the layer beneath stays unknown
    for paths in (["/tmp/f0", "/tmp/f1"], ["/srv/run/f0"], ["/dev/shm/f0", "/data/f1"]):
        rows = _rows(paths)
        assert tmpfs_dir(rows) is None, paths
        f = buffered_fact(rows)
        assert f["served"] == "no_device"
        assert "unknown from these files" in buffered_sentence(f)
    rows = _rows(["/run/user/0/f0", "/run/user/0/f1"])
    assert tmpfs_dir(rows) == "/run"
    assert "served from memory (tmpfs pages)" in buffered_sentence(buffered_fact(rows))
    # a missing path in one run: not every file is known to be on tmpfs
    rows = _rows(["/dev/shm/f0", None])
    assert tmpfs_dir(rows) is None
