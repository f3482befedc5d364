"""The NVMe-oF target's CPU: the server that holds the drives pays per I/O for serving them (docs/physics.md §5.2).

Where a fabric is present the host is the NVMe-oF target. ``target.stack`` names what serves the fabric: ``kernel``
(Linux nvmet-tcp / nvmet-rdma) or ``spdk`` (SPDK's user-space NVMe-oF target, ``nvmf_tgt``, a polled storage daemon);
``none`` (the default) does not model it. One system ceiling,

``target_cpu = cores × f_clk × u / cycles_per_io``,

with ``cores`` = ``target.cores`` (cores given to the target, e.g. SPDK's reactor mask: dedicated, so ``u`` = 1) or,
at 0, every core of the host (``host.sockets × host.cores_per_socket``, shared: ``u`` = ``host.cpu_utilization_max``),
``f_clk`` the host's clock and ``cycles_per_io`` the target's whole cost per 4 KiB I/O — network, NVMe-oF and its own
block path to the drive — from ``target.cycles_per_io`` or, where that is NaN, the published figure for the stack and
the fabric's transport (:data:`TARGET_CYCLES`). **No per-core figure of any target with its CPU and clock stated was
found** (docs/physics.md §5.2 lists what was read): every default is NaN, so the ceiling is applied only where the
user sets ``target.cycles_per_io`` (or fits it to runs of their own) and the explanation says it is not known
otherwise. ``host_cpu`` (the local stack's cost, as if the benchmark ran on the host) stays listed beside it.
"""

from __future__ import annotations

import math

import numpy as np

from ..parameters import PARAMETERS, Parameter
from .components import Component, Limit, everywhere, register

__all__ = ["STACKS", "TARGET_CPU", "TARGET_CYCLES", "target_defaults"]

#: ``target.stack`` choices, in code order.
STACKS = ("none", "kernel", "spdk")

_SEARCHED = ("SPDK's NVMe-oF TCP and RDMA performance reports (Intel, 18.04-26.01) state IOPS per target core against "
             "the kernel target, but only their titles and announcements are readable here (spdk.io news posts; "
             "the Hitachi report 'observed up to 8x more IOPS/Core with SPDK NVMe-oF Target and Initiator, vs the "
             "Linux Kernel', a ratio); Linux nvmet commit messages give IOPS before/after a patch on soft-RoCE or "
             "null devices with the cores unstated")
_TRANSPORTS = PARAMETERS["fabric.transport"].choices

#: (stack, transport) → (cycles per 4 KiB I/O, low, high, source); NaN: no published per-core figure with its CPU found.
TARGET_CYCLES: dict[tuple[str, str], tuple[float, float, float, str]] = {
    ("kernel", "tcp"): (math.nan, math.nan, math.nan,
                        "not known: no per-core figure of the Linux nvmet-tcp target with its CPU stated was found ("
                        + _SEARCHED + "); set target.cycles_per_io"),
    ("kernel", "rocev2"): (math.nan, math.nan, math.nan,
                           "not known: no per-core figure of the Linux nvmet-rdma target with its CPU stated was found ("
                           + _SEARCHED + "); set target.cycles_per_io"),
    ("kernel", "infiniband"): (math.nan, math.nan, math.nan, "not known: as rocev2 (nvmet-rdma); set target.cycles_per_io"),
    ("spdk", "tcp"): (math.nan, math.nan, math.nan,
                      "not known: no per-core figure of SPDK's NVMe-oF TCP target with its CPU stated was readable ("
                      + _SEARCHED + "); at least SPDK's local NVMe path, 269 cycles (host.STACK_CYCLES); set "
                      "target.cycles_per_io"),
    ("spdk", "rocev2"): (math.nan, math.nan, math.nan,
                         "not known: no per-core figure of SPDK's NVMe-oF RDMA target with its CPU stated was readable ("
                         + _SEARCHED + "); at least SPDK's local NVMe path, 269 cycles (host.STACK_CYCLES); set "
                         "target.cycles_per_io"),
    ("spdk", "infiniband"): (math.nan, math.nan, math.nan, "not known: as rocev2 (SPDK's RDMA transport); set "
                                                           "target.cycles_per_io"),
}
assert {t for _, t in TARGET_CYCLES} | {"none"} == set(_TRANSPORTS)
assert {s for s, _ in TARGET_CYCLES} == set(STACKS[1:])


def _table() -> np.ndarray:
    """cycles per I/O by (stack code, transport code); NaN where not known or not modelled."""
    out = np.full((len(STACKS), len(_TRANSPORTS)), np.nan)
    for (s, t), row in TARGET_CYCLES.items():
        out[STACKS.index(s), _TRANSPORTS.index(t)] = row[0]
    return out


_TABLE = _table()


def target_defaults(stack_codes, transport_codes) -> np.ndarray:
    """The published cycles per I/O of the targets for ``target.stack`` × ``fabric.transport`` codes (NaN: none)."""
    return _TABLE[np.asarray(stack_codes, dtype=int), np.asarray(transport_codes, dtype=int)]


def _target(p) -> Limit:
    if "target.stack" not in p or everywhere(p["target.stack"], 0.0) or everywhere(p["fabric.present"], 0.0):
        return Limit()
    cycles = p["target.cycles_per_io"]
    cycles = np.where(np.isnan(cycles), target_defaults(p["target.stack"], p["fabric.transport"]), cycles)
    given = np.asarray(p["target.cores"], dtype=float)
    all_cores = np.asarray(p["host.sockets"] * p["host.cores_per_socket"], dtype=float)
    cores = np.where(given > 0, given, all_cores)
    share = np.where(given > 0, 1.0, p["host.cpu_utilization_max"])
    x = cores * p["host.clock_hz"] * share / cycles
    on = (np.asarray(p["target.stack"]) > 0) & (np.asarray(p["fabric.present"]) > 0) & ~np.isnan(x)
    return Limit(system=np.where(on, x, np.inf))


TARGET_CPU = register(Component(
    "target_cpu", "the NVMe-oF target's CPU (its cores x clock / cycles per I/O)", 72, _target,
    parameters=("target.stack", "target.cores", "target.cycles_per_io", "fabric.transport", "host.sockets",
                "host.cores_per_socket", "host.clock_hz"),
    summary="the NVMe-oF target's CPU: the host's (or the target's own) cores x clock / the target's cycles per I/O",
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
                  "nvmemodel.ceiling.target.TARGET_CYCLES; none found, so not applied)", lo=0, lo_open=True,
                  unknown_ok=True, default=math.nan,
                  source="not known: no published per-core figure of a kernel or SPDK NVMe-oF target with its CPU "
                         "stated was found (docs/physics.md §5.2); set it or fit it to your runs"),
    )))
