"""Run a plan with fio: progress, resume after an interruption, never overwrite a result.

Each point writes fio's JSON to ``results/.<point>.json.partial`` (hidden, so an ingest of
``results/`` never reads it) and, only once fio exited 0 and
the JSON parses with its ``jobs``, links it to ``results/<point>.json`` (``os.link`` fails if the
name exists, so an earlier result is never replaced). A run that stops half-way leaves at most a
``.partial`` file, which the next run discards and redoes; finished points are skipped.
fio's stderr goes to ``logs/<point>.log``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import pathlib
import shlex
import stat
import subprocess
import time
from collections.abc import Callable
from typing import Any

from ..errors import ParameterError
from .fiofile import check_targets
from .plan import Plan

__all__ = ["RunReport", "fio_command", "run_plan", "steady_state_of"]


@dataclasses.dataclass(frozen=True)
class RunReport:
    """What a run did: points run now, skipped as already done, failed (with fio's last error line)."""

    ran: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    failed: tuple[tuple[str, str], ...] = ()
    planned: tuple[str, ...] = ()
    #: points run now with fio's steady-state check: (result path, True if fio found steady state)
    steady_state: tuple[tuple[str, bool], ...] = ()
    #: preconditioning steps run now
    preconditioned: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.failed and len(self.ran) + len(self.skipped) == len(self.planned)


def fio_command(fio: str, job: pathlib.Path, output: pathlib.Path) -> list[str]:
    return [fio, "--output-format=json", f"--output={output}", str(job)]


def _check_report(path: pathlib.Path, runtime_s: float) -> str:
    """Why fio's JSON is not a complete result ('' if it is): unreadable, no jobs, or a job that ran
    less than 90 % of the planned time (fio 3.33 stopped by SIGINT writes a well-formed report of
    the part it ran, exit status 128 — checked here too in case a wrapper hides the status), unless
    fio ended it early because its steady-state check held (``steadystate.attained``)."""
    try:
        text = path.read_text(errors="replace")
        doc = json.loads(text[text.index("{"):])  # fio may print warnings before the JSON
    except (OSError, ValueError, RecursionError):
        return "no complete JSON"
    jobs = doc.get("jobs") if isinstance(doc, dict) else None
    if not isinstance(jobs, list) or not jobs:
        return "a JSON report without jobs"
    for job in jobs:
        ran_ms = job.get("job_runtime") if isinstance(job, dict) else None
        ss = job.get("steadystate") if isinstance(job, dict) else None
        if isinstance(ss, dict) and ss.get("attained") == 1:
            continue  # fio ends a job once its steady-state criterion holds
        if isinstance(ran_ms, (int, float)) and ran_ms < 0.9 * runtime_s * 1000:
            return f"job {job.get('jobname')!r} ran {ran_ms:g} ms of the planned {runtime_s * 1000:g} ms"
    return ""


def steady_state_of(path) -> bool | None:
    """Whether every job of fio's JSON report at ``path`` reached steady state (fio's ``ss=`` check); None
    when no job had the check or the report cannot be read."""
    try:
        text = pathlib.Path(path).read_text(errors="replace")
        doc = json.loads(text[text.index("{"):])
    except (OSError, ValueError):
        return None
    states = [j["steadystate"].get("attained") == 1 for j in doc.get("jobs", []) if isinstance(j, dict)
              and isinstance(j.get("steadystate"), dict)] if isinstance(doc, dict) else []
    return all(states) if states else None


def _check_job_files(root: pathlib.Path, plan: Plan) -> None:
    """Every job file present is exactly what ``fio-jobs`` writes for its point (fio runs only what the
    plan says: a job file edited or planted by hand could hold any fio option, ``exec`` included)."""
    from ..userfiles import read_input
    from .fiofile import job_text

    from .precondition import precondition_steps

    expected = [(root / s.job_path, s.text) for s in precondition_steps(plan)]
    expected += [(root / "jobs" / p.job_path, job_text(plan, p)) for p in plan.points]
    for job, text in expected:
        if job.exists() and read_input(job, what="plan", max_bytes=2**20) != text.encode():
            raise ParameterError("plan", str(root), f"job files as 'nvmemodel fio-jobs' wrote them: {job} differs "
                                                    "from its point in plan.json (edited?); write the sweep again "
                                                    "into a new folder")


def _executable(fio: str) -> str:
    """``fio`` if it names an executable file (a path, or a name on PATH); checked before anything runs."""
    import shutil

    found = shutil.which(fio) if isinstance(fio, str) and fio and "\x00" not in fio else None
    if found is None or not os.path.isfile(found):
        why = "a folder" if isinstance(fio, str) and os.path.isdir(fio) else "not an executable file here"
        raise ParameterError("--fio", fio, f"an fio executable (apt-get install -y fio, or give its path; this is "
                                           f"{why})")
    return fio


@contextlib.contextmanager
def _exclusive(root: pathlib.Path, dry_run: bool):
    """One run-sweep per folder at a time (two would delete each other's partial files)."""
    if dry_run:
        yield
        return
    import fcntl

    try:  # (never through a link: a planted .run-sweep.lock link would create the file it names)
        fd = os.open(root / ".run-sweep.lock", os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        raise ParameterError("folder", str(root), f"a folder run-sweep can keep its lock in ({root / '.run-sweep.lock'}"
                                                  f": {exc.strerror}; a link is not followed)") from None
    with os.fdopen(fd, "r+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ParameterError("folder", str(root), "a folder no other run-sweep is running on (one at a time; "
                                                      "the lock is .run-sweep.lock)") from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def run_plan(directory: str | os.PathLike, *, fio: str = "fio", dry_run: bool = False, allow_raw_device_writes: bool = False,
             limit: int | None = None, progress: Callable[[str], None] | None = print) -> RunReport:
    """Run every point of ``<directory>/plan.json`` not yet done.

    Parameters
    ----------
    directory : path
        Folder written by :func:`nvmemodel.jobs.write_jobs` (``nvmemodel fio-jobs``).
    fio : str
        The fio executable.
    dry_run : bool
        Print the commands only.
    allow_raw_device_writes : bool
        Needed if the plan writes to a block device (checked again here: plans can be edited).
    limit : int, optional
        Run at most this many points now (the rest on the next call).
    progress : callable, optional
        Receives one line per point (``print`` by default; None: silent).
    """
    root = pathlib.Path(directory)
    if not root.is_dir():
        raise ParameterError("folder", str(root), "a folder written by 'nvmemodel fio-jobs' (holding plan.json)")
    if not (root / "plan.json").exists():
        raise ParameterError("folder", str(root), "a folder written by 'nvmemodel fio-jobs' (no plan.json in it)")
    plan = Plan.load(root / "plan.json")
    check_targets(plan, allow_raw_device_writes=allow_raw_device_writes)
    _check_job_files(root, plan)
    if not dry_run:
        fio = _executable(fio)
    say = progress or (lambda _line: None)
    total = len(plan.points)
    ran: list[Any] = []
    skipped: list[Any] = []
    failed: list[Any] = []
    budget = limit if limit is not None else total
    if budget < 0:
        raise ParameterError("limit", limit, "a number of points ≥ 0")
    if not dry_run:  # before anything runs: the folders written into (and read as done earlier) are the sweep's own
        from ..userfiles import own_folder
        from .precondition import RESULTS as PRECONDITION, precondition_steps

        # precondition/ too when the plan has steps: a planted link there to a folder holding their reports would
        # have every step taken as done earlier, and the points measured on a drive never preconditioned
        subs = ("results", "logs") + ((PRECONDITION, f"logs/{PRECONDITION}") if precondition_steps(plan) else ())
        for sub in subs:
            own_folder(root, sub, what="plan")
    with _exclusive(root, dry_run):
        preconditioned = _precondition(root, plan, fio, dry_run, say)
        if preconditioned is None:  # a step failed: measuring a drive in an unknown state is not what was asked
            return RunReport((), (), (("precondition", "a preconditioning step failed (see above); no point "
                                                       "was run"),), tuple(p.result_path for p in plan.points))
        started = time.monotonic()
        steady = []
        for i, point in enumerate(plan.points, start=1):
            final = root / "results" / point.result_path
            job = root / "jobs" / point.job_path
            tag = f"[{i}/{total}] {point.describe()}"
            if final.exists():
                skipped.append(point.result_path)
                say(f"{tag}: done earlier ({final})")
                continue
            if not job.exists():
                raise ParameterError("plan", str(root), f"the job file {job} (re-run 'nvmemodel fio-jobs' with the "
                                                        "same options to write it)")
            partial = final.with_name(f".{final.name}.partial")  # hidden: the ingest never reads it
            cmd = fio_command(fio, job, partial)
            if dry_run:
                say(f"{tag}: would run {shlex.join(cmd)}")
                continue
            if len(ran) + len(failed) >= budget:
                break
            try:
                log = root / "logs" / (point.result_path[:-len(".json")] + ".log")
                ok, why = _run_point(cmd, log, partial, plan.runtime_s, root)
            except KeyboardInterrupt:
                # fio writes a complete-looking report when interrupted: never keep it as this point's result
                partial.unlink(missing_ok=True)
                say(f"{tag}: interrupted; no result kept for it. Run again to resume from here.")
                raise
            if ok:
                try:
                    os.link(partial, final)  # fails if a result appeared meanwhile: never overwrite
                except FileExistsError:
                    why, ok = f"{final} appeared while fio ran; kept the earlier file", False
                partial.unlink(missing_ok=True)
            if ok:
                ran.append(point.result_path)
                elapsed = time.monotonic() - started
                left = (total - i) * elapsed / max(1, len(ran) + len(failed))
                state = steady_state_of(final) if plan.steady_state is not None else None
                if state is not None:
                    steady.append((point.result_path, state))
                said = "" if state is None else (", steady state reached" if state else
                                                 ", steady state NOT reached (fio's ss= check did not hold)")
                say(f"{tag}: ok{said} -> {final} (about {left:.0f} s left)")
            else:
                failed.append((point.result_path, why))
                say(f"{tag}: FAILED: {why}")
    return RunReport(tuple(ran), tuple(skipped), tuple(failed), tuple(p.result_path for p in plan.points),
                     tuple(steady), tuple(preconditioned))


def _precondition(root: pathlib.Path, plan: Plan, fio: str, dry_run: bool, say) -> list[str] | None:
    """Run the plan's preconditioning steps not done yet, in order (their reports go to ``precondition/``, never
    overwritten); the steps run now, or None if one failed (the points are then not run)."""
    from .precondition import precondition_steps

    done = []
    for step in precondition_steps(plan):
        final, job = root / step.result_path, root / step.job_path
        tag = f"[precondition {step.name}] {step.what}"
        if final.exists():
            say(f"{tag}: done earlier ({final})")
            continue
        if not job.exists():
            raise ParameterError("plan", str(root), f"the job file {job} (re-run 'nvmemodel fio-jobs' with the "
                                                    "same options to write it)")
        partial = final.with_name(f".{final.name}.partial")
        cmd = fio_command(fio, job, partial)
        if dry_run:
            say(f"{tag}: would run {shlex.join(cmd)}")
            continue
        say(f"{tag}: running (over the whole tested range: it takes as long as that takes)")
        try:
            ok, why = _run_point(cmd, root / "logs" / "precondition" / f"{step.name}.log", partial, 0.0, root)
        except KeyboardInterrupt:
            partial.unlink(missing_ok=True)
            say(f"{tag}: interrupted; run again to redo this step")
            raise
        if ok:
            try:
                os.link(partial, final)
            except FileExistsError:
                ok, why = False, f"{final} appeared while fio ran"
            partial.unlink(missing_ok=True)
        if not ok:
            say(f"{tag}: FAILED: {why}")
            return None
        done.append(step.name)
        say(f"{tag}: ok -> {final}")
    return done


def _open_log(log: pathlib.Path):
    """The point's log, truncated: never through a symbolic link (a link planted in logs/ would truncate
    the file it names) and never a FIFO (opening one for writing waits for a reader)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(log, flags, 0o644)
    except OSError as exc:
        raise ParameterError("plan", str(log), f"a log file nvmemodel can write (a regular file, not a link or "
                                               f"FIFO: {exc.strerror})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ParameterError("plan", str(log), "a log file nvmemodel can write (a regular file)")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "w")


def _run_point(cmd: list[str], log: pathlib.Path, partial: pathlib.Path, runtime_s: float,
               root: pathlib.Path) -> tuple[bool, str]:
    from ..userfiles import own_folder

    # folders of the sweep's own, never through a link (a planted 'logs' or 'results' link would have fio's output
    # and the logs written into a folder that is not the sweep's)
    own_folder(root, partial.parent.relative_to(root), what="plan")
    partial.unlink(missing_ok=True)  # a leftover of an interrupted run: incomplete by construction
    own_folder(root, log.parent.relative_to(root), what="plan")
    with _open_log(log) as err:
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        except FileNotFoundError:
            raise ParameterError("--fio", cmd[0], "an fio executable (apt-get install -y fio, or give its path)") \
                from None
        try:
            rc = proc.wait()
        except KeyboardInterrupt:  # stop fio too (a terminal's Ctrl-C reaches it anyway; a kill -INT may not)
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            raise
    if rc != 0:
        last = [ln for ln in log.read_text(errors="replace").splitlines() if ln.strip()][-1:] or ["(no message)"]
        return False, f"fio exited with status {rc}: {last[0]} (log: {log})"
    problem = _check_report(partial, runtime_s)
    if problem:
        return False, f"fio wrote {problem} to {partial} (log: {log})"
    return True, ""
