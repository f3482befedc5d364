"""``--gpu`` on ``ceilings`` and ``sweep`` (issue 29 item 5; docs/topologies.md "GPUs on the tree"): the keys set the
gpu.* parameters, the GPU link binds and is named, and bad input is one error line naming ``--gpu`` and the key."""

from __future__ import annotations

import json

import pytest

from nvmemodel.cli import main

BASE = ["ceilings", "--host", "amd-epyc-9654", "--drive", "samsung-pm1743", "--pattern", "read", "--bs", "128K",
        "--drives", "8,24"]
SWITCHED = ["--set", "switch.model=broadcom-pex89144", "--set", "switch.count=2"]


def test_gpus_behind_the_switches_bind_and_are_named(capsys):
    assert main([*BASE, *SWITCHED, "--gpu", "count=4,gen=5,at=switch", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    last = doc["points"][-1]
    assert last["binding"] == "gpu_link"
    assert last["bytes_per_s"] == pytest.approx(229.8e9, rel=1e-3)  # 2 switches x 2 Gen5 x16 GPUs (§12.10)


def test_the_same_gpus_on_root_ports_leave_the_uplinks_binding(capsys):
    assert main([*BASE, *SWITCHED, "--gpu", "count=4,gen=5,at=root_port", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["points"][-1]["binding"] == "switch_uplink"


@pytest.mark.parametrize("gpu, words", [
    ("cnt=1", "--gpu='cnt' is not allowed: expected one of the keys count, gen, lanes, at, remote, efficiency"),
    ("gen=5", "a count=N among the keys"),
    ("count=2,at=nvlink", "--gpu at='nvlink'"),
    ("count=2,remote=1.5", "--gpu remote='1.5'"),
    ("count=1,count=2", "each key once"),
    ("count=1,at=switch", "drives behind a PCIe switch"),
])
def test_bad_gpu_options_are_one_error_line(gpu, words, capsys):
    assert main([*BASE, "--gpu", gpu]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_set_of_what_gpu_gives_is_refused(capsys):
    assert main([*BASE, "--gpu", "count=1", "--set", "gpu.count=2"]) == 2
    assert "no --set of a parameter --gpu gives" in capsys.readouterr().err


def test_sweep_takes_gpu_too(capsys):
    assert main(["sweep", "--host", "amd-epyc-9654", "--drive", "samsung-pm1743", "--pattern", "read", "--bs", "128K",
                 "--drives", "8", "--grid", "gpu.gen=4,5", "--gpu", "count=1,at=root_port", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["binding"] for r in rows] == ["gpu_link", "gpu_link"]
