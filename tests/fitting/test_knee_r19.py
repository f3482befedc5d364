"""Round 19's classes TB and UG (``_blind_rounds/round19_hand_read_part2.md`` TB, ``_part1.md`` UG), rules in
``nvmemodel/fitting/knee.py``:

- TB: an onset point whose mean latency had not risen over the lighter loads' (within 10 % of the point before it and
  of their median) while Little's law held there is still the linear part: the knee lies between it and the next
  point, and the level is shown as a limit only by the points past the knee — said with their count (r19 lsvdrbd
  rbd-3ssd randwrite qd: 19.4 ms at QD128 against 18.0 ms at QD64, "Plateau … over iodepth = 128–256, 2 points";
  r19 silentzns seqread numjobs: 91 µs at 6 jobs against 1 job's 89 µs).
- UG: a maximum the next points repeat (within 1 %) is a level held from the peak to the last of them, and the fall is told from there (r19 lkml-yukuai numjobs ×2: 67.7 MiB/s at 1, 2, 4 and 8
  jobs said "peaks at … numjobs = 1 and falls").

Rounds 19 and 20 are spent; counters are spent cases and seeded synthetic series (labelled).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.knee import HELD, LAT_RISE
from tests.fitting.corpus_score import CORPUS
from tests.fitting.test_size_r11 import _fit, _texts

pytestmark = pytest.mark.filterwarnings("ignore")

SSD3 = "r19_lsvdrbd_nvmetcp-spdk-rbd-3ssd_4k-randwrite_iouring_qd"
SEQREAD = "r19_silentzns_femu-zns-direct_16k-seqread-sync_zone-per-job_numjobs"
MMAP = "r19_here-mmapw_ext4-on-loop_mmap_randwrite_numjobs_repeats"
LKML = "r19_lkml-yukuai_hdd_1m-randwrite-psync-maxsectors128k_numjobs"
LKML_P = "r19_lkml-yukuai_hdd_1m-randwrite-psync-maxsectors128k-patched_numjobs"
SATA = "r20_tutsunom_sdf-sata-deadline_4k-randread_32jobs_qd_repeats"


def _sat(fit):
    (key,) = fit.fits
    return curve_facts(fit, key).saturation.facts, " ".join(_texts(fit, "saturation"))


def _points(case_id, x):
    return pd.read_csv(CORPUS / case_id / "points.csv").sort_values(x).reset_index(drop=True)


# ------------------------------------------------------------------ TB: the knee past an onset that had not queued
def test_tb_r19_3ssd_qd128_had_not_queued_the_knee_lies_before_256():
    p = _points(SSD3, "iodepth")  # one run a depth: QD1 … 256
    lat = p["lat_mean_s"].to_numpy(float)
    k = int(np.flatnonzero(p["iodepth"].to_numpy() == 128)[0])
    # QD128: 19.43 ms, within 10 % of QD64's 17.99 ms and of the median of QD1–64 (18.07 ms) — 28 % above QD4's 15.1
    # ms, so "the lowest latency" would not have read it; QD256: 40.3 ms, ×2.07
    assert lat[k] <= (1 + LAT_RISE) * lat[k - 1] and lat[k] <= (1 + LAT_RISE) * np.median(lat[:k])
    assert lat[k] > (1 + LAT_RISE) * lat[:k].min() and lat[k + 1] / lat[k] == pytest.approx(2.074, abs=0.001)
    s, text = _sat(_fit(SSD3))
    u = s["unqueued"]
    assert u is not None and (u["x"], u["x_next"], u["past"]) == (128, 256, 1)
    assert u["lat"] == pytest.approx(lat[k]) and u["lat_ref"] == pytest.approx(np.median(lat[:k]))
    assert s["onset_x"] == 128  # the rate reached the level there: the onset fact stays, its words place the knee
    assert "saturates between iodepth = 128 and 256: no later point gains 10% per doubling of iodepth over 128" in text
    assert "At iodepth = 128 fio's mean latency, 19.4 ms, had not risen beyond 10%" in text
    assert "the level is shown as a limit by the one point past it (iodepth = 256) only" in text
    assert "2 points" not in text and "saturates from" not in text, text


def test_tb_r19_seqread_six_jobs_at_one_jobs_latency():
    p = _points(SEQREAD, "numjobs")
    lat = p["lat_mean_s"].to_numpy(float)  # 89–91 µs at 1–6 jobs, 105 µs at 7
    s, text = _sat(_fit(SEQREAD))
    u = s["unqueued"]
    assert (u["x"], u["x_next"], u["past"]) == (6, 7, 1) and u["lat"] == pytest.approx(lat[5])
    assert u["lat_next"] == pytest.approx(lat[6]) and lat[6] / lat[5] > 1 + LAT_RISE
    assert "saturated between numjobs = 6 and 7" in text and "flattens at 66.15 K IOPS" in text
    assert "the level is shown as a limit by the one point past it (numjobs = 7) only" in text, text


def test_tb_counter_r19_mmap_little_far_below_one_tells_no_queue():
    # 2 jobs at 3.42 µs against 1 job's 3.6 µs, but IOPS × latency ÷ jobs = 0.27 there: the jobs spent their time
    # outside the I/O (page faults), so the flat latency says nothing of a queue — no knee is placed
    s, text = _sat(_fit(MMAP))
    assert s["unqueued"] is None and s["onset_x"] == 2
    assert "saturates from numjobs = 2" in text and "knee" not in text, text


def test_tb_counter_here_loop_numjobs_latency_rose_over_the_point_before():
    # dev/blind case measured here: 198 µs at 1 job (slow first point), 84 µs at 2, 103 µs at the onset 4 (+22 %):
    # below the first point's latency, yet the onset's load queued — the first point is no unloaded reference
    fit = nm.fit(nm.read_results(CORPUS / "here_loop_numjobs" / "raw"), x="numjobs", y="iops")
    s, text = _sat(fit)
    assert s["onset_x"] == 4 and s["unqueued"] is None
    assert "saturated from numjobs = 4" in text and "knee" not in text, text


def _knee_series(lat_at_onset: float, level: float, *, seed=3) -> pd.DataFrame:
    """SYNTHETIC (seeded, one run a depth, Little's law exact): 100 µs per I/O unloaded up to QD8, ``lat_at_onset``
    at QD16, a ``level`` IOPS limit from QD32 on (latency ∝ depth there)."""
    rng = np.random.default_rng(seed)
    x = np.array([1, 2, 4, 8, 16, 32, 64, 128, 256, 512])
    lat = np.where(x < 16, 100e-6, np.where(x == 16, lat_at_onset, x / level)) * (1 + 0.002 * rng.standard_normal(x.size))
    return pd.DataFrame({"iodepth": x, "iops": x / lat, "lat_mean_s": lat, "numjobs": 1,
                         "source_path": [f"synthetic/qd{v}.json" for v in x], "direction": "read"})


def test_tb_synthetic_sharp_knee_counts_the_points_past_it():
    # QD16 at the unloaded 100 µs → 160 K IOPS, the limit itself; QD32–512 at 160 K with latency ∝ depth
    s, text = _sat(nm.fit(_knee_series(100e-6, 160e3), x="iodepth", y="iops"))
    u = s["unqueued"]
    assert (u["x"], u["x_next"], u["past"], u["x_to"]) == (16, 32, 5, 512)
    assert "saturated between iodepth = 16 and 32" in text
    assert "the level is shown as a limit by the 5 points past it (iodepth = 32–512)" in text, text


def test_tb_counter_synthetic_onset_already_queued():
    # QD16 at 115 µs (+15 % over the lighter loads' 100 µs), 139 K IOPS against the 140 K level from QD32: part of its
    # load queued — the onset is the knee, said as before
    s, text = _sat(nm.fit(_knee_series(115e-6, 140e3), x="iodepth", y="iops"))
    assert s["unqueued"] is None and s["onset_x"] == 16
    assert "saturated from iodepth = 16" in text and "knee" not in text, text


# ------------------------------------------------------------------ UG: a peak the next points repeat
@pytest.mark.parametrize("case_id,drop", [(LKML, "53%"), (LKML_P, "24%")])
def test_ug_r19_lkml_level_held_one_to_eight_jobs_then_falls(case_id, drop):
    p = _points(case_id, "numjobs")
    bw = p["bw_bytes_per_s"].to_numpy(float)
    assert np.all(bw[:4] == bw[0]) and bw[4] < (1 - HELD) * bw[0]  # 67.7 MiB/s at 1, 2, 4, 8 jobs; 16 lower
    s, text = _sat(_fit(case_id))
    h = s["falls"]["held"]
    assert (h["x_to"], h["points"], h["x_next"]) == (8, 4, 16) and s["plateau_points"] == 4
    assert ("holds 71 MB/s (67.7 MiB/s), 68 IOPS from numjobs = 1 to 8 (4 points, each within 1% of it), then falls "
            f"from numjobs = 16 on: {drop} in all") in text
    assert "peaks at" not in text and "+0.0%" not in text and "Step by step: -" in text, text


def test_ug_r20_sata_held_within_one_percent_then_falls():
    # 3 runs a depth: QD1 78.80–78.97 K, QD2 78.53–78.67 K (−0.3 %), QD4 77.97–78.09 K (−1.1 %): held 1–2, falls from 4
    p = _points(SATA, "iodepth")
    m = p.groupby("iodepth")["iops"].mean()
    assert m[2] >= (1 - HELD) * m[1] and m[4] < (1 - HELD) * m[1]
    s, text = _sat(_fit(SATA))
    h = s["falls"]["held"]
    assert (h["x_to"], h["points"], h["x_next"]) == (2, 2, 4) and h["lo"] == pytest.approx(m[2])
    assert "holds 78.87 K IOPS from iodepth = 1 to 2 (2 points, each within 1% of it; the lowest 78.61 K IOPS)" in text
    assert "then falls from iodepth = 4 on: 17% in all" in text, text


@pytest.mark.parametrize("case_id", ["r15_wickist-rcraid_md-raid0-4x990pro_1m-seqread_qd16_numjobs",
                                     "budisc_p4510_128k-seqread_qd128_numjobs"])
def test_ug_counter_next_point_lower_keeps_the_peak(case_id):
    # the point after the maximum is 3.5 % / 7.7 % lower (one run a point): no hold, the peak (or the one higher
    # point before a level) and the fall as before
    s, text = _sat(_fit(case_id))
    assert s["state"] == "falls" and s["falls"]["held"] is None
    assert ("peaks at" in text or "after one higher point" in text) and "holds" not in text, text


def test_ug_counter_r17_cpuquota_a_step_within_wide_runs_is_no_hold():
    # runs at 2 jobs 112–148 K, at 3 jobs far below (means 134.6 K → 99.4 K, −26 %): within twice the standard error of
    # such runs, but a −26 % step is no level held — the peak and its steps stay
    p = _points("r17_here-cpuquota_loop_cfs50pct_psync_randread_numjobs_repeats", "numjobs")
    m = p.groupby("numjobs")["iops"].mean()
    assert m[3] < 0.8 * m[2]
    s, text = _sat(_fit("r17_here-cpuquota_loop_cfs50pct_psync_randread_numjobs_repeats"))
    assert s["state"] == "falls" and s["falls"]["held"] is None
    assert "peaks at 134.61 K IOPS at numjobs = 2" in text and "-26.2% (numjobs = 2 → 3)" in text, text
