"""Host ceilings: CPU cycles per I/O, and concurrency (Little's law) — docs/physics.md §4, §6."""

from __future__ import annotations

import numpy as np

from ..parameters import PARAMETERS
from . import ops
from .components import Component, Limit, register

__all__ = ["HOST_CPU", "QUEUE_DEPTH", "cpu_iops", "knee_outstanding", "littles_law_iops", "qd1_latency_s",
           "stack_size_factor"]


def cpu_iops(p):
    """``IOPS_cpu = sockets × cores × f_clk × u_max / cycles_per_io``.

    ``cycles_per_io`` includes the RAID layer's cycles and per-byte costs where those are in use
    (``cpu.cycles_per_host_io``, docs/physics.md §12). On SPDK, the stack's part is scaled by
    :func:`stack_size_factor` below 4 KiB (its cost is a 4 KiB figure; [SPDK21] measured 512 B too)."""
    stack = p["host.cycles_per_io"]
    cycles = p.get("cpu.cycles_per_host_io", stack)
    factor = stack_size_factor(p)
    if not (type(factor) in _ONE and factor == 1.0):
        cycles = cycles - stack * (1.0 - factor)
    return p["host.sockets"] * p["host.cores_per_socket"] * p["host.clock_hz"] * p["host.cpu_utilization_max"] / cycles


_ONE = (float, np.float64)
_SPDK = PARAMETERS["workload.io_stack"].choices.index("spdk")


def stack_size_factor(p):
    """The share of its 4 KiB cycles per I/O a stack costs at the workload's transfer size: 1 except SPDK below 4 KiB,
    ``SPDK_SMALL_IO``'s ratio (12.62 / 13.85 = 0.911, [SPDK21]'s 4 KiB and 512 B IOPS on one core) at 512 B and
    below, linear in the size between (docs/physics.md §4).

    >>> round(float(stack_size_factor({"workload.io_stack": "spdk", "workload.block_size": 512})), 3)
    0.911
    >>> float(stack_size_factor({"workload.io_stack": "libaio", "workload.block_size": 512}))
    1.0
    """
    if "workload.io_stack" not in p or "workload.block_size" not in p:
        return 1.0
    from ..topology.host import SPDK_SMALL_IO

    io = p["workload.io_stack"]
    spdk = io == "spdk" if isinstance(io, str) else ops.to_float(io) == _SPDK
    if type(spdk) in (bool, np.bool_) and not spdk:
        return 1.0
    small, ratio, _ = SPDK_SMALL_IO
    size = ops.to_float(p["workload.block_size"])
    below = np.clip((4096.0 - size) / (4096.0 - small), 0.0, 1.0)
    return ops.where(spdk, 1.0 - (1.0 - ratio) * below, 1.0)


def qd1_latency_s(block_size, read_fraction, p):
    """R₀: the drive's 4 KiB QD1 latency, plus the extra transfer time of a larger block at
    the drive's bandwidth, plus the fabric's added latency. NaN where the drive latency is unknown."""
    S = ops.to_float(block_size)
    f = ops.to_float(read_fraction)
    lat = f * p["drive.read_latency_s"] + (1 - f) * p["drive.write_latency_s"]
    with np.errstate(invalid="ignore"):
        lat = ops.where(f == 1, p["drive.read_latency_s"], ops.where(f == 0, p["drive.write_latency_s"], lat))
    bw = f * p["drive.seq_read_bytes_per_s"] + (1 - f) * p["drive.seq_write_bytes_per_s"]
    extra = ops.nan_to_num(ops.fmax(S - 4096.0, 0.0) / bw)
    # the fabric's adder only where there is a fabric (a local drive's R0 is the drive's own latency)
    fabric = p["fabric.added_latency_s"] * p["fabric.present"] if "fabric.present" in p else p["fabric.added_latency_s"]
    return lat + extra + fabric


def littles_law_iops(outstanding, latency_s):
    """Little's law bound ``X ≤ N / R₀``; infinite where R₀ is unknown (NaN).

    >>> round(float(littles_law_iops(128, 40e-6)))   # 128 in flight, 40 µs each
    3200000
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        x = ops.to_float(outstanding) / latency_s
    return ops.where(ops.isnan(x), np.inf, x)


def knee_outstanding(x_max, r0_s):
    """The knee ``N* = X_max · R₀``: outstanding I/Os at which the curve saturates.

    >>> float(knee_outstanding(1.0e6, 80e-6))   # docs/physics.md §6 example
    80.0
    """
    return np.asarray(x_max, dtype=float) * r0_s


def _queue_depth(p) -> Limit:
    if ops.all_(ops.isnan(p["drive.read_latency_s"])) and ops.all_(ops.isnan(p["drive.write_latency_s"])):
        return Limit()  # latency unknown everywhere: Little's law cannot bound anything
    qd = littles_law_iops(p["workload.iodepth"] * p["workload.numjobs"],
                          qd1_latency_s(p["workload.block_size"], p["workload.read_fraction"], p))
    per_drive = p["workload.per_drive"] > 0
    if ops.all_(per_drive):
        return Limit(drive=qd)
    if not ops.any_(per_drive):
        return Limit(system=qd)
    return Limit(drive=np.where(per_drive, qd, np.inf), system=np.where(per_drive, np.inf, qd))


QUEUE_DEPTH = register(Component(
    "queue_depth", "outstanding I/O (Little's law: queue depth / latency)", 30, _queue_depth,
    parameters=("workload.iodepth", "workload.numjobs", "drive.read_latency_s", "drive.write_latency_s",
                "fabric.added_latency_s"),
    summary="Little's law: outstanding I/O / QD1 latency", color="#55a868"))

HOST_CPU = register(Component(
    "host_cpu", "host CPU cycles per I/O", 60, lambda p: Limit(system=cpu_iops(p)),
    parameters=("host.cycles_per_io", "host.sockets", "host.cores_per_socket", "host.clock_hz",
                "host.cpu_utilization_max"),
    summary="CPU cycles per I/O for the chosen I/O stack", color="#937860"))
