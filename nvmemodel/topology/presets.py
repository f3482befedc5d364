"""Presets: the systems of the seed whitepapers, each with what it was built from.

Every preset's ``notes`` say which numbers come from the paper, which from a spec sheet,
which are assumptions, and which switch or drive parameters were calibrated on which
figure or sentence. Use :func:`preset` to get one by name; :data:`PRESETS` lists them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ParameterError, UnknownNameError
from ..standards.ethernet import Transport
from .drive import get_drive
from .fabric import Fabric
from .host import Host, get_host
from .switch import get_switch
from .topology import Topology

__all__ = ["PRESETS", "WORKLOAD_DEFAULTS", "broadcom_stingray", "dell_r7525", "ion_sr71mach5", "lenovo_sr850", "preset",
           "preset_difference", "workload_defaults"]

def _details(factory) -> str:
    """A preset factory's docstring after its summary line: what was calibrated or assumed."""
    return (factory.__doc__ or "").split("\n\n", 1)[1].strip()


_LENOVO_CONNECTIONS = {"direct": None, "1610-4p": "lenovo-1610-4p", "810-4p": "lenovo-810-4p"}


def _sr850_host() -> Host:
    """LP0865's lab server: the paper names the CPU, so the host is the catalog's (4 sockets)."""
    host = get_host("intel-xeon-platinum-8176", sockets=4)
    return host.replace(
        name="Lenovo ThinkSystem SR850 (4 x Xeon Platinum 8176)", port_lanes=4,
        notes="LP0865 Lab configuration: 4x Intel Xeon Platinum 8176 (catalog host intel-xeon-platinum-8176: cores, "
              "clock, lanes and platform limits from catalog/hosts.csv).",
        provenance={**host.provenance, "sockets": "spec: LP0865 lab configuration, 4 x Xeon Platinum 8176",
                    "gen": "spec: PCIe 3.0 (LP0865)"})


def lenovo_sr850(connection: str = "direct") -> Topology:
    """Lenovo LP0865: SR850 with 4 x Toshiba PX04PMB via direct cable, 1610-4P (x16) or 810-4P (x8).

    Calibrations (see ``catalog/switches.csv``): the 810-4P's efficiency 0.8636 on the
    6,200 MB/s sequential-read cap (Figure 4 text) and its 769 ns per command on the
    "< 1.3 million IOPS" random-read cap (Figure 6 text); the 1610-4P's 549 ns per command
    on the conclusion's "up to 30 %" switch-processing loss. The drive's random-write limit
    is the upper bound 325 K IOPS implied by "all three configurations perform equally" on
    4K random write (Figure 5 text) — the drive is the limit, the true value may be lower.
    """
    key = connection.strip().lower()
    if key not in _LENOVO_CONNECTIONS:
        raise ParameterError("connection", connection, f"one of {', '.join(_LENOVO_CONNECTIONS)}")
    # Upper bound from Figure 5's text: 4 drives behind the 810-4P write as fast as direct-attached
    # ones, so one drive's write rate is at most a quarter of the 810-4P's command cap (~325 K).
    cap_810 = 1.0 / get_switch("lenovo-810-4p").per_command_s
    drive = get_drive("toshiba-px04pmb-960gb").replace(rand_write_iops=cap_810 / 4, provenance={
        "rand_write_iops": "calibrated: upper bound 1.3 M / 4 from LP0865 Figure 5 text ('all three configurations "
                           "perform equally' on 4K random write: the drive is the limit); the true value may be lower"})
    sw = _LENOVO_CONNECTIONS[key]
    return Topology(
        name=f"lenovo-sr850-{key}", host=_sr850_host(), drive=drive,
        switch=get_switch(sw) if sw else None, default_drives=(1, 2, 3, 4),
        notes="Lenovo Press LP0865 (2018), seed lenovo-lp0865-pcie-host-connections.txt. "
              + _details(lenovo_sr850),
    )


def dell_r7525() -> Topology:
    """Dell DfD (2023): PowerEdge R7525, 1-24 Samsung PM1733 Gen4 x4 drives, CPU direct attach.

    The PM1733's U.2 sequential-read rating (6,400 MB/s) is below what Dell measured per
    drive (80.41 GiB/s / 12 = 7.195 GB/s), so the preset uses the controller's HHHL rating,
    8,000 MB/s, as the drive's read limit (calibrated: the drive is not the limit at 128K).
    The paper does not name the CPUs: the catalog host amd-epyc-7742 (2 x 64 cores at 2.25 GHz,
    its root complexes and memory) is ASSUMED, as are 80 lanes per socket with 32 reserved (24
    drive bays at x4, 3 xGMI links). Each socket's DMA is capped at a share of its memory
    bandwidth (docs/physics.md §12.5): 8 channels of DDR4-3200 x 8 B = 204.8 GB/s per socket
    (the catalog's) times 0.38 — not the catalog's Zen 2 share 0.68 (device DMA measured on a
    Threadripper PRO 3995WX) — an ESTIMATE inside the interval 0.21-0.42 that the paper's sentences
    allow (linear to 12 drives, "stop scaling linearly" at 24 for sequential reads): the 128K read
    bends between 12 and 24 drives while writes, OLTP and 4K random writes still scale. It is a
    stand-in for the bend, not a measured DMA limit: the paper puts the bend on its CPU at 90 %, and
    with the catalog's 0.68 (``--host amd-epyc-7742:2``) 128K reads scale linearly to the links'
    172.23 GB/s at 24 drives. Where it binds, ``nvmemodel ceilings`` says so (:func:`preset_difference`).
    """
    drive = get_drive("samsung-pm1733-u2").replace(seq_read_bytes_per_s=8.0e9, provenance={
        "seq_read_bytes_per_s": "calibrated: the PM1733 HHHL rating 8,000 MB/s (hardwareluxx.de 2019), because Dell "
                                "measured 7.195 GB/s per drive, above the U.2 rating of 6,400 MB/s"})
    cpu = "assumption: the paper does not name the CPUs; catalog host amd-epyc-7742 (AMD EPYC 7742, 2 x 64 cores at 2.25 GHz) assumed"
    catalog = get_host("amd-epyc-7742", sockets=2)
    host = catalog.replace(
        name="Dell PowerEdge R7525 (2 x AMD EPYC 7742 assumed)", lanes_per_socket=80, reserved_lanes_per_socket=32,
        port_lanes=4, cycles_per_io=10000.0, cycles_stack="libaio",
        notes="CPU model not stated in the paper: catalog host amd-epyc-7742 ASSUMED. 160 lanes on 2P "
              "EPYC with 3 xGMI links. Cycles per I/O calibrated on the paper's 4K random reads (IOmeter; its I/O "
              "stack and OS are not stated).",
        provenance={**catalog.provenance, "sockets": "spec: 2-socket server (Dell DfD)", "cores_per_socket": cpu,
                    "clock_hz": cpu, "gen": "spec: PCIe Gen4 root ports (Dell DfD)",
                    "port_lanes": "spec: Gen4 x4 per drive, CPU direct attach (Dell DfD)",
                    "lanes_per_socket": "assumption: 160 lanes on 2P EPYC with 3 xGMI links",
                    "reserved_lanes_per_socket": "assumption: 24 drive bays at x4 leave 32 per socket",
                    "cycles_per_io": "calibrated: 10,000 cycles per I/O, inside the 8,300-16,500 that the paper's 4K "
                                     "random reads allow on the assumed CPU (linear to 12 drives, 17 M IOPS, so at "
                                     "most 288 G cycles/s / 17 M; not linear to 24 drives, 34.8 M from the drives, "
                                     "so at least 288 G / 34.8 M). Dell ran IOmeter without naming its OS or I/O "
                                     "stack, so no stack default is assumed: libaio's measured 8,200 (fio) lies just "
                                     "below the interval, StorPort's estimated 20,500 above it; 10,000 is kept from "
                                     "the former libaio estimate since nothing narrows the interval; it stands for "
                                     "libaio (cycles_stack), other stacks take their defaults (docs/physics.md §12.8)"})
    link = catalog.platform["tree.inter_socket_bytes_per_s"] * 3 / 4  # 3 of the 4 xGMI links with 160 lanes
    dma = {"memory.dma_fraction": 0.38, "tree.inter_socket_bytes_per_s": link}
    dma_sources = {
        "tree.inter_socket_bytes_per_s": f"inferred: 3 xGMI links (160 PCIe lanes) of the assumed EPYC 7742 x "
                                         f"{link / 3 / 1e9:g} GB/s per direction (catalog platform amd-zen2-rome)",
        "memory.dma_fraction": "estimate: a stand-in for the paper's 128K-read bend, not a measured DMA limit: "
                               "0.38, inside the 0.21-0.42 the paper allows (128K reads linear to 12 drives, 43.1 "
                               "GB/s per socket; not linear to 24, below 86.1 GB/s); the paper names neither the "
                               "CPU nor the DIMM population (the 204.8 GB/s peak assumes all 8 channels at "
                               "DDR4-3200). The paper puts the bend on its "
                               "CPU at 90 %, and device DMA through this Zen 2 I/O die was measured at 0.68 of its "
                               "DDR peak (the catalog platform amd-zen2-rome, a Threadripper PRO 3995WX): with 0.68 "
                               "the 128K reads scale linearly to 24 drives, against the paper, so the preset keeps "
                               "0.38 for the bend (docs/physics.md §12.5, §12.8)"}
    return Topology(name="dell-r7525", host=host, drive=drive, default_drives=(1, 2, 4, 8, 12, 24),
                    extras=dma, extras_sources=dma_sources,
                    notes="Dell DfD 'Analyzing How Gen4 NVMe Drive Performance Scales on the PowerEdge R7525' "
                          "(2023), seed dell-r7525-gen4-nvme-scaling.txt. " + _details(dell_r7525))


def broadcom_stingray() -> Topology:
    """Broadcom Stingray PS1100R (2019): 4 x HGST SN200 behind a PEX9797, NVMe-oF RoCEv2 over 100 GbE.

    Single-initiator setup (topology 1 of the paper): one x86 initiator with a 100G P1100p
    NIC, SPDK on both sides. RoCE MTU 4096 (Ethernet MTU 4200) is INFERRED: the measured
    2,811 K IOPS is impossible at RoCE MTU 1024 (ceiling 2.755 M, docs/physics.md §7.3). The
    target's 8 A72 cores at 3 GHz are from the paper; SPDK's cycles per I/O are an x86
    figure (assumption for Arm). The switch's link widths are assumptions (switches.csv).
    """
    host = Host(name="Broadcom Stingray PS1100R (8 x Arm A72, 3 GHz)", sockets=1, cores_per_socket=8,
                clock_hz=3.0e9, gen=3, lanes_per_socket=16, port_lanes=4,
                notes="Paper: 'octal-core A72 Arm-based CPU subsystem running at ... 3 GHz'. Lanes: assumption. Not a "
                      "catalog host (an SoC): its root complexes, memory and DMA limits stay unknown (upper bound).")
    fabric = Fabric(name="100 GbE RoCEv2, single initiator", transport=Transport.ROCE_V2, line_rate_bits_per_s=100e9,
                    initiator_bits_per_s=100e9, eth_mtu=4200, roce_mtu=4096, added_latency_s=10e-6,
                    notes="Paper: 'NVMe-oF latency of ~10 us'; MTU inferred (docs/physics.md §7.3).",
                    provenance={"eth_mtu": "inferred: 2,811 K IOPS is impossible at RoCE MTU 1024 (docs/physics.md §7.3)",
                                "roce_mtu": "inferred: 2,811 K IOPS is impossible at RoCE MTU 1024 "
                                            "(docs/physics.md §7.3)",
                                "added_latency_s": "spec: Broadcom paper, 'NVMe-oF latency of ~10 us'",
                                "line_rate_bits_per_s": "spec: 100G P1100p NIC (Broadcom paper)",
                                "initiator_bits_per_s": "spec: one initiator with a 100G NIC (Broadcom paper)"})
    return Topology(name="broadcom-stingray", host=host, drive=get_drive("hgst-sn200-1600gb"),
                    switch=get_switch("broadcom-pex9797").replace(ports=4), fabric=fabric,
                    default_drives=(1, 2, 3, 4),
                    notes="Broadcom 'NVMe over Fabrics Performance Stingray-Based Storage Appliance' (2019), seed "
                          "broadcom-stingray-nvme-of.txt. " + _details(broadcom_stingray))


def ion_sr71mach5(os: str = "linux", share: str = "none") -> Topology:
    """ION SR-71mach5+ SpeedServer: 8 NVMe drives, 4 per socket on PCIe 3.0 x4, MD RAID-5, CPU-bound.

    The paper names neither the CPUs nor the NVMe model: 2 x 14 cores at 2.4 GHz and the
    Intel P3700 are ASSUMPTIONS. The drives form two 4-drive software RAID-5 arrays (paper).
    Cycles per I/O are split: the OS stack's default (libaio 8,200 on Linux, measured; storport
    20,500 on Windows, an ESTIMATE; docs/physics.md §4) plus the RAID layer's, CALIBRATED so that the
    sum reproduces the paper's CPU-bound 4K random reads — 3 M IOPS on Linux (fio) and 1.2 M on
    Windows Server 2012 R2 (IOmeter): 14,200 and 35,500 cycles (they include the file system).
    ``share="nfs3"`` / ``"smb3"`` puts the file-sharing protocol in front (docs/physics.md §12.4).
    """
    from ..ceiling.sharing import PROTOCOLS
    from .host import STACK_CYCLES, IoStack

    key = os.strip().lower()
    target = {"linux": 3.0e6, "windows": 1.2e6}
    if key not in target:
        raise ParameterError("os", os, "'linux' or 'windows'")
    share = share.strip().lower()
    if share not in PROTOCOLS:
        raise ParameterError("share", share, f"one of {', '.join(PROTOCOLS)}")
    sockets, cores, clock = 2, 14, 2.4e9
    total = sockets * cores * clock / target[key]
    stack = IoStack.LIBAIO if key == "linux" else IoStack.WINDOWS_STORPORT
    stack_cycles, stack_source = STACK_CYCLES[stack]
    what = "Linux, fio" if key == "linux" else "Windows Server 2012 R2, IOmeter"
    host = Host(name=f"ION SR-71mach5+ ({key}, 2 x 14 cores assumed)", sockets=sockets, cores_per_socket=cores,
                clock_hz=clock, gen=3, lanes_per_socket=40, reserved_lanes_per_socket=24, port_lanes=4,
                # Linux: another stack (spdk, io_uring) is charged its own cost; Windows has one stack, StorPort
                cycles_per_io=stack_cycles, cycles_stack="libaio" if key == "linux" else "",
                notes="4 NVMe drives per socket through x16 risers split into 4 x4 (paper); 16 lanes per socket "
                      "for NVMe, the rest reserved for the SAS controllers and NIC (assumption). The paper names no "
                      "CPU, so no catalog host is assumed: root complexes, memory and the inter-socket link stay "
                      "unknown (the results are upper bounds there).",
                provenance={"cycles_per_io": f"estimate: the {stack.value} stack's default; {stack_source}",
                            "sockets": "assumption: the paper does not name the CPUs",
                            "cores_per_socket": "assumption: 14 cores (paper names no CPU)",
                            "clock_hz": "assumption: 2.4 GHz (paper names no CPU)"})
    raid_src = "spec: ION paper, 'MD software RAID configured (2) RAID 5 software RAID arrays' of 4 NVMe each"
    extras: dict[str, float | str] = {"raid.level": "raid5", "raid.width": 4.0,
                                      "raid.cycles_per_io": total - stack_cycles,
                                      "share.protocol": share}
    sources = {"raid.level": raid_src, "raid.width": raid_src,
               "raid.cycles_per_io": f"calibrated: {target[key] / 1e6:g} M IOPS CPU-bound 4K random read ({what}; ION "
                                     f"observations) on the assumed CPUs = {total:,.0f} cycles per I/O, minus the "
                                     f"stack's {stack_cycles:,.0f}; includes the file system path",
               "share.protocol": "spec: ION shared the arrays over NFS (Linux) and SMB3 (Windows)" if share != "none"
               else "spec: local use ('on target')"}
    if share != "none":  # the protocol's default cycles, stated so that explanations quote them with their source
        cycles, per_byte, *_, proto_source = PROTOCOLS[share]
        extras.update({"share.cycles_per_io": cycles, "share.cycles_per_byte": per_byte})
        sources.update({"share.cycles_per_io": proto_source, "share.cycles_per_byte": proto_source})
    suffix = "" if share == "none" else f"-{share}"
    return Topology(name=f"ion-sr71mach5-{key}{suffix}", host=host, drive=get_drive("intel-p3700-800gb"),
                    default_drives=tuple(range(1, 9)), extras=extras, extras_sources=sources,
                    notes="ION 'Observations on NVMe SSDs in Server Applications', seed ion-nvme-ssds-in-server-"
                          "applications.txt. " + _details(ion_sr71mach5))


#: The workload a preset's paper ran, where it differs from the CLI's (QD32, libaio): preset → (Workload fields,
#: what the paper ran). ``nvmemodel ceilings``/``sweep`` use these fields where --iodepth / --io-stack (and --set or
#: --grid of workload.iodepth / workload.io_stack) are omitted, and say so; the Python API keeps its explicit
#: :class:`~nvmemodel.topology.workload.Workload`. Only papers that state it: Dell (IOmeter), Lenovo (fio) and ION
#: name neither stack nor queue depth.
WORKLOAD_DEFAULTS: dict[str, tuple[dict, str]] = {
    "broadcom-stingray": ({"iodepth": 128, "io_stack": "spdk"},
                          ("the paper's target runs SPDK, its initiator SPDK perf -q 128 or fio's SPDK plugin at "
                           "iodepth=128 per drive")),
}


def workload_defaults(name: str) -> tuple[dict, str]:
    """``(fields, why)`` of :data:`WORKLOAD_DEFAULTS` for preset ``name``; ``({}, "")`` where its paper states none.

    >>> workload_defaults("broadcom-stingray")[0]
    {'iodepth': 128, 'io_stack': 'spdk'}
    >>> workload_defaults("dell-r7525")
    ({}, '')
    """
    return WORKLOAD_DEFAULTS.get(name.strip().lower(), ({}, ""))


#: Preset name → factory.
PRESETS: dict[str, Callable[[], Topology]] = {
    "lenovo-sr850-direct": lambda: lenovo_sr850("direct"),
    "lenovo-sr850-1610-4p": lambda: lenovo_sr850("1610-4p"),
    "lenovo-sr850-810-4p": lambda: lenovo_sr850("810-4p"),
    "dell-r7525": dell_r7525,
    "broadcom-stingray": broadcom_stingray,
    "ion-sr71mach5-linux": lambda: ion_sr71mach5("linux"),
    "ion-sr71mach5-windows": lambda: ion_sr71mach5("windows"),
    "ion-sr71mach5-linux-nfs3": lambda: ion_sr71mach5("linux", share="nfs3"),
    "ion-sr71mach5-windows-smb3": lambda: ion_sr71mach5("windows", share="smb3"),
}


def preset(name: str) -> Topology:
    """A seed system by name (see :data:`PRESETS`); raises :class:`UnknownNameError` with suggestions."""
    try:
        return PRESETS[name.strip().lower()]()
    except KeyError:
        raise UnknownNameError("preset", name, list(PRESETS)) from None




def preset_difference(curve, overrides=None) -> str | None:
    """Where a preset's own value of a catalog host's platform parameter binds the curve, one sentence saying so and
    what the catalog host's value gives instead (QA s25 H37: the R7525 preset's socket DMA, 0.38 of DDR peak, a
    stand-in for its paper's 128K-read bend, against the Zen 2 platform's measured 0.68); else None. ``overrides``:
    those the curve was evaluated with (a value overridden is not the preset's).

    >>> import nvmemodel as nm
    >>> c = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=[12, 24])
    >>> print(preset_difference(c))  # doctest: +NORMALIZE_WHITESPACE
    socket_dma binds at 24 drives on this preset's own memory.dma_fraction = 0.38 (estimate: a stand-in for the
    paper's 128K-read bend, not a measured DMA limit); the catalog host amd-epyc-7742's is 0.68 (measured), with which
    the same workload reaches 172.23 GB/s (pcie_link) at 24 drives (--host amd-epyc-7742:2)
    """
    topo, overrides = curve.topology, dict(overrides or {})
    host = None if hasattr(topo, "groups") else getattr(topo, "host", None)
    if host is None or not getattr(host, "key", None) or not getattr(topo, "extras", None):
        return None
    from ..ceiling.components import get_component
    from ..parameters import PARAMETERS

    bound = {str(b) for b in curve.binding}
    for name, value in topo.extras.items():
        theirs = host.platform.get(name)
        if theirs is None or name in overrides or float(theirs) == float(value) or PARAMETERS[name].unit != "1":
            continue  # a share the preset sets differently (rates such as the xGMI links follow its layout)
        comps = [c for c in bound if name in get_component(c).parameters]
        if not comps:
            continue
        from ..ceiling.evaluate import evaluate

        drives = [int(n) for n, b in zip(curve.drives, curve.binding) if str(b) in comps]
        n = drives[-1]
        other = evaluate(topo, curve.workload, drives=[n], overrides={**overrides, name: theirs})
        src = topo.extras_sources.get(name, "")
        status, _, text = src.partition(": ")
        status_catalog = host.platform_sources.get(name, "").split(":", 1)[0]
        first = text.split(":", 1)[0] if text else ""
        at = f"{drives[0]}" if len(drives) == 1 else f"{drives[0]}-{n}"
        return (f"{comps[0]} binds at {at} drives on this preset's own {name} = {PARAMETERS[name].format(value)} "
                f"({status}: {first}); the catalog host {host.key}'s is {PARAMETERS[name].format(theirs)} "
                f"({status_catalog}), with which the same workload reaches {other.bandwidth_at(n) / 1e9:.2f} GB/s "
                f"({other.binding_at(n)}) at {n} drives (--host {host.key}:{host.sockets})")
    return None
