"""Where the defaults beyond the PCIe links come from (issue 11): nothing unsourced is presented as fact.

A default with no source stays "no limit" and its table row says ``assumption``; the protocols other than
NFS keep NFS's calibrated cycles only as labelled estimates; each value the docs derive from a spec sheet
is recomputed here from the quoted figures (docs/physics.md §12.1, §12.3, §12.4, §12.5).
"""

from __future__ import annotations

import math

import pytest

import nvmemodel as nm
from nvmemodel.ceiling.sharing import PROTOCOLS
from nvmemodel.parameters import PARAMETERS, Source

STATUS = {row["name"]: row for _, row in nm.parameter_table(nm.preset("dell-r7525")).iterrows()}


@pytest.mark.parametrize("name", ["tree.complex_bytes_per_s", "tree.inter_socket_bytes_per_s",
                                  "raid.parity_bytes_per_s"])
def test_unsourced_limits_stay_no_limit_and_say_assumption(name):
    # on a host built by hand (no catalog platform) the default stays "no limit", labelled an assumption
    plain = nm.preset("dell-r7525")
    plain = plain.replace(host=plain.host.replace(platform={}, platform_sources={}), extras={}, extras_sources={})
    row = {r["name"]: r for _, r in nm.parameter_table(plain).iterrows()}[name]
    assert math.isinf(PARAMETERS[name].default)
    assert row["status"] == "assumption" and row["shown"] == "no limit"
    assert "§12." in row["source"]  # the reasoning is in the physics reference


@pytest.mark.parametrize("name, status", [("tree.complex_bytes_per_s", "estimate"),
                                          ("tree.inter_socket_bytes_per_s", "inferred")])
def test_catalog_host_limits_are_labelled_not_facts(name, status):
    # the R7525 preset's (assumed) catalog EPYC 7742 brings a root-complex and an xGMI limit: finite, never "spec"
    row = STATUS[name]
    assert row["status"] == status and math.isfinite(row["value"])


def test_rebuild_rate_default_is_a_spec():
    assert STATUS["raid.rebuild_bytes_per_s"]["status"] == "spec"
    assert "md.c" in STATUS["raid.rebuild_bytes_per_s"]["source"]


def test_dell_dma_share_stays_an_estimate_and_says_why():
    row = STATUS["memory.dma_fraction"]
    assert row["status"] == "estimate" and row["value"] == 0.38
    assert "names neither the CPU nor the DIMM population" in row["source"]
    # the interval the paper allows: 12 drives x 7.195 GB/s (80.41 GiB/s) linear, 24 drives not
    per_socket_12 = 80.41 * 2**30 / 2
    peak = 8 * 3200e6 * 8  # 8 channels x DDR4-3200 x 8 B (AMD EPYC 7002 spec) = 204.8 GB/s
    assert peak == pytest.approx(204.8e9)
    assert 0.21 < per_socket_12 / peak < 0.22 and 0.41 < 2 * per_socket_12 / peak < 0.43
    assert per_socket_12 / peak < row["value"] < 2 * per_socket_12 / peak


def test_upi_bandwidth_from_the_spec_sheet_figures():
    # ISSCC 2018 (Skylake-SP): 3 x 20-lane UPI links at 10.4 GT/s. UPI 2.0's 24 GT/s = 48 GB/s per direction per
    # link sets the payload at 2 B per transfer; 10.4 GT/s x 2 B = 20.8 GB/s per link and direction.
    per_link = 10.4e9 * (48e9 / 24e9)
    assert per_link == pytest.approx(20.8e9)
    assert "62.4 GB/s" in PARAMETERS["tree.inter_socket_bytes_per_s"].source
    assert 3 * per_link == pytest.approx(62.4e9)


def test_only_nfs3_is_calibrated_every_other_protocol_is_a_labelled_estimate():
    statuses = {k: Source.parse(v[4]).status for k, v in PROTOCOLS.items() if k != "none"}
    # nvme_tcp charges nothing here (its target's CPU is target_cpu's, issue 29): a default, not NFS's estimate
    assert statuses == {"nfs3": "calibrated", "nfs4": "estimate", "smb3": "estimate", "smb3_rdma": "estimate",
                        "iscsi": "estimate", "nvme_tcp": "default", "ceph_rbd": "measured"}
    # the Ceph OSD's cost quotes the measurement it comes from (docs/physics.md §12.4.1)
    assert "'delivering around 7500 IOPS per core used'" in PROTOCOLS["ceph_rbd"][4]
    for key in ("smb3", "iscsi"):
        assert "found" in PROTOCOLS[key][4]  # each says what was looked for
    # nvme_tcp's target costs are sourced now (issue 29, SPDK's NVMe-oF TCP report 24.05): it names where they are
    assert "target.stack" in PROTOCOLS["nvme_tcp"][4] and "report 24.05" in PROTOCOLS["nvme_tcp"][4]


def test_preset_quotes_the_protocol_source_with_its_status():
    smb = nm.parameter_table(nm.preset("ion-sr71mach5-windows-smb3")).set_index("name")
    assert smb.loc["share.cycles_per_io", "status"] == "estimate"
    nfs = nm.parameter_table(nm.preset("ion-sr71mach5-linux-nfs3")).set_index("name")
    assert nfs.loc["share.cycles_per_io", "status"] == "calibrated"
