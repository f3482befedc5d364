"""A GPU as the data's sink or source on the PCIe tree (issue 29 item 5; docs/physics.md §12.10): the GPUs' own links
bound GPUDirect Storage / peer-to-peer reads and writes, from the PCIe specification's terms alone (encoding, TLP
headers, framing, SKP, DLLPs; docs/physics.md §1–2). Checked against a hand computation of the same terms (exact, with
the DLLP and SKP charges off, then with them on) and against the drive's own link carrying the same data (the GPU's
carries no NVMe command traffic). No measurement is fitted or checked here."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling.derive import prepare
from nvmemodel.ceiling.pcie import link_iops, peer_link_iops
from nvmemodel.standards import pcie as sp
from nvmemodel.topology.host import with_host


def _p(**over):
    topo = nm.preset("dell-r7525")
    p = topo.parameters(nm.Workload("read", "128K"))
    p.update(over)
    return prepare(p)


@pytest.mark.parametrize("gen, size", [(4, 131072), (5, 131072), (4, 4096), (5, 1048576)])
def test_reads_into_a_gpu_by_hand(gen, size):
    p = _p(**{"pcie.dllp": "none", "pcie.skp": 0.0})
    mps = float(p["pcie.mps"])
    tlp = sp.MEM_HDR_64_BYTES + sp.FRAMING_BYTES  # 4-DW MWr header (64-bit addresses) + STP/LCRC framing, no ECRC
    capacity = sp.GT_PER_S[gen] * 1e9 * sp.ENCODING[gen] * 16 / 8
    by_hand = capacity / (size + np.ceil(size / mps) * tlp)
    assert float(peer_link_iops(gen, 16, size, 1.0, p)) == pytest.approx(by_hand, rel=1e-12)


def test_dllp_and_skp_cost_a_few_percent_at_gen4_x16():
    off = float(peer_link_iops(4, 16, 131072, 1.0, _p(**{"pcie.dllp": "none", "pcie.skp": 0.0})))
    on = float(peer_link_iops(4, 16, 131072, 1.0, _p()))
    assert 0.9 < on / off < 1.0  # SKP about 0.27 %, the DLLPs of the default policy a few percent (§2.4)


@pytest.mark.parametrize("rf", [1.0, 0.0, 0.7])
def test_a_gpu_link_carries_only_data_so_it_passes_more_than_a_drive_link_of_the_same_width(rf):
    p = _p()
    assert float(peer_link_iops(4, 4, 4096, rf, p)) > float(link_iops(4, 4, 4096, rf, p))


def _genoa(**over):
    topo = with_host(nm.preset("dell-r7525"), nm.get_host("amd-epyc-9654"))
    return nm.evaluate(topo, nm.Workload("read", "128K"), drives=[1, 8, 24],
                       overrides={"drive.model": "samsung-pm1743", **over})


def test_one_gen4_gpu_binds_gds_reads_and_is_named():
    curve = _genoa(**{"gpu.count": 1, "gpu.gen": 4})
    assert curve.binding_at(1) == "drive" and curve.binding_at(8) == "gpu_link"
    p = prepare(curve.parameters)
    assert curve.iops_at(8) == pytest.approx(float(peer_link_iops(4, 16, 131072, 1.0, p)), rel=1e-12)
    assert "the GPUs' own PCIe links" in curve.explain(8) and "[gpu_link]" in curve.explain(8)


def test_gpus_add_and_no_gpu_is_no_limit():
    one, four = _genoa(**{"gpu.count": 1, "gpu.gen": 5}), _genoa(**{"gpu.count": 4, "gpu.gen": 5})
    assert four.ceilings["gpu_link"][-1] == pytest.approx(4 * one.ceilings["gpu_link"][-1], rel=1e-12)
    none = _genoa()
    assert np.isinf(none.ceilings["gpu_link"]).all() and "gpu_link" not in set(none.binding)
