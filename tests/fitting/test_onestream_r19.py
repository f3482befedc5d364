"""Round 19's class TA (``_blind_rounds/round19_hand_read_part2.md``): the one-serial-stream line t = a + size ÷ B
(``facts.one_stream``, round 17 YA/YB) printed its B as "one stream's byte rate" although no measured point reaches
it, while the largest sizes' bytes/s were level (r19_lkml-yukuai_hdd_randwrite-qd1_bs: 86.9 MB/s at 2 and 4 MiB,
the line 0.105 GB/s, its misses at the top sizes all one way). Rules: where the largest sizes' bytes/s are level
(within ``LEVEL_STEP``) below the line's B by more than that, the measured level is said and the line is not; a B
above the most measured bytes/s is said as the line's, extrapolated, never as a measured rate. Round 19 is spent;
counters: r17 openzfs7834 QD1 nosync (level at the top that the line reaches: the line stays).
"""

from __future__ import annotations

import pandas as pd
import pytest

from nvmemodel.fitting.facts import curve_facts
from tests.fitting.corpus_score import CORPUS
from tests.fitting.test_size_r11 import _fit, _texts

pytestmark = pytest.mark.filterwarnings("ignore")

LKML = "r19_lkml-yukuai_hdd_randwrite-qd1_bs"
ZFS = "r17_openzfs7834_zfs-raid10-12sas-ssd_randrw7030_"


def _stream(fit):
    return [t for t in _texts(fit) if t.startswith("One serial stream")]


def test_ta_r19_lkml_level_at_the_largest_sizes_not_the_line():
    fit = _fit(LKML)
    (key,) = fit.fits
    s = curve_facts(fit, key).one_stream.facts
    p = pd.read_csv(CORPUS / LKML / "points.csv").sort_values("block_size_bytes")
    bw = p["bw_bytes_per_s"].to_numpy(float)  # 21.1 … 78.3, 86.9, 86.9 MB/s
    top = s["top_level"]
    assert top is not None and top["x"] == (2097152, 4194304) and top["n"] == 2
    assert top["bytes"] == pytest.approx((bw[-1], bw[-1]), rel=1e-6) and s["bytes_per_s"] > bw.max() * 1.05
    said = _stream(fit)
    assert said and "86.9 MB/s (82.9 MiB/s) over 2 MiB to 4 MiB" in said[0] and "measured level" in said[0]
    joined = " ".join(_texts(fit))
    assert "0.105 GB/s" not in joined and "byte rate" not in joined and "4.87 ms" not in joined, joined


def test_ta_counter_r17_nosync_level_the_line_reaches_keeps_the_line():
    # 0.913 → 0.924 GB/s at 256 KiB → 1 MiB (+1.2 %): level, but the line's 0.925 GB/s is that level: the line stays
    fit = _fit(ZFS + "qd1-1job_nosync_bs")
    s = curve_facts(fit, next(iter(fit.fits))).one_stream.facts
    assert s["top_level"] is None
    said = _stream(fit)
    assert said and "0.925 GB/s (0.862 GiB/s) is one stream's byte rate" in said[0] and "extrapolated" not in said[0]


def test_ta_r17_sync_b_above_every_measured_rate_is_said_extrapolated():
    # 0.506 → 0.558 GB/s (+10 %, still rising: no level); the line's 0.6 GB/s is above every measured point
    fit = _fit(ZFS + "qd1-1job_sync_bs")
    s = curve_facts(fit, next(iter(fit.fits))).one_stream.facts
    assert s["top_level"] is None and s["bytes_per_s"] > s["most_bytes"]
    said = _stream(fit)
    assert said and "is the line's byte rate, above the most measured (0.558 GB/s" in said[0]
    assert "extrapolated, not measured" in said[0] and "is one stream's byte rate" not in said[0]


# ------------------------------------------------------------------ UB: a peak's mean beside a level of medians
LABEL = "by each point's median run (the peak above is its runs' mean)"


def test_ub_r19_batch32_peak_mean_and_level_medians_are_named():
    # numjobs 2's runs 144.8 / 141.3 / 162.6 K: mean 149.57 K (the peak), median 144.80 K (the level's top)
    fit = _fit("r19_here-batch_loop_libaio_batch32_randread_qd32_numjobs_repeats")
    (sat,) = [t for t in _texts(fit, "saturation")]
    assert "peaks at 149.57 K IOPS at numjobs = 2" in sat
    assert f"up to the maximum {LABEL}: 140.43 K IOPS, 136.06 K IOPS to 144.80 K IOPS over numjobs = 1–2" in sat, sat


@pytest.mark.parametrize("case_id", ["budisc_p4510_4k-randwrite_qd128_numjobs",
                                     "r18_msf2fsbench_zn540-zns-4klbaf_4k-seqwrite_iouring-sqpoll_qd16_zones-numjobs"])
def test_ub_counter_a_peak_the_level_range_ends_at_keeps_one_statistic(case_id):
    # the peak prints as the level's top (265.98 K; 317.92 K): one value per point, nothing to name
    sat = " ".join(_texts(_fit(case_id), "saturation"))
    assert "up to the maximum: " in sat and LABEL not in sat, sat
