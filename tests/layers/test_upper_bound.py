"""Unknown stays visible (issue 18 item 4): where a host's root-complex, socket-DMA or inter-socket limit is unknown,
the curve's repr, explain(), table and the CLI say the result is an upper bound and name those layers."""

from __future__ import annotations

import nvmemodel as nm
from nvmemodel import cli

RR = nm.Workload("randread", "4K")
NOTE = "upper bound: no limit is known for this host's root complexes, socket DMA / memory, inter-socket link"
QD1_NOTE = "upper bound: the drive's QD1 latency (Little's law at this queue depth may bind) is not known (not applied)"


def test_hand_built_host_says_upper_bound_everywhere():
    c = nm.evaluate(nm.preset("ion-sr71mach5-linux"), RR)  # ION names no CPU: a hand-built host, no platform
    assert c.upper_bound_note.startswith(NOTE)
    assert NOTE in repr(c)
    assert NOTE in c.explain() and NOTE.lower() in c.explain(8).lower()
    assert c.to_frame().attrs["note"] == c.upper_bound_note


def test_catalog_host_has_no_unknown_layer():
    c = nm.evaluate(nm.preset("dell-r7525"), RR)
    # no host layer is unknown; the one upper-bound sentence left is the PM1733's unknown QD1 latency, which at QD32
    # may bind (QA s25 H39: 32 / 115 us, the catalog's slowest NAND latency, = 278 K < 1.45 M)
    assert c.upper_bound_note == QD1_NOTE and c.to_frame().attrs["note"] == QD1_NOTE
    assert "no limit is known" not in repr(c) and "no limit is known" not in c.explain(24)
    known = nm.evaluate(nm.preset("dell-r7525"), RR, overrides={"drive.read_latency_s": 80e-6})
    assert known.upper_bound_note is None and "upper bound" not in repr(known) and "note" not in known.to_frame().attrs


def test_only_the_unknown_layers_are_named():
    dell = nm.preset("dell-r7525")
    one = dell.replace(host=dell.host.replace(sockets=1, platform={"memory.peak_bytes_per_s": 2e11}), extras={},
                      default_drives=None)
    note = nm.evaluate(one, RR, drives=[1]).upper_bound_note
    assert note == ("upper bound: no limit is known for this host's root complexes (not applied)"  # 1 socket: no link
                    "; the drive's QD1 latency (Little's law at this queue depth may bind) is not known (not applied)")


def test_mixed_curve_says_it_too():
    c = nm.evaluate_mixed(nm.MixedTopology.from_topology(nm.preset("ion-sr71mach5-linux")), RR)
    assert NOTE in repr(c) and NOTE in c.explain()


def test_cli_table_prints_it(capsys):
    assert cli.main(["ceilings", "--preset", "ion-sr71mach5-linux", "--drives", "8"]) == 0
    assert f"({NOTE} (not applied))" in capsys.readouterr().out
    assert cli.main(["ceilings", "--preset", "dell-r7525", "--drives", "8"]) == 0
    assert "no limit is known" not in capsys.readouterr().out  # (its drive's QD1 latency is: QA s25 H39)
