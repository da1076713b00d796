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

from assocmem.quadratic import attention


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
