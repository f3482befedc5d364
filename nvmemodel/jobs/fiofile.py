"""fio job files for a plan, and the guard against writing to raw devices.

A point's job file has a ``[global]`` section (engine, O_DIRECT, time-based run, pattern, block size,
depth, jobs) and one section per target, so fio reports each drive separately and the ingest sums
them into one run. Writing to a block device destroys what is on it: a plan that would write to
one is refused unless the caller passes ``allow_raw_device_writes=True`` (``--allow-raw-device-writes``).
Every value of a job file is checked by :mod:`~nvmemodel.jobs.fiooptions`, and :func:`write_jobs`
writes only into a new folder or one holding this very plan (:func:`check_folder`).
"""

from __future__ import annotations

import os
import pathlib
import stat

from ..errors import ParameterError
from .fiooptions import fio_line, is_raw_device
from .plan import Plan, SweepPoint
from .precondition import precondition_steps

__all__ = ["WRITING_PATTERNS", "check_folder", "check_targets", "is_raw_device", "job_text", "plan_json",
           "write_jobs"]

#: fio rw= values that write (or trim) the target
WRITING_PATTERNS = frozenset({"write", "randwrite", "rw", "readwrite", "randrw", "trim", "randtrim", "trimwrite"})


def _odd_target(target: str) -> str | None:
    """What an existing target is if fio cannot test it as a file or device (a FIFO would block fio,
    a folder or socket fails it); None for a regular file, a device, or a path that does not exist here."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return None


def check_targets(plan: Plan, *, allow_raw_device_writes: bool = False) -> list[str]:
    """Raw devices the plan uses; raises if it would write to one without permission, or if a target
    that exists here is a folder, a FIFO or a socket (fio tests files and devices)."""
    for target in plan.targets:
        odd = _odd_target(target)
        if odd:
            raise ParameterError("targets", target, f"a file or a device for fio to test (this is {odd})")
    raw = [t for t in plan.targets if is_raw_device(t)]
    if not raw:
        return raw
    most = max(p.drives for p in plan.points)
    writing = sorted({p.pattern for p in plan.points if p.pattern in WRITING_PATTERNS})
    what = f"the writing patterns {', '.join(writing)}" if writing else ""
    if plan.precondition:  # its fill and random-write passes write every target the points use
        what = "the preconditioning (--precondition)" + (f" and {what}" if what else "")
    hit = [t for t in raw if plan.targets.index(t) < most]
    if what and hit and not allow_raw_device_writes:
        raise ParameterError("targets", ", ".join(hit),
                             f"files, not raw devices, for {what}: writing to a "
                             "device destroys its data. Pass --allow-raw-device-writes (allow_raw_device_writes=True) "
                             "if that is what you want, or test read patterns only")
    return raw


def job_text(plan: Plan, point: SweepPoint) -> str:
    """The fio job file of one point. Every ``option=value`` line is rendered by
    :func:`~nvmemodel.jobs.fiooptions.fio_line`, which checks the value against what fio accepts."""
    lines = [f"# nvmemodel fio-jobs: {point.describe()}",
             f"# result: results/{point.result_path} (drive count from the path: {{drives}}drives/)",
             "[global]",
             fio_line("ioengine", plan.ioengine),
             fio_line("direct", plan.direct),
             fio_line("time_based", 1),
             fio_line("runtime", plan.runtime_s),  # whole milliseconds with fio's unit
             fio_line("ramp_time", plan.ramp_s),
             fio_line("size", plan.size_bytes),
             fio_line("rw", point.pattern),
             fio_line("bs", point.block_size),
             fio_line("iodepth", point.iodepth),
             fio_line("numjobs", point.numjobs),
             fio_line("group_reporting", 0),
             fio_line("norandommap", 1),
             fio_line("randrepeat", 0)]
    if point.read_fraction is not None:
        lines.append(fio_line("rwmixread", round(point.read_fraction * 100)))
    if plan.steady_state is not None:  # fio ends the point once this holds over the window; its JSON says whether
        lines += [fio_line("steadystate", plan.steady_state), fio_line("steadystate_duration", plan.ss_duration_s),
                  fio_line("steadystate_ramp_time", plan.ss_ramp_s)]
    for i, target in enumerate(plan.targets[:point.drives], start=1):
        lines += ["", f"[drive{i}]", fio_line("filename", target)]
        if plan.numa_nodes is not None:  # keep each drive's jobs and buffers on its own socket
            node = plan.numa_nodes[i - 1]
            lines += [fio_line("numa_cpu_nodes", node), fio_line("numa_mem_policy", node)]
    return "\n".join(lines) + "\n"


def plan_json(plan: Plan) -> str:
    """The text of ``plan.json``: a folder "holds this very plan" when its ``plan.json`` has exactly
    these bytes (same SHA-256)."""
    import json

    return json.dumps(plan.to_dict(), indent=2) + "\n"


def check_folder(plan: Plan, directory: str | os.PathLike) -> str:
    """Where :func:`write_jobs` may write ``plan``: ``"new"`` (absent or an empty folder) or ``"same"``
    (holds this very plan: a ``plan.json`` with the bytes of :func:`plan_json`); raises
    :class:`ParameterError` for a path that is not a folder, a folder holding another plan, or an
    unrelated non-empty folder (someone's results, …). Nothing is written."""
    from ..userfiles import check_output_folder, read_input

    expected = "a new (or empty) folder, or one holding this same plan"
    entries = check_output_folder(directory, what="out", expected=expected)
    if not entries:
        return "new"
    root = pathlib.Path(directory)
    if "plan.json" not in entries:
        shown = ", ".join(entries[:3]) + (", …" if len(entries) > 3 else "")
        raise ParameterError("out", str(root), f"{expected}: it holds {len(entries)} other "
                                               f"entr{'y' if len(entries) == 1 else 'ies'} ({shown}) and no "
                                               "plan.json; choose a new folder")
    if read_input(root / "plan.json", what="out") != plan_json(plan).encode():
        raise ParameterError("out", str(root), f"{expected}: its plan.json differs (results are never "
                                               "overwritten; choose a new folder)")
    return "same"


def write_jobs(plan: Plan, directory: str | os.PathLike, *, allow_raw_device_writes: bool = False) -> list[pathlib.Path]:
    """Write ``plan.json`` and ``jobs/…/*.fio`` under ``directory``; never overwrite a different file.

    ``directory`` must be new (absent or empty) or hold *this very plan*: a ``plan.json`` whose bytes
    are exactly :func:`plan_json` of ``plan``. Writing the same plan again changes nothing (so
    ``fio-jobs`` can be re-run, and writes only job files that are missing); any other existing path —
    a file, a folder of other results, a different plan, a job file that differs — is refused before
    anything is written. Returns the files written.
    """
    from ..userfiles import read_input

    check_targets(plan, allow_raw_device_writes=allow_raw_device_writes)
    root = pathlib.Path(directory)
    files = {root / "plan.json": plan_json(plan)}
    for step in precondition_steps(plan):
        files[root / step.job_path] = step.text
    for p in plan.points:
        files[root / "jobs" / p.job_path] = job_text(plan, p)  # every value checked before a byte is written
    if check_folder(plan, root) == "same":
        for path, text in files.items():
            if path.exists() and read_input(path, what="out") != text.encode():
                raise ParameterError("out", str(root), f"an empty folder or one holding this same plan: {path} "
                                                       "differs (results are never overwritten; choose a new folder)")
    from ..userfiles import own_folder

    written = []
    for path, text in files.items():
        if not path.exists():
            root.mkdir(parents=True, exist_ok=True)
            # never through a link planted below the folder (a 'jobs' link would have the job files written elsewhere)
            own_folder(root, path.parent.relative_to(root), what="out")
            with open(path, "x", encoding="utf-8") as fh:  # "x": fail rather than overwrite, even in a race
                fh.write(text)
            written.append(path)
    return written
