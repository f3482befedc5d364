"""A sweep plan: points (drives × pattern × block size × iodepth × numjobs), named so results label themselves.

Each point's result lands at ``results/<drives>drives/<pattern>-bs<bytes>-qd<iodepth>-nj<numjobs>.json``:
the drive count is in the path (:data:`PATH_PATTERN`, read by ``nvmemodel ingest --path-pattern`` and
the fit), everything else fio echoes in its JSON. Whitepaper matrices reproduce a paper's Table of
fio parameters (:data:`MATRICES`, each with its source and what the paper leaves unsaid).
"""

from __future__ import annotations

import dataclasses
import itertools
import pathlib
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import ParameterError
from .fiooptions import MAX_FIO_JOBS, RW_PATTERNS, SYNC_ENGINES, check_ioengine, check_target, fio_line

__all__ = ["MATRICES", "PATH_PATTERN", "PLAN_SCHEMA", "Matrix", "Plan", "SweepPoint", "matrix_plan", "sweep_plan"]

PLAN_SCHEMA = "nvmemodel.plan/1"
#: where a result's drive count is (``nvmemodel ingest --path-pattern``; relative to ``results/``)
PATH_PATTERN = "{drives}drives/*.json"
_PATTERNS = RW_PATTERNS
MIXED = ("rw", "readwrite", "randrw")


@dataclasses.dataclass(frozen=True)
class SweepPoint:
    """One fio run: the first ``drives`` targets, each with ``numjobs`` jobs of depth ``iodepth``.

    ``block_size`` in bytes; ``read_fraction`` only for mixed patterns (fio ``rwmixread`` / 100).
    """

    drives: int
    pattern: str
    block_size: int
    iodepth: int
    numjobs: int
    read_fraction: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.pattern, str) or self.pattern not in _PATTERNS:
            raise ParameterError("pattern", self.pattern, f"one of {', '.join(_PATTERNS)}")
        for name in ("drives", "block_size", "iodepth", "numjobs"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ParameterError(name, v, "a whole number ≥ 1")
        fio_line("bs", self.block_size)  # and within fio's range for each option
        fio_line("iodepth", self.iodepth)
        fio_line("numjobs", self.numjobs)
        if self.drives > MAX_FIO_JOBS:
            raise ParameterError("drives", self.drives, f"at most {MAX_FIO_JOBS} (one fio job per drive at least)")
        if self.pattern in MIXED:
            rf = 0.5 if self.read_fraction is None else self.read_fraction  # fio's rwmixread default: 50
            if isinstance(rf, bool) or not isinstance(rf, (int, float)) or not 0 <= rf <= 1:
                raise ParameterError("read_fraction", rf, "a share from 0 to 1")
            object.__setattr__(self, "read_fraction", float(rf))
        elif self.read_fraction is not None:
            object.__setattr__(self, "read_fraction", None)

    @property
    def name(self) -> str:
        mix = f"-rw{round(self.read_fraction * 100)}" if self.read_fraction is not None else ""
        return f"{self.pattern}{mix}-bs{self.block_size}-qd{self.iodepth}-nj{self.numjobs}"

    @property
    def result_path(self) -> str:
        """Relative to the plan's ``results/`` folder."""
        return f"{self.drives}drives/{self.name}.json"

    @property
    def job_path(self) -> str:
        """Relative to the plan's ``jobs/`` folder."""
        return f"{self.drives}drives/{self.name}.fio"

    def describe(self) -> str:
        mix = f" ({self.read_fraction:.0%} reads)" if self.read_fraction is not None else ""
        return (f"{self.drives} drive(s), {self.pattern}{mix} {_size(self.block_size)}, "
                f"QD{self.iodepth} x {self.numjobs} job(s)")


def _size(b: int) -> str:
    for unit, k in (("M", 2**20), ("K", 2**10)):
        if b % k == 0:
            return f"{b // k}{unit}"
    return f"{b}B"


@dataclasses.dataclass(frozen=True)
class Plan:
    """Targets, fio settings and points; stored as ``plan.json`` beside ``jobs/`` and ``results/``.

    Parameters
    ----------
    targets : tuple of str
        Files or block devices; point with ``drives=k`` uses the first ``k``.
    runtime_s, ramp_s : float
        fio ``runtime`` and ``ramp_time`` per point, seconds (time-based runs).
    size_bytes : int
        fio ``size`` per target (the file size fio lays out for file targets).
    ioengine : str
    direct : bool
        O_DIRECT (fio ``direct=1``); off for file systems without it (tmpfs).
    source : str
        Where the matrix comes from (``user sweep`` or the paper and its table).
    numa_nodes : tuple of int, optional
        NUMA node of each target (``nvmemodel discover`` shows them): each drive's jobs then run and
        allocate on its node (fio ``numa_cpu_nodes``, ``numa_mem_policy=bind``), so no job crosses the
        socket link.
    steady_state : str, optional
        fio's steady-state criterion for every point (``ss=``, e.g. ``iops_slope:0.2%``): fio ends a point
        once it holds over the last ``ss_duration_s`` (after ``ss_ramp_s``), else runs ``runtime_s``, and
        reports which in its JSON (the ``ss_attained`` column of the results table).
    ss_duration_s, ss_ramp_s : float
        The window fio judges (``ss_dur``) and the time before it starts judging (``ss_ramp``), whole seconds.
    precondition : bool
        Write the preconditioning steps (:func:`~nvmemodel.jobs.precondition.precondition_steps`: a discard of
        block devices, a sequential fill of twice the tested range, a random-write pass over it twice), run
        once before the points by ``run-sweep``. They write every target: block devices need
        ``allow_raw_device_writes``.
    """

    targets: tuple[str, ...]
    points: tuple[SweepPoint, ...]
    runtime_s: float = 60.0
    ramp_s: float = 5.0
    size_bytes: int = 2**30
    ioengine: str = "libaio"
    direct: bool = True
    source: str = "user sweep"
    notes: tuple[str, ...] = ()
    numa_nodes: tuple[int, ...] | None = None
    steady_state: str | None = None
    ss_duration_s: float = 0.0
    ss_ramp_s: float = 0.0
    precondition: bool = False

    def __post_init__(self) -> None:
        if self.numa_nodes is not None:
            nodes = tuple(self.numa_nodes)
            if len(nodes) != len(self.targets) or any(not isinstance(n, int) or isinstance(n, bool) or n < 0
                                                      for n in nodes):
                raise ParameterError("numa_nodes", ",".join(map(str, nodes)),
                                     f"one NUMA node number ≥ 0 per target ({len(self.targets)} targets)")
            object.__setattr__(self, "numa_nodes", nodes)
        if isinstance(self.targets, str) or not self.targets:
            raise ParameterError("targets", self.targets, "at least one file or device to test (a sequence of paths)")
        for target in self.targets:
            check_target(target)  # nothing fio would read as job-file syntax: see fiooptions
        if len(set(self.targets)) != len(self.targets):
            raise ParameterError("targets", ", ".join(self.targets), "each file or device once")
        if not self.points or not all(isinstance(p, SweepPoint) for p in self.points):
            raise ParameterError("points", self.points, "at least one sweep point (SweepPoint)")
        most = max(p.drives for p in self.points)
        if most > len(self.targets):
            raise ParameterError("drives", most, f"at most the {len(self.targets)} target(s) given "
                                                 f"({', '.join(self.targets)})")
        check_ioengine(self.ioengine)
        if not isinstance(self.direct, bool):
            raise ParameterError("direct", self.direct, "True or False (fio direct=1 or 0)")
        fio_line("runtime", self.runtime_s)  # finite, whole milliseconds ≥ 1, within fio's range
        fio_line("ramp_time", self.ramp_s)
        fio_line("size", self.size_bytes)
        largest = max(p.block_size for p in self.points)
        # fio takes size=0 as the whole file or device, and stops on a size below the block size ("blocksize
        # is larger than data set range"): fio 3.42 filesetup.c, setup_files()
        if self.size_bytes < largest:
            raise ParameterError("size_bytes", self.size_bytes, f"at least the largest block size ({largest:,} bytes) "
                                                                "per target")
        jobs = max(p.drives * p.numjobs for p in self.points)
        if jobs > MAX_FIO_JOBS:
            raise ParameterError("numjobs", jobs, f"at most {MAX_FIO_JOBS} fio jobs in one point (drives × numjobs; "
                                                  "fio's REAL_MAX_JOBS)")
        if len({p.name + str(p.drives) for p in self.points}) != len(self.points):
            raise ParameterError("points", "duplicates", "each point once")
        if not isinstance(self.precondition, bool):
            raise ParameterError("precondition", self.precondition, "True or False")
        if self.steady_state is None:
            if self.ss_duration_s or self.ss_ramp_s:
                raise ParameterError("ss_duration_s", self.ss_duration_s, "a steady_state criterion too (the window "
                                                                          "and ramp of fio's steady-state check)")
        else:
            fio_line("steadystate", self.steady_state)
            fio_line("steadystate_duration", self.ss_duration_s)  # whole seconds ≥ 1
            fio_line("steadystate_ramp_time", self.ss_ramp_s)
            if self.ss_duration_s + self.ss_ramp_s > self.runtime_s:
                raise ParameterError("ss_duration_s", self.ss_duration_s,
                                     f"a steady-state window and ramp ({self.ss_ramp_s:g} s + "
                                     f"{self.ss_duration_s:g} s) within the run time ({self.runtime_s:g} s): fio "
                                     "could never judge it")

    def caveats(self) -> list[str]:
        """What in the settings makes the measurement differ from what the points ask for."""
        out = []
        depths = sorted({p.iodepth for p in self.points if p.iodepth > 1})
        if self.ioengine in SYNC_ENGINES and depths:
            out.append(f"ioengine={self.ioengine} is synchronous: iodepth {depths} has no effect (one I/O in flight "
                       "per job); use libaio or io_uring")
        if not self.direct:
            out.append("direct=0: buffered I/O measures the page cache as well as the drives")
        return out

    def fit_axes(self) -> tuple[str, list[str]]:
        """The results-table column to fit along (the axis with most values; drives on a tie) and the
        other varied columns that split the points into curves: ``("drives", ["iodepth"])``."""
        axes: dict[str, set] = {"drives": {p.drives for p in self.points}, "iodepth": {p.iodepth for p in self.points},
                "numjobs": {p.numjobs for p in self.points},
                "block_size_bytes": {p.block_size for p in self.points},
                "pattern": {(p.pattern, p.read_fraction) for p in self.points}}
        numeric = [k for k in axes if k != "pattern"]
        x = max(numeric, key=lambda k: (len(axes[k]), k == "drives"))
        by = [k for k, v in axes.items() if k != x and len(v) > 1]
        return x, by

    def fit_command(self, folder) -> str:
        """The ``nvmemodel fit`` command line for this plan's results."""
        x, by = self.fit_axes()
        return (f"nvmemodel fit {folder}/results --x {x}" + (f" --by {','.join(by)}" if by else "")
                + f" --path-pattern '{PATH_PATTERN}'")

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        for key in _OPTIONAL:  # left out where unset: a plan.json written before they existed keeps its bytes
            if d[key] == _OPTIONAL[key]:
                del d[key]
        return {"schema": PLAN_SCHEMA, "path_pattern": PATH_PATTERN, **d}

    @classmethod
    def from_dict(cls, d: dict, *, source: str = "plan") -> Plan:
        if d.get("schema") != PLAN_SCHEMA:
            raise ParameterError(f"{source}: schema", d.get("schema"), f"{PLAN_SCHEMA!r} (a plan written by "
                                                                       "'nvmemodel fio-jobs')")
        d = {k: v for k, v in d.items() if k not in ("schema", "path_pattern")}
        try:
            d["points"] = tuple(SweepPoint(**p) for p in d["points"])
            nodes = d.get("numa_nodes")
            return cls(**{**d, "targets": tuple(d["targets"]), "notes": tuple(d.get("notes", ())),
                          "numa_nodes": tuple(nodes) if nodes is not None else None})
        except (KeyError, TypeError, AttributeError) as exc:
            raise ParameterError(source, "plan.json", f"a plan written by 'nvmemodel fio-jobs' ({exc})") from None

    @classmethod
    def load(cls, path) -> Plan:
        """The plan in ``path`` (a ``plan.json``), read as a regular file within a size limit."""
        from ..userfiles import parse_json, read_input_text

        p = pathlib.Path(path)
        text = read_input_text(p, what="plan", max_bytes=16 * 2**20)
        doc = parse_json(text, what="plan", path=p, expected="a plan.json written by 'nvmemodel fio-jobs'")
        if not isinstance(doc, dict):
            raise ParameterError("plan", str(p), "a plan.json written by 'nvmemodel fio-jobs' (a JSON object)")
        return cls.from_dict(doc, source=str(p))


#: Plan fields a plan.json holds only where they are set (their defaults)
_OPTIONAL = {"steady_state": None, "ss_duration_s": 0.0, "ss_ramp_s": 0.0, "precondition": False}


def sweep_plan(targets: Sequence[str], *, drives: Iterable[int] | None = None, patterns: Iterable[str] = ("randread",),
               block_sizes: Iterable[int] = (4096,), iodepths: Iterable[int] = (32,), numjobs: Iterable[int] = (1,),
               read_fraction: float | None = None, **settings: Any) -> Plan:
    """A user's sweep: every combination of drives × pattern × block size × iodepth × numjobs.

    ``drives`` defaults to ``1 … len(targets)``; block sizes in bytes; ``settings`` go to :class:`Plan`.
    """
    drives = list(drives) if drives is not None else list(range(1, len(targets) + 1))
    points = tuple(SweepPoint(n, pat, bs, qd, nj, read_fraction)
                   for n, pat, bs, qd, nj in itertools.product(drives, patterns, block_sizes, iodepths, numjobs))
    return Plan(tuple(targets), points, **settings)


@dataclasses.dataclass(frozen=True)
class Matrix:
    """A paper's test matrix: (pattern, block size B, numjobs, iodepth, read fraction) rows and drive counts."""

    rows: tuple[tuple[str, int, int, int, float | None], ...]
    drives: tuple[int, ...]
    source: str
    notes: tuple[str, ...] = ()


MATRICES: dict[str, Matrix] = {
    "lenovo-lp0865": Matrix(
        rows=(("randwrite", 4096, 8, 256, None), ("randread", 4096, 8, 256, None), ("randrw", 4096, 8, 256, 0.7),
              ("write", 262144, 1, 64, None), ("read", 262144, 1, 64, None)),
        drives=(1, 2, 3, 4),
        source="Lenovo LP0865 (seed lenovo-lp0865), Table 1 'Listing of FIO parameters' and 'we scaled from one "
               "NVMe SSD to four'",
        notes=("ASSUMPTION: the paper's OLTP row gives no read/write mix; 70 % random reads assumed",
               "ASSUMPTION: 'Workers' taken as fio numjobs per drive")),
    "dell-r7525": Matrix(
        rows=(("randread", 4096, 4, 32, None), ("randwrite", 4096, 4, 32, None), ("randrw", 4096, 4, 32, 0.7),
              ("read", 131072, 1, 32, None), ("write", 131072, 1, 32, None)),
        drives=(1, 2, 4, 8, 12, 24),
        source="Dell R7525 DfD (seed dell-r7525): 'Measurements were taken for 1, 2, 4, 8, 12 and 24 drives'; RR, "
               "RW, OLTP at 4KiB, SR and SW at 128KiB",
        notes=(("ASSUMPTION: the paper (IOmeter, fio supplemental) states no queue depth or workers: iodepth 32, "
                "4 jobs for 4K and 1 job for 128K assumed"),
               "ASSUMPTION: OLTP mix not given; 70 % random reads assumed")),
    "broadcom-stingray": Matrix(
        rows=(("randread", 4096, 1, 128, None), ("randwrite", 4096, 1, 128, None),
              ("randread", 131072, 1, 128, None), ("randwrite", 131072, 1, 128, None)),
        drives=(1, 2, 3, 4),
        source="Broadcom Stingray paper (seed broadcom-stingray): fio randread.fio ('numjobs=1 bs=4k', "
               "'iodepth=128'), 'Other tests are performed with minimal change'; 4K and 128K random rows of the "
               "Single-Initiator table (4 drives)",
        notes=("the paper ran the SPDK fio plugin over NVMe-oF; this matrix runs the local engine you choose",)),
}


def matrix_plan(name: str, targets: Sequence[str], *, drives: Iterable[int] | None = None, **settings: Any) -> Plan:
    """The points of a whitepaper matrix (:data:`MATRICES`) on ``targets``; drive counts above the number of
    targets are left out (and said so in the plan's notes)."""
    from ..errors import UnknownNameError

    if name not in MATRICES:
        raise UnknownNameError("matrix", name, list(MATRICES))
    m = MATRICES[name]
    wanted = list(drives) if drives is not None else list(m.drives)
    used = [n for n in wanted if n <= len(targets)]
    notes = list(m.notes)
    if len(used) < len(wanted):
        notes.append(f"drive counts {[n for n in wanted if n not in used]} of the matrix left out: only "
                     f"{len(targets)} target(s)")
    if not used:
        raise ParameterError("targets", len(targets), f"at least {min(wanted)} target(s) for matrix {name!r}")
    points = tuple(SweepPoint(n, pat, bs, qd, nj, rf) for n in used for pat, bs, nj, qd, rf in m.rows)
    return Plan(tuple(targets), points, source=m.source, notes=tuple(notes), **settings)
