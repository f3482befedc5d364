"""Per-core costs derived from public raw runs that record both CPU and I/O counts (issue 29, sixth pass;
docs/physics.md §4 "Windows" and §5.1), the way ``nm.io_costs`` reads a user's own fio runs: CPU-seconds per I/O =
(usr + sys) x runtime / I/Os of one fio job.

[JXSHENG] github.com/jiangxiaosheng/nvmeof-project, commit c3ea0ecd (2021-12; no licence stated: the numbers below are
quoted from its files, the files are not copied). fio-3.28 normal output, 'fio --cpus_allowed_policy=split
--rw=randread --direct=1 --ioengine=libaio ... --thread --group_reporting --time_based --runtime=60 --bs=4k
--iodepth=128 --cpus_allowed=0-15 --numjobs=N' (scripts/fio/randread.sh), run on the initiator of a Linux kernel
NVMe-oF target (nvmet-rdma / nvmet-tcp, scripts/setup/) on CloudLab m510 nodes ('supported by cloudlab m510
machines', scripts/setup/rdma-setup.sh): 'Eight-core Intel Xeon D-1548 at 2.0 GHz', 'Dual-port Mellanox ConnectX-3 10
GB NIC' (CloudLab manual, Hardware), max turbo 2.60 GHz (Intel ARK 91204, felixsteinke/cpu-spec-dataset
intel-cpus.csv at 4c08d88). The one-job files, each 'run=60001-60001msec':
    nvmf_rdma_result/randread/randread.1.txt    usr=28.59%, sys=56.29%   issued rwts: total=10188284,0,0,0
    nvmf_rdma_result/randwrite/randwrite.1.txt  usr=29.85%, sys=55.50%   issued rwts: total=0,8983471,0,0
    nvmf_tcp_result/randread/randread.1.txt     usr=11.77%, sys=27.32%   issued rwts: total=4398677,0,0,0
    nvme_local_result/randread/randread.1.txt   usr=43.44%, sys=56.52%   issued rwts: total=14230918,0,0,0
fio prints its CPU shares to 0.01 % and the I/O counts exactly: the arithmetic from them is checked to 1e-9; the
cross-check against another source gets the tolerance stated at it.

[VEREIMYST] github.com/vereimyst/ACS-Project-3 (MIT), queue-depth-results/queue-depth_4K.json, copied byte for byte
into the explanation corpus's spent round-4 case (tests/data/explain_corpus/r4_vereimyst_windows-ssd_4k-randread_
qd1-1024/raw/): fio-3.38 windowsaio on a Windows PC whose CPU is not named.
[VCDISKSPD] microsoft/VirtualClient (MIT) Examples/DiskSpd/Write8k.txt: DiskSpd's whole-machine CPU table and IOPS.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.initiator import INITIATOR_IOPS_PER_CORE
from nvmemodel.ceiling.ranges import curve_range
from nvmemodel.topology.host import STACK_CYCLES, STACK_CYCLES_RANGE, IoStack

BASE, TURBO = 2.0e9, 2.6e9  # Xeon D-1548 (CloudLab m510; Intel ARK 91204)
RUNTIME = 60.001


def per_busy_cpu(usr: float, sys: float, ios: int, runtime: float = RUNTIME) -> float:
    """I/Os per second of busy CPU: the inverse of nm.io_costs' CPU-seconds per I/O for one job."""
    return ios / ((usr + sys) / 100 * runtime)


RDMA_READ = per_busy_cpu(28.59, 56.29, 10_188_284)
RDMA_WRITE = per_busy_cpu(29.85, 55.50, 8_983_471)
TCP_READ = per_busy_cpu(11.77, 27.32, 4_398_677)
LOCAL_READ = per_busy_cpu(43.44, 56.52, 14_230_918)


def test_the_kernel_rdma_initiator_is_the_one_job_runs_cpu_per_io():
    point, low, high, source = INITIATOR_IOPS_PER_CORE["rocev2"]
    assert point == pytest.approx(RDMA_READ, rel=1e-9) == pytest.approx(200_049, abs=1)
    assert (low, high) == (pytest.approx(RDMA_WRITE, rel=1e-9), point)
    assert low == pytest.approx(175_421, abs=1)
    # cycles where the clock is known: 10,000 per read at the 2.0 GHz base, 13,000 at the 2.6 GHz turbo
    assert BASE / point == pytest.approx(9_998, abs=1) and TURBO / point == pytest.approx(12_997, abs=1)
    for quoted in ("'usr=28.59%, sys=56.29%'", "'total=10188284'", "'total=0,8983471'", "Xeon D-1548",
                   "derived from public raw runs of one host (a range, not a spec)", "an upper rate"):
        assert quoted in source, quoted
    assert INITIATOR_IOPS_PER_CORE["infiniband"][:3] == (point, low, high)  # one nvme-rdma code path, RoCE measured


def test_the_same_hosts_local_libaio_job_agrees_with_the_counted_libaio_cost():
    # The check that the job's CPU holds the path on this host: its local NVMe drive through libaio, one CPU-bound job
    # (99.96 % of a CPU), at the 2.0 GHz base = 8,429 cycles per I/O, against Ren & Trivedi's perf-counted 8,200 on
    # another Xeon (topology.host.STACK_CYCLES, docs/physics.md §4): within 3 % (two CPUs, two kernels)
    assert (43.44 + 56.52) / 100 >= 0.95
    assert BASE / LOCAL_READ == pytest.approx(8_429, abs=1)
    assert BASE / LOCAL_READ == pytest.approx(STACK_CYCLES[IoStack.LIBAIO][0], rel=0.03)
    # the RDMA initiator's job costs more per I/O than the local path on the same CPU (the transport's work)
    assert LOCAL_READ > RDMA_READ


def test_the_tcp_runs_bound_the_tcp_initiator_inside_its_range_and_set_nothing():
    point, low, high, source = INITIATOR_IOPS_PER_CORE["tcp"]
    assert (point, high) == (231e3, 231e3) and low == pytest.approx(138e3, abs=3e3)  # unchanged
    # the fio thread's CPU only (nvme-tcp's io_work kworker is outside it): at most 187.5 K per core of a D-1548
    assert TCP_READ == pytest.approx(187_542, abs=1)
    assert low < TCP_READ < high
    assert "at most 187.5 K reads per core" in source and "not used to set it" in source


def test_rdma_initiator_cores_bind_a_roce_system_and_are_ranged():
    curve = nm.evaluate(nm.preset("broadcom-stingray"), nm.Workload("randread", "4K", iodepth=128), drives=[1, 4],
                        overrides={"initiator.cores": 2})
    assert curve.binding_at(4) == "initiator_cpu"
    assert curve.iops_at(4) == pytest.approx(2 * RDMA_READ, rel=1e-12)
    assert curve_range(curve).at(4) == pytest.approx((2 * RDMA_WRITE, 2 * RDMA_READ), rel=1e-12)
    text = curve.explain(4)
    assert "rocev2 initiator 175.4–200 K I/Os per core" in text
    assert "initiator.iops_per_core = 200.05 K IOPS (derived" in text


WINDOWS_4K = pathlib.Path(__file__).parents[1] / "data" / "explain_corpus" / \
    "r4_vereimyst_windows-ssd_4k-randread_qd1-1024" / "raw" / "queue-depth_4K.json"


def test_fio_on_windows_counts_cpu_in_whole_seconds_so_no_figure_is_derived():
    # fio's getrusage() on Windows (os/windows/posix.c) keeps whole seconds of GetThreadTimes: every job's CPU time is
    # an integer number of seconds (steps of 1/runtime in usr/sys), so a 60-s job that used 1-16 s carries +-1 s
    from nvmemodel.hostcal import run_costs

    runs = run_costs(nm.read_results(WINDOWS_4K))
    seconds = (runs["cpu_busy"] * runs["runtime_s"]).to_numpy()
    assert len(seconds) == 22 and (runs["ioengine"] == "windowsaio").all()
    assert np.abs(seconds - np.round(seconds)).max() < 1e-3
    assert set(np.round(seconds).astype(int)) <= set(range(1, 17))
    # the 4 KiB read plateau (QD64, 96.8 K IOPS): 16 s of the submitting thread = 2.75 us per I/O, +-1 s = +-6 %;
    # the CPU is not named (no cycles) and the engine's completion thread is outside the figure: a lower bound only
    qd64 = runs[runs["job_name"] == "qd_64r"].iloc[0]
    assert qd64["cpu_s_per_io"] == pytest.approx(16 / (96_818.05 * 60.001), rel=1e-4)
    assert "completion thread" in qd64["note"] and "whole seconds" in qd64["note"]
    # so the Windows stack stays the labelled estimate and its inferred range (docs/physics.md §4)
    cycles, source = STACK_CYCLES[IoStack.WINDOWS_STORPORT]
    assert cycles == pytest.approx(8200 * 3 / 1.2) and source.startswith("estimate")
    assert STACK_CYCLES_RANGE[IoStack.WINDOWS_STORPORT][2].startswith("inferred")


# microsoft/VirtualClient (MIT), src/VirtualClient/VirtualClient.Actions.UnitTests/Examples/DiskSpd/Write8k.txt (commit
# 504ffb92): a DiskSpd -Rtext output, 5 targets, 8 KiB random writes, in the developers' copy of public result files
# (the shared_dir fixture: skipped where it is absent).
def test_diskspd_whole_machine_cpu_per_io_is_not_an_io_paths_cost(shared_dir):
    text = (shared_dir / "data" / "real" / "diskspd" / "virtualclient_diskspd_text_write8k_multitarget.txt").read_text()
    procs = int(text.split("proc count:")[1].split()[0])
    busy = float(text.split("avg.|")[1].split("%")[0]) / 100
    iops = float(text.split("\ntotal:")[1].split("|")[3])
    assert (procs, busy, iops) == (112, pytest.approx(0.3969), pytest.approx(330_118.77))
    per_io = procs * busy / iops
    assert per_io == pytest.approx(134.7e-6, rel=1e-3)  # docs/physics.md §4 "Windows": 135 us of CPU per I/O
    # tens of times a kernel I/O path's cost (libaio's 8,200 cycles are 2-4 us at 2-4 GHz): not the path's share
    assert per_io > 30 * STACK_CYCLES[IoStack.LIBAIO][0] / 2.0e9
