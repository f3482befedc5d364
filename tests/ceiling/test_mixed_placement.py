"""Placement of several groups over the root complexes: a group continues where the previous one stopped
(docs/physics.md §12.7, docs/topologies.md). Synthetic round-number hardware of tests/ceiling/test_mixed.py; the
complex limit is set to 600 K 4 KiB IOPS (600e3 x 4096 B/s) so that two drives on one complex are capped."""

from __future__ import annotations

import pytest

import nvmemodel as nm

from .test_mixed import DRIVE_A, DRIVE_B, HOST, READ_4K, SWITCH

# 2 sockets x 2 complexes. Round-robin positions: 0 = (socket 0, complex 0), 1 = (1, 0), 2 = (0, 1), 3 = (1, 1).
COMPLEXES = {"tree.complexes_per_socket": 2, "tree.complex_bytes_per_s": 600e3 * 4096}
FILL = {**COMPLEXES, "tree.placement": "fill_first", "tree.slots_per_complex": 2}


def _curve(groups, extras, n):
    return nm.evaluate_mixed(nm.MixedTopology("placement", HOST, groups, extras=extras), READ_4K, drives=[n])


def test_round_robin_continues_on_the_next_complexes():
    """a (2 x 500 K) on positions 0, 1; b (2 x 400 K) continues on 2, 3: one drive per complex, nothing capped:
    1.8 M, the drives bind. (Restarting at position 0 would put a + b = 900 K on each of two complexes: 1.2 M.)"""
    c = _curve((nm.DriveGroup(DRIVE_A, 2, name="a"), nm.DriveGroup(DRIVE_B, 2, name="b")), COMPLEXES, 4)
    assert c.iops_at(4) == pytest.approx(1.8e6, rel=1e-12) and c.binding_at(4) == "drive"


def test_groups_pinned_to_one_socket_continue_on_its_complexes():
    """Both on socket 0 (2 complexes): a on its complexes 0, 1; b continues at 2 = complex 0 again (wraps): each
    complex holds 500 K + 400 K, capped at 600 K: 1.2 M, the root complex binds."""
    c = _curve((nm.DriveGroup(DRIVE_A, 2, socket=0, name="a"), nm.DriveGroup(DRIVE_B, 2, socket=0, name="b")),
               COMPLEXES, 4)
    assert c.iops_at(4) == pytest.approx(1.2e6, rel=1e-12) and c.binding_at(4) == "root_complex"


def test_fill_first_continues_in_the_next_free_slot():
    """2 slots per complex. a (3 drives): complex 0 full (1.0 M -> 600 K), one on complex 1; b continues in complex
    1's second slot and complex 2: complex 1 = 500 K + 400 K -> 600 K, complex 2 = 400 K. Total 1.6 M."""
    c = _curve((nm.DriveGroup(DRIVE_A, 3, name="a"), nm.DriveGroup(DRIVE_B, 2, name="b")), FILL, 5)
    assert c.iops_at(5) == pytest.approx(1.6e6, rel=1e-12) and c.binding_at(5) == "root_complex"


def test_fill_first_switch_takes_the_next_free_complex():
    """a as above (600 K + 500 K); b's switch (4 x 400 K, switch 1.0 M) on the next free complex, 2: 600 K. 1.7 M."""
    c = _curve((nm.DriveGroup(DRIVE_A, 3, name="a"), nm.DriveGroup(DRIVE_B, 4, switch=SWITCH, name="b")), FILL, 7)
    assert c.iops_at(7) == pytest.approx(1.7e6, rel=1e-12) and c.binding_at(7) == "root_complex"


def test_the_sweep_places_like_evaluate():
    topo = nm.MixedTopology("placement", HOST, (nm.DriveGroup(DRIVE_A, 3, name="a"), nm.DriveGroup(DRIVE_B, 2, name="b")),
                            extras=FILL)
    res = nm.sweep(topo, READ_4K, drives=range(1, 6), grid={"tree.complex_bytes_per_s": [600e3 * 4096, 1e12]})
    assert res.iops[0, -1] == pytest.approx(1.6e6, rel=1e-12) and res.iops[1, -1] == pytest.approx(2.3e6, rel=1e-12)
