"""``nvmemodel plot``: charts of measured results, fio time series and fio latency histograms."""

from __future__ import annotations

import argparse
import pathlib
import sys

from ..errors import ParameterError

_FORMATS = (".png", ".svg", ".pdf")


def register(sub) -> None:
    p = sub.add_parser(
        "plot", help="chart measured results (IOPS, bandwidth, latency vs queue depth, jobs, …) as PNG/SVG",
        description="Chart benchmark results against the swept variable (repeats averaged with ±1 s.d. bars, "
                    "read/write/total for mixes, a Little's-law check line, mean latency on a second axis, a line "
                    "saying what was run), latency percentiles (--percentiles), fio time-series logs (--logs; "
                    "with a latency axis when clat/lat logs are given too, and a stats table) or a fio latency "
                    "histogram (--histogram). Inputs: result files and folders, or the .csv/.parquet table "
                    "'nvmemodel ingest -o' writes. Several paths are compared on one chart. With --preset the "
                    "model's ceiling and binding component are drawn over the measurements. Prints the plotted "
                    "numbers sorted by the swept variable.",
        epilog="examples:\n  nvmemodel plot results/ --x iodepth --y iops -o iops.png\n"
               "  nvmemodel plot runs/ --path-pattern '{drives}drives/*.json' --x drives --y bw -o bw.svg\n"
               "  nvmemodel plot before/ after/ --x iodepth --y latency -o p99.png    # two folders compared\n"
               "  nvmemodel ingest results/ -o table.csv && nvmemodel plot table.csv --x iodepth -o iops.png\n"
               "  nvmemodel plot results/ --x iodepth --percentiles -o tail.png      # p50 / p99 / p99.9\n"
               "  nvmemodel plot results/ --x iodepth --preset dell-r7525 -o vs-model.png\n"
               "  nvmemodel plot --logs run_iops.1.log run_clat.1.log --kind iops -o iops-time.png\n"
               "  nvmemodel plot --logs run_iops.1.log --steady-state run.json -o ss.png   # fio's ss= window\n"
               "  nvmemodel plot --histogram run.json -o hist.png   # json+: fine buckets; plain json: fio's coarse ones",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="*", help="result files and folders (several: compared on one chart)")
    p.add_argument("-o", "--output", required=True, help="image file: .png, .svg or .pdf")
    p.add_argument("--x", default="iodepth", help="swept variable: a column or label, or 'outstanding' "
                   "(iodepth × jobs) (default: %(default)s)")
    p.add_argument("--y", default="iops", help="iops, bw, latency (p99), lat_mean_s, clat_p50_s, … "
                   "(default: %(default)s)")
    p.add_argument("--hue", help="column or label separating the curves (default: the path, when several)")
    p.add_argument("--direction", action="append", choices=["read", "write", "trim", "mixed", "total"],
                   help="directions to draw (repeatable; default: all; with --histogram one of read, write, trim: "
                        "default read; plain JSON's coarse buckets hold every direction together)")
    p.add_argument("--no-little", action="store_true", help="leave out the Little's-law check line")
    p.add_argument("--latency", default="lat_mean_s", help="latency on the second axis of an IOPS or bandwidth chart: "
                   "lat_mean_s, clat_mean_s, clat_p99_s, … (default: %(default)s)")
    p.add_argument("--no-latency", action="store_true", help="no second (latency) axis")
    p.add_argument("--percentiles", action="store_true",
                   help="chart completion-latency percentiles p50 / p99 / p99.9 against --x instead")
    p.add_argument("--preset", help="draw this preset's model ceiling and binding component over the measurements "
                   "(the workload the results record; see 'nvmemodel presets')")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="with --preset: override a model parameter (repeatable; see 'nvmemodel parameters')")
    p.add_argument("--labels", help="sidecar mapping file globs (relative to its folder) to labels (YAML or CSV)")
    p.add_argument("--path-regex", help="regex whose named groups become labels")
    p.add_argument("--path-pattern", help="path pattern with {name} fields that become labels")
    p.add_argument("--logs", nargs="+", metavar="LOG", help="plot fio time-series logs instead")
    p.add_argument("--kind", default="iops", choices=["iops", "bw", "clat", "slat", "lat"],
                   help="with --logs: which logs (default: %(default)s)")
    p.add_argument("--latency-unit", choices=["ns", "us", "ms"],
                   help="with --logs: the unit of latency logs (fio up to 2.21 logs us, from 2.99 ns; default: from "
                        "the fio version of a result file beside the logs, else ns with a warning)")
    p.add_argument("--steady-state", metavar="RUN_JSON",
                   help="with --logs: the fio JSON of the same run (run with --ss): shade fio's steady-state window "
                        "and say whether it was attained")
    p.add_argument("--histogram", metavar="JSON", help="plot the completion-latency histogram of a fio JSON file instead: json+ gives fio's fine "
                   "buckets of one direction, plain JSON fio's coarse ones (latency_ns/us/ms: reads and writes "
                   "together)")
    p.add_argument("--job", type=int, default=0, metavar="N",
                   help="with --histogram: which job of the file, from 0 (default: %(default)s)")
    p.add_argument("--title", help="chart title")
    p.set_defaults(run=_plot)


def _check_output(output: str) -> pathlib.Path:
    out = pathlib.Path(output)
    if out.suffix.lower() not in _FORMATS:
        raise ParameterError("--output", output, "a path ending in .png, .svg or .pdf")
    if not out.parent.is_dir():
        raise ParameterError("--output", output, "a path in an existing folder")
    return out


def _plot(args) -> int:
    from ._common import need_packages

    out = _check_output(args.output)
    need_packages("nvmemodel plot", "matplotlib", "seaborn")  # the measured-data charts are drawn with seaborn
    modes = sum(bool(m) for m in (args.paths, args.logs, args.histogram))
    if modes != 1:
        raise ParameterError("paths", args.paths, "result paths, or --logs LOG…, or --histogram JSON (one of them)")
    import warnings

    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    from ..errors import IngestWarning
    from ..plots import results as charts

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", IngestWarning)
        if args.steady_state is not None and not args.logs:
            raise ParameterError("--steady-state", args.steady_state, "--logs too (the window is drawn on the logs)")
        if args.histogram:
            if args.job < 0:
                raise ParameterError("--job", args.job, "a job number from 0")
            direction = args.direction or ["read"]
            if len(direction) != 1 or direction[0] not in ("read", "write", "trim"):
                raise ParameterError("--direction", ",".join(direction), "one of read, write, trim with --histogram")
            ax = charts.plot_latency_histogram(args.histogram, direction=direction[0], job=args.job,
                                               title=args.title)
        elif args.logs:
            from ..ingest import read_fio_logs

            steady = None
            if args.steady_state is not None:
                from ..ingest import read_results

                steady = read_results(args.steady_state, errors="raise")
            ax = charts.plot_fio_log(read_fio_logs(args.logs, latency_unit=args.latency_unit), kind=args.kind, title=args.title, steady_state=steady)
        else:
            ax = _results_chart(args, charts)
    from ._common import say_warnings

    say_warnings(caught)
    ax.figure.savefig(out, dpi=130, bbox_inches="tight")  # the strips and tables under the axes included
    print(f"wrote {out}", file=sys.stderr)
    return 0


def _model(args):
    """(topology, overrides) for --preset/--set; (None, None) without --preset."""
    if args.set and not args.preset:
        raise ParameterError("--set", args.set[0], "--preset too (overrides change a preset's model)")
    if not args.preset:
        return None, None
    import nvmemodel as nm

    from .ceilings import parse_settings

    overrides = parse_settings(args.set)
    return nm.preset(args.preset), overrides or None


def _results_chart(args, charts):
    from ..ingest import read_results

    options = {"labels": args.labels, "path_regex": args.path_regex, "path_pattern": args.path_pattern}
    from ..ingest.iometer import is_iometer_file

    # an IOmeter results .csv is a result file, not a table: told by content (QA s25 H10)
    tables = [str(p).lower().endswith((".csv", ".parquet")) and not is_iometer_file(p) for p in args.paths]
    if any(tables) and not all(tables):
        raise ParameterError("paths", args.paths, "result files and folders, or .csv/.parquet tables (not both)")
    if all(tables):
        from ..userfiles import read_table

        given = [k for k, v in options.items() if v]
        if given:
            raise ParameterError(f"--{given[0].replace('_', '-')}", options[given[0]],
                                 "result files (a table already holds its labels as columns)")
        read = {p: read_table(p, what="paths") for p in args.paths}
        from ..ingest.steadystate import steady_state_note

        for p, df in read.items():  # result files say it as they are read (read_results); a table here
            note = steady_state_note(df)
            if note:
                import warnings

                from ..errors import IngestWarning

                warnings.warn(f"{p}: {note}", IngestWarning, stacklevel=2)
    else:
        read = None
    if len(args.paths) > 1 and not args.hue:
        table = read or {p: read_results(p, **options) for p in args.paths}
    else:
        import pandas as pd

        table = pd.concat(list(read.values()), ignore_index=True) if read else read_results(args.paths, **options)
    frames = table.values() if isinstance(table, dict) else [table]
    for df in frames:
        for s in df.attrs.get("skipped", []):
            print(f"  skipped {s.path}: {s.reason}", file=sys.stderr)
    named = table.items() if isinstance(table, dict) else [(" ".join(map(str, args.paths)), table)]
    for name, df in named:
        if read is None and df.empty:  # nothing read: name the paths and why, as 'ingest' does
            why = f"{len(df.attrs.get('skipped', []))} skipped, reasons above" if df.attrs.get("skipped") \
                else "no files found"
            raise ParameterError("paths", name, f"at least one readable benchmark result (read "
                                 f"{df.attrs.get('files_read', 0)} file(s), 0 rows; {why})")
    if args.percentiles:
        if isinstance(table, dict):
            raise ParameterError("--percentiles", args.paths, "one result set (give --hue, or one path)")
        ax = charts.plot_percentiles(table, x=args.x, directions=args.direction, title=args.title)
        print(ax.summary.to_string(index=False, float_format=lambda v: f"{v:.6g}"))
        return ax
    topology, overrides = _model(args)
    ax = charts.plot_results(table, x=args.x, y=args.y, hue=args.hue, directions=args.direction,
                             little=not args.no_little, title=args.title,
                             latency=None if args.no_latency else args.latency, topology=topology, overrides=overrides)
    print(ax.summary.to_string(index=False, float_format=lambda v: f"{v:.6g}"))
    if ax.model is not None:
        print(f"\nmodel: {args.preset} (value: IOPS or bytes/s)")
        print(ax.model.to_string(index=False, float_format=lambda v: f"{v:.6g}"))
    return ax
