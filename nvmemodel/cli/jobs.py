"""``nvmemodel fio-jobs`` (write a sweep's fio job files) and ``nvmemodel run-sweep`` (run them, resumably)."""

from __future__ import annotations

import argparse
import math
import pathlib

from ..errors import NvmeModelError, ParameterError
from ._common import parse_drives, whole_number

_JOBS_EXAMPLES = """\
examples:
  nvmemodel fio-jobs --out sweep1 --targets /mnt/n0/f,/mnt/n1/f,/mnt/n2/f,/mnt/n3/f \\
      --pattern randread --bs 4K --iodepth 1,4,16,64 --numjobs 1,4
  nvmemodel fio-jobs --out lenovo --matrix lenovo-lp0865 --targets /mnt/n0/f,/mnt/n1/f,/mnt/n2/f,/mnt/n3/f
  nvmemodel fio-jobs --out raw --targets /dev/nvme0n1,/dev/nvme1n1 --pattern read,randread   # reads only
  nvmemodel fio-jobs ... --dry-run          # show the plan and one job file, write nothing

then:  nvmemodel run-sweep sweep1
       nvmemodel ingest sweep1/results --path-pattern '{drives}drives/*.json' -o sweep1.csv
"""


def _list(text: str, parse, name: str) -> list:
    """Comma-separated values, each parsed; an empty part (``'1,,4'``) is a typo, not skipped."""
    parts = [x.strip() for x in text.split(",")]
    if not all(parts):
        raise ParameterError(name, text, "a comma-separated list without empty parts, e.g. '1,4,32' or '4K,128K'")
    return [parse(x, name) for x in parts]


def _whole(parse):
    """``parse`` (a unit parser or int) checked to give a finite whole number; errors name the option."""
    def f(text: str, name: str) -> int:
        try:
            v = float(parse(text))
            if not math.isfinite(v) or v != int(v):
                raise ValueError(text)
        except (ValueError, OverflowError, NvmeModelError):
            raise ParameterError(name, text, "a whole number (with a unit where it has one: 4K, 1G)") from None
        return int(v)
    return f


def _word(text: str, name: str) -> str:
    return text


def _or(value: str | None, default: str) -> str:
    """The typed value, the default only when nothing was typed (an empty value is an error, not the default)."""
    return default if value is None else value


def register(sub) -> None:
    from ..jobs import MATRICES

    j = sub.add_parser("fio-jobs", help="write fio job files for a sweep or a whitepaper's test matrix",
                       description="Write plan.json and one fio job file per point (drives x pattern x block size x "
                                   "iodepth x numjobs, or a whitepaper's matrix) into --out. Results will be named "
                                   "<drives>drives/<pattern>-bs<bytes>-qd<depth>-nj<jobs>.json: no sidecar file is "
                                   "needed, the ingest and the fit read the drive count from the path with "
                                   "--path-pattern '{drives}drives/*.json' (run-sweep prints the whole command). "
                                   "Writing patterns on raw devices are refused unless "
                                   "--allow-raw-device-writes is given.",
                       epilog=_JOBS_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    j.add_argument("--out", required=True, help="folder for plan.json, jobs/, results/: new (or empty), or holding "
                                                "this very plan (the same plan.json) to write missing job files")
    j.add_argument("--targets", required=True,
                   help="comma-separated files or devices; a point with N drives uses the first N. 'auto': every "
                        "NVMe namespace this machine shows (/dev/nvmeXnY, from /sys/class/nvme), with its NUMA "
                        "node — read patterns only unless --allow-raw-device-writes")
    j.add_argument("--sysfs-root", default="/", metavar="DIR", help="root holding sys/ for --targets auto "
                                                                    "(default: %(default)s)")
    j.add_argument("--matrix", choices=sorted(MATRICES), help="a whitepaper's test matrix instead of a sweep: "
                   + "; ".join(f"{k}: {m.source}" for k, m in MATRICES.items()))
    j.add_argument("--drives", help="drive counts, e.g. '1-4' or '1,2,4' (default: 1..number of targets, or the "
                                    "matrix's)")
    j.add_argument("--pattern", help="fio rw= values, comma-separated (default: randread)")
    j.add_argument("--bs", help="block sizes, comma-separated; K = 1024 bytes (default: 4K)")
    j.add_argument("--iodepth", help="queue depths per job, comma-separated (default: 32)")
    j.add_argument("--numjobs", help="jobs per drive, comma-separated (default: 1)")
    j.add_argument("--read-fraction", type=float, help="read share 0..1 for randrw/rw (default: 0.5)")
    j.add_argument("--runtime", default="60s", help="run time per point (default: %(default)s)")
    j.add_argument("--ramp", default="5s", help="ramp time per point, not measured (default: %(default)s)")
    j.add_argument("--size", default="1G", help="fio size per target (file size laid out; default: %(default)s)")
    j.add_argument("--ioengine", default="libaio", help="fio ioengine (default: %(default)s)")
    j.add_argument("--no-direct", action="store_true", help="buffered I/O (direct=0), e.g. on tmpfs")
    j.add_argument("--numa-nodes", help="NUMA node of each target, comma-separated (see 'nvmemodel discover'): "
                                        "pins each drive's jobs and memory to its node")
    j.add_argument("--allow-raw-device-writes", action="store_true",
                   help="allow write/randwrite/rw/trim patterns on block devices (DESTROYS their data)")
    j.add_argument("--precondition", action="store_true",
                   help="write SNIA PTS-style preconditioning, run once by run-sweep before the points: a discard "
                        "of each block device, a sequential fill of twice --size, random 4K writes over it twice "
                        "(WRITES every target: devices need --allow-raw-device-writes and must be named, not "
                        "--targets auto); turns the steady-state check on (--steady-state)")
    j.add_argument("--steady-state", metavar="CRITERION",
                   help="fio's steady-state check for every point (ss=): iops, iops_slope, bw or bw_slope and a "
                        "limit, e.g. 'iops_slope:0.2%%' or 'iops:20%%'; 'none' for no check. Default with "
                        "--precondition: iops_slope at 10%% of the mean over the window (SNIA PTS's slope rule), "
                        "i.e. 10%%/window-seconds per second")
    j.add_argument("--ss-dur", metavar="TIME", help="the window fio judges (ss_dur; whole seconds; default with "
                                                     "--steady-state: half the run time)")
    j.add_argument("--ss-ramp", metavar="TIME", help="time before fio starts judging (ss_ramp; whole seconds; "
                                                      "default 0)")
    j.add_argument("--dry-run", action="store_true", help="print the plan and the first job file; write nothing")
    j.set_defaults(run=_fio_jobs)

    r = sub.add_parser("run-sweep", help="run a folder written by fio-jobs: progress, resume, never overwrite",
                       description="Run every point of <folder>/plan.json whose result does not exist yet. Results "
                                   "appear only when complete; an interrupted run leaves no result for the point it "
                                   "was on, and the next run-sweep redoes just that point and the ones after it.")
    r.add_argument("folder", help="folder written by 'nvmemodel fio-jobs'")
    r.add_argument("--fio", default="fio", help="fio executable (default: %(default)s)")
    r.add_argument("--limit", type=whole_number(0), help="run at most this many points now")
    r.add_argument("--dry-run", action="store_true", help="print the fio commands only")
    r.add_argument("--allow-raw-device-writes", action="store_true",
                   help="needed if the plan writes to block devices")
    r.set_defaults(run=_run_sweep)


def _fio_jobs(args) -> int:
    from ..jobs import check_folder, check_targets, job_text, matrix_plan, sweep_plan, write_jobs
    from ..jobs.plan import MIXED
    from ..units import parse_block_size, parse_time

    targets = _list(args.targets, _word, "--targets")
    auto_nodes = None
    if args.precondition and targets == ["auto"]:
        raise ParameterError("--targets", "auto", "the files or devices named one by one with --precondition: it "
                                                  "writes every target, and nvmemodel never writes a device whose "
                                                  "name was not typed (list them with 'nvmemodel discover')")
    if targets == ["auto"]:
        from ..discover import nvme_namespaces
        from ._common import check_sysfs_root

        check_sysfs_root(args.sysfs_root)
        found = nvme_namespaces(args.sysfs_root)
        if not found:
            where = pathlib.Path(args.sysfs_root) / "sys/class"
            raise ParameterError("--targets", "auto", f"NVMe namespaces under {where / 'nvme'} or {where / 'block'} "
                                                      "(none found here); name the files or devices instead")
        targets = [dev for dev, _ in found]
        if all(node is not None for _, node in found):
            auto_nodes = tuple(node for _, node in found)
        print("targets: " + ", ".join(f"{dev} (NUMA {node if node is not None else '?'})" for dev, node in found))
    elif args.sysfs_root != "/":
        raise ParameterError("--sysfs-root", args.sysfs_root, "--targets auto too (it is where auto looks)")
    settings = {**_steady_state(args, parse_time(args.runtime)), "precondition": args.precondition,
                "runtime_s": parse_time(args.runtime), "ramp_s": parse_time(args.ramp),
                "size_bytes": _whole(parse_block_size)(args.size, "--size"), "ioengine": args.ioengine,
                "direct": not args.no_direct,
                "numa_nodes": tuple(_list(args.numa_nodes, _whole(int), "--numa-nodes"))
                if args.numa_nodes is not None else auto_nodes}
    drives = parse_drives(args.drives) if args.drives is not None else None
    sweep = {"--pattern": args.pattern, "--bs": args.bs, "--iodepth": args.iodepth, "--numjobs": args.numjobs,
             "--read-fraction": args.read_fraction}
    if args.matrix:
        given = [k for k, v in sweep.items() if v is not None]
        if given:  # the matrix sets them: a typed value would be silently ignored
            raise ParameterError(given[0], sweep[given[0]], f"no {', '.join(given)} with --matrix (the matrix "
                                                            f"{args.matrix} sets the patterns, sizes, depths and jobs)")
        plan = matrix_plan(args.matrix, targets, drives=drives, **settings)
    else:
        patterns = _list(_or(args.pattern, "randread"), _word, "--pattern")
        if args.read_fraction is not None and not set(patterns) & set(MIXED):
            raise ParameterError("--read-fraction", args.read_fraction, f"a mixed --pattern too ({', '.join(MIXED)}): "
                                                                         "the share of reads in a mix")
        plan = sweep_plan(targets, drives=drives, patterns=patterns,
                          block_sizes=_list(_or(args.bs, "4K"), _whole(parse_block_size), "--bs"),
                          iodepths=_list(_or(args.iodepth, "32"), _whole(int), "--iodepth"),
                          numjobs=_list(_or(args.numjobs, "1"), _whole(int), "--numjobs"),
                          read_fraction=args.read_fraction, **settings)
    raw = check_targets(plan, allow_raw_device_writes=args.allow_raw_device_writes)
    print(f"{len(plan.points)} point(s) on {len(plan.targets)} target(s); source: {plan.source}")
    for note in plan.notes:
        print(f"  note: {note}")
    from ..jobs.precondition import precondition_notes, precondition_steps

    for note in precondition_notes(plan):
        print(f"  {note}")
    if plan.steady_state is not None:
        print(f"  steady state: fio ends each point once {plan.steady_state} holds over {plan.ss_duration_s:g} s "
              f"(judging from {plan.ss_ramp_s:g} s), else runs {plan.runtime_s:g} s; run-sweep says which")
    for caveat in plan.caveats():
        print(f"  caveat: {caveat}")
    if raw:
        print(f"  raw devices: {', '.join(raw)}" + (" (writes allowed by --allow-raw-device-writes)"
                                                    if args.allow_raw_device_writes else " (read patterns only)"))
    total = len(plan.points) * (plan.runtime_s + plan.ramp_s)
    print(f"  about {total / 60:.1f} min of fio run time")
    state = check_folder(plan, args.out)  # before the dry run too, so it tells what the real run would do
    if args.dry_run:
        print(f"  --out {args.out}: " + ("a new folder" if state == "new" else "holds this very plan: only missing "
                                                                               "job files would be written"))
        for p in plan.points:
            print(f"  {p.describe():<48} -> results/{p.result_path}")
        print(f"\njobs/{plan.points[0].job_path}:\n{job_text(plan, plan.points[0])}")
        print("(dry run: nothing written)")
        return 0
    written = write_jobs(plan, args.out, allow_raw_device_writes=args.allow_raw_device_writes)
    files = 1 + len(plan.points) + len(precondition_steps(plan))  # plan.json, the points', the preconditioning's
    print(f"wrote {len(written)} file(s) under {args.out} ({files - len(written)} unchanged)")
    print(f"next: nvmemodel run-sweep {args.out}")
    print(f"then: nvmemodel ingest {args.out}/results --path-pattern '{{drives}}drives/*.json' -o table.csv")
    return 0


def _seconds(text: str, name: str) -> float:
    from ..units import parse_time

    try:
        value = parse_time(text)
    except (ValueError, NvmeModelError):
        raise ParameterError(name, text, "a time in whole seconds, e.g. '30s' or '2min'") from None
    if not math.isfinite(value) or value < 0 or value != int(value):
        raise ParameterError(name, text, "a time in whole seconds ≥ 0 (fio samples once a second)")
    return float(value)


def _steady_state(args, runtime_s: float) -> dict:
    """The plan's steady-state settings from --steady-state, --ss-dur, --ss-ramp and --precondition."""
    criterion = args.steady_state
    if criterion is not None and criterion.strip().lower() == "none":
        if args.ss_dur is not None or args.ss_ramp is not None:
            raise ParameterError("--ss-dur" if args.ss_dur is not None else "--ss-ramp",
                                 args.ss_dur if args.ss_dur is not None else args.ss_ramp,
                                 "a steady-state check (not --steady-state none)")
        return {}
    if criterion is None and not args.precondition:
        if args.ss_dur is not None or args.ss_ramp is not None:  # would be ignored
            raise ParameterError("--ss-dur" if args.ss_dur is not None else "--ss-ramp",
                                 args.ss_dur if args.ss_dur is not None else args.ss_ramp,
                                 "--steady-state (or --precondition) too: the window of fio's steady-state check")
        return {}
    duration = _seconds(args.ss_dur, "--ss-dur") if args.ss_dur is not None else float(max(1, int(runtime_s / 2)))
    ramp = _seconds(args.ss_ramp, "--ss-ramp") if args.ss_ramp is not None else 0.0
    if duration < 2:
        raise ParameterError("--ss-dur", args.ss_dur, "a window of at least 2 s (fio fits a line to one sample a "
                                                      "second)")
    if criterion is None:  # SNIA PTS: the best-fit line moves by at most 10 % of the mean over the whole window;
        # fio's slope limit is per second of the mean (steadystate.c: |slope| / mean x 100, one sample a second)
        criterion = f"iops_slope:{10 / (duration - 1):.4g}%"
    return {"steady_state": criterion, "ss_duration_s": duration, "ss_ramp_s": ramp}


def _run_sweep(args) -> int:
    from ..jobs import run_plan

    try:
        report = run_plan(args.folder, fio=args.fio, dry_run=args.dry_run, limit=args.limit,
                          allow_raw_device_writes=args.allow_raw_device_writes)
    except KeyboardInterrupt:
        return 130  # the runner said which point was interrupted; finished points are kept
    if args.dry_run:
        return 0
    print(f"\n{len(report.ran)} run now, {len(report.skipped)} done earlier, {len(report.failed)} failed, "
          f"{len(report.planned) - len(report.ran) - len(report.skipped) - len(report.failed)} left")
    for path, why in report.failed:
        print(f"  failed: {path}: {why}")
    if report.preconditioned:
        print(f"  preconditioned now: {', '.join(report.preconditioned)}")
    if report.steady_state:
        missed = [path for path, ok in report.steady_state if not ok]
        print(f"  steady state reached at {len(report.steady_state) - len(missed)} of the {len(report.steady_state)} "
              "point(s) run now" + (f"; NOT at: {', '.join(missed)} (their numbers may still drift: run longer or "
                                      "precondition)" if missed else ""))
    if report.complete:
        from ..jobs import Plan

        plan = Plan.load(f"{args.folder}/plan.json")
        print(f"all points done: nvmemodel ingest {args.folder}/results --path-pattern '{{drives}}drives/*.json'")
        print(f"            fit: {plan.fit_command(args.folder)}")
    return 1 if report.failed else 0
