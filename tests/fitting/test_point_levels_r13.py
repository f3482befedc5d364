"""One level per point (facts.point_levels), shared by the mix and the block-size cap claims (round 13 PB, QA).

Each rule on the spent case that asked for it and on a spent case where it must not fire; the assertions recompute
from the runs what the words claim, no value is pinned.
"""

import pytest
import numpy as np

from tests.fitting.corpus_score import fit_case_id

from nvmemodel.fitting import facts as F
from nvmemodel.fitting.facts import curve_facts, point_levels

PB = "r13_here-oldfio_fio313-jsonplus_loop_libaio_randrw_qd4_readshare_repeats"
MIX_REAL = "aialra0_nvme_4k-randrw_qd32_readshare_repeats"  # tight repeats, mixes far below the harmonic line
QA = "r13_here-oldfio_fio325-terse_loop_libaio_seqwrite_qd4_bs_repeats"
CAP_REAL = "r2_here_blkio_roofline_8k_bs_repeats"  # a blkio bps throttle: a real cap, tight runs
CAP_IOPS = "r7_here_blkio_wiops_seqwrite_bs_repeats"  # a 2000-IOPS throttle, one run 2.4 % above the mean-read cap


def _one(case):
    r = fit_case_id(case)
    key = next(iter(r.fits))
    return r, key, curve_facts(r, key)


def _line_from_lowest(r, cf):
    """The harmonic line of the pure points' lowest kept runs, per mixed share (recomputed here from the runs)."""
    lv = point_levels(r, cf.points)
    x = np.array([d["x"] for d in lv]) / (100.0 if r.x.lower() == "rwmixread" else 1.0)
    lo = {float(a): d["lo"] for a, d in zip(x, lv)}
    return {a: 1 / (a / lo[1.0] + (1 - a) / lo[0.0]) for a in x if 0 < a < 1}, {float(a): d for a, d in zip(x, lv)}


def test_point_levels_leave_stalled_runs_out_and_take_the_median():
    r, key, cf = _one(PB)
    st = F.stalled_runs(r, cf.points)
    assert st is not None and st["left"]
    for d, i in zip(point_levels(r, cf.points), range(len(cf.points))):
        v = F._run_values(r, cf.points, i)
        kept = sorted(set(np.round(v, 6)) - {round(s, 6) for s in d["stalled"]})
        assert d["runs"] == len(kept) and np.isclose(d["median"], np.median(kept))
        assert np.isclose(d["lo"], min(kept)) and np.isclose(d["hi"], max(kept))


def test_mix_in_the_runs_scatter_is_not_interference():
    r, key, cf = _one(PB)
    s = cf.mix.facts
    assert s["below_harmonic"] is False and s["in_noise"] is not None
    line, lv = _line_from_lowest(r, cf)
    # the words' premise, from the runs: at every mixed share a kept run reaches the line of the pure points' lows
    assert all(lv[a]["hi"] >= line[a] for a in line)
    text = r.explain()
    assert "interfere beyond" not in text and "cannot tell interference" in text
    assert "left out" in text  # the stalled runs are named where the levels are read


def test_mix_below_every_run_is_still_read():
    r, key, cf = _one(MIX_REAL)
    s = cf.mix.facts
    line, lv = _line_from_lowest(r, cf)
    assert any(lv[a]["hi"] < line[a] for a in line)  # the data: some share lies wholly below the line
    assert s["below_harmonic"] is True and s["in_noise"] is None
    assert "interfere beyond" in r.explain()


def test_cap_with_runs_above_it_is_no_cap():
    r, key, cf = _one(QA)
    text = r.explain()
    assert "or a little above" not in text
    if cf.cap is not None and cf.cap.facts["bytes_cap"]:  # (round 15: the medians of 64 KiB–1 MiB are no flat stretch)
        s = cf.cap.facts
        assert s["bytes_runs"][1] > (1 + F.FLAT) * s["bytes_cap"] and "not a cap they show" in text


def test_cap_with_tight_runs_keeps_its_words():
    # one depth (16 outstanding) at every size, but the bytes in flight grew ×32 (128 KiB → 4 MiB) over the flat
    # stretch and fio's latency with them (Little's law): since round 16 (WB) that is a byte cap, measured
    r, key, cf = _one(CAP_REAL)
    s = cf.cap.facts
    assert s["bytes_cap"] and s["bytes_runs"][1] <= (1 + F.FLAT) * s["bytes_cap"] and s["bytes_depth"] == 16
    lo, hi = s["bytes_range"]
    lv = point_levels(r, cf.points)
    assert all(lo <= d["median"] <= hi for d in lv if d["x"] >= s["bytes_flat"][0])
    fl = s["bytes_inflight"]
    assert fl["growth"] == pytest.approx(s["bytes_flat"][1] / s["bytes_flat"][0]) and fl["growth"] >= 4
    assert all(0.9 <= c <= 1.1 for c in fl["little"])
    assert f"the bytes in flight grew ×{fl['growth']:.3g}" in r.explain() and "a byte cap of" in r.explain()
    assert "the byte rate at that depth, not shown to be a cap" not in r.explain()


NA = "r12_here-sched_loop-kyber_libaio_randwrite_iodepth_repeats"
NO_SPLIT = "r3_here_blkio_iops_3jobs_iodepth_repeats"  # a blkio IOPS throttle over iodepth: tight repeats


def _adjacent_ratio(r, cf, i, d):
    v = np.sort([x for x in F._run_values(r, cf.points, i) if not any(np.isclose(x, t) for t in d["stalled"])])
    return float((v[1:] / v[:-1]).max()) if v.size >= 2 else 1.0


def test_split_runs_on_the_level_are_said():
    r, key, cf = _one(NA)
    lv = point_levels(r, cf.points)
    onset = cf.saturation.facts["onset_x"]
    split = [d["x"] for i, d in enumerate(lv) if d["x"] >= onset and _adjacent_ratio(r, cf, i, d) > F.SPLIT_RATIO]
    assert split and all(lv[i]["split"] for i in range(len(lv)) if lv[i]["x"] in split)
    text = r.explain()
    # a level pooled over split runs is never said without the split (the verification pass may drop the level)
    assert "flattens at" not in text or "split into two groups" in text


def test_split_runs_said_beside_a_surviving_level():
    r, key, cf = _one("here_loop_iodepth")  # dev: QD64 runs 58.9 K and 118.7–143.4 K under a level kept
    lv = point_levels(r, cf.points)
    assert any(d["split"] and _adjacent_ratio(r, cf, i, d) > F.SPLIT_RATIO for i, d in enumerate(lv))
    text = r.explain()
    # the level is said as the one unsplit point's, QD64 set apart beside it: kept by verify (its words pool no split
    # point; round 24's review drops only a level whose "N points" count split ones in); since the review of round
    # 25's fixes said at QD32 alone, not "over iodepth = 32–64" (split_level.py)
    assert "at iodepth = 32, the one point from the onset on whose runs do not split" in text
    assert "split into two groups" in text and "32–64" not in text


def test_no_split_sentence_for_tight_runs():
    r, key, cf = _one(NO_SPLIT)
    lv = point_levels(r, cf.points)
    assert all(_adjacent_ratio(r, cf, i, d) <= F.SPLIT_RATIO for i, d in enumerate(lv))
    assert "split into two groups" not in r.explain()


def test_throttle_cap_with_a_run_a_little_above_keeps_its_words():
    r, key, cf = _one(CAP_IOPS)
    s = cf.cap.facts
    assert s["iops_cap"] and s["iops_runs"][1] > s["iops_cap"]  # a run above the cap, within the level's band
    assert s["iops_runs"][1] <= (1 + F.FLAT) * s["iops_cap"]
    assert "not a cap they show" not in r.explain()  # (its words at one depth are the QC rule's, test_claims_r13)
