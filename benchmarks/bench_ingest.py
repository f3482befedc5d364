"""Benchmark: ingest of fio JSON files against its floor, orjson parse-only of the same files, in the same run.

Run:  python benchmarks/bench_ingest.py [--files 5000]        (--json for a record)

The corpus: ``--files`` copies of the repository's real fio JSON fixtures (tests/data/fio) in a temporary
folder. ``nvmemodel.read_results(folder)`` returns the typed, SI-unit table with every check it makes (it decodes
the usual fio JSON report with msgspec where msgspec is installed, as the ``[bench]`` and ``[fast]`` extras install
it; the line "decoder" says which); the floor reads each file and parses it with ``orjson.loads`` and nothing else
(no table, no checks). Interleaved,
best of ``--repeat``. Goal (issue 20): ingest at least half the floor's speed (ratio floor time / ingest time,
wall clock). The same ratio in CPU time of this process is printed beside it: on a shared machine the ingest,
the longer of the two, is interrupted more, and the wall-clock ratio drops with the load.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import goal, interleaved, machine

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIXTURES = sorted((ROOT / "tests" / "data" / "fio").glob("*.json"))
GOAL = 0.5


def make_corpus(folder: pathlib.Path, n: int) -> list[pathlib.Path]:
    """``n`` files, each a fixture whose job names are prefixed with the copy's number: a distinct run
    each (byte-identical copies are one run read twice, which ``read_results`` reads once)."""
    texts = [f.read_bytes() for f in FIXTURES]
    paths = []
    for i in range(n):
        p = folder / f"{i // 1000:02d}" / f"run_{i:05d}.json"
        p.parent.mkdir(exist_ok=True)
        p.write_bytes(texts[i % len(FIXTURES)].replace(b'"jobname" : "', b'"jobname" : "%d_' % i))
        paths.append(p)
    return paths


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=5_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        import orjson
    except ImportError:
        record = {"benchmark": "ingest", "machine": machine(), "skipped": "orjson is not installed "
                  "(pip install -e '.[bench]')", "goals": []}
        print(json.dumps(record, indent=2) if args.json else record["skipped"])
        return record
    from nvmemodel.ingest import fio_json_typed, read_results

    decoder = ("msgspec typed structs (nvmemodel/ingest/fio_json_typed.py)" if fio_json_typed.msgspec is not None
               else "orjson and the packed reader (msgspec not installed)")

    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        paths = make_corpus(folder, args.files)
        rows = len(read_results(folder))

        def floor():
            for p in paths:
                orjson.loads(p.read_bytes())

        cpu: dict = {}
        best = interleaved({"read_results": lambda: read_results(folder), "orjson": floor}, args.repeat, cpu=cpu)
    n = args.files
    ratio = best["orjson"] / best["read_results"]
    cpu_ratio = cpu["orjson"] / cpu["read_results"]
    goals = [goal("ingest speed / orjson parse-only speed", ratio, GOAL, "x", lower_is_better=False,
                  floor=f"orjson {n / best['orjson']:,.0f} files/s; CPU time {cpu_ratio:.2f}x")]
    record = {"benchmark": "ingest", "machine": machine(), "files": n, "fixtures": len(FIXTURES), "rows": rows,
              "decoder": decoder, "seconds": best, "cpu_seconds": cpu, "cpu_ratio": cpu_ratio, "goals": goals}
    if args.json:
        print(json.dumps(record, indent=2))
        return record
    print(f"corpus: {n:,} copies of {len(FIXTURES)} real fio JSON fixtures; best of {args.repeat}, interleaved")
    print(f"decoder: {decoder}")
    print(f"read_results (typed, SI, checked): {best['read_results']:6.2f} s  {n / best['read_results']:8,.0f} files/s "
          f"({rows:,} rows)")
    print(f"orjson parse-only floor:           {best['orjson']:6.2f} s  {n / best['orjson']:8,.0f} files/s")
    print(f"ratio {ratio:.2f} of the floor's speed (goal >= {GOAL}); in CPU time of this process {cpu_ratio:.2f}")
    return record


if __name__ == "__main__":
    main()
