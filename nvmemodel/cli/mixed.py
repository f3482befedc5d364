"""``nvmemodel ceilings --group …``: several drive and switch models under the preset's host (docs/physics.md §12.7)."""

from __future__ import annotations

import json
import sys

from ..errors import ParameterError
from ._common import print_components

#: Keys of a ``--group`` specification and what each takes.
GROUP_KEYS = {"drive": "a drive catalog key ('nvmemodel drives')", "count": "drives in the group",
              "lanes": "root-port lanes per direct drive", "switch": "a switch catalog key",
              "switches": "number of switches", "socket": "socket index to pin the group to", "name": "a label",
              "share": "the name of an earlier group whose switches these drives share",
              "mirror": "the name of the other group: drive i of each is an md RAID-1/10 mirrored pair "
                        "(needs --set raid.level=raid10 or raid1)",
              "write_mostly": "yes: md --write-mostly on this group's mirror members (reads go to the other)"}

GROUP_HELP = ("a group of identical drives under the preset's host (repeatable; with it the preset's own drives "
              "are replaced by the groups): comma-separated KEY=VALUE with keys drive and count (required), "
              "lanes, switch, switches, socket, name, share (another group's name: its switches), e.g. --group drive=samsung-pm1733-u2,count=8 "
              "--group drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,switches=2")


def parse_group(text: str):
    """``"drive=samsung-pm1733-u2,count=8,lanes=4"`` → :class:`~nvmemodel.topology.mixed.DriveGroup`."""
    return _parse(text)[0]


def _parse(text: str):
    """``(DriveGroup, the group named by its mirror= key or None)``."""
    from ..topology.mixed import DriveGroup

    fields: dict[str, str] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key not in GROUP_KEYS or not value:
            raise ParameterError("--group", text, "comma-separated KEY=VALUE with keys "
                                 + ", ".join(GROUP_KEYS) + " (drive and count required)")
        if key in fields:  # the last value would silently win
            raise ParameterError("--group", text, f"each key once ({key} is given {fields[key]!r} and {value!r})")
        fields[key] = value
    missing = [k for k in ("drive", "count") if k not in fields]
    if missing:
        raise ParameterError("--group", text, "the keys " + " and ".join(missing)
                             + " as well (e.g. drive=samsung-pm1733-u2,count=8)")

    def integer(key):
        if key not in fields:
            return None
        try:
            return int(fields[key])
        except ValueError:
            raise ParameterError(f"--group {key}", fields[key], "an integer") from None

    wm = fields.get("write_mostly")
    if wm is not None and wm not in ("yes", "no"):
        raise ParameterError("--group write_mostly", wm, "yes or no")
    group = DriveGroup(fields["drive"], integer("count"), switch=fields.get("switch"),
                       switch_count=integer("switches") or 1, lanes=integer("lanes"), socket=integer("socket"),
                       name=fields.get("name", ""), switch_with=fields.get("share"), write_mostly=wm == "yes")
    return group, fields.get("mirror")


def mixed_from(topo, groups, *, order: str = "sequential", overrides: dict | None = None):
    """The ``--group`` texts under ``topo``'s host (its fabric, PCIe/NVMe settings and extras shared).

    A ``mirror=`` key makes the two groups one md mirror (``MixedTopology(mirror=True)``, added interleaved); the
    ``raid.*`` entries of ``overrides`` (``--set raid.level=raid10``) then move into the topology (taken out of
    ``overrides``)."""
    from ..topology.mixed import MixedTopology

    parsed = [_parse(g) for g in groups]
    extras = dict(topo.extras)
    mirror = any(m is not None for _, m in parsed)
    if mirror:
        names = [g.name or f"group {i}" for i, (g, _) in enumerate(parsed)]
        for i, (_, m) in enumerate(parsed):
            if m is not None and (len(parsed) != 2 or m != names[1 - i]):
                raise ParameterError("--group mirror", m, "the name of the other of two groups (" + ", ".join(names)
                                     + ")")
        order = "interleaved"
        if overrides is not None:
            extras.update({k: overrides.pop(k) for k in list(overrides) if k.startswith("raid.")})
    return MixedTopology(f"{topo.name} (mixed)", topo.host, tuple(g for g, _ in parsed), fabric=topo.fabric,
                         pcie=topo.pcie, nvme=topo.nvme, extras=extras, extras_sources=dict(topo.extras_sources),
                         order=order, notes=topo.notes, mirror=mirror)


def run(args, topo, workload, overrides, drives) -> int:
    """Evaluate the groups under ``topo``'s host and print the curve (or its JSON)."""
    from ..ceiling.mixed import evaluate_mixed

    if args.drive is not None:
        raise ParameterError("--drive", args.drive, "no --drive with --group (each group names its drive)")
    overrides = dict(overrides)
    mixed = mixed_from(topo, args.group, order=args.order, overrides=overrides)
    curve = evaluate_mixed(mixed, workload, drives=drives, overrides=overrides)
    if args.json:
        json.dump(curve.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(mixed.describe())
    print(f"workload: {curve.describe_workload()}")
    if overrides:
        from ..parameters import get

        print("overrides: " + ", ".join(f"{k}={get(k).format(v)}" for k, v in overrides.items()))
    names = curve.groups
    print(f"\n{'drives':>6} {'IOPS':>14} {'GB/s':>9} {'GiB/s':>9}  {'per group':<{9 * len(names)}}  binding")
    for i, n in enumerate(curve.drives):
        x = curve.bandwidth_at(int(n))
        per = " ".join(f"{int(k):>3}" for k in curve.group_drives[:, i])
        print(f"{int(n):>6} {curve.iops_at(int(n)):>14,.0f} {x / 1e9:>9.3f} {x / 2**30:>9.3f}  "
              f"{per:<{max(9 * len(names), len(per))}}  {curve.describe_binding_at(int(n))}")
    print("  (per group: drives of " + ", ".join(names) + ")")
    if curve.upper_bound_note:  # host layers or a group's drive rating not known (QA round 5, G7)
        print(f"  ({curve.upper_bound_note})")
    print_components(curve, explain=args.explain)
    return 0
