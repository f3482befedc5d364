"""Regenerate the fio runs of this folder on the machine at hand (the committed files are one such run).

    python tests/data/fit/generate.py [--out tests/data/fit]

Three sweeps, each point repeated so the fits see a spread (fio 3.x JSON, group_reporting, time based):

* ``nulljobs/nj{N}_r{K}.json`` — ioengine=null, 4 KiB randread, iodepth 1, numjobs N = 1, 2, 3, 4, 6, 8:
  no device at all, so IOPS measure the CPU's rate of submitting and completing I/Os; on a
  2-core machine it must stop growing at 2 jobs.
* ``qd/qd{Q}_r{K}.json`` — libaio, direct=1, 4 KiB randread on a 256 MiB file on this VM's disk,
  numjobs 1, iodepth Q = 1 … 128: a queue-depth sweep with a latency floor and a device/host cap.
* ``bs/bs{B}_r{K}.json`` — libaio, direct=1, sequential read, iodepth 16, block size 4 KiB … 1 MiB.

Runs are short (2 s) and the machine is shared, so the spread between repeats is part of the data.
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess

HERE = pathlib.Path(__file__).parent


def run(out: pathlib.Path, name: str, args: list[str], runtime: int = 2, ramp: int = 0) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = ["fio", f"--name={name}", "--output-format=json", f"--output={out}", "--time_based", f"--runtime={runtime}",
           f"--ramp_time={ramp}", "--group_reporting", *args]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=pathlib.Path, default=HERE)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", choices=("nulljobs", "qd", "bs"), action="append",
                    help="regenerate only these sweeps (repeatable; default all)")
    ap.add_argument("--qd-runtime", type=int, default=2, help="seconds per qd/ run (the committed files: 2)")
    ap.add_argument("--qd-ramp", type=int, default=0, help="ramp seconds per qd/ run (the committed files: 0)")
    a = ap.parse_args()
    only = set(a.only or ("nulljobs", "qd", "bs"))
    scratch = a.out / "scratch.bin"
    if "qd" in only:
        # lay the file out and read it once: on this VM the first seconds of random reads of a fresh file ran
        # at half the later rate (the hypervisor's cache warming up), which 2 s runs measured as noise
        subprocess.run(["fio", "--name=warm", f"--filename={scratch}", "--size=256M", "--bs=1m", "--rw=read",
                        "--ioengine=libaio", "--direct=1", "--loops=3"], check=True, stdout=subprocess.DEVNULL)
    for k in range(1, a.repeats + 1):
        for nj in (1, 2, 3, 4, 6, 8) if "nulljobs" in only else ():
            run(a.out / "nulljobs" / f"nj{nj}_r{k}.json", "nulljobs",
                ["--ioengine=null", "--size=1G", "--bs=4k", "--rw=randread", "--iodepth=1", f"--numjobs={nj}"])
        for qd in (1, 2, 4, 8, 16, 32, 64, 128) if "qd" in only else ():
            run(a.out / "qd" / f"qd{qd}_r{k}.json", "qd",
                ["--ioengine=libaio", "--direct=1", f"--filename={scratch}", "--size=256M", "--bs=4k",
                 "--rw=randread", f"--iodepth={qd}", "--numjobs=1"], runtime=a.qd_runtime, ramp=a.qd_ramp)
        for bs in ("4k", "16k", "64k", "256k", "1m") if "bs" in only else ():
            run(a.out / "bs" / f"bs{bs}_r{k}.json", "bs",
                ["--ioengine=libaio", "--direct=1", f"--filename={scratch}", "--size=256M", f"--bs={bs}",
                 "--rw=read", "--iodepth=16", "--numjobs=1"])
    scratch.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
