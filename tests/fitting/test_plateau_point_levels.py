"""The saturation plateau reads each point's own level (facts.point_levels), round 12 NB (docs/fitting.md, the
one-level-per-point row)."""

from __future__ import annotations

import numpy as np

from nvmemodel.fitting.facts import curve_facts, point_levels

from .corpus_score import fit_case_id


def _sat(res):
    (key,) = res.chosen
    cf = curve_facts(res, key)
    return cf, cf.saturation.facts


def test_plateau_range_is_the_points_medians_on_a_spent_case_with_repeats():
    # spent r3: one slow run pulled a point's mean to 1.46 GB/s; the plateau's ends are now the points' own levels
    res = fit_case_id("r3_here_blkio_iops_iodepth_1m_repeats")
    cf, s = _sat(res)
    assert s["plateau_by_point"]
    med = [d["median"] for d in point_levels(res, cf.points) if s["onset_x"] <= d["x"] <= s["plateau_x_to"]]
    assert np.isclose(s["plateau_lo"], min(med)) and np.isclose(s["plateau_hi"], max(med))
    y = cf.points["y"].to_numpy(float)
    assert s["plateau_hi"] < y.max()  # the means' top was the pulled point, not a level


def test_one_run_a_point_keeps_the_means():
    # counter (seeded synthetic, one run a point): no runs to take a median of, so the points' means stand
    import pandas as pd

    import nvmemodel as nm

    x = np.array([1, 2, 4, 8, 16, 32], float)
    iops = np.array([10e3, 19e3, 30e3, 31e3, 30.5e3, 31.2e3])
    df = pd.DataFrame({"iodepth": x, "iops": iops, "lat_mean_s": x / iops, "block_size_bytes": 4096.0,
                       "bw_bytes_per_s": iops * 4096.0, "rw": "randread", "numjobs": 1})
    r = nm.fit(df, x="iodepth", y="iops")
    cf, s = _sat(r)
    assert not s["plateau_by_point"]
    lvl = iops[x >= s["onset_x"]]
    assert np.isclose(s["plateau_lo"], lvl.min()) and np.isclose(s["plateau_hi"], lvl.max())
