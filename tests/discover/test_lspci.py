"""lspci text → PCIe tree → topology and flags, on saved outputs (tests/data/SOURCES.md says where each came from).

Fixtures: this VM's own ``lspci -vvv`` / ``-tv`` (real, no NVMe), and two synthetic servers whose
configuration space tests/data/lspci/make_synthetic.py writes and the real lspci 3.9.0 decodes.
"""

import pathlib

import pytest

import nvmemodel as nm
from nvmemodel.discover import LspciError, build_topology, parse_lspci, parse_lspci_tree, read_lspci

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "lspci"
VM = DATA / "vm-debian12-pciutils-3.9.0"
SWITCHED = DATA / "synthetic-switched-gen4"
DIRECT = DATA / "synthetic-direct-gen4"


def _read(stem: pathlib.Path, kind: str) -> str:
    return (stem.parent / f"{stem.name}_{kind}.txt").read_text()


def test_real_vm_verbose_and_tree_forms_agree():
    verbose = parse_lspci(_read(VM, "vvv"))
    tree = parse_lspci_tree(_read(VM, "tv"))
    # two independent readers of two lspci outputs of the same machine find the same functions
    assert set(verbose.devices) == set(tree.devices) == {f"0000:00:0{i}.0" for i in range(6)}
    assert verbose["0000:00:02.0"].name == tree["0000:00:02.0"].name == "Red Hat, Inc. Virtio 1.0 block device"
    assert verbose["0000:00:02.0"].driver == "virtio-pci"
    assert verbose.nvme() == []


def test_real_vm_has_nothing_to_model():
    found = build_topology(read_lspci(DATA / "vm-debian12-pciutils-3.9.0_vvv.txt"))
    assert found.topology is None
    assert [f.code for f in found.flags] == ["no_nvme"]


def test_switched_server_links_and_parents():
    t = read_lspci(DATA / "synthetic-switched-gen4_vvv.txt")
    assert len(t.nvme()) == 9
    d = t["0000:03:00.0"]
    assert (d.cap_gts, d.cap_width, d.sta_gts, d.sta_width) == (16.0, 4, 16.0, 2)
    assert (d.mps, d.mrrs, d.mps_cap) == (128, 512, 512)
    assert t["0000:42:00.0"].sta_gen == 3 and t["0000:42:00.0"].cap_gen == 4
    assert [a.bdf for a in t.ancestors("0000:03:00.0")] == ["0000:02:00.0", "0000:01:00.0", "0000:00:01.1"]
    assert [a.port_type for a in t.ancestors("0000:03:00.0")] == ["downstream", "upstream", "root_port"]
    # the -tv form yields the same hierarchy from its drawing alone
    tree = parse_lspci_tree(_read(SWITCHED, "tv"))
    assert {b: dev.parent for b, dev in tree.devices.items()} == {b: dev.parent for b, dev in t.devices.items()}


def test_switched_server_flags():
    found = build_topology(read_lspci(DATA / "synthetic-switched-gen4_vvv.txt",
                                      DATA / "synthetic-switched-gen4_tv.txt"))
    codes = {f.code for f in found.flags}
    assert {"link_below_capability", "uplink_oversubscribed", "mps_128", "mixed_drive_models",
            "mixed_attach", "numa_unknown", "host_assumed", "platform_ambiguous",  # Starship/Matisse
            "drive_assumed", "drive_ambiguous", "tree_not_uniform"} == codes  # PM173X → PM1733 U.2 row; a PM9A3 controller → 3 rows
    below = [f for f in found.flags if f.code == "link_below_capability"]
    assert sorted(b for f in below for b in f.devices) == ["0000:03:00.0", "0000:42:00.0"]
    assert all("50% of its link bandwidth lost" in f.message for f in below)  # x2 of x4; Gen3 of Gen4
    over = found.flag("uplink_oversubscribed")
    # 5 drives at x4 + 1 at x2 = 22 Gen4 lanes behind a Gen4 x16 uplink
    assert "1.38x oversubscribed" in over.message and len(over.devices) == 6
    assert found.flag("mixed_drive_models").devices == ("0000:43:00.0",)
    assert len(found.flag("mps_128").devices) == 9


def test_switched_server_topology():
    topo = build_topology(read_lspci(DATA / "synthetic-switched-gen4_vvv.txt")).topology
    assert topo.drive.name == nm.get_drive("samsung-pm1733-u2").name
    assert (int(topo.drive.gen), topo.drive.lanes) == (4, 4)
    assert topo.switch is not None and (int(topo.switch.up_gen), topo.switch.up_lanes) == (4, 16)
    assert topo.switch_count == 1 and topo.pcie.mps == 128
    assert topo.default_drives == tuple(range(1, 10))
    curve = nm.evaluate(topo, nm.Workload("read", "128K"))
    # the shared Gen4 x16 uplink binds before nine drives' own 6.4 GB/s spec (57.6 GB/s) could
    assert curve.binding_at(9) == "switch_uplink"
    assert curve.bandwidth_at(9) < float(nm.standards.pcie.raw_bytes_per_s(4, 16))


def test_direct_server_has_no_warnings_and_drive_binds():
    found = build_topology(read_lspci(DATA / "synthetic-direct-gen4_vvv.txt"))
    assert [f for f in found.flags if f.severity == "warn"] == []
    topo = found.topology
    assert topo.switch is None and topo.host.port_lanes == 4 and topo.pcie.mps == 256
    curve = nm.evaluate(topo, nm.Workload("randread", "4K"))
    # four PM1733 at their 1,450,000 IOPS catalog spec (tolerance: float rounding only)
    assert curve.iops_at(4) == pytest.approx(4 * 1_450_000, rel=1e-9)
    assert curve.binding_at(4) == "drive"


def test_tree_file_alone_is_recognised_from_its_content():
    t = read_lspci(DATA / "synthetic-direct-gen4_tv.txt")
    # names only, no class codes in the tree form: the NVMe controllers are known by their device text
    # ("NVMe SSD Controller PM173X"), the root ports (bridges with devices below) are not taken for drives
    assert [d.bdf for d in t.nvme()] == [f"0000:2{i}:00.0" for i in range(1, 5)]
    assert t["0000:21:00.0"].parent == "0000:00:03.1"  # … and the hierarchy is there


@pytest.mark.parametrize("text, match", [
    ("hello world\n", "no lspci device lines"),
    ("", "no lspci device lines"),
])
def test_not_lspci_is_one_clear_error(tmp_path, text, match):
    p = tmp_path / "x.txt"
    p.write_text(text)
    with pytest.raises(LspciError, match=match) as info:
        read_lspci(p)
    assert str(p) in str(info.value)


def test_missing_file_names_it(tmp_path):
    with pytest.raises(LspciError, match="nope.txt: cannot read"):
        read_lspci(tmp_path / "nope.txt")


def test_access_denied_is_noted():
    text = ("41:00.0 Non-Volatile memory controller: Vendor Device\n"
            "\tCapabilities: <access denied>\n\tKernel driver in use: nvme\n")
    found = build_topology(parse_lspci(text))
    assert found.flag("reader_notes") is not None and "without root" in found.flag("reader_notes").message
    assert found.flag("unknown_drive") is not None  # a name the catalog does not know: limits not applied


def test_tree_with_several_domains(tmp_path):
    # the layout lspci -tv draws for two PCI domains (one per socket on many servers)
    text = ("-+-[0000:80]-+-00.0  Host bridge B\n"
            " |           \\-03.1-[81]----00.0  Drive B\n"
            " \\-[0000:00]-+-00.0  Host bridge A\n"
            "             \\-01.1-[01-02]----00.0-[02]----00.0  Drive A\n")
    p = tmp_path / "tv.txt"
    p.write_text(text)
    t = read_lspci(p)
    assert t["0000:81:00.0"].parent == "0000:80:03.1" and t["0000:80:03.1"].parent is None
    assert [a.bdf for a in t.ancestors("0000:02:00.0")] == ["0000:01:00.0", "0000:00:01.1"]
    assert t["0000:02:00.0"].name == "Drive A"


def test_numeric_form_with_ids_and_numa():
    # hand-written block in the `lspci -D -vvnn` form (class code and vendor:device ids in brackets)
    text = ("0000:41:00.0 Non-Volatile memory controller [0108]: Samsung Electronics Co Ltd NVMe SSD Controller "
            "PM173X [144d:a824] (prog-if 02 [NVM Express])\n"
            "\tNUMA node: 1\n"
            "\tCapabilities: [70] Express (v2) Endpoint, MSI 00\n"
            "\t\tDevCap:\tMaxPayload 512 bytes, PhantFunc 0, Latency L0s unlimited, L1 unlimited\n"
            "\t\tDevCtl:\tCorrErr+ NonFatalErr+ FatalErr+ UnsupReq+\n"
            "\t\t\tRlxdOrd+ ExtTag+ PhantFunc- AuxPwr- NoSnoop+ FLReset-\n"
            "\t\t\tMaxPayload 256 bytes, MaxReadReq 4096 bytes\n"
            "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x4, ASPM not supported\n"
            "\t\tLnkSta:\tSpeed 16GT/s, Width x4\n"
            "\tKernel driver in use: nvme\n")
    d = parse_lspci(text)["0000:41:00.0"]
    assert (d.class_code, d.name, d.numa_node, d.port_type) == (
        0x0108, "Samsung Electronics Co Ltd NVMe SSD Controller PM173X", 1, "endpoint")
    assert (d.mps, d.mrrs, d.mps_cap, d.sta_gen, d.sta_width) == (256, 4096, 512, 4, 4)


def test_tree_round_trips_through_json():
    import json

    t = read_lspci(DATA / "synthetic-switched-gen4_vvv.txt")
    back = type(t).from_dict(json.loads(json.dumps(t.to_dict())))
    assert back.devices == t.devices and back.source == t.source
    assert build_topology(back).topology == build_topology(t).topology


def test_uneven_spread_over_root_complexes_is_fill_first():
    found = build_topology(read_lspci(DATA / "synthetic-switched-gen4_vvv.txt"))
    # all four root ports sit on root bus 00: one complex, so no host tree
    assert found.topology.extras == {} and found.flag("several_root_complexes") is None
    text = (DATA / "synthetic-direct-gen4_vvv.txt").read_text()
    # move the last drive's root port and drive to a second root bus (a second I/O-die quadrant)
    moved = text.replace("00:03.4 PCI bridge", "40:03.4 PCI bridge").replace("primary=00, secondary=24",
                                                                           "primary=40, secondary=24")
    found = build_topology(parse_lspci(moved))
    assert found.topology.extras == {"tree.complexes_per_socket": 2.0, "tree.placement": "fill_first",
                                     "tree.slots_per_complex": 3.0}
    curve = nm.evaluate(found.topology.replace(extras={**found.topology.extras, "tree.complex_bytes_per_s": 10e9}),
                        nm.Workload("read", "128K"))
    # fill-first with a 10 GB/s complex: three drives share complex 0 (10 GB/s), the fourth adds its own link
    assert curve.bandwidth_at(3) == pytest.approx(10e9, rel=1e-9) and curve.binding_at(3) == "root_complex"
    assert curve.bandwidth_at(4) > curve.bandwidth_at(3)


def test_switch_uplink_trained_below_capability():
    text = (DATA / "synthetic-switched-gen4_vvv.txt").read_text()
    head, rest = text.split("01:00.0 PCI bridge", 1)
    block, tail = rest.split("\n\n", 1)
    assert "LnkSta:\tSpeed 16GT/s, Width x16" in block
    # the switch's uplink trains x8 (as a riser with half its lanes would make it)
    found = build_topology(parse_lspci(head + "01:00.0 PCI bridge"
                                       + block.replace("LnkSta:\tSpeed 16GT/s, Width x16",
                                                       "LnkSta:\tSpeed 16GT/s, Width x8")
                                       + "\n\n" + tail))
    flag = found.flag("uplink_below_capability")
    assert flag.devices == ("0000:01:00.0",) and "50% of the bandwidth all 6 drive(s)" in flag.message
    assert "2.75x oversubscribed" in found.flag("uplink_oversubscribed").message  # 22 lanes behind 8
    assert found.topology.switch.up_lanes == 8
