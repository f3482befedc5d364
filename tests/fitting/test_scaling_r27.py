"""Round 27's classes GC and GG (``_blind_rounds/round27_hand_read_part1.md``), read before the rules these tests hold
were set (docs/fitting.md names them). Round 27 is spent: its cases are fitted here.

- GC: along drives/targets the axis multiplies capacity, so linear scaling is the yardstick; bam49's +20 % a doubling
  from 4 to 6 drives was "still rises … no ceiling", while the last two drives added 1 GB/s each against 5 GB/s for one
  (linear_scaling.py). Counter-cases: a series linear to its end (r12 rocmnixl, 1–7 drives; a blkio per-device cap);
  a total that does not rise over the axis (r5 linuxraid: one fsync job over an md array of 1–1920 RAM disks).
- GG: a target described only in text as a VM guest's virtio disk, no disk statistics: no layer said
  (devices.vm_described). Counter-cases: an Azure VM's local (passed-through) NVMe; a description saying "not
  virtualised"; disk statistics that name a device.
"""
from __future__ import annotations

import pandas as pd
import pytest

from nvmemodel.fitting.devices import vm_described
from tests.fitting.corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

BAM = "r27_bam49_gpu-initiated-bam-samsung-gen4_4k-randread_drives"
PLAID = "r5_plaid_30x-p44pro_4m-read_devices"
NIXL = "r12_rocmnixl_nvme-hipfile-sync_1m-write_drives"
MDFAN = "r5_linuxraid_md-raid0-brd_4k-randwrite-fsync_devices"
PERDEV = "r5_here_blkio_perdev_iops_devcount_repeats"
CH = "r27_chvirtio_cloud-hypervisor-guest-virtio-blk_sysbench-seqrd_threads"
QEMU = "r27_chvirtio_qemu-guest-virtio-blk_sysbench-seqrd_threads"
AZURE = "r27_lisapr629_azure-vm-local-nvme_4k-randread_qd64-1024"


def _claims(case, kind):
    return [c for c in fit_case_id(case).claims() if c["kind"] == kind]


# ------------------------------------------------------------------ GC: devices against linear scaling
def test_bam49_each_added_drive_yields_a_fifth_of_one():
    """bam49: 5, 15, 18, 20 GB/s at 1, 3, 4, 6 drives = 100, 100, 90, 67 % of linear; 4 → 6 added 1 GB/s a drive."""
    (c,) = _claims(BAM, "scaling")
    assert "100% of linear at 3, 90% at 4, 67% at 6" in c["text"]
    assert "from 4 to 6 each added device yielded 1 GB/s" in c["text"]
    assert "20% of one device's 5 GB/s" in c["text"] and "although the total still rises" in c["text"]
    assert c["facts"]["verdict"] == "shared_limit" and c["facts"]["linear_to"] == 4
    assert c["facts"]["marginal_share"] == pytest.approx(0.2, abs=1e-9)


def test_plaid_linear_to_19_drives_then_a_shared_limit():
    """plaid (30 × 4 MiB readers): ≥ 93 % of linear to 19 drives, then 7 % of a drive for each of the other 11."""
    (c,) = _claims(PLAID, "scaling")
    assert c["facts"]["linear_to"] == 19 and c["facts"]["marginal_share"] < 0.10
    assert "(of 30 counts)" in c["text"] and "93% at 19, 84% at 20, 61% at 30" in c["text"]


@pytest.mark.parametrize("case", [NIXL, PERDEV])
def test_linear_to_the_end_says_linear_and_no_shared_limit(case):
    (c,) = _claims(case, "scaling")
    assert c["facts"]["verdict"] == "linear" and "scales linearly over the whole range" in c["text"]
    assert "binds" not in c["text"]


def test_a_total_that_does_not_rise_is_no_scaling_curve():
    """md RAID-0 of 1–1920 RAM disks behind one fsync=1 job: the total falls; no linear reference is read."""
    assert _claims(MDFAN, "scaling") == []


# ------------------------------------------------------------------ GG: a VM's virtual disk named only in text
@pytest.mark.parametrize("case", [CH, QEMU])
def test_virtio_guest_named_in_the_target_text_gets_a_layer(case):
    (c,) = _claims(case, "layer")
    assert "described as a virtual disk inside a VM" in c["text"] and "virtio disk inside a virtual machine" in c["text"]


def test_cloud_vm_local_nvme_is_not_a_virtual_disk():
    assert not any("virtual" in c["text"] for c in _claims(AZURE, "layer"))


@pytest.mark.parametrize("names, devices, want", [
    (["virtio-blk disk of a KVM guest"], [""], "virtio"),
    (["data disk of a Firecracker microVM guest"], [""], "vm_disk"),
    (["virtio-blk disk, host side, not virtualised"], [""], None),
    (["virtio-blk disk of a guest"], ["vda"], None),  # disk statistics decide (devices.LAYERS)
    (["local NVMe of an Azure VM"], [""], None),
    (["virtio-blk disk of a guest", None], ["", ""], None),  # a run without a description: not every run
])
def test_vm_described_needs_every_run_and_no_disk_statistics(names, devices, want):
    rows = pd.DataFrame({"target_names": names, "devices": devices})
    assert vm_described(rows) == want


# ------------------------------------------------------------------ round 29 NA, NF: regimes and above linear
RP_READ = "r29_rpiotune17261_aws-i3en-7500g-nvme-raid0_iotune-randread_drives"
RP_BW = "r29_rpiotune17261_aws-i3en-7500g-nvme-raid0_iotune-seqread-bw_drives"
BTRFS_SEQ = "r29_pbbtrfs_btrfs-raid0-hdd_256k-seqread-qd4_drives"


def test_r29_i3en_two_per_drive_rates_are_no_shared_limit():
    """NA: 243 K a drive at 1–2 drives, 137 K at 4, then ×1.97 for ×2 to 8 drives — "a limit the devices share binds"
    was contradicted by the last step; now two per-drive rates."""
    (c,) = _claims(RP_READ, "scaling")
    assert c["facts"]["verdict"] == "regimes" and "binds" not in c["text"]
    assert "×1.97 for ×2 the devices" in c["text"] and "not a limit the devices share reached" in c["text"]


def test_r29_counter_a_bending_last_step_still_binds():
    """The same runs' sequential bandwidth: 6.82 → 8.33 GB/s for 4 → 8 drives (×1.22 for ×2): a shared limit."""
    (c,) = _claims(RP_BW, "scaling")
    assert c["facts"]["verdict"] == "shared_limit"


def test_r29_above_linear_is_not_called_linear():
    """NF: btrfs RAID-0 at 128, 120, 117 % of linear was "scales linearly"."""
    (c,) = _claims(BTRFS_SEQ, "scaling")
    assert c["facts"]["verdict"] == "above_linear" and "scales linearly" not in c["text"] and "128%" in c["text"]


def test_r29_counter_plaid_wandering_plateau_is_no_regime():
    (c,) = _claims(PLAID, "scaling")
    assert c["facts"]["verdict"] == "shared_limit"


def test_r29_nc_fixed_outstanding_device_axis_is_faster_service_not_load():
    """NC: btrfs RAID-0 seqread at iodepth 4 on 1–4 disks, ×2.55 for ×2 disks: "a per-I/O cost that more outstanding
    I/O hides" where the outstanding I/O was 4 at every count; by Little's law 16.6 ms → 6.49 ms a request."""
    text = " ".join(c["text"] for c in _claims(BTRFS_SEQ, "superlinear"))
    assert "outstanding I/O stayed 4 at every count" in text and "16.6 ms at 1 to 6.49 ms at 2" in text
    assert "more outstanding I/O hides" not in text


def test_r29_nc_counter_outstanding_growing_with_devices():
    from nvmemodel.fitting.claims import _fixed_outstanding, _pts

    fit = fit_case_id("r20_here-devcount_loops_libaio_randread_qd8-per-dev_devcount_repeats")
    key = next(iter(fit.chosen))
    assert _fixed_outstanding(fit, key, _pts(fit, key)) is None  # iodepth 8 × 1–6 jobs: the load grew
