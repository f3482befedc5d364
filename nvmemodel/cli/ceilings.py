"""``nvmemodel ceilings``: every component's ceiling and the binding one as drives are added."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..errors import ParameterError
from ._common import parse_drives as _parse_drives
from ._common import print_curve
from .mixed import GROUP_HELP, mixed_from

JSON_SCHEMA_ID = "nvmemodel.ceilings/1"

_EXAMPLES = """\
examples:
  nvmemodel ceilings --preset dell-r7525 --pattern read --bs 128K
      How fast can 1, 2, 4, 8, 12, 24 Gen4 drives read 128K blocks, and what limits each point?
  nvmemodel ceilings --preset lenovo-sr850-810-4p --pattern randread --bs 4K --explain
  nvmemodel ceilings --preset dell-r7525 --drive samsung-pm1743 --drives 1-24 --io-stack io_uring_polled
  nvmemodel ceilings --preset dell-r7525 --set host.clock_hz=3GHz --set drive.read_latency_s=80us
  nvmemodel ceilings --preset dell-r7525 --bs 4K --json > out.json
  nvmemodel ceilings --preset dell-r7525 --pattern read --bs 128K --group drive=samsung-pm1733-u2,count=8 \\
      --group drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,switches=2
      Mixed drive and switch models under the R7525's host: binding component and group per point.
"""


def _epilog() -> str:
    """The examples and the registered components (what can bind), from the registry."""
    from ..ceiling.components import components

    rows = [f"  {c.name:<17} {c.summary or c.label}" for c in components()]
    return _EXAMPLES + "\ncomponents (what can bind):\n" + "\n".join(rows) + "\n"


def register(sub) -> None:
    c = sub.add_parser(
        "ceilings", help="ceilings and the binding bottleneck for a topology and workload",
        description="Evaluate every component's ceiling (IOPS and bytes/s) as drives are added, and name "
                    "the binding one at each point. Start from a preset; override drive, PCIe and workload.",
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    add_system_options(c)
    c.add_argument("--json", action="store_true", help=f"machine-readable output (schema {JSON_SCHEMA_ID}; "
                   "with --group nvmemodel.mixed/1)")
    c.add_argument("--explain", action="store_true", help="add a plain-language account of the limits")

    c.set_defaults(run=_ceilings)


def add_system_options(c) -> None:
    """The options that say what to evaluate, shared by ``ceilings`` and ``sweep``: the preset and what replaces
    parts of it (``--drive``, ``--host``, ``--set``, ``--group``/``--order``), the drive counts, the workload."""
    from ..topology.host import IoStack
    from ..topology.presets import PRESETS

    c.add_argument("--preset", default="dell-r7525", help=f"system to start from: {', '.join(PRESETS)} "
                   "(default: %(default)s)")
    c.add_argument("--drive", help="replace the preset's drive by a catalog drive (see 'nvmemodel drives')")
    c.add_argument("--host", metavar="NAME[:SOCKETS]",
                   help="replace the preset's host by a catalog CPU (see 'nvmemodel hosts'): its cores, clock, lanes, root "
                        "complexes, memory and inter-socket link; NAME:SOCKETS sets the socket count")
    add_cost_options(c)
    c.add_argument("--drives", help="drive counts, e.g. '12', '1-24', '1,2,4,8' (default: the preset's)")
    c.add_argument("--pattern", default="randread",
                   help="fio rw= pattern: read, write, randread, randwrite, randrw, rw (default: %(default)s)")
    c.add_argument("--bs", default="4K", help="block size, e.g. 4K, 128K, 1M (K = 1024 bytes; default: %(default)s)")
    c.add_argument("--read-fraction", type=float, help="read share 0..1 for randrw/rw")
    c.add_argument("--iodepth", type=int, default=None,
                   help="queue depth per job (default: 32, or what the preset's paper ran: broadcom-stingray 128)")
    c.add_argument("--numjobs", type=int, default=1, help="jobs per drive (default: %(default)s)")
    c.add_argument("--io-stack", default=None, choices=[s.value for s in IoStack],
                   help="host I/O stack, sets CPU cycles per I/O (default: libaio, or what the preset's paper ran: "
                        "broadcom-stingray spdk)")
    c.add_argument("--mps", type=int, help="PCIe Max Payload Size in bytes (default: the preset's, 256)")
    c.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="override any model parameter by its name, with units where it has them, e.g. "
                        "--set host.clock_hz=3GHz --set drive.read_latency_s=80us --set fabric.line_rate_bits_per_s="
                        "100Gb/s --set workload.io_stack=spdk --set switch.efficiency=0.9 (repeatable; "
                        "'nvmemodel parameters' lists names, units, ranges and sources)")
    c.add_argument("--group", action="append", default=[], metavar="KEY=VALUE,...", help=GROUP_HELP)
    c.add_argument("--gpu", metavar="KEY=VALUE,...", default=None, help=GPU_HELP)
    c.add_argument("--order", default="sequential", choices=["sequential", "interleaved"],
                   help="with --group: the order in which drives are added over the groups (default: %(default)s)")


#: ``--gpu`` keys and the parameters they set (docs/physics.md §12.10, docs/topologies.md "GPUs on the tree").
GPU_KEYS = {"count": "gpu.count", "gen": "gpu.gen", "lanes": "gpu.lanes", "at": "gpu.attach",
            "remote": "gpu.remote_fraction", "efficiency": "gpu.efficiency"}
GPU_HELP = ("GPUs taking the data (GPUDirect Storage, peer-to-peer), e.g. count=1,gen=5,lanes=16,at=switch: count, gen, "
            "lanes, at (unplaced, root_port or switch: behind the drives' switches, count a multiple of the switches), "
            "remote (with at=root_port: the share of each socket's data whose GPU is on another socket), efficiency")


def parse_gpu(text: str | None) -> dict[str, float | str]:
    """``--gpu count=4,gen=5,at=switch`` → ``{"gpu.count": 4.0, "gpu.gen": 5.0, "gpu.attach": "switch"}``, each value
    parsed and checked by the parameter table; errors name ``--gpu``, the key and what is allowed."""
    from ..parameters import get

    if text is None:
        return {}
    out: dict[str, float | str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or not key or not value:
            raise ParameterError("--gpu", text, "KEY=VALUE,... e.g. count=1,gen=5,lanes=16,at=switch")
        if key not in GPU_KEYS:
            raise ParameterError("--gpu", key, f"one of the keys {', '.join(GPU_KEYS)}")
        name = GPU_KEYS[key]
        if name in out:
            raise ParameterError("--gpu", text, f"each key once ({key} is given twice)")
        try:
            out[name] = get(name).parse(value)
        except ParameterError as err:
            raise ParameterError(f"--gpu {key}", value, err.allowed) from None
    if "gpu.count" not in out:
        raise ParameterError("--gpu", text, "a count=N among the keys (the GPUs taking the data)")
    return out


def add_cost_options(c) -> None:
    """``--costs FILE`` and ``--profile FILE``: the host charged the CPU costs per I/O measured on the user's machine
    (``nvmemodel ingest --costs-out``, ``nvmemodel calibrate``), shared by ceilings, sweep, plan and discover."""
    c.add_argument("--costs", metavar="COSTS_FILE",
                   help="CPU cost per I/O by stack measured in your own fio runs (the JSON of 'nvmemodel ingest "
                        "--costs-out'): the host is charged them, each labelled with its files")
    c.add_argument("--profile", metavar="PROFILE_FILE",
                   help="a host profile written by 'nvmemodel calibrate': the host is charged the costs per I/O "
                        "measured on this machine (docs/hosts.md)")


def apply_costs(topo, args):
    """``topo`` with its host charged ``--costs`` / ``--profile`` (unchanged without them)."""
    costs, profile = getattr(args, "costs", None), getattr(args, "profile", None)
    if costs is None and profile is None:
        return topo
    from ..hostcal.apply import with_costs

    return with_costs(topo, costs=costs, profile=profile)


def print_costs(host) -> None:
    """The measured costs a host is charged, one line per stack (nothing where it has none)."""
    if host.stack_costs:
        from ..hostcal.apply import describe_costs

        print("host CPU cost per I/O with what was measured on your machine (--costs / --profile):")
        for line in describe_costs(host):
            print(f"  {line}")


def parse_settings(items) -> dict[str, float | str]:
    """``["host.clock_hz=3GHz", …]`` → ``{"host.clock_hz": 3e9, …}``, parsed and checked by the parameter table."""
    from ..parameters import get

    out: dict[str, float | str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ParameterError("--set", item, "NAME=VALUE, e.g. host.cycles_per_io=4000 or host.clock_hz=3GHz")
        out[name.strip()] = get(name.strip()).parse(value.strip())
    return out


#: fio patterns whose read share is given (--read-fraction, --set or sweep's --grid workload.read_fraction).
MIXED_PATTERNS = ("randrw", "rw", "readwrite")
#: The CLI's workload where neither the option nor the preset's paper (``presets.WORKLOAD_DEFAULTS``) says otherwise.
CLI_WORKLOAD = {"iodepth": 32, "io_stack": "libaio"}


def system_and_workload(args, *, read_fraction: float | None = None):
    """``(topology, workload, overrides, drives)`` from the options of :func:`add_system_options` (``drives`` None:
    the default counts); the ``--group`` texts are left to the caller. ``--iodepth``/``--io-stack`` omitted: the
    preset's paper's (:func:`preset_defaults_note` says which), else :data:`CLI_WORKLOAD`'s. A mixed pattern
    without ``--read-fraction`` takes ``--set workload.read_fraction``'s, else ``read_fraction`` (a caller's
    stand-in, e.g. sweep's first grid value, that its rows replace)."""
    from ..topology.presets import preset, workload_defaults
    from ..topology.workload import Workload

    topo = preset(args.preset)
    if args.host is not None:
        from ..topology.host import host_from_text, with_host

        topo = with_host(topo, host_from_text(args.host))
    topo = apply_costs(topo, args)  # after --host: the measured costs are the user's, whatever CPU is named
    settings = parse_settings(args.set)
    gpu = parse_gpu(getattr(args, "gpu", None))
    both = sorted(set(gpu) & set(settings))
    if both:
        raise ParameterError("--set", both[0], "no --set of a parameter --gpu gives (give it once, in --gpu)")
    settings = {**gpu, **settings}
    if args.read_fraction is None and "workload.read_fraction" in settings \
            and args.pattern.strip().lower() in MIXED_PATTERNS:  # a mix's share given by --set
        read_fraction = float(settings["workload.read_fraction"])
    fields = {**CLI_WORKLOAD, **workload_defaults(args.preset)[0]}
    iodepth = fields["iodepth"] if args.iodepth is None else args.iodepth
    stack = fields["io_stack"] if args.io_stack is None else args.io_stack
    wl = Workload(args.pattern, args.bs, read_fraction if args.read_fraction is None else args.read_fraction,
                  iodepth, args.numjobs, stack)
    topo, overrides = system_overrides(topo, drive=args.drive, mps=args.mps, settings=settings,
                                       host_given=args.host is not None)
    drives = _parse_drives(args.drives) if args.drives is not None else None  # '' is an error, not the default
    return topo, wl, overrides, drives


def system_overrides(topo, *, host: str | None = None, drive: str | None = None, mps: int | None = None,
                     settings=(), host_given: bool = False):
    """``(topology, overrides)``: ``topo`` with ``--host NAME[:SOCKETS]`` applied (a catalog CPU, the chassis' bays
    kept), and the overrides ``--drive`` (``drive.model``), ``--mps`` and ``--set`` give — ``settings`` as the
    ``--set`` texts or as :func:`parse_settings` made them. ``--set host.sockets`` on a catalog CPU is applied to
    the topology (the part's lanes for that count), and refused beside ``--host``. What ``ceilings``, ``sweep``
    and ``fit`` read the same way."""
    if host is not None:
        from ..topology.host import host_from_text, with_host

        topo = with_host(topo, host_from_text(host))
    overrides: dict[str, object] = {}
    if drive is not None:
        from ..topology.drive import get_drive, model_key

        overrides["drive.model"] = model_key(get_drive(drive))
    if mps is not None:
        overrides["pcie.mps"] = mps
    overrides.update(settings if isinstance(settings, dict) else parse_settings(settings))
    if "host.sockets" in overrides and (host is not None or host_given):  # two socket counts for one CPU (QA2 G15)
        raise ParameterError("--set host.sockets", overrides["host.sockets"],
                             "no socket count beside --host: give it there, --host NAME:SOCKETS")
    if "host.sockets" in overrides and topo.host.key:
        topo = _with_sockets(topo, overrides.pop("host.sockets"))
    return topo, overrides


def whole_arrays(base, wl, drives, given: str | None, grid: dict | None = None) -> tuple[list[int], str | None]:
    """``(drive counts, note)``: with a RAID level, only counts that are whole arrays of ``raid.width`` members
    (``nvmemodel.ceiling.raid.array_counts``; ION's "two 4-drive RAID-5 arrays" are 4 or 8 drives, not 3 or 6).
    Counts the user gave (``given``: the ``--drives`` text) that are not are refused naming raid.width; default
    counts that are not are left out, and ``note`` says which. ``grid``: raid.level / raid.width values of a sweep,
    every combination checked."""
    import itertools

    from ..ceiling.raid import array_counts

    p = base.parameters(wl)
    grid = grid or {}
    levels, widths = grid.get("raid.level", [p["raid.level"]]), grid.get("raid.width", [p["raid.width"]])
    keep = list(drives)
    for level, width in itertools.product(levels, widths):
        whole, partial = array_counts(str(level), width, drives)
        if partial and given is not None:
            name = level.replace("raid", "RAID-")
            where = "" if not grid else f" (the grid's raid.level={level}, raid.width={width:g})"
            few, more = [n for n in partial if n < width], [n for n in partial if n > width]
            why = "; ".join(([f"{', '.join(map(str, few))} drive(s) hold no {name} of {width:g}"] if few else [])
                            + [f"of {n} drives {n % int(width)} {'is' if n % int(width) == 1 else 'are'} in no "
                               "array" for n in more[:1]])
            raise ParameterError("--drives", given, f"whole {name} arrays of raid.width={width:g} drives{where}, "
                                 f"multiples of {width:g}: {why} (set raid.width to the array size to change it)")
        keep = [n for n in keep if n in whole]
    left = [n for n in drives if n not in keep]
    if not keep:
        raise ParameterError("--drives", ",".join(map(str, drives)), "a count of whole RAID arrays for every "
                             f"raid.width ({', '.join(f'{w:g}' for w in widths)}): none of these counts is one")
    if not left:
        return keep, None
    what = (f"{str(levels[0]).replace('raid', 'RAID-')} arrays of {widths[0]:g} (raid.width)" if not grid else
            "RAID arrays in every configuration of the grid (raid.level, raid.width)")
    return keep, f"drive counts {', '.join(map(str, left))} left out: not whole {what}"


def preset_defaults_note(args, given=()) -> str | None:
    """Where the workload holds the preset's paper's defaults (``--iodepth``/``--io-stack`` omitted and the field
    not set by ``--set`` or in ``given``, e.g. sweep's grid names), the words saying so, else None:
    "QD128 and spdk are the preset's defaults: the paper's target runs SPDK, …"."""
    from ..topology.presets import workload_defaults

    fields, why = workload_defaults(args.preset)
    given = {*given, *(item.partition("=")[0].strip() for item in args.set)}
    shown: dict[str, Callable[[Any], str]] = {"iodepth": lambda v: f"QD{v}", "io_stack": str}
    used = [shown[k](v) for k, v in fields.items() if getattr(args, k) is None and f"workload.{k}" not in given]
    if not used:
        return None
    return (f"{' and '.join(used)} {'are' if len(used) > 1 else 'is'} the preset's default{'s' * (len(used) > 1)}: "
            f"{why}; --iodepth / --io-stack replace {'them' if len(used) > 1 else 'it'}")


def catalog_sockets(host, sockets, *, option: str, hint: str) -> int:
    """A socket count a catalog CPU (``host.key``) allows, as a whole number; else one error under ``option``
    (``host.sockets`` for --set, ``--grid host.sockets`` for a sweep) ending with ``hint``."""
    from ..topology.host import get_host

    if sockets != int(sockets):
        raise ParameterError(option, sockets, "a whole number of sockets")
    try:
        get_host(host.key, sockets=int(sockets))
    except ParameterError as err:  # more sockets than the part allows
        raise ParameterError(option, int(sockets), f"{err.allowed} ({hint})") from None
    return int(sockets)


def hypothetical_text(host, gen) -> str:
    """Where ``gen`` (host.gen) is above a catalog CPU's own PCIe generation, the sentence saying so (QA round 4,
    F28); "" where it is not, or the host names no catalog CPU."""
    if not host.key or float(gen) <= int(host.gen):
        return ""
    return (f"host.gen=Gen{float(gen):g} is above the CPU's own PCIe generation, Gen{int(host.gen)} for {host.key}: "
            f"a hypothetical host — real links train down to Gen{int(host.gen)}")


def _with_sockets(topo, sockets):
    """``--set host.sockets=N`` on a catalog CPU: the socket count the part allows, and its lanes per socket for N
    sockets (as ``--host NAME:N`` and the planner's host.sockets axis do), not the other count's lane split."""
    from ..parameters import get
    from ..topology.host import with_sockets

    n = catalog_sockets(topo.host, get("host.sockets").check(sockets), option="host.sockets",
                        hint="or use --host NAME:SOCKETS")
    return topo.replace(host=with_sockets(topo.host, n))


def _ceilings(args) -> int:
    from ..ceiling.evaluate import evaluate

    topo, wl, overrides, drives = system_and_workload(args)
    if args.group:
        return _ceilings_of_groups(args, topo, wl, overrides, drives)
    base, base_wl = topo.with_parameters(overrides, wl) if overrides else (topo, wl)
    counts = drives if drives is not None else list(base.default_drives or range(1, base.max_drives + 1))
    drives, left = whole_arrays(base, base_wl, counts, args.drives)
    curve = evaluate(topo, wl, drives=drives, overrides=overrides)

    note = preset_defaults_note(args)
    if args.json:
        doc = curve.to_dict()
        if note:  # where the workload is the paper's, not the options' defaults
            doc["workload_defaults"] = note
        if left:  # default counts that are not whole RAID arrays
            doc["drives_left_out"] = left
        from ..topology.presets import preset_difference

        differs = preset_difference(curve, overrides)  # QA s25 H37, as the table says it
        if differs:
            doc["preset_difference"] = differs
        return _write_json(doc)

    print(curve.topology.describe())
    print(f"workload: {curve.workload.describe()}" + (f" ({note})" if note else ""))
    print_costs(curve.topology.host)
    from ..ceiling.explain import one_cost_sentence

    one_cost = one_cost_sentence(curve.topology.host, curve.workload.io_stack)
    if one_cost and "host.cycles_per_io" not in overrides:
        # a host whose CPU cost holds for every stack (one OS, one stack): the stack named is not what is charged
        print(f"({one_cost})")
    if overrides:
        _print_overrides(overrides)
        note = hypothetical_text(topo.host, overrides.get("host.gen", topo.host.gen))
        if note:
            print(f"({note})")
    if left:
        print(f"({left})")
    print_curve(curve, explain=args.explain)
    from ..topology.presets import preset_difference

    differs = preset_difference(curve, overrides)  # QA s25 H37: a preset's own share binding, beside the catalog's
    if differs:
        print(f"\n({differs})")
    return 0


def _ceilings_of_groups(args, topo, workload, overrides, drives) -> int:
    """``--group``: the groups under ``topo``'s host (:func:`~nvmemodel.cli.mixed.mixed_from`), evaluated and printed
    as one drive model's curve is, with each group's drives per point and the groups named in what binds."""
    from ..ceiling.evaluate import evaluate

    if args.drive is not None:
        raise ParameterError("--drive", args.drive, "no --drive with --group (each group names its drive)")
    overrides = dict(overrides)
    mixed = mixed_from(topo, args.group, order=args.order, overrides=overrides, raid_option="--set raid.level")
    try:
        curve = evaluate(mixed, workload, drives=drives, overrides=overrides)
    except ParameterError as e:  # the mirror's odd counts said in the CLI's words; any other refusal as it is
        if getattr(e, "parameter", None) != "drives" or not mixed.mirror or "even total drive counts" not in str(e):
            raise
        given = e.value if isinstance(e.value, (list, tuple)) else [e.value]
        raise ParameterError("--drives", ",".join(map(str, given)), "even drive counts with a mirror (a --group "
                             "mirror= key): complete pairs, 2, 4, …") from None
    if args.json:
        return _write_json(curve.to_dict())
    print(mixed.describe())
    print(f"workload: {curve.describe_workload()}")
    print_costs(mixed.host)
    if overrides:
        _print_overrides(overrides)
    print_curve(curve, explain=args.explain, per_group=True)
    return 0


def _print_overrides(overrides: dict) -> None:
    from ..parameters import get

    print("overrides: " + ", ".join(f"{k}={get(k).format(v)}" for k, v in overrides.items()))


def _write_json(doc: dict) -> int:
    json.dump(doc, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
