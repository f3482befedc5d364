"""Round 19's class TD (``_blind_rounds/round19_hand_read_part2.md``): a model line on a series that still rises
(r19_silentzns … randread numjobs, "(fit) littles_soft fits 7 points with R² = 1.0000"). Round 18's rule (QE) took the
fit line off; what it left was the untrusted model's caution, "(model) The … fit (R² = …) does not describe these points
closely enough …" (round 20: r20_tutsunom_sdb … qd1_numjobs, amdahl R² = 0.8523; r20_nerdst … randread_qd1_bs,
per_io_byte R² = 0.9780). Rule: where the explanation says the series still rises, no model is read, so no caution
about reading one either. Counters: an untrusted fit on a series not said to rise keeps its caution. Spent rounds.
"""

from __future__ import annotations

import pytest

from nvmemodel.fitting.facts import curve_facts
from tests.fitting import corpus_score as cs

pytestmark = pytest.mark.filterwarnings("ignore")

RANDREAD = "r19_silentzns_femu-zns-direct_16k-randread-sync_zone-per-job_numjobs"
SDB = "r20_tutsunom_sdb-hdd-deadline_4k-randread_qd1_numjobs_repeats"
NERDST = "r20_nerdst_nvme-p7_randread_qd1_bs"
ENDFSYNC = "r17_here-endfsync_loop_psync_buffered_seqwrite_endfsync_bs_repeats"
LOOPBS = "r11_here-fio2210_loop_libaio_randread_qd4_bs_repeats"
NOISY = "r4_here_loop_libaio_numjobs_qd4_repeats"

CAUTION = "does not describe these points closely enough"


def _texts(fit):
    return [(c["kind"], c["text"]) for c in fit.claims()]


def test_td_r19_randread_rising_has_no_fit_or_model_caution():
    fit = cs.fit_case_id(RANDREAD, "blind19")
    key = next(iter(fit.fits))
    assert curve_facts(fit, key).saturation.facts["state"] == "rising"
    texts = _texts(fit)
    assert not [t for k, t in texts if k == "fit"] and not any(CAUTION in t for _, t in texts), texts
    assert any("still rises" in t for _, t in texts)


@pytest.mark.parametrize("case_id", [SDB, NERDST])
def test_td_r20_untrusted_fit_on_a_rising_series_is_not_cautioned(case_id):
    fit = cs.fit_case_id(case_id, "blind20")
    key = next(iter(fit.fits))
    assert not curve_facts(fit, key).trust.facts["interpreted"]  # the premise: a fit the explanation does not read
    texts = _texts(fit)
    assert any("still rises" in t for _, t in texts)
    assert not any(CAUTION in t for _, t in texts), texts


@pytest.mark.parametrize("case_id,split", [(ENDFSYNC, "blind17"), (LOOPBS, "blind11")])
def test_td_counter_untrusted_fit_on_a_series_not_said_to_rise_keeps_its_caution(case_id, split):
    # endfsync: buffered writes along block size whose "still rises" the last check dropped (the runs contradict it);
    # the loop libaio block-size series says no rise at all — the fit is not read, and the caution says why
    fit = cs.fit_case_id(case_id, split)
    texts = _texts(fit)
    assert not any("still rises" in t for _, t in texts)
    assert any(CAUTION in t for k, t in texts if k == "model"), texts


def test_td_rising_state_whatever_its_words_is_a_rising_series():
    # round 18's rule reads the saturation fact's state "rising" whatever words it gets ("these runs do not tell a last
    # rise from a level"): no fit line there, and now no caution either
    fit = cs.fit_case_id(NOISY, "blind4")
    assert curve_facts(fit, next(iter(fit.fits))).saturation.facts["state"] == "rising"
    texts = _texts(fit)
    assert any("do not tell a last rise from a level" in t for _, t in texts)
    assert not any(CAUTION in t for _, t in texts) and not [t for k, t in texts if k == "fit"], texts


def test_td_other_model_sentences_on_a_rising_series_stay():
    # "Little's law fits the rise; … so none is estimated from the fit" is no caution about an untrusted fit
    fit = cs.fit_case_id(RANDREAD, "blind19")
    assert any(k == "model" and "Little's law fits the rise" in t for k, t in _texts(fit))
