"""``nvmemodel fit --host / --drive / --set`` (issue 31 item 4): the machine measured, told as ``ceilings`` is told
(one parsing path: cli/ceilings.system_overrides), giving the fit the Python API gives with that topology."""

from __future__ import annotations

import json
import pathlib

import pytest

import nvmemodel as nm
from nvmemodel.cli import main

QD = str(pathlib.Path(__file__).parents[1] / "data" / "fit" / "local" / "qd")  # real fio 3.33 QD sweep (SOURCES.md)


def _fit_json(capsys, *options) -> dict:
    assert main(["fit", QD, "--x", "iodepth", "--preset", "dell-r7525", *options, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_host_drive_and_set_give_the_fit_of_that_machine(capsys):
    cli = _fit_json(capsys, "--host", "intel-xeon-platinum-8380:1", "--drive", "samsung-pm1743",
                    "--set", "drive.read_latency_s=100us")
    topo = nm.with_host(nm.preset("dell-r7525"), nm.get_host("intel-xeon-platinum-8380", sockets=1))
    topo = topo.replace(drive=nm.get_drive("samsung-pm1743").replace(read_latency_s=100e-6))
    api = nm.fit(QD, x="iodepth", topology=topo)
    assert cli["explanation"] == api.explain()
    # the queue-depth ceiling at QD 128 is 128 / 100 µs = 1.28 M IOPS (Little's law with the latency set);
    # the host's 40 cores (one Xeon 8380, Intel ARK) are what fio's CPU share is put against
    assert "1.28 M IOPS" in cli["explanation"] and "the host's 40 cores" in cli["explanation"]
    plain = _fit_json(capsys)
    assert "1.28 M IOPS" not in plain["explanation"] and "the host's 40 cores" not in plain["explanation"]


@pytest.mark.parametrize("argv, words", [
    (["--set", "drive.read_latency_s=100us"], "--preset or --topology too"),
    (["--preset", "dell-r7525", "--set", "workload.iodepth=4"], "fit takes the workload from the runs"),
    (["--preset", "dell-r7525", "--set", "drive.read_latency=100us"], "drive.read_latency"),
    (["--preset", "dell-r7525", "--host", "intel-xeon-platinum-9999"], "unknown host"),
    (["--preset", "dell-r7525", "--drive", "no-such-drive"], "no-such-drive"),
    (["--preset", "dell-r7525", "--host", "intel-xeon-platinum-8380", "--set", "host.sockets=2"],
     "--host NAME:SOCKETS"),
])
def test_bad_machine_options_are_one_line(capsys, argv, words):
    assert main(["fit", QD, "--x", "iodepth", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
