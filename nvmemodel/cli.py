"""Command line: ``nvmemodel ceilings``, ``ingest``, ``reproduce``, ``presets``, ``drives``.

Bad input never produces a traceback: errors print one line naming the parameter and
what is allowed, and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from .errors import NvmeModelError, ParameterError

JSON_SCHEMA_ID = "nvmemodel.ceilings/1"

_EPILOG = """\
examples:
  nvmemodel ceilings --preset dell-r7525 --pattern read --bs 128K
      How fast can 1, 2, 4, 8, 12, 24 Gen4 drives read 128K blocks, and what limits each point?
  nvmemodel ceilings --preset lenovo-sr850-810-4p --pattern randread --bs 4K --explain
  nvmemodel ceilings --preset dell-r7525 --drive samsung-pm1743 --drives 1-24 --io-stack io_uring_polled
  nvmemodel ceilings --preset dell-r7525 --bs 4K --json > out.json

components (what can bind):
  drive             the drive's spec-sheet IOPS / bandwidth
  pcie_link         each drive's own PCIe link after encoding, TLP and NVMe command overheads
  queue_depth       Little's law: outstanding I/O / QD1 latency
  switch_uplink     the PCIe switch uplink shared by the drives behind it
  switch_processing the switch's per-command processing rate
  host_cpu          CPU cycles per I/O for the chosen I/O stack
  fabric            the NVMe-oF network (line rate minus per-packet overhead)
"""


def _parse_drives(text: str) -> list[int]:
    out: list[int] = []
    try:
        for part in text.split(","):
            if "-" in part:
                lo, hi = part.split("-", 1)
                out.extend(range(int(lo), int(hi) + 1))
            elif part.strip():
                out.append(int(part))
    except ValueError:
        raise ParameterError("--drives", text, "counts like '4', '1-24' or '1,2,4,8'") from None
    if not out:
        raise ParameterError("--drives", text, "at least one drive count")
    return out


def _num(x: float):
    return None if not math.isfinite(x) else float(x)


def _build_parser() -> argparse.ArgumentParser:
    from .topology.host import IoStack
    from .topology.presets import PRESETS

    parser = argparse.ArgumentParser(prog="nvmemodel", description="How fast can an NVMe subsystem go, and why.")
    sub = parser.add_subparsers(dest="command", required=True)

    c = sub.add_parser(
        "ceilings", help="ceilings and the binding bottleneck for a topology and workload",
        description="Evaluate every component's ceiling (IOPS and bytes/s) as drives are added, and name "
                    "the binding one at each point. Start from a preset; override drive, PCIe and workload.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("--preset", default="dell-r7525", help=f"system to start from: {', '.join(PRESETS)} "
                   "(default: %(default)s)")
    c.add_argument("--drive", help="replace the preset's drive by a catalog drive (see 'nvmemodel drives')")
    c.add_argument("--drives", help="drive counts, e.g. '12', '1-24', '1,2,4,8' (default: the preset's)")
    c.add_argument("--pattern", default="randread",
                   help="fio rw= pattern: read, write, randread, randwrite, randrw, rw (default: %(default)s)")
    c.add_argument("--bs", default="4K", help="block size, e.g. 4K, 128K, 1M (K = 1024 bytes; default: %(default)s)")
    c.add_argument("--read-fraction", type=float, help="read share 0..1 for randrw/rw")
    c.add_argument("--iodepth", type=int, default=32, help="queue depth per job (default: %(default)s)")
    c.add_argument("--numjobs", type=int, default=1, help="jobs per drive (default: %(default)s)")
    c.add_argument("--io-stack", default="libaio", choices=[s.value for s in IoStack],
                   help="host I/O stack, sets CPU cycles per I/O (default: %(default)s)")
    c.add_argument("--mps", type=int, help="PCIe Max Payload Size in bytes (default: the preset's, 256)")
    c.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="override any model parameter by its name, SI units, e.g. --set host.cycles_per_io=4000 "
                        "--set switch.efficiency=0.9 (repeatable; 'nvmemodel parameters' lists the names)")
    c.add_argument("--json", action="store_true", help=f"machine-readable output (schema {JSON_SCHEMA_ID})")
    c.add_argument("--explain", action="store_true", help="add a plain-language account of the limits")

    r = sub.add_parser("reproduce", help="run every notebook headless (papermill): figures and key numbers",
                       description="Execute notebooks/NN_*.ipynb with papermill. Each writes its executed copy, "
                                   "figures and key_numbers.json into OUTPUT/<notebook>/.")
    r.add_argument("--output", default="output", help="output folder (default: %(default)s)")
    r.add_argument("--quick", action="store_true", help="pass quick=True (no figures, small grids)")
    r.add_argument("--only", nargs="*", help="notebook names to run (default: all)")
    r.add_argument("--refresh", action="store_true",
                   help="developers: re-execute the notebooks in place and keep only the nbval-checked outputs")

    i = sub.add_parser(
        "ingest", help="read fio / IOmeter results into one tidy table (CSV or Parquet)",
        description="Read benchmark result files and folders (fio JSON/json+/terse/normal output, IOmeter CSV; "
                    "formats recognised from content) into one table, one row per (file, job or target, "
                    "direction), SI units. Prints a one-line summary and every skipped file with its reason.",
        epilog="examples:\n  nvmemodel ingest results/ -o table.csv\n"
               "  nvmemodel ingest runs/ --path-regex '(?P<drives>\\d+)drives' --labels labels.yaml -o t.parquet\n"
               "  nvmemodel ingest runs/ --path-pattern '{drives}drives/{connection}/*.json' -o t.csv\n"
               "  nvmemodel ingest --schema",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    i.add_argument("paths", nargs="*", help="files and folders (walked recursively)")
    i.add_argument("-o", "--output", help="output table: .csv or .parquet (default: print a preview)")
    i.add_argument("--labels", help="sidecar mapping file globs to labels (YAML or CSV with a 'path' column)")
    i.add_argument("--path-regex", help="regex whose named groups become labels, e.g. '(?P<drives>\\d+)drives'")
    i.add_argument("--path-pattern", help="the same with {name} fields, e.g. '{drives}drives/{connection}/*.json'")
    i.add_argument("--strict", action="store_true", help="stop at the first unreadable file (exit 2)")
    i.add_argument("--schema", action="store_true", help="print the table's columns, units and meanings")

    pp = sub.add_parser("parameters", help="list a preset's model parameters (names for --set and fits), SI units")
    pp.add_argument("--preset", default="dell-r7525", help="preset (default: %(default)s)")

    sub.add_parser("presets", help="list the preset systems and what they are built from")
    sub.add_parser("drives", help="list the drive catalog with sources")
    return parser


def _ceilings(args) -> int:
    import dataclasses

    from .ceiling.evaluate import evaluate
    from .topology.drive import get_drive
    from .topology.presets import preset
    from .topology.workload import Workload

    topo = preset(args.preset)
    if args.drive:
        topo = topo.replace(drive=get_drive(args.drive))
    if args.mps:
        topo = topo.replace(pcie=dataclasses.replace(topo.pcie, mps=args.mps))
    wl = Workload(args.pattern, args.bs, args.read_fraction, args.iodepth, args.numjobs, args.io_stack)
    overrides = {}
    for item in args.set:
        name, sep, value = item.partition("=")
        try:
            overrides[name.strip()] = float(value)
        except ValueError:
            raise ParameterError("--set", item, "NAME=NUMBER, e.g. host.cycles_per_io=4000") from None
        if not sep:
            raise ParameterError("--set", item, "NAME=NUMBER, e.g. host.cycles_per_io=4000")
    curve = evaluate(topo, wl, drives=_parse_drives(args.drives) if args.drives else None, overrides=overrides)

    if args.json:
        points = []
        for n in curve.drives:
            cs = curve.ceilings_at(int(n))
            points.append({
                "drives": int(n), "iops": float(curve.iops_at(int(n))),
                "bytes_per_s": float(curve.bandwidth_at(int(n))), "binding": curve.binding_at(int(n)),
                "ceilings": {c.component: {"iops": _num(c.iops), "bytes_per_s": _num(c.bytes_per_s),
                                           "headroom": _num(c.headroom)} for c in cs},
            })
        doc = {"schema": JSON_SCHEMA_ID, "topology": topo.name, "description": topo.describe(),
               "workload": {"pattern": wl.pattern, "block_size_bytes": wl.block_size,
                            "read_fraction": wl.read_fraction, "iodepth": wl.iodepth, "numjobs": wl.numjobs,
                            "io_stack": wl.io_stack.value},
               "points": points}
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0

    print(topo.describe())
    print(f"workload: {wl.describe()}\n")
    print(f"{'drives':>6} {'IOPS':>14} {'GB/s':>9} {'GiB/s':>9}  binding")
    for n in curve.drives:
        x = curve.bandwidth_at(int(n))
        print(f"{int(n):>6} {curve.iops_at(int(n)):>14,.0f} {x / 1e9:>9.3f} {x / 2**30:>9.3f}  {curve.binding_at(int(n))}")
    last = int(curve.drives[-1])
    print(f"\nEvery component at {last} drive(s) (alone, IOPS / GB/s / headroom):")
    for ceil in curve.ceilings_at(last):
        print("  " + repr(ceil))
    if args.explain:
        print("\n" + curve.explain() + "\n\n" + curve.explain(last))
    return 0


def _ingest(args) -> int:
    import collections
    import warnings

    from .errors import IngestWarning
    from .ingest import read_results, schema_table

    if args.schema:
        print(schema_table())
        return 0
    if not args.paths:
        raise ParameterError("paths", [], "at least one file or folder")
    if args.output and not args.output.endswith((".csv", ".parquet")):
        raise ParameterError("--output", args.output, "a path ending in .csv or .parquet")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", IngestWarning)
        df = read_results(args.paths, labels=args.labels, path_regex=args.path_regex, path_pattern=args.path_pattern,
                          errors="raise" if args.strict else "skip", progress=True)
    for w in caught:
        if not str(w.message).startswith("skipped "):
            print(f"nvmemodel: warning: {w.message}", file=sys.stderr)
    skipped = df.attrs["skipped"]
    if args.output:
        if args.output.endswith(".parquet"):
            try:
                df.to_parquet(args.output, index=False)
            except ImportError:
                raise ParameterError("--output", args.output, "a .csv path (Parquet needs pyarrow: "
                                                              "pip install pyarrow)") from None
        else:
            df.to_csv(args.output, index=False)
    else:
        cols = ["source_path", "job_name", "direction", "block_size_bytes", "iodepth", "iops", "bw_bytes_per_s"]
        print(df[cols].to_string(max_rows=20, max_colwidth=50))
    reasons = collections.Counter(s.reason.split(":")[0] for s in skipped)
    summary = f"read {df.attrs['files_read']} file(s), {len(df)} row(s)"
    if skipped:
        summary += f"; skipped {len(skipped)}: " + ", ".join(f"{n} x {r}" for r, n in reasons.most_common())
    print(summary + (f" -> {args.output}" if args.output else ""), file=sys.stderr)
    for s in skipped:
        print(f"  skipped {s.path}: {s.reason}", file=sys.stderr)
    return 0


def _presets() -> int:
    from .topology.presets import PRESETS, preset

    for name in PRESETS:
        t = preset(name)
        print(f"{name}\n  {t.describe()}\n  {t.notes}\n")
    return 0


def _drives() -> int:
    from .topology.drive import drive_catalog

    for key, d in drive_catalog().items():
        print(f"{key:<26} Gen{int(d.gen)} x{d.lanes}  read {d.seq_read_bytes_per_s / 1e6:>7.0f} MB/s "
              f"{d.rand_read_iops / 1e3:>6.0f} K IOPS  [{d.status}]  {d.name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "ceilings":
            return _ceilings(args)
        if args.command == "reproduce":
            from . import reproduce

            if args.refresh:
                reproduce.refresh_stored_outputs()
            else:
                done = reproduce.run_notebooks(args.output, quick=args.quick, names=args.only)
                print(f"{len(done)} notebook(s) executed into {args.output}/")
            return 0
        if args.command == "ingest":
            return _ingest(args)
        if args.command == "presets":
            return _presets()
        if args.command == "parameters":
            from .topology.presets import preset
            from .topology.workload import Workload

            for name, value in preset(args.preset).parameters(Workload()).items():
                print(f"{name:<32} {value:g}")
            return 0
        if args.command == "drives":
            return _drives()
    except NvmeModelError as exc:
        print(f"nvmemodel: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `nvmemodel parameters | head`: the reader left, not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    parser.error(f"unknown command {args.command!r}")
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
