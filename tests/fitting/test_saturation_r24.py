"""Round 24's classes CC, CD, BB and BD (``_blind_rounds/round24_hand_read_part2.md`` CC/CD, ``…_part1.md`` BB/BD):

- CC: an onset said where a later step's runs lie apart and still gain (hipri numjobs), or at a bump above earlier
  points already on the level's range (zramuring iodepth) — :mod:`nvmemodel.fitting.onset_checks`.
- CD: "the jobs polled for their completions (hipri)" where every I/O slept at a low CPU share —
  :mod:`nvmemodel.hostcal.poll_proof`, :mod:`nvmemodel.fitting.poll_words`.
- BB: two load points, no gain, latency grown as Little's law gives: saturated from the first point —
  :mod:`nvmemodel.fitting.two_point_queue`.
- BD: "one I/O at a time" where a 1 MiB I/O is several device requests — :mod:`nvmemodel.fitting.request_split`.

Round 24 is spent; counters are other spent cases and seeded synthetic tables (labelled synthetic).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.onset_checks import bump_before, later_rise
from nvmemodel.hostcal.costs import POLL_OPTIONS, polls
from nvmemodel.hostcal.poll_proof import hipri_slept
from tests.fitting.corpus_score import CORPUS, fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

HIPRI = "r24_here-hipri_loop-nopoll_pvsync2-hipri_randread_numjobs_repeats"
URING = "r24_here-zramuring_zram-lz4-comp50_iouring_randread_iodepth_repeats"
LZO = "r24_here-zramlzo_zram-lzo-comp50_psync_randread_numjobs_repeats"
SPLIT = "r23_here-cpusplit_loop_libaio_cpus-split_randread_qd4_numjobs_repeats"
LOGRAND = "r23_iouringlog_nvme0n1_4k-randread_iouring_qd1_numjobs"
SQPOLL = "r18_msf2fsbench_zn540-zns-4klbaf_4k-seqwrite_iouring-sqpoll_qd16_zones-numjobs"
COLIBRI = "r24_colibri_win11-hddpool-vs-nvme_1m-randread-unbuffered_qd_by-volume"
NOX1M = "r24_noxdb_sn530-preconditioned_1m-seqwrite_libaio_qd"
NOX4K = "r24_noxdb_sn530-preconditioned_4k-randwrite_libaio_qd_repeats"


def _sat(fit, key=()):
    return curve_facts(fit, key).saturation.facts


def _table(case: str) -> pd.DataFrame:
    return pd.read_csv(CORPUS / case / "points.csv", low_memory=False)


# ---- CC: onset checks ----------------------------------------------------------------------------------------------

def test_cc_hipri_still_rises_where_every_8_job_run_is_above_every_4_job_run():
    fit = fit_case_id(HIPRI)
    s = _sat(fit)
    assert s["state"] == "rising" and s["onset_x"] is None
    r = s["later_rise"]
    assert (r["x0"], r["x1"]) == (4.0, 8.0)
    assert r["lo1"] > r["hi0"]  # every 8-job run (≥ 62.19 K) above every 4-job run (≤ 60.30 K)
    assert r["gain_mean"] == pytest.approx(0.272, abs=0.002) and r["gain_median"] == pytest.approx(0.369, abs=0.002)
    t = fit.explain()
    assert "saturated from numjobs = 2" not in t and "still rises at the largest numjobs" in t


def test_cc_zramuring_level_from_the_first_point_with_iodepth_4_a_bump():
    fit = fit_case_id(URING)
    s = _sat(fit)
    assert s["state"] == "from_first" and s["onset_x"] == 1.0
    b = s["bump"]
    assert b["x_bump"] == 4.0 and b["xs_before"] == [1.0, 2.0]
    assert b["meds_before"] == pytest.approx([88990.67, 91859.43], rel=1e-4)
    assert (b["lo"], b["hi"]) == pytest.approx((87514.99, 149465.02), rel=1e-4)
    assert b["above_later"] == [8.0, 16.0]
    assert 85e3 <= s["plateau"] <= 155e3  # the gatherer's level
    t = fit.explain()
    assert "saturates from iodepth = 4" not in t
    assert t.startswith("Measured IOPS is saturated from the first point: the medians at iodepth = 1 and 2 (88.99 K IOPS, "
                        "91.86 K IOPS) already lie within the level's own range (87.51 K IOPS to 149.47 K IOPS), so "
                        "iodepth = 4 (116.61 K IOPS, above the medians at iodepth = 8 and 16 after it) is a bump")


@pytest.mark.parametrize("case, state, onset", [
    (SPLIT, "onset", 3.0),      # 4 → 8 apart by 0.7 %, but 8's median gains < 10 %/doubling over the onset's
    (LOGRAND, "onset", 4.0),    # onset below a tight level (±3 %)
    (LZO, "rising", None),      # tight repeats, no onset read before either
])
def test_cc_counter_cases_keep_their_reading(case, state, onset):
    s = _sat(fit_case_id(case))
    assert s["state"] == state and s["onset_x"] == onset
    assert s.get("later_rise") is None and s.get("bump") is None


def test_cc_later_rise_synthetic():
    # synthetic: onset at 2 by means carried by one far run; 4 → 8 apart and +25 %
    x = np.array([1.0, 2.0, 4.0, 8.0])
    runs = [np.array([10.0, 11, 12]), np.array([40.0, 42, 80]), np.array([44.0, 46, 48]), np.array([55.0, 57, 60])]
    ym, yl = np.array([r.mean() for r in runs]), np.array([np.median(r) for r in runs])
    split = np.zeros(4, bool)
    r = later_rise(x, ym, yl, runs, split, 1)
    assert r is not None and (r["x0"], r["x1"]) == (4.0, 8.0)
    # counter (synthetic): the same rise with the 8-job runs overlapping the 4-job runs: no rise read
    runs2 = runs[:3] + [np.array([47.0, 57, 60])]
    ym2, yl2 = np.array([v.mean() for v in runs2]), np.array([np.median(v) for v in runs2])
    assert later_rise(x, ym2, yl2, runs2, split, 1) is None
    # counter (synthetic): one run a point — nothing to tell apart
    one = [np.array([v]) for v in yl]
    assert later_rise(x, yl, yl, one, split, 1) is None


def test_cc_bump_before_synthetic():
    x = np.array([1.0, 2.0, 4.0, 8.0])
    split = np.zeros(4, bool)
    y = np.array([100.0, 130.0, 90.0, 135.0])  # synthetic: a dip after the onset, the first point inside the range
    assert bump_before(x, y, y, split, 1)["x_bump"] == 2.0
    y = np.array([70.0, 100.0, 100.0, 60.0])  # synthetic counter: a fall after the level is no part of its range
    assert bump_before(x, y, y, split, 1) is None
    y = np.array([50.0, 100.0, 102.0, 101.0])  # synthetic counter: a real onset below a tight level
    assert bump_before(x, y, y, split, 1) is None


# ---- CD: hipri without polling ---------------------------------------------------------------------------------------

def test_cd_hipri_on_a_loop_device_is_not_read_as_polling():
    rows = _table(HIPRI)
    s = hipri_slept(rows)
    assert s is not None and s["runs"] == 12
    assert s["per_lo"] == pytest.approx(0.9992, abs=2e-4) and s["per_hi"] == pytest.approx(1.0008, abs=2e-4)
    assert s["cpu_lo"] == pytest.approx(0.0601, abs=5e-4) and s["cpu_hi"] == pytest.approx(0.2373, abs=5e-4)
    assert polls(rows) == ""
    t = fit_case_id(HIPRI).explain()
    assert "polled for their completions" not in t
    assert ("The runs asked for polled completions (hipri=1), but every I/O slept: 1.00 context switches per I/O in "
            "every run (fio's ctx ÷ I/Os) at 6.0–23.7 % of a CPU a job") in t


def test_cd_counter_a_polling_run_keeps_its_reading():
    rows = _table(SQPOLL)  # ctx ≈ 0 per I/O, the job ≈ 100 % busy: it spun
    assert hipri_slept(rows) is None
    assert polls(rows) in POLL_OPTIONS.values()
    # synthetic: the hipri rows with ctx ≪ 1 per I/O: polling shown, the option stands
    syn = _table(HIPRI).assign(ctx=lambda d: d["ios"] * 0.001)
    assert hipri_slept(syn) is None and polls(syn) == POLL_OPTIONS["hipri"]
    # synthetic: ctx ≈ 1 but the job ≥ 90 % busy: not read as "slept" (a busy job may have spun between sleeps)
    busy = _table(HIPRI).assign(cpu_sys=0.95)
    assert hipri_slept(busy) is None


# ---- BB: two points, the added I/O queued ------------------------------------------------------------------------------

def test_bb_hdd_pool_two_points_saturated_from_the_first():
    fit = fit_case_id(COLIBRI)
    t = [p for p in fit.explain().split("\n\n") if p.startswith("target_names=D:")][0]
    assert "cannot tell a plateau from noise" not in t and "no shape is claimed" not in t
    assert ("Measured throughput is saturated from the first point (2 points of one run each): ×4 the iodepth gave "
            "×0.95 the throughput") in t
    assert "median latency grew ×3.05 (22.5 ms → 68.7 ms), near Little's law at that rate (×4.21)" in t
    c = [c for c in fit.claims() if (c["facts"] or {}).get("two_points")]
    assert len(c) == 1 and c[0]["facts"]["state"] == "from_first" and c[0]["kind"] == "saturation"
    assert 37.5e6 <= c[0]["facts"]["plateau"] <= 41e6
    # counter: the NVMe curve C (×1.68 for ×4): no level read, "no shape is claimed" kept
    tc = [p for p in fit.explain().split("\n\n") if p.startswith("target_names=C:")][0]
    assert "no shape is claimed" in tc and "saturated" not in tc


def test_bb_synthetic_counters():
    import nvmemodel as nm

    base = {"iodepth": [1, 4], "numjobs": [1, 1], "direction": ["read", "read"], "block_size_bytes": [1 << 20] * 2}
    # synthetic: no latency column: stays undecided
    t = pd.DataFrame({**base, "bw_bytes_per_s": [40.3e6, 38.3e6], "iops": [38.4, 36.5]})
    text = nm.fit(t, x="iodepth", y="bytes_per_s").explain()
    assert "saturated from the first point" not in text
    # synthetic: latency flat (the added I/O never reached a queue): no level from it
    t2 = t.assign(clat_p50_s=[0.0225, 0.0230])
    assert "saturated from the first point" not in nm.fit(t2, x="iodepth", y="bytes_per_s").explain()


# ---- BD: one fio I/O, several device requests ---------------------------------------------------------------------

def test_bd_1m_writes_are_not_one_request_at_the_device():
    t = fit_case_id(NOX1M).explain()
    assert "one I/O at a time already reaches it" not in t
    assert ("The limit is reached at the smallest load measured, 1 of fio's I/Os outstanding (by Little's law each took "
            "1 ÷ 609 IOPS = 1.64 ms on average); a 1 MiB I/O may reach the device as several requests") in t


def test_bd_disk_stats_name_the_split_and_small_blocks_are_not_split():
    from nvmemodel.fitting.one_outstanding import _first_rows
    from nvmemodel.fitting.request_split import first_split

    fit = fit_case_id(NOX4K)  # counter: 4 KiB writes
    p = curve_facts(fit, ()).points
    assert first_split(fit, p, _first_rows(fit, p)) is None
    import nvmemodel as nm

    # synthetic: 1 MiB writes whose disk statistics count 8 device requests per fio I/O
    t = pd.DataFrame({"iodepth": [1, 2, 4], "numjobs": 1, "direction": "write", "block_size_bytes": 1 << 20,
                      "iops": [609.0, 614.0, 616.0], "bw_bytes_per_s": [609.0 * 2**20, 614.0 * 2**20, 616.0 * 2**20],
                      "ios": [609.0 * 60, 614.0 * 60, 616.0 * 60], "disk_write_ios": [609.0 * 480, 614.0 * 480, 616.0 * 480],
                      "source_path": ["a", "b", "c"]})
    fit2 = nm.fit(t, x="iodepth", y="bytes_per_s")
    s = first_split(fit2, curve_facts(fit2, ()).points, _first_rows(fit2, curve_facts(fit2, ()).points))
    assert s is not None and s["ratio"] == pytest.approx(8.0)
    # synthetic counter: disk statistics at one request per fio I/O: no split said
    fit3 = nm.fit(t.assign(disk_write_ios=t["ios"]), x="iodepth", y="bytes_per_s")
    assert first_split(fit3, curve_facts(fit3, ()).points, _first_rows(fit3, curve_facts(fit3, ()).points)) is None
