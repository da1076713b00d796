"""Tests for explore.attention_index.sensing: counting, tokens, Gaussian equivalence."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem import explore
from assocmem.explore.attention_index import sensing as plots
from assocmem.quadratic import thresholds


class TestCountingView:
    def test_ranks_equal_the_psd_dimension(self):
        # dim of rank-p PSD d x d matrices = pd − p(p−1)/2, d(d+1)/2 for p ≥ d (slides' count
        # behind α_c = ρ − ρ²/2)
        v = plots.counting_view(0.5, d=12)
        np.testing.assert_array_equal(v.ranks, v.formula)
        assert v.p == 6 and v.rank == 6 * 12 - 15
        assert v.ranks[-1] == 12 * 13 // 2

    def test_finite_d_excess_over_alpha_pr(self):
        v = plots.counting_view(1.0, d=10)
        rho_p = v.widths / v.d
        excess = v.ranks / v.d**2 - thresholds.perfect_recovery_threshold(rho_p)
        np.testing.assert_allclose(excess, np.minimum(rho_p, 1.0) / (2 * v.d), atol=1e-12)
        assert v.alpha_pr == 0.5

    @settings(max_examples=20, deadline=None)
    @given(rho=st.floats(0.01, 2.0), d=st.integers(2, 12))
    def test_width_is_rounded_and_curve_is_alpha_pr(self, rho, d):
        v = plots.counting_view(rho, d=d)
        assert v.p == max(1, round(rho * d))
        assert v.alpha_pr == pytest.approx(float(thresholds.perfect_recovery_threshold(rho)))


class TestTokenView:
    def test_rank_is_the_aim_factor_for_every_beta(self):
        for beta in (0.3, 1.0, 5.0):
            v = plots.token_view(3, beta=beta)
            assert v.identifiable[0] == 0  # one token: nothing
            expected = [thresholds.aim_sample_factor(t) for t in range(2, 9)]
            np.testing.assert_array_equal(v.identifiable[1:], expected)
            np.testing.assert_array_equal(v.logits, v.tokens * (v.tokens + 1) // 2)

    @settings(max_examples=15, deadline=None)
    @given(T=st.integers(2, 8), beta=st.floats(0.05, 5.0), seed=st.integers(0, 50))
    def test_logits_recovered_up_to_a_constant(self, T, beta, seed):
        v = plots.token_view(T, beta=beta, d=20, seed=seed)
        assert v.H.shape == v.H_rec.shape == (T, T)
        assert v.spread < 1e-8
        assert np.allclose(v.H_rec, v.H_rec.T)

    def test_shift_does_not_depend_on_beta(self):
        shifts = [plots.token_view(4, beta=b, seed=1).shift for b in (0.3, 1.0, 5.0)]
        assert np.ptp(shifts) < 1e-10


class TestEquivalenceView:
    def test_identity_labels_and_semicircle(self):
        v = plots.equivalence_view(d=40, rho=0.5, alpha=0.5, seed=0)
        assert v.identity_error < 1e-10 and v.n == 800
        assert v.labels.shape == v.labels_goe.shape == (800,)
        # labels have variance 2Q: E Tr[GA]² = 2‖A‖²/d (800 samples: ±15 %)
        assert np.var(v.labels) / (2 * v.Q) == pytest.approx(1.0, abs=0.15)
        # Σ ξ G/√n is GOE-like: KS to the semicircle with 40 eigenvalues (loose)
        assert v.ks < 0.12 and v.ks_goe < 0.12
        assert v.spectrum.shape == (40,)


class TestPlots:
    def test_plot_counting(self):
        v = plots.counting_view(0.5, d=8)
        fig = plots.plot_counting(v)
        assert isinstance(fig, go.Figure)
        dots = fig.data[2]
        np.testing.assert_allclose(dots.y, v.ranks / 64)
        assert fig.data[3].y[0] == pytest.approx(v.rank / 64)
        assert f"measured {v.rank}" in fig.layout.title.text
        assert any(s.y0 == 0.5 == s.y1 for s in fig.layout.shapes)

    def test_plot_tokens(self):
        v = plots.token_view(5, beta=2.0)
        fig = plots.plot_tokens(v)
        bars, dots, shifted = fig.data[0], fig.data[-1], fig.data[-2]
        assert list(bars.marker.color).count("#1f77b4") == 1  # the current T
        # one dot per distinct logit, each on the line h + c
        assert np.asarray(dots.x).size == 15
        np.testing.assert_allclose(np.asarray(dots.y) - np.asarray(dots.x), v.shift, atol=1e-5)
        np.testing.assert_allclose(np.diff(np.asarray(shifted.y) - np.asarray(shifted.x)), 0.0)
        assert "14 identifiable forms of 15" in fig.layout.title.text

    def test_plot_equivalence(self):
        fig = plots.plot_equivalence(plots.equivalence_view(d=20, alpha=0.5))
        names = [t.name for t in fig.data]
        assert names.count("semicircle") == 1 and "N(0, 2Q)" in names
        cdf = next(t for t in fig.data if t.xaxis == "x2" and t.name == "network data")
        assert cdf.y[-1] == 1.0

    def test_static_explorations(self):
        fig = explore.static_figure(
            plots.token_view,
            plots.plot_tokens,
            [explore.Slider("T", 2, 8, integer=True, steps=3), explore.Choice("beta", (1.0, 5.0))],
        )
        assert len(fig.layout.sliders) == 2 and len(fig.layout.updatemenus[0].buttons) == 2
        fig = explore.static_figure(
            plots.counting_view,
            plots.plot_counting,
            [explore.Slider("rho", 0.01, 2.0, log=True, steps=3), explore.Choice("d", (8, 10))],
        )
        assert len(fig.layout.sliders[0].steps) == 3
