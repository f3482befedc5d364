"""PCIe spec facts against docs/physics.md §1 (per-lane table) and §2.4 (DLLP overhead table)."""

import numpy as np
import pytest

from nvmemodel import Gen, ParameterError
from nvmemodel.standards import pcie


# docs/physics.md §1 table "raw GB/s per lane" and x4/x8/x16 columns (Gen1-5 from encodings;
# Gen6/7 with the Linux-kernel 1/1 convention, i.e. before the FLIT TLP share).
@pytest.mark.parametrize("gen, per_lane, x4, x8, x16", [
    (1, 0.250, 1.000, 2.000, 4.000), (2, 0.500, 2.000, 4.000, 8.000), (3, 0.98462, 3.938, 7.877, 15.754),
    (4, 1.96923, 7.877, 15.754, 31.508), (5, 3.93846, 15.754, 31.508, 63.015), (6, 8.0, 32.0, 64.0, 128.0),
    (7, 16.0, 64.0, 128.0, 256.0),
])
def test_raw_rate_table(gen, per_lane, x4, x8, x16):
    conv = pcie.FlitConvention.LINUX_KERNEL
    for lanes, expected in ((1, per_lane), (4, x4), (8, x8), (16, x16)):
        # the table prints 3 decimals (5 significant digits per lane): half a unit in the last place
        tol = 5e-6 if lanes == 1 else 5e-4
        assert pcie.raw_bytes_per_s(gen, lanes, flit=conv) / 1e9 == pytest.approx(expected, abs=tol)


def test_flit_conventions_differ_and_are_named():
    # docs/physics.md §1: Gen6 x1 carries 7.375 GB/s of TLP bytes (236/256); pcie-model 242/256; kernel 1/1.
    got = {c: float(pcie.raw_bytes_per_s(6, 1, flit=c)) / 1e9 for c in pcie.FlitConvention}
    assert got[pcie.FlitConvention.TLP_BYTES] == pytest.approx(7.375)
    assert got[pcie.FlitConvention.PCIE_MODEL] == pytest.approx(8 * 242 / 256)
    assert got[pcie.FlitConvention.LINUX_KERNEL] == pytest.approx(8.0)


@pytest.mark.parametrize("text, gen", [(4, Gen.GEN4), ("gen4", Gen.GEN4), ("Gen5", Gen.GEN5), ("4.0", Gen.GEN4),
                                       ("PCIe 3.0", Gen.GEN3), (Gen.GEN6, Gen.GEN6)])
def test_gen_parse(text, gen):
    assert Gen.parse(text) is gen


@pytest.mark.parametrize("bad", [0, 9, "gen9", "fast", -1])
def test_gen_parse_rejects(bad):
    with pytest.raises(ParameterError, match=r"gen=.*PCIe generation 1\.\.7"):
        Gen.parse(bad)


# docs/physics.md §2.4 table: pcie-model ACK+FC+SKP (Gen3, per direction) and the width-scaled ACK+FC.
@pytest.mark.parametrize("width, pm128, pm256, ws128, ws256", [
    (1, 5.06, 3.39, 4.80, 3.12), (4, 9.73, 7.74, 2.37, 1.87), (8, 10.08, 8.14, 1.23, 0.99), (16, 11.37, 9.78, 0.69, 0.60),
])
def test_dllp_overhead_table(width, pm128, pm256, ws128, ws256):
    for mps, pm, ws in ((128, pm128, ws128), (256, pm256, ws256)):
        interval = pcie.dllp_interval_symbols(3, width, mps)
        ack_fc = 2 * pcie.DLLP_BYTES / interval
        # the table is printed to 0.01 percentage points
        assert 100 * (ack_fc + 4 / 1538) == pytest.approx(pm, abs=0.006)
        assert 100 * ack_fc / width == pytest.approx(ws, abs=0.006)


def test_gen4_to_7_dllp_tables_copy_gen3():
    # pcie-model copies Gen3's tables to Gen4-7 (docs/physics.md §2.4); we say so and do the same.
    assert np.array_equal(pcie.ACK_LIMIT_SYMBOLS[4], pcie.ACK_LIMIT_SYMBOLS[3])
    assert np.array_equal(pcie.ACK_LIMIT_SYMBOLS[7], pcie.ACK_LIMIT_SYMBOLS[3])
