"""Round 31's load-axis saturation classes SC, SD, SE, SF (``_blind_rounds/round31_hand_read_part1.md``), read before
the rules these tests hold were set (docs/fitting.md names them). Round 31 is spent: its cases are fitted here, with
labelled synthetic tables as counter-cases.

- SC: the no-latency time per I/O read from the whole range's log share across the knee ("about as fast as the load"
  for ×30 at ×128, "part … waited" for ×27.4 at ×128, both ~97 % waited). Counter: ZFS sync read (one regime from the
  first point: "about as fast … the added I/Os waited" stays).
- SD: two builds (runs 0–4, 5–9) diverging ×1.04 → ×1.51 averaged into one level. Counter: ZFS async read (one build
  above by a near-constant 1–4 %), a synthetic constant gap, synthetic interleaved sets.
- SE: "Up to it the load still paid … +6% (8 → 32)" under the 10 % bar, the Little time ×3.57. Counter: a step above
  the bar (ZFS async read 1 → 8).
- SF: fiolab's counterbalanced blocks tell the superlinear 1 → 2 step; its post-onset step by the runs the level kept.
  Counter: the same runs without a block column ("cannot tell which" stays).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.near_saturation import queued_words, waited_word
from tests.fitting.corpus_score import CORPUS, fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

ZREAD = "r31_antonhpe-zfs19076_raidz2-6x-nvme-rs16k-async-dio_read-1job_iodepth_repeats"
ZWRITE = "r31_antonhpe-zfs19076_raidz2-6x-nvme-rs16k-async-dio_write-1job_iodepth_repeats"
ZSYNC = "r31_antonhpe-zfs19076_raidz2-6x-nvme-rs16k-sync-dio_read-1job_iodepth_repeats"
FIOLAB = "r31_fiolab_windows-laptop-ssd-file-windowsaio_seqread128k_qd_repeats"


def _claim(res, kind: str) -> str:
    texts = [c["text"] for c in res.claims() if c["kind"] == kind]
    assert len(texts) == 1, [c["kind"] for c in res.claims()]
    return texts[0]


def _zwrite_table() -> pd.DataFrame:
    return pd.read_csv(CORPUS / ZWRITE / "points.csv")


# --- SC -------------------------------------------------------------------------------------------------------------

def test_sc_one_scale_for_the_share_that_waited():
    assert waited_word(0.97) == "most" and waited_word(0.5) == "most" and waited_word(0.49) == "part"
    assert queued_words(0.14).startswith("most of the added load queued: 86%")
    assert queued_words(0.6).startswith("part of the added load queued: 40%")


def test_sc_async_read_one_verdict_each_side_of_the_onset():
    """×1.96 for ×8 to the onset at 8 (IOPS ×4.08: 56 % of the added I/Os waited), ×15.3 for ×16 after it (IOPS
    ×1.05: about as fast as the load); round 31 read "about as fast as the load (×30 for ×128 the load)"."""
    t = _claim(fit_case_id(ZREAD, "blind31"), "time per I/O")
    assert "×30 for ×128" not in t, t
    assert ("Up to the onset at 8 the time per I/O grew ×1.96 for ×8 the load: the rate grew ×4.08, most of the "
            "added I/Os waited (56% of them); from 8 to 128 it grew about as fast as the load (×15.3 for ×16 the "
            "load): the added I/Os waited.") in t, t


def test_sc_async_write_most_waited_not_part():
    """×27.4 for ×128 at IOPS ×4.68: 97 % of the added I/Os waited; round 31 read "part of the added I/Os waited".
    (No onset side here: the saturation sentence names no onset over two diverging run sets, SD.)"""
    t = _claim(fit_case_id(ZWRITE, "blind31"), "time per I/O")
    assert "part of" not in t, t
    assert t.endswith("The time per I/O grew ×27.4 for ×128 the load: the rate grew ×4.68, most of the added I/Os "
                      "waited (97% of them)."), t


def test_sc_counter_sync_read_one_regime():
    """Saturated from the first point: ×131 for ×128, the rate held — "about as fast … waited" stays, no sides."""
    t = _claim(fit_case_id(ZSYNC, "blind31"), "time per I/O")
    assert t.endswith("The time per I/O grew about as fast as the load (×131 for ×128 the load): the added I/Os "
                      "waited."), t
    assert "Up to the onset" not in t


# --- SD -------------------------------------------------------------------------------------------------------------

def test_sd_async_write_two_run_sets_no_level():
    res = fit_case_id(ZWRITE, "blind31")
    s = _claim(res, "saturation")
    assert "81.12 K" not in s and "near saturation" not in s and "their spread the noise" not in s, s
    assert s.startswith("Measured IOPS is two run sets, not repeats of one curve"), s
    assert "runs 0–4 above runs 5–9 at every point" in s and "(×1.04 at 1, ×1.51 at 128)" in s, s
    assert "Runs 0–4: 19.20 K IOPS, 72.90 K IOPS, 84.10 K IOPS, 91.20 K IOPS, 106.00 K IOPS" in s, s
    assert "runs 5–9: 18.50 K IOPS, 64.30 K IOPS, 69.40 K IOPS, 65.70 K IOPS, 70.30 K IOPS" in s, s


def test_sd_counter_async_read_constant_gap_keeps_its_level():
    s = _claim(fit_case_id(ZREAD, "blind31"), "saturation")
    assert s.startswith("Measured IOPS flattens at 42.06 K IOPS"), s
    assert "two run sets" not in s


@pytest.mark.parametrize("how", ["constant", "interleaved"])
def test_sd_counter_synthetic(how):
    """SYNTHETIC: the ZFS write table with the second set at a constant 0.97 × the first (no growing gap), or with the
    runs interleaved in time (run order alternates between the sets): one level, no sets."""
    t = _zwrite_table()
    if how == "constant":
        t.loc[5:9, "iops"] = t.loc[0:4, "iops"].to_numpy() * 0.97
    else:
        t["run"] = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9]
    s = _claim(nm.fit(t, x="iodepth", y="iops"), "saturation")
    assert "two run sets" not in s, s


# --- SE -------------------------------------------------------------------------------------------------------------

def test_se_step_under_the_bar_is_not_still_paid():
    """SYNTHETIC (labelled): the ZFS write table's means as two near-equal runs a point (×1.01 / ×0.99): onset 32 by
    the wide 8 → 32 step, which gained +6 % per doubling; the Little time grew ×3.58 (96 % of the added I/Os
    waited)."""
    t = _zwrite_table()
    m = (t.loc[0:4, "iops"].to_numpy() + t.loc[5:9, "iops"].to_numpy()) / 2
    t.loc[0:4, "iops"], t.loc[5:9, "iops"] = m * 1.01, m * 0.99
    s = _claim(nm.fit(t, x="iodepth", y="iops"), "saturation")
    assert "+6% (8 → 32" not in s, s
    assert ("Up to iodepth = 8 the load still paid, from 18.85 K IOPS at iodepth = 1: +54% (1 → 8: +264% for ×8) per "
            "doubling of iodepth. The step 8 → 32 gained only +6% per doubling (+12% for ×4 the iodepth), under the "
            "10% bar of the onset, while the time per I/O grew ×3.58") in s, s
    assert "most of the added I/Os waited (96% of them) — not the load still paying; the level is reached in [8, 32]" in s


def test_se_counter_step_above_the_bar():
    s = _claim(fit_case_id(ZREAD, "blind31"), "saturation")
    assert "Up to it the load still paid: +308% for ×8 the iodepth" in s and "under the 10% bar" not in s, s


# --- SF -------------------------------------------------------------------------------------------------------------

def test_sf_fiolab_blocks_tell_and_kept_runs_step():
    s = _claim(fit_case_id(FIOLAB, "blind31"), "saturation")
    assert "cannot tell which" not in s, s
    assert ("the step is ×2.09–2.24 within each of 3 blocks of runs that measured the two points in both orders, so "
            "not a change between the runs: a per-I/O cost that more load hides") in s, s
    assert "-11%" not in s and "The one point after the onset" not in s, s  # −0.5 % by the runs the level kept


def test_sf_counter_no_blocks_cannot_tell():
    """The fiolab table without its block and position columns: the runs at each point cannot tell a per-I/O cost
    from a change between the runs."""
    t = pd.read_csv(CORPUS / FIOLAB / "points.csv").drop(columns=["block", "position"])
    s = _claim(nm.fit(t, x="iodepth", y="iops"), "saturation")
    assert "(the repeats at each point cannot tell which)" in s and "blocks of runs" not in s, s


def test_sf_counter_blocks_in_one_order():
    """SYNTHETIC: every block ran QD1 before QD2: a drift between the runs could make the step; no block verdict."""
    t = pd.read_csv(CORPUS / FIOLAB / "points.csv")
    one = t["iodepth"] == 1
    t.loc[one, "position"] = 0
    s = _claim(nm.fit(t, x="iodepth", y="iops"), "saturation")
    assert "blocks of runs" not in s and "cannot tell which" in s, s
    assert np.isfinite(t["iops"]).all()


def test_se_spent_throughput_axis_step_under_the_bar():
    """r8 praisechan (128 KiB reads, throughput along iodepth, one run a point): 4 → 16 gained +15 % for ×4 (+7 % a
    doubling) while outstanding ÷ IOPS grew ×3.48 — once "Up to it the load still paid … +7% (4 → 16 …)"."""
    s = _claim(fit_case_id("r8_praisechan_nvmevirt-970pro_128k-seqread_qd", "blind8"), "saturation")
    assert "+7% (4 → 16" not in s, s
    assert ("The step 4 → 16 gained only +7% per doubling (+15% for ×4 the iodepth), under the 10% bar of the onset, "
            "while the time per I/O grew ×3.48") in s and "(95% of them) — not the load still paying" in s, s
