"""Tests for assocmem.attractor.ensemble: the paired Gaussian ensemble (Eqs. 21-23, Fig. 7), its
mapping onto the network (note §2.3) and the low-rank reduction of the Jacobian (Eq. 9).

T1 (disc support of ``paired_ensemble_spectrum``), T2 (Eq. 23 against Eq. 22) and T3 (full
against low-rank spectra of ``jacobian_spectrum``) are tested in test_attractor_meanfield.py and
test_attractor_network.py; the tests here cover the functions of ensemble.py built on them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.attractor.ensemble import (
    EnsembleGrid,
    EnsembleView,
    FiniteSizeEdge,
    ReductionCheck,
    ensemble_grid,
    ensemble_view,
    finite_size_edge,
    network_ensemble,
    reduction_check,
    surrogate_view,
)
from assocmem.attractor.meanfield import ensemble_alpha_s, ensemble_disc, theory
from assocmem.attractor.network import (
    paired_ensemble_spectrum,
    pinv_weights,
    zero_diag_weights,
)
from assocmem.attractor.rates import sample_patterns


def _sorted(z: np.ndarray) -> np.ndarray:
    return z[np.lexsort((np.round(z.imag, 8), np.round(z.real, 8)))]


class TestEnsembleView:
    @pytest.mark.parametrize(
        ("rho", "ratio", "c"),
        [(0.0, 0.5, 1.0), (0.5, 0.5, 0.0), (0.9, 2.0, 1.5), (-0.7, 0.3, -1.0)],
    )
    def test_affine_map_equals_direct_draw(self, rho, ratio, c):
        # note §2.2: Y†X = ρ(σ_x/σ_y) I + (σ_x/σ_y)√(1−ρ²) Y†E, so the cached ρ = 0 draw mapped
        # affinely is the direct draw of paired_ensemble_spectrum with the same seed (rounding).
        v = ensemble_view(200, 0.3, rho, sigma_ratio=ratio, c=c, seed=5)
        direct = paired_ensemble_spectrum(200, 0.3, ratio, 1.0, rho, rng=5) - c
        np.testing.assert_allclose(_sorted(v.eigenvalues), _sorted(direct), atol=1e-10)

    @pytest.mark.parametrize("rho", [0.0, 0.5, 0.9])
    @pytest.mark.parametrize("c", [0.0, 1.0])
    def test_centre_of_eq21_at_finite_N(self, rho, c):
        # Eq. 21 centre −c + ρσ_x/σ_y; note §3.4 T1 tolerance ±0.01 at N = 500 (worst over 10
        # seeds 0.0052), here with the shift c and the view's own disc.
        v = ensemble_view(500, 0.5, rho, sigma_ratio=0.5, c=c, seed=11)
        assert v.disc.center == pytest.approx(-c + 0.5 * rho)
        assert abs(v.center_measured - v.disc.center) < 0.01
        assert abs(v.max_real - v.disc.lambda_plus) < 0.2 * v.disc.radius
        assert v.max_distance < 1.2 * v.disc.radius

    def test_fields_match_the_theory_functions(self):
        v = ensemble_view(300, 0.4, 0.3, sigma_ratio=0.8, c=1.2, seed=2)
        assert isinstance(v, EnsembleView)
        assert (v.N, v.P, v.n_trivial, v.seed, v.kind) == (300, 120, 180, 2, "gaussian")
        assert v.alpha == pytest.approx(0.4) and v.eigenvalues.shape == (120,)
        d = ensemble_disc(0.4, 0.8, 1.0, 0.3, 1.2)
        assert (v.disc.center, v.disc.radius) == pytest.approx((d.center, d.radius))
        assert v.alpha_s == pytest.approx(ensemble_alpha_s(0.8, 1.0, 0.3, 1.2))
        # the trivial eigenvalues at −c enter the abscissa when they are the rightmost
        assert v.abscissa == max(v.max_real, -1.2)

    def test_perfect_correlation_collapses_to_a_point(self):
        # ρ = 1: X = (σ_x/σ_y) Y, every eigenvalue is −c + σ_x/σ_y and the radius is 0.
        v = ensemble_view(80, 0.25, 1.0, sigma_ratio=2.0, c=0.5)
        np.testing.assert_allclose(v.eigenvalues, 1.5, atol=1e-9)
        assert v.disc.radius == 0.0

    def test_stability_transition_at_eq23(self):
        # Eq. 23 for σ_x/σ_y = 0.5, c = 1, ρ = 0: α_S = 0.8. λ₊ = −0.236 at α = 0.7 and +0.5 at
        # 0.9, beyond the finite-N edge scatter of 0.2ρ (note §3.4 T1: 0.15 and 0.3 here).
        below = ensemble_view(500, 0.7, 0.0, seed=3)
        above = ensemble_view(500, 0.9, 0.0, seed=3)
        assert below.alpha_s == pytest.approx(0.8)
        assert below.abscissa < 0 < above.abscissa

    def test_repeated_calls_are_identical_and_the_cache_is_protected(self):
        a = ensemble_view(100, 0.3, 0.2, seed=9)
        a.eigenvalues[:] = 0.0  # mutating one result must not leak into the cache
        b = ensemble_view(100, 0.3, 0.2, seed=9)
        c = ensemble_view(100, 0.3, 0.2, seed=9)
        assert not np.allclose(b.eigenvalues, 0.0)
        np.testing.assert_array_equal(b.eigenvalues, c.eigenvalues)

    @pytest.mark.parametrize(
        ("kwargs", "param"),
        [
            ({"N": 1}, "N"),
            ({"alpha": 0.0}, "alpha"),
            ({"alpha": 1.0}, "alpha"),
            ({"alpha": math.nan}, "alpha"),
            ({"N": 10, "alpha": 0.01}, "alpha"),
            ({"N": 10, "alpha": 0.97}, "alpha"),
            ({"rho_xy": 1.5}, "rho_xy"),
            ({"sigma_ratio": 0.0}, "sigma_ratio"),
            ({"sigma_ratio": -1.0}, "sigma_ratio"),
            ({"c": math.inf}, "c"),
            ({"seed": -1}, "seed"),
        ],
    )
    def test_bad_input(self, kwargs, param):
        args = {"N": 100, "alpha": 0.3, "rho_xy": 0.0, **kwargs}
        with pytest.raises(ValueError, match=rf"^{param} must"):
            ensemble_view(**args)

    @pytest.mark.parametrize(("kwargs", "param"), [({"N": 10.5}, "N"), ({"seed": 0.5}, "seed")])
    def test_non_integer_input(self, kwargs, param):
        with pytest.raises(TypeError, match=rf"^{param} must"):
            ensemble_view(**{"N": 100, "alpha": 0.3, "rho_xy": 0.0, **kwargs})


@pytest.fixture(scope="module")
def fig7():
    return ensemble_grid((0.2, 0.5, 0.8), (0.0, 0.5, 0.9), N=500, seed=1)


@pytest.fixture(scope="module")
def th():
    return theory(1.0, 1.0, 1.0)


@pytest.fixture(scope="module")
def net():
    return pinv_weights(sample_patterns(200, 50, 1.0, rng=3), 1.0, 1.0)


class TestEnsembleGrid:
    def test_layout_and_independent_draws(self, fig7):
        assert isinstance(fig7, EnsembleGrid)
        assert fig7.alphas == (0.2, 0.5, 0.8) and fig7.rhos == (0.0, 0.5, 0.9)
        assert [v.P for v in fig7.views[2]] == [400, 400, 400]
        assert [v.seed for row in fig7.views for v in row] == list(range(1, 10))
        # independent draws: the normalised clouds of a row differ (a shared draw would not)
        z = [(v.eigenvalues - v.disc.center) / v.disc.radius for v in fig7.views[0]]
        assert not np.allclose(np.sort(np.abs(z[0])), np.sort(np.abs(z[1])))
        # Fig. 7 is M = X Y† with σ_x = 1, σ_y = 2 (c = 0)
        assert fig7.views[1][1].disc.center == pytest.approx(0.25)

    def test_note_table_tolerances(self, fig7):
        # note §3.3 table (N = 500, σ_x = 1, σ_y = 2) with the T1 tolerances: centre ±0.01, max
        # Re λ − centre within 20 % of ρ, max|λ − centre| < 1.2ρ; α = 0.8 included (the note
        # measured up to 1.093ρ there, the finite-N edge).
        rows = fig7.rows()
        assert len(rows) == 9 and set(rows[0]) == {
            "alpha",
            "rho_xy",
            "radius",
            "center_error",
            "edge",
            "max_distance",
        }
        for r in rows:
            assert abs(r["center_error"]) < 0.01
            assert abs(r["edge"] / r["radius"] - 1) < 0.2
            assert r["max_distance"] < 1.2 * r["radius"]

    @pytest.mark.parametrize(
        ("kwargs", "err", "param"),
        [
            ({"alphas": ()}, ValueError, "alphas"),
            ({"rhos": []}, ValueError, "rhos"),
            # the message names the caller's parameter (alphas, rhos), not _view's
            ({"alphas": (0.2, 1.2)}, ValueError, "alphas"),
            ({"rhos": (2.0,)}, ValueError, "rhos"),
            ({"sigma_y": 0.0}, ValueError, "sigma_y"),
            ({"alphas": ("a",)}, TypeError, "alphas"),
            ({"seed": -2}, ValueError, "seed"),
        ],
    )
    def test_bad_input(self, kwargs, err, param):
        args = {"alphas": (0.2,), "rhos": (0.0,), "N": 50, **kwargs}
        with pytest.raises(err, match=rf"^{param} must"):
            ensemble_grid(**args)


class TestFiniteSizeEdge:
    def test_overshoot_above_one_and_shrinking(self):
        # At α = 0.2 the farthest eigenvalue lies outside the Eq. 21 circle at finite N, on
        # average by 12 % at N = 125 and 4 % at N = 1000 (8 seeds); its mean must fall with N.
        e = finite_size_edge([100, 800], seeds=6)
        assert isinstance(e, FiniteSizeEdge) and e.N.tolist() == [100, 800]
        assert np.all(e.mean_distance > 1.0) and np.all(e.max_distance >= e.mean_distance)
        assert e.mean_distance[1] < e.mean_distance[0]
        assert np.all(e.edge_min <= e.edge_max) and np.all(np.abs(e.edge_max - 1) < 0.3)

    @pytest.mark.parametrize(
        ("kwargs", "err", "param"),
        [
            ({"N_values": []}, ValueError, "N_values"),
            ({"N_values": 5}, ValueError, "N_values"),
            ({"N_values": [1]}, ValueError, "N_values"),
            ({"N_values": [50.5]}, TypeError, "N_values"),
            ({"rho_xy": 1.0}, ValueError, "rho_xy"),
            ({"seeds": 0}, ValueError, "seeds"),
        ],
    )
    def test_bad_input(self, kwargs, err, param):
        with pytest.raises(err, match=rf"^{param} must"):
            finite_size_edge(**{"N_values": [50], **kwargs})


class TestNetworkEnsemble:
    @given(
        cv=st.floats(0.3, 3.0),
        sigma=st.floats(0.3, 3.0),
        n=st.floats(0.9, 1.3),
        alpha=st.floats(0.0, 0.9),
    )
    @settings(max_examples=40, deadline=None)
    def test_eqs_10_11_from_eqs_21_23(self, cv, sigma, n, alpha):
        # note §2.3: σ_x² = c_ff, σ_y² = c_rr, ρ = c_rf/√(c_rr c_ff), c = 1 turn Eq. 21's centre
        # into −1 + c_rf/c_rr, Eq. 22's λ₊ into Eq. 10 and Eq. 23 into Eq. 11 (algebra).
        th = theory(cv, sigma, n)
        e = network_ensemble(th, alpha)
        assert e.c == 1.0 and e.center == pytest.approx(th.center, abs=1e-12)
        assert e.lambda_plus == pytest.approx(float(th.bulk_edge(alpha)), abs=1e-10)
        if not th.guarded:
            a_s = ensemble_alpha_s(e.sigma_x, e.sigma_y, e.rho_xy, e.c)
            assert a_s == pytest.approx(th.alpha_s_bulk, abs=1e-10)

    def test_reference_values(self):
        # note §2.9, CV = σ = n = 1: c_rr = 1, c_rf = 0.8634, c_ff = 0.7886, α_S^bulk = 0.3017.
        e = network_ensemble(theory(1.0, 1.0, 1.0), 0.3)
        assert (e.sigma_x**2, e.sigma_y**2) == pytest.approx((0.7886, 1.0), abs=1e-4)
        assert e.rho_xy * e.sigma_x * e.sigma_y == pytest.approx(0.8634, abs=1e-4)
        assert ensemble_alpha_s(e.sigma_x, e.sigma_y, e.rho_xy) == pytest.approx(0.3017, abs=1e-4)

    def test_bad_alpha(self):
        with pytest.raises(ValueError, match=r"^alpha must"):
            network_ensemble(theory(1.0, 1.0, 1.0), 1.0)


class TestSurrogateView:
    @pytest.mark.parametrize("kind", ["lognormal", "gaussian"])
    def test_edge_is_universal(self, th, kind):
        # note §3.3 universality (N = 2000: −0.033 lognormal, −0.035 Gaussian against Eq. 10's
        # −0.0327); at N = 1000 six seeds scattered by ≤ 0.013, so 0.02 (20 % of the radius).
        v = surrogate_view(th, 1000, 0.2, kind=kind, seed=0)
        assert v.kind == kind and v.P == 200 and v.n_trivial == 800
        assert abs(v.max_real - float(th.bulk_edge(0.2))) < 0.02
        assert abs(v.center_measured - th.center) < 0.02
        assert v.disc.lambda_plus == pytest.approx(float(th.bulk_edge(0.2)), abs=1e-12)

    def test_gaussian_is_the_mapped_ensemble(self, th):
        v = surrogate_view(th, 200, 0.3, kind="gaussian", seed=4)
        e = network_ensemble(th, 0.3)
        direct = paired_ensemble_spectrum(200, 0.3, e.sigma_x, e.sigma_y, e.rho_xy, rng=4) - 1
        np.testing.assert_allclose(_sorted(v.eigenvalues), _sorted(direct), atol=1e-10)

    def test_bad_input(self, th):
        with pytest.raises(TypeError, match=r"^theory must"):
            surrogate_view(object(), 100, 0.2)
        with pytest.raises(ValueError, match=r"^kind must"):
            surrogate_view(th, 100, 0.2, kind="uniform")
        with pytest.raises(ValueError, match=r"^alpha must"):
            surrogate_view(th, 100, 1.0)


class TestReductionCheck:
    def test_counts_and_agreement(self, net):
        # note §1.6: N − P eigenvalues exactly −1 (tolerance 1e-8 as in T3), the rest
        # eig(K_μ) − 1 to rounding.
        chk = reduction_check(net, pattern=2)
        assert isinstance(chk, ReductionCheck)
        assert (chk.N, chk.P, chk.pattern, chk.n_trivial) == (200, 50, 2, 150)
        assert chk.full.shape == (200,) and chk.lowrank.shape == (50,)
        assert chk.n_at_minus_one >= 150 and chk.max_difference < 1e-10
        assert chk.abscissa_full == pytest.approx(chk.abscissa_lowrank, abs=1e-10)

    def test_bad_input(self, net):
        with pytest.raises(TypeError, match=r"^net must"):
            reduction_check(net.W)
        zd = zero_diag_weights(net.R, 1.0, 1.0)
        with pytest.raises(ValueError, match=r"^net must"):
            reduction_check(zd)
        with pytest.raises(ValueError, match=r"^tol must"):
            reduction_check(net, tol=0.0)
        with pytest.raises(ValueError, match=r"^pattern must"):  # the caller's name
            reduction_check(net, pattern=50)


class TestBadInputEdges:
    """Issue 9: result objects are type-checked; huge shifts give no NaN."""

    def test_network_ensemble_refuses_none(self):
        # network_ensemble(None, 0.3) raised AttributeError.
        with pytest.raises(TypeError, match=r"^theory must be a StabilityTheory"):
            network_ensemble(None, 0.3)

    def test_ensemble_view_with_a_huge_shift(self):
        # c = 1e300 moves the disc far left: α_S of Eq. 23 is 1 (was inf/inf = NaN).
        v = ensemble_view(20, 0.3, 0.2, c=1e300)
        assert v.alpha_s == 1.0
        assert np.all(np.isfinite(v.eigenvalues))
