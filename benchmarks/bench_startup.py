"""Benchmark: start-up. ``nvmemodel ceilings --preset …`` as a whole process against ``python -c "import nvmemodel"``,
and that against its floor, ``python -c "import numpy"``, all in the same run.

Run:  python benchmarks/bench_startup.py        (--json for a record)

Each command runs as a new process (output discarded), the three in turn, ``--repeat`` rounds; the best time of
each is kept (process start-up on a shared machine varies by tens of ms).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
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

    def proc(cmd):
        return lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)

    calls = {"import numpy": proc([sys.executable, "-c", "import numpy"]),
             "import nvmemodel": proc([sys.executable, "-c", "import nvmemodel"])}
    calls.update({f"ceilings --preset {p}": proc([*_cli(), "ceilings", "--preset", p]) for p in PRESETS})
    best = interleaved(calls, args.repeat)
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
