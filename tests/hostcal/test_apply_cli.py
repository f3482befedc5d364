"""--profile / --costs in every command that takes them (sweep, discover, ceilings with groups, fit), on a SYNTHETIC
profile (not a measurement: 12,345 cycles is chosen to be easy to find in the output and to move the CPU ceiling)."""

from __future__ import annotations

import json
import pathlib

import pytest

import nvmemodel as nm
from nvmemodel.cli import main
from nvmemodel.hostcal.measure import calibrate_in_temp

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
LSPCI = DATA / "lspci" / "synthetic-dell-r730-p3700_vvv.txt"


@pytest.fixture()
def profile(tmp_path) -> str:
    doc = {"schema": "nvmemodel.host-profile/1", "created": "synthetic", "host": {"clock_hz": 2e9},
           "fio": {"version": "fio-synthetic"},
           "steps": [{"step": "libaio-device", "stack": "libaio", "ioengine": "libaio", "scope": "device",
                      "target": "t", "direction": "read", "block_size_bytes": 4096, "iodepth": 8, "runs": [{}],
                      "cycles_per_io": {"median": 12345.0, "min": 12000.0, "max": 12500.0}}]}
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_sweep_charges_the_profile_and_says_so(profile, capsys):
    assert main(["sweep", "--preset", "dell-r7525", "--drives", "24", "--grid", "workload.io_stack=libaio,io_uring",
                 "--profile", profile]) == 0
    out, err = capsys.readouterr()
    rows = {line.split(",")[0]: float(line.split(",")[2]) for line in out.splitlines()[1:]}
    assert rows["libaio"] == pytest.approx(128 * 2.25e9 / 12345, rel=1e-9)  # 2 x 64 cores x 2.25 GHz
    assert "libaio: 12,345 cycles per I/O (measured: here by nvmemodel calibrate" in err
    base = nm.sweep(nm.preset("dell-r7525"), nm.Workload("randread", "4K"), drives=[24],
                    grid={"workload.io_stack": ["libaio"]}, profile=profile)
    assert float(base.iops[0, 0]) == pytest.approx(rows["libaio"], rel=1e-9)


def test_discover_and_groups_print_the_measured_cost(profile, capsys):
    assert main(["discover", "--lspci", str(LSPCI), "--profile", profile]) == 0
    assert "libaio: 12,345 cycles per I/O" in capsys.readouterr().out
    assert main(["ceilings", "--preset", "dell-r7525", "--profile", profile, "--drives", "16",
                 "--group", "drive=samsung-pm1733-u2,count=8", "--group", "drive=intel-p3700-800gb,count=8"]) == 0
    assert "libaio: 12,345 cycles per I/O" in capsys.readouterr().out


def test_fit_refuses_costs_without_a_model(profile, capsys):
    assert main(["fit", str(DATA / "fit" / "local" / "qd"), "--x", "iodepth", "--profile", profile]) == 2
    assert "--preset or --topology too" in capsys.readouterr().err
    with pytest.raises(nm.ParameterError, match="a topology= too"):
        nm.fit(nm.read_results(str(DATA / "fit" / "local" / "qd")), x="iodepth", profile=profile)


def test_without_fio_the_notebook_helper_says_so():
    profile, said = calibrate_in_temp(8, fio="no-such-fio-here")
    assert profile is None and said.startswith("Not calibrated: fio is not installed here")


def test_a_host_checks_its_measured_costs():
    host = nm.get_host("amd-epyc-7742")
    with pytest.raises(nm.ParameterError, match="host.cycles_per_io"):
        host.replace(stack_costs=(("libaio", -1.0, "measured: x"),))
    with pytest.raises(nm.ParameterError, match="io_stack"):
        host.replace(stack_costs=(("no-such-stack", 9000.0, "measured: x"),))
    measured = host.replace(stack_costs=(("libaio", 9000.0, "measured: here, a test"),))
    assert measured.cycles_for(nm.IoStack.LIBAIO) == 9000.0 and measured.cycles_for(nm.IoStack.PSYNC) == 17300.0
    assert measured.sources("libaio")["host.cycles_per_io"].status == "measured"
    assert nm.with_host(nm.preset("dell-r7525").replace(host=measured), "intel-xeon-platinum-8380").host \
        .cycles_for(nm.IoStack.LIBAIO) == 9000.0  # the user's measurement stays with --host


def test_a_plan_from_python_says_which_costs_were_measured(profile):
    result = nm.plan(nm.Target(nm.Workload("randread", "4K"), iops=40e6), "dell-r7525", profile=profile)
    assert any(line.startswith("host CPU cost per I/O measured on your machine: libaio: 12,345 cycles")
               for line in result.to_dict()["notes"])
    assert "libaio: 12,345 cycles per I/O (measured: here by nvmemodel calibrate" in result.explain(top=1)
