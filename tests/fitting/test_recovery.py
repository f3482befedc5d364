"""Parameter recovery: curves drawn from each model with known parameters and seeded Gaussian noise
(σ = 2 % of the largest value, the spread of repeated short fio runs) come back inside their 95 %
intervals in at least 90 % of 200 seeds, per parameter. Seeds are fixed, so the test is deterministic;
the 90 % floor leaves room for the 95 % nominal rate's binomial spread over 200 draws (sd 1.5 %)."""

import numpy as np
import pytest

from nvmemodel.fitting import SHAPES, fit_shape

SEEDS = range(200)
CASES = {
    "linear": ({"x1": 1000.0}, [1, 2, 4, 8]),
    "amdahl": ({"x1": 1000.0, "sigma": 0.05}, [1, 2, 4, 8, 16, 32, 64]),
    "usl": ({"x1": 1000.0, "sigma": 0.03, "kappa": 0.0005}, [1, 2, 4, 8, 16, 32, 64]),
    "littles": ({"x_max": 3e5, "r0": 5e-5}, [1, 2, 4, 8, 16, 32, 64, 128]),
    "littles_soft": ({"x_max": 3e5, "r0": 5e-5, "p": 2.0}, [1, 2, 4, 8, 16, 32, 64, 128]),
    "mva": ({"x_max": 3e5, "r0": 5e-5}, [1, 2, 4, 8, 16, 32, 64, 128]),
}


def _coverage(name, ci, seeds):
    true, x = CASES[name]
    x = np.asarray(x, float)
    shape = SHAPES[name]
    y0 = shape.func(x, **true)
    hits = dict.fromkeys(true, 0)
    for s in seeds:
        y = y0 + np.random.default_rng(s).normal(0.0, 0.02 * y0.max(), x.size)
        f = fit_shape(shape, x, y, ci=ci)
        for p, v in true.items():
            hits[p] += f.ci_low[p] <= v <= f.ci_high[p]
    return {p: h / len(seeds) for p, h in hits.items()}


@pytest.mark.parametrize("name", list(CASES))
def test_t_intervals_cover(name):
    cov = _coverage(name, "wald", SEEDS)
    assert min(cov.values()) >= 0.90, cov


def test_profile_intervals_cover():
    # lmfit's profile likelihood (conf_interval), the default interval of smooth models; ~0.2 s a fit
    cov = _coverage("amdahl", "profile", SEEDS)
    assert min(cov.values()) >= 0.90, cov


def test_estimates_are_unbiased_enough():
    true, x = CASES["usl"]
    x = np.asarray(x, float)
    y0 = SHAPES["usl"].func(x, **true)
    est = [fit_shape(SHAPES["usl"], x, y0 + np.random.default_rng(s).normal(0, 0.02 * y0.max(), x.size),
                     ci="wald").values["x1"] for s in range(50)]
    assert np.median(est) == pytest.approx(true["x1"], rel=0.05)  # 2 % noise on 7 points: a few % at most


def test_ceiling_model_recovery():
    # the Lenovo 810-4P 256K read curve (drives bind to 2, the x8 uplink from 3), 2 repeats per drive count,
    # 2 % noise, the 200 seeds of the other models (a fit of the full model takes ~40 ms)
    import nvmemodel as nm
    from nvmemodel.fitting.ceiling import ceiling_shape

    shape = ceiling_shape(nm.preset("lenovo-sr850-810-4p"), nm.Workload("read", "256K"), x="drives", y_unit="B/s",
                          free=["switch.efficiency", "drive.seq_read_bytes_per_s"])
    x = np.repeat([1.0, 2, 3, 4], 2)
    truth = {"switch__efficiency": 0.86, "drive__seq_read_bytes_per_s": 3.1e9}
    y0 = shape.func(x, **truth)
    hits = dict.fromkeys(truth, 0)
    for s in SEEDS:
        f = fit_shape(shape, x, y0 * (1 + 0.02 * np.random.default_rng(s).standard_normal(x.size)), ci="wald")
        for p, v in truth.items():
            hits[p] += f.ci_low[p] <= v <= f.ci_high[p]
    assert min(h / len(SEEDS) for h in hits.values()) >= 0.90, hits
