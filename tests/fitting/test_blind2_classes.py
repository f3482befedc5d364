"""Issue 28, the classes the second blind round (``r2_*``, split ``blind2``) showed after it was scored once: each
rule is general (no series' value in it) and held here on the blind2 series it was seen on and on another series
(hand-made, seeded, or from another corpus). blind2 is spent (read, then used as development data); the third round
(``r3_*``) is never fitted here."""
import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from tests.fitting import corpus_score as cs
from tests.fitting.test_models_after_facts_r8 import assert_no_model_level


def _case(case_id):
    return cs.fit_case_id(case_id, "blind2")


def _claims(res, kind):
    return [c for c in res.claims() if c["kind"] == kind]


# ---------------------------------------------------- class 3: a model cap at the last point of a still-rising curve
@pytest.mark.parametrize("case_id", ["r2_tratori_p5800x_4k-randread_drives_repeats",
                                     "r2_here_pagecache_read_numjobs_repeats"])
def test_no_cap_number_at_the_last_point_of_a_rising_curve_blind2(case_id):
    res = _case(case_id)
    text = " ".join(c["text"] for c in _claims(res, "model"))
    assert "no ceiling is reached within the data" in text
    assert "cap of" not in text and "stays at" not in text


# ------------------------------------------------------- class 4: a model's interval below a measurement
def _littles_ci_ok(res):
    (m,) = [c for c in _claims(res, "model") if "Little's law" in c["text"]]
    top = res.points["y"].groupby(res.points[res.x]).mean().max()
    for lo, unit, _clause in cs.limit_intervals(m["text"]):
        assert lo >= top * 0.98, (lo, top, m["text"])
    return m["text"]


def test_littles_cap_interval_starts_at_what_was_measured_blind2():
    # 5.03 K IOPS measured at numjobs = 8; the cap's 95 % CI was written 4.79 K–5.10 K. Round 8: the data's fall after
    # that maximum is the level the facts state, so the model states no cap (nor any interval) at all
    res = _case("r2_here_blkio_iops_rateiops_numjobs")
    assert any(c["kind"] == "falls" and "peaks at 5.03 K IOPS" in c["text"] for c in res.claims())
    assert_no_model_level(res)


def test_littles_cap_interval_starts_at_what_was_measured_seeded():
    rng = np.random.default_rng(1)
    rows = [{"numjobs": x, "iops": min(x * 1000, 5000) * (1 + 0.01 * rng.standard_normal()) * (1.03 if x == 8 else 1)}
            for x in (1, 2, 4, 8, 16) for _ in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = nm.fit(pd.DataFrame(rows), x="numjobs", y="iops")
    assert res.chosen[()] == "littles"
    # round 8: the measured level is the facts'; the fit's cap and its interval are summary()'s only
    assert "littles" in res.summary()
    assert_no_model_level(res)


# ----------------------------------------------- class 5: a plateau in IOPS only, at blocks of 64 KiB or more
def test_plateau_in_iops_gives_bytes_too_at_large_blocks_blind2():
    res = _case("r2_here_blkio_bps_numjobs_thinktime_128k")  # 128 KiB reads under a blkio bytes/s throttle
    (p,) = _claims(res, "plateau")
    assert "IOPS, 41.8 MB/s" in p["text"]  # 319 IOPS × 131,072 B
    assert all("B/s" in c["text"] for c in _claims(res, "model") if "stays at" in c["text"])


def test_plateau_in_iops_gives_bytes_too_at_large_blocks_seeded():
    rng = np.random.default_rng(2)
    rows = []
    for x in (1, 2, 4, 8, 16):
        for _ in range(3):
            iops = min(x * 200.0, 640.0) * (1 + 0.01 * rng.standard_normal())
            rows.append({"iodepth": x, "iops": iops, "bytes_per_s": iops * 262144, "block_size_bytes": 262144})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")
    text = res.explain()
    level = [c["text"] for c in res.claims() if c["kind"] in ("plateau", "saturation")]
    assert level and all("B/s" in t for t in level), level
    assert "0.168 GB/s" in text or "168 MB/s" in text, text  # 640 IOPS × 256 KiB


# ---------------------------------------------- class 2: a pace per job along numjobs (its total is rate × jobs)
def test_per_job_pace_is_rate_times_jobs_and_the_cap_beyond_it_is_named_blind2():
    (p,) = _claims(_case("r2_here_blkio_iops_rateiops_numjobs"), "paced")
    t = p["text"]
    # each run against its own pace (round 6: shares per run, not of point means: 99.7 %–99.8 % were the means)
    assert "(1.00 K IOPS, 2.00 K IOPS, 4.00 K IOPS; 99.4%–100.0% of it)" in t and "of 2.00 K IOPS" not in t
    assert "saturated from numjobs = 8" in t and "a cap of about 5.03 K IOPS" in t


def test_per_job_pace_along_numjobs_is_no_saturation_blind2():
    res = _case("r2_here_rateiops_numjobs")
    (p,) = _claims(res, "paced")
    assert "still rises in proportion to that pace" in p["text"] and "every run is at that rate" not in p["text"]
    sat = [c for c in res.claims() if c["facts"].get("state") in ("from_first", "onset")]
    assert not sat


def test_per_job_pace_along_numjobs_other_corpus():
    # tests/data/qa4/ratenj: psync reads of a tmpfs file, --rate_iops=2000 per job, 1-8 jobs (real fio 3.33)
    import pathlib

    d = pathlib.Path(__file__).parents[1] / "data" / "qa4" / "ratenj"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = nm.fit(nm.read_results(sorted(d.glob("*.json"))), x="numjobs", y="iops")
    (p,) = _claims(res, "paced")
    assert "every run is at its own total (2.00 K IOPS, 4.00 K IOPS, 8.00 K IOPS, 16.00 K IOPS" in p["text"]


# ------------------------------------------- class 1: a think-time bound the data exceed; the cap beyond the pace
@pytest.mark.parametrize("case_id, cap", [("r2_here_blkio_iops_numjobs_thinktime", "2.99 K IOPS–3.00 K IOPS"),
                                          ("r2_here_blkio_bps_numjobs_thinktime_128k", "317 IOPS–322 IOPS (41.6 MB/s")])
def test_think_time_is_no_upper_bound_and_the_cap_beyond_it_is_named_blind2(case_id, cap):
    (p,) = _claims(_case(case_id), "paced")
    t = p["text"]
    assert "at most" not in t and "ramp_time" in t  # the runs exceed jobs ÷ (think + latency) by 17-21 %
    assert "at numjobs = 1, 2 the runs are paced by it" in t
    assert f"from numjobs = 4 on the runs stay below it" in t and cap in t and "saturated from numjobs = 4" in t


def test_think_time_exceeded_after_a_ramp_seeded():
    """The mechanism, measured here (fio 3.33, null engine, --thinktime=1000, 2 s): 933 IOPS without a ramp_time,
    1,203 IOPS with --ramp_time=500ms — 20 % above 1 / (think time + latency) = 999 IOPS. Held on a hand-made table
    of that shape: one job per point, 1 ms think time, runs above the bound: no 'at most' is written."""
    rows = [{"numjobs": n, "iops": 1200.0 * n, "lat_mean_s": 1e-6, "thinktime_s": 1e-3, "iodepth": 1}
            for n in (1, 2, 4)]
    from nvmemodel.fitting import pacing_claims as pc

    class R:  # the few things _thought reads of a result
        x, y_unit, by = "numjobs", "1/s", ()

    import pandas as pd_

    r = R()
    r.points = pd_.DataFrame({"numjobs": [1, 2, 4], "y": [1200.0, 2400.0, 4800.0], "jobs": [1.0, 2.0, 4.0],
                              "sources": ["a", "b", "c"]})
    r.table = pd_.DataFrame([dict(row, source_path=s, level="job" if row["numjobs"] == 1 else "group")
                             for row, s in zip(rows, "abc")])
    import unittest.mock as um

    with um.patch("nvmemodel.ingest.summary.usable_rows", lambda t: t), \
            um.patch.object(pc, "_level", lambda result, key, lo, hi: f"{lo:g}–{hi:g}"):
        (c,) = pc._thought(r, ())
    assert "at most" not in c.text and "exceed even jobs ÷ (think time + fio's mean latency) (by 20%)" in c.text


# ---------------------------- class 6: one fact, one story (a last gain inside the repeats' noise; no 'flat' beside it)
@pytest.mark.parametrize("case_id", ["r2_here_loop_iodepth_64k_repeats", "r2_here_loop_psync_numjobs_repeats"])
def test_a_last_gain_within_the_repeats_noise_is_one_story_blind2(case_id):
    res = _case(case_id)
    text = " ".join(c["text"] for c in res.claims())
    # (round 5: runs ×13.9 apart at one iodepth are said as such — no onset, level or fall read — test_saturation_r5;
    # round 6 BE: where the runs of two points do not overlap, the rise and the level are read on the runs)
    assert "within the repeats' noise" in text or "no onset, level or fall can be read" in text \
        or "no later point's runs lie above its runs" in text \
        or "the runs of the two overlap" in text  # (round 9 GA: overlapping runs, a mean gain ≥ 10 %: cannot tell)
    assert "still rise" not in text and "No shape is claimed for flat data" not in text
    assert "lie on one level" not in text or "saturates from" not in text


def test_a_last_gain_within_the_repeats_noise_seeded():
    # a hand-made QD sweep with 3 runs a point: +12 % in the last doubling, its runs spanning ±1 K IOPS
    runs = {1: [990, 1000, 1010], 2: [1980, 2000, 2020], 4: [2970, 3000, 3030], 8: [2600, 3600, 4600],
            16: [3032, 4032, 5032]}
    rows = [{"iodepth": x, "iops": float(v), "lat_mean_s": x / float(np.mean(vs))} for x, vs in runs.items() for v in vs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")
    text = " ".join(c["text"] for c in res.claims())
    (sat,) = [c for c in res.claims() if c["kind"] == "saturation"]
    # its latency grows ×1.79 for the last doubling with Little's law holding: near saturation (round 12 MA)
    assert sat["facts"]["state"] == "near" and "near saturation" in sat["text"], sat
    assert "still rise" not in text and "No shape is claimed for flat data" not in text


# ------------ findings H: a mixed run's mean latency over all its I/O when the table carries no I/O counts
def test_littles_check_of_a_mix_weighs_directions_by_their_iops_blind2():
    res = _case("r2_abdulm3_sn730_128k-randrw_qd32_readshare")  # a published points table: no fio 'ios' column
    (little,) = _claims(res, "little")
    assert "per run = 1.00" in little["text"] and "far above" not in little["text"]


def test_littles_check_of_a_mix_weighs_directions_by_their_iops_hand_made():
    # runs at QD 16, e.g. reads 8 K IOPS at 1 ms and writes 2 K IOPS at 4 ms: 8 + 8 = 16 in flight; the
    # unweighted mean latency (2.5 ms) would give 10 K × 2.5 ms ÷ 16 = 1.56
    base = {"tool": "fio", "pattern": "randrw", "block_size_bytes": 4096.0, "iodepth": 16, "numjobs": 1,
            "ioengine": "libaio", "runtime_s": 60.0, "level": "job", "is_aggregate": False, "job_name": "t"}
    rows = []
    for i, share in enumerate((0.5, 0.8, 1.0)):
        r_iops = 10000.0 * share
        w_iops = 10000.0 - r_iops
        r_lat = 1e-3 if w_iops else 16 / r_iops  # reads 1 ms; the writes hold the rest of the 16 in flight
        w_lat = (16 - r_iops * r_lat) / w_iops if w_iops else np.nan
        for d, iops, lat in (("read", r_iops, r_lat), ("write", w_iops, w_lat)):
            if iops:
                rows.append(dict(base, source_path=f"r{i}.json", run=i, direction=d, read_fraction=share, iops=iops,
                                 bw_bytes_per_s=iops * 4096, lat_mean_s=lat))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = nm.fit(pd.DataFrame(rows), x="read_fraction", y="iops")
    little = res.points["little"].to_numpy(float)
    assert np.allclose(little, 1.0, atol=0.01), little


# ------------------ findings G: a mix above the harmonic mix with one I/O in flight is not "served in parallel"
def test_mix_above_harmonic_at_one_in_flight_is_not_parallel_blind2():
    (m,) = _claims(_case("r2_marcm24_sn750se-pagecache_32k-randrw_qd1_readshare"), "mix")
    assert "served in parallel)" not in m["text"] and "nothing was served in parallel" in m["text"]


@pytest.mark.parametrize("depth, parallel", [(1, False), (16, True)])
def test_mix_above_harmonic_at_one_in_flight_is_not_parallel_hand_made(depth, parallel):
    base = {"tool": "fio", "pattern": "randrw", "block_size_bytes": 4096.0, "iodepth": depth, "numjobs": 1,
            "ioengine": "libaio", "runtime_s": 60.0, "level": "job", "is_aggregate": False, "job_name": "t"}
    total = {0.0: 8000.0, 0.5: 11000.0, 1.0: 10000.0}  # 0.5 mix: 22 % above the harmonic 8.89 K
    rows = []
    for i, (share, x) in enumerate(total.items()):
        for d, iops in (("read", x * share), ("write", x * (1 - share))):
            if iops:
                rows.append(dict(base, source_path=f"r{i}.json", run=i, direction=d, read_fraction=share, iops=iops,
                                 bw_bytes_per_s=iops * 4096, lat_mean_s=depth / x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = nm.fit(pd.DataFrame(rows), x="read_fraction", y="iops")
    (m,) = _claims(res, "mix")
    assert ("served in parallel)" in m["text"]) is parallel and ("nothing was served in parallel" in m["text"]) is not parallel
