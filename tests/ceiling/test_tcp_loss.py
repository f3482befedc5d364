"""NVMe/TCP under packet loss (issue 29 item 5; docs/physics.md §5.3): each path's TCP congestion-avoidance throughput,
BW = MSS x C / (RTT x sqrt(p)), C = sqrt(3/2) (M. Mathis, J. Semke, J. Mahdavi, T. Ott, "The Macroscopic Behavior of
the TCP Congestion Avoidance Algorithm", ACM SIGCOMM CCR 27(3), 1997), times fabric.paths; named when it binds, off by
default (fabric.loss = 0), bad values refused naming the parameter."""

from __future__ import annotations

import math

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.tcp_loss import MATHIS_C, mathis_bytes_per_s
from nvmemodel.errors import ParameterError

STINGRAY = nm.preset("broadcom-stingray")  # 100 GbE, Ethernet MTU 4200 (docs/physics.md §7.3)
WL = nm.Workload("randread", "4K", iodepth=128)


def _curve(workload=WL, **over):
    over = {"fabric.transport": "tcp", **over}
    return nm.evaluate(STINGRAY, workload, drives=[1, 4], overrides=over)


def test_the_formula_is_the_papers():
    # Mathis et al. 1997: BW = (MSS / RTT) x C / sqrt(p), C = sqrt(3/2) for periodic loss, an ACK per segment
    assert MATHIS_C == pytest.approx(1.2247449, rel=1e-7)
    mss, rtt, p = 1448.0, 1e-3, 1e-4
    assert float(mathis_bytes_per_s(mss, rtt, p)) == pytest.approx(mss / rtt * math.sqrt(1.5) / math.sqrt(p),
                                                                   rel=1e-15)
    # worked: 1448 B / 1 ms x 1.2247 / 0.01 = 177.3 MB/s (1.42 Gb/s) on one connection
    assert float(mathis_bytes_per_s(mss, rtt, p)) == pytest.approx(177.34e6, rel=1e-4)
    # quadrupling the loss halves it; halving the RTT doubles it
    assert float(mathis_bytes_per_s(mss, rtt, 4 * p)) == pytest.approx(float(mathis_bytes_per_s(mss, rtt, p)) / 2)
    assert float(mathis_bytes_per_s(mss, rtt / 2, p)) == pytest.approx(2 * float(mathis_bytes_per_s(mss, rtt, p)))
    assert np.isinf(mathis_bytes_per_s(mss, rtt, 0.0))  # no loss: not this bound


# RFC 3649 (S. Floyd, "HighSpeed TCP for Large Congestion Windows", 2003), abstract: "for a Standard TCP connection
# with 1500-byte packets and a 100 ms round-trip time, achieving a steady-state throughput of 10 Gbps would require an
# average congestion window of 83,333 segments, and a packet drop rate of at most one congestion event every
# 5,000,000,000 packets". RFC 3649 uses the response function w = 1.2 / sqrt(p) (Mathis's C rounded to 1.2) and takes
# 1500 B as the segment: at p = 1 / 5e9 the formula gives 10.39 Gb/s, the RFC's 10 Gbps within 4 % (C = 1.2247 against
# its 1.2, and its rounding to 83,333 segments): tolerance 5 %.
def test_rfc3649s_10_gbps_example():
    bits = 8 * float(mathis_bytes_per_s(1500, 0.100, 1 / 5e9))
    assert bits == pytest.approx(10e9, rel=0.05)
    window = bits / 8 * 0.100 / 1500  # segments in flight over one RTT
    assert window == pytest.approx(83_333, rel=0.05)


def test_it_binds_and_is_named_with_the_streams_bytes_per_io():
    # Stingray at MTU 4200: MSS = 4200 - 20 - 20 - 12 = 4148 B; a 4 KiB read's PDU stream carries 4096 + 24 (C2HData
    # header) + 24 (response capsule) = 4144 B target->host. RTT 100 us, p = 1e-4, one path:
    # 4148 x 1.2247 / (1e-4 x 0.01) / 4144 = 1.2259 M IOPS, below the 100 GbE line's 2.9 M: tcp_loss binds
    curve = _curve(**{"fabric.loss": 1e-4, "fabric.rtt": 100e-6})
    want = 4148 * math.sqrt(1.5) / (100e-6 * math.sqrt(1e-4)) / 4144
    assert want == pytest.approx(1.2259e6, rel=1e-4)
    assert curve.ceilings["tcp_loss"][-1] == pytest.approx(want, rel=1e-12)
    assert curve.binding_at(4) == "tcp_loss"
    text = curve.explain(4)
    assert "TCP under packet loss (Mathis et al. 1997" in text and "[tcp_loss]" in text
    assert "fabric.loss = 0.0001 (user" in text and "fabric.rtt = 100 us (user" in text
    # paths add: 8 connections lift it above the line, and the network binds again
    eight = _curve(**{"fabric.loss": 1e-4, "fabric.rtt": 100e-6, "fabric.paths": 8})
    assert eight.ceilings["tcp_loss"][-1] == pytest.approx(8 * want, rel=1e-12)
    assert eight.binding_at(4) != "tcp_loss"


def test_writes_carry_their_data_host_to_target():
    # a 4 KiB write's stream host->target: 72 (command capsule) + 24 (H2CData header) + 4096 = 4192 B
    w = nm.Workload("randwrite", "4K", iodepth=128)
    curve = _curve(w, **{"fabric.loss": 1e-4, "fabric.rtt": 100e-6})
    want = 4148 * math.sqrt(1.5) / (100e-6 * 0.01) / 4192
    assert curve.ceilings["tcp_loss"][-1] == pytest.approx(want, rel=1e-12)


def test_off_by_default_and_on_rdma():
    assert np.isinf(_curve().ceilings["tcp_loss"]).all()                    # fabric.loss = 0: off
    assert np.isinf(nm.evaluate(STINGRAY, WL, drives=[4]).ceilings["tcp_loss"]).all()  # the preset's RoCEv2
    roce = nm.evaluate(STINGRAY, WL, drives=[4], overrides={"fabric.loss": 1e-3, "fabric.rtt": 1e-4})
    assert np.isinf(roce.ceilings["tcp_loss"]).all()                        # not TCP: not this bound
    local = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[4])
    assert np.isinf(local.ceilings["tcp_loss"]).all()                       # no fabric


def test_sweep_matches_evaluate():
    grid = {"fabric.loss": [0.0, 1e-5, 1e-3], "fabric.rtt": [50e-6, 50e-6, 50e-6]}
    res = nm.sweep(STINGRAY, WL, drives=[4], grid={**grid, "fabric.transport": ["tcp"] * 3})
    for i in range(3):
        one = _curve(**{k: v[i] for k, v in grid.items()})
        assert res.iops[i, 0] == pytest.approx(one.iops_at(4), rel=1e-12)
    assert res.iops[2, 0] < res.iops[1, 0] <= res.iops[0, 0]


@pytest.mark.parametrize("over, name", [
    ({"fabric.loss": -0.01, "fabric.rtt": 1e-4}, "fabric.loss"),
    ({"fabric.loss": 0.9, "fabric.rtt": 1e-4}, "fabric.loss"),
    ({"fabric.loss": 1e-4, "fabric.rtt": 0.0}, "fabric.rtt"),
    ({"fabric.loss": 1e-4, "fabric.rtt": -1e-3}, "fabric.rtt"),
    ({"fabric.loss": 1e-4, "fabric.rtt": 1e-4, "fabric.paths": 0}, "fabric.paths"),
    ({"fabric.loss": 1e-4, "fabric.rtt": 1e-4, "fabric.paths": 1.5}, "fabric.paths"),
    ({"fabric.loss": 1e-4}, "fabric.rtt"),  # a loss without its RTT
])
def test_bad_values_are_refused_naming_the_parameter(over, name):
    with pytest.raises(ParameterError, match=name.replace(".", r"\.")):
        _curve(**over)
