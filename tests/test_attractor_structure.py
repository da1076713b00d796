"""Tests for assocmem.attractor.structure: the model's activation and patterns, weight statistics.

Oracles are the chapter note's §3.3 measurements ("Weights", "Non-normality", "Dynamics") and
closed forms; T4/T5 of note §3.4 (fixed points, Eqs. 6/7 on the weights themselves) live in
tests/test_attractor_network.py and are not repeated here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem import attractor as at


@pytest.fixture(scope="module")
def sweep_zd():
    return at.weight_load_sweep(1000, 1.0, 1.0, 1.0, [0.2, 0.5], rng=0)


@pytest.fixture(scope="module")
def sweep_pinv():
    return at.weight_load_sweep(1000, 1.0, 1.0, 1.0, [0.2, 0.5], rng=0, zero_diag=False)


class TestActivationCurves:
    def test_n1_threshold_values(self):
        # note §1.2: g(0) = (σ/π) ln 2 for Eq. 3, σ/√(2π) for the noisy ReLU average (exact)
        c = at.activation_curves(2.0, 1.0, -1.0, 1.0, 3)
        assert c.g[1] == pytest.approx(2 * math.log(2) / math.pi, rel=1e-12)
        assert c.noisy[1] == pytest.approx(2 / math.sqrt(2 * math.pi), rel=1e-12)

    @pytest.mark.parametrize("n", [0.5, 1.0, 1.5, 2.0])
    def test_noisy_average_matches_quadrature(self, n):
        # exact parabolic-cylinder form vs brute-force quadrature of ⟨⌊v + σz⌋₊ⁿ⟩
        c = at.activation_curves(0.7, n, -2.0, 10.0, 25)  # crosses the v/σ = 8 switch
        z = np.linspace(-12, 12, 200001)
        w = np.exp(-z * z / 2) / math.sqrt(2 * math.pi)
        ref = [np.trapezoid(np.maximum(v + 0.7 * z, 0) ** n * w, z) for v in c.v]
        np.testing.assert_allclose(c.noisy, ref, rtol=1e-6, atol=1e-9)

    def test_slope_is_derivative_of_g(self):
        c = at.activation_curves(1.0, 1.5, -2.0, 2.0, 4001)
        np.testing.assert_allclose(np.gradient(c.g, c.v)[1:-1], c.slope[1:-1], atol=1e-5)

    def test_eq3_approaches_noisy_average_far_above_threshold(self):
        c = at.activation_curves(1.0, 1.0, 3.0, 6.0, 7)
        assert np.max(np.abs(c.g - c.noisy)) < 1e-3

    def test_bad_input(self):
        with pytest.raises(ValueError, match="sigma"):
            at.activation_curves(0.0, 1.0)
        with pytest.raises(ValueError, match="v_min"):
            at.activation_curves(1.0, 1.0, 2.0, 1.0)
        with pytest.raises(ValueError, match="points"):
            at.activation_curves(1.0, 1.0, points=1)


class TestLognormalDensity:
    @pytest.mark.parametrize("cv", [0.25, 1.0, 3.0])
    def test_mass_mean_and_cv(self, cv):
        # note §1.4: mean 1 and Var r = CV² (integrated on a log grid)
        x = np.linspace(-40, 12, 400001)
        r = np.exp(x)
        p = at.lognormal_density(r, cv) * r  # density in log r
        mass, mean = np.trapezoid(p, x), np.trapezoid(r * p, x)
        var = np.trapezoid(r * r * p, x) - mean**2
        assert mass == pytest.approx(1, abs=1e-8) and mean == pytest.approx(1, abs=1e-8)
        assert math.sqrt(var) == pytest.approx(cv, rel=1e-6)

    def test_sparse_scaling_and_zero(self):
        r = np.array([0.0, 0.5, 2.0])
        np.testing.assert_allclose(
            at.lognormal_density(r, 1.0, f=0.3), 0.3 * at.lognormal_density(r, 1.0)
        )
        assert at.lognormal_density(r, 1.0)[0] == 0.0

    def test_bad_input(self):
        with pytest.raises(ValueError, match="cv"):
            at.lognormal_density([1.0], 0.0)
        with pytest.raises(ValueError, match="f"):
            at.lognormal_density([1.0], 1.0, f=0.0)
        with pytest.raises(ValueError, match="r must contain"):
            at.lognormal_density([-1.0], 1.0)


class TestPatternDensity:
    def test_histogram_matches_analytic_density(self):
        d = at.pattern_density(1.0, N=200_000, rng=3, bins=20)
        pdf_at_centres = at.lognormal_density(d.centers, 1.0)
        bulk = pdf_at_centres > 0.01  # the outer bins hold a few dozen samples each
        np.testing.assert_allclose(d.density[bulk], pdf_at_centres[bulk], rtol=0.1)

    def test_sparse_point_mass(self):
        d = at.pattern_density(2.0, f=0.2, N=50_000, rng=0)
        assert d.zero_fraction == pytest.approx(0.8, abs=0.01)
        assert d.sample_mean == pytest.approx(0.2, abs=0.02)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="N"):
            at.pattern_density(1.0, N=10)
        with pytest.raises(ValueError, match="bins"):
            at.pattern_density(1.0, bins=1)


class TestAsymmetryIndex:
    def test_limits(self):
        S = np.array([[1.0, 2.0], [2.0, 3.0]])
        A = np.array([[0.0, 1.0], [-1.0, 0.0]])
        assert at.asymmetry_index(S) == 0.0 and at.asymmetry_index(A) == 1.0
        assert at.asymmetry_index(S / np.linalg.norm(S) + A / np.linalg.norm(A)) == pytest.approx(
            0.5
        )

    def test_linear_pinv_rule_is_symmetric(self):
        # note §3.3: linear g, θ = 0, Eq. 8 gives asymmetry ~1.7e-15 (a symmetric projector)
        R = at.sample_patterns(300, 60, 1.0, rng=0)
        assert at.asymmetry_index(at.pinv_weights(R, 0.0, 1.0, theta=0.0).W) < 1e-12
        # θ* ≠ 0 or a zero diagonal breaks the symmetry (note: ~0.1)
        assert at.asymmetry_index(at.zero_diag_weights(R, 0.0, 1.0, theta=0.0).W) > 0.05

    def test_bad_input(self):
        with pytest.raises(ValueError, match="W must be a square"):
            at.asymmetry_index(np.ones((2, 3)))
        with pytest.raises(ValueError, match="zero matrix"):
            at.asymmetry_index(np.zeros((2, 2)))
        with pytest.raises(ValueError, match="finite"):
            at.asymmetry_index([[np.nan, 0.0], [0.0, 1.0]])


class TestHenriciDeparture:
    def test_normal_matrix_gives_zero_and_jordan_block_one(self):
        Q, _ = np.linalg.qr(np.random.default_rng(0).standard_normal((6, 6)))
        N = Q @ np.diag([1.0, -2.0, 3.0, 0.5, 0.1, 4.0]) @ Q.T
        assert at.henrici_departure(N) < 1e-7
        assert at.henrici_departure([[0.0, 1.0], [0.0, 0.0]]) == 1.0

    @given(seed=st.integers(0, 1000), scale=st.floats(0.1, 10.0))
    @settings(max_examples=20, deadline=None)
    def test_scale_invariant_and_bounded(self, seed, scale):
        J = np.random.default_rng(seed).standard_normal((8, 8))
        h = at.henrici_departure(J)
        assert 0.0 <= h <= 1.0
        assert at.henrici_departure(scale * J) == pytest.approx(h, rel=1e-9, abs=1e-12)

    def test_given_eigenvalues_are_used(self):
        J = np.random.default_rng(1).standard_normal((5, 5))
        assert at.henrici_departure(J, np.linalg.eigvals(J)) == pytest.approx(
            at.henrici_departure(J)
        )

    def test_bad_input(self):
        with pytest.raises(ValueError, match="eigenvalues"):
            at.henrici_departure(np.eye(3), [1.0, 1.0])
        with pytest.raises(ValueError, match="zero matrix"):
            at.henrici_departure(np.zeros((3, 3)))


class TestWeightStatistics:
    def test_lowrank_henrici_equals_full(self):
        # Eq. 8 weights use the low-rank spectrum (N − P eigenvalues at −1): same index as eigvals
        R = at.sample_patterns(200, 50, 1.0, rng=0)
        net = at.pinv_weights(R, 1.0, 1.0)
        s = at.weight_statistics(net, pattern=3)
        J = at.jacobian(net.W, R[:, 3], 1.0, 1.0, net.theta)
        assert s.henrici == pytest.approx(at.henrici_departure(J), rel=1e-8)

    def test_note_non_normality_table(self):
        # note §3.3 "Non-normality" (N = 500, zero diagonal, pattern 0, CV = σ = n = 1, α = 0.3):
        # asymmetry 0.110, Henrici 0.142 for one seed; seed-to-seed spread ~±0.02
        R = at.sample_patterns(500, 150, 1.0, rng=0)
        s = at.weight_statistics(at.zero_diag_weights(R, 1.0, 1.0))
        assert s.asymmetry == pytest.approx(0.110, abs=0.03)
        assert s.henrici == pytest.approx(0.142, abs=0.03)
        assert s.fixed_point_error < 1e-9 and s.mean_diag == 0.0 and s.alpha == 0.3

    def test_no_henrici_gives_nan(self):
        R = at.sample_patterns(50, 5, 1.0, rng=0)
        assert math.isnan(at.weight_statistics(at.pinv_weights(R, 1.0, 1.0), henrici=False).henrici)

    def test_bad_input(self):
        R = at.sample_patterns(50, 5, 1.0, rng=0)
        net = at.pinv_weights(R, 1.0, 1.0)
        with pytest.raises(TypeError, match="net"):
            at.weight_statistics(R)
        with pytest.raises(ValueError, match="pattern"):
            at.weight_statistics(net, pattern=5)
        with pytest.raises(TypeError, match="pattern"):
            at.weight_statistics(net, pattern=1.0)


class TestPinvRowNormSq:
    def test_note_values(self):
        # note §3.3: (α/(1−α))(ρ − αβ²) = 0.2212 at α = 0.2 and 0.5554 at α = 0.5 (CV = σ = n = 1)
        t = at.theory(1.0, 1.0, 1.0)
        np.testing.assert_allclose(at.pinv_row_norm_sq(t, [0.2, 0.5]), [0.2212, 0.5554], atol=2e-4)

    @given(alpha=st.floats(0.0, 0.99), cv=st.sampled_from([0.5, 1.0, 2.0]))
    @settings(max_examples=20, deadline=None)
    def test_plus_self_coupling_cost_is_eq6(self, alpha, cv):
        # [derived] Eq. 8 norm + (αβ)²/(1−α) = Eq. 6 (the zero-diagonal correction of Eq. 20)
        t = at.theory(cv, 1.0, 1.0)
        total = at.pinv_row_norm_sq(t, alpha) + at.pinv_self_coupling(t, alpha) ** 2 / (1 - alpha)
        assert total == pytest.approx(t.row_norm_sq(alpha), rel=1e-10, abs=1e-14)

    def test_measured_within_three_percent(self, sweep_pinv):
        # note §3.4 T5: Eq. 8 weights within 3 % of the derived formula at N = 1000
        np.testing.assert_allclose(sweep_pinv.row_norm_sq, sweep_pinv.row_norm_sq_pinv, rtol=0.03)

    def test_bad_input(self):
        t = at.theory(1.0, 1.0, 1.0)
        with pytest.raises(ValueError, match="alpha"):
            at.pinv_row_norm_sq(t, 1.0)
        with pytest.raises(TypeError, match="theory"):
            at.pinv_row_norm_sq(1.0, 0.5)


class TestPinvSelfCoupling:
    def test_matches_measured_diagonal(self, sweep_pinv):
        # note §3.3, pitfall 3: W_ii ≈ αβ for Eq. 8 weights (O(1), not small)
        np.testing.assert_allclose(sweep_pinv.mean_diag, sweep_pinv.self_coupling_pinv, atol=0.02)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="alpha"):
            at.pinv_self_coupling(at.theory(1.0, 1.0, 1.0), -0.1)


class TestWeightLoadSweep:
    def test_zero_diag_norm_within_eight_percent_of_eq6(self, sweep_zd):
        # note §3.3: 0.283 / 0.276 and 1.142 / 1.105, i.e. ~3 % high at N = 1000; T5 allows 8 %
        ratio = sweep_zd.row_norm_sq / sweep_zd.row_norm_sq_eq6
        assert np.all((ratio > 1.0) & (ratio < 1.08))
        np.testing.assert_allclose(sweep_zd.row_norm_sq_eq6, [0.276, 1.105], atol=1e-3)

    def test_row_sum_follows_eq7_with_threshold_shift(self):
        # note §3.3: N⟨W⟩ = 0.996 / 0.997 (θ − θ* = 1, α = 0.2, N = 1000); |diff| < 0.02 (T5)
        sw = at.weight_load_sweep(600, 1.0, 1.0, 1.0, [0.2], rng=1, theta_shift=1.0)
        assert sw.row_sum_eq7 == pytest.approx(1.0, abs=1e-12)
        assert abs(sw.row_sum[0] - 1.0) < 0.03  # N = 600: a bit more finite-size scatter

    def test_non_normality_increases_with_cv(self):
        # note §3.3 (C3): both indices increase with CV (N = 500 there; N = 300 here)
        out = [
            at.weight_load_sweep(300, cv, 1.0, 1.0, [0.3], rng=0, henrici=True)
            for cv in (0.5, 1.0, 2.0)
        ]
        asym = [s.asymmetry[0] for s in out]
        hen = [s.henrici[0] for s in out]
        assert asym[0] < asym[1] < asym[2] and hen[0] < hen[1] < hen[2]

    def test_norm_diverges_towards_capacity(self):
        sw = at.weight_load_sweep(300, 1.0, 1.0, 1.0, [0.5, 0.95], rng=0)
        assert sw.row_norm_sq[1] > 10 * sw.row_norm_sq[0]
        assert sw.fixed_point_error.max() < 1e-8

    def test_bad_input(self):
        with pytest.raises(ValueError, match="alphas"):
            at.weight_load_sweep(100, 1.0, 1.0, 1.0, [0.5, 1.0])
        with pytest.raises(ValueError, match="alphas"):
            at.weight_load_sweep(100, 1.0, 1.0, 1.0, [0.001])
        with pytest.raises(ValueError, match="sigma"):
            at.weight_load_sweep(100, 1.0, 0.0, 1.0, [0.5])
        with pytest.raises(ValueError, match="theta_shift"):
            at.weight_load_sweep(100, 1.0, 1.0, 1.0, [0.5], theta_shift=math.inf)


class TestWeightSnapshot:
    def test_fields_and_determinism(self):
        a = at.weight_snapshot(0.3, 1.0, N=120, pairs=50, rng=4)
        b = at.weight_snapshot(0.3, 1.0, N=120, pairs=50, rng=4)
        np.testing.assert_array_equal(a.w_ij, b.w_ij)
        assert a.row_norms_sq.shape == (120,) and a.w_ji.shape == (50,)
        assert a.row_norms_sq.mean() == pytest.approx(a.stats.row_norm_sq)
        assert a.row_norm_sq_eq6 == pytest.approx(at.theory(1.0, 1.0, 1.0).row_norm_sq(0.3))

    def test_bad_input(self):
        with pytest.raises(ValueError, match="alpha"):
            at.weight_snapshot(0.999, 1.0, N=100)
        with pytest.raises(ValueError, match="pairs"):
            at.weight_snapshot(0.3, 1.0, pairs=0)


class TestRecallDemo:
    def test_stable_and_supralinear_cases(self):
        # note §3.3 "Dynamics" / T14: n = 1, α = 0.1 returns; n = 1.5 scale-up blows up (λ_mem > 0)
        ok = at.recall_demo(0.1, 1.0, N=300, direction="random", T=100.0)
        bad = at.recall_demo(0.1, 1.5, N=300, direction="pattern", T=100.0)
        assert ok.fixed_point_error < 1e-9 and bad.fixed_point_error < 1e-9
        assert ok.abscissa < 0 and ok.trajectory.distance[-1] < 1e-3
        assert bad.lambda_mem > 0 and bad.abscissa > 0.05
        assert bad.trajectory.blew_up or bad.trajectory.distance[-1] > 0.5

    def test_bad_input(self):
        with pytest.raises(ValueError, match="direction"):
            at.recall_demo(0.1, 1.0, N=50, direction="up")
        with pytest.raises(ValueError, match="kick"):
            at.recall_demo(0.1, 1.0, N=50, kick=0.0)
        with pytest.raises(ValueError, match="alpha"):
            at.recall_demo(0.001, 1.0, N=50)


class TestBadInputEdges:
    """Issue 9: overflow limits, hangs and strict flags in the structure functions."""

    def test_activation_curves_refuses_a_huge_exponent(self):
        # n = 1e300 crashed in scipy's pbdv (SpecialFunctionError); the range is stated now.
        with pytest.raises(ValueError, match=r"^n must lie in \(0.0, 100.0\]"):
            at.activation_curves(1.0, n=1e300)

    def test_noisy_power_in_log_space(self):
        # ⟨⌊v + σz⌋₊²⟩ = σ²/2 at v = 0, and ≈ σ²/2 for |v| << σ: with σ = 1e100 the factor σⁿ
        # alone was an OverflowError (Python float power); in log space it is exact.
        c = at.activation_curves(1e100, 2.0, -1.0, 1.0, 3)
        assert np.allclose(c.noisy, 0.5e200, rtol=1e-12)
        # σ = 1e200: σ²/2 exceeds the float range, so +inf is the true limit.
        assert np.all(at.activation_curves(1e200, 2.0, -1.0, 1.0, 3).noisy == np.inf)

    def test_recall_demo_refuses_more_steps_than_max_steps(self):
        with pytest.raises(ValueError, match=r"^T asks for .* limit of 10000000"):
            at.recall_demo(0.2, 1.0, N=12, T=1e300)

    @pytest.mark.parametrize("flag", ["zero_diag", "henrici"])
    def test_weight_load_sweep_flags_must_be_bool(self, flag):
        # zero_diag=None used to run as False.
        with pytest.raises(TypeError, match=rf"^{flag} must be True or False"):
            at.weight_load_sweep(12, 1.0, 1.0, 1.0, [0.2], **{flag: None})

    def test_asymmetry_and_henrici_are_scale_free_at_huge_scales(self):
        # Both indices are invariant under W → cW; at c = 1e300 the unscaled squares overflowed.
        W = np.array([[0.0, 1.0], [0.0, 0.5]])
        assert at.asymmetry_index(1e300 * W) == pytest.approx(at.asymmetry_index(W), rel=1e-14)
        J = np.array([[1.0, 2.0], [0.0, 3.0]])
        h = at.henrici_departure(J)
        assert at.henrici_departure(1e300 * J) == pytest.approx(h, rel=1e-12)
        assert at.henrici_departure(J, [1.0, 3.0]) == pytest.approx(h, rel=1e-12)

    def test_henrici_refuses_eigenvalues_that_break_schur(self):
        # Σ|λ|² <= ‖J‖_F² for the eigenvalues of any J; 1e300 cannot be one (was 0.0).
        J = np.array([[1.0, 2.0], [0.0, 3.0]])
        with pytest.raises(ValueError, match=r"^eigenvalues must be the eigenvalues of J"):
            at.henrici_departure(J, [1e300, 3.0])
        with pytest.raises(TypeError, match=r"^eigenvalues must hold real or complex"):
            at.henrici_departure(J, np.ones(2, dtype=bool))

    def test_pinv_row_norm_is_inf_not_nan_for_huge_sigma(self):
        # ρ − αβ² >= (1 − α)ρ (Cauchy-Schwarz), and ρ = Var u/Var r = inf for σ = 1e300.
        t = at.theory(1.0, 1e300, 1.0)
        assert at.pinv_row_norm_sq(t, 0.3) == math.inf
        assert at.pinv_row_norm_sq(t, 0.0) == 0.0
