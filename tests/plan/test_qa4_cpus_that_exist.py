"""QA round 4, F27/F28: a host axis combined with host.sockets or host.gen axes must plan only CPUs that exist:
socket counts the part allows with the lanes of that count (one count per answer), and no generation above the
CPU's own PCIe generation (a Gen5 link to a Gen4 root port trains at Gen4)."""
import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError
from nvmemodel.plan import STANDARD_WORKLOADS as W

IOPS = nm.Target(W["4k-randread"], iops=60e6)  # out of reach: every family is rejected with its drive slots
READ = nm.Target(W["128k-read"], bytes_per_s=150e9)


def test_a_one_socket_part_with_only_two_sockets_asked_is_refused_naming_the_part():
    with pytest.raises(ParameterError, match="host.sockets.*AMD Ryzen Threadripper PRO 3995WX"):
        nm.DesignSpace("dell-r7525", {"host": ["amd-threadripper-pro-3995wx"], "host.sockets": [2]})


def test_sockets_fold_into_the_host_with_the_lanes_of_that_count():
    space = nm.DesignSpace("dell-r7525", {"host": ["amd-epyc-7742", "amd-threadripper-pro-3995wx"],
                                          "host.sockets": [1, 2]}, max_drives=64)
    assert space.axes["host"] == ("amd-epyc-7742:1", "amd-epyc-7742:2", "amd-threadripper-pro-3995wx:1")
    assert "host.sockets" not in space.axes
    assert any("amd-threadripper-pro-3995wx with host.sockets 2 dropped" in n for n in space.notes)
    p = nm.plan(IOPS, space)
    reasons = dict(zip(p.rejected["host"], p.rejected["reason"]))
    # a 2P EPYC 7742 has 64 lanes per socket for devices (the rest are xGMI): the chassis's 24 bays, not 48
    assert "24 = host.sockets 2 × ⌊(host.lanes_per_socket 64 − host.reserved_lanes_per_socket 16)" in \
        reasons["amd-epyc-7742:2"]
    assert "host.sockets 1 × ⌊(host.lanes_per_socket 128" in reasons["amd-threadripper-pro-3995wx:1"]
    assert "host.sockets" not in p.rejected.columns and p.evaluated == 3
    text = p.explain()
    assert "host.sockets=" not in text and "dropped" in text


def test_a_cpu_named_with_its_count_keeps_it():
    space = nm.DesignSpace("dell-r7525", {"host": ["amd-epyc-7742:1", "amd-epyc-7763"], "host.sockets": [2]})
    assert space.axes["host"] == ("amd-epyc-7742:1", "amd-epyc-7763:2")
    assert any("keeps the socket count named" in n for n in space.notes)


def test_a_base_catalog_cpu_drops_socket_counts_the_part_does_not_allow():
    space = nm.DesignSpace("dell-r7525", {"host.sockets": [1, 2, 4]})
    assert space.axes["host.sockets"] == (1, 2)
    assert any("host.sockets 4 dropped" in n and "amd-epyc-7742" in n for n in space.notes)
    with pytest.raises(ParameterError, match="1 to 2 for AMD EPYC 7742"):
        nm.DesignSpace("dell-r7525", {"host.sockets": [4, 8]})


def test_no_gen5_epyc_7742_the_real_answer_is_the_gen4_one():
    space = nm.DesignSpace("dell-r7525", {"host.gen": [4, 5], "drive.model": ["samsung-pm1743"],
                                          "host": ["amd-epyc-7742", "amd-epyc-9654"]}, max_drives=24)
    p = nm.plan(READ, space, merge_identical=False)
    pairs = set(zip(p.frame["host"], p.frame["host.gen"]))
    assert ("amd-epyc-7742", 5) not in pairs and ("amd-epyc-7742", 4) in pairs and ("amd-epyc-9654", 5) in pairs
    assert p.evaluated == 3 and p.n_missed == 0  # the dropped combination is neither evaluated nor a miss
    r = p.frame[p.frame["host"] == "amd-epyc-7742"].iloc[0]
    # QA: the "best" 12-drive Gen5 EPYC 7742 cannot be built; the Gen4 one needs 21 drives (their x4 links bind: 21 x
    # 7.2 GB/s; 22 while the socket DMA share was 0.38, 2 x 77.8 GB/s)
    assert int(r["drives"]) == 21
    assert any("Dropped amd-epyc-7742 with Gen5: a Gen4 CPU" in n for n in p.to_dict()["notes"])


def test_only_generations_above_the_cpus_is_one_error():
    with pytest.raises(ParameterError, match="host.gen"):
        nm.DesignSpace("dell-r7525", {"host.gen": [5], "host": ["amd-epyc-7742"]})


def test_a_base_catalog_cpu_with_a_higher_generation_is_said_to_be_hypothetical():
    space = nm.DesignSpace("dell-r7525", {"host.gen": [4, 5]})
    assert space.axes["host.gen"] == (4, 5)
    assert any("Gen5 is above the PCIe generation" in n and "hypothetical" in n for n in space.notes)
    assert not nm.DesignSpace("dell-r7525", {"host.gen": [3, 4]}).notes


def test_the_cli_refuses_a_two_socket_threadripper_in_one_line_and_plans_the_real_epyc(capsys):
    from nvmemodel import cli

    assert cli.main(["plan", "--iops", "20M", "--host", "amd-threadripper-pro-3995wx", "--sockets", "2",
                     "--max-drives", "24"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("nvmemodel: error: host.sockets=") and "\n" not in err and "3995WX" in err
    # QA F26: was a numpy traceback; "amd-epyc-7742," (an empty list part) is refused since issue 30
    assert cli.main(["plan", "--iops", "10M", "--host", "amd-epyc-7742"]) == 0
    out = capsys.readouterr().out
    assert "host=amd-epyc-7742: 7 drives" in out


def test_dropped_generations_are_the_same_whatever_the_blocks():
    # the host x generation mask broadcast over blocks of any shape: one configuration per block, or all at once
    space = nm.DesignSpace("dell-r7525", {"host": ["amd-epyc-9654", "amd-epyc-7742", "intel-xeon-gold-6148"],
                                          "host.gen": [3, 4, 5], "drive.model": ["samsung-pm1743", "samsung-pm1733-u2"]},
                           max_drives=24)
    whole, single = nm.plan(READ, space), nm.plan(READ, space, chunk=1)
    # 9654: Gen3-5, 7742: Gen3-4, Xeon Gold 6148 (Skylake-SP): Gen3 only; x 2 drives
    assert whole.evaluated == single.evaluated == (3 + 2 + 1) * 2
    assert whole.feasible == single.feasible and whole.n_missed == single.n_missed
    cols = ["host", "host.gen", "drive.model", "drives"]
    assert whole.frame[cols].values.tolist() == single.frame[cols].values.tolist()
    rejected = set(zip(whole.rejected["host"], whole.rejected["host.gen"]))
    assert ("intel-xeon-gold-6148", 5) not in rejected and ("intel-xeon-gold-6148", 4) not in rejected
