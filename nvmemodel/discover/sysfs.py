"""Read the PCIe tree of the running machine from ``/sys/bus/pci/devices`` and ``/sys/class/nvme``.

Per device: ``class``, ``current_link_speed/width``, ``max_link_speed/width``, ``numa_node``, the
``driver`` link, and the parent from where the device directory sits under ``/sys/devices``.
MaxPayload and MaxReadReq come from the Express capability in ``config`` (the first 64 bytes are
readable by everyone, the capability list usually needs root; without it they stay unknown and a
note says so). NVMe model names come from ``/sys/class/nvme/nvme*/model``.
Register layouts: PCIe Base Specification, PCI Express Capability (DevCtl bits 7:5 Max_Payload_Size,
14:12 Max_Read_Request_Size, 128 << code bytes; capabilities register bits 7:4 device/port type).
"""

from __future__ import annotations

import functools
import os
import pathlib
import re
from typing import TYPE_CHECKING, Any

from .tree import PciDevice, PciTree

if TYPE_CHECKING:
    from ..topology import Host

__all__ = ["PCI_IDS", "nvme_namespaces", "parse_express_config", "pci_names", "read_host", "read_sysfs"]

_BDF = re.compile(r"^[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$")
_PORT_TYPES = {0: "endpoint", 1: "legacy_endpoint", 4: "root_port", 5: "upstream", 6: "downstream",
               7: "pcie_to_pci", 8: "pci_to_pcie", 9: "rc_endpoint", 10: "rc_event"}


def _text(path: pathlib.Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def _gts(text: str | None) -> float | None:
    """``'16.0 GT/s PCIe'`` / ``'8 GT/s'`` / ``'Unknown'`` → GT/s."""
    m = re.match(r"([\d.]+)\s*GT/s", text or "")
    return float(m.group(1)) if m else None


def _int(text: str | None) -> int | None:
    try:
        return int(text, 0) if text is not None else None
    except ValueError:
        return None


def _hex_pair(a: str | None, b: str | None) -> str | None:
    """``0x8086``, ``0x0953`` → ``8086:0953``; None where a file is missing."""
    if not a or not b:
        return None
    return f"{a.lower().removeprefix('0x')}:{b.lower().removeprefix('0x')}"


def _name(names: dict, vendor: str | None, device: str | None) -> str:
    v, d = (vendor or "?").lower().removeprefix("0x"), (device or "?").lower().removeprefix("0x")
    return names.get((v, d)) or (f"{names[v]} Device {d}" if v in names else f"[{v}:{d}]")


def _subsystem(names: dict, vendor, device, sub_vendor, sub_device) -> str | None:
    """lspci's ``Subsystem:`` text: subsystem vendor name + the subsystem's name (or ``Device ssss``)."""
    if not sub_vendor or not sub_device:
        return None
    v, d, sv, sd = (x.lower().removeprefix("0x") for x in (vendor or "?", device or "?", sub_vendor, sub_device))
    if sv == "0000":
        return None
    if sv not in names:
        return f"Device {sv}:{sd}"
    # as lspci (pciutils lib/names.c): the subsystem's own name, else the device's name, else the id
    return f"{names[sv]} {names.get((v, d, sv, sd)) or names.get(('device', v, d)) or f'Device {sd}'}"


def parse_express_config(data: bytes) -> dict:
    """Port type, MPS, MRRS and supported MPS from a config-space image (empty dict if not readable)."""
    if len(data) < 0x40 or not data[6] & 0x10:  # Status bit 4: capability list present
        return {}
    ptr, seen = data[0x34] & 0xFC, set()
    while ptr and ptr not in seen and ptr + 0x14 <= len(data):
        seen.add(ptr)
        if data[ptr] == 0x10:  # PCI Express capability
            caps = int.from_bytes(data[ptr + 2:ptr + 4], "little")
            devcap = int.from_bytes(data[ptr + 4:ptr + 8], "little")
            devctl = int.from_bytes(data[ptr + 8:ptr + 10], "little")
            return {"port_type": _PORT_TYPES.get((caps >> 4) & 0xF), "mps_cap": 128 << (devcap & 0x7),
                    "mps": 128 << ((devctl >> 5) & 0x7), "mrrs": 128 << ((devctl >> 12) & 0x7)}
        ptr = data[ptr + 1] & 0xFC
    return {}


#: Where distributions install the PCI ID database (Debian/Ubuntu: pciutils' pci.ids; Fedora: hwdata)
PCI_IDS = ("usr/share/misc/pci.ids", "usr/share/hwdata/pci.ids", "usr/share/pci.ids")


def _pci_ids_file(root: pathlib.Path) -> pathlib.Path | None:
    for base in (root, pathlib.Path("/")):
        for rel in PCI_IDS:
            if (base / rel).is_file():
                return base / rel
    return None


@functools.cache
def pci_names(path: str) -> dict:
    """``{(vendor, device): "Vendor Device", vendor: "Vendor"}`` from a pci.ids file (ids as lower-case hex)."""
    out: dict = {}
    vendor = device = None
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.startswith("C "):  # the class list follows the vendors
                break
            m = re.match(r"^([0-9a-f]{4})\s+(.+)$", line)
            if m:
                vendor = m.group(1)
                out[vendor] = m.group(2).strip()
                continue
            m = re.match(r"^\t([0-9a-f]{4})\s+(.+)$", line)
            if m and vendor:
                device = m.group(1)
                out[(vendor, device)] = f"{out[vendor]} {m.group(2).strip()}"
                out[("device", vendor, device)] = m.group(2).strip()
                continue
            m = re.match(r"^\t\t([0-9a-f]{4}) ([0-9a-f]{4})\s+(.+)$", line)  # subsystem of the last device
            if m and vendor:
                out[(vendor, device, m.group(1), m.group(2))] = m.group(3).strip()
    return out


def read_sysfs(root: str | os.PathLike = "/", *, pci_ids: str | os.PathLike | None = None) -> PciTree:
    """The PCI functions under ``<root>/sys/bus/pci/devices`` (``root`` lets tests use a copied tree).

    Device names come from the PCI ID database (``pci_ids``, else the first of :data:`PCI_IDS` under
    ``root`` or ``/``), else stay ``[vendor:device]``. Returns an empty tree if the directory does not
    exist (not Linux, or a container without /sys).
    """
    root = pathlib.Path(root)
    ids_file = pathlib.Path(pci_ids) if pci_ids is not None else _pci_ids_file(root)
    names = pci_names(str(ids_file)) if ids_file is not None and ids_file.is_file() else {}
    base = root / "sys/bus/pci/devices"
    if not base.is_dir():
        return PciTree({}, source=str(base), notes=(f"{base} not found: not a Linux machine with sysfs",))
    models: dict[str, str] = {}
    for ctrl in sorted((root / "sys/class/nvme").glob("nvme*")):
        addr, model = _text(ctrl / "address"), _text(ctrl / "model")
        if addr and model:
            models[addr.lower()] = model
    devices: dict[str, PciDevice] = {}
    unreadable = 0
    for entry in sorted(base.iterdir()):
        bdf = entry.name.lower()
        if not _BDF.match(bdf):
            continue
        real = entry.resolve()
        parent = real.parent.name.lower()
        code = _int(_text(entry / "class"))
        drv = entry / "driver"
        numa = _int(_text(entry / "numa_node"))
        try:
            cfg = (entry / "config").read_bytes()
        except OSError:
            cfg = b""
        express = parse_express_config(cfg)
        if not express and len(cfg) <= 64:
            unreadable += 1
        devices[bdf] = PciDevice(
            bdf=bdf, class_code=(code >> 8) if code is not None else None,
            name=_name(names, _text(entry / "vendor"), _text(entry / "device")),
            subsystem=_subsystem(names, *(_text(entry / f) for f in ("vendor", "device", "subsystem_vendor",
                                                                     "subsystem_device"))),
            parent=parent if _BDF.match(parent) else None,
            pci_id=_hex_pair(_text(entry / "vendor"), _text(entry / "device")),
            subsystem_id=_hex_pair(_text(entry / "subsystem_vendor"), _text(entry / "subsystem_device")),
            cap_gts=_gts(_text(entry / "max_link_speed")), cap_width=_int(_text(entry / "max_link_width")) or None,
            sta_gts=_gts(_text(entry / "current_link_speed")),
            sta_width=_int(_text(entry / "current_link_width")) or None,
            numa_node=numa if numa is not None and numa >= 0 else None,
            driver=os.path.basename(os.readlink(drv)) if drv.is_symlink() else None,
            model=models.get(bdf), **express)
    notes = ((f"{unreadable} device(s) expose only 64 bytes of config space (read without root, or an archive "
             "that kept 64 bytes): MaxPayload/MaxReadReq unknown there"),) if unreadable else ()
    return PciTree(devices, source=str(base), notes=notes)


#: Neither sysfs nor PCI names the CPU's lanes: the model's default stands, and says so (QA round 4, F22).
_LANES_ASSUMED = "assumption: lanes per socket not discovered (the model's default)"


def read_host(root: str | os.PathLike = "/") -> Host | None:
    """The CPU side of this machine as a :class:`~nvmemodel.Host`, or None where sysfs does not say.

    Sockets: distinct ``topology/physical_package_id``; cores per socket: distinct
    ``(package, core_id)`` pairs per socket (SMT siblings count once); clock:
    ``cpufreq/cpuinfo_max_freq`` (kHz), else the highest ``cpu MHz`` of ``/proc/cpuinfo``.
    """
    from ..topology import Host

    root = pathlib.Path(root)
    cores: set[tuple[int, int]] = set()
    for cpu in (root / "sys/devices/system/cpu").glob("cpu[0-9]*"):
        pkg, core = _int(_text(cpu / "topology/physical_package_id")), _int(_text(cpu / "topology/core_id"))
        if pkg is not None and core is not None:
            cores.add((pkg, core))
    if not cores:
        return None
    sockets = len({p for p, _ in cores})
    khz = [_int(_text(f)) for f in (root / "sys/devices/system/cpu").glob("cpu[0-9]*/cpufreq/cpuinfo_max_freq")]
    clock = max((k for k in khz if k), default=None)
    clock_hz, how = (clock * 1e3, "cpufreq cpuinfo_max_freq") if clock else (None, "")
    if clock_hz is None:
        mhz = re.findall(r"^cpu MHz\s*:\s*([\d.]+)", _text(root / "proc/cpuinfo") or "", re.MULTILINE)
        if mhz:
            clock_hz, how = max(map(float, mhz)) * 1e6, "/proc/cpuinfo 'cpu MHz' (current, not the maximum)"
    prov = {"sockets": "measured: discovered, sysfs physical_package_id",
            "cores_per_socket": "measured: discovered, sysfs core_id",
            "lanes_per_socket": _LANES_ASSUMED}
    kwargs: dict[str, Any] = {"sockets": sockets, "cores_per_socket": max(1, len(cores) // sockets)}
    if clock_hz is not None and 1e8 <= clock_hz <= 1e10:
        kwargs["clock_hz"] = clock_hz
        prov["clock_hz"] = f"measured: discovered, {how}"
    else:
        prov["clock_hz"] = "assumption: clock not found in sysfs or /proc/cpuinfo"
    return Host(name="this machine", provenance=prov, **kwargs)


def nvme_namespaces(root: str | os.PathLike = "/") -> list[tuple[str, int | None]]:
    """``(/dev/nvmeXnY, NUMA node)`` for every NVMe namespace the kernel shows, in controller order.

    Read from ``/sys/class/nvme/nvme*/``: namespace directories ``nvmeXnY`` (or ``nvmeXcZnY`` with native
    multipath, whose block device is ``nvmeXnY``), the node from the controller's ``numa_node`` or its
    PCI device's. Kernels without ``/sys/class/nvme`` (before 4.x, as in some saved sysfs trees) show the
    namespaces only as block devices: then ``/sys/class/block/nvmeXnY`` (partitions left out), the node from
    its ``device``'s ``numa_node``. ``None`` where the node is not known.
    """
    root = pathlib.Path(root)
    out: dict[str, int | None] = {}
    ctrls = sorted((root / "sys/class/nvme").glob("nvme*"), key=lambda p: int(re.sub(r"\D", "", p.name) or 0))
    for ctrl in ctrls:
        node = _int(_text(ctrl / "numa_node"))
        if node is None:
            node = _int(_text(ctrl / "device" / "numa_node"))
        for ns in sorted(ctrl.glob("nvme*n*")):
            m = re.fullmatch(r"nvme(\d+)(?:c\d+)?n(\d+)", ns.name)
            if m:
                out.setdefault(f"/dev/nvme{m.group(1)}n{m.group(2)}", node if node is not None and node >= 0 else None)
    if not ctrls:  # an older kernel: the namespaces as block devices only (QA s25 H36)
        blocks = [b for b in (root / "sys/class/block").glob("nvme*")
                  if re.fullmatch(r"nvme\d+(?:c\d+)?n\d+", b.name)]
        for b in sorted(blocks, key=lambda p: tuple(int(x) for x in re.findall(r"\d+", p.name))):
            m = re.fullmatch(r"nvme(\d+)(?:c\d+)?n(\d+)", b.name)
            if m is None:  # (never: blocks holds only the names that match)
                continue
            node = _int(_text(b / "device" / "numa_node"))
            out.setdefault(f"/dev/nvme{m.group(1)}n{m.group(2)}", node if node is not None and node >= 0 else None)
    return list(out.items())
