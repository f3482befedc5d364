"""Round 25's classes DA and DD (``_blind_rounds/round25_hand_read_part1.md``), by general rules:

- DA: two saturated ``by=`` curves of one run a point compared point by point and called indistinguishable ("differ
  by at most 13% … with one run a point no run-to-run noise is known to tell differences that small from chance"),
  although each curve's plateau points are repeats of its level and the levels' points do not overlap
  (r25 rados-bench EC 4+2 vs Rep3): compared by their levels now (``plateau_compare``), direction and size said.
- DD: "flat at 1.46–1.59 GB/s from 256 KiB to 16 MiB" where each size's two runs lie within 0.4 % and the stretch
  rises +8.7 % step by step beyond them (r25 juicefs-fuse seqread): "nearly level …, rising 8.7% over it"
  (``level_creep``).

Round 25 is spent; the counter-cases are other spent cases and seeded synthetic tables where the rules must not fire.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.plateau_compare import _trend, level_gaps
from tests.fitting.test_review28 import _fit as _review_fit
from tests.fitting.test_size_r11 import _fit, _fit_df, _sizes, _texts

pytestmark = pytest.mark.filterwarnings("ignore")

RADOS = "r25_juicefsceph_rados-bench-256k-write_ec42-vs-rep3_threads_by-pool"
SEQREAD = "r25_juicefsceph_juicefs-fuse_seqread-single-stream_bs_repeats"


def _curves(levels: dict, *, plateau: dict | None = None, seed: int = 3) -> pd.DataFrame:
    """One run a point along iodepth 1–64 per curve (``ioengine``): load-bound to QD 8, then its level ``cap`` with
    relative scatter ``rel`` — or the given plateau values at QD 8–64; latency by Little's law."""
    rng = np.random.default_rng(seed)
    rows = []
    for name, (cap, rel) in levels.items():
        for i, qd in enumerate([1, 2, 4, 8, 16, 32, 64]):
            y = cap / 8 * qd if qd < 8 else cap * (1 + rel * rng.standard_normal())
            if plateau and name in plateau and qd >= 8:
                y = plateau[name][i - 3]
            rows.append({"iodepth": qd, "numjobs": 1, "iops": y, "bw_bytes_per_s": y * 4096, "block_size_bytes": 4096,
                         "lat_mean_s": qd / y, "run": 0, "source_path": f"{name}-qd{qd}.json", "ioengine": name,
                         "direction": "read"})
    return pd.DataFrame(rows)


def _by(df):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(df, x="iodepth", y="iops", by="ioengine")


def _curves_text(fit) -> str:
    said = [c["text"] for c in fit.claims() if c["kind"] == "curves"]
    return said[0] if said else ""


# ------------------------------------------------------------------ DA: saturated curves compared by their levels
def test_da_r25_rados_pools_are_compared_by_their_levels():
    fit = _fit(RADOS)
    text = _curves_text(fit)
    assert "no run-to-run noise is known" not in text and "differ by at most" not in text, text
    # EC 4+2's plateau (QD 128–4096) 4.796/4.807/4.847 GB/s, mean 4.816; Rep3's 4.360/4.385/4.274, mean 4.340:
    # +11.0 %, EC above at every depth (+10.0, +9.6, +13.4 %); sd 0.55 % and 1.34 %; the gap 8.2× Rep3's sd
    assert text.startswith(
        "target_names=EC 4+2 pool (6 OSD) levels at 4.82 GB/s (4.49 GiB/s), 11% above target_names=replicated "
        "size-3 pool (6 OSD) at 4.34 GB/s (4.04 GiB/s) (10–13% above it at each iodepth = 128–4096)"), text
    assert "(3 points, sd 0.55%)" in text and "(3 points, sd 1.34%)" in text
    assert "the levels' points do not overlap (the gap ×8.18 the larger sd" in text
    assert "p = 0.0014" in text and "whether another repeats the difference is not shown" in text
    assert fit.explain().startswith(text)


def test_da_r25_levels_and_welch_from_the_plateau_points():
    fit = _fit(RADOS)
    keys = [k for k in fit.chosen if k]
    hi, lo = level_gaps(fit, keys)
    assert hi["key"] == ("EC 4+2 pool (6 OSD)",) and list(hi["x"]) == [128, 1024, 4096]
    assert hi["mean"] == pytest.approx((4796186624 + 4806672384 + 4846518272) / 3)
    assert lo["mean"] == pytest.approx((4359979008 + 4385144832 + 4273995776) / 3)
    assert hi["gap"]["share"] == pytest.approx(0.1098, abs=5e-4)
    assert hi["gap"]["p"] == pytest.approx(0.0014, abs=2e-4)  # the hand read's Welch t = 12.9, df 2.8


def test_da_counter_engines_qd_one_curve_still_rising_keeps_not_told_apart():
    # io_uring saturated from 16 (2 plateau points), libaio still +13 % per doubling at 64: libaio's points are no
    # repeats of a level, so no level comparison; the sentence's own test case keeps its words
    fit = _review_fit("engines_qd", x="iodepth", y="iops", by="ioengine")
    assert level_gaps(fit, [k for k in fit.chosen if k]) is None
    text = _curves_text(fit)
    assert "no run-to-run noise is known" in text and "levels at" not in text


def test_da_seeded_levels_apart_are_compared():
    # 100 K vs 90 K IOPS, each plateau (QD 8–64) scattering ±1 %: told apart, the higher named first
    text = _curves_text(_by(_curves({"a": (100e3, 0.01), "b": (90e3, 0.01)})))
    assert text.startswith("ioengine=a levels at") and "above ioengine=b at" in text, text


def test_da_counter_overlapping_plateaus_keep_not_told_apart():
    # 100 K vs 95 K with ±5 % scatter: the plateaus' points overlap — no difference shown, the old words stay
    fit = _by(_curves({"a": (100e3, 0.05), "b": (95e3, 0.05)}))
    assert level_gaps(fit, [k for k in fit.chosen if k]) is None
    text = _curves_text(fit)
    assert "not told apart" in text and "levels at" not in text, text


def test_da_counter_a_plateau_with_a_trend_is_no_level():
    # b creeps 86 → 87.5 → 89 → 90.5 K over QD 8–64 (a line on log QD): its points are no repeats of one level
    fit = _by(_curves({"a": (100e3, 0.01), "b": (90e3, 0.0)}, plateau={"b": [86e3, 87.5e3, 89e3, 90.5e3]}))
    assert level_gaps(fit, [k for k in fit.chosen if k]) is None
    text = _curves_text(fit)
    assert "levels at" not in text and "no run-to-run noise is known" in text, text


def test_da_trend_test():
    x = np.array([8.0, 16, 32, 64])
    assert _trend(x, np.array([84.0, 86, 88, 90]))  # a line: a trend
    assert not _trend(x, np.array([100.0, 97, 102, 99]))  # scatter about a level
    assert not _trend(x[:2], np.array([90.0, 100]))  # two points cannot tell
    # the rados EC plateau: +0.2 %, +0.8 % over QD 128–4096, slope t 2.2 on 1 degree of freedom — a level
    assert not _trend(np.array([128.0, 1024, 4096]), np.array([4.796, 4.807, 4.847]))


# ------------------------------------------------------------------ DD: a creep beyond tight repeats is not flat
def test_dd_r25_seqread_creep_beyond_the_repeats_is_not_flat():
    (cap,) = [t for t in _texts(_fit(SEQREAD), "cap")]
    assert "is flat at" not in cap, cap
    # medians 1.462 → 1.590 GB/s (+8.7 %) over 256 KiB–16 MiB; the two positions of each size within 0.003–0.26 %
    assert ("it is nearly level at 1.46 GB/s (1.36 GiB/s)–1.59 GB/s (1.48 GiB/s) from 256 KiB to 16 MiB (each size "
            "the median of its kept runs), rising 8.7% over it (every run at 16 MiB above every run at 256 KiB; a "
            "size's own runs within 0.26% of one another)") in cap
    assert "a byte cap of 1.59 GB/s (1.48 GiB/s) or a little above, measured" in cap


def test_dd_counter_r24_netudp_runs_wider_than_the_steps_stay_flat():
    # medians 117–126 K IOPS over 1–16 KiB with runs spread 107–141 K: the ±10 % tolerance stands
    fit = _fit("r24_here-netudp_udp-loopback_net_write_bs_repeats")
    (cap,) = [t for t in _texts(fit, "cap")]
    assert "IOPS are flat at 117.06 K IOPS–126.09 K IOPS from 1 KiB to 16 KiB (within 10% of one another)" in cap


@pytest.mark.parametrize("case, flat", [
    # blkio throttles: creeps of 0.6 % and 1.0 % beyond runs within 0.2 % / 0.55 % — below CREEP_MIN, flat caps
    ("r8_here-rate_rate100m_blkio_riops2k_bs_repeats", "bandwidth is flat at 100 MB/s (95.4 MiB/s)–0.101 GB/s"),
    ("r7_here_blkio_wiops_seqwrite_bs_repeats", "bandwidth is flat at 0.131 GB/s (0.122 GiB/s)–0.132 GB/s"),
    # +5.2 % over runs within 4.8 %: not CREEP_OVER_SPREAD times the repeats' spread
    ("r5_here_blkio_riops_maxsectors64k_bs_repeats", "bandwidth is flat at 0.128 GB/s (0.119 GiB/s)–0.135 GB/s"),
])
def test_dd_counter_small_creeps_of_throttle_caps_stay_flat(case, flat):
    (cap,) = [t for t in _texts(_fit(case), "cap")]
    assert flat in cap and "nearly level" not in cap, cap


def test_dd_counter_seeded_level_within_its_runs_stays_flat():
    # a byte level whose 3 runs per size scatter ±2 % about one value: flat, no creep
    gb = 1e9
    fit = _fit_df(_sizes([0.25 * gb, 0.5 * gb, gb, 2.0 * gb, 2.02 * gb, 2.01 * gb, 2.03 * gb], sd=0.02, seed=5))
    cap = [t for t in _texts(fit, "cap") if "bandwidth is" in t]
    assert cap and "bandwidth is flat at" in cap[0] and "rising" not in cap[0], cap


def test_dd_seeded_creep_beyond_tight_runs_is_named():
    gb = 1e9
    fit = _fit_df(_sizes([0.25 * gb, 0.5 * gb, gb, 2.0 * gb, 2.06 * gb, 2.12 * gb, 2.18 * gb], sd=0.001, seed=5))
    cap = [t for t in _texts(fit, "cap") if "bandwidth is" in t]
    # 2.0 → 2.18 GB/s over 32–256 KiB with ±0.1 % runs
    assert cap and "nearly level at" in cap[0] and "rising 8.9% over it" in cap[0], cap


def test_dd_counter_one_run_a_size_keeps_the_tolerance():
    gb = 1e9
    fit = _fit_df(_sizes([0.25 * gb, 0.5 * gb, gb, 2.0 * gb, 2.06 * gb, 2.12 * gb, 2.18 * gb], runs=1, sd=0.0))
    cap = [t for t in _texts(fit, "cap") if "bandwidth is" in t]
    assert cap and "bandwidth is flat at" in cap[0] and "rising" not in cap[0], cap
