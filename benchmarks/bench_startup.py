"""Benchmark: start-up. ``nvmemodel ceilings --preset …`` as a whole process against ``python -c "import nvmemodel"``,
and that against its floor, ``python -c "import numpy"``, all in the same run.

Run:  python benchmarks/bench_startup.py        (--json for a record)

Each command runs as a new process (output discarded), the three in turn, ``--repeat`` rounds; the best time of
each is kept (process start-up on a shared machine varies by tens of ms).

Bytecode: every command runs with the same fresh ``PYTHONPYCACHEPREFIX`` (a temporary folder; the checkout gets no
``__pycache__``) and with ``PYTHONDONTWRITEBYTECODE`` unset, after one warm-up run of each, so numpy and nvmemodel are
both timed from cached bytecode, as an installed package is (pip compiles what it installs). Without this, on a
machine that sets ``PYTHONDONTWRITEBYTECODE`` (this one does), an editable nvmemodel was compiled from source on every
start (about 130 ms of its 280) while numpy's installed bytecode was read: a floor that flattered the floor.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import goal, interleaved, machine

GOAL = 1.2
PRESETS = ("dell-r7525", "lenovo-sr850-810-4p", "broadcom-stingray")


def _cli() -> list[str]:
    exe = shutil.which("nvmemodel", path=str(Path(sys.executable).parent)) or shutil.which("nvmemodel")
    return [exe] if exe else [sys.executable, "-m", "nvmemodel"]


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    cache = tempfile.mkdtemp(prefix="nvmemodel-bench-pycache-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPYCACHEPREFIX": cache}

    def proc(cmd):
        return lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True, env=env)

    calls = {"import numpy": proc([sys.executable, "-c", "import numpy"]),
             "import nvmemodel": proc([sys.executable, "-c", "import nvmemodel"])}
    calls.update({f"ceilings --preset {p}": proc([*_cli(), "ceilings", "--preset", p]) for p in PRESETS})
    try:
        for call in calls.values():  # the warm-up: writes every command's bytecode into the shared cache
            call()
        best = interleaved(calls, args.repeat)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    base = best["import nvmemodel"]
    goals = [goal(f"nvmemodel ceilings --preset {p} / import nvmemodel", best[f"ceilings --preset {p}"] / base, GOAL,
                  "x", floor=f"import nvmemodel {base * 1e3:.0f} ms") for p in PRESETS]
    goals.append(goal("import nvmemodel / import numpy", base / best["import numpy"], 3.0, "x",
                      floor=f"import numpy {best['import numpy'] * 1e3:.0f} ms"))
    record = {"benchmark": "startup", "machine": machine(), "seconds": best, "goals": goals}
    if args.json:
        print(json.dumps(record, indent=2))
        return record
    for name, t in best.items():
        print(f"{name:<42} {t * 1e3:6.0f} ms  ({t / base:.2f}x import nvmemodel)")
    return record


if __name__ == "__main__":
    main()
