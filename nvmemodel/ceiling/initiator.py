"""The NVMe-oF initiators' CPU: the hosts that send the I/O over the fabric pay per I/O too (docs/physics.md §5.1).

``initiator.cores`` cores on the initiator side (all initiator hosts together; 0, the default: not modelled, no
limit) each sustain ``initiator.iops_per_core`` I/Os per second — a published per-core figure of the transport's
initiator (:data:`INITIATOR_IOPS_PER_CORE` for the Linux kernel's, ``initiator.stack = kernel``, the default;
:data:`SPDK_INITIATOR_IOPS_PER_CORE` for SPDK's user-space initiator, ``initiator.stack = spdk``; NaN where none was
found: not applied, said so). One system ceiling,
``initiator_cpu = cores × iops_per_core``. The figures are per 4 KiB I/O with the benchmark's own work included, as
the host stacks' (docs/physics.md §4); no per-byte cost is charged (larger I/Os cost the initiator more: an upper
bound there).
"""

from __future__ import annotations

import math

import numpy as np

from ..parameters import PARAMETERS, Parameter
from .components import Component, Limit, everywhere, register

__all__ = ["INITIATOR_IOPS_PER_CORE", "INITIATOR_CPU", "SPDK_INITIATOR_IOPS_PER_CORE", "STACKS", "initiator_defaults"]

#: ``initiator.stack`` choices, in code order.
STACKS = ("kernel", "spdk")

_NVME_TCP_COMMIT = (
    "Linux commit 40510a639ec0 'nvme-tcp: optimize queue io_cpu assignment for multiple queue maps' (S. Grimberg, "
    "tested by M. Wunderlich, Intel; Linux 5.x): the kernel NVMe/TCP initiator on a 'single CPU core (pinned)', fio "
    "'engine io_uring' with 'hipri', '100% 4k reads' from a RAM-backed nvmet target, QDepth/Batch 32/8: 179 K IOPS "
    "before the patch, 231 K after (CPU model and clock not stated, so a rate per core, not cycles)")

# The same kernel initiator on one host core without polling [I10EVAL]: J. Hwang, Q. Cai, M. Vuppalapati, R. Agarwal
# (Cornell), "Performance Evaluation of i10 Linux I/O Scheduler" (github.com/i10-kernel/upstream-linux,
# i10-evaluation.pdf): "4-socket Intel Xeon Gold 6128 CPU @ 3.4GHz", Linux 5.8 with "nvme-tcp optimzations", fio "Block
# size=4KB", "I/O engine=libaio", "Single core performance ... for remote storage access" over NVMe-over-TCP, 100 Gb/s
# (ConnectX-5, jumbo frames). Its Figure 1(a) (remote RAM block device, 4KB random read) gives the plain kernel path
# ("Noop" scheduler) a plateau of about 138 K IOPS on the one core — read off the plot (+-3 K), no number is printed.
# At the 3.4 GHz base: 24,600 cycles per I/O (fio's libaio work included). With interrupts and libaio it is the dear
# end of the range; the commit's 231 K (io_uring, polled) the cheap one.
_I10_NOOP_IOPS = 138e3
_NVME_TCP_I10 = ("J. Hwang et al. (Cornell), 'Performance Evaluation of i10 Linux I/O Scheduler' (i10-evaluation.pdf, "
                 "github.com/i10-kernel/upstream-linux), Figure 1(a): the kernel NVMe/TCP initiator on one core of a "
                 "'Xeon Gold 6128 CPU @ 3.4GHz', Linux 5.8, fio libaio 4 KB random reads from a remote RAM block "
                 "device, plain ('Noop') path about 138 K IOPS (read off the plot, +-3 K): the range's low end")
# The same public runs over NVMe/TCP [JXSHENG] (nvmf_tcp_result/randread/randread.1.txt: one job, 'usr=11.77%,
# sys=27.32%', 'total=4398677' in 60001 msec: 187.5 K reads per busy fio thread, 10,660 cycles at the 2.0 GHz base) do
# not give the initiator's cost: nvme-tcp receives (and sends when not on the queue's CPU) in its io_work kworker,
# outside fio's thread (the job was 39 % busy at 73.3 K IOPS, ~1 context switch per I/O). They bound it: at most
# 187.5 K per core of that CPU, inside the range. A consistency check, not a figure of the range.
_NVME_TCP_JX = ("consistent with: github.com/jiangxiaosheng/nvmeof-project (commit c3ea0ecd) nvmf_tcp_result/randread/"
                "randread.1.txt, one fio libaio job on a CloudLab m510 (Xeon D-1548, 2.0 GHz), 'usr=11.77%, "
                "sys=27.32%', 'total=4398677' in 60001 msec: at most 187.5 K reads per core (the fio thread's CPU only; "
                "nvme-tcp's io_work kworker is outside it), inside the range; not used to set it")

# The kernel NVMe/RDMA initiator, derived from public raw fio outputs [JXSHENG]: github.com/jiangxiaosheng/nvmeof-project
# (commit c3ea0ecd, 2021-12; no licence stated: numbers quoted, files not copied), fio-3.28 normal output of
# 'fio --cpus_allowed_policy=split --rw=randread --direct=1 --ioengine=libaio ... --thread --group_reporting
# --time_based --runtime=60 --bs=4k --iodepth=128 --cpus_allowed=0-15 --numjobs=N' (scripts/fio/randread.sh) on the
# initiator against a Linux nvmet-rdma target (scripts/setup/nvme-rdma-target-setup.sh) on CloudLab m510 nodes
# ('supported by cloudlab m510 machines', scripts/setup/rdma-setup.sh; the profile's default node type): one
# 'Eight-core Intel Xeon D-1548 at 2.0 GHz' with a 'Dual-port Mellanox ConnectX-3 10 GB NIC' (CloudLab manual,
# Hardware, m510), 2.60 GHz max turbo (Intel ARK 91204, in felixsteinke/cpu-spec-dataset intel-cpus.csv, commit
# 4c08d88): RoCE at 10 GbE. One job (its thread pinned to CPU 0), 60 s:
# nvmf_rdma_result/randread/randread.1.txt 'usr=28.59%, sys=56.29%', 'total=10188284' reads in 60001 msec and
# randwrite/randwrite.1.txt 'usr=29.85%, sys=55.50%', 'total=0,8983471' in 60001 msec. CPU-seconds per I/O =
# (usr + sys) x runtime / I/Os (nvmemodel.hostcal.run_costs): 4.999 us per read, 5.701 us per write, i.e. 200.0 K
# reads and 175.4 K writes per busy CPU = 10,000 and 11,400 cycles at the 2.0 GHz base (13,000 and 14,820 at the
# 2.6 GHz turbo: which ran is not stated). fio's figure is its thread's (getrusage(RUSAGE_THREAD)): the submission
# path, fio's reaping and fio's own work, with whatever interrupt work landed on its CPU; completion work handled on
# other CPUs is outside it, so the initiator costs at least this: an upper rate. The job was 85 % busy, not
# CPU-bound. The same host's local NVMe drive through libaio, one CPU-bound job (nvme_local_result/randread/
# randread.1.txt, 'usr=43.44%, sys=56.52%', 'total=14230918' in 60001 msec) gives 8,430 cycles at the base clock,
# within 3 % of [RT23]'s counted 8,200 (nvmemodel.topology.host.STACK_CYCLES): the job's figure holds the path there.
_JX_RUNTIME = 60.001
_JX_RDMA_READ = 10_188_284 / ((0.2859 + 0.5629) * _JX_RUNTIME)
_JX_RDMA_WRITE = 8_983_471 / ((0.2985 + 0.5550) * _JX_RUNTIME)
_NVME_RDMA_JX = ("derived from public raw runs of one host (a range, not a spec): fio-3.28 libaio, 4 KiB random I/O at "
                 "iodepth 128, one job pinned to one CPU, through the Linux kernel NVMe/RDMA initiator to an nvmet-rdma "
                 "target, on CloudLab m510 nodes (one Xeon D-1548, 8 cores at 2.0 GHz base, 2.6 GHz turbo; ConnectX-3, "
                 "RoCE at 10 GbE), github.com/jiangxiaosheng/nvmeof-project (commit c3ea0ecd) nvmf_rdma_result/"
                 "randread/randread.1.txt 'usr=28.59%, sys=56.29%', 'total=10188284' in 60001 msec: 200.0 K reads per "
                 "busy CPU (10,000 cycles at the base clock); randwrite/randwrite.1.txt 'usr=29.85%, sys=55.50%', "
                 "'total=0,8983471': 175.4 K writes (the range's low end). fio's job CPU is its thread's (submission, "
                 "reaping, fio's own work): completion work on other CPUs is outside it, so at most what one core "
                 "sustains (an upper rate); the job was 85 % busy, not CPU-bound")

#: transport → (IOPS per initiator core at 4 KiB, low, high, source); NaN: no published per-core figure found.
INITIATOR_IOPS_PER_CORE: dict[str, tuple[float, float, float, str]] = {
    "rocev2": (_JX_RDMA_READ, _JX_RDMA_WRITE, _JX_RDMA_READ, _NVME_RDMA_JX),
    "tcp": (231e3, _I10_NOOP_IOPS, 231e3, "measured: " + _NVME_TCP_COMMIT + "; " + _NVME_TCP_I10 + "; " + _NVME_TCP_JX),
    "infiniband": (_JX_RDMA_READ, _JX_RDMA_WRITE, _JX_RDMA_READ,
                   "as rocev2 (the kernel's nvme-rdma code path is one for both link layers; measured over RoCE only): "
                   + _NVME_RDMA_JX),
    "none": (math.nan, math.nan, math.nan, "no fabric"),
}
assert tuple(INITIATOR_IOPS_PER_CORE) == PARAMETERS["fabric.transport"].choices

# SPDK's user-space initiator over RDMA [SPDK321]: github.com/spdk/spdk issue 321 (2018-06), a thread on SPDK's NVMe-oF
# RDMA target per core: J. Kariuki (Intel) ran SPDK's perf tool on one initiator core ('perf -c 0x1'; its host 'Detected
# 72 lcore(s)', CPU model not stated), 4 KiB random reads over 'trtype:RDMA' against an SPDK target on one core of a
# Xeon E5-2620 v3 (nvmemodel.ceiling.target) with '4 P3700 SSDs': 'I am getting almost 1.2 million IOPS on a single
# core' at -q 128. Both ends ran on one polled core, each busy at any rate: 1.2 M is what the initiator's core did, so
# its capacity is at least that — a rate per core (its CPU and clock are not stated, so no cycles). The link layer
# (RoCE or InfiniBand) is not stated: the figure is the RDMA verbs path's, applied to both.
_SPDK_RDMA = ("measured: SPDK's user-space NVMe-oF initiator (perf tool on one core, SPDK 18.07-pre) over RDMA, 4 KiB "
              "random reads at -q 128 against a one-core SPDK target: 'almost 1.2 million IOPS on a single core' "
              "(github.com/spdk/spdk issue 321, J. Kariuki, Intel, 2018-06-09); the initiator host's CPU is not stated "
              "(72 logical CPUs), so a rate per core; both ends polled, so at least what one core can do; RDMA link "
              "layer not stated")

#: transport → (IOPS per core of SPDK's user-space initiator at 4 KiB, low, high, source); NaN: none found.
SPDK_INITIATOR_IOPS_PER_CORE: dict[str, tuple[float, float, float, str]] = {
    "rocev2": (1.2e6, 1.2e6, 1.2e6, _SPDK_RDMA),
    "tcp": (math.nan, math.nan, math.nan,
            "not known: no per-core figure of SPDK's NVMe/TCP initiator with its CPU stated was readable (SPDK's "
            "NVMe-oF TCP performance report 24.05, read in a secondary transcription, gives the initiator's QD1 "
            "latency only, 17.50 us against the kernel's 20.43 us; the PDFs are not readable here); set "
            "initiator.iops_per_core"),
    "infiniband": (1.2e6, 1.2e6, 1.2e6, _SPDK_RDMA),
    "none": (math.nan, math.nan, math.nan, "no fabric"),
}
assert tuple(SPDK_INITIATOR_IOPS_PER_CORE) == PARAMETERS["fabric.transport"].choices
_TABLES = (INITIATOR_IOPS_PER_CORE, SPDK_INITIATOR_IOPS_PER_CORE)


def initiator_defaults(codes, stack=0):
    """``(IOPS per core, low, high)`` of the transports' initiators for ``fabric.transport`` codes and
    ``initiator.stack`` codes (0: the Linux kernel's, 1: SPDK's)."""
    table = np.array([[v[:3] for v in t.values()] for t in _TABLES])  # (stack, transport, 3)
    rows = table[np.asarray(stack, dtype=int), np.asarray(codes, dtype=int)]
    return rows[..., 0], rows[..., 1], rows[..., 2]


def _initiator(p) -> Limit:
    if "initiator.cores" not in p or everywhere(p["initiator.cores"], 0.0) or everywhere(p["fabric.present"], 0.0):
        return Limit()
    per_core = p["initiator.iops_per_core"]
    default, _, _ = initiator_defaults(p["fabric.transport"], p.get("initiator.stack", 0))
    per_core = np.where(np.isnan(per_core), default, per_core)
    x = p["initiator.cores"] * per_core
    on = (np.asarray(p["initiator.cores"]) > 0) & (np.asarray(p["fabric.present"]) > 0) & ~np.isnan(x)
    return Limit(system=np.where(on, x, np.inf))


INITIATOR_CPU = register(Component(
    "initiator_cpu", "the NVMe-oF initiators' CPU (I/Os per initiator core)", 75, _initiator,
    parameters=("initiator.cores", "initiator.iops_per_core", "initiator.stack", "fabric.transport"),
    summary="the NVMe-oF initiators' CPU: initiator cores x I/Os per core of the transport's initiator",
    color="#a6761d",
    declares=(
        Parameter("initiator.cores", "cores", "integer", "cores the NVMe-oF initiator hosts give to I/O, all hosts "
                  "together (0: the initiators' CPU not modelled, no limit)", lo=0, hi=1e7, default=0.0,
                  source="default: not modelled (set the initiators' cores to bound them)"),
        Parameter("initiator.iops_per_core", "1/s", "continuous", "4 KiB I/Os one initiator core sustains (NaN: the "
                  "transport's published figure, nvmemodel.ceiling.initiator.INITIATOR_IOPS_PER_CORE)", lo=0,
                  lo_open=True, unknown_ok=True, default=math.nan,
                  source="measured: by transport, nvmemodel.ceiling.initiator.INITIATOR_IOPS_PER_CORE (NVMe/TCP: "
                         "Linux commit 40510a639ec0, 231 K 4 KiB reads on one pinned core; docs/physics.md §5.1)"),
        Parameter("initiator.stack", "", "categorical", "the initiators' NVMe-oF host stack: kernel (Linux nvme-tcp / "
                  "nvme-rdma, the default) or spdk (SPDK's user-space, polled initiator); picks the published per-core "
                  "figure", choices=STACKS, default="kernel",
                  source="default: the Linux kernel's initiator (nvme-cli connect)",
                  aliases={"linux": "kernel", "nvme-cli": "kernel", "user": "spdk"}),
    )))
