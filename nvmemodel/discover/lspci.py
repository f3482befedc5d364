"""Read saved ``lspci -vvv`` (also ``-vv``, ``-vvnn``, ``-D``) and ``lspci -tv`` text into a :class:`PciTree`.

The verbose form gives every device's class, name, Express port type, LnkCap/LnkSta, DevCtl
(MaxPayload, MaxReadReq), NUMA node and driver; the hierarchy follows from each bridge's
``Bus: primary=…, secondary=…, subordinate=…`` line. The tree form (``-tv``) gives the hierarchy
and names only; given both, the tree form supplies parents where the verbose text has no bus lines.
"""

from __future__ import annotations

import os
import pathlib
import re

from ..errors import NvmeModelError
from .tree import PciDevice, PciTree

__all__ = ["LspciError", "parse_lspci", "parse_lspci_tree", "read_lspci"]


class LspciError(NvmeModelError, ValueError):
    """A text is not lspci output of a kind this reader understands."""

    def __init__(self, source: object, problem: str) -> None:
        self.source, self.problem = str(source), problem
        super().__init__(f"{self.source}: {problem}")


_HEADER = re.compile(
    r"^(?P<bdf>(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+"
    r"(?P<cls>[^:\[]+?)(?:\s+\[(?P<code>[0-9a-fA-F]{4})\])?:\s*(?P<name>.*)$")
_PORT_TYPES = {"root port": "root_port", "upstream port": "upstream", "downstream port": "downstream",
               "endpoint": "endpoint", "legacy endpoint": "legacy_endpoint",
               "root complex integrated endpoint": "rc_endpoint", "pci-express to pci/pci-x bridge": "pcie_to_pci",
               "pci/pci-x to pci-express bridge": "pci_to_pcie", "root complex event collector": "rc_event"}
#: class text → code, for lspci without -nn (PCI Code and ID Assignment Specification names as lspci prints them)
_CLASS_CODES = {"non-volatile memory controller": 0x0108, "pci bridge": 0x0604, "host bridge": 0x0600,
               "vga compatible controller": 0x0300, "3d controller": 0x0302, "display controller": 0x0380}


def _speed(text: str | None) -> float | None:
    if not text:
        return None
    m = re.match(r"([\d.]+)\s*GT/s", text)
    return float(m.group(1)) if m else None


def _width(text: str | None) -> int | None:
    if not text:
        return None
    w = int(text)
    return w or None  # "Width x0": no link trained


def _name(raw: str) -> str:
    """Device text without lspci's trailing ``(rev 01)`` / ``(prog-if …)`` and ``[vvvv:dddd]`` ids."""
    raw = re.sub(r"\s*\(prog-if [0-9a-fA-F]{2}(?: \[.*\])?\)\s*$", "", raw.strip())  # "[IO(X)-APIC]" nests
    raw = re.sub(r"\s*\(rev [0-9a-fA-F]+\)\s*$", "", raw)
    return re.sub(r"\s*\[[0-9a-fA-F]{4}:[0-9a-fA-F]{4}\]$", "", raw).strip()


_ID = re.compile(r"\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\](?:\s*\(rev [0-9a-fA-F]+\))?(?:\s*\(prog-if [^)]*\]?\))?\s*$")


def _ids(raw: str | None) -> str | None:
    """The ``vvvv:dddd`` that ``lspci -nn`` prints after a name (``… [8086:0953] (rev 01)``), else None."""
    m = _ID.search((raw or "").strip())
    return f"{m.group(1)}:{m.group(2)}".lower() if m else None


def _full_bdf(bdf: str) -> str:
    bdf = bdf.lower()
    parts = bdf.split(":")
    return bdf if len(parts) == 3 else f"0000:{bdf}"


def _block(bdf: str, header: re.Match, body: str) -> tuple[PciDevice, int | None, str | None]:
    """One device; also its primary bus (bridges) and the lspci domain."""
    cls = header.group("cls").strip()
    code = int(header.group("code")[:4], 16) if header.group("code") else _CLASS_CODES.get(cls.lower())
    fields: dict = {"bdf": bdf, "class_code": code, "class_name": cls, "name": _name(header.group("name")),
                    "pci_id": _ids(header.group("name"))}
    m = re.search(r"Express \(v\d\) ([A-Za-z/ -]+?)(?: \(Slot[+-]\))?,", body)
    if m:
        fields["port_type"] = _PORT_TYPES.get(m.group(1).strip().lower(), m.group(1).strip().lower())
    primary = None
    m = re.search(r"Bus: primary=([0-9a-fA-F]+), secondary=([0-9a-fA-F]+), subordinate=([0-9a-fA-F]+)", body)
    if m:
        primary = int(m.group(1), 16)
        fields["secondary_bus"], fields["subordinate_bus"] = int(m.group(2), 16), int(m.group(3), 16)
    m = re.search(r"LnkCap:\s*Port #\d+, Speed ([\d.]+GT/s|unknown)[^,]*, Width x(\d+)", body)
    if m:
        fields["cap_gts"], fields["cap_width"] = _speed(m.group(1)), _width(m.group(2))
    m = re.search(r"LnkSta:\s*Speed ([\d.]+GT/s|unknown)[^,]*, Width x(\d+)", body)
    if m:
        fields["sta_gts"], fields["sta_width"] = _speed(m.group(1)), _width(m.group(2))
    m = re.search(r"DevCap:\s*MaxPayload (\d+) bytes", body)
    if m:
        fields["mps_cap"] = int(m.group(1))
    # DevCtl's MaxPayload is on a continuation line; the first one after "DevCtl:" is DevCtl's own
    m = re.search(r"DevCtl:.*?MaxPayload (\d+) bytes, MaxReadReq (\d+) bytes", body, re.DOTALL)
    if m:
        fields["mps"], fields["mrrs"] = int(m.group(1)), int(m.group(2))
    m = re.search(r"^\s*NUMA node:\s*(-?\d+)", body, re.MULTILINE)
    if m and int(m.group(1)) >= 0:
        fields["numa_node"] = int(m.group(1))
    # the first word of an indented line (lspci indents with a tab; texts pasted elsewhere with spaces): not
    # "Capabilities: [c0] Subsystem"
    m = re.search(r"^[ \t]+Subsystem:\s*(.+)$", body, re.MULTILINE)
    if m:
        fields["subsystem"] = _name(m.group(1))
        fields["subsystem_id"] = _ids(m.group(1))
    m = re.search(r"^\s*Kernel driver in use:\s*(\S+)", body, re.MULTILINE)
    if m:
        fields["driver"] = m.group(1)
    return PciDevice(**fields), primary, bdf.split(":")[0]


#: PCIe's transfer rates (GT/s, Gen1 … Gen6) and link widths (x0: no link trained): lspci prints no other
_RATES = (2.5, 5.0, 8.0, 16.0, 32.0, 64.0)
_WIDTHS = (1, 2, 4, 8, 12, 16, 32)


def _check_link(dev: PciDevice, source: str, line: int) -> None:
    """Refuse a link no PCIe device has (``Speed 99999999999GT/s``, ``Width x999…``): an edited or corrupt text,
    which would be modelled as a link that does not exist."""
    for what, value, allowed in (("LnkCap speed", dev.cap_gts, _RATES), ("LnkSta speed", dev.sta_gts, _RATES),
                                 ("LnkCap width", dev.cap_width, _WIDTHS), ("LnkSta width", dev.sta_width, _WIDTHS)):
        if value is not None and value not in allowed:
            shown = (lambda v: f"{v:g} GT/s") if "speed" in what else (lambda v: f"x{v}")
            raise LspciError(source, f"{dev.bdf} (its block at line {line}): {what} {shown(value)}: expected one of "
                                     f"PCIe's {', '.join(map(shown, allowed))} (an edited or corrupt text?)")


def parse_lspci(text: str, *, source: str = "lspci -vvv text") -> PciTree:
    """Devices of ``lspci -vvv`` text (``-vv``, ``-nn``, ``-D`` variants too), linked by bridge bus numbers.

    Raises
    ------
    LspciError
        If the text holds no device header line (``00:1f.2 SATA controller: …``).
    """
    blocks: list[tuple[re.Match, list[str]]] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if line and not line[0].isspace():
            m = _HEADER.match(line)
            if m:
                bdf = _full_bdf(m.group("bdf"))
                if bdf in first_line:  # two dumps joined: which description is the machine's?
                    raise LspciError(source, f"line {number}: {bdf} is described a second time (first at line "
                                             f"{first_line[bdf]}): the text holds two dumps (of one machine at two "
                                             "times, or of two machines); give one `lspci -vvv` output")
                first_line[bdf] = number
                blocks.append((m, []))
                continue
        if blocks:
            blocks[-1][1].append(line)
    if not blocks:
        raise LspciError(source, "no lspci device lines found (expected lines like "
                                 "'0000:41:00.0 Non-Volatile memory controller: …'; save `lspci -vvv` as root)")
    devices: dict[str, PciDevice] = {}
    cut = []
    for header, body in blocks:
        text_of = "\n".join(body)
        dev, _, _ = _block(_full_bdf(header.group("bdf")), header, text_of)
        _check_link(dev, source, first_line[dev.bdf])
        devices[dev.bdf] = dev
        # lspci prints LnkCap, LnkCtl and LnkSta together: a block with the first and not the last was cut there
        if re.search(r"^\s*LnkCap:", text_of, re.MULTILINE) and not re.search(r"^\s*LnkSta:", text_of, re.MULTILINE):
            cut.append(dev.bdf)
    denied = sum("Capabilities: <access denied>" in "\n".join(b) for _, b in blocks)
    notes = ((f"{denied} device(s) show 'Capabilities: <access denied>': lspci ran without root, so their "
             "link speed/width and MaxPayload are unknown (run `sudo lspci -vvv`)"),) if denied else ()
    return PciTree(_link_by_bus(devices), source=source, notes=notes, cut=tuple(cut))


def _link_by_bus(devices: dict[str, PciDevice]) -> dict[str, PciDevice]:
    """Set each device's parent to the bridge whose secondary bus is the device's bus (same domain)."""
    import dataclasses

    # a bridge whose secondary bus is not above its own bus is not configured (lspci draws it "-11.0--")
    by_secondary = {(d.domain, d.secondary_bus): d.bdf for d in devices.values()
                    if d.secondary_bus is not None and d.secondary_bus > d.bus}
    out = {}
    for bdf, d in devices.items():
        parent = by_secondary.get((d.domain, d.bus))
        out[bdf] = dataclasses.replace(d, parent=parent if parent != bdf else None)
    return out


_TREE_ITEM = re.compile(r"(?P<bracket>\[(?:(?P<dom>[0-9a-fA-F]{4,8}):)?(?P<bus>[0-9a-fA-F]{2})(?:-[0-9a-fA-F]{2})?\])"
                        r"|(?P<dev>(?<=-)[0-9a-fA-F]{2}\.[0-7])")


def parse_lspci_tree(text: str, *, source: str = "lspci -tv text") -> PciTree:
    """Devices and their parents from ``lspci -tv`` (or ``-t``) text; no link information.

    Each ``[bus]`` bracket opens a bus at its column; device numbers to its right on the same
    line, and in the same column on the lines below, sit on that bus until a bracket at or
    left of that column replaces it.
    """
    devices: dict[str, PciDevice] = {}
    # open buses by the column where their bracket ends: (domain, bus, parent bdf)
    open_buses: dict[int, tuple[str, int, str | None]] = {}
    domain = "0000"
    last_dev: str | None = None
    for line in text.splitlines():
        if not line.strip():
            continue
        for m in _TREE_ITEM.finditer(line):
            col = m.start()
            if m.group("bracket"):
                if m.group("dom"):
                    domain = m.group("dom").lower()
                    parent = None
                else:
                    parent = last_dev if last_dev and line[m.start() - 1] == "-" else None
                for c in [c for c in open_buses if c >= col]:
                    del open_buses[c]
                open_buses[m.end()] = (domain, int(m.group("bus"), 16), parent)
                continue
            below = [c for c in open_buses if c < col]
            if not below:
                raise LspciError(source, f"device {m.group('dev')!r} at column {col} has no bus to its left; "
                                         "expected `lspci -tv` output")
            dom, bus, parent = open_buses[max(below)]
            bdf = f"{dom}:{bus:02x}:{m.group('dev').lower()}"
            rest = line[m.end():]
            name = rest.strip() if rest.startswith("  ") else ""
            devices[bdf] = PciDevice(bdf=bdf, name=_name(name) if name else "", parent=parent, pci_id=_ids(name))
            last_dev = bdf
    if not devices:
        raise LspciError(source, "no devices found in the tree text (expected `lspci -tv` output such as "
                                 "'-[0000:00]-+-00.0  Intel Corporation …')")
    return PciTree(devices, source=source)


def merge_trees(verbose: PciTree, tree: PciTree) -> PciTree:
    """Verbose devices, with parents (and names) from the tree form where the verbose text lacks them."""
    import dataclasses

    out = dict(verbose.devices)
    for bdf, t in tree.devices.items():
        if bdf not in out:
            out[bdf] = t
            continue
        d = out[bdf]
        out[bdf] = dataclasses.replace(d, parent=d.parent if d.parent is not None else t.parent,
                                       name=d.name or t.name)
    return PciTree(out, source=f"{verbose.source} + {tree.source}", notes=verbose.notes + tree.notes,
                   cut=verbose.cut + tree.cut)


def read_lspci(path: str | os.PathLike[str], tree_path: str | os.PathLike[str] | None = None) -> PciTree:
    """A saved ``lspci -vvv`` file (or an ``lspci -tv`` file: recognised from its content), optionally
    with the matching ``lspci -tv`` file."""
    p = pathlib.Path(path)
    text = _read_text(p, "lspci")
    if re.match(r"\s*[-+\\|]*-\[", text):  # a tree drawing starts "-[0000:00]-+-00.0" (or "+-[0000:40]-…")
        result = parse_lspci_tree(text, source=str(p))
    else:
        result = parse_lspci(text, source=str(p))
    if tree_path is not None:
        t = pathlib.Path(tree_path)
        result = merge_trees(result, parse_lspci_tree(_read_text(t, "lspci_tree"), source=str(t)))
    return result


#: A saved ``lspci -vvv`` of the largest servers is a few MB; 16 MiB bounds a mistaken or endless file.
MAX_LSPCI_BYTES = 16 * 2**20


def _read_text(path: pathlib.Path, what: str) -> str:
    """A saved lspci text, bounded and from a regular file only (:func:`nvmemodel.userfiles.read_input`);
    bytes that are not UTF-8 (a device name in another encoding) become U+FFFD, as lspci's own output may
    hold them."""
    from ..errors import ParameterError
    from ..userfiles import read_input

    try:
        return read_input(path, what=what, max_bytes=MAX_LSPCI_BYTES).decode("utf-8", errors="replace")
    except ParameterError as exc:
        raise LspciError(path, f"cannot read: expected {exc.allowed}") from None
