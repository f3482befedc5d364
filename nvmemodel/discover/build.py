"""Discovered PCIe tree → the closest :class:`~nvmemodel.Topology`, plus what a planner must know.

The model takes identical drives, spread over identical switches or one root port each, on a host
tree of sockets × root complexes (docs/physics.md §12.1). Where the machine is richer (mixed drive
models, drives both direct and behind switches, nested switches) the topology takes the most common
case and a :class:`Flag` says what was simplified; the spread over root complexes becomes the
``tree.*`` parameters; the whole tree stays in :attr:`Discovery.tree`.

Links are modelled as *negotiated* (LnkSta): a drive trained at x2 is an x2 drive to the model,
and a flag says what its capability would give.
"""

from __future__ import annotations

import collections
import dataclasses
import math
import re
from typing import TYPE_CHECKING

from ..standards.pcie import LINK_WIDTHS, raw_bytes_per_s
from .flags import Flag
from .tree import PciDevice, PciTree

if TYPE_CHECKING:  # for annotations only: the topology loads when a tree is modelled
    from ..topology import Drive, Host, Topology
    from ..topology.mixed import MixedTopology

__all__ = ["Discovery", "DriveMatch", "Flag", "GpuFound", "build_topology", "identify_drive", "match_drive"]



@dataclasses.dataclass(frozen=True)
class GpuFound:
    """A GPU on the discovered tree and where it sits, as the model places GPUs (``gpu.attach``, docs/physics.md
    §12.10).

    ``attach``: ``"switch"`` (behind the same PCIe switch as drives: peer-to-peer inside it), ``"root_port"`` (on a
    root port of its own), ``"own_switch"`` (behind a switch that holds no drive: modelled as on a root port, that
    switch's uplink not charged) or ``"root_bus"`` (no port above it: integrated graphics, not modelled). ``gen`` and
    ``lanes`` are what the GPU and its port can both run (LnkCap): a GPU trains its link down when idle, so the link it
    reports at rest (``trained``, LnkSta) is not the one it runs under load; None where not reported."""

    bdf: str
    vendor: str
    name: str
    attach: str
    root_port: str | None
    switch: str | None
    gen: int | None
    lanes: int | None
    trained: str
    numa_node: int | None
    #: the link reported (LnkSta) is slower than both ends can run: a GPU at rest (power saving), or a link fault
    below_capability: bool = False

    def describe(self) -> str:
        where = {"switch": f"behind switch {self.switch} with drives",
                 "own_switch": f"behind switch {self.switch} (no drive on it)",
                 "root_port": f"on root port {self.root_port}",
                 "root_bus": "on a root bus (integrated; not modelled)"}[self.attach]
        link = f"Gen{self.gen} x{self.lanes}" if self.gen and self.lanes else "link unknown"
        rest = f", reported {self.trained} when read" if self.below_capability else ""
        numa = f", NUMA {self.numa_node}" if self.numa_node is not None else ""
        return f"{self.bdf} {self.name} ({self.vendor}; {link}{rest}) {where}{numa}"


@dataclasses.dataclass(frozen=True)
class Discovery:
    """A discovered machine: the whole tree, the single-level topology built from it, and the flags.

    :attr:`topology` holds identical drives on identical links (the most common model and link); where the
    drives differ, :attr:`mixed` models each model × negotiated link as its own group, and the flag
    ``tree_not_uniform`` says that :attr:`topology` is not the tree read.
    """

    tree: PciTree
    topology: Topology | None  # None when no NVMe drive was found
    flags: tuple[Flag, ...]
    #: nvmemodel.MixedTopology of the drives as found (each model and negotiated link its own group) where they
    #: differ; None where :attr:`topology` is the tree (identical drives and links)
    mixed: MixedTopology | None = None
    #: the GPUs found and where they sit (:class:`GpuFound`); not put on the data path by themselves: see
    #: :meth:`gpu_settings`
    gpus: tuple[GpuFound, ...] = ()

    def flag(self, code: str) -> Flag | None:
        return next((f for f in self.flags if f.code == code), None)

    def _gpus_on_switches(self, placed) -> bool:
        """Every GPU behind the drives' switches and every drive modelled behind them (the drives as found,
        :attr:`mixed`, may hold groups on root ports, whose data would cross a switch's uplink to reach the GPUs: not
        modelled, so such a machine's GPUs are taken as on root ports)."""
        if not all(g.attach == "switch" for g in placed):
            return False
        groups = self.mixed.groups if self.mixed is not None else ()
        return all(g.switch is not None or g.switch_with is not None for g in groups)

    def gpu_settings(self) -> dict[str, float | str]:
        """The ``gpu.*`` parameters that send the data to the GPUs found (GPUDirect Storage, docs/physics.md §12.10),
        as overrides for :func:`~nvmemodel.evaluate` (``nvmemodel discover --set gpu.count=…``): their count, their
        most common generation and width, and ``gpu.attach`` — ``switch`` where every GPU sits behind the drives'
        switches, else ``root_port``. {} where none is modelled (none found, or integrated only). A discovery does
        not apply them itself: that the machine has GPUs does not say that the data go to them."""
        placed = [g for g in self.gpus if g.attach != "root_bus"]
        if not placed:
            return {}
        out: dict[str, float | str] = {"gpu.count": float(len(placed)),
                                       "gpu.attach": "switch" if self._gpus_on_switches(placed) else "root_port"}
        gen, lanes = _mode(g.gen for g in placed), _mode(g.lanes for g in placed)
        if gen:
            out["gpu.gen"] = float(gen)
        if lanes:
            out["gpu.lanes"] = float(_width(lanes, 16))
        return out


@dataclasses.dataclass(frozen=True)
class DriveMatch:
    """What the drive catalog makes of one NVMe controller.

    ``drive`` is the catalog entry (None: unknown or ambiguous); ``key`` its catalog key; ``how`` says what
    identified it (``"name"``, ``"subsystem id"``, ``"device id"``, ``"family"``);
    ``candidates`` lists the catalog keys an ambiguous controller could be; ``note`` what the match assumes.
    """

    drive: Drive | None
    key: str = ""
    how: str = ""
    candidates: tuple[str, ...] = ()
    note: str = ""


def _family_hits(family: str, text: str, pci_id: str | None) -> bool:
    for alt in filter(None, (family or "").split("|")):
        if alt.startswith("id:"):
            if pci_id and alt[3:].lower() == pci_id:
                return True
        elif re.search(alt, text, re.IGNORECASE):
            return True
    return False


def identify_drive(device: PciDevice) -> DriveMatch:
    """The catalog drive an NVMe controller is, from what the reader saw of it.

    In order: a catalog row whose ``match`` expression finds the device text, subsystem or NVMe model
    (one row: that drive; several: ambiguous); else the exact ``vendor:device/subsystem`` id; else the
    ``vendor:device`` id alone if one row claims it; else the rows of the controller or product family
    (``family``: one row → that drive, several → ambiguous). A Samsung PM173X with an x8 link is the HHHL card.
    """
    from ..topology.drive import drive_catalog

    catalog = drive_catalog()
    text = " ".join(filter(None, (device.name, device.subsystem, device.model)))
    dev = (device.pci_id or "").lower() or None
    full = f"{dev}/{device.subsystem_id.lower()}" if dev and device.subsystem_id else None

    def one(keys, how):
        keys = list(dict.fromkeys(keys))
        if len(keys) == 1:
            key = keys[0]
            if key == "samsung-pm1733-u2" and device.cap_width == 8:
                key = "samsung-pm1733-hhhl"
            return DriveMatch(catalog[key], key, how, note=catalog[key].match_note)
        return DriveMatch(None, how=how, candidates=tuple(keys)) if keys else None

    family = [k for k, d in catalog.items() if _family_hits(d.family, text, dev)]
    for keys, how in (([k for k, d in catalog.items() if d.match and re.search(d.match, text, re.IGNORECASE)], "name"),
                      ([k for k, d in catalog.items() if full and full in d.pci_ids], "subsystem id"),
                      ([k for k, d in catalog.items() if dev and dev in d.pci_ids], "device id"),
                      (family, "family")):
        if len(keys) > 1:  # ambiguous: every row its name or family fits ("SM981/PM981/PM983", "970 EVO/PRO")
            keys = keys + family
        found = one(keys, how)
        if found is not None:
            return found
    return DriveMatch(None)


def match_drive(text: str, lanes: int | None = None) -> Drive | None:
    """The catalog drive a model name refers to, or None (unknown or ambiguous). A PM173X with an x8 link
    is the HHHL card.

    >>> match_drive('Intel Corporation PCIe Data Center SSD (Intel Corporation DC P3700 SSD [2.5" SFF])').name
    'Intel DC P3700 800GB'
    >>> match_drive("Samsung Electronics Co Ltd NVMe SSD Controller SM981/PM981/PM983") is None  # PM981 or PM983
    True
    """
    return identify_drive(PciDevice(bdf="", name=text or "", cap_width=lanes)).drive


def _bw(gts: float | None, width: int | None) -> float:
    from .tree import gen_of_speed

    gen = gen_of_speed(gts)
    return float(raw_bytes_per_s(gen, width)) if gen and width else float("nan")


def _link(gts: float | None, width: int | None) -> str:
    return PciDevice(bdf="", sta_gts=gts, sta_width=width, cap_gts=gts, cap_width=width).link_text()


def _mode(values):
    values = [v for v in values if v is not None]
    return collections.Counter(values).most_common(1)[0][0] if values else None


def _width(w: int | None, default: int = 4) -> int:
    """A width the parameter table accepts (x1..x16), rounding an odd one (x12, x32) down."""
    w = w or default
    return max(x for x in LINK_WIDTHS if x <= w) if w >= 1 else default


def _link_flags(tree: PciTree, drives: list[PciDevice]) -> list[Flag]:
    flags = []
    for d in drives:
        if d.sta_gts is None or d.cap_gts is None:
            continue
        port = d.parent and tree.devices.get(d.parent)
        port_gts = port.cap_gts if port and port.cap_gts else d.cap_gts
        port_w = port.cap_width if port and port.cap_width else d.cap_width
        best_gts, best_w = min(d.cap_gts, port_gts), min(d.cap_width or 0, port_w or 0) or d.cap_width
        if (d.sta_width or 0) < (best_w or 0) or d.sta_gts < best_gts:
            lost = 1 - _bw(d.sta_gts, d.sta_width) / _bw(best_gts, best_w)
            flags.append(Flag("link_below_capability", "warn",
                              f"{d.bdf} ({d.label}) trained {d.link_text()}; both ends support "
                              f"{_link(best_gts, best_w)}: "
                              f"{lost:.0%} of its link bandwidth lost (reseat, check the riser/cable, BIOS "
                              "bifurcation and link-speed settings)", (d.bdf,)))
        elif d.cap_gts > port_gts or (d.cap_width or 0) > (port_w or 0):
            flags.append(Flag("slot_limits_drive", "warn",
                              f"{d.bdf} ({d.label}) can do {_link(d.cap_gts, d.cap_width)} but its port offers only "
                              f"{_link(port_gts, port_w)}",
                              (d.bdf,)))
    return flags


def _switch_flags(tree: PciTree, by_switch: dict[str, list[PciDevice]]) -> list[Flag]:
    flags = []
    for up_bdf, ds in by_switch.items():
        up = tree[up_bdf]
        port = tree.devices.get(up.parent) if up.parent else None
        if up.sta_gts and up.cap_gts and up.sta_width and up.cap_width:
            best_gts = min(up.cap_gts, port.cap_gts) if port is not None and port.cap_gts else up.cap_gts
            best_w = min(up.cap_width, port.cap_width) if port is not None and port.cap_width else up.cap_width
            if up.sta_gts < best_gts or up.sta_width < best_w:
                lost = 1 - _bw(up.sta_gts, up.sta_width) / _bw(best_gts, best_w)
                flags.append(Flag("uplink_below_capability", "warn",
                                  f"switch {up_bdf} ({up.label}) uplink trained {up.link_text()}; it and its port "
                                  f"support {_link(best_gts, best_w)}: {lost:.0%} of the bandwidth all "
                                  f"{len(ds)} drive(s) behind it share is lost (riser, cable, bifurcation, BIOS "
                                  "link settings)", (up_bdf,)))
        uplink = _bw(up.sta_gts or up.cap_gts, up.sta_width or up.cap_width)
        down = sum(_bw(d.sta_gts or d.cap_gts, d.sta_width or d.cap_width) for d in ds)
        if math.isfinite(uplink) and math.isfinite(down) and down > uplink * (1 + 1e-9):
            flags.append(Flag("uplink_oversubscribed", "warn",
                              f"{len(ds)} drives behind switch {up_bdf} ({up.label}) negotiate "
                              f"{down / 1e9:.1f} GB/s of links but share a {up.link_text()} uplink of "
                              f"{uplink / 1e9:.1f} GB/s ({down / uplink:.2f}x oversubscribed; raw rates after "
                              "line encoding)", tuple(d.bdf for d in ds)))
    return flags


_NEVER_LIMITS = ("its own limits (bandwidth, IOPS, latency) are not applied: the ceilings assume the drive never "
                 "limits. Pick a catalog entry with --drive KEY (`nvmemodel drives`; Python: build_topology(tree, "
                 "drive=KEY)) or give its limits with --set drive.rand_read_iops=…")


def _drive_of(drives: list[PciDevice], same: list[PciDevice], label: str,
              given: str | Drive | None) -> tuple[Drive | None, list[Flag]]:
    """The modelled drive (catalog entry, or None = unknown) and one flag per controller not identified.

    Every controller is matched or flagged: ``drive_assumed`` (matched, with what the match assumes),
    ``drive_ambiguous`` (its ids and names fit several catalog rows), ``unknown_drive`` (none).
    """
    from ..topology.drive import Drive, get_drive

    flags: list[Flag] = []
    if given is not None:
        drive = given if isinstance(given, Drive) else get_drive(given)
        flags.append(Flag("drive_given", "info", f"drive model given: {drive.name} (not identified from the tree: "
                                                 f"{len(drives)} controller(s) read as {label!r})",
                          tuple(d.bdf for d in drives)))
        return drive, flags
    matches = {d.bdf: identify_drive(d) for d in drives}
    by_outcome: dict[tuple, list[str]] = collections.defaultdict(list)
    for d in drives:
        m = matches[d.bdf]
        by_outcome[(d.label, m.key, m.how, m.candidates, m.note)].append(d.bdf)
    for (lab, key, how, candidates, note), bdfs in by_outcome.items():
        n = f"{len(bdfs)} x {lab!r}"
        if key:
            if note or how == "family":
                flags.append(Flag("drive_assumed", "info", f"{n} read as catalog drive {key} (by {how})"
                                  + (f"; {note}" if note else "") + "; another model: --drive KEY", tuple(bdfs)))
        elif candidates:
            flags.append(Flag("drive_ambiguous", "warn",
                              f"{n} could be any of {', '.join(candidates)} (its {how if how == 'family' else how + ' or family'} "
                              "fits each); " + _NEVER_LIMITS,
                              tuple(bdfs)))
        else:
            flags.append(Flag("unknown_drive", "warn", f"{n} is not in the drive catalog; " + _NEVER_LIMITS,
                              tuple(bdfs)))
    return matches[same[0].bdf].drive, flags


def _catalog_switch(found, ups: list[PciDevice]) -> tuple:
    """The discovered switch, named and calibrated as its catalog adapter where the ports' text names one.

    Links stay as discovered. The catalog's processing values (efficiency, per-command cost) come along
    only where the discovered links are the catalog's: a calibration holds for the links it was measured
    on (:meth:`~nvmemodel.topology.Switch.with_changes` drops it otherwise, and the flag says so).
    """
    from ..topology.switch import LINK_FIELDS, get_switch, identify_switch

    keys = {identify_switch(u.label) for u in ups}
    key = keys.pop() if len(keys) == 1 else None
    if key is None:  # none, or several: the switches stay as discovered
        return found, []
    cat = get_switch(key)
    links = {f: getattr(found, f) for f in LINK_FIELDS} | {"ports": found.ports}
    same = all(int(getattr(cat, f)) == int(v) for f, v in links.items())
    sw = cat.with_changes(**links)
    prov = {**sw.provenance, "up": found.provenance["up"], "ports": found.provenance["ports"]}
    for f in (*LINK_FIELDS, "ports"):
        prov.pop(f, None)  # the discovered links, not a user override
    sw = sw.replace(provenance=prov)
    calibrated = cat.calibrated_fields()
    what = (f"its calibrated {', '.join(calibrated)} applied (measured on the same links)" if same and calibrated
            else "its calibration does not apply: discovered links differ from the catalog's" if calibrated
            else "spec only: no measured processing cap")
    return sw, [Flag("switch_identified", "info", f"switch {ups[0].bdf} ({ups[0].label}) is catalog adapter {key}; "
                                                  + what, tuple(u.bdf for u in ups))]


def _mps_cost(drive, host, pcie) -> float:
    """Relative loss of one drive's PCIe link ceiling (128 KiB reads) at MPS 128 against MPS 256."""
    from ..ceiling.evaluate import evaluate
    from ..topology import Topology, Workload

    topo = Topology(name="mps check", host=host, drive=drive, pcie=pcie)
    at = {m: evaluate(topo, Workload("read", "128K"), drives=[1], overrides={"pcie.mps": m}).ceilings["pcie_link"][0]
          for m in (128, 256)}
    return 1 - at[128] / at[256]


def _host_tree(per_complex: collections.Counter, sockets: int, numa: dict, source: str, flags: list,
               platform=None) -> tuple:
    """``tree.*`` parameters (docs/physics.md §12.1) for the drives' spread over root complexes.

    Complexes = root buses carrying drives; per socket = their number over the sockets, rounded up.
    Balanced counts (max - min ≤ 1) are round-robin placement; otherwise fill-first with the fullest
    complex's count as its slots, which reproduces the measured spread at the full drive count.
    """
    if len(per_complex) <= 1:
        return {}, {}
    counts = sorted(per_complex.values(), reverse=True)
    per_socket = -(-len(per_complex) // max(1, sockets))
    balanced = counts[0] - counts[-1] <= 1
    extras = {"tree.complexes_per_socket": float(per_socket),
              "tree.placement": "round_robin" if balanced else "fill_first"}
    how = f"measured: discovered, drives per root complex {counts} in {source}"
    sources = {"tree.complexes_per_socket": f"measured: discovered, {len(per_complex)} root complexes carry "
                                            f"drives over {sockets} socket(s) in {source}",
               "tree.placement": how}
    if not balanced:
        extras["tree.slots_per_complex"] = float(counts[0])
        sources["tree.slots_per_complex"] = how
    where = ", ".join(f"{dom}:{bus:02x}: {k}" for (dom, bus), k in sorted(per_complex.items()))
    flags.append(Flag("several_root_complexes", "info",
                      f"drives hang off {len(per_complex)} root complexes (root bus: drives — {where}; NUMA nodes "
                      f"{sorted(numa) or 'unknown'}); modelled as a host tree of {sockets} socket(s) x {per_socket} "
                      f"complex(es), {extras['tree.placement']} placement. "
                      + ("A complex's own bandwidth and the inter-socket link are not in the PCI tree: the identified "
                         "platform's are used (platform_* above); set tree.complex_bytes_per_s and "
                         "tree.inter_socket_bytes_per_s where yours are measured"
                         if "tree.complex_bytes_per_s" in (platform or {}) else
                         "A complex's own bandwidth and the inter-socket link are not discovered: set "
                         "tree.complex_bytes_per_s and tree.inter_socket_bytes_per_s")
                      + " (and tree.remote_fraction for jobs not pinned to their drive's node)"))
    return extras, sources


def _truncation_flags(tree: PciTree) -> list[Flag]:
    """Devices whose bridge above is missing from the text: the dump was cut or edited.

    A PCI Express endpoint or switch port never sits on a root bus (PCIe Base Specification: root buses
    hold root ports, root-complex integrated endpoints and host bridges). Such a device without a parent
    lost its root port (and maybe switches) from the text, and its bus counts as a root complex of its
    own. Only devices whose port type was read count: without it (``lspci -tv``, config space not
    readable) an NVMe controller on a root bus may be a root-complex integrated one.
    """
    orphans = [d for d in tree if d.parent is None and
               d.port_type in ("endpoint", "legacy_endpoint", "upstream", "downstream")]
    flags = []
    if orphans:
        where = sorted({f"{d.domain}:{d.bus:02x}" for d in orphans})
        flags.append(Flag("truncated_tree", "warn",
                          f"{len(orphans)} device(s) ({', '.join(sorted({d.port_type or 'NVMe' for d in orphans}))}) "
                          f"sit on bus(es) {', '.join(where)} with no bridge above them in {tree.source}: a PCIe "
                          "endpoint or switch port hangs below a root port, so the text misses lines (a truncated "
                          "or filtered dump?). Their root ports, switches and links are unknown, and each such bus "
                          "is counted as a root complex of its own; save the whole `lspci -vvv` (or `-tv`) output",
                          tuple(d.bdf for d in orphans)))
    if tree.cut:
        names = ", ".join(f"{b} ({tree.devices[b].label})" if b in tree.devices else b for b in tree.cut[:3])
        flags.append(Flag("truncated_block", "warn",
                          f"the text of {len(tree.cut)} device(s) ends inside its block in {tree.source}: {names}"
                          f"{' …' if len(tree.cut) > 3 else ''} — its link capability (LnkCap) is there but not the "
                          "negotiated link (LnkSta) that lspci prints after it, so the block is incomplete (a cut "
                          "dump?). It is modelled at the link it can do (LnkCap), an upper bound: the link it "
                          "trained may be slower; save the whole `lspci -vvv` output", tuple(tree.cut)))
    return flags


def _as_found(tree: PciTree, drives: list[PciDevice], given: str | Drive | None, host, switch, switch_count: int, switched: set,
              uniform, **shared) -> tuple:
    """The drives as found, where they differ: one :class:`~nvmemodel.DriveGroup` per drive model × negotiated
    link × attach, under the discovered host (None and no flag where every drive is the same).

    A drive trained below its capability is modelled at the link it trained (a Gen1 x1 drive is a Gen1 x1
    drive), each controller with its own catalog entry (or none: unidentified, it never limits).
    """
    from ..errors import ParameterError
    from ..topology.drive import Drive, get_drive
    from ..topology.mixed import DriveGroup, MixedTopology
    from .tree import gen_of_speed

    given = given if given is None or isinstance(given, Drive) else get_drive(given)
    keyed: dict[tuple, list[PciDevice]] = collections.defaultdict(list)
    models = {}
    for d in drives:
        match = None if given is not None else identify_drive(d)
        model = given if match is None else match.drive
        gts, width = d.sta_gts or d.cap_gts, d.sta_width or d.cap_width
        if gts is None or width is None:  # not reported: the catalog drive's own interface (or the one every
            # candidate of an ambiguous match shares), else the assumed one
            links = {(int(c.gen), c.lanes) for c in ([model] if model is not None else
                                                     [get_drive(k) for k in (match.candidates if match else ())])}
            gen, lanes = links.pop() if len(links) == 1 else (int(uniform.gen), uniform.lanes)
        else:
            gen, lanes = gen_of_speed(gts) or int(uniform.gen), _width(width)
        port = None
        if d.bdf not in switched and (r := tree.root_port_of(d.bdf)) is not None and (r.sta_width or r.cap_width):
            port = _width(r.sta_width or r.cap_width)
        key = (model.name if model is not None else d.label, gen, lanes, d.bdf in switched, port, gts is None)
        keyed[key].append(d)
        models[key] = model
    if len(keyed) <= 1:
        return None, []
    groups: list[DriveGroup] = []
    first_switched = None
    for key, ds in sorted(keyed.items(), key=lambda kv: -len(kv[1])):
        name, gen, lanes, behind, port, assumed = key
        model = models[key]
        how = ("assumption: link not reported, the catalog's interface" if assumed else
               f"measured: discovered, negotiated link (LnkSta) of {', '.join(d.bdf for d in ds)} in {tree.source}")
        if model is None:
            drive = Drive(name=f"{name} (not identified: its limits are not applied)", gen=gen, lanes=lanes,
                          source=f"discovered from {tree.source}", status="inferred")
        else:
            drive = model.replace(gen=gen, lanes=lanes, provenance={**model.provenance, "gen": how, "lanes": how})
        label = (f"{len(ds)} x {drive.name.split(' (')[0]} at Gen{gen} x{lanes}" + (" (link assumed)" if assumed else "")
                 + (" behind a switch" if behind else ""))
        while label in [g.name for g in groups]:
            label += "'"
        if behind and first_switched is None:
            first_switched = label
            groups.append(DriveGroup(drive, len(ds), switch=switch, switch_count=switch_count, name=label))
        elif behind:
            groups.append(DriveGroup(drive, len(ds), switch_with=first_switched, name=label))
        else:
            groups.append(DriveGroup(drive, len(ds), lanes=port, name=label))
    found = "; ".join(f"{g.name} ({', '.join(d.bdf for d in ds)})" for g, ds in
                      zip(groups, sorted(keyed.values(), key=lambda v: -len(v)), strict=True))
    single = (f"the single-model topology (Discovery.topology) takes {len(drives)} x {uniform.name} at "
              f"Gen{int(uniform.gen)} x{uniform.lanes}, which is NOT this tree")
    try:
        mixed = MixedTopology(host=host, groups=tuple(groups), **shared)
    except ParameterError as e:
        return None, [Flag("tree_not_uniform", "warn", f"the drives differ in model or negotiated link: {found}; "
                           f"{single}, and the groups as found could not be modelled ({e})",
                           tuple(d.bdf for d in drives))]
    return mixed, [Flag("tree_not_uniform", "warn", f"the drives differ in model or negotiated link: {found}; "
                        f"{single}. The ceilings of the drives as found are modelled one group per model and link "
                        "(Discovery.mixed): each drive's own limits and trained link bound its share",
                        tuple(d.bdf for d in drives))]


def _gpus(tree: PciTree, drive_switches: set[str], mixed=None) -> tuple[tuple[GpuFound, ...], list[Flag]]:
    """The GPUs of ``tree`` placed as the model places them (:class:`GpuFound`), and the flag that reports them."""
    from .tree import gen_of_speed

    found = []
    for g in tree.gpus():
        port = tree.root_port_of(g.bdf)
        pairs = tree.switch_ports_of(g.bdf)
        top = pairs[0][0].bdf if pairs else None
        attach = "root_bus" if port is None else ("switch" if top in drive_switches else "own_switch") if top \
            else "root_port"
        above = tree.devices.get(g.parent) if g.parent else None  # the port the GPU's link trains with
        gts = min(x for x in (g.cap_gts, above.cap_gts if above else None) if x) if g.cap_gts else None
        width = min(x for x in (g.cap_width, above.cap_width if above else None) if x) if g.cap_width else None
        rest = bool(g.sta_gts and gts and g.sta_gts < gts) or bool(g.sta_width and width and g.sta_width < width)
        found.append(GpuFound(g.bdf, g.gpu_vendor or "", g.label, attach, port.bdf if port is not None else None, top,
                              gen_of_speed(gts), width, g.link_text(), g.numa_node, rest))
    if not found:
        return (), []
    placed = [g for g in found if g.attach != "root_bus"]
    text = (f"{len(found)} GPU(s): " + "; ".join(g.describe() for g in found) + ". The ceilings send the data to host "
            "memory")
    if placed:
        probe = Discovery(tree, None, (), mixed, tuple(found))
        settings = " ".join(f"--set {k}={v:g}" if isinstance(v, float) else f"--set {k}={v}"
                            for k, v in probe.gpu_settings().items())
        text += (f"; to send them to the GPUs (GPUDirect Storage, peer-to-peer; docs/physics.md §12.10): {settings} "
                 "(Python: overrides=discovery.gpu_settings())")
        if any(g.attach == "switch" for g in placed) and probe.gpu_settings()["gpu.attach"] == "root_port":
            text += ("; a GPU behind the drives' switch is modelled as on a root port here — the GPUs sit elsewhere too, "
                     "or drives sit on root ports (one gpu.attach per topology) — so its switch's uplink is charged "
                     "for data that may turn inside the switch (a lower bound for those drives)")
        if any(g.attach == "own_switch" for g in placed):
            text += "; a GPU behind a switch with no drive is modelled as on a root port (that switch's uplink not charged)"
        if any(g.below_capability for g in placed):
            text += ("; a GPU reported a slower link than it and its port can run: a GPU at rest trains its link down "
                     "(power saving) and back up under load, so what both ends can run (LnkCap) is taken — if it stays "
                     "slow under load, reseat it or check the slot")
    return tuple(found), [Flag("gpus_found", "info", text, tuple(g.bdf for g in found))]


def build_topology(tree: PciTree, *, name: str | None = None, host: Host | None = None,
                   drive: str | Drive | None = None) -> Discovery:
    """The closest single-level topology of ``tree`` and the flags a planner must know.

    Parameters
    ----------
    tree : PciTree
        From :func:`~nvmemodel.discover.parse_lspci`, :func:`~nvmemodel.discover.read_sysfs` ….
    name : str, optional
        Topology name (default: ``discovered (<source>)``).
    host : Host, optional
        The CPU side (sockets, cores, clock), which PCI does not report. Default: the model's
        default host with as many sockets as NUMA nodes seen, flagged as assumed.
    drive : str or Drive, optional
        The drive model, where the catalog cannot tell it from the tree (a catalog key or name, see
        ``nvmemodel drives``, or a :class:`~nvmemodel.topology.Drive`). Default: identified per
        controller (:func:`identify_drive`); every controller is matched or flagged.
    """
    from ..topology import Host, Switch, Topology
    from ..topology.config import PcieConfig
    from ..topology.drive import Drive

    flags: list[Flag] = [Flag("reader_notes", "info", n) for n in tree.notes]
    flags += _truncation_flags(tree)
    drives = tree.nvme()
    if not drives:
        flags.append(Flag("no_nvme", "info", f"no NVMe controller among {len(tree)} PCI functions "
                                             f"({tree.source}): nothing to model"))
        gpus, gpu_flags = _gpus(tree, set())
        return Discovery(tree, None, tuple(flags + gpu_flags), gpus=gpus)
    n = len(drives)

    # drive model: the most common one
    labels = collections.Counter(d.label for d in drives)
    label, _count = labels.most_common(1)[0]
    if len(labels) > 1:
        flags.append(Flag("mixed_drive_models", "info",
                          "drive models differ (" + ", ".join(f"{c} x {m}" for m, c in labels.items()) +
                          f"); the single-model topology takes {n} x {label} (the groups as found: "
                          "tree_not_uniform)",
                          tuple(d.bdf for d in drives if d.label != label)))
    same = [d for d in drives if d.label == label]
    gts = _mode(d.sta_gts or d.cap_gts for d in same)
    width = _mode(d.sta_width or d.cap_width for d in same)
    cap_width = _mode(d.cap_width for d in same)
    from .tree import gen_of_speed

    del cap_width
    given_drive = drive
    drive, id_flags = _drive_of(drives, same, label, drive)
    flags += id_flags
    link_how = f"measured: discovered, negotiated link (LnkSta) in {tree.source}"
    if gts is None or width is None:
        # no link reported (old kernel, no root): the catalog drive's own interface, else Gen4 x4
        gen_guess = int(drive.gen) if drive is not None else 4
        lanes_guess = drive.lanes if drive is not None else 4
        flags.append(Flag("link_unknown", "info",
                          f"negotiated link not reported for {sum(d.sta_gts is None for d in drives)} drive(s) "
                          f"(no link files in sysfs, or lspci without root); the model assumes Gen{gen_guess} "
                          f"x{lanes_guess}" + (f" from the catalog (the interface of {drive.name})"
                                               if drive is not None else " (ASSUMPTION)")
                          + ("; where the drives differ, each drive as found takes its own catalog interface"
                             if len(labels) > 1 else ""),
                          tuple(d.bdf for d in drives if d.sta_gts is None)))
        gts = gts if gts is not None else {1: 2.5, 2: 5.0, 3: 8.0, 4: 16.0, 5: 32.0}.get(gen_guess)
        width = width or lanes_guess
        link_how = "assumption: link not reported" + (" (the catalog's interface)" if drive is not None else "")
    gen = gen_of_speed(gts) or 4
    if drive is None:
        drive = Drive(name=f"{label} (drive not identified: its limits are not applied, the ceilings assume it "
                           "never limits; --drive KEY)", gen=gen, lanes=_width(width),
                      source=f"discovered from {tree.source}", status="inferred")
    else:
        drive = drive.replace(gen=gen, lanes=_width(width),
                              provenance={**drive.provenance, "gen": link_how, "lanes": link_how})
    flags += _link_flags(tree, drives)

    # attach: switches (top-most switch on each path) or root ports
    by_switch: dict[str, list[PciDevice]] = collections.defaultdict(list)
    direct: list[PciDevice] = []
    for d in drives:
        pairs = tree.switch_ports_of(d.bdf)
        if len(pairs) > 1:
            flags.append(Flag("nested_switches", "info", f"{d.bdf} sits behind {len(pairs)} switches; the model "
                                                          "counts the top one only", (d.bdf,)))
        (by_switch[pairs[0][0].bdf] if pairs else direct).append(d)
    flags += _switch_flags(tree, by_switch)
    if by_switch and direct:
        flags.append(Flag("mixed_attach", "info",
                          f"{sum(map(len, by_switch.values()))} drive(s) behind switches and {len(direct)} on their "
                          f"own root ports; modelled as {'switched' if len(direct) < n / 2 else 'direct'} "
                          "(one attach kind per topology today)", tuple(d.bdf for d in direct)))

    # host: NUMA nodes and root complexes
    nodes = collections.Counter(d.numa_node for d in drives)
    known = {k: v for k, v in nodes.items() if k is not None}
    if len(known) > 1:
        flags.append(Flag("numa_split", "warn",
                          "drives sit on several NUMA nodes (" + ", ".join(f"node {k}: {v}" for k, v in sorted(
                              known.items())) + "): jobs on the other socket cross the inter-socket link; pin each "
                          "fio job to its drive's node (numa_cpu_nodes / numa_mem_policy)",
                          tuple(d.bdf for d in drives if d.numa_node != min(known))))
    if None in nodes:
        flags.append(Flag("numa_unknown", "info",
                          f"NUMA node unknown for {nodes[None]} drive(s) (not reported: lspci text saved without "
                          "'NUMA node' lines or from a dump, a single-node machine, or firmware without proximity "
                          "information)"))
    roots = {(r.domain, r.bdf) for d in drives if (r := tree.root_port_of(d.bdf)) is not None}
    # a host bridge (root complex) is a root bus: (domain, bus) of each root port, or of a drive on a root bus
    def complex_of(d: PciDevice) -> tuple[str, int]:
        r = tree.root_port_of(d.bdf)
        return (r.domain, r.bus) if r is not None else (d.domain, d.bus)

    per_complex = collections.Counter(complex_of(d) for d in drives)
    given = host is not None and host.name != "this machine"  # read_host's live CPU may still be refined
    if host is None:
        host = Host(name="discovered host (CPU assumed)", sockets=max(1, len(known)),
                    provenance={"cores_per_socket": "assumption: not discovered from PCI",
                                "clock_hz": "assumption: not discovered from PCI",
                                "lanes_per_socket": "assumption: lanes per socket not discovered (the model's default)"})
        flags.append(Flag("host_assumed", "info",
                          f"CPU cores and clock are not in the PCI tree: the model's defaults are used "
                          f"({host.sockets} socket(s) x {host.cores_per_socket} cores at {host.clock_hz / 1e9:g} GHz); "
                          "pass the real host for CPU ceilings"))
    from .platform import refine_host  # the CPU platform: live /proc/cpuinfo, or the PCI names (issue 18)

    host, found = refine_host(host, tree, given=given)
    flags.extend(found)
    root_ports = [tree.root_port_of(d.bdf) for d in drives]
    root_gts = _mode(r.cap_gts for r in root_ports if r is not None)
    port_w = _mode(r.sta_width or r.cap_width for r in [tree.root_port_of(d.bdf) for d in direct] if r is not None)
    host_gen = gen_of_speed(root_gts) or gen
    need = -(-n // host.sockets) * _width(port_w)
    host = host.replace(gen=host_gen, port_lanes=_width(port_w),
                        lanes_per_socket=max(host.lanes_per_socket, need),
                        provenance={**host.provenance,
                                    "gen": f"measured: discovered, root-port LnkCap in {tree.source}",
                                    "port_lanes": f"measured: discovered, root-port link width in {tree.source}"})

    switch, switch_count = None, 1
    if by_switch and len(direct) < n / 2:
        ups = [tree[u] for u in by_switch]
        # a GPU's downstream port counts as the drive ports its lanes would make (a x16 port: four x4 ports, as
        # Topology.gpu_ports_per_switch counts it with gpu.attach=switch); the drives' ports as found
        gpu_ports = {u.bdf: [p[0][1] for g in tree.gpus() if (p := tree.switch_ports_of(g.bdf)) and p[0][0].bdf == u.bdf]
                     for u in ups}
        ports = max(len([c for c in tree.children(u.bdf) if c.is_bridge and c not in gpu_ports[u.bdf]]) for u in ups)
        ports = max(ports, max(map(len, by_switch.values())), -(-n // len(ups)))
        dsp = [pairs[0][1] for d in drives if (pairs := tree.switch_ports_of(d.bdf))]
        drive_port_lanes = _width(_mode(p.cap_width for p in dsp))
        ports += max(sum(-(-(p.cap_width or drive_port_lanes) // drive_port_lanes) for p in gp)
                     for gp in gpu_ports.values())
        up_gen = gen_of_speed(_mode(u.sta_gts or u.cap_gts for u in ups)) or host_gen
        port_gen = gen_of_speed(_mode(p.cap_gts for p in dsp)) or gen
        switch = Switch(name=_mode(u.label for u in ups), up_gen=up_gen,
                        up_lanes=_width(_mode(u.sta_width or u.cap_width for u in ups), 16), ports=ports,
                        port_gen=port_gen, port_lanes=_width(_mode(p.cap_width for p in dsp)),
                        provenance={"up": f"measured: discovered, upstream-port link in {tree.source}",
                                    "ports": f"measured: discovered, downstream ports in {tree.source}",
                                    "efficiency": "assumption: 1.0 (no loss) until fitted",
                                    "per_command": "assumption: no per-command cap until fitted"})
        switch, sw_flag = _catalog_switch(switch, ups)
        flags += sw_flag
        switch_count = len(ups)
        free = host.sockets * host.lanes_per_socket
        if switch_count * switch.up_lanes > free:
            host = host.replace(lanes_per_socket=-(-switch_count * switch.up_lanes // host.sockets))

    mps = min((d.mps for d in drives if d.mps), default=None)
    mrrs = _mode(d.mrrs for d in drives)
    prov = {}
    if mps:
        prov["mps"] = f"measured: discovered, smallest MaxPayload (DevCtl) on the drive paths in {tree.source}"
    if mrrs:
        prov["mrrs"] = f"measured: discovered, most common MaxReadReq (DevCtl) of the drives in {tree.source}"
    pcie = PcieConfig(mps=mps or PcieConfig().mps, mrrs=mrrs or PcieConfig().mrrs, provenance=prov)
    if mps == 128:
        cost = _mps_cost(drive, host, pcie)
        flags.append(Flag("mps_128", "warn",
                          "MaxPayload is 128 bytes on the drive path: each TLP's header and framing weigh twice as "
                          f"much as at 256, so a drive's PCIe link ceiling for 128K reads drops by {cost:.1%} "
                          "(often set by the BIOS or by one old device on the path; pci=pcie_bus_perf lets Linux "
                          "raise it)",
                          tuple(d.bdf for d in drives if d.mps == 128)))
    elif mps is None:
        flags.append(Flag("mps_unknown", "info", f"MaxPayload not reported; the model assumes {pcie.mps} bytes"))

    extras, extras_sources = _host_tree(per_complex, host.sockets, known, tree.source, flags, host.platform)
    notes = (f"built by nvmemodel.discover from {tree.source}: {n} NVMe drive(s), {len(by_switch)} switch(es), "
             f"{len(roots)} root port(s) on the drive paths")
    topo = Topology(name=name or f"discovered ({tree.source})", host=host, drive=drive, switch=switch,
                    switch_count=switch_count, pcie=pcie, default_drives=tuple(range(1, n + 1)),
                    extras=extras, extras_sources=extras_sources, notes=notes)
    switched = {d.bdf for ds in by_switch.values() for d in ds} if switch is not None else set()
    mixed, found = _as_found(tree, drives, given_drive, host, switch, switch_count, switched, drive,
                             name=f"{topo.name} as found", pcie=pcie, extras=extras, extras_sources=extras_sources,
                             notes=notes)
    flags += found
    gpus, gpu_flags = _gpus(tree, set(by_switch) if switch is not None else set(), mixed)
    flags += gpu_flags
    return Discovery(tree, topo, tuple(flags), mixed, gpus)
