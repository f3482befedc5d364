"""NVMe drives: spec-sheet limits, block-size behaviour, mixed read/write."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from ..errors import NvmeModelError
from ..parameters import Source
from ..standards.pcie import Gen
from ..units import MB
from ._catalog import lookup, number, read_catalog
from ._fields import check_fields, export, field_source

__all__ = ["Drive", "catalog_keys", "drive_catalog", "drive_iops", "get_drive"]

#: Fields that are parameters (``drive.<field>``), in table order.
FIELDS = ("gen", "lanes", "seq_read_bytes_per_s", "seq_write_bytes_per_s", "rand_read_iops", "rand_write_iops",
          "read_latency_s", "write_latency_s")

_NAN = float("nan")


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
        Provenance of every limit: where the numbers come from and how solid they are
        (``spec``, ``inferred``, ``recalled``, ``calibrated`` …).
    provenance : dict
        Per field, where it differs from ``source``/``status``: ``{"seq_read_bytes_per_s": "calibrated: …"}``.
    segment : str
        ``enterprise`` or ``client`` (catalog rows), else empty.
    pci_ids : tuple of str
        PCI ids that name this drive: ``"vvvv:dddd/ssvv:ssdd"`` (device and subsystem) or ``"vvvv:dddd"``.
    match, family : str
        Regular expressions over what ``lspci`` / sysfs print (device text, subsystem, NVMe model): ``match``
        names this drive alone, ``family`` a controller or product family it shares with other rows
        (``id:vvvv:dddd`` alternatives match the PCI id). ``match_note`` says what a match assumes.
    """

    name: str
    gen: Gen | int = Gen.GEN4  # a generation number is taken as its Gen
    lanes: int = 4
    seq_read_bytes_per_s: float = _NAN
    seq_write_bytes_per_s: float = _NAN
    rand_read_iops: float = _NAN
    rand_write_iops: float = _NAN
    read_latency_s: float = _NAN
    write_latency_s: float = _NAN
    source: str = ""
    status: str = "user"
    provenance: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)
    segment: str = dataclasses.field(default="", compare=False)
    pci_ids: tuple = dataclasses.field(default=(), compare=False, repr=False)
    match: str = dataclasses.field(default="", compare=False, repr=False)
    family: str = dataclasses.field(default="", compare=False, repr=False)
    match_note: str = dataclasses.field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "gen", Gen.parse(self.gen))
        check_fields(self, "drive", FIELDS)

    def replace(self, **changes: Any) -> Drive:
        """A copy with some fields changed (e.g. a calibrated limit)."""
        return dataclasses.replace(self, **changes)

    def parameters(self) -> dict[str, float]:
        """``drive.*`` entries of the parameter vector (SI; NaN = unknown)."""
        return export(self, "drive", FIELDS)

    def sources(self) -> dict[str, Source]:
        """Where each ``drive.*`` value comes from."""
        fallback = Source(self.status, self.source)
        return {f"drive.{f}": field_source(self.provenance, f, fallback) for f in FIELDS}

    def iops_at(self, block_size: float, read_fraction: float = 1.0) -> Any:
        """The drive's own IOPS ceiling for a block size and read fraction (see :func:`drive_iops`)."""
        p = self.parameters()
        return drive_iops(block_size, read_fraction, p["drive.rand_read_iops"], p["drive.rand_write_iops"],
                          p["drive.seq_read_bytes_per_s"], p["drive.seq_write_bytes_per_s"])


def drive_iops(block_size, read_fraction, rand_read_iops, rand_write_iops,
               seq_read_bytes_per_s, seq_write_bytes_per_s):
    """IOPS ceiling of one drive (the formula lives in :mod:`nvmemodel.ceiling.drive`)."""
    from ..ceiling.drive import drive_iops as formula

    return formula(block_size, read_fraction, rand_read_iops, rand_write_iops, seq_read_bytes_per_s,
                   seq_write_bytes_per_s)


def drive_catalog() -> dict[str, Drive]:
    """Every drive in ``catalog/drives.csv``, keyed by its short key."""
    return dict(_catalog())


@functools.cache
def _catalog() -> dict[str, Drive]:
    fn = "drives.csv"
    out = {}
    for row in read_catalog(fn):
        recalled = (row.get("recalled") or "").split()
        unknown = [f for f in recalled if f not in FIELDS]
        if unknown:
            raise NvmeModelError(f"{fn}: row {row['key']!r}, column 'recalled': {unknown} are not drive fields "
                                 f"(expected some of {', '.join(FIELDS)})")
        out[row["key"]] = Drive(
            name=row["name"], gen=int(row["gen"]), lanes=int(row["lanes"]),
            seq_read_bytes_per_s=number(row, "seq_read_MB_per_s", MB, filename=fn),
            seq_write_bytes_per_s=number(row, "seq_write_MB_per_s", MB, filename=fn),
            rand_read_iops=number(row, "rand_read_4k_iops", filename=fn),
            rand_write_iops=number(row, "rand_write_4k_iops", filename=fn),
            read_latency_s=number(row, "read_latency_us", 1e-6, filename=fn),
            write_latency_s=number(row, "write_latency_us", 1e-6, filename=fn),
            source=row["source"], status=row["status"],
            provenance=_provenance(row, recalled, fn),
            segment=row.get("segment", ""), pci_ids=tuple((row.get("pci_ids") or "").lower().split()),
            match=row.get("match", ""), family=row.get("family", ""), match_note=row.get("match_note", ""),
        )
    return out


_LATENCY = ("read_latency_s", "write_latency_s")
_LATENCY_STATUSES = ("spec", "inferred", "measured")


def _provenance(row: dict, recalled: list[str], fn: str) -> dict[str, str]:
    """Per-field sources of one catalog row: ``recalled`` fields cite the row's source as recalled; the QD1
    latencies cite ``latency_source`` (with ``latency_status``) where the row has one, since latencies often come
    from a different document than the throughput figures (and may be sequential rather than random)."""
    out = {f: f"recalled: {row['source']}" for f in recalled}
    text, status = (row.get("latency_source") or "").strip(), (row.get("latency_status") or "row").strip()
    if (status == "row") == bool(text) or status not in ("row", *_LATENCY_STATUSES):
        raise NvmeModelError(f"{fn}: row {row['key']!r}, columns 'latency_status'/'latency_source': expected 'row' "
                             f"with no latency source (the latencies are the row source's) or a status "
                             f"({', '.join(_LATENCY_STATUSES)}) with its source, got {status!r} / {text[:40]!r}")
    if text:
        out.update({f: f"{status}: {text}" for f in _LATENCY if f not in recalled})
    return out


def catalog_keys() -> tuple[str, ...]:
    """Choices of the ``drive.model`` parameter: ``custom`` (the topology's own drive), then catalog keys."""
    return ("custom", *drive_catalog())


def model_key(drive: Drive) -> str:
    """The catalog key of a drive with this name, else ``custom``."""
    for key, entry in drive_catalog().items():
        if entry.name == drive.name:
            return key
    return "custom"


def get_drive(name: str) -> Drive:
    """Look a drive up by key (``"samsung-pm1733-u2"``) or by display name, case-insensitively."""
    return lookup(drive_catalog(), name, "drive")
