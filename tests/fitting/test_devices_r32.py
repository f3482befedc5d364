"""Round 32's classes VA and UA (``_blind_rounds/round32_hand_read_part2.md`` and ``…_part1.md``), read before the
rules these tests hold were set (docs/fitting.md names them). Round 32 is spent: its cases are fitted here.

- VA: along targets that are files on ONE device (device_count 1 at every run, fio's disk stats naming vda only) the
  device-count yardstick ("19% of linear at 8 … a limit the targets share binds (…, or a load that did not grow with
  the targets)") was applied; the targets are load on that device, not capacity (shared_device.py). Counter-cases:
  real device-count series (r20 devcount loops, r29 i3en RAID-0 drives, r30 scylla presets), and devices not named at
  all (r29 cephnvmeof27): the linear yardstick stays.
- UA: a memory target the files name (SPDK malloc bdev "Malloc0 (… RAM)", 6 Optane persistent-memory DIMMs) told
  "a layer above the drives (a cache, a file or network layer)" / "the files do not count the drives"
  (memory_target.py). Counter-cases: "RAM" in a drive's or an array's text, loop devices over tmpfs, real drives.
"""
from __future__ import annotations

import pandas as pd
import pytest

from nvmemodel.fitting.memory_target import memory_target
from tests.fitting import corpus_score as cs
from tests.fitting.corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

VDA = "r32_here-vdatargets_vda-ext4-128mfiles_libaio-direct_randread4k-qd8-per-file_targets_repeats"
LOOPS = "r20_here-devcount_loops_libaio_randread_qd8-per-dev_devcount_repeats"
I3EN = "r29_rpiotune17261_aws-i3en-7500g-nvme-raid0_iotune-randread_drives"
I7IE = "r30_scyllaio_aws-i7ie-7500g-raid0_iotune-randwrite_drives"
CEPH = "r29_cephnvmeof27_spdk-gw-1reactor-rbd-bdevs_client-fio_targets"
SPDK = ["r32_spdk2104_bdevperf-malloc-4k-randread-32cores_iodepth", "r32_spdk2104_bdevperf-malloc-4k-randread-64cores_iodepth",
        "r32_spdk2104_bdevperf-malloc-4k-read-32cores_iodepth", "r32_spdk2104_bdevperf-malloc-4k-read-64cores_iodepth"]
OPTANE = "r32_optanestudy8_optane-dcpmm-6x-interleaved_lattester-randread_access-size"


def _claims(case, kind):
    return [c for c in fit_case_id(case).claims() if c["kind"] == kind]


# ------------------------------------------------------------------ VA: targets on one device are load
def test_va_targets_on_one_device_are_load_not_capacity():
    """1–8 files on vda, 8 in flight a file: 63.18 → 93.51 K IOPS (means) for 8 → 64 outstanding, vda 82–97 % busy."""
    (c,) = _claims(VDA, "scaling")
    t = c["text"]
    assert c["facts"]["verdict"] == "one_device" and c["facts"]["device_count"] == 1
    assert c["facts"]["devices"] == ["vda"]
    assert c["facts"]["outstanding"] == {"1.0": 8.0, "2.0": 16.0, "4.0": 32.0, "8.0": 64.0}
    assert "All 8 targets are on one device (vda at every point)" in t
    assert "63.18 K IOPS → 93.51 K IOPS for 8 → 64 I/Os in flight" in t
    assert "+19%, +15%, +8% at the steps 1 → 2 → 4 → 8" in t
    assert "from 63.18 K IOPS to 11.69 K IOPS" in t and "vda 82–97 % busy" in t
    assert "Little's law gives 1.00 of the asked outstanding I/O" in t
    for never in ("of linear", "did not grow", "binds", "a switch", "each added target yielded"):
        assert never not in t


@pytest.mark.parametrize("case", [LOOPS, I3EN, I7IE])
def test_va_counter_a_real_device_count_keeps_the_linear_yardstick(case):
    (c,) = _claims(case, "scaling")
    assert c["facts"]["verdict"] != "one_device"
    assert c["text"].startswith("Against linear scaling from 1 ")
    assert "on one device" not in c["text"] and "not capacity" not in c["text"]


def test_va_counter_devices_not_named_claim_no_device():
    """cephnvmeof27: device_count and devices empty (NaN) at every count: no one-device reading."""
    claims = fit_case_id(CEPH).claims()
    assert not any(c["facts"].get("verdict") == "one_device" or "on one device" in c["text"] for c in claims)


def test_va_load_that_did_not_grow_only_where_little_does_not_show_it_grew():
    """r20 loops: one job a device at iodepth 8 (8 × N in flight, Little ≈ 1): the cause list drops "a load that did
    not grow"; i7ie (no latency or outstanding in the files) keeps it."""
    (loops,) = _claims(LOOPS, "scaling")
    (i7ie,) = _claims(I7IE, "scaling")
    assert "did not grow" not in loops["text"] and "a switch or the network" in loops["text"]
    assert "or a load that did not grow with the devices" in i7ie["text"]


# ------------------------------------------------------------------ UA: memory targets
@pytest.mark.parametrize("case", SPDK)
def test_ua_a_malloc_bdev_is_memory_no_drive_or_link(case):
    (c,) = _claims(case, "layer")
    t = c["text"]
    assert c["facts"]["layer"] == "memory" and c["facts"]["what"] == "an SPDK malloc bdev (RAM)"
    assert t.startswith("The target is memory — an SPDK malloc bdev (RAM), as the files name it (Malloc0")
    assert "no drive or PCIe link is in the path" in t
    for never in ("above the drives", "x4 link of", "a file or network layer", "Gen5"):
        assert never not in t


def test_ua_the_rate_a_job_at_the_peak():
    """randread-32: 37.83 M IOPS at iodepth 32 over 32 cores' jobs = 1.18 M IOPS a job."""
    (c,) = _claims(SPDK[0], "layer")
    assert "at the peak (iodepth = 32) 37.83 M IOPS over 32 jobs is 1.18 M IOPS a job" in c["text"]


def test_ua_dimms_counted_in_the_text_give_a_rate_a_dimm():
    """35.00 GB/s over the 6 interleaved DIMMs the target text names = 5.83 GB/s a DIMM."""
    (c,) = _claims(OPTANE, "layer")
    t = c["text"]
    assert c["facts"]["layer"] == "memory" and c["facts"]["modules"] == 6
    assert "persistent memory (DIMMs on the memory bus)" in t
    assert "35 GB/s (32.6 GiB/s) over the 6 DIMMs the files name is 5.83 GB/s (5.43 GiB/s) a DIMM" in t
    assert "do not count the drives" not in t and "x4 link" not in t


@pytest.mark.parametrize("target,device,what", [
    ("Malloc0 (SPDK malloc bdev: RAM)", None, "an SPDK malloc bdev (RAM)"),
    ("/dev/pmem0", "pmem0", "persistent memory (DIMMs on the memory bus)"),
    ("/dev/ram0", "ram0", "a RAM disk"),
    ("/dev/zram0", "zram0", "zram (compressed RAM)"),
    ("/dev/nullb0", "nullb0", "null_blk (no data stored)"),
    ("/dev/shm/fio.0", None, "files in memory (tmpfs/ramfs)"),
])
def test_ua_memory_kinds_from_the_files_text(target, device, what):
    rows = pd.DataFrame({"target_names": [target] * 2, "devices": [device] * 2})
    m = memory_target(rows)
    assert m is not None and m["what"] == what


@pytest.mark.parametrize("target,device", [
    ("Samsung 980 DRAM-less SSD", None),           # "RAM" in a drive's text is no memory target
    ("RAID-5 array with 4 GB RAM cache", None),
    ("/dev/nvme0n1", "nvme0n1"),
    ("/dev/loop0", "loop0"),                         # a loop device over a tmpfs file: the loop words stay
    ("/dev/ram0", "nvme0n1"),                        # memory and a drive in one set: not a memory target
])
def test_ua_counter_text_that_names_no_memory_device(target, device):
    rows = pd.DataFrame({"target_names": [target] * 2, "devices": [device] * 2})
    assert memory_target(rows) is None


def test_ua_counter_a_drive_beyond_one_link_says_not_one_drive():
    """The default beyond-link words never say "above the drives" as a fact (see test_layer_level_r15's counted
    target); a loop device over tmpfs keeps its loop words (r20 devcount loops)."""
    (c,) = _claims(LOOPS, "layer")
    assert c["facts"]["layer"] == "loop" and "The target is memory" not in c["text"]


def test_ua_scorer_reads_a_memory_layer():
    assert "memory" in cs.LAYERS
    s = cs.read_claim({"kind": "layer", "text": "The target is memory — a RAM disk, as the files name it (x).",
                       "facts": {}})
    assert s.layer == "memory"
    grade, why, _ = cs.grade_claim({"kind": "layer", "text": "The target is memory — x.", "facts": {"layer": "memory"}},
                                   None, {"layer": "none"})
    assert grade == "contradicted" and any("memory" in w for w in why)
    grade, why, _ = cs.grade_claim({"kind": "layer", "text": "The target is memory — x.", "facts": {"layer": "memory"}},
                                   None, {"layer": "memory"})
    assert grade == "supported"


@pytest.mark.parametrize("case", ["r25_spdk835_nvmf-rdma-omnipath-null-bdev_128k-read_numjobs",
                                  "r27_here-filestat_tmpfs-64files_filestat-stat_numjobs_repeats"])
def test_ua_counter_a_network_path_or_a_metadata_engine_is_no_memory_target(case):
    """An SPDK null bdev behind an NVMe-oF target over RDMA (the network may set the rate); fio's filestat engine on
    tmpfs (no data moved): neither gets the memory words."""
    assert not any(c["facts"].get("layer") == "memory" or "The target is memory" in c["text"]
                   for c in fit_case_id(case).claims())


def test_ua_a_zram_device_is_memory_and_its_limit_words_say_so():
    """r23 zram lz4 incompressible, psync QD1 along block size: the layer is memory; the one-stream sentence names
    the memory target, not "the device"."""
    claims = fit_case_id("r23_here-zramlz4_zram-lz4-incompressible_psync_randwrite_qd1_bs_repeats").claims()
    (lay,) = [c for c in claims if c["kind"] == "layer"]
    assert lay["facts"]["what"] == "zram (compressed RAM)" and "(/dev/zram1)" in lay["text"]
    assert any("not shown to be a cap of the memory target" in c["text"] for c in claims)
