"""Benchmark: ingest 10,000 fio JSON files (copies of real fixtures) with nvmemodel.read_results,
compared with parsing the same files one by one with the standard json module and
pandas.json_normalize (the usual hand-rolled approach, which also yields one row per job but
with raw, unit-mixed column names).

Run:  python benchmarks/bench_ingest.py [--files 10000]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import shutil
import tempfile
import time

import pandas as pd

from nvmemodel.ingest import read_results

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIXTURES = sorted((ROOT / "tests" / "data" / "fio").glob("*.json"))
SHARED = sorted((ROOT.parent / "shared" / "data" / "real" / "fio_json").glob("hothanh7_*.json"))


def make_corpus(folder: pathlib.Path, n: int) -> list[pathlib.Path]:
    sources = FIXTURES + SHARED
    paths = []
    for i in range(n):
        p = folder / f"{i // 1000:02d}" / f"run_{i:05d}.json"
        p.parent.mkdir(exist_ok=True)
        shutil.copyfile(sources[i % len(sources)], p)
        paths.append(p)
    return paths


def baseline(paths):
    frames = []
    for p in paths:
        with open(p) as fh:
            doc = json.load(fh)
        frames.append(pd.json_normalize(doc["jobs"]))
    return pd.concat(frames, ignore_index=True)


def _best(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> None:
    from nvmemodel.ingest import fio_json

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--baseline-files", type=int, default=1_000,
                    help="files for the (slow) json_normalize baseline; its rate is per file")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        paths = make_corpus(folder, args.files)
        t_fast, df = _best(lambda: read_results(folder), args.repeat)
        accel, fio_json._fast_loads = fio_json._fast_loads, None  # the standard-library json path
        try:
            t_std, _ = _best(lambda: read_results(folder), args.repeat)
        finally:
            fio_json._fast_loads = accel
        t_base, base = _best(lambda: baseline(paths[: args.baseline_files]), 1)
    n = args.files
    print(f"corpus: {n} files from {len(FIXTURES) + len(SHARED)} real fixtures; best of {args.repeat}")
    if accel is not None:
        print(f"read_results (orjson):        {t_fast:6.2f} s  {n / t_fast:7.0f} files/s  ({len(df)} rows, typed, SI)")
    print(f"read_results (stdlib json):   {t_std:6.2f} s  {n / t_std:7.0f} files/s")
    print(f"json.load + json_normalize:   {t_base:6.2f} s  {args.baseline_files / t_base:7.0f} files/s  "
          f"(on {args.baseline_files} files; raw, unit-mixed {base.shape[1]} columns)")


if __name__ == "__main__":
    main()
