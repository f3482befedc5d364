"""Context switches per I/O counted one way everywhere (review of round 24: one case said 0.0066 and 0.002), and
round 23's AE remnants (tests/data/explain_corpus/_blind_rounds/round23_hand_read_part2.md AE): on a memory device
"an async engine" would not tell, and a cost per I/O rising with size is not "never per byte".

The assertions recompute from the case's table what the words claim; counter-cases hold where the rules must not
fire.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.cpu_bytes import PER_BYTE_SPAN, per_byte_ends
from nvmemodel.fitting.in_thread import CTX_PER_IO, memory_devices
from nvmemodel.hostcal.poll_proof import hipri_slept
from nvmemodel.ingest.context_switches import run_switches

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "data" / "explain_corpus"
ZRAM_RW = "r23_here-zramlz4_zram-lz4-comp50_psync_randrw_qd1_readshare_repeats"
ZRAM_BS = "r23_here-zramlz4_zram-lz4-incompressible_psync_randwrite_qd1_bs_repeats"
ZRAM_QD = "r23_here-zramlz4_zram-lz4-comp50_libaio_randread_iodepth_repeats"
HIPRI = "r24_here-hipri_loop-nopoll_pvsync2-hipri_randread_numjobs_repeats"


def _rows(**cols):
    n = len(next(iter(cols.values())))
    base = {"source_path": ["a.json"] * n, "job_name": ["j"] * n, "job_index": [0] * n, "numjobs": [1] * n,
            "runtime_s": [2.0] * n}
    return pd.DataFrame({**base, **cols})


# the helper ------------------------------------------------------------------------------------------------------

def test_mixed_job_counts_its_ctx_once_over_both_directions():
    """A randrw job's ctx is on its read row and its write row: once, over the reads and writes together."""
    t = _rows(direction=["read", "write"], ctx=[229.0, 229.0], ios=[34899.0, 103176.0])
    s = run_switches(t)
    assert s.loc["a.json", "ctx"] == 229.0 and s.loc["a.json", "ios"] == 138075.0
    assert s.loc["a.json", "per_io"] == pytest.approx(229 / 138075)
    assert s.loc["a.json", "per_job_s"] == pytest.approx(229 / 2.0)


def test_separate_jobs_sum_and_a_group_row_is_per_job_a_second():
    two = _rows(direction=["read", "read"], ctx=[100.0, 300.0], ios=[1000.0, 1000.0])
    two["job_index"] = [0, 1]
    s = run_switches(two)
    assert s.loc["a.json", "per_io"] == pytest.approx(0.2) and s.loc["a.json", "jobs"] == 2
    assert s.loc["a.json", "per_job_s"] == pytest.approx(400 / 2 / 2.0)
    group = _rows(direction=["read"], ctx=[800.0], ios=[4000.0], numjobs=[4])  # fio's sum over 4 jobs
    g = run_switches(group)
    assert g.loc["a.json", "per_io"] == pytest.approx(0.2) and g.loc["a.json", "per_job_s"] == pytest.approx(100.0)


def test_counter_aggregate_rows_and_missing_ctx():
    t = _rows(direction=["read", "read"], ctx=[10.0, 10.0], ios=[100.0, 100.0])
    t["is_aggregate"] = [False, True]  # an "All clients" row sums the others: not added to them
    assert run_switches(t).loc["a.json", "per_io"] == pytest.approx(0.1)
    t2 = _rows(direction=["read"], ctx=[np.nan], ios=[100.0])
    assert np.isnan(run_switches(t2).loc["a.json", "per_io"])
    assert run_switches(t.drop(columns="ctx")).empty


# the spent case that showed it ------------------------------------------------------------------------------------

def test_zram_randrw_one_count_in_both_sentences():
    """229 switches for 138 K I/Os at read share 25 %: 0.0017, not 229 ÷ 34.9 K reads = 0.0066."""
    tb = pd.read_csv(CORPUS / ZRAM_RW / "points.csv")
    per = run_switches(tb)["per_io"]
    assert per.max() == pytest.approx(0.00204, abs=5e-5) and per.max() <= CTX_PER_IO
    row_wise = (tb["ctx"] / tb["ios"]).max()  # the old count
    assert row_wise > 3 * per.max()
    t = fit_case_id(ZRAM_RW).explain()
    assert "0.0066" not in t
    assert t.count("at most 0.002 context switches an I/O") == 2


def test_counter_one_direction_series_keeps_its_count():
    """A read-only QD sweep: one row a run, the count unchanged (round 23 AB's 0.0017)."""
    t = fit_case_id(ZRAM_QD).explain()
    assert "at most 0.0017 context switches an I/O" in t


def test_counter_hipri_loop_still_slept():
    d = CORPUS / HIPRI
    if not d.exists():
        pytest.skip(f"{HIPRI} not in the corpus")
    tb = pd.read_csv(d / "points.csv")
    s = hipri_slept(tb)
    assert s is not None and s["per_lo"] >= 0.5


# AE: a memory device's work is the job's ------------------------------------------------------------------------

def test_ae_zram_bs_offers_more_jobs_only():
    t = fit_case_id(ZRAM_BS).explain()
    assert "or an async engine" not in t
    assert t.count("more jobs (psync is synchronous: one I/O in flight per job; on zram1 an async engine does the "
                   "same work in its submitting call)") == 3


def test_ae_counter_loop_keeps_the_async_engine():
    """loop0's worker does the copy in its own thread: an async engine would keep more I/O in flight there."""
    t = fit_case_id("r20_here-verify_loop_psync_md5-verify_randread_qd1_bs_repeats").explain()
    assert "more jobs or an async engine (psync is synchronous: one I/O in flight per job)" in t


def test_ae_memory_devices():
    assert memory_devices(pd.DataFrame({"devices": ["zram1", "zram1"]})) == ["zram1"]
    assert memory_devices(pd.DataFrame({"devices": ["zram1;nvme0n1"]})) == []
    assert memory_devices(pd.DataFrame({"devices": ["loop0"]})) == []
    assert memory_devices(pd.DataFrame({"devices": [None]})) == []


def test_ae_zram_bs_cost_per_byte_at_both_ends():
    """Rising step by step ×173 over ×256 in size: the cost per byte at both ends, recomputed, not 'never per byte'."""
    t = fit_case_id(ZRAM_BS).explain()
    assert "never per byte" not in t
    assert "per byte 2.23 ns at 4 KiB and 1.51 ns at 1 MiB" in t
    tb = pd.read_csv(CORPUS / ZRAM_BS / "points.csv")
    cost = (tb["cpu_usr"] + tb["cpu_sys"]) * tb["runtime_s"] / tb["ios"] / tb["block_size_bytes"]
    med = cost.groupby(tb["block_size_bytes"]).median()
    assert med.iloc[0] * 1e9 == pytest.approx(2.23, abs=0.02) and med.iloc[-1] * 1e9 == pytest.approx(1.51, abs=0.02)


@pytest.mark.parametrize("case", ["dandinpower_nvme_seqread_qd16_bs", "r2_abdulm3_sn730_randread_qd32_bs",
                                  "r21_here-syncfr_loop_psync_buffered_sfr8_randwrite_bs_repeats"])
def test_ae_counter_cost_mostly_per_io_keeps_the_caution(case):
    """Per byte ×9 and more apart from the smallest to the largest size (×4.2 for syncfr): the cost is mostly per
    I/O, so "never per byte" stays."""
    t = fit_case_id(case).explain()
    assert "compared per I/O, never per byte across sizes" in t


def test_ae_per_byte_ends_span():
    xs = np.array([4096.0, 65536.0, 1048576.0])
    mostly_bytes = 2e-6 + 1.5e-9 * xs  # 2.0 → 1.5 ns a byte: given
    lo, hi = per_byte_ends(xs, mostly_bytes, np.arange(3))
    assert lo / hi < PER_BYTE_SPAN and hi == pytest.approx(1.5e-9, rel=0.01)
    mostly_io = 10e-6 + 0.01e-9 * xs  # 2.45 → 0.02 ns a byte: a per-I/O cost divided by size
    assert per_byte_ends(xs, mostly_io, np.arange(3)) is None
