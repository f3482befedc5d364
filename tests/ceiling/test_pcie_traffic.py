"""NVMe command traffic per I/O and link ceilings against docs/physics.md §2.2, §3 (derived tables)."""

import numpy as np
import pytest

from nvmemodel import DllpPolicy, NvmeConfig, PcieConfig, Workload, pcie_waterfall
from nvmemodel.ceiling.pcie import io_link_bytes, link_iops

from ..conftest import default_params


def test_4k_read_bytes_physics_table():
    # docs/physics.md §3 "Per 4 KiB random read": upstream 4568 B, downstream 140 B (MPS 256, 64-bit).
    up, down = io_link_bytes(4096, 1.0, 4, default_params())
    assert (float(up), float(down)) == (4568.0, 140.0)


def test_4k_read_mps128():
    # docs/physics.md §3: "With MPS 128 the upstream total is 4952 B."
    up, _ = io_link_bytes(4096, 1.0, 4, default_params(**{"pcie.mps": 128}))
    assert float(up) == 4952.0


@pytest.mark.parametrize("rcb_chunks, expected_down", [(True, 5516.0), (False, 4556.0)])
def test_4k_write_downstream(rcb_chunks, expected_down):
    # docs/physics.md §3 "Per 4 KiB write": 64 B RCB chunks → 5516 B downstream; MPS chunks → 4556 B.
    p = default_params(**{"pcie.rcb_chunks": float(rcb_chunks), "pcie.rcb": 64.0})
    _, down = io_link_bytes(4096, 0.0, 4, p)
    assert float(down) == expected_down


def test_4k_write_upstream_requests():
    # MRRS 512: 8 MRd of 24 B for the data, plus SQE MRd, CQE, MSI-X = 192 + 24 + 40 + 24.
    up, _ = io_link_bytes(4096, 0.0, 4, default_params())
    assert float(up) == 280.0


def test_128k_read_efficiency():
    # docs/physics.md §3: "128 KiB read ... Upstream efficiency 0.9135 at MPS 256" (printed to 4 digits).
    up, down = io_link_bytes(131072, 1.0, 4, default_params())
    assert 131072 / float(up) == pytest.approx(0.9135, abs=1e-4)  # 0.91357, printed truncated
    # the PRP list (31 entries = 248 B) comes back downstream as one CplD
    assert float(down) == 140.0 + 248 + 20


def test_mixed_is_the_weighted_mean():
    p = default_params()
    r = np.array(io_link_bytes(8192, 1.0, 4, p))
    w = np.array(io_link_bytes(8192, 0.0, 4, p))
    m = np.array(io_link_bytes(8192, 0.7, 4, p))
    assert np.allclose(m, 0.7 * r + 0.3 * w)


@pytest.mark.parametrize("gen, mps, expected_m", [
    (3, 256, 0.86), (4, 256, 1.72), (5, 256, 3.45), (3, 128, 0.80), (4, 128, 1.59), (5, 128, 3.18),
])
def test_4k_read_link_ceiling_per_x4(gen, mps, expected_m):
    # docs/physics.md §3 "4K-read PCIe ceiling per x4 drive" (pure byte ceilings: no SKP, no DLLPs),
    # printed to 2 decimals in M IOPS: half a unit in the last place.
    p = default_params(**{"pcie.mps": float(mps), "pcie.skp": 0.0, "pcie.dllp": 0.0})
    assert float(link_iops(gen, 4, 4096, 1.0, p)) / 1e6 == pytest.approx(expected_m, abs=5e-3)


def test_posted_write_efficiency_limit():
    # docs/physics.md §2.2: eff_wr → MPS/(MPS+24) for S ≫ MPS: 0.8421, 0.9143, 0.9552.
    for mps, eff in ((128, 0.8421), (256, 0.9143), (512, 0.9552)):
        S = 64 * 2**20
        up, _ = io_link_bytes(S, 1.0, 4, default_params(**{"pcie.mps": float(mps), "nvme.sgl": 1.0}))
        assert S / float(up) == pytest.approx(eff, abs=1e-4)


def test_flit_mode_efficiency():
    # docs/physics.md §2.2 flit mode (derived): (236/256) × MPS/(MPS + 16) = 0.8194, 0.8676, 0.8939.
    for mps, eff in ((128, 0.8194), (256, 0.8676), (512, 0.8939)):
        S = 64 * 2**20
        p = default_params(**{"pcie.mps": float(mps), "nvme.sgl": 1.0})
        x = float(link_iops(6, 4, S, 1.0, p)) * S
        assert x / (64e9 * 4 / 8) == pytest.approx(eff, abs=1e-4)


def test_dllp_policies_order():
    # none ≥ width-scaled ≥ pcie-model, for a read stream on Gen3 x8 at MPS 256.
    got = []
    for policy in DllpPolicy:
        p = default_params(**{"pcie.dllp": PcieConfig(dllp=policy).parameters()["pcie.dllp"]})
        got.append(float(link_iops(3, 8, 131072, 1.0, p)))
    assert got[0] > got[1] > got[2]
    # pcie-model DLLP tables: Gen3 x8 MPS 256 TLP bandwidth 63.015 × (1 − 0.0814) Gb/s (docs/physics.md §2.4)
    assert got[0] / got[2] == pytest.approx(1 / (1 - 0.0788), rel=2e-3)  # 0.0814 includes SKP 0.0026


def test_waterfall_dell():
    # Dell R7525 per drive: raw Gen4 x4 = 7.877 GB/s; final = 80.20 GiB/s / 12 (docs/physics.md §7.1, + SKP).
    wf = pcie_waterfall(4, 4, Workload("read", "128K"))
    assert list(wf["bytes_per_s"]) == sorted(wf["bytes_per_s"], reverse=True)
    assert wf["bytes_per_s"].iloc[1] == pytest.approx(7.8769e9, rel=1e-4)
    assert wf["bytes_per_s"].iloc[-1] * 12 / 2**30 == pytest.approx(80.20, rel=1e-3)
    assert 0.9 < wf["fraction_of_raw"].iloc[-1] < 0.92


def test_batching_reduces_control_bytes():
    p1 = default_params()
    p2 = default_params(**{"nvme.sqes_per_fetch": 8.0, "nvme.cqes_per_write": 4.0, "nvme.msix_per_io": 0.0,
                           "nvme.sq_doorbells_per_io": 0.125, "nvme.cq_doorbells_per_io": 0.125})
    assert float(io_link_bytes(4096, 1.0, 4, p2)[0]) < float(io_link_bytes(4096, 1.0, 4, p1)[0])
    assert NvmeConfig(msix_per_io=0).msix_per_io == 0
