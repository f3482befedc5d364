"""QA round 4, F4: a plan says when what binds, or a margin that passes narrowly, rests on an estimate, and when the
hosts it compares have limits above the links of different evidence (the EPYC 9654's socket DMA share 0.68 carried over
from a Zen 2 measurement, the Xeon 8480+'s 0.75 a STREAM-class share): the values and words come from the sources."""
import nvmemodel as nm
from nvmemodel.plan import STANDARD_WORKLOADS as W

READ_200 = nm.Target(W["128k-read"], bytes_per_s=200e9)
AMD, INTEL = "amd-epyc-9654:1", "intel-xeon-platinum-8480plus:1"


def _share(key):
    cat = nm.host_catalog().set_index("key")
    return f"{cat.loc[key, 'dma_fraction']:g}"


def _plan(hosts, axes=None, target=READ_200):
    space = nm.DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1743"], "host": hosts, **(axes or {})},
                           max_drives=24)
    return nm.plan(target, space)


def test_intel_rejected_on_an_estimate_amd_passing_on_one_and_the_comparison_say_so():
    # 250 GB/s of 128K reads (200 GB/s while AMD's share was the R7525 bend's 0.38: then the roles were swapped)
    p = _plan([AMD, INTEL], target=nm.Target(W["128k-read"], bytes_per_s=250e9))
    amd = p.frame.iloc[0]
    assert amd["host"] == AMD and amd["128K read|binding"] == "root_complex"
    # the AMD answer rests on estimates: its root complexes bind, and its socket DMA passes by 0.68 x 460.8 / 250 - 1
    assert amd["estimates"].startswith("root_complex binds 128K read: rests on tree.complex_bytes_per_s 64 GB/s (estimate:")
    assert f"socket_dma passes 128K read by +25%: rests on memory.dma_fraction {_share('amd-epyc-9654')} " \
           "(estimate:" in amd["estimates"]
    intel = p.rejected.iloc[0]
    assert intel["host"] == INTEL and "[socket_dma] binds" in intel["reason"]
    assert intel["estimates"].startswith(f"socket_dma's limit rests on memory.dma_fraction "
                                         f"{_share('intel-xeon-platinum-8480plus')} (estimate:")
    assert "memory.dma_fraction" in p.evidence and AMD in p.evidence and INTEL in p.evidence
    text, doc = p.explain(), p.to_dict()
    assert p.evidence in text and doc["evidence"] == p.evidence
    assert doc["configurations"][0]["estimates"] == amd["estimates"]
    assert doc["rejected"][0]["estimates"] == intel["estimates"]


def test_a_binding_estimate_is_named():
    # one Milan socket: 0.68 x 8 x DDR4-3200 x 8 B = 139.3 GB/s binds at 20 drives; its share is carried over from the
    # Zen 2 measurement, an estimate (the Zen 2 platform's own share is measured, so an EPYC 7742 names none)
    p = _plan(["amd-epyc-7763:1"], target=nm.Target(W["128k-read"], bytes_per_s=139e9))
    r = p.frame.iloc[0]
    assert r["128K read|binding"] == "socket_dma" and r["estimates"].startswith("socket_dma binds 128K read: rests on "
                                                                                 "memory.dma_fraction 0.68 (estimate:")
    zen2 = _plan(["amd-epyc-7742:1"], target=nm.Target(W["128k-read"], bytes_per_s=139e9)).frame.iloc[0]
    assert zen2["128K read|binding"] == "socket_dma" and "memory.dma_fraction" not in zen2["estimates"]


def test_a_value_on_an_axis_is_the_users_not_an_estimate():
    p = _plan([AMD, INTEL], {"memory.dma_fraction": [0.5]})
    for frame in (p.frame, p.rejected):
        assert not any("memory.dma_fraction" in e for e in frame["estimates"])
    assert "memory.dma_fraction" not in p.evidence


def test_hosts_of_one_platform_are_not_said_to_differ_and_far_margins_are_not_named():
    p = _plan(["amd-epyc-9654:2", "amd-epyc-9554:2"], target=nm.Target(W["128k-read"], bytes_per_s=60e9))
    assert p.evidence == ""
    # two sockets' DMA (2 x 0.68 x 460.8 GB/s = 627 GB/s) passes 60 GB/s by far more than +100 %: not named
    assert (p.frame["estimates"] == "").all()


def test_only_the_ratings_a_workload_reads_and_only_values_called_upper_bounds_themselves():
    # the Lenovo drive's 4K write rating is 'calibrated: upper bound 1.3 M / 4': it binds writes, not reads
    reads = nm.plan(nm.Target(W["4k-randread"], iops=2e6), nm.DesignSpace("lenovo-sr850-direct", {}, max_drives=32))
    writes = nm.plan(nm.Target(W["4k-randwrite"], iops=3e5), nm.DesignSpace("lenovo-sr850-direct", {}, max_drives=32))
    assert reads.frame["4K randread|binding"][0] == "drive" and "rand_write_iops" not in reads.frame["estimates"][0]
    assert writes.frame["estimates"][0].startswith("drive binds 4K randwrite: rests on drive.rand_write_iops 325.00 K "
                                                   "IOPS (calibrated: upper bound")
    # Stingray's host source says its *other* layers are unknown "(upper bound)": its socket count is no estimate
    p = nm.plan(nm.Target(W["4k-randread"], iops=2e6), nm.DesignSpace("broadcom-stingray", {"host.gen": [3, 4]},
                                                                      max_drives=32))
    assert len(p.frame) and (p.frame["estimates"] == "").all()
