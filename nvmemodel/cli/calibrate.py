"""``nvmemodel calibrate``: measure this machine's CPU cost per I/O by stack with real fio (a host profile)."""

from __future__ import annotations

import argparse

from ..errors import ParameterError

_EPILOG = """\
examples:
  nvmemodel calibrate --out mybox-cal                      # about 20 s: fio's null engine, each stack on /dev/zero
  nvmemodel calibrate --out mybox-cal2 --target /data/big.file --seconds 40  # + reads of that file (O_DIRECT)
  nvmemodel plan --iops 5M --profile mybox-cal2/profile.json                # plan with the costs measured here
  nvmemodel ceilings --preset dell-r7525 --profile mybox-cal2/profile.json --io-stack io_uring

The runs read a null device (/dev/zero) and, with --target, the file named (fio readonly). Nothing is written
outside --out unless --allow-write is given, which adds random writes INTO the target (destroying its contents)
and is required for a block device. An interrupted calibration resumes when run again with the same --out (and the
same --target: another target needs a new folder).
"""


def register(sub) -> None:
    c = sub.add_parser("calibrate", help="measure this machine's CPU cost per I/O by stack with fio (host profile)",
                       description="Short, bounded fio runs on this machine: fio's null engine and each I/O stack "
                                   "fio offers (psync, libaio, io_uring, io_uring polled and SQPOLL where allowed) on "
                                   "a null device, optionally on a file or device you name; writes a host profile "
                                   "(JSON) that ceilings, sweep, plan and discover take as --profile.",
                       epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("--out", required=True, metavar="DIR",
                   help="a new folder for the runs and profile.json (or one an earlier calibrate wrote: resumed)")
    c.add_argument("--seconds", type=float, default=20.0,
                   help="total time of the runs, fio's start-up included (default: %(default)g)")
    c.add_argument("--repeats", type=int, default=2, help="runs per step, for the spread (default: %(default)s)")
    c.add_argument("--target", metavar="PATH",
                   help="also read this file with O_DIRECT (fio readonly): the whole path through its device")
    c.add_argument("--allow-write", action="store_true",
                   help="also write 4K random blocks into --target (DESTROYS its contents); required for a block "
                        "device")
    c.add_argument("--clock", help="core clock for cycles, e.g. 2.1GHz (default: what /proc/cpuinfo says)")
    c.add_argument("--fio", default="fio", help="the fio executable (default: %(default)s)")
    c.add_argument("--quiet", action="store_true", help="no progress lines")
    c.set_defaults(run=_calibrate)


def _calibrate(args) -> int:
    from ..hostcal.measure import calibrate
    from ..units import parse_frequency

    clock = None
    if args.clock is not None:
        try:
            clock = parse_frequency(args.clock)
        except ValueError:
            raise ParameterError("--clock", args.clock, "a frequency such as 2.1GHz or 2100MHz") from None
    for option, value in (("--out", args.out), ("--fio", args.fio)):
        if any(ch in value for ch in "\n\r"):
            raise ParameterError(option, value, "a name without line breaks")
    profile = calibrate(args.out, seconds=args.seconds, repeats=args.repeats, target=args.target,
                        allow_write=args.allow_write, fio=args.fio, clock_hz=clock,
                        progress=None if args.quiet else (lambda line: print(line, flush=True)))
    from ..hostcal.profile import profile_summary

    print(profile_summary(profile))
    import pathlib

    where = pathlib.Path(args.out) / "profile.json"
    print(f"\nnext: nvmemodel plan --iops 5M --profile {where}   (or ceilings / sweep / discover --profile {where})")
    return 0
