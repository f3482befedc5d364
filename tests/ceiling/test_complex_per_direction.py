"""A root complex's rate is per direction, like the drive links and switch uplinks (QA round 4, F25): a 50/50
read/write mix puts half its bytes each way, so a Skylake-SP x16 stack (15.75 GB/s each way) carries 31.5 GB/s."""
import pytest

import nvmemodel as nm


def _complex_bytes(read_fraction):
    t = nm.with_host(nm.preset("dell-r7525"), "intel-xeon-platinum-8176", sockets=1)
    wl = nm.Workload("randrw", "128K", read_fraction=read_fraction)
    c = nm.evaluate(t, wl, drives=[12])
    return float(c.ceilings["root_complex"][0]) * 131072, c


def test_a_read_only_load_fills_one_direction():
    x, _ = _complex_bytes(1.0)
    assert x == pytest.approx(3 * 15.75e9)  # three x16 Gen3 stacks (host_platforms.csv)


def test_a_half_and_half_mix_fills_both():
    x, c = _complex_bytes(0.5)
    assert x == pytest.approx(2 * 3 * 15.75e9)
    assert c.binding_at(12) == "drive"  # 12 x 5.15 GB/s of mixed I/O: the drives, not the stacks
