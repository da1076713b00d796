"""Tests for assocmem.attractor.outliers (θ scans, the 2 × 2 refinement, threshold windows).

Reference values come from the paper (Cohen & Lengyel, equation numbers) and the chapter note
shared/notes/03-attractor-stability.md (§2.4, §2.5, §2.9, §3.3). The note's tests T6, T8 and T11
on ``jacobian_spectrum`` itself live in tests/test_attractor_network.py; here they are restated
only through the new functions, with the note's tolerances (about 3σ of its seed scatter).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.attractor.meanfield import theory
from assocmem.attractor.network import jacobian_spectrum, pinv_weights
from assocmem.attractor.outliers import (
    OutlierPair,
    ThetaScan,
    ThresholdWindow,
    outlier_pair,
    outlier_view,
    theta_scan,
    threshold_window,
)
from assocmem.attractor.rates import activation_inverse, sample_patterns


@pytest.fixture(scope="module")
def scan_n1() -> ThetaScan:
    # T11 setting (note §3.4): N = 600, α = 0.25, CV = σ = n = 1.
    return theta_scan(600, 0.25, 1.0, 1.0, 1.0, [-1.0, -0.5, 0.0, 0.25, 1.0], seed=0, patterns=2)


class TestThetaScan:
    def test_shapes_and_theta(self, scan_n1):
        s = scan_n1
        assert isinstance(s, ThetaScan)
        assert (s.N, s.P, s.alpha) == (600, 150, 0.25)
        assert s.eigenvalues.shape == (5, 2, 150)
        assert s.abscissa.shape == s.bulk_edge.shape == s.mem_corr.shape == (5, 2)
        assert s.pair.shape == (5, 2, 2) and s.row_sum.shape == (5,)
        assert np.allclose(s.theta, s.theta_star + s.theta_shifts)
        # Empirical Eq. 16 is the population θ*_bulk = −0.9271 (note §2.9) up to sampling error.
        assert s.theta_star == pytest.approx(-0.9271, abs=0.02)

    def test_same_patterns_as_pinv_and_spectrum(self, scan_n1):
        # The scan is jacobian_spectrum of pinv_weights(R, θ* + shift) for R of the given seed.
        R = sample_patterns(600, 150, 1.0, rng=0)
        net = pinv_weights(R, 1.0, 1.0, scan_n1.theta[3])
        spec = jacobian_spectrum(net, [0, 1])
        assert np.allclose(
            np.sort_complex(spec.eigenvalues[1]),
            np.sort_complex(scan_n1.eigenvalues[3, 1]),
            atol=1e-10,
        )

    def test_row_sum_is_lambda_ave(self, scan_n1):
        # T6, Eq. 12: mean row sum of J vs λ_ave within 0.02 (note §3.4; §3.3 table: −0.183 vs
        # −0.178 at θ − θ* = 1).
        assert np.abs(scan_n1.row_sum - scan_n1.lambda_ave_theory).max() < 0.02
        assert scan_n1.lambda_ave_theory[2] == pytest.approx(-1.0, abs=1e-12)

    def test_bulk_does_not_depend_on_theta(self, scan_n1):
        # T11 (note §2.5): abscissa spread < 1e-3 for θ − θ* ∈ {−0.5, 0, 0.25} (measured
        # <= 2e-4), whereas Eq. 10 moves by about 0.012.
        idx = [1, 2, 3]
        assert np.ptp(scan_n1.abscissa[idx], axis=0).max() < 1e-3
        assert np.ptp(scan_n1.bulk_edge_theory[idx]) > 0.01
        assert scan_n1.bulk_edge_theory[2] == pytest.approx(scan_n1.bulk_edge_star, abs=1e-12)

    def test_left_outlier_follows_eq12(self, scan_n1):
        # Below θ* the moving eigenvalue leaves the cloud to the left, next to Eq. 12 (the
        # rank-one term of note §2.5); measured |Δ| <= 0.02 at N = 600.
        gap = np.abs(scan_n1.ave_eig.real[0] - scan_n1.lambda_ave_theory[0])
        assert gap.max() < 0.03

    def test_theory_fields_match_theory(self, scan_n1):
        t = theory(1.0, 1.0, 1.0, theory(1.0, 1.0, 1.0).theta_star + 1.0)
        assert scan_n1.lambda_ave_theory[4] == pytest.approx(t.lambda_ave)
        assert scan_n1.lambda_mem_theory[4] == pytest.approx(t.lambda_mem)
        # The disc is drawn at θ* (the θ-dependence of Eq. 10 is an artefact, note pitfall 6).
        star = theory(1.0, 1.0, 1.0)
        assert scan_n1.radius == pytest.approx(star.radius_coef * math.sqrt(0.25 / 0.75))
        assert scan_n1.center == pytest.approx(star.center)

    def test_supralinear_memory_outlier(self):
        # T8 via the scan: CV = σ = 1, n = 1.5, α = 0.1, N = 1000: |corr| > 0.9, |λ − 0.1685| <
        # 0.07 each, abscissa > 0 (note §3.3: +0.163 ± 0.023 at N = 1000).
        s = theta_scan(1000, 0.1, 1.0, 1.0, 1.5, [0.0], seed=0, patterns=4)
        assert (s.mem_corr[0] > 0.9).all()
        assert np.abs(s.lambda_mem[0].real - 0.1685).max() < 0.07
        assert (s.abscissa[0] > 0).all()

    def test_deterministic(self):
        a = theta_scan(100, 0.2, 1.0, 1.0, 1.0, [0.0], seed=4, patterns=1)
        b = theta_scan(100, 0.2, 1.0, 1.0, 1.0, [0.0], seed=4, patterns=1)
        assert np.array_equal(a.eigenvalues, b.eigenvalues)

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            ({"N": 5}, "N"),
            ({"alpha": 0.99}, "alpha"),
            ({"alpha": 0.0}, "alpha"),
            ({"cv": -1.0}, "cv"),
            ({"sigma": 0.0}, "sigma"),
            ({"n": 0.0}, "n"),
            ({"theta_shifts": []}, "theta_shifts"),
            ({"theta_shifts": [np.nan]}, "theta_shifts"),
            ({"patterns": 100}, "patterns"),
            ({"seed": -1}, "seed"),
        ],
    )
    def test_bad_input(self, kwargs, match):
        args = {"N": 50, "alpha": 0.2, "cv": 1.0, "sigma": 1.0, "n": 1.0, "theta_shifts": [0.0]}
        args.update(kwargs)
        with pytest.raises(ValueError, match=match):
            theta_scan(**args)

    def test_bad_types(self):
        with pytest.raises(TypeError, match="N"):
            theta_scan(50.5, 0.2, 1.0, 1.0, 1.0, [0.0])
        with pytest.raises(TypeError, match="patterns"):
            theta_scan(50, 0.2, 1.0, 1.0, 1.0, [0.0], patterns=1.5)


class TestOutlierView:
    def test_is_a_one_shift_scan(self):
        v = outlier_view(0.5, 1.0, N=100, alpha=0.2, patterns=1)
        s = theta_scan(100, 0.2, 1.0, 1.0, 1.0, [0.5], patterns=1)
        assert v.theta_shifts.tolist() == [0.5]
        assert np.array_equal(v.eigenvalues, s.eigenvalues)

    def test_bad_input(self):
        # The error names outlier_view's own parameter, not theta_scan's theta_shifts.
        with pytest.raises(ValueError, match="theta_shift must"):
            outlier_view(np.inf, 1.0, N=100)


class TestOutlierPair:
    def test_reduces_to_paper_at_theta_star(self):
        # With m = 0 (θ = −mean u) the matrix is diag-like: eigenvalues b_φ − 1 (per-pattern
        # Eq. 15) and −1 (Eq. 12 at θ*).
        r = sample_patterns(2000, 1, 1.0, rng=1)[:, 0]
        theta = -float(activation_inverse(r, 1.0, 1.5).mean())
        p = outlier_pair(r, 1.0, 1.5, theta)
        assert isinstance(p, OutlierPair)
        assert p.row_sum == pytest.approx(0.0, abs=1e-12)
        assert sorted(p.eigenvalues.real) == pytest.approx([-1.0, p.slope_phi - 1.0])
        # Eq. 15 at CV = σ = 1, n = 1.5 is +0.1685 (note §2.9); one pattern of N = 2000 gives
        # the per-pattern OLS slope within sampling error.
        assert p.slope_phi - 1.0 == pytest.approx(0.1685, abs=0.07)

    def test_predicts_coupled_outlier(self):
        # Note §2.4: with θ raised so that λ_ave = +0.2 (CV = σ = n = 1, α = 0.2, N = 1000) the
        # rightmost eigenvalue is 0.27-0.28 and the 2 × 2 prediction 0.27-0.28 (paper: 0.20).
        t = theory(1.0, 1.0, 1.0)
        shift = 1.2 * t.mean_r / t.mean_d
        s = theta_scan(1000, 0.2, 1.0, 1.0, 1.0, [shift], seed=1, patterns=2)
        assert np.abs(s.pair[0, :, 0].real - s.abscissa[0]).max() < 0.03
        assert (s.abscissa[0] - s.lambda_ave_theory[0] > 0.04).all()

    def test_linear_noiseless_limit(self):
        # σ → 0, n = 1: φ = r + θ, d = 1 -> eigenvalues 0 (marginal pattern direction) and
        # −1 + m = θ + mean(u) − 1 + ... = λ_ave.
        r = np.array([0.5, 1.0, 1.5, 2.0])
        p = outlier_pair(r, 1e-4, 1.0, 0.3)
        lam_ave = -1.0 + (0.3 + r.mean()) / r.mean()
        assert sorted(p.eigenvalues.real) == pytest.approx(sorted([0.0, lam_ave]), abs=1e-9)

    @settings(max_examples=25, deadline=None)
    @given(
        seed=st.integers(0, 10_000),
        n=st.floats(0.7, 1.6),
        theta=st.floats(-2.0, 1.0),
    )
    def test_matrix_entries_are_the_fits(self, seed, n, theta):
        r = sample_patterns(200, 1, 1.0, rng=seed)[:, 0]
        p = outlier_pair(r, 1.0, n, theta)
        M = np.array(
            [
                [p.slope_phi - 1.0, p.row_sum * p.slope_d],
                [p.intercept_phi, -1.0 + p.row_sum * p.intercept_d],
            ]
        )
        assert np.allclose(p.matrix, M)
        assert np.isclose(np.sum(p.eigenvalues).real, np.trace(M))
        assert p.eigenvalues[0].real >= p.eigenvalues[1].real

    @pytest.mark.parametrize(
        ("r", "sigma", "n", "theta", "exc", "match"),
        [
            ([1.0, 2.0], 1.0, 1.0, 0.0, ValueError, "r must have"),
            ([[1.0, 2.0, 3.0]], 1.0, 1.0, 0.0, ValueError, "r must have"),
            ([1.0, -2.0, 3.0], 1.0, 1.0, 0.0, ValueError, "r must contain"),
            ([1.0, 1.0, 1.0], 1.0, 1.0, 0.0, ValueError, "constant"),
            ([1.0, 2.0, 3.0], 0.0, 1.0, 0.0, ValueError, "sigma"),
            ([1.0, 2.0, 3.0], 1.0, -1.0, 0.0, ValueError, "n"),
            ([1.0, 2.0, 3.0], 1.0, 1.0, np.nan, ValueError, "theta"),
            (["a", "b", "c"], 1.0, 1.0, 0.0, TypeError, "r"),
        ],
    )
    def test_bad_input(self, r, sigma, n, theta, exc, match):
        with pytest.raises(exc, match=match):
            outlier_pair(r, sigma, n, theta)

    def test_overflowing_rates_are_refused_by_name(self):
        # r = 1e300: φ = d (g⁻¹(r) + θ) ~ r² overflows, and the 2 × 2 matrix used to reach
        # numpy.linalg.eigvals as NaN (LinAlgError "Array must not contain infs or NaNs").
        with pytest.raises(ValueError, match="r holds rates too large"):
            outlier_pair([1e300, 1.0, 1.5, 2.0], 1.0, 1.0, 0.25)


class TestThresholdWindow:
    def test_theta_star_rows_of_the_note(self):
        # Note §2.9: θ*_bulk = −0.9271 (n = 1), −0.8911 (n = 1.25), −0.8815 (n = 1.5), CV = σ = 1.
        w = threshold_window(1.0, 1.0, [1.0, 1.25, 1.5])
        assert isinstance(w, ThresholdWindow)
        assert w.theta_star == pytest.approx([-0.9271, -0.8911, -0.8815], abs=1e-3)
        # λ_mem(θ*) > 0 for n >= 1.25, so θ* is outside the window there (note §2.9).
        assert w.star_allowed.tolist() == [True, False, False]
        assert w.lambda_mem_star == pytest.approx([-0.0453, 0.0707, 0.1685], abs=1e-3)

    def test_bounds_are_zero_crossings(self):
        # Eq. 17 is λ_ave = 0 and the corrected Eq. 18 is λ_mem = 0 (note §2.5).
        w = threshold_window(1.0, 1.0, [0.9, 1.0, 1.5])
        for n, a, m in zip(w.n, w.ave_bound, w.mem_bound, strict=True):
            assert theory(1.0, 1.0, float(n), float(a)).lambda_ave == pytest.approx(0.0, abs=1e-10)
            assert theory(1.0, 1.0, float(n), float(m)).lambda_mem == pytest.approx(0.0, abs=1e-10)

    def test_theta_star_satisfies_eq17(self):
        # C7: θ*_bulk always satisfies Eq. 17 (λ_ave(θ*) = −1).
        w = threshold_window(2.0, 0.5, np.linspace(0.6, 2.0, 15))
        assert (w.theta_star < w.ave_bound).all()
        assert (w.hi <= w.ave_bound + 1e-12).all()

    def test_window_matches_theta_bounds(self):
        w = threshold_window(1.0, 1.0, [0.6, 1.0])
        for i, n in enumerate(w.n):
            lo, hi = theory(1.0, 1.0, float(n)).theta_bounds()
            assert (w.lo[i], w.hi[i]) == (lo, hi)
        # For sublinear n, Cov(r, d) < 0: Eq. 18 becomes a lower bound.
        assert not w.mem_upper[0] and w.mem_upper[1]

    def test_hard_rectified_linear_unit_has_no_nan_bound(self):
        # σ = 0, n = 1: d ≡ 1 so Cov(r, d) = 0 and λ_mem = c_rφ/c_rr − 1 = 0 for every θ
        # (homogeneity: r → c r maps fixed points to fixed points). λ_mem < 0 never holds, so
        # no θ is allowed: the bound is −inf (it used to be NaN), as theta_bounds() says.
        w = threshold_window(1.0, 0.0, [1.0, 1.5])
        assert w.mem_bound[0] == -math.inf and w.mem_upper[0]
        assert theory(1.0, 0.0, 1.0).theta_bounds() == (math.inf, -math.inf)
        assert not np.isnan(w.mem_bound).any()

    @pytest.mark.parametrize(
        ("args", "match"),
        [
            ((0.0, 1.0, [1.0]), "cv"),
            ((1.0, -1.0, [1.0]), "sigma"),
            ((1.0, 1.0, []), "n_grid"),
            ((1.0, 1.0, [1.0, -1.0]), "n_grid"),
            ((1.0, 1.0, [[1.0], [2.0]]), "n_grid"),
        ],
    )
    def test_bad_input(self, args, match):
        with pytest.raises(ValueError, match=match):
            threshold_window(*args)
