"""The parameter table is the one truth: every parameter's bad values are refused the same way by
``evaluate(overrides=)``, ``sweep(grid=)`` and ``--set``; every override shows in every text derived
from the vector; categorical sweeps equal ``evaluate`` point for point.

The cases are generated from :data:`nvmemodel.PARAMETERS`, so a new parameter is covered automatically.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.errors import ParameterError
from nvmemodel.parameters import PARAMETERS, Source, from_lmfit_name, lmfit_name

# Stingray has a switch and a fabric, so every parameter is live there (none is refused as "absent").
BASE = "broadcom-stingray"
WL = nm.Workload("randread", "4K")


def invalid_values(param) -> list:
    """Values the table must refuse: out of range, wrong choice, non-finite, non-integral."""
    if param.kind == "categorical":
        return ["no-such-choice", "7"]
    out = [math.nan, -math.inf]
    if not param.inf_ok:
        out.append(math.inf)
    if param.kind == "flag":
        return out + [0.5, 2.0, -1.0]
    if param.kind == "choice":
        return out + [max(param.allowed_choices()) * 2 + 1, 3.5]
    if math.isfinite(param.lo):
        out.append(param.lo if param.lo_open else param.lo - 1)
    if math.isfinite(param.hi):
        out.append(param.hi * 2 + 1)
    if param.kind == "integer":
        out.append((param.lo if math.isfinite(param.lo) else 0) + 1.5)
    return out


CASES = [(name, value) for name, param in PARAMETERS.items() for value in invalid_values(param)]


def _assert_names(exc: ParameterError, name: str, value) -> None:
    assert exc.parameter == name
    assert exc.allowed == PARAMETERS[name].describe_range()
    shown = str(exc)
    assert f"{name}=" in shown and "expected" in shown
    if isinstance(value, float) and math.isnan(value):
        assert "nan" in shown
    elif isinstance(value, str):
        assert value in shown


@pytest.mark.parametrize("name, value", CASES)
def test_invalid_override_names_parameter_value_and_range(name, value):
    with pytest.raises(ParameterError) as info:
        nm.evaluate(nm.preset(BASE), WL, overrides={name: value})
    _assert_names(info.value, name, value)


@pytest.mark.parametrize("name, value", CASES)
def test_invalid_grid_names_parameter_value_and_range(name, value):
    topo = nm.preset(BASE)
    good = topo.parameters(WL)[name]
    with pytest.raises(ParameterError) as info:
        nm.sweep(topo, WL, drives=[1, 2], grid={name: [good, value]})
    _assert_names(info.value, name, value)


@pytest.mark.parametrize("name, value", CASES)
def test_invalid_set_is_one_line_exit_2(capsys, name, value):
    assert cli.main(["ceilings", "--preset", BASE, "--set", f"{name}={value}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("nvmemodel: error:") and f"{name}=" in err
    assert PARAMETERS[name].describe_range() in err


def valid_alternatives(name: str, base):
    """A few valid values different from ``base``, nearest the middle of the allowed range first."""
    param = PARAMETERS[name]
    if param.kind in ("categorical", "choice"):
        return [c for c in param.allowed_choices() if c != base and str(c) != str(base) and c != "custom"]
    if param.kind == "flag":
        return [1.0 - float(base)]
    b = float(base)
    candidates = [b * 1.5, b * 0.5, b + 1, b - 1] if math.isfinite(b) and b != 0 else [1.0, 2.0, 1e-6, 0.5]
    if math.isnan(b):
        candidates = [1e6, 1e-5, 2e9]
    out = []
    for c in candidates:
        if param.kind == "integer":
            c = float(round(c))
        try:
            param.check(c)
        except ParameterError:
            continue
        if c != b:
            out.append(c)
    return out


@pytest.mark.parametrize("name", list(PARAMETERS))
def test_override_changes_every_derived_text_and_number(name):
    """One truth: the curve's vector, its rebuilt topology/workload, JSON, description and plot data agree."""
    def first_valid():
        # Stingray has every part; Lenovo 810-4P has free lanes for more switches; Dell for host lanes; ION has a
        # RAID-5 array (failed members need one). A rebuild needs a failed member too (a stated companion value).
        companion = {"raid.rebuild": {"raid.degraded": 1}}.get(name, {})
        for preset in (BASE, "lenovo-sr850-810-4p", "dell-r7525", "ion-sr71mach5-linux"):
            topo = nm.preset(preset)
            for value in valid_alternatives(name, topo.parameters(WL)[name]):
                try:
                    return nm.evaluate(topo, WL, overrides={**companion, name: value}), value
                except ParameterError as exc:  # a cross-parameter constraint (e.g. lanes): try the next one
                    assert exc.parameter, exc
        pytest.fail(f"no valid alternative value for {name}")

    curve, value = first_valid()
    got = curve.parameters[name]
    assert got == value or (isinstance(got, float) and got == pytest.approx(float(value), rel=1e-12))
    # the rebuilt topology and workload hold exactly the evaluated vector
    assert curve.topology.parameters(curve.workload) == curve.parameters
    assert curve.workload == nm.Workload.from_parameters(curve.parameters)
    doc = curve.to_dict()
    assert doc["description"] == curve.topology.describe()
    assert doc["parameters"][name] == (got if isinstance(got, str) else pytest.approx(float(got)))
    assert doc["workload"]["block_size_bytes"] == curve.parameters["workload.block_size"]
    assert [p["bytes_per_s"] for p in doc["points"]] == pytest.approx(
        list(curve.iops * curve.parameters["workload.block_size"]))
    assert curve.sources[name].status == "user" or name.split(".")[0] in ("workload", "pcie", "nvme") \
        or name.endswith(".model") or name in ("switch.count", "fabric.transport")


def test_overrides_show_in_descriptions():
    """The texts the issue found stale: block size, generation and stack follow the overrides."""
    dell = nm.preset("dell-r7525")  # its calibrated cycles set aside: the stack's default applies
    dell = dell.replace(host=dell.host.replace(cycles_per_io=None))
    c = nm.evaluate(dell, nm.Workload("randread", "4K"), drives=[12],
                    overrides={"workload.block_size": 131072, "host.gen": 5, "workload.io_stack": "spdk",
                               "drive.model": "samsung-pm1743"})
    assert "128K randread" in repr(c) and "spdk" in repr(c)
    assert "Gen5 x4 root ports" in c.topology.describe() and "PM1743" in c.topology.describe()
    assert "128K" in c.explain(12) and "spdk" in c.explain()
    assert c.parameters["host.cycles_per_io"] == nm.topology.STACK_CYCLES[nm.IoStack.SPDK][0]
    # bandwidth uses the evaluated block size (was 32x too low with the stale 4K)
    assert c.bandwidth_at(12) == pytest.approx(c.iops_at(12) * 131072)


def test_plot_data_follows_override():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from nvmemodel.plots import plot_scaling

    c = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "4K"), overrides={"workload.block_size": 131072})
    ax = plot_scaling(c, unit="GB/s")
    assert ax.lines[0].get_ydata() == pytest.approx(c.bytes_per_s / 1e9)
    plt.close(ax.figure)


def test_absent_switch_or_fabric_parameter_is_refused():
    with pytest.raises(ParameterError, match=r"switch\.efficiency.*has none \(switch\.model is 'none'\)"):
        nm.evaluate(nm.preset("dell-r7525"), WL, overrides={"switch.efficiency": 0.9})
    with pytest.raises(ParameterError, match=r"fabric\.eth_mtu.*fabric\.transport"):
        nm.sweep(nm.preset("dell-r7525"), WL, drives=[1], grid={"fabric.eth_mtu": [9000]})
    # ... but fine together with the selector that makes the part present
    c = nm.evaluate(nm.preset("dell-r7525"), WL, drives=[4],
                    overrides={"switch.model": "lenovo-810-4p", "switch.efficiency": 0.9})
    assert c.topology.switch.efficiency == 0.9 and c.binding_at(4).startswith("switch")


def test_set_accepts_units(capsys):
    assert cli.main(["ceilings", "--preset", "broadcom-stingray", "--json", "--set", "host.clock_hz=2GHz",
                     "--set", "drive.read_latency_s=80us", "--set", "fabric.line_rate_bits_per_s=25Gb/s",
                     "--set", "workload.block_size=128K", "--set", "workload.io_stack=io_uring"]) == 0
    doc = json.loads(capsys.readouterr().out)
    p = doc["parameters"]
    assert (p["host.clock_hz"], p["fabric.line_rate_bits_per_s"]) == (2e9, 25e9)
    assert p["drive.read_latency_s"] == pytest.approx(80e-6, rel=1e-12)
    assert doc["workload"]["block_size_bytes"] == 131072 and doc["workload"]["io_stack"] == "io_uring"
    assert "25 Gb/s" in doc["description"]


def test_categorical_sweep_equals_evaluate_point_for_point():
    """I/O stacks x drive models x Ethernet MTU x generation (and transport): sweep == evaluate, rtol 1e-12."""
    topo = nm.preset("broadcom-stingray")
    axes = {"workload.io_stack": ["libaio", "io_uring", "spdk"],
            "drive.model": ["hgst-sn200-1600gb", "samsung-pm1743", "intel-optane-900p-280gb"],
            "fabric.eth_mtu": [1500.0, 4200.0, 9000.0], "host.gen": [3.0, 4.0, 5.0],
            "fabric.transport": ["rocev2", "tcp"], "fabric.roce_mtu": [0.0]}
    combos = list(itertools.product(*axes.values()))
    grid = {k: [c[i] for c in combos] for i, k in enumerate(axes)}
    for bs in (4096, 131072):
        wl = nm.Workload("randread", bs)
        res = nm.sweep(topo, wl, drives=[1, 2, 3, 4], grid=grid)
        for i, combo in enumerate(combos):
            curve = nm.evaluate(topo, wl, drives=[1, 2, 3, 4], overrides=dict(zip(axes, combo)))
            np.testing.assert_allclose(res.iops[i], curve.iops, rtol=1e-12)
            assert list(res.binding[i]) == list(curve.binding)
    frame = res.to_frame()
    assert frame["drive.model"].dtype == "category" and frame["binding"].dtype == "category"


def test_cycles_follow_stack_unless_host_sets_them():
    ion = nm.preset("ion-sr71mach5-linux")  # cycles calibrated on libaio: they hold for libaio only (QA F10)
    res = nm.sweep(ion, WL, drives=[8], grid={"workload.io_stack": ["libaio", "spdk"]})
    assert res.iops[0, 0] == 3.0e6 and res.iops[1, 0] > res.iops[0, 0]
    win = nm.preset("ion-sr71mach5-windows")  # a host that sets its cycles for every stack (one OS, one stack)
    res = nm.sweep(win, WL, drives=[8], grid={"workload.io_stack": ["libaio", "spdk"]})
    assert res.iops[0, 0] == res.iops[1, 0]
    dell = nm.preset("dell-r7525")  # its calibrated cycles set aside: the stack's default applies
    dell = dell.replace(host=dell.host.replace(cycles_per_io=None))
    res = nm.sweep(dell, WL, drives=[24], grid={"workload.io_stack": ["psync", "spdk"]})
    assert res.iops[1, 0] > res.iops[0, 0]


def test_lmfit_names_round_trip_and_are_identifiers():
    for name in PARAMETERS:
        ident = lmfit_name(name)
        assert ident.isidentifier() and from_lmfit_name(ident) == name


def test_parameters_listing_shows_unit_range_meaning_source(capsys):
    assert cli.main(["parameters", "--preset", "dell-r7525"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("host.clock_hz"))
    assert "2.25 GHz" in line and "sustained core clock" in line and "<= 1e+10 (Hz)" in line
    after = out.split(line + "\n", 1)[1].splitlines()[0]
    assert "assumption" in after and "EPYC" in after
    assert "pcie.dllp" in out and "width_scaled" in out and "one of none, width_scaled, pcie_model" in out
    assert cli.main(["parameters", "--preset", "dell-r7525", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]  # the nvmemodel.parameters/1 document (tests/test_schemas.py)
    assert {r["name"] for r in rows} == set(PARAMETERS)
    assert all(r["status"] for r in rows)


def test_every_preset_value_has_a_known_status():
    from nvmemodel.parameters import STATUSES

    for name in nm.PRESETS:
        table = nm.parameter_table(nm.preset(name))
        assert set(table["status"]) <= set(STATUSES), (name, set(table["status"]) - set(STATUSES))


def test_source_parse():
    assert Source.parse("calibrated on LP0865 Figure 4 text") == Source("calibrated", "on LP0865 Figure 4 text")
    assert Source.parse("ASSUMPTION: x16 uplink").status == "assumption"
    assert Source.parse("spec: x8 uplink") == Source("spec", "x8 uplink")
