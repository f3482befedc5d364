"""The four machines of issue 19 (synthetic configuration space of real platforms and drives, decoded by the
real lspci 3.9.0: tests/data/lspci/make_synthetic.py, tests/data/SOURCES.md): every drive matched or flagged,
`lspci -tv` drives found by their names, truncated dumps warned about."""

import pathlib

import pytest

import nvmemodel as nm
from nvmemodel.discover import build_topology, discover, identify_drive, parse_lspci_tree, read_lspci
from nvmemodel.discover.tree import PciDevice

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "lspci"


def _found(stem, *, tree=True, **kw):
    vvv = DATA / f"synthetic-{stem}_vvv.txt"
    tv = DATA / f"synthetic-{stem}_tv.txt"
    return discover(vvv, lspci_tree=tv if tree else None, **kw)


def _codes(found):
    return {f.code for f in found.flags}


def test_dell_r730_p3700_is_matched_by_its_subsystem_and_limited_by_it():
    found = _found("dell-r730-p3700")
    assert [d.bdf for d in found.tree.nvme()] == [f"0000:0{b}:00.0" for b in range(3, 7)]
    assert found.topology.drive.name == "Intel DC P3700 800GB"
    # behind Dell's NVMe extender (PEX 9733, subsystem "UCEA-200"): the catalog adapter, links as discovered
    sw = found.topology.switch
    assert sw.name == "Dell UCEA-200 NVMe PCIe Extender Adapter (PEX 9733)" and (sw.up_lanes, sw.ports) == (16, 4)
    assert "is catalog adapter dell-ucea-200" in found.flag("switch_identified").message
    assert "capacity variant assumed: 800 GB" in found.flag("drive_assumed").message
    assert not {"unknown_drive", "drive_ambiguous", "truncated_tree"} & _codes(found)
    # the issue: 859 K IOPS per drive (the Gen3 x4 link) where the P3700's own 460 K binds
    curve = nm.evaluate(found.topology, nm.Workload("randread", "4K"), drives=[1, 4])
    assert curve.binding_at(1) == "drive"
    assert curve.iops_at(1) == pytest.approx(460_000, rel=1e-9)  # catalog value (recalled), float rounding only


def test_skylake_sp_pm983_is_ambiguous_and_flagged_until_a_drive_is_given():
    found = _found("skylake-sp-pm983")
    assert len(found.tree.nvme()) == 6
    flag = found.flag("drive_ambiguous")
    assert flag.severity == "warn" and len(flag.devices) == 6
    # 144d:a808 / 144d:a801 is what a PM983 reports, and an SM981/PM981 and a 970 EVO/PRO too
    for key in ("samsung-pm983-3.84tb", "samsung-pm981-1tb", "samsung-970-pro-512gb"):
        assert key in flag.message
    assert "the ceilings assume the drive never limits" in flag.message and "--drive KEY" in flag.message
    assert "never limits" in found.topology.describe()  # the line printed above the ceilings table says it too
    curve = nm.evaluate(found.topology, nm.Workload("randread", "4K"), drives=[1])
    assert curve.binding_at(1) != "drive"
    given = _found("skylake-sp-pm983", drive="samsung-pm983-3.84tb")
    assert given.topology.drive.name == "Samsung PM983 3.84TB (U.2)" and given.flag("drive_given") is not None
    assert given.flag("drive_ambiguous") is None
    # at QD32 Little's law binds (32 / 85 us datasheet latency = 376 K); at QD128 the datasheet's 540 K does
    qd32 = nm.evaluate(given.topology, nm.Workload("randread", "4K"), drives=[1])
    assert qd32.binding_at(1) == "queue_depth" and qd32.iops_at(1) == pytest.approx(32 / 85e-6, rel=1e-9)
    curve = nm.evaluate(given.topology, nm.Workload("randread", "4K", iodepth=128), drives=[1])
    assert curve.binding_at(1) == "drive" and curve.iops_at(1) == pytest.approx(540_000, rel=1e-9)


def test_kunpeng_920_tree_alone_finds_the_nvme_named_drives():
    found = discover(DATA / "synthetic-kunpeng-920_tv.txt")
    assert [d.bdf for d in found.tree.nvme()] == ["0000:01:00.0", "0000:81:00.0"]  # was "no NVMe controllers"
    assert found.flag("no_nvme") is None and found.topology is not None
    flag = found.flag("drive_ambiguous")  # the Beta Rock controller: P4500 / P4510 / P4610
    assert {"intel-p4500-4tb", "intel-p4510-2tb", "intel-p4610-3.2tb"} <= set(flag.message.replace(",", " ").split())
    assert found.flag("truncated_tree") is None  # both drives hang below a root port
    assert found.topology.extras["tree.complexes_per_socket"] == 2.0


def test_raspberry_pi5_maxio_behind_an_asm1182e():
    found = _found("raspberry-pi5-maxio")
    assert [d.bdf for d in found.tree.nvme()] == ["0001:03:00.0", "0001:04:00.0"]
    sw = found.topology.switch
    assert (int(sw.up_gen), sw.up_lanes, found.topology.switch_count) == (2, 1, 1)
    assert {"drive_ambiguous", "slot_limits_drive", "uplink_oversubscribed"} <= _codes(found)
    given = _found("raspberry-pi5-maxio", drive="raspberry-pi-ssd-512gb")
    curve = nm.evaluate(given.topology, nm.Workload("randread", "4K"), drives=[1, 2])
    # 50 K IOPS per drive (launch figure), far below the Gen2 x1 link: the drive binds at one, twice it at two
    assert curve.binding_at(1) == "drive" and curve.iops_at(2) == pytest.approx(100_000, rel=1e-9)


def test_truncated_dump_is_warned_about():
    found = discover(DATA / "synthetic-skylake-sp-pm983-truncated_vvv.txt")
    flag = found.flag("truncated_tree")
    assert flag.severity == "warn" and len(flag.devices) == 6
    assert "counted as a root complex of its own" in flag.message
    whole = _found("skylake-sp-pm983", tree=False)
    assert whole.flag("truncated_tree") is None
    # cut tree: 6 "root complexes"; whole tree: 3
    assert found.topology.extras["tree.complexes_per_socket"] == 6.0
    assert whole.topology.extras["tree.complexes_per_socket"] == 3.0


def test_tree_and_verbose_forms_agree_on_the_drives():
    for stem in ("dell-r730-p3700", "skylake-sp-pm983", "raspberry-pi5-maxio"):
        verbose = read_lspci(DATA / f"synthetic-{stem}_vvv.txt")
        tree = parse_lspci_tree((DATA / f"synthetic-{stem}_tv.txt").read_text())
        assert [d.bdf for d in verbose.nvme()] == [d.bdf for d in tree.nvme()], stem
        assert {b: d.parent for b, d in verbose.devices.items()} == {b: d.parent for b, d in tree.devices.items()}


@pytest.mark.parametrize("name, subsystem, pci_id, sub_id, expect", [
    ("Intel Corporation PCIe Data Center SSD", "Intel Corporation DC P3700 SSD [2.5\" SFF]", None, None,
     "intel-p3700-800gb"),
    ("Intel Corporation PCIe Data Center SSD", None, "8086:0953", "8086:3703", "intel-p3700-800gb"),  # ids only
    ("[8086:0953]", None, "8086:0953", "8086:3709", "intel-p3600-1600gb"),  # no pci.ids names: the subsystem id
    ("Sandisk Corp WD Black SN850X NVMe SSD", None, None, None, "wd-black-sn850x-2tb"),
    ("Western Digital", None, "15b7:5030", None, "wd-black-sn850x-2tb"),  # device id claimed by one row
    ("Samsung Electronics Co Ltd NVMe SSD Controller PM173X", None, None, None, "samsung-pm1733-u2"),
    ("Solidigm P44 Pro NVMe SSD [Hollywood Beach]", None, None, None, "solidigm-p44-pro-2tb"),
    ("Phison Electronics Corporation PS5026-E26 PCIe5 NVMe Controller", None, "1987:5026", None, None),  # 2 rows
    ("Realtek RTS5763DL NVMe SSD Controller (DRAM-less)", None, "10ec:5763", None, None),  # not in the catalog
])
def test_identify_drive(name, subsystem, pci_id, sub_id, expect):
    m = identify_drive(PciDevice(bdf="0000:01:00.0", name=name, subsystem=subsystem, pci_id=pci_id,
                                 subsystem_id=sub_id))
    assert m.key == expect if expect else m.drive is None
    if name.startswith("Phison"):
        assert set(m.candidates) == {"crucial-t700-2tb", "seagate-firecuda-540-2tb"}


def test_lspci_nn_ids_are_read():
    text = ("01:00.0 Non-Volatile memory controller [0108]: Intel Corporation PCIe Data Center SSD [8086:0953] "
            "(rev 01) (prog-if 02 [NVM Express])\n\tSubsystem: Intel Corporation DC P3600 SSD [Add-in Card] "
            "[8086:3709]\n")
    (d,) = nm.discover.parse_lspci(text)
    assert (d.pci_id, d.subsystem_id, d.name) == ("8086:0953", "8086:3709", "Intel Corporation PCIe Data Center SSD")
    assert build_topology(nm.discover.parse_lspci(text)).topology.drive.name == "Intel SSD DC P3600 1.6TB"


def test_real_lspci_excerpt_from_daos():
    """A real `lspci -vvv` block of one NVMe controller (an Intel 8086:0953 with an HPE subsystem), copied from
    DAOS's test data (BSD-2-Clause-Patent; tests/data/SOURCES.md): indented with spaces, no bridges above it."""
    found = discover(DATA / "daos-intel-0953-hpe-excerpt_vvv.txt")
    (d,) = found.tree.nvme()
    assert (d.bdf, d.subsystem, d.link_text(), d.mps, d.mrrs) == (
        "0000:01:00.0", "Hewlett Packard Enterprise Device 00a8", "Gen3 x4", 128, 512)
    assert {"truncated_tree", "drive_ambiguous", "mps_128"} <= _codes(found)  # one block: its root port is not there
    assert "intel-p3700-800gb, intel-p3600-1600gb" in found.flag("drive_ambiguous").message
    assert "7.9%" in found.flag("mps_128").message  # the 128K-read link ceiling at MPS 128 vs 256 (model value)


def _adapter_tree(up_width, name="Lenovo ThinkSystem 810-4P NVMe Switch Adapter"):
    """Root port → switch (a Lenovo 810-4P by its subsystem text) with 4 Gen3 x4 ports → 4 PM1733 trained Gen3 x4."""
    from nvmemodel.discover import PciTree

    devs = [PciDevice("0000:00:01.0", class_code=0x0604, port_type="root_port", secondary_bus=1, subordinate_bus=6,
                      cap_gts=8.0, cap_width=16, sta_gts=8.0, sta_width=up_width),
            PciDevice("0000:01:00.0", class_code=0x0604, port_type="upstream", parent="0000:00:01.0", secondary_bus=2,
                      subordinate_bus=6, name="PLX Technology, Inc. PEX 9733", subsystem=name, cap_gts=8.0,
                      cap_width=up_width, sta_gts=8.0, sta_width=up_width)]
    for i in range(4):
        devs.append(PciDevice(f"0000:02:0{i}.0", class_code=0x0604, port_type="downstream", parent="0000:01:00.0",
                              secondary_bus=3 + i, subordinate_bus=3 + i, cap_gts=8.0, cap_width=4, sta_gts=8.0,
                              sta_width=4))
        devs.append(PciDevice(f"0000:0{3 + i}:00.0", class_code=0x0108, port_type="endpoint",
                              parent=f"0000:02:0{i}.0", name="Samsung Electronics Co Ltd NVMe SSD Controller PM173X",
                              cap_gts=16.0, cap_width=4, sta_gts=8.0, sta_width=4))
    return PciTree({d.bdf: d for d in devs}, source="test tree")


def test_identified_adapter_brings_its_calibration_only_on_its_own_links():
    same = build_topology(_adapter_tree(8))
    sw = same.topology.switch
    # the LP0865 calibration (Figure 4 efficiency, Figure 6 per-command cost) on the x8 uplink it was measured on
    assert sw.efficiency == pytest.approx(0.8636) and sw.per_command_s == pytest.approx(769.231e-9)
    assert "calibrated efficiency, per_command_s applied" in same.flag("switch_identified").message
    wider = build_topology(_adapter_tree(16))  # an x16 uplink is not the adapter LP0865 measured
    sw = wider.topology.switch
    assert (sw.up_lanes, sw.efficiency, sw.per_command_s) == (16, 1.0, 0.0)
    assert "does not apply" in wider.flag("switch_identified").message
    assert "dropped because switch.up_lanes changed" in sw.sources()["switch.per_command_s"].text
    plain = build_topology(_adapter_tree(8, name="Some Vendor Device 1234"))
    assert plain.flag("switch_identified") is None and plain.topology.switch.per_command_s == 0.0
