"""Tests for assocmem.attractor.meanfield: Eqs. 6-23 of Cohen & Lengyel, α_C(f), phase diagram.

Also holds property tests of assocmem.attractor.rates (inverse round trip, gain = g').
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.attractor.meanfield import (
    ensemble_alpha_s,
    ensemble_disc,
    phase_diagram,
    sparse_capacity,
    theory,
)
from assocmem.attractor.rates import activation, activation_inverse, gain

# ``assocmem.attractor.meanfield`` and ``.activation`` are shadowed by the functions of the same
# name (star import in the package), so the tests import the names themselves.

# Note §2.9, first table (θ = θ*_bulk), printed to 4 decimals (c_ff of the n = 0.5 row to 3):
# CV, σ, n, θ*, c_rr, c_rf, c_ff, c_rφ, centre, k, λ_mem, τ_mem, α_S^bulk, α_S.
REFERENCE_ROWS = [
    tuple(float(x) for x in line.split())
    for line in """
    0.5 1 1 -0.9685 0.25 0.2390 0.2311 0.2421 -0.0442 0.1044 -0.0317 0.9977 0.1519 0.1519
    1 1 1 -0.9271 1.0 0.8634 0.7886 0.9547 -0.1366 0.2078 -0.0453 0.9943 0.3017 0.3017
    2 1 1 -0.8337 4.0 2.8346 2.3828 3.8789 -0.2914 0.3058 -0.0303 0.9955 0.4758 0.4758
    3 1 1 -0.7557 9.0 5.5326 4.4368 8.8389 -0.3853 0.3392 -0.0179 0.9974 0.5633 0.5633
    1 0.3 1 -0.9972 1.0 0.9765 0.9580 0.9849 -0.0235 0.0668 -0.0151 0.9986 0.1104 0.1104
    2 0.3 1 -0.9854 4.0 3.5738 3.3347 3.9194 -0.1066 0.1882 -0.0201 0.9967 0.2427 0.2427
    1 3 0.75 -0.3240 1.0 0.8505 0.8404 0.8573 -0.1495 0.3420 -0.1427 0.9922 0.1604 0.1604
    1 1 0.9 -0.9597 1.0 0.9369 0.9172 0.9031 -0.0631 0.1986 -0.0969 0.9944 0.0918 0.0918
    1 1 1.05 -0.9160 1.0 0.8363 0.7480 0.9794 -0.1637 0.2204 -0.0206 0.9940 0.3555 0.3555
    1 1 1.25 -0.8911 1.0 0.7651 0.6632 1.0707 -0.2349 0.2789 0.0707 0.9923 0.4150 0.0
    1 1 1.5 -0.8815 1.0 0.7198 0.6362 1.1685 -0.2802 0.3435 0.1685 0.9896 0.3995 0.0
    2 1 1.25 -0.7579 4.0 2.1036 1.5182 4.6327 -0.4741 0.3209 0.1582 0.9952 0.6858 0.0
    1 1 0.5 -1.8090 1.0 2.5552 11.627 0.7140 1.5552 2.2579 -0.2860 0.9635 0.0 0.0
    1 3 1 -0.2903 1.0 0.7259 0.6800 1.0516 -0.2741 0.3912 0.0516 0.9932 0.3292 0.0
""".strip().splitlines()
]
FIELDS = ["theta", "c_rr", "c_rf", "c_ff", "c_rphi", "center", "radius_coef", "lambda_mem",
          "tau_mem", "alpha_s_bulk", "alpha_s"]

# Note §2.1 table: f, θ₀c, α_C printed to 4 decimals (5 significant digits for f <= 0.02).
SPARSE_TABLE = [
    (0.5, 0.2760, 1.4375), (0.3, 0.4777, 1.9176), (0.2, 0.6360, 2.4396), (0.1, 0.9015, 3.7693),
    (0.05, 1.1589, 5.9851), (0.02, 1.4852, 11.445), (0.01, 1.7208, 19.150), (0.001, 2.4361, 118.83),
]

# Note §2.9, second table: CV, α_S*, n*, σ* on the grid n in [0.5, 2] step 0.01, σ in [0.05, 10]
# (53 log-spaced points), θ = θ*_bulk.
OPTIMA = [(0.5, 0.207, 1.04, 0.35), (1.0, 0.385, 1.09, 0.71), (2.0, 0.564, 1.01, 1.77)]
N_GRID = np.round(np.arange(0.5, 2.0 + 1e-9, 0.01), 2)
SIGMA_GRID = np.geomspace(0.05, 10.0, 53)


class TestTheory:
    @pytest.mark.parametrize("row", REFERENCE_ROWS, ids=lambda r: f"cv{r[0]}-s{r[1]}-n{r[2]}")
    def test_reproduces_reference_table(self, row):
        # T12: every §2.9 row to 1e-3 (the table is printed to 4 decimals; 1e-3 leaves room for
        # a different Gauss-Hermite implementation rounding the last printed digit).
        t = theory(*row[:3])
        for name, ref in zip(FIELDS, row[3:], strict=True):
            assert getattr(t, name) == pytest.approx(ref, abs=1e-3), name

    def test_alpha_s_increases_with_cv_at_n_sigma_one(self):
        # T12 / paper Fig. 4: α_S grows with CV ("sparse-like" patterns).
        vals = [theory(cv, 1.0, 1.0).alpha_s for cv in (0.25, 0.5, 1, 1.5, 2, 3)]
        assert np.all(np.diff(vals) > 0)

    @pytest.mark.parametrize("n", [1.5, 0.5])
    def test_supralinear_and_sublinear_are_unstable(self, n):
        # T12: λ_mem > 0 at n = 1.5, bulk centre > 0 at n = 0.5 (note §2.9).
        assert theory(1.0, 1.0, n).alpha_s == 0.0

    def test_bulk_edge_crosses_zero_at_alpha_s_bulk(self):
        t = theory(1.0, 1.0, 1.0)
        assert t.bulk_edge(t.alpha_s_bulk) == pytest.approx(0.0, abs=1e-12)
        assert t.bulk_edge(0.0) == t.center
        edges = t.bulk_edge(np.array([0.1, 0.2, 0.5]))
        assert edges.shape == (3,) and np.all(np.diff(edges) > 0)

    def test_zero_zero_corner_is_guarded(self):
        # Note §2.8: without the guard the recipe returns α_S = 1.0 at CV = 0.5, σ = 0.011, n = 1.
        t = theory(0.5, 0.011, 1.0)
        assert t.guarded and t.alpha_s == 0.0 and t.alpha_s_bulk == 0.0

    def test_alpha_s_decays_smoothly_as_sigma_shrinks(self):
        # Note §2.8, CV = 1, n = 1: α_S^bulk = 0.110, 0.061, 0.036, 0.0155, 0.0065, 0.0025 (3 s.f.).
        ref = [0.110, 0.061, 0.036, 0.0155, 0.0065, 0.0025]
        got = [theory(1.0, s, 1.0).alpha_s_bulk for s in (0.3, 0.2, 0.15, 0.1, 0.07, 0.05)]
        np.testing.assert_allclose(got, ref, rtol=0.03, atol=5e-4)

    def test_linear_noiseless_network_is_marginal(self):
        # Pitfall 9: σ = 0, n = 1 is exactly linear, c_rf = c_rr; the guard returns α_S = 0.
        assert theory(1.0, 0.0, 1.0).alpha_s == 0.0

    def test_theta_star_zeroes_row_sum_and_lambda_ave(self):
        # Eq. 16 -> Eq. 7 row sum 0 -> Eq. 12 λ_ave = −1.
        t = theory(2.0, 0.7, 1.1)
        assert t.row_sum == pytest.approx(0.0, abs=1e-12)
        assert t.lambda_ave == pytest.approx(-1.0, abs=1e-12)
        assert t.theta == t.theta_star

    def test_row_norm_sq_matches_eq6(self):
        t = theory(1.0, 1.0, 1.0)
        assert t.row_norm_sq(0.5) == pytest.approx(t.var_u / t.c_rr)

    def test_theta_bounds_match_outlier_signs(self):
        # Eqs. 17 and 18 (corrected, note §2.5): inside the interval λ_ave, λ_mem < 0; outside not.
        t = theory(1.0, 1.0, 1.0)
        lo, hi = t.theta_bounds()
        assert lo < t.theta < hi
        for theta, inside in [(hi - 1e-3, True), (hi + 1e-3, False)]:
            u = theory(1.0, 1.0, 1.0, theta=theta)
            assert (u.lambda_ave < 0 and u.lambda_mem < 0) == inside

    def test_supralinear_theta_bounds_can_be_empty_or_exclude_theta_star(self):
        t = theory(1.0, 1.0, 1.5)  # λ_mem > 0 at θ*
        lo, hi = t.theta_bounds()
        assert not lo < t.theta < hi

    @pytest.mark.parametrize(
        ("kwargs", "param"),
        [
            ({"cv": 0.0}, "cv"), ({"cv": -1.0}, "cv"), ({"cv": math.nan}, "cv"),
            ({"sigma": -0.1}, "sigma"), ({"sigma": math.nan}, "sigma"),
            ({"n": 0.0}, "n"), ({"n": -2.0}, "n"), ({"n": math.inf}, "n"),
            ({"theta": math.nan}, "theta"),
        ],
    )
    def test_bad_input(self, kwargs, param):
        args = {"cv": 1.0, "sigma": 1.0, "n": 1.0} | kwargs
        with pytest.raises(ValueError, match=rf"^{param} must"):
            theory(**args)

    @pytest.mark.parametrize("alpha", [-0.1, 1.0, 1.5, math.nan])
    def test_bad_alpha(self, alpha):
        t = theory(1.0, 1.0, 1.0)
        with pytest.raises(ValueError, match=r"^alpha must"):
            t.bulk_edge(alpha)
        with pytest.raises(ValueError, match=r"^alpha must"):
            t.row_norm_sq([0.1, alpha])


class TestPhaseDiagram:
    def test_equals_pointwise_theory(self):
        n = np.array([0.6, 1.0, 1.09, 1.5])
        s = np.array([0.0, 0.05, 0.71, 3.0])
        pd = phase_diagram(1.0, n, s)
        assert pd.alpha_s.shape == (4, 4)
        for i, nn in enumerate(n):
            for j, ss in enumerate(s):
                t = theory(1.0, ss, nn)
                for name in ("alpha_s", "alpha_s_bulk", "lambda_mem", "lambda_ave", "theta"):
                    assert getattr(pd, name)[i, j] == pytest.approx(
                        getattr(t, name), abs=1e-12
                    )

    @pytest.mark.parametrize(("cv", "a_star", "n_star", "s_star"), OPTIMA)
    def test_optimum_matches_note_and_sits_on_lambda_mem_border(self, cv, a_star, n_star, s_star):
        # Note §2.9 second table, printed to 3 decimals; n*, σ* to one grid step.
        pd = phase_diagram(cv, N_GRID, SIGMA_GRID)
        a, n_opt, s_opt = pd.optimum
        assert a == pytest.approx(a_star, abs=1e-3)
        assert abs(n_opt - n_star) <= 0.01 + 1e-9
        assert abs(math.log(s_opt / s_star)) <= math.log(SIGMA_GRID[1] / SIGMA_GRID[0])
        i, j = np.unravel_index(np.argmax(pd.alpha_s), pd.alpha_s.shape)
        # Note §2.9: λ_mem in [−0.003, 0] at every optimum; the next n step is unstable.
        assert -0.003 <= pd.lambda_mem[i, j] < 0
        assert pd.lambda_mem[i + 1, j] > 0 or pd.alpha_s[i + 1, j] < pd.alpha_s[i, j]

    @pytest.mark.parametrize(
        ("args", "param"),
        [
            ((0.0, [1.0], [1.0]), "cv"),
            ((1.0, [0.0], [1.0]), "n_grid"),
            ((1.0, [1.0], [-1.0]), "sigma_grid"),
            ((1.0, [math.nan], [1.0]), "n_grid"),
            ((1.0, [], [1.0]), "n_grid"),
        ],
    )
    def test_bad_input(self, args, param):
        with pytest.raises(ValueError, match=rf"^{param} must"):
            phase_diagram(*args)


class TestGaussianEnsemble:
    @given(
        sx=st.floats(0.1, 5.0), sy=st.floats(0.1, 5.0), rho=st.floats(-0.99, 0.99),
        c=st.floats(0.1, 3.0),
    )
    @settings(max_examples=200, deadline=None)
    def test_lambda_plus_vanishes_at_alpha_s(self, sx, sy, rho, c):
        # T2: Eq. 23 is the root of λ₊ of Eq. 22 whenever c σ_y² > ρ σ_x σ_y.
        a_s = ensemble_alpha_s(sx, sy, rho, c)
        if c * sy * sy > rho * sx * sy:
            assert 0.0 < a_s < 1.0
            disc = ensemble_disc(a_s, sx, sy, rho, c)
            # 1e-12 relative to the centre; near α = 1 the factor √(α/(1−α)) amplifies the
            # rounding of α by 1/(2(1−α)), so the bound widens there.
            tol = 1e-12 * max(1.0, abs(disc.center)) * max(1.0, 0.01 / (1.0 - a_s))
            assert abs(disc.lambda_plus) < tol
        else:
            assert a_s == 0.0

    def test_disc_geometry(self):
        e = ensemble_disc(0.2, 1.0, 2.0, 0.5)
        assert e.center == pytest.approx(-1.0 + 0.25)
        assert e.radius == pytest.approx(0.5 * math.sqrt(0.75) * 0.5)
        assert e.lambda_minus == pytest.approx(e.center - e.radius)

    def test_no_solution_when_centre_is_non_negative(self):
        assert ensemble_alpha_s(4.0, 1.0, 0.5) == 0.0  # ρ σ_x/σ_y = 2 > c = 1

    @pytest.mark.parametrize(
        ("args", "param"),
        [((0.5, 0.0, 1.0, 0.0), "sigma_x"), ((0.5, 1.0, -1.0, 0.0), "sigma_y"),
         ((0.5, 1.0, 1.0, 1.5), "rho_xy"), ((1.0, 1.0, 1.0, 0.0), "alpha"),
         ((math.nan, 1.0, 1.0, 0.0), "alpha")],
    )
    def test_bad_input(self, args, param):
        with pytest.raises(ValueError, match=rf"^{param} must"):
            ensemble_disc(*args)


class TestSparseCapacity:
    def test_dense_capacity_is_one(self):
        # Appendix: f = 1 gives θ₀ = 0 and α_C = 1.
        r = sparse_capacity(1.0)
        assert (r.alpha_c, r.theta0_c) == (1.0, 0.0)

    @pytest.mark.parametrize(("f", "theta0", "alpha_c"), SPARSE_TABLE)
    def test_matches_note_table(self, f, theta0, alpha_c):
        # T13: note §2.1 table to its printed precision (1e-3 relative covers 5 s.f. rounding).
        r = sparse_capacity(f)
        assert r.theta0_c == pytest.approx(theta0, abs=1e-4)
        assert r.alpha_c == pytest.approx(alpha_c, rel=1e-4, abs=1e-3)

    def test_decreasing_in_f(self):
        a = [sparse_capacity(f).alpha_c for f in np.linspace(0.01, 1.0, 40)]
        assert np.all(np.diff(a) < 0)

    @pytest.mark.parametrize("f", [0.0, -0.1, 1.01, math.nan])
    def test_bad_f(self, f):
        with pytest.raises(ValueError, match=r"^f must"):
            sparse_capacity(f)


rates = st.floats(1e-3, 50.0)
sigmas = st.floats(0.05, 5.0)
exponents = st.floats(0.5, 3.0)


class TestActivationProperties:
    @given(r=rates, sigma=sigmas, n=exponents)
    @settings(max_examples=200, deadline=None)
    def test_inverse_round_trip(self, r, sigma, n):
        v = activation_inverse(r, sigma, n)
        assert float(activation(v, sigma, n)) == pytest.approx(r, rel=1e-9)

    @given(r=rates, sigma=sigmas, n=exponents)
    @settings(max_examples=200, deadline=None)
    def test_gain_is_derivative_at_inverse(self, r, sigma, n):
        # Central difference, step relative to the voltage scale; error O(h²) ≈ 1e-8 relative.
        v = float(activation_inverse(r, sigma, n))
        h = 1e-5 * max(1.0, abs(v), sigma)
        fd = (activation(v + h, sigma, n) - activation(v - h, sigma, n)) / (2 * h)
        assert float(gain(r, sigma, n)) == pytest.approx(float(fd), rel=1e-5, abs=1e-9)


class TestOverflowLimits:
    """Issue 9: huge parameters give the true limits or a stated range, never NaN."""

    def test_cv_beyond_cv_max_is_refused(self):
        # theory(1e300, 1, 1) returned NaN fields (cv² overflows in s² = ln(1 + cv²)).
        with pytest.raises(ValueError, match=r"^cv must lie in \(0.0, 1000000.0\]"):
            theory(1e300, 1.0, 1.0)

    def test_n_beyond_exponent_max_is_refused(self):
        with pytest.raises(ValueError, match=r"^n must lie in \(0.0, 100.0\]"):
            theory(1.0, 1.0, 1e300)

    def test_huge_sigma_reaches_the_log_limit(self):
        # For σ → ∞ (n = 1) u = g⁻¹(r) ≈ const + (σ/π) ln r and d ≈ (π/σ) r, so the σ-free
        # statistics tend to c_rf = ⟨r⟩ Cov(r, ln r) = s² = ln(1 + CV²) = ln 2 and, at θ*,
        # c_ff = ⟨r²⟩ Var(ln r) = 2 ln 2 (CV = 1). Before, (σ/π)² overflowed and gave NaN.
        t = theory(1.0, 1e300, 1.0)
        assert t.c_rf == pytest.approx(math.log(2.0), rel=1e-12)
        assert t.c_ff == pytest.approx(2.0 * math.log(2.0), rel=1e-12)
        assert math.isfinite(t.lambda_mem) and math.isfinite(t.tau_mem)
        assert t.var_u == math.inf  # grows like σ²: its true limit
        # The limit is approached continuously (corrections O(1/σ)): σ = 1e100 already sits on it.
        assert theory(1.0, 1e100, 1.0).lambda_mem == pytest.approx(t.lambda_mem, rel=1e-12)

    def test_small_sigma_is_unchanged_by_the_scaling(self):
        # Note §2.9, first table: α_S = 0.3017 at CV = σ = n = 1 (σ <= π: scale 1, exact path).
        assert theory(1.0, 1.0, 1.0).alpha_s == pytest.approx(0.3017, abs=5e-5)

    def test_huge_theta_gives_the_limit_of_tau_mem(self):
        # φ = d (u + θ) ≈ θ d for |θ| → ∞, so τ_mem → sign(θ) Cov(r, d)/√(c_rr Var d) (Eq. 14);
        # before, Var φ and c_rφ overflowed and τ_mem was inf/inf = NaN.
        t = theory(1.0, 1.0, 1.0, theta=1e300)
        limit = t.cov_rd / math.sqrt(t.c_rr * (t.mean_d2 - t.mean_d**2))
        assert t.tau_mem == pytest.approx(limit, rel=1e-12)
        assert theory(1.0, 1.0, 1.0, theta=-1e300).tau_mem == pytest.approx(-limit, rel=1e-12)
        assert t.lambda_mem > 1e298  # Eq. 15 grows like θ Cov(r, d)/c_rr: finite here

    def test_ensemble_alpha_s_has_no_nan_for_huge_scales(self):
        # Eq. 23 divided through: α_S = 1/(1 + (σ_x√(1−ρ²)/(c σ_y − ρ σ_x))²).
        # c → ∞ puts the disc far left: α_S → 1 (was inf/inf = NaN).
        assert ensemble_alpha_s(1.0, 2.0, 0.3, c=1e300) == 1.0
        assert ensemble_alpha_s(1.0, 1e300, 0.3) == 1.0  # s → 0: the disc is a point at −c
        # s → ∞ with ρ < 0: α_S → ρ²/(1 − ρ² + ρ²) = ρ² = 0.09.
        assert ensemble_alpha_s(1e300, 1.0, -0.3) == pytest.approx(0.09, rel=1e-12)
        assert ensemble_alpha_s(1e300, 1.0, 0.3) == 0.0  # centre ρ s > 0: no stable load
        assert ensemble_alpha_s(1.0, 2.0, 0.0) == 0.8  # the docstring example, unchanged
