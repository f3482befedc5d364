"""Mixed drive and switch models under one host (docs/physics.md §12.7).

Two kinds of test: a mixed topology of ONE group is the single-model kernel, number for number and name
for name, over every preset (and the host-tree, RAID and shared-queue-depth layers); and small mixed
systems of synthetic drives and switches with round numbers, whose ceilings are computed by hand here.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError

# Round-number synthetic hardware (labelled synthetic: not catalog entries). Latencies are unknown (NaN), so
# Little's law does not bind unless a test sets them; links are Gen4 and far above these rates (asserted below).
HOST = nm.Host("synthetic 2-socket host", sockets=2, cores_per_socket=5, clock_hz=1e9, gen=4, lanes_per_socket=64,
               cycles_per_io=2500)                    # host CPU: 2 x 5 x 1e9 / 2500 = 4.0 M IOPS (docs/physics.md §4)
DRIVE_A = nm.Drive("synthetic A", gen=4, lanes=4, rand_read_iops=500e3)   # 500 K 4K reads
DRIVE_B = nm.Drive("synthetic B", gen=4, lanes=4, rand_read_iops=400e3)   # 400 K 4K reads
SWITCH = nm.Switch("synthetic switch", up_gen=4, up_lanes=16, ports=4, port_gen=4, port_lanes=4,
                   per_command_s=1e-6)                # processing 1 / 1 µs = 1.0 M IOPS per switch (§11)
READ_4K = nm.Workload("randread", "4K")


def _two_groups(**kw) -> nm.MixedTopology:
    """4 x B behind one switch, then 8 x A direct: the switched group is added first."""
    return nm.MixedTopology("synthetic mixed", HOST, (
        nm.DriveGroup(DRIVE_B, 4, switch=SWITCH, name="switched"),
        nm.DriveGroup(DRIVE_A, 8, name="direct")), **kw)


# ---------------------------------------------------------------------------------------------------- one group
CASES = [(name, wl) for name in nm.PRESETS
         for wl in (nm.Workload("read", "128K"), nm.Workload("randread", "4K"), nm.Workload("randwrite", "4K"),
                    nm.Workload("randrw", "8K", read_fraction=0.7))]
LAYERS = [
    {"host.sockets": 1, "tree.complexes_per_socket": 2, "tree.complex_bytes_per_s": 16e9,
     "tree.placement": "fill_first", "tree.slots_per_complex": 3},
    {"tree.complexes_per_socket": 4, "tree.complex_bytes_per_s": 9e9, "memory.peak_bytes_per_s": 60e9,
     "memory.dma_fraction": 0.5},
    {"raid.level": "raid5", "raid.width": 4},
    {"workload.per_drive": 0, "workload.iodepth": 64},
    {"tree.remote_fraction": 0.5, "tree.inter_socket_bytes_per_s": 30e9},
]


def _assert_same(curve, mixed):
    # rtol 1e-12: the same formulas, summed in a different order at most
    np.testing.assert_allclose(mixed.iops, curve.iops, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(mixed.binding, curve.binding)
    assert list(mixed.ceilings) == list(curve.ceilings)
    for name in curve.ceilings:
        np.testing.assert_allclose(mixed.ceilings[name], curve.ceilings[name], rtol=1e-12, atol=0, err_msg=name)
    np.testing.assert_allclose(mixed.per_drive_iops, curve.per_drive_iops, rtol=1e-12)
    assert mixed.knee() == curve.knee()
    assert set(mixed.binding_group) <= {"group 0", "host"}


@pytest.mark.parametrize(("preset", "workload"), CASES, ids=[f"{p}-{w.describe()[:12]}" for p, w in CASES])
def test_one_group_is_the_single_model_kernel(preset, workload):
    topo = nm.preset(preset)
    drives = range(1, topo.max_drives + 1)
    _assert_same(nm.evaluate(topo, workload, drives=drives),
                 nm.evaluate_mixed(nm.MixedTopology.from_topology(topo), workload, drives=drives))


@pytest.mark.parametrize("layers", LAYERS, ids=["fill-first complexes", "complexes+socket DMA", "raid5",
                                                "shared queue depth", "inter-socket"])
@pytest.mark.parametrize("preset", ["dell-r7525", "lenovo-sr850-1610-4p", "broadcom-stingray", "ion-sr71mach5-linux"])
def test_one_group_with_host_layers_is_the_single_model_kernel(preset, layers):
    for workload in (nm.Workload("read", "128K"), nm.Workload("randwrite", "4K")):
        topo, wl = nm.preset(preset).with_parameters(layers, workload)
        drives = range(1, topo.max_drives + 1)
        _assert_same(nm.evaluate(topo, wl, drives=drives),
                     nm.evaluate_mixed(nm.MixedTopology.from_topology(topo), wl, drives=drives))


# ------------------------------------------------------------------------------------ hand-computed mixed curves
def test_synthetic_links_are_not_binding():
    """The hand computations below leave out the PCIe links: check that they are well above."""
    mixed = nm.evaluate_mixed(_two_groups(), READ_4K)
    for j in range(2):
        link = mixed.group_ceilings[j]["pcie_link"][-1] / mixed.group_drives[j, -1]
        assert link > 1.5e6  # Gen4 x4 at 4 KiB: ~1.7 M IOPS (§3) against 400-500 K per drive
    uplink = mixed.group_ceilings[0]["switch_uplink"][-1]
    assert uplink > 5e6  # Gen4 x16 uplink against the 1 M processing cap


def test_switch_binds_in_one_group_while_the_other_scales_then_host_cpu():
    """Switched group first: 0.4 M per drive until its switch's 1 M processing cap (3rd drive); then the direct
    drives add 0.5 M each until the host CPU's 4.0 M (§4): 1.0 + 6 x 0.5 = 4.0 at 10 drives (a tie, which goes
    to the drive), 4.0 from 11 on."""
    curve = nm.evaluate_mixed(_two_groups(), READ_4K)
    expected = [0.4e6, 0.8e6, 1.0e6, 1.0e6] + [1.0e6 + 0.5e6 * k for k in range(1, 7)] + [4.0e6, 4.0e6]
    np.testing.assert_allclose(curve.iops, expected, rtol=1e-12)
    # from 5 drives the groups are held by different limits: each named with its groups, the component holding
    # the larger share first (5 drives: 1.0 M on the switch against 0.5 M; 6: 1.0 against 1.0, a tie, which goes
    # to the component nearer the drive)
    both = "direct: drive; switched: switch_processing"
    assert [curve.describe_binding_at(n) for n in range(1, 13)] == (
        ["switched: drive"] * 2 + ["switched: switch_processing"] * 2
        + ["switched: switch_processing; direct: drive"] + [both] * 5 + ["host: host_cpu"] * 2)
    assert list(curve.binding) == ["drive"] * 2 + ["switch_processing"] * 3 + ["drive"] * 5 + ["host_cpu"] * 2
    # at 12 drives the groups would bring 1.0 + 4.0 M; the CPU's 4.0 M throttles both in proportion (0.8)
    np.testing.assert_allclose(list(curve.group_iops_at(12).values()), [0.8e6, 3.2e6], rtol=1e-12)
    np.testing.assert_array_equal(curve.group_binding[:, -1], ["switch_processing", "drive"])
    np.testing.assert_allclose(curve.bytes_per_s, curve.iops * 4096, rtol=0)
    assert curve.knee() == 3
    assert "switched: switch_processing" in curve.explain() and "host: host_cpu" in curve.explain()
    assert "Where: shared by all groups" in curve.explain(12)
    assert "Where: in switched" in curve.explain(4)


def test_interleaved_order_names_every_group_held():
    """Binding names what holds the groups at that count, whichever group received the last drive (the label once
    named the last drive's group only: 'switched: switch_processing' at 7 drives, with the direct drives bound by
    their own limit)."""
    curve = nm.evaluate_mixed(_two_groups(order="interleaved"), READ_4K, drives=[1, 2, 5, 6, 7])
    # 5 drives: switched 3 (1.0 M: its switch), direct 2 (1.0 M); 6: direct 3; 7: switched 4, still 1.0 M
    np.testing.assert_array_equal(curve.group_drives, [[1, 1, 3, 3, 4], [0, 1, 2, 3, 3]])
    np.testing.assert_allclose(curve.iops, [0.4e6, 0.9e6, 2.0e6, 2.5e6, 2.5e6], rtol=1e-12)
    assert [curve.describe_binding_at(n) for n in (1, 2, 5, 6, 7)] == [
        "switched: drive", "switched, direct: drive"] + ["direct: drive; switched: switch_processing"] * 3


def test_an_explicit_order():
    topo = _two_groups(order=(1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1))
    curve = nm.evaluate_mixed(topo, READ_4K, drives=[2, 6])
    np.testing.assert_allclose(curve.iops, [1.0e6, 2.0e6], rtol=1e-12)


def test_shared_queue_depth_counts_each_io_once():
    """Host-wide queue depth (not per drive) over drives of different latency: Little's law on the I/O-weighted
    mean latency (§6, §12.7). One A (500 K, R0 100 µs) and one B (400 K, R0 200 µs), 64 outstanding:
    64 / (5/9 x 100 µs + 4/9 x 200 µs) = 443,076.9 IOPS."""
    a, b = DRIVE_A.replace(read_latency_s=100e-6), DRIVE_B.replace(read_latency_s=200e-6)
    topo = nm.MixedTopology("little", HOST, (nm.DriveGroup(a, 1, name="a"), nm.DriveGroup(b, 1, name="b")))
    wl = nm.Workload("randread", "4K", iodepth=64, per_drive=False)
    curve = nm.evaluate_mixed(topo, wl, drives=[1, 2])
    np.testing.assert_allclose(curve.iops, [64 / 100e-6 * 0 + 500e3, 64 * 9 / 1300e-6], rtol=1e-12)
    assert curve.binding_at(2) == "queue_depth" and curve.binding_group_at(2) == "host"
    assert curve.binding_at(1) == "drive"  # 64 / 100 µs = 640 K > 500 K


@pytest.mark.parametrize(("pins", "expected", "binding"), [
    # socket cap 5 GB/s / 4 KiB = 1,220,703.125 IOPS each (§12.5). Separate sockets: min(1.22 M, 4 x 0.5 M) +
    # min(1.22 M, switch's 1.0 M); the socket level's candidate is 3.6 M minus what the caps take off the drives
    # (0.78 M + 0.38 M) = 2.44 M < the groups' own 3.0 M: socket_dma binds.
    ((0, 1), 5e9 / 4096 + 1.0e6, "socket_dma"),
    # both on socket 0: one cap for everything
    ((0, 0), 5e9 / 4096, "socket_dma"),
])
def test_groups_share_a_socket_they_are_pinned_to(pins, expected, binding):
    extras = {"memory.peak_bytes_per_s": 10e9, "memory.dma_fraction": 0.5}
    topo = nm.MixedTopology("pinned", HOST, (
        nm.DriveGroup(DRIVE_A, 4, socket=pins[0], name="a"),
        nm.DriveGroup(DRIVE_B, 4, switch=SWITCH, socket=pins[1], name="b")), extras=extras)
    curve = nm.evaluate_mixed(topo, READ_4K, drives=[8])
    assert curve.iops_at(8) == pytest.approx(expected, rel=1e-12)
    assert curve.binding_at(8) == binding and curve.binding_group_at(8) == "host"
    assert sum(curve.group_iops_at(8).values()) == pytest.approx(expected, rel=1e-12)


def test_unpinned_groups_spread_over_both_sockets():
    """Round-robin over 2 sockets: group a's 4 drives 2 + 2, group b's switch on socket 0 (one switch, one complex
    in use). Socket 0: 1.0 M (a) + 1.0 M (b) capped at 1.22 M; socket 1: 1.0 M."""
    extras = {"memory.peak_bytes_per_s": 10e9, "memory.dma_fraction": 0.5}
    topo = nm.MixedTopology("spread", HOST, (
        nm.DriveGroup(DRIVE_A, 4, name="a"), nm.DriveGroup(DRIVE_B, 4, switch=SWITCH, name="b")), extras=extras)
    assert nm.evaluate_mixed(topo, READ_4K, drives=[8]).iops_at(8) == pytest.approx(5e9 / 4096 + 1.0e6, rel=1e-12)


def test_json_and_frame():
    curve = nm.evaluate_mixed(_two_groups(), READ_4K)
    d = json.loads(json.dumps(curve.to_dict()))
    assert d["schema"] == "nvmemodel.mixed/1" and d["order"] == "sequential"
    assert [g["name"] for g in d["groups"]] == ["switched", "direct"]
    assert d["groups"][0]["switch_model"] == "custom" and d["groups"][1]["lanes"] == 4
    last = d["points"][-1]
    assert last["binding"] == "host_cpu" and last["binding_group"] == "host"
    assert [g["drives"] for g in last["groups"]] == [4, 8]
    assert sum(g["iops"] for g in last["groups"]) == pytest.approx(last["iops"], rel=1e-12)
    assert d["points"][0]["groups"][1]["binding"] is None  # no direct drives yet
    df = curve.to_frame()
    assert list(df["binding_group"])[-1] == "host" and list(df["direct_drives"]) == [0] * 4 + list(range(1, 9))
    assert "2 groups" in repr(curve) and "host: host_cpu" in repr(curve)


def test_binding_sources_come_from_the_binding_group():
    curve = nm.evaluate_mixed(_two_groups(), READ_4K, drives=[4])
    top = curve.ceilings_at(4)[0]
    assert top.component == "switch_processing" and top.binding
    assert any(name == "switch.per_command_s" for name, _, _ in top.sources)


# ---------------------------------------------------------------------------------------------------- bad input
def test_bad_input_gives_one_clear_error():
    with pytest.raises(ParameterError, match="drives=13"):
        nm.evaluate_mixed(_two_groups(), READ_4K, drives=[13])
    with pytest.raises(ParameterError, match="MixedTopology"):
        nm.evaluate_mixed(nm.preset("dell-r7525"), READ_4K)
    with pytest.raises(ParameterError, match="drive.read_latency_s.*DriveGroup"):
        nm.evaluate_mixed(_two_groups(), READ_4K, overrides={"drive.read_latency_s": 1e-4})
    with pytest.raises(ParameterError, match="host.cycles_per_io"):
        nm.evaluate_mixed(_two_groups(), READ_4K, overrides={"host.cycles_per_io": -1})


def test_shared_overrides_apply_to_every_group():
    curve = nm.evaluate_mixed(_two_groups(), READ_4K, drives=[12], overrides={"host.cycles_per_io": 5000})
    assert curve.iops_at(12) == pytest.approx(2.0e6, rel=1e-12)  # 2 x 5 x 1e9 / 5000
    assert curve.parameters["host.cycles_per_io"] == 5000


def test_shared_layers_bind_for_all_groups_ion_nfs():
    """ION over NFS (docs/physics.md §12.4): the server CPU's 300 K 4K random reads (calibrated: ~10 % of the
    local 3 M) bind whatever drives sit below it. Half of ION's 8 drives swapped for PM1733s (a RAID-5 of 4 in
    each group, as the preset's width): still 300 K, named as a shared (host) limit."""
    ion = nm.preset("ion-sr71mach5-linux-nfs3")
    topo = nm.MixedTopology("ion mixed", ion.host, (nm.DriveGroup(ion.drive, 4, name="ion drives"),
                                                    nm.DriveGroup("samsung-pm1733-u2", 4, name="pm1733")),
                            fabric=ion.fabric, extras=dict(ion.extras), extras_sources=dict(ion.extras_sources))
    curve = nm.evaluate_mixed(topo, READ_4K, drives=[8])
    assert curve.iops_at(8) == pytest.approx(300e3, rel=1e-9)
    assert curve.describe_binding_at(8) == "host: share_server_cpu"
    assert "Set by: share.protocol = nfs3" in curve.explain(8)
    # each I/O is charged once: the same server-CPU ceiling as the single-model preset's
    single = nm.evaluate(ion, READ_4K, drives=[8])
    assert curve.ceilings["share_server_cpu"][0] == single.ceilings["share_server_cpu"][0]


def test_readme_example_says_what_it_computes():
    """The README's mixed-topology example: its comments are the results."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = text.split("**Mixed drive and switch models under one host.**", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    scope: dict = {"nm": nm}
    exec(compile(code, "README.md", "exec"), scope)  # noqa: S102 (our own README)
    curve = scope["curve"]
    assert (curve.describe_binding_at(12), curve.describe_binding_at(24)) == (
        "gen4, gen3: drive", "gen4: drive; gen3: switch_uplink")
    assert curve.bandwidth_at(24) / 1e9 == pytest.approx(79.91, abs=0.005)
    assert curve.group_iops_at(24)["gen4"] * 131072 / 1e9 == pytest.approx(51.2, rel=1e-12)  # 8 x 6.4 GB/s (spec)


def test_overrides_show_in_the_curve_and_keep_the_host_checked():
    curve = nm.evaluate_mixed(_two_groups(), READ_4K, drives=[12], overrides={"host.gen": 5})
    assert curve.topology.host.gen == 5 and "Gen5" in curve.to_dict()["description"]
    # 8 x4 direct drives + one x16 uplink = 48 lanes: 20 lanes per socket (40 in all) cannot hold them
    with pytest.raises(ParameterError, match="host lanes=48.*at most 40"):
        nm.evaluate_mixed(_two_groups(), READ_4K, drives=[12], overrides={"host.lanes_per_socket": 20})


def test_raid5_small_writes_per_group():
    """RAID-5 of 4 inside each group (§12.2): a 4K random write costs 2 reads + 2 writes on the drives, so with
    equal read and write rates X a drive gives X/4 host writes and the switch's 1.0 M commands 250 K. Switched
    group: min(4 x 400 K/4, 1.0 M/4) = 250 K; direct: 8 x 500 K/4 = 1.0 M; 1.25 M in all."""
    a = DRIVE_A.replace(rand_write_iops=500e3)
    b = DRIVE_B.replace(rand_write_iops=400e3)
    topo = nm.MixedTopology("raid", HOST, (nm.DriveGroup(b, 4, switch=SWITCH, name="switched"),
                                           nm.DriveGroup(a, 8, name="direct")),
                            extras={"raid.level": "raid5", "raid.width": 4})
    curve = nm.evaluate_mixed(topo, nm.Workload("randwrite", "4K"), drives=[4, 12])
    np.testing.assert_allclose(curve.iops, [250e3, 1.25e6], rtol=1e-12)
    assert curve.describe_binding_at(4) == "switched: switch_processing"
    assert curve.describe_binding_at(12) == "direct: drive; switched: switch_processing"


@pytest.mark.parametrize(("extras", "expected", "component"), [
    # a share 0.5 of the DMA bytes crosses an inter-socket link of 2 GB/s per direction; both sockets hold drives and
    # send their remote reads in opposite directions: 2 x 2e9 / (0.5 x 4096) (§12.1, QA F24)
    ({"tree.remote_fraction": 0.5, "tree.inter_socket_bytes_per_s": 2e9}, 2 * 2e9 / (0.5 * 4096), "inter_socket"),
    # the RAID layer's own rate (§12.3), RAID-0 reads: no amplification
    ({"raid.level": "raid0", "raid.width": 4, "raid.max_iops": 1.5e6}, 1.5e6, "raid_layer"),
    # the RAID layer's cycles are charged once per host I/O (§12.3): 1e10 / (2500 + 2500)
    ({"raid.level": "raid0", "raid.width": 4, "raid.cycles_per_io": 2500}, 2.0e6, "host_cpu"),
])
def test_shared_system_limits_bind_once_for_all_groups(extras, expected, component):
    topo = _two_groups(extras=extras)
    curve = nm.evaluate_mixed(topo, READ_4K, drives=[12])
    assert curve.iops_at(12) == pytest.approx(expected, rel=1e-12)
    assert curve.describe_binding_at(12) == f"host: {component}"


def test_one_network_in_front_of_all_groups():
    """Broadcom Stingray's 100 GbE RoCEv2 fabric (§5) in front of both groups: 128K reads bind on it once,
    at the value a single-model topology with the same fabric gives (the fabric depends on no drive)."""
    fabric = nm.preset("broadcom-stingray").fabric
    wl = nm.Workload("read", "128K")
    curve = nm.evaluate_mixed(_two_groups(fabric=fabric), wl, drives=[12])
    single = nm.evaluate(nm.Topology("single", HOST, DRIVE_A, fabric=fabric), wl, drives=[1])
    assert curve.describe_binding_at(12) == "host: fabric"
    assert curve.iops_at(12) == single.ceilings["fabric"][0]
    assert 11e9 < curve.bandwidth_at(12) < 12.5e9  # 100 Gb/s = 12.5 GB/s less headers


def test_nm_evaluate_takes_a_mixed_topology_too():
    t = nm.MixedTopology("two groups", nm.preset("dell-r7525").host, (
        nm.DriveGroup("samsung-pm1733-u2", 8), nm.DriveGroup("intel-p3700-800gb", 8)))
    wl = nm.Workload("read", "128K")
    a, b = nm.evaluate(t, wl, drives=[4, 8, 16]), nm.evaluate_mixed(t, wl, drives=[4, 8, 16])
    assert isinstance(a, nm.MixedCurve)
    np.testing.assert_allclose(a.iops, b.iops, rtol=1e-12)
    assert list(a.binding) == list(b.binding)
    with pytest.raises(ParameterError, match="a Topology"):
        nm.evaluate("dell-r7525", wl)
