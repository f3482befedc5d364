"""``nvmemodel calibrate``: short, bounded, resumable fio runs that measure this machine's CPU cost per I/O.

Steps (each repeated ``repeats`` times, round-robin so that a change of load spreads over all of them):

* ``fio-null``: fio's ``null`` engine — fio's own work per I/O, no system call (scope ``fio``);
* ``<stack>-null-device``: psync, libaio, io_uring, io_uring with ``hipri`` (polled completions) and with
  ``sqthread_poll`` (a kernel submission thread) reading 4 KiB from ``/dev/zero`` — the system calls and fio, no
  block layer, driver or interrupt (scope ``no_device``: a lower bound of each stack's cost on a drive);
* with ``target``: the same stacks reading the user's file or block device with O_DIRECT and fio's
  ``readonly=1`` (scope ``device``: the whole path); with ``allow_write`` also 4 KiB random writes (libaio,
  io_uring) into it — which overwrite its contents.

What a stack cannot do here is skipped with fio's reason (``hipri`` needs a device with poll queues; io_uring may
be disabled by ``kernel.io_uring_disabled`` or a container's seccomp filter). A run's CPU is fio's own per-job
figure (usr + sys, of one CPU, times the job's run time); a SQPOLL run's kernel thread is outside it, so that step
takes the fio process's whole CPU (``os.wait4``) less fio's fixed overhead outside its job (measured on the
null-engine runs). CPU time, not wall time, is what is divided by the I/Os: a machine shared with other work
slows the runs but changes their cost per I/O far less.

Everything written goes into ``out_dir``: a new folder, or one an earlier ``calibrate`` made (a marker file
says so), whose finished runs are kept and skipped (resumable). fio's output of an unfinished run is written
under a ``.partial`` name and never read.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import pathlib
import platform
import shutil
import stat
import statistics
import subprocess
import time

from ..errors import ParameterError

__all__ = ["MARKER", "PROFILE_NAME", "Step", "calibrate", "calibrate_in_temp", "host_facts", "plan_steps"]

#: The file that marks a folder as calibrate's own (resumable).
MARKER = ".nvmemodel-calibrate"
#: The profile written at the end, inside the output folder.
PROFILE_NAME = "profile.json"
#: fio's start-up and tear-down per run (measured here: about 0.15 s of CPU, most of it outside the job), added to
#: each run's time budget.
START_S = 0.4
#: Past this many times ``seconds`` (plus 5 s) no further run is started: they are left for a resumed call.
OVERRUN = 1.5
#: The shortest measured run (fio's CPU figures are per-millisecond rusage: shorter runs are noise).
MIN_RUN_S = 0.25
_BS = 4096


@dataclasses.dataclass(frozen=True)
class Step:
    name: str
    stack: str | None
    ioengine: str
    scope: str
    target: str | None
    direction: str = "read"
    iodepth: int = 8
    options: tuple[str, ...] = ()
    size: int = 1 << 30

    def command(self, fio: str, runtime_s: float, output: str) -> list[str]:
        """The fio command line (every value ours or checked: see :func:`_check_target`)."""
        cmd = [fio, f"--name=nvmemodel-{self.name}", f"--ioengine={self.ioengine}",
               f"--rw={'randread' if self.direction == 'read' else 'randwrite'}", f"--bs={_BS}",
               f"--iodepth={self.iodepth}", f"--size={self.size}", "--time_based=1",
               f"--runtime={max(1, round(runtime_s * 1000))}ms", "--norandommap=1", "--randrepeat=0",
               "--output-format=json", f"--output={output}"]
        if self.target is not None:
            cmd.append("--filename=" + self.target.replace(":", "\\:"))
        return cmd + list(self.options)


def _check_target(target: str, allow_write: bool) -> tuple[str, int, bool]:
    """``(path, bytes to use, is a block device)`` of the user's target, or one ParameterError naming ``--target``:
    text fio would read as syntax (line breaks, ``; # $ = \\``, a leading ``-``), anything but a regular file or
    a block device, a block device without ``allow_write``, too small a file."""
    from ..jobs.fiooptions import check_target

    try:
        check_target(target)
    except ParameterError as err:
        raise ParameterError("--target", target, err.allowed) from None
    if target.startswith("-"):
        raise ParameterError("--target", target, "a path not starting with '-' (fio would read it as an option)")
    try:
        st = os.stat(target)
    except OSError as exc:
        raise ParameterError("--target", target, f"an existing file or block device ({exc.strerror})") from None
    if stat.S_ISBLK(st.st_mode):
        if not allow_write:
            raise ParameterError("--target", target, "a regular file; a block device only with --allow-write (its "
                                 "write steps destroy the data on it): to measure reads safely, name a file on it")
        with open(target, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
        return target, min(size, 1 << 30) // _BS * _BS, True
    if not stat.S_ISREG(st.st_mode):
        raise ParameterError("--target", target, "a regular file or a block device (this is not one)")
    size = min(st.st_size, 1 << 30) // _BS * _BS
    if size < 64 * _BS:
        raise ParameterError("--target", target, f"a file of at least {64 * _BS // 1024} KiB to read (it has "
                                                 f"{st.st_size:,} bytes)")
    if not os.access(target, os.R_OK | (os.W_OK if allow_write else 0)):
        raise ParameterError("--target", target, "a file you can read" + (" and write (--allow-write)"
                                                                           if allow_write else ""))
    return target, size, False


#: File systems held in memory: a file on one is read without any block device (the path is a null device's).
MEMORY_FILESYSTEMS = frozenset({"tmpfs", "ramfs", "devtmpfs", "hugetlbfs", "shm"})


def target_filesystem(path: str) -> tuple[str, str]:
    """``(file system type, mount source)`` of the mount holding ``path`` (``/proc/self/mountinfo``: the longest
    mount point that contains it), or ``("", "")`` where that cannot be read. A block device is its own
    (``"block device"``, the path)."""
    real = os.path.realpath(path)
    try:
        if stat.S_ISBLK(os.stat(real).st_mode):
            return "block device", real
        lines = pathlib.Path("/proc/self/mountinfo").read_text(errors="replace").splitlines()
    except OSError:
        return "", ""
    best = ("", "", "")
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 2:
            continue
        mount = fields[4].encode().decode("unicode_escape") if "\\" in fields[4] else fields[4]
        inside = real == mount or real.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best[0]):
            best = (mount, tail[0], tail[1])
    return best[1], best[2]


def plan_steps(target: str | None = None, *, target_size: int = 0, allow_write: bool = False,
               target_scope: str = "device") -> list[Step]:
    """The steps of a calibration, in order. ``target_scope``: ``device``, or ``no_device`` for a file on a file
    system held in memory (tmpfs: no block device under it)."""
    steps = [Step("fio-null", None, "null", "fio", None)]
    variants = [("psync", "psync", 1, ()), ("libaio", "libaio", 8, ()), ("io_uring", "io_uring", 8, ()),
                ("io_uring_polled", "io_uring", 8, ("--hipri=1",)),
                ("io_uring_sqpoll", "io_uring", 8, ("--sqthread_poll=1",))]
    for stack, engine, depth, opts in variants:
        steps.append(Step(f"{stack}-null-device", stack, engine, "no_device", "/dev/zero", iodepth=depth,
                          options=opts))
    if target is not None:
        for stack, engine, depth, opts in variants:
            steps.append(Step(f"{stack}-device", stack, engine, target_scope, target, iodepth=depth,
                              options=("--direct=1", *(() if allow_write else ("--readonly",)), *opts),
                              size=target_size))
        if allow_write:
            for stack in ("libaio", "io_uring"):
                steps.append(Step(f"{stack}-device-write", stack, stack, target_scope, target, direction="write",
                                  iodepth=8, options=("--direct=1",), size=target_size))
    return steps


def _cpuinfo() -> list[dict]:
    cpus: list[dict] = []
    cur: dict[str, str] = {}  # the processor being read
    try:
        text = pathlib.Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return []
    for line in text.splitlines():
        if not line.strip():
            if cur:
                cpus.append(cur)
            cur = {}
            continue
        k, _, v = line.partition(":")
        cur[k.strip()] = v.strip()
    if cur:
        cpus.append(cur)
    return cpus


def host_facts(clock_hz: float | None = None) -> dict:
    """What /proc/cpuinfo, uname and the load average say of this machine; the clock from ``cpu MHz`` (or
    cpufreq's maximum) unless ``clock_hz`` is given."""
    cpus = _cpuinfo()
    first = cpus[0] if cpus else {}
    sockets = len({c.get("physical id") for c in cpus if "physical id" in c}) or None
    cores = int(first["cpu cores"]) if first.get("cpu cores", "").isdigit() else None
    note = ""
    if clock_hz is not None:
        clock, src = float(clock_hz), "given (--clock)"
    else:
        clock, src = math.nan, "not known (no cpu MHz in /proc/cpuinfo): give --clock"
        mhz = [float(c["cpu MHz"]) for c in cpus if c.get("cpu MHz", "").replace(".", "", 1).isdigit()]
        try:
            khz = float(pathlib.Path("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq").read_text())
            clock, src = khz * 1e3, "cpufreq cpuinfo_max_freq"
            note = "the highest clock the core may run: a busy core at a lower one makes the cycles an overestimate"
        except (OSError, ValueError):
            if mhz:
                clock, src = statistics.median(mhz) * 1e6, "/proc/cpuinfo cpu MHz"
                note = ("the clock the kernel reports when calibrate started (the median over CPUs): a virtual "
                        "machine reports its host's nominal clock, and a boosting core may run faster (then the "
                        "cycles are an underestimate)")
    return {"model_name": first.get("model name"), "logical_cpus": len(cpus) or os.cpu_count(), "sockets": sockets,
            "cores_per_socket": cores, "clock_hz": None if math.isnan(clock) else clock, "clock_source": src,
            "clock_note": note,
            "kernel": platform.release(), "machine": platform.machine(),
            "virtualized": "hypervisor" in first.get("flags", "").split(),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def _check_folder(out_dir) -> tuple[pathlib.Path, bool]:
    """``(folder, resumed)``: a new folder (created), or one an earlier calibrate made (its marker), owned by this
    user; anything else is refused."""
    from ..userfiles import check_output_folder

    expected = "a new folder, or one an earlier 'nvmemodel calibrate' wrote (to resume it)"
    if "\n" in str(out_dir) or "\r" in str(out_dir):
        raise ParameterError("--out", str(out_dir), f"{expected} (a name without line breaks)")
    names = check_output_folder(out_dir, what="--out", expected=expected)
    p = pathlib.Path(out_dir)
    if names is None:
        p.mkdir(parents=True)
        (p / MARKER).write_text("nvmemodel calibrate output folder: runs/ holds fio's outputs; rerun to resume\n")
        (p / "runs").mkdir()
        return p, False
    if MARKER not in names:
        raise ParameterError("--out", str(out_dir), f"{expected}: it exists and holds no {MARKER} marker "
                             "(calibrate writes only into its own folders)")
    if p.stat().st_uid != os.getuid() or (p / MARKER).lstat().st_uid != os.getuid() \
            or not (p / MARKER).is_file() or (p / MARKER).is_symlink():
        raise ParameterError("--out", str(out_dir), f"{expected}: it belongs to another user")
    (p / "runs").mkdir(exist_ok=True)
    return p, True


#: What a folder was calibrated with: a resumed call must measure the same thing (its kept runs are of it).
SETTINGS = "settings.json"


def _check_settings(root: pathlib.Path, settings: dict, resumed: bool) -> None:
    """Record ``settings`` in a new folder; in a resumed one, refuse others than those recorded (the kept runs of one
    target must not stand for another's)."""
    path = root / SETTINGS
    if not resumed or not path.exists():
        path.write_text(json.dumps(settings) + "\n")
        return
    try:
        before = json.loads(path.read_text())
    except ValueError:
        before = None
    if before != settings:
        was = before.get("target") if isinstance(before, dict) else None
        raise ParameterError("--out", str(root), f"a new folder for these settings: this one was calibrated with "
                             f"--target {was or '(none)'}"
                             + (" and --allow-write" if isinstance(before, dict) and before.get("allow_write") else "")
                             + " (its kept runs measure that)")


def _fio_version(fio: str) -> tuple[str, str]:
    path = shutil.which(fio)
    if path is None:
        raise ParameterError("--fio", fio, "an fio executable on PATH (install fio: apt-get install fio, dnf "
                                           "install fio, brew install fio)")
    out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    return path, out.stdout.strip() or out.stderr.strip()


def _engines(fio: str) -> set[str]:
    out = subprocess.run([fio, "--enghelp"], capture_output=True, text=True, timeout=30)
    return {line.strip() for line in out.stdout.splitlines()[1:] if line.strip()}


def _run(cmd: list[str], timeout_s: float) -> tuple[int, float, str]:
    """``(exit code, the process's CPU seconds (all its threads), stderr's first lines)``."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout_s
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            pid, status, ru = os.wait4(proc.pid, 0)
            break
        time.sleep(0.02)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    return proc.returncode, ru.ru_utime + ru.ru_stime, (err.strip().splitlines() or [""])[0]


def _read_run(path: pathlib.Path) -> dict:
    """fio's JSON of one run → ``ios, runtime_s, cpu_busy, cpu_seconds, iops, error``."""
    text = path.read_text(errors="replace")
    doc = json.loads(text[text.index("{"):])  # (fio may print a notice before the JSON)
    job = doc["jobs"][0]
    ios = sum(float(job[d]["total_ios"]) for d in ("read", "write") if d in job)
    runtime = float(job["job_runtime"]) / 1000
    busy = (float(job["usr_cpu"]) + float(job["sys_cpu"])) / 100
    return {"ios": ios, "runtime_s": runtime, "cpu_busy": busy, "cpu_seconds": busy * runtime,
            "iops": ios / runtime if runtime > 0 else math.nan, "error": int(job.get("error", 0))}


def calibrate(out_dir, *, seconds: float = 20.0, repeats: int = 2, target: str | None = None,
              allow_write: bool = False, fio: str = "fio", clock_hz: float | None = None, progress=print) -> dict:
    """Measure this machine's CPU cost per I/O by stack with real fio runs; write and return the host profile.

    Parameters
    ----------
    out_dir : path
        A new folder, or one an earlier call wrote (resumed: finished runs are kept).
    seconds : float
        The total time the runs may take (fio's start-up included); each run gets an equal share, at least
        ``MIN_RUN_S``.
    repeats : int
        Runs per step (the spread over them is reported).
    target : str, optional
        A file (or, with ``allow_write``, a block device) read with O_DIRECT and fio's ``readonly=1``.
    allow_write : bool
        Also write into ``target`` (destroys its contents) and allow a block device.
    fio : str
        The fio executable.
    clock_hz : float, optional
        The core clock for cycles (default: what /proc/cpuinfo or cpufreq says).
    progress : callable or None
        Called with one line of text per run.

    Returns
    -------
    dict
        The profile (schema ``nvmemodel.host-profile/1``), also written to ``out_dir/profile.json``.
    """
    from .. import __version__
    from .profile import PROFILE_SCHEMA

    say = progress or (lambda _line: None)
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds > 0):
        raise ParameterError("--seconds", seconds, "a positive number of seconds")
    if not (isinstance(repeats, int) and 1 <= repeats <= 20):
        raise ParameterError("--repeats", repeats, "a whole number from 1 to 20")
    if clock_hz is not None and not (1e8 <= clock_hz <= 1e10):
        raise ParameterError("--clock", clock_hz, "a core clock between 100 MHz and 10 GHz, e.g. 2.1GHz")
    size, is_block, fs = 0, False, ("", "")
    if target is not None:
        target, size, is_block = _check_target(target, allow_write)
        fs = target_filesystem(target)
    elif allow_write:
        raise ParameterError("--allow-write", True, "only with --target (there is nothing to write into without one)")
    scope = "no_device" if fs[0] in MEMORY_FILESYSTEMS else "device"
    steps = plan_steps(target, target_size=size, allow_write=allow_write, target_scope=scope)
    runs_total = len(steps) * repeats
    run_s = (seconds - START_S * runs_total) / runs_total
    if run_s < MIN_RUN_S:
        need = runs_total * (START_S + MIN_RUN_S)
        raise ParameterError("--seconds", seconds, f"at least {need:g} s for {len(steps)} steps x {repeats} "
                             f"repeat(s) of {MIN_RUN_S:g} s each plus fio's start-up (or fewer --repeats)")
    path, version = _fio_version(fio)
    facts = host_facts(clock_hz)
    if facts["clock_hz"] is None:  # cycles per I/O are what the model charges: no clock, no profile to use
        raise ParameterError("--clock", None, "the core clock (neither /proc/cpuinfo nor cpufreq gives one here), "
                                              "e.g. --clock 2.1GHz")
    root, resumed = _check_folder(out_dir)
    runs_dir = root / "runs"
    _check_settings(root, {"target": None if target is None else os.path.abspath(target), "allow_write": allow_write},
                    resumed)
    engines = _engines(path)
    say(f"calibrate: {facts['model_name']}, {facts['logical_cpus']} CPU(s), load {facts['load_average'][0]:g}; "
        f"{version}; {len(steps)} steps x {repeats} runs of {run_s:.2f} s into {root}"
        + (" (resuming: finished runs are kept)" if resumed else ""))
    skipped: dict[str, str] = {}
    for step in steps:
        note = runs_dir / f"{step.name}.skipped"
        if note.exists():
            skipped[step.name] = note.read_text().strip()
        elif step.ioengine not in engines:
            skipped[step.name] = f"this fio ({version}) has no {step.ioengine} engine"
    done, left = 0, []
    started = time.monotonic()
    deadline = started + OVERRUN * seconds + 5.0  # runs are sized to fit `seconds`; a slower machine stops here
    for k in range(repeats):
        for step in steps:
            done += 1
            if step.name in skipped:
                continue
            out, meta = runs_dir / f"{step.name}-{k}.json", runs_dir / f"{step.name}-{k}.meta.json"
            if out.exists() and meta.exists():
                say(f"[{done}/{runs_total}] {step.name} run {k + 1}: kept from an earlier calibrate")
                continue
            if time.monotonic() > deadline:
                left.append(f"{step.name} run {k + 1}")
                continue
            partial = runs_dir / f"{step.name}-{k}.json.partial"
            cmd = step.command(path, run_s, str(partial))
            rc, proc_cpu, err = _run(cmd, run_s + 60)
            result = None
            if rc == 0 and partial.exists():
                try:
                    result = _read_run(partial)
                except (ValueError, KeyError, IndexError) as exc:
                    err = f"fio's output could not be read ({exc})"
            note = runs_dir / f"{step.name}.skipped"
            if result is None or result["error"] or not result["ios"] > 0:
                why = err or (f"fio reported error {result['error']}" if result else f"fio exited with {rc}")
                skipped[step.name] = f"fio could not run it here: {why}"
                note.write_text(skipped[step.name] + "\n")
                say(f"[{done}/{runs_total}] {step.name}: skipped ({skipped[step.name]})")
                partial.unlink(missing_ok=True)
                continue
            partial.replace(out)
            meta.write_text(json.dumps({"command": cmd, "process_cpu_seconds": proc_cpu, "exit": rc,
                                        "load_average": [round(x, 2) for x in os.getloadavg()]}) + "\n")
            per_io = result["cpu_seconds"] / result["ios"]
            cyc = f", {per_io * facts['clock_hz']:,.0f} cycles" if facts["clock_hz"] else ""
            say(f"[{done}/{runs_total}] {step.name} run {k + 1}: {result['iops']:,.0f} IOPS at "
                f"{result['cpu_busy']:.0%} of a CPU: {per_io * 1e6:.3g} µs of CPU per I/O{cyc}")
    if left:
        say(f"time is up ({time.monotonic() - started:.1f} s, more than {OVERRUN:g} x --seconds {seconds:g}: the "
            f"machine ran fio slower than planned): {len(left)} run(s) left for the next call with the same folder "
            f"({', '.join(left[:4])}{' …' if len(left) > 4 else ''})")
    profile = _profile(steps, repeats, runs_dir, skipped, facts, path, version, seconds, run_s, target, is_block,
                       allow_write)
    if target is not None:
        profile["target_filesystem"] = {"type": fs[0], "source": fs[1]}
        if scope == "no_device":
            say(f"note: {target} is on {fs[0]} (held in memory): its steps read no block device, so they count as "
                "lower bounds, as /dev/zero's do")
    profile.update(schema=PROFILE_SCHEMA, nvmemodel=__version__, runs_left=left,
                   elapsed_seconds=round(time.monotonic() - started, 2))
    (root / PROFILE_NAME).write_text(json.dumps(profile, indent=2) + "\n")
    say(f"wrote {root / PROFILE_NAME}")
    return profile


def _spread(values: list[float]) -> dict:
    if not values:
        return {"median": None, "min": None, "max": None}
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def _profile(steps, repeats, runs_dir, skipped, facts, fio_path, version, seconds, run_s, target, is_block,
             allow_write) -> dict:
    """The profile from the run files in ``runs_dir`` (fresh or kept)."""
    measured: dict[str, list[tuple[dict, dict]]] = {}
    for step in steps:
        for k in range(repeats):
            out, meta = runs_dir / f"{step.name}-{k}.json", runs_dir / f"{step.name}-{k}.meta.json"
            if out.exists() and meta.exists():
                measured.setdefault(step.name, []).append((_read_run(out), json.loads(meta.read_text())))
    # fio's CPU outside its job (start-up, its main thread): process CPU less the job's, on the null-engine runs
    overhead = [m["process_cpu_seconds"] - r["cpu_seconds"] for r, m in measured.get("fio-null", [])]
    fixed = statistics.median(overhead) if overhead else None
    clock = facts["clock_hz"]
    out_steps = []
    for step in steps:
        runs = measured.get(step.name)
        if not runs:
            continue
        rows = []
        for r, m in runs:
            cpu = r["cpu_seconds"]
            basis = "fio's job CPU (usr + sys)"
            if "--sqthread_poll=1" in step.options:
                if fixed is None:
                    continue
                cpu, basis = max(m["process_cpu_seconds"] - fixed, 0.0), ("the fio process's CPU, every thread "
                                                                          "(the SQ thread is outside fio's job "
                                                                          "figure), less fio's overhead outside "
                                                                          "its job")
            rows.append({**r, "cpu_seconds_used": cpu, "process_cpu_seconds": m["process_cpu_seconds"],
                         "seconds_per_io": cpu / r["ios"], "load_average": m.get("load_average")})
        if not rows:
            continue
        secs = [x["seconds_per_io"] for x in rows]
        out_steps.append({
            "step": step.name, "stack": step.stack, "ioengine": step.ioengine, "scope": step.scope,
            "target": step.target, "direction": step.direction, "block_size_bytes": _BS, "iodepth": step.iodepth,
            "options": list(step.options), "cpu_basis": basis,
            "polling": any(o in step.options for o in ("--hipri=1", "--sqthread_poll=1")),
            "seconds_per_io": _spread(secs),
            "cycles_per_io": _spread([s * clock for s in secs]) if clock else _spread([]),
            "runs": rows, "command": runs[0][1]["command"]})
    return {"created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "host": facts,
            "fio": {"version": version, "path": fio_path}, "seconds": seconds, "seconds_per_run": run_s,
            "repeats": repeats, "target": target, "target_is_block_device": is_block, "allow_write": allow_write,
            "fio_overhead_cpu_seconds": fixed, "steps": out_steps,
            "skipped": [{"step": s, "reason": r} for s, r in skipped.items()]}


def calibrate_in_temp(seconds: float = 8.0, *, repeats: int = 1, target_bytes: int = 1 << 20,
                      fio: str = "fio") -> tuple[dict | None, str]:
    """A calibration in a new temporary folder, with a ``target_bytes`` file of random bytes in it as the target
    (read with O_DIRECT: the whole path through the device under the temporary folder): ``(profile, its summary)``,
    or ``(None, why not)`` where fio is not installed. For notebooks: nothing is written outside the temporary
    folder, which is removed afterwards (the profile is returned)."""
    import tempfile

    from .profile import profile_summary

    if shutil.which(fio) is None:
        return None, (f"Not calibrated: fio is not installed here ({fio} is not on PATH; apt-get install fio, dnf "
                      "install fio, brew install fio): what follows charges the stacks' defaults.")
    with tempfile.TemporaryDirectory(prefix="nvmemodel-calibrate-") as tmp:
        target = pathlib.Path(tmp) / "target.dat"
        target.write_bytes(os.urandom(target_bytes))
        profile = calibrate(pathlib.Path(tmp) / "run", seconds=seconds, repeats=repeats, target=str(target),
                            fio=fio, progress=None)
    return profile, profile_summary(profile)
