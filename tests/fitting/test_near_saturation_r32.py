"""Round 32's hand read, class UB (load-axis saturation): a listed step BEFORE the step into the onset that gained
under the 10 % bar while the time per I/O (measured or Little's) grew ≥ ×1.6 per doubling is not "the load still
paid"; a one-run jump after it is flagged as possibly a change between runs."""

from __future__ import annotations

import pandas as pd
import pytest

import nvmemodel as nm
from tests.fitting.corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

RR64 = "r32_spdk2104_bdevperf-malloc-4k-randread-64cores_iodepth"
R64 = "r32_spdk2104_bdevperf-malloc-4k-read-64cores_iodepth"
SEQW = "r32_ssdinternal_multipass-mac-vda-ext4_libaio-direct-newfile-seqwrite4k_iodepth"


def _claim(res, kind: str) -> str:
    texts = [c["text"] for c in res.claims() if c["kind"] == kind]
    assert len(texts) == 1, [c["kind"] for c in res.claims()]
    return texts[0]


def test_ub_randread64_flat_stretch_did_not_pay():
    s = _claim(fit_case_id(RR64, "blind32"), "saturation")
    assert "Up to it the load still paid" not in s, s
    assert ("From iodepth = 1 to 16 the load did not pay: +1% per doubling (+3% for ×16 the iodepth), under the 10% "
            "bar, while the time per I/O grew ×15.6") in s, s
    assert "(99.8% of them). Then +59% per doubling (16 → 32) into the onset; one run a point: a jump" in s, s


def test_ub_read64_flat_stretch_did_not_pay():
    s = _claim(fit_case_id(R64, "blind32"), "saturation")
    assert "Up to it the load still paid" not in s, s
    assert "From iodepth = 1 to 16 the load did not pay: +3% per doubling (+12% for ×16 the iodepth)" in s, s
    assert "grew ×14.2" in s and "Then +20% per doubling (16 → 32) into the onset" in s, s


def test_ub_counter_steps_above_the_bar_still_paid():
    s = _claim(fit_case_id(SEQW, "blind32"), "saturation")
    assert "Up to it the load still paid, from 6.35 K IOPS at iodepth = 1: +23% (1 → 2), +76% (2 → 4)" in s, s
    assert "did not pay" not in s, s


def test_ub_counter_synthetic_queue_that_pays():
    """SYNTHETIC (labelled): an NVMe-like QD sweep, IOPS ∝ depth to 8 then a level; the Little time flat up to 8."""
    q = [1, 2, 4, 8, 16, 32]
    io = [10e3, 20.2e3, 39.5e3, 78e3, 80e3, 80.5e3]
    s = _claim(nm.fit(pd.DataFrame({"iodepth": q, "iops": io}), x="iodepth", y="iops"), "saturation")
    assert "did not pay" not in s, s


def test_ub_keeps_the_steps_that_paid_before_and_after():
    """SYNTHETIC (labelled): a flat step 2 → 4 between steps that pay; the steps before and after stay listed (the
    first version of the UB rule dropped them)."""
    q = [1, 2, 4, 8, 16, 32, 64]
    io = [10e3, 20e3, 20.4e3, 30e3, 45e3, 46e3, 46.5e3]
    s = _claim(nm.fit(pd.DataFrame({"iodepth": q, "numjobs": 1, "iops": io}), x="iodepth", y="iops"), "saturation")
    assert "Up to iodepth = 2 the load still paid, from 10.00 K IOPS at iodepth = 1: +100% (1 → 2)" in s, s
    assert "From iodepth = 2 to 4 the load did not pay: +2% per doubling" in s, s
    assert "Then the load paid again, from 20.40 K IOPS at iodepth = 4" in s and "+47% (4 → 8), +50% (8 → 16)" in s, s


def test_ub_not_for_a_step_printed_at_the_bar():
    # spent (round 16): 4 → 8 gained +9.6 % a doubling, printed "+10%": never "+10%, under the 10% bar"; every step kept
    s = _claim(fit_case_id("r16_xnvmebench_nvme0n1_4k-seqread_qd", "blind16"), "saturation")
    assert "did not pay" not in s, s
    assert "+127% (1 → 2), +31% (2 → 4), +10% (4 → 8), +23% (8 → 16)" in s, s
