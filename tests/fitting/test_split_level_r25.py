"""A saturation level stated over the points it describes (split_level.py; set after round 25's fixes were reviewed):
points on the plateau whose kept runs split into groups more than ×2 apart are named apart with their groups, and the
level's value, range and "over" are read from the other points — no longer the whole sentence dropped by the
verification pass (r12 kyber, r15 ext4-on-loop libaio randread iodepth: onset and plateau missing)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")


def _sat(res) -> list[dict]:
    return [c for c in res.claims() if c["kind"] == "saturation"]


def test_kyber_level_over_the_unsplit_points_and_split_points_named():
    # spent (round 12): QD4 and QD8's kept runs do not split (medians 99.26 K and 87.66 K); QD16 and QD32's split at
    # 23–34 K + 122 K and 42–43 K + 114 K, neither group at 87.66–99.26 K
    res = fit_case_id("r12_here-sched_loop-kyber_libaio_randwrite_iodepth_repeats")
    (sat,) = _sat(res)
    t, f = sat["text"], sat["facts"]
    assert f["onset_x"] == 4 and "saturates from iodepth = 4" in t
    assert "Plateau 93.46 K IOPS: 87.66 K IOPS to 99.26 K IOPS over iodepth = 4–8, 2 points." in t
    assert "4–32" not in t
    assert ("At iodepth = 16 and 32 the runs split into two groups more than ×2 apart — 23.31 K IOPS–34.12 K IOPS "
            "and 122.33 K IOPS; 42.31 K IOPS–43.39 K IOPS and 114.24 K IOPS — neither at that level: no level is "
            "read there") in t
    # the latency growth over the level's own points (QD4 → 8), not to a split point's median
    assert "fio's mean latency grows ×2.28 over it, 40 µs → 91.1 µs" in t
    assert "dropped from explain()" not in res.summary()


def test_ext4_on_loop_level_over_the_unsplit_points_a_split_point_between_them():
    # spent (round 15): QD8 splits (40.8 K and 99.0–109.6 K) between QD4 and QD16, which do not; QD32 splits after them
    res = fit_case_id("r15_here-ext4_ext4-on-loop_libaio_randread_iodepth_repeats")
    (sat,) = _sat(res)
    t = sat["text"]
    assert sat["facts"]["onset_x"] == 4 and "saturates from iodepth = 4" in t
    assert "Plateau 83.94 K IOPS: 77.65 K IOPS to 90.23 K IOPS over iodepth = 4 and 16, 2 points." in t
    assert ("At iodepth = 8 and 32 the runs split into two groups more than ×2 apart — 40.83 K IOPS and "
            "98.96 K IOPS–109.62 K IOPS; 38.36 K IOPS–54.54 K IOPS and 110.75 K IOPS — neither at that level") in t
    assert "dropped from explain()" not in res.summary()


def test_one_point_levels_no_longer_span_split_points():
    # dev: onset 32, the only unsplit point on the level; QD64 splits (58.87 K and 118.71–143.35 K)
    res = fit_case_id("here_loop_iodepth")
    (sat,) = _sat(res)
    t = sat["text"]
    assert "Plateau 95.39 K IOPS at iodepth = 32, the one point from the onset on whose runs do not split." in t
    assert "32–64" not in t and not sat["facts"]["split_level"]["apart"]
    assert "At iodepth = 64 the runs split into two groups more than ×2 apart — 58.87 K IOPS and " \
           "118.71 K IOPS–143.35 K IOPS — neither at that level" in t
    # r2 loop: libaio's level at QD8 alone (QD16 and 32 split); io_uring's over QD8–16, QD32's lower group at it
    res = fit_case_id("r2_here_loop_iouring_libaio_iodepth")
    texts = [c["text"] for c in _sat(res)]
    (lib,) = [t for t in texts if "92.11 K" in t]
    (uring,) = [t for t in texts if "84.44 K" in t]
    assert "Plateau 92.11 K IOPS at iodepth = 8, the one point from the onset on whose runs do not split." in lib
    assert "8–32" not in lib and "At iodepth = 16 and 32 the runs split" in lib
    assert "Plateau 84.44 K IOPS: 63.00 K IOPS to 105.88 K IOPS over iodepth = 8–16, 2 points." in uring
    assert "8–32" not in uring
    assert "— 60.03 K IOPS–71.96 K IOPS and 149.66 K IOPS — the lower at that level: no level is read there" in uring


def _fit(x, runs):
    """SYNTHETIC: the given runs a point (IOPS), one fio file each, fio's mean latency by Little's law."""
    rows = [{"source_path": f"synthetic/iodepth{xv}_r{r}.json", "iodepth": xv, "iops": v, "lat_mean_s": xv / v,
             "direction": "read"} for xv, vs in zip(x, runs) for r, v in enumerate(vs)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")


X = [1, 2, 4, 8, 16, 32]


def _runs(last=None):
    rng = np.random.default_rng(13)  # SYNTHETIC, seeded: a rise to a level of about 50.6 K from QD4 on, ±1 %
    runs = [list(m * (1 + 0.01 * rng.standard_normal(3))) for m in (20e3, 38e3, 50e3, 51e3, 50.5e3, 50.8e3)]
    if last is not None:
        runs[-1] = last
    return runs


def test_counter_a_series_without_split_points_keeps_its_words():
    # no point splits: no split_level fact, the words as before the rule ("flattens at … 12 runs at iodepth = 4–32")
    (sat,) = _sat(_fit(X, _runs()))
    assert sat["facts"]["split_level"] is None
    assert sat["text"].startswith("Measured IOPS flattens at 50.60 K IOPS (sd 504 IOPS over 12 runs at iodepth = "
                                  "4–32): saturated from iodepth = 4: no later point gains 10% per doubling of "
                                  "iodepth over it. fio's mean latency grows ×7.92 over it, 80 µs → 633 µs")
    assert "split" not in sat["text"]


def test_synthetic_split_last_point_is_set_apart_not_dropped():
    # the same level with QD32's runs at 15–16 K and 120 K (no group at 50–51 K): before the rule verify dropped the
    # whole sentence; now the level is said over QD4–16 and QD32 named
    res = _fit(X, _runs([15e3, 16e3, 120e3]))
    (sat,) = _sat(res)
    assert "Plateau 50.70 K IOPS: 50.02 K IOPS to 51.22 K IOPS over iodepth = 4–16, 3 points." in sat["text"]
    assert "At iodepth = 32 the runs split into two groups more than ×2 apart — 15.00 K IOPS–16.00 K IOPS and " \
           "120.00 K IOPS — neither at that level" in sat["text"]
    assert "dropped from explain()" not in res.summary()


def test_counter_within_noise_level_keeps_its_runs_range_words():
    # spent (round 11): a level within the noise, said with its runs' range — not a split-level sentence
    res = fit_case_id("r11_here-pin_loop_libaio_1cpu_randread_numjobs_repeats")
    (sat,) = _sat(res)
    assert "at a level its runs put anywhere from 51.09 K IOPS to 176.65 K IOPS" in sat["text"]
    assert "split_level" not in sat["facts"] and "no level is read there" not in sat["text"]
