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
    i.add_argument("--labels", help="sidecar mapping file globs to labels (YAML or CSV with a 'path' column)")
    i.add_argument("--path-regex", help="regex whose named groups become labels, e.g. '(?P<drives>\\d+)drives'")
    i.add_argument("--path-pattern", help="the same with {name} fields, e.g. '{drives}drives/{connection}/*.json'")
    i.add_argument("--strict", action="store_true", help="stop at the first unreadable file (exit 2)")
    i.add_argument("--schema", action="store_true", help="print the table's columns, units and meanings")

    i.set_defaults(run=_ingest)


def _ingest(args) -> int:
    import collections
    import warnings

    from ..errors import IngestWarning
    from ..ingest import read_results, schema_table

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
