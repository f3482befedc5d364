"""Round 28's layer and multi-curve classes (``_blind_rounds/round28_hand_read_part2.md`` KB, ``_part3.md`` LB and
LE's OIO-1 part, ``_part4.md`` MD, MF, MJ), on the spent r28 cases and counter-cases (other spent cases, seeded
synthetic rows):

- KB: a network engine's servers are placed only where the rows say (same node → loopback, the node's CPUs, memory
  and drives shared); replication is named only for writes.
- LB: equal levels of ``by=`` curves that are clients (hostname, VM) are "that much each, the sum together — per
  client or one limit split evenly, not told apart"; curves of settings of one device keep "a limit they share".
- LE: a first load step that gains more than the load names the lightest load's longer time per I/O.
- MD: fio's disk_util is set against the share of the device's counted I/O that was fio's own before a run is called
  idle, point by point.
- MF: flushed buffered writes name the device's kind (vda: a virtio disk).
- MJ: buffered writes with ≈ 0 context switches and a mean latency below any device's: taken in memory.
"""

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.busy_window import WINDOW_SLACK, busy_window
from nvmemodel.fitting.cluster_site import rates_words, site
from nvmemodel.fitting.concurrent_curves import identity_by
from nvmemodel.fitting.memory_writes import memory_writes
from tests.fitting.corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

CBT_READ = "r28_cbtjake_ceph-rbd-3way-8osd-1node-16vols_randread-peak-over-qd_bs"
CBT_WRITE = "r28_cbtjake_ceph-rbd-3way-8osd-1node-16vols_randwrite-peak-over-qd_bs"
CEPHVN = "r21_cephvn_rbd-3hdd-osd-rep3_4k-randwrite_qd"
BY_VM = "r28_vspherediskspd_win2022-vm-datastore_64k-randread-2threads_oio_by-vm"
BY_PATTERN = "r25_vktest_unnamed-volume-200iops_4k-randread-randwrite_libaio_qd_by-pattern"
VDAWRITE = "r28_here-vdawrite_vda-ext4-512mfile_libaio-direct_randwrite4k_iodepth_repeats"
XFSUNW = "r27_here-xfsunwritten_xfs-on-loop-tmpfs-fallocated4g_libaio-direct_randwrite4k_iodepth_repeats"
VDAFSYNC = "r28_here-vdafsync_vda-ext4-32mfile-per-job_psync-buffered-fsync1_randwrite4k_numjobs_repeats"
OVERLAY = "r28_here-overlaycopyup_overlayfs-tmpfs-256mfile-per-job-fresh-per-run_psync_randwrite4k_numjobs_repeats"
BTRFS = "r28_here-btrfszstd_btrfs-compress-force-zstd3-on-loop-tmpfs_psync-buffered-endfsync_seqwrite128k-compress50_numjobs_repeats"


def _text(case, kind):
    r = fit_case_id(case)
    return [c["text"] for c in r.claims() if c["kind"] == kind]


# --- KB ---------------------------------------------------------------------------------------------------------

def test_cbt_read_on_one_node_is_loopback_and_names_no_replication():
    (t,) = _text(CBT_READ, "layer")
    assert "on this same node, over loopback" in t
    assert "share this node's CPUs, memory and drives" in t
    assert "primary OSD alone" in t
    assert "network between" not in t and "not a drive of this host" not in t
    assert "the replication" not in t and "replicated write" not in t


def test_cbt_write_on_one_node_names_the_replication():
    (t,) = _text(CBT_WRITE, "layer")
    assert "over loopback" in t and "a replicated write completes once every replica's OSD has it" in t
    assert "the replication set them" in t and "network between" not in t


def test_rbd_without_a_site_says_the_files_do_not_say():
    """Counter: r21 cephvn (three HDD OSDs, no host name that places them): no loopback, no "network between"."""
    (t,) = _text(CEPHVN, "layer")
    assert "where the OSDs ran (this host or others) the files do not say" in t
    assert "loopback" not in t and "network between" not in t
    assert "a replicated write completes" in t  # writes: the replication stays


def test_site_reads_only_what_the_rows_say():
    assert site(pd.DataFrame({"hostname": ["server1"]})) is None  # a bare host name places nothing
    assert site(pd.DataFrame({"hostname": ["server1 (client and 8 OSDs on one node)"]})) == "same_node"
    assert site(pd.DataFrame({"target_names": ["pool rbd on remote hosts"]})) == "elsewhere"
    assert site(pd.DataFrame({"target_names": ["rbd/img", "localhost:6789"]})) == "same_node"
    assert "network between" in rates_words("rbd", "elsewhere", ["write"])
    assert "replication" not in rates_words("rbd", None, ["read"]).replace("replication costs only writes", "")


# --- LB ---------------------------------------------------------------------------------------------------------

def test_two_vms_at_one_level_are_not_told_a_shared_limit():
    r = fit_case_id(BY_VM)
    text = r.explain()
    assert "a limit they share does" not in text
    assert "that much each, 199.97 K IOPS together" in text
    assert "these curves do not tell which" in text


def test_curves_of_one_device_keep_the_shared_limit():
    """Counter: by=pattern (reads and writes of one volume) at one level: a cap they share."""
    r = fit_case_id(BY_PATTERN)
    assert "a limit they share does" in r.explain()


def test_identity_by_only_for_client_keys():
    class R:
        by = ["hostname"]
    assert identity_by(R)
    for key in (["ioengine"], ["block_size_bytes"], ["pattern"], ["hostname", "ioengine"]):
        R.by = key
        assert not identity_by(R)


# --- LE (the OIO-1 part) ----------------------------------------------------------------------------------------

def test_first_step_above_the_load_names_the_lightest_loads_time():
    texts = _text(BY_VM, "saturation")
    assert len(texts) == 2
    assert "The first step gained ×2.45 for ×2 the iodepth" in texts[0]
    assert "took 159 µs on average, longer than at 2 (129 µs)" in texts[0]


def test_first_step_at_or_below_the_load_says_nothing():
    """Counter: vdawrite's first step gained +68 % for ×2 the depth."""
    assert not any("The first step gained" in t for t in _text(VDAWRITE, "saturation"))


# --- MD ---------------------------------------------------------------------------------------------------------

def test_vdawrite_deep_runs_are_not_called_idle():
    (t,) = _text(VDAWRITE, "layer")
    assert "idle part of every run" not in t
    assert "fio's own I/Os were 81–91 % of those vda counted" in t
    assert "at iodepth = 16 the busy share reaches that share" in t
    assert "at iodepth = 1–8 it is below it, so vda was idle between requests there" in t
    assert "at iodepth = 32 some runs' share is below it" in t  # run 2 at 66 %


def test_loop_well_below_its_window_stays_idle():
    """Counter: r27 xfsunwritten's loop0 at 34–76 %, 7–13 points below its runs' I/O share."""
    (t,) = _text(XFSUNW, "layer")
    assert "idle part of every run, so the layer alone did not hold the rate" in t


def _busy_rows(util, dev_ios, direct=True):
    """SYNTHETIC: one device, one write row per run, 100 000 fio writes a run."""
    n = len(util)
    return pd.DataFrame({"devices": ["vdb"] * n, "disk_util_pct": [str(u) for u in util], "ios": [1e5] * n,
                         "disk_write_ios": dev_ios, "direction": ["write"] * n, "iodepth": list(range(1, n + 1)),
                         "direct": [direct] * n})


def test_busy_window_rules():
    busy = {"lo": 0.5, "hi": 0.9, "idle": True, "busy_last": False}
    w = busy_window(_busy_rows([60, 80, 84], [1.2e5] * 3), ["vdb"], "iodepth", busy)
    assert w["idle_x"] == [1.0] and w["busy_x"] == [2.0, 3.0]  # 1/1.2 = 0.833: 80 % is within WINDOW_SLACK
    assert abs(w["io_share"][0] - 1 / 1.2) < 1e-9 and WINDOW_SLACK == 0.05
    # buffered rows, a split (≥ 1.5 device I/Os a fio I/O) or a merge (fewer) tell nothing
    assert busy_window(_busy_rows([60, 80, 84], [1.2e5] * 3, direct=False), ["vdb"], "iodepth", busy) is None
    assert busy_window(_busy_rows([60, 80, 84], [1.6e5] * 3), ["vdb"], "iodepth", busy) is None
    assert busy_window(_busy_rows([60, 80, 84], [0.5e5] * 3), ["vdb"], "iodepth", busy) is None
    assert busy_window(_busy_rows([60, 80], [1.2e5] * 2), ["vdb", "vdc"], "iodepth", busy) is None


# --- MF, MJ -----------------------------------------------------------------------------------------------------

def test_flushed_buffered_writes_name_the_virtio_disk():
    (t,) = _text(VDAFSYNC, "layer")
    assert "each waited for vda, a virtio disk inside a virtual machine (the hypervisor's storage layer)" in t
    assert "vda was 63%–94% busy" in t
    assert "no write waited" not in t  # flushed: never "in memory"


def test_writes_that_never_slept_are_taken_in_memory():
    (t,) = _text(OVERLAY, "layer")
    assert "no write waited" in t and "at most 0.00065 context switches per write" in t
    assert "1.83 µs–4.98 µs" in t and "the page cache took the writes in memory" in t


def test_writes_that_slept_are_not_memory():
    """Counter: btrfszstd's writes switched ~0.55 times a write (compression, end_fsync): no memory sentence."""
    (t,) = _text(BTRFS, "layer")
    assert "no write waited" not in t


def test_memory_writes_counters_synthetic():
    """SYNTHETIC (seeded): buffered 4 KiB writes, ctx per write and latency varied."""
    rng = np.random.default_rng(28)

    def rows(ctx_per, lat, fsync=None):
        n = 3
        ios = 1e6 * (1 + 0.01 * rng.standard_normal(n))
        return pd.DataFrame({"source_path": [f"s/r{i}.json" for i in range(n)], "direction": ["write"] * n,
                             "ios": ios, "ctx": ios * ctx_per, "lat_mean_s": [lat] * n, "numjobs": [1] * n,
                             "fsync_every": [fsync] * n, "runtime_s": [5.0] * n})

    assert memory_writes(rows(0.0005, 2e-6)) is not None
    assert memory_writes(rows(1.0, 2e-6)) is None  # slept once a write
    assert memory_writes(rows(0.0005, 20e-6)) is None  # a device's time
    assert memory_writes(rows(0.0005, 2e-6, fsync=1)) is None  # flushed


@pytest.mark.parametrize("case", ["here_loop_numjobs", "r16_spdkissues_nvme_4k-randread_perf-aio_qd"])
def test_first_step_counters(case):
    """Counters: ×4.68 for ×2 (the super-linear claim's, said once there); ×2.01 at an unchanged latency (noise)."""
    r = fit_case_id(case)
    assert "The first step gained" not in r.explain()
