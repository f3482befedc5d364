"""``nvmemodel fit``: result files (or a CSV/Parquet table) → fitted, compared and explained curves."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import ParameterError


def register(sub) -> None:
    f = sub.add_parser(
        "fit", help="fit measured scaling curves and explain what binds",
        description="Read benchmark results (fio/IOmeter/DiskSpd files and folders, or a CSV/Parquet table "
                    "from 'nvmemodel ingest'), turn each run into a measured point (repeats: mean ± spread), fit "
                    "the ceiling model with free parameters and/or the queueing (Little's law, MVA) and empirical "
                    "(linear, Amdahl, USL) models, compare them by AICc, and explain the chosen fit.",
        epilog="examples:\n"
               "  nvmemodel fit runs/ --path-pattern '{drives}drives/*.json' --x drives --y iops \\\n"
               "      --preset lenovo-sr850-810-4p --free switch.efficiency\n"
               "  nvmemodel fit qd_sweep/ --x outstanding --y iops --model queueing --plot qd.png\n"
               "  nvmemodel fit table.csv --x numjobs --y iops --by ioengine --json\n"
               "  nvmemodel fit runs/ --path-pattern '{adapter}/{drives}drives/*.json' --x drives --y bytes_per_s \\\n"
               "      --by adapter --preset x8=lenovo-sr850-810-4p,x16=lenovo-sr850-1610-4p \\\n"
               "      --free drive.seq_read_bytes_per_s,switch.efficiency --shared drive.seq_read_bytes_per_s",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    f.add_argument("paths", nargs="+", help="result files/folders, or .csv/.parquet tables")
    f.add_argument("--x", required=True, help="column to scale along: drives, iodepth, numjobs, outstanding, "
                                              "block_size_bytes or a label")
    f.add_argument("--y", default="iops", help="iops, read_iops, bytes_per_s, clat_p99_s … (default iops)")
    f.add_argument("--by", help="comma-separated columns that split the points into curves")
    f.add_argument("--shared", help="with --by: comma-separated parameters common to every curve (r0 of the "
                                    "queueing models, or free parameters of the ceiling model)")
    f.add_argument("--path-pattern", help="labels from paths, e.g. '{drives}drives/*.json'")
    f.add_argument("--path-regex", help="labels from a regex's named groups")
    f.add_argument("--labels", help="sidecar label file (YAML or CSV; file globs relative to its folder)")
    f.add_argument("--preset", help="the topology measured (enables the ceiling model); with --by, one per curve: "
                                    "VALUE=PRESET,VALUE=PRESET (e.g. x8=lenovo-sr850-810-4p,x16=lenovo-sr850-1610-4p; "
                                    "several --by columns: x8/siteA=PRESET)")
    f.add_argument("--topology", metavar="LSPCI_FILE",
                   help="the measured machine from a saved `lspci -vvv` output, as 'nvmemodel discover --lspci' reads "
                        "it (instead of --preset): the plateau is compared with every component's ceiling")
    f.add_argument("--drive", help="with --preset/--topology: the drive measured, a catalog drive replacing the "
                                   "preset's (as in 'nvmemodel ceilings'; see 'nvmemodel drives')")
    f.add_argument("--host", metavar="NAME[:SOCKETS]",
                   help="with --preset/--topology: the CPU measured, a catalog host replacing the preset's (its cores, "
                        "clock, lanes, …; the chassis' bays kept), as in 'nvmemodel ceilings' (see 'nvmemodel hosts')")
    f.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="with --preset/--topology: set a model parameter of the machine measured, with units, e.g. "
                        "--set host.lanes_per_socket=128 --set drive.read_latency_s=80us (repeatable; as in "
                        "'nvmemodel ceilings'; 'nvmemodel parameters' lists them; the workload is the runs')")
    f.add_argument("--free", help="comma-separated parameters of the ceiling model to fit")
    from .ceilings import add_cost_options

    add_cost_options(f)
    f.add_argument("--drives", type=int, help="drive count for ceiling-model axes other than drives")
    f.add_argument("--model", default="auto", help="auto, queueing, empirical, ceiling, ceiling_smooth, linear, "
                                                   "amdahl, usl, littles, littles_soft, mva (comma-separated)")
    f.add_argument("--ci", default="auto", choices=["auto", "profile", "bootstrap", "wald"])
    f.add_argument("--failed", default="drop", choices=["drop", "keep"],
                   help="runs fio reported an error for: leave them out (drop, the default: a failed job is not a "
                        "measurement) or fit them (keep); either way the output names them")
    f.add_argument("--plot", help="write the figure (.png also writes .svg; or .svg)")
    f.add_argument("--json", action="store_true", help="print the result as JSON (schema nvmemodel.fit/1)")
    f.set_defaults(run=_fit)


def _fit(args) -> int:
    import warnings

    from ..errors import IngestWarning
    from ..fitting.api import check_free, fit

    for option in ("by", "shared", "preset", "plot", "path_pattern", "path_regex", "labels", "free"):
        value = getattr(args, option)
        if value is not None and not value.strip():  # an empty value is a mistake, not "leave it out"
            raise ParameterError(f"--{option.replace('_', '-')}", value, "a value (or leave the option out)")
    if args.plot and not args.plot.lower().endswith((".png", ".svg")):
        raise ParameterError("--plot", args.plot, "a path ending in .png or .svg")
    if args.plot and not Path(args.plot).parent.is_dir():  # refused before the fit, not after it as a traceback
        raise ParameterError("--plot", args.plot, "a path in an existing folder")
    if args.plot:
        from ._common import need_packages

        need_packages("fit --plot", "matplotlib")  # before the files are read and fitted
    if args.preset and args.topology:
        raise ParameterError("--topology", args.topology, "either --preset or --topology, not both")
    topology = _presets(args.preset) if args.preset else _discovered(args.topology) if args.topology else None
    topology = _measured_machine(topology, args)
    if args.costs is not None or args.profile is not None:  # the model's host charged the costs measured
        if topology is None:
            raise ParameterError("--costs" if args.costs is not None else "--profile", args.costs or args.profile,
                                 "--preset or --topology too (the costs are the model's host's)")
        from .ceilings import apply_costs

        topology = ({k: apply_costs(t, args) for k, t in topology.items()} if isinstance(topology, dict)
                    else apply_costs(topology, args))
    free = [s.strip() for s in args.free.split(",") if s.strip()] if args.free is not None else None
    check_free(free, topology)  # before the files are read: the library's check and message (QA s25 H19)
    table = _read_inputs(args.paths, args.labels, args.path_pattern or args.path_regex)
    model = args.model.split(",") if "," in args.model else args.model
    if isinstance(topology, dict) and not args.by:
        raise ParameterError("--preset", args.preset, "one preset name, or --by too (VALUE=PRESET pairs name the "
                             "preset of each curve)")
    by_cols = args.by.split(",") if args.by else []
    if isinstance(topology, dict) and len(by_cols) > 1:  # a curve of several --by columns: VALUE/VALUE=PRESET
        keyed = {}
        for value, topo in topology.items():
            parts = tuple(v.strip() for v in value.split("/"))
            if len(parts) != len(by_cols):
                raise ParameterError("--preset", value, f"{'/'.join(by_cols).upper()}=PRESET: one value per --by "
                                     f"column ({', '.join(by_cols)}), joined by '/'")
            keyed[parts] = topo
        topology = keyed
    from ._common import say_warnings

    with warnings.catch_warnings(record=True) as caught:  # what ingest says of the runs (a failed job, clones
        warnings.simplefilter("always", IngestWarning)    # summed, a skipped file …) is said here too: fit must
        try:                                              # not hide it
            result = fit(table, x=args.x, y=args.y, by=args.by.split(",") if args.by else None, model=model,
                         topology=topology, free=free, drives=args.drives, ci=args.ci,
                         shared=args.shared.split(",") if args.shared else None, path_pattern=args.path_pattern,
                         path_regex=args.path_regex, labels=args.labels, failed=args.failed)
        except Exception:  # the files' account first: it is often why (every file skipped: no row to fit)
            _say_skipped(caught)
            say_warnings([w for w in caught if issubclass(w.category, IngestWarning)])
            raise
    _say_skipped(caught)
    say_warnings(caught, others_as_warnings=True)
    if args.plot:
        result.plot(args.plot)
    if args.json:
        print(result.to_json())
    else:
        print(result.summary())
        print()
        print(result.explain())
    return 0


def _measured_machine(topology, args):
    """``topology`` (one, or ``{value: topology}`` with --by) with ``--host``, ``--drive`` and ``--set`` applied as
    ``ceilings`` reads them (:func:`nvmemodel.cli.ceilings.system_overrides`): the machine that was measured."""
    given = [(o, v) for o, v in (("--host", args.host), ("--drive", args.drive), ("--set", args.set[0] if args.set
                                                                                  else None)) if v is not None]
    if not given:
        return topology
    if topology is None:
        raise ParameterError(given[0][0], given[0][1], "--preset or --topology too (they change the model's machine)")
    from .ceilings import parse_settings, system_overrides

    settings = parse_settings(args.set)  # checked once, before any file is read
    runs = [k for k in settings if k.startswith("workload.")]
    if runs:
        raise ParameterError("--set", runs[0], "a parameter of the machine (host.*, drive.*, switch.*, pcie.*, …): "
                             "fit takes the workload from the runs")

    def one(topo):
        from ..topology.workload import Workload

        topo, overrides = system_overrides(topo, host=args.host, drive=args.drive, settings=settings)
        return topo.with_parameters(overrides, Workload("randread", "4K"))[0] if overrides else topo

    return {k: one(t) for k, t in topology.items()} if isinstance(topology, dict) else one(topology)


def _discovered(path: str):
    """The topology ``nvmemodel discover --lspci PATH`` builds (one clear error when the file holds no NVMe drive)."""
    from ..discover import discover

    found = discover(path)
    if found.topology is None:
        raise ParameterError("--topology", path, "an lspci -vvv output with at least one NVMe drive")
    if found.mixed is not None:  # its single-model topology is not the machine (tree_not_uniform)
        groups = "; ".join(g.name for g in found.mixed.groups)
        raise ParameterError("--topology", path, "a machine whose drives share one model and trained link (a fit "
                             f"models identical drives; this one has {groups}: see `nvmemodel discover --lspci "
                             f"{path}`); give a --preset, or fit the drives of one group")
    return found.topology


def _presets(text: str):
    """One preset, or ``{value: preset}`` from ``VALUE=PRESET,VALUE=PRESET`` (one per --by curve)."""
    import nvmemodel as nm

    if "=" not in text:
        return nm.preset(text)
    out = {}
    for item in text.split(","):
        value, sep, name = item.partition("=")
        if not sep or not value.strip() or not name.strip():
            raise ParameterError("--preset", item, "VALUE=PRESET pairs separated by commas (x8=lenovo-sr850-810-4p)")
        out[value.strip()] = nm.preset(name.strip())
    return out


def _say_skipped(caught) -> None:
    """The files reading skipped, and why (``ingest`` and ``plot`` list them from the table; fit reads the files
    itself, so they arrive as its warning)."""
    for w in caught:
        if str(w.message).startswith("skipped "):
            print(f"nvmemodel: warning: {w.message}", file=sys.stderr)


def _read_inputs(paths: list[str], labels: str | None, path_options: str | None):
    """The input: a table read from .csv/.parquet files, or the result paths (checked: regular files
    or folders within the size limit, so a FIFO or a missing file is one error line, not a hang)."""
    from ..userfiles import check_input, check_inputs, read_table

    if labels is not None:
        check_input(labels, what="--labels")

    from ..ingest.iometer import is_iometer_file

    # an IOmeter results .csv is a result file, not a table: told by content (QA s25 H10)
    if all(str(p).lower().endswith((".csv", ".parquet")) and not is_iometer_file(p) for p in paths):
        import pandas as pd

        if labels is not None or path_options:  # a table from 'nvmemodel ingest' carries its labels already
            raise ParameterError("--labels" if labels is not None else "--path-pattern/--path-regex",
                                 labels or path_options, "result files or folders as paths (labels come with "
                                 "a .csv/.parquet table: give them to 'nvmemodel ingest')")

        return pd.concat([read_table(p, what="paths") for p in paths], ignore_index=True)
    return check_inputs(paths, what="paths", folders=True)
