"""``nvmemodel ceilings``: every component's ceiling and the binding one as drives are added."""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import ParameterError
from ._common import json_number as _num
from ._common import parse_drives as _parse_drives

JSON_SCHEMA_ID = "nvmemodel.ceilings/1"

_EPILOG = """\
examples:
  nvmemodel ceilings --preset dell-r7525 --pattern read --bs 128K
      How fast can 1, 2, 4, 8, 12, 24 Gen4 drives read 128K blocks, and what limits each point?
  nvmemodel ceilings --preset lenovo-sr850-810-4p --pattern randread --bs 4K --explain
  nvmemodel ceilings --preset dell-r7525 --drive samsung-pm1743 --drives 1-24 --io-stack io_uring_polled
  nvmemodel ceilings --preset dell-r7525 --bs 4K --json > out.json

components (what can bind):
  drive             the drive's spec-sheet IOPS / bandwidth
  pcie_link         each drive's own PCIe link after encoding, TLP and NVMe command overheads
  queue_depth       Little's law: outstanding I/O / QD1 latency
  switch_uplink     the PCIe switch uplink shared by the drives behind it
  switch_processing the switch's per-command processing rate
  host_cpu          CPU cycles per I/O for the chosen I/O stack
  fabric            the NVMe-oF network (line rate minus per-packet overhead)
"""



def register(sub) -> None:
    from ..topology.host import IoStack
    from ..topology.presets import PRESETS

    c = sub.add_parser(
        "ceilings", help="ceilings and the binding bottleneck for a topology and workload",
        description="Evaluate every component's ceiling (IOPS and bytes/s) as drives are added, and name "
                    "the binding one at each point. Start from a preset; override drive, PCIe and workload.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("--preset", default="dell-r7525", help=f"system to start from: {', '.join(PRESETS)} "
                   "(default: %(default)s)")
    c.add_argument("--drive", help="replace the preset's drive by a catalog drive (see 'nvmemodel drives')")
    c.add_argument("--drives", help="drive counts, e.g. '12', '1-24', '1,2,4,8' (default: the preset's)")
    c.add_argument("--pattern", default="randread",
                   help="fio rw= pattern: read, write, randread, randwrite, randrw, rw (default: %(default)s)")
    c.add_argument("--bs", default="4K", help="block size, e.g. 4K, 128K, 1M (K = 1024 bytes; default: %(default)s)")
    c.add_argument("--read-fraction", type=float, help="read share 0..1 for randrw/rw")
    c.add_argument("--iodepth", type=int, default=32, help="queue depth per job (default: %(default)s)")
    c.add_argument("--numjobs", type=int, default=1, help="jobs per drive (default: %(default)s)")
    c.add_argument("--io-stack", default="libaio", choices=[s.value for s in IoStack],
                   help="host I/O stack, sets CPU cycles per I/O (default: %(default)s)")
    c.add_argument("--mps", type=int, help="PCIe Max Payload Size in bytes (default: the preset's, 256)")
    c.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="override any model parameter by its name, SI units, e.g. --set host.cycles_per_io=4000 "
                        "--set switch.efficiency=0.9 (repeatable; 'nvmemodel parameters' lists the names)")
    c.add_argument("--json", action="store_true", help=f"machine-readable output (schema {JSON_SCHEMA_ID})")
    c.add_argument("--explain", action="store_true", help="add a plain-language account of the limits")

    c.set_defaults(run=_ceilings)


def _ceilings(args) -> int:
    import dataclasses

    from ..ceiling.evaluate import evaluate
    from ..topology.drive import get_drive
    from ..topology.presets import preset
    from ..topology.workload import Workload

    topo = preset(args.preset)
    if args.drive:
        topo = topo.replace(drive=get_drive(args.drive))
    if args.mps:
        topo = topo.replace(pcie=dataclasses.replace(topo.pcie, mps=args.mps))
    wl = Workload(args.pattern, args.bs, args.read_fraction, args.iodepth, args.numjobs, args.io_stack)
    overrides = {}
    for item in args.set:
        name, sep, value = item.partition("=")
        try:
            overrides[name.strip()] = float(value)
        except ValueError:
            raise ParameterError("--set", item, "NAME=NUMBER, e.g. host.cycles_per_io=4000") from None
        if not sep:
            raise ParameterError("--set", item, "NAME=NUMBER, e.g. host.cycles_per_io=4000")
    curve = evaluate(topo, wl, drives=_parse_drives(args.drives) if args.drives else None, overrides=overrides)

    if args.json:
        points = []
        for n in curve.drives:
            cs = curve.ceilings_at(int(n))
            points.append({
                "drives": int(n), "iops": float(curve.iops_at(int(n))),
                "bytes_per_s": float(curve.bandwidth_at(int(n))), "binding": curve.binding_at(int(n)),
                "ceilings": {c.component: {"iops": _num(c.iops), "bytes_per_s": _num(c.bytes_per_s),
                                           "headroom": _num(c.headroom)} for c in cs},
            })
        doc = {"schema": JSON_SCHEMA_ID, "topology": topo.name, "description": topo.describe(),
               "workload": {"pattern": wl.pattern, "block_size_bytes": wl.block_size,
                            "read_fraction": wl.read_fraction, "iodepth": wl.iodepth, "numjobs": wl.numjobs,
                            "io_stack": wl.io_stack.value},
               "points": points}
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0

    print(topo.describe())
    print(f"workload: {wl.describe()}\n")
    print(f"{'drives':>6} {'IOPS':>14} {'GB/s':>9} {'GiB/s':>9}  binding")
    for n in curve.drives:
        x = curve.bandwidth_at(int(n))
        print(f"{int(n):>6} {curve.iops_at(int(n)):>14,.0f} {x / 1e9:>9.3f} {x / 2**30:>9.3f}  {curve.binding_at(int(n))}")
    last = int(curve.drives[-1])
    print(f"\nEvery component at {last} drive(s) (alone, IOPS / GB/s / headroom):")
    for ceil in curve.ceilings_at(last):
        print("  " + repr(ceil))
    if args.explain:
        print("\n" + curve.explain() + "\n\n" + curve.explain(last))
    return 0
