"""Linux md RAID's own ceiling per array: its locks and stripe handling, by level, I/O size and kernel generation.

md's limit on fast drives is not a cost per I/O the CPU term can express: it is a lock or a stripe-handling path
that a patch series moves (docs/physics.md §12.3.1). This module reads the published measurements of md arrays
(``nvmemodel/catalog/md_raid.csv``: one row per measurement, with its document, quoted sentence, hardware,
kernel and workload) and turns them into a ceiling **per array** for a level, a size class and a kernel:

* a *cell* is (level, direction, pattern, size class); reads are pooled over random and sequential (md's read
  path of a chunk does not look at the order), writes are not (sequential writes are merged into full stripes);
* each measurement says whether it is ``before`` or ``after`` its patch series (the kernel version that first
  carried it is its ``kernel_boundary``) or holds on ``all`` kernels (an unmerged fix), and whether md bound it
  (``ceiling``) or something else did and md's limit is above it (``at_least``: never charged);
* the kernel generation of ``raid.md_kernel`` picks the rows; the charged value is the median of the md-bound
  ones and the range their minimum and maximum (:class:`MdCell`). Small I/Os (at most 16 KiB) are charged per
  I/O, large ones (64 KiB – 1 MiB) per byte; sizes between, and levels and directions with no published
  measurement, get no ceiling — said, never invented;
* a read/write mix spends ``f / X_read + (1 − f) / X_write`` of md's time per I/O (an assumption: the two share
  the array's path); a direction with no published figure adds nothing, so the mix's ceiling stays an upper bound;
* md is Linux's: under the Windows stack (``workload.io_stack = windows_storport``) nothing is charged;
* the array's ceiling ``X`` is given to the model as each member's share ``X / W`` (``W = raid.width``), so ``n``
  drives in ``n / W`` arrays give ``n / W × X``; degraded arrays were not measured: the healthy figure is kept as
  an upper bound (reconstructing a lost chunk is more of md's work, not less).

The CPU term (``raid.cycles_per_io``) stays apart: it is what md costs the CPU, charged where the CPU binds; this
is where md itself binds, whatever the CPU has left.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import math
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import NvmeModelError, ParameterError
from ..parameters import PARAMETERS, Parameter
from .components import Component, Limit, everywhere, register

if TYPE_CHECKING:  # annotations only
    from .ranges import CostRange
    from .result import ScalingCurve

__all__ = ["KERNELS", "LARGE_MAX", "LARGE_MIN", "MD_RAID", "SMALL_MAX", "MdCell", "MdRow", "md_cell", "md_ceiling",
           "md_cost_range", "md_label", "md_range_lines", "md_rows", "parse_md_rows", "size_class"]

#: Linux mainline releases ``raid.md_kernel`` takes, oldest first (the order compares them; a distribution kernel
#: is named by the mainline release it is based on — backports are not seen).
KERNELS = tuple(f"3.{m}" for m in range(20)) + tuple(f"4.{m}" for m in range(21)) + \
    tuple(f"5.{m}" for m in range(20)) + tuple(f"6.{m}" for m in range(19))
#: The default kernel: 6.12 (November 2024), a long-term kernel current distributions ship (RHEL 10, Debian 13),
#: after every md patch series in the table — so the default charges md's newest published limits.
DEFAULT_KERNEL = "6.12"
#: Size classes (bytes): the small-I/O figures were measured at 4 KiB and are charged per I/O up to 16 KiB; the
#: large ones at 128 KiB, charged per byte from 64 KiB to 1 MiB (assumptions, docs/physics.md §12.3.1).
SMALL_MAX = 16 * 1024
LARGE_MIN, LARGE_MAX = 64 * 1024, 1024 * 1024
_FILE = "md_raid.csv"
_LEVELS = ("raid0", "raid1", "raid5", "raid6", "raid10")
_FIELDS = ("id", "levels", "measured_level", "members", "direction", "pattern", "block_bytes", "size_class", "patch",
           "kernel_boundary", "generation", "kind", "iops", "MB_per_s", "devices", "host", "kernel", "workload",
           "status", "source")


@dataclasses.dataclass(frozen=True)
class MdRow:
    """One published measurement of an md array (a row of ``catalog/md_raid.csv``); ``value`` is IOPS per array for
    the small class, bytes per second per array for the large one."""

    id: str
    levels: tuple[str, ...]
    direction: str
    pattern: str
    size_class: str
    patch: str
    kernel_boundary: str
    generation: str
    kind: str
    value: float
    source: str
    host: str
    devices: str
    workload: str


@dataclasses.dataclass(frozen=True)
class MdCell:
    """md's published ceiling per array for one (level, direction, pattern, size class) at one kernel generation.

    ``point`` is charged (the median of the md-bound measurements), ``low``–``high`` their range; ``unit`` is
    ``"IOPS"`` (small I/Os) or ``"B/s"`` (large); ``rows`` the ids of the measurements used, ``at_least`` those that
    show md's limit above a value (something else bound them); ``generation`` ``"before"``/``"after"`` the patch
    named (``boundary`` its first kernel) or ``"all"``."""

    level: str
    direction: str
    pattern: str
    size_class: str
    generation: str
    boundary: str
    patch: str
    point: float
    low: float
    high: float
    unit: str
    rows: tuple[str, ...]
    at_least: tuple[str, ...] = ()

    def per_array_iops(self, block_bytes: float) -> tuple[float, float, float]:
        """``(point, low, high)`` host I/Os per second per array at ``block_bytes``."""
        k = 1.0 if self.unit == "IOPS" else 1.0 / float(block_bytes)
        return self.point * k, self.low * k, self.high * k


def _bad(row: int, field: str, value, expected: str) -> NvmeModelError:
    return NvmeModelError(f"nvmemodel/catalog/{_FILE}, row {row} ({field} = {value!r}): expected {expected}")


@functools.lru_cache(maxsize=1)
def md_rows() -> tuple[MdRow, ...]:
    """The published md measurements, checked: every field present, levels, directions, patterns, generations and
    kinds from their few words, a kernel boundary that is a release in :data:`KERNELS` (empty only for ``all``),
    one positive value in the column of its size class (``iops`` small, ``MB_per_s`` large), a source."""
    return parse_md_rows(resources.files("nvmemodel.catalog").joinpath(_FILE).read_text(encoding="utf-8"))


def parse_md_rows(text: str) -> tuple[MdRow, ...]:
    """:func:`md_rows` of a CSV text (the catalog's form); :class:`~nvmemodel.errors.NvmeModelError` naming the
    file, row, field and what is expected at the first bad value."""
    reader = csv.DictReader(text.splitlines())
    if tuple(reader.fieldnames or ()) != _FIELDS:
        raise NvmeModelError(f"nvmemodel/catalog/{_FILE}: columns {reader.fieldnames}, expected {list(_FIELDS)}")
    out = []
    for i, r in enumerate(reader, start=2):
        levels = tuple(r["levels"].split("|"))
        if not levels or any(x not in _LEVELS for x in levels):
            raise _bad(i, "levels", r["levels"], f"levels from {_LEVELS} joined by '|'")
        for field, allowed in (("direction", ("read", "write")), ("pattern", ("random", "sequential")),
                               ("size_class", ("small", "large")), ("generation", ("before", "after", "all")),
                               ("kind", ("ceiling", "at_least"))):
            if r[field] not in allowed:
                raise _bad(i, field, r[field], f"one of {allowed}")
        boundary = r["kernel_boundary"]
        if (r["generation"] == "all") != (boundary == "") or (boundary and boundary not in KERNELS):
            raise _bad(i, "kernel_boundary", boundary, "a mainline release (e.g. 5.14) for before/after, empty for all")
        column, unit = ("iops", 1.0) if r["size_class"] == "small" else ("MB_per_s", 1e6)
        try:
            value = float(r[column]) * unit
        except ValueError:
            raise _bad(i, column, r[column], f"a number (the {r['size_class']} class's column)") from None
        if not (math.isfinite(value) and value > 0):
            raise _bad(i, column, r[column], "a finite number > 0")
        if not r["source"].strip() or r["status"] != "inferred":
            raise _bad(i, "source", r["source"][:40], "a document and its quoted sentence, status 'inferred'")
        out.append(MdRow(r["id"], levels, r["direction"], r["pattern"], r["size_class"], r["patch"], boundary,
                         r["generation"], r["kind"], value, r["source"], r["host"], r["devices"], r["workload"]))
    return tuple(out)


def size_class(block_bytes: float) -> str | None:
    """``"small"`` (at most 16 KiB), ``"large"`` (64 KiB – 1 MiB) or None (no published figure is carried there)."""
    s = float(block_bytes)
    if s <= SMALL_MAX:
        return "small"
    if LARGE_MIN <= s <= LARGE_MAX:
        return "large"
    return None


def _generation(kernel: str, boundary: str) -> str:
    return "after" if KERNELS.index(kernel) >= KERNELS.index(boundary) else "before"


@functools.lru_cache(maxsize=512)
def md_cell(level: str, direction: str, pattern: str, klass: str, kernel: str = DEFAULT_KERNEL) -> MdCell | None:
    """md's published ceiling per array for ``level`` (``"raid6"``), ``direction`` (``"read"``/``"write"``),
    ``pattern`` (``"random"``/``"sequential"``; reads pool both), size class ``klass`` and ``kernel``; None where no
    md-bound measurement exists for it.

    >>> c = md_cell("raid6", "read", "random", "small", "5.10")
    >>> c.generation, c.boundary, c.point, c.low, c.high
    ('before', '5.14', 1431500.0, 1071000.0, 2000000.0)
    >>> md_cell("raid6", "read", "random", "small", "6.12").point   # after md/raid5's lockless chunk reads
    5332000.0
    """
    if kernel not in KERNELS:
        raise ParameterError("raid.md_kernel", kernel, f"a Linux mainline release from {KERNELS[0]} to {KERNELS[-1]} "
                                                       "(e.g. '5.14', '6.12'), as text")
    picked = [r for r in md_rows() if level in r.levels and r.direction == direction and r.size_class == klass
              and (direction == "read" or r.pattern == pattern)
              and (r.generation == "all" or r.generation == _generation(kernel, r.kernel_boundary))]
    ceilings = [r for r in picked if r.kind == "ceiling"]
    if not ceilings:
        return None
    values = sorted(r.value for r in ceilings)
    first = ceilings[0]
    generation = "all" if first.generation == "all" else _generation(kernel, first.kernel_boundary)
    return MdCell(level, direction, pattern if direction == "write" else "any", klass, generation,
                  first.kernel_boundary, first.patch, float(np.median(values)), values[0], values[-1],
                  "IOPS" if klass == "small" else "B/s", tuple(r.id for r in ceilings),
                  tuple(r.id for r in picked if r.kind == "at_least"))


def md_ceiling(level: str, block_bytes: float, read_fraction: float, random: bool,
               kernel: str = DEFAULT_KERNEL) -> tuple[float, float, float, list[MdCell]]:
    """``(point, low, high, cells)``: md's ceiling per array in host I/Os per second for this workload, and the
    cells it comes from; ``inf`` where no published measurement covers it. A mix: ``1 / (f / X_r + (1 − f) / X_w)``,
    a direction without a figure counting nothing (so the value stays an upper bound).

    >>> point, low, high, _ = md_ceiling("raid5", 4096, 1.0, True, "5.10")
    >>> round(point), round(low), round(high)
    (1431500, 1071000, 2000000)
    >>> md_ceiling("raid0", 4096, 1.0, True)[0]        # no published lock-bound md RAID-0 figure
    inf
    """
    klass = size_class(block_bytes)
    if level not in _LEVELS or klass is None:
        return math.inf, math.inf, math.inf, []
    f = float(read_fraction)
    pattern = "random" if random else "sequential"
    cells, inv = [], np.zeros(3)
    for direction, share in (("read", f), ("write", 1.0 - f)):
        if share <= 0:
            continue
        cell = md_cell(level, direction, pattern, klass, kernel)
        if cell is None:
            continue
        cells.append(cell)
        inv += share / np.asarray(cell.per_array_iops(block_bytes))
    if not cells:
        return math.inf, math.inf, math.inf, []
    point, low, high = (float(1.0 / x) for x in inv)  # (the low figures give the low ceiling)
    return point, low, high, cells


def _present(p: Mapping[str, Any]) -> bool:
    return "raid.level" in p and not everywhere(p["raid.level"], 0.0)


def _limit(p: Mapping[str, Any]) -> Limit:
    """Each member's share ``X / W`` of its array's md ceiling ``X`` (``raid.md_iops`` where set, else the published
    figure at ``raid.md_kernel``); computed per host I/O on the host's parameters (system.py: ``_PER_HOST_IO``)."""
    if not _present(p):
        return Limit()
    names = PARAMETERS["raid.level"].choices
    kernels = PARAMETERS["raid.md_kernel"].choices
    cols = [np.asarray(p[k], dtype=float) for k in ("raid.level", "workload.block_size", "workload.read_fraction",
                                                     "workload.random", "raid.md_kernel")]
    W = np.asarray(p["raid.width"], dtype=float)
    given = np.asarray(p.get("raid.md_iops", np.nan), dtype=float)
    stack = np.asarray(p.get("workload.io_stack", np.nan), dtype=float)
    shape = np.broadcast_shapes(*(c.shape for c in cols), W.shape, given.shape, stack.shape)
    flat = np.stack([np.broadcast_to(c, shape).ravel() for c in cols])
    keys, where = np.unique(flat, axis=1, return_inverse=True)
    per_key = np.array([md_ceiling(names[int(lv)], S, f, bool(rnd), kernels[int(k)])[0]
                        for lv, S, f, rnd, k in keys.T], dtype=float)
    X = per_key[np.asarray(where).ravel()].reshape(shape)
    # md is Linux's: a Windows host's software RAID (Storage Spaces) is not charged md's figures
    windows = float(PARAMETERS["workload.io_stack"].choices.index("windows_storport"))
    X = np.where(np.broadcast_to(stack, shape) == windows, np.inf, X)
    level = flat[0].reshape(shape)
    X = np.where(~np.isnan(np.broadcast_to(given, shape)) & (level != 0), np.broadcast_to(given, shape), X)
    # degraded arrays were not measured: the healthy array's figure is kept as an upper bound (md reconstructs lost
    # chunks through the stripe cache, more work per I/O, never less)
    if not np.any(np.isfinite(X)):
        return Limit()
    share = X / np.broadcast_to(W, shape)
    return Limit(drive=float(share) if share.ndim == 0 else share)


def _words(x: float, unit: str) -> str:
    from ..units import format_iops

    return format_iops(x) if unit == "IOPS" else f"{x / 1e9:.3g} GB/s"


def md_label(parameters: Mapping[str, Any]) -> str | None:
    """The component named for one configuration (public values, e.g. ``curve.parameters``): which md path binds,
    under which kernel generation, the published range and the value charged; None without an md level.

    >>> print(md_label({"raid.level": "raid6", "raid.md_kernel": "5.10", "workload.block_size": 4096.0,
    ...                 "workload.read_fraction": 1.0, "workload.random": 1.0}))  # doctest: +NORMALIZE_WHITESPACE
    md RAID-6 stripe handling (lock-bound), kernel < 5.14: 1.07–2.00 M IOPS per array in 4 published measurements,
    1.43 M IOPS charged (docs/physics.md §12.3.1)
    """
    level = parameters.get("raid.level", "none")
    if not isinstance(level, str) or level in ("none", "0", "0.0"):
        return None
    name = level.upper().replace("RAID", "RAID-")
    if str(parameters.get("workload.io_stack", "")).startswith("windows"):
        return f"md {name}: not charged (Linux md's figures; a Windows host's software RAID is not md)"
    given = float(parameters.get("raid.md_iops", math.nan))
    if not math.isnan(given):
        return (f"md {name} per array: {_words(given, 'IOPS')} (raid.md_iops, set)" if math.isfinite(given) else
                f"md {name}: no ceiling of its own (raid.md_iops = inf, set)")
    kernel = str(parameters.get("raid.md_kernel", DEFAULT_KERNEL))
    S = float(parameters.get("workload.block_size", 4096.0))
    f = float(parameters.get("workload.read_fraction", 1.0))
    rnd = float(parameters.get("workload.random", 1.0)) > 0
    point, _, _, cells = md_ceiling(level, S, f, rnd, kernel)
    if not cells:
        return (f"md {name} stripe handling: no published md-bound figure for this level, size and direction "
                "(not charged)")
    parts = []
    for c in cells:
        if c.generation == "all":
            when = "every kernel (fix not merged)"
        else:
            when = f"kernel {'<' if c.generation == 'before' else '≥'} {c.boundary}"
        n = len(c.rows)
        span = (f"{_words(c.low, c.unit)} in one published measurement (its uncertainty unknown)" if n == 1 else
                f"{_span(c.low, c.high, c.unit)} per array in {n} published measurements")
        what = "" if len(cells) == 1 else f"{c.direction}s: "
        parts.append(f"{what}{when}: {span}")
    charged = _words(point, "IOPS")
    if any(c.unit == "B/s" for c in cells):  # large I/Os: the bytes too
        charged += f" ({point * S / 1e9:.3g} GB/s of {S / 1024:g} KiB I/Os)"
    return (f"md {name} stripe handling (lock-bound), {'; '.join(parts)}, {charged} charged "
            "(docs/physics.md §12.3.1)")


def _span(low: float, high: float, unit: str) -> str:
    if unit == "IOPS":
        from .ranges import iops_span

        return iops_span(low, high)
    return f"{low / 1e9:.3g}–{high / 1e9:.3g} GB/s"


def md_range_lines(curve: ScalingCurve, drives: int | None = None) -> list[str]:
    """The sentence of md's published range, where it changes the answer: the curve evaluated again with md's
    per-array figure at the low and the high end of its sources (``raid.md_iops`` = each end; the same kernel,
    :func:`~nvmemodel.ceiling.system.levels_of` + :func:`~nvmemodel.ceiling.compose.compose`), at ``drives`` or,
    along the curve, at its last drive count. [] where md's figure is one's own (``raid.md_iops`` set), a single
    measurement, none, or where its range moves nothing (another component binds at both ends); a topology of groups
    is not ranged."""
    if hasattr(curve.topology, "groups"):
        return []
    p = curve.parameters
    level = p.get("raid.level", "none")
    if not isinstance(level, str) or level == "none" or not math.isnan(float(p.get("raid.md_iops", math.nan))):
        return []
    if str(p.get("workload.io_stack", "")).startswith("windows"):
        return []
    S = float(p["workload.block_size"])
    point, low, high, cells = md_ceiling(level, S, float(p["workload.read_fraction"]),
                                         float(p["workload.random"]) > 0, str(p.get("raid.md_kernel", DEFAULT_KERNEL)))
    if not cells or high <= low * (1 + 1e-9):
        return []
    from .compose import compose
    from .system import levels_of

    n = int(drives) if drives is not None else int(np.max(curve.drives))
    ends = []
    for value in (low, high):
        lv = levels_of({**p, "raid.md_iops": value})
        res = compose((lv,), np.asarray([float(n)]), groups=False)
        ends.append(float(np.asarray(res["iops"], dtype=float).ravel()[0]))
    at_low, at_high = ends
    if at_high <= at_low * 1.0005:
        return []
    from .ranges import iops_span

    name = level.upper().replace("RAID", "RAID-")
    what = f"{iops_span(low, high)} per array" if len(cells) == 1 and cells[0].unit == "IOPS" else \
        f"{iops_span(low, high)} per array at {S / 1024:g} KiB"
    head = "  " if drives is None else ""
    return [f"{head}md {name}'s own ceiling is a published range ({what}, {_words(point, 'IOPS')} charged; "
            f"docs/physics.md §12.3.1): at {n} drive{'s' if n != 1 else ''} the ceiling lies in "
            f"{iops_span(at_low, at_high)}."]


def md_cost_range(curve: ScalingCurve) -> list[CostRange]:
    """md RAID's own ceiling per array (``raid.md_iops``) as a ranged figure, where it is the published one and its
    sources leave a range (:func:`md_ceiling`: the minimum and maximum of the md-bound
    measurements at the curve's level, size class, direction and kernel): a rate, I/Os per second per array, whose low
    end is the dearest. [] where md is not modelled, its figure is one's own (``raid.md_iops`` set), a single
    measurement or none covers the workload, or the stack is Windows'. A topology of groups is ranged as one drive
    model is (its arrays take one md figure, :func:`~nvmemodel.ceiling.ranges.curve_range` composing the groups at each
    end) where every group charges md the same figure (the same level, kernel, stack and workload: no group's own
    workload differs in size or mix); not a mirror spanning two groups (md's read balancing, not ranged)."""
    from .ranges import CostRange

    p = curve.parameters
    if hasattr(curve.topology, "groups"):
        if getattr(curve.topology, "mirror", False):
            return []
        keys = ("raid.level", "raid.md_kernel", "raid.md_iops", "workload.io_stack", "workload.block_size",
                "workload.read_fraction", "workload.random")
        if any(str(q.get(k)) != str(p.get(k)) for q in getattr(curve, "group_parameters", ()) for k in keys):
            return []
    level = p.get("raid.level", "none")
    if not isinstance(level, str) or level == "none" or not math.isnan(float(p.get("raid.md_iops", math.nan))) \
            or str(p.get("workload.io_stack", "")).startswith("windows"):
        return []
    point, low, high, cells = md_ceiling(level, float(p["workload.block_size"]), float(p["workload.read_fraction"]),
                                         float(p["workload.random"]) > 0, str(p.get("raid.md_kernel", DEFAULT_KERNEL)))
    if not cells or not high > low * (1 + 1e-9):
        return []
    rows = ", ".join(r for c in cells for r in c.rows)
    why = f"{md_label(p)}; measurements {rows} (nvmemodel/catalog/md_raid.csv)"
    return [CostRange("raid.md_iops", f"md {level.upper().replace('RAID', 'RAID-')} per array", point, low, high, why,
                      unit="I/Os per second per array", dear_is_high=False)]


MD_RAID = register(Component(
    "md_raid", "Linux md's own stripe and lock handling per array (published measurements, by kernel)", 35, _limit,
    parameters=("raid.level", "raid.width", "raid.md_kernel", "raid.md_iops", "workload.block_size",
                "workload.read_fraction", "workload.io_stack"),
    summary="md RAID per array: its locks and stripe handling, by level, I/O size and kernel (published)",
    color="#66a61e", label_of=md_label,
    declares=(
        Parameter("raid.md_kernel", "", "categorical", "Linux kernel (mainline release) the md arrays run: picks md's "
                  "published per-array ceilings before/after its lock patch series (docs/physics.md §12.3.1)",
                  choices=KERNELS, default=DEFAULT_KERNEL,
                  source="default: 6.12, a current long-term kernel (RHEL 10, Debian 13), after every md patch series "
                         "in nvmemodel/catalog/md_raid.csv; set the kernel your arrays run"),
        Parameter("raid.md_iops", "1/s", "continuous", "md's own ceiling per array in host I/Os per second (NaN: the "
                  "published figure at raid.md_kernel; inf: none)", lo=0, lo_open=True, inf_ok=True, unknown_ok=True,
                  default=math.nan, source="default: md's published ceiling at raid.md_kernel "
                                           "(nvmemodel/catalog/md_raid.csv, docs/physics.md §12.3.1)"),
    )))
