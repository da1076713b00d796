"""Tests for assocmem.quadratic.attention: attention-indexed data and the hardmax T = 2 channel.

Reference values come from the slides (E. Troiani, talk, "BO attention") where they state them,
and otherwise from the derivation sections of ``shared/notes/02-attention-index-models.md``
("note §"), whose numbers were computed independently of this module.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem._validation import ConvergenceWarning
from assocmem.quadratic import attention, bayes, thresholds


class TestSampleAttention:
    def test_shapes_and_counts(self) -> None:
        data = attention.sample_attention(30, 3, 0.5, 0.1, rng=1)
        # n = round(α d²) = 90 sequences of T = 3 tokens.
        assert data.n == 90
        assert data.X.shape == (90, 3, 30)
        assert data.y.shape == data.h.shape == (90, 3, 3)
        np.testing.assert_allclose(data.y.sum(axis=-1), 1.0, atol=1e-12)

    def test_teacher_rank_and_norm(self) -> None:
        data = attention.sample_attention(200, 2, 0.25, 0.001, rng=2)
        # A* = Wᵀ W/√(p d) with p = 50: rank p, Tr A*/d = √ρ, Tr A*²/d = 1 + ρ (note §2.1, LLN).
        assert np.linalg.matrix_rank(data.A) == 50
        assert abs(np.trace(data.A) / 200 - 0.5) < 0.02
        assert abs(np.trace(data.A @ data.A) / 200 - 1.25) < 0.05

    def test_logit_moments(self) -> None:
        data = attention.sample_attention(60, 2, 0.5, 1.0, rng=3)
        Q = np.trace(data.A @ data.A) / data.d
        # Note §3.4: h_aa has mean 0 and variance 2Q, h_ab (a ≠ b) variance Q; with n = 3600
        # the sample variances are within 3 standard errors (about 7%).
        assert abs(data.h[:, 0, 0].mean()) < 0.15
        assert abs(data.h[:, 0, 0].var() / (2 * Q) - 1) < 0.08
        assert abs(data.h[:, 0, 1].var() / Q - 1) < 0.08

    def test_logits_match_direct_formula(self) -> None:
        data = attention.sample_attention(12, 3, 0.5, 0.2, rng=4)
        x = data.X[5]
        direct = (x @ data.A @ x.T - np.trace(data.A) * np.eye(3)) / math.sqrt(12)
        np.testing.assert_allclose(data.h[5], direct, atol=1e-12)
        np.testing.assert_allclose(attention.attention_logits(x, data.A), direct, atol=1e-12)

    def test_seed_reproducible(self) -> None:
        a = attention.sample_attention(10, 2, 0.3, 0.5, rng=7)
        b = attention.sample_attention(10, 2, 0.3, 0.5, rng=np.random.default_rng(7))
        np.testing.assert_array_equal(a.X, b.X)
        np.testing.assert_array_equal(a.A, b.A)

    def test_hardmax_is_row_argmax(self) -> None:
        data = attention.sample_attention(15, 4, 0.5, 0.2, rng=5, output="hardmax")
        np.testing.assert_array_equal(data.y.argmax(axis=-1), data.h.argmax(axis=-1))
        np.testing.assert_array_equal(data.y.sum(axis=-1), 1.0)

    def test_softmax_output_matches_softmax_attention(self) -> None:
        data = attention.sample_attention(15, 3, 0.5, 0.2, rng=6, beta=2.5)
        y = attention.softmax_attention(data.X, data.A, beta=2.5)
        np.testing.assert_allclose(y, data.y, atol=1e-14)


class TestLogitDifferences:
    @pytest.mark.parametrize("beta", [0.3, 1.0, 5.0])
    def test_recovers_differences_at_every_beta(self, beta: float) -> None:
        # R23 (slides, "No effect of β < ∞"): β⁻¹ log(y_ab/y_aT) = h_ab − h_aT, to 1e-10.
        data = attention.sample_attention(20, 3, 0.5, 0.1, rng=8, beta=beta)
        diff = attention.logit_differences(data.y, beta)
        np.testing.assert_allclose(diff, data.h - data.h[..., -1:], atol=1e-10)

    def test_differences_independent_of_beta(self) -> None:
        X = np.random.default_rng(9).standard_normal((5, 4, 10))
        A = np.eye(10)
        d1 = attention.logit_differences(attention.softmax_attention(X, A, 0.3), 0.3)
        d2 = attention.logit_differences(attention.softmax_attention(X, A, 5.0), 5.0)
        np.testing.assert_allclose(d1, d2, atol=1e-10)

    def test_underflow_refused(self) -> None:
        y = np.array([[1.0, 0.0], [0.5, 0.5]])
        with pytest.raises(ValueError, match="y must hold softmax outputs"):
            attention.logit_differences(y, 1.0)


@settings(max_examples=25, deadline=None)
@given(
    T=st.integers(2, 5),
    beta=st.floats(0.05, 10.0),
    shift=st.floats(-3.0, 3.0),
    seed=st.integers(0, 2**16),
)
def test_softmax_forgets_one_shift_per_row(T: int, beta: float, shift: float, seed: int) -> None:
    # Softmax forgets one constant per row (h -> h + c 11ᵀ, note §3.4), and the logit
    # differences it keeps are recovered for any β.
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((3, T, 6))
    A = rng.standard_normal((6, 6))
    h = attention.attention_logits(X, A)
    y = attention.softmax_attention(X, A, beta)
    y_shift = np.exp(beta * (h + shift)) / np.exp(beta * (h + shift)).sum(-1, keepdims=True)
    np.testing.assert_allclose(y, y_shift, atol=1e-10)
    np.testing.assert_allclose(
        attention.logit_differences(y, beta), h - h[..., -1:], atol=1e-8 * (1 + np.abs(h).max())
    )


# --------------------------------------------------------------------------- hardmax T = 2

# Note §9.3 SE table: (ρ, α) -> (repo SE, our run of the repo's formula, exact). The note's
# exact and repo-formula columns agree with the repository's SE to about 1e-3 (its 24³ Hermite
# grid under-resolves the channel at small m), hence the tolerance.
SE_TABLE = [
    (0.5, 0.02, 0.9735, 0.9736, 0.9549),
    (0.5, 0.1416, 0.8034, 0.8032, 0.6426),
    (0.5, 1.0027, 0.3145, 0.3150, 0.0786),
    (0.5, 4.35, 0.0979, 0.0979, 0.0052),
    (0.1, 0.1416, 0.5228, 0.5223, 0.2169),
    (0.1, 1.0027, 0.0919, 0.0914, 0.0045),
]
# Note §9.3 narrow-limit curve (3 printed digits; the note's agreement with the repo's
# SE_hardmax_rho=0.py is about 5e-3).
NARROW_ALPHA_BAR = np.array([0.45, 0.6, 0.8, 1.0, 2.0, 5.0, 10.0])
NARROW_EXACT = np.array([0.988, 0.844, 0.606, 0.430, 0.120, 0.019, 0.0045])
NARROW_CODE = np.array([1.0, 0.996, 0.902, 0.783, 0.430, 0.177, 0.089])


class TestHardmaxChannel:
    @pytest.mark.parametrize("exact", [True, False])
    def test_reduced_integral_matches_thresholds_kernel(self, exact: bool) -> None:
        # The 2-D grid sum equals thresholds.hardmax_fisher's 3-D Gauss–Hermite sum where the
        # latter has converged (q/V <= 2, 24 nodes: 1e-11 from 48); at q = 0 both are exact
        # (1.23943 / 0.88768, note §11 R25).
        formula = "exact" if exact else "code"
        for q, V in [(0.0, 1.0), (0.5, 1.0), (1.0, 0.5)]:
            ref = thresholds.hardmax_fisher(q, q + V, formula=formula, n_nodes=24)
            ours = float(attention._channel_f(np.array([q / V]), exact)[0]) / (3 * V)
            assert abs(ours - ref) < 1e-9 * ref

    @pytest.mark.parametrize("exact", [True, False])
    def test_spline_matches_grid_sum(self, exact: bool) -> None:
        r = np.logspace(-3.9, 9.9, 15) * 1.13  # between the spline's nodes
        direct = attention._channel_f(r, exact)
        np.testing.assert_allclose(attention._channel(exact)(r), direct, rtol=1e-5)


class TestHardmaxCurve:
    @pytest.mark.parametrize(("rho", "alpha", "repo", "repo_formula", "exact"), SE_TABLE)
    def test_note_table(
        self, rho: float, alpha: float, repo: float, repo_formula: float, exact: float
    ) -> None:
        # Note §9.3 table, tolerance 1e-3 (see SE_TABLE).
        ours = attention.hardmax_curve(alpha, rho).mmse[0]
        published = attention.hardmax_curve(alpha, rho, exact=False).mmse[0]
        assert abs(ours - exact) < 1e-3
        assert abs(published - repo_formula) < 1e-3
        assert abs(published - repo) < 1.5e-3

    def test_matches_iterated_state_evolution(self) -> None:
        alphas = [0.05, 0.1416, 0.374, 1.0027]
        for exact in (True, False):
            se = attention.hardmax_state_evolution(alphas, 0.5, exact=exact)
            curve = attention.hardmax_curve(alphas, 0.5, exact=exact)
            assert np.all(se.converged)
            np.testing.assert_allclose(curve.mmse, se.mmse, atol=1e-4)

    def test_exact_below_published(self) -> None:
        # The exact channel carries more information: its MMSE is lower at every α > 0.
        alphas = np.logspace(-2, 1, 12)
        for rho in (0.1, 0.5, 2.0):
            ours = attention.hardmax_curve(alphas, rho).mmse
            published = attention.hardmax_curve(alphas, rho, exact=False).mmse
            assert np.all(ours < published)
            assert np.all(np.diff(ours) < 0) and np.all(np.diff(published) < 0)

    def test_starts_at_one(self) -> None:
        c = attention.hardmax_curve([0.0, 1e-5], 0.5)
        assert c.mmse[0] == 1.0 and c.qhat[0] == 0.0
        assert 0.999 < c.mmse[1] < 1.0

    def test_gamp_reference_points(self) -> None:
        # Note §9.3 "algorithmic evidence": at ρ = 0.5 the exact SE is 0.299 (α = 0.374) and
        # 0.557 (α = 0.182); the published formula gives 0.568 and 0.752 (3 digits).
        ours = attention.hardmax_curve([0.374, 0.182], 0.5).mmse
        published = attention.hardmax_curve([0.374, 0.182], 0.5, exact=False).mmse
        np.testing.assert_allclose(ours, [0.299, 0.557], atol=1.5e-3)
        np.testing.assert_allclose(published, [0.568, 0.752], atol=1.5e-3)


class TestHardmaxStateEvolution:
    def test_trajectory_decreases_from_one(self) -> None:
        with pytest.warns(ConvergenceWarning):
            se = attention.hardmax_state_evolution([0.1, 0.5], 0.5, steps=5, tol=1e-15)
        assert se.trajectory.shape == (6, 2)
        assert np.all(se.trajectory[0] == 1.0)
        assert np.all(np.diff(se.trajectory, axis=0) < 0)

    def test_warns_when_not_converged(self) -> None:
        with pytest.warns(ConvergenceWarning, match="not converged"):
            se = attention.hardmax_state_evolution(0.5, 0.5, steps=2)
        assert not se.converged[0]


class TestHardmaxNarrowLimit:
    def test_note_table(self) -> None:
        # Note §9.3 narrow-limit rows, tolerance 5e-3.
        ours = attention.hardmax_narrow_limit(NARROW_ALPHA_BAR)
        published = attention.hardmax_narrow_limit(NARROW_ALPHA_BAR, exact=False)
        np.testing.assert_allclose(ours, NARROW_EXACT, atol=5e-3)
        np.testing.assert_allclose(published, NARROW_CODE, atol=5e-3)

    @pytest.mark.parametrize("exact", [True, False])
    def test_threshold_matches_thresholds_module(self, exact: bool) -> None:
        # The curve leaves m = 1 at ᾱ_c of thresholds.hardmax_threshold (0.40341 exact,
        # 0.56327 code; note §11 R25).
        th = thresholds.hardmax_threshold()
        a_c = th.alpha_bar_exact if exact else th.alpha_bar_code
        below, above = attention.hardmax_narrow_limit(
            np.array([a_c * (1 - 1e-3), a_c * (1 + 1e-2)]), exact=exact
        )
        assert below == 1.0
        assert 0.9 < above < 1.0

    def test_finite_rho_approaches_limit(self) -> None:
        # At ρ = 0.01 the finite-ρ curve against ᾱ = α/ρ is already close to the limit (the
        # approach is slow, of order √ρ; note §6.3).
        ab = np.array([0.8, 2.0])
        finite = attention.hardmax_curve(ab * 0.01, 0.01).mmse
        np.testing.assert_allclose(finite, attention.hardmax_narrow_limit(ab), atol=0.1)


class TestAimTheory:
    def test_collapse(self) -> None:
        # R21 (slides, "Simple scaling for tokens"): T = 3 at α equals T = 2 at α·10/4 and the
        # quadratic network at α·5 (the factor (T² + T − 2)/2), to 1e-10.
        alphas = np.array([0.01, 0.03, 0.06])
        t3 = bayes.aim_mmse(alphas, 0.5, T=3).mmse
        np.testing.assert_allclose(t3, bayes.aim_mmse(alphas * 2.5, 0.5, T=2).mmse, atol=1e-10)
        np.testing.assert_allclose(t3, bayes.bo_mmse(alphas * 5, 0.5).mmse, atol=1e-10)

    def test_official_data(self) -> None:
        # R22: the repository's SE_softmax_T=2_rho=0.5.csv (note §9.1), tolerance 5e-4.
        alphas = np.array([0.0074, 0.0368, 0.0735, 0.1103, 0.1471, 0.1765])
        repo = np.array([0.96879, 0.80908, 0.56496, 0.32987, 0.14074, 0.03539])
        np.testing.assert_allclose(bayes.aim_mmse(alphas, 0.5, T=2).mmse, repo, atol=5e-4)


class TestGampHardmax:
    def test_learns_and_its_m_reaches_the_exact_curve(self) -> None:
        data = attention.sample_attention(30, 2, 0.5, 0.5, rng=3, output="hardmax")
        res = attention.gamp_hardmax(data)
        assert res.converged and not res.diverged
        # The error falls well below the prior mean's (Q* − ρ ≈ 1); the theory's m follows the
        # damped state evolution to the exact curve's fixed point (1e-4).
        assert res.error[-1] < 0.5 * res.error[0]
        exact = attention.hardmax_curve(0.5, 0.5).mmse[0]
        assert abs(res.m[-1] - exact) < 1e-4
        np.testing.assert_allclose(
            res.q_hat[-1], attention.hardmax_curve(0.5, 0.5).qhat[0], rtol=1e-3
        )

    def test_refuses_softmax_data(self) -> None:
        data = attention.sample_attention(10, 2, 0.5, 0.5, rng=0)
        with pytest.raises(ValueError, match="data must be hardmax"):
            attention.gamp_hardmax(data)

    @pytest.mark.slow
    @pytest.mark.parametrize("seed", [0, 1])
    def test_beats_the_published_curve(self, seed: int) -> None:
        # R26 (note §9.3, §11): d = 80, ρ = 0.5, α = 0.374; GAMP with the exact g_out within
        # ±15% of the exact SE 0.299 (the note measured 0.326 at d = 80) and clearly below the
        # published "Bayes-optimal" 0.568 — an algorithm cannot beat the optimum.
        data = attention.sample_attention(80, 2, 0.5, 0.374, rng=seed, output="hardmax")
        err = attention.gamp_hardmax(data).error[-1]
        exact = attention.hardmax_curve(0.374, 0.5).mmse[0]
        published = attention.hardmax_curve(0.374, 0.5, exact=False).mmse[0]
        assert abs(err / exact - 1) < 0.15
        assert err < 0.8 * published
