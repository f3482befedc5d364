"""Planner answers that hide nothing (issue 19 item 4): cost printed and counted per socket, drive and switch;
identical answers merged with their alternatives listed; latency checked with the model's Little's-law latency,
unknown latency never counted as met; the drive-count limit named by its parameters; the figure's title."""

from __future__ import annotations

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.errors import ParameterError
from nvmemodel.plan import STANDARD_WORKLOADS as W
from nvmemodel.plan import DesignSpace, Target, plan

RR4K = W["4k-randread"]


# ---------------------------------------------------------------------------------------------- cost
def test_a_socket_price_makes_two_sockets_cost_more():
    space = DesignSpace("dell-r7525", {"host.sockets": [2, 1]}, max_drives=24)
    p = plan(Target(RR4K, iops=10e6), space, rank="cost", prices={"socket": 4000, "drive": 900})
    # same 7 drives (1.45 M each) either way; the socket price alone tells them apart, cheapest first
    assert list(p.frame["host.sockets"]) == [1.0, 2.0] and list(p.frame["drives"]) == [7, 7]
    assert list(p.frame["cost"]) == [7 * 900 + 4000, 7 * 900 + 8000]
    assert list(p.frame["cost.sockets"]) == [4000, 8000] and list(p.frame["cost.drives"]) == [6300, 6300]
    text = p.explain()
    assert "cost 10,300 (7 drives 6,300 + sockets 4,000)" in text and "cost 14,300" in text
    assert text.index("cost 10,300") < text.index("cost 14,300")


def test_switches_are_priced_only_where_a_configuration_has_them():
    space = DesignSpace("lenovo-sr850-direct", {"connection": ["direct-x4", "lenovo-1610-4p"],
                                                 "switch.count": [1, 2]}, max_drives=8)
    p = plan(Target(W["128k-read"], bytes_per_s=5e9), space, rank="cost",
             prices={"drive": 1000, "switch": {"lenovo-1610-4p": 500}})
    by = {(str(r["connection"]), tuple(p.choices(i)["switch.count"])): r["cost"] for i, r in p.frame.iterrows()}
    # direct attach: the switch count changes nothing (one row for both counts) and costs nothing
    direct = [c for (conn, counts), c in by.items() if conn == "direct-x4"]
    assert len(direct) == 1 and direct[0] == 2 * 1000  # two drives at 3.1 GB/s
    assert by["lenovo-1610-4p", (1.0,)] == 2 * 1000 + 500 and by["lenovo-1610-4p", (2.0,)] == 2 * 1000 + 2 * 500


def test_cost_is_printed_by_the_cli(capsys):
    argv = ["plan", "--iops", "10M", "--sockets", "1,2", "--max-drives", "24", "--rank", "cost",
            "--price", "socket=4000", "--price", "drive=900"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "Prices: socket 4,000, drive 900." in out
    lines = [line for line in out.splitlines() if "cost " in line]
    assert "host.sockets=1 socket:" in lines[0] and "cost 10,300" in lines[0]
    assert "host.sockets=2 sockets" in lines[1] and "cost 14,300" in lines[1]


@pytest.mark.parametrize("prices, match", [
    ({"drive": {"samsung-pm1743": 1200}}, "no price for samsung-pm1733-u2"),
    ({"drive": -1}, "prices\\['drive'\\]"),
    ({"gpu": 3}, "items among drive, switch, socket"),
    ({"socket": {"a": 1}}, "one price per socket"),
])
def test_prices_that_leave_a_cost_unknown_are_refused(prices, match):
    space = DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1743", "samsung-pm1733-u2"]}, max_drives=24)
    with pytest.raises(ParameterError, match=match):
        plan(Target(RR4K, iops=1e6), space, rank="cost", prices=prices)


# ---------------------------------------------------------------------------------------------- merging
def test_identical_answers_are_one_row_listing_the_alternatives():
    # Gen4 drives on a Gen4 or a Gen5 host: the link runs at Gen4 either way; the switch count of a
    # direct-attached configuration changes nothing — four configurations, one answer
    space = DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1733-u2"], "host.gen": [4, 5],
                                       "switch.count": [1, 2]}, max_drives=24)
    p = plan(Target(RR4K, iops=5e6), space)
    assert p.feasible == 4 and len(p.frame) == 1
    row = p.frame.iloc[0]
    assert row["configurations"] == 4 and row["drives"] == 4
    assert row["alternatives"] == "host.gen: Gen4, Gen5; switch.count: 1 switch, 2 switches"
    assert p.choices(0) == {"drive.model": ["samsung-pm1733-u2"], "host.gen": [4, 5], "switch.count": [1, 2]}
    assert "host.gen=Gen4 or Gen5" in p.explain() and "(4 configurations)" in p.explain()
    # unmerged, the same four configurations with the same numbers
    each = plan(Target(RR4K, iops=5e6), space, merge_identical=False).frame
    assert len(each) == 4 and set(each["drives"]) == {4} and set(each["configurations"]) == {1}


def test_answers_that_differ_in_anything_stay_apart():
    # a Gen5 drive is faster on a Gen5 host: different ceilings, two rows
    space = DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1743"], "host.gen": [4, 5]}, max_drives=24)
    p = plan(Target(RR4K, iops=5e6), space)
    assert len(p.frame) == 2 and list(p.frame["configurations"]) == [1, 1]
    assert list(p.frame["alternatives"]) == ["", ""]


def test_a_merged_row_that_is_not_a_whole_product_says_so():
    # psync binds on the CPU with 8 cores, spdk does not: (8 cores, spdk), (64, psync), (64, spdk) give the
    # same drive-bound answer, (8, psync) does not — 3 of the 4 combinations
    # (the preset calibrates its own cycles per I/O, so the stacks enter as their default cycles: psync, spdk)
    space = DesignSpace("dell-r7525", {"host.cores_per_socket": [8, 64], "host.cycles_per_io": [17300.0, 245.0]},
                        max_drives=24)
    p = plan(Target(RR4K, iops=4e6), space)
    top = p.frame.iloc[0]
    assert top["configurations"] == 3
    assert top["alternatives"].startswith("3 of the 4 combinations of host.cores_per_socket")
    assert "(3 configurations of these 4 combinations)" in p.explain()


# ---------------------------------------------------------------------------------------------- latency
def _stack_s(preset="dell-r7525", workload=RR4K):
    params = nm.preset(preset).parameters(workload)
    return params["host.cycles_per_io"] / params["host.clock_hz"]


def test_latency_is_the_models_littles_law_latency():
    # Intel P3700: 20 us QD1 read latency (catalog), 460 K IOPS. At QD1 per drive the queue-depth ceiling is
    # 1 / 20 us = 50 K per drive: 200 K IOPS needs 4 drives and each I/O takes R0 = 20 us + the stack's CPU time
    qd1 = nm.Workload("randread", "4K", iodepth=1)
    space = DesignSpace("dell-r7525", {"drive.model": ["intel-p3700-800gb"]}, max_drives=24)
    p = plan(Target(qd1, iops=2e5, latency_s=50e-6), space)
    row = p.best
    assert row["drives"] == 4 and row["status"] == "met"
    assert row["4K randread|latency"] == pytest.approx(20e-6 + _stack_s(), rel=1e-12)
    # at QD32 per drive the drives saturate: R = N / X = 32 x 5 / 2.3 M = 69.6 us (> R0)
    p32 = plan(Target(RR4K, iops=2e6, latency_s=100e-6), space)
    assert p32.best["drives"] == 5
    assert p32.best["4K randread|latency"] == pytest.approx(32 * 5 / (5 * 460e3), rel=1e-12)
    # a 60 us bound fails it, and the reason gives the latency
    miss = plan(Target(RR4K, iops=2e6, latency_s=60e-6), space)
    assert miss.feasible == 0 and "latency at QD32 per drive with 5 drives is 70 µs" in miss.rejected["reason"][0]


def test_unknown_latency_is_unverified_never_met():
    # Samsung PM1743: no QD1 latency in the catalog. It meets the IOPS target but cannot be said to meet 200 us
    space = DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1743", "intel-p3700-800gb"]}, max_drives=24)
    p = plan(Target(RR4K, iops=2e6, latency_s=200e-6), space)
    assert list(p.frame["drive.model"]) == ["intel-p3700-800gb"] and p.feasible == 1
    assert list(p.unverified["drive.model"]) == ["samsung-pm1743"] and p.n_unverified == 1
    assert np.isnan(p.unverified["4K randread|latency"][0]) and list(p.unverified["status"]) == ["unverified"]
    assert (p.frame["status"] == "met").all() and not p.frame["4K randread|latency"].isna().any()
    text = p.explain()
    assert "1 meets every target." in text and "1 more meets every throughput target but is unverified" in text
    assert "latency unknown" in text
    # with nothing else, nothing meets the targets
    only = plan(Target(RR4K, iops=2e6, latency_s=200e-6), DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1743"]},
                                                                      max_drives=24))
    assert only.feasible == 0 and len(only.frame) == 0 and only.best is None and only.n_unverified == 1
    # without a latency target the same configuration simply meets the target
    assert plan(Target(RR4K, iops=2e6), DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1743"]})).feasible == 1


def test_cli_latency_bounds_the_iops_targets(capsys):
    argv = ["plan", "--iops", "10M", "--read-bw", "60GB/s", "--latency", "200us", "--max-drives", "24",
            "--drive", "intel-p5800x-800gb,samsung-pm1733-u2"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("Targets: 4K randread: 10 M IOPS, <= 200 us; 128K read: 60 GB/s.")
    assert "drive.model=intel-p5800x-800gb" in out.split("Unverified")[0] and "latency 2" in out
    assert "drive.model=samsung-pm1733-u2" in out.split("Unverified")[1]
    assert cli.main(["plan", "--read-bw", "10GB/s", "--latency", "200us"]) == 2
    assert "an IOPS target to bound" in capsys.readouterr().err


def test_unknown_latency_still_fails_when_littles_law_alone_exceeds_the_bound():
    # 128K reads at QD32 per drive on a PM1743 (13 GB/s): N / X = 32 x 131072 / 13e9 = 323 us at least
    space = DesignSpace("dell-r7525", {"drive.model": ["samsung-pm1743"], "host.gen": [5]}, max_drives=24)
    p = plan(Target(W["128k-read"], bytes_per_s=60e9, latency_s=200e-6), space)
    assert p.feasible == 0 and p.n_unverified == 0
    assert "is at least 323 µs (Little's law" in p.rejected["reason"][0]
    assert p.rejected["missed"][0] == "128K read latency"


def test_a_system_wide_queue_adds_drives_until_the_latency_is_met():
    # one job of QD256 for the whole system: R = 256 / X falls as drives are added; a 100 us bound needs
    # X >= 2.56 M, i.e. 6 P3700s (460 K each), although 1 M IOPS alone needs 3
    wl = nm.Workload("randread", "4K", iodepth=256, per_drive=False)
    space = DesignSpace("dell-r7525", {"drive.model": ["intel-p3700-800gb"]}, max_drives=24)
    assert plan(Target(wl, iops=1e6), space).best["drives"] == 3
    p = plan(Target(wl, iops=1e6, latency_s=100e-6), space)
    assert p.best["drives"] == 6 and p.best["4K randread|latency"] == pytest.approx(256 / (6 * 460e3), rel=1e-12)


# ---------------------------------------------------------------------------------------------- host axis
HOSTS = ["amd-epyc-7742", "amd-epyc-7742:1", "intel-xeon-platinum-8380", "intel-xeon-gold-6248"]


def test_host_axis_equals_the_forward_model_on_each_catalog_host():
    """A 'host' axis replaces the base's host as nm.with_host does: the planner's fewest drives, ceilings and
    binding equal nm.evaluate's on with_host(base, host) over every drive count."""
    from nvmemodel.topology.host import host_from_text

    # 150 GB/s of 128K reads: one EPYC 7742 socket (socket DMA 0.68 x 204.8 = 139 GB/s) and the Gold 6248 (its Gen3
    # links) fall short, the others meet it (80 GB/s failed only the one-socket EPYC under the former 0.38 share)
    targets = [Target(RR4K, iops=12e6), Target(W["128k-read"], bytes_per_s=150e9)]
    space = DesignSpace("dell-r7525", {"host": HOSTS, "workload.io_stack": ["libaio", "spdk"]}, max_drives=24)
    p = plan(targets, space, keep=100, merge_identical=False)
    base = nm.preset("dell-r7525")
    expected = {}
    for host in HOSTS:
        topo = nm.with_host(base, host_from_text(host))
        n = np.arange(1, min(topo.max_drives, 24) + 1)
        for stack in ("libaio", "spdk"):
            curves = [nm.evaluate(topo, t.workload, drives=n, overrides={"workload.io_stack": stack}) for t in targets]
            ok = np.all([c.iops >= t.iops_needed for c, t in zip(curves, targets)], axis=0)
            expected[host, stack] = (int(n[ok][0]), [c.iops[int(n[ok][0]) - 1] for c in curves]) if ok.any() else None
    got = {(str(r["host"]), str(r["workload.io_stack"])): r for _, r in p.frame.iterrows()}
    assert set(got) == {k for k, v in expected.items() if v is not None}
    assert 0 < len(got) < len(expected)  # some hosts meet the targets, some do not
    for key, row in got.items():
        n, iops = expected[key]
        assert row["drives"] == n
        assert row["4K randread|ceiling"] == pytest.approx(iops[0], rel=1e-12)
        assert row["128K read|ceiling"] == pytest.approx(iops[1] * 131072, rel=1e-12)


def test_socket_prices_per_cpu_of_the_host_axis(capsys):
    argv = ["plan", "--iops", "10M", "--host", "amd-epyc-7742,intel-xeon-platinum-8380", "--max-drives", "24",
            "--rank", "cost", "--price", "drive=1000", "--price", "socket.amd-epyc-7742=6950",
            "--price", "socket.intel-xeon-platinum-8380=8100"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "host=amd-epyc-7742: 7 drives, 28 lanes, cost 20,900 (7 drives 7,000 + sockets 13,900)" in out
    assert "host=intel-xeon-platinum-8380: 7 drives, 28 lanes, cost 23,200" in out
    assert cli.main([*argv[:-2]]) == 2  # the Xeon has no price: refused, not costed at 0
    assert "no price for intel-xeon-platinum-8380" in capsys.readouterr().err
    assert cli.main(["plan", "--iops", "1M", "--host", "amd-epyc-0000"]) == 2
    assert "amd-epyc-0000" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------- limits
def test_the_drive_count_error_names_the_parameters_that_set_it(capsys):
    with pytest.raises(ParameterError, match=r"24 = host.sockets 2 × ⌊\(host.lanes_per_socket 80 − "
                                             r"host.reserved_lanes_per_socket 32\) / host.port_lanes 4⌋"):
        nm.evaluate(nm.preset("dell-r7525"), RR4K, drives=[30])
    with pytest.raises(ParameterError, match=r"4 = switch.count 1 × switch.ports 4"):
        nm.evaluate(nm.preset("lenovo-sr850-810-4p"), RR4K, drives=[5])
    assert cli.main(["ceilings", "--drives", "25"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "host.reserved_lanes_per_socket 32" in err


def test_a_planner_miss_names_what_sets_its_drive_count():
    space = DesignSpace("dell-r7525", {"host.sockets": [1]})
    p = plan(Target(RR4K, iops=30e6), space)
    # one EPYC 7742 socket has all 128 lanes (no xGMI); the R7525's 24 bays (96 drive lanes) stay (QA F11)
    assert ("24 drives is the most it can attach: 24 = host.sockets 1 × ⌊(host.lanes_per_socket 128 − "
            "host.reserved_lanes_per_socket 32) / host.port_lanes 4⌋") in p.rejected["reason"][0]
    bays = plan(Target(RR4K, iops=30e6), DesignSpace("dell-r7525", {"host.sockets": [2]}, max_drives=10))
    assert "10 drives is the bays' limit (max_drives; without it, 24 = host.sockets 2" in bays.rejected["reason"][0]


def test_families_with_an_answer_are_not_reported_as_failing():
    # libaio with 4 cores misses 10 M IOPS, libaio with 64 cores meets it: the libaio family is not "failing"
    space = DesignSpace("dell-r7525", {"host.cores_per_socket": [4, 64], "host.cycles_per_io": [8200.0, 245.0]},
                        max_drives=24)  # libaio's and spdk's default cycles (the preset calibrates its own)
    p = plan(Target(RR4K, iops=10e6), space)
    assert p.feasible == 3 and len(p.rejected) == 0
    assert "Families with no configuration" not in p.explain()


# ---------------------------------------------------------------------------------------------- figure
def test_figure_counts_verified_configurations_and_labels_the_front(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    axes = {"drive.model": ["samsung-pm1743", "intel-p3700-800gb", "intel-optane-900p-280gb"], "host.gen": [3, 4, 5],
            "host.sockets": [1, 2]}
    p = plan(Target(RR4K, iops=3e6, latency_s=200e-6), DesignSpace("dell-r7525", axes, max_drives=24))
    assert p.feasible and p.n_unverified
    ax = p.plot(hue="drive.model")
    title = ax.get_title()
    assert title.startswith(f"{p.feasible:,} of {p.evaluated:,} configurations meet every target")
    assert f"{p.n_unverified:,} more unverified" in title and "not counted" in title
    texts = [t.get_text() for t in ax.texts]
    front = p.pareto(("drives", "min_headroom"))
    assert len(texts) == min(len(front), 6) and all(texts)
    # no two answers drawn on the same spot
    points = np.concatenate([c.get_offsets() for c in ax.collections if len(c.get_offsets())
                             and c.get_facecolor().size and c.get_facecolor()[0][3] > 0])
    assert len(np.unique(np.round(points, 9), axis=0)) == len(points)
    ax.figure.savefig(tmp_path / "plan.png")
    plt.close(ax.figure)
