"""fio job files for a plan, and the guard against writing to raw devices.

A point's job file has a ``[global]`` section (engine, O_DIRECT, time-based run, pattern, block size,
depth, jobs) and one section per target, so fio reports each drive separately and the ingest sums
them into one run. Writing to a block device destroys what is on it: a plan that would write to
one is refused unless the caller passes ``allow_raw_device_writes=True`` (``--allow-raw-device-writes``).
"""

from __future__ import annotations

import os
import pathlib
import stat

from ..errors import ParameterError
from .plan import Plan, SweepPoint

__all__ = ["WRITING_PATTERNS", "check_targets", "is_raw_device", "job_text", "write_jobs"]

#: fio rw= values that write (or trim) the target
WRITING_PATTERNS = frozenset({"write", "randwrite", "rw", "readwrite", "randrw", "trim", "randtrim", "trimwrite"})


def is_raw_device(target: str) -> bool:
    """True for a block or character device; a path under ``/dev`` that does not exist here counts as one
    (the plan may run elsewhere), except files in ``/dev/shm`` (a tmpfs)."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        path = os.path.abspath(target)
        return path.startswith("/dev/") and not path.startswith("/dev/shm/")
    return stat.S_ISBLK(mode) or stat.S_ISCHR(mode)


def check_targets(plan: Plan, *, allow_raw_device_writes: bool = False) -> list[str]:
    """Raw devices the plan uses; raises if it would write to one without permission."""
    raw = [t for t in plan.targets if is_raw_device(t)]
    if not raw:
        return raw
    most = max(p.drives for p in plan.points)
    writing = sorted({p.pattern for p in plan.points if p.pattern in WRITING_PATTERNS})
    hit = [t for t in raw if plan.targets.index(t) < most]
    if writing and hit and not allow_raw_device_writes:
        raise ParameterError("targets", ", ".join(hit),
                             f"files, not raw devices, for the writing patterns {', '.join(writing)}: writing to a "
                             "device destroys its data. Pass --allow-raw-device-writes (allow_raw_device_writes=True) "
                             "if that is what you want, or test read patterns only")
    return raw


def job_text(plan: Plan, point: SweepPoint) -> str:
    """The fio job file of one point."""
    lines = [f"# nvmemodel fio-jobs: {point.describe()}",
             f"# result: results/{point.result_path} (drive count from the path: {{drives}}drives/)",
             "[global]",
             f"ioengine={plan.ioengine}",
             f"direct={int(plan.direct)}",
             "time_based=1",
             f"runtime={round(plan.runtime_s * 1000)}ms",  # fio takes whole numbers with a unit
             f"ramp_time={round(plan.ramp_s * 1000)}ms",
             f"size={plan.size_bytes}",
             f"rw={point.pattern}",
             f"bs={point.block_size}",
             f"iodepth={point.iodepth}",
             f"numjobs={point.numjobs}",
             "group_reporting=0",
             "norandommap=1",
             "randrepeat=0"]
    if point.read_fraction is not None:
        lines.append(f"rwmixread={round(point.read_fraction * 100)}")
    for i, target in enumerate(plan.targets[:point.drives], start=1):
        lines += ["", f"[drive{i}]", f"filename={target}"]
        if plan.numa_nodes is not None:  # keep each drive's jobs and buffers on its own socket
            node = plan.numa_nodes[i - 1]
            lines += [f"numa_cpu_nodes={node}", f"numa_mem_policy=bind:{node}"]
    return "\n".join(lines) + "\n"


def write_jobs(plan: Plan, directory, *, allow_raw_device_writes: bool = False) -> list[pathlib.Path]:
    """Write ``plan.json`` and ``jobs/…/*.fio`` under ``directory``; never overwrite a different file.

    Writing the same plan again changes nothing (so ``fio-jobs`` can be re-run); a directory that
    holds a different plan is refused, naming the first file that differs.
    """
    import json

    check_targets(plan, allow_raw_device_writes=allow_raw_device_writes)
    root = pathlib.Path(directory)
    files = {root / "plan.json": json.dumps(plan.to_dict(), indent=2) + "\n"}
    for p in plan.points:
        files[root / "jobs" / p.job_path] = job_text(plan, p)
    for path, text in files.items():
        if path.exists() and path.read_text() != text:
            raise ParameterError("--out", str(root), f"an empty folder or one holding this same plan: {path} "
                                                     "differs (results are never overwritten; choose a new folder)")
    written = []
    for path, text in files.items():
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "x") as fh:  # "x": fail rather than overwrite, even in a race
                fh.write(text)
            written.append(path)
    return written
