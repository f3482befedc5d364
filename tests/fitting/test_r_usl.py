"""The USL fit against R's ``usl`` package on its own bundled data sets (specsdm91, raytracer, oracledb).

Data: ``tests/data/fit/usl/*.csv``, the ``data/*.rda`` tables of smoeding/usl (BSD-2-Clause; see
tests/data/SOURCES.md). Reference values: R usl's saved test outputs (``tests/summary.Rout.save``,
``peak-scalability``, ``limit-scalability``, ``optimal-scalability``, ``confint.Rout.save``) and, for the
sets those do not cover (raytracer in full, oracledb), R 4.2.2's ``nls(..., algorithm = "port")`` called
as R usl's ``usl.solve.nls`` calls it (``tests/data/fit/usl/reference_nls.R`` → ``reference_nls.Rout``).
R's alpha, beta, gamma are our sigma, kappa, x1. Point estimates agree to ≥ 4 significant digits
(rel 1e-4: both are least-squares optima reached by different optimisers; lmfit stops at its tolerance).
"""

import pathlib

import numpy as np
import pandas as pd
import pytest

from nvmemodel.fitting import SHAPES, fit_shape
from nvmemodel.fitting.derived import derived_quantities, no_peak

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "fit" / "usl"
EST = 1e-4  # four significant digits


def _fit(name, x, y, rows=None):
    d = pd.read_csv(DATA / f"{name}.csv")
    if rows is not None:
        d = d.iloc[:rows]
    return fit_shape(SHAPES["usl"], d[x].to_numpy(float), d[y].to_numpy(float))


def test_specsdm91_matches_r_summary():
    f = _fit("specsdm91", "load", "throughput")
    # summary.Rout.save: alpha 2.773e-02 (9.122e-03), beta 1.044e-04 (1.988e-05), gamma 90.00 (14.21);
    # residual standard error 82.85 on 4 degrees of freedom; nls port to 10 digits in reference_nls.Rout
    assert f.values["x1"] == pytest.approx(89.99522677, rel=EST)
    assert f.values["sigma"] == pytest.approx(0.02772846999, rel=EST)
    assert f.values["kappa"] == pytest.approx(1.043655007e-04, rel=EST)
    assert f.stderr["x1"] == pytest.approx(14.21348839, rel=1e-3)
    assert f.stderr["sigma"] == pytest.approx(9.121731166e-03, rel=1e-3)
    assert f.stderr["kappa"] == pytest.approx(1.987527005e-05, rel=1e-3)
    assert f.stats["residual_se"] == pytest.approx(82.84582003, rel=EST) and f.stats["df"] == 4
    d = derived_quantities(f)
    assert d["peak_n"][0] == pytest.approx(96.51956, rel=EST)  # peak-scalability.Rout.save
    assert d["amdahl_limit"][0] == pytest.approx(3245.589, rel=EST)  # limit-scalability.Rout.save
    assert d["optimal_n"][0] == pytest.approx(36.06401, rel=EST)  # optimal-scalability.Rout.save
    eff = f.y / (f.x * f.values["x1"])  # efficiency.Rout.save
    np.testing.assert_allclose(eff, [0.7211, 0.6148, 0.5100, 0.2860, 0.1882, 0.1370, 0.0876], atol=6e-5)
    # the peak lies inside the data and κ's interval excludes 0: a peak is reported, with a t-based interval
    assert 0 < f.ci_low["kappa"] and d["peak_n"][1] < 96.52 < d["peak_n"][2]


def test_raytracer_first_six_matches_r_confint():
    f = _fit("raytracer", "processors", "throughput", rows=6)
    # confint.Rout.save: coef alpha 0.02444, beta 0.00163, gamma 20.85605 (nls port: 10 digits)
    assert f.values["x1"] == pytest.approx(20.856045010457, rel=EST)
    assert f.values["sigma"] == pytest.approx(0.024444038187, rel=EST)
    assert f.values["kappa"] == pytest.approx(0.001626809372, rel=EST)
    # R's confint uses qt(0.95, n − 1): a one-sided quantile on the wrong df (alpha 0.00754–0.04135); ours is
    # estimate ± t(0.975, n − k)·SE, wider — R's SE is the same
    assert f.stderr["sigma"] == pytest.approx(0.0083906548215, rel=1e-3)
    assert f.ci_low["sigma"] < 0.00754 and f.ci_high["sigma"] > 0.04135


def test_raytracer_kappa_at_bound_is_reported_as_at_bound():
    # the case: lmfit stopped at κ = 1.2e-11 with a standard error 8× R's; R's port puts beta at 0
    f = _fit("raytracer", "processors", "throughput")
    assert f.values["x1"] == pytest.approx(21.84884277087, rel=EST)
    assert f.values["sigma"] == pytest.approx(0.05777078033, rel=EST)
    assert f.values["kappa"] == 0.0
    assert f.held == {"kappa": "at bound"}
    assert np.isnan(f.stderr["kappa"]) and np.isnan(f.ci_low["kappa"]) and np.isnan(f.ci_high["kappa"])
    # the others' standard errors as R's nls reports them (Jacobian of all three, beta at its bound)
    assert f.stderr["x1"] == pytest.approx(2.1961715886747, rel=1e-3)
    assert f.stderr["sigma"] == pytest.approx(0.0132932976267, rel=1e-3)
    assert f.stats["k"] == 3 and f.stats["residual_se"] == pytest.approx(9.335669498, rel=EST)
    d = derived_quantities(f)
    assert no_peak(d)  # R reports a "peak" N* = √((1−α)/β) = inf here; there is none in the data
    assert np.isfinite(d["amdahl_limit"][1]) and d["amdahl_limit"][1] < d["amdahl_limit"][0] < d["amdahl_limit"][2]


def test_oracledb_matches_r():
    f = _fit("oracledb", "db_time", "txn_rate")
    assert f.values["x1"] == pytest.approx(3.38607854920, rel=EST)
    assert f.values["sigma"] == pytest.approx(0.44137185392, rel=EST)
    assert f.values["kappa"] == pytest.approx(0.04529824794, rel=EST)
    assert f.stderr["kappa"] == pytest.approx(0.01618401633, rel=1e-3)
    assert f.stats["residual_se"] == pytest.approx(0.7586904508, rel=EST)


def test_at_bound_detection_catches_a_tiny_kappa():
    # κ = 1.2e-11 is at its bound 0 for every practical purpose: moving it there changes nothing measurable
    from nvmemodel.fitting.engine import at_bound

    x = np.array([1.0, 4, 8, 12, 16, 20])
    vals = {"x1": 21.8, "sigma": 0.058, "kappa": 1.2e-11}
    y = SHAPES["usl"].func(x, **vals) * (1 + 0.01 * np.sin(x))
    rss = float(np.sum((y - SHAPES["usl"].func(x, **vals)) ** 2))
    assert at_bound(SHAPES["usl"], x, y, np.ones_like(x), vals, rss) == {"kappa": 0.0}
    vals["kappa"] = 1e-3  # at the optimum of data with a real coherency term: moving κ to 0 costs fit
    y = SHAPES["usl"].func(x, **vals) * (1 + 0.01 * np.sin(x))
    rss = float(np.sum((y - SHAPES["usl"].func(x, **vals)) ** 2))
    assert at_bound(SHAPES["usl"], x, y, np.ones_like(x), vals, rss) == {}
