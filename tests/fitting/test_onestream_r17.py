"""Round 17's block-size classes YA, YB, YC (``_blind_rounds/round17_hand_read_part2.md``), by the session rule "a
cause only with its proof" (issue 28).

- YA/YB: with one I/O outstanding at every size (iodepth × jobs = 1, or one per job for a synchronous engine), 1 ÷ IOPS
  is each I/O's time, latency column or not. Where a per-I/O time + size ÷ a byte rate gives it within 10 % at every
  size, one serial stream describes the series: that is said with its worst miss, and no "step / two regimes" or
  "byte limit" sentence beside it (r17 openzfs7834 QD1 sync: "jumps ×5.97 … two regimes?" next to its own R² 0.9993
  fit; QD1 nosync: "approaches a byte limit" for one thread's 5 µs + size ÷ 0.925 GB/s).
- YC: bytes/s that gain < 10 % per doubling of the size at every step from the first size (a gap of untested sizes
  counted by its doublings) are a byte level from the first size, not one "at the two largest sizes".

Round 17 is spent; each rule has counter-cases (spent real and seeded synthetic) where it must not fire. No blind
round has tested these rules.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.facts import ONE_STREAM_TOL, curve_facts
from tests.fitting.corpus_score import CORPUS
from tests.fitting.test_size_r11 import _fit, _fit_df, _texts

pytestmark = pytest.mark.filterwarnings("ignore")

ZFS = "r17_openzfs7834_zfs-raid10-12sas-ssd_randrw7030_"
SYNC, NOSYNC, QD16 = ZFS + "qd1-1job_sync_bs", ZFS + "qd1-1job_nosync_bs", ZFS + "qd16-16jobs_nosync_bs"


def _facts(fit):
    (key,) = fit.fits
    return curve_facts(fit, key)


def _line(case_id):
    """The case's sizes and per-I/O times 1 ÷ IOPS from its points.csv (one run a point in these typed tables)."""
    p = pd.read_csv(CORPUS / case_id / "points.csv").sort_values("block_size_bytes")
    return p["block_size_bytes"].to_numpy(float), 1 / p["iops"].to_numpy(float)


def _stream(texts):
    return [t for t in texts if t.startswith("One serial stream")]


# ------------------------------------------------------------------ YA: a step its own single line refutes
def test_ya_r17_zfs_qd1_sync_one_stream_not_two_regimes():
    fit = _fit(SYNC)
    texts = _texts(fit)
    one = _facts(fit).one_stream
    assert one is not None, texts
    s = one.facts
    b, t = _line(SYNC)  # 107.7, 96.7, 518.1, 1879.7 µs at 4 KiB, 8 KiB, 256 KiB, 1 MiB
    miss = (s["per_io_s"] + b / s["bytes_per_s"]) / t - 1
    assert abs(miss).max() <= ONE_STREAM_TOL and np.isclose(abs(s["worst_miss"]), abs(miss).max())
    assert s["worst_x"] == 4096  # IOPS rose 4 → 8 KiB (9.28 → 10.34 K): no line with a, B > 0 has that
    assert 85e-6 < s["per_io_s"] < 95e-6 and 0.55e9 < s["bytes_per_s"] < 0.65e9
    said = _stream(texts)
    assert said and f"within {abs(s['worst_miss']):.1%} at every size (the worst, at 4 KiB)" in said[0]
    assert "not shown to be a cap" in said[0]
    joined = " ".join(texts)
    assert "two regimes" not in joined and "jumps" not in joined and "No single-regime" not in joined, texts


def test_yb_r17_zfs_qd1_nosync_one_stream_not_a_byte_limit():
    fit = _fit(NOSYNC)
    texts = _texts(fit)
    s = _facts(fit).one_stream.facts
    b, t = _line(NOSYNC)  # 9.30, 14.22, 287.0, 1135.1 µs
    assert abs((s["per_io_s"] + b / s["bytes_per_s"]) / t - 1).max() <= 0.03
    assert 4e-6 < s["per_io_s"] < 6e-6 and 0.90e9 < s["bytes_per_s"] < 0.95e9
    assert _stream(texts) == texts, texts  # one story: no level, limit, rise or model ceiling beside it
    from nvmemodel.plots.fit import _size_cap_level

    assert _size_cap_level(fit, next(iter(fit.fits))) == {}  # the figure draws no level the words do not state


def test_ya_counter_two_regimes_at_one_io_keep_their_step():
    # QD1 along size: 10 µs + size ÷ 5 GB/s to 64 KiB, then each I/O pays size ÷ 0.5 GB/s (a change of path): one
    # line misses by far more than 10 %, so no one-stream sentence and the data keep what they show
    rows = []
    for k in range(9):
        bs = 4096 * 2 ** k
        t = 10e-6 + bs / 5e9 if bs <= 65536 else 10e-6 + bs / 0.5e9
        for r in range(3):
            v = 1 / t * (1 + 0.005 * (r - 1))
            rows.append({"block_size_bytes": bs, "iops": v, "bw_bytes_per_s": v * bs, "iodepth": 1, "numjobs": 1,
                         "lat_mean_s": 1 / v, "run": r, "source_path": f"bs{bs}-r{r}.json", "ioengine": "libaio",
                         "direction": "read"})
    fit = _fit_df(pd.DataFrame(rows))
    assert _facts(fit).one_stream is None
    assert not _stream(_texts(fit)), _texts(fit)


def test_ya_counter_the_same_line_at_qd4_is_not_one_stream():
    # a perfect a + size ÷ B line, but 4 I/Os outstanding: 1 ÷ IOPS is not each I/O's time there
    rows = []
    for k in range(7):
        bs = 4096 * 2 ** k
        v = 4 / (20e-6 + bs / 2e9)
        for r in range(3):
            rows.append({"block_size_bytes": bs, "iops": v, "bw_bytes_per_s": v * bs, "iodepth": 4, "numjobs": 1,
                         "lat_mean_s": 4 / v, "run": r, "source_path": f"bs{bs}-r{r}.json", "ioengine": "libaio",
                         "direction": "read"})
    fit = _fit_df(pd.DataFrame(rows))
    assert _facts(fit).one_stream is None and not _stream(_texts(fit))


@pytest.mark.parametrize("case_id", [
    "r4_here_blkio_iops_bs_qd1_repeats",   # a cgroup's 2000 IOPS at QD1: one line misses 17 % (a cap, not a stream)
    "r14_here-ra_loop-ra2560k_psync_buffered_seqread_bs_repeats",  # readahead: page cache vs device, misses 45 %
    "r4_here_rateiops_bs_loop",            # fio's rate_iops pace sets the rate (a line misses only 8 %)
])
def test_ya_counter_spent_qd1_series_that_are_not_one_line(case_id):
    fit = _fit(case_id)
    assert all(curve_facts(fit, k).one_stream is None for k in fit.fits)
    assert not _stream(_texts(fit)), _texts(fit)


# ------------------------------------------------------------------ YC: a byte level from the first size
def test_yc_r17_zfs_qd16x16_byte_level_from_the_first_size():
    fit = _fit(QD16)
    texts = _texts(fit)
    d = _facts(fit).cap.facts["bytes_doubling"]
    p = pd.read_csv(CORPUS / QD16 / "points.csv").sort_values("block_size_bytes")
    b, bw = p["block_size_bytes"].to_numpy(float), p["bw_bytes_per_s"].to_numpy(float)
    per = (bw[1:] / bw[:-1]) ** (1 / np.log2(b[1:] / b[:-1])) - 1  # +9 %, +3.2 %, +0.9 % per doubling
    assert np.isclose(d["per_max"], per.max()) and per.max() < 0.10
    assert d["depth"] == 256 and d["bytes"] == (bw[0], bw[-1])
    cap = [t for t in texts if "byte level from the first size" in t]
    assert cap and "×256 (1 MiB → 256 MiB) for ×1.29 the bandwidth" in cap[0], texts
    assert "gains under 10% per doubling of the size at every step from the first size (+9% the largest)" in cap[0]
    assert "301.4" in cap[0] and "at most" not in cap[0]  # (no "at most" before a rate: no cap is stated)
    assert not any("two largest sizes" in t or "byte limit" in t for t in texts), texts


def test_yc_counter_a_limit_the_two_largest_sizes_reach_stands():
    # r6 USB SSD at QD32: 319 MB/s at 64 KiB and 1 MiB (+0.14 %, runs overlapping), 4 KiB held below by its IOPS:
    # the per-doubling gains (+9.2 % over 4 KiB → 64 KiB) would pass, but the largest sizes gain nothing — the limit
    # the case's reading calls a hard byte cap keeps its two-size words
    fit = _fit("r6_ysj_sandisk-usb_randread_qd32_bs_repeats")
    assert _facts(fit).cap.facts["bytes_doubling"] is None
    assert any("a byte limit near 0.319 GB/s" in t and "no faster" in t for t in _texts(fit, "cap")), _texts(fit)


def test_yc_counter_a_fall_is_no_level_from_the_first_size():
    # r5 bounce pool: 4.09 GB/s at 64 KiB falling to 3.54 GB/s at 1 MiB (−14 %, < 10 % per doubling): a fall
    fit = _fit("r5_nks528_8x-sas-ssd-emul528_seqread_reqsize_pool")
    assert all(curve_facts(fit, k).cap is None or curve_facts(fit, k).cap.facts["bytes_doubling"] is None
               for k in fit.fits)
    assert not any("from the first size" in t for t in _texts(fit)), _texts(fit)


def test_yc_counter_a_steady_climb_is_no_level():
    # +9 % per doubling at every step over 8 doublings is ×2: each step inside the band, the whole far outside it
    rows = []
    for k in range(9):
        bs = 4096 * 2 ** k
        v = 1e9 * 1.09 ** k
        for r in range(3):
            rows.append({"block_size_bytes": bs, "iops": v / bs, "bw_bytes_per_s": v, "iodepth": 16, "numjobs": 1,
                         "lat_mean_s": 16 * bs / v, "run": r, "source_path": f"bs{bs}-r{r}.json",
                         "ioengine": "libaio", "direction": "read"})
    fit = _fit_df(pd.DataFrame(rows))
    cap = _facts(fit).cap
    assert cap is None or cap.facts["bytes_doubling"] is None
    assert not any("from the first size" in t for t in _texts(fit))


def test_yc_counter_spent_bytes_that_still_gain_per_doubling():
    # r17 cpuquota QD4 along size: 256 KiB → 1 MiB 2.39 → 3.03 GB/s with disjoint runs (a rise, read right by hand)
    fit = _fit("r17_here-cpuquota_loop_cfs25pct_libaio_randread_qd4_bs_repeats")
    cap = _facts(fit).cap
    assert cap is None or cap.facts["bytes_doubling"] is None
    assert not any("from the first size" in t for t in _texts(fit)), _texts(fit)
