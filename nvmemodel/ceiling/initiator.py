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

#: transport → (IOPS per initiator core at 4 KiB, low, high, source); NaN: no published per-core figure found.
INITIATOR_IOPS_PER_CORE: dict[str, tuple[float, float, float, str]] = {
    "rocev2": (math.nan, math.nan, math.nan,
               "not known: no per-core figure of the Linux kernel NVMe/RDMA initiator with its CPU stated was found "
               "(searched: SPDK's NVMe-oF RDMA reports, readable only in secondary summaries giving the SPDK "
               "initiator and QD1 latencies; nvme-rdma patch letters; the i10 paper's core counts to saturate one "
               "SSD, a device-bound count, not a rate. SPDK's user-space initiator reached 'almost 1.2 million IOPS "
               "on a single core' over RDMA, github.com/spdk/spdk issue 321 (2018), a different stack: set "
               "initiator.iops_per_core for it)"),
    "tcp": (231e3, _I10_NOOP_IOPS, 231e3, "measured: " + _NVME_TCP_COMMIT + "; " + _NVME_TCP_I10),
    "infiniband": (math.nan, math.nan, math.nan, "not known: as rocev2 (no per-core kernel initiator figure found)"),
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
