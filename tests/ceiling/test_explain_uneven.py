"""Why the total lies below every component alone: the level whose units carry unequal drive counts, from the
placement (QA round 4, F2: the text blamed switches on hosts that have none)."""
import nvmemodel as nm

READ = nm.Workload("read", "128K")


def _explain(drives, **overrides):
    c = nm.evaluate(nm.preset("ion-sr71mach5-linux"), READ, drives=[drives], overrides=overrides)
    return c, c.explain(drives)


def test_five_drives_over_four_complexes_of_5_gb_s():
    # round-robin puts 2 of the 5 on one complex: 5 + 3 x 2.8 = 13.4 GB/s below 4 x 5 GB/s and 5 x 2.8 GB/s
    c, text = _explain(5, **{"tree.complex_bytes_per_s": 5e9, "tree.complexes_per_socket": 2})
    assert c.bandwidth_at(5) == 5e9 + 3 * 2.8e9
    assert "not spread evenly over the root complexes (2, 1, 1, 1)" in text
    assert "over the switches" not in text


def test_seven_drives_over_two_sockets_of_10_gb_s():
    c, text = _explain(7, **{"memory.peak_bytes_per_s": 20e9, "memory.dma_fraction": 0.5})
    assert c.bandwidth_at(7) == 10e9 + 3 * 2.8e9
    assert "not spread evenly over the sockets (4, 3)" in text
    assert "over the switches" not in text


def test_even_spread_says_nothing_about_spread():
    _, text = _explain(8, **{"memory.peak_bytes_per_s": 20e9, "memory.dma_fraction": 0.5})
    assert "spread" not in text
