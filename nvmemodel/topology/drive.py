"""NVMe drives: spec-sheet limits, block-size behaviour, mixed read/write."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .. import _check
from ..standards.pcie import Gen
from ..units import MB
from ._catalog import lookup, number, read_catalog

__all__ = ["Drive", "drive_catalog", "get_drive", "drive_iops"]

_NAN = math.nan


@dataclasses.dataclass(frozen=True)
class Drive:
    """One NVMe drive model and its spec-sheet limits, in SI units.

    A NaN limit means *unknown*: the model does not apply it and says so.

    Parameters
    ----------
    name : str
        Display name.
    gen, lanes : Gen, int
        The drive's own PCIe interface.
    seq_read_bytes_per_s, seq_write_bytes_per_s : float
        Sequential bandwidth limits, bytes/s (the bandwidth limit at every block size).
    rand_read_iops, rand_write_iops : float
        4 KiB random IOPS limits (the command-rate limit at every block size).
    read_latency_s, write_latency_s : float
        QD1 latency at 4 KiB, seconds (the R₀ of Little's law).
    source, status : str
        Provenance: where the numbers come from and how solid they are
        (``spec``, ``inferred``, ``recalled``, ``calibrated``).
    """

    name: str
    gen: Gen = Gen.GEN4
    lanes: int = 4
    seq_read_bytes_per_s: float = _NAN
    seq_write_bytes_per_s: float = _NAN
    rand_read_iops: float = _NAN
    rand_write_iops: float = _NAN
    read_latency_s: float = _NAN
    write_latency_s: float = _NAN
    source: str = ""
    status: str = "user"

    def __post_init__(self) -> None:
        object.__setattr__(self, "gen", Gen.parse(self.gen))
        _check.choice("drive.lanes", self.lanes, (1, 2, 4, 8, 16))
        for field in ("seq_read_bytes_per_s", "seq_write_bytes_per_s", "rand_read_iops",
                      "rand_write_iops", "read_latency_s", "write_latency_s"):
            value = getattr(self, field)
            if not (isinstance(value, float) and math.isnan(value)):
                _check.positive(f"drive.{field}", value)

    def replace(self, **changes) -> "Drive":
        """A copy with some fields changed (e.g. a calibrated limit)."""
        return dataclasses.replace(self, **changes)

    def parameters(self) -> dict[str, float]:
        return {
            "drive.gen": float(self.gen), "drive.lanes": float(self.lanes),
            "drive.seq_read_bytes_per_s": self.seq_read_bytes_per_s,
            "drive.seq_write_bytes_per_s": self.seq_write_bytes_per_s,
            "drive.rand_read_iops": self.rand_read_iops,
            "drive.rand_write_iops": self.rand_write_iops,
            "drive.read_latency_s": self.read_latency_s,
            "drive.write_latency_s": self.write_latency_s,
        }

    def iops_at(self, block_size: float, read_fraction: float = 1.0):
        """The drive's own IOPS ceiling for a block size and read fraction (see :func:`drive_iops`)."""
        p = self.parameters()
        return drive_iops(block_size, read_fraction, p["drive.rand_read_iops"], p["drive.rand_write_iops"],
                          p["drive.seq_read_bytes_per_s"], p["drive.seq_write_bytes_per_s"])


def drive_iops(block_size, read_fraction, rand_read_iops, rand_write_iops,
               seq_read_bytes_per_s, seq_write_bytes_per_s):
    """IOPS ceiling of one drive; NaN limits are ignored (treated as infinite).

    Per direction the lower of the command-rate limit and the bandwidth limit binds,
    ``X_dir = min(IOPS_dir, BW_dir / S)``; a read/write mix combines them harmonically,
    ``1/X = f/X_read + (1 − f)/X_write``, because each read and each write occupies the
    drive for ``1/X_read`` and ``1/X_write`` seconds of its capacity.
    """
    inf = np.inf
    x_read = np.fmin(np.nan_to_num(rand_read_iops, nan=inf), np.nan_to_num(seq_read_bytes_per_s, nan=inf) / block_size)
    x_write = np.fmin(np.nan_to_num(rand_write_iops, nan=inf), np.nan_to_num(seq_write_bytes_per_s, nan=inf) / block_size)
    with np.errstate(divide="ignore"):
        inv = read_fraction / x_read + (1.0 - read_fraction) / x_write
        return 1.0 / inv


def drive_catalog() -> dict[str, Drive]:
    """Every drive in ``catalog/drives.csv``, keyed by its short key."""
    fn = "drives.csv"
    out = {}
    for row in read_catalog(fn):
        out[row["key"]] = Drive(
            name=row["name"], gen=int(row["gen"]), lanes=int(row["lanes"]),
            seq_read_bytes_per_s=number(row, "seq_read_MB_per_s", MB, filename=fn),
            seq_write_bytes_per_s=number(row, "seq_write_MB_per_s", MB, filename=fn),
            rand_read_iops=number(row, "rand_read_4k_iops", filename=fn),
            rand_write_iops=number(row, "rand_write_4k_iops", filename=fn),
            read_latency_s=number(row, "read_latency_us", 1e-6, filename=fn),
            write_latency_s=number(row, "write_latency_us", 1e-6, filename=fn),
            source=row["source"], status=row["status"],
        )
    return out


def get_drive(name: str) -> Drive:
    """Look a drive up by key (``"samsung-pm1733-u2"``) or by display name, case-insensitively."""
    return lookup(drive_catalog(), name, "drive")
