"""The inter-socket link per direction (QA round 4, F24; docs/physics.md §12.1).

``B`` (tree.inter_socket_bytes_per_s) is the links' rate per direction. Socket ``s`` sends its drives' remote reads
(device → far memory) out and fetches their remote writes in, so with reads only each direction carries one socket's
remote bytes: each socket is capped at ``B' = B / (ρ·S)`` host I/Os and ``X = Σ_s min(x_s, B')``. The model keeps every
socket's remote bytes (both directions together) within ``B`` — exact for reads only or writes only and wherever every
socket holding drives is at the cap, conservative (by at most ``1 / max(f, 1 − f)``) for a mix with unequal sockets.

Hand-computed with the Dell R7525 preset (drives on Gen4 x4 links): a 128 KiB sequential read is limited per drive by
its PCIe link, ``d`` = 7.17641035 GB/s (taken from the model at 1 drive below, not assumed); socket DMA is removed
(memory.peak_bytes_per_s = inf) so the link is the only level above the drives.
"""
import numpy as np
import pytest

import nvmemodel as nm

DELL = nm.preset("dell-r7525")
READ = nm.Workload("read", "128K")
S = 131072.0
NO_DMA = {"memory.peak_bytes_per_s": float("inf")}


def _d() -> float:
    return float(nm.evaluate(DELL, READ, drives=[1], overrides=NO_DMA).bytes_per_s[0])


def _curve(wl=READ, drives=(24,), **over):
    return nm.evaluate(DELL, wl, drives=list(drives), overrides={**NO_DMA, "tree.remote_fraction": 1.0, **over})


def test_balanced_sockets_read_only_carry_twice_one_direction():
    # 12 + 12 drives (round-robin), every byte remote, B = 20 GB/s: each direction carries one socket's 20 GB/s
    c = _curve(**{"tree.inter_socket_bytes_per_s": 20e9})
    assert c.bytes_per_s[0] == pytest.approx(2 * 20e9, rel=1e-12)  # 2B/(ρ S), not B/(ρ S) as before F24
    assert c.binding_at(24) == "inter_socket"
    assert c.ceilings["inter_socket"][0] * S == pytest.approx(40e9, rel=1e-12)


def test_half_remote_balanced():
    # ρ = 0.5: each socket's 40 GB/s of DMA puts 20 GB/s on its direction of a 20 GB/s link
    c = _curve(**{"tree.inter_socket_bytes_per_s": 20e9, "tree.remote_fraction": 0.5})
    assert c.bytes_per_s[0] == pytest.approx(2 * 20e9 / 0.5, rel=1e-12)


@pytest.mark.parametrize("wl", [READ, nm.Workload("write", "128K")])
def test_all_drives_on_one_socket_read_or_write_only(wl):
    # fill_first, 4 complexes per socket x 3 slots: 12 drives all on socket 0 → one direction carries it all:
    # B / (ρ S max(f, 1 − f)) = B / (ρ S) for f = 1 (reads out) and f = 0 (writes in)
    over = {"tree.inter_socket_bytes_per_s": 20e9, "tree.placement": "fill_first", "tree.slots_per_complex": 3}
    c = _curve(wl, drives=[12], **over)
    assert c.bytes_per_s[0] == pytest.approx(20e9, rel=1e-12)
    assert c.binding_at(12) == "inter_socket"


def test_mix_on_one_socket_is_conservative_by_at_most_the_busier_direction():
    # 50/50 mix on socket 0 only: exactly, reads use 0→1 and writes 1→0, each 10 of the 20 GB/s at 20 GB/s in total…
    # the model keeps the socket's remote bytes (both ways) within B: 20 GB/s, the exact B/(ρ S max(f, 1−f)) = 40 GB/s
    # being at most 1/max(f, 1 − f) = 2x higher (stated in §12.1 and by the explanation)
    over = {"tree.inter_socket_bytes_per_s": 20e9, "tree.placement": "fill_first", "tree.slots_per_complex": 3}
    c = _curve(nm.Workload("rw", "128K", read_fraction=0.5), drives=[12], **over)
    assert c.bytes_per_s[0] == pytest.approx(20e9, rel=1e-12)
    assert "conservative" in c.explain(12)


def test_seventy_thirty_mix_balanced_is_exact():
    # f = 0.7 on 12 + 12 drives: direction 0→1 carries 0.7·X0 + 0.3·X1 = 0.5·X: X = 2B/(ρ S), as for reads only
    c = _curve(nm.Workload("rw", "128K", read_fraction=0.7), **{"tree.inter_socket_bytes_per_s": 20e9})
    assert c.bytes_per_s[0] == pytest.approx(40e9, rel=1e-12)
    assert c.binding_at(24) == "inter_socket"
    assert "conservative" not in c.explain(24)


def test_seventy_thirty_drive_split_read_only():
    # fill_first, one complex per socket of 7 slots: 10 drives = 7 on socket 0, 3 on socket 1; B = 30 GB/s between
    # 3d and 7d: socket 0's reads fill 0→1 (30 GB/s), socket 1's 3 drives use 1→0 freely: 30 + 3d
    d = _d()
    over = {"tree.inter_socket_bytes_per_s": 30e9, "tree.placement": "fill_first", "tree.complexes_per_socket": 1,
            "tree.slots_per_complex": 7}
    c = _curve(drives=[10], **over)
    assert 3 * d < 30e9 < 7 * d
    assert c.bytes_per_s[0] == pytest.approx(30e9 + 3 * d, rel=1e-12)
    assert c.binding_at(10) == "inter_socket"


def test_odd_drive_counts_and_never_decreasing():
    # round-robin: 2k+1 drives = k+1 on socket 0, k on socket 1; B = 10 GB/s between d and 2d:
    # 1 drive: d; 2: 2d; 3: 10 + d; from 4 on 2 x 10 GB/s. X(n) never decreases (the planner's bisection needs it)
    d = _d()
    c = _curve(drives=range(1, 25), **{"tree.inter_socket_bytes_per_s": 10e9})
    assert d < 10e9 < 2 * d
    np.testing.assert_allclose(c.bytes_per_s[:4], [d, 2 * d, 10e9 + d, 20e9], rtol=1e-12)
    np.testing.assert_allclose(c.bytes_per_s[3:], 20e9, rtol=1e-12)
    assert np.all(np.diff(c.bytes_per_s) >= 0)


def test_socket_dma_and_link_compose_per_socket():
    # the link and socket DMA are both per-socket caps: the tighter one per socket, Σ_s min(Sock, B', x_s)
    base = nm.evaluate(DELL, READ, drives=[24])
    sock = base.ceilings["socket_dma"][0] / 2 * S  # per socket, bytes/s
    for B, want in ((0.5 * sock, "inter_socket"), (2 * sock, "socket_dma")):
        c = nm.evaluate(DELL, READ, drives=[24], overrides={"tree.remote_fraction": 1.0,
                                                            "tree.inter_socket_bytes_per_s": B})
        assert c.bytes_per_s[0] == pytest.approx(2 * min(B, sock), rel=1e-12)
        assert c.binding_at(24) == want


def test_the_qa_reproduction():
    # F24: the R7525's 3 xGMI x 36 GB/s per direction; 24 drives round-robin, reads, all remote: 216 GB/s, above
    # socket DMA's 155.6 GB/s, which binds
    c = nm.evaluate(DELL, READ, drives=[12, 24], overrides={"tree.remote_fraction": 1.0})
    assert c.ceilings["inter_socket"][1] * S == pytest.approx(216e9, rel=1e-12)
    assert c.ceilings["inter_socket"][0] * S == pytest.approx(216e9, rel=1e-12)
    assert c.binding_at(24) == "socket_dma"


def test_four_sockets_each_socket_within_b():
    # 4 x Xeon 8176 (LP0865's SR850): each socket's 3 UPI links, 62.4 GB/s per direction; reads, all remote, spread
    # evenly over the 3 other sockets: each socket sends its reads out (≤ B) and receives a third of each other's
    c = nm.evaluate(nm.preset("lenovo-sr850-direct"), READ, drives=[4],
                    overrides={"tree.remote_fraction": 1.0, "tree.inter_socket_bytes_per_s": 5e9})
    assert c.ceilings["inter_socket"][0] * S == pytest.approx(4 * 5e9, rel=1e-12)


def test_sweep_equals_evaluate_with_the_link():
    grid = {"tree.inter_socket_bytes_per_s": [10e9, 20e9, 30e9, 1e12], "tree.remote_fraction": [1.0, 0.5, 0.0, 1.0],
            "tree.placement": ["round_robin", "fill_first", "round_robin", "fill_first"]}
    res = nm.sweep(DELL, READ, drives=range(1, 25), grid=grid)
    for i in range(4):
        one = nm.evaluate(DELL, READ, drives=range(1, 25), overrides={k: v[i] for k, v in grid.items()})
        np.testing.assert_array_equal(res.iops[i], one.iops)
        assert [res.components[b] for b in res.binding_index[i]] == list(one.binding)


def test_no_link_sentence_where_it_does_not_bind_or_is_exact():
    # the former blanket "may be up to 2x higher" is gone: the default (NUMA-local) R7525 names no link, and the
    # QA reproduction (reads: exact) carries no caveat
    c = nm.evaluate(DELL, READ, drives=[24])
    assert "inter-socket link" not in c.explain(24).split("Headroom")[0]
    c = _curve(**{"tree.inter_socket_bytes_per_s": 20e9})
    assert c.binding_at(24) == "inter_socket"
    assert "2x higher" not in c.explain(24) and "conservative" not in c.explain(24)


def test_no_caveat_where_every_socket_is_at_the_cap():
    # 13 + 11 drives (fill_first, 13 slots on socket 0's one complex), 50/50 mix, B = 20 GB/s: both sockets' drives
    # bring far more than 20 GB/s, both at the cap: each direction carries 0.5·20 + 0.5·20 = 20 GB/s, exact
    over = {"tree.inter_socket_bytes_per_s": 20e9, "tree.placement": "fill_first", "tree.complexes_per_socket": 1,
            "tree.slots_per_complex": 13}
    c = _curve(nm.Workload("rw", "128K", read_fraction=0.5), **over)
    assert c.bytes_per_s[0] == pytest.approx(40e9, rel=1e-12) and c.binding_at(24) == "inter_socket"
    assert "conservative" not in c.explain(24)
