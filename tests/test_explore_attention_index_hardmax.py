"""Tests for explore.attention_index.hardmax: the hardmax T = 2 views and their figures.

Reference values: the chapter note's §9.3 (hardmax state evolution, exact and with the public
code's formula) and §11 R25 (the thresholds 0.40341 and 0.56327), computed independently of
this package; closed forms where stated.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from assocmem import explore
from assocmem.explore._layout import legend_on_top
from assocmem.explore.attention_index import hardmax as plots
from assocmem.quadratic import attention


@pytest.fixture(scope="module")
def hardmax_data():
    return attention.sample_attention(30, 2, 0.5, 0.5, rng=2, output="hardmax")


class TestChannelSamples:
    def test_bits_are_signs_of_the_differences(self, hardmax_data):
        s = plots.channel_samples(hardmax_data, points=50)
        assert s.u.shape == (50, 2) and s.bits.shape == (50, 2)
        np.testing.assert_array_equal(s.bits, (s.u > 0).astype(int))
        # The hardmax outputs are these bits (row argmax of h).
        y = np.asarray(hardmax_data.y)[:50]
        np.testing.assert_array_equal(s.bits[:, 0], y[:, 0, 0])
        np.testing.assert_array_equal(s.bits[:, 1], y[:, 1, 1])
        assert math.isclose(sum(s.fractions.values()), 1.0)

    def test_needs_two_tokens(self):
        data = attention.sample_attention(10, 3, 0.5, 0.5, rng=0, output="hardmax")
        with pytest.raises(ValueError, match="T = 2"):
            plots.channel_samples(data)


class TestScoreSlice:
    def test_finite_differences_follow_the_exact_score(self):
        s = plots.score_slice(kappa2=0.3, c=-1 / 3, points=21)
        # ∂₁Φ₂ = φ(κ₁)Φ((κ₂ − cκ₁)/√(1 − c²)) (note §9.3): central differences of the
        # quadrature agree to O(step²) + quadrature error, far below the code's gap.
        np.testing.assert_allclose(s.score_fd, s.score_exact, atol=1e-7)
        assert np.max(np.abs(s.score_code - s.score_exact)) > 0.1

    def test_values_at_origin(self):
        s = plots.score_slice(points=3)
        # Φ₂(0, 0; c) = 1/4 + arcsin(c)/(2π); ∂₁Φ₂ = φ(0)/2; φ₂(0, 0; c) = 1/(2π√(1 − c²)).
        c = 1 / 3
        z0 = 0.25 + math.asin(c) / (2 * math.pi)
        assert abs(s.likelihood[1] - z0) < 1e-10
        assert abs(s.score_exact[1] * z0 - 0.5 / math.sqrt(2 * math.pi)) < 1e-12
        assert abs(s.score_code[1] * z0 - 1 / (2 * math.pi * math.sqrt(1 - c * c))) < 1e-12

    def test_range_order(self):
        with pytest.raises(ValueError, match="lo must be < hi"):
            plots.score_slice(lo=1.0, hi=0.0)


class TestHardmaxCurves:
    def test_note_values_and_order(self):
        c = plots.hardmax_curves([0.5, 0.1], alpha_min=0.1416, alpha_max=1.0027, points=2)
        # Note §9.3 table: exact 0.6426, 0.0786 (ρ = 0.5); 0.2169, 0.0045 (ρ = 0.1); the code's
        # formula 0.8032, 0.3150 and 0.5223, 0.0914 (1e-3, the note's agreement).
        np.testing.assert_allclose(c.exact, [[0.6426, 0.0786], [0.2169, 0.0045]], atol=1e-3)
        np.testing.assert_allclose(c.published, [[0.8032, 0.3150], [0.5223, 0.0914]], atol=1e-3)
        assert np.all(c.exact < c.published)

    def test_too_many_curves(self):
        with pytest.raises(ValueError, match="rho"):
            plots.hardmax_curves(np.linspace(0.1, 2.0, 13))


class TestNarrowLimitView:
    def test_thresholds_and_curves(self):
        v = plots.narrow_limit_view(alpha_bar_max=2.0, points=5, rho=[0.05])
        # Note §11 R25.
        assert abs(v.threshold_exact - 0.40341) < 1e-4
        assert abs(v.threshold_published - 0.56327) < 1e-4
        assert v.finite.shape == (1, 5)
        assert np.all(v.exact <= v.published)
        assert v.exact[0] == 1.0 and v.published[0] == 1.0


class TestGampView:
    def test_collects_run_and_theory(self, hardmax_data):
        res = attention.gamp_hardmax(hardmax_data)
        v = plots.gamp_view(hardmax_data, res)
        assert v.error.shape == v.m.shape == (res.n_iter + 1,)
        assert v.alpha == hardmax_data.n / 900
        assert v.exact < v.published


class TestFigures:
    def test_channel(self, hardmax_data):
        fig = plots.plot_channel(plots.channel_samples(hardmax_data))
        assert len(fig.data) == 4
        assert legend_on_top(fig)

    def test_score_slice(self):
        fig = plots.plot_score_slice(plots.score_slice(points=5))
        assert len(fig.data) == 4
        assert fig.data[1].xaxis == "x2"

    def test_curves_show_and_gamp_markers(self, hardmax_data):
        c = plots.hardmax_curves([0.5, 1.0], alpha_min=0.1, alpha_max=1.0, points=5)
        fig = plots.plot_hardmax_curves(c)
        # four curves and two black style keys; one legend entry per ρ, so pairs never split
        assert len(fig.data) == 6
        shown = [t.name for t in fig.data if t.showlegend is not False]
        assert shown == ["ρ = 0.5", "ρ = 1", "exact", "published"]
        only = plots.hardmax_curves(0.5, show="exact", alpha_min=0.1, alpha_max=1.0, points=5)
        v = plots.gamp_view(hardmax_data, attention.gamp_hardmax(hardmax_data))
        fig = plots.plot_hardmax_curves(only, gamp=[v])
        assert len(fig.data) == 2
        assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
        assert legend_on_top(fig)

    def test_narrow_limit_lines(self):
        v = plots.narrow_limit_view(alpha_bar_max=2.0, points=5)
        fig = plots.plot_hardmax_narrow_limit(v)
        xs = sorted(s.x0 for s in fig.layout.shapes if s.type == "line")
        np.testing.assert_allclose(xs, [v.threshold_exact, v.threshold_published])
        texts = {a.text for a in fig.layout.annotations}
        assert f"exact<br>ᾱ<sub>c</sub> = {v.threshold_exact:.3f}" in texts
        assert f"published {v.threshold_published:.3f}" in texts

    def test_gamp(self, hardmax_data):
        v = plots.gamp_view(hardmax_data, attention.gamp_hardmax(hardmax_data))
        assert len(plots.plot_gamp(v).data) == 4

    def test_static_exploration(self):
        fig = explore.static_figure(
            plots.hardmax_curves,
            plots.plot_hardmax_curves,
            [
                explore.Slider("rho", 0.1, 1.0, steps=2, log=True),
                explore.Choice("show", ("both", "exact")),
            ],
            {"points": 10},
        )
        assert len(fig.layout.sliders[0].steps) == 2

    @pytest.mark.parametrize(
        "func", [plots.plot_channel, plots.plot_hardmax_curves, plots.plot_hardmax_narrow_limit]
    )
    def test_wrong_result_type(self, func):
        with pytest.raises(TypeError):
            func(plots.score_slice(points=2))
