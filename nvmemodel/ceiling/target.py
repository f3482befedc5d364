"""The NVMe-oF target's CPU: the server that holds the drives pays per I/O for serving them (docs/physics.md §5.2).

Where a fabric is present the host is the NVMe-oF target. ``target.stack`` names what serves the fabric: ``kernel``
(Linux nvmet-tcp / nvmet-rdma) or ``spdk`` (SPDK's user-space NVMe-oF target, ``nvmf_tgt``, a polled storage daemon);
``none`` (the default) does not model it. One system ceiling,

``target_cpu = cores × f_clk × u / cycles_per_io``,

with ``cores`` = ``target.cores`` (cores given to the target, e.g. SPDK's reactor mask: dedicated, so ``u`` = 1) or,
at 0, every core of the host (``host.sockets × host.cores_per_socket``, shared: ``u`` = ``host.cpu_utilization_max``),
``f_clk`` the host's clock and ``cycles_per_io`` the target's whole cost per 4 KiB I/O — network, NVMe-oF and its own
block path to the drive — from ``target.cycles_per_io`` or, where that is NaN, the published figure for the stack and
the fabric's transport (:data:`TARGET_CYCLES`); where a published figure is a rate per busy core with the clock
unstated, ``cores × target.iops_per_core`` (:data:`TARGET_IOPS_PER_CORE`, reads and writes mixed by their cost per
I/O). Published: SPDK's RDMA target on one Xeon E5-2620 v3 core, about 1.2 M 4 KiB random reads (2,667 cycles at the
3.2 GHz turbo; SPDK issue 321); the Linux nvmet-rdma target, 244,792 4 KiB reads and 321,429 writes per busy CPU
(M. Gurtovoy's SRQ patch series, 2020; CPU not named); SPDK's NVMe-oF TCP performance report 24.05 (2 x Xeon Gold 6348,
read in a secondary transcription, docs/physics.md §5.2): the Linux nvmet-tcp target 9,796 K 4 KiB reads on 57.3 busy
CPUs (15,208 cycles at the 2.6 GHz base), SPDK's TCP target 611.3 K on one core (5,726 at the 3.5 GHz turbo).
``host_cpu`` (the local stack's cost, as if the benchmark ran on the host) stays listed beside it.

A host that serves its drives over NVMe/TCP as a file-sharing-style block target (``share.protocol = nvme_tcp``, no
``fabric.transport``) is an NVMe/TCP target too: the same ceiling applies there with the transport ``tcp``
(:func:`served_transport`), so ``share.protocol = nvme_tcp`` charges the NVMe/TCP target's cost from this table (where
``target.stack`` is set), never another protocol's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..parameters import PARAMETERS, Parameter
from .components import Component, Limit, everywhere, register

__all__ = ["STACKS", "TARGET_CPU", "TARGET_CYCLES", "TARGET_IOPS_PER_CORE", "served_transport", "target_defaults",
           "target_rate_defaults"]

#: ``target.stack`` choices, in code order.
STACKS = ("none", "kernel", "spdk")

_TRANSPORTS = PARAMETERS["fabric.transport"].choices

# SPDK's NVMe-oF RDMA target on one core [SPDK321]: github.com/spdk/spdk issue 321, 'NVMe-oF 4K Random Read per Core
# doesn't reach 1M IOPS' (2018-06), on the target's I/O per core. J. Kariuki (Intel): 'We found a CPU that is close to
# yours. The Intel(R) Xeon(R) CPU E5-2620 v3 @ 2.40GHz ... With turbo (max Turbo frequency is 3.2 GHz) enabled we got
# almost 1 million IOPS on a single core' (initiator at -q 64: 'not sufficient to saturate the system'); the next day,
# with '4 P3700 SSDs' added to that system, 'I am getting almost 1.2 million IOPS on a single core' (4 KiB random
# reads, perf -q 128 on one initiator core). S. Matsumoto (Hitachi) then ran 'nvmf-tgt with core x1 + p3700 x4'
# ('ReactorMask 0x0001') and 'could get the same score'. One busy core runs at its turbo (docs/physics.md §4): 3.2 GHz /
# 1.2 M = 2,667 cycles per I/O, 2,000 at the 2.4 GHz base (which clock ran is not stated: the range). A polled core is
# busy at any rate and the one-core initiator could have bound too, so this is at most the target's cost. SPDK
# 18.07-pre; the link layer (RoCE or InfiniBand) is not stated: applied to both. A Haswell Xeon's cycles, carried to
# other CPUs untested.
_SPDK_RDMA_IOPS, _SPDK_RDMA_CLOCKS = 1.2e6, (2.4e9, 3.2e9)  # 'almost 1.2 million'; E5-2620 v3 base and max turbo
_SPDK_RDMA_CYCLES = _SPDK_RDMA_CLOCKS[1] / _SPDK_RDMA_IOPS  # 2,667 at the one-busy-core turbo clock
_SPDK_RDMA_RANGE = (_SPDK_RDMA_CLOCKS[0] / _SPDK_RDMA_IOPS, _SPDK_RDMA_CYCLES)  # 2,000 (base) - 2,667 (turbo)
_SPDK_RDMA = ("measured: SPDK's NVMe-oF RDMA target on one core (ReactorMask 0x1, SPDK 18.07-pre) of a Xeon E5-2620 v3 "
              "(2.4 GHz, 'max Turbo frequency is 3.2 GHz'), 4 P3700, 4 KiB random reads from SPDK perf -q 128: "
              "'almost 1.2 million IOPS on a single core' (github.com/spdk/spdk issue 321, J. Kariuki, Intel, "
              "2018-06-09; reproduced by S. Matsumoto, Hitachi, 'nvmf-tgt with core x1 + p3700 x4'): 3.2 GHz / 1.2 M = "
              "2,667 cycles per I/O at the one-busy-core turbo clock, 2,000 at the base (the range); polled, so at "
              "most its cost; RDMA link layer not stated; Haswell's cycles carried to other CPUs untested")

# SPDK's NVMe-oF TCP performance report 24.05, Mellanox ConnectX-5 edition [SPDK24TCP] (Intel, 2024-07; review.spdk.io/
# download/performance-reports/SPDK_tcp_mlx_perf_report_2405.pdf). The PDF is not readable here: its figures are taken
# as transcribed, with the report's page numbers, in a public Korean-language write-up found in the search index
# ('01 · iSCSI와 NVMe-oF — 네트워크 블록 경로와 비용', 2026-10-04, its section 5 and appendix; a companion page
# '02 NVMe-oF' gives the same table), and were not checked against the PDF. Target: 2 x Intel Xeon Gold 6348 (28 cores,
# 2.6 GHz base, 3.5 GHz max turbo: catalog row intel-xeon-gold-6348, Intel ARK), kernel 6.0.18, 14 x Kioxia
# KCM61VUL3T20, 4 x 100 GbE ConnectX-5 direct; 4 KiB random reads at QD 384 over 14 subsystems from kernel initiators;
# the SPDK target limited to 24 cores, the kernel target not limited. Its table 'connections per subsystem | target |
# IOPS | cores used':
#   8 | kernel nvmet | 9,796K | 57.3      1 | kernel nvmet | 4,018K | 20.5
#   8 | SPDK         | 7,831K | 30.3      1 | SPDK         | 4,197K | 28.7 (24 cores polled)
# and the SPDK target's core scaling at 4 KiB random reads: 1 core 611.3K, 8 cores 5,571K, 12 cores 8,307K IOPS. The
# 'cores used' are busy CPUs counted system-wide (the SPDK rows exceed its 24 reactors: the kernel's TCP stack works on
# other CPUs; 57.3 exceeds the host's 56 cores, so logical CPUs with hyper-threading): charged per core they make the
# ceiling low, as nvmet-rdma's below. Clock: many busy cores run at the base clock (docs/physics.md §4), one at the
# turbo.
_SPDK24_BASE, _SPDK24_TURBO = 2.6e9, 3.5e9  # Xeon Gold 6348: base, max turbo (catalog, Intel ARK)
_NVMET_TCP_CYCLES = _SPDK24_BASE * 57.3 / 9.796e6        # 8 connections: 15,208 cycles per I/O per busy CPU at base
_NVMET_TCP_LOW = _SPDK24_BASE * 20.5 / 4.018e6           # 1 connection: 13,265
_NVMET_TCP_HIGH = _SPDK24_TURBO * 57.3 / 9.796e6         # 8 connections at the max turbo: 20,473 (clock not stated)
_SPDK24_TERMS = ("SPDK NVMe-oF TCP Performance Report 24.05 (Mellanox ConnectX-5; review.spdk.io/download/"
                 "performance-reports/SPDK_tcp_mlx_perf_report_2405.pdf), target 2 x Xeon Gold 6348 (2.6 GHz base, "
                 "3.5 GHz max turbo), kernel 6.0.18, 14 Kioxia KCM61VUL3T20, 4 x 100 GbE ConnectX-5, 4 KiB random "
                 "reads at QD 384 from kernel initiators; read in a secondary transcription (a public Korean-language "
                 "write-up, 2026-10-04, citing the report's pages), the PDF itself not readable here")
_NVMET_TCP = ("measured: the Linux nvmet-tcp target in the " + _SPDK24_TERMS + ": 8 connections per subsystem "
              "'9,796K' IOPS on '57.3' busy CPUs = 171 K per CPU, 2.6 GHz x 57.3 / 9.796 M = 15,208 cycles per I/O at "
              "the base clock; 1 connection '4,018K' on '20.5' = 13,265; at the 3.5 GHz max turbo 20,473 (which clock "
              "ran is not stated: the range 13,265-20,473); busy CPUs are logical (57.3 > the 56 cores), so per core "
              "the ceiling is low; real drives behind it")
# SPDK's TCP target: one reactor core 611.3K (at the one-busy-core turbo, 3.5 GHz: 5,726 cycles); 8 cores 5,571K
# (696 K per core: 3,734 at the base clock, the cheap end); the connections test's 7,831K on 30.3 busy CPUs (10,060 at
# base) counts the kernel TCP work on other CPUs and polling reactors that were not busy: the dear end.
_SPDK_TCP_CYCLES = _SPDK24_TURBO / 611.3e3               # one core at its turbo: 5,726
_SPDK_TCP_LOW = _SPDK24_BASE * 8 / 5.571e6               # 8 reactor cores at base: 3,734
_SPDK_TCP_HIGH = _SPDK24_BASE * 30.3 / 7.831e6           # every busy CPU (kernel TCP, idle polling) at base: 10,060
_SPDK_TCP = ("measured: SPDK's NVMe-oF TCP target in the " + _SPDK24_TERMS + ": one reactor core '611.3K' 4 KiB "
             "random reads = 3.5 GHz / 611.3 K = 5,726 cycles per I/O at the one-busy-core turbo; 8 cores '5,571K' = "
             "3,734 at the 2.6 GHz base (the cheap end); the connections test's '7,831K' on '30.3' busy CPUs, the "
             "kernel's TCP work on other CPUs and partly idle polling reactors included, = 10,060 (the dear end); the "
             "reactor figures leave out the kernel TCP stack's work on other CPUs")
# The SPDK RDMA target, same lab, servers and kernel [SPDK24RDMA] (SPDK NVMe-oF RDMA Performance Report 24.05, as
# transcribed likewise): one core '1,564.5K' 4 KiB random reads at QD 128 = 3.5 GHz / 1.5645 M = 2,237 cycles at the
# turbo, 1,662 at the 2.6 GHz base: the cheap end of SPDK's RDMA range (its point stays [SPDK321]'s 2,667).
_SPDK_RDMA24_LOW = _SPDK24_BASE / 1.5645e6               # 1,662
_SPDK_RDMA += ("; the range's cheap end: SPDK NVMe-oF RDMA Performance Report 24.05 (same lab and 2 x Xeon Gold 6348 "
               "target; read in a secondary transcription, the PDF not readable here), one core '1,564.5K' 4 KiB "
               "random reads at QD 128 = 1,662 cycles at the 2.6 GHz base (2,237 at the 3.5 GHz turbo)")
_SPDK_RDMA_RANGE = (_SPDK_RDMA24_LOW, _SPDK_RDMA_CYCLES)

#: (stack, transport) → (cycles per 4 KiB I/O, low, high, source); NaN: no published per-core figure with its CPU found;
#: low-high: the range its sources leave open (the clock that ran, other published points), charged by
#: ``ceiling.ranges``.
TARGET_CYCLES: dict[tuple[str, str], tuple[float, float, float, str]] = {
    ("kernel", "tcp"): (_NVMET_TCP_CYCLES, _NVMET_TCP_LOW, _NVMET_TCP_HIGH, _NVMET_TCP),
    ("kernel", "rocev2"): (math.nan, math.nan, math.nan,
                           "not known in cycles: the Linux nvmet-rdma target's one published figure is a rate per busy "
                           "CPU with the CPU's model and clock unstated (TARGET_IOPS_PER_CORE); set "
                           "target.cycles_per_io"),
    ("kernel", "infiniband"): (math.nan, math.nan, math.nan, "not known in cycles: as rocev2 (nvmet-rdma; "
                                                             "TARGET_IOPS_PER_CORE); set target.cycles_per_io"),
    ("spdk", "tcp"): (_SPDK_TCP_CYCLES, _SPDK_TCP_LOW, _SPDK_TCP_HIGH, _SPDK_TCP),
    ("spdk", "rocev2"): (_SPDK_RDMA_CYCLES, _SPDK_RDMA_RANGE[0], _SPDK_RDMA_RANGE[1], _SPDK_RDMA),
    ("spdk", "infiniband"): (_SPDK_RDMA_CYCLES, _SPDK_RDMA_RANGE[0], _SPDK_RDMA_RANGE[1], _SPDK_RDMA),
}
assert {t for _, t in TARGET_CYCLES} | {"none"} == set(_TRANSPORTS)
assert {s for s, _ in TARGET_CYCLES} == set(STACKS[1:])

# The Linux nvmet-rdma target [GURTOVOY20]: M. Gurtovoy (Mellanox), '[PATCH v2 0/5] nvmet-rdma/srpt: SRQ per completion
# vector', linux-nvme / linux-rdma, 2020-03-18 (the series merged for Linux 5.8). 4 initiators (CX5, CX5, CX4, CX3) over
# 'RoCE link layer' through a switch to 'the NVMEoF target (CX5)', 4 subsystems on null_blk devices, 'Fio with 12 jobs,
# iodepth 128' per initiator; results as IOPS and '(target CPU)'. The target's default receive path is 'MQ' (case 3: the
# module's use_srq is false unless set): 4k reads '1.88M (32%)', 4k writes '2.16M (28%)'; the other receive designs give
# 4k reads '1.8M (33%)', '1.87M (32%)' and, the single SRQ of the time, '1.59M (34%)'. The target's CPUs are not
# named: its HCA had 24 completion vectors ('comp_num' = 24 in the letter's memory arithmetic), which mlx5 sets to the
# online CPUs up to the device's maximum — 24 CPUs, inferred (whether they were hyper-threads is not stated). I/Os per
# busy CPU = IOPS / (share x 24): reads 1.88 M / (0.32 x 24) = 244,800, writes 2.16 M / (0.28 x 24) = 321,400; the
# four designs' reads span 195,000 ('1.59M (34%)') - 244,800 (the range). At 32 % busy the target did not bind these
# runs: the rate is its cost, not a ceiling it was shown to hit. null_blk stands in for the drive (no NVMe driver or
# device interrupt: a real drive costs the target more), so the rate is an upper one.
_NVMET_RDMA_CPUS = 24.0  # inferred from the letter's 'comp_num' = 24 completion vectors (not stated as CPUs)
_NVMET_RDMA_READ = 1.88e6 / (0.32 * _NVMET_RDMA_CPUS)    # case 3, MQ (the default receive path): 244,800 per CPU
_NVMET_RDMA_WRITE = 2.16e6 / (0.28 * _NVMET_RDMA_CPUS)   # case 3, 4k writes: 321,400 per CPU
_NVMET_RDMA_READ_LOW = 1.59e6 / (0.34 * _NVMET_RDMA_CPUS)  # case 4, the single SRQ of the time: 194,900 per CPU
_NVMET_RDMA = ("measured: the Linux nvmet-rdma target (RoCE, ConnectX-5; 4 initiators, fio 12 jobs x iodepth 128 each, "
               "null_blk namespaces) in M. Gurtovoy's '[PATCH v2 0/5] nvmet-rdma/srpt: SRQ per completion vector' "
               "(linux-nvme, 2020-03-18, lore.kernel.org/linux-nvme/20200318150257.198402-1-maxg@mellanox.com): "
               "default MQ receive path 4k reads '1.88M (32%)' and writes '2.16M (28%)' of "
               "the target's CPU, 24 CPUs inferred from its 24 completion vectors (model and clock not stated): "
               "244,800 reads and 321,400 writes per busy CPU; the other receive designs' reads down to '1.59M (34%)' "
               "= 194,900 (the range); null_blk, not a drive: an upper rate")

#: (stack, transport) → (I/Os per busy target core at 4 KiB: reads, writes, reads' low, reads' high, source): published
#: figures that are rates per core with the CPU's clock not stated (so no cycles); used where no cycles figure applies.
TARGET_IOPS_PER_CORE: dict[tuple[str, str], tuple[float, float, float, float, str]] = {
    ("kernel", "rocev2"): (_NVMET_RDMA_READ, _NVMET_RDMA_WRITE, _NVMET_RDMA_READ_LOW, _NVMET_RDMA_READ, _NVMET_RDMA),
    ("kernel", "infiniband"): (_NVMET_RDMA_READ, _NVMET_RDMA_WRITE, _NVMET_RDMA_READ_LOW, _NVMET_RDMA_READ,
                               _NVMET_RDMA + "; measured over RoCE, the same nvmet-rdma code path over InfiniBand"),
}


def _table() -> np.ndarray:
    """cycles per I/O by (stack code, transport code); NaN where not known or not modelled."""
    out = np.full((len(STACKS), len(_TRANSPORTS)), np.nan)
    for (s, t), row in TARGET_CYCLES.items():
        out[STACKS.index(s), _TRANSPORTS.index(t)] = row[0]
    return out


_TABLE = _table()


def target_defaults(stack_codes: ArrayLike, transport_codes: ArrayLike) -> np.ndarray:
    """The published cycles per I/O of the targets for ``target.stack`` × ``fabric.transport`` codes (NaN: none)."""
    return _TABLE[np.asarray(stack_codes, dtype=int), np.asarray(transport_codes, dtype=int)]


def _rates() -> np.ndarray:
    """(read, write) I/Os per busy core by (stack code, transport code); NaN where no rate was published."""
    out = np.full((len(STACKS), len(_TRANSPORTS), 2), np.nan)
    for (st, t), row in TARGET_IOPS_PER_CORE.items():
        out[STACKS.index(st), _TRANSPORTS.index(t)] = row[:2]
    return out


_RATES = _rates()


def target_rate_defaults(stack_codes: ArrayLike, transport_codes: ArrayLike,
                         read_fraction: ArrayLike = 1.0) -> np.ndarray:
    """The published I/Os per busy target core for ``target.stack`` × ``fabric.transport`` codes, the read and write
    rates mixed by their cost per I/O at ``read_fraction`` (NaN: none published)."""
    rows = _RATES[np.asarray(stack_codes, dtype=int), np.asarray(transport_codes, dtype=int)]
    f = np.asarray(read_fraction, dtype=float)
    return 1.0 / (f / rows[..., 0] + (1.0 - f) / rows[..., 1])


_TCP = float(_TRANSPORTS.index("tcp"))
_NVME_TCP_SHARE = float(PARAMETERS["share.protocol"].code("nvme_tcp"))


def served_transport(parameters: Mapping[str, Any]) -> str:
    """The transport the host serves its drives over, for one configuration's public parameter values (categorical by
    name): ``fabric.transport`` where a fabric is set, else ``tcp`` where ``share.protocol`` is ``nvme_tcp`` (the host
    is an NVMe/TCP target), else ``none``."""
    transport = str(parameters.get("fabric.transport", "none"))
    if transport == "none" and str(parameters.get("share.protocol", "none")) == "nvme_tcp":
        return "tcp"
    return transport


def _served(p):
    """(served, transport codes) on the prepared mapping: where a fabric is present, or ``share.protocol`` is
    ``nvme_tcp`` (then over ``tcp``)."""
    fabric = np.asarray(p["fabric.present"]) > 0
    share = np.asarray(p["share.protocol"]) == _NVME_TCP_SHARE if "share.protocol" in p else np.False_
    transport = np.where(fabric, p["fabric.transport"], np.where(share, _TCP, p["fabric.transport"]))
    return fabric | share, transport


def _target(p) -> Limit:
    if "target.stack" not in p or everywhere(p["target.stack"], 0.0):
        return Limit()
    served, transport = _served(p)
    if not np.any(served):
        return Limit()
    given = np.asarray(p["target.cores"], dtype=float)
    all_cores = np.asarray(p["host.sockets"] * p["host.cores_per_socket"], dtype=float)
    cores = np.where(given > 0, given, all_cores) * np.where(given > 0, 1.0, p["host.cpu_utilization_max"])
    # the user's cycles, else the user's rate, else the published cycles, else the published rate (per busy core)
    mine_cycles, mine_rate = p["target.cycles_per_io"], p.get("target.iops_per_core", np.nan)
    stack = p["target.stack"]
    by_cycles = cores * p["host.clock_hz"] / mine_cycles
    by_rate = cores * mine_rate
    published = cores * p["host.clock_hz"] / target_defaults(stack, transport)
    published_rate = cores * target_rate_defaults(stack, transport, p.get("workload.read_fraction", 1.0))
    x = np.where(~np.isnan(by_cycles), by_cycles, np.where(~np.isnan(by_rate), by_rate,
                                                            np.where(~np.isnan(published), published, published_rate)))
    on = (np.asarray(p["target.stack"]) > 0) & served & ~np.isnan(x)
    return Limit(system=np.where(on, x, np.inf))


TARGET_CPU = register(Component(
    "target_cpu", "the NVMe-oF target's CPU (its cores / its cost per I/O)", 72, _target,
    parameters=("target.stack", "target.cores", "target.cycles_per_io", "target.iops_per_core", "fabric.transport",
                "share.protocol", "host.sockets", "host.cores_per_socket", "host.clock_hz"),
    summary="the NVMe-oF target's CPU: the host's (or the target's own) cores x clock / the target's cycles per I/O, "
            "or cores x its I/Os per core",
    color="#66a61e",
    declares=(
        Parameter("target.stack", "", "categorical", "what serves the NVMe-oF fabric on the host: none (the target's "
                  "CPU not modelled), kernel (Linux nvmet-tcp / nvmet-rdma) or spdk (SPDK's user-space nvmf_tgt, a "
                  "polled daemon)", choices=STACKS, default="none",
                  source="default: not modelled (set the target's stack and its cycles per I/O to bound it)",
                  aliases={"nvmet": "kernel", "linux": "kernel", "nvmf_tgt": "spdk", "spdk_nvmf": "spdk"}),
        Parameter("target.cores", "cores", "integer", "cores the NVMe-oF target runs on (SPDK's reactor mask: "
                  "dedicated, used whole); 0: every core of the host, shared (host.cpu_utilization_max)", lo=0,
                  hi=1e6, default=0.0, source="default: every core of the host"),
        Parameter("target.cycles_per_io", "cycles", "continuous", "CPU cycles the NVMe-oF target spends per 4 KiB "
                  "I/O, network + NVMe-oF + its block path (NaN: the stack's published figure for the transport, "
                  "nvmemodel.ceiling.target.TARGET_CYCLES: SPDK over RDMA 2,667, over TCP 5,726; Linux nvmet-tcp "
                  "15,208; nvmet-rdma's figure is a rate, target.iops_per_core)", lo=0,
                  lo_open=True, unknown_ok=True, default=math.nan,
                  source="measured: by stack and transport, nvmemodel.ceiling.target.TARGET_CYCLES (SPDK's RDMA "
                         "target: 'almost 1.2 million IOPS on a single core' of a Xeon E5-2620 v3, SPDK issue 321, "
                         "2,667 cycles at 3.2 GHz; SPDK's NVMe-oF TCP report 24.05 on 2 x Xeon Gold 6348: nvmet-tcp "
                         "15,208 cycles per busy CPU, SPDK's TCP target 5,726 on one core; docs/physics.md §5.2)"),
        Parameter("target.iops_per_core", "1/s", "continuous", "4 KiB I/Os one busy NVMe-oF target core sustains, "
                  "where its cost is known as a rate rather than cycles (used where no cycles figure, the user's or "
                  "published, applies; NaN: the stack's published rate, nvmemodel.ceiling.target.TARGET_IOPS_PER_CORE: "
                  "the kernel's nvmet-rdma 244,800 reads / 321,400 writes per busy CPU)", lo=0, lo_open=True,
                  unknown_ok=True, default=math.nan,
                  source="measured: by stack and transport, nvmemodel.ceiling.target.TARGET_IOPS_PER_CORE (Linux "
                         "nvmet-rdma: '1.88M (32%)' 4k reads of 24 inferred CPUs, M. Gurtovoy's SRQ series, 2020; "
                         "docs/physics.md §5.2)"),
    )))
