"""Preconditioning before a sweep, in the order of SNIA's Solid State Storage Performance Test Specification
(PTS): purge, workload-independent preconditioning, then the test itself until steady state.

An SSD's write speed depends on what was written before: a fresh or trimmed drive has free blocks and
writes fast until they are used up, then garbage collection sets the pace. The PTS (SNIA SSS PTS
Enterprise v1.1, §3 and each test's "purge" and "preconditioning" steps) therefore measures only after

1. **purge** — the drive returned to a known state (a sanitize or a format with secure erase). fio cannot
   issue those; for a block device this writes a **discard of the tested range** (``rw=trim``), which most
   NVMe drives take as "deallocate", and says that it is not the PTS purge (run ``nvme sanitize`` or
   ``nvme format`` yourself for that). A file cannot be purged: its step is left out, and the plan says so;
2. **workload-independent preconditioning** — the tested range written sequentially twice (128 KiB writes,
   fio ``loops=2``; the PTS's "2X the user capacity with SEQ 128KiB writes");
3. a **random-write pass** over the range twice (4 KiB, ``loops=2`` with fio's random map: every block
   written once per pass) — the random state the PTS's IOPS test drives the drive into; then
4. the measurement points themselves, each with fio's steady-state check (:class:`~nvmemodel.jobs.Plan`
   ``steady_state``), which ``run-sweep`` reports per point.

The range is the plan's ``size_bytes`` of each target (the PTS's "ActiveRange"): on a device, give
``--size`` its capacity to precondition all of it. Every step writes every target the plan uses, so a
block device needs ``allow_raw_device_writes`` (and ``fio-jobs --precondition`` refuses devices it found by
itself, ``--targets auto``: a device is preconditioned only when its name was typed).
"""

from __future__ import annotations

import dataclasses

from .fiooptions import SYNC_ENGINES, fio_line, is_raw_device
from .plan import Plan

__all__ = ["PreconditionStep", "precondition_notes", "precondition_steps"]

#: where the steps' job files and fio reports go, relative to the plan's folder (not under results/, so an
#: ingest of the results never reads the fill's writes as a measurement)
JOBS = "jobs/precondition"
RESULTS = "precondition"


@dataclasses.dataclass(frozen=True)
class PreconditionStep:
    """One preconditioning step: its name (``1-purge``, …), what it does, and its fio job file."""

    name: str
    what: str
    text: str

    @property
    def job_path(self) -> str:
        return f"{JOBS}/{self.name}.fio"

    @property
    def result_path(self) -> str:
        return f"{RESULTS}/{self.name}.json"


def _targets(plan: Plan) -> list[str]:
    return list(plan.targets[:max(p.drives for p in plan.points)])


def _job(plan: Plan, header: list[str], options: list[tuple[str, object]], targets: list[str]) -> str:
    lines = [*header, "[global]", fio_line("ioengine", plan.ioengine), fio_line("direct", plan.direct),
             fio_line("size", plan.size_bytes)]
    lines += [fio_line(k, v) for k, v in options]
    for i, target in enumerate(targets, start=1):
        lines += ["", f"[drive{i}]", fio_line("filename", target)]
    return "\n".join(lines) + "\n"


def precondition_steps(plan: Plan) -> list[PreconditionStep]:
    """The preconditioning job files of ``plan`` (none unless ``plan.precondition``), in the order they run."""
    if not plan.precondition:
        return []
    targets = _targets(plan)
    depth = 1 if plan.ioengine in SYNC_ENGINES else 32
    steps = []
    devices = [t for t in targets if is_raw_device(t)]
    if devices:
        steps.append(PreconditionStep(
            "1-purge", "a discard (trim) of the tested range of each block device",
            _job(plan, ["# nvmemodel fio-jobs --precondition, step 1: a discard of the tested range of each block "
                        "device.", "# Not SNIA PTS's purge (a sanitize or a format with secure erase, which fio "
                        "cannot issue): run 'nvme sanitize' or 'nvme format' first if you need it.",
                        "# Files cannot be purged: they are not in this step."],
                 [("rw", "trim"), ("bs", min(2**20, plan.size_bytes)), ("iodepth", depth)], devices)))
    steps.append(PreconditionStep(
        "2-fill", "a sequential fill of twice the tested range (128 KiB writes)",
        _job(plan, ["# nvmemodel fio-jobs --precondition, step 2: workload-independent preconditioning, the tested "
                    "range written sequentially twice (SNIA PTS: 2X capacity, SEQ 128KiB writes)."],
             [("rw", "write"), ("bs", min(2**17, plan.size_bytes)), ("iodepth", depth), ("loops", 2)], targets)))
    steps.append(PreconditionStep(
        "3-randwrite", "random 4 KiB writes over the tested range, twice",
        _job(plan, ["# nvmemodel fio-jobs --precondition, step 3: random 4 KiB writes over the tested range twice "
                    "(fio's random map: every block once per pass)."],
             [("rw", "randwrite"), ("bs", min(4096, plan.size_bytes)), ("iodepth", depth), ("loops", 2),
              ("randrepeat", 0)], targets)))
    return steps


def precondition_notes(plan: Plan) -> list[str]:
    """What the preconditioning of ``plan`` does and leaves out, for the plan's summary."""
    if not plan.precondition:
        return []
    targets = _targets(plan)
    files = [t for t in targets if not is_raw_device(t)]
    out = [f"precondition: {s.name}: {s.what}" for s in precondition_steps(plan)]
    if files:
        out.append(f"precondition: no purge of {', '.join(files)}: a file cannot be purged (its blocks belong to "
                   "the file system); the fill and random-write passes still write it")
    out.append(f"precondition: the tested range is {plan.size_bytes:,} bytes of each target (--size); on a device "
               "give its capacity to precondition all of it (the SNIA PTS default)")
    if plan.steady_state is None:
        out.append("precondition without a steady-state check: nothing tells whether the points ran in steady state")
    return out
