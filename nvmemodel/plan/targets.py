"""What a planner asks for: per workload, a throughput target (IOPS or bytes/s) and optionally a latency.

Human units are parsed here, at the edge: ``"10M"`` IOPS, ``"60GB/s"`` or ``"7GiB/s"`` bytes/s,
``"100Gb/s"`` (bits), ``"200us"``. Ambiguous text (``"60G"``, ``"60 gbps"``) is refused with a message
saying what to write instead.
"""

from __future__ import annotations

import dataclasses
import math
import re

from ..errors import ParameterError, UnitError
from ..topology.workload import Workload
from ..units import parse_bandwidth, parse_count, parse_time

__all__ = ["STANDARD_WORKLOADS", "Target", "parse_iops", "parse_latency", "parse_rate"]

#: The planner's usual workloads, by the names the CLI uses.
STANDARD_WORKLOADS = {
    "4k-randread": Workload("randread", "4K"),
    "4k-randwrite": Workload("randwrite", "4K"),
    "4k-oltp-70-30": Workload("randrw", "4K", read_fraction=0.7),
    "128k-read": Workload("read", "128K"),
    "128k-write": Workload("write", "128K"),
}


def parse_iops(text: str | float, what: str = "--iops") -> float:
    """``"10M"`` → 1e7 I/O per second (decimal prefixes only; ``"10Mi"`` is refused)."""
    try:
        value = parse_count(text)
    except UnitError as exc:
        raise ParameterError(what, text, f"an I/O rate such as 10M, 2.5M or 800K ({exc})") from None
    if not value > 0 or not math.isfinite(value):
        raise ParameterError(what, text, "a positive I/O rate such as 10M")
    return value


def parse_rate(text: str | float, what: str = "--read-bw") -> float:
    """A data rate in bytes/s; the unit must say bytes (B) or bits (b) and per second.

    >>> parse_rate("60GB/s"), parse_rate("7GiB/s") == 7 * 2**30, parse_rate("100Gb/s")
    (60000000000.0, True, 12500000000.0)
    """
    if isinstance(text, (int, float)):
        value = float(text)
    else:
        t = str(text).strip()
        if re.fullmatch(r"[\d.eE+-]+\s*[kKMGTP]?i?", t):
            raise ParameterError(what, text, "a data rate with its unit: bytes (60GB/s, 7GiB/s) or bits (100Gb/s); "
                                             "a bare number or prefix is ambiguous")
        try:
            value = parse_bandwidth(t)
        except UnitError:
            raise ParameterError(what, text, "a data rate such as 60GB/s, 7GiB/s, 6200MB/s or 100Gb/s "
                                             "(B = bytes, b = bits; G/M/K decimal, Gi/Mi/Ki binary)") from None
    if not value > 0 or not math.isfinite(value):
        raise ParameterError(what, text, "a positive data rate")
    return value


def parse_latency(text: str | float, what: str = "--latency") -> float:
    """``"200us"`` → 2e-4 s; a bare number is refused (seconds or microseconds?)."""
    if isinstance(text, str) and re.fullmatch(r"\s*[\d.eE+-]+\s*", text):
        raise ParameterError(what, text, "a latency with its unit, e.g. 200us, 0.5ms")
    try:
        value = parse_time(text)
    except UnitError:
        raise ParameterError(what, text, "a latency such as 200us, 80µs or 1.5ms") from None
    if not value > 0 or not math.isfinite(value):
        raise ParameterError(what, text, "a positive latency")
    return value


@dataclasses.dataclass(frozen=True)
class Target:
    """One workload and what it must reach.

    Parameters
    ----------
    workload : Workload
    iops : float, optional
        I/O per second the system must sustain.
    bytes_per_s : float, optional
        Bandwidth the system must sustain, bytes/s.
    latency_s : float, optional
        Mean latency bound, seconds, on the model's latency at the workload's queue depth
        (:func:`nvmemodel.plan.latency.latency_at`: the larger of the drive's QD1 latency + the I/O stack's CPU
        time + the fabric's, and I/Os in flight / IOPS). Where the drive's QD1 latency is unknown the
        configuration is *unverified* (:attr:`Plan.unverified`), never counted as meeting it.
    name : str
        Label used in the plan's columns (default: the workload's short description).
    """

    workload: Workload
    iops: float | None = None
    bytes_per_s: float | None = None
    latency_s: float | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if self.iops is None and self.bytes_per_s is None and self.latency_s is None:
            raise ParameterError("target", self.workload.describe(), "an iops, bytes_per_s or latency_s target")
        for field in ("iops", "bytes_per_s", "latency_s"):
            value = getattr(self, field)
            if value is not None and not (math.isfinite(value) and value > 0):
                raise ParameterError(f"target.{field}", value, "a positive finite number")
        if not self.name:
            bs = float(self.workload.block_size)
            size = f"{bs / 1024:g}K" if bs % 1024 == 0 else f"{bs:g}B"
            mix = "" if self.workload.read_fraction in (0.0, 1.0) else f"{self.workload.read_fraction:.0%}"
            object.__setattr__(self, "name", f"{size} {self.workload.pattern}{mix}")

    @property
    def iops_needed(self) -> float:
        """The IOPS the target implies (bandwidth targets divided by the block size); 0 if none."""
        need = 0.0
        if self.iops is not None:
            need = self.iops
        if self.bytes_per_s is not None:
            need = max(need, self.bytes_per_s / float(self.workload.block_size))
        return need

    def describe(self) -> str:
        parts = []
        if self.iops is not None:
            parts.append(f"{self.iops / 1e6:g} M IOPS" if self.iops < 1e12 else f"{self.iops:.3g} IOPS")
        if self.bytes_per_s is not None:
            parts.append(f"{self.bytes_per_s / 1e9:g} GB/s")
        if self.latency_s is not None:
            parts.append(f"<= {self.latency_s * 1e6:g} us")
        return f"{self.name}: " + ", ".join(parts)
