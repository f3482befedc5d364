"""Listings: ``nvmemodel parameters``, ``presets``, ``drives``."""

from __future__ import annotations


def register(sub) -> None:
    pp = sub.add_parser("parameters", help="list a preset's model parameters (names for --set and fits), SI units")
    pp.add_argument("--preset", default="dell-r7525", help="preset (default: %(default)s)")

    pp.set_defaults(run=_parameters)
    sub.add_parser("presets", help="list the preset systems and what they are built from").set_defaults(
        run=lambda args: _presets())
    sub.add_parser("drives", help="list the drive catalog with sources").set_defaults(run=lambda args: _drives())


def _parameters(args) -> int:
    from ..topology.presets import preset
    from ..topology.workload import Workload

    for name, value in preset(args.preset).parameters(Workload()).items():
        print(f"{name:<32} {value:g}")
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
