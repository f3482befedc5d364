"""Round 30's mix, tail, CPU and short-run classes (QA, RA, RD, RF, RG), each with the spent case that showed it and a
case where the rule must not fire. The assertions recompute from the table what the words claim.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from nvmemodel.fitting.above_device import IDLE_ABOVE, waited_above
from nvmemodel.fitting.facts import curve_facts
from nvmemodel.fitting.latency_growth import TAIL_P90_FLAT, TWO_CLASSES
from nvmemodel.fitting.mix_facts import SE_CONFIDENCE, shortfall_by_se, t_quantile
from nvmemodel.fitting.run_length import set_runtime

from .corpus_score import fit_case_id

pytestmark = pytest.mark.filterwarnings("ignore")

OTMIX = "r30_orangetangy_crucial-p3plus-500g-win-windowsaio_4k-randrw-qd8_readshare_repeats"
LDMIX = "r30_lucasding_pm981-256g-nvme1n1p1_4k-randrw-iouring-qd32_readshare"
RBD24 = "r24_fiorbd2016_ceph-librbd_4k-rand_qd16_readshare_repeats"
TOSHIBA = "r30_croit_ceph-rbd-rep3-6x-toshiba-mg06-hdd_4k-randread-librbd_iodepth"
EXOS = "r30_croit_ceph-rbd-rep3-6x-exos2x14-mach2_4k-randread-librbd_iodepth"
STARVED = "r14_dpfs_dpu-virtiofs-nfs_4k-randread_p2_qd"  # a true tail: median flat, p99.9 ×2,400
ZRAM = "r16_here-zram_zram-lzorle_psync_randwrite_numjobs_repeats"
POSIXAIO = "r30_here-posixaio_vda-ext4-512mfile_posixaio-direct_randread4k_iodepth_repeats"
SQPOLL = "r30_here-uringsqpoll_vda-ext4-512mfile_iouring-sqpoll-direct_randread4k_iodepth_repeats"


def _claim(case, kind):
    r = fit_case_id(case)
    return r, next(c for c in r.claims() if c["kind"] == kind)


def _cf(r):
    return curve_facts(r, next(iter(r.fits)))


# --- QA: every mix read against the line; a t quantile for the runs there are ---------------------------------------

def test_mixes_on_both_sides_give_no_verdict():
    r, c = _claim(OTMIX, "mix")
    f, t = c["facts"], c["text"]
    d = np.array(f["deficits"])
    assert d.max() > 0.1 and d.min() < -0.1  # the premise: one mix below the line, one far above it
    st = f["straddle"]
    assert f["below_harmonic"] is None and st is not None
    assert np.isclose(st["below"]["median"], st["below"]["line"] * (1 - d.max()))
    ratio = st["above"]["median"] / st["above"]["line"]
    assert ratio > 2 and f"×{ratio:.3g} the line's value" in t
    assert "no mixing verdict" in t and "reads and writes interfere" not in t and "Mixes fall below" not in t
    assert st["spread"][1] / st["spread"][0] > 3  # each share's runs spread as wide as the shares differ


def test_t_quantile_for_three_runs_a_point():
    # 2.2 standard errors on 3 runs a point is not beyond the scatter (≈ 4.8 degrees of freedom)
    r = fit_case_id(OTMIX)
    cf = _cf(r)
    from nvmemodel.fitting.point_runs import point_levels

    lv = point_levels(r, cf.points)
    xs = list(cf.points["x"])
    sf = shortfall_by_se(0.5, lv[xs.index(1.0)]["kept"], lv[xs.index(0.0)]["kept"], lv[xs.index(0.5)]["kept"])
    assert 2.0 < sf["t"] < sf["q"] and 3 < sf["df"] < 7
    assert np.isclose(sf["q"], stats.t.ppf(0.5 + SE_CONFIDENCE / 2, sf["df"]))
    assert t_quantile(float("inf")) == 2.0 and t_quantile(1000) < 2.0


def test_a_shortfall_beyond_the_t_quantile_stays():
    # counter-case: round 24's five runs a point clear the t quantile for their degrees of freedom
    r, c = _claim(RBD24, "mix")
    b = c["facts"]["by_se"]
    assert b is not None and b["t"] > b["q"] > 2.0
    assert "Mixes fall below it" in c["text"] and "Student's t quantile" in c["text"]
    assert c["facts"]["straddle"] is None


def test_mixes_all_below_keep_their_verdict():
    r, c = _claim(LDMIX, "mix")
    assert c["facts"]["straddle"] is None and c["facts"]["below_harmonic"] is True
    assert "Mixes fall below it" in c["text"]


# --- RA: tail words only where p90 stays flat and near the median ---------------------------------------------------

def test_two_classes_not_a_tail():
    r, c = _claim(TOSHIBA, "saturation")
    s = _cf(r).saturation.facts
    u, p = s["upper"], _cf(r).points
    k = s["onset_index"]
    q90 = p["p90"].to_numpy(float)
    assert "tail" not in s and u["two"] and u["grew"]
    assert q90[-1] >= TWO_CLASSES * p["p50"].iloc[-1] and q90[k:].max() > TAIL_P90_FLAT * q90[k]
    t = c["text"]
    assert "two classes of I/O" in t and "in service" not in t and "a few I/Os" not in t
    fast = 0.5 * p["iops"].iloc[-1] * u["p50_hi"]
    assert fast < 1 and f"held at most {fast:.2g} of them" in t


@pytest.mark.parametrize("case", [STARVED, ZRAM])
def test_true_tails_keep_the_tail_words(case):
    r = fit_case_id(case)
    s = _cf(r).saturation.facts
    assert "tail" in s and "upper" not in s
    assert "the growth is in the tail" in r.explain()


def test_median_grown_says_neither():
    r = fit_case_id(EXOS)  # its median grows 6.4 → 9.8 ms over the plateau: no tail or class words
    s = _cf(r).saturation.facts
    assert "tail" not in s and "upper" not in s


# --- RD: the job thread's cost, no verdict, for engines whose I/O other threads do -----------------------------------

@pytest.mark.parametrize("case", [POSIXAIO, EXOS])
def test_helper_engine_cost_has_no_verdict(case):
    _, c = _claim(case, "cpu")
    t = c["text"]
    assert "says nothing of a CPU limit" in t
    assert "The job thread's own CPU per I/O" in t and "no CPU limit is read from it" in t
    assert "no limit these rates came near" not in t and "helper threads issue" not in t


def test_own_thread_engine_keeps_its_verdict():
    # counter-case: psync does its I/O in the job's thread (round 29 OE)
    _, c = _claim("r29_here-vdadsync_vda-ext4-64mfile-per-job_psync-direct-odsync_randwrite4k_numjobs_repeats", "cpu")
    assert "no limit these rates came near" in c["text"] and "job thread's own" not in c["text"]


# --- RF: a round runtime with fio error 0 is a set runtime ----------------------------------------------------------

def test_set_runtime():
    assert set_runtime(10.003) == 10.0 and set_runtime(900.0) == 900.0 and set_runtime(900.423) == 900.0
    assert set_runtime(16.7) is None and set_runtime(12.02) is None and set_runtime(3.0) is None


def test_short_set_run_is_not_cut_short():
    r, c = _claim(EXOS, "caution")
    run = c["facts"]["cut_short"]["runs"][0]
    assert run["error"] == 0 and run["set"] and np.isclose(run["runtime_s"], 10.003)
    t = c["text"]
    assert "not a run cut short" in t and "a signal" not in t and "an error" not in t


# --- RG: a level from the first point waited above an idle device ---------------------------------------------------

def test_wait_above_an_idle_device():
    r, c = _claim(POSIXAIO, "saturation")
    w = waited_above(r, _cf(r))
    assert w is not None and w["hi"] <= 1 - IDLE_ABOVE and w["little"][0] >= 0.9
    t = c["text"]
    assert "held above the device, by a serial server there" in t and "glibc's AIO" in t
    assert "a rate cap or one serial server" not in t


def test_busy_device_is_not_placed_below():
    r = fit_case_id(SQPOLL)  # vda 88–97 % busy: the rule must not fire
    assert waited_above(r, _cf(r)) is None
    assert "waited above" not in r.explain()
