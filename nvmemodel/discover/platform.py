"""Which CPU platform a discovered machine is: from ``/proc/cpuinfo`` (live) or the PCI names (saved lspci).

A live machine names its CPU in ``/proc/cpuinfo`` (``model name : AMD EPYC 7742 64-Core Processor``): a
catalog host (``catalog/hosts.csv``) whose model number appears there is that CPU. A saved ``lspci``
dump has no CPU line, but its host bridges and root ports name the platform — ``Starship/Matisse Root
Complex`` is an AMD Zen 2/3 I/O die, ``Sky Lake-E PCI Express Root Port`` a Skylake-SP/Cascade Lake-SP
socket — so the platform's root-complex, memory and inter-socket limits
(``catalog/host_platforms.csv``, ``lspci_pattern``) apply while cores and clock stay assumed. Either way
a :class:`~nvmemodel.discover.build.Flag` says what was identified from what, and what was assumed.
"""

from __future__ import annotations

import pathlib
import re

from .flags import Flag

__all__ = ["cpu_model_of", "identify_cpu", "identify_platform", "platform_candidates", "refine_host"]

#: A platform's (``host_platforms.csv`` ``vendor``) PCI vendor id and the vendor name pci.ids gives it, which
#: lspci and sysfs put before the device name. A PCI name identifies a platform only on its own vendor's
#: device: pci.ids has ``Genoa`` on a Silicom capture card (1c2c:00a3) and ``Turin`` inside Intergraph's
#: "w/Texturing" (1091:0021) as well as on AMD's Genoa/Bergamo and Turin root complexes.
PLATFORM_VENDORS = {"AMD": ("1022", "Advanced Micro Devices"), "Intel": ("8086", "Intel Corporation"),
                    "Ampere": ("1def", "Ampere Computing"), "HiSilicon": ("19e5", "Huawei Technologies")}

#: Names of client (laptop and desktop) chips' ports in pci.ids that share a server platform's code name:
#: ``Ice Lake-LP PCI Express Root Port #9`` (8086:34b0), ``Ice Lake Thunderbolt 3 PCI Express Root Port #0``
#: (8086:8a1d), ``Ice Lake Processor Host Bridge/DRAM Registers`` (8086:8a14, Ice Lake-U/Y). A server's root
#: ports are ``Ice Lake PCI Express Root Port A`` (8086:347a); its host bridges are not "Host Bridge/DRAM
#: Registers". Such a name never identifies a server platform.
CLIENT_PCI_NAMES = re.compile(r"-LP\b|Thunderbolt|Host Bridge/DRAM Registers", re.IGNORECASE)


def cpu_model_of(cpuinfo: str) -> str | None:
    """The first ``model name`` of ``/proc/cpuinfo`` text (x86), else None (many Arm kernels print none)."""
    m = re.search(r"^model name\s*:\s*(.+)$", cpuinfo or "", re.MULTILINE)
    return m.group(1).strip() if m else None


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9+]+", text.lower().replace("(r)", " ").replace("(tm)", " ")))


def identify_cpu(model: str) -> str | None:
    """The catalog host key whose model this CPU name is, or None.

    Matches the model number and its family word (``EPYC 7742``, ``Platinum 8380``, ``Xeon 6980P``,
    ``3995WX``, ``Q80-30``), so ``AMD EPYC 7742 64-Core Processor`` and ``Intel(R) Xeon(R) Platinum 8380
    CPU @ 2.30GHz`` find their rows.

    >>> identify_cpu("AMD EPYC 7742 64-Core Processor")
    'amd-epyc-7742'
    >>> identify_cpu("Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz")
    'intel-xeon-platinum-8380'
    >>> identify_cpu("Intel(R) Xeon(R) Processor") is None
    True
    """
    from ..topology.host import _host_rows

    words = _tokens(model or "")
    best = None
    for key, row in _host_rows().items():
        name = _tokens(row["name"]) - {"amd", "intel", "ryzen", "xeon", "hisilicon", "ampere", "pro"}
        number = {w for w in name if any(ch.isdigit() for ch in w)}
        if number and name <= words | {"plus"} and (best is None or len(name) > best[1]):
            best = (key, len(name))
    if best is None and "+" in (model or ""):  # "Platinum 8480+" is written with a plus sign
        return identify_cpu(model.replace("+", " plus"))
    return best[0] if best else None


def identify_platform(tree) -> tuple[str, str] | None:
    """``(platform key, the device name that identified it)`` from a PCI tree's host bridges and root
    ports (``lspci_pattern`` of ``catalog/host_platforms.csv``), or None. The first matching row; see
    :func:`platform_candidates` for every platform the same name is on."""
    hits = platform_candidates(tree)
    return hits[0] if hits else None


def platform_candidates(tree) -> list[tuple[str, str]]:
    """Every catalog platform whose ``lspci_pattern`` a host bridge or root port of ``tree`` names, as
    ``(platform key, device name)`` in catalog order: one PCI name is often on several platforms (the
    Starship/Matisse I/O die of EPYC 7002 and 7003, Sky Lake-E of Skylake-SP and Cascade Lake-SP)."""
    from ..topology.host import _platforms

    ports = [d for d in tree.devices.values() if d.name and not CLIENT_PCI_NAMES.search(d.name) and (
        d.port_type == "root_port" or "host bridge" in (d.class_name or "").lower() or "root complex" in d.name.lower()
        or "root port" in d.name.lower())]
    hits = []
    for key, row in _platforms().items():
        pattern = re.compile(row["lspci_pattern"], re.IGNORECASE)
        name = next((d.name for d in ports if _of_vendor(d, row.get("vendor", "")) and pattern.search(d.name)), None)
        if name is not None:
            hits.append((key, name))
    return hits


def _of_vendor(device, vendor: str) -> bool:
    """Whether a PCI device is the platform vendor's: by its id where the reader saw it, else by the vendor
    name lspci and sysfs put before the device name (a vendor not in :data:`PLATFORM_VENDORS`: not checked)."""
    if vendor not in PLATFORM_VENDORS:
        return True
    vid, vname = PLATFORM_VENDORS[vendor]
    if device.pci_id:
        return device.pci_id.lower().startswith(vid + ":")
    return device.name.lower().startswith(vname.lower())


def _root_port_lanes(tree) -> dict[str, int]:
    """Root-port lanes (LnkCap width, else the trained one) per PCI domain: more than a client platform has
    rules that platform out."""
    lanes: dict[str, int] = {}
    for d in tree.devices.values():
        if d.port_type == "root_port" and (d.cap_width or d.sta_width):
            lanes[d.domain] = lanes.get(d.domain, 0) + (d.cap_width or d.sta_width)
    return lanes


def _read_cpuinfo(tree) -> str:
    """``/proc/cpuinfo`` of the machine whose sysfs the tree was read from ('' for a saved lspci dump)."""
    source = pathlib.Path(str(tree.source))
    if source.parts[-4:] != ("sys", "bus", "pci", "devices"):
        return ""
    path = source.parents[3] / "proc" / "cpuinfo"
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def refine_host(host, tree, *, given: bool, cpuinfo: str | None = None):
    """``(host, flags)``: the discovered host with its catalog CPU or platform where one is identified.

    ``given``: the caller passed the host (then it is kept as it is). A live machine's CPU (``cpuinfo``,
    read from the tree's sysfs root when None) that is a catalog host becomes that host, with the sockets
    sysfs counted; else the PCI names' platform lends its tree and memory limits to the host, whose cores
    and clock stay as found or assumed. Flags: ``platform_identified`` (what, from what) or
    ``platform_unknown`` (every limit above the links stays unknown: the result is an upper bound).
    """
    from ..topology.host import PLATFORM_PARAMETERS, _host_rows, _platforms, get_host

    if given:
        return host, []
    text = _read_cpuinfo(tree) if cpuinfo is None else cpuinfo
    model = cpu_model_of(text)
    key = identify_cpu(model) if model else None
    if key is not None:
        most = int(_host_rows()[key]["sockets_max"])
        sockets = min(max(1, host.sockets), most)
        found = get_host(key, sockets=sockets)
        prov = {**found.provenance, "sockets": f"measured: discovered ({host.provenance.get('sockets', 'sysfs')})"}
        if "clock_hz" in host.provenance and host.provenance["clock_hz"].startswith("measured"):
            prov["clock_hz"] = found.provenance["clock_hz"]  # the catalog's base clock, not cpufreq's maximum
        found = found.replace(lanes_per_socket=max(found.lanes_per_socket, host.lanes_per_socket),
                              provenance=prov)
        return found, [Flag("platform_identified", "info",
                            f"CPU '{model}' (/proc/cpuinfo) is catalog host {key}: its cores, base clock, root "
                            f"complexes, memory and inter-socket link are used ({found.name})")]
    hits = platform_candidates(tree)
    hit = hits[0] if hits else None
    if hit is None:
        what = f"CPU '{model}' is not in the host catalog and " if model else ""
        return host, [Flag("platform_unknown", "info",
                           f"{what}no host bridge or root port names a catalog platform: root-complex, socket-DMA "
                           "and inter-socket limits stay unknown (not applied), so the ceilings above the links are "
                           f"upper bounds, and the lanes per socket ({host.lanes_per_socket}, the model's default) are "
                           "assumed; pass --host NAME (see 'nvmemodel hosts')")]
    plat_key, name = hit
    first = next(k for k, row in _host_rows().items() if row["platform"] == plat_key)
    sample = get_host(first, sockets=1 if int(_host_rows()[first]["sockets_max"]) == 1 else 2)
    platform = {k: v for k, v in sample.platform.items() if k in PLATFORM_PARAMETERS}
    sources = dict(sample.platform_sources)
    sources["memory.peak_bytes_per_s"] = (f"assumption: the memory of catalog host {first}, the first of platform "
                                          f"{plat_key} (the CPU model is not in the PCI names)")
    if host.sockets == 1:
        platform.pop("tree.inter_socket_bytes_per_s", None)
    # the lanes are the platform's too (a Skylake-SP socket has 48, not the model's default 128); cores and clock
    # stay what the host had: the model's defaults for a saved dump (host_assumed), sysfs's on a live machine
    lanes_src = f"assumption: the lanes of catalog host {first}, the first of platform {plat_key}"
    host = host.replace(lanes_per_socket=sample.lanes_per_socket,
                        provenance={**host.provenance, "lanes_per_socket": lanes_src})
    cpu = ("cores and clock are the model's defaults (host_assumed)"
           if str(host.provenance.get("cores_per_socket", "")).startswith("assumption")
           else "cores and clock are this machine's")
    refined = host.replace(platform=platform, platform_sources=sources)
    row = _platforms()[plat_key]
    lanes = max(_root_port_lanes(tree).values(), default=0)
    also = row.get("lspci_also") or ""
    if also and row.get("lspci_also_lanes_max") and lanes > int(row["lspci_also_lanes_max"]):
        also = ""  # more root-port lanes than that client platform has: ruled out
    others = [f"{k} ({_platforms()[k]['name']})" for k, _ in hits[1:]]
    if not others and not also:
        return refined, [Flag("platform_identified", "info",
                              f"platform {plat_key} ({row['name']}) from the PCI name '{name}': its root complexes, "
                              "DMA share and inter-socket link are used; the CPU model is not in the PCI names, so "
                              f"its memory channels and lanes are assumed as {first}'s, and {cpu}")]
    on = "; ".join(others + ([also + f" (this tree's root ports have {lanes} lanes)"] if also else []))
    if also:  # a client platform is possible: the server platform's limits are an assumption, not an estimate
        sources = {k: (v if k == "memory.peak_bytes_per_s" else f"assumption: platform {plat_key} of several the PCI "
                       f"name '{name}' is on; {v}") for k, v in sources.items()}
        refined = host.replace(platform=platform, platform_sources=sources)
    return refined, [Flag("platform_ambiguous", "warn" if also else "info",
                          f"the PCI name '{name}' is not one platform: besides {plat_key} ({row['name']}) it is on "
                          f"{on}. The model ASSUMES {plat_key} (its root complexes, DMA share and inter-socket link; "
                          f"memory channels and lanes as {first}; {cpu}): if the machine is another of these, its "
                          "limits above the links differ (a client platform's fewer memory channels give a lower "
                          "socket-DMA ceiling). Pass the CPU with --host NAME ('nvmemodel hosts'; Python: "
                          "build_topology(tree, host=nm.get_host(NAME)))")]
