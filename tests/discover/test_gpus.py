"""``nvmemodel discover`` finds GPUs (issue 29): NVIDIA / AMD / Intel display-class functions (PCI class 0300 VGA,
0302 3D controller, 0380 display controller; vendors 10de, 1002, 8086), or in ``lspci -tv`` names the GPU chips and
products of the PCI ID Repository; places them on the tree as the model places GPUs (``gpu.attach``: on a root port,
behind the drives' switch) and reports them with the ``gpu.*`` settings that send the data to them.

Fixtures (tests/data/SOURCES.md):

* ``stelline-asus-esc8000a-e12_tv.txt`` / ``-gpus_vvv.txt``: **real**, an ASUS ESC8000A-E12 (2-socket AMD Genoa) with
  four NVIDIA RTX 6000 Ada on root ports, 17 Samsung NVMe (16 behind HighPoint SSD7540 switch cards), ConnectX-7 NICs
  and an ASPEED BMC VGA — `lspci -tv` and the GPUs' `lspci -vvv -s` blocks from luigifcruz/stelline (MIT),
  docs/quickstart/validated-hardware/server/asus-esc8000a-e12.md @ 5abfb581;
* ``handwritten-switched-gen4-h100_vvv.txt``: **hand-written** — the synthetic switched Gen4 server's `lspci -vvv`
  with its last switch port widened to x16 and the drive below it replaced by an H100 PCIe (Gen5 x16 capable,
  trained Gen4 x16 on the Gen4 switch).
"""

from __future__ import annotations

import dataclasses
import json
import pathlib

import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.discover import PciDevice, PciTree, build_topology, discover, parse_lspci, read_lspci

DATA = pathlib.Path(__file__).parents[1] / "data" / "lspci"
ESC_TV = DATA / "stelline-asus-esc8000a-e12_tv.txt"
ESC_VVV = DATA / "stelline-asus-esc8000a-e12-gpus_vvv.txt"
H100 = DATA / "handwritten-switched-gen4-h100_vvv.txt"


def test_a_real_gpu_server_four_gpus_on_root_ports():
    d = discover(ESC_VVV, lspci_tree=ESC_TV)
    gpus = {g.bdf: g for g in d.gpus}
    assert sorted(gpus) == ["0000:01:00.0", "0000:41:00.0", "0000:c1:00.0", "0000:e1:00.0"]
    assert [gpus[b].root_port for b in sorted(gpus)] == ["0000:00:01.1", "0000:40:01.1", "0000:c0:01.1",
                                                         "0000:e0:01.1"]
    assert {g.attach for g in d.gpus} == {"root_port"} and {g.vendor for g in d.gpus} == {"NVIDIA"}
    assert [gpus[b].numa_node for b in sorted(gpus)] == [0, 0, 1, 1]
    # each reads 'LnkSta: Speed 2.5GT/s (downgraded), Width x16' at rest against 'LnkCap: ... 16GT/s, Width x16'
    assert all((g.gen, g.lanes, g.below_capability) == (4, 16, True) for g in d.gpus)
    assert len(d.tree.nvme()) == 17  # the GPUs' audio functions, ASPEED VGA, ConnectX-7 and HighPoint are not GPUs
    assert d.gpu_settings() == {"gpu.count": 4.0, "gpu.attach": "root_port", "gpu.gen": 4.0, "gpu.lanes": 16.0}
    flag = d.flag("gpus_found")
    assert flag is not None and "--set gpu.count=4 --set gpu.attach=root_port" in flag.message
    assert "trains its link down" in flag.message


def test_the_tree_form_alone_names_the_gpus_without_their_links():
    t = read_lspci(ESC_TV)
    assert [g.bdf for g in t.gpus()] == ["0000:01:00.0", "0000:41:00.0", "0000:c1:00.0", "0000:e1:00.0"]
    d = build_topology(t)
    assert d.gpu_settings() == {"gpu.count": 4.0, "gpu.attach": "root_port"}  # gen/lanes: not read, defaults kept


def test_a_gpu_behind_the_drives_switch():
    d = discover(H100)
    (g,) = d.gpus
    assert (g.bdf, g.attach, g.switch) == ("0000:08:00.0", "switch", "0000:01:00.0")
    assert (g.gen, g.lanes, g.below_capability) == (4, 16, False)  # Gen5 GPU on a Gen4 switch port: Gen4 x16
    # the switch's ports: 5 drive ports, the 8 drives' count kept (3 are direct), + the x16 GPU port as 4 x4 ports
    assert d.topology.switch.ports == 12
    # 3 drives sit on root ports: their data would cross the switch uplink to reach the GPU, so it is taken as on a
    # root port, and the flag says so
    assert d.gpu_settings()["gpu.attach"] == "root_port"
    assert "modelled as on a root port here" in d.flag("gpus_found").message


def _switched_only(tree: PciTree) -> PciTree:
    """The H100 tree without its three direct drives and with the x2 drive trained x4: every drive behind the
    switch, all alike."""
    devs = {b: d for b, d in tree.devices.items() if not b.startswith(("0000:41", "0000:42", "0000:43"))}
    devs["0000:03:00.0"] = dataclasses.replace(devs["0000:03:00.0"], sta_width=4)
    return PciTree(devs, source=tree.source)


def test_gpudirect_into_a_gpu_behind_the_switch_binds_on_its_link():
    d = build_topology(_switched_only(parse_lspci(H100.read_text())))
    assert d.mixed is None
    settings = d.gpu_settings()
    assert settings == {"gpu.count": 1.0, "gpu.attach": "switch", "gpu.gen": 4.0, "gpu.lanes": 16.0}
    c = nm.evaluate(d.topology, nm.Workload("read", "128K"), drives=[5], overrides=settings)
    # one Gen4 x16 link: 16 GT/s x 16 lanes x 128/130 / 8 = 31.5 GB/s; MaxPayload 128 here (DevCtl), 24 bytes of TLP
    # framing, sequence, header and LCRC each: x 128/152 = 26.5 GB/s (DLLPs take a little more: 1 %)
    assert c.bytes_per_s[0] == pytest.approx(31.508e9 * 128 / 152, rel=0.01)
    assert c.binding[0] == "gpu_link"
    # 5 x4 drive ports + the GPU's x16 port as 4: 9 ports; with the GPU on the data path, the 5 drive ports are left
    assert d.topology.switch.ports == 9
    assert d.topology.replace(extras={**d.topology.extras, **settings}).max_drives == 5


@pytest.mark.parametrize("dev, vendor", [
    (PciDevice("0000:af:00.0", 0x0302, "3D controller", "NVIDIA Corporation TU104GL [Tesla T4]",
               parent="0000:ae:00.0", pci_id="10de:1eb8"), "NVIDIA"),
    (PciDevice("0000:c1:00.0", 0x0380, "Display controller", "Advanced Micro Devices, Inc. [AMD/ATI] Aldebaran/MI200 "
               "[Instinct MI210]", pci_id="1002:740f"), "AMD"),
    (PciDevice("0000:3a:00.0", 0x0380, "Display controller", "Intel Corporation Ponte Vecchio XT (1 Tile) [Data "
               "Center GPU Max 1100]", pci_id="8086:0bda"), "Intel"),
    (PciDevice("0000:01:00.0", name="NVIDIA Corporation GA100 [A100 SXM4 40GB]"), "NVIDIA"),  # -tv: a name only
    (PciDevice("0000:75:00.0", 0x0300, "VGA compatible controller", "ASPEED Technology, Inc. ASPEED Graphics Family",
               pci_id="1a03:2000"), None),  # a BMC's VGA
    (PciDevice("0000:01:00.1", 0x0403, "Audio device", "NVIDIA Corporation AD102 High Definition Audio Controller",
               pci_id="10de:22ba"), None),
    (PciDevice("0000:01:00.1", name="NVIDIA Corporation AD102 High Definition Audio Controller"), None),
    (PciDevice("0000:00:02.0", 0x0300, "VGA compatible controller", "Intel Corporation CometLake-S GT2 [UHD Graphics "
               "630]", pci_id="8086:9bc5"), None),  # integrated graphics
    (PciDevice("0000:21:00.0", name="Mellanox Technologies MT2910 Family [ConnectX-7]"), None),
    (PciDevice("0000:05:00.0", name="NVIDIA Corporation Device 22a3"), None),  # an NVSwitch: no GPU name
])
def test_which_functions_are_gpus(dev, vendor):
    assert dev.gpu_vendor == vendor


def test_an_lspci_nn_line_of_a_gpu_on_a_root_bus_is_not_modelled():
    # the `lspci -nn` form of a T4 (openstack/cyborg's NVIDIA driver tests quote this line); alone, on no port
    t = parse_lspci("0000:af:00.0 3D controller [0302]: NVIDIA Corporation TU104GL [Tesla T4] [10de:1eb8] (rev a1)\n")
    (g,) = t.gpus()
    assert (g.class_code, g.pci_id) == (0x0302, "10de:1eb8")
    d = build_topology(t)
    assert d.gpus[0].attach == "root_bus" and d.gpu_settings() == {}


def test_cli_text_and_json(capsys):
    assert cli.main(["discover", "--lspci", str(ESC_VVV), "--lspci-tree", str(ESC_TV), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [g["bdf"] for g in doc["gpus"]] == ["0000:01:00.0", "0000:41:00.0", "0000:c1:00.0", "0000:e1:00.0"]
    assert doc["gpus"][0]["attach"] == "root_port" and doc["gpus"][0]["lanes"] == 16
    jsonschema = pytest.importorskip("jsonschema", reason="schemas are validated with jsonschema (the test extra)")
    del jsonschema
    from nvmemodel import schemas

    schemas.validate(doc)
    assert cli.main(["discover", "--lspci", str(H100), "--pattern", "read", "--bs", "128K", "--set", "gpu.count=1",
                     "--set", "gpu.attach=root_port", "--set", "gpu.gen=4", "--set", "gpu.lanes=16"]) == 0
    out = capsys.readouterr().out
    assert "GPU (NVIDIA): NVIDIA Corporation GH100 [H100 PCIe]" in out and "gpu_link" in out


def test_sysfs_a_gpu_beside_a_drive_on_root_ports(tmp_path):
    """Read from /sys (a hand-made tree in the kernel's layout, configuration space written by the synthetic-dump
    helper): an H100 (10de:2331, class 0x030200) and a PM1733 on two root ports of one complex."""
    import importlib.util

    from nvmemodel.discover import read_sysfs

    spec = importlib.util.spec_from_file_location("make_synthetic", DATA / "make_synthetic.py")
    synth = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(synth)

    def device(path, cls, vendor, dev_id, cfg, link, driver):
        d = tmp_path / "sys/devices" / path
        d.mkdir(parents=True)
        for name, text in (("class", cls), ("vendor", vendor), ("device", dev_id), ("numa_node", "0"),
                           ("max_link_speed", link[0]), ("max_link_width", link[1]),
                           ("current_link_speed", link[2]), ("current_link_width", link[3])):
            (d / name).write_text(f"{text}\n")
        (d / "config").write_bytes(cfg)
        drv = tmp_path / "sys/bus/pci/drivers" / driver
        drv.mkdir(parents=True, exist_ok=True)
        (d / "driver").symlink_to(drv)
        bus = tmp_path / "sys/bus/pci/devices"
        bus.mkdir(parents=True, exist_ok=True)
        (bus / d.name).symlink_to(d)

    gen4x4 = ("16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4)
    gen5x16 = ("32.0 GT/s PCIe", 16, "2.5 GT/s PCIe", 16)  # at rest
    rp4 = synth.config(0x1022, 0x1483, 0x0604, port_type=synth.ROOT_PORT, bus=(0, 1, 1), cap=(4, 4), mps=256)
    rp16 = synth.config(0x1022, 0x1483, 0x0604, port_type=synth.ROOT_PORT, bus=(0, 2, 2), cap=(5, 16), mps=256)
    nv = synth.config(0x144D, 0xA824, 0x0108, port_type=synth.ENDPOINT, cap=(4, 4), mps=256, prog_if=2)
    gpu = synth.config(0x10DE, 0x2331, 0x0302, port_type=synth.ENDPOINT, cap=(5, 16), mps=256)
    device("pci0000:00/0000:00:01.1", "0x060400", "0x1022", "0x1483", rp4, gen4x4, "pcieport")
    device("pci0000:00/0000:00:01.1/0000:01:00.0", "0x010802", "0x144d", "0xa824", nv, gen4x4, "nvme")
    device("pci0000:00/0000:00:01.2", "0x060400", "0x1022", "0x1483", rp16, ("32.0 GT/s PCIe", 16, "32.0 GT/s PCIe",
                                                                              16), "pcieport")
    device("pci0000:00/0000:00:01.2/0000:02:00.0", "0x030200", "0x10de", "0x2331", gpu, gen5x16, "nvidia")
    t = read_sysfs(tmp_path)
    (g,) = t.gpus()
    assert (g.bdf, g.class_code, g.pci_id, g.gpu_vendor) == ("0000:02:00.0", 0x0302, "10de:2331", "NVIDIA")
    d = build_topology(t)
    assert d.gpus[0].attach == "root_port" and (d.gpus[0].gen, d.gpus[0].lanes) == (5, 16)
    assert d.gpus[0].below_capability  # 2.5 GT/s at rest against 32 GT/s both ends
    assert d.gpu_settings() == {"gpu.count": 1.0, "gpu.attach": "root_port", "gpu.gen": 5.0, "gpu.lanes": 16.0}
