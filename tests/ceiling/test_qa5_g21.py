"""QA round 5, G21: a mixed point whose total lies below its binding shared level's ceiling alone says which root
complex holds more drives, with the groups on it, from the composition's own placement."""

import nvmemodel as nm

_OVER = {"tree.complex_bytes_per_s": 5e9, "tree.complexes_per_socket": 2}


def _curve(drives):
    t = nm.MixedTopology("x", nm.preset("dell-r7525").host, (
        nm.DriveGroup("samsung-pm1733-u2", 3, name="a"), nm.DriveGroup("intel-p3700-800gb", 2, name="b")),
        order="interleaved")
    return nm.evaluate_mixed(t, nm.Workload("read", "128K"), drives=drives, overrides=_OVER)


def test_uneven_complexes_named_with_their_groups():
    c = _curve([5])
    # 4 complexes of 5 GB/s: a's three drives on positions 0-2, b's two on 3 and (wrapping) 0:
    # 5 + 5 + 5 + one P3700's 2.8 GB/s = 17.8 GB/s, below the root complexes alone (20 GB/s)
    assert abs(c.bandwidth_at(5) - 17.8e9) < 1e6
    assert c.placed_at(5) == [(0, {0: 1, 1: 1}), (1, {0: 1}), (0, {0: 1}), (1, {1: 1})]
    text = c.explain(5)
    assert ("not spread evenly over the root complexes (2, 1, 1, 1; a complex on socket 0 holds 2: a, b)"
            in text), text
    assert "below the binding component's ceiling alone" in text


def test_even_point_says_nothing():
    c = _curve([2, 4])
    # 2 drives: a on position 0, b on 3 (b starts after a's full count): one each, nothing uneven
    assert c.placed_at(2) == [(0, {0: 1}), (1, {1: 1})]
    assert c.uneven_at(2) == [] and "not spread evenly" not in c.explain(2)
    # 4 drives: a on 0 and 1, b on 3 and (wrapping) 0 -- complex 0 holds a and b, as the composition charges it
    assert c.placed_at(4) == [(0, {0: 1, 1: 1}), (1, {0: 1}), (1, {1: 1})]
    assert "(2, 1, 1; a complex on socket 0 holds 2: a, b)" in c.explain(4)
