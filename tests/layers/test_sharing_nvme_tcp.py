"""share.protocol = nvme_tcp no longer reuses NFS's calibration (issue 29): the host is an NVMe/TCP target, whose CPU
is the target_cpu ceiling's (docs/physics.md §5.2, §12.4) over the transport tcp, charged where target.stack is set
(the Linux nvmet-tcp and SPDK TCP targets' figures: SPDK's NVMe-oF TCP report 24.05); by default (target.stack none)
nothing is charged for the target and the explanation says so; a user's target.cycles_per_io (or rate) binds and is
named. The NVMe/TCP PDU
headers stay on the share network."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.sharing import PROTOCOLS, protocol_defaults
from nvmemodel.ceiling.target import TARGET_CYCLES
from nvmemodel.parameters import PARAMETERS
from nvmemodel.standards import ethernet as eth

DELL = nm.preset("dell-r7525")  # 2 x 64 cores at 2.25 GHz (assumed catalog EPYC 7742), libaio 10,000 cycles per I/O
CYCLES_PER_S = 2 * 64 * 2.25e9
WL = nm.Workload("randread", "4K")


def _at(n=24, workload=WL, **over):
    c = nm.evaluate(DELL, workload, drives=[n], overrides={"share.protocol": "nvme_tcp", **over})
    return c


def test_nfs_placeholder_is_gone():
    cycles, per_byte, req, resp, source = PROTOCOLS["nvme_tcp"]
    assert (cycles, per_byte) == (0.0, 0.0)
    assert cycles != PROTOCOLS["nfs3"][0]  # NFS's 187,200 calibrated on ION: never charged for NVMe/TCP
    assert (req, resp) == (eth.NVME_TCP_CMD_PDU_BYTES, eth.NVME_TCP_RESP_PDU_BYTES) == (72, 24)  # headers kept
    assert "target.cycles_per_io" in source and "SPDK's NVMe-oF TCP report 24.05" in source
    code = PARAMETERS["share.protocol"].code("nvme_tcp")
    assert protocol_defaults(code, 0.3)[0] == 0.0  # reads and writes alike
    for key in (("kernel", "tcp"), ("spdk", "tcp")):  # what target_cpu charges with target.stack set: sourced
        point, source = TARGET_CYCLES[key][0], TARGET_CYCLES[key][3]
        assert np.isfinite(point) and "SPDK NVMe-oF TCP Performance Report 24.05" in source


def test_by_default_the_target_is_not_modelled_and_the_explanation_says_so():
    c = _at()
    nfs = nm.evaluate(DELL, WL, drives=[24], overrides={"share.protocol": "nfs3"})
    assert nfs.binding_at(24) == "share_server_cpu"  # NFS keeps its calibrated cost
    assert c.iops_at(24) == pytest.approx(CYCLES_PER_S / 10_000, rel=1e-12)  # the host's local path only
    assert c.binding_at(24) == "host_cpu"
    assert np.isinf(c.ceilings["target_cpu"]).all() and np.isinf(c.ceilings["share_server_cpu"]).all()
    text = c.explain(24)
    assert "The NVMe/TCP target's CPU is not modelled, so only the host's local I/O path is charged" in text
    assert "set target.stack (kernel or spdk) for the published figures" in text
    assert "upper bound there" in text
    # where the user sets the target's cost, the sentence goes
    mine = _at(**{"target.stack": "kernel", "target.cycles_per_io": 30_000})
    assert "target's CPU is not modelled" not in mine.explain(24)
    # the sentence is for NVMe/TCP only
    assert "NVMe/TCP target" not in nfs.explain(24)


def test_a_users_target_cost_binds_and_is_named():
    # every core of the host, shared at u = 1: 2 x 64 x 2.25 GHz / 30,000 cycles = 9.6 M IOPS
    c = _at(**{"target.stack": "kernel", "target.cycles_per_io": 30_000})
    assert CYCLES_PER_S / 30_000 == pytest.approx(9.6e6)
    assert c.ceilings["target_cpu"][-1] == pytest.approx(9.6e6, rel=1e-12)
    assert c.binding_at(24) == "target_cpu"
    text = c.explain(24)
    assert "[target_cpu]" in text and "target.cycles_per_io = 30,000 cycles (user" in text
    assert "share.protocol = nvme_tcp" in text
    # SPDK on 4 dedicated cores at the user's rate: 4 x 500 K
    spdk = _at(**{"target.stack": "spdk", "target.cores": 4, "target.iops_per_core": 500e3})
    assert spdk.ceilings["target_cpu"][-1] == pytest.approx(2e6) and spdk.binding_at(24) == "target_cpu"


def test_a_protocol_cost_set_by_hand_still_applies():
    c = _at(**{"share.cycles_per_io": 20_000})
    assert c.ceilings["share_server_cpu"][-1] == pytest.approx(CYCLES_PER_S / 30_000, rel=1e-12)
    assert c.binding_at(24) == "share_server_cpu"


def test_the_pdu_headers_stay_on_the_share_network():
    # 25 Gb/s, MTU 1500: a 4 KiB read carries 4096 + 24 B (response capsule) to the client in 1448 B segments with 78 B
    # of Ethernet/IP/TCP each
    payload, overhead = (float(v) for v in eth.packet_geometry(True, False, 1500, 0, 0, 0))
    c = _at(**{"share.link_bits_per_s": 25e9})
    want = 25e9 / 8 / ((4096 + 24) * (1 + overhead / payload))
    assert c.ceilings["share_network"][-1] == pytest.approx(want, rel=1e-12)


def test_sweep_over_protocols_matches_evaluate():
    over = {"target.stack": "kernel", "target.cycles_per_io": 30_000}
    res = nm.sweep(DELL, WL, drives=[24], grid={"share.protocol": ["nfs3", "nvme_tcp", "none"]})
    for i, proto in enumerate(["nfs3", "nvme_tcp", "none"]):
        one = nm.evaluate(DELL, WL, drives=[24], overrides={"share.protocol": proto})
        assert res.iops[i, 0] == pytest.approx(one.iops_at(24), rel=1e-12)
    both = nm.sweep(DELL, WL, drives=[24], grid={"share.protocol": ["nfs3", "nvme_tcp"], **{k: [v, v] for k, v in
                                                                                         over.items()}})
    assert both.iops[1, 0] == pytest.approx(9.6e6, rel=1e-12)
    # with no fabric and share.protocol = nfs3 the host is not an NVMe-oF target: target_cpu is not applied
    nfs = nm.evaluate(DELL, WL, drives=[24], overrides={"share.protocol": "nfs3", **over})
    assert np.isinf(nfs.ceilings["target_cpu"]).all()
    assert both.iops[0, 0] == pytest.approx(nfs.iops_at(24), rel=1e-12)
