"""A mirror spanning groups on a catalog host (QA round 4, F3): composed with the host's root-complex and socket
limits (each member's DMA is known per pair), refused in one sentence with units only where such a limit would
bind, and the read-balancing sentence says what the split is.

The case is docs/topologies.md's: md RAID-10 of 2 Samsung PM1733 (nvme) + 2 Intel P3700 (mirror=nvme), 4K randrw
70 % reads. Per pair (docs/physics.md §12.9, launch/spec figures: PM1733 1.45 M read / 260 K write IOPS, P3700
460 K / 90 K): X = min((R_a + R_b)/(f + (1 − f)(R_a/W_a + R_b/W_b)), W_a/(1 − f), W_b/(1 − f))
= min(489 K, 867 K, 300 K) = 300 K: the P3700's writes bind it (90 K = 0.3 × 300 K), so it serves no reads."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel import cli

KIB = 1024
MIRROR = ["--pattern", "randrw", "--read-fraction", "0.7", "--bs", "4K",
          "--group", "drive=samsung-pm1733-u2,count=2,name=nvme",
          "--group", "drive=intel-p3700-800gb,count=2,mirror=nvme", "--set", "raid.level=raid10"]


def _mirror(preset="dell-r7525", extras=()):
    base = nm.preset(preset)
    return nm.MixedTopology("mirror", base.host, (
        nm.DriveGroup("samsung-pm1733-u2", 2, name="nvme"),
        nm.DriveGroup("intel-p3700-800gb", 2, name="sata")), mirror=True, order="interleaved",
        extras={**base.extras, "raid.level": "raid10", **dict(extras)})


WL = nm.Workload("randrw", "4K", read_fraction=0.7)


def test_the_documented_mirror_runs_on_a_catalog_host(capsys):
    """It said "tree.complex_bytes_per_s=46900000000.0 is not allowed: expected inf" on every catalog host."""
    assert cli.main(["ceilings", "--preset", "dell-r7525", *MIRROR]) == 0
    out = capsys.readouterr().out
    assert "600,000" in out and "use a catalog host" not in out and "no limit is known" not in out
    # the only upper bound said is the RAID layer's uncharged CPU cost (the table's note, as for one drive model)
    assert "(upper bound: the software RAID layer's CPU cost is not charged" in out


def test_the_host_levels_are_composed_with_their_headroom():
    """At 600 K host IOPS the members move 0.7 x 600 K reads + 2 x 0.3 x 600 K writes of 4 KiB = 3.19 GB/s of DMA
    over 4 root complexes of 46.9 GB/s (one member each) and 2 sockets of 0.38 x 204.8 GB/s."""
    curve = nm.evaluate(_mirror(), WL, drives=[4])
    assert curve.iops_at(4) == pytest.approx(600e3, rel=1e-9)
    dma = 600e3 * 4 * KIB * (0.7 + 2 * 0.3)
    rows = {c.component: c for c in curve.ceilings_at(4)}
    assert rows["root_complex"].headroom == pytest.approx(4 * 46.9e9 / dma - 1, rel=1e-9)
    assert rows["socket_dma"].headroom == pytest.approx(2 * 0.38 * 204.8e9 / dma - 1, rel=1e-9)
    assert rows["drive"].binding and not rows["root_complex"].binding


def test_a_binding_complex_is_refused_in_one_sentence_with_units(capsys):
    """A complex of 1 GB/s: the PM1733 member moves (210 K reads + 90 K writes) x 4 KiB = 1.23 GB/s on its own."""
    assert cli.main(["ceilings", "--preset", "dell-r7525", *MIRROR, "--set", "tree.complex_bytes_per_s=1GB/s"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("nvmemodel: error: ")
    assert "1.229 GB/s" in err and "1 GB/s" in err and "46900000000" not in err and "expected inf" not in err
    assert "cannot yet be composed" in err


def test_the_read_split_is_said_as_it_is():
    """ION's Gen3 host (no complex limits known), the QA command: the P3700 side is saturated by the writes, every
    read goes to nvme — not "both serve reads at saturation"."""
    t = _mirror("ion-sr71mach5-linux", {"raid.cycles_per_io": 0.0})
    text = nm.evaluate(t, WL, drives=[4]).explain(4)
    assert "both serve reads" not in text
    assert "sata is saturated by the writes" in text and "every read goes to nvme" in text
    # reads only: both members serve reads, the split by their speed (1.45 M : 460 K on ION's Gen3 x4 links)
    reads = nm.evaluate(t, nm.Workload("randread", "4K"), drives=[4])
    line = next(x for x in reads.explain(4).splitlines() if x.startswith("Software RAID-10"))
    a, b = reads.group_iops_at(4)["nvme"], reads.group_iops_at(4)["sata"]
    assert f"nvme {a / (a + b):.0%} of them, sata {b / (a + b):.0%}" in line and "both serve reads" in line


def test_the_f2_addendum_names_each_members_own_limit():
    """QA F2 addendum: 4 P3700 + 4 PM1733 (mirror) on ION with 30,000 cycles per I/O, 2 drives: 460 K (the P3700's
    drive) + 859 K (the PM1733's Gen3 x4 link) = 1.32 M; host CPU at 1.52 M is not what binds."""
    base = nm.preset("ion-sr71mach5-linux")
    t = nm.MixedTopology("pair", base.host, (nm.DriveGroup("intel-p3700-800gb", 4, name="a"),
                                              nm.DriveGroup("samsung-pm1733-u2", 4, name="b")), mirror=True, order="interleaved",
                         extras={**base.extras, "raid.level": "raid10", "host.cycles_per_io": 30000.0})
    curve = nm.evaluate(t, nm.Workload("randread", "4K"), drives=[2])
    assert curve.binding_at(2) != "host_cpu" and curve.binding_group_at(2) == "array"
    assert curve.describe_binding_at(2) in ("array: b: pcie_link; a: drive", "array: a: drive; b: pcie_link")
    text = curve.explain(2)
    assert "Drives are spread unevenly" not in text and "Binding: host" not in text


def test_a_switched_side_is_named_where_it_binds_without_a_crash():
    """8 PM1733 direct + 8 P3700 behind one PEX9797 (mirror), 128K reads: side b is held by its switch's uplink,
    which alone puts no ceiling on the array (side a could serve every read). The explanation crashed (KeyError
    'switch_uplink') and the listing starred it as 'not limiting / not known'."""
    base = nm.preset("dell-r7525")
    t = nm.MixedTopology("m", base.host, (nm.DriveGroup("samsung-pm1733-u2", 8, name="a"),
                                           nm.DriveGroup("intel-p3700-800gb", 8, name="b", switch="broadcom-pex9797")),
                         mirror=True, order="interleaved", extras={**base.extras, "raid.level": "raid10"})
    curve = nm.evaluate(t, nm.Workload("read", "128K"), drives=[16])
    assert curve.describe_binding_at(16) == "array: a: drive; b: switch_uplink"
    uplink = {c.component: c for c in curve.ceilings_at(16)}["switch_uplink"]
    assert uplink.binding and "not limiting" not in repr(uplink) and "binding in b" in repr(uplink)
    text = curve.explain(16)
    assert "b: 8 drive(s)" in text and "held by switch_uplink" in text and "a: 8 drive(s), 51.20 GB/s, held by drive" in text
    assert "own limit drive" not in text.split("Sides (")[1]  # the group ceilings of a mirror are the array's, not a side's
    assert not any(line.startswith("Not limiting") and "switch_uplink" in line for line in text.splitlines())
