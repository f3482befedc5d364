"""Platform identification (issue 18): /proc/cpuinfo names → catalog hosts; PCI names → catalog platforms."""

from __future__ import annotations

import pathlib

import pytest

import nvmemodel as nm
from nvmemodel.discover import build_topology, read_lspci
from nvmemodel.discover.platform import cpu_model_of, identify_cpu, identify_platform, platform_candidates, refine_host

DATA = pathlib.Path(__file__).parents[1] / "data" / "lspci"


@pytest.mark.parametrize("model, key", [
    ("AMD EPYC 7742 64-Core Processor", "amd-epyc-7742"),
    ("AMD EPYC 7763 64-Core Processor", "amd-epyc-7763"),
    ("AMD EPYC 9654 96-Core Processor", "amd-epyc-9654"),
    ("AMD Ryzen Threadripper PRO 3955WX 16-Cores", "amd-threadripper-pro-3955wx"),
    ("Intel(R) Xeon(R) Platinum 8176 CPU @ 2.10GHz", "intel-xeon-platinum-8176"),
    ("Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz", "intel-xeon-platinum-8380"),
    ("Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz", "intel-xeon-gold-6148"),
    ("Intel(R) Xeon(R) Platinum 8480+", "intel-xeon-platinum-8480plus"),
    ("Intel(R) Xeon(R) 6980P", "intel-xeon-6980p"),
    # not in the catalog: no guess
    ("Intel(R) Xeon(R) Processor", None),
    ("Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", None),
    ("AMD EPYC 7B12 64-Core Processor", None),
])
def test_cpu_names_find_their_catalog_row(model, key):
    assert identify_cpu(model) == key


def test_cpuinfo_model_line():
    assert cpu_model_of("processor\t: 0\nmodel name\t: AMD EPYC 7742 64-Core Processor\n") == \
        "AMD EPYC 7742 64-Core Processor"
    assert cpu_model_of("processor\t: 0\nBogoMIPS\t: 50.00\n") is None  # Arm kernels print no model name


@pytest.mark.parametrize("dump, platform", [
    ("synthetic-direct-gen4_vvv.txt", "amd-zen2-rome"),            # Starship/Matisse Root Complex
    ("hwloc-xeon-2s-pcie-switches-ve_vvv.txt", "intel-skylake-sp"),  # Sky Lake-E PCI Express Root Port
    ("hwloc-dell-xeon-e5-2s-p3600_vvv.txt", None),                 # Xeon E5 (Broadwell): not in the catalog
])
def test_pci_names_identify_the_platform(dump, platform):
    hit = identify_platform(read_lspci(DATA / dump))
    assert (hit[0] if hit else None) == platform


def test_saved_dump_lends_the_platform_limits_and_says_what_it_assumed():
    found = build_topology(read_lspci(DATA / "synthetic-direct-gen4_vvv.txt"))
    flag = found.flag("platform_ambiguous")  # Starship/Matisse: EPYC 7002 or 7003 (32 root-port lanes: no desktop)
    assert flag.severity == "info" and "ASSUMES amd-zen2-rome" in flag.message and "amd-zen3-milan" in flag.message
    assert "Ryzen" not in flag.message
    src = found.topology.sources(nm.Workload("read", "128K"))
    assert src["tree.complex_bytes_per_s"].status == "estimate"
    assert src["memory.peak_bytes_per_s"].status == "assumption"  # the CPU model, hence its memory, is unknown


def test_unknown_platform_says_the_result_is_an_upper_bound():
    found = build_topology(read_lspci(DATA / "hwloc-dell-xeon-e5-2s-p3600_vvv.txt"))
    flag = found.flag("platform_unknown")
    assert flag is not None and "upper bounds" in flag.message
    p = found.topology.parameters(nm.Workload("read", "128K"))
    assert p["memory.peak_bytes_per_s"] == float("inf")


def test_live_cpuinfo_becomes_the_catalog_host(tmp_path):
    tree = read_lspci(DATA / "synthetic-direct-gen4_vvv.txt")
    live = nm.Host(name="this machine", sockets=2, cores_per_socket=64, clock_hz=3.4e9,
                   provenance={"sockets": "measured: discovered, sysfs physical_package_id",
                               "clock_hz": "measured: discovered, cpufreq cpuinfo_max_freq"})
    host, flags = refine_host(live, tree, given=False, cpuinfo="model name\t: AMD EPYC 7742 64-Core Processor\n")
    assert host.key == "amd-epyc-7742" and host.sockets == 2 and host.clock_hz == 2.25e9
    assert host.provenance["sockets"].startswith("measured")
    assert flags[0].code == "platform_identified" and "/proc/cpuinfo" in flags[0].message
    # a host the caller passed is never replaced
    assert refine_host(live, tree, given=True, cpuinfo="model name : AMD EPYC 7742\n") == (live, [])


def test_live_cpuinfo_is_read_beside_the_sysfs_tree(tmp_path):
    from nvmemodel.discover.platform import _read_cpuinfo
    from nvmemodel.discover.tree import PciTree

    (tmp_path / "sys/bus/pci/devices").mkdir(parents=True)
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/cpuinfo").write_text("model name\t: Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz\n")
    tree = PciTree({}, source=str(tmp_path / "sys/bus/pci/devices"))
    assert identify_cpu(cpu_model_of(_read_cpuinfo(tree))) == "intel-xeon-platinum-8380"
    assert _read_cpuinfo(PciTree({}, source="saved.txt")) == ""  # a saved dump has no cpuinfo


def test_a_name_on_several_platforms_is_ambiguous_not_identified():
    """QA finding F9: the Starship/Matisse root complex (1022:1480) is on Ryzen 3000/5000 desktops too (2 memory
    channels, 24 lanes): with no more root-port lanes than a desktop has, the flag names it and the assumption."""
    found = build_topology(read_lspci(DATA / "synthetic-zen2-mixed-degraded_vvv.txt"))
    assert found.flag("platform_identified") is None
    flag = found.flag("platform_ambiguous")
    assert flag.severity == "warn" and "Ryzen 3000 / 5000 desktops" in flag.message
    assert "ASSUMES amd-zen2-rome" in flag.message and "--host NAME" in flag.message
    src = found.topology.sources(nm.Workload("read", "128K"))
    assert src["tree.complex_bytes_per_s"].status == "assumption"
    assert [k for k, _ in platform_candidates(read_lspci(DATA / "synthetic-zen2-mixed-degraded_vvv.txt"))] == [
        "amd-zen2-rome", "amd-zen3-milan"]


def test_a_given_host_settles_the_platform():
    found = build_topology(read_lspci(DATA / "synthetic-zen2-mixed-degraded_vvv.txt"),
                           host=nm.get_host("amd-epyc-7742", sockets=1))
    assert found.flag("platform_ambiguous") is None and found.flag("platform_identified") is None


def test_saved_dump_says_what_its_cpu_ceiling_uses(tmp_path):
    # QA round 4, F1: the flag said "cores, clock … as intel-xeon-platinum-8176" while the model used its defaults;
    # and the platform's lanes (48 per Skylake-SP socket) were the default 128 ("up to 32 drives")
    found = build_topology(read_lspci(DATA / "synthetic-skylake-sp-pm983_vvv.txt"))
    msg = found.flag("platform_ambiguous").message
    assert "cores and clock are the model's defaults (host_assumed)" in msg and "cores, clock and memory" not in msg
    host = found.topology.host
    assert (host.cores_per_socket, host.clock_hz) == (32, 2.5e9)  # the defaults host_assumed names
    assert host.lanes_per_socket == 48  # the 8176's, as the flag says
    assert "platform's are used" in found.flag("several_root_complexes").message
