"""The sysfs reader: a synthetic /sys tree (two sockets, one drive each) and this machine's real /sys."""

import importlib.util
import os
import pathlib
import shutil
import subprocess

import pytest

from nvmemodel.discover import build_topology, parse_lspci, read_host, read_sysfs
from nvmemodel.discover.sysfs import parse_express_config

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "lspci"
_spec = importlib.util.spec_from_file_location("make_synthetic", DATA / "make_synthetic.py")
synth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(synth)


def _device(root: pathlib.Path, path: str, *, cls: str, cfg: bytes, numa: int, link=None, driver=None) -> None:
    """One PCI function under sys/devices and its sys/bus/pci/devices link (the kernel's layout)."""
    d = root / "sys/devices" / path
    d.mkdir(parents=True)
    bdf = d.name
    (d / "class").write_text(cls + "\n")
    (d / "vendor").write_text("0x144d\n")
    (d / "device").write_text("0xa824\n")
    (d / "numa_node").write_text(f"{numa}\n")
    (d / "config").write_bytes(cfg)
    if link:
        (d / "max_link_speed").write_text(f"{link[0]}\n")
        (d / "max_link_width").write_text(f"{link[1]}\n")
        (d / "current_link_speed").write_text(f"{link[2]}\n")
        (d / "current_link_width").write_text(f"{link[3]}\n")
    if driver:
        drv = root / "sys/bus/pci/drivers" / driver
        drv.mkdir(parents=True, exist_ok=True)
        (d / "driver").symlink_to(drv)
    bus = root / "sys/bus/pci/devices"
    bus.mkdir(parents=True, exist_ok=True)
    (bus / bdf).symlink_to(d)


@pytest.fixture
def two_socket_sys(tmp_path):
    """Two root complexes (NUMA 0 and 1), a PM1733 on each; the node-1 drive trained at x2."""
    rp = synth.config(0x1022, 0x1483, 0x0604, port_type=synth.ROOT_PORT, bus=(0, 1, 1), cap=(4, 4), mps=256)
    nv = synth.config(0x144D, 0xA824, 0x0108, port_type=synth.ENDPOINT, cap=(4, 4), mps=256, prog_if=2)
    gen4x4 = ("16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4)
    _device(tmp_path, "pci0000:00/0000:00:01.1", cls="0x060400", cfg=rp, numa=0, link=gen4x4, driver="pcieport")
    _device(tmp_path, "pci0000:00/0000:00:01.1/0000:01:00.0", cls="0x010802", cfg=nv, numa=0, link=gen4x4,
            driver="nvme")
    _device(tmp_path, "pci0000:80/0000:80:01.1", cls="0x060400", cfg=rp, numa=1, link=gen4x4, driver="pcieport")
    _device(tmp_path, "pci0000:80/0000:80:01.1/0000:81:00.0", cls="0x010802", cfg=nv[:64], numa=1,
            link=("16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 2), driver="nvme")
    for i, addr in enumerate(("0000:01:00.0", "0000:81:00.0")):
        c = tmp_path / f"sys/class/nvme/nvme{i}"
        c.mkdir(parents=True)
        (c / "address").write_text(addr + "\n")
        (c / "model").write_text("SAMSUNG MZWLJ3T8HBLS-00007               \n")
        (c / f"nvme{i}n1").mkdir()  # the namespace
    return tmp_path


def test_sysfs_reader(two_socket_sys):
    t = read_sysfs(two_socket_sys)
    assert sorted(t.devices) == ["0000:00:01.1", "0000:01:00.0", "0000:80:01.1", "0000:81:00.0"]
    d = t["0000:01:00.0"]
    assert d.parent == "0000:00:01.1" and d.is_nvme and d.driver == "nvme" and d.numa_node == 0
    assert (d.port_type, d.mps, d.mrrs) == ("endpoint", 256, 512)
    assert d.model == "SAMSUNG MZWLJ3T8HBLS-00007"
    assert t["0000:00:01.1"].port_type == "root_port"
    # only 64 bytes readable (not root): no Express capability, so MaxPayload stays unknown, and a note says so
    assert t["0000:81:00.0"].mps is None and any("64 bytes" in n for n in t.notes)


def test_sysfs_flags_numa_split_and_downtrained_drive(two_socket_sys):
    found = build_topology(read_sysfs(two_socket_sys))
    split = found.flag("numa_split")
    assert split is not None and split.devices == ("0000:81:00.0",) and "node 0: 1, node 1: 1" in split.message
    assert found.flag("link_below_capability").devices == ("0000:81:00.0",)
    spread = found.flag("several_root_complexes").message
    assert "2 root complexes (root bus: drives — 0000:00: 1, 0000:80: 1" in spread
    # the host tree (docs/physics.md §12.1): 2 sockets x 1 complex, one drive each, round-robin
    assert found.topology.extras == {"tree.complexes_per_socket": 1.0, "tree.placement": "round_robin"}
    topo = found.topology
    assert topo.host.sockets == 2 and topo.drive.name.startswith("Samsung PM1733")  # MZWLJ = PM1733 U.2


def test_express_config_decoding_matches_what_lspci_prints():
    cfg = synth.config(0x144D, 0xA824, 0x0108, port_type=synth.ENDPOINT, mps=128, mrrs=1024, mps_cap=256)
    assert parse_express_config(cfg) == {"port_type": "endpoint", "mps": 128, "mrrs": 1024, "mps_cap": 256}
    assert parse_express_config(cfg[:32]) == {}


def test_missing_sysfs_is_an_empty_tree(tmp_path):
    t = read_sysfs(tmp_path)
    assert len(t) == 0 and "not found" in t.notes[0]


@pytest.mark.skipif(not pathlib.Path("/sys/bus/pci/devices").is_dir() or shutil.which("lspci") is None,
                    reason="needs Linux sysfs and lspci (apt-get install -y pciutils)")
def test_this_machine_sysfs_agrees_with_its_lspci():
    live = subprocess.run(["lspci", "-D", "-vvv"], capture_output=True, text=True, check=True,
                          env={**os.environ, "LC_ALL": "C"}).stdout
    from_lspci, from_sysfs = parse_lspci(live), read_sysfs("/")
    assert set(from_lspci.devices) == set(from_sysfs.devices)
    assert {b: d.parent for b, d in from_lspci.devices.items()} == {b: d.parent for b, d in from_sysfs.devices.items()}
    assert [d.bdf for d in from_lspci.nvme()] == [d.bdf for d in from_sysfs.nvme()]



def test_host_from_cpu_topology(tmp_path):
    # 2 packages x 4 cores x 2 SMT threads; cpufreq reports the maximum in kHz
    for cpu in range(16):
        pkg, core = cpu // 8, (cpu % 8) // 2
        d = tmp_path / f"sys/devices/system/cpu/cpu{cpu}"
        (d / "topology").mkdir(parents=True)
        (d / "topology/physical_package_id").write_text(f"{pkg}\n")
        (d / "topology/core_id").write_text(f"{core}\n")
        (d / "cpufreq").mkdir()
        (d / "cpufreq/cpuinfo_max_freq").write_text("3500000\n")
    host = read_host(tmp_path)
    assert (host.sockets, host.cores_per_socket, host.clock_hz) == (2, 4, 3.5e9)
    assert host.provenance["clock_hz"].startswith("measured: discovered, cpufreq")
    assert read_host(tmp_path / "nowhere") is None


@pytest.mark.skipif(not pathlib.Path("/sys/devices/system/cpu/cpu0/topology").is_dir(), reason="needs Linux sysfs")
def test_this_machines_host_is_plausible():
    host = read_host("/")
    assert 1 <= host.sockets * host.cores_per_socket <= os.cpu_count()


def test_live_discovery_suggests_the_measurement(two_socket_sys, capsys):
    from nvmemodel import cli

    assert cli.main(["discover", "--sysfs-root", str(two_socket_sys)]) == 0
    out = capsys.readouterr().out
    assert "WARN numa_split" in out and "host tree: tree.complexes_per_socket=1, tree.placement=round_robin" in out
    assert f"nvmemodel fio-jobs --out sweep --targets auto --sysfs-root {two_socket_sys} --pattern randread" in out
