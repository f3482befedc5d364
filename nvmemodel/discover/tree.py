"""The PCIe tree as a machine reports it: devices, their links, and who sits above whom.

This is the *discovered* structure, kept whole (several root complexes, nested switches, mixed
drives) so that a later tree model can use it; :mod:`nvmemodel.discover.build` reduces it to the
single-level :class:`~nvmemodel.Topology` the model evaluates today.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator

__all__ = ["GPU_CLASSES", "GPU_VENDORS", "NVME_CLASS", "PciDevice", "PciTree", "gen_of_speed"]

#: PCI class code (base class 0x01 mass storage, subclass 0x08 non-volatile memory) of NVMe controllers
#: (PCI Code and ID Assignment Specification, class 01h subclass 08h).
NVME_CLASS = 0x0108

#: Device texts of NVMe controllers in the PCI ID database (``NVMe Datacenter SSD``, ``PCIe Data Center SSD``,
#: ``NVMe SSD Controller PM173X``, ``E18 PCIe4 NVMe Controller``, ``Non-Volatile memory controller``), used
#: where a reader gives names but no class (``lspci -tv``) …
_NVME_TEXT = re.compile(r"\bNVMe\b|NVM Express|Non-Volatile memory|\bSSD\b", re.IGNORECASE)
#: … except functions that are not the drive itself (Intel VMD "NVMe RAID Controller", SATA/AHCI, RAID HBAs,
#: "NVMe Data Path Function", Optane Memory caching of a SATA controller).
_NOT_NVME_TEXT = re.compile(r"RAID|Volume Management|\bSATA\b|\bAHCI\b|Data Path Function|Storage Controller|"
                            r"\bbridge\b|\bSwitch", re.IGNORECASE)

#: PCI class codes of display controllers (PCI Code and ID Assignment Specification, base class 03h): 0300 VGA
#: compatible (NVIDIA's workstation boards, e.g. the RTX 6000 Ada), 0302 3D controller (data-centre GPUs without a
#: display: Tesla, A100, H100, Instinct), 0380 other display controller (some AMD Instinct and Intel boards).
GPU_CLASSES = (0x0300, 0x0302, 0x0380)
#: PCI vendor ids of the GPUs discovery reports (the PCI ID Repository's vendor lines): NVIDIA, AMD (ATI), Intel.
GPU_VENDORS = {"10de": "NVIDIA", "1002": "AMD", "8086": "Intel"}
#: Vendor texts lspci prints for those vendors (without ``-nn`` ids).
_GPU_VENDOR_TEXT = re.compile(r"^(NVIDIA Corporation|Advanced Micro Devices, Inc\. \[AMD/ATI\]|ATI Technologies|"
                              r"Intel Corporation)\b")
#: Device texts of GPUs in the PCI ID database, for readers that give names but no class (``lspci -tv``): NVIDIA chip
#: codenames (GK210GL, GP100GL, GV100, TU104GL, GA100, AD102GL, GH100, GB202 …) and product names; AMD Instinct /
#: Radeon Pro boards and their chips (Aldebaran, Arcturus, Vega 20); Intel's data-centre GPUs (Ponte Vecchio, ATS-M).
_GPU_TEXT = re.compile(r"\bG[A-Z]{1,2}\d{3}[A-Z]*\b|\bTesla\b|\bQuadro\b|\bRTX\b|\bGeForce\b|Instinct|Radeon|"
                       r"Aldebaran|Arcturus|Vega 20|Data Center GPU|Ponte Vecchio|ATS-M", re.IGNORECASE)
#: … not the GPU's other functions (its HD audio, USB-C, serial bus), NVIDIA's NVSwitch / bridges and NICs, nor an
#: APU's integrated graphics (AMD client codenames, Intel UHD/Iris): not a data-centre GPU on a PCIe link.
_NOT_GPU_TEXT = re.compile(r"Audio|\bUSB\b|Serial|\bbridge\b|\bSwitch\b|NVSwitch|BlueField|ConnectX|Ethernet|"
                           r"Network|InfiniBand|Renoir|Cezanne|Lucienne|Rembrandt|Raphael|Phoenix|Picasso|Raven|"
                           r"Barcelo|Mendocino|Van Gogh|Hawk Point|Strix|Granite Ridge|Krackan|UHD Graphics|Iris|"
                           r"HD Graphics", re.IGNORECASE)

#: Transfer rate per lane in GT/s → PCIe generation (PCIe Base Specification, rates of Gen1..Gen7).
_GEN_OF_GTS = {2.5: 1, 5.0: 2, 8.0: 3, 16.0: 4, 32.0: 5, 64.0: 6, 128.0: 7}


def gen_of_speed(gts: float | None) -> int | None:
    """PCIe generation of a link rate in GT/s (``16.0`` → 4); None if unknown or not a PCIe rate."""
    if gts is None:
        return None
    return _GEN_OF_GTS.get(round(float(gts), 1))


@dataclasses.dataclass(frozen=True)
class PciDevice:
    """One PCI function as lspci or sysfs describes it. Unknown values are None.

    Parameters
    ----------
    bdf : str
        ``domain:bus:device.function``, always with the domain (``0000:41:00.0``).
    class_code : int | None
        Base class and subclass (``0x0108`` = NVMe, ``0x0604`` = PCI bridge).
    class_name, name : str
        lspci's class text and vendor/device text.
    port_type : str | None
        PCIe port type from the Express capability: ``root_port``, ``upstream``, ``downstream``,
        ``endpoint``, ``legacy_endpoint``, ``rc_endpoint``, ``pcie_to_pci`` …
    parent : str | None
        BDF of the bridge above (None: on a root bus, below the host bridge).
    secondary_bus, subordinate_bus : int | None
        For bridges: the bus range below.
    cap_gts, cap_width, sta_gts, sta_width : float | int | None
        Link capability (LnkCap) and negotiated link (LnkSta): rate per lane in GT/s and lanes.
    mps, mrrs, mps_cap : int | None
        Programmed Max Payload Size and Max Read Request Size (DevCtl), supported MPS (DevCap); bytes.
    numa_node : int | None
        NUMA node the kernel reports (None: unknown or -1).
    driver : str | None
        Kernel driver in use.
    model : str | None
        NVMe model string (``/sys/class/nvme/*/model``) where known.
    subsystem : str | None
        Subsystem (board) name, which often names the product where the device id covers a family
        (``Intel Corporation DC P3600 SSD [Add-in Card]`` under ``PCIe Data Center SSD``).
    pci_id, subsystem_id : str | None
        ``vvvv:dddd`` vendor and device id, and the subsystem's ``ssvv:ssdd`` (lower-case hex), where the
        reader saw them (sysfs always; lspci with ``-nn``).
    """

    bdf: str
    class_code: int | None = None
    class_name: str = ""
    name: str = ""
    port_type: str | None = None
    parent: str | None = None
    secondary_bus: int | None = None
    subordinate_bus: int | None = None
    cap_gts: float | None = None
    cap_width: int | None = None
    sta_gts: float | None = None
    sta_width: int | None = None
    mps: int | None = None
    mrrs: int | None = None
    mps_cap: int | None = None
    numa_node: int | None = None
    driver: str | None = None
    model: str | None = None
    subsystem: str | None = None
    pci_id: str | None = None
    subsystem_id: str | None = None

    @property
    def domain(self) -> str:
        return self.bdf.split(":")[0]

    @property
    def bus(self) -> int:
        return int(self.bdf.split(":")[1], 16)

    @property
    def is_nvme(self) -> bool:
        """An NVMe controller: class 01h/08h, the ``nvme`` driver, or — where no class is known (``lspci -tv``
        names only) — a device text naming an NVMe or PCIe SSD (not a RAID/VMD/SATA/AHCI function)."""
        if self.class_code == NVME_CLASS or self.driver == "nvme" or \
                self.class_name.lower().startswith("non-volatile memory controller"):
            return True
        if self.class_code is not None or self.class_name or self.secondary_bus is not None:
            return False
        text = " ".join(filter(None, (self.name, self.subsystem, self.model)))
        return bool(_NVME_TEXT.search(text)) and not _NOT_NVME_TEXT.search(text)

    @property
    def gpu_vendor(self) -> str | None:
        """``"NVIDIA"``, ``"AMD"`` or ``"Intel"`` where this function is a GPU of theirs (a display-class function —
        03h/00h, 02h, 80h — of vendor 10de, 1002 or 8086; where no class is known, ``lspci -tv``, a device text
        naming a GPU chip or product of theirs), else None. Not the GPU's audio or USB functions, and not integrated
        graphics (an APU's or Intel's UHD/Iris; a display function on a root bus is flagged apart by the builder)."""
        vendor = GPU_VENDORS.get((self.pci_id or "")[:4])
        text = " ".join(filter(None, (self.name, self.subsystem)))
        m = _GPU_VENDOR_TEXT.match(self.name or "")
        if vendor is None and m:
            vendor = {"NVIDIA": "NVIDIA", "Intel": "Intel"}.get(m.group(1).split()[0], "AMD")
        if vendor is None or _NOT_GPU_TEXT.search(text):
            return None
        if self.class_code is not None:
            return vendor if self.class_code in GPU_CLASSES else None
        if self.class_name:
            return vendor if self.class_name.lower().startswith(("vga compatible", "3d controller",
                                                                 "display controller")) else None
        if self.secondary_bus is not None:
            return None
        return vendor if _GPU_TEXT.search(text) else None

    @property
    def is_bridge(self) -> bool:
        return self.class_code == 0x0604 or self.secondary_bus is not None or \
            self.port_type in ("root_port", "upstream", "downstream")

    @property
    def cap_gen(self) -> int | None:
        return gen_of_speed(self.cap_gts)

    @property
    def sta_gen(self) -> int | None:
        return gen_of_speed(self.sta_gts)

    @property
    def label(self) -> str:
        """Model name if known, else lspci's device text (with the subsystem where it adds one), else the class."""
        if self.model:
            return self.model
        if self.name and self.subsystem and self.subsystem != self.name:
            return f"{self.name} ({self.subsystem})"
        return self.name or self.class_name or "(unknown device)"

    def link_text(self) -> str:
        """``Gen4 x4`` (negotiated), with the capability where it differs: ``Gen3 x2 (capable Gen4 x4)``."""
        def one(gts, width):
            gen = gen_of_speed(gts)
            g = f"Gen{gen}" if gen else (f"{gts:g}GT/s" if gts else "Gen?")
            return f"{g} x{width}" if width else f"{g} x?"

        if self.sta_gts is None and self.sta_width is None and self.cap_gts is None:
            return "link unknown"
        now = one(self.sta_gts, self.sta_width)
        cap = one(self.cap_gts, self.cap_width)
        return now if now == cap else f"{now} (capable {cap})"


@dataclasses.dataclass(frozen=True)
class PciTree:
    """Every discovered PCI function by BDF, with parent links; ``source`` says where it was read."""

    devices: dict[str, PciDevice]
    source: str = ""
    notes: tuple[str, ...] = ()
    #: devices whose text ends inside their block (a cut dump: LnkCap without the LnkSta that follows it)
    cut: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """JSON-ready: ``{"source", "notes", "devices": [one dict per device]}`` (see :meth:`from_dict`)."""
        return {"source": self.source, "notes": list(self.notes),
                "devices": [dataclasses.asdict(d) for d in self.devices.values()]}

    @classmethod
    def from_dict(cls, doc: dict) -> PciTree:
        """The tree :meth:`to_dict` wrote (also the ``nvmemodel discover --json`` document)."""
        from ..errors import ParameterError

        fields = {f.name for f in dataclasses.fields(PciDevice)}
        try:
            devices = [PciDevice(**{k: v for k, v in d.items() if k in fields}) for d in doc["devices"]]
        except (KeyError, TypeError) as exc:
            raise ParameterError("devices", type(doc).__name__, f"a PCI tree written by to_dict() ({exc})") from None
        return cls({d.bdf: d for d in devices}, source=doc.get("source", ""), notes=tuple(doc.get("notes", ())))

    def __iter__(self) -> Iterator[PciDevice]:
        return iter(self.devices.values())

    def __len__(self) -> int:
        return len(self.devices)

    def __getitem__(self, bdf: str) -> PciDevice:
        return self.devices[bdf]

    def children(self, bdf: str | None) -> list[PciDevice]:
        """Devices whose parent is ``bdf`` (None: the root-bus devices), in BDF order."""
        return sorted((d for d in self if d.parent == bdf), key=lambda d: d.bdf)

    def ancestors(self, bdf: str) -> list[PciDevice]:
        """Bridges above ``bdf``, nearest first (stops at a root bus or a loop)."""
        out: list[PciDevice] = []
        seen = {bdf}
        cur = self.devices[bdf].parent
        while cur is not None and cur in self.devices and cur not in seen:
            seen.add(cur)
            out.append(self.devices[cur])
            cur = self.devices[cur].parent
        return out

    def nvme(self) -> list[PciDevice]:
        """The NVMe controllers, in BDF order (a function known by its name alone that has devices below it
        is a bridge, whatever its name says)."""
        parents = {d.parent for d in self if d.parent}
        return sorted((d for d in self if d.is_nvme and not (d.class_code is None and d.bdf in parents)),
                      key=lambda d: d.bdf)

    def gpus(self) -> list[PciDevice]:
        """The GPUs (:attr:`PciDevice.gpu_vendor`), in BDF order (a function with devices below it is a bridge)."""
        parents = {d.parent for d in self if d.parent}
        return sorted((d for d in self if d.gpu_vendor and d.bdf not in parents), key=lambda d: d.bdf)

    def root_port_of(self, bdf: str) -> PciDevice | None:
        """The top-most bridge above ``bdf`` (the root port), None for a device on a root bus."""
        up = self.ancestors(bdf)
        return up[-1] if up else None

    def switch_ports_of(self, bdf: str) -> list[tuple[PciDevice, PciDevice]]:
        """(upstream port, downstream port) pairs of the switches between ``bdf`` and its root port, top first.

        Port types decide where lspci reported them; without them (``lspci -tv`` only, or no root
        rights) any bridge pair below the root port counts as a switch.
        """
        chain = list(reversed(self.ancestors(bdf)))[1:]  # below the root port, top first
        pairs = []
        i = 0
        while i + 1 < len(chain):
            up, down = chain[i], chain[i + 1]
            typed = up.port_type is not None and down.port_type is not None
            if not typed or (up.port_type == "upstream" and down.port_type == "downstream"):
                pairs.append((up, down))
                i += 2
            else:
                i += 1
        return pairs

    def render(self, highlight: Iterable[str] = ()) -> str:
        """The tree as indented text: bridges and the NVMe path only (other endpoints summarised)."""
        keep = set()
        drives = {d.bdf for d in self.nvme()}
        gpus = {d.bdf for d in self.gpus()}
        for d in [*self.nvme(), *self.gpus()]:
            keep.add(d.bdf)
            keep.update(a.bdf for a in self.ancestors(d.bdf))
        marks = set(highlight)
        lines: list[str] = []

        def walk(bdf: str | None, depth: int) -> None:
            kids = self.children(bdf)
            shown = [k for k in kids if k.bdf in keep]
            for k in shown:
                role = {"root_port": "root port", "upstream": "switch upstream port",
                        "downstream": "switch downstream port"}.get(k.port_type or "", "")
                role = role or ("NVMe" if k.bdf in drives else f"GPU ({k.gpu_vendor})" if k.bdf in gpus else (
                    "bridge" if k.is_bridge or self.children(k.bdf) else k.class_name or "device"))
                numa = f", NUMA {k.numa_node}" if k.numa_node is not None else ""
                extra = []
                if k.mps is not None:
                    extra.append(f"MPS {k.mps}")
                if k.mrrs is not None and k.is_nvme:
                    extra.append(f"MRRS {k.mrrs}")
                mark = "  <-- see flags" if k.bdf in marks else ""
                lines.append(f"{'  ' * depth}{k.bdf}  {role}: {k.label}  [{k.link_text()}"
                             f"{', ' + ', '.join(extra) if extra else ''}{numa}]{mark}")
                walk(k.bdf, depth + 1)
            hidden = len(kids) - len(shown)
            if hidden and bdf is not None:
                lines.append(f"{'  ' * depth}(+{hidden} other device(s))")

        walk(None, 0)
        others = len(self) - len(keep)
        if not keep:
            return f"(no NVMe controllers among {len(self)} PCI functions)"
        lines.append(f"({others} PCI functions not on an NVMe or GPU path are not shown)")
        return "\n".join(lines)
