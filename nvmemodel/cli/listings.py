"""Listings: ``nvmemodel parameters``, ``presets``, ``drives``."""

from __future__ import annotations


def register(sub) -> None:
    pp = sub.add_parser("parameters", help="a preset's model parameters: value with unit, range, meaning, source",
                        description="Every model parameter of a preset (the names --set, sweeps and fits use): its "
                                    "value with unit, allowed range or choices, meaning, and where the value comes "
                                    "from (spec, inferred, calibrated, assumption, estimate … with the citation).")
    pp.add_argument("--preset", default="dell-r7525", help="preset (default: %(default)s)")
    pp.add_argument("--pattern", default="randread", help="workload pattern the values are shown for")
    pp.add_argument("--bs", default="4K", help="workload block size (default: %(default)s)")
    pp.add_argument("--format", choices=("table", "csv", "json"), default="table",
                    help="table (default), csv or json (full source texts)")

    pp.set_defaults(run=_parameters)
    sub.add_parser("presets", help="list the preset systems and what they are built from").set_defaults(
        run=lambda args: _presets())
    sub.add_parser("drives", help="list the drive catalog with sources").set_defaults(run=lambda args: _drives())


def _parameters(args) -> int:
    import sys
    import textwrap

    from ..topology.presets import preset
    from ..topology.workload import Workload

    table = preset(args.preset).parameter_table(Workload(args.pattern, args.bs))
    if args.format == "csv":
        table.to_csv(sys.stdout, index=False)
        return 0
    if args.format == "json":
        table.to_json(sys.stdout, orient="records", indent=1)
        sys.stdout.write("\n")
        return 0
    print(f"{'name':<32} {'value':<22} {'allowed':<40} meaning")
    for row in table.itertuples():
        allowed = row.range if len(row.range) <= 40 else row.range[:37] + "..."
        print(f"{row.name:<32} {row.shown:<22} {allowed:<40} {row.meaning}")
        source = f"{row.status}: {row.source}" if row.source else row.status
        print(textwrap.indent(textwrap.fill(source, 110, break_on_hyphens=False), " " * 33 + "| ")
              if len(source) <= 330 else " " * 33 + "| " + source[:300] + "...")
    return 0


def _presets() -> int:
    from ..topology.presets import PRESETS, preset

    for name in PRESETS:
        t = preset(name)
        print(f"{name}\n  {t.describe()}\n  {t.notes}\n")
    return 0


def _drives() -> int:
    from ..topology.drive import drive_catalog

    for key, d in drive_catalog().items():
        print(f"{key:<26} Gen{int(d.gen)} x{d.lanes}  read {d.seq_read_bytes_per_s / 1e6:>7.0f} MB/s "
              f"{d.rand_read_iops / 1e3:>6.0f} K IOPS  [{d.status}]  {d.name}")
    return 0
