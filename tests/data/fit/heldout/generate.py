"""Measure the held-out series of the fit tests on the machine at hand (the committed files are one such run).

    python tests/data/fit/heldout/generate.py [--out tests/data/fit/heldout]

These series were measured *after* the evidence and claims code was written and are used only by
``tests/fitting/test_heldout.py`` (fio 3.x JSON, group_reporting, time based, 1 s per run, 3 repeats):

* ``rateqd/qd{Q}_r{K}.json`` — libaio, direct=1, 4 KiB randread on a 64 MiB file, numjobs 1, iodepth 1…64,
  ``rate_iops=6000``: a queue-depth sweep with a known ceiling (fio's own rate limiter, 6,000 IOPS).
* ``rising/qd{Q}_r{K}.json`` — the same without a rate limit, iodepth 1, 2, 4 only: still rising.
* ``nulljobs16/nj{N}_r{K}.json`` — ioengine=null, 4 KiB randread, iodepth 1, numjobs 1…16: flat from the
  core count (2 on the machine that recorded them).
* ``bs4/bs{B}_r{K}.json`` — libaio, direct=1, random read, iodepth 4, block size 4 KiB … 512 KiB.
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess

HERE = pathlib.Path(__file__).parent


def run(out: pathlib.Path, name: str, args: list[str]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = ["fio", f"--name={name}", "--output-format=json", f"--output={out}", "--time_based", "--runtime=1",
           "--group_reporting", *args]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=pathlib.Path, default=HERE)
    a = ap.parse_args()
    scratch = a.out / "scratch.bin"
    subprocess.run(["fio", "--name=warm", f"--filename={scratch}", "--size=64M", "--bs=1m", "--rw=read",
                    "--ioengine=libaio", "--direct=1", "--loops=2"], check=True, stdout=subprocess.DEVNULL)
    disk = ["--ioengine=libaio", "--direct=1", f"--filename={scratch}", "--size=64M", "--numjobs=1"]
    try:
        for k in (1, 2, 3):
            for qd in (1, 2, 4, 8, 16, 32, 64):
                run(a.out / "rateqd" / f"qd{qd}_r{k}.json", "rateqd",
                    [*disk, "--bs=4k", "--rw=randread", f"--iodepth={qd}", "--rate_iops=6000"])
            for qd in (1, 2, 4):
                run(a.out / "rising" / f"qd{qd}_r{k}.json", "rising", [*disk, "--bs=4k", "--rw=randread",
                                                                      f"--iodepth={qd}"])
            for nj in (1, 2, 3, 4, 6, 8, 12, 16):
                run(a.out / "nulljobs16" / f"nj{nj}_r{k}.json", "nulljobs16",
                    ["--ioengine=null", "--size=1G", "--bs=4k", "--rw=randread", "--iodepth=1", f"--numjobs={nj}"])
            for bs in ("4k", "16k", "64k", "128k", "512k"):
                run(a.out / "bs4" / f"bs{bs}_r{k}.json", "bs4", [*disk, f"--bs={bs}", "--rw=randread", "--iodepth=4"])
    finally:
        scratch.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
