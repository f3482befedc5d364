"""``nvmemodel discover``: this machine's (or a saved lspci's) PCIe tree, the flags, and the ceilings."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import TYPE_CHECKING

from ..errors import ParameterError

if TYPE_CHECKING:
    from ..ceiling.result import MixedCurve, ScalingCurve

JSON_SCHEMA_ID = "nvmemodel.discover/1"

_EXAMPLES = """\
examples:
  nvmemodel discover                                  # this machine, from /sys (run as root for MaxPayload)
  sudo lspci -vvv > server.txt; nvmemodel discover --lspci server.txt
  nvmemodel discover --lspci server.txt --lspci-tree server-tv.txt --json > server.json
  nvmemodel discover --lspci server.txt --pattern read --bs 128K --iodepth 64

flags (code: meaning):
  link_below_capability   a drive trained below what it and its port support (x2 of x4, Gen3 of Gen4)
  slot_limits_drive       the port cannot run the drive's own link (a Gen4 drive in a Gen3 slot)
  uplink_oversubscribed   drives behind one switch negotiate more link bandwidth than its uplink carries
  uplink_below_capability a switch's uplink trained below what it and its root port support
  numa_split              drives on several NUMA nodes (jobs on the other socket cross the socket link)
  mps_128                 MaxPayload 128 bytes on the drive path
  truncated_tree          a device with no bridge above it: the dump misses lines (root ports, links unknown)
  drive_ambiguous, unknown_drive  the drive's limits are not applied (ceilings assume it never limits): --drive KEY
  tree_not_uniform        drives differ in model or trained link: the ceilings are of the drives as found
  platform_ambiguous      the root complex's PCI name is on several platforms: which one is assumed (--host NAME)
  gpus_found              GPUs on the tree (root port or the drives' switch) and the --set gpu.* that sends the
                          data to them (GPUDirect Storage); not applied unless given
  mixed_*, several_root_complexes, nested_switches, drive_assumed, host_assumed: what the model simplified
"""


def register(sub) -> None:
    from ..topology.host import IoStack

    c = sub.add_parser("discover", help="read a machine's PCIe tree, flag problems, and show its ceilings",
                       description="Read the PCIe tree (saved `lspci -vvv` text, or /sys on this machine), build the "
                                   "closest nvmemodel topology, flag what a planner must know, and print every "
                                   "component's ceiling for the drives found.",
                       epilog=_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("--lspci", metavar="FILE", help="saved `lspci -vvv` output (or `lspci -tv`); default: read /sys")
    c.add_argument("--lspci-tree", metavar="FILE", help="saved `lspci -tv` output of the same machine (optional)")
    c.add_argument("--sysfs-root", default="/", metavar="DIR", help="root holding sys/ (default: %(default)s)")
    c.add_argument("--drive", metavar="KEY", help="the drive model, where the tree does not tell it (flags "
                                                  "drive_ambiguous / unknown_drive): a catalog key ('nvmemodel drives')")
    c.add_argument("--host", metavar="NAME[:SOCKETS]",
                   help="the machine's CPU from the host catalog (see 'nvmemodel hosts'), instead of what discovery "
                        "identifies or assumes")
    from .ceilings import add_cost_options

    add_cost_options(c)
    c.add_argument("--pattern", default="randread", help="workload for the ceilings (default: %(default)s)")
    c.add_argument("--bs", default="4K", help="block size (default: %(default)s)")
    c.add_argument("--iodepth", type=int, default=32, help="queue depth per job (default: %(default)s)")
    c.add_argument("--numjobs", type=int, default=1, help="jobs per drive (default: %(default)s)")
    c.add_argument("--io-stack", default="libaio", choices=[s.value for s in IoStack],
                   help="host I/O stack (default: %(default)s)")
    c.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="override any model parameter of the discovered topology, with units, e.g. what PCI does "
                        "not tell: --set host.cores_per_socket=32 --set host.clock_hz=3GHz --set "
                        "drive.rand_read_iops=1M (repeatable; see 'nvmemodel parameters')")
    c.add_argument("--explain", action="store_true", help="add a plain-language account of what limits it")
    c.add_argument("--json", action="store_true", help=f"machine-readable output (schema {JSON_SCHEMA_ID})")
    c.set_defaults(run=_discover)


def _discover(args) -> int:
    from ..ceiling.evaluate import evaluate
    from ..discover import discover
    from ..topology.workload import Workload
    from ._common import check_sysfs_root, print_curve
    from .ceilings import parse_settings

    overrides = parse_settings(args.set)  # --lspci and --lspci-tree were checked as input files (cli.INPUT_FILES)
    if args.lspci_tree is not None and args.lspci is None:
        raise ParameterError("--lspci-tree", args.lspci_tree, "--lspci too (the tree completes a saved lspci -vvv)")
    if args.lspci is None:
        check_sysfs_root(args.sysfs_root)
    elif args.sysfs_root != "/":
        raise ParameterError("--sysfs-root", args.sysfs_root, "no --lspci (the machine is read from one or the other)")
    host = None
    if args.host is not None:
        from ..topology.host import host_from_text

        host = host_from_text(args.host)
    found = discover(args.lspci, lspci_tree=args.lspci_tree, sysfs_root=args.sysfs_root, host=host,
                     drive=args.drive)
    wl = Workload(args.pattern, args.bs, None, args.iodepth, args.numjobs, args.io_stack)
    if args.costs is not None or args.profile is not None:  # this machine's measured costs per I/O
        import dataclasses as _dc

        from .ceilings import apply_costs

        found = _dc.replace(found, topology=apply_costs(found.topology, args) if found.topology is not None else None,
                            mixed=apply_costs(found.mixed, args) if found.mixed is not None else None)
    curve: ScalingCurve | MixedCurve | None
    if found.mixed is not None:  # the drives differ (model or trained link): each group as found, at the full count
        curve = evaluate(found.mixed, wl, drives=[found.mixed.max_drives], overrides=overrides)
    else:
        curve = evaluate(found.topology, wl, overrides=overrides) if found.topology is not None else None
    if args.json:
        out = {"schema": JSON_SCHEMA_ID, **found.tree.to_dict(),
               "nvme": [d.bdf for d in found.tree.nvme()],
               "gpus": [dataclasses.asdict(g) for g in found.gpus],
               "flags": [dataclasses.asdict(f) for f in found.flags],
               "topology": found.topology.describe() if found.topology is not None else None,
               "as_found": found.mixed.describe() if found.mixed is not None else None,
               "ceilings": curve.to_dict() if curve is not None else None}
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(f"PCIe tree ({found.tree.source}):")
    print(found.tree.render(highlight=[b for f in found.flags if f.severity == "warn" for b in f.devices]))
    print("\nflags:" if found.flags else "\nflags: none")
    for f in found.flags:
        print(f"  {f}")
    if curve is None:
        return 0
    if found.mixed is not None:
        print("\nmodelled as found (the drives differ in model or trained link: tree_not_uniform), one group each:\n"
              f"{found.mixed.describe()}")
    elif found.topology is not None:
        print(f"\nmodelled as: {found.topology.describe()}")
    if found.topology is not None and found.topology.extras:
        print("host tree: " + ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                                        for k, v in found.topology.extras.items()))
    if overrides:
        from ..parameters import get

        print("overrides: " + ", ".join(f"{k}={get(k).format(v)}" for k, v in overrides.items()))
    print(f"workload: {curve.workload.describe()}")
    from .ceilings import print_costs

    print_costs(curve.topology.host)
    unknown = [f for f in found.flags if f.code in ("unknown_drive", "drive_ambiguous")]
    if unknown and not [k for k in overrides if k.startswith("drive.")]:
        bdfs = [b for f in unknown for b in f.devices]  # without tree_not_uniform every drive is one of these
        print(f"drive(s) not identified ({', '.join(sorted({f.code for f in unknown}))}: {', '.join(bdfs)}): "
              "the ceilings below assume these drives never limit (their bandwidth, IOPS and latency are not "
              "applied); --drive KEY picks a catalog entry")
    print_curve(curve, explain=args.explain)
    if args.lspci is None:
        from ..discover import nvme_namespaces

        if nvme_namespaces(args.sysfs_root):
            root = "" if args.sysfs_root == "/" else f" --sysfs-root {args.sysfs_root}"
            print("\nmeasure it (reads only; each drive's jobs on its own NUMA node):\n"
                  f"  nvmemodel fio-jobs --out sweep --targets auto{root} --pattern {args.pattern} --bs {args.bs} "
                  f"--iodepth 1,4,16,{args.iodepth}\n  nvmemodel run-sweep sweep")
    return 0
