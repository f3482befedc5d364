"""``nvmemodel ingest``: benchmark result files and folders → one tidy table."""

from __future__ import annotations

import argparse
import sys

from ..errors import ParameterError


def register(sub) -> None:
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
    i.add_argument("--labels", help="sidecar mapping file globs (relative to its folder) to labels (YAML or CSV with a "
                   "'path' column)")
    i.add_argument("--path-regex", help="regex whose named groups become labels, e.g. '(?P<drives>\\d+)drives'")
    i.add_argument("--path-pattern", help="the same with {name} fields, e.g. '{drives}drives/{connection}/*.json'")
    i.add_argument("--strict", action="store_true", help="stop at the first unreadable file (exit 2)")
    i.add_argument("--schema", action="store_true", help="print the table's columns, units and meanings")
    i.add_argument("--costs", action="store_true",
                   help="print the CPU cost per I/O of the runs (fio's usr+sys CPU per job x run time / I/Os) by "
                        "engine, direction, block size and queue depth, with the spread over runs")
    i.add_argument("--costs-out", metavar="PATH", help="write those costs as JSON (schema nvmemodel.io-costs/1) to "
                   "this new file, for --costs in ceilings, sweep, plan and fit")
    i.add_argument("--host", metavar="NAME", help="with --costs: the catalog CPU the runs were made on, for its "
                   "clock (cycles per I/O)")
    i.add_argument("--clock", help="with --costs: the core clock instead, e.g. 2.1GHz")

    i.set_defaults(run=_ingest)


def _check_output(output: str, inputs: list[str]) -> None:
    """Before any work: a writable table path that is none of the inputs (inputs are only read)."""
    import os
    import pathlib

    out = pathlib.Path(output)
    if not output.endswith((".csv", ".parquet")):
        raise ParameterError("--output", output, "a path ending in .csv or .parquet")
    if out.exists() and not out.is_file():  # a FIFO would block the write, a device would take it
        raise ParameterError("--output", output, "a new or regular file (this exists and is not a regular file)")
    if not out.parent.is_dir():
        raise ParameterError("--output", output, f"a path in an existing folder ({out.parent} does not exist)")
    if not os.access(out.parent, os.W_OK):
        raise ParameterError("--output", output, f"a path in a folder you can write ({out.parent} is not)")
    target = out.resolve()
    for given in inputs:
        src = pathlib.Path(given).resolve()
        if target == src or (out.exists() and src.is_dir() and src in target.parents):
            raise ParameterError("--output", output, f"a new file, not one of the inputs ({given}): inputs are "
                                                     "only read")


def _preview(df) -> str:
    """The first rows, sorted by what varies between files (labels first, then the usual sweeps)."""
    from ..ingest.schema import COLUMNS

    labels = [c for c in df.columns if c not in COLUMNS]
    sweep = [c for c in (*labels, "iodepth", "numjobs", "block_size_bytes", "pattern")
             if c in df and df[c].nunique(dropna=True) > 1]
    cols = list(dict.fromkeys([*sweep, "source_path", "job_name", "direction", "block_size_bytes", "iodepth",
                               "iops", "bw_bytes_per_s"]))
    shown = df.sort_values(sweep + ["source_path"], kind="stable") if sweep else df
    return shown[cols].to_string(max_rows=20, max_colwidth=50, index=False)


def _ingest(args) -> int:
    import warnings

    from ..errors import IngestWarning
    from ..ingest import read_results, schema_table

    if args.schema:
        print(schema_table())
        return 0
    if not args.paths:
        raise ParameterError("paths", [], "at least one file or folder")
    if args.output is not None:  # -o "" is an error, not "print a preview"
        _check_output(args.output, args.paths)
    costs = args.costs or args.costs_out is not None
    if not costs and (args.host is not None or args.clock is not None):
        raise ParameterError("--host" if args.host is not None else "--clock", args.host or args.clock,
                             "only with --costs or --costs-out (the clock turns CPU seconds into cycles)")
    if args.costs_out is not None:
        _check_costs_out(args.costs_out, args.paths)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", IngestWarning)
        df = read_results(args.paths, labels=args.labels, path_regex=args.path_regex, path_pattern=args.path_pattern,
                          errors="raise" if args.strict else "skip", progress=True)
    from ._common import say_warnings

    say_warnings(caught)
    skipped = df.attrs["skipped"]
    if df.empty:  # nothing to write: say why, and fail (a script must not go on with an empty table)
        for s in skipped:
            print(f"  skipped {s.path}: {s.reason}", file=sys.stderr)
        why = f"{len(skipped)} skipped, reasons above" if skipped else "no files found"
        raise ParameterError("paths", " ".join(args.paths), f"at least one readable benchmark result (read "
                             f"{df.attrs['files_read']} file(s), 0 rows; {why})")
    if args.output is not None:
        try:
            if args.output.endswith(".parquet"):
                df.to_parquet(args.output, index=False)
            else:
                df.to_csv(args.output, index=False)
        except ImportError:
            raise ParameterError("--output", args.output, "a .csv path (Parquet needs pyarrow: "
                                                          "pip install pyarrow)") from None
        except (OSError, ValueError, TypeError) as exc:  # disk full, a label column Parquet cannot type, …
            raise ParameterError("--output", args.output, f"a table that can be written there ({exc})") from None
    elif not costs:
        print(_preview(df))
    if costs:
        _costs(df, args)
    summary = f"read {df.attrs['files_read']} file(s), {len(df)} row(s)"
    interim = int(df["final"].eq(False).sum())  # (NA: a form that does not say)
    if interim:  # fio --status-interval reports: cumulative so far, not the run's result (plot and fit skip them)
        summary += f" ({interim} of them interim --status-interval reports, not final)"
    if skipped:  # each file once, with its reason, below: the summary only counts them (was a second list)
        summary += f"; skipped {len(skipped)} (below, each with why)"
    print(summary + (f" -> {args.output}" if args.output else ""), file=sys.stderr)
    for s in skipped:
        print(f"  skipped {s.path}: {s.reason}", file=sys.stderr)
    return 0


def _check_costs_out(path: str, inputs: list[str]) -> None:
    """A new .json file in an existing folder, none of the inputs."""
    import pathlib

    if any(ch in path for ch in "\n\r") or not path.endswith(".json"):
        raise ParameterError("--costs-out", path, "a new file name ending in .json (no line breaks)")
    out = pathlib.Path(path)
    if out.exists() or out.is_symlink():
        raise ParameterError("--costs-out", path, "a new file (this exists: it is not overwritten)")
    if not out.parent.is_dir():
        raise ParameterError("--costs-out", path, f"a path in an existing folder ({out.parent} does not exist)")
    for given in inputs:
        if out.resolve() == pathlib.Path(given).resolve():
            raise ParameterError("--costs-out", path, "a new file, not one of the inputs")


def _costs(df, args) -> None:
    """``--costs``: the cost-per-I/O table (and ``--costs-out`` its JSON)."""
    import json

    from ..hostcal.costs import costs_document, format_costs, io_costs
    from ..units import parse_frequency

    clock = None
    if args.clock is not None:
        try:
            clock = parse_frequency(args.clock)
        except ValueError:
            raise ParameterError("--clock", args.clock, "a frequency such as 2.1GHz or 2100MHz") from None
    table = io_costs(df, host=args.host, clock_hz=clock)
    if table.empty:
        raise ParameterError("paths", " ".join(args.paths), "results with jobs that completed I/O (no job to cost)")
    if args.costs:
        print(format_costs(table))
        if not table["use"].any():
            print("(no group counts as a stack's cost: each is paced, buffered, not fio, or no stack; see the notes)")
    if args.costs_out is not None:
        with open(args.costs_out, "x", encoding="utf-8") as fh:
            json.dump(costs_document(table), fh, indent=2)
            fh.write("\n")
        print(f"costs -> {args.costs_out}", file=sys.stderr)
