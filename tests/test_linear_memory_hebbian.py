"""Tests for assocmem.linear_memory.hebbian (Thm D.1, the Gaussian model, Hebbian simulations).

Reference values come from the paper (App. D, eq. numbers) and the chapter note
shared/notes/01-factual-recall.md (§2.6 tables, C10-C12). The score moments of eq. (D.3) (C11)
and the all-correct check at d = 200 (C12) are tested in test_linear_memory_problem.py
(TestHebbianWeights) and not repeated here. Statistical checks use fixed seeds; their
tolerances are stated in standard errors (s.e.).
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from cases import BAD_P_D
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import quad
from scipy.special import lambertw
from scipy.stats import norm

from assocmem.linear_memory import hebbian as hb
from assocmem.linear_memory.capacity import p_at_load
from assocmem.linear_memory.problem import accuracy, hebbian_weights, sample_problem, scores
from assocmem.linear_memory.sweep import accuracy_sweep

ALPHAS = st.floats(min_value=1e-3, max_value=5.0, allow_nan=False)


def _closed_form(alpha: float) -> float:
    """inf_x J_α from the proof of Thm D.1 (App. D, cases 1-3)."""
    if alpha <= 0.125:
        return 1.0 / (4.0 * alpha) - 1.0
    if alpha <= 0.5:
        return (1.0 - math.sqrt(2.0 * alpha)) ** 2 / (2.0 * alpha)
    return 0.0


class TestHebbianRateFunction:
    @settings(max_examples=50, deadline=None)
    @given(alpha=ALPHAS)
    def test_continuous_at_the_junction(self, alpha):
        # App. D: both regions give (1 − √(2α))²/(2α) at x = √(2α).
        k = math.sqrt(2.0 * alpha)
        left, right = hb.hebbian_rate_function(np.array([k, k + 1e-12]), alpha)
        assert right == pytest.approx(left, abs=1e-9 / alpha)
        assert left == pytest.approx((1.0 - k) ** 2 / (2.0 * alpha), rel=1e-12, abs=1e-15)

    @settings(max_examples=50, deadline=None)
    @given(alpha=ALPHAS, x=st.floats(-3, 3), y=st.floats(-3, 3))
    def test_convex(self, alpha, x, y):
        # The slope jumps up by x/α at the junction, so J_α is convex (our remark).
        j = hb.hebbian_rate_function(np.array([x, y, 0.5 * (x + y)]), alpha)
        assert j[2] <= 0.5 * (j[0] + j[1]) + 1e-9 * (1.0 + abs(j[0]) + abs(j[1]))

    def test_branches(self):
        # eq. (D.7): region 1 (x <= √(2α)) and region 2; α = 0.08, √(2α) = 0.4.
        alpha = 0.08
        assert hb.hebbian_rate_function(0.2, alpha) == pytest.approx(0.64 / 0.16)
        assert hb.hebbian_rate_function(0.5, alpha) == pytest.approx(0.5 / 0.16 - 1.0)
        assert hb.hebbian_rate_function(-1.0, alpha) == pytest.approx(4.0 / 0.16)  # x < 0: region 1
        assert isinstance(hb.hebbian_rate_function(0.3, alpha), float)

    @pytest.mark.parametrize("alpha", [0.0, -0.1, math.nan, math.inf])
    def test_bad_alpha(self, alpha):
        with pytest.raises(ValueError, match="alpha"):
            hb.hebbian_rate_function(0.5, alpha)

    def test_bad_x(self):
        with pytest.raises(ValueError, match="x must be finite"):
            hb.hebbian_rate_function([0.5, math.nan], 0.1)
        with pytest.raises(TypeError, match="x must hold real numbers"):
            hb.hebbian_rate_function(["a"], 0.1)

    def test_huge_load_converges_to_zero(self):
        # issue 9: α = 1e300 stalled the bounded search of branch 1 (ConvergenceWarning after
        # 500 evaluations on [0, √(2α)]); inf J_α = 0 for α >= 1/2 (Thm D.1), x* = 1
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert hb.hebbian_rate(1e300) == 0.0
            assert hb._minimise_rate(1e20) == (1.0, 0.0)

    def test_huge_x_is_infinite_not_a_warning(self):
        # J_α(1e300) = (2x² - 2x + 1)/(2α) - 1 exceeds the float range: +inf, no overflow warning
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert hb.hebbian_rate_function(1e300, 0.3) == math.inf


class TestHebbianRate:
    def test_threshold_one_eighth_c10(self):
        # C10 (Thm D.1, exact): inf J_{1/8} = 1, where both branches meet at x* = 1/2; the sign
        # of 1 − inf J changes at 1/8. Numerical minimisation: 1e-9 is far below the tolerance
        # of the bounded Brent search at the minimum of a quadratic.
        assert hb.hebbian_rate(0.125) == pytest.approx(1.0, abs=1e-9)
        assert 1.0 - hb.hebbian_rate(0.125 - 1e-4) < 0.0 < 1.0 - hb.hebbian_rate(0.125 + 1e-4)

    @pytest.mark.parametrize(
        "alpha", [0.01, 0.05, 0.1, 0.124, 0.125, 0.126, 0.2, 0.3, 0.45, 0.5, 0.51, 1.0, 3.0]
    )
    def test_matches_closed_form(self, alpha):
        # Proof of Thm D.1, three regimes (1/(4α) − 1; (1 − √(2α))²/(2α); 0). The minimiser may
        # sit at the kink, where the bounded search locates x to ~1e-8 relative and J to
        # slope × that, below 1e-7.
        assert hb.hebbian_rate(alpha) == pytest.approx(_closed_form(alpha), abs=1e-7)

    @settings(max_examples=40, deadline=None)
    @given(alpha=ALPHAS)
    def test_closed_form_everywhere(self, alpha):
        assert hb.hebbian_rate(alpha) == pytest.approx(_closed_form(alpha), abs=1e-7, rel=1e-8)

    def test_decreasing(self):
        rates = [hb.hebbian_rate(a) for a in np.linspace(0.02, 0.6, 30)]
        assert np.all(np.diff(rates) <= 1e-12)

    @pytest.mark.parametrize("alpha", [0.0, -1.0, math.nan, math.inf, "0.1"])
    def test_bad_input(self, alpha):
        with pytest.raises((ValueError, TypeError), match="alpha"):
            hb.hebbian_rate(alpha)


class TestHebbianRateCurve:
    def test_fields(self):
        c = hb.hebbian_rate_curve(1e6, n=9)
        assert 0.125 in c.alpha and 0.5 in c.alpha and np.all(np.diff(c.alpha) > 0)
        np.testing.assert_allclose(c.inf_J, [_closed_form(a) for a in c.alpha], atol=1e-7)
        np.testing.assert_allclose(c.expected_errors, 1e6 ** (1.0 - c.inf_J), rtol=1e-12)
        np.testing.assert_allclose(c.error_fraction, c.expected_errors / 1e6, rtol=1e-12)
        # x* = 1/2, √(2α) and 1 in the three regimes (App. D).
        want = np.where(c.alpha <= 0.125, 0.5, np.minimum(np.sqrt(2 * c.alpha), 1.0))
        np.testing.assert_allclose(c.x_star, want, atol=1e-6)
        assert c.model_threshold == pytest.approx(hb.hebbian_threshold_at_p(1e6), abs=1e-9)
        np.testing.assert_allclose(c.model_all_correct, (1 - c.model_error) ** 1e6, rtol=1e-9)

    def test_finite_p_model_approaches_the_rate(self):
        # log(p P[E^c]) / log p → 1 − inf J (eq. (D.7)), slowly: at α = 1/8 the exponent is
        # −0.41, −0.23, −0.13 at p = 10³, 10⁶, 10¹² (our quadrature), each closer to 0.
        gaps = []
        for p in (1e3, 1e6, 1e12, 1e30):
            c = hb.hebbian_rate_curve(p, alpha_min=0.1, alpha_max=0.2, n=2)
            i = int(np.flatnonzero(c.alpha == 0.125)[0])
            gaps.append(abs(math.log(c.model_expected_errors[i]) / math.log(p)))
        assert gaps[0] == pytest.approx(0.415, abs=0.01)
        assert all(b < a for a, b in itertools.pairwise(gaps))

    def test_bad_input(self):
        with pytest.raises(ValueError, match="p must be a finite number >= 2"):
            hb.hebbian_rate_curve(1.5)
        with pytest.raises(ValueError, match="alpha_max must be > alpha_min"):
            hb.hebbian_rate_curve(100, alpha_min=0.5, alpha_max=0.2)
        with pytest.raises(ValueError, match="n must be an integer >= 2"):
            hb.hebbian_rate_curve(100, n=1)
        with pytest.raises(ValueError, match="alpha_min"):
            hb.hebbian_rate_curve(100, alpha_min=0.0)

    def test_huge_p_has_no_nan(self):
        # issue 9: p = 1e300 gave log1p(-err) of an err rounded above 1 (NaN, RuntimeWarning).
        # p^(1 - inf J) = 1e300 where inf J = 0 (α >= 1/2), and P(all correct) = 0 there.
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            c = hb.hebbian_rate_curve(1e300, n=3)
        assert not np.isnan(c.model_all_correct).any()
        assert c.expected_errors[-1] == pytest.approx(1e300) and c.model_all_correct[-1] == 0.0


class TestHebbianScoreVariances:
    def test_note_values(self):
        # note §7: d = 200, α = 0.2, p = 1137: p/d² + 2/d = 0.0384, p/d² + 4/d = 0.0484.
        p = p_at_load(0.2, 200)
        assert p == 1137
        off, diag = hb.hebbian_score_variances(p, 200)
        assert (round(off, 4), round(diag, 4)) == (0.0384, 0.0484)
        assert hb.hebbian_score_variances(p, 200, model="leading") == (p / 4e4, p / 4e4)
        assert hb.hebbian_score_variances(p, 200, model="row") == (off, off)

    def test_row_model_variance_by_simulation(self):
        # [OURS] Dividing row μ of the D.2 scores by |e_μ|²/d (argmax unchanged) leaves the target
        # with variance ≈ p/d² + 2/d instead of p/d² + 4/d. d = 200, p = 1137: 3 s.e. of a
        # variance from 1137 samples is 3·√(2/1137) = 13 %; p/d² + 4/d is 26 % above.
        d, p = 200, 1137
        inst = sample_problem(d, p, "original", rng=21)
        S = scores(hebbian_weights(inst), inst) / d
        rescaled = np.diag(S) / (np.sum(inst.keys**2, axis=1) / d)
        _, diag = hb.hebbian_score_variances(p, d, model="row")
        assert rescaled.var() == pytest.approx(diag, rel=0.13)
        assert rescaled.var() < 0.9 * hb.hebbian_score_variances(p, d)[1]

    @BAD_P_D
    def test_bad_p_d(self, args, exc, match):
        with pytest.raises(exc, match=match):
            hb.hebbian_score_variances(*args)

    def test_bad_model(self):
        with pytest.raises(ValueError, match="model must be one of"):
            hb.hebbian_score_variances(10, 10, model="exact")


class TestHebbianAccuracyModel:
    @pytest.mark.parametrize(
        ("d", "p", "leading", "finite_d"),
        [
            (50, 73, 0.999, 0.856),
            (100, 485, 0.921, 0.748),
            (400, 8807, 0.665, 0.596),
            (800, 30948, 0.660, 0.617),
        ],
    )
    def test_note_table(self, d, p, leading, finite_d):
        # note §2.6 table, model columns (3 decimals; ±0.005 allows for the note's rounding and
        # quadrature).
        assert hb.hebbian_accuracy_model(p, d, model="leading").accuracy == pytest.approx(
            leading, abs=0.005
        )
        assert hb.hebbian_accuracy_model(p, d).accuracy == pytest.approx(finite_d, abs=0.005)

    @pytest.mark.parametrize(
        ("p", "v_off", "v_diag"),
        [
            (73, 73 / 2500 + 0.04, 73 / 2500 + 0.08),
            (1e4, 0.1 / math.log(1e4), 0.1 / math.log(1e4)),
            (1e12, 0.05 / math.log(1e12), 0.05 / math.log(1e12)),
        ],
    )
    def test_quadrature_against_scipy_quad(self, p, v_off, v_diag):
        # eq. (D.5) with adaptive quad (Φ the CDF): relative 1e-7, down to P[E^c] ≈ 2e-50.
        def f(x):
            return -math.expm1((p - 1) * norm.logcdf(x / math.sqrt(v_off))) * norm.pdf(
                x, 1.0, math.sqrt(v_diag)
            )

        ref, _ = quad(f, -3, 3, points=[0.5, 1.0], epsabs=0, epsrel=1e-12, limit=500)
        assert math.exp(hb._log_error(p, v_off, v_diag)) == pytest.approx(ref, rel=1e-7)

    def test_fields_consistent(self):
        m = hb.hebbian_accuracy_model(343, 100, model="row")
        assert m.alpha == pytest.approx(343 * math.log(343) / 1e4)
        assert m.accuracy == pytest.approx(1.0 - m.error_probability, abs=1e-15)
        assert m.p_all_correct == pytest.approx(m.accuracy**343, rel=1e-9)
        assert m.expected_errors == pytest.approx(343 * m.error_probability)

    def test_row_model_closest_to_simulation(self):
        # d = 50, α = 0.125 (p = 73): note simulated 0.925 (0.904 in §3; ours, 200 instances:
        # 0.924 ± 0.002); models 0.999 (D.3), 0.856 (+O(1/d)), 0.901 (row, ours: still 0.023 low,
        # other row-shared factors remain). Mean of 32 instances: s.e. 0.029/√32 = 0.005, so
        # |sim − row| < 0.023 + 3 s.e. ≈ 0.04.
        p = p_at_load(0.125, 50)
        sim = np.mean(
            [
                accuracy(hebbian_weights(i), i)
                for i in (sample_problem(50, p, rng=300 + s) for s in range(32))
            ]
        )
        err = {m: abs(sim - hb.hebbian_accuracy_model(p, 50, model=m).accuracy) for m in hb.MODELS}
        assert err["row"] < 0.04
        assert err["row"] < err["finite_d"] and err["row"] < err["leading"]

    @BAD_P_D
    def test_bad_p_d(self, args, exc, match):
        with pytest.raises(exc, match=match):
            hb.hebbian_accuracy_model(*args)

    def test_bad_model(self):
        with pytest.raises(ValueError, match="model must be one of"):
            hb.hebbian_accuracy_model(10, 10, model="row-wise")


class TestHebbianThresholdAtP:
    @pytest.mark.parametrize(
        ("p", "ref"), [(1e2, 0.169), (1e3, 0.154), (1e4, 0.147), (1e6, 0.140), (1e12, 0.133)]
    )
    def test_note_values(self, p, ref):
        # note §2.6: α with P(all correct) = 1/2 in the model with σ² = α/ln p, ±0.002 (the note
        # prints 3 decimals).
        assert hb.hebbian_threshold_at_p(p) == pytest.approx(ref, abs=0.002)

    def test_slow_convergence_to_one_eighth(self):
        # Thm D.1's limit 1/8 is approached from above, slowly (0.122 above at p = 10², 0.008
        # above at 10¹²).
        values = [hb.hebbian_threshold_at_p(p) for p in (1e2, 1e4, 1e8, 1e12, 1e50)]
        assert np.all(np.diff(values) < 0) and values[-1] > 0.125
        assert values[-1] - 0.125 < 0.005

    @pytest.mark.parametrize("p", [1, 1.99, 0, -5, math.nan, math.inf])
    def test_bad_input(self, p):
        with pytest.raises(ValueError, match="p must be a finite number"):
            hb.hebbian_threshold_at_p(p)


class TestHebbianThresholdAtD:
    def test_ordering_and_large_d(self):
        # Our model thresholds: the note's +O(1/d) variances < row < p/d², all rising with d
        # towards 1/8 (the leading one from above).
        for d in (50, 100, 200, 400, 800):
            fd, row, lead = (
                hb.hebbian_threshold_at_d(d, model=m) for m in ("finite_d", "row", "leading")
            )
            assert fd < row < lead
        row = [hb.hebbian_threshold_at_d(d) for d in (50, 100, 200, 400, 800)]
        assert np.all(np.diff(row) > 0)
        assert row[-1] == pytest.approx(0.125, abs=0.003)  # note: P(all) = 0.5 at d = 800, 1/8

    def test_leading_model_is_the_function_of_p(self):
        # With σ² = p/d² = α/ln p the model at (d, α) equals the p-alone model at p(α, d).
        a = hb.hebbian_threshold_at_d(100, model="leading")
        c = a * 1e4
        p = c / float(lambertw(c).real)
        assert hb.hebbian_threshold_at_p(p) == pytest.approx(a, abs=1e-8)

    def test_simulated_first_violation_between_models_c12(self):
        # C12 at CI size, qualitative: d = 200, 8 instances per load. Well below the row
        # threshold (0.093) every instance recalls everything; at the p/d² threshold (0.155)
        # almost none does (note §2.6: first violation ≈ 0.1 at d = 200).
        sw = hb.hebbian_sweep(200, [0.06, 0.155], reps=8, seed=5)
        assert sw.all_correct_fraction[0] >= 7 / 8
        assert sw.all_correct_fraction[1] <= 2 / 8

    def test_bad_input(self):
        with pytest.raises(ValueError, match="d must be an integer >= 10"):
            hb.hebbian_threshold_at_d(5)
        with pytest.raises(ValueError, match="model must be one of"):
            hb.hebbian_threshold_at_d(100, model="none")


class TestHebbianSweep:
    def test_same_instances_as_accuracy_sweep(self):
        # Paired seeds (note pitfall 18): the Hebbian baseline of accuracy_sweep is reproduced.
        ref = accuracy_sweep(20, [0.3, 0.6], reps=2, steps=4)
        sw = hb.hebbian_sweep(20, [0.3, 0.6], reps=2)
        np.testing.assert_array_equal(sw.accuracy, ref.hebbian)
        np.testing.assert_array_equal(sw.p, ref.p)

    def test_first_violation_and_model_only(self):
        sw = hb.hebbian_sweep(50, [0.02, 0.05, 0.3, 0.6], reps=3)
        assert sw.reps == 3 and sw.first_violation == pytest.approx(sw.alpha_eff[2])
        assert sw.all_correct_fraction[0] == 1.0 and sw.all_correct_fraction[-1] == 0.0
        model_only = hb.hebbian_sweep(800, [0.5], reps=0)
        assert model_only.first_violation is None and np.isnan(model_only.mean_accuracy).all()
        assert model_only.p.tolist() == [30948]
        assert model_only.model_accuracy["finite_d"][0] == pytest.approx(0.617, abs=0.005)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="d must be an integer >= 2"):
            hb.hebbian_sweep(1, [0.1])
        with pytest.raises(ValueError, match="alphas"):
            hb.hebbian_sweep(50, [])
        with pytest.raises(ValueError, match="alphas"):
            hb.hebbian_sweep(50, [0.1, -0.2])
        with pytest.raises(ValueError, match="reps must be an integer >= 0"):
            hb.hebbian_sweep(50, [0.1], reps=-1)


class TestHebbianHistogram:
    def test_densities_and_reference_curves(self):
        h = hb.hebbian_histogram(0.2, 100, bins=40)
        width = np.diff(h.edges)
        assert h.edges.size == 41
        assert np.sum(h.target_density * width) == pytest.approx(1.0)
        assert np.sum(h.non_target_density * width) == pytest.approx(1.0)
        assert h.paper_target_mean == pytest.approx(math.sqrt(math.log(h.p) / h.alpha_eff))
        assert h.extreme_value == pytest.approx(math.sqrt(2 * math.log(h.p)))
        assert np.trapezoid(h.finite_d_target_pdf, h.grid) == pytest.approx(1.0, abs=1e-3)

    def test_target_moments_match_finite_d_law(self):
        # C11 in the Fig. D.1 normalisation: target mean 1/σ_off, std σ_diag/σ_off (note §2.6,
        # OURS). d = 200, α = 0.2: mean 5.10 (the paper's √(ln p/α) = 5.92 is 16 % off); s.e. of
        # the mean 1.12/√1137 = 0.033, tolerance 3 s.e.; std ±10 % (3 s.e. ≈ 6 %, plus
        # non-Gaussian tails).
        h = hb.hebbian_histogram(0.2, 200)
        assert h.target_mean == pytest.approx(h.finite_d_target_mean, abs=0.1)
        assert h.target_std == pytest.approx(h.finite_d_target_std, rel=0.1)
        assert h.paper_target_mean - h.target_mean > 0.5

    def test_accuracy_is_that_of_the_instance(self):
        h = hb.hebbian_histogram(0.3, 50, seed=3)
        sw = hb.hebbian_sweep(50, [0.3], reps=1, seed=3)
        assert h.accuracy == sw.accuracy[0, 0] and h.p == sw.p[0]

    def test_bad_input(self):
        with pytest.raises(ValueError, match="alpha"):
            hb.hebbian_histogram(-0.1, 50)
        with pytest.raises(ValueError, match="d must be an integer >= 2"):
            hb.hebbian_histogram(0.1, 1)
        with pytest.raises(ValueError, match="bins must be an integer >= 2"):
            hb.hebbian_histogram(0.1, 50, bins=1)
        with pytest.raises(ValueError, match="p >= 2"):
            hb.hebbian_histogram(1e-4, 50)
