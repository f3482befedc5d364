"""Notebook tests: papermill runs with quick=True asserting on the key numbers they write,
and the stored-output policy (see nvmemodel/reproduce.py). nbval re-runs the notebooks and
compares their checked outputs (``pytest --nbval-lax notebooks``, part of the test command)."""

import json
import pathlib

import nbformat
import pytest

from nvmemodel import reproduce

NOTEBOOKS = pathlib.Path(__file__).parents[1] / "notebooks"


def _run(tmp_path, stem):
    pytest.importorskip("papermill")
    (done,) = reproduce.run_notebooks(tmp_path, quick=True, names=[stem], progress=False)
    return json.loads((done.parent / "key_numbers.json").read_text())


def _check_01(key):
    # Dell DfD: 80.41 GiB/s measured at 12 drives, ±2 %; 94.5 GB/s theoretical, ±0.5 %; "17M", ±5 %.
    assert key["dell_128k_12_GiBps"] == pytest.approx(80.41, rel=0.02)
    assert key["dell_raw_GBps"] == pytest.approx(94.5, rel=5e-3)
    assert key["dell_4k_12_MIOPS"] == pytest.approx(17, rel=0.05)
    assert key["dell_128k_12_binding"] == "pcie_link"
    # LP0865: 810-4P flat at 6,200 MB/s from 2 drives (±3 %), < 1.3 M IOPS, 1610-4P up to 30 % lower.
    assert key["lenovo_810_256k_MBps"][1:] == pytest.approx([6200] * 3, rel=0.03)
    assert key["lenovo_810_4k_KIOPS_max"] <= 1300.0
    assert key["lenovo_1610_4k_loss_at_4"] == pytest.approx(0.30, abs=0.01)
    # Broadcom: 2,912 K ceiling at RoCE MTU 4096 (docs/physics.md §7.3), fabric-bound.
    assert key["stingray_4k_KIOPS"] == pytest.approx(2912, abs=1)
    assert key["stingray_4k_binding"] == "fabric"


def _check_02(key):
    # docs/physics.md §7.1: MPS 256 predicts 80.20 GiB/s with SKP (measured 80.41: +0.26 %); MPS 128 73.88;
    # pcie-model DLLPs 74.19 (x4, MPS 256); MPS 512 83.79. Table values to ±0.1 %.
    d = key["dell_GiBps_by_assumption"]
    assert d["MPS 256, width-scaled DLLP"] == pytest.approx(80.20, rel=1e-3)
    assert d["MPS 128"] == pytest.approx(73.88, rel=1e-3)
    assert d["MPS 512"] == pytest.approx(83.79, rel=1e-3)
    assert d["MPS 256, pcie-model DLLP"] == pytest.approx(74.19, rel=1e-3)


def _check_03(key):
    # With the Dell preset's assumed CPU, libaio saturates it before 24 drives, SPDK never does.
    first = key["first_cpu_bound"]
    assert first["spdk_4K"] is None
    assert first["libaio_4K"] is not None and first["windows_storport_4K"] < first["libaio_4K"]


def _check_04(key):
    # tests/data holds 5 readable results (3 fio JSON, 2 DiskSpd XML) → 11 rows; 5 files skipped.
    assert (key["files_read"], key["rows"], key["skipped"]) == (5, 11, 5)
    # Little's law on the fio-3.1 QD16 run: IOPS × mean latency ≈ 16 in flight (±5 %: submission gaps)
    assert key["fio31_in_flight"] == pytest.approx(16, rel=0.05)
    # its per-interval log agrees with the JSON summary (±1 %)
    assert key["log_mean_iops"] == pytest.approx(key["fio31_iops"], rel=0.01)


CHECKS = {"01_whitepaper_ceilings": _check_01, "02_pcie_overheads": _check_02, "03_capacity_planning": _check_03,
          "04_reading_results": _check_04}


def test_every_notebook_has_a_test():
    assert sorted(p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) == sorted(CHECKS)


@pytest.mark.notebook
@pytest.mark.parametrize("stem", sorted(CHECKS))
def test_notebook_key_numbers(tmp_path, stem):
    CHECKS[stem](_run(tmp_path, stem))


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_stored_output_policy(path):
    nb = nbformat.read(path, as_version=4)
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, "exactly one cell tagged 'parameters'"
    assert "quick" in tagged[0].source and "output_dir" in tagged[0].source
    checked = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if reproduce.CHECK_MARK in cell.source:
            checked += 1
            assert cell.outputs, "a checked cell keeps its stored output (nvmemodel reproduce --refresh)"
            assert all(o["output_type"] == "stream" for o in cell.outputs)
        else:
            assert not cell.outputs, "only '# NBVAL_CHECK_OUTPUT' cells keep outputs"
    assert checked >= 1
    assert "key_numbers.json" in nb.cells[-1].source
