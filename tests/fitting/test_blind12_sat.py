"""Issue 28, round 12's saturation and noise classes (``r12_*``, spent after its hand reading): MA (near saturation
withheld as "cannot tell"), ME (a 2 % drift called "peaks and falls"), MC (a shape verdict beside "had no effect").
Each rule is tested on the spent case it was seen on and on a seeded counter-case where it must not fire."""
import warnings

import numpy as np
import pandas as pd

import nvmemodel as nm
from tests.fitting import corpus_score as cs


def _fit(rows, x="iodepth", y="iops"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nm.fit(pd.DataFrame(rows), x=x, y=y)


def _case(case_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cs.fit_case_id(case_id, "blind12")
        res.claims()
        return res


def _sat(res):
    return [c for c in res.claims() if c["kind"] == "saturation"]


def test_near_saturation_from_latency_and_little_r12():
    res = _case("r12_here-loopdio_loop-dio-on_libaio_randread_iodepth_repeats")
    (sat,) = _sat(res)
    assert sat["facts"]["state"] == "near" and "near saturation" in sat["text"], sat
    assert "do not tell a last rise from a level" not in sat["text"]
    assert sat["facts"]["lat_growth"] >= 1.6 and abs(sat["facts"]["little_hi"] - 1) <= 0.2


def test_no_near_saturation_where_the_depth_was_not_in_flight_seeded():
    # the same overlapping last pair, but latency flat from QD4: the added depth never reached the path (Little fails)
    runs = {1: [990, 1000, 1010], 2: [1980, 2000, 2020], 4: [2970, 3000, 3030], 8: [2600, 3600, 4600],
            16: [3032, 4032, 5032]}
    rows = [{"iodepth": x, "iops": float(v), "lat_mean_s": min(x, 4) / float(np.mean(vs))}
            for x, vs in runs.items() for v in vs]
    (sat,) = _sat(_fit(rows))
    assert sat["facts"]["state"] != "near" and "near saturation" not in sat["text"], sat


def test_a_small_drift_with_one_run_a_point_is_no_fall_r12():
    res = _case("r12_rocmnixl_7nvme-hipfile-stream_1m_iodepth")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = " ".join(c["text"] for c in res.claims())
    assert "falls" not in text and "peaks at" not in text, text


def test_a_large_fall_with_one_run_a_point_is_still_said_seeded():
    # one run a point, flat then −30 % at the last two depths: well beyond a few %, said
    ys = {1: 1000, 2: 2000, 4: 4000, 8: 4050, 16: 4020, 32: 3000, 64: 2800}
    rows = [{"iodepth": x, "iops": float(v)} for x, v in ys.items()]
    text = " ".join(c["text"] for c in _fit(rows).claims())
    assert "falls" in text or "lower" in text, text
