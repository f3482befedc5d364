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


def _plain_mva(top, x_max, r0):
    """The textbook recursion to population ``top``, no early stop and no cap (the reference)."""
    d, z = 1.0 / x_max, max(r0 - 1.0 / x_max, 0.0)
    x, q = [0.0], 0.0
    for k in range(1, top + 1):
        r = d * (1.0 + q)
        x.append(k / (r + z))
        q = x[k] * r
    return np.array(x)


@pytest.fixture
def recursion_tops(monkeypatch):
    """Every population the MVA recursion is asked to run to."""
    tops, real = [], shapes._mva_recursion

    def spy(top, x_max, z):
        tops.append(top)
        return real(top, x_max, z)

    monkeypatch.setattr(shapes, "_mva_recursion", spy)
    return tops


def test_mva_beyond_the_recursion_cap_equals_the_recursion(recursion_tops):
    # knee x_max·r0 = 20,000 (5× the cap): below, at and beyond it the closed form (Erlang B of the
    # machine-repairman network) gives the recursion's values; non-integer populations interpolate as before
    n = np.array([1, 2, 4095, 4096, 4096.5, 4097, 5000, 8000.25, 16000, 19999, 20000, 20001, 30000, 40000])
    ref = np.interp(n, np.arange(40001), _plain_mva(40000, 1e5, 0.2))
    np.testing.assert_allclose(shapes.mva(n, 1e5, 0.2), ref, rtol=1e-12)
    assert recursion_tops == [shapes.MVA_CAP] == [4096]


def test_mva_with_a_huge_knee_iterates_at_most_to_the_cap(recursion_tops):
    # knee x_max·r0 = 1e13: the recursion ran to N (1e12 iterations: days) before it could saturate. Far below
    # the knee X(N) = x_max·S/(1+S), S = Σ_{k≥1} N(N−1)…(N−k+1)/ρ^k with ρ = Z/D (Erlang B, summed here)
    x_max, r0 = 1e13, 1.0
    n = np.array([1.0, 1e6, 1e9, 1e12])
    got = shapes.mva(n, x_max, r0)
    assert recursion_tops == [1]  # (for n = 1; the others in closed form)
    rho = (r0 - 1 / x_max) * x_max
    for nv, g in zip(n[1:], got[1:]):
        s, term, k = 0.0, 1.0, 0
        while term > 1e-18 * max(s, 1e-300):
            term *= (nv - k) / rho
            s, k = s + term, k + 1
        assert g == pytest.approx(x_max * s / (1 + s), rel=1e-12)
    assert got[0] == pytest.approx(1 / r0, rel=1e-12)
    # and inside the asymptotic bounds N/(Z + N·D) ≤ X(N) ≤ min(N/r0, x_max)
    d, z = 1 / x_max, r0 - 1 / x_max
    assert np.all(n / (z + n * d) <= got * (1 + 1e-12)) and np.all(got <= np.minimum(n / r0, x_max) * (1 + 1e-12))
    # beyond the knee it is the cap
    assert shapes.mva(np.array([1e15]), x_max, r0)[0] == pytest.approx(x_max, rel=1e-12)


def test_an_mva_fit_far_beyond_the_cap_never_runs_the_recursion_past_it(recursion_tops):
    # an iodepth sweep to 64,000 rising towards a knee near 1e5: no evaluation of the fit runs past the cap
    import nvmemodel as nm

    from .conftest import table

    x = np.repeat([2e3, 4e3, 8e3, 16e3, 32e3, 64e3], 2)
    y = shapes.mva(x, 2e6, 0.05) * (1 + 0.01 * np.random.default_rng(0).standard_normal(x.size))
    r = nm.fit(table("iodepth", x, y), x="iodepth", y="iops", model="mva")
    assert recursion_tops and max(recursion_tops) <= shapes.MVA_CAP
    assert r.fit_of().stats["r2"] > 0.999 and r.params.set_index("name").loc["r0", "value"] == pytest.approx(0.05,
                                                                                                            rel=0.01)
