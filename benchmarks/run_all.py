"""Run every benchmark: ``python benchmarks/run_all.py`` (each also runs on its own)."""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent

for script in ("bench_sweep.py", "bench_plan.py", "bench_ingest.py", "bench_fit.py"):
    print(f"== {script}", flush=True)
    subprocess.run([sys.executable, str(HERE / script)], check=True)
