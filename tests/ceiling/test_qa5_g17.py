"""QA round 5, G17: a mixed topology bound by the inter-socket link at a read/write mix says, as the single-model
explanation does, that the model is conservative there (docs/physics.md §12.1: both directions kept within one
direction's rate; exact limit B'/max(f, 1-f) where a socket brings less than the cap)."""

import nvmemodel as nm

_OVER = {"tree.remote_fraction": 1.0, "tree.inter_socket_bytes_per_s": 10e9}


def _curve(sockets=(0, 0), workloads=(None, None), f=0.5):
    t = nm.MixedTopology("x", nm.preset("dell-r7525").host, (
        nm.DriveGroup("samsung-pm1743", 4, name="a", socket=sockets[0], workload=workloads[0]),
        nm.DriveGroup("samsung-pm1733-u2", 4, name="b", socket=sockets[1], workload=workloads[1])))
    return nm.evaluate_mixed(t, nm.Workload("rw", "128K", read_fraction=f), drives=[8], overrides=_OVER)


def test_all_drives_on_one_socket_at_a_mix_gets_the_caveat():
    c = _curve()
    assert c.binding_at(8) == "inter_socket" and abs(c.bandwidth_at(8) - 10e9) < 1e3
    text = c.explain(8)
    assert ("with 50% reads and drives per socket 8, 0, a socket below that cap leaves link capacity unused in "
            "each direction, so this is conservative: the link's real ceiling may be up to 2x higher") in text, text
    assert "up to 1.4x higher" in _curve(f=0.7).explain(8)  # 1 / max(0.7, 0.3)


def test_the_uniform_topology_says_the_same():
    c = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("rw", "128K", read_fraction=0.5),
                    drives=[4], overrides={**_OVER, "drive.model": "samsung-pm1743", "tree.placement": "fill_first"})
    assert "the link's real ceiling may be up to 2x higher" in c.explain(4)


def test_exact_cases_say_nothing():
    assert "conservative" not in _curve(f=1.0).explain(8)  # reads only: one direction, exact
    # each socket's drives bring far more than the link's cap (4 PM1743: 35 GB/s; 4 PM1733: 19 GB/s): exact
    both = _curve(sockets=(0, 1))
    assert both.binding_at(8) == "inter_socket" and "conservative" not in both.explain(8)
    # groups with different read fractions: no single f to quote, nothing said
    own = _curve(workloads=(nm.Workload("read", "128K"), nm.Workload("rw", "128K", read_fraction=0.5)))
    assert own.binding_at(8) == "inter_socket" and "conservative" not in own.explain(8)
