"""The sysfs reader on real machines' /sys: two hwloc test archives (BSD-3-Clause, tests/data/SOURCES.md).

* ``hwloc_32em64t-2n8c+dax+nvme+mic+dimms``: a 2-socket Xeon (8 cores each) with an Intel NVMe SSD
  (8086:0953) on the root bus; an old kernel without link-speed files and 64-byte config images.
* ``hwloc_32intel64-2p8co2t+8ve``: a server with PCIe switches (root port → upstream → 5 downstream
  ports, Vector Engine cards and Mellanox NICs) and link speeds, no NVMe.
"""


from nvmemodel.discover import build_topology, discover, read_host, read_sysfs


def test_real_nvme_machine(nvme_box, tmp_path):
    ids = tmp_path / "pci.ids"
    ids.write_text("8086  Intel Corporation\n\t0953  PCIe Data Center SSD\n")
    t = read_sysfs(nvme_box, pci_ids=ids)
    assert len(t) == 137
    (d,) = t.nvme()
    assert (d.bdf, d.class_code, d.driver, d.parent) == ("0000:00:02.0", 0x0108, "nvme", None)
    assert d.label == "Intel Corporation PCIe Data Center SSD"
    assert d.numa_node is None  # the kernel wrote -1
    assert d.sta_gts is None and d.mps is None  # no link files, 64-byte config: unknown, not guessed


def test_real_cpu_topology(nvme_box):
    host = read_host(nvme_box)
    # 2 packages x 8 cores (32 hardware threads, "32em64t-2n8c"); cpufreq max 2,701,000 kHz in the archive
    assert (host.sockets, host.cores_per_socket, host.clock_hz) == (2, 8, 2.701e9)


def test_real_nvme_machine_discovery_says_what_it_does_not_know(nvme_box):
    found = discover(sysfs_root=nvme_box)
    codes = {f.code for f in found.flags}
    assert {"link_unknown", "drive_assumed", "mps_unknown", "reader_notes", "numa_unknown"} <= codes
    assert "host_assumed" not in codes  # the CPU came from the archive's sysfs
    assert found.topology.host.sockets == 2 and found.topology.host.cores_per_socket == 8
    # the controller's ids 8086:0953 / subsystem 8086:3709 (sysfs files, whatever pci.ids this machine has) name
    # the DC P3600 add-in card: the catalog's 1.6 TB row, the capacity flagged as assumed
    (nvme,) = found.tree.nvme()
    assert (nvme.pci_id, nvme.subsystem_id) == ("8086:0953", "8086:3709")
    assert found.topology.drive.name == "Intel SSD DC P3600 1.6TB"
    assert "capacity variant assumed: 1.6 TB" in found.flag("drive_assumed").message
    assert "assumes Gen3 x4 from the catalog" in found.flag("link_unknown").message


def test_real_switch_hierarchy(switch_box):
    t = read_sysfs(switch_box)
    ve = t["0000:1b:00.0"]
    assert ve.link_text() == "Gen3 x16" and ve.numa_node == 0 and ve.driver == "ve_drv"
    assert t.root_port_of("0000:1b:00.0").bdf == "0000:17:00.0"
    # port types are not readable from 64-byte config images: a bridge pair below the root port is the switch
    ((up, down),) = t.switch_ports_of("0000:1b:00.0")
    assert (up.bdf, down.bdf) == ("0000:18:00.0", "0000:19:08.0")
    assert len([c for c in t.children("0000:18:00.0") if c.is_bridge]) == 5
    nic = t["0000:60:00.0"]
    assert nic.link_text() == "Gen1 x1 (capable Gen3 x1)"  # an i40e port trained at 2.5 GT/s
    assert build_topology(t).topology is None  # no NVMe in this box


def test_lanes_not_discovered_are_said_to_be_assumed(nvme_box):
    # QA round 4, F22: an E5-2680 has 40 lanes per socket; nothing read says so, and the default 128 was labelled
    # 'spec' and turned into "up to 64 drives" without a word
    found = discover(sysfs_root=nvme_box)
    src = found.topology.host.sources("libaio")["host.lanes_per_socket"]
    assert src.status == "assumption"
    assert "if each socket has 128 lanes (assumed)" in found.topology.describe()
    assert "lanes per socket (128, the model's default) are assumed" in found.flag("platform_unknown").message
