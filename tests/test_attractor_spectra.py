"""Tests for assocmem.attractor.spectra: the bulk of J_μ against Eqs. 10-15 (note §3.3)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from assocmem import attractor as at
from assocmem.attractor import spectra


class TestSpectrumView:
    def test_low_rank_structure(self):
        # Note §1.6: N − P eigenvalues exactly −1 are counted, the other P are returned.
        v = at.spectrum_view(N=300, alpha=0.3, patterns=3)
        assert v.P == 90 and v.n_trivial == 210 and v.eigenvalues.shape == (3, 90)
        assert v.alpha == pytest.approx(0.3)
        assert np.all(v.abscissa >= v.eigenvalues.real.max(axis=1))
        assert np.all(v.bulk_edge <= v.abscissa)
        assert v.lambda_bulk == pytest.approx(v.theory.bulk_edge(0.3))

    def test_equals_the_network_jacobian_spectrum(self):
        # Same R, θ*, Eq. 8 weights: the cached path must give at.jacobian_spectrum's eigenvalues.
        v = at.spectrum_view(
            N=200, alpha=0.25, cv=2.0, sigma=0.7, n=1.2, theta_shift=0.3, seed=3, patterns=2
        )
        R = at.sample_patterns(200, 50, 2.0, rng=3)
        net = at.pinv_weights(R, 0.7, 1.2, theta=v.theta)
        spec = at.jacobian_spectrum(net, [0, 1], eigenvectors=True)
        assert np.allclose(np.sort_complex(v.eigenvalues), np.sort_complex(spec.eigenvalues))
        assert np.allclose(v.bulk_edge, spec.bulk_edge) and np.allclose(v.mem_corr, spec.mem_corr)
        assert v.theta == pytest.approx(-float(np.mean(at.activation_inverse(R, 0.7, 1.2))) + 0.3)

    @pytest.mark.parametrize("cv", [0.5, 1.0, 2.0])
    def test_bulk_centre_matches_theory(self, cv):
        # Note §3.4 T7: mean of the P eigenvalues within 0.03 of −1 + c_rf/c_rr (N = 1000, α = 0.3).
        v = at.spectrum_view(N=1000, alpha=0.3, cv=cv)
        assert abs(v.bulk_mean[0] - v.theory.center) < 0.03

    def test_inset_fit_matches_eqs_14_15(self):
        # One pattern's corrcoef(r, φ) and slope − 1 estimate the population τ_mem and λ_mem
        # (note §2.9 row CV = σ = n = 1: τ_mem = 0.9943, λ_mem = −0.0453); N = 1000 sampling
        # error of the slope is ~0.01.
        v = at.spectrum_view(N=1000, alpha=0.2)
        assert v.tau_mem == pytest.approx(0.9943, abs=0.005)
        assert v.slope - 1 == pytest.approx(-0.0453, abs=0.03)
        assert np.allclose(
            v.phi, at.gain(v.r, 1.0, 1.0) * (at.activation_inverse(v.r, 1.0, 1.0) + v.theta)
        )
        assert np.allclose(np.polyfit(v.r, v.phi, 1), [v.slope, v.intercept])

    def test_threshold_moves_the_disc_but_not_the_cloud(self):
        # Pitfall 6 / note §2.5: θ is rank one in K_μ, so the measured edge moves by < 1e-4 here
        # (λ_ave stays inside the cloud's left part), while Eq. 10 moves by 0.012 through c_ff.
        views = [at.spectrum_view(N=600, alpha=0.25, theta_shift=s) for s in (-0.5, 0.0, 0.5)]
        assert np.ptp([v.bulk_edge[0] for v in views]) < 1e-3
        assert np.ptp([v.lambda_bulk for v in views]) > 0.01

    def test_cache_returns_identical_arrays(self):
        spectra._patterns_and_pinv.cache_clear()
        a = at.spectrum_view(N=150, alpha=0.2, cv=1.5, seed=4)
        b = at.spectrum_view(N=150, alpha=0.2, cv=1.5, seed=4, sigma=2.0)
        c = at.spectrum_view(N=150, alpha=0.2, cv=1.5, seed=4)
        info = spectra._patterns_and_pinv.cache_info()
        assert info.misses == 1 and info.hits == 2
        assert np.array_equal(a.eigenvalues, c.eigenvalues) and np.array_equal(a.r, b.r)
        R, _ = spectra._patterns_and_pinv(150, 30, 1.5, 4)
        assert not R.flags.writeable

    @pytest.mark.parametrize(
        ("sigma", "n", "shift", "alpha", "cv"),
        list(itertools.product((0.05, 10.0), (0.5, 2.0), (-1.5, 1.5), (0.05, 0.5), (0.5, 3.0))),
    )
    def test_widget_domain_corners_are_finite(self, sigma, n, shift, alpha, cv):
        # Every corner of the Explore cell's ranges gives a finite spectrum and theory.
        v = at.spectrum_view(N=250, alpha=alpha, cv=cv, sigma=sigma, n=n, theta_shift=shift)
        assert np.all(np.isfinite(v.eigenvalues)) and np.isfinite(v.lambda_bulk)
        assert np.isfinite(v.theory.lambda_mem) and np.isfinite(v.tau_mem)

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            ({"N": 5}, "N"),
            ({"alpha": 1.2}, "alpha"),
            ({"alpha": 0.001}, "alpha"),
            ({"cv": 0.0}, "cv"),
            ({"sigma": -1.0}, "sigma"),
            ({"n": 0.0}, "n"),
            ({"theta_shift": float("inf")}, "theta_shift"),
            ({"seed": -1}, "seed"),
            ({"patterns": 0}, "patterns"),
            ({"patterns": 1000}, "patterns"),
            ({"gain_mode": "median"}, "gain_mode"),
        ],
    )
    def test_bad_input(self, kwargs, match):
        with pytest.raises(ValueError, match=match):
            at.spectrum_view(**{"N": 100, **kwargs})

    def test_non_integer_seed(self):
        with pytest.raises(TypeError, match="seed"):
            at.spectrum_view(N=100, seed=1.5)


class TestGainSwap:
    def test_mean_gain_collapses_and_shuffled_gain_keeps_the_edge(self):
        # Note §3.3 (N = 2000, α = 0.2): ⟨d⟩I shrinks the cloud to radius ~0.03, shuffled gains
        # leave the edge unchanged. At N = 1000 the 90 % radius is 0.033 and the edge moves by
        # < 0.005 (3 seeds); the bounds 0.06 and 0.03 leave room for seed scatter.
        sw = at.gain_swap(N=1000, alpha=0.2, patterns=2)
        pat, mean, shuf = (sw.view(m) for m in ("pattern", "mean", "shuffled"))
        assert sw.modes == at.GAIN_MODES
        assert np.all(mean.bulk_radius < 0.06) and np.all(pat.bulk_radius > 0.1)
        assert abs(shuf.bulk_edge.mean() - pat.bulk_edge.mean()) < 0.03
        # The centre is the same in all three modes (T7 tolerance).
        assert np.allclose(
            [pat.bulk_mean, mean.bulk_mean, shuf.bulk_mean], pat.theory.center, atol=0.03
        )


class TestBulkEdgeTable:
    def test_cv1_rows_within_documented_deviation(self):
        # Note §3.4 T9 (N = 1000, CV = σ = n = 1): −0.03 < edge − λ_bulk < +0.06; measured
        # +0.034, +0.025, −0.014 in note §3.3 (+0.042, +0.021, −0.014 here).
        rows = at.bulk_edge_table([(1, 1, 1, a) for a in (0.1, 0.3, 0.5)], N=1000, patterns=4)
        assert [r.alpha for r in rows] == [0.1, 0.3, 0.5]
        for r in rows:
            assert -0.03 < r.diff < 0.06
            assert r.diff == pytest.approx(r.edge_mean - r.lambda_bulk)
            assert abs(r.bulk_mean - r.center) < 0.03

    def test_high_cv_edge_is_far_right_of_eq10(self):
        # Note §3.3: CV = 3, α = 0.1 gives +0.202; CV = 2 gives +0.123 (N = 1000, 4 patterns).
        (r3,) = at.bulk_edge_table([(3, 1, 1, 0.1)], N=1000, patterns=4)
        assert 0.1 < r3.diff < 0.3
        assert r3.mem_corr > 0.9  # λ_mem is a clean outlier here (note §3.3)

    def test_bad_rows(self):
        with pytest.raises(ValueError, match="rows"):
            at.bulk_edge_table([])
        with pytest.raises(ValueError, match="rows"):
            at.bulk_edge_table([(1, 1, 1)])


class TestEdgeDeviations:
    def test_histograms_and_growth_with_cv(self):
        # Fig. 2c / note §3.3: the deviation grows with CV (+0.01 at CV 0.5, +0.2 at CV 3).
        dev = at.edge_deviations(
            cvs=(0.5, 3.0), alphas=(0.1, 0.2), N=400, patterns=2, seeds=1, bins=10
        )
        assert dev.diffs.shape == (2, 4) and dev.density.shape == (2, 10)
        widths = np.diff(dev.edges)
        assert np.allclose(dev.density @ widths, 1.0)
        assert dev.mean[1] > dev.mean[0] + 0.05

    @pytest.mark.parametrize(
        ("kwargs", "match"),
        [
            ({"cvs": ()}, "cvs"),
            ({"cvs": (-1.0,)}, "cvs"),
            ({"alphas": (1.5,)}, "alphas"),
            ({"bins": 1}, "bins"),
            ({"seeds": 0}, "seeds"),
        ],
    )
    def test_bad_input(self, kwargs, match):
        with pytest.raises(ValueError, match=match):
            at.edge_deviations(**{"alphas": (0.2,), "N": 50, **kwargs})
