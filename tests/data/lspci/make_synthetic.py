"""Write SYNTHETIC PCI config-space dumps and have the real ``lspci`` decode them (``lspci -F``).

No public, permissively licensed ``lspci -vvv`` output of an NVMe server with a PCIe switch was
found (the large linuxhw/LsPCI collection states no license), so the server fixtures here are
synthetic machines: this script writes their configuration space byte by byte (PCI Local Bus and
PCIe Base Specification register layouts: header type 0/1, Express capability with DevCap,
DevCtl, LnkCap, LnkSta) and Debian's pciutils renders them exactly as on a real machine. The
text format is therefore real lspci output; the machines are invented and labelled so. lspci
prints no NUMA node in dump mode, so NUMA is tested through the sysfs reader.

Run from the repository root (needs ``lspci``, Debian package ``pciutils``)::

    python tests/data/lspci/make_synthetic.py

Deterministic: the same bytes every run (no randomness).
"""

from __future__ import annotations

import pathlib
import struct
import subprocess

HERE = pathlib.Path(__file__).resolve().parent

# PCIe capability port types (PCIe Base Spec, PCI Express Capabilities Register bits 7:4)
ENDPOINT, ROOT_PORT, UPSTREAM, DOWNSTREAM = 0, 4, 5, 6
_MPS_CODE = {128: 0, 256: 1, 512: 2, 1024: 3, 2048: 4, 4096: 5}
_SPEED_CODE = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}  # Gen n → Link Speed encoding n (2.5/5/8/16/32 GT/s)


def config(vendor, device, cls, *, port_type, bus=None, cap=(4, 4), sta=None, mps=256, mrrs=512, mps_cap=512,
           port=0, prog_if=0, slot=False, subsys=None):
    """256 bytes of configuration space. ``bus``: (primary, secondary, subordinate) for a bridge;
    ``subsys``: (subsystem vendor, subsystem id) of an endpoint (header type 0, offsets 2Ch/2Eh)."""
    sta = sta or cap
    b = bytearray(256)
    struct.pack_into("<HH", b, 0, vendor, device)
    struct.pack_into("<HH", b, 4, 0x0406, 0x0010)  # Mem+ BusMaster+ DisINTx+; status: capability list
    b[8], b[9], b[10], b[11] = 0x00, prog_if, cls & 0xFF, cls >> 8
    b[0x0E] = 1 if bus else 0  # header type
    if bus:
        b[0x18], b[0x19], b[0x1A] = bus
    elif subsys:
        struct.pack_into("<HH", b, 0x2C, *subsys)
    b[0x34] = 0x40
    b[0x40], b[0x41] = 0x10, 0x00  # PCI Express capability, last in the list …
    if bus and subsys:  # … unless a bridge names its board: Subsystem ID capability (0Dh) after it
        b[0x41] = 0x80
        b[0x80], b[0x81] = 0x0D, 0x00
        struct.pack_into("<HH", b, 0x84, *subsys)
    struct.pack_into("<H", b, 0x42, 2 | (port_type << 4) | (0x100 if slot else 0))  # version 2
    struct.pack_into("<I", b, 0x44, _MPS_CODE[mps_cap] | 0x8000)  # DevCap (role-based error reporting)
    struct.pack_into("<H", b, 0x48, (_MPS_CODE[mps] << 5) | (_MPS_CODE[mrrs] << 12) | 0x10)  # DevCtl (RlxdOrd)
    struct.pack_into("<I", b, 0x4C, _SPEED_CODE[cap[0]] | (cap[1] << 4) | (port << 24))  # LnkCap
    struct.pack_into("<H", b, 0x52, _SPEED_CODE[sta[0]] | (sta[1] << 4) | 0x2000)  # LnkSta (DLActive)
    return bytes(b)


def dump(devices) -> str:
    """``lspci -x``-style text: a BDF line, then 16 bytes per line."""
    out = []
    for bdf, data in devices:
        out.append(f"{bdf} (synthetic)")
        for off in range(0, len(data), 16):
            out.append(f"{off:02x}: " + " ".join(f"{x:02x}" for x in data[off:off + 16]))
        out.append("")
    return "\n".join(out)


AMD_RC, AMD_GPP = (0x1022, 0x1480), (0x1022, 0x1483)
PEX88096 = (0x1000, 0xC010)  # "PEX880xx PCIe Gen 4 Switch" in pci.ids
PM173X = (0x144D, 0xA824)    # "NVMe SSD Controller PM173X"
PM9A3 = (0x144D, 0xA80A)     # "NVMe SSD Controller PM9A1/PM9A3/980PRO"
BRIDGE, HOST, NVME = 0x0604, 0x0600, 0x0108


def switched_server(mps=128):
    """One Gen4 x16 root port → a Gen4 switch with 6 PM173X drives (6 × x4 = 24 lanes behind 16: 1.5×
    oversubscribed), drive 03:00.0 trained x2 of x4; two more PM173X on their own root ports, one of
    them trained at Gen3 in a Gen4 slot; one PM9A3 (a second model) on a fourth root port. MPS ``mps``."""
    d = [("0000:00:00.0", config(*AMD_RC, HOST, port_type=ROOT_PORT, cap=(4, 16)))]
    d.append(("0000:00:01.1", config(*AMD_GPP, BRIDGE, port_type=ROOT_PORT, bus=(0, 1, 8), cap=(4, 16), mps=mps,
                                      slot=True)))
    d.append(("0000:01:00.0", config(*PEX88096, BRIDGE, port_type=UPSTREAM, bus=(1, 2, 8), cap=(4, 16), mps=mps)))
    for i in range(6):
        bus = 3 + i
        d.append((f"0000:02:{i:02x}.0", config(*PEX88096, BRIDGE, port_type=DOWNSTREAM, bus=(2, bus, bus),
                                               cap=(4, 4), sta=(4, 2) if i == 0 else (4, 4), mps=mps, port=i + 1,
                                               slot=True)))
        d.append((f"0000:{bus:02x}:00.0", config(*PM173X, NVME, port_type=ENDPOINT, cap=(4, 4),
                                                 sta=(4, 2) if i == 0 else (4, 4), mps=mps, prog_if=2)))
    for j, (root, bus, sta) in enumerate((("0000:00:03.1", 0x41, (4, 4)), ("0000:00:03.2", 0x42, (3, 4)))):
        d.append((root, config(*AMD_GPP, BRIDGE, port_type=ROOT_PORT, bus=(0, bus, bus), cap=(4, 4), sta=sta,
                               mps=mps, slot=True)))
        d.append((f"0000:{bus:02x}:00.0", config(*PM173X, NVME, port_type=ENDPOINT, cap=(4, 4), sta=sta, mps=mps,
                                                 prog_if=2)))
    d.append(("0000:00:03.3", config(*AMD_GPP, BRIDGE, port_type=ROOT_PORT, bus=(0, 0x43, 0x43), cap=(4, 4),
                                     mps=mps, slot=True)))
    d.append(("0000:43:00.0", config(*PM9A3, NVME, port_type=ENDPOINT, cap=(4, 4), mps=mps, prog_if=2)))
    return d


def direct_server():
    """Four PM173X on four Gen4 x4 root ports, every link at full speed, MPS 256: nothing to flag."""
    d = [("0000:00:00.0", config(*AMD_RC, HOST, port_type=ROOT_PORT, cap=(4, 16)))]
    for i in range(4):
        bus = 0x21 + i
        d.append((f"0000:00:03.{i + 1}", config(*AMD_GPP, BRIDGE, port_type=ROOT_PORT, bus=(0, bus, bus),
                                                 cap=(4, 4), mps=256, slot=True)))
        d.append((f"0000:{bus:02x}:00.0", config(*PM173X, NVME, port_type=ENDPOINT, cap=(4, 4), mps=256, prog_if=2)))
    return d


# --- the four machines of issue 19 (invented configurations of real platforms and drives; ids from pci.ids)
HASWELL_DMI, HASWELL_RP3 = (0x8086, 0x2F00), (0x8086, 0x2F08)  # Xeon E5 v3 DMI2 / PCI Express Root Port 3
PEX9733, UCEA200 = (0x10B5, 0x9733), (0x1028, 0x1FC7)        # PEX 9733 / Dell UCEA-200 NVMe PCIe Extender
P3700, P3700_SFF = (0x8086, 0x0953), (0x8086, 0x3703)         # PCIe Data Center SSD / DC P3700 SSD [2.5" SFF]
SKX_DMI, SKX_RP = (0x8086, 0x2020), (0x8086, 0x2030)          # Sky Lake-E DMI3 Registers / PCI Express Root Port A
SM981, SSD970 = (0x144D, 0xA808), (0x144D, 0xA801)            # SM981/PM981/PM983 controller, subsystem 144d:a801
HISI_RP = (0x19E5, 0xA120)                                    # HiSilicon PCIe Root Port with Gen4
BETA_ROCK = (0x8086, 0x0A54)                                  # NVMe Datacenter SSD [3DNAND, Beta Rock Controller]
BCM2712, ASM1182E, MAP1202 = (0x14E4, 0x2712), (0x1B21, 0x1182), (0x1E4B, 0x1202)


def dell_r730_p3700():
    """Dell PowerEdge R730 (Xeon E5 v3): four Intel DC P3700 2.5" drives behind Dell's NVMe PCIe extender (a PEX
    9733 switch, subsystem 1028:1fc7 "UCEA-200") in a Gen3 x16 root port, MPS 256. Invented configuration of
    real ids."""
    d = [("0000:00:00.0", config(*HASWELL_DMI, HOST, port_type=ROOT_PORT, cap=(3, 4))),
         ("0000:00:03.0", config(*HASWELL_RP3, BRIDGE, port_type=ROOT_PORT, bus=(0, 1, 6), cap=(3, 16), slot=True)),
         ("0000:01:00.0", config(*PEX9733, BRIDGE, port_type=UPSTREAM, bus=(1, 2, 6), cap=(3, 16), subsys=UCEA200))]
    for i in range(4):
        bus = 3 + i
        d.append((f"0000:02:{4 + i:02x}.0", config(*PEX9733, BRIDGE, port_type=DOWNSTREAM, bus=(2, bus, bus),
                                                   cap=(3, 4), port=4 + i, slot=True, subsys=UCEA200)))
        d.append((f"0000:{bus:02x}:00.0", config(*P3700, NVME, port_type=ENDPOINT, cap=(3, 4), prog_if=2,
                                                 subsys=P3700_SFF)))
    return d


def skylake_sp_pm983(truncated=False):
    """A 2-socket Skylake-SP (Xeon Scalable) server: six Samsung PM983 on Gen3 x4 root ports of three root
    buses (5d and 85 on socket 0 and 1, d7 on socket 1). The controller id 144d:a808 and subsystem
    144d:a801 are what a PM983 reports — the same as an SM981/PM981 and a 970 EVO/PRO.
    ``truncated``: the same text with the root-port and host-bridge lines cut out."""
    d = []
    for root, buses in ((0x5D, (0x5E, 0x5F)), (0x85, (0x86, 0x87)), (0xD7, (0xD8, 0xD9))):
        if not truncated:
            d.append((f"0000:{root:02x}:05.0", config(*SKX_DMI, HOST, port_type=ROOT_PORT, cap=(3, 4))))
        for i, bus in enumerate(buses):
            if not truncated:
                d.append((f"0000:{root:02x}:{i:02x}.0", config(SKX_RP[0], SKX_RP[1] + i, BRIDGE, port_type=ROOT_PORT,
                                                               bus=(root, bus, bus), cap=(3, 4), slot=True)))
            d.append((f"0000:{bus:02x}:00.0", config(*SM981, NVME, port_type=ENDPOINT, cap=(3, 4), prog_if=2,
                                                     subsys=SSD970)))
    return d


def kunpeng_920():
    """A Kunpeng 920 (TaiShan) server: two Intel NVMe Datacenter SSDs (Beta Rock controller: P4500/P4510/P4610
    family) on Gen4 root ports of two root buses; only its ``lspci -tv`` drawing is kept, as in the issue."""
    d = []
    for root, bus in ((0x00, 0x01), (0x80, 0x81)):
        d.append((f"0000:{root:02x}:00.0", config(*HISI_RP, BRIDGE, port_type=ROOT_PORT, bus=(root, bus, bus),
                                                  cap=(4, 4), sta=(3, 4), slot=True)))
        d.append((f"0000:{bus:02x}:00.0", config(*BETA_ROCK, NVME, port_type=ENDPOINT, cap=(3, 4), prog_if=2)))
    return d


def raspberry_pi5_maxio():
    """A Raspberry Pi 5: its BCM2712 Gen2 x1 root port (domain 0001) → an ASMedia ASM1182e Gen2 x1 switch (as on
    a dual-M.2 HAT) → two MAXIO MAP1202 drives, each capable of Gen3 x4 and trained Gen2 x1."""
    return [("0001:00:00.0", config(*BCM2712, BRIDGE, port_type=ROOT_PORT, bus=(0, 1, 4), cap=(2, 1), slot=True)),
            ("0001:01:00.0", config(*ASM1182E, BRIDGE, port_type=UPSTREAM, bus=(1, 2, 4), cap=(2, 1))),
            ("0001:02:03.0", config(*ASM1182E, BRIDGE, port_type=DOWNSTREAM, bus=(2, 3, 3), cap=(2, 1), port=3,
                                    slot=True)),
            ("0001:02:07.0", config(*ASM1182E, BRIDGE, port_type=DOWNSTREAM, bus=(2, 4, 4), cap=(2, 1), port=7,
                                    slot=True)),
            ("0001:03:00.0", config(*MAP1202, NVME, port_type=ENDPOINT, cap=(3, 4), sta=(2, 1), prog_if=2)),
            ("0001:04:00.0", config(*MAP1202, NVME, port_type=ENDPOINT, cap=(3, 4), sta=(2, 1), prog_if=2))]


def zen2_mixed_degraded(same_model=False):
    """QA finding F7: a Zen 2 host (Starship/Matisse root complex), two Gen4 x4 root ports: a PM173X at Gen4 x4 and
    an Intel P4510 (Beta Rock, subsystem 8086:4802 "SE 2.5\" U.2 (P4510)") capable of Gen3 x4 but trained Gen1 x1;
    ``same_model``: the second drive is a PM173X too (capable Gen4 x4, trained Gen1 x1)."""
    d = [("0000:00:00.0", config(*AMD_RC, HOST, port_type=ROOT_PORT, cap=(4, 16)))]
    for i, bus in enumerate((1, 2)):
        d.append((f"0000:00:01.{i + 1}", config(*AMD_GPP, BRIDGE, port_type=ROOT_PORT, bus=(0, bus, bus), cap=(4, 4),
                                                port=i + 1, slot=True)))
    d.append(("0000:01:00.0", config(*PM173X, NVME, port_type=ENDPOINT, cap=(4, 4), prog_if=2,
                                     subsys=(0x144D, 0xA801))))
    second = (PM173X, (4, 4), (0x144D, 0xA801)) if same_model else (BETA_ROCK, (3, 4), (0x8086, 0x4802))
    d.append(("0000:02:00.0", config(*second[0], NVME, port_type=ENDPOINT, cap=second[1], sta=(1, 1), prog_if=2,
                                     subsys=second[2])))
    return d


#: name → (devices, the lspci forms kept)
MACHINES = {
    "synthetic-switched-gen4": (switched_server, ("vvv", "tv")),
    "synthetic-direct-gen4": (direct_server, ("vvv", "tv")),
    "synthetic-dell-r730-p3700": (dell_r730_p3700, ("vvv", "tv")),
    "synthetic-skylake-sp-pm983": (skylake_sp_pm983, ("vvv", "tv")),
    "synthetic-skylake-sp-pm983-truncated": (lambda: skylake_sp_pm983(truncated=True), ("vvv",)),
    "synthetic-kunpeng-920": (kunpeng_920, ("tv",)),
    "synthetic-raspberry-pi5-maxio": (raspberry_pi5_maxio, ("vvv", "tv")),
    "synthetic-zen2-mixed-degraded": (zen2_mixed_degraded, ("vvv", "tv")),
    "synthetic-zen2-pm173x-degraded": (lambda: zen2_mixed_degraded(same_model=True), ("vvv",)),
}


def main(argv=None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--pci-ids", help="pci.ids file for lspci's names (default: the system's; the committed texts "
                                      "of the issue-19 machines used pciutils/pciids commit c1c12547)")
    ap.add_argument("--only", nargs="*", help="machines to write (default: all)")
    args = ap.parse_args(argv)
    ids = ["-i", args.pci_ids] if args.pci_ids else []
    for name, (make, forms) in MACHINES.items():
        if args.only and name not in args.only:
            continue
        dump_path = HERE / f"{name}.dump"
        dump_path.write_text(dump(make()))
        for suffix in forms:
            text = subprocess.run(["lspci", *ids, "-F", str(dump_path), f"-{suffix}"], check=True,
                                  capture_output=True, text=True).stdout
            (HERE / f"{name}_{suffix}.txt").write_text(text)
        print(f"wrote {name}.dump and its lspci -{' / -'.join(forms)} text")


if __name__ == "__main__":
    main()
