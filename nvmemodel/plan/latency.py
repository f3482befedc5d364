"""The latency the model gives a configuration at the queue depth asked (Little's law).

A closed system (fio at a fixed queue depth, no think time) keeps ``N`` I/Os in flight: ``N = X · R``
(docs/physics.md §6). Its mean latency is therefore bounded below by both asymptotes of operational
analysis [QSP]:

    R(n) ≥ max(R₀, N(n) / X(n))

with ``X(n)`` the model's ceiling at ``n`` drives (I/O per second), ``N(n) = iodepth × numjobs`` (× ``n``
when the jobs are per drive) and ``R₀`` one I/O's latency alone:

    R₀ = R_drive(block, read share) + R_fabric + R_stack

``R_drive + R_fabric`` is :func:`nvmemodel.ceiling.host.qd1_latency_s` (the drive's 4 KiB QD1 latency, the
transfer time of a larger block, the fabric's added latency). ``R_stack`` is the I/O stack's CPU time per
I/O on one core, ``cycles_per_io / clock``: an **estimate** that puts the whole software path (submit,
complete, interrupt) on the I/O's critical path — e.g. libaio's 8,200 cycles at 2.25 GHz = 3.6 µs, SPDK's
269 cycles at 4 KiB ≈ 0.12 µs, in line with the few microseconds the kernel path is usually measured to add.

Where the drive's QD1 latency is unknown (a catalog entry without it), ``R₀`` is unknown and so is the
latency; ``N / X`` is still a lower bound, so a configuration whose ``N / X`` already exceeds the target
fails it for certain, and the others are *unverified*.

References: [QSP] Lazowska et al., *Quantitative System Performance*, 1984, ch. 5 (asymptotic bounds).
"""

from __future__ import annotations

import numpy as np

from ..ceiling.host import qd1_latency_s

__all__ = ["latency_at", "outstanding", "stack_latency_s"]


def stack_latency_s(p):
    """The I/O stack's CPU time per I/O on one core, seconds: ``cycles per I/O / clock`` (an estimate).

    >>> round(stack_latency_s({"host.cycles_per_io": 10000.0, "host.clock_hz": 2.25e9}) * 1e6, 2)
    4.44
    """
    return p.get("cpu.cycles_per_host_io", p["host.cycles_per_io"]) / p["host.clock_hz"]


def outstanding(p, n):
    """I/Os in flight at ``n`` drives: ``iodepth × numjobs``, times ``n`` where the jobs are per drive."""
    return p["workload.iodepth"] * p["workload.numjobs"] * np.where(np.asarray(p["workload.per_drive"]) > 0, n, 1.0)


def latency_at(p, n, x):
    """``(R, N/X)``: the model's mean latency at ``n`` drives delivering ``x`` I/O per second, seconds, NaN
    where the drive's QD1 latency is unknown; and its Little's-law lower bound ``N / X`` (always known).

    >>> p = {"workload.block_size": 4096.0, "workload.read_fraction": 1.0, "drive.read_latency_s": 80e-6,
    ...      "drive.write_latency_s": 20e-6, "drive.seq_read_bytes_per_s": 7e9, "drive.seq_write_bytes_per_s": 3e9,
    ...      "fabric.added_latency_s": 10e-6, "fabric.present": 0.0, "host.cycles_per_io": 10000.0,
    ...      "host.clock_hz": 2.5e9, "workload.iodepth": 32.0, "workload.numjobs": 1.0, "workload.per_drive": 1.0}
    >>> r, low = latency_at(p, 4.0, 4 * 400e3)   # R0 = 80 + 4 us; N/X = 128 / 1.6 M = 80 us
    >>> round(float(r) * 1e6, 3), round(float(low) * 1e6, 3)
    (84.0, 80.0)
    """
    r0 = qd1_latency_s(p["workload.block_size"], p["workload.read_fraction"], p) + stack_latency_s(p)
    with np.errstate(divide="ignore", invalid="ignore"):
        little = outstanding(p, n) / x
    return np.where(np.isnan(r0), np.nan, np.fmax(r0, little)), little
