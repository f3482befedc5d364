"""A GPU placed on the PCIe tree (issue 29 item 5; docs/physics.md §12.10): ``gpu.attach`` root_port or switch, and
``gpu.remote_fraction``. Three cases the issue asks for — the GPU's own link binding and named, peer-to-peer under a
switch that leaves the uplink, root complexes and memory out, and GPUs across the inter-socket link — each checked
against the PCIe specification's terms (``peer_link_iops``, ``command_link_iops``) and the catalog's own host limits
by hand; nothing here is a measurement, and no published GDS figure is used (the issue's one-GPU 26 GiB/s was read
there and is not a target)."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.derive import prepare
from nvmemodel.ceiling.pcie import command_link_iops, link_iops, peer_link_iops
from nvmemodel.errors import ParameterError
from nvmemodel.topology.host import with_host

READ = nm.Workload("read", "128K")
S = 131072.0


def _genoa(switch=None, switches=1):
    topo = with_host(nm.preset("dell-r7525"), nm.get_host("amd-epyc-9654"))
    return topo if switch is None else topo.replace(switch=nm.get_switch(switch), switch_count=switches)


def _curve(topo, drives, **over):
    return nm.evaluate(topo, READ, drives=drives, overrides={"drive.model": "samsung-pm1743", **over})


def test_one_gpu_on_a_root_port_binds_and_is_named():
    # 8 Gen5 drives give 8 x 13 GB/s = 104 GB/s; one Gen4 x16 GPU's link carries 28.7 GB/s (§12.10, the spec's terms)
    curve = _curve(_genoa(), [1, 8], **{"gpu.count": 1, "gpu.gen": 4, "gpu.attach": "root_port"})
    p = prepare(curve.parameters)
    one = float(peer_link_iops(4, 16, S, 1.0, p))
    assert curve.binding_at(1) == "drive" and curve.binding_at(8) == "gpu_link"
    assert curve.iops_at(8) == pytest.approx(one, rel=1e-12)
    assert curve.bandwidth_at(8) / 1e9 == pytest.approx(28.7, abs=0.05)  # 31.5 GB/s x 256/280, less SKP and DLLPs
    assert curve.ceilings["drive"][-1] * S / 1e9 == pytest.approx(104.0, rel=1e-9)
    text = curve.explain(8)
    assert "the GPUs' own PCIe links" in text and "[gpu_link]" in text


def test_on_a_root_port_the_data_never_reach_memory():
    # socket DMA (a share of memory bandwidth) is not charged; the root complexes still are
    placed = _curve(_genoa(), [24], **{"gpu.count": 8, "gpu.gen": 5, "gpu.attach": "root_port"})
    unplaced = _curve(_genoa(), [24], **{"gpu.count": 8, "gpu.gen": 5})
    assert np.isfinite(unplaced.ceilings["socket_dma"]).all()
    assert np.isinf(placed.ceilings["socket_dma"]).all()
    assert placed.ceilings["root_complex"][0] == pytest.approx(unplaced.ceilings["root_complex"][0], rel=1e-12)


def test_switch_local_peer_to_peer_leaves_the_uplink_complexes_and_memory_out():
    # 2 Gen5 x16-uplink switches, 24 Gen5 drives, 2 Gen5 x16 GPUs under each switch
    topo = _genoa("broadcom-pex89144", 2)
    local = _curve(topo, [24], **{"gpu.count": 4, "gpu.gen": 5, "gpu.attach": "switch"})
    via_cpu = _curve(topo, [24], **{"gpu.count": 4, "gpu.gen": 5, "gpu.attach": "root_port"})
    p = prepare(local.parameters)
    per_gpu = float(peer_link_iops(5, 16, S, 1.0, p))
    # the GPUs under each switch take its drives' data: 2 switches x 2 GPUs, each at its link
    assert local.binding_at(24) == "gpu_link"
    assert local.iops_at(24) == pytest.approx(2 * 2 * per_gpu, rel=1e-12)
    # that is above both switches' uplinks (the data do not cross them) and both root complexes (64 GB/s each)
    uplinks = 2 * float(link_iops(5, 16, S, 1.0, p))
    assert local.iops_at(24) > uplinks and local.bandwidth_at(24) > 2 * 64e9
    # the uplinks carry the commands alone: SQE, CQE, MSI-X, doorbells (the spec's bytes without the data TLPs)
    assert local.ceilings["switch_uplink"][0] == pytest.approx(2 * float(command_link_iops(5, 16, S, 1.0, p)),
                                                                rel=1e-12)
    for level in ("root_complex", "socket_dma", "inter_socket"):
        assert np.isinf(local.ceilings[level]).all(), level
    # through the root complex the same GPUs leave the data on the uplinks, which bind
    assert via_cpu.binding_at(24) == "switch_uplink"
    assert via_cpu.iops_at(24) == pytest.approx(uplinks, rel=1e-12)


def test_switch_local_gpus_serve_only_their_own_switchs_drives():
    # 4 drives round-robin over 2 switches: both switches hold drives; at 1 drive one switch's GPUs idle
    topo = _genoa("broadcom-pex89144", 2)
    curve = _curve(topo, [1, 24], **{"gpu.count": 2, "gpu.gen": 4, "gpu.attach": "switch"})
    per_gpu = float(peer_link_iops(4, 16, S, 1.0, prepare(curve.parameters)))
    assert curve.ceilings["gpu_link"][0] == pytest.approx(per_gpu, rel=1e-12)  # one switch holds the drive
    assert curve.iops_at(24) == pytest.approx(2 * per_gpu, rel=1e-12)


def test_gpus_across_the_inter_socket_link():
    # Ice Lake 8380: 3 UPI links x 22.4 GB/s = 67.2 GB/s per direction (catalog, inferred from the link rate);
    # 12 Gen4 drives pinned to socket 1, 4 Gen4 GPUs on socket 0's root ports: every byte crosses UPI
    host = with_host(nm.preset("dell-r7525"), nm.get_host("intel-xeon-platinum-8380"))
    far = nm.MixedTopology("drives on socket 1", host.host, (nm.DriveGroup("samsung-pm1733-u2", 12, socket=1),),
                           extras=dict(host.extras))
    crossing = nm.evaluate(far, READ, drives=[12], overrides={"gpu.count": 4, "gpu.attach": "root_port",
                                                               "gpu.remote_fraction": 1.0})
    assert crossing.binding_at(12) == "inter_socket"
    assert crossing.bandwidth_at(12) == pytest.approx(67.2e9, rel=1e-9)
    local = nm.evaluate(far, READ, drives=[12], overrides={"gpu.count": 4, "gpu.attach": "root_port"})
    assert local.binding_at(12) == "drive" and local.bandwidth_at(12) > 67.2e9
    # half the data remote (GPUs on both sockets, each socket's data spread over all of them): B / (0.5 S) a socket
    half = nm.evaluate(far, READ, drives=[12], overrides={"gpu.count": 4, "gpu.attach": "root_port",
                                                           "gpu.remote_fraction": 0.5})
    assert half.ceilings["inter_socket"][0] * S == pytest.approx(2 * 67.2e9, rel=1e-9)
    # host memory's own remote share no longer applies to data that go to a GPU
    ignored = nm.evaluate(far, READ, drives=[12], overrides={"gpu.count": 4, "gpu.attach": "root_port",
                                                              "tree.remote_fraction": 1.0})
    assert np.isinf(ignored.ceilings["inter_socket"]).all()


def test_unplaced_is_what_it_was():
    a = _curve(_genoa(), [8, 24], **{"gpu.count": 1, "gpu.gen": 4})
    b = _curve(_genoa(), [8, 24], **{"gpu.count": 1, "gpu.gen": 4, "gpu.attach": "unplaced"})
    assert np.array_equal(a.iops, b.iops) and np.isfinite(a.ceilings["socket_dma"]).all()


def test_no_gpu_ignores_where_it_would_sit():
    a = _curve(_genoa("broadcom-pex89144", 2), [24])
    b = _curve(_genoa("broadcom-pex89144", 2), [24], **{"gpu.attach": "switch"})
    assert np.array_equal(a.iops, b.iops) and a.binding_at(24) == b.binding_at(24) == "switch_uplink"


def test_a_sweep_over_where_the_gpus_sit_agrees_with_each_curve():
    topo = _genoa("broadcom-pex89144", 2)
    base, wl = topo.with_parameters({"drive.model": "samsung-pm1743", "gpu.count": 4, "gpu.gen": 5}, READ)
    res = nm.sweep(base, wl, drives=[8, 24], grid={"gpu.attach": ["unplaced", "root_port", "switch"]})
    for row, attach in enumerate(("unplaced", "root_port", "switch")):
        one = _curve(topo, [8, 24], **{"gpu.count": 4, "gpu.gen": 5, "gpu.attach": attach})
        assert res.iops[row] == pytest.approx(one.iops, rel=1e-12)
        assert list(res.binding[row]) == [one.binding_at(8), one.binding_at(24)]


@pytest.mark.parametrize("over, param, words", [
    ({"gpu.count": 1, "gpu.attach": "switch"}, "gpu.attach", "drives behind a PCIe switch"),
])
def test_gpus_under_a_switch_need_one(over, param, words):
    with pytest.raises(ParameterError) as err:
        _curve(_genoa(), [8], **over)
    assert err.value.parameter == param and words in str(err.value)


def test_gpus_under_switches_come_in_whole_numbers_per_switch():
    with pytest.raises(ParameterError) as err:
        _curve(_genoa("broadcom-pex89144", 2), [8], **{"gpu.count": 3, "gpu.attach": "switch"})
    assert err.value.parameter == "gpu.count" and "multiple of switch.count (2)" in str(err.value)


def test_unknown_attach_names_the_choices():
    with pytest.raises(ParameterError) as err:
        _curve(_genoa(), [8], **{"gpu.count": 1, "gpu.attach": "nvlink"})
    assert "unplaced, root_port, switch" in str(err.value)


def test_command_link_carries_less_than_the_full_link():
    p = prepare(_genoa().parameters(READ))
    for rf in (1.0, 0.0, 0.7):
        assert float(command_link_iops(5, 16, 4096, rf, p)) > 10 * float(link_iops(5, 16, 4096, rf, p))


def _two_groups(second):
    host = _genoa()
    return nm.MixedTopology("groups", host.host, (
        nm.DriveGroup("samsung-pm1743", 8, switch="broadcom-pex89144", switch_count=2, name="a"), second),
        extras=dict(host.extras))


def test_groups_sharing_one_groups_switches_share_its_gpus():
    # group b on group a's two switches: the switches' 2 GPUs (one each) take both groups' data
    topo = _two_groups(nm.DriveGroup("samsung-pm1733-u2", 8, switch_with="a", name="b"))
    curve = nm.evaluate(topo, READ, drives=[16], overrides={"gpu.count": 2, "gpu.gen": 4, "gpu.attach": "switch"})
    per_gpu = float(peer_link_iops(4, 16, S, 1.0, prepare(_genoa().parameters(READ))))
    assert curve.describe_binding_at(16) == "a, b: gpu_link"
    assert curve.iops_at(16) == pytest.approx(2 * per_gpu, rel=1e-12)


def test_gpus_behind_the_switches_of_two_groups_are_refused():
    topo = _two_groups(nm.DriveGroup("samsung-pm1733-u2", 8, switch="broadcom-pex89048", switch_count=2, name="b"))
    with pytest.raises(ParameterError) as err:
        nm.evaluate(topo, READ, drives=[16], overrides={"gpu.count": 2, "gpu.attach": "switch"})
    assert err.value.parameter == "gpu.attach" and "a, b have switches of their own" in str(err.value)
    with pytest.raises(ParameterError):  # set on the topology itself
        _two_groups(nm.DriveGroup("samsung-pm1733-u2", 8, switch="broadcom-pex89048", switch_count=2, name="b")
                    ).replace(extras={"gpu.attach": "switch", "gpu.count": 2})
    root = nm.evaluate(topo, READ, drives=[16], overrides={"gpu.count": 2, "gpu.gen": 5, "gpu.attach": "root_port"})
    assert root.binding_at(16) == "gpu_link"


def test_the_explanation_says_which_levels_the_data_skip():
    topo = _genoa("broadcom-pex89144", 2)
    local = _curve(topo, [24], **{"gpu.count": 4, "gpu.gen": 5, "gpu.attach": "switch"}).explain(24)
    assert "GPUs behind the drives' switches: the switches' uplinks carry the commands alone" in local
    not_limiting = next(line for line in local.splitlines() if line.startswith("Not limiting"))
    assert "root_complex" not in not_limiting and "socket_dma" not in not_limiting
    port = _curve(topo, [24], **{"gpu.count": 4, "gpu.gen": 5, "gpu.attach": "root_port",
                                 "gpu.remote_fraction": 0.5}).explain(24)
    assert "host memory is not touched, so socket_dma is not charged (" in port
    assert "peer-to-peer" not in _curve(topo, [24], **{"gpu.count": 4}).explain(24)


def test_gpus_behind_a_switch_take_its_ports():
    # PEX89144: 32 x4 downstream ports; a x16 GPU takes four of them (docs/physics.md §12.10)
    topo = _genoa("broadcom-pex89144", 2)
    placed, _ = topo.with_parameters({"gpu.count": 4, "gpu.attach": "switch"}, READ)
    assert topo.max_drives == 64 and placed.max_drives == 2 * (32 - 2 * 4)
    assert "8 taken by the GPUs behind each switch" in placed.max_drives_text()
    x8, _ = topo.with_parameters({"gpu.count": 4, "gpu.lanes": 8, "gpu.attach": "switch"}, READ)
    assert x8.max_drives == 2 * (32 - 2 * 2)
    with pytest.raises(ParameterError, match="<= 48, the most drives"):
        nm.evaluate(topo, READ, drives=[60], overrides={"gpu.count": 4, "gpu.attach": "switch"})
    with pytest.raises(ParameterError) as err:
        nm.evaluate(topo, READ, drives=[8], overrides={"gpu.count": 16, "gpu.attach": "switch"})
    assert err.value.parameter == "gpu.count" and "at most 14 GPUs" in str(err.value)
    on_ports, _ = topo.with_parameters({"gpu.count": 4, "gpu.attach": "root_port"}, READ)
    assert on_ports.max_drives == 64
