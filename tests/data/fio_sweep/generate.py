"""Regenerate the queue-depth sweep in this folder: real fio runs (libaio, direct I/O, 70/30
random read/write of 4 KiB on a 16 MiB file in a temporary folder, 300 ms each), queue depths
1-32, two repeats each, fio JSON output ``qd<depth>/run<k>.json``.

    python tests/data/fio_sweep/generate.py     # needs fio; about 5 s

Real measurements of the machine that ran it (see ../SOURCES.md); used to test and look at
the results charts (repeats → error bars, read/write/total, Little's law).
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
DEPTHS = (1, 2, 4, 8, 16, 32)
REPEATS = 2
ARGS = ["--name=sweep", "--filename=data.bin", "--size=16M", "--bs=4k", "--rw=randrw", "--rwmixread=70",
        "--ioengine=libaio", "--direct=1", "--runtime=300ms", "--time_based", "--output-format=json"]


def main() -> None:
    fio = shutil.which("fio")
    with tempfile.TemporaryDirectory() as tmp:
        for qd in DEPTHS:
            (HERE / f"qd{qd}").mkdir(exist_ok=True)
            for k in range(1, REPEATS + 1):
                out = HERE / f"qd{qd}" / f"run{k}.json"
                subprocess.run([fio, *ARGS, f"--iodepth={qd}", f"--output={out}"], cwd=tmp, check=True, timeout=60)


if __name__ == "__main__":
    main()
