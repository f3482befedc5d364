"""IOMMU units of Intel Cascade Lake-SP (issue 29; docs/physics.md §12.11): one VT-d unit per x16 PCIe stack, read off a
public boot log of a 2-socket Xeon Gold 5215 (8 DRHDs, 4 per socket by their RHSA proximity domains; on socket 0 the
registers of three of them lie at the top of the MMIO windows of root buses 17, 3a and 5d, the fourth is the
INCLUDE_PCI_ALL unit of the PCH's bus 00): 3 units serve the drives' stacks per socket, as many as the catalog's root
complexes, so strict mode's cap (1.4 M per unit by default, the Grace figure) applies per complex there. Skylake-SP
(the same IIO) is not listed: no boot log of a Skylake-SP part was found, so it stays per socket."""

from __future__ import annotations

import pytest

import nvmemodel as nm
from nvmemodel.ceiling.iommu import per_unit
from nvmemodel.topology.host import get_host, with_host

WL = nm.Workload("randread", "4K")
STRICT = {"iommu.mode": "strict", "drive.model": "samsung-pm1743"}


def _curve(host, drives, **over):
    return nm.evaluate(with_host(nm.preset("dell-r7525"), get_host(host, sockets=1)), WL, drives=drives,
                       overrides={**STRICT, **over})


def test_cascade_lake_lists_three_units_per_socket_with_its_source():
    h = get_host("intel-xeon-gold-5215")
    assert h.platform["tree.iommu_units_per_socket"] == 3 == h.platform["tree.complexes_per_socket"]
    source = h.platform_sources["tree.iommu_units_per_socket"]
    assert source.startswith("inferred: one VT-d unit (DRHD) per x16 PCIe stack")
    assert "20200604005916.niy2mejjcsx4sv6t@alap3.anarazel.de" in source and "Xeon Gold 5215" in source
    # Skylake-SP (same IIO) and the later Intel platforms: no source found, left per socket
    for key in ("intel-xeon-platinum-8176", "intel-xeon-platinum-8380", "intel-xeon-platinum-8480plus"):
        assert "tree.iommu_units_per_socket" not in get_host(key).platform


def test_cascade_lake_charges_each_stack_its_own_unit():
    c = _curve("intel-xeon-gold-5215", [1, 2, 3, 6])
    # round-robin over the socket's 3 stacks: 1, 2, 3, 3 units in use x 1.4 M (was 1.4 M for the socket throughout)
    assert list(c.ceilings["iommu"]) == pytest.approx([1.4e6, 2.8e6, 4.2e6, 4.2e6])
    assert per_unit(c.parameters)  # the label and the range sentence say "per IOMMU unit (one per root complex)"
    # the same drives filled onto one stack share its unit
    one = _curve("intel-xeon-gold-5215", [3], **{"tree.placement": "fill_first", "tree.slots_per_complex": 4})
    assert one.ceilings["iommu"][0] == pytest.approx(1.4e6)
    # a Skylake-SP part of the same socket stays per socket
    assert _curve("intel-xeon-platinum-8176", [6]).ceilings["iommu"][0] == pytest.approx(1.4e6)
