"""Mild remnants of rounds 25–26 (tests/data/explain_corpus/_blind_rounds/round25_hand_read_part1.md DB,
round26_hand_read.md "Mild only"), fixed after round 26 was read:

1. drift (run_drift.py): where a bracketing repeat is drift, the step list starts from the drifted point's run measured
   in sequence with the points beside it, said so — never the pooled mean as a level unsaid;
2. "the job" where every run had one job (job_count.py), never "each job spent" of one job;
3. (context_switches.point_switches removed: nothing used it — no test);
4. the knee's lighter-load reference as measured (knee_words.py), never the median of two unlike latencies.

Spent cases assert the new words and numbers; counter-cases (spent cases and labelled synthetic tables) assert the
rules do not fire where they must not."""

from __future__ import annotations

import types
import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from nvmemodel.fitting.job_count import each_job, one_job
from nvmemodel.fitting.submit_serial import submit_holder_words, submit_little_words, submit_serial

from .corpus_score import CORPUS, fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

RADOS = "r25_juicefsceph_direct-rados-read_256k-vs-4m-objects_qd_by-objsize"
FUSE16 = "r25_juicefsceph_juicefs-fuse_16m-write-libaio_qd_repeats"
CPUHOG = "r26_here-cpuhog_loop-tmpfs_psync_randread4k_cpuio-neighbour_numjobs_repeats"
SSD3 = "r19_lsvdrbd_nvmetcp-spdk-rbd-3ssd_4k-randwrite_iouring_qd"
SEQREAD = "r19_silentzns_femu-zns-direct_16k-seqread-sync_zone-per-job_numjobs"
BTRFSCOW = "r25_here-btrfscow_btrfs-on-loop-tmpfs_libaio_randwrite4k_iodepth_repeats"


def _sat_claims(case_id: str) -> list[dict]:
    return [c for c in fit_case_id(case_id).claims() if c["kind"] == "saturation"]


def _fit_ordered(seq) -> list[dict]:
    """SYNTHETIC: one run a row, ``seq`` = [(iodepth, K IOPS)] in run order (each run its own ordinal)."""
    rows = [{"iodepth": q, "numjobs": 1, "iops": v * 1e3, "source_path": f"r{o}.json", "run": o}
            for o, (q, v) in enumerate(seq)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = nm.fit(pd.DataFrame(rows), x="iodepth", y="iops")
    return [c for c in r.claims() if c["kind"] == "saturation"]


# ------------------------------------------------------------------ 1: the step list from the run in sequence
def test_rados_steps_start_from_the_first_qd1_run():
    c256, c4m = _sat_claims(RADOS)
    # the hand read (DB): from the run that began the curve the gains are +111, +105, +87, +54, +21 % (256 KiB) and
    # +116, +89, +60, +23 % (4 MiB); the pooled QD1 means (0.363 / 0.945 GB/s) gave +87 % and +98 %
    t = c256["text"]
    d = c256["facts"]["drift"]
    assert d["sequence_run"] == "first" and d["in_sequence"] == pytest.approx(d["first"])
    assert ("Step by step from 0.323 GB/s (0.3 GiB/s) at iodepth = 1 (its first run, measured in sequence with the "
            "points beside it; the drift below): +111% (1 → 2), +105% (2 → 4), +87% (4 → 8), +54% (8 → 16), "
            "+21% (16 → 32) per doubling of iodepth") in t
    assert "0.363 GB/s" not in t and "+87% (1 → 2)" not in t
    assert "so the steps from iodepth = 1 start from its first run, not from the mean of the two." in t
    assert "is the mean of the two" not in t
    t = c4m["text"]
    assert ("from 0.869 GB/s (0.809 GiB/s) at iodepth = 1 (its first run, measured in sequence with the points "
            "beside it; the drift below): +116% (1 → 2), +89% (2 → 4), +60% (4 → 8), +23% (8 → 16)") in t
    assert "0.945 GB/s" not in t and "+98% (1 → 2)" not in t
    # the verdicts stay (the hand read: they survive the drift): still rising at 256 KiB, onset 16 at 4 MiB
    assert c256["facts"]["state"] == "rising" and c4m["facts"]["onset_x"] == 16


def test_drift_counter_a_small_bracket_changes_no_step():
    # 16m-write: QD8 first and last, 3.7 % apart (inside the ±10 % band): no drift, no "first run" words
    (c,) = _sat_claims(FUSE16)
    assert c["facts"]["drift"] is None and "measured in sequence" not in c["text"]


def test_drift_synthetic_first_point_uses_its_first_run():
    # SYNTHETIC: QD1 100 K first, 130 K again after QD8 (+30 %): the steps from 100 K (+90 %), not from the mean 115 K
    (c,) = _fit_ordered([(1, 100), (2, 190), (4, 360), (8, 700), (1, 130)])
    assert c["facts"]["drift"]["sequence_run"] == "first"
    assert "from 100.00 K IOPS at iodepth = 1 (its first run, measured in sequence" in c["text"]
    assert "+90% (1 → 2)" in c["text"] and "115.00 K" not in c["text"]


def test_drift_synthetic_last_point_keeps_its_mean_and_says_so():
    # SYNTHETIC: QD8 measured first (700 K) and last (900 K): its run in sequence with QD4 is the last one; inside the
    # list (not its start) the mean stays — the list names it as the mean of its two runs, and the drift words say
    # the level there is that mean
    (c,) = _fit_ordered([(8, 700), (1, 100), (2, 190), (4, 360), (8, 900)])
    d = c["facts"]["drift"]
    assert d["x"] == 8 and d["sequence_run"] == "last" and d["in_sequence"] == pytest.approx(900e3)
    t = c["text"]
    assert "(iodepth = 8: the mean of its first and last runs, which drifted — below)" in t
    assert "and the level at iodepth = 8 is the mean of the two." in t and "measured in sequence" not in t


def test_drift_counter_adjacent_repeats_say_nothing():
    # SYNTHETIC: QD1's two runs adjacent in run order (0, 1): scatter, not drift — the step list from their mean
    (c,) = _fit_ordered([(1, 100), (1, 130), (2, 190), (4, 360), (8, 700)])
    assert c["facts"]["drift"] is None and "measured in sequence" not in c["text"]
    assert "from 115.00 K IOPS at iodepth = 1" in c["text"]


# ------------------------------------------------------------------ 2: "the job" of one job
def test_one_job_and_each_job_from_points_or_rows():
    assert one_job(pd.DataFrame({"jobs": [1.0, 1.0]})) and each_job(pd.DataFrame({"jobs": [1.0]})) == "the job"
    assert not one_job(pd.DataFrame({"jobs": [1.0, 2.0]}))
    assert each_job(pd.DataFrame({"numjobs": [4]}), capital=True) == "Each job"
    # unknown counts keep "each job" (true of one job too)
    assert each_job(pd.DataFrame({"x": [1.0]})) == "each job" and not one_job(pd.DataFrame({"jobs": [np.nan]}))
    assert not one_job(None)


def test_btrfscow_one_job_is_the_job_in_every_sentence():
    text = fit_case_id(BTRFSCOW).explain()
    # one libaio job a run at every iodepth: slat × IOPS = 0.980–0.989 in all 12 runs
    assert "The job spent 98–99 % of its time inside the submit call" in text
    assert "one at a time (with whatever waits inside it)" in text
    assert "the job was below 90% of one CPU while it spent 98–99 % of its time inside the submit call" in text
    assert "each job" not in text.lower() and "one at a time per job" not in text


def _async_table(jobs: int, share: float = 0.95, depths=(1, 4, 16), seed: int = 0):
    """SYNTHETIC (seeded): libaio, ``jobs`` jobs a run reported as one group row (fio's sum), 3 runs a depth, each job
    ≈ 10 K IOPS, slat = share ÷ a job's IOPS, at QD1 the completion 1 µs (done inside the call)."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in depths:
        for k in range(3):
            per = 10_000 * (1 + 0.02 * rng.standard_normal())
            slat = share / per
            clat = 1e-6 if d == 1 else (d - share) / per
            rows.append({"source_path": f"qd{d}-r{k}.json", "run": 0, "group_id": 0, "iodepth": d,
                         "numjobs": jobs, "direct": 1, "direction": "write", "iops": per * jobs,
                         "slat_mean_s": slat, "clat_mean_s": clat, "lat_mean_s": slat + clat})
    pts = pd.DataFrame({"x": [float(d) for d in depths], "out": [float(d * jobs) for d in depths],
                        "jobs": [float(jobs)] * len(depths),
                        "sources": [";".join(f"qd{d}-r{k}.json" for k in range(3)) for d in depths]})
    return types.SimpleNamespace(table=pd.DataFrame(rows), x="iodepth"), pts


def test_submit_words_one_job_and_counter_two_jobs():
    res, pts = _async_table(1)
    assert submit_serial(res, pts) is not None
    w = submit_holder_words(res, pts)
    assert w.startswith(" The job spent 9") and "one at a time (with" in w and "per job" not in w
    assert ": the job spent 9" in submit_little_words(res, pts)
    # counter: two jobs a run (one group row, fio's sum) — "each job", "one at a time per job"
    res, pts = _async_table(2)
    assert submit_serial(res, pts) is not None
    w = submit_holder_words(res, pts)
    assert w.startswith(" Each job spent 9") and "one at a time per job (with" in w
    assert ": each job spent 9" in submit_little_words(res, pts)


# ------------------------------------------------------------------ 4: the knee's lighter loads as measured
def test_cpuhog_lighter_loads_stated_plainly():
    (c,) = _sat_claims(CPUHOG)
    t = c["text"]
    p = pd.read_csv(CORPUS / CPUHOG / "points.csv")
    # the points' latencies (each point the median of its runs' mean latency): 130 µs at 1 job, 41 µs at 2, 43.3 at 4
    u = c["facts"]["unqueued"]
    assert (u["x"], u["x_prev"], u["n_lighter"]) == (4, 2, 2)
    assert u["lat_first"] == pytest.approx(130e-6, rel=0.01) and u["lat_prev"] == pytest.approx(41e-6, rel=0.01)
    assert set(p["numjobs"]) >= {1, 2, 4, 8}
    assert ("At numjobs = 4 fio's mean latency, 43.3 µs, had not risen beyond 10% over the lighter loads' (41 µs at "
            "numjobs = 2, 130 µs at 1)") in t
    assert "the median of" not in t and "85.6 µs" not in t


def test_knee_counters_many_lighter_points():
    # silentzns seqread: 1–5 jobs at 89.5–90.4 µs, alike — the range, no median
    (c,) = _sat_claims(SEQREAD)
    assert ("had not risen beyond 10% over the lighter loads' (90.4 µs at numjobs = 5; 89.5 µs–90.4 µs over "
            "numjobs = 1–5)") in c["text"]
    # 3ssd QD128: 19.4 ms, within 10 % of QD64's 18.0 ms and of the median of QD1–64 (18 ms), but 28 % above QD4's
    # 15.1 ms — not "the lighter loads'": what it is within 10 % of is named, with the range and the median
    (c,) = _sat_claims(SSD3)
    assert ("had not risen beyond 10% over the latency of the load before it and the lighter loads' median (18 ms at "
            "iodepth = 64; 15.1 ms–18.2 ms over iodepth = 1–64, their median 18 ms)") in c["text"]
