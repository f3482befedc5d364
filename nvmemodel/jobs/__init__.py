"""Test generation and running: fio job files for a whitepaper matrix or a user's sweep, and a resumable runner.

:func:`sweep_plan` (drives × pattern × block size × iodepth × numjobs) or :func:`matrix_plan`
(:data:`MATRICES`: a paper's table of fio parameters) → a :class:`Plan`; :func:`write_jobs` writes
``plan.json`` and one fio job file per point; :func:`run_plan` runs them with progress, skips
finished points, never overwrites a result, and names each result so that
``nvmemodel ingest results/ --path-pattern '{drives}drives/*.json'`` (:data:`PATH_PATTERN`) labels it
without a sidecar. Writing to raw devices is refused without ``allow_raw_device_writes=True``.
Every value written into a job file is checked against what fio accepts for its option
(:mod:`~nvmemodel.jobs.fiooptions`), and ``write_jobs`` writes only into a new folder or one holding
this very plan.
"""

from __future__ import annotations

from .fiofile import WRITING_PATTERNS, check_folder, check_targets, is_raw_device, job_text, plan_json, write_jobs
from .fiooptions import FIO_ENGINES, REFUSED_ENGINES, check_ioengine, check_target
from .plan import MATRICES, PATH_PATTERN, Matrix, Plan, SweepPoint, matrix_plan, sweep_plan
from .runner import RunReport, run_plan

__all__ = ["FIO_ENGINES", "MATRICES", "PATH_PATTERN", "REFUSED_ENGINES", "WRITING_PATTERNS", "Matrix", "Plan",
           "RunReport", "SweepPoint", "check_folder", "check_ioengine", "check_target", "check_targets",
           "is_raw_device", "job_text", "matrix_plan", "plan_json", "run_plan", "sweep_plan", "write_jobs"]
