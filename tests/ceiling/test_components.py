"""The component registry: a toy component registered here (never shipped) reaches evaluate, explain,
the CLI (help, JSON, --set, parameters), sweeps and plots without editing any other module."""

from __future__ import annotations

import json

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.ceiling.components import COMPONENTS, names
from nvmemodel.parameters import PARAMETERS, Parameter

TOY_PARAM = Parameter("toy.iops_cap", "1/s", "continuous", "a toy system-wide IOPS cap", lo=0, lo_open=True,
                      default=2.0e6, source="assumption: a test fixture")
TOY = nm.Component("toy_cap", "a toy IOPS cap (test only)", 65, lambda p: nm.Limit(system=p["toy.iops_cap"]),
                   parameters=("toy.iops_cap",), summary="toy cap for the registry test", declares=(TOY_PARAM,))
WL = nm.Workload("randread", "4K")


@pytest.fixture
def toy():
    with nm.registered_component(TOY) as c:
        yield c
    assert "toy_cap" not in names() and "toy.iops_cap" not in PARAMETERS


def test_builtin_order():
    assert tuple(COMPONENTS) == ("drive", "pcie_link", "queue_depth",
                                 "md_raid",  # issue 29: md's own per-array ceiling, a share per member (order 35)
                                 "switch_uplink", "switch_processing",
                                 "root_complex", "iommu", "socket_dma", "inter_socket", "raid_layer",  # issue 11 layers (iommu: 29)
                                 "gpu_link",  # issue 29: a GPU as the data's sink
                                 "host_cpu", "share_server_cpu", "share_network", "share_client", "fabric",
                                 "tcp_loss",  # issue 29: each NVMe/TCP path's throughput under loss (Mathis 1997)
                                 "target_cpu",  # issue 29: the NVMe-oF target's CPU
                                 "initiator_cpu")  # issue 29: the NVMe-oF initiators' CPU, beyond the network


def test_toy_in_evaluate_and_explain(toy):
    dell = nm.preset("dell-r7525")
    curve = nm.evaluate(dell, WL)
    # order 65: before fabric, tcp_loss, the target and the initiators
    assert "toy_cap" in curve.ceilings and tuple(COMPONENTS)[-5] == "toy_cap"
    assert curve.iops_at(24) == pytest.approx(2.0e6)  # 24 PM1733 at 1.45 M each would give far more
    assert curve.binding_at(24) == "toy_cap" and curve.binding_at(1) == "drive"
    text = curve.explain(24)
    assert "a toy IOPS cap (test only) [toy_cap]" in text and "toy.iops_cap = 2.00 M IOPS (assumption" in text
    assert "toy_cap" in curve.explain()
    lifted = nm.evaluate(dell, WL, overrides={"toy.iops_cap": 1e9})
    assert lifted.binding_at(24) != "toy_cap" and lifted.sources["toy.iops_cap"].status == "user"


def test_toy_in_sweep(toy):
    res = nm.sweep(nm.preset("dell-r7525"), WL, drives=[1, 24], grid={"toy.iops_cap": [1e5, 1e9]})
    assert list(res.binding[0]) == ["toy_cap", "toy_cap"] and res.iops[0, 1] == pytest.approx(1e5)
    assert "toy_cap" not in set(res.binding[1])
    assert "toy_cap" in set(res.to_frame()["binding"].cat.categories)


def test_toy_in_cli(toy, capsys):
    with pytest.raises(SystemExit):
        cli.main(["ceilings", "--help"])
    assert "toy_cap" in capsys.readouterr().out
    assert cli.main(["ceilings", "--preset", "dell-r7525", "--drives", "24", "--json", "--set",
                     "toy.iops_cap=1.5M"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (point,) = doc["points"]
    assert point["binding"] == "toy_cap" and point["iops"] == pytest.approx(1.5e6)
    assert "toy_cap" in point["ceilings"] and "toy_cap" in doc["components"]
    assert cli.main(["parameters", "--preset", "dell-r7525"]) == 0
    assert "toy.iops_cap" in capsys.readouterr().out


def test_toy_in_plot(toy):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex

    from nvmemodel.plots import plot_scaling
    from nvmemodel.plots.style import binding_color

    curve = nm.evaluate(nm.preset("dell-r7525"), WL)
    ax = plot_scaling(curve, unit="MIOPS", ceilings=True)
    # the binding strip under the axes names the toy component where it binds, in its own (tinted) colour
    assert "toy_cap" in {comp for _, comp, *_ in ax.binding_strip.spans}
    fills = {to_hex(p.get_facecolor()[0]) for p in ax.binding_strip.collections}
    assert to_hex(binding_color("toy_cap")) in fills
    plt.close(ax.figure)


def test_registering_twice_or_unknown_is_an_error():
    with nm.registered_component(TOY), pytest.raises(ValueError, match="already registered"):
        nm.register_component(TOY)
    with pytest.raises(nm.UnknownNameError):
        from nvmemodel.ceiling.components import get_component

        get_component("toy_cap")


def test_system_value_never_exceeds_any_component_alone():
    """Composition property over presets and workloads: X(n) ≤ every component alone, binding = smallest."""
    for name in nm.PRESETS:
        for wl in (nm.Workload("randread", "4K"), nm.Workload("write", "128K")):
            c = nm.evaluate(nm.preset(name), wl)
            alone = np.vstack([c.ceilings[k] for k in c.ceilings])
            assert np.all(c.iops <= alone.min(axis=0) * (1 + 1e-12))
            assert [list(c.ceilings)[i] for i in alone.argmin(axis=0)] == list(c.binding)
