"""``nvmemodel plan``: from targets to configurations — what to build, and what will limit it."""

from __future__ import annotations

import argparse
import sys

from ..errors import ParameterError
from ._common import positive_int

_EPILOG = """\
examples:
  nvmemodel plan --iops 10M --read-bw 60GB/s --latency 200us --gen 4,5 --sockets 1,2 \\
      --drive samsung-pm1743,intel-p5800x-800gb --max-drives 24
  nvmemodel plan --preset lenovo-sr850-direct --read-bw 12GB/s --iops 2.4M \\
      --connection direct-x4,direct-x2,lenovo-1610-4p,lenovo-810-4p --max-drives 4
  nvmemodel plan --iops 17M --io-stack libaio,io_uring,spdk --rank headroom --json
  nvmemodel plan --iops 8M --sockets 1,2 --drive samsung-pm1733-u2,intel-p3700-800gb --max-drives 24 \\
      --rank cost --price drive.samsung-pm1733-u2=1100 --price drive.intel-p3700-800gb=600 --price socket=4000
  nvmemodel plan --iops 20M --host amd-epyc-7742,amd-epyc-7742:1,intel-xeon-platinum-8380 --max-drives 24
  nvmemodel plan --iops 2M --latency 50us --group drive=intel-p3700-800gb,count=8 \\
      --group drive=intel-p5800x-800gb,count=8 --rank cost --price drive.intel-p3700-800gb=600 \\
      --price drive.intel-p5800x-800gb=2400 --price socket=4000

targets (each a workload): --iops 4K random read, --write-iops 4K random write, --oltp-iops 4K 70/30,
--read-bw 128K sequential read, --write-bw 128K sequential write. --latency bounds the IOPS targets (a 128K
stream's latency is its queue depth times its transfer time): the model's latency at the queue depth asked
(--iodepth, default 32 per drive; Little's law) must stay below it, and where the drive's QD1 latency is
unknown the configuration is listed as unverified, not as meeting it.
Configurations with identical results (drives, lanes, cost, ceilings, binding, latency) are one answer that
lists its alternatives. Units: 10M, 2.5M (I/O per second); 60GB/s, 7GiB/s, 100Gb/s (B = bytes, b = bits);
200us, 1.5ms.
"""

_LISTS = {"gen": "host.gen", "sockets": "host.sockets", "drive": "drive.model", "connection": "connection",
          "io_stack": "workload.io_stack", "cores": "host.cores_per_socket", "clock": "host.clock_hz",
          "switch_count": "switch.count", "lanes": "host.lanes_per_socket", "iodepth": "workload.iodepth",
          "host": "host"}


def register(sub) -> None:
    from ..topology.presets import PRESETS

    c = sub.add_parser("plan", help="capacity planner: configurations that meet IOPS/bandwidth/latency targets",
                       description="Search a design space (drives, generations, sockets, connections, I/O stacks …) "
                                   "for configurations that meet every target; rank them; say why the others fail.",
                       epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("--preset", default="dell-r7525", help=f"base system: {', '.join(PRESETS)} (default: %(default)s)")
    for flag, what in (("--iops", "4K random-read IOPS"), ("--write-iops", "4K random-write IOPS"),
                       ("--oltp-iops", "4K 70/30 read/write IOPS"), ("--read-bw", "128K sequential-read bandwidth"),
                       ("--write-bw", "128K sequential-write bandwidth"),
                       ("--latency", "mean-latency bound of the IOPS targets")):
        c.add_argument(flag, action="append", help=f"target: {what}")
    c.add_argument("--host", metavar="NAME[:SOCKETS],…",
                   help="catalog CPUs replacing the preset's host (see 'nvmemodel hosts'), e.g. "
                        "amd-epyc-7742,amd-epyc-7742:1,intel-xeon-platinum-8380")
    from .ceilings import add_cost_options

    add_cost_options(c)
    c.add_argument("--gen", help="PCIe generations, e.g. 4,5 (with --host: none above a CPU's own; those are dropped)")
    c.add_argument("--sockets", help="socket counts, e.g. 1,2 (with --host: each CPU at each count it allows, "
                                     "NAME:N)")
    c.add_argument("--drive", help="catalog drives (see 'nvmemodel drives'), comma-separated")
    c.add_argument("--connection", help="direct-x1, direct-x2, direct-x4, direct-x8, direct-x16 (a root port of "
                   "that width per drive) or switch catalog keys, comma-separated")
    c.add_argument("--io-stack", dest="io_stack", help="I/O stacks, e.g. libaio,io_uring,spdk")
    c.add_argument("--cores", help="cores per socket, e.g. 32,64")
    c.add_argument("--clock", help="core clocks, e.g. 2.5GHz,3GHz")
    c.add_argument("--switch-count", dest="switch_count", help="switch adapters, e.g. 1,2,4")
    c.add_argument("--lanes", help="PCIe lanes per socket, e.g. 64,128")
    c.add_argument("--iodepth", help="queue depths the latency is checked at (per job and drive), e.g. 1,32")
    c.add_argument("--axis", action="append", default=[], metavar="NAME=V1,V2",
                   help="any parameter as an axis, with units, e.g. --axis fabric.eth_mtu=1500,9000")
    c.add_argument("--max-drives", type=positive_int, help="drive bays (most drives any configuration may use)")
    from .mixed import GROUP_HELP

    c.add_argument("--group", action="append", default=[], metavar="KEY=VALUE,...",
                   help=GROUP_HELP.replace("a group of identical", "plan a mixed topology: a group of identical")
                   + "; the axes then vary shared parameters only (one host: --host NAME[:SOCKETS] is the groups' "
                     "CPU), and the answer is the fewest drives added in --order")
    c.add_argument("--order", default="sequential", choices=("sequential", "interleaved"),
                   help="with --group: the order in which drives are added over the groups (default: %(default)s)")
    c.add_argument("--rank", default="drives", choices=("drives", "lanes", "headroom", "cost"),
                   help="order of the answers (default: %(default)s)")
    c.add_argument("--margin", type=float, default=0.0, help="headroom required above every target, e.g. 0.2")
    c.add_argument("--price", action="append", default=[], metavar="ITEM=PRICE",
                   help="prices (any rank prints the cost): drive=900, drive.samsung-pm1743=1200, switch=400, "
                        "socket=4000, socket.amd-epyc-7742=6950")
    c.add_argument("--top", type=int, default=5, help="configurations shown (default: %(default)s)")
    out = c.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="machine-readable output (schema nvmemodel.capacity-plan/2)")
    out.add_argument("--csv", action="store_true", help="the ranked answers as CSV (met, then unverified: "
                                                        "column status)")
    c.set_defaults(run=_plan)


def _once(args, name: str):
    values = getattr(args, name)
    if not values:
        return None
    if len(set(values)) > 1:
        raise ParameterError(f"--{name.replace('_', '-')}", values, "one value (the target is given twice, "
                                                                     "differently)")
    return values[0]


def _split(text: str) -> list[str]:
    return [v.strip() for v in text.split(",") if v.strip()]


def _targets(args):
    from ..plan import STANDARD_WORKLOADS as W
    from ..plan import Target, parse_iops, parse_latency, parse_rate

    lat = _once(args, "latency")
    latency = parse_latency(lat) if lat is not None else None
    specs = [("iops", "4k-randread", "iops", parse_iops), ("write_iops", "4k-randwrite", "iops", parse_iops),
             ("oltp_iops", "4k-oltp-70-30", "iops", parse_iops), ("read_bw", "128k-read", "bytes_per_s", parse_rate),
             ("write_bw", "128k-write", "bytes_per_s", parse_rate)]
    targets = []
    for flag, workload, field, parse in specs:
        text = _once(args, flag)
        if text is not None:
            targets.append(Target(W[workload], **{field: parse(text, f"--{flag.replace('_', '-')}")},
                                  latency_s=latency if field == "iops" else None))
    if latency is not None and not any(t.latency_s for t in targets):
        raise ParameterError("--latency", lat, "an IOPS target to bound (--iops, --write-iops or --oltp-iops); a "
                                               "bandwidth target's latency follows from its queue depth")
    if not targets:
        raise ParameterError("targets", None, "at least one of --iops, --write-iops, --oltp-iops, --read-bw, "
                                              "--write-bw")
    return targets


#: (field, lowest plausible, highest plausible, what one NVMe drive does): a target outside is said to be implausible
#: — a unit typo (4KB/s for 4GB/s) or a wish no server meets; the plan still runs
_PLAUSIBLE = {"bytes_per_s": (10e6, 10e12, "one NVMe drive reads or writes about 1-14 GB/s sequentially"),
              "iops": (1e3, 1e9, "one NVMe drive gives about 0.1-3 M IOPS of 4K random I/O"),
              "latency_s": (1e-6, 1.0, "an NVMe drive answers a 4K read in about 10-200 µs")}


def _sanity_notes(args) -> list[str]:
    """One sentence per target implausibly small or large for NVMe storage (:data:`_PLAUSIBLE`), naming the option
    and the value as given: "--read-bw 4KB/s is 4,000 bytes/s: implausibly small …"."""
    from ..plan import parse_iops, parse_latency, parse_rate

    notes = []
    for flag, field, parse in (("iops", "iops", parse_iops), ("write_iops", "iops", parse_iops),
                               ("oltp_iops", "iops", parse_iops), ("read_bw", "bytes_per_s", parse_rate),
                               ("write_bw", "bytes_per_s", parse_rate), ("latency", "latency_s", parse_latency)):
        given = _once(args, flag)
        if given is None:
            continue
        option = f"--{flag.replace('_', '-')}"
        value = parse(given) if field == "latency_s" else parse(given, option)
        low, high, scale = _PLAUSIBLE[field]
        if low <= value <= high:
            continue
        side = "small" if value < low else "large"
        what = {"bytes_per_s": f"{value:,.6g} bytes/s", "iops": f"{value:,.6g} IOPS", "latency_s": f"{value:.3g} s"}
        notes.append(f"{option} {given} is {what[field]}: implausibly {side} for NVMe storage ({scale}); "
                     + ("one drive exceeds it many times over — was another unit meant (GB/s, not KB/s; M, not K)?"
                        if side == "small" and field != "latency_s" else "check the value and its unit"))
    return notes


def _axes(args) -> dict:
    from ..parameters import get

    axes = {}
    for opt, name in _LISTS.items():
        text = getattr(args, opt)
        if text is None:
            continue
        values = _split(text)
        if not values:
            raise ParameterError(f"--{opt.replace('_', '-')}", text, "a comma-separated list of choices")
        axes[name] = values if name in ("connection", "host") else [get(name).parse(v) for v in values]
    for item in args.axis:
        name, sep, text = item.partition("=")
        if not sep or not _split(text):
            raise ParameterError("--axis", item, "NAME=V1,V2, e.g. fabric.eth_mtu=1500,9000")
        axes[name.strip()] = [get(name.strip()).parse(v) for v in _split(text)]
    return axes


def _prices(items) -> dict:
    prices: dict = {}
    for item in items:
        key, sep, value = item.partition("=")
        try:
            price = float(value)
        except ValueError:
            raise ParameterError("--price", item, "ITEM=NUMBER, e.g. drive=900 or drive.samsung-pm1743=1200") from None
        if not sep or price < 0:
            raise ParameterError("--price", item, "ITEM=NUMBER >= 0")
        kind, _, model = key.strip().partition(".")
        if kind not in ("drive", "switch", "socket"):
            raise ParameterError("--price", item, "an item among drive, drive.<model>, switch, switch.<model>, "
                                          "socket, socket.<cpu of --host>")
        if model:
            entry = prices.setdefault(kind, {})
            if not isinstance(entry, dict):
                raise ParameterError("--price", item, f"either {kind}=PRICE or {kind}.<model>=PRICE, not both")
            entry[model] = price
        else:
            prices[kind] = price
    return prices


def _mixed_base(args, axes: dict):
    """The ``--group`` topology and the axes left to plan on it. A mirror across groups (``mirror=NAME``) is planned
    at one RAID level: a one-value ``--axis raid.level=raid10`` (any one-value ``raid.*`` axis) is that level, moved
    into the topology as ``ceilings --set`` moves it (QA F13); several values, or none, is one error naming what was
    typed."""
    from ..topology.presets import preset
    from .mixed import mixed_from

    typed = {name.strip(): item for item in args.axis for name in [item.partition("=")[0]]}
    topo = preset(args.preset)
    axes = _mixed_axes(args, axes, typed)
    if "host" in axes:  # one CPU (_mixed_axes refuses more): the groups' host, as 'ceilings --host NAME --group …'
        from ..topology.host import host_from_text, with_host

        name = str(axes.pop("host")[0])
        topo = with_host(topo, host_from_text(name))
        topo = topo.replace(name=f"{topo.name} with {name}")  # the answers name the system planned
    place = {k: v[0] for k, v in axes.items() if k in _PLACEMENT and len(v) == 1}  # one placement: the topology's
    if place:  # as 'ceilings --set' sets it (a catalog CPU's lanes per socket follow its socket count: with_sockets)
        from ..topology.host import with_sockets

        if "host.sockets" in place:
            topo = topo.replace(host=with_sockets(topo.host, int(place.pop("host.sockets"))))
        if place:
            topo = topo.with_parameters(place, targets_workload(args))[0]
        axes = {k: v for k, v in axes.items() if not (k in _PLACEMENT and len(v) == 1)}
    fixed = {k: v[0] for k, v in axes.items() if k.startswith("raid.") and len(v) == 1}
    overrides = dict(fixed)
    try:
        base = mixed_from(topo, args.group, order=args.order, overrides=overrides)
    except ParameterError as err:
        if err.parameter != "raid.level":
            raise
        level = axes.get("raid.level")
        raise ParameterError("--axis raid.level", typed.get("raid.level", "(not given)").partition("=")[2]
                             if level else "(not given)",
                             "one level, raid1 or raid10, for a mirror across groups (--group … mirror=NAME), e.g. "
                             "--axis raid.level=raid10" + (f"; the preset's is {err.value!r}" if not level else "")) \
            from None
    if getattr(base, "mirror", False):
        many = [k for k, v in axes.items() if k.startswith("raid.") and len(v) > 1]
        if many:
            raise ParameterError("--axis", typed.get(many[0], many[0]), "one value for a raid.* parameter of a mirror "
                                 "across groups (its RAID level is fixed, e.g. --axis raid.level=raid10)")
        axes = {k: v for k, v in axes.items() if k not in fixed or k in overrides}  # moved into the topology
    return base, axes


#: Axes a mixed plan takes one value of (its groups are placed on one host's sockets and slots).
_PLACEMENT = ("host", "host.sockets", "tree.complexes_per_socket", "tree.slots_per_complex", "tree.placement")
#: Axes each ``--group`` sets for itself (its --group key, for the error).
_GROUP_OWNED = {"drive.": "drive=", "switch.": "switch=/switches=", "connection": "switch=/lanes=",
                "host.port_lanes": "lanes="}


def _mixed_axes(args, axes: dict, typed: dict) -> dict:
    """With ``--group``: the axes refused in the options' words (QA round 5, G19) — several hosts, socket counts or
    slot layouts (one placement per mixed plan for now), or what each group sets itself (its drive, switch, lanes)."""
    flags = {name: f"--{opt.replace('_', '-')}" for opt, name in _LISTS.items() if getattr(args, opt) is not None}

    def option(name):  # the option that gave the axis, its text as typed, and the option as a sentence names it
        if name in typed:
            return "--axis", typed[name], f"--axis {name}"
        return flags[name], getattr(args, flags[name][2:].replace("-", "_")), flags[name]

    for name, values in axes.items():
        owned = next((key for prefix, key in _GROUP_OWNED.items() if name.startswith(prefix)), None)
        if owned is not None:
            flag, text, said = option(name)
            raise ParameterError(flag, text, f"no {said} with --group: each group sets its own ({owned} in its "
                                             "--group)")
        if name in _PLACEMENT and len(values) > 1:
            flag, text, said = option(name)
            if name == "host":
                what, how = "one host", ("a mixed plan takes one host for now; run one plan per host "
                                         f"(--preset {args.preset} --host NAME)")
            elif name == "host.sockets":
                what, how = "one socket count", ("a mixed plan places its groups on one host's sockets for now; run "
                                                 "one plan per count (--sockets N or --host NAME:N)")
            else:
                what, how = "one value", ("a mixed plan places its groups on one host's slots for now; run one "
                                          "plan per value")
            raise ParameterError(flag, text, f"{what} with --group ({said}): {how}")
    return axes


def targets_workload(args):
    """The first target's workload (what the topology's parameters are read for; a placement does not depend on it)."""
    return _targets(args)[0].workload


def _mixed_refusal(args, err: ParameterError) -> None:
    """A mixed plan's refusal of a latency bound or of a per-CPU socket price, said of the option typed."""
    if err.parameter == "targets" and args.latency:
        raise ParameterError("--latency", _once(args, "latency"), err.allowed) from None
    if err.parameter == "prices['socket']":
        typed = next((p for p in args.price if p.strip().startswith("socket.")), err.value)
        raise ParameterError("--price", typed, "socket=PRICE with --group (one host: a price per socket)") from None


def _plan(args) -> int:
    import json

    from ..plan import DesignSpace, plan

    targets = _targets(args)
    notes = _sanity_notes(args)
    base = args.preset
    axes = _axes(args)
    if args.group:  # a mixed topology under the preset's host: its groups kept, shared axes only
        base, axes = _mixed_base(args, axes)
    if args.costs is not None or args.profile is not None:  # the host charged what was measured (--host keeps them)
        from ..topology.presets import preset
        from .ceilings import apply_costs, print_costs

        base = apply_costs(preset(base) if isinstance(base, str) else base, args)
        if not (args.json or args.csv):
            print_costs(base.host)
    space = DesignSpace(base, axes, max_drives=args.max_drives)  # --host: an axis, one CPU or more
    if args.top < 1:
        raise ParameterError("--top", args.top, "at least 1")
    try:
        result = plan(targets, space, rank=args.rank, margin=args.margin, prices=_prices(args.price) or None,
                      keep=max(args.top, 1000))
    except ParameterError as err:
        if args.group:  # what a mixed plan refuses, in the options' words
            _mixed_refusal(args, err)
        raise
    if args.json:
        doc = result.to_dict()
        if not isinstance(base, str) and base.host.stack_costs:  # where the CPU costs charged were measured
            from ..hostcal.apply import describe_costs

            doc["notes"] = [*doc.get("notes", []), *(f"host CPU cost per I/O measured on your machine: {line}"
                                                     for line in describe_costs(base.host))]
        if notes:
            doc["notes"] = [*doc.get("notes", []), *notes]
        doc["configurations"] = doc["configurations"][: args.top]
        doc["unverified"] = doc["unverified"][: args.top]
        from ..plan.ranges import answer_range_doc  # each answer shown: its ceiling over the ranged figures

        for key, frame in (("configurations", result.frame), ("unverified", result.unverified)):
            for i, record in enumerate(doc[key]):
                record["ranges"] = answer_range_doc(result.space, result.targets, frame.iloc[i])
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif args.csv:
        table = result.table()
        table.groupby("status", sort=False).head(args.top).to_csv(sys.stdout, index=False)
    else:
        for note in notes:
            print(f"Note: {note}")
        print(result.explain(top=args.top))
    return 0
