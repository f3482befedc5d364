"""Round 21's fall-shape classes (``_blind_rounds/round21_hand_read_part2.md`` WA, WB, WF):

- WA: after a one-point drop, the later points drifting one way beyond the ±10 % band (no step against it beyond 5 %)
  are a further fall, said with its steps — never "level … not a decline along iodepth" (fall_shape.trend_after).
- WB: along block size, a maximum inside a flat top band, then one step down to a lower level: the band, the step and
  the level after it — no "peaks at … and falls" (fall_shape.band_step).
- WF: a level from the first point at 1 I/O outstanding: the count said, and without fio's latency 1 ÷ IOPS is each
  I/O's mean time (Little's law).

Round 21 is spent: its cases are fitted here. Counter-cases: spent r21 burstgpt/tp8 (levels, "32 I/Os outstanding"),
seeded tables (a level after one high point with a bump: still a level; a size peak then a slide: still a peak; an IOPS
level at QD1 with fio's latency: the latency sentence, not 1 ÷ IOPS)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.fall_shape import band_step, trend_after
from tests.fitting.corpus_score import CORPUS, fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

SHAREGPT = "r21_philostorage_biwin-x570-ext4_kvmix-sharegpt-r61_qd"
BURSTGPT = "r21_philostorage_biwin-x570-ext4_kvmix-burstgpt-r91_qd"
TP8 = "r21_philostorage_biwin-x570-ext4_kvmix-tp8-r73_qd"
TIERED_BS = "r21_tieredvol_dm-stripe-nvme-2sata_write_4jobs-qd32_bs"
NOX_1M = "r21_noxdb_wd-sn530-xfs_1m-seqwrite_qd"


def _fit(case):
    return fit_case_id(case, "blind21")


def _text(fit, kind: str) -> str:
    (t,) = [c["text"] for c in fit.claims() if c["kind"] == kind]
    return t


def _points(case):
    return pd.read_csv(CORPUS / case / "points.csv")


def _seeded(rows, x="iodepth", y="iops"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=x, y=y)


# ------------------------------------------------------------------ WA: a further fall after the one step
def test_wa_sharegpt_trend_from_the_points():
    p = _points(SHAREGPT).sort_values("iodepth")
    x, y = p["iodepth"].to_numpy(float), p["bw_bytes_per_s"].to_numpy(float)
    tr = trend_after(x, y, np.arange(1, 5))
    assert tr is not None and tr["x_from"] == 64 and tr["x_to"] == 1024
    assert tr["change"] == pytest.approx(1.8951e9 / 2.15545e9 - 1, abs=1e-3)  # −12.1 %
    assert [round(g, 3) for _, _, g in tr["steps"]] == [-0.005, -0.037, -0.083]


def test_wa_sharegpt_says_the_further_fall_not_a_level():
    t = _text(_fit(SHAREGPT), "saturation")
    assert "not a decline" not in t and "is level at" not in t
    assert "drops 29.5% in one step to 2.16 GB/s" in t
    assert "falls a further 12.1% to 1.9 GB/s" in t and "at iodepth = 1024, every step down" in t
    assert "-0.5% 64 → 128, -3.7% 128 → 256, -8.3% 256 → 1024" in t
    assert "single high point is not told from a change between the runs" in t  # the hedge on the step stays


@pytest.mark.parametrize("case, level", [(BURSTGPT, "2.82 GB/s"), (TP8, "2.3 GB/s")])
def test_wa_counter_siblings_stay_levels(case, level):
    t = _text(_fit(case), "saturation")
    assert f"Plateau {level}" in t and "falls a further" not in t
    assert "The limit is reached at or below the smallest load measured, 32 I/Os outstanding." in t


def test_wa_counter_a_level_with_a_bump_stays_a_level():
    """One high point, then a level whose ends are within the band (a +6 % bump, steps both ways): "that one step,
    not a decline" stays."""
    y = [60e3, 97e3, 82e3, 87e3, 83e3, 85e3]
    assert trend_after(np.array([1, 4, 8, 16, 32, 64.0]), np.array(y), np.arange(2, 6)) is None
    fit = _seeded([{"iodepth": q, "iops": v, "numjobs": 1} for q, v in zip([1, 4, 8, 16, 32, 64], y)])
    t = _text(fit, "saturation")
    assert "not a decline along iodepth" in t and "falls a further" not in t


def test_wa_trend_needs_one_sign():
    x = np.array([1, 2, 4, 8, 16.0])
    # ends 12 % apart but a +8 % step against the fall: no trend
    assert trend_after(x, np.array([100, 70, 64, 69, 61.5]), np.arange(1, 5)) is None
    # a small step against it (+2 %) within AGAINST: still the fall
    tr = trend_after(x, np.array([100, 70, 71.4, 66, 61]), np.arange(1, 5))
    assert tr is not None and tr["change"] == pytest.approx(61 / 70 - 1)


# ------------------------------------------------------------------ WB: a flat top band, one step, a lower level
def test_wb_tiered_bs_band_from_the_points():
    p = _points(TIERED_BS)
    g = p.groupby("block_size_bytes")["bw_bytes_per_s"].sum().sort_index()  # 4 jobs: the group's bytes/s
    b, bw = g.index.to_numpy(float), g.to_numpy(float)
    bd = band_step(b, bw, int(np.argmax(bw)))
    assert bd is not None and bd["x"] == (128 * 1024, 2 * 1024 ** 2) and bd["after_x"] == (4 * 1024 ** 2, 16 * 1024 ** 2)
    assert bd["step"] == pytest.approx(-0.192, abs=0.002)


def test_wb_tiered_bs_says_the_band_and_the_step():
    t = _text(_fit(TIERED_BS), "falls")
    assert "peaks at" not in t and "falls 20%" not in t
    assert "level at 1.25 GB/s (1.16 GiB/s) to 1.29 GB/s (1.2 GiB/s) from 128 KiB to 2 MiB (5 sizes" in t
    assert "steps down 19% in one step to 4 MiB and holds 1.02 GB/s (0.946 GiB/s) to 1.03 GB/s (0.957 GiB/s) up to 16 MiB" in t
    assert "slower here from 4 MiB on" in t and "a byte cap of 1.29 GB/s" in t


@pytest.mark.parametrize("bw, why", [
    ([1.0, 1.3, 1.15, 1.0, 0.9], "a peak, then a slide: no lower level"),
    ([1.2, 1.25, 1.29, 1.0, 1.01], "the maximum is the band's last size: a peak then the fall"),
    ([1.25, 1.29, 1.27, 1.18, 1.10], "no step beyond the band between the level and what follows"),
])
def test_wb_counter_no_band_step(bw, why):
    b = 2.0 ** np.arange(17, 17 + len(bw))
    bw = np.array(bw) * 1e9
    assert band_step(b, bw, int(np.argmax(bw))) is None, why


def test_wb_counter_a_true_peak_keeps_the_peak_words():
    rows = [{"block_size_bytes": s, "bw_bytes_per_s": v * 1e9, "iodepth": 32, "numjobs": 1}
            for s, v in zip(2 ** np.arange(17, 22), [1.0, 1.3, 1.15, 1.0, 0.9])]
    t = _text(_seeded(rows, x="block_size_bytes", y="bw_bytes_per_s"), "falls")
    assert "peaks at 1.3 GB/s" in t and "no peak" not in t


# ------------------------------------------------------------------ WF: 1 I/O outstanding at a from-first level
def test_wf_noxdb_1m_says_one_outstanding_and_one_over_iops():
    p = _points(NOX_1M).sort_values("iodepth")
    iops0 = float(p["iops"].iloc[0])
    assert 1 / iops0 == pytest.approx(1.64e-3, abs=0.01e-3)
    t = _text(_fit(NOX_1M), "saturation")
    # (since round 24 BD: a 1 MiB I/O may be several device requests, so one of fio's I/Os, not one at the device)
    assert "The limit is reached at the smallest load measured, 1 of fio's I/Os outstanding" in t
    assert f"1 ÷ {iops0:.0f} IOPS = 1.64 ms on average" in t
    assert "more outstanding I/O only queues in front of it" in t


def test_wf_counter_with_latency_the_latency_sentence():
    """An IOPS level from QD1 with fio's mean latency matching 1 ÷ IOPS: the existing latency sentence, not 1 ÷ IOPS."""
    rows = [{"iodepth": q, "numjobs": 1, "iops": v, "lat_mean_s": q / v, "block_size_bytes": 4096}
            for q, v in zip([1, 2, 4, 8, 16], [10.0e3, 10.1e3, 10.05e3, 10.1e3, 10.0e3])]
    t = _text(_seeded(rows), "saturation")
    assert "With one I/O in flight each took 100 µs" in t and "by Little's law each took 1 ÷" not in t


def test_wb_figure_draws_the_band_stated():
    """The figure draws the band the words state (128 KiB–2 MiB, up to the 1.29 GB/s byte cap), not nothing."""
    from nvmemodel.plots.fit import _size_cap_level

    lv = _size_cap_level(_fit(TIERED_BS), ())
    assert lv["x_from"] == 128 * 1024 and lv["x_to"] == 2 * 1024 ** 2
    assert lv["value"] == pytest.approx(1.2903e9, rel=1e-3) and lv["low"] == pytest.approx(1.2461e9, rel=1e-3)


def test_wa_two_levels_whose_lower_one_falls_on():
    """Spent r5 samyaple (round 5 AA's two levels): 335.8 K at QD8, then 138.7, 130.3, 116.2 K at QD16–64, every step
    down (−16 % over the "level"): the further fall said, "not a decline" gone."""
    t = _text(fit_case_id("r5_samyaple_rkt4p_4k-randwrite_1job_qd"), "saturation")
    assert "not a decline" not in t
    assert "steps down from 331.41 K IOPS (326.99 K IOPS to 335.84 K IOPS over iodepth = 4–8, 2 points)" in t
    assert "to 138.72 K IOPS at iodepth = 16, then falls a further 16.3% to 116.15 K IOPS at iodepth = 64" in t
