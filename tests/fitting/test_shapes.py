"""Pure shapes against closed forms and published values (Gunther 2007; Reiser & Lavenberg 1980)."""

import numpy as np
import pytest

from nvmemodel.fitting import shapes


def test_usl_peak_matches_gunther_closed_form():
    # Gunther, Guerrilla Capacity Planning (2007) §5.6: N* = sqrt((1 - σ)/κ); σ=0.02, κ=0.0005 → 44.27
    assert shapes.usl_peak(0.02, 0.0005) == pytest.approx(np.sqrt(0.98 / 0.0005), rel=1e-12)
    n = np.arange(1, 200)
    x = shapes.usl(n, 1000.0, 0.02, 0.0005)
    assert n[np.argmax(x)] in (44, 45)  # the discrete maximum sits next to the continuous one
    assert shapes.usl_peak(0.02, 0.0) == np.inf


def test_usl_reduces_to_amdahl_and_linear():
    n = np.array([1.0, 2, 7, 30])
    assert np.allclose(shapes.usl(n, 5.0, 0.1, 0.0), shapes.amdahl(n, 5.0, 0.1), rtol=1e-14)
    assert np.allclose(shapes.amdahl(n, 5.0, 0.0), shapes.linear(n, 5.0), rtol=1e-14)
    assert shapes.amdahl_limit(5.0, 0.1) == pytest.approx(50.0)
    assert shapes.amdahl(1e9, 5.0, 0.1) == pytest.approx(50.0, rel=1e-6)


def test_littles_hard_knee():
    n = np.array([1.0, 10, 15, 16, 100])
    x = shapes.littles_hard(n, 3e5, 5e-5)          # knee at 3e5 · 5e-5 = 15 outstanding I/Os
    assert shapes.littles_knee(3e5, 5e-5) == pytest.approx(15.0)
    assert np.allclose(x, [2e4, 2e5, 3e5, 3e5, 3e5], rtol=1e-12)


def test_mva_limits_and_monotone():
    n = np.arange(1, 257)
    x = shapes.mva(n, 3e5, 5e-5)
    assert x[0] == pytest.approx(1 / 5e-5, rel=1e-12)       # one customer sees only R0
    assert x[-1] == pytest.approx(3e5, rel=1e-3)              # saturates at the station's rate
    assert np.all(np.diff(x) > -1e-9 * 3e5) and np.all(x <= 3e5 * (1 + 1e-12))  # flat to rounding at saturation
    assert np.all(x <= shapes.littles_hard(n, 3e5, 5e-5) * (1 + 1e-12))  # MVA lies under both asymptotes


def test_mva_two_customer_hand_computation():
    # D = 1e-5 s, Z = 4e-5 s: R(1) = 1e-5, X(1) = 1/5e-5 = 2e4, Q(1) = 0.2; R(2) = 1.2e-5, X(2) = 2/5.2e-5
    assert shapes.mva([1, 2], 1e5, 5e-5) == pytest.approx([2e4, 2 / 5.2e-5], rel=1e-12)


def test_soft_min_bounds_and_limit():
    a, b = np.array([1.0, 5.0, 9.0]), np.array([4.0, 5.0, 2.0])
    hard = np.minimum(a, b)
    for p in (1.0, 4.0, 50.0):
        s = shapes.soft_min((a, b), p)
        assert np.all(s <= hard * (1 + 1e-12))
    assert np.allclose(shapes.soft_min((a, b), 2000.0), hard, rtol=1e-3)
    assert shapes.soft_min((np.array([3.0]), np.array([np.inf])), 3.0) == pytest.approx(3.0)  # absent limits drop out
    assert shapes.soft_min((np.array([2.0]), np.array([2.0])), 1.0) == pytest.approx(1.0)   # harmonic at p = 1
