"""``nvmemodel plan --group …`` goes through the one planner (nvmemodel/plan/solve.py): latency bounds, prices and
``--rank cost`` as for a single drive model, the same numbers as ``nm.plan`` on the same mixed topology, and what a
mixed plan refuses said of the option typed (one ``nvmemodel: error:`` line, exit 2)."""

from __future__ import annotations

import json

import pytest

import nvmemodel as nm
from nvmemodel import cli

GROUPS = ["--group", "drive=intel-p3700-800gb,count=8", "--group", "drive=intel-p5800x-800gb,count=8"]
DELL = nm.preset("dell-r7525")
TOPO = nm.MixedTopology("dell-r7525 (mixed)", DELL.host, (nm.DriveGroup("intel-p3700-800gb", 8),
                                                          nm.DriveGroup("intel-p5800x-800gb", 8)),
                        extras=dict(DELL.extras))


def _json(argv, capsys) -> dict:
    assert cli.main(["plan", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_latency_bound_on_groups_is_checked_as_in_python(capsys):
    # 4K random reads at QD32 per drive, every drive saturated: the mean latency is 32 x n / X; 50 us needs the
    # P5800Xs after the 8 P3700s: 320 / (8 x 460 K + 2 x 1.5 M) = 47.9 us at 10 drives (2 M IOPS alone take 5)
    doc = _json(["--iops", "2M", "--latency", "50us", *GROUPS], capsys)
    best = doc["configurations"][0]
    assert best["drives"] == 10  # the JSON gives the latency to 6 digits (pandas to_json)
    assert best["4K randread|latency"] == pytest.approx(320 / 6.68e6, rel=1e-5)
    py = nm.plan(nm.Target(nm.Workload("randread", "4K"), iops=2e6, latency_s=50e-6), nm.DesignSpace(TOPO, {})).best
    assert best["4K randread|ceiling"] == pytest.approx(float(py["4K randread|ceiling"]), rel=1e-12)


def test_prices_and_rank_cost_on_groups(capsys):
    # 5 P3700s meet 2 M IOPS (5 x 460 K) on the preset's 2 sockets: 5 x 600 + 2 x 4,000
    doc = _json(["--iops", "2M", *GROUPS, "--rank", "cost", "--price", "drive.intel-p3700-800gb=600", "--price",
                 "drive.intel-p5800x-800gb=2400", "--price", "socket=4000"], capsys)
    best = doc["configurations"][0]
    assert (best["drives"], best["cost"], best["cost.drives"], best["cost.sockets"]) == (5, 11000, 3000, 8000)


@pytest.mark.parametrize(("extra", "said"), [
    (["--price", "socket.amd-epyc-7742=600"], ("--price='socket.amd-epyc-7742=600' is not allowed: expected "
                                               "socket=PRICE with --group")),
    (["--rank", "cost", "--price", "drive.intel-p3700-800gb=600"], "no price for intel-p5800x-800gb"),
])
def test_a_price_a_mixed_plan_cannot_use_is_one_error(capsys, extra, said):
    assert cli.main(["plan", "--iops", "2M", *GROUPS, *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: ") and err.count("\n") == 1 and said in err


def test_a_latency_bound_on_a_mirror_is_refused_naming_the_option(capsys):
    argv = ["plan", "--preset", "ion-sr71mach5-linux", "--write-iops", "300K", "--latency", "1ms", "--group",
            "drive=samsung-pm1733-u2,count=4,name=a", "--group", "drive=intel-p3700-800gb,count=4,mirror=a",
            "--axis", "raid.level=raid10"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("nvmemodel: error: --latency='1ms' is not allowed") and err.count("\n") == 1
    assert "mirror across groups" in err and "Traceback" not in err


@pytest.mark.parametrize(("option", "sockets", "feasible"), [(["--sockets", "1"], 1, 0), (["--sockets", "2"], 2, 1),
                                                             (["--axis", "host.sockets=1"], 1, 0)])
def test_one_socket_count_with_groups_is_the_topologys(capsys, option, sockets, feasible):
    # 16 M 4K reads at the preset's 10,000 cycles per I/O: one EPYC 7742 socket's CPU gives 64 x 2.25 GHz / 10,000
    # = 14.4 M (the drives 19.4 M): met on two sockets, not on one — as on the Python topology with that host
    from nvmemodel.topology.host import with_sockets

    groups = ["--group", "drive=samsung-pm1733-u2,count=8", "--group",
              "drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,switches=2"]
    doc = _json(["--iops", "16M", *groups, *option], capsys)
    host = with_sockets(DELL.host, sockets)
    topo = nm.MixedTopology("py", host, (nm.DriveGroup("samsung-pm1733-u2", 8),
                                         nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797",
                                                       switch_count=2)), extras=dict(DELL.extras))
    py = nm.plan(nm.Target(nm.Workload("randread", "4K"), iops=16e6), nm.DesignSpace(topo, {}))
    assert doc["feasible"] == py.feasible == feasible
    if feasible:
        assert doc["configurations"][0]["drives"] == int(py.best["drives"])
    else:
        assert "host_cpu" in doc["rejected"][0]["reason"] and "14.40 M IOPS" in doc["rejected"][0]["reason"]
