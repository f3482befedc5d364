"""The capacity planner: the seed papers' advice, exact agreement with the forward model, clear errors."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.errors import ParameterError, UnknownNameError
from nvmemodel.plan import DesignSpace, Target, plan

LENOVO = ["direct-x4", "direct-x2", "lenovo-1610-4p", "lenovo-810-4p"]
RR4K, SR256K = nm.Workload("randread", "4K"), nm.Workload("read", "256K")


def test_lp0865_direct_x4_beats_the_switch_adapters():
    # LP0865 conclusion: direct x4 per drive is the best connection for 4 drives; the adapters lose
    # bandwidth (810-4P: x8 uplink, "capped to 6,200 MB/s") or IOPS (1610-4P: processing, "up to 30%").
    space = DesignSpace("lenovo-sr850-direct", {"connection": LENOVO}, max_drives=4)
    p = plan([Target(SR256K, bytes_per_s=12e9), Target(RR4K, iops=2.4e6)], space)
    assert list(p.frame["connection"]) == ["direct-x4"] and p.best["drives"] == 4
    reasons = p.rejected.set_index("connection")["reason"]
    assert "[switch_uplink]" in reasons["lenovo-810-4p"] and "6.20 GB/s" in reasons["lenovo-810-4p"]
    assert "[switch_processing]" in reasons["lenovo-1610-4p"] and "1.82 M IOPS" in reasons["lenovo-1610-4p"]
    assert "[pcie_link]" in reasons["direct-x2"]


def test_lp0865_x2_only_when_lanes_run_out():
    # "each NVMe SSD only gets bandwidth of two PCIe lanes": worth it only when x4 ports are not available.
    space = DesignSpace("lenovo-sr850-direct", {"connection": LENOVO, "host.sockets": [1],
                                                 "host.lanes_per_socket": [8]}, max_drives=4)
    p = plan(Target(RR4K, iops=1.6e6), space)
    assert list(p.frame["connection"]) == ["direct-x2"] and p.best["drives"] == 4
    reasons = p.rejected.set_index("connection")["reason"]
    assert "with 2 drives" in reasons["direct-x4"]  # 8 lanes hold two x4 drives
    assert "more PCIe lanes" in reasons["lenovo-1610-4p"]  # a x16 uplink does not fit in 8 lanes


def test_lp0865_x16_adapter_before_x8():
    space = DesignSpace("lenovo-sr850-direct", {"connection": ["lenovo-1610-4p", "lenovo-810-4p"]}, max_drives=4)
    p = plan(Target(SR256K, bytes_per_s=8e9), space)
    assert list(p.frame["connection"]) == ["lenovo-1610-4p"]
    p = plan(Target(RR4K, iops=5e6), space)  # neither: the x16 adapter still comes closer
    assert list(p.rejected["connection"]) == ["lenovo-1610-4p", "lenovo-810-4p"]
    assert "No configuration meets every target; the closest is connection=lenovo-1610-4p" in p.explain()


def test_r7525_twelve_drives_for_17m_iops():
    # Dell DfD: "Scaling to 12 Gen4 NVMe drives shows 17M 4KiB RR IOPS"; with the preset's CPU assumption
    # (2 x 64 cores at 2.25 GHz, libaio 10,000 cycles per I/O) 12 drives are drive-bound with CPU headroom,
    # and the CPU becomes the limit from 20 drives on (the paper: 90 % CPU and non-linear at 24).
    p = plan(Target(RR4K, iops=17e6), DesignSpace("dell-r7525", {}, max_drives=24))
    best = p.best
    assert best["drives"] == 12 and best["4K randread|binding"] == "drive"
    curve = nm.evaluate(nm.preset("dell-r7525"), RR4K, drives=range(1, 25))
    assert curve.cpu_utilization_at(12) == pytest.approx(12 * 1.45e6 * 10000 / (128 * 2.25e9))
    assert curve.binding_at(24) == "host_cpu" and curve.knee() == 20


def _overrides(values: dict) -> dict:
    out = {}
    for k, v in values.items():
        if k == "connection":
            if v.startswith("direct-x"):
                out.update({"switch.model": "none", "host.port_lanes": int(v.split("x")[1])})
            else:
                out["switch.model"] = v
        else:
            out[k] = v
    return out


def test_plan_equals_forward_model_configuration_by_configuration():
    """Every configuration: the planner's minimum drive count and ceilings == nm.evaluate over all counts."""
    axes = {"drive.model": ["samsung-pm1743", "samsung-pm1733-u2", "toshiba-px04pmb-960gb"], "host.gen": [3, 4, 5],
            "connection": ["direct-x4", "direct-x2", "lenovo-810-4p", "lenovo-1610-4p"],
            "switch.count": [1, 2], "workload.io_stack": ["libaio", "spdk"], "host.cores_per_socket": [4, 64]}
    space = DesignSpace("dell-r7525", axes, max_drives=12)
    targets = [Target(RR4K, iops=3e6), Target(nm.Workload("write", "128K"), bytes_per_s=8e9)]
    p = plan(targets, space, keep=10**6, merge_identical=False)
    by_config = {}
    for i in range(space.size):
        values = {k: v[0] for k, v in space.values_at(np.array([i])).items()}
        base = nm.preset("dell-r7525")
        try:
            curves = [nm.evaluate(base, t.workload, drives=[1], overrides=_overrides(values)) for t in targets]
        except ParameterError:  # e.g. two x16 switch uplinks do not fit: the planner must reject it too
            by_config[i] = None
            continue
        topo = curves[0].topology
        n = np.arange(1, min(topo.max_drives, 12) + 1)
        curves = [nm.evaluate(base, t.workload, drives=n, overrides=_overrides(values)) for t in targets]
        ok = np.all([c.iops >= t.iops_needed for c, t in zip(curves, targets)], axis=0)
        by_config[i] = (int(n[ok][0]), curves) if ok.any() else None
    frame = p.frame.assign(config=[_index_of(space, row) for _, row in p.frame.iterrows()])
    assert set(frame["config"]) == {i for i, v in by_config.items() if v is not None}
    for _, row in frame.iterrows():
        n_min, curves = by_config[row["config"]]
        assert row["drives"] == n_min
        for t, c in zip(targets, curves):
            k = list(c.drives).index(n_min)
            x = c.iops[k] * (t.workload.block_size if t.bytes_per_s else 1)
            assert row[f"{t.name}|ceiling"] == pytest.approx(x, rel=1e-12)
            assert row[f"{t.name}|binding"] == c.binding[k]


def _index_of(space, row) -> int:
    idx = []
    for name, values in space.axes.items():
        v = row[name]
        idx.append(next(i for i, c in enumerate(values) if str(c) == str(v) or (
            not isinstance(c, str) and float(c) == float(v))))
    return int(np.ravel_multi_index(idx, [len(v) for v in space.axes.values()]))


def test_pareto_front_is_non_dominated():
    axes = {"drive.model": ["samsung-pm1743", "samsung-pm1733-u2"], "host.gen": [4, 5],
            "workload.io_stack": ["libaio", "io_uring", "spdk"], "host.cores_per_socket": [16, 32, 64]}
    p = plan(Target(RR4K, iops=8e6), DesignSpace("dell-r7525", axes, max_drives=24))
    front = p.pareto(("drives", "min_headroom"))
    assert 0 < len(front) <= len(p)
    for _, a in p.frame.iterrows():
        dominated = ((front["drives"] <= a["drives"]) & (front["min_headroom"] >= a["min_headroom"])).any()
        assert dominated
    for _, a in front.iterrows():
        better = (p.frame["drives"] <= a["drives"]) & (p.frame["min_headroom"] >= a["min_headroom"]) & (
            (p.frame["drives"] < a["drives"]) | (p.frame["min_headroom"] > a["min_headroom"]))
        assert not better.any()


def test_rank_by_cost_and_margin():
    axes = {"drive.model": ["samsung-pm1743", "samsung-pm1733-u2"]}
    prices = {"drive": {"samsung-pm1743": 3000.0, "samsung-pm1733-u2": 1000.0}}
    p = plan(Target(RR4K, iops=10e6), DesignSpace("dell-r7525", axes, max_drives=24), rank="cost", prices=prices)
    # 10 M IOPS: 7 PM1733 (1.45 M each) for 7,000, or 6 PM1743 (Gen5 drives on Gen4 x4 links: 1.72 M each)
    assert list(p.frame["drive.model"]) == ["samsung-pm1733-u2", "samsung-pm1743"]
    assert list(p.frame["cost"]) == [7000.0, 18000.0]
    assert list(p.frame["4K randread|binding"]) == ["drive", "pcie_link"]
    tight = plan(Target(RR4K, iops=10e6), DesignSpace("dell-r7525", axes, max_drives=24), margin=0.2)
    assert tight.frame.set_index("drive.model").loc["samsung-pm1733-u2", "drives"] == 9  # 12 M / 1.45 M


@pytest.mark.parametrize("make, error, match", [
    (lambda: DesignSpace("dell-r7525", {"host.gen": []}), ParameterError, "design space is empty"),
    (lambda: DesignSpace("dell-r7525", {"host.speed": [1]}), UnknownNameError, "host.speed"),
    (lambda: DesignSpace("dell-r7525", {"connection": ["direct-x3"]}), UnknownNameError, "direct-x3"),
    (lambda: DesignSpace("dell-r7525", {"host.gen": [4, 4]}), ParameterError, "distinct"),
    (lambda: plan([Target(RR4K, iops=1e6), Target(RR4K, iops=2e6)], DesignSpace()), ParameterError, "asked twice"),
    (lambda: plan([], DesignSpace()), ParameterError, "at least one Target"),
    (lambda: plan(Target(RR4K, iops=1e6), DesignSpace(), rank="cost"), ParameterError, "prices"),
    (lambda: Target(RR4K), ParameterError, "target"),
    (lambda: Target(RR4K, iops=-1), ParameterError, "target.iops"),
])
def test_bad_plans_say_what_is_wrong(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_infeasible_targets_name_the_closest(capsys):
    assert cli.main(["plan", "--iops", "1000M", "--max-drives", "24"]) == 0
    out = capsys.readouterr().out
    assert "No configuration meets every target; the closest is the base system (dell-r7525)" in out
    assert "[host_cpu]" in out and "28.80 M IOPS" in out


@pytest.mark.parametrize("argv, match", [
    (["--read-bw", "60G"], "ambiguous"), (["--read-bw", "60"], "ambiguous"), (["--iops", "10Mi"], "--iops"),
    (["--latency", "200"], "latency with its unit"), (["--iops", "10M", "--iops", "5M"], "given twice"),
    (["--iops", "10M", "--drive", "nope"], "drive.model='nope'"), (["--iops", "10M", "--gen", "9"], "host.gen=9 "),
    (["--iops", "10M", "--axis", "foo.bar=1"], "unknown parameter 'foo.bar'"), ([], "at least one of --iops"),
    (["--iops", "10M", "--price", "gpu=3"], "--price"), (["--iops", "10M", "--rank", "cost"], "prices"),
])
def test_cli_errors_are_one_line_exit_2(capsys, argv, match):
    assert cli.main(["plan", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("nvmemodel: error:") and match in err


def test_cli_json_and_csv(capsys):
    import json

    argv = ["plan", "--iops", "10M", "--read-bw", "60GB/s", "--gen", "4,5", "--drive", "samsung-pm1743",
            "--max-drives", "24"]
    assert cli.main([*argv, "--json", "--top", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "nvmemodel.capacity-plan/2" and doc["evaluated"] == 2 and len(doc["configurations"]) == 2
    assert doc["configurations"][0]["host.gen"] == 5 and doc["configurations"][0]["drives"] == 5
    assert cli.main([*argv, "--csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("host.gen,drive.model,drives,lanes")


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    axes = {"drive.model": ["samsung-pm1743", "samsung-pm1733-u2"], "workload.io_stack": ["libaio", "spdk"],
            "host.cores_per_socket": [16, 32, 64]}
    p = plan(Target(RR4K, iops=8e6), DesignSpace("dell-r7525", axes, max_drives=24))
    ax = p.plot(hue="drive.model")
    labels = ax.get_legend_handles_labels()[1]
    assert any(lb.startswith("Pareto front") for lb in labels) and "drive.model=samsung-pm1743" in labels
    assert ax.get_xlabel() == "drives" and "%" in ax.get_ylabel()
    ax.figure.savefig(tmp_path / "plan.png")
    plt.close(ax.figure)
