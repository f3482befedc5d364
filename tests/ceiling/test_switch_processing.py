"""A switch's processing rate without a per-TLP cost: the per-command cost alone (``c + 0 × TLPs`` is ``c``
exactly), kept as one number where it is one, so a sweep's classes gather it (components.GridClasses)."""

import numpy as np

from nvmemodel.ceiling.switch import processing_iops


def _general(block_size, p):  # the formula written out: 1 / (per command + per TLP x TLPs), inf where 0
    tlps = np.ceil(np.asarray(block_size, dtype=float) / p["pcie.mps"]) + 4.0
    proc = p["switch.per_command_s"] + p["switch.per_tlp_s"] * tlps
    with np.errstate(divide="ignore"):
        return np.where(proc > 0, 1.0 / np.where(proc > 0, proc, 1.0), np.inf)


def test_no_per_tlp_cost_gives_the_formulas_numbers_and_stays_one_number():
    sizes = np.array([512.0, 4096.0, 131072.0, 1 << 20])
    for per_command in (np.float64(7.69231e-07), np.float64(0.0), np.array([0.0, 1e-7, 7.69231e-07, 2e-6])):
        p = {"pcie.mps": np.float64(256.0), "switch.per_command_s": per_command, "switch.per_tlp_s": np.float64(0.0)}
        got = processing_iops(sizes, p)
        np.testing.assert_array_equal(np.broadcast_to(got, sizes.shape), _general(sizes, p))
        if np.ndim(per_command) == 0:
            assert np.ndim(got) == 0  # one number, not an array of it
    assert processing_iops(sizes, {"pcie.mps": np.float64(256.0), "switch.per_command_s": np.float64(0.0),
                                   "switch.per_tlp_s": np.float64(0.0)}) == np.inf


def test_a_per_tlp_cost_counts_the_tlps():
    sizes = np.array([4096.0, 131072.0])
    p = {"pcie.mps": np.float64(256.0), "switch.per_command_s": np.float64(1e-7),
         "switch.per_tlp_s": np.array([2e-9, 0.0])}
    np.testing.assert_array_equal(processing_iops(sizes, p), _general(sizes, p))
    assert processing_iops(sizes, p)[0] == 1.0 / (1e-7 + 2e-9 * (4096 / 256 + 4))
