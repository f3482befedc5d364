"""Round 16's hand reading (tests/data/explain_corpus/_blind_rounds/round16_hand_read_part{1,2}.md), classes WA, VE
and the CPU count's noun (VG d): each rule on the spent r16 case it was read on and on a counter-case where the old
words must stay. docs/fitting.md's claims table names round 16 as the round read before each."""

from __future__ import annotations

import pandas as pd
import pytest

from nvmemodel.fitting.devices import parallel_targets
from nvmemodel.fitting.wording import counted, cpus_words

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")


def _claims(case_id: str, kind: str | None = None) -> list[str]:
    return [c["text"] for c in fit_case_id(case_id).claims() if kind is None or c["kind"] == kind]


# ------------------------------------------ WA: a stacked device and its drive are one path, not two targets
@pytest.mark.parametrize("devices, count, want", [
    ("dm-0;nvme0n1", 2, 1),              # dm-crypt over its drive (r16 jetson LUKS): one path
    ("dm-1;dm-0;nvme0n1", 3, 1),         # LVM over dm-crypt over one drive: still one
    ("md0;sdb;sdc;sdd", 4, 3),           # an md RAID0's members are striped side by side
    ("loop0;loop1", 2, 2),               # siblings (filename=/dev/loop0:/dev/loop1, round 6 BC)
    (None, 3, 3),                        # no names: fio's own count stands
])
def test_parallel_targets_count_bottom_devices(devices, count, want):
    rows = pd.DataFrame({"targets": [1], "devices": [devices], "device_count": [count]})
    assert parallel_targets(rows) == want


def test_files_count_as_targets_whatever_the_device():
    # six files on one dm over one drive (r10 swissknife lvm ext4): the job's files are its targets
    rows = pd.DataFrame({"targets": [6], "devices": ["dm-3;nvme1n1"], "device_count": [2]})
    assert parallel_targets(rows) == 6


def test_dm_crypt_over_its_drive_is_not_two_targets_side_by_side():
    texts = _claims("r16_ssdbenchresults_jetson-nvme-luks_seqwrite-128k-10m_qd32_numjobs")
    joined = " ".join(texts)
    assert "side by side" not in joined and "a rate per target" not in joined
    assert "fio's disk statistics name dm-0 over nvme0n1" in joined
    assert "Plateau 0.21 GB/s" in joined  # the level itself is kept


def test_two_sibling_targets_keep_their_side_by_side_words():
    # counter (round 6 BC): two loop devices the job named are still two targets side by side
    (t,) = _claims("r6_here_blkio_wiops_2dev_pvsync2_numjobs_repeats", "saturation")
    assert "over 2 targets side by side" in t


# ------------------------------------------ VE: no "Little's law" where the files hold no latency
def test_a_rise_without_latency_is_not_called_littles_law():
    texts = _claims("r16_chvissues_qemu-virtio-blk-nvme_sysbench-seqwr-fsync100_threads")
    joined = " ".join(texts)
    assert "Little's law" not in joined
    (m,) = [t for t in texts if "no ceiling is reached within the data, so none is estimated" in t and "fit" in t]
    assert m.startswith("The data still rise at the largest numjobs (2.2 GB/s"), m
    # the measured rise stays said with its own numbers
    assert any("still rises at the largest numjobs: the last step added +11% per doubling" in t for t in texts)
    # counter: tests/fitting/test_fit_words_few_points.py (sweep1, fio's latencies present) keeps
    # "Little's law fits the rise; the data still rise at the largest drives"


# ------------------------------------------ VG d: one CPU is "1 CPU"
def test_one_cpu_is_singular():
    assert cpus_words(1.0) == "1 CPU" and cpus_words(0.999) == "0.999 CPUs" and cpus_words(1.94) == "1.94 CPUs"
    assert cpus_words("1.9–2") == "1.9–2 CPUs" and cpus_words(2.0, ".0f") == "2 CPUs"
    assert counted(1, "point") == "1 point" and counted(3, "point") == "3 points"


def test_ramfs_job_used_1_cpu_not_1_cpus():
    joined = " ".join(_claims("r16_mickeydonkey_ramfs_4k-randread_iouring-nopoll_buffered_qd"))
    # (one job's CPU is said as its share of a CPU since main's one-job wording: "used 100% of a CPU")
    assert "1 CPUs" not in joined and "the job used 100% of a CPU (usr+sys)" in joined
    assert "point(s)" not in joined and "at 1 point it is far below 1" in joined
    # counter: a summed CPU level of two jobs keeps its plural
    counter = " ".join(_claims("r16_here-zram_zram-lzorle_psync_randwrite_numjobs_repeats", "cpu"))
    assert "1.98 CPUs together" in counter  # (round 23 ZD: the two busy jobs' CPUs, said as the CPU-bound level)


def test_the_ceiling_model_counts_the_drive_under_a_stack_once():
    # the api's drive check and the figure's drive count read the same bottom devices: dm-0 over nvme0n1 is one drive,
    # sixteen namespaces (or an md over them) sixteen
    from nvmemodel.fitting.api import _check_one_device
    from nvmemodel.errors import ParameterError
    from nvmemodel.plots.results import _workload_of

    one = pd.DataFrame({"devices": ["dm-0;nvme0n1"] * 2, "device_count": [2, 2], "targets": [1, 1]})
    _check_one_device(one)  # no refusal: one drive
    assert _workload_of(one)[1] == 1
    many = pd.DataFrame({"devices": [";".join(["md1"] + [f"nvme{i}n1" for i in range(16)])], "device_count": [17],
                         "targets": [1]})
    with pytest.raises(ParameterError, match=r"disk stats name 16 devices"):
        _check_one_device(many)
