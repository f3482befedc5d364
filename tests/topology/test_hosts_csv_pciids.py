"""The PCI names that identify a catalog platform from a saved lspci dump (``lspci_pattern`` of
catalog/host_platforms.csv, used by nvmemodel/discover/platform.py) against the real PCI ID Repository:
tests/data/pciids-platform-excerpt.ids, the root complexes, root ports and host bridges of pci.ids commit c1c12547
(github.com/pciutils/pciids, 2026-08-22) whose names carry a code name.

Found by this check (issue 18, discover's platform detection):
* a client chip's ports carry a server's code name: ``Ice Lake-LP PCI Express Root Port #9`` (8086:34b0, laptop),
  ``Ice Lake Thunderbolt 3 PCI Express Root Port #0`` (8086:8a1d), ``Ice Lake Processor Host Bridge/DRAM
  Registers`` (8086:8a14) all matched ``Ice Lake`` and made a laptop an Ice Lake-SP server: platform.py now
  skips such client names (``CLIENT_PCI_NAMES``);
* ``Genoa`` is also a Silicom capture card's name (1c2c:00a3) and ``Turin`` is inside Intergraph's "w/Texturing"
  (1091:0021): platform.py now takes a name only from the platform's own vendor (``PLATFORM_VENDORS``);
* no root port in pci.ids says "Sapphire Rapids", "Emerald Rapids" or "Granite Rapids" (Xeon 6's are ``Xeon 6900
  6700 6500 Series with P-Cores Processors PCIe and CXL.io Root Port #0``, 8086:0db0), and several alternatives
  of the patterns name no PCI device at all: pinned below as known gaps of host_platforms.csv.
"""

from __future__ import annotations

import pathlib
import re

import pytest

from nvmemodel.discover.platform import CLIENT_PCI_NAMES, PLATFORM_VENDORS, platform_candidates
from nvmemodel.discover.tree import PciDevice, PciTree
from nvmemodel.topology.host import _platforms

PCI_IDS = pathlib.Path(__file__).parents[1] / "data" / "pciids-platform-excerpt.ids"
PORTISH = re.compile(r"root (port|complex)|host bridge", re.IGNORECASE)


def _pci_ids() -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """``{vendor id: (vendor name, [(device id, device name), ...])}`` of the excerpt (pci.ids syntax)."""
    out: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    vendor = None
    for line in PCI_IDS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if not line.startswith("\t"):
            vendor, name = line.split("  ", 1)
            out[vendor] = (name, [])
        elif not line.startswith("\t\t") and vendor:
            device, name = line.strip().split("  ", 1)
            out[vendor][1].append((device, name))
    return out


IDS = _pci_ids()


def _tree(vendor: str, device: str, name: str, *, with_id: bool = True) -> PciTree:
    """One root port as lspci prints it: '<vendor name> <device name>'."""
    d = PciDevice(bdf="0000:00:01.1", class_name="PCI bridge", name=f"{IDS[vendor][0]} {name}",
                  port_type="root_port", pci_id=f"{vendor}:{device}" if with_id else None)
    return PciTree({d.bdf: d}, source="test")


def _alternatives(pattern: str) -> list[str]:
    assert not re.search(r"(?<!\\)[()]", pattern), f"a group in {pattern!r}: split by hand"
    return pattern.split("|")


def _live(vendor_name: str, alternative: str) -> list[tuple[str, str]]:
    """The root-complex / root-port / host-bridge names of the platform's vendor this alternative matches."""
    vid = PLATFORM_VENDORS[vendor_name][0]
    rx = re.compile(alternative, re.IGNORECASE)
    return [(d, n) for d, n in IDS[vid][1] if PORTISH.search(n) and rx.search(n) and not CLIENT_PCI_NAMES.search(n)]


PLATFORMS = list(_platforms().items())
NOT_IN_PCI_IDS = {"intel-sapphire-rapids", "intel-emerald-rapids"}  # Xeon 6 (Granite Rapids): its pci.ids name


@pytest.mark.parametrize("key, row", [pytest.param(k, r, marks=pytest.mark.xfail(
    strict=True, reason="no pci.ids root port carries this code name, and no name specific to these CPUs was found "
                        "(8086:352a-d 'PCI Express Gen5 Port' names no platform)")) if k in NOT_IN_PCI_IDS else (k, r)
    for k, r in PLATFORMS], ids=[k for k, _ in PLATFORMS])
def test_every_platform_is_named_by_a_root_port_of_its_vendor_in_pci_ids(key, row):
    live = [n for alt in _alternatives(row["lspci_pattern"]) for _, n in _live(row["vendor"], alt)]
    assert live, (key, row["lspci_pattern"])
    # and each such port, as lspci prints it (with and without -nn ids), identifies this platform
    for vid_name in live[:3]:
        device = next(d for d, n in IDS[PLATFORM_VENDORS[row["vendor"]][0]][1] if n == vid_name)
        for with_id in (True, False):
            hits = [k for k, _ in platform_candidates(_tree(PLATFORM_VENDORS[row["vendor"]][0], device, vid_name,
                                                            with_id=with_id))]
            assert key in hits, (key, vid_name, hits)


def test_pattern_alternatives_that_name_no_pci_device_are_the_known_ones():
    # an alternative that matches no root port of the vendor in pci.ids identifies nothing; these are pinned so that
    # a new one is seen (and one fixed in host_platforms.csv is taken off this list)
    dead = sorted(f"{k}: {alt}" for k, r in PLATFORMS for alt in _alternatives(r["lspci_pattern"])
                  if not _live(r["vendor"], alt))
    assert dead == sorted([
        r"amd-zen1-naples: Zeppelin", r"amd-zen1-naples: EPYC 7\d\d1",
        r"amd-zen2-rome: Family 17h \(Models 30h-3fh\)", r"amd-zen3-milan: Family 19h \(Models 00h-0fh\)",
        r"amd-zen4-genoa: Family 19h \(Models 10h-1fh\)", r"amd-zen5-turin: Family 1Ah",
        r"intel-skylake-sp: Xeon Platinum 81\d\d", r"intel-skylake-sp: Xeon Gold [56]1\d\d",
        "intel-sapphire-rapids: Sapphire Rapids", "intel-emerald-rapids: Emerald Rapids",
        "intel-granite-rapids: Granite Rapids",
        # these two are vendor names, which lspci prints before every device of the vendor (any Ampere or Huawei root
        # port, AmpereOne's too, then matches), not device names
        "ampere-altra: Ampere", "hisilicon-kunpeng-920: Huawei"])


@pytest.mark.parametrize("device", ["34b0", "34b7", "8a1d", "8a12", "8a14"])
def test_a_client_chips_ice_lake_port_is_not_an_ice_lake_sp_server(device):
    name = dict(IDS["8086"][1])[device]
    assert "Ice Lake" in name and CLIENT_PCI_NAMES.search(name)
    assert platform_candidates(_tree("8086", device, name)) == []
    # the server's own root port still is
    assert [k for k, _ in platform_candidates(_tree("8086", "347a", dict(IDS["8086"][1])["347a"]))] == \
        ["intel-ice-lake-sp"]


@pytest.mark.parametrize("vendor, device", [("1c2c", "00a3"), ("1091", "0021")])
def test_a_code_name_on_another_vendors_device_identifies_nothing(vendor, device):
    name = dict(IDS[vendor][1])[device]  # 'FBC2XG Capture 2x10Gb [Genoa]', '3D graphics processor w/Texturing'
    assert re.search("Genoa|Turin", name, re.IGNORECASE)
    assert platform_candidates(_tree(vendor, device, name)) == []
    assert platform_candidates(_tree(vendor, device, name, with_id=False)) == []
