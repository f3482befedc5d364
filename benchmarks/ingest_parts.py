"""Where the ingest's time goes: bench_ingest.py's corpus, its floor, and the parts any reader of this table pays.

Run:  python benchmarks/ingest_parts.py [--files 2000] [--rounds 20]

Each part is timed in turn (interleaved), best of ``--rounds``, in **CPU time** of this process (on a shared
machine CPU time varies less than wall time; bench_ingest.py's figure is wall time):

* floor: reading each file and ``orjson.loads`` of it, nothing else (bench_ingest.py's floor);
* walk: the folder walk of ``read_results`` (every file listed and sorted; a regular file's type and inode number
  from the listing, any other file's status taken once);
* typed decode: each file read as ``read_results`` reads it and decoded into the typed structs of
  ``nvmemodel/ingest/fio_json_typed.py`` (msgspec: only the fields the table reads, types and ranges checked), no
  rows (where msgspec is installed);
* rows without checks: each file read and parsed, one row dict per direction that moved bytes with its numbers
  scaled to SI — no check of any value, no options, no fio semantics (the least a dict-per-row reader does);
* table: the typed DataFrame built from those rows (``nvmemodel.ingest.schema.to_frame``);
* ingest: ``nvmemodel.read_results`` of the folder, every check it makes (the usual fio JSON report decoded from
  its bytes into typed structs and packed rows, ``nvmemodel/ingest/fio_json_typed.py``, where msgspec is installed;
  else parsed by orjson and read into packed rows, ``nvmemodel/ingest/fio_json_packed.py``).

The difference between ingest and walk + rows without checks + table is what the checks and fio's semantics
(options, groups, block sizes, units by version, …) cost, less what decoding only the fields the table reads
saves (the rows without checks parse the whole file with orjson). Not a test, not part of run_all.py.
"""

from __future__ import annotations

import argparse
import gc
import pathlib
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ingest import make_corpus

_PERCENTILES = ("50.000000", "90.000000", "95.000000", "99.000000", "99.900000", "99.990000")
_COLUMNS = ("clat_p50_s", "clat_p90_s", "clat_p95_s", "clat_p99_s", "clat_p99_9_s", "clat_p99_99_s")


def rows_without_checks(doc: dict, path: str, empty_row: dict) -> list[dict]:
    """One row per direction that moved bytes, numbers scaled to SI; nothing checked (the fixtures are valid)."""
    rows = []
    base = empty_row.copy()
    base["tool"], base["tool_version"], base["source_path"] = "fio", doc.get("fio version"), path
    for i, job in enumerate(doc["jobs"]):
        job_row = base.copy()
        job_row["job_name"], job_row["job_index"], job_row["group_id"] = job["jobname"], i, job["groupid"]
        job_row["cpu_usr"], job_row["cpu_sys"], job_row["error"] = job["usr_cpu"] / 100, job["sys_cpu"] / 100, 0
        for direction in ("read", "write", "trim"):
            d = job[direction]
            if not d["io_bytes"]:
                continue
            row = job_row.copy()
            scale = 1e-9 if "lat_ns" in d else 1e-6
            lat, clat, slat = (d["lat_ns"], d["clat_ns"], d["slat_ns"]) if scale == 1e-9 else (d["lat"], d["clat"], d["slat"])
            row["direction"], row["runtime_s"], row["iops"] = direction, d["runtime"] / 1000, float(d["iops"])
            row["io_bytes"], row["ios"] = float(d["io_bytes"]), float(d.get("total_ios", 0))
            row["bw_bytes_per_s"] = float(d.get("bw_bytes", d["bw"] * 1024))
            row["lat_mean_s"], row["lat_max_s"] = lat["mean"] * scale, lat["max"] * scale
            row["clat_mean_s"], row["slat_mean_s"] = clat["mean"] * scale, slat["mean"] * scale
            pct = clat["percentile"]
            for key, col in zip(_PERCENTILES, _COLUMNS):
                row[col] = pct[key] * scale
            rows.append(row)
    return rows


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=2_000)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args(argv)
    import orjson

    from nvmemodel.ingest import fio_json_typed, read_results
    from nvmemodel.ingest.files import expand, read_bytes
    from nvmemodel.ingest.schema import _EMPTY_ROW, to_frame

    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        paths = make_corpus(folder, args.files)
        walked, _, stats = expand(folder)

        def floor():
            for p in paths:
                orjson.loads(p.read_bytes())

        def rows():  # with the garbage collector paused, as read_results pauses it
            out = []
            gc.disable()
            try:
                for p, st in zip(walked, stats):  # read as read_results reads (one os.read, status known)
                    out += rows_without_checks(orjson.loads(read_bytes(p, None, st)), p, _EMPTY_ROW)
            finally:
                gc.enable()
            return out

        table_rows = rows()
        parts = {"floor": floor, "walk": lambda: expand(folder), "rows without checks": rows,
                 "table": lambda: to_frame(table_rows), "ingest": lambda: read_results(folder)}
        if fio_json_typed.msgspec is not None:
            def typed_decode():
                for p, st in zip(walked, stats):
                    fio_json_typed._decode(read_bytes(p, None, st))

            parts["typed decode"] = typed_decode
        best = dict.fromkeys(parts, float("inf"))
        for _ in range(args.rounds):
            for name, call in parts.items():
                gc.collect()
                t0 = time.process_time()
                call()
                best[name] = min(best[name], time.process_time() - t0)
    us = {name: seconds / args.files * 1e6 for name, seconds in best.items()}
    least = us["walk"] + us["rows without checks"] + us["table"]
    print(f"{args.files:,} copies of bench_ingest.py's fixtures ({len(table_rows) / args.files:.2f} rows a file); "
          f"CPU time per file, best of {args.rounds}, interleaved:")
    for name, value in us.items():
        print(f"  {name:20s} {value:6.1f} us")
    print(f"walk + rows without checks + table: {least:.1f} us a file, {us['floor'] / least:.2f} of the floor's speed")
    print(f"ingest: {us['ingest']:.1f} us a file, {us['floor'] / us['ingest']:.2f} of the floor's speed; its checks "
          f"and fio semantics: {us['ingest'] - least:.1f} us a file")
    if "typed decode" in us:  # (the ingest's own parse, cheaper than the orjson parse the rows without checks pay)
        print(f"of the ingest: read and typed decode {us['typed decode']:.1f} us, walk {us['walk']:.1f} us, rows with "
              f"their checks, copies and the table {us['ingest'] - us['typed decode'] - us['walk']:.1f} us")
    return us


if __name__ == "__main__":
    main()
