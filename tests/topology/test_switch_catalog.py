"""The switch catalog (chips and adapters of Gen3-5 with a source per value), custom spec-only switches,
and calibrations dropped when a catalog switch's links change (issue 19 item 1)."""

import math

import pytest

import nvmemodel as nm
from nvmemodel.errors import ParameterError
from nvmemodel.parameters import STATUSES
from nvmemodel.topology.switch import SPEC_ONLY, Switch, get_switch, switch_catalog

CATALOG = switch_catalog()


def test_catalog_spans_generations_vendors_and_a_gen4_x8_uplink():
    gens = {int(s.up_gen) for s in CATALOG.values()}
    assert {3, 4, 5} <= gens
    names = " ".join(s.name for s in CATALOG.values())
    for vendor in ("Broadcom", "Microchip Switchtec PFX", "Microchip Switchtec PSX", "ASMedia ASM2812", "ASMedia ASM2824",
                   "ASMedia ASM1182e", "Lenovo", "HighPoint", "Dell"):
        assert vendor in names
    gen4_x8 = [k for k, s in CATALOG.items() if int(s.up_gen) == 4 and s.up_lanes == 8]
    assert "broadcom-pex88024-x8" in gen4_x8  # the key notebook 07 sizes (PLANNER)
    assert {s.kind for s in CATALOG.values()} == {"chip", "adapter"}


@pytest.mark.parametrize("key", list(CATALOG))
def test_every_value_has_a_status_and_a_source(key):
    s = CATALOG[key]
    for name, source in s.sources().items():
        assert source.status in STATUSES, (key, name, source)
        assert len(source.text) > 10, (key, name, source)  # a citation or a reason, not a bare label
    if s.kind == "chip":  # a chip configuration fits in the chip's lanes
        assert s.total_lanes is not None and s.pci_id
        assert s.up_lanes + s.ports * s.port_lanes <= s.total_lanes
    # measured caps only where a public measurement exists: everything else says "spec only"
    if s.sources()["switch.per_command_s"].status != "calibrated":
        assert s.per_command_s == 0 and SPEC_ONLY in s.sources()["switch.per_command_s"].text or \
            s.sources()["switch.per_command_s"].status == "fit"


def test_only_the_lenovo_adapters_carry_calibrated_caps():
    calibrated = {k for k, s in CATALOG.items() if s.calibrated_fields()}
    assert calibrated == {"lenovo-1610-4p", "lenovo-810-4p"}  # Lenovo LP0865 Figures 4 and 6


def test_custom_switch_on_a_direct_preset_is_built_from_its_spec():
    topo, wl = nm.preset("dell-r7525"), nm.Workload("randread", "4K")
    assert topo.switch is None
    curve = nm.evaluate(topo, wl, drives=[1, 4], overrides={"switch.model": "custom", "switch.up_gen": 4,
                                                            "switch.up_lanes": 8})
    sw = curve.topology.switch
    assert (int(sw.up_gen), sw.up_lanes, sw.efficiency, sw.per_command_s) == (4, 8, 1.0, 0.0)
    assert SPEC_ONLY in sw.name and SPEC_ONLY in sw.sources()["switch.per_command_s"].text
    # the Gen4 x8 uplink carries exactly what one direct Gen4 x8 link carries (same TLP accounting,
    # efficiency 1, no per-command cost): 4 drives of 1.45 M IOPS bind on it
    x8 = nm.evaluate(topo, wl, drives=[1], overrides={"drive.lanes": 8, "host.port_lanes": 8})
    assert curve.binding_at(4) == "switch_uplink"
    assert curve.iops_at(4) == pytest.approx(x8.ceilings["pcie_link"][0], rel=1e-12)
    assert curve.iops_at(4) < 4 * 1_450_000
    assert math.isnan(curve.ceilings["switch_processing"][0]) or math.isinf(curve.ceilings["switch_processing"][0])


def test_switch_fields_without_a_switch_name_the_way_out():
    with pytest.raises(ParameterError, match=r"switch\.model=custom"):
        nm.evaluate(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[1],
                    overrides={"switch.up_gen": 4})


def test_raising_a_calibrated_switch_generation_drops_its_calibration():
    topo, wl = nm.preset("lenovo-sr850-810-4p"), nm.Workload("randread", "4K")
    gen4 = {"drive.model": "samsung-pm1733-u2", "switch.up_gen": 4, "switch.port_gen": 4}
    curve = nm.evaluate(topo, wl, drives=[1, 4], overrides=gen4)
    sw = curve.topology.switch
    assert (sw.efficiency, sw.per_command_s) == (1.0, 0.0)
    assert "calibration dropped" in sw.name
    text = sw.sources()["switch.per_command_s"].text
    # the Gen3 host still trains the uplink at Gen3: only the ports' link (Gen4 with a Gen4 drive) changed (QA F26b)
    assert "dropped because switch.port_gen changed" in text and "769" not in text  # says what, not ns
    # one Gen4 drive: its own 1.45 M IOPS, no longer the Gen3 adapter's 1.3 M command cap
    assert curve.binding_at(1) == "drive"
    assert curve.iops_at(1) == pytest.approx(1_450_000, rel=1e-9)
    # the unchanged adapter keeps its calibration and binds on it
    gen3 = nm.evaluate(topo, wl, drives=[1], overrides={"drive.model": "samsung-pm1733-u2", "switch.port_gen": 3})
    assert gen3.topology.switch.per_command_s == pytest.approx(769.231e-9)


def test_a_value_set_with_the_link_change_is_kept():
    sw = get_switch("lenovo-810-4p").with_changes(up_gen=4, efficiency=0.9)
    assert sw.efficiency == 0.9 and sw.per_command_s == 0.0
    assert sw.sources()["switch.efficiency"].status == "user"
    same = get_switch("lenovo-810-4p").with_changes(up_gen=3)  # not a change: calibration stays
    assert same.per_command_s == pytest.approx(769.231e-9) and same.name == get_switch("lenovo-810-4p").name


def test_spec_only_switch_defaults():
    sw = Switch.spec_only(up_gen=5, up_lanes=16, ports=8)
    assert (sw.efficiency, sw.per_command_s, sw.per_tlp_s) == (1.0, 0.0, 0.0)
    assert sw.sources()["switch.efficiency"].status == "assumption"


def test_cli_switches_lists_keys_and_filters(capsys):
    from nvmemodel.cli import main

    assert main(["switches", "--gen", "4"]) == 0
    out = capsys.readouterr().out
    assert "broadcom-pex88024-x8" in out and "Gen4 x8" in out
    assert "lenovo-810-4p" not in out  # Gen3
    assert main(["switches"]) == 0
    out = capsys.readouterr().out
    assert "lenovo-810-4p" in out and "calibrated: efficiency, per_command_s" in out
    assert out.count("spec only: no measured processing cap") == len(CATALOG) - 2
    assert CATALOG["lenovo-810-4p"].chip == "PEX 9733"  # pci.ids lists the adapter's subsystem under that chip


def test_rocket_1608a_efficiency_is_consistent_with_its_public_measurement():
    """TechPowerUp: 57 GB/s through the Rocket 1608A's Gen5 x16 uplink with eight Gen5 drives (as quoted in the
    catalog row). Efficiency 1.0 must leave the uplink ceiling at or above that, and within 1% (else the measurement
    would call for a fitted efficiency below 1 — or show the model's uplink too generous)."""
    sw = get_switch("highpoint-rocket-1608a")
    assert "57 GB/s" in sw.sources()["switch.efficiency"].text
    c = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "1M"), drives=[8],
                    overrides={"switch.model": "highpoint-rocket-1608a", "drive.model": "crucial-t700-2tb",
                               "host.gen": 5})  # a Gen5 slot, as in the review
    uplink = c.ceilings["switch_uplink"][0] * 2**20
    assert 57e9 <= uplink <= 57e9 * 1.01


def test_cli_switches_rejects_a_generation_that_does_not_exist(capsys):
    from nvmemodel.cli import main

    with pytest.raises(SystemExit) as info:
        main(["switches", "--gen", "9"])
    assert info.value.code == 2 and "nvmemodel: error: argument --gen" in capsys.readouterr().err


def test_calibrations_to_drop_for_a_sweep_grid():
    """The vectorized with_changes: what a sweep grid that changes a link must replace (the sweep applies it)."""
    from nvmemodel.topology.switch import calibrations_to_drop

    base = get_switch("lenovo-810-4p")
    grid = {"switch.up_gen": [3, 4], "switch.port_gen": [3, 4]}
    drop = calibrations_to_drop(grid, base)
    assert drop["switch.efficiency"].tolist() == [pytest.approx(0.8636), 1.0]
    assert drop["switch.per_command_s"].tolist() == [pytest.approx(769.231e-9), 0.0]
    # a sweep given these values: the Gen4 configuration is limited by the drive, not the Gen3 calibration
    topo = nm.preset("lenovo-sr850-810-4p").replace(drive=nm.get_drive("samsung-pm1733-u2"))
    r = nm.sweep(topo, nm.Workload("randread", "4K"), drives=[1], grid={**grid, **drop})
    assert [r.components[i] for i in r.binding_index[:, 0]] == ["pcie_link", "drive"]
    assert r.iops[1, 0] == pytest.approx(1_450_000, rel=1e-9)
    # per model: the 810-4P keeps its x8 calibration, the 1610-4P narrowed to x8 loses its per-command cost
    both = calibrations_to_drop({"switch.model": ["lenovo-810-4p", "lenovo-1610-4p"], "switch.up_lanes": [8, 8]}, None)
    assert set(both) == {"switch.per_command_s"}  # the 1610-4P's efficiency is a default, not a calibration
    assert both["switch.per_command_s"].tolist() == [pytest.approx(769.231e-9), 0.0]
    assert calibrations_to_drop({"switch.efficiency": [0.9]}, base) == {}  # no link changed
    # a value the grid sets itself is never replaced
    assert "switch.efficiency" not in calibrations_to_drop({"switch.up_gen": [4], "switch.efficiency": [0.9]}, base)


def test_a_generation_the_host_cannot_train_keeps_the_calibration():
    """QA F26b: the 810-4P set to Gen4 in a Gen3 host still runs Gen3 x8, the link its calibration was measured on."""
    topo, wl = nm.preset("lenovo-sr850-810-4p"), nm.Workload("randread", "4K")
    curve = nm.evaluate(topo, wl, drives=[4], overrides={"switch.up_gen": 4})
    assert curve.topology.switch.per_command_s == pytest.approx(769.231e-9)
    assert curve.binding_at(4) == "switch_processing" and curve.iops_at(4) == pytest.approx(1 / 769.231e-9, rel=1e-6)
    assert "Gen4 x8 uplink, trains Gen3 with the Gen3 host" in curve.topology.describe()
    # without the host's generation (the switch alone) a changed generation is a changed link
    assert get_switch("lenovo-810-4p").with_changes(up_gen=4).per_command_s == 0.0


def test_custom_on_a_catalog_switch_is_the_spec_only_switch():
    """QA F26: docs/catalogs.md — switch.model=custom builds a switch from its spec alone on any preset."""
    topo, wl = nm.preset("lenovo-sr850-810-4p"), nm.Workload("randread", "4K")
    curve = nm.evaluate(topo, wl, drives=[4], overrides={"switch.model": "custom"})
    sw = curve.topology.switch
    assert sw.name == "custom switch (spec only: no measured processing cap)"
    assert (sw.efficiency, sw.per_command_s, int(sw.up_gen), sw.up_lanes, sw.ports) == (1.0, 0.0, 3, 8, 4)
    assert curve.binding_at(4) == "switch_uplink"  # the Gen3 x8 uplink, no 1.3 M command cap
    assert sw.sources()["switch.up_gen"].text.startswith("kept from Lenovo ThinkSystem 810-4P")
    # and with a link set in the same call
    up = nm.evaluate(topo, wl, drives=[4], overrides={"switch.model": "custom", "switch.up_lanes": 16})
    assert up.topology.switch.up_lanes == 16 and up.topology.switch.per_command_s == 0.0


def test_custom_in_a_sweep_grid_is_what_evaluate_gives():
    """QA F26: the sweep's ``custom`` code on a catalog switch is the spec-only switch too (sweep == evaluate)."""
    import numpy as np

    topo, wl = nm.preset("lenovo-sr850-810-4p"), nm.Workload("randread", "4K")
    grid = {"switch.model": ["custom", "lenovo-810-4p", "custom"], "switch.up_lanes": [8, 8, 16]}
    res = nm.sweep(topo, wl, drives=[1, 4], grid=grid)
    for i in range(3):
        over = {k: v[i] for k, v in grid.items()}
        np.testing.assert_allclose(res.iops[i], nm.evaluate(topo, wl, drives=[1, 4], overrides=over).iops, rtol=1e-12)
    assert res.iops[0][-1] > 1.5e6 > res.iops[1][-1]  # custom: no 1.3 M command cap; the catalog 810-4P keeps it
