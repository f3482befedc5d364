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
                    help="table (default), csv or json (full source texts)")

    pp.set_defaults(run=_parameters)
    sub.add_parser("presets", help="list the preset systems and what they are built from").set_defaults(
        run=lambda args: _presets())
    dp = sub.add_parser("drives", help="list the drive catalog with sources",
                        description="Every drive of the catalog: key (for --drive KEY, drive.model=KEY), its link, "
                                    "sequential read and 4K random-read figures, segment and status; --sources prints "
                                    "the document each row's values come from.")
    dp.add_argument("--gen", type=int, choices=range(1, 8), metavar="{1..7}",
                    help="only drives of this PCIe generation")
    dp.add_argument("--sources", action="store_true", help="print each drive's source (document, title, revision)")
    dp.set_defaults(run=_drives)
    sw = sub.add_parser("switches", help="list the switch catalog (chips and adapters, keys for switch.model)",
                        description="Every PCIe switch chip and switch adapter of the catalog: key (for --set "
                                    "switch.model=KEY), uplink and drive ports, chip, and whether its processing cap "
                                    "is measured or spec only.")
    sw.add_argument("--gen", type=int, choices=range(1, 8), metavar="{1..7}",
                    help="only switches whose uplink is this PCIe generation")
    sw.add_argument("--sources", action="store_true", help="print every value's status and source")
    sw.set_defaults(run=_switches)
    hp = sub.add_parser("hosts", help="list the host-platform catalog (CPUs: cores, lanes, root complexes, memory)",
                        description="Every CPU of the host catalog: key (for --host NAME[:SOCKETS]), cores and base "
                                    "clock, PCIe generation and lanes, root complexes per socket and the DMA each "
                                    "carries, a socket's memory peak and the share device DMA may use, the "
                                    "inter-socket link, and the status of each derived value.")
    hp.add_argument("--vendor", help="only this vendor's CPUs (amd, intel, ampere, hisilicon)")
    hp.add_argument("--sources", action="store_true", help="print every value's status and source")
    hp.set_defaults(run=_hosts)


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
