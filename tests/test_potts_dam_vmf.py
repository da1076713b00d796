"""Tests for assocmem.potts_dam.vmf: Ω_N (Eq. 17), Eq. 18, ς, A_N and the Wood sampler.

"note" below is shared/notes/04-dam-saddle-hierarchy.md; D1 and D2 are its §3.2 checks.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.special import i0e, ive
from scipy.stats import ks_2samp, vonmises_fisher

from assocmem.potts_dam.vmf import (
    inverse_varsigma,
    log_vmf_normaliser,
    mean_resultant_length,
    sample_vmf,
    tau,
    varsigma,
)


def tau_by_quadrature(N: int, beta: float) -> float:
    """Independent oracle: τ from the third line of Eq. 17, ∫(1−u²)^{(N−3)/2} e^{βu} du.

    The integrand is divided by its maximum (at u*, where β(1 − u²) = (N − 3) u) before
    ``scipy.integrate.quad``, so nothing under- or overflows.
    """
    a = 0.5 * (N - 3)

    def log_integral(b: float) -> float:
        u_star = (-a + math.hypot(a, b)) / b if b > 0 else 0.0
        peak = a * math.log1p(-u_star * u_star) + b * u_star

        def f(u: float) -> float:
            return math.exp(a * math.log1p(-u * u) + b * u - peak)

        val, _ = integrate.quad(f, -1, 1, points=[u_star], epsabs=0, epsrel=1e-13, limit=500)
        return peak + math.log(val)

    return log_integral(beta) - log_integral(0.0)


class TestTau:
    # Note §3.2 D1: |Eq. 18 − exact| over β in [1e-3, 300] measured 7.1e-3 (N = 36),
    # 3.7e-3 (N = 64), 2.0e-4 (N = 784); the note asserts 1e-2, 5e-3, 5e-4.
    @pytest.mark.parametrize(("N", "tol"), [(36, 1e-2), (64, 5e-3), (784, 5e-4)])
    def test_eq18_matches_exact_within_d1_tolerance(self, N: int, tol: float) -> None:
        beta = np.geomspace(1e-3, 300.0, 400)
        err = np.abs(tau(N, beta, approx=True) - tau(N, beta))
        assert err.max() <= tol

    def test_eq18_is_accurate_at_small_beta_for_large_n(self) -> None:
        # Note §2.3: the N = 784 error is 1e-6 at β = 16 (Eq. 18 is asymptotic in N).
        assert abs(tau(784, 16.0, approx=True) - tau(784, 16.0)) < 2e-6

    @pytest.mark.parametrize(
        ("N", "beta", "ref"),
        [
            (784, 6.0, 0.0230),
            (784, 16.0, 0.1632),
            (784, 18.0, 0.2066),
            (784, 40.0, 1.0191),
            (784, 100.0, 6.3268),
            (64, 4.0, 0.1246),
            (64, 16.0, 1.9422),
            (64, 40.0, 10.8433),
            (36, 6.0, 0.4921),
            (36, 16.0, 3.2777),
        ],
    )
    def test_eq18_reference_values(self, N: int, beta: float, ref: float) -> None:
        # Note §2.3 "Reference values of τ (Eq. 18 form)", printed to 4 decimals: ±5e-5.
        assert tau(N, beta, approx=True) == pytest.approx(ref, abs=5.01e-5)

    @pytest.mark.parametrize("N", [4, 10, 36, 64, 784, 5000, 100_000])
    @pytest.mark.parametrize("beta", [1e-3, 0.5, 6.0, 40.0, 300.0, 3000.0, 1e4])
    def test_exact_matches_quadrature_of_eq17(self, N: int, beta: float) -> None:
        # The series, ive and Debye branches all agree with direct quadrature to ~1e-15;
        # 1e-12 (relative to max(1, τ)) leaves room for quad's own error.
        ref = tau_by_quadrature(N, beta)
        assert abs(tau(N, beta) - ref) <= 1e-12 * max(1.0, abs(ref))

    def test_finite_at_mnist_size_where_ive_underflows(self) -> None:
        # Note pitfall 7: ive(391, β) is 0 for β ≲ 90, so log(ive) is −inf; τ stays finite.
        beta = np.concatenate([[0.0, 1e-8], np.geomspace(1e-3, 1e4, 300)])
        with np.errstate(divide="ignore"):
            assert np.isneginf(np.log(ive(391, 40.0)))
        t = tau(784, beta)
        assert np.all(np.isfinite(t))
        assert t[0] == 0.0
        assert np.all(np.diff(t) > 0)

    def test_small_beta_limit_is_beta_squared_over_2n(self) -> None:
        # τ = log ₀F₁(; N/2; β²/4) = β²/(2N) + O(β⁴) (note §2.3).
        for N in (2, 64, 784):
            beta = 1e-4
            assert tau(N, beta) == pytest.approx(beta**2 / (2 * N), rel=1e-7)

    def test_circle_is_log_i0(self) -> None:
        beta = np.array([1e-3, 0.7, 5.0, 80.0, 2500.0])
        # log(i0e) + β cancels at small β (absolute error ~1e-16): compare with an atol too.
        np.testing.assert_allclose(tau(2, beta), np.log(i0e(beta)) + beta, rtol=1e-13, atol=1e-15)

    def test_huge_beta_stays_finite(self) -> None:
        # ive returns NaN above β ≈ 1.1e9; the large-argument expansion takes over.
        for N in (2, 10, 784):
            t = tau(N, np.array([1e10, 1e300]))
            assert np.all(np.isfinite(t))
            assert t[0] == pytest.approx(1e10 - (N - 1) / 2 * math.log(1e10), rel=1e-6)

    def test_scalar_in_scalar_out_and_shape_kept(self) -> None:
        assert isinstance(tau(64, 3.0), float)
        assert tau(64, np.ones((2, 3))).shape == (2, 3)


class TestLogVmfNormaliser:
    def test_zero_concentration_is_sphere_area(self) -> None:
        for N in (2, 3, 5, 784):
            area = 2 * math.pi ** (N / 2) / math.gamma(N / 2) if N < 300 else None
            got = log_vmf_normaliser(N, 0.0)
            if area is not None:
                assert got == pytest.approx(math.log(area), abs=1e-12)
            else:
                ref = math.log(2) + N / 2 * math.log(math.pi) - math.lgamma(N / 2)
                assert got == pytest.approx(ref, rel=1e-14)

    def test_two_sphere_closed_form(self) -> None:
        # Ω_3(β) = 4π sinh β/β (note §5.1).
        beta = np.array([1e-3, 0.5, 3.0, 50.0, 900.0])
        ref = np.log(4 * np.pi) + beta + np.log1p(-np.exp(-2 * beta)) - np.log(2 * beta)
        np.testing.assert_allclose(log_vmf_normaliser(3, beta), ref, rtol=1e-12)

    def test_matches_scipy_vonmises_fisher_density(self) -> None:
        # scipy's logpdf at the mean direction is κ − log Ω_N(κ) (safe range: no underflow).
        for N, kappa in ((4, 0.3), (10, 5.0), (30, 60.0)):
            mu = np.eye(N)[0]
            ref = kappa - vonmises_fisher(mu, kappa).logpdf(mu)
            assert log_vmf_normaliser(N, kappa) == pytest.approx(ref, rel=1e-12)

    def test_approx_differs_only_in_tau(self) -> None:
        N, beta = 64, np.array([1.0, 10.0, 100.0])
        diff = log_vmf_normaliser(N, beta, approx=True) - log_vmf_normaliser(N, beta)
        np.testing.assert_allclose(diff, tau(N, beta, approx=True) - tau(N, beta), atol=1e-12)


class TestVarsigma:
    def test_values_and_inverse_from_the_note(self) -> None:
        # ς(2) = (√5 − 1)/2 = 0.6180 (note D2); note §1.4: ς = 0.25 ↔ v = 4/15, ς = 0.5 ↔ v = 2/3,
        # ς = 0.6 ↔ v = 0.9375, with v = x/2.
        assert varsigma(2.0) == pytest.approx((math.sqrt(5) - 1) / 2, rel=1e-15)
        got = inverse_varsigma(np.array([0.25, 0.5, 0.6])) / 2
        np.testing.assert_allclose(got, [4 / 15, 2 / 3, 0.9375], rtol=1e-14)

    @settings(max_examples=200, deadline=None)
    @given(st.floats(-1e6, 1e6, allow_nan=False))
    def test_is_tanh_of_half_arsinh_and_bounded(self, x: float) -> None:
        s = varsigma(x)
        assert s == pytest.approx(math.tanh(0.5 * math.asinh(x)), rel=1e-12, abs=1e-300)
        assert abs(s) < 1.0 or abs(x) > 1e15
        assert varsigma(-x) == -s

    @settings(max_examples=200, deadline=None)
    @given(st.floats(-1e3, 1e3, allow_nan=False), st.floats(1e-6, 10.0))
    def test_increasing(self, x: float, dx: float) -> None:
        assert varsigma(x + dx) > varsigma(x)

    @settings(max_examples=200, deadline=None)
    @given(st.floats(-0.999, 0.999))
    def test_inverse_round_trip(self, s: float) -> None:
        assert varsigma(inverse_varsigma(s)) == pytest.approx(s, rel=1e-12, abs=1e-300)

    def test_is_derivative_of_eq18_eta(self) -> None:
        # ς = η' (note §2.3): d/dβ of Eq. 18's (N/2 − 1) η(2β/(N − 2)) is ς(2β/(N − 2)); the
        # −¼ log term adds −2ρ/((N − 2)(1 + 4ρ²)), which mean_resultant_length(approx) includes.
        N, beta, h = 100, np.array([3.0, 30.0, 300.0]), 1e-4
        fd = (tau(N, beta + h, approx=True) - tau(N, beta - h, approx=True)) / (2 * h)
        rho = beta / (N - 2)
        np.testing.assert_allclose(
            fd + 2 * rho / ((N - 2) * (1 + 4 * rho**2)), varsigma(2 * rho), rtol=1e-8
        )

    def test_array_shape_kept(self) -> None:
        assert varsigma(np.zeros((3, 2))).shape == (3, 2)


class TestMeanResultantLength:
    def test_two_sphere_closed_form(self) -> None:
        kappa = np.array([1e-3, 0.5, 2.0, 80.0, 1e4])
        np.testing.assert_allclose(
            mean_resultant_length(3, kappa), 1 / np.tanh(kappa) - 1 / kappa, rtol=1e-9
        )

    @pytest.mark.parametrize("N", [2, 5, 64, 784, 20_000])
    def test_is_derivative_of_tau(self, N: int) -> None:
        kappa = np.array([0.3, 5.0, 80.0, 700.0, 1e4])
        h = 1e-5 * kappa
        fd = (tau(N, kappa + h) - tau(N, kappa - h)) / (2 * h)
        np.testing.assert_allclose(mean_resultant_length(N, kappa), fd, rtol=1e-8)

    def test_approx_is_derivative_of_eq18(self) -> None:
        N, kappa, h = 784, np.array([1.0, 40.0, 1000.0]), 1e-4
        fd = (tau(N, kappa + h, approx=True) - tau(N, kappa - h, approx=True)) / (2 * h)
        np.testing.assert_allclose(mean_resultant_length(N, kappa, approx=True), fd, rtol=1e-7)

    def test_approaches_varsigma_at_large_n(self) -> None:
        # Note §2.3: A_N(β) ≈ ς(2β/(N − 2)), an O(1/N) approximation: at N = 784 we measured
        # |difference| <= 5.2e-4 over κ in [16, 5000]; the derivative of Eq. 18 (with its −¼ log
        # term) is within 7e-7. Asserted: 1e-3 and 2e-6.
        kappa = np.array([16.0, 100.0, 784.0, 5000.0])
        exact = mean_resultant_length(784, kappa)
        np.testing.assert_allclose(exact, varsigma(2 * kappa / 782), atol=1e-3)
        np.testing.assert_allclose(exact, mean_resultant_length(784, kappa, approx=True), atol=2e-6)

    def test_limits(self) -> None:
        assert mean_resultant_length(64, 0.0) == 0.0
        assert mean_resultant_length(64, 1e-9) == pytest.approx(1e-9 / 64, rel=1e-12)
        assert mean_resultant_length(784, 1e300) == 1.0


class TestSampleVmf:
    def test_d2_mean_overlap_is_varsigma_of_2v(self) -> None:
        # Note §3.2 D2: N = 200, κ = vN with v = 1, 400 samples: mean overlap 0.6197 measured
        # vs ς(2) = 0.6180, tolerance ±0.01 (the standard error is 0.0027).
        N = 200
        mu = np.eye(N)[0]
        x = sample_vmf(mu, 1.0 * N, 400, rng=0)
        assert x[:, 0].mean() == pytest.approx(varsigma(2.0), abs=0.01)

    @settings(max_examples=25, deadline=None)
    @given(st.integers(2, 120), st.floats(0.0, 400.0), st.integers(0, 2**32 - 1))
    def test_mean_resultant_length_matches_a_n(self, N: int, kappa: float, seed: int) -> None:
        # E[x·μ] = A_N(κ), Var = 1 − (N − 1) A/κ − A² (exact); 5 standard errors.
        n = 600
        mu = np.random.default_rng(seed).standard_normal(N)
        mu /= np.linalg.norm(mu)
        x = sample_vmf(mu, kappa, n, rng=seed)
        a = mean_resultant_length(N, kappa)
        var = 1.0 / N if kappa < 1e-6 else 1 - (N - 1) * a / kappa - a * a
        se = math.sqrt(max(var, 1e-12) / n)
        assert abs((x @ mu).mean() - a) < 5 * se + 1e-9

    @pytest.mark.parametrize(
        ("N", "kappa"), [(2, 3.0), (3, 1.0), (5, 0.1), (50, 20.0), (200, 200.0)]
    )
    def test_same_law_as_scipy_vonmises_fisher(self, N: int, kappa: float) -> None:
        # Two-sample Kolmogorov-Smirnov test of the cosine against scipy's sampler (same law,
        # independent draws, fixed seeds): measured p-values 0.28-0.97; asserted p > 1e-3.
        mu = np.eye(N)[0]
        ours = sample_vmf(mu, kappa, 20_000, rng=1)[:, 0]
        ref = vonmises_fisher(mu, kappa).rvs(5_000, random_state=np.random.default_rng(2))
        assert ks_2samp(ours, ref[:, 0]).pvalue > 1e-3

    def test_unit_norm_shape_and_determinism(self) -> None:
        mu = np.arange(1.0, 11.0)
        x = sample_vmf(mu, 7.0, 50, rng=3)
        assert x.shape == (50, 10)
        np.testing.assert_allclose(np.linalg.norm(x, axis=1), 1.0, atol=1e-12)
        np.testing.assert_array_equal(x, sample_vmf(mu, 7.0, 50, rng=np.random.default_rng(3)))
        np.testing.assert_array_equal(x, sample_vmf(5 * mu, 7.0, 50, rng=3))

    def test_zero_concentration_is_uniform(self) -> None:
        x = sample_vmf(np.eye(6)[0], 0.0, 20_000, rng=1)
        np.testing.assert_allclose(np.linalg.norm(x, axis=1), 1.0, atol=1e-12)
        # Uniform on S^5: E[x] = 0, E[x xᵀ] = I/6; standard error of each mean 1/√(6·2e4).
        assert np.abs(x.mean(axis=0)).max() < 5 / math.sqrt(6 * 20_000)
        np.testing.assert_allclose(x.T @ x / 20_000, np.eye(6) / 6, atol=0.01)

    def test_huge_concentration_returns_the_mean_direction(self) -> None:
        x = sample_vmf([3.0, 4.0], 1e15, 5, rng=0)
        np.testing.assert_allclose(x, np.tile([0.6, 0.8], (5, 1)), atol=1e-6)
