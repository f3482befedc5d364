"""Run every benchmark and print one summary: each figure against its goal, each measured against its floor.

Run:  python benchmarks/run_all.py            (needs ``pip install -e '.[bench]'`` for the floors)
      python benchmarks/run_all.py --quick    (fewer repeats: a rough look, not a record)

Each benchmark runs in its own process (``--json``) so that one's imports and caches do not flatter another;
their own lines are printed as they finish, then a Markdown table (docs/benchmarks.md holds a run of it).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _bench import machine

BENCHMARKS = {  # script: (normal arguments, --quick arguments)
    "bench_sweep.py": ([], ["--repeat", "4"]),
    "bench_evaluate.py": ([], ["--repeat", "40"]),
    "bench_startup.py": ([], ["--repeat", "5"]),
    "bench_plan.py": ([], ["--repeat", "1"]),
    "bench_ingest.py": ([], ["--files", "1000", "--repeat", "2"]),
    "bench_fit.py": ([], ["--repeat", "2"]),
}


def _value(row: dict) -> str:
    v = row["value"]
    return f"{v:,.0f} {row['unit']}" if row["unit"] in ("us", "ms") else f"{v:.2f}{row['unit']}"


def _parts(record: dict) -> list[str]:
    """Where a subject's time goes, as its benchmark measured it in the same run (parts, not floors)."""
    if record["benchmark"] == "sweep":
        return [f"{r['preset']} {r['grid']}: sweep {r['sweep_s'] * 1e3:.1f} ms = fused floor x {r['ratio']:.2f} "
                f"(CPU time x {r['cpu_ratio']:.2f}); of it names {r['names_s'] * 1e3:.1f} ms, kernel pass "
                f"{r['pass_s'] * 1e3:.1f} ms" for r in record["rows"] if "pass_s" in r]
    if record["benchmark"] == "evaluate":
        return [f"{r['preset']} {r['drives']} points: {r['evaluate_us']:.0f} us; kernel alone {r['kernel_us']:.0f} us, "
                f"first call on a topology {r['first_call_us']:.0f} us" for r in record["rows"]]
    return []


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", nargs="*", default=None, help="benchmark scripts to run (default: all)")
    args = ap.parse_args(argv)
    start = machine()
    records = []
    for script, (normal, quick) in BENCHMARKS.items():
        if args.only and script not in args.only:
            continue
        print(f"== {script}", flush=True)
        out = subprocess.run([sys.executable, str(HERE / script), "--json", *(quick if args.quick else normal)],
                             check=True, capture_output=True, text=True).stdout
        records.append(json.loads(out))
        for g in records[-1]["goals"]:
            print(f"   {g['name']}: {_value(g)} (goal {g['sense']} {g['goal']:g}{g['unit']}; "
                  f"{'met' if g['met'] else 'NOT met'})", flush=True)
        if "skipped" in records[-1]:
            print(f"   skipped: {records[-1]['skipped']}")
        for line in _parts(records[-1]):
            print(f"   {line}", flush=True)
    end = machine()
    print()
    print(f"{start['date_utc']} · {start['cpu']}, {start['cores']} cores · Python {start['python']}, numpy "
          f"{start['numpy']} · load average {start['load_average'][0]:.1f} at the start, "
          f"{end['load_average'][0]:.1f} at the end{' · --quick' if args.quick else ''}")
    print()
    print("| benchmark | figure | measured | goal | floor (same run) | |")
    print("|---|---|---|---|---|---|")
    for rec in records:
        for g in rec["goals"]:
            print(f"| {rec['benchmark']} | {g['name']} | {_value(g)} | {g['sense']} {g['goal']:g}{g['unit']} | "
                  f"{g['floor']} | {'met' if g['met'] else '**not met**'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
