"""What binds a mixed topology, and each component alone (docs/topologies.md, "What binds"; docs/physics.md §12.7).

Every statement must hold: a component named binding is one whose constraint is active — its ceiling alone equals
the system value, or, where different groups are held by different components, it is named with the groups it
holds and its ceiling alone on those groups equals what they deliver. "Alone" is the system ceiling with only that
component limiting; a component that does not limit every group holding drives leaves the others unlimited, so it
has no system ceiling alone (inf) and is listed alone on the groups it limits.

Hand-computed cases on round-number synthetic hardware (labelled synthetic: not catalog entries), and the
synthetic lspci tree of tests/data/lspci (a switch shared by two link widths beside three direct drives), where the
label once starred pcie_link at 403 K while the system was 326 K and the switch uplink alone equalled it.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nvmemodel as nm
from nvmemodel.discover import discover

from .test_mixed import DRIVE_A, DRIVE_B, HOST, READ_4K, SWITCH  # the round-number synthetic hardware, once
from .test_mixed_properties import HOST as PHOST
from .test_mixed_properties import TREES, WORKLOADS, groups

LSPCI = pathlib.Path(__file__).resolve().parents[1] / "data" / "lspci" / "synthetic-switched-gen4_vvv.txt"


def _two_groups(**kw) -> nm.MixedTopology:
    """4 x B behind one switch, then 8 x A direct (the links, Gen4 x4 at 4 KiB, lie far above: test_mixed.py)."""
    return nm.MixedTopology("synthetic mixed", HOST, (
        nm.DriveGroup(DRIVE_B, 4, switch=SWITCH, name="switched"),
        nm.DriveGroup(DRIVE_A, 8, name="direct")), **kw)


def _statements_hold(curve, n):
    """Every starred row is active: alone equal to the system value, or, named per group, alone on its groups
    equal to what they deliver; the stars are exactly the components that hold a group (or the shared one)."""
    rows = curve.ceilings_at(n)
    total = curve.iops_at(n)
    held = curve.held_by_at(n)
    starred = {c.component for c in rows if c.binding}
    if curve.binding_group_at(n) == "host":
        assert starred == {curve.binding_at(n)}
        assert rows[0].iops == pytest.approx(total, rel=1e-12)
        return
    assert starred == set(held.values())
    assert rows[0].component == curve.binding_at(n)
    for c in rows:
        if not c.binding:
            assert not np.isfinite(c.iops) or c.iops >= total * (1 - 1e-12) or c.scope, c.component
            continue
        groups = [g for g, comp in held.items() if comp == c.component]
        delivered = sum(curve.group_iops_at(n)[g] for g in groups)
        own = sum(float(curve.group_ceilings[curve.groups.index(g)][c.component][curve._index(n)]) for g in groups)
        assert own == pytest.approx(delivered, rel=1e-12), c.component  # active on the groups it holds
        if len(set(held.values())) == 1:  # one component holds every group: its system ceiling alone is the value
            assert c.iops == pytest.approx(total, rel=1e-12)


def test_groups_held_by_different_components_are_named_per_group():
    """5 drives: the switched group's 4 x 400 K capped at its switch's 1.0 M (processing), the direct drive at its
    own 500 K: 1.5 M. The drives alone: 4 x 400 K + 500 K = 2.1 M (not the system value: not 'the' binding). The
    switch's processing alone: the direct drive unlimited, so no system ceiling alone (inf); alone on the switched
    group 1.0 M, what that group delivers. Binding names the component holding the larger share (1.0 M > 0.5 M)."""
    curve = nm.evaluate_mixed(_two_groups(), READ_4K, drives=[5, 6])
    assert curve.iops_at(5) == pytest.approx(1.5e6, rel=1e-12)
    assert curve.ceilings["drive"][0] == pytest.approx(2.1e6, rel=1e-12)
    assert curve.ceilings["switch_processing"][0] == np.inf
    assert curve.binding_at(5) == "switch_processing" and curve.binding_group_at(5) == "switched"
    assert curve.held_by_at(5) == {"switched": "switch_processing", "direct": "drive"}
    assert curve.describe_binding_at(5) == "switched: switch_processing; direct: drive"
    rows = {c.component: c for c in curve.ceilings_at(5)}
    assert rows["switch_processing"].iops == pytest.approx(1.0e6, rel=1e-12) and rows["switch_processing"].binding
    assert rows["switch_processing"].headroom == pytest.approx(0.0, abs=1e-12)
    assert rows["drive"].binding and "binding in direct" in repr(rows["drive"])
    # 6 drives: 1.0 M against 2 x 500 K, a tie of shares, which goes to the component nearer the drive
    assert curve.binding_at(6) == "drive" and curve.describe_binding_at(6) == "direct: drive; switched: switch_processing"
    for n in (5, 6):
        _statements_hold(curve, n)
    text = curve.explain(5)
    assert "held by different limits (switched: switch_processing; direct: drive)" in text
    assert "spread unevenly" not in text


def test_one_component_holding_every_group_is_the_system_value_alone():
    """Interleaved, 2 drives: 400 K + 500 K, every group held by its drives: the drives alone are the 0.9 M."""
    curve = nm.evaluate_mixed(_two_groups(order="interleaved"), READ_4K, drives=[2])
    assert curve.describe_binding_at(2) == "switched, direct: drive"
    assert curve.ceilings["drive"][0] == pytest.approx(0.9e6, rel=1e-12) == curve.iops_at(2)
    _statements_hold(curve, 2)


def test_a_shared_level_binds_for_every_group():
    """12 drives: 1.0 M (switched) + 8 x 500 K = 5.0 M above the host CPU's 4.0 M: host_cpu alone is the value."""
    curve = nm.evaluate_mixed(_two_groups(), READ_4K, drives=[12])
    assert curve.describe_binding_at(12) == "host: host_cpu"
    assert curve.held_by_at(12) == {"switched": "host: host_cpu", "direct": "host: host_cpu"}
    assert curve.ceilings["host_cpu"][0] == pytest.approx(4.0e6, rel=1e-12) == curve.iops_at(12)
    _statements_hold(curve, 12)


def test_a_component_of_one_group_is_listed_alone_on_it():
    """The switch's uplink limits the switched group only: no system ceiling alone; listed on that group."""
    curve = nm.evaluate_mixed(_two_groups(), READ_4K, drives=[12])
    assert curve.ceilings["switch_uplink"][0] == np.inf
    row = next(c for c in curve.ceilings_at(12) if c.component == "switch_uplink")
    assert row.scope == "on switched only" and "(on switched only)" in repr(row)
    assert row.iops == pytest.approx(float(curve.group_ceilings[0]["switch_uplink"][0]), rel=0)


def test_the_lspci_tree_as_found():
    """A Gen4 x16 switch holding 5 x4 and 1 x2 PM1733 (one shared uplink) beside 3 direct drives (Gen4 x4, Gen3
    x4, an unidentified one), 128K reads: the uplink caps the 6 switched drives; each direct drive runs at its own
    limit. The label once starred pcie_link (the last group's) at 403 K beside a system of 326 K."""
    found = discover(str(LSPCI))
    curve = nm.evaluate_mixed(found.mixed, nm.Workload("read", "128K"), drives=[found.mixed.max_drives])
    n = found.mixed.max_drives
    held = curve.held_by_at(n)
    switched = [g.name for g in found.mixed.groups if g.switch is not None or g.switch_with is not None]
    assert {held[g] for g in switched} == {"switch_uplink"}
    assert curve.binding_at(n) == "switch_uplink"  # the uplink holds the larger share (6 drives' worth)
    assert "pcie_link" in held.values()  # the Gen3 x4 direct drive and the unidentified one at their links
    assert curve.ceilings["switch_uplink"][0] == np.inf  # the direct drives have no uplink
    # pcie_link alone (every group: each drive at its link, the uplink lifted) is above the system value
    assert curve.ceilings["pcie_link"][0] > curve.iops_at(n) * 1.2
    _statements_hold(curve, n)


def test_discover_prints_each_groups_limit(capsys):
    from nvmemodel import cli

    assert cli.main(["discover", "--lspci", str(LSPCI), "--pattern", "read", "--bs", "128K"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.strip().startswith("9 "))
    assert "switch_uplink;" in row and "pcie_link" in row
    star = [line.split()[0] for line in out.splitlines() if line.startswith("  *")]
    assert star[0] == "*switch_uplink" and "*pcie_link" in star
    uplink = next(line for line in out.splitlines() if line.startswith("  *switch_uplink"))
    assert "binding in" in uplink and "alone on the groups it holds" in uplink


def test_sweep_binding_is_evaluates():
    """A sweep's binding codes are the curve's binding component (the one holding the largest share)."""
    topo = _two_groups()
    res = nm.sweep(topo, READ_4K, drives=np.arange(1, 13), grid={"host.cycles_per_io": [2500.0, 1000.0]})
    for i, cycles in enumerate((2500.0, 1000.0)):
        curve = nm.evaluate_mixed(topo, READ_4K, overrides={"host.cycles_per_io": cycles})
        np.testing.assert_array_equal(res.binding[i], curve.binding)


def test_the_json_says_where_each_ceiling_is_taken():
    d = nm.evaluate_mixed(_two_groups(), READ_4K, drives=[5]).to_dict()
    point = d["points"][0]
    assert point["binding_text"] == "switched: switch_processing; direct: drive"
    assert point["ceilings"]["switch_processing"] == {"iops": pytest.approx(1.0e6, rel=1e-12),
                                                      "bytes_per_s": pytest.approx(4.096e9, rel=1e-12),
                                                      "headroom": pytest.approx(0.0, abs=1e-12),
                                                      "binding": True, "on_groups": ["switched"]}
    assert point["ceilings"]["drive"]["on_groups"] is None and point["ceilings"]["drive"]["binding"] is True
    assert point["ceilings"]["host_cpu"]["binding"] is False


# ----------------------------------------------------------------------------------- over random mixed topologies
@settings(max_examples=40, deadline=None)
@given(gs=groups(), order=st.sampled_from(["sequential", "interleaved"]), wl=st.sampled_from(WORKLOADS),
       tree=st.sampled_from(TREES))
def test_every_statement_about_binding_holds(gs, order, wl, tree):
    """At every point: the starred rows are exactly what holds the groups (or the shared level); the curve's
    binding is starred and listed first; each group holding drives is named once; no ceiling alone lies below
    what it is compared with (the system value, or its groups' share)."""
    extras = {k: v for k, v in tree.items() if not k.startswith("host.")}
    host = PHOST.replace(cycles_per_io=tree.get("host.cycles_per_io"))
    curve = nm.evaluate_mixed(nm.MixedTopology("p", host, gs, extras=extras, order=order), wl)
    for n in curve.drives.tolist():
        rows = curve.ceilings_at(n)
        held = curve.held_by_at(n)
        starred = {c.component for c in rows if c.binding}
        assert rows[0].component == curve.binding_at(n) and rows[0].binding
        if curve.binding_group_at(n) == "host":
            assert starred == {curve.binding_at(n)}
        else:
            assert starred == set(held.values())
            named = [g for part in curve.describe_binding_at(n).split("; ") for g in part.split(": ")[0].split(", ")]
            assert sorted(named) == sorted(held)
        for c in rows:
            assert not np.isfinite(c.iops) or c.headroom >= -1e-9, (n, c)


def test_a_mirror_whose_sides_are_held_by_different_limits():
    """md RAID-10 of 2 pairs: NVMe members at their 1.0 M reads (drive), 'SATA-like' members (synthetic: 1.0 M
    reads behind a Gen3 x1 link) at their link L. Reads use both (docs/physics.md §12.9): 2 x (1.0 M + L). Neither
    component alone gives that (drive alone 4.0 M, the link alone 2 x (L_nvme + L)): each side is named with its
    own, the NVMe side (the larger share) first. With a write-mostly SATA side the NVMe drives alone hold it."""
    host = nm.Host("1-socket host", sockets=1, cores_per_socket=16, clock_hz=2e9, gen=4, lanes_per_socket=64,
                   cycles_per_io=2000)
    nvme = nm.Drive("NVMe (synthetic)", gen=4, lanes=4, rand_read_iops=1e6, rand_write_iops=2e5)
    slow = nm.Drive("SATA-like (synthetic)", gen=3, lanes=1, rand_read_iops=1e6, rand_write_iops=5e5)
    link = nm.evaluate(nm.Topology("x1", host, slow), READ_4K, drives=[1]).ceilings["pcie_link"][0]
    assert link < 0.3e6  # Gen3 x1 at 4 KiB: the link, not the drive's 1.0 M

    def mirror(write_mostly=False):
        return nm.MixedTopology("mirror", host, (nm.DriveGroup(nvme, 2, name="nvme"),
                                                 nm.DriveGroup(slow, 2, name="sata", write_mostly=write_mostly)),
                                extras={"raid.level": "raid10", "raid.width": 4}, order="interleaved", mirror=True)

    curve = nm.evaluate(mirror(), READ_4K)
    assert curve.iops_at(4) == pytest.approx(2 * (1e6 + link), rel=1e-12)
    assert curve.describe_binding_at(4) == "array: nvme: drive; sata: pcie_link"
    assert curve.binding_at(4) == "drive"
    assert {c.component for c in curve.ceilings_at(4) if c.binding} == {"drive", "pcie_link"}
    assert "each side held by its own limit" in curve.explain(4)
    wm = nm.evaluate(mirror(write_mostly=True), READ_4K)
    assert wm.iops_at(4) == pytest.approx(2e6, rel=1e-12) and wm.describe_binding_at(4) == "array: drive"
    assert wm.ceilings["drive"][-1] == pytest.approx(2e6, rel=1e-12)  # alone, the system value
    res = nm.sweep(mirror(), READ_4K, drives=[2, 4], grid={"host.cycles_per_io": [2000.0, 1e6]})
    np.testing.assert_array_equal(res.binding[0], curve.binding)
    assert list(res.binding[1]) == ["host_cpu", "host_cpu"]  # 16 x 2 GHz / 1e6 = 32 K: the host CPU
