"""Real lspci text of two real machines (lspci 3.9.0 run on their sysfs snapshots; tests/data/SOURCES.md),
read three independent ways: ``lspci -vvv`` text, ``lspci -tv`` drawing, and the sysfs snapshot itself."""

import pathlib

from nvmemodel.discover import build_topology, parse_lspci_tree, read_lspci, read_sysfs

LSPCI = pathlib.Path(__file__).resolve().parents[1] / "data" / "lspci"
#: the pci.ids lines of these machines' devices, from the pci.ids the texts were made with (names then agree
#: on every machine, whatever pci.ids it has)
PCI_IDS = LSPCI.parent / "sysfs" / "pci.ids-subset"
DELL = LSPCI / "hwloc-dell-xeon-e5-2s-p3600"
VE = LSPCI / "hwloc-xeon-2s-pcie-switches-ve"


def _three(stem: pathlib.Path, box: pathlib.Path):
    verbose = read_lspci(stem.parent / f"{stem.name}_vvv.txt")
    drawing = parse_lspci_tree((stem.parent / f"{stem.name}_tv.txt").read_text())
    return verbose, drawing, read_sysfs(box, pci_ids=PCI_IDS)


def test_dell_box_three_readers_agree(nvme_box):
    verbose, drawing, sysfs = _three(DELL, nvme_box)
    assert set(verbose.devices) == set(drawing.devices) == set(sysfs.devices) and len(verbose) == 137
    parents = {b: d.parent for b, d in verbose.devices.items()}
    assert parents == {b: d.parent for b, d in drawing.devices.items()}
    assert parents == {b: d.parent for b, d in sysfs.devices.items()}
    assert {b: d.name for b, d in verbose.devices.items()} == {b: d.name for b, d in sysfs.devices.items()}
    assert {b: d.numa_node for b, d in verbose.devices.items()} == {b: d.numa_node for b, d in sysfs.devices.items()}
    # an unconfigured bridge (secondary bus 0, drawn "+-11.0--") is nobody's parent
    assert verbose.children("0000:00:11.0") == []


def test_dell_box_nvme_is_a_p3600_by_its_subsystem(nvme_box):
    verbose, _, sysfs = _three(DELL, nvme_box)
    (a,), (b,) = verbose.nvme(), sysfs.nvme()
    assert a.bdf == b.bdf == "0000:00:02.0"
    assert a.label == b.label == "Intel Corporation PCIe Data Center SSD (Intel Corporation DC P3600 SSD [Add-in Card])"
    found = build_topology(verbose)
    # the subsystem text names the DC P3600: its catalog row (1.6 TB assumed, flagged), not the P3700's
    assert found.topology.drive.name == "Intel SSD DC P3600 1.6TB"
    assert "read as catalog drive intel-p3600-1600gb (by name); capacity variant assumed: 1.6 TB" in \
        found.flag("drive_assumed").message
    assert {"reader_notes", "link_unknown", "numa_unknown", "mps_unknown", "host_assumed"} <= {
        f.code for f in found.flags}
    assert found.flag("unknown_drive") is None and found.flag("drive_ambiguous") is None
    # on root bus 00 with its port type unreadable (64-byte config images): it may be integrated, not cut off
    assert found.flag("truncated_tree") is None
    assert "80 device(s) show 'Capabilities: <access denied>'" in found.flag("reader_notes").message


def test_switch_box_three_readers_agree(switch_box):
    verbose, drawing, sysfs = _three(VE, switch_box)
    assert set(verbose.devices) == set(drawing.devices) == set(sysfs.devices) and len(verbose) == 28
    parents = {b: d.parent for b, d in verbose.devices.items()}
    assert parents == {b: d.parent for b, d in drawing.devices.items()}
    # sysfs also knows the parent the snapshot left out (5f:03.0 has no bus/pci entry); lspci cannot
    differ = {b: (p, sysfs[b].parent) for b, p in parents.items() if p != sysfs[b].parent}
    assert differ == {"0000:60:00.0": (None, "0000:5f:03.0"), "0000:60:00.1": (None, "0000:5f:03.0")}
    assert [a.bdf for a in verbose.ancestors("0000:1b:00.0")] == ["0000:19:08.0", "0000:18:00.0", "0000:17:00.0"]
    assert verbose["0000:1b:00.0"].name == "NEC Corporation Vector Engine 1.0"
