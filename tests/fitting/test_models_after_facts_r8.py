"""Issue 28, round 8 (read, then spent): where the data facts state a level (the saturation fact's onset, from the first
point, near or falls; a measured cap along block size; a plateau, fall or flat line), the model sentences state no
knee, limit, asymptote, ceiling or mechanism (σ, κ, a serial fraction) — those stay in summary() and params — and
nowhere a fitted value above every measurement. Classes DA (a knee "only adds queueing latency" with +41 % measured
past it), DB (USL σ, κ and a 1.6× "contention alone" limit on a level from the first point that then falls), EC (an
Amdahl limit with a CI above the measured saturated level) and DG (fit noise). Counter-cases: a still-rising or linear
series keeps its model sentence; an earlier round's rising series keeps its right "no ceiling is reached"."""
import re
import warnings

import numpy as np
import pandas as pd
import pytest

import nvmemodel as nm
from tests.fitting import corpus_score as cs

#: words a model sentence uses to state a level or its mechanism
LEVEL_WORDS = ("knee", "limit", "asymptote", "ceiling", "cap of", "σ", "κ", "serial", "contention", "coherency",
               "tends to", "stays at", "levels off")


def model_texts(res) -> list[str]:
    return [c["text"] for c in res.claims() if c["kind"] in ("model", "fit")]


def assert_no_model_level(res):
    """No model sentence (nor the fit's R² line) beside a level the facts state."""
    said = model_texts(res)
    assert not said, said


def _r8(case_id):
    return cs.fit_case_id(case_id, "blind8")


def _all(res):
    return " ".join(c["text"] for c in res.claims())


def test_da_no_knee_beside_a_measured_onset_r8_sqpoll():
    # QD4 269.5 K → QD16 380.6 K (+41 %) past the fitted knee 4.01: "beyond the knee … only adds queueing latency" gone
    res = _r8("r8_ingimarsson_nvme_512b-randread_sqpoll_qd")
    text = _all(res)
    assert "saturated from iodepth = 16" in text
    assert "Beyond the knee" not in text and "knee" not in text and "4.01" not in text
    assert_no_model_level(res)


def test_da_no_knee_beside_a_measured_onset_r8_liburing():
    res = _r8("r8_ingimarsson_nvme_512b-randread_liburing-engine_qd")
    assert "saturated from iodepth = 4" in _all(res) and "Beyond the knee" not in _all(res)
    assert_no_model_level(res)


def test_db_no_usl_reading_of_a_level_that_falls_r8():
    # flat 76.6–78.4 K IOPS from 48 to 192 jobs, then −25 % and −37 %: no σ, κ, no 128.66 K "contention alone" limit
    res = _r8("r8_satishg_24sata-bx500-hba_4k-randwrite_qd4_numjobs")
    text = _all(res)
    assert "falls" in text and "saturates from numjobs = 48" in text
    assert not any(w in text for w in ("σ", "κ", "contention", "coherency", "128.66"))
    assert_no_model_level(res)


def test_ec_no_amdahl_limit_above_a_measured_saturation_r8():
    # 766.6 K, 832.8 K, 831.4 K measured; Amdahl's 968.28 K (CI 944.93–996.04 K) was printed after the saturation
    res = _r8("r8_ezfio62_firecuda530_4k-randrw7030_qd1_threads")
    text = _all(res)
    assert "saturates from numjobs = 128" in text
    assert "968" not in text and "Amdahl" not in text and "amdahl" not in text
    assert_no_model_level(res)


@pytest.mark.parametrize("case_id", ["r8_whitepau_usbflash_64k-seqwrite_qd",  # DG: Amdahl's σ along iodepth
                                     "r8_percraid5_3sata-ssd_4k-randwrite_4jobs_qd",  # DG: R² = 0 said twice
                                     "r8_whitepau_usbflash_seqwrite_qd32_bs"])  # a measured byte cap: no fit ceiling
def test_dg_no_fit_noise_beside_a_level_r8(case_id):
    res = _r8(case_id)
    assert_no_model_level(res)
    assert not any(c["kind"] == "far off" for c in res.claims())


def test_counter_a_rising_series_keeps_its_model_sentence_r2():
    # round 2 (spent): 8.20 M IOPS at the last of 4 device counts, still rising — the right "no ceiling is reached"
    res = cs.fit_case_id("r2_tratori_p5800x_4k-randread_drives_repeats", "blind2")
    (m,) = [t for t in model_texts(res) if "no ceiling is reached within the data" in t]
    assert "cap of" not in m


def _seeded(rows, x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=x, y="iops")


def test_counter_a_linear_series_keeps_scales_linearly():
    # three repeats at ±1 % about 1 K IOPS per job at every load: no bend, no level
    res = _seeded([{"numjobs": x, "iops": 1000.0 * x * k} for x in (1, 2, 4, 8, 16) for k in (0.99, 1.0, 1.01)],
                  "numjobs")
    assert any(t.startswith("Scaling is linear at") for t in model_texts(res)), model_texts(res)


def test_counter_a_still_rising_series_states_no_value_above_every_measurement():
    # a seeded Amdahl-like rise that has not levelled (+56 % in its last doubling): its limit (above every
    # measurement) is not printed. Round 18 QE: on a series the facts read as still rising no fit line and no model
    # parameters are said at all (was: σ read, its limit "not stated"); the limit stays in summary()
    rng = np.random.default_rng(9)
    rows = [{"numjobs": x, "iops": 1e5 * x / (1 + 0.05 * (x - 1)) * (1 + 0.005 * rng.standard_normal())}
            for x in (1, 2, 4, 8, 16) for _ in range(3)]
    res = _seeded(rows, "numjobs")
    top = res.points["y"].max()
    (sat,) = [c["text"] for c in res.claims() if c["kind"] == "saturation"]
    assert sat.startswith("Measured IOPS still rises at the largest numjobs") and "no ceiling is reached" in sat, sat
    assert not model_texts(res), model_texts(res)
    limit = res.fits[()]["amdahl"].values["x1"] / res.fits[()]["amdahl"].values["sigma"]
    assert limit > top and "amdahl_limit" in res.summary()
    text = res.explain()
    assert "σ" not in text, text
    for v, unit in re.findall(r"(\d+(?:\.\d+)?) ([KM]) IOPS", text):
        assert float(v) * {"K": 1e3, "M": 1e6}[unit] <= top * 1.02, (v, unit, top, text)
