"""Listings: ``nvmemodel parameters``, ``presets``, ``drives``, ``switches``, ``hosts``."""

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
                    help="table (default), csv or json (full source texts); --csv and --json say the same")
    _machine_readable(pp, "nvmemodel.parameters/1")

    pp.set_defaults(run=_parameters)
    ps = sub.add_parser("presets", help="list the preset systems and what they are built from")
    _machine_readable(ps, "nvmemodel.presets/1")
    ps.set_defaults(run=_presets)
    dp = sub.add_parser("drives", help="list the drive catalog with sources",
                        description="Every drive of the catalog: key (for --drive KEY, drive.model=KEY), its link, "
                                    "sequential read and 4K random-read figures, segment and status; --sources prints "
                                    "the document each row's values come from.")
    dp.add_argument("--gen", type=int, choices=range(1, 8), metavar="{1..7}",
                    help="only drives of this PCIe generation")
    dp.add_argument("--sources", action="store_true", help="print each drive's source (document, title, revision)")
    _machine_readable(dp, "nvmemodel.drives/1")
    dp.set_defaults(run=_drives)
    sw = sub.add_parser("switches", help="list the switch catalog (chips and adapters, keys for switch.model)",
                        description="Every PCIe switch chip and switch adapter of the catalog: key (for --set "
                                    "switch.model=KEY), uplink and drive ports, chip, and whether its processing cap "
                                    "is measured or spec only.")
    sw.add_argument("--gen", type=int, choices=range(1, 8), metavar="{1..7}",
                    help="only switches whose uplink is this PCIe generation")
    sw.add_argument("--sources", action="store_true", help="print every value's status and source")
    _machine_readable(sw, "nvmemodel.switches/1")
    sw.set_defaults(run=_switches)
    hp = sub.add_parser("hosts", help="list the host-platform catalog (CPUs: cores, lanes, root complexes, memory)",
                        description="Every CPU of the host catalog: key (for --host NAME[:SOCKETS]), cores and base "
                                    "clock, PCIe generation and lanes, root complexes per socket and the DMA each "
                                    "carries, a socket's memory peak and the share device DMA may use, the "
                                    "inter-socket link, and the status of each derived value.")
    hp.add_argument("--vendor", help="only this vendor's CPUs (amd, intel, ampere, hisilicon)")
    hp.add_argument("--sources", action="store_true", help="print every value's status and source")
    _machine_readable(hp, "nvmemodel.hosts/1")
    hp.set_defaults(run=_hosts)


def _machine_readable(parser, schema: str) -> None:
    """``--json`` (a document naming ``schema``, shipped in nvmemodel/schemas) and ``--csv``: the same rows, every
    column in SI units with its sources, whatever ``--sources`` says."""
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help=f"the rows as JSON (schema {schema}), sources included")
    out.add_argument("--csv", action="store_true", help="the rows as CSV (SI units), sources included")


def _emit(args, schema: str, table, **head) -> bool:
    """Write ``table`` (a DataFrame, SI units) as CSV or as the JSON document ``{"schema", **head, "rows"}`` where
    ``--csv``/``--json`` asks for it (NaN as an empty cell / null); False where the text table is wanted."""
    import json
    import sys

    if getattr(args, "csv", False):
        table.to_csv(sys.stdout, index=False)
        return True
    if getattr(args, "json", False):
        rows = json.loads(table.to_json(orient="records", double_precision=15))
        json.dump({"schema": schema, **head, "rows": rows}, sys.stdout, indent=1, allow_nan=False)
        sys.stdout.write("\n")
        return True
    return False


def _parameters(args) -> int:
    import sys
    import textwrap

    from ..topology.presets import preset
    from ..topology.workload import Workload

    workload = Workload(args.pattern, args.bs)
    table = preset(args.preset).parameter_table(workload)
    args.csv, args.json = args.csv or args.format == "csv", args.json or args.format == "json"
    if args.csv and args.json:
        from ..errors import ParameterError

        raise ParameterError("--format", args.format, "one output: --format csv or --json, not both")
    if _emit(args, "nvmemodel.parameters/1", table, preset=args.preset, workload=workload.describe()):
        return 0
    print(f"{'name':<32} {'value':<22} {'allowed':<40} meaning")
    for row in table.itertuples():
        allowed = row.range if len(row.range) <= 40 else row.range[:37] + "..."
        print(f"{row.name:<32} {row.shown:<22} {allowed:<40} {row.meaning}")
        source = f"{row.status}: {row.source}" if row.source else row.status
        print(textwrap.indent(textwrap.fill(source, 110, break_on_hyphens=False), " " * 33 + "| ")
              if len(source) <= 330 else " " * 33 + "| " + source[:300] + "...")
    return 0


def _presets(args) -> int:
    import pandas as pd

    from ..topology.presets import PRESETS, preset

    table = pd.DataFrame([{"name": name, "description": t.describe(), "notes": t.notes}
                          for name, t in ((n, preset(n)) for n in PRESETS)])
    if _emit(args, "nvmemodel.presets/1", table):
        return 0
    for name in PRESETS:
        t = preset(name)
        print(f"{name}\n  {t.describe()}\n  {t.notes}\n")
    return 0


def _drives(args) -> int:
    import math
    import textwrap

    from ..topology.drive import drive_catalog

    def num(value, scale, width):  # an unknown limit (NaN) prints as "-": it is not applied
        return f"{'-':>{width}}" if math.isnan(value) else f"{value / scale:>{width}.0f}"

    catalog = drive_catalog()
    gens = sorted({int(d.gen) for d in catalog.values()})
    if args.gen is not None and args.gen not in gens:  # an empty listing would read as "no such drives exist"
        from ..errors import ParameterError

        raise ParameterError("--gen", args.gen, f"a generation of the catalog: {', '.join(map(str, gens))}")
    if _emit(args, "nvmemodel.drives/1", _drive_rows(catalog, args.gen)):
        return 0
    print(f"{'key':<26} {'link':<8} {'read MB/s':>9} {'4K read':>9}  {'segment':<10} [status]  name")
    for key, d in catalog.items():
        if args.gen is not None and int(d.gen) != args.gen:
            continue
        print(f"{key:<26} Gen{int(d.gen)} x{d.lanes:<3} {num(d.seq_read_bytes_per_s, 1e6, 9)} "
              f"{num(d.rand_read_iops, 1e3, 7)} K  {d.segment or '-':<10} [{d.status}]  {d.name}")
        if args.sources:
            lines = [f"source ({d.status}): {d.source or 'not given'}",
                     *(f"{name}: {text}" for name, text in d.provenance.items())]
            for line in lines:
                print(textwrap.fill(line, 110, initial_indent="    | ", subsequent_indent="    |   ",
                                    break_on_hyphens=False))
    return 0


_DRIVE_VALUES = ("seq_read_bytes_per_s", "seq_write_bytes_per_s", "rand_read_iops", "rand_write_iops",
                 "read_latency_s", "write_latency_s")


def _drive_rows(catalog, gen):
    """One row per drive (of PCIe generation ``gen``, or all): its values in SI units, status and source, and
    ``source.<field>`` where a value has a sentence of its own (empty where it has none)."""
    import pandas as pd

    fields = sorted({k for d in catalog.values() for k in d.provenance})
    return pd.DataFrame([{"key": key, "name": d.name, "segment": d.segment or None, "gen": int(d.gen), "lanes": d.lanes,
                          **{f: getattr(d, f) for f in _DRIVE_VALUES}, "status": d.status, "source": d.source,
                          "family": d.family or None, "pci_ids": " ".join(d.pci_ids) or None,
                          **{f"source.{f}": d.provenance.get(f) for f in fields}}
                         for key, d in catalog.items() if gen is None or int(d.gen) == gen])


def _hosts(args) -> int:
    import textwrap

    from ..topology.host import get_host, host_catalog

    table = host_catalog()
    if args.vendor is not None:
        vendors = sorted({k.split("-", 1)[0] for k in table["key"]})
        table = table[table["key"].str.startswith(args.vendor.strip().lower())]
        if table.empty or not args.vendor.strip():  # an empty listing would read as "no such CPUs exist"
            from ..errors import ParameterError

            raise ParameterError("--vendor", args.vendor, f"one of {', '.join(vendors)}")
    if args.json or args.csv:
        sources = [{**get_host(k).provenance, **get_host(k).platform_sources} for k in table["key"]]
        names = sorted({n for s in sources for n in s})
        rows = table.reset_index(drop=True).assign(**{f"source.{n}": [str(s[n]) if n in s else None for s in sources]
                                                      for n in names})
        if _emit(args, "nvmemodel.hosts/1", rows):
            return 0
    print(f"{'key':<30} {'cores':>5} {'GHz':>5} {'PCIe':>9} {'complexes':>17} {'socket DMA':>18} {'xGMI/UPI':>9}  "
          "status (spec / complex / DMA / link)")
    for r in table.itertuples():
        link = "-" if r.inter_socket_bytes_per_s != r.inter_socket_bytes_per_s else \
            f"{r.inter_socket_bytes_per_s / 1e9:.0f} GB/s"
        print(f"{r.key:<30} {r.cores:>5} {r.base_clock_hz / 1e9:>5.2f} Gen{r.gen} x{r.lanes_1p:<3} "
              f"{r.complexes_per_socket} x {r.complex_bytes_per_s / 1e9:>5.1f} GB/s "
              f"{r.dma_fraction:.2f} x {r.memory_peak_bytes_per_s / 1e9:>5.1f} GB/s {link:>9}  "
              f"{r.spec_status} / {r.complex_status} / {r.dma_status} / {r.inter_socket_status}")
        if args.sources:
            h = get_host(r.key)
            for name, source in {**h.provenance, **h.platform_sources}.items():
                print(textwrap.fill(f"{name}: {source}", 110, initial_indent="    | ", subsequent_indent="    |   ",
                                    break_on_hyphens=False))
    return 0


def _switches(args) -> int:
    import textwrap

    from ..topology.switch import switch_catalog

    gens = sorted({int(s.up_gen) for s in switch_catalog().values()})
    if args.gen is not None and args.gen not in gens:  # an empty listing would read as "no such switches exist"
        from ..errors import ParameterError

        raise ParameterError("--gen", args.gen, f"an uplink generation of the catalog: {', '.join(map(str, gens))}")
    if args.json or args.csv:
        import pandas as pd

        rows = []
        for key, s in switch_catalog().items():
            if args.gen is None or int(s.up_gen) == args.gen:
                rows.append({"key": key, "name": s.name, "kind": s.kind or None, "chip": s.chip or None,
                             "total_lanes": s.total_lanes or None, "pci_id": s.pci_id or None,
                             "up_gen": int(s.up_gen), "up_lanes": s.up_lanes, "ports": s.ports,
                             "port_gen": int(s.port_gen), "port_lanes": s.port_lanes, "efficiency": s.efficiency,
                             "per_command_s": s.per_command_s, "per_tlp_s": s.per_tlp_s,
                             **{f"{name}.{part}": getattr(src, attr) for name, src in s.sources().items()
                                for part, attr in (("status", "status"), ("source", "text"))}})
        if _emit(args, "nvmemodel.switches/1", pd.DataFrame(rows).astype({"total_lanes": "Int64"})):
            return 0
    print(f"{'key':<24} {'uplink':<10} {'drive ports':<13} {'kind':<8} {'chip':<10} processing")
    for key, s in switch_catalog().items():
        if args.gen is not None and int(s.up_gen) != args.gen:
            continue
        src = s.sources()
        measured = [f.split(".", 1)[1] for f in ("switch.efficiency", "switch.per_command_s")
                    if src[f].status in ("calibrated", "measured")]
        cap = "calibrated: " + ", ".join(measured) if measured else "spec only: no measured processing cap"
        print(f"{key:<24} Gen{int(s.up_gen)} x{s.up_lanes:<4} {s.ports:>2} x Gen{int(s.port_gen)} x{s.port_lanes:<2} "
              f"{s.kind or '-':<8} {s.chip or '-':<10} {cap}")
        if args.sources:
            print(f"    {s.name}")
            for name, source in src.items():
                print(textwrap.fill(f"{name}: {source}", 110, initial_indent="    | ", subsequent_indent="    |   ",
                                    break_on_hyphens=False))
    return 0
