"""Round 29's saturation-wording classes (``_blind_rounds/round29_hand_read_part2.md`` OA, OC, OD), on the spent r29
cases measured here and seeded, labelled synthetic counter-cases (``nvmemodel/fitting/near_saturation.py``):

- OA: doublings at ≥ ×1.6 the latency that gain ≤ 20 % before the onset are near saturation, never "the load still
  paid".
- OC: a step whose rate rose more than its load beyond the runs is said in the saturation claim, with fio's latency
  at both ends and the device's busy share at the lower load.
- OD: where the last step's Little test says most of the added load waited, that leads, without "no approach … is
  shown" beside it.
"""

import numpy as np
import pandas as pd

import nvmemodel as nm
from tests.fitting import corpus_score as cs

URINGVDA = "r29_here-uringvda_vda-ext4-512mfile_iouring-direct_randread4k_iodepth_repeats"
VDADSYNC = "r29_here-vdadsync_vda-ext4-64mfile-per-job_psync-direct-odsync_randwrite4k_numjobs_repeats"
VDAMMAP = "r29_here-vdammap_vda-ext4-512mfile-memcg32m_mmap_randread4k_numjobs_repeats"


def _sat(res) -> str:
    sat, = [c["text"] for c in res.claims() if c["kind"] == "saturation"]
    return sat


# --- OA -------------------------------------------------------------------------------------------------------------

def test_oa_uringvda_names_near_saturation_before_the_onset():
    """uringvda: 8 → 16 → 32 gained +16 %, +14 % (means) for ×1.7–1.8 the latency, Little 0.99–1.00; round 29 read
    "Up to it the load still paid: +14% per doubling from 72.80 K IOPS at iodepth = 16" (misleading, OA)."""
    sat = _sat(cs.fit_case_id(URINGVDA, "blind29"))
    assert "Up to it the load still paid" not in sat, sat
    assert "saturates from iodepth = 32" in sat, sat
    assert "Near saturation before the onset, from iodepth = 16: the steps gained +16% (8 → 16), +14% (16 → 32) per " \
           "doubling of iodepth by the means" in sat, sat
    assert "×1.74, ×1.78 per doubling" in sat and "84%–86% of the added load waited" in sat, sat
    assert "was already 80% of the 90.80 K IOPS at iodepth = 64" in sat, sat
    # the doublings that paid (+55 to +38 % for ≤ ×1.45 the latency) are still said to have paid
    assert "Up to iodepth = 8 the load still paid, from 18.35 K IOPS at iodepth = 1: +55% (1 → 2), +60% (2 → 4), " \
           "+38% (4 → 8)" in sat, sat


def _depth_table(rates, seed=29):
    """SYNTHETIC (seeded): libaio direct 4 KiB random reads at iodepth 1–64, one job, 3 runs a point at ±1 %, each
    run's mean latency iodepth ÷ its rate (Little's law 1)."""
    rng = np.random.default_rng(seed)
    rows = []
    for qd, rate in zip((1, 2, 4, 8, 16, 32, 64), rates):
        for r in range(3):
            iops = rate * (1 + 0.01 * rng.standard_normal())
            rows.append({"source_path": f"synthetic/qd{qd}_r{r}.json", "numjobs": 1, "iodepth": qd,
                         "direction": "read", "ioengine": "libaio", "direct": 1, "block_size_bytes": 4096,
                         "iops": iops, "runtime_s": 5.0, "ios": iops * 5.0, "lat_mean_s": qd / iops})
    return pd.DataFrame(rows)


def test_oa_synthetic_fires_and_its_counter_case_does_not():
    """SYNTHETIC: +15 %, +14 % per doubling before a +5 % onset step: near saturation named; the counter-case rises
    +50 % a doubling (×1.33 the latency: paid) straight into its onset, so "still paid" stands and no near words."""
    near = _sat(nm.fit(_depth_table((10e3, 19e3, 36e3, 60e3, 69e3, 78.7e3, 82.6e3)), x="iodepth", y="iops"))
    assert "Near saturation before the onset, from iodepth = 16" in near, near
    assert "the steps gained +14% (8 → 16), +15% (16 → 32)" in near and "85%–86% of the added load waited" in near, near
    paid = _sat(nm.fit(_depth_table((10e3, 15e3, 22.5e3, 33.8e3, 50.6e3, 53e3, 54e3)), x="iodepth", y="iops"))
    assert "Near saturation" not in paid, paid
    assert "still paid" in paid, paid


def test_oa_the_step_into_the_onset_alone():
    """r6 cephai (one run a point): only 16 → 32 gained +11 % for ×1.83 the latency, the step before it +99 % a
    doubling: the step into the onset is said to have waited, no point before the onset is called near saturation,
    and "still paid" covers only the steps up to 16."""
    sat = _sat(cs.fit_case_id("r6_cephai_openstack-vm-rbd_4k-randread_qd", "blind6"))
    assert "Near saturation" not in sat and "Up to it the load still paid" not in sat, sat
    assert "The step into it, from 11.12 K IOPS at iodepth = 16, gained only +11% (16 → 32) per doubling of iodepth " \
           "while fio's mean latency grew ×1.83" \
           in sat and "89% of the added load waited" in sat, sat
    assert "Up to iodepth = 16 the load still paid" in sat and "by the means" not in sat, sat


# --- OC -------------------------------------------------------------------------------------------------------------

def test_oc_vdadsync_says_the_step_faster_than_its_load():
    """vdadsync: 2 → 4 jobs rose ×4.9 (means), every run at 4 jobs above twice every run at 2, the mean write time
    822 → 308 µs, vda 6–19 % busy at 2 jobs: round 29 read it as an ordinary "+391% (2 → 4)" (misleading, OC)."""
    res = cs.fit_case_id(VDADSYNC, "blind29")
    sat = _sat(res)
    assert "Faster than its load: the step 2 → 4 rose ×4.91 for ×2 the numjobs" in sat, sat
    assert "822 µs → 308 µs" in sat and "6%–19% busy at 2, 53%–82% at 4" in sat, sat
    assert "spent above the device" in sat and "still rises at the largest numjobs" in sat, sat
    # not said a second time by a model claim, and the overlapping 1 → 2 step is not called faster than its load
    assert "1 → 2 rose" not in sat, sat
    assert not [c for c in res.claims() if c["kind"] == "superlinear"]


def _jobs_table(runs_per_point, seed=29):
    """SYNTHETIC (seeded): psync direct 4 KiB random writes, one write a job, numjobs 1–8, the given runs' rates,
    each run's mean latency numjobs ÷ its rate."""
    rows = []
    for nj, runs in zip((1, 2, 4, 8), runs_per_point):
        for r, iops in enumerate(runs):
            rows.append({"source_path": f"synthetic/nj{nj}_r{r}.json", "numjobs": nj, "iodepth": 1,
                         "direction": "write", "ioengine": "psync", "direct": 1, "block_size_bytes": 4096,
                         "iops": iops, "runtime_s": 5.0, "ios": iops * 5.0, "lat_mean_s": nj / iops})
    return pd.DataFrame(rows)


def test_oc_synthetic_fires_and_its_counter_cases_do_not():
    """SYNTHETIC: 2 → 4 jobs ×4.7 with the runs apart: said; the same step with a 2-job run reaching half of the 4-job
    runs (runs overlap after ×2): not by the runs; a rise slower than the load everywhere: not."""
    fast = _sat(nm.fit(_jobs_table(((1000, 1010, 990), (1900, 1950, 1920), (9000, 9100, 8900),
                                    (14000, 14200, 13900))), x="numjobs", y="iops"))
    assert "Faster than its load: the step 2 → 4 rose ×4.68 for ×2 the numjobs" in fast and "1.04 ms → 444 µs" in fast, fast
    assert "spent above the device" not in fast, fast  # no disk statistics: the cause is not told
    slow = _sat(nm.fit(_jobs_table(((1000, 1010, 990), (1900, 1950, 1920), (3600, 3650, 3620),
                                    (6500, 6600, 6550))), x="numjobs", y="iops"))
    assert "Faster than its load" not in slow, slow


def test_oc_said_once_with_a_model_claim():
    """r6 cephai: the step 1 → 4 (×6.31 for ×4) moves into the saturation claim; the model claim keeps only that no
    parameter is interpreted (one run a point: no "runs' noise")."""
    res = cs.fit_case_id("r6_cephai_openstack-vm-rbd_4k-randread_qd", "blind6")
    sat = _sat(res)
    assert "Faster than its load: the step 1 → 4 rose ×6.31 for ×4 the iodepth while" in sat, sat
    sup, = [c["text"] for c in res.claims() if c["kind"] == "superlinear"]
    assert sup.startswith("A step rose faster than its load (the saturation sentence above)") and \
        "no parameter of the" in sup, sup


def test_oc_counter_cases_spent():
    """uringvda and vdammap rise slower than their loads at every step: no "faster than its load"."""
    for case in (URINGVDA, VDAMMAP):
        assert "Faster than its load" not in cs.fit_case_id(case, "blind29").explain(), case


# --- OD -------------------------------------------------------------------------------------------------------------

def test_od_vdammap_one_verdict():
    """vdammap: the last step +34 % for +49 % the latency at Little 0.99–1.00; round 29 read "… so no approach to a
    ceiling is shown; but … approaching a limit" in one sentence (mild, OD)."""
    sat = _sat(cs.fit_case_id(VDAMMAP, "blind29"))
    assert "no approach to a ceiling is shown" not in sat, sat
    assert sat.startswith("Measured IOPS still rises at the largest numjobs, more slowly, towards a limit it has not "
                          "reached within the data: the last step added +34% per doubling"), sat
    assert "most of the added load waited. Step by step from 15.63 K IOPS at numjobs = 1: +60% (1 → 2), +50% " \
           "(2 → 4), +34% (4 → 8)" in sat, sat


def test_od_counter_case_vdadsync_keeps_no_approach():
    """vdadsync 4 → 8: +53 % for ×1.31 the latency — the latency grew less than the rate: "no approach … shown"
    stands alone."""
    sat = _sat(cs.fit_case_id(VDADSYNC, "blind29"))
    assert "so no approach to a ceiling is shown" in sat and "approaching a limit" not in sat, sat
