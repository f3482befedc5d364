"""Which switch the drives land on, and what binds when one switch is full while another is not
(docs/physics.md §12.1: round-robin over the switches, or fill_first through the root complexes)."""

import numpy as np
import pytest

import nvmemodel as nm

LENOVO = nm.preset("lenovo-sr850-810-4p")   # 810-4P: 4 ports, Gen3 x8 uplink at 0.8636 → 6.2 GB/s, 1.3 M IOPS
RR = nm.Workload("randread", "4K")
SR = nm.Workload("read", "256K")


def _curve(wl, **over):
    return nm.evaluate(LENOVO, wl, drives=[1, 2, 3, 4, 5, 6, 7, 8], overrides={"switch.count": 2, **over})


def test_fill_first_loads_the_first_switch_whatever_the_complex_limit():
    # 2 switches on 2 root complexes (sockets 4 x 1 complex, one switch each), 4 slots per complex filled first:
    # drives 1-4 on switch 0, 5-8 on switch 1; each switch caps at 1/769.2 ns = 1.30 M IOPS, a drive at 650 K
    fill = _curve(RR, **{"tree.placement": "fill_first"})
    assert fill.iops / 1e6 == pytest.approx([0.65, 1.3, 1.3, 1.3, 1.95, 2.6, 2.6, 2.6], rel=1e-4)
    assert list(fill.binding[2:4]) == ["switch_processing"] * 2   # the 3rd and 4th drive land on a full switch
    # a root-complex limit far above everything must not change where the drives are (it used to: the
    # placement was only applied where a complex or socket limit was set)
    huge = _curve(RR, **{"tree.placement": "fill_first", "tree.complex_bytes_per_s": 1e30})
    np.testing.assert_allclose(huge.iops, fill.iops, rtol=1e-12)
    assert list(huge.binding) == list(fill.binding)
    for name in set(fill.ceilings) - {"root_complex"}:  # (whose own ceiling is 1e30 B/s instead of none)
        np.testing.assert_allclose(huge.ceilings[name], fill.ceilings[name], rtol=1e-12, err_msg=name)
    # the switch processing limit alone, at 3 drives: one switch holds them all (round-robin: two)
    assert fill.ceilings["switch_processing"][2] == pytest.approx(1 / 769.23e-9, rel=1e-4)
    rr = _curve(RR, **{"tree.placement": "round_robin"})
    assert rr.iops / 1e6 == pytest.approx([0.65, 1.3, 1.95, 2.6, 2.6, 2.6, 2.6, 2.6], rel=1e-4)
    assert rr.ceilings["switch_processing"][2] == pytest.approx(2 / 769.23e-9, rel=1e-4)


def test_a_full_switch_binds_though_the_drives_add_up_to_more():
    # 2.2 GB/s drives round-robin over two 6.2 GB/s uplinks: at 5 drives switch 0 holds 3 (6.6 GB/s asked,
    # 6.2 delivered) and switch 1 holds 2 (4.4): 10.6 GB/s < 5 x 2.2 = 11.0, though 2 x 6.2 = 12.4 > 11.0.
    # The 5th drive landed on a full switch: the uplink binds there, not the drives (the binding used to
    # compare 5·d with min(n, m)·G and said 'drive' under a ceiling below 5·d)
    c = _curve(SR, **{"drive.seq_read_bytes_per_s": 2.2e9})
    cap = 6.2  # GB/s: LP0865's "capped to 6,200 MB/s", on which the 810-4P's efficiency is calibrated
    assert c.bytes_per_s[4] / 1e9 == pytest.approx(cap + 2 * 2.2, rel=1e-3)
    assert c.binding[4] == "switch_uplink"
    assert c.binding[3] in ("drive", "pcie_link")  # 2 + 2 drives: 4.4 GB/s on each switch, none full
    assert c.bytes_per_s[3] == pytest.approx(4 * 2.2e9, rel=1e-12)


def test_no_drive_count_is_one_clear_error():
    from nvmemodel.errors import ParameterError

    with pytest.raises(ParameterError, match="at least one drive count"):
        nm.evaluate(LENOVO, RR, drives=[])
