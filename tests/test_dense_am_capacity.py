"""Tests for assocmem.dense_am.capacity: Monte-Carlo checks of Theorem 2, eqs. (10) and (11)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.distance import pdist
from scipy.special import gamma

from assocmem.dense_am import capacity


def _binomial_margin(p: float, n: int) -> float:
    """Three binomial standard deviations of an empirical frequency (note §2.6 item 1)."""
    return 3.0 * math.sqrt(max(p * (1.0 - p), 1e-12) / n)


class TestBallVolume:
    @pytest.mark.parametrize("d", [1, 2, 3, 8, 16, 64])
    def test_matches_gamma_formula(self, d):
        # V_d = π^(d/2) / Γ(d/2 + 1) (note §0); gammaln vs gamma agree to rounding
        assert capacity.ball_volume(d) == pytest.approx(
            math.pi ** (d / 2) / gamma(d / 2 + 1), rel=1e-12
        )

    def test_known_values(self):
        # V_1 = 2, V_2 = π, V_3 = 4π/3, V_8 = π⁴/24
        assert capacity.ball_volume(1) == pytest.approx(2.0, rel=1e-14)
        assert capacity.ball_volume(3) == pytest.approx(4 * math.pi / 3, rel=1e-14)
        assert capacity.ball_volume(8) == pytest.approx(math.pi**4 / 24, rel=1e-14)

    def test_large_d_does_not_overflow(self):
        assert 0.0 < capacity.ball_volume(1000) < 1e-300 or capacity.ball_volume(1000) == 0.0

    def test_bad_input(self):
        with pytest.raises(ValueError, match="d"):
            capacity.ball_volume(0)
        with pytest.raises(TypeError, match="d"):
            capacity.ball_volume(2.0)


class TestMinPairwiseDistance:
    def test_small_example(self):
        assert capacity.min_pairwise_distance([[0, 0], [3, 4], [10, 0]]) == 5.0

    def test_bad_input(self):
        with pytest.raises(ValueError, match="memories"):
            capacity.min_pairwise_distance([[0.0, 1.0]])
        with pytest.raises(ValueError, match="memories"):
            capacity.min_pairwise_distance([0.0, 1.0])
        with pytest.raises(ValueError, match="memories"):
            capacity.min_pairwise_distance([[np.nan], [1.0]])


class TestMinDistanceSamples:
    def test_each_trial_equals_pdist_of_its_draw(self):
        # the batched Gram computation must match scipy's pdist on the same uniform draws
        r = capacity.min_distance_samples(3, 7, 5, rng=11)
        gen = np.random.default_rng(11)
        ref = [pdist(x).min() for x in gen.random((5, 7, 3))]
        np.testing.assert_allclose(r, ref, rtol=1e-10)

    def test_same_seed_same_samples(self):
        a = capacity.min_distance_samples(4, 10, 50, rng=1)
        b = capacity.min_distance_samples(4, 10, 50, rng=np.random.default_rng(1))
        np.testing.assert_array_equal(a, b)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="M"):
            capacity.min_distance_samples(2, 1, 10, rng=0)
        with pytest.raises(ValueError, match="n_trials"):
            capacity.min_distance_samples(2, 5, 0, rng=0)
        with pytest.raises(TypeError, match="rng"):
            capacity.min_distance_samples(2, 5, 10, rng=None)
        with pytest.raises(ValueError, match=r"M asks for .* limit"):
            capacity.min_distance_samples(2, 10**5, 1, rng=0)  # 1e10 Gram elements per trial
        with pytest.raises(ValueError, match=r"n_trials asks for .* limit"):
            capacity.min_distance_samples(2, 5, 10**9, rng=0)


class TestCollisionBound:
    @pytest.mark.parametrize(
        ("d", "M", "target"),
        [(2, 50, 0.1), (2, 50, 0.5), (8, 100, 0.2), (8, 100, 0.9), (16, 200, 0.7)],
    )
    def test_empirical_collision_probability_is_below_eq10(self, d, M, target):
        # note §3.2 T14 / §2.6 item 1: Pr[r < ε] <= M² V_d ε^d (eq. (10)); ε chosen so the
        # bound equals `target`; 400 trials, so allow a 3σ binomial margin
        eps = (target / (M * M * capacity.ball_volume(d))) ** (1.0 / d)
        assert capacity.collision_bound(eps, d, M) == pytest.approx(target, rel=1e-12)
        r = capacity.min_distance_samples(d, M, 400, rng=2024 + d)
        p = float(np.mean(r < eps))
        assert p <= target + _binomial_margin(target, 400)

    def test_vectorised_in_eps_and_scales_with_volume(self):
        eps = np.array([0.0, 0.01, 0.02])
        out = capacity.collision_bound(eps, 2, 10, V=2.0)
        np.testing.assert_allclose(out, 100 * math.pi * eps**2 / 2.0, rtol=1e-14)

    def test_overflow_gives_inf_not_an_error(self):
        # M² V_d ε^d with ε = 1e300, d = 2 is 100 π 1e600: beyond float64, so the honest value is
        # +inf (the bound is vacuous); the old code raised OverflowError in ε**d
        assert capacity.collision_bound(1e300, 2, 10) == math.inf
        np.testing.assert_array_equal(
            capacity.collision_bound(np.array([0.0, 1e300]), 2, 10), [0.0, math.inf]
        )

    def test_large_d_keeps_the_bound_where_v_d_underflows(self):
        # d = 1000: V_d ~ 1e-1186 underflows, but M² V_d ε^d at ε = sqrt(d/(2πe)) is moderate.
        # Reference: log bound = 2 log M + log V_d + d log ε, with log V_d from gammaln (exact)
        from scipy.special import gammaln

        d, M, eps = 1000, 10, 7.65
        log_ref = 2 * math.log(M) + 500 * math.log(math.pi) - gammaln(501) + d * math.log(eps)
        assert capacity.collision_bound(eps, d, M) == pytest.approx(math.exp(log_ref), rel=1e-9)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="eps"):
            capacity.collision_bound(-0.1, 2, 10)
        with pytest.raises(TypeError, match="eps"):
            capacity.collision_bound(np.array([True, False]), 2, 10)
        with pytest.raises(ValueError, match="eps"):
            capacity.collision_bound(np.array([]), 2, 10)
        with pytest.raises(ValueError, match="eps"):
            capacity.collision_bound([0.1, np.nan], 2, 10)
        with pytest.raises(ValueError, match="V"):
            capacity.collision_bound(0.1, 2, 10, V=0.0)
        with pytest.raises(ValueError, match="M"):
            capacity.collision_bound(0.1, 2, 0)


class TestAlphaForm:
    def test_radius_and_delta_formulas(self):
        # Thm 2(a): radius (V_d/V)^(-1/d) e^(-2α), δ = 1 - M² e^(-2αd); note §2.6 item 2: 0.966
        f = capacity.alpha_form(0.5, 8, 10)
        assert f.radius == pytest.approx((math.pi**4 / 24) ** (-1 / 8) * math.exp(-1.0), rel=1e-14)
        assert f.bound_delta == pytest.approx(1 - 100 * math.exp(-8.0), rel=1e-14)
        assert f.bound_delta == pytest.approx(0.966, abs=5e-4)

    def test_delta_is_one_minus_eq10_at_the_radius(self):
        # the α-form is eq. (10) evaluated at ε = radius (App. D.3)
        f = capacity.alpha_form(0.3, 8, 10, V=1.0)
        assert 1 - f.bound_delta == pytest.approx(
            capacity.collision_bound(f.radius, 8, 10), rel=1e-12
        )

    def test_capacity_inverts_delta(self):
        # M = sqrt(1 - δ) e^(αd) (Thm 2(a), exponential capacity)
        f = capacity.alpha_form(0.5, 8, 37)
        assert f.capacity == pytest.approx(37.0, rel=1e-12)

    def test_delta_is_vacuous_for_large_M(self):
        # note §2.6 item 2: for M > e^(αd) the paper's δ is negative
        assert capacity.alpha_form(0.3, 8, 20).bound_delta < 0

    def test_capacity_is_M_where_delta_rounds_to_one(self):
        # α = 3, d = 8: 1 - δ = 100 e^(-48) = 1.4e-19 rounds δ to 1.0, and the old
        # sqrt(1 - δ) e^(αd) gave 0.0. Algebraically sqrt(M² e^(-2αd)) e^(αd) = M = 10.
        f = capacity.alpha_form(3.0, d=8, M=10)
        assert f.capacity == 10.0
        assert f.bound_delta == 1.0  # 1 - 1.4e-19 to the nearest double

    def test_delta_keeps_digits_near_one(self):
        # α = 2, d = 8, M = 10: 1 - δ = 100 e^(-32) = 1.2664e-12; δ = -expm1(log(1 - δ)) keeps it
        f = capacity.alpha_form(2.0, d=8, M=10)
        assert 1.0 - f.bound_delta == pytest.approx(100 * math.exp(-32.0), rel=1e-3)

    def test_large_alpha_d_does_not_overflow(self):
        # α d = 750 used to raise OverflowError in e^(αd); δ = 1 - 100 e^(-1500) is 1.0 in
        # float64, the radius e^(-15) (V_100)^(-1/100) = 7.618e-7 (V_100 = π^50 / 50!)
        f = capacity.alpha_form(7.5, d=100, M=10)
        v100 = 50 * math.log(math.pi) - math.lgamma(51)
        assert f.radius == pytest.approx(math.exp(-v100 / 100 - 15.0), rel=1e-12)
        assert (f.bound_delta, f.capacity) == (1.0, 10.0)

    def test_large_d_radius_where_v_d_underflows(self):
        # d = 1000: V_d = π^500 / 500! ~ 1e-1186 underflowed to 0 and 0 ** (-1/d) raised
        # ZeroDivisionError. In log space the radius is e^(-1.5) (V_d)^(-1/d) = 1.7142, close to
        # Stirling's e^(-1.5) sqrt(d / (2πe)) = 1.707.
        f = capacity.alpha_form(0.75, d=1000, M=10)
        log_vd = 500 * math.log(math.pi) - math.lgamma(501)
        assert f.radius == pytest.approx(math.exp(-log_vd / 1000 - 1.5), rel=1e-12)
        assert f.radius == pytest.approx(
            math.exp(-1.5) * math.sqrt(1000 / (2 * math.pi * math.e)), rel=0.01
        )

    def test_delta_is_minus_inf_where_M_squared_overflows(self):
        # M = 10**200: M² e^(-2αd) = 1e400 e^(-0.2) exceeds float64, so δ = 1 - that is -inf
        assert capacity.alpha_form(0.1, d=1, M=10**200).bound_delta == -math.inf

    def test_bad_input(self):
        with pytest.raises(ValueError, match="alpha"):
            capacity.alpha_form(0.0, 8, 10)
        with pytest.raises(TypeError, match="alpha"):
            capacity.alpha_form("a", 8, 10)
        with pytest.raises(ValueError, match="d"):
            capacity.alpha_form(0.5, 0, 10)
        with pytest.raises(ValueError, match="V"):
            capacity.alpha_form(0.5, 8, 10, V=-1.0)


class TestSuccessProbability:
    @pytest.mark.parametrize(
        ("alpha", "M", "calib"),
        [(0.5, 10, 0.993), (0.5, 50, 0.78), (0.3, 10, 0.86)],
    )
    def test_empirical_success_exceeds_paper_delta(self, alpha, M, calib):
        # note §2.6 item 2 [calib], d = 8: 0.993 >= 0.966, 0.78 >= 0.161, 0.86 >= 0.177.
        # 1000 trials: SE <= 0.016, so the calibration value is matched within 0.06 (~4 SE)
        p = capacity.success_probability(alpha, 8, M, 1000, rng=7)
        delta = capacity.alpha_form(alpha, 8, M).bound_delta
        assert p >= delta
        assert p == pytest.approx(calib, abs=0.06)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="M"):
            capacity.success_probability(0.5, 8, 1, 10, rng=0)
        with pytest.raises(ValueError, match="alpha"):
            capacity.success_probability(-0.5, 8, 10, 10, rng=0)
        with pytest.raises(ValueError, match="n_trials"):
            capacity.success_probability(0.5, 8, 10, 0, rng=0)


class TestActiveSetSizeSamples:
    @pytest.mark.parametrize(
        ("d", "M", "beta"),
        [(2, 2000, 200.0), (4, 5000, 40.0), (8, 20000, 20.0)],
    )
    def test_mean_and_band_match_eq11(self, d, M, beta):
        # note §2.6 item 3 [calib]: mean |B| within 15 % of λ = M V_d (2/β)^(d/2) and >= 99 %
        # of the samples inside λ ± 5 sqrt(λ log M) (eq. (11)); 300 i.i.d. draws, so the
        # relative SE of the mean is 1/sqrt(300 λ) <= 3.5 % for λ >= 2.
        s = capacity.active_set_size_samples(d, M, beta, 300, rng=5)
        band = capacity.eq11_band(d, M, beta)
        assert s.mean() == pytest.approx(band.prediction, rel=0.15)
        assert np.mean((s >= band.lower) & (s <= band.upper)) >= 0.99

    def test_counts_are_binomial_variance(self):
        # for interior x, |B(x)| ~ Binomial(M, V_d R^d): variance λ (1 - λ/M); ±25 % for 2000 draws
        s = capacity.active_set_size_samples(2, 500, 100.0, 2000, rng=6)
        lam = capacity.eq11_band(2, 500, 100.0).prediction
        assert s.var(ddof=1) == pytest.approx(lam * (1 - lam / 500), rel=0.25)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="beta"):
            capacity.active_set_size_samples(2, 100, 8.0, 10, rng=0)
        with pytest.raises(ValueError, match="beta"):
            capacity.active_set_size_samples(2, 100, -1.0, 10, rng=0)
        with pytest.raises(ValueError, match="n_queries"):
            capacity.active_set_size_samples(2, 100, 20.0, 0, rng=0)
        with pytest.raises(ValueError, match="M"):
            capacity.active_set_size_samples(2, 1, 20.0, 5, rng=0)


class TestEq11Band:
    def test_values(self):
        # eq. (11): λ = M V_d (2/β)^(d/2), half-width 5 sqrt(λ log M)
        b = capacity.eq11_band(8, 20000, 20.0)
        lam = 20000 * math.pi**4 / 24 * 0.1**4
        assert b.prediction == pytest.approx(lam, rel=1e-12)
        assert b.upper - b.prediction == pytest.approx(
            5 * math.sqrt(lam * math.log(20000)), rel=1e-12
        )
        assert b.prediction == pytest.approx(8.1, abs=0.05)  # note §2.6 item 3: predicted 8.1

    def test_overflowing_lambda_gives_inf_band(self):
        # β = 1e-300, d = 2: λ = 1000 π 2e300 = 6.28e303 is finite; at d = 4 it is ~1e607 -> inf,
        # and λ ∓ 5 sqrt(λ log M) -> +inf too (never inf - inf = NaN)
        b = capacity.eq11_band(2, 1000, 1e-300)
        assert b.prediction == pytest.approx(1000 * math.pi * 2e300, rel=1e-12)
        assert capacity.eq11_band(4, 1000, 1e-300) == capacity.Eq11Band(
            math.inf, math.inf, math.inf
        )

    def test_bad_input(self):
        with pytest.raises(ValueError, match="beta"):
            capacity.eq11_band(2, 10, 0.0)
        with pytest.raises(ValueError, match="M"):
            capacity.eq11_band(2, 0, 1.0)


class TestCountBoundLog:
    def test_note_example(self):
        # note §2.6: d = 8, M = 18, β = 3.8 gives λ ≈ 5.6 and a bound e^12.1
        assert capacity.count_bound_log(18, 8, 3.8) == pytest.approx(12.1, abs=0.05)

    def test_bounds_the_exact_minima_count(self):
        # note §2.6 sanity inequality: log(#minima) <= λ log(eM/λ) + log M (observed 354 vs
        # e^12.1 in the note); exact enumeration by lsr_minima, d = 8, M = 18, β = 3.8
        from assocmem.dense_am.minima import lsr_minima

        xi = np.random.default_rng(0).random((18, 8))
        n_minima = len(lsr_minima(xi, 3.8))
        assert n_minima > 18  # emergent minima exist at this β (note appendix, d = 8)
        assert math.log(n_minima) <= capacity.count_bound_log(18, 8, 3.8) + math.log(18)

    def test_huge_beta_gives_the_limit_zero(self):
        # β = 1e100: λ = 18 V_8 (2e-100)^4 underflows to 0 and λ log(eM/λ) -> 0 (it raised
        # ZeroDivisionError); at β = 1e10, λ = 18 (π⁴/24) 1.6e-39 = 1.169e-37 is still finite
        assert capacity.count_bound_log(18, 8, beta=1e100) == 0.0
        lam = 18 * math.pi**4 / 24 * (2e-10) ** 4
        ref = lam * math.log(math.e * 18 / lam)
        assert capacity.count_bound_log(18, 8, beta=1e10) == pytest.approx(ref, rel=1e-12)

    def test_tiny_beta_gives_minus_inf(self):
        # β = 1e-300, d = 8: λ ~ 1e1200 overflows and λ log(eM/λ) ~ -λ log λ -> -inf
        assert capacity.count_bound_log(18, 8, beta=1e-300) == -math.inf

    def test_bad_input(self):
        with pytest.raises(ValueError, match="beta"):
            capacity.count_bound_log(18, 8, np.inf)
        with pytest.raises(ValueError, match="V"):
            capacity.count_bound_log(18, 8, 3.8, V=0.0)


class TestCapacityExperiment:
    def test_fields_are_consistent(self):
        res = capacity.capacity_experiment(8, 10, 0.5, 300, rng=3)
        assert res.r_min_samples.shape == (300,)
        assert res.empirical_success == pytest.approx(np.mean(res.r_min_samples >= res.radius))
        assert res.bound_delta == pytest.approx(capacity.alpha_form(0.5, 8, 10).bound_delta)
        assert res.empirical_success >= res.bound_delta

    def test_bad_input(self):
        with pytest.raises(ValueError, match="M"):
            capacity.capacity_experiment(8, 1, 0.5, 10, rng=0)
        with pytest.raises(TypeError, match="rng"):
            capacity.capacity_experiment(8, 10, 0.5, 10, rng="seed")


class TestCapacityCurve:
    def test_success_decreases_with_M_and_stays_above_the_bound(self):
        # Thm 2(a): success >= 1 - M² e^(-2αd) at every M (300 trials per M)
        c = capacity.capacity_curve(8, [5, 10, 20, 50], 0.5, 300, rng=4)
        assert np.all(np.diff(c.empirical_success) <= 0.05)
        assert np.all(c.empirical_success >= c.bound_delta)

    def test_bad_input(self):
        with pytest.raises(TypeError, match="Ms"):
            capacity.capacity_curve(8, None, 0.5, 10, rng=0)
        with pytest.raises(ValueError, match="Ms"):
            capacity.capacity_curve(8, [2, 10**5], 0.5, 10, rng=0)  # Gram matrix above the cap
        with pytest.raises(ValueError, match="Ms"):
            capacity.capacity_curve(8, [], 0.5, 10, rng=0)
        with pytest.raises(ValueError, match="Ms"):
            capacity.capacity_curve(8, [1, 5], 0.5, 10, rng=0)
