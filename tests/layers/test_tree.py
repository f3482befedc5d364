"""The host as a tree (docs/physics.md §12.1): root complexes and sockets with placement; the
inter-socket link; a tree without limits is the single-level model."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm

_PRESET = nm.preset("dell-r7525")
# no per-socket DMA cap and no catalog platform limits (the preset's host is a catalog EPYC 7742): the tree alone
DELL = _PRESET.replace(extras={}, host=_PRESET.host.replace(platform={}, platform_sources={}))
SR = nm.Workload("read", "128K")
D = float(nm.evaluate(DELL, SR, drives=[1]).iops_at(1)) * 131072  # one drive's PCIe-link-bound bytes/s
C = 2.5 * D  # a root complex that carries two and a half drives' worth
TWO = {"host.sockets": 1, "tree.complexes_per_socket": 2, "tree.complex_bytes_per_s": C, "tree.slots_per_complex": 6}


def curve(placement, **more):
    return nm.evaluate(DELL, SR, drives=range(1, 13), overrides={**TWO, "tree.placement": placement, **more})


def test_fill_first_saturates_the_first_complex_before_the_second():
    c = curve("fill_first")
    bw = c.bytes_per_s
    # drives 1-2 on complex 0 scale; the 3rd saturates it at C while complex 1 is still empty
    assert bw[:2] == pytest.approx([D, 2 * D], rel=1e-12)
    assert bw[2] == pytest.approx(C, rel=1e-12) and c.binding_at(3) == "root_complex"
    assert bw[5] == pytest.approx(C, rel=1e-12)  # 6 drives, all on complex 0: still C
    assert bw[6] == pytest.approx(C + D, rel=1e-12)  # the 7th is the first on complex 1
    assert bw[8] == pytest.approx(2 * C, rel=1e-12)  # 3 on complex 1: both saturated
    assert np.all(np.diff(bw) >= 0)


def test_round_robin_does_not_saturate_early():
    c = curve("round_robin")
    bw = c.bytes_per_s
    # alternating complexes: 4 drives = 2 + 2, each below C; both saturate only at 5-6 drives
    assert bw[:4] == pytest.approx(D * np.arange(1, 5), rel=1e-12)
    assert list(c.binding[:4]) == ["pcie_link"] * 4
    assert bw[4] == pytest.approx(C + 2 * D, rel=1e-12) and c.binding_at(5) == "root_complex"
    assert bw[5] == pytest.approx(2 * C, rel=1e-12)
    ff = curve("fill_first").bytes_per_s
    assert np.all(bw >= ff - 1e-6) and bw[3] > ff[3] * 1.5  # at 4 drives: 4D vs 2.5D


def test_sockets_alternate_in_round_robin_and_fill_socket_0_first():
    # 2 sockets x 1 complex, per-socket DMA cap 3 drives' worth, no complex cap
    over = {"host.sockets": 2, "memory.peak_bytes_per_s": 3 * D, "memory.dma_fraction": 1.0,
            "tree.slots_per_complex": 6}
    rr = nm.evaluate(DELL, SR, drives=[6, 8], overrides={**over, "tree.placement": "round_robin"})
    ff = nm.evaluate(DELL, SR, drives=[6, 8], overrides={**over, "tree.placement": "fill_first"})
    assert rr.bytes_per_s == pytest.approx([6 * D, 6 * D], rel=1e-12)  # 3 + 3, then capped at 3 + 3
    assert ff.bytes_per_s == pytest.approx([3 * D, 5 * D], rel=1e-12)  # 6 + 0 → 3; 6 + 2 → 3 + 2
    assert ff.binding_at(6) == "socket_dma" and rr.binding_at(8) == "socket_dma"


def test_tree_without_limits_is_the_single_level_model():
    base = nm.evaluate(DELL, SR, drives=range(1, 25))
    tree = nm.evaluate(DELL, SR, drives=range(1, 25), overrides={"tree.complexes_per_socket": 4,
                                                                 "tree.placement": "fill_first"})
    np.testing.assert_array_equal(base.iops, tree.iops)
    assert list(base.binding) == list(tree.binding)


def test_switches_inside_complexes():
    # Lenovo 810-4P: 4 switches over 2 complexes (2 each); complex cap above two uplinks changes nothing
    lenovo = nm.preset("lenovo-sr850-810-4p").replace(switch_count=4)
    wl = nm.Workload("read", "256K")
    base = nm.evaluate(lenovo, wl, drives=[4, 8, 16])
    up = float(base.bytes_per_s[-1]) / 4  # one saturated uplink
    same = nm.evaluate(lenovo, wl, drives=[4, 8, 16], overrides={
        "tree.complexes_per_socket": 1, "host.sockets": 2, "tree.complex_bytes_per_s": 2.5 * up})
    np.testing.assert_allclose(same.bytes_per_s, base.bytes_per_s, rtol=1e-12)
    capped = nm.evaluate(lenovo, wl, drives=[16], overrides={
        "tree.complexes_per_socket": 1, "host.sockets": 2, "tree.complex_bytes_per_s": 1.5 * up})
    assert capped.bytes_per_s[0] == pytest.approx(3 * up, rel=1e-12) and capped.binding_at(16) == "root_complex"


def test_inter_socket_link():
    # half the DMA bytes on the far socket, 40 GB/s of xGMI per direction: each socket's reads cross in their own
    # direction, at most 80 GB/s of reads per socket, 160 GB/s in total (§12.1; QA F24: 80 GB/s before)
    c = nm.evaluate(DELL, SR, drives=[24], overrides={"tree.remote_fraction": 0.5,
                                                       "tree.inter_socket_bytes_per_s": 40e9})
    assert c.bytes_per_s[0] == pytest.approx(160e9, rel=1e-12) and c.binding_at(24) == "inter_socket"


def test_sweep_over_placement_equals_evaluate():
    grid = {"tree.placement": ["round_robin", "fill_first"] * 2, "tree.complex_bytes_per_s": [C, C, 2 * C, 2 * C],
            "host.sockets": [1.0] * 4, "tree.complexes_per_socket": [2.0] * 4, "tree.slots_per_complex": [6.0] * 4}
    res = nm.sweep(DELL, SR, drives=range(1, 13), grid=grid)
    for i in range(4):
        one = nm.evaluate(DELL, SR, drives=range(1, 13), overrides={k: v[i] for k, v in grid.items()})
        np.testing.assert_allclose(res.iops[i], one.iops, rtol=1e-12)
        assert [res.components[b] for b in res.binding_index[i]] == list(one.binding)


def test_inter_socket_counts_the_bytes_a_degraded_array_moves():
    # RAID-5 of 4 with one member lost: a 4 KiB read of a live member's chunk is 1 drive read, of the lost
    # member's chunk 3 (the survivors, to rebuild it) → 1.5 drive reads = 6,144 bytes per host read on average
    # (Holland & Gibson 1992); all of it crossing a link of 6.144 GB/s per direction gives 1.0 M reads/s per socket
    # (1.5 M healthy), 8 drives round-robin on both sockets: 2.0 M (3.0 M healthy) (§12.1, per direction: QA F24)
    import nvmemodel as nm

    over = {"raid.level": "raid5", "raid.width": 4, "tree.remote_fraction": 1.0,
            "tree.inter_socket_bytes_per_s": 6.144e9}
    wl = nm.Workload("randread", "4K")
    healthy = nm.evaluate(nm.preset("dell-r7525"), wl, drives=[8], overrides={**over, "raid.degraded": 0})
    degraded = nm.evaluate(nm.preset("dell-r7525"), wl, drives=[8], overrides={**over, "raid.degraded": 1})
    assert healthy.ceilings["inter_socket"][0] == pytest.approx(3.0e6, rel=1e-12)
    assert degraded.ceilings["inter_socket"][0] == pytest.approx(2.0e6, rel=1e-12)
