"""Issue 28: the explanation corpus (tests/data/explain_corpus) and its scorer (tests/fitting/corpus_score.py).

(a) the scorer grades hand-made claims by the claims contract — each rule is tested with a claim it must flag and
    one it must not; (b) every case.json is complete and valid; (c) the dev split scores without error, no dev claim is
    contradicted (but for the documented disagreements) and at most 1 series in 10 is misled.
The blind split is never fitted or explained here: only the folder names decide the split.
"""
import hashlib
import json
import math

import numpy as np
import pytest

from tests.fitting import corpus_score as cs

GiB = 2 ** 30


def curve(x, iops, *, bs=4096.0, repeats=False, r2=None, miss=None, x_is_bs=False, y_unit="1/s", **more):
    x = np.asarray(x, float)
    iops = np.asarray(iops, float)
    b = x if x_is_bs else np.full(len(x), bs)
    y = iops if y_unit == "1/s" else iops * b
    return cs.CurveData(x=x, y=y, y_unit=y_unit, iops=iops, bytes_per_s=iops * b,
                        block_sizes=tuple(sorted(set(b))), repeats=repeats, trust_r2=r2, trust_max_miss=miss, **more)


EXPECT = {k: None for k in cs.EXPECT_KEYS}


def expect(**kw):
    e = dict(EXPECT)
    e.update(kw)
    return e


def grade(text, data=None, exp=None, *, kind="model", facts=None):
    g, reasons, _ = cs.grade_claim({"curve": "all points", "kind": kind, "text": text, "facts": facts or {}},
                                   data, exp or expect())
    return g, reasons


# ------------------------------------------------------------------------------------------ (a) the scorer
@pytest.mark.parametrize("text, value, unit", [
    ("32.3 K IOPS", 32.3e3, "1/s"),
    ("310 K IOPS", 310e3, "1/s"),
    ("1.45 GB/s", 1.45e9, "B/s"),
    ("0.268 GiB/s", 0.268 * GiB, "B/s"),
    ("700 MiB/s", 700 * 2 ** 20, "B/s"),
    ("12 KiB/s", 12 * 1024, "B/s"),
    ("3.89 M IOPS", 3.89e6, "1/s"),
    ("1,234 IOPS", 1234.0, "1/s"),
    ("500 B/s", 500.0, "B/s"),
])
def test_quantities_to_si(text, value, unit):
    (v, u, _pos), = cs.quantities(f"a rate of {text} here")
    assert u == unit
    assert math.isclose(v, value, rel_tol=1e-12)


def test_quantities_ignore_sizes_and_latencies():
    assert cs.quantities("at 4 KiB, 16 I/Os ÷ 124 µs, 128 KiB blocks, 2.5 ms") == []


def test_ceiling_below_a_measured_point_is_contradicted():
    data = curve([4096, 131072], [310e3, 20e3], x_is_bs=True)
    g, reasons = grade("an IOPS ceiling of 34.8 K IOPS at small blocks", data)
    assert g == "contradicted" and "below the measured" in reasons[0]
    # the bare "32.3 K" after "IOPS ceiling of" is read in IOPS
    assert grade("an IOPS ceiling of 32.3 K at small blocks … an extrapolation", data)[0] == "contradicted"
    # a bandwidth ceiling below the 1.11 GB/s measured plateau (issue 28's 1.45 GB/s was above it: supported)
    bw = curve([4096, 1 << 20], [17e3, 1.11e9 / (1 << 20)], x_is_bs=True)
    assert grade("a bandwidth ceiling 1.0 GB/s", bw)[0] == "contradicted"
    assert grade("a bandwidth ceiling 1.45 GB/s", bw)[0] == "supported"


def test_ceiling_within_two_percent_or_above_is_supported():
    data = curve([1, 2, 4], [100e3, 190e3, 200e3])
    assert grade("Little's law fits with a cap of 197 K IOPS", data)[0] == "supported"      # 1.5 % below
    assert grade("Little's law fits with a cap of 195 K IOPS", data)[0] == "contradicted"   # 2.5 % below
    assert grade("no ceiling is reached within the data (3 runs a point, 150 K IOPS)", data)[0] == "supported"


def test_cap_facts_graded_against_data_and_expected_range():
    data = curve([4096, 65536, 1 << 20], [17.6e3, 16.6e3, 1.06e3], x_is_bs=True)
    exp = expect(cap={"iops": [16.5e3, 18e3], "bytes_per_s": [1.05e9, 1.2e9]})
    ok = {"iops_cap": 17.6e3, "bytes_cap": 1.11e9, "measured": True, "form": "roofline"}
    assert grade("…", data, exp, kind="cap", facts=ok)[0] == "supported"
    doubled = dict(ok, iops_cap=32.3e3)   # issue 28: the smooth form doubled the measured cap
    g, reasons = grade("…", data, exp, kind="cap", facts=doubled)
    assert g == "contradicted" and any("IOPS cap" in r and "outside the expected" in r for r in reasons)
    low = dict(ok, bytes_cap=0.9e9)
    assert grade("…", data, exp, kind="cap", facts=low)[0] == "contradicted"


def test_saturation_state_opposite_to_expected_is_contradicted():
    data = curve([1, 2, 4, 8], [100e3, 102e3, 103e3, 103e3])
    rising = "Measured IOPS still rises at the largest iodepth: the last doubling added +12%"
    assert grade(rising, data, expect(saturation="from_first"), kind="saturation")[0] == "contradicted"
    still = curve([1, 2, 4, 8], [100e3, 130e3, 160e3, 180e3])   # (the flat data contradict "still rises" by themselves)
    assert grade(rising, still, expect(saturation="rising"), kind="saturation")[0] == "supported"
    sat = {"state": "onset", "onset_x": 2.0, "plateau": 103e3, "unit": "1/s"}
    assert grade("…", data, expect(saturation="rising"), kind="saturation", facts=sat)[0] == "contradicted"
    near = {"state": "near", "onset_x": None, "unit": "1/s"}
    assert grade("…", data, expect(saturation="rising"), kind="saturation", facts=near)[0] == "contradicted"


def test_onset_and_plateau_outside_expected_ranges():
    data = curve([1, 2, 4, 8, 16], [50e3, 90e3, 150e3, 155e3, 154e3])
    exp = expect(saturation="onset", onset_x=[2, 4], plateau_iops=[150e3, 160e3])
    good = {"state": "onset", "onset_x": 4.0, "plateau": 154e3, "unit": "1/s"}
    assert grade("…", data, exp, kind="saturation", facts=good)[0] == "supported"
    assert grade("…", data, exp, kind="saturation", facts=dict(good, onset_x=8.0))[0] == "contradicted"
    assert grade("…", data, exp, kind="saturation", facts=dict(good, plateau=120e3))[0] == "contradicted"
    # read from the text when the claim has no facts
    text = "Measured IOPS saturates from iodepth = 16: plateau 154.5 K IOPS (…)"
    assert grade(text, data, exp, kind="saturation")[0] == "contradicted"
    text = "Measured IOPS saturates from iodepth = 4: plateau 154.5 K IOPS (…)"
    assert grade(text, data, exp, kind="saturation")[0] == "supported"


def test_from_first_expectation_rejects_a_late_onset():
    data = curve([1, 2, 4, 8, 16], [4.0e3, 3.1e3, 4.0e3, 4.0e3, 4.0e3])
    exp = expect(saturation="from_first")
    late = {"state": "onset", "onset_x": 4.0, "plateau": 4e3, "unit": "1/s"}
    assert grade("…", data, exp, kind="saturation", facts=late)[0] == "contradicted"
    first = {"state": "from_first", "onset_x": 1.0, "plateau": 4e3, "unit": "1/s"}
    assert grade("…", data, exp, kind="saturation", facts=first)[0] == "supported"


def test_level_from_the_first_point_where_an_onset_is_expected():
    data = curve([1, 2, 4, 8, 16, 32], [20e3, 40e3, 80e3, 150e3, 250e3, 260e3])
    exp = expect(saturation="onset", onset_x=[8, 16])
    level = {"state": "from_first", "onset_x": None, "plateau": 260e3, "unit": "1/s"}
    assert grade("…", data, exp, kind="saturation", facts=level)[0] == "contradicted"
    assert grade("iodepth had no effect: … Over all 6 runs: 133 K IOPS", data, exp, kind="no load")[0] \
        == "contradicted"


def test_falls_where_no_fall_is_expected():
    data = curve([1, 2, 4, 8], [100e3, 180e3, 200e3, 148e3])  # -26 %: a fall beyond the ±10 % band (misread())
    text = "throughput peaks at 200 K IOPS and falls 26 % beyond it"
    assert grade(text, data, expect(falls=False), kind="falls")[0] == "contradicted"
    assert grade(text, data, expect(falls=True), kind="falls")[0] == "supported"
    facts = {"state": "falls", "onset_x": 4.0, "plateau": 197e3, "unit": "1/s"}
    assert grade("…", data, expect(falls=False), kind="saturation", facts=facts)[0] == "contradicted"


def test_cpu_layer_mix_verdicts():
    data = curve([1, 2, 4, 8], [1e6, 1.6e6, 2.2e6, 3.0e6])
    busy = "fio's CPU accounting: the busy CPU did not limit the rate"
    assert grade(busy, data, expect(cpu_bound=True), kind="cpu")[0] == "contradicted"
    # (this curve still rises to its end: "the rate there", not "the level" — misread() flags the latter)
    assert grade("the rate there is CPU-bound (the submitting job, ≥ 90% busy)", data, expect(cpu_bound=True),
                 kind="cpu")[0] == "supported"
    # "no CPU-saturation claim" claims nothing
    assert grade("…; no CPU-saturation claim.", data, expect(cpu_bound=True), kind="cpu")[0] == "supported"
    # CPU-bound at a point the case lists (cpu_bound_points) is not the plateau the expectation is about
    at1 = "at numjobs = 1 the job used 99.8 % of a CPU: CPU-bound there; at numjobs = 2 each job used 75 %"
    assert grade(at1, data, expect(cpu_bound=False, cpu_bound_points=[1]), kind="cpu")[0] == "supported"
    assert grade(at1, data, expect(cpu_bound=False, cpu_bound_points=[]), kind="cpu")[0] == "contradicted"
    # a layer claim: a wrong layer, no storage at all, and the unspecific "beyond a device"
    assert grade("…", data, expect(layer="loop"), kind="layer", facts={"layer": "page_cache"})[0] == "contradicted"
    assert grade("…", data, expect(layer="none"), kind="layer", facts={"layer": "page_cache"})[0] == "contradicted"
    assert grade("…", data, expect(layer="network_fs"), kind="layer", facts={"layer": "beyond_device"})[0] \
        == "supported"
    assert grade("…", data, expect(layer="loop"), kind="layer", facts={"layer": "loop"})[0] == "supported"
    mix = {"below_harmonic": True, "worst_share": 0.5, "deficit": 0.2}
    assert grade("…", data, expect(mix_below_harmonic=False), kind="mix", facts=mix)[0] == "contradicted"
    assert grade("…", data, expect(mix_below_harmonic=True), kind="mix", facts=mix)[0] == "supported"


def test_model_interpreted_on_a_poor_fit_is_misleading():
    data = curve([1, 2, 4, 8], [100e3, 180e3, 200e3, 195e3], r2=0.59, miss=0.89)
    text = "Contention σ = 0.64 and coherency κ = 0.01: throughput peaks at numjobs ≈ 4"
    g, reasons = grade(text, data)
    assert g == "misleading" and "does not describe" in reasons[0]
    good = curve([1, 2, 4, 8], [100e3, 180e3, 200e3, 195e3], r2=0.98, miss=0.05)
    assert grade(text, good)[0] == "supported"
    refusal = ("The usl fit (R² = 0.59) does not describe these points closely enough for its knee, limit or "
               "parameters to be read as facts about them")
    assert grade(refusal, data)[0] == "supported"
    facts = {"name": "usl", "interpreted": True, "r2": 0.59, "max_miss": 0.89}
    assert grade("…", good, kind="model", facts=facts)[0] == "misleading"      # the claim's own figures count
    assert grade("…", data, kind="model", facts=dict(facts, interpreted=False))[0] == "supported"


def test_plateau_only_in_iops_at_large_blocks_is_misleading():
    big = curve([1, 2, 4, 8], [10e3, 18e3, 20e3, 20.2e3], bs=131072.0)
    sat = "Measured IOPS saturates from iodepth = 4: plateau 20.1 K IOPS"
    assert grade(sat, big, kind="saturation")[0] == "misleading"
    assert grade(sat + ", 2.63 GB/s", big, kind="saturation")[0] == "supported"
    small = curve([1, 2, 4, 8], [10e3, 18e3, 20e3, 20.2e3], bs=4096.0)
    assert grade(sat, small, kind="saturation")[0] == "supported"


def test_device_state_cause_needs_repeats():
    text = ("IOPS rose ×4.68 for ×2 numjobs: the device was not in the same state at every point (warm-up, "
            "caching, background work)")
    once = curve([1, 2, 4], [20e3, 94e3, 155e3])
    assert grade(text, once, kind="superlinear")[0] == "misleading"
    thrice = curve([1, 2, 4], [20e3, 94e3, 155e3], repeats=True)
    assert grade(text, thrice, kind="superlinear")[0] == "supported"


def test_contention_reading_of_a_cap_is_misleading():
    data = curve([1, 2, 4, 8], [17e3, 17.2e3, 17.1e3, 17.3e3], r2=0.95, miss=0.02)
    text = "a write cap read as contention σ = 0.64"
    assert grade(text, data, expect(saturation="from_first"), kind="usl")[0] == "misleading"
    assert grade(text, data, expect(cap={"iops": [16e3, 18e3], "bytes_per_s": None}), kind="usl")[0] == "misleading"
    assert grade(text, data, expect(saturation="onset"), kind="usl")[0] == "supported"


def test_cap_at_the_last_point_of_a_rising_curve_called_an_extrapolation():
    data = curve([1, 2, 4, 8], [50e3, 80e3, 100e3, 147e3])           # +47 % in the last step
    text = "Little's law fits with a cap of 147.9 K IOPS: an extrapolation, not a measured ceiling"
    assert grade(text, data)[0] == "misleading"
    far = "Little's law fits with a cap of 250 K IOPS: an extrapolation, not a measured ceiling"
    assert grade(far, data)[0] == "supported"


# round 29's hand reading (NA, NF): scaling words against the rate per unit of load
def test_a_shared_limit_said_where_the_last_devices_scaled_in_full_is_contradicted():
    # r29 rpiotune-like: 243 K a drive to 2, then 137 K a drive at 4 and 8 (the 4 → 8 step doubles the total)
    data = curve([1, 2, 4, 8], [242.7e3, 485.7e3, 548e3, 1083e3], x_name="drives")
    text = ("from 2 to 8 each added device yielded 100.09 K IOPS, 41% of one device's 242.72 K IOPS: a limit the "
            "devices share binds, although the total still rises")
    g, why = grade(text, data, kind="scaling")
    assert g == "contradicted" and "98%" in why[0]
    shared = curve([1, 2, 4, 8], [5e9, 10e9, 13e9, 15e9], x_name="drives")   # the last 4 drives 0.5 GB/s each
    assert grade(text, shared, kind="scaling")[0] == "supported"
    assert grade(text, curve([1, 2, 4, 8], [242.7e3, 485.7e3, 548e3, 1083e3], x_name="iodepth"),
                 kind="scaling")[0] == "supported"   # not a device axis: the words are about devices


def test_a_proportional_last_step_at_a_collapsed_level_does_not_contradict_a_shared_limit():
    # round 31 SA (spdk #3097 23.05 p3.0): a peak of 17.78 M at 20 targets, then 7.42, 5.61, 6.84 M; the one-run last
    # step (+22 %, 99 % of the rate per target at 36) at 38 % of the peak is no proportional scaling
    data = curve([2, 4, 12, 20, 28, 36, 44], [2.08e6, 4.37e6, 12.06e6, 17.78e6, 7.42e6, 5.61e6, 6.84e6],
                 x_name="targets")
    text = "from 12 to 44 the added targets added nothing to the total (-43.3%): a limit the targets share binds"
    assert grade(text, data, kind="scaling")[0] == "supported"
    # the same last step where the total stays above half its peak still contradicts (round 29 NA's rule holds)
    held = curve([2, 4, 12, 20, 28, 36, 44], [2.08e6, 4.37e6, 12.06e6, 17.78e6, 12.2e6, 10.0e6, 12.2e6],
                 x_name="targets")
    g, why = grade(text, held, kind="scaling")
    assert g == "contradicted" and "in proportion" in why[0]


def test_a_negated_deeper_queue_in_its_clause_is_not_advice():
    # round 31 TF: "not"/"no"/"rather than" before "a deeper queue" in its own clause
    data = curve([4096, 65536, 1048576], [221e3, 28e3, 1.9e3], x_is_bs=True, y_unit="B/s", engines=("psync",))
    for said in ("more jobs rather than a deeper queue would tell", "no deeper queue would change it: psync",
                 "the job's CPU holds the rate; more jobs, not a deeper queue, would tell"):
        assert grade(said, data, kind="outstanding")[0] == "supported", said
    for said in ("a deeper queue would tell", "it is not the engine; a deeper queue would tell",
                 "no more jobs, so a deeper queue would tell"):
        assert grade(said, data, kind="outstanding")[0] == "misleading", said


def test_still_rises_where_the_last_doubling_gained_little_is_contradicted():
    lat = np.array([100e-6, 190e-6, 370e-6, 720e-6, 1.35e-3])
    data = curve([8, 16, 32, 48, 64], [80e3, 84e3, 86e3, 88e3, 88.6e3], lat_mean_s=lat)   # 32 → 64: +3 %, ×3.6
    text = "the last step still rises +3% over ×1.33 the iodepth (+11% per doubling), so no ceiling is reached"
    g, why = grade(text, data, kind="saturation")
    assert g == "contradicted" and "+3%" in why[0] and "×3.65" in why[0]
    rising = curve([8, 16, 32, 48, 64], [40e3, 60e3, 80e3, 95e3, 110e3], lat_mean_s=lat)    # 32 → 64: +38 %
    assert grade(text, rising, kind="saturation")[0] == "supported"
    assert not any("doubling" in w for w in grade("it does not still rise at the end", data, kind="saturation")[1])
    no_doubling = curve([1, 3, 5, 7], [80e3, 84e3, 86e3, 88e3], lat_mean_s=lat[:4])         # no x/2 on the axis
    assert not any("doubling" in w for w in grade(text, no_doubling, kind="saturation")[1])


def test_more_than_half_said_where_a_step_yielded_less_is_contradicted():
    data = curve([1, 2, 4, 6, 8, 10], [894e3, 1378e3, 3574e3, 5354e3, 5517e3, 6873e3], x_name="device_count")
    text = "From 1 to 10 each added device yielded 664.22 K IOPS, 74% of one device's: sub-linear, each added " \
           "device still paying more than half of one's rate."
    g, why = grade(text, data, kind="scaling")
    assert g == "contradicted" and "6 → 8" in why[0] and "9%" in why[0]
    even = curve([1, 2, 4, 8], [100e3, 180e3, 330e3, 600e3], x_name="device_count")          # every step ≥ 67 %
    assert grade(text, even, kind="scaling")[0] == "supported"


def test_mixes_below_the_harmonic_mix_where_one_lies_above_it_is_contradicted():
    # read share 0, 0.5, 0.7, 1: the 0.5 mix below the line, the 0.7 mix ×2 above it
    data = curve([0, 0.5, 0.7, 1], [10e3, 8e3, 30e3, 40e3], x_name="read_fraction")
    text = "Mixes fall below it, by up to 50% at a read share of 0.5: reads and writes interfere beyond sharing"
    g, why = grade(text, data, kind="mix")
    assert g == "contradicted" and "0.7" in why[0]
    below = curve([0, 0.5, 0.7, 1], [10e3, 8e3, 12e3, 40e3], x_name="read_fraction")
    assert grade(text, below, kind="mix")[0] == "supported"


def test_more_jobs_not_a_deeper_queue_is_not_deeper_queue_advice():
    data = curve([4096, 65536, 1048576], [221e3, 28e3, 1.9e3], x_is_bs=True, y_unit="B/s", engines=("psync",))
    assert grade("a deeper queue would tell", data, kind="outstanding")[0] == "misleading"
    assert grade("more jobs, not a deeper queue, would tell (psync is synchronous)", data,
                 kind="outstanding")[0] == "supported"


def test_linear_said_of_a_rate_per_unit_that_moves_is_misleading():
    above = curve([1, 2, 3, 4], [63e6, 148e6, 242e6, 322e6], y_unit="B/s", x_name="drives")  # 117–128 % of linear
    text = "Against linear scaling from 1 drive: 117% at 2, 128% at 3. It scales linearly over the whole range."
    g, why = grade(text, above, kind="scaling")
    assert g == "misleading" and "128%" in why[0]
    lin = curve([1, 2, 3, 4], [63e6, 124e6, 190e6, 250e6], y_unit="B/s", x_name="drives")     # 98–101 %
    assert grade(text, lin, kind="scaling")[0] == "supported"
    assert grade("It does not scale linearly over the range.", above, kind="scaling")[0] == "supported"
    jobs = curve([1, 2, 4, 8], [10e3, 20e3, 30e3, 32e3], x_name="numjobs")
    assert grade("Scaling is linear at 10.0 K IOPS per numjobs: the data show no bend", jobs)[0] == "misleading"


# misleading without an expectation (cs.misread): what the words make a reader believe
def test_a_record_attributed_to_fio_where_another_tool_measured_is_misleading():
    text = "fio's mean latency grows ×2.69 over it, 10.6 ms → 28.6 ms, as Little's law gives at a fixed rate."
    elb = curve([32, 64, 96], [5e3, 6.1e3, 6.2e3], tools=("elbencho",))
    g, why = grade(text, elb, kind="saturation")
    assert g == "misleading" and "elbencho" in why[0]
    assert grade(text.replace("fio's", "elbencho's"), elb, kind="saturation")[0] == "supported"
    assert grade(text, curve([32, 64, 96], [5e3, 6.1e3, 6.2e3], tools=("fio",)), kind="saturation")[0] == "supported"
    assert grade(text, curve([32, 64, 96], [5e3, 6.1e3, 6.2e3]), kind="saturation")[0] == "supported"  # not recorded


@pytest.mark.parametrize("text, flagged", [
    ("per run = 1.00–1.00 (the effective in-flight fraction)", True),
    ("up to the maximum: 2.98 GB/s (2.78 GiB/s) to 2.98 GB/s (2.78 GiB/s) over numjobs = 1–1", True),
    ("the points scatter step to step (-11% … -11%)", True),
    ("IOPS are flat at 2.00 K IOPS–2.00 K IOPS from 4 KiB to 1 MiB", True),
    ("per run = 0.99–1.00 (the effective in-flight fraction)", False),
    ("over numjobs = 1–10, 1 to 16 jobs", False),
    ("from 4 KiB to 4 MiB", False),
    ("a step of ×8.77 between block_size_bytes = 8 KiB and 16 KiB", False),
])
def test_a_range_whose_ends_are_the_same_is_misleading(text, flagged):
    g, why = grade(text, curve([1, 2, 4], [1e3, 2e3, 2.1e3]), kind="little")
    assert (g == "misleading") == flagged, why


def test_a_limit_interval_below_a_measurement_or_on_a_rising_curve_is_misleading():
    data = curve([4096, 8192, 16384], [14.05e3, 13.3e3, 11.5e3])      # 14.05 K IOPS measured at 4 KiB
    text = "an IOPS ceiling of 19.39 K IOPS at small blocks (95 % CI 11.59 K IOPS–27.18 K IOPS)"
    g, why = grade(text, data)
    assert g == "misleading" and "below the measured" in why[0]
    assert grade(text.replace("11.59 K", "14.10 K"), data)[0] == "supported"
    clipped = ("an IOPS ceiling of 19.39 K IOPS (between the 14.05 K IOPS measured and 27.18 K IOPS, the upper end of "
               "its 95 % CI: its lower end, 11.59 K IOPS, is below a measurement)")
    assert grade(clipped, data)[0] == "supported"
    level = "Throughput stays at 507.46 K IOPS (95 % CI 497.39 K IOPS–517.54 K IOPS) from numjobs = 2"
    assert grade(level, curve([1, 2, 4], [388e3, 507e3, 508e3]))[0] == "supported"  # a level, not a ceiling
    rising = curve([512, 4096, 16384, 32768], [47e3, 29e3, 12.8e3, 9.3e3], x_is_bs=True, y_unit="B/s")
    assert rising.still_rising  # bandwidth +45 % in its last step
    bw = "a bandwidth ceiling of 0.323 GB/s at large ones (95 % CI 0.31 GB/s–0.483 GB/s)"
    g, why = grade(bw, rising)
    assert g == "misleading" and "still rising" in why[0]
    assert grade("bandwidth still rises at the largest block, so its ceiling, 0.323 GB/s in the fit, is not measured",
                 rising)[0] == "supported"


def test_a_ceiling_above_the_cap_the_data_show_is_misleading():
    data = curve([4096, 65536, 131072], [14e3, 6.3e3, 3.2e3], x_is_bs=True, y_unit="B/s")
    exp = expect(cap={"iops": None, "bytes_per_s": [0.42e9, 0.46e9]})
    text = "a bandwidth ceiling of 0.541 GB/s at large ones"
    g, why = grade(text, data, exp)
    assert g == "misleading" and "above the cap" in why[0]
    assert grade("a bandwidth ceiling of 0.47 GB/s at large ones", data, exp)[0] == "supported"
    assert grade("a per-byte term of 1/0.541 GB/s, above the bandwidth the data level at", data, exp)[0] == "supported"


def test_a_level_said_of_a_curve_still_rising_is_misleading():
    rising = curve([4, 16, 64], [28e3, 34.2e3, 43.8e3])                # +28 % in the last step
    text = ("Amdahl's σ = 0.28 gives an asymptote 0.47 % below the largest measurement (43.80 K IOPS): a level the "
            "points scatter about, not a ceiling of these data.")
    g, why = grade(text, rising)
    assert g == "misleading" and "still rises" in why[0]
    fixed = text.replace("a level the points scatter about", "the data still rise at the largest iodepth")
    assert grade(fixed, rising)[0] == "supported"
    assert grade(text, curve([4, 16, 64], [28e3, 43e3, 43.8e3]))[0] == "supported"  # +2 %: a level
    cpu = ("fio's CPU accounting at iodepth = 64: the job used 100% of a CPU — at that cost one CPU sustains 173.15 K "
           "IOPS per job: the level is CPU-bound (the submitting job, ≥ 90% busy), not a device queue.")
    assert grade(cpu, rising, kind="cpu")[0] == "misleading"
    assert grade(cpu.replace("the level is", "the rate there is"), rising, kind="cpu")[0] == "supported"


def test_device_words_under_the_page_cache_or_a_synchronous_engine_are_misleading():
    text = ("At 4 KiB, 1 I/O outstanding ÷ 3.61 µs mean latency = 277.06 K IOPS: an IOPS ceiling of the device is not "
            "measured at this depth (a deeper queue would tell).")
    data = curve([4096, 65536, 1048576], [221e3, 28e3, 1.9e3], x_is_bs=True, y_unit="B/s", engines=("psync",))
    g, why = grade(text, data, expect(layer="page_cache"), kind="outstanding")
    assert g == "misleading" and any("page cache" in w for w in why) and any("synchronous" in w for w in why)
    fixed = ("an IOPS ceiling of the page cache (memory, not a device) is not measured at this depth; more jobs "
             "(psync is synchronous: one I/O in flight per job) would tell.")
    assert grade(fixed, data, expect(layer="page_cache"), kind="outstanding")[0] == "supported"
    aio = curve([4096, 65536, 1048576], [80e3, 28e3, 2.8e3], x_is_bs=True, y_unit="B/s", engines=("libaio",))
    assert grade(text, aio, expect(layer=None), kind="outstanding")[0] == "supported"


def test_about_n_cpus_for_a_level_that_is_no_whole_number_is_misleading():
    data = curve([1, 2, 4, 8], [100e3, 150e3, 152e3, 151e3])
    text = ("from numjobs = 2 on the jobs together used a level 1.46 CPUs however many were added …: if this host has "
            "about 1 CPUs for fio, they were all busy")
    g, why = grade(text, data, kind="cpu")
    assert g == "misleading" and "1.46" in why[0]
    assert grade(text, data, kind="cpu", facts={"level_cpus": 1.46, "cpu_bound": None})[0] == "misleading"
    ok = text.replace("1.46", "1.97").replace("about 1 CPUs", "about 2 CPUs")
    assert grade(ok, data, kind="cpu")[0] == "supported"


def test_a_fall_within_noise_is_misleading():
    text = "Measured IOPS peaks at 220 K IOPS at iodepth = 32 and falls 8% to 202 K IOPS at iodepth = 128."
    once = curve([8, 16, 32, 64, 128], [150e3, 200e3, 220e3, 210e3, 202e3])     # -8 %: inside the ±10 % band
    g, why = grade(text, once, kind="falls")
    assert g == "misleading" and "within the data's noise" in why[0]
    deep = curve([8, 16, 32, 64, 128], [150e3, 200e3, 220e3, 190e3, 160e3])     # -27 %
    assert grade(text.replace("8%", "27%"), deep, kind="falls")[0] == "supported"
    reps = curve([8, 16, 32, 64, 128], [150e3, 200e3, 220e3, 210e3, 202e3], repeats=True,
                 y_std=np.full(5, 1e3), n_runs=np.full(5, 3.0))                # 3 runs, sd 1 K: -8 % is beyond
    assert grade(text, reps, kind="falls")[0] == "supported"
    assert grade("it does not fall 8% or more", once, kind="falls")[0] == "supported"


def test_a_cause_named_as_fact_without_repeats_is_misleading():
    data = curve([1, 2, 4, 8], [20e3, 94e3, 155e3, 140e3])
    bare = "The fall after numjobs = 4 is garbage collection in the drive."
    g, why = grade(bare, data, kind="falls")
    assert g == "misleading" and "garbage collection" in why[0]
    hedged = ("a per-I/O cost that more outstanding I/O hides (host-side submission and completion, interrupt "
              "moderation, power states) or a change between the runs; one run per point cannot tell which")
    assert grade(hedged, data, kind="superlinear")[0] == "supported"
    assert grade(bare, curve([1, 2, 4, 8], [20e3, 94e3, 155e3, 140e3], repeats=True), kind="falls")[0] == "supported"


def test_an_iops_ceiling_at_small_outstanding_io_along_block_size_is_misleading():
    data = curve([4096, 16384, 65536], [19.4e3, 15e3, 8e3], x_is_bs=True, y_unit="B/s", outstanding=np.ones(3))
    bare = "Each I/O costs 1/48.89 K IOPS: an IOPS ceiling of 48.89 K IOPS at small blocks."
    g, why = grade(bare, data)
    assert g == "misleading" and "outstanding" in why[0]
    said = bare.replace("small blocks.", "small blocks (at 1 I/O outstanding: a deeper queue may raise it).")
    assert grade(said, data)[0] == "supported"
    deep = curve([4096, 16384, 65536], [19.4e3, 15e3, 8e3], x_is_bs=True, y_unit="B/s", outstanding=np.full(3, 64.0))
    assert not any("outstanding" in w for w in grade(bare, deep)[1])  # (2.5× every measurement: V flags it)


def test_a_share_rounded_to_zero_is_misleading():
    data = curve([4096, 65536], [15e3, 1e3], x_is_bs=True, y_unit="B/s")
    text = "the jobs used 0.0031 CPUs (usr+sys), 0% of one CPU per job"
    assert grade(text, data, kind="cpu")[0] == "misleading"
    assert grade(text.replace("0%", "0.31 %"), data, kind="cpu")[0] == "supported"
    assert grade("the jobs used 1.4 CPUs, 70% of one CPU per job", data, kind="cpu")[0] == "supported"


def test_a_mix_verdict_from_runs_at_different_loads_is_misleading():
    data = curve([0.0, 0.7, 1.0], [1.17e6, 1.29e6, 3.51e6], outstanding=np.array([32.0, 256.0, 768.0]))
    text = ("Mixes fall below it, by up to 41% at a read share of 0.7 (1.29 M IOPS against 2.19 M IOPS): reads and "
            "writes interfere beyond sharing the device's time")
    g, why = grade(text, data, kind="mix")
    assert g == "misleading" and "different loads" in why[0]
    said = ("But the runs were made at different loads (32, 256, 768 I/Os outstanding): … the mixes lie 41% below it "
            "without telling interference from the load")
    assert grade(said, data, kind="mix")[0] == "supported"
    same = curve([0.0, 0.7, 1.0], [1.17e6, 1.29e6, 3.51e6], outstanding=np.full(3, 256.0))
    assert grade(text, same, kind="mix")[0] == "supported"


def test_missing_facts_and_the_onset_plateau_total():
    data = curve([1, 2, 4, 8, 16], [50e3, 90e3, 150e3, 155e3, 154e3], bs=131072.0)
    exp = expect(saturation="onset", onset_x=[2, 4], plateau_iops=[150e3, 160e3],
                 plateau_bytes_per_s=[19e9, 21e9], layer="loop", cpu_bound=True, falls=False)
    nothing = cs.score_claims("t", [], {(): data}, exp)
    assert set(m for _c, m in nothing.missing) == {"saturation (onset)", "onset", "plateau in IOPS",
                                                    "plateau in bytes/s", "CPU-bound", "layer (loop)"}
    assert nothing.saturating and nothing.onset_plateau_ok is False
    claims = [
        {"group": [], "curve": "all points", "kind": "saturation", "text": "…",
         "facts": {"state": "onset", "onset_x": 4.0, "plateau": 154e3, "unit": "1/s", "plateau_iops": 154e3,
                   "plateau_bytes_per_s": 154e3 * 131072}},
        {"group": [], "curve": "all points", "kind": "layer", "text": "…", "facts": {"layer": "loop"}},
        {"group": [], "curve": "all points", "kind": "cpu", "text": "…",
         "facts": {"cpu_bound": True, "at_x": 4.0, "cpu_s_per_io": 4e-6}},
    ]
    full = cs.score_claims("t", claims, {(): data}, exp)
    assert full.missing == [] and full.onset_plateau_ok is True
    assert [c.grade for c in full.claims] == ["supported"] * 3
    # the plateau stated only in IOPS at 128 KiB: the bytes/s plateau is missing and the total says no
    claims[0]["facts"] = {"state": "onset", "onset_x": 4.0, "plateau": 154e3, "unit": "1/s"}
    part = cs.score_claims("t", claims, {(): data}, exp)
    assert [m for _c, m in part.missing] == ["plateau in bytes/s"] and part.onset_plateau_ok is False


def test_expectations_per_curve():
    exp = {"md": expect(saturation="from_first", layer="md"), "individual": expect(saturation="onset")}
    assert cs.is_per_curve(exp) and not cs.is_per_curve(expect(layer="md"))
    flat = curve([512, 1024, 2048], [4.2e6, 4.25e6, 4.3e6])
    rise = curve([512, 1024, 2048], [6.8e6, 9.3e6, 9.4e6])
    rising = {"state": "rising", "onset_x": None, "unit": "1/s"}
    claims = [{"group": ["md"], "curve": "md", "kind": "saturation", "text": "…", "facts": rising},
              {"group": ["individual"], "curve": "individual", "kind": "saturation", "text": "…",
               "facts": {"state": "onset", "onset_x": 1024.0, "plateau": 9.35e6, "unit": "1/s"}},
              {"group": ["md"], "curve": "md", "kind": "layer", "text": "…", "facts": {"layer": "md"}}]
    score = cs.score_claims("t", claims, {("md",): flat, ("individual",): rise}, exp)
    assert [c.grade for c in score.claims] == ["contradicted", "supported", "supported"]
    assert ("md", "saturation (from_first)") in score.missing and score.onset_plateau_ok is False


def test_totals_count_series():
    a = cs.CaseScore("a", "dev", claims=[cs.GradedClaim("c", "k", "t", "contradicted", ["r"]),
                                         cs.GradedClaim("c", "k", "t", "misleading", ["r"])])
    b = cs.CaseScore("b", "dev", claims=[cs.GradedClaim("c", "k", "t", "supported", [])], missing=[("c", "onset")])
    e = cs.CaseScore("e", "dev", error="ValueError: boom")
    t = cs.totals([a, b, e])
    assert (t["cases"], t["errors"], t["claims"], t["contradicted"], t["misleading"], t["supported"]) == (3, 1, 3, 1, 1, 1)
    assert (t["series_contradicted"], t["series_misleading"], t["missing_facts"]) == (1, 1, 1)
    assert "ERROR ValueError: boom" in cs.format_case(e)


def test_split_rule():
    for cid in ("here_null_numjobs", "here_blkio_roofline_bs", "x"):
        want = "blind" if int(hashlib.sha256(cid.encode()).hexdigest(), 16) % 3 == 0 else "dev"
        assert cs.split_of(cid) == want
    assert cs.split_of("here_null_numjobs") == "blind" and cs.split_of("here_blkio_roofline_bs") == "dev"
    assert cs.split_of("r2_anything") == "blind2" and cs.split_of("xr2_") != "blind2"
    assert cs.split_of("r3_anything") == "blind3" and cs.split_of("r4_anything") == "blind4"
    assert cs.split_of("r5_anything") == "blind5" and cs.split_of("r6_anything") == "blind6"
    assert cs.split_of("r7_anything") == "blind7"
    assert cs.split_of("r8_anything") == "blind8"
    assert cs.split_of("r9_anything") == "blind9"
    assert cs.split_of("r10_anything") == "blind10" and cs.split_of("r11_anything") == "blind11"
    assert cs.split_of("r12_anything") == "blind12" and cs.split_of("r13_anything") == "blind13"
    assert cs.split_of("r14_anything") == "blind14" and cs.split_of("r15_anything") == "blind15"
    assert cs.split_of("r16_anything") == "blind16" and cs.split_of("r17_anything") == "blind17"
    assert cs.split_of("r18_anything") == "blind18" and cs.split_of("r21_anything") == "blind21"
    assert cs.split_of("r22_anything") == "blind22" and cs.split_of("r23_anything") == "blind23"
    assert cs.split_of("r24_anything") == "blind24"
    assert cs.split_of("r25_anything") == "blind25"
    assert cs.split_of("r26_anything") == "blind26"
    assert cs.split_of("r27_anything") == "blind27"
    assert cs.split_of("r28_anything") == "blind28"
    assert cs.split_of("r29_anything") == "blind29"
    assert cs.split_of("r30_anything") == "blind30"
    assert cs.split_of("r31_anything") == "blind31"
    assert cs.split_of("r32_anything") == "blind32"
    assert cs.split_of("r33_anything") in ("dev", "blind")  # not a round (yet): hashed like an unprefixed id
    assert cs.split_of("r1_anything") != "blind10"
    names = [d.name for d in cs.case_dirs()
             if not d.name.startswith(cs.ROUND_PREFIXES)]
    blind = sum(cs.split_of(n) == "blind" for n in names)
    assert 0.2 <= blind / len(names) <= 0.45, f"{blind} of {len(names)} blind"


def test_blind_report_hides_claims():
    s = cs.CaseScore("hidden", "blind", claims=[cs.GradedClaim("c", "k", "SECRET TEXT", "supported", [])])
    out = cs.report([s])
    assert "SECRET TEXT" not in out and "hidden" not in out and "blind (1 cases)" in out
    assert "SECRET TEXT" in cs.report([s], show_blind=True)
    js = json.dumps(cs.to_json([s]))
    assert "SECRET TEXT" not in js and "hidden" not in js and json.loads(js)["totals"]["blind"]["claims"] == 1


# ------------------------------------------------------------------------------------ (b) the case files
CASES = cs.case_dirs()


def _is_range(v):
    return (isinstance(v, list) and len(v) == 2 and all(isinstance(a, (int, float)) and math.isfinite(a) for a in v)
            and v[0] <= v[1])


@pytest.mark.parametrize("case_dir", CASES, ids=[d.name for d in CASES])
def test_case_json_complete_and_valid(case_dir):
    case = json.loads((case_dir / "case.json").read_text(encoding="utf-8"))
    where = f"{case_dir.name}/case.json"
    missing = [k for k in cs.REQUIRED_KEYS if k not in case]
    assert not missing, f"{where}: missing {missing}"
    assert case["id"] == case_dir.name, f"{where}: id {case['id']!r} is not the folder name"
    src = case["source"]
    assert isinstance(src, dict) and src, f"{where}: source"
    if src.get("measured_here"):
        assert str(src.get("provenance", "")).startswith("measured here with fio"), f"{where}: provenance"
        assert "load average" in src["provenance"], f"{where}: provenance without the load average"
        assert (case_dir / src.get("gen", "gen.sh")).is_file(), f"{where}: gen.sh"
    else:
        assert src.get("repo") or src.get("url"), f"{where}: source names no repository or URL"
        assert src.get("licence"), f"{where}: source states no licence"
    for k in ("kind", "reading"):
        assert isinstance(case[k], str) and case[k].strip(), f"{where}: {k}"
    fit = case["fit"]
    assert fit.get("x") and fit.get("y"), f"{where}: fit.x / fit.y"
    assert fit.get("table") or fit.get("raw"), f"{where}: fit has neither table nor raw"
    if fit.get("table"):
        assert (case_dir / fit["table"]).is_file(), f"{where}: {fit['table']} not found"
    for r in ([fit["raw"]] if isinstance(fit.get("raw"), str) else fit.get("raw") or []):
        p = case_dir / r
        assert p.exists() and (p.is_file() or any(p.iterdir())), f"{where}: raw {r} not found or empty"
    if src.get("measured_here"):
        # raw files stay in raw/ even where points.csv could not be read from them alone (fit.raw null: fio
        # 2.1/2.2 outputs omit options gen.sh set)
        for name in src.get("files", []):
            f = case_dir / (fit["raw"] or "raw") / name
            assert f.is_file(), f"{where}: {name} not found"
            assert f.stat().st_size < 100_000, f"{where}: {name} is {f.stat().st_size} bytes"
    if fit.get("table"):
        _check_one_x_per_run(where, case_dir / fit["table"], fit)
    expects = case["expect"]
    if cs.is_per_curve(expects):
        assert fit.get("by"), f"{where}: expect is given per curve but fit.by is not set"
        items = [(f"expect.{k}", v) for k, v in expects.items() if k != "cpu_bound_points"]
    else:
        items = [("expect", expects)]
    for name, e in items:
        _check_expect(f"{where}: {name}", e)
    for x in case.get("cpu_bound_points") or []:
        assert isinstance(x, (int, float)), f"{where}: cpu_bound_points {x!r}"


def _check_one_x_per_run(where, table, fit):
    """A run is one point: a table that gives two rows of one run different x (or by) values cannot be fitted
    (curves refuses it). Rounds 20 and 21 each had transcribed tables with every row as run 0 — caught here, before
    a blind scoring, not by it."""
    import pandas as pd

    df = pd.read_csv(table, low_memory=False)
    cols = [c for c in (fit["x"], fit.get("by")) if isinstance(c, str) and c in df]
    if "run" not in df or not cols or fit["x"] == "time_s":  # a time series is many rows of one run (refused)
        return
    from nvmemodel.fitting.curves import _RUN_KEYS  # the keys that make a run a point for the fit itself

    keys = [df[c].astype(str) for c in _RUN_KEYS if c in df]
    for c in cols:
        n = df.groupby(keys)[c].nunique()
        assert (n <= 1).all(), (f"{where}: {fit['table']} gives run {n[n > 1].index[0]} several {c} values; "
                                f"one run is one point (a transcribed row is its own run)")


def _check_expect(where, e):
    missing = [k for k in cs.EXPECT_KEYS if k not in e]
    assert not missing, f"{where} lacks {missing}"
    assert e["saturation"] in (None, *cs.SATURATION_STATES), f"{where}.saturation {e['saturation']!r}"
    assert e["layer"] in (None, *cs.LAYERS), f"{where}.layer {e['layer']!r}"
    for k in ("onset_x", "plateau_iops", "plateau_bytes_per_s"):
        assert e[k] is None or _is_range(e[k]), f"{where}.{k} {e[k]!r} is not [lo, hi] with lo <= hi"
    if e["cap"] is not None:
        assert set(e["cap"]) <= {"iops", "bytes_per_s"}, f"{where}.cap keys {sorted(e['cap'])}"
        assert any(v is not None for v in e["cap"].values()), f"{where}.cap names no cap"
        for k, v in e["cap"].items():
            assert v is None or _is_range(v), f"{where}.cap.{k} {v!r}"
    for k in ("cpu_bound", "mix_below_harmonic", "falls"):
        assert e[k] in (None, True, False), f"{where}.{k} {e[k]!r}"
    if e["saturation"] == "rising":
        assert e["onset_x"] is None, f"{where}: a rising series has no onset"
    assert sum(v is not None for v in e.values()) >= 1, f"{where}: expects nothing"


# ----------------------------------------------------------------------------------- (c) the dev split
@pytest.fixture(scope="module")
def dev_scores():
    return cs.score_corpus("dev")


def test_dev_split_scores_without_error(dev_scores):
    assert len(dev_scores) >= 10
    assert all(s.split == "dev" for s in dev_scores)
    errors = [f"{s.id}: {s.error}" for s in dev_scores if s.error]
    assert not errors, "\n".join(errors)
    for s in dev_scores:
        assert s.claims, f"{s.id}: no claims"
        assert all(c.grade in cs.GRADES for c in s.claims)


#: dev cases whose reading and the explanation's rule differ on purpose, each with why (none may be added to make a
#: test pass: a new disagreement is a finding to fix or to argue here)
KNOWN_DISAGREEMENTS = {
    "hothanh7_consumer-nvme_4k-randrw_qd1_readshare":
        "mixes 3-5 % below the harmonic mix at QD1, one run a point: the explanation says so with the numbers and "
        "reads it as within its 10 % band; the case's reading calls it interference",
}


def test_dev_split_no_contradicted_and_few_misleading(dev_scores):
    t = cs.totals(dev_scores)
    bad = [f"{s.id}: {c.text[:120]} — {'; '.join(c.reasons)}" for s in dev_scores for c in s.claims
           if c.grade == "contradicted" and s.id not in KNOWN_DISAGREEMENTS]
    assert not bad, "\n".join(bad)
    assert t["series_misleading"] <= t["cases"] / 10
    assert t["saturating_onset_plateau"] == t["saturating"]


# ------------------------------- rounds 2–4's hand readings: block size is no load; one size tells no cap; P–Z
def test_block_size_is_no_load_axis_for_saturation_and_onset():
    bs = [4096, 16384, 65536, 262144]
    data = curve(bs, [2000, 2000, 2000, 1990], x_is_bs=True, x_name="block_size_bytes")
    exp = expect(saturation="from_first", onset_x=[4096, 4096], plateau_iops=[1950, 2050])
    cap = {"kind": "cap", "text": "Measured IOPS are flat at 2.00 K IOPS from 4 KiB to 256 KiB: an IOPS cap of "
                                  "2.00 K IOPS or a little above, measured.", "facts": {}}
    score = cs.score_claims("t", [cap], {(): data}, exp)
    assert score.missing == [] and score.saturating is False and score.onset_plateau_ok is None
    # a rise of bandwidth along size is not "contradicted" by a from_first expectation along size
    g, _ = grade("Measured throughput still rises at the largest block_size_bytes: the data do not reach a ceiling.",
                 data, exp, kind="rising")
    assert g == "supported"
    # the same expectation along iodepth is a load: missing and counted
    qd = curve([1, 2, 4, 8], [2000, 2000, 2000, 1990], x_name="iodepth")
    score = cs.score_claims("t", [], {(): qd}, exp)
    assert ("all points", "onset") in score.missing and score.saturating is True and score.onset_plateau_ok is False
    # a level along size stated in the other unit only is still missing
    bps = curve(bs, [2000, 2000, 2000, 1990], x_is_bs=True, x_name="block_size_bytes", y_unit="B/s")
    score = cs.score_claims("t", [], {(): bps}, expect(plateau_bytes_per_s=[1e6, 1e9]))
    assert ("all points", "level in bytes/s") in score.missing


def test_load_axes_are_nvmemodels_own():
    from nvmemodel.fitting.axes import CONCURRENCY
    for x in CONCURRENCY:
        assert cs.CurveData(x=np.ones(1), y=np.ones(1), y_unit="1/s", x_name=x).load_axis
    for x in ("block_size_bytes", "read_fraction", "time_s"):
        assert not cs.CurveData(x=np.ones(1), y=np.ones(1), y_unit="1/s", x_name=x).load_axis


def test_a_cap_expectation_on_one_block_size_is_not_missing():
    exp = expect(cap={"iops": [4900, 5100], "bytes_per_s": None})
    one = curve([1, 2, 4], [5000, 5000, 5000], x_name="iodepth")
    assert cs.score_claims("t", [], {(): one}, exp).missing == []
    two = curve([4096, 65536], [5000, 5000], x_is_bs=True, x_name="block_size_bytes")
    assert ("all points", "IOPS cap") in cs.score_claims("t", [], {(): two}, exp).missing


def test_x_one_run_a_point_with_repeats_is_contradicted():
    text = "Plateau 550.88 K IOPS. One run a point: read from the size of the steps and Little's law (no repeats give a noise)."
    mixed = curve([32, 512, 1024], [566e3, 562e3, 544e3], n_runs=np.array([1.0, 3.0, 5.0]))
    g, why = grade(text, mixed, kind="saturation")
    assert g == "contradicted" and "1–5 runs" in why[0]
    assert grade(text, curve([32, 512, 1024], [566e3, 562e3, 544e3], n_runs=np.ones(3)), kind="saturation")[0] \
        == "supported"


def test_u_iops_cap_measured_where_one_io_in_flight_sets_the_rate_is_misleading():
    bs = [4096, 8192, 16384, 65536, 262144]
    text = ("Measured IOPS are flat at 10.47 K IOPS–11.11 K IOPS from 4 KiB to 16 KiB: an IOPS cap of 11.11 K IOPS or "
            "a little above, measured")
    qd1 = curve(bs, [10.47e3, 11.11e3, 10.75e3, 7.4e3, 2.2e3], x_is_bs=True, x_name="block_size_bytes",
                outstanding=np.ones(5), lat_mean_s=np.array([95e-6, 89e-6, 92e-6, 134e-6, 445e-6]))
    g, why = grade(text, qd1, kind="cap")
    assert g == "misleading" and "latency bound" in why[0]
    # a level with a per-I/O time flat over 64× the size is a cap (a throttle), even at 1 in flight
    wide = curve(bs, [2000, 2000, 2000, 1999, 1998], x_is_bs=True, x_name="block_size_bytes",
                 outstanding=np.ones(5), lat_mean_s=np.full(5, 500e-6))
    assert grade(text.replace("11.11 K", "2.00 K").replace("16 KiB", "256 KiB"), wide, kind="cap")[0] == "supported"
    # the depth named: not misleading
    assert grade(text + " at 1 I/O outstanding", qd1, kind="cap")[0] == "supported"


def test_v_small_block_iops_ceiling_far_above_every_measurement_is_misleading():
    data = curve([4096, 32768, 131072], [544e3, 106e3, 26.6e3], x_is_bs=True, x_name="block_size_bytes")
    text = ("Each I/O costs 1/1.42 M IOPS and each byte 1/3.63 GB/s: an IOPS ceiling of 1.42 M IOPS at small blocks "
            "(at 4 KiB the submitting job used 93% of a CPU: that rate is its CPU's)")
    g, why = grade(text, data)
    assert g == "misleading" and any("2.6×" in w for w in why)
    assert grade(text.replace("1.42 M", "600 K"), data)[0] == "supported"       # 1.1×: a model near the data
    # the depth it was measured at named (round 3's R: "at 8 I/Os outstanding: a deeper queue may raise it"): fair
    assert grade(text.replace("(at 4 KiB", "(at 8 I/Os outstanding; at 4 KiB"), data)[0] == "supported"


def test_w_model_read_from_a_curve_fio_paced_is_misleading():
    data = curve([4096, 16384, 65536, 1 << 20], [2999, 2999, 2999, 2022], x_is_bs=True, x_name="block_size_bytes",
                 paced_points=3)
    text = "Each I/O costs 1/3.08 K IOPS and each byte 1/7.09 GB/s: an IOPS ceiling of 3.08 K IOPS at small blocks"
    g, why = grade(text, data)
    assert g == "misleading" and any("fio paced" in w for w in why)
    unpaced = curve([4096, 16384, 65536, 1 << 20], [2999, 2999, 2999, 2022], x_is_bs=True, x_name="block_size_bytes")
    assert grade(text, unpaced)[0] == "supported"
    # the model refused: no parameter read
    assert grade("The per_io_byte fit does not describe these points closely enough for its knee, limit or parameters "
                 "to be read as facts", data)[0] == "supported"


def test_y_one_serial_path_of_a_read_write_mix_is_misleading():
    text = "With one I/O in flight each took 145 µs, and 1 ÷ 145 µs = 6.91 K IOPS: one serial path whose service time is that latency"
    mix = curve([1, 2, 4], [6.87e3, 6.88e3, 6.88e3], x_name="iodepth", mixed_rw=True)
    g, why = grade(text, mix, kind="saturation")
    assert g == "misleading" and "read/write mix" in why[0]
    assert grade(text, curve([1, 2, 4], [6.87e3, 6.88e3, 6.88e3], x_name="iodepth"), kind="saturation")[0] == "supported"


def test_z_scaling_limit_however_far_where_in_flight_stopped_growing_is_misleading():
    x = [1, 2, 4, 8, 16, 32, 64]
    iops = [37.2e3, 43.3e3, 48.1e3, 49.0e3, 48.8e3, 48.4e3, 47.6e3]
    text = ("Amdahl's σ = 0.77 limits throughput to 49.60 K IOPS, however far iodepth grows.")
    stuck = curve(x, iops, x_name="iodepth", outstanding=np.array(x, float),
                  lat_mean_s=np.array([53, 69, 102, 182, 346, 349, 355]) * 1e-6)
    g, why = grade(text, stuck)
    assert g == "misleading" and any("stopped growing" in w for w in why)
    queued = curve(x, iops, x_name="iodepth", outstanding=np.array(x, float),
                   lat_mean_s=np.array(x, float) / np.array(iops))                 # Little's law = 1: a queue
    assert grade(text, queued)[0] == "supported"


def test_p_level_below_the_measurement_its_bracket_names_is_misleading():
    data = curve([1, 8, 32, 256], [2.0e3, 20.4e3, 20.8e3, 20.9e3])
    text = ("Throughput follows Little's law and then stays at 2.71 GB/s (2.52 GiB/s), 20.68 K IOPS (between the "
            "2.73 GB/s (2.54 GiB/s) measured and 2.76 GB/s (2.57 GiB/s), the upper end of its 95 % CI).")
    g, why = grade(text, data)
    assert g == "misleading" and "bracket" in why[0]
    above = text.replace("stays at 2.71 GB/s (2.52 GiB/s)", "stays at 2.74 GB/s (2.55 GiB/s)")
    assert grade(above, data)[0] == "supported"
    cap = "Little's law fits with a cap of 89.76 K IOPS (between the 91.29 K IOPS measured and 91.52 K IOPS)."
    assert grade(cap, curve([1, 4, 8], [30e3, 89e3, 91.29e3]))[0] == "misleading"


def test_q_peak_and_fall_from_one_single_run_point_is_misleading():
    text = "Measured IOPS peaks at 97.05 K IOPS at iodepth = 4 and falls 17% to 81.03 K IOPS at iodepth = 1024."
    x = [1, 4, 8, 32, 256, 1024]
    once = curve(x, [75.5e3, 97.05e3, 81.11e3, 81.34e3, 88.69e3, 81.03e3], n_runs=np.ones(6))
    g, why = grade(text, once, kind="saturation", facts={"state": "falls"})
    assert g == "misleading" and any("single-run" in w for w in why)
    decline = curve(x, [75.5e3, 97.05e3, 92e3, 88e3, 84e3, 81.03e3], n_runs=np.ones(6))    # a steady decline
    assert not any("single-run" in w for w in grade(text, decline, kind="saturation", facts={"state": "falls"})[1])
    repeats = curve(x, [75.5e3, 97.05e3, 81.11e3, 81.34e3, 88.69e3, 81.03e3], n_runs=np.full(6, 3.0))
    assert not any("single-run" in w for w in grade(text, repeats, kind="saturation", facts={"state": "falls"})[1])


def test_s_usl_sigma_caution_on_a_flat_cap_is_misleading():
    flat = curve([1, 2, 4, 8, 16], [6.0e3, 6.02e3, 6.05e3, 5.98e3, 6.01e3], model="usl")
    text = "Caution: sigma is at its bound 1: the data push it there."
    g, why = grade(text, flat, kind="caution")
    assert g == "misleading" and "USL" in why[0]
    assert grade(text, curve([1, 2, 4, 8, 16], [6.0e3, 6.02e3, 6.05e3, 5.98e3, 6.01e3], model="amdahl"),
                 kind="caution")[0] == "supported"                    # Amdahl's σ = 1: fully serial (round 4: noise)
    assert grade(text, curve([1, 2, 4, 8, 16], [1e3, 2e3, 3.5e3, 5e3, 6e3], model="usl"), kind="caution")[0] \
        == "supported"


def test_t_fits_at_a_low_r2_is_misleading():
    g, why = grade("amdahl fits 6 points with R² = 0.0976.", kind="fit")
    assert g == "misleading" and "'fits'" in why[0]
    assert grade("per_io_byte fits 5 points with R² = 0.8463.", kind="fit")[0] == "supported"
    assert grade("amdahl, the model kept, explains 0% of the variance between its 6 points (R² = 0.0000): no shape is "
                 "read from this fit.", kind="fit")[0] == "supported"


def test_a_pace_is_no_saturation_and_its_unit_is_iops():
    data = curve([4096, 65536, 262144], [3000, 3000, 3000], x_is_bs=True, x_name="block_size_bytes")
    text = ("fio was told to pace these runs (--rate_iops=3000 per job): the measured IOPS is that rate (100.0% of "
            "3.00 K IOPS) — a limit set in fio")
    assert grade(text, data, expect(saturation="from_first"), kind="paced")[0] == "supported"


def test_totals_give_the_fraction_and_the_bar():
    a = cs.CaseScore("a", "dev", claims=[cs.GradedClaim("c", "k", "t", "misleading", ["r"])], saturating=True,
                     onset_plateau_ok=True)
    b = cs.CaseScore("b", "dev", claims=[cs.GradedClaim("c", "k", "t", "supported", [])])
    t = cs.totals([a] + [b] * 9)
    assert t["series_contradicted_or_misleading"] == 1 and cs.bar(t)["met"]
    out = cs.format_totals(t, "x")
    assert "1 of 10 (10%)" in out and out.rstrip().endswith("met")
    t = cs.totals([a] + [b] * 8)                     # 1 of 9 > 1 in 10
    assert not cs.bar(t)["met"] and "NOT met: <= 1 in 10 series misleading" in cs.format_totals(t, "x")


def test_a_fall_in_other_words_is_not_missing_but_no_falls_verdict():
    data = curve([4096, 262144, 1 << 20], [2000, 2000, 969], x_is_bs=True, x_name="block_size_bytes")
    said = {"kind": "block size", "text": "Measured IOPS fall from 2.00 K IOPS at 4 KiB to 969 IOPS at 1 MiB as blocks "
                                          "grow", "facts": {}}
    assert cs.score_claims("t", [said], {(): data}, expect(falls=True)).missing == []
    assert ("all points", "falls") in cs.score_claims("t", [], {(): data}, expect(falls=True)).missing
    assert grade(said["text"], data, expect(falls=False), kind="block size")[0] == "supported"


def test_regrade_refuses_an_unspent_round(tmp_path, monkeypatch):
    monkeypatch.setattr(cs, "UNSPENT", ("blind16",))  # (every round is spent now: the refusal as it held for 16)
    saved = tmp_path / "r.txt"
    saved.write_text("== r16_anything [blind16]: 1 claims\n  [supported] (fit) x fits 3 points with R² = 0.1.\n",
                     encoding="utf-8")
    with pytest.raises(ValueError, match="unspent round blind16"):
        cs.regrade_saved(saved)


def test_every_case_is_cited_in_the_corpus_readme():
    """Every case folder has its row (source, licence, what was copied) in the corpus README, and the README names no
    case that is not there: the citation of a case lives in one place a reader finds."""
    import re

    readme = (cs.CORPUS / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:r\d+_)?[a-z0-9][\w.+-]*)`", readme))
    ids = {d.name for d in CASES}
    assert sorted(ids - named) == []
    assert sorted(n for n in named if n.startswith(cs.ROUND_PREFIXES)
                  and not n.endswith("_") and n not in ids) == []
