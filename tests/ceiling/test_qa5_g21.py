"""QA round 5, G21: a mixed point whose total lies below its binding shared level's ceiling alone says how the
composition placed the drives there — the drives per root complex, the groups on the busiest, and which complexes
are at their limit and which below it (what their drives bring)."""

import nvmemodel as nm

_OVER = {"tree.complex_bytes_per_s": 5e9, "tree.complexes_per_socket": 2}


def _curve(drives, over=_OVER, b_socket=None):
    t = nm.MixedTopology("x", nm.preset("dell-r7525").host, (
        nm.DriveGroup("samsung-pm1733-u2", 3, name="a"), nm.DriveGroup("intel-p3700-800gb", 2, name="b",
                                                                        socket=b_socket)),
        order="interleaved")
    return nm.evaluate_mixed(t, nm.Workload("read", "128K"), drives=drives, overrides=over)


def test_complexes_named_with_their_groups_and_room():
    c = _curve([5])
    # 4 complexes of 5 GB/s: a's three drives (6.4 GB/s each) on positions 0-2, b's two (2.8 GB/s) on 3 and
    # (wrapping) 0: 5 + 5 + 5 + 2.8 = 17.8 GB/s, below the root complexes alone (20 GB/s)
    assert abs(c.bandwidth_at(5) - 17.8e9) < 1e6
    assert c.placed_at(5) == [(0, {0: 1, 1: 1}), (1, {0: 1}), (0, {0: 1}), (1, {1: 1})]
    text = c.explain(5)
    assert ("At 5 drive(s) the root complexes in use hold 2, 1, 1, 1 drives (a complex on socket 0 holds 2: a, b); "
            "3 are at the limit, 1 below it (a complex on socket 1 holding b: its drives bring 56% of the limit), "
            "so the total lies below the root complexes' ceiling alone.") in text, text


def test_even_complexes_with_room_and_nothing_when_nothing_to_say():
    c = _curve([2, 4])
    # 2 drives: a on position 0 (6.4 GB/s: at its 5), b on 3 (2.8 of 5): one each, 7.8 GB/s
    assert c.placed_at(2) == [(0, {0: 1}), (1, {1: 1})]
    assert abs(c.bandwidth_at(2) - 7.8e9) < 1e6
    assert ("the root complexes in use hold 1, 1 drives; 1 is at the limit, 1 below it (a complex on socket 1 "
            "holding b: its drives bring 56% of the limit)") in c.explain(2)
    # 4 drives: a on 0 and 1, b on 3 and (wrapping) 0 -- complex 0 holds a and b, as the composition charges it:
    # 5 + 5 + 2.8 = 12.8 GB/s
    assert c.placed_at(4) == [(0, {0: 1, 1: 1}), (1, {0: 1}), (1, {1: 1})]
    assert abs(c.bandwidth_at(4) - 12.8e9) < 1e6
    assert "(2, 1, 1 drives" not in c.explain(4) and "hold 2, 1, 1 drives (a complex on socket 0 holds 2: a, b)" \
        in c.explain(4)


def test_sockets_when_socket_dma_binds():
    t = nm.MixedTopology("x", nm.preset("dell-r7525").host, (
        nm.DriveGroup("samsung-pm1733-u2", 3, name="a", socket=0), nm.DriveGroup("intel-p3700-800gb", 2, name="b",
                                                                                  socket=1)))
    c = nm.evaluate_mixed(t, nm.Workload("read", "128K"), drives=[5], overrides={"memory.peak_bytes_per_s": 20e9,
                                                                                "memory.dma_fraction": 0.38})
    # (the share set here: the catalog EPYC's own is 0.68 since the measured Zen 2 device-DMA plateau replaced the R7525
    # bend's 0.38; this test is about the explanation, so it keeps its arithmetic)
    # a socket's DMA 0.38 x 20 GB/s = 7.6 GB/s: socket 0 (a: 3 x 6.4) at it, socket 1 (b: 2 x 2.8) below: 13.2 GB/s
    assert c.binding_at(5) == "socket_dma" and abs(c.bandwidth_at(5) - 13.2e9) < 1e6
    assert ("At 5 drive(s) the sockets hold 3, 2 drives (socket 0 holds 3: a ×3); 1 is at the limit, 1 below it "
            "(socket 1 holding b ×2: its drives bring 74% of the limit), so the total lies below the sockets' DMA "
            "ceiling alone.") in c.explain(5)
