"""The catalog's calibrated switch parameters are what nvmemodel.calibrate computes from the
quoted sentences (data/whitepapers/anchors.csv) — not hand-typed numbers."""

import csv
import pathlib

import pytest

import nvmemodel as nm
from nvmemodel import calibrate

ROOT = pathlib.Path(__file__).parents[1]
with (ROOT / "data" / "whitepapers" / "anchors.csv").open(encoding="utf-8") as fh:
    ANCHOR = {row["id"]: float(row["value_si"]) for row in csv.DictReader(fh)}


def test_810_efficiency():
    # stored to 4 decimals in switches.csv
    expected = calibrate.lenovo_810_efficiency(ANCHOR["lenovo-810-sr-cap"])
    assert nm.get_switch("lenovo-810-4p").efficiency == pytest.approx(expected, abs=5e-5)


def test_810_per_command():
    expected = calibrate.lenovo_810_per_command_s(ANCHOR["lenovo-810-rr-cap"])
    assert nm.get_switch("lenovo-810-4p").per_command_s == pytest.approx(expected, abs=5e-13)  # 3 decimals of ns


def test_1610_per_command():
    expected = calibrate.lenovo_1610_per_command_s(ANCHOR["lenovo-switch-loss"])
    assert nm.get_switch("lenovo-1610-4p").per_command_s == pytest.approx(expected, abs=5e-12)  # 2 decimals of ns


def test_calibration_moves_with_its_assumptions():
    # With MPS 128 the same 6,200 MB/s needs a smaller loss (docs/physics.md §7.2: 0.935 vs 0.861).
    assert calibrate.lenovo_810_efficiency(pcie=nm.PcieConfig(mps=128)) == pytest.approx(0.935, abs=0.005)
    assert calibrate.lenovo_810_efficiency() == pytest.approx(0.861, abs=0.005)
