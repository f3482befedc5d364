"""The workload: access pattern, block size, read fraction, queue depth, jobs, I/O stack."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import ParameterError
from ..parameters import PARAMETERS
from ..units import parse_block_size
from .host import IoStack

__all__ = ["Workload"]

#: fio ``rw=`` names → (random?, read fraction or None when rwmixread decides).
_PATTERNS = {
    "read": (False, 1.0), "write": (False, 0.0), "rw": (False, None), "readwrite": (False, None),
    "randread": (True, 1.0), "randwrite": (True, 0.0), "randrw": (True, None),
}


@dataclasses.dataclass(frozen=True)
class Workload:
    """What the benchmark asks of each drive.

    Parameters
    ----------
    pattern : str
        fio's ``rw=`` vocabulary: ``read``, ``write``, ``randread``, ``randwrite``,
        ``rw``/``readwrite``, ``randrw``.
    block_size : float | str
        Bytes per I/O; strings use the storage convention (``"4K"`` = 4096).
    read_fraction : float | None
        Fraction of I/Os that are reads; implied by pure patterns, required for mixes
        (fio's ``rwmixread``/100).
    iodepth, numjobs : int
        Outstanding I/Os per job and jobs, *per drive* when ``per_drive`` (the
        usual one-job-section-per-device setup), else for the whole system.
    io_stack : IoStack
        Host software path (sets the default CPU cycles per I/O).
    """

    pattern: str = "randread"
    block_size: float | str = 4096.0  # a str ("4K") is read as bytes: a float after __post_init__
    read_fraction: float | None = None
    iodepth: int = 32
    numjobs: int = 1
    io_stack: IoStack = IoStack.LIBAIO
    per_drive: bool = True

    def __post_init__(self) -> None:
        pattern = str(self.pattern).lower()
        if pattern not in _PATTERNS:
            raise ParameterError("pattern", self.pattern, f"one of {', '.join(_PATTERNS)}")
        object.__setattr__(self, "pattern", pattern)
        bs = parse_block_size(self.block_size) if isinstance(self.block_size, str) else self.block_size
        PARAMETERS["workload.block_size"].check(bs)
        object.__setattr__(self, "block_size", float(bs))
        implied = _PATTERNS[pattern][1]
        if self.read_fraction is None:
            if implied is None:
                raise ParameterError("read_fraction", None, f"a fraction 0..1 for the mixed pattern {pattern!r}")
            object.__setattr__(self, "read_fraction", implied)
        else:
            PARAMETERS["workload.read_fraction"].check(self.read_fraction)
            if implied is not None and self.read_fraction != implied:
                raise ParameterError("read_fraction", self.read_fraction,
                                     f"{implied} for pattern {pattern!r} (use 'randrw' or 'rw' for a mix)")
            object.__setattr__(self, "read_fraction", float(self.read_fraction))
        PARAMETERS["workload.iodepth"].check(self.iodepth)
        PARAMETERS["workload.numjobs"].check(self.numjobs)
        PARAMETERS["workload.per_drive"].check(float(self.per_drive))
        object.__setattr__(self, "io_stack", IoStack.parse(self.io_stack))

    @property
    def random(self) -> bool:
        return _PATTERNS[self.pattern][0]

    def replace(self, **changes: Any) -> Workload:
        return dataclasses.replace(self, **changes)

    def parameters(self) -> dict:
        """``workload.*`` entries of the parameter vector (the I/O stack by name)."""
        return {
            "workload.block_size": self.block_size, "workload.read_fraction": self.read_fraction,
            "workload.random": float(self.random), "workload.iodepth": float(self.iodepth),
            "workload.numjobs": float(self.numjobs), "workload.per_drive": float(self.per_drive),
            "workload.io_stack": self.io_stack.value,
        }

    @classmethod
    def from_parameters(cls, p) -> Workload:
        """The workload a parameter vector describes (the pattern named from random × read fraction)."""
        from ..parameters import decode

        rf, random = float(p["workload.read_fraction"]), bool(float(p["workload.random"]))
        mixed = "randrw" if random else "rw"
        pattern = {1.0: "randread" if random else "read", 0.0: "randwrite" if random else "write"}.get(rf, mixed)
        return cls(pattern, float(p["workload.block_size"]), rf, int(p["workload.iodepth"]),
                   int(p["workload.numjobs"]), decode("workload.io_stack", p["workload.io_stack"]),
                   bool(float(p["workload.per_drive"])))

    def describe(self) -> str:
        bs = float(self.block_size)
        size = f"{bs / 1024:g}K" if bs % 1024 == 0 else f"{bs:g}B"
        mix = "" if self.read_fraction in (0.0, 1.0) else f" {self.read_fraction:.0%} read"
        qd = (f"QD{self.iodepth} (psync is synchronous: 1 in flight per job)"
              if self.io_stack is IoStack.PSYNC and self.iodepth > 1 else f"QD{self.iodepth}")
        return f"{size} {self.pattern}{mix}, {qd} x {self.numjobs} job(s), {self.io_stack.value}"
