"""Mixed topologies as a new user drives them: hand-computed sums under a shared socket limit, and a ``--group``
specification that repeats a key (was: the last value silently won).

The socket limit is the memory-bandwidth share of docs/physics.md §12.1: ``memory.peak_bytes_per_s`` x
``memory.dma_fraction`` per socket (set here to 60 GB/s, a round number, not a measurement).
"""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.errors import ParameterError

DELL = nm.preset("dell-r7525")
READ = nm.Workload("read", "128K")
SOCKET_CAP = 60e9


def test_pinned_and_spread_groups_share_a_socket_cap_by_hand():
    # group a pinned to socket 0; group b spread round-robin over both sockets (the host's placement), drives
    # added in turn. Socket 0 carries a's drives and b's odd ones; each socket delivers min(cap, its drives' sum);
    # a capped socket throttles the drives on it in proportion.
    topo = nm.MixedTopology("pinned + spread", DELL.host,
                            (nm.DriveGroup(DELL.drive, 12, name="a", socket=0), nm.DriveGroup(DELL.drive, 12, name="b")),
                            extras={"memory.peak_bytes_per_s": SOCKET_CAP, "memory.dma_fraction": 1.0},
                            order="interleaved")
    curve = nm.evaluate_mixed(topo, READ)
    d = nm.evaluate(DELL, READ, drives=[1]).bytes_per_s[0]  # one drive alone (its PCIe link binds)
    for n in (2, 8, 12, 18, 24):
        ka, kb = (n + 1) // 2, n // 2
        s0, s1 = (ka + (kb + 1) // 2) * d, (kb // 2) * d
        assert curve.bandwidth_at(n) == pytest.approx(min(s0, SOCKET_CAP) + min(s1, SOCKET_CAP), rel=1e-9)
        share0 = min(1.0, SOCKET_CAP / s0)
        a_bytes = curve.group_iops_at(n)["a"] * READ.block_size
        assert a_bytes == pytest.approx(ka * d * share0, rel=1e-9)
    assert curve.describe_binding_at(24) == "host: socket_dma"
    assert curve.describe_binding_at(2) != "host: socket_dma"


@pytest.mark.parametrize("spec", ["drive=samsung-pm1733-u2,count=2,count=3",
                                  "drive=samsung-pm1733-u2,drive=intel-p3700-800gb,count=2"])
def test_a_group_key_given_twice_is_refused(spec, capsys):
    assert cli.main(["ceilings", "--preset", "dell-r7525", "--group", spec]) == 2
    err = capsys.readouterr().err
    assert "--group" in err and "once" in err


def test_parse_group_refuses_a_repeated_key():
    from nvmemodel.cli.mixed import parse_group

    with pytest.raises(ParameterError, match="once"):
        parse_group("drive=samsung-pm1733-u2,count=2,count=3")
    g = parse_group("drive=samsung-pm1733-u2,count=3,name=fast")
    assert (g.count, g.name) == (3, "fast") and np.isclose(g.drive.rand_read_iops, 1.45e6)


def test_parameter_table_of_a_mixed_topology_is_one_clear_error():
    topo = nm.MixedTopology("two", DELL.host, (nm.DriveGroup(DELL.drive, 4), nm.DriveGroup("intel-p3700-800gb", 4)))
    with pytest.raises(ParameterError, match="group_topology"):
        nm.parameter_table(topo)
    table = nm.parameter_table(topo.group_topology(1))
    assert table.set_index("name").loc["drive.model", "value"] == "intel-p3700-800gb"


@pytest.mark.parametrize("drives", [[], [[1, 2]]])
def test_drive_counts_must_be_a_non_empty_list(drives):
    # [] gave an empty curve whose repr raised IndexError; [[1, 2]] a raw "too many values to unpack"
    topo = nm.MixedTopology("two", DELL.host, (nm.DriveGroup(DELL.drive, 4), nm.DriveGroup("intel-p3700-800gb", 4)))
    with pytest.raises(ParameterError, match="drives="):
        nm.evaluate_mixed(topo, READ, drives=drives)
