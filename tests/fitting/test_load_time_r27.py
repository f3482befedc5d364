"""Round 27's class HF (``_blind_rounds/round27_hand_read_part2.md``): a table with no latency column got no time per
I/O from load ÷ IOPS (load_time.py). Round 27 is spent: its cases are fitted here.

Counter-cases: a table with a latency (Little's law check instead), paced jobs (the load was not kept outstanding),
a block-size axis.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.wording import fmt_y
from tests.fitting.corpus_score import CORPUS, fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

AZ_NVME = "r27_lisapr629_azure-vm-local-nvme_4k-randread_qd64-1024"
AZ_PREM = "r27_lisapr1424_azure-premium-ssd-rhel83_4k-randread_qd1-64"
ZFS5019 = "r27_zfs5019_4zvols-zfs0657_4k-randwrite_orion-raid0sim_outstanding"
P3600 = "r27_fio406_intel-p3600-gen3-enterprise_512k-seqread_libaio_qd"
VDAQD = "r27_here-vdaqd_vda-ext4-1gfile_libaio-direct_randread4k_iodepth_repeats"


def _claim(fit):
    got = [c for c in fit.claims() if c["kind"] == "time per I/O"]
    return got[0] if got else None


def test_azure_local_nvme_time_per_read_from_depth_over_iops():
    """lisapr629: 0.998 M IOPS at QD64 → 2.94 M at QD1024: 64.1 µs → 349 µs a read (×5.44 for ×16), numjobs unknown."""
    c = _claim(fit_case_id(AZ_NVME))
    p = pd.read_csv(CORPUS / AZ_NVME / "points.csv").sort_values("iodepth")
    t = (p["iodepth"] / p["iops"]).to_numpy(float)
    assert f"{fmt_y(t[0], 's')} at 64" in c["text"] and f"{fmt_y(t[-1], 's')} at 1024" in c["text"]
    assert "at least iodepth ÷ IOPS" in c["text"] and not c["facts"]["load_stated"]
    assert c["facts"]["time_growth"] == pytest.approx(t[-1] / t[0])
    # two phases (round 28 JG): held to QD128 (×1.25), then ×4.37 for ×8 the load — not one blended "×5.44 for ×16"
    assert c["facts"]["verdict"] == "held, then waited" and c["facts"]["held_to"] == 128
    assert "held to 128" in c["text"] and f"×{t[-1] / t[1]:.3g} for ×8 the load" in c["text"]


def test_azure_premium_ssd_time_held_while_the_rate_grew_with_depth():
    """lisapr1424: 2.14 ms at QD1 → 1.69 ms at QD64 (×0.79): a network round trip served side by side."""
    c = _claim(fit_case_id(AZ_PREM))
    assert c["facts"]["verdict"] == "held" and "served side by side" in c["text"]


def test_zfs_zvols_time_grew_faster_than_the_load():
    """zfs5019: 0.28 ms at 1 outstanding → 191 ms at 88 (×690 for ×88): the rate fell as load was added."""
    c = _claim(fit_case_id(ZFS5019))
    assert c["facts"]["verdict"] == "faster" and "the rate fell as load was added" in c["text"]


def test_p3600_time_grew_as_the_load():
    """fio406: 512 KiB reads, 320 µs at QD1 → 21.2 ms at QD128 (×66 for ×128): the added reads waited."""
    c = _claim(fit_case_id(P3600))
    assert c["facts"]["verdict"] == "waited, then waited" and "outstanding ÷ IOPS" in c["text"]
    # one verdict each side of the onset at 4 (round 31 SC): IOPS ×1.89 for ×4 to it, ×1.02 for ×32 after it
    assert ("Up to the onset at 4 the time per I/O grew ×2.12 for ×4 the load: the rate grew ×1.89, most of the added "
            "I/Os waited (70% of them); from 4 to 128 it grew about as fast as the load (×31.3 for ×32 the load)"
            in c["text"]), c["text"]


def test_counter_a_measured_latency_gets_little_not_this():
    assert _claim(fit_case_id(VDAQD)) is None


def _no_lat(rate_iops=None, seed=3):
    rng = np.random.default_rng(seed)  # SYNTHETIC: a 50 µs device serving up to 8 at once, no latency column
    rows = []
    for qd in (1, 2, 4, 8, 16, 32):
        iops = min(qd, 8) / 50e-6 * (1 + 0.01 * rng.standard_normal())
        rows.append({"iodepth": qd, "numjobs": 1, "iops": iops, "block_size_bytes": 4096,
                     "bw_bytes_per_s": iops * 4096, "direction": "read", "rate_iops": rate_iops})
    return pd.DataFrame(rows)


def test_synthetic_parallel_then_queued():
    c = _claim(nm.fit(_no_lat(), x="iodepth", y="iops"))
    assert c is not None and "outstanding ÷ IOPS" in c["text"] and c["facts"]["load_stated"]
    assert c["facts"]["time_growth"] == pytest.approx(4.0, rel=0.05)
    assert c["facts"]["verdict"] == "held, then waited" and c["facts"]["held_to"] == 8


def test_counter_paced_jobs_get_no_time_per_io():
    assert _claim(nm.fit(_no_lat(rate_iops=1000.0), x="iodepth", y="iops")) is None


def test_a_table_of_sums_only_is_fitted_as_its_measurement():
    """Round 28 LA (r28_vspherediskspd …_summed): two VMs' rows summed by hand and marked is_aggregate, no row they sum
    in the table — refused before ("only aggregates of other rows"); now the sums are the report's measurement, the
    same fit as with is_aggregate False (254.47 K IOPS from OIO 16)."""
    case = "r28_vspherediskspd_win2022-2vms-shared-datastore_4k-randread-2threads_oio_summed"
    path = CORPUS / case / "points.csv"
    if not path.exists():
        pytest.skip(f"{case} not in the corpus")
    tbl = pd.read_csv(path)
    fit = nm.fit(tbl, x="iodepth", y="iops")
    plain = nm.fit(tbl.assign(is_aggregate=False), x="iodepth", y="iops")
    assert fit.explain() == plain.explain() and "254.47 K IOPS" in fit.explain()


def test_counter_a_sum_beside_its_parts_stays_out():
    """fio's All-clients row (or terse's mixed row) beside the rows it sums, in one report: only the parts are fitted."""
    from nvmemodel.ingest.summary import summed_rows, usable_rows

    tbl = pd.DataFrame({"source_path": ["a.json"] * 3 + ["b.json"], "run": [0, 0, 0, 0],
                        "is_aggregate": [False, False, True, True], "iops": [1.0, 2.0, 3.0, 9.0]})
    assert summed_rows(tbl).tolist() == [False, False, True, False]  # b.json holds only its sum: kept
    assert usable_rows(tbl)["iops"].tolist() == [1.0, 2.0, 9.0]


def test_pm1643a_two_phases_not_one_blend():
    """Round 28 JG (r28_thejj PM1643a, O_SYNC writes, one a job): 1 → 4 jobs ×1.23 the time (served side by side),
    then ×2.58 for ×4 to 16 jobs — said as two phases, not "×3.18 for ×16, part of the added I/Os waited"."""
    c = _claim(fit_case_id("r28_thejj_samsung-pm1643a-sas-enterprise_4k-osync-write_qd1_numjobs"))
    assert c["facts"]["verdict"] == "held, then waited" and c["facts"]["held_to"] == 4
    # IOPS ×1.55 for ×4 the jobs after 4: 82 % of the added I/Os waited — "most", not "part" (round 31 SC)
    assert c["text"].endswith("then grew ×2.58 for ×4 the load: the rate grew ×1.55, most of the added I/Os waited "
                              "(82% of them)."), c["text"]
    assert "×3.18 for ×16" not in c["text"]
